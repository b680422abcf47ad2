//! An engine-neutral penetration oracle, applied to both engines' poses at
//! the end of a step:
//! - **body against ground**, analytic: the ground is the slab
//!   -1 ≤ y ≤ 0 (|x|, |z| ≤ 50), so a body over it whose lowest point is at
//!   `y_min` and highest at `y_max` overlaps it by
//!   `min(-y_min, y_max + 1)` (the shorter way out, up or down); the extreme
//!   points come from each shape's support along ±y.
//! - **body against body**: a sort-and-sweep along x finds every pair whose
//!   bounding spheres overlap, and the `tests` crate's exact f64 oracle gives
//!   the depth: the separating-axis minimum over face normals and edge
//!   cross products for boxes and hulls, plus the core distance for rounded
//!   shapes (`tests::expected_separation`). It shares no code with either
//!   engine. The depth is clamped to `r_a + r_b - |c_a - c_b|`, the
//!   translation that separates the bounding spheres and so the shapes.
//!
//! The deepest overlap is the run's "exact" penetration for both engines
//! alike, independent of either engine's contact caching (rapier recycles
//! the manifolds of a pair whose relative pose moved less than 5 cm, leaving
//! their `dist` stale). parry3d's `contact` query is not used: it returned a
//! 1.6 m depth for a capsule lying at rest on the 100 m ground cuboid, and
//! 0.5 m for two pyramid cubes tilted by under 5e-4 rad that overlap by
//! 0.29 mm (checked by the f64 separating-axis test).

use std::error::Error;

use collide::nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use rapier3d::math::Pose;
use rapier3d::prelude::Vector;
use tests::sat::sat_penetration;
use tests::{OracleShape, expected_separation};

use crate::layout::{
    BodySpec, CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS, CUBE_HALF, GROUND_HALF, GROUND_Y, SPHERE_RADIUS,
    ShapeSpec,
};

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

/// The oracle's shape of a body specification, in its own frame.
fn oracle_shape(shape: &ShapeSpec) -> Result<OracleShape, Box<dyn Error>> {
    let f = f64::from;
    Ok(match shape {
        ShapeSpec::Cube => OracleShape::cuboid(Vector3::repeat(f(CUBE_HALF))),
        ShapeSpec::Sphere => OracleShape::sphere(f(SPHERE_RADIUS)),
        ShapeSpec::Capsule => OracleShape::capsule(f(CAPSULE_HALF_HEIGHT), f(CAPSULE_RADIUS)),
        ShapeSpec::Hull(vertices) => {
            let points: Vec<Point3<f64>> = vertices.iter().map(|p| p.cast()).collect();
            OracleShape::hull(&points).ok_or("the oracle could not hull the icosahedron")?
        }
    })
}

/// An engine pose as the oracle's (nalgebra) isometry.
fn isometry(pose: &Pose) -> Isometry3<f32> {
    let (t, q) = (pose.translation, pose.rotation);
    Isometry3::from_parts(
        Translation3::new(t.x, t.y, t.z),
        UnitQuaternion::new_normalize(Quaternion::new(q.w, q.x, q.y, q.z)),
    )
}

/// How deep (metres, 0 when apart or touching) two posed shapes overlap.
fn overlap(a: &OracleShape, b: &OracleShape) -> f32 {
    let depth = if a.radius == 0.0 && b.radius == 0.0 {
        // Two polytopes: the separating-axis minimum is the depth, and a
        // value of at most zero means apart (no distance needed).
        sat_penetration(&a.core, &b.core).map_or(0.0, |r| r.depth)
    } else {
        -expected_separation(a, b).signed()
    };
    depth.max(0.0) as f32
}

/// The oracle for one scene: its shapes and bounding radii, and scratch space.
pub struct PenetrationOracle {
    specs: Vec<ShapeSpec>,
    shapes: Vec<OracleShape>,
    /// Each body's shape at the poses being checked (`None` if not checked).
    posed: Vec<Option<OracleShape>>,
    radii: Vec<f32>,
    order: Vec<u32>,
}

impl PenetrationOracle {
    /// An oracle for the bodies of `specs`.
    pub fn new(specs: &[BodySpec]) -> Result<Self, Box<dyn Error>> {
        Ok(Self {
            specs: specs.iter().map(|s| s.shape.clone()).collect(),
            shapes: specs.iter().map(|s| oracle_shape(&s.shape)).collect::<Result<_, _>>()?,
            posed: vec![None; specs.len()],
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
            self.posed[i] = None;
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
                    for (k, p) in [(a, &pa), (b, &pb)] {
                        let k = k as usize;
                        if self.posed[k].is_none() {
                            self.posed[k] = Some(self.shapes[k].posed(&isometry(p)));
                        }
                    }
                    if let (Some(sa), Some(sb)) = (&self.posed[a as usize], &self.posed[b as usize])
                    {
                        deepest = deepest.max(overlap(sa, sb).min(bound));
                    }
                }
            }
        }
        Ok(deepest)
    }
}
