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
use crate::slot_visits;
use crate::world::World;

/// One live body, as a [`WorldView`] shows it.
#[derive(Clone, Copy, Debug)]
pub struct BodyView<'a> {
    /// The body's handle.
    pub id: BodyId,
    /// Fixed or dynamic.
    pub kind: BodyKind,
    /// The body's first shape, in its own frame.
    pub shape: &'a Shape,
    /// Every shape of the body, in its own frame, in the body's order
    /// (each at [`local_pose`](Self::local_pose) in the body).
    pub shapes: &'a [Shape],
    /// Each shape's pose in the body (`None`: at the body's origin).
    local_poses: &'a [Option<Isometry3<f32>>],
    /// Whether each shape is a sensor.
    sensors: &'a [bool],
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

impl BodyView<'_> {
    /// The pose of shape `k` in the body's frame (identity past the
    /// body's shapes).
    pub fn local_pose(&self, k: usize) -> Isometry3<f32> {
        self.local_poses.get(k).copied().flatten().unwrap_or_else(Isometry3::identity)
    }

    /// Whether shape `k` is a sensor.
    pub fn is_sensor(&self, k: usize) -> bool {
        self.sensors.get(k).copied().unwrap_or(false)
    }
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
    /// Per mover (the dynamic and kinematic bodies, in slot order): the
    /// island root's slot, for dynamic bodies.
    islands: Vec<Option<u32>>,
}

impl<'a> WorldView<'a> {
    /// Every live body, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyView<'a>> + '_ {
        let b = &self.world.bodies;
        (0..b.len()).filter(|&i| b.records[i].alive).map(move |i| {
            let island = match b.records[i].kind {
                BodyKind::Dynamic => {
                    b.movers.binary_search(&(i as u32)).ok().and_then(|place| self.islands[place])
                }
                _ => None,
            };
            self.body(i, island)
        })
    }

    /// The live dynamic and kinematic bodies, in slot order: what a drawer
    /// redraws each frame, in time linear in them however many fixed
    /// bodies the world holds.
    ///
    /// ```
    /// use sandbox::{BodyDesc, BodyKind, World};
    /// use collide::{Cuboid, nalgebra::Vector3};
    /// let mut world = World::new();
    /// let cube = || Cuboid::new(Vector3::repeat(0.5)).into();
    /// world.add_body(BodyDesc::fixed(cube())).unwrap();
    /// world.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::y() * 3.0)).unwrap();
    /// let view = world.view();
    /// let kinds: Vec<_> = view.movers().map(|b| b.kind).collect();
    /// assert_eq!(kinds, [BodyKind::Dynamic]);
    /// ```
    pub fn movers(&self) -> impl Iterator<Item = BodyView<'a>> + '_ {
        let movers = &self.world.bodies.movers;
        movers.iter().zip(&self.islands).map(|(&i, &island)| self.body(i as usize, island))
    }

    /// The view of the live body at `slot`, in island `island`.
    fn body(&self, i: usize, island: Option<u32>) -> BodyView<'a> {
        let w = self.world;
        let b = &w.bodies;
        BodyView {
            id: b.id(i),
            kind: b.records[i].kind,
            shape: b.first_shape(i),
            shapes: &b.shapes.shapes[b.shape_ranges[i].slots()],
            local_poses: b.shapes.local_poses_of(b.shape_ranges[i]),
            sensors: &b.shapes.sensors[b.shape_ranges[i].slots()],
            pose: &b.poses[i],
            awake: b.records[i].awake,
            fat_aabb: &w.broad_phase.fat[i],
            island,
        }
    }

    /// Every pair with contact points, as [`World::contacts`].
    pub fn contacts(&self) -> impl Iterator<Item = ContactView> + 'a {
        self.world.contacts()
    }

    /// A number that changes whenever a fixed body is added, removed or
    /// moved, and that no other world shares once one was: a drawer may
    /// keep what it built for the fixed bodies while it stays the same.
    pub fn fixed_revision(&self) -> u64 {
        self.world.bodies.fixed_revision
    }

    /// The world viewed.
    pub fn world(&self) -> &'a World {
        self.world
    }
}

impl World {
    /// A read-only view for drawing or inspecting the world. Building it
    /// finds the islands: linear in the dynamic and kinematic bodies and
    /// the contacts, never in the fixed bodies (issue 39: a million fixed
    /// bodies cost nothing per frame).
    pub fn view(&self) -> WorldView<'_> {
        let b = &self.bodies;
        // The sets are over places in `movers` (slot order), so the
        // smallest place of an island, its root, is its smallest slot.
        let movers = &b.movers;
        slot_visits::count(movers.len());
        let mut sets = UnionFind::default();
        sets.reset(movers.len());
        let place = |i: u32| match b.records[i as usize].kind {
            BodyKind::Dynamic => movers.binary_search(&i).ok(),
            _ => None,
        };
        for c in self.contacts.pairs.iter().filter(|c| c.point_count != 0) {
            if let (Some(pa), Some(pb)) = (place(c.body_a), place(c.body_b)) {
                sets.union(pa as u32, pb as u32);
            }
        }
        let islands = (0..movers.len())
            .map(|p| {
                let dynamic = b.records[movers[p] as usize].kind == BodyKind::Dynamic;
                dynamic.then(|| movers[sets.find(p as u32) as usize])
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

#[cfg(test)]
mod tests {
    use collide::Cuboid;
    use collide::nalgebra::Vector3;

    use crate::body::BodyDesc;
    use crate::slot_visits;
    use crate::world::World;

    fn cube(h: f32) -> collide::Shape {
        Cuboid::new(Vector3::repeat(h)).into()
    }

    /// A floor, a `side` × `side` grid of fixed tiles far from it, a stack
    /// of three cubes and a lone cube on the floor, stepped until they rest
    /// on it (their contacts touching).
    fn stacks_beside_tiles(side: usize) -> World {
        let mut world = World::new();
        let floor = BodyDesc::fixed(Cuboid::new(Vector3::new(10.0, 0.5, 10.0)).into())
            .with_position(Vector3::new(0.0, -0.5, 0.0));
        world.add_body(floor).unwrap();
        for i in 0..side {
            for j in 0..side {
                let at = Vector3::new(100.0 + 2.0 * i as f32, -0.25, 2.0 * j as f32);
                let tile = Cuboid::new(Vector3::new(1.0, 0.25, 1.0)).into();
                world.add_body(BodyDesc::fixed(tile).with_position(at)).unwrap();
            }
        }
        for k in 0..3 {
            let at = Vector3::new(0.0, 0.5 + k as f32, 0.0);
            world.add_body(BodyDesc::dynamic(cube(0.5)).with_position(at)).unwrap();
        }
        let lone = BodyDesc::dynamic(cube(0.5)).with_position(Vector3::new(5.0, 0.5, 0.0));
        world.add_body(lone).unwrap();
        for _ in 0..5 {
            world.step(1.0 / 60.0);
        }
        world
    }

    /// The islands the view gives are those of a union-find over every
    /// body slot (the oracle, written apart here), named by their smallest
    /// slot: the stack one island, the lone cube another, fixed bodies
    /// none.
    #[test]
    fn view_islands_match_a_union_find_over_every_slot() {
        let world = stacks_beside_tiles(10);
        let view = world.view();
        let n = world.bodies.len();
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                x = root[x];
            }
            x
        }
        let dynamic = |i: u32| {
            view.bodies().any(|b| b.id.index() == i as usize && b.kind == crate::BodyKind::Dynamic)
        };
        for c in world.contacts().filter(|c| !c.points().is_empty()) {
            let (a, b) = (c.body_a.index(), c.body_b.index());
            if dynamic(a as u32) && dynamic(b as u32) {
                let (ra, rb) = (find(&mut root, a), find(&mut root, b));
                let (lo, hi) = (ra.min(rb), ra.max(rb));
                root[hi] = lo;
            }
        }
        let mut islands = Vec::new();
        for body in view.bodies() {
            let expected = (body.kind == crate::BodyKind::Dynamic)
                .then(|| find(&mut root, body.id.index()) as u32);
            assert_eq!(body.island, expected, "body {}", body.id.index());
            islands.extend(body.island);
        }
        let stack = 1 + 100;
        assert_eq!(islands, [stack, stack, stack, stack + 3], "the stack and the lone cube");
        let movers: Vec<_> = view.movers().map(|b| (b.id, b.island)).collect();
        let dynamic: Vec<_> =
            view.bodies().filter(|b| b.island.is_some()).map(|b| (b.id, b.island)).collect();
        assert_eq!(movers, dynamic);
    }

    /// Building a view walks the moving bodies, not the fixed ones: with
    /// 10,000 fixed tiles and four cubes, a few slots (a pass over every
    /// slot would count 10,000 or more).
    #[test]
    fn a_view_of_a_large_static_world_visits_only_its_movers() {
        let world = stacks_beside_tiles(100);
        let before = slot_visits::total();
        let view = world.view();
        let visits = slot_visits::total() - before;
        assert_eq!(visits, 4, "the view walked {visits} slots");
        assert_eq!(view.movers().count(), 4);
    }
}
