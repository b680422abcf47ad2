//! An engine-neutral penetration oracle: given the poses of the dynamic
//! bodies (in creation order) at the end of a step, it finds every pair whose
//! bounding spheres overlap by a sort-and-sweep along x, plus every body near
//! the ground, and asks parry3d's exact `contact` query (SAT for box pairs,
//! GJK/EPA otherwise) for the signed distance. The deepest overlap is the
//! run's "exact" penetration for both engines alike, so it does not depend on
//! either engine's contact caching (rapier recycles manifolds whose relative
//! pose moved less than 5 cm, leaving their `dist` stale; sandbox keeps a
//! manifold only while the relative pose is unchanged).

use std::error::Error;

use rapier3d::math::Pose;
use rapier3d::parry::query;
use rapier3d::parry::shape::SharedShape;
use rapier3d::prelude::Vector;

use crate::layout::{
    BodySpec, CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS, CUBE_HALF, GROUND_HALF, GROUND_Y, SPHERE_RADIUS,
    ShapeSpec,
};

/// The parry3d shape of a body specification.
pub fn parry_shape(shape: &ShapeSpec) -> Result<SharedShape, Box<dyn Error>> {
    Ok(match shape {
        ShapeSpec::Cube => SharedShape::cuboid(CUBE_HALF, CUBE_HALF, CUBE_HALF),
        ShapeSpec::Sphere => SharedShape::ball(SPHERE_RADIUS),
        ShapeSpec::Capsule => SharedShape::capsule_y(CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS),
        ShapeSpec::Hull(vertices) => {
            let points: Vec<Vector> = vertices.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
            SharedShape::convex_hull(&points).ok_or("parry3d could not hull the icosahedron")?
        }
    })
}

/// The oracle for one scene: its shapes and bounding radii, and scratch space.
pub struct PenetrationOracle {
    shapes: Vec<SharedShape>,
    radii: Vec<f32>,
    ground: SharedShape,
    ground_pose: Pose,
    order: Vec<u32>,
}

impl PenetrationOracle {
    /// An oracle for the bodies of `specs`.
    pub fn new(specs: &[BodySpec]) -> Result<Self, Box<dyn Error>> {
        Ok(Self {
            shapes: specs.iter().map(|s| parry_shape(&s.shape)).collect::<Result<_, _>>()?,
            radii: specs.iter().map(|s| s.shape.bounding_radius()).collect(),
            ground: SharedShape::cuboid(GROUND_HALF[0], GROUND_HALF[1], GROUND_HALF[2]),
            ground_pose: Pose::translation(0.0, GROUND_Y, 0.0),
            order: Vec::with_capacity(specs.len()),
        })
    }

    /// Deepest overlap (metres, 0 when nothing overlaps) among the bodies at
    /// `poses` (one per spec, `None` for a body the engine removed) and
    /// between them and the ground. Non-finite poses are skipped: the run
    /// reports them separately.
    pub fn max_penetration(&mut self, poses: &[Option<Pose>]) -> Result<f32, Box<dyn Error>> {
        let finite = |p: &Pose| p.translation.is_finite() && p.rotation.is_finite();
        let mut deepest = 0.0f32;
        let mut overlap = |pose1: &Pose, s1: &SharedShape, pose2: &Pose, s2: &SharedShape| {
            query::contact(pose1, s1.as_ref(), pose2, s2.as_ref(), 0.0)
                .map(|c| {
                    if let Some(c) = c {
                        deepest = deepest.max(-c.dist);
                    }
                })
                .map_err(|_| "parry3d does not support a shape pair of the scene")
        };

        self.order.clear();
        for (i, pose) in poses.iter().enumerate() {
            let Some(pose) = pose.filter(finite) else { continue };
            self.order.push(i as u32);
            // The ground's top face is y = 0 and it reaches |x|, |z| = 50.
            let r = self.radii[i];
            let t = pose.translation;
            if t.y - r < 0.0 && t.x.abs() < GROUND_HALF[0] + r && t.z.abs() < GROUND_HALF[2] + r {
                overlap(&self.ground_pose, &self.ground, &pose, &self.shapes[i])?;
            }
        }

        let x = |i: u32| poses[i as usize].map_or(0.0, |p| p.translation.x);
        self.order.sort_unstable_by(|&a, &b| x(a).total_cmp(&x(b)));
        for (n, &a) in self.order.iter().enumerate() {
            let (pa, ra) = (poses[a as usize].unwrap_or(Pose::IDENTITY), self.radii[a as usize]);
            for &b in &self.order[n + 1..] {
                let (pb, rb) =
                    (poses[b as usize].unwrap_or(Pose::IDENTITY), self.radii[b as usize]);
                // Sorted by x: once the gap along x exceeds both radii, no
                // later body can overlap `a` either.
                if pb.translation.x - pa.translation.x > ra + rb {
                    break;
                }
                if pa.translation.distance_squared(pb.translation) < (ra + rb) * (ra + rb) {
                    overlap(&pa, &self.shapes[a as usize], &pb, &self.shapes[b as usize])?;
                }
            }
        }
        Ok(deepest)
    }
}
