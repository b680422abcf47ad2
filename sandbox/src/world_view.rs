//! What there is to see of a world, read-only: each body's pose, shape,
//! kind, awake flag, fat box and island, plus summaries (energy, a pose
//! hash). A renderer or a debugger reads a [`WorldView`] and nothing else,
//! as rapier's debug renderer and testbed keep drawing outside the engine.

use collide::Shape;
use collide::nalgebra::Isometry3;

use crate::body::{BodyId, BodyKind};
use crate::collision::aabb::Aabb;
use crate::collision::contact_view::ContactView;
use crate::sleep::union_find::UnionFind;
use crate::world::World;

/// One live body, as a [`WorldView`] shows it.
#[derive(Clone, Copy, Debug)]
pub struct BodyView<'a> {
    /// The body's handle.
    pub id: BodyId,
    /// Fixed or dynamic.
    pub kind: BodyKind,
    /// The shape, in the body's frame.
    pub shape: &'a Shape,
    /// The body frame's pose in the world.
    pub pose: &'a Isometry3<f32>,
    /// Whether the body is awake (fixed bodies never are).
    pub awake: bool,
    /// The broad phase's fattened box.
    pub fat_aabb: &'a Aabb,
    /// The body's island: dynamic bodies linked by touching contacts share
    /// one, named by the smallest slot in it; `None` for fixed bodies.
    pub island: Option<u32>,
}

/// A read-only view of a world, with islands computed once for it.
///
/// ```
/// use sandbox::{Scene, World, build_scene};
/// let mut world = World::new();
/// build_scene(&mut world, Scene::Stack, 3).unwrap();
/// world.step(1.0 / 60.0);
/// let view = world.view();
/// let islands: Vec<_> = view.bodies().filter_map(|b| b.island).collect();
/// // The three cubes stand on one another: one island.
/// assert_eq!(islands, [islands[0]; 3]);
/// ```
#[derive(Debug)]
pub struct WorldView<'a> {
    world: &'a World,
    /// Per slot: the island root, for dynamic bodies.
    islands: Vec<Option<u32>>,
}

impl<'a> WorldView<'a> {
    /// Every live body, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyView<'a>> + '_ {
        let w = self.world;
        let b = &w.bodies;
        (0..b.len()).filter(|&i| b.records[i].alive).map(move |i| BodyView {
            id: b.id(i),
            kind: b.records[i].kind,
            shape: b.first_shape(i),
            pose: &b.poses[i],
            awake: b.records[i].awake,
            fat_aabb: &w.broad_phase.fat[i],
            island: self.islands[i],
        })
    }

    /// Every pair with contact points, as [`World::contacts`].
    pub fn contacts(&self) -> impl Iterator<Item = ContactView> + 'a {
        self.world.contacts()
    }

    /// The world viewed.
    pub fn world(&self) -> &'a World {
        self.world
    }
}

impl World {
    /// A read-only view for drawing or inspecting the world. Building it
    /// finds the islands: linear in bodies and contacts.
    pub fn view(&self) -> WorldView<'_> {
        let b = &self.bodies;
        let mut sets = UnionFind::default();
        sets.reset(b.len());
        for c in &self.contacts.pairs {
            let dynamic = |i: u32| b.records[i as usize].kind == BodyKind::Dynamic;
            if c.point_count != 0 && dynamic(c.body_a) && dynamic(c.body_b) {
                sets.union(c.body_a, c.body_b);
            }
        }
        let islands = (0..b.len())
            .map(|i| {
                let r = &b.records[i];
                (r.alive && r.kind == BodyKind::Dynamic).then(|| sets.find(i as u32))
            })
            .collect();
        WorldView { world: self, islands }
    }

    /// Kinetic plus gravitational potential energy of the dynamic bodies, in
    /// joules (potential measured from the world origin).
    pub fn total_energy(&self) -> f64 {
        let g = self.settings.gravity;
        let b = &self.bodies;
        let mut e = 0.0f64;
        for (i, r) in b.records.iter().enumerate() {
            if !r.alive || r.kind != BodyKind::Dynamic {
                continue;
            }
            let v = b.linear_velocities[i];
            let w = b.angular_velocities[i];
            let rot = b.poses[i].rotation.to_rotation_matrix();
            let inertia = rot.matrix() * r.mass.inertia * rot.matrix().transpose();
            let center = b.poses[i] * r.mass.local_center;
            let kinetic = 0.5 * r.mass.mass * v.norm_squared() + 0.5 * w.dot(&(inertia * w));
            let potential = -r.mass.mass * g.dot(&center.coords);
            e += f64::from(kinetic) + f64::from(potential);
        }
        e
    }

    /// A 64-bit FNV-1a hash of the bit patterns of every live dynamic body's
    /// pose (`x, y, z, qw, qx, qy, qz`), in slot order. Equal worlds stepped
    /// equally give equal hashes.
    pub fn pose_hash(&self) -> u64 {
        const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
        let b = &self.bodies;
        let mut h = FNV_OFFSET;
        for (i, r) in b.records.iter().enumerate() {
            if !r.alive || r.kind != BodyKind::Dynamic {
                continue;
            }
            let p = &b.poses[i];
            let q = p.rotation.quaternion();
            for x in [p.translation.x, p.translation.y, p.translation.z, q.w, q.i, q.j, q.k] {
                for byte in x.to_bits().to_le_bytes() {
                    h ^= u64::from(byte);
                    h = h.wrapping_mul(FNV_PRIME);
                }
            }
        }
        h
    }
}
