//! An engine-neutral penetration oracle, applied to both engines' poses at
//! the end of a step:
//! - **body against ground**, analytic: the ground is the slab
//!   -1 ≤ y ≤ 0 (|x|, |z| ≤ 50), so a body over it whose lowest point is at
//!   `y_min` and highest at `y_max` overlaps it by
//!   `min(-y_min, y_max + 1)` (the shorter way out, up or down); the extreme
//!   points come from each shape's support along ±y.
//! - **body against body**: a sort-and-sweep along x finds every pair whose
//!   bounding spheres overlap, and parry3d's exact `contact` query (SAT for
//!   box pairs, GJK/EPA otherwise) gives the depth, clamped to
//!   `r_a + r_b - |c_a - c_b|`, the translation that separates the bounding
//!   spheres and so the shapes: an upper bound that catches an EPA answer
//!   gone wrong.
//!
//! The deepest overlap is the run's "exact" penetration for both engines
//! alike, independent of either engine's contact caching (rapier recycles
//! the manifolds of a pair whose relative pose moved less than 5 cm, leaving
//! their `dist` stale). The ground is analytic because parry3d 0.31 returned
//! a 1.6 m depth for a capsule lying at rest on the 100 m ground cuboid.

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

/// The lowest and highest y of `shape` at `pose`, from its support along ±y.
fn vertical_extent(shape: &ShapeSpec, pose: &Pose) -> (f32, f32) {
    let y = pose.translation.y;
    // The y component of each rotated local axis.
    let axis_y = |axis: Vector| (pose.rotation * axis).y.abs();
    let half = match shape {
        ShapeSpec::Cube => CUBE_HALF * (axis_y(Vector::X) + axis_y(Vector::Y) + axis_y(Vector::Z)),
        ShapeSpec::Sphere => SPHERE_RADIUS,
        ShapeSpec::Capsule => CAPSULE_HALF_HEIGHT * axis_y(Vector::Y) + CAPSULE_RADIUS,
        ShapeSpec::Hull(vertices) => {
            let ys = vertices.iter().map(|v| (pose.rotation * Vector::new(v.x, v.y, v.z)).y);
            let (lo, hi) =
                ys.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
            return (y + lo, y + hi);
        }
    };
    (y - half, y + half)
}

/// How deep (metres, 0 when apart or touching) two posed shapes overlap,
/// by parry3d's exact contact query.
fn overlap(
    pose1: &Pose,
    shape1: &SharedShape,
    pose2: &Pose,
    shape2: &SharedShape,
) -> Result<f32, Box<dyn Error>> {
    let contact = query::contact(pose1, shape1.as_ref(), pose2, shape2.as_ref(), 0.0)
        .map_err(|_| "parry3d does not support a shape pair of the scene")?;
    Ok(contact.map_or(0.0, |c| (-c.dist).max(0.0)))
}

/// The oracle for one scene: its shapes and bounding radii, and scratch space.
pub struct PenetrationOracle {
    specs: Vec<ShapeSpec>,
    shapes: Vec<SharedShape>,
    radii: Vec<f32>,
    order: Vec<u32>,
}

impl PenetrationOracle {
    /// An oracle for the bodies of `specs`.
    pub fn new(specs: &[BodySpec]) -> Result<Self, Box<dyn Error>> {
        Ok(Self {
            specs: specs.iter().map(|s| s.shape.clone()).collect(),
            shapes: specs.iter().map(|s| parry_shape(&s.shape)).collect::<Result<_, _>>()?,
            radii: specs.iter().map(|s| s.shape.bounding_radius()).collect(),
            order: Vec::with_capacity(specs.len()),
        })
    }

    /// Deepest overlap (metres, 0 when nothing overlaps) among the bodies at
    /// `poses` (one per spec, `None` for a body the engine removed) and
    /// between them and the ground. Non-finite poses are skipped: the run
    /// reports them separately.
    pub fn max_penetration(&mut self, poses: &[Option<Pose>]) -> Result<f32, Box<dyn Error>> {
        let finite = |p: &Pose| p.translation.is_finite() && p.rotation.is_finite();
        let ground_top = GROUND_Y + GROUND_HALF[1];
        let ground_bottom = GROUND_Y - GROUND_HALF[1];
        let mut deepest = 0.0f32;

        self.order.clear();
        for (i, pose) in poses.iter().enumerate() {
            let Some(pose) = pose.filter(finite) else { continue };
            self.order.push(i as u32);
            let t = pose.translation;
            if t.x.abs() <= GROUND_HALF[0] && t.z.abs() <= GROUND_HALF[2] {
                let (low, high) = vertical_extent(&self.specs[i], &pose);
                let depth = (ground_top - low).min(high - ground_bottom);
                deepest = deepest.max(depth);
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
                let bound = ra + rb - pa.translation.distance(pb.translation);
                if bound > 0.0 {
                    let depth =
                        overlap(&pa, &self.shapes[a as usize], &pb, &self.shapes[b as usize])?;
                    deepest = deepest.max(depth.min(bound));
                }
            }
        }
        Ok(deepest)
    }
}
