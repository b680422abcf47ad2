//! The reference answer for any pair of rounded polytopes: penetration depth
//! and normal when they overlap, distance and closest points when not.
//!
//! For `A = Ca ⊕ ball(ra)` and `B = Cb ⊕ ball(rb)` the Minkowski difference is
//! `(Ca − Cb) ⊕ ball(ra + rb)`, whose support function is the cores' plus
//! `ra + rb`. Hence, with `r = ra + rb`:
//! * if the cores overlap with separating-axis depth `s > 0`
//!   ([`crate::sat`]), the penetration depth is `s + r` along the same axis;
//! * otherwise the cores are disjoint at distance `d` ([`crate::brute_distance`]):
//!   the shapes overlap by `r − d` along the core witness direction if `d < r`,
//!   else they are separated by `d − r`, with the closest points moved from
//!   the cores by the radii along that direction.
//!
//! This is the same decomposition as collide's core-plus-margin design, but it
//! is computed with entirely separate, exact machinery.

use nalgebra::{Point3, Vector3};

use crate::brute_distance::core_distance;
use crate::oracle_shape::OracleShape;
use crate::sat::sat_penetration;

/// What the oracle says about a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expected {
    /// The shapes overlap (or touch, at depth 0).
    Overlapping {
        /// Exact penetration depth.
        depth: f64,
        /// A minimising unit normal from A to B.
        normal: Vector3<f64>,
        /// The smallest overlap along a direction clearly different from
        /// `normal` (infinite when the normal is unique by construction).
        runner_up: f64,
    },
    /// The shapes are disjoint.
    Separated {
        /// Exact distance.
        distance: f64,
        /// Closest point on A.
        point_a: Point3<f64>,
        /// Closest point on B.
        point_b: Point3<f64>,
    },
}

impl Expected {
    /// Signed separation: the distance when separated, minus the depth when
    /// overlapping.
    pub fn signed(&self) -> f64 {
        match *self {
            Self::Overlapping { depth, .. } => -depth,
            Self::Separated { distance, .. } => distance,
        }
    }
}

/// The exact relation between two posed shapes.
///
/// ```
/// use tests::{OracleShape, expected_separation, Expected};
/// use tests::nalgebra::Isometry3;
/// let a = OracleShape::sphere(1.0).posed(&Isometry3::identity());
/// let b = OracleShape::sphere(0.5).posed(&Isometry3::translation(2.0, 0.0, 0.0));
/// assert!(matches!(expected_separation(&a, &b), Expected::Separated { distance, .. } if distance == 0.5));
/// ```
pub fn expected_separation(a: &OracleShape, b: &OracleShape) -> Expected {
    let r = a.radius + b.radius;
    let sat = if a.core.is_solid() || b.core.is_solid() {
        sat_penetration(&a.core, &b.core)
    } else {
        None
    };
    if let Some(s) = sat
        && s.depth > 0.0
    {
        return Expected::Overlapping {
            depth: s.depth + r,
            normal: s.axis,
            runner_up: s.runner_up + r,
        };
    }
    let pair = core_distance(&a.core, &b.core);
    let d = pair.distance;
    let dir = if d > 0.0 {
        (pair.point_b - pair.point_a) / d
    } else if let Some(s) = sat {
        s.axis
    } else {
        // Crossing segments or coincident points: any direction normal to
        // both cores is a minimiser; pick one.
        fallback_normal(a, b)
    };
    if d < r {
        // Disjoint cores: the minimiser of the core difference's support
        // function is unique, so the normal is too.
        Expected::Overlapping { depth: r - d, normal: dir, runner_up: f64::INFINITY }
    } else {
        Expected::Separated {
            distance: d - r,
            point_a: pair.point_a + dir * a.radius,
            point_b: pair.point_b - dir * b.radius,
        }
    }
}

/// A unit vector normal to both cores' directions (for touching or crossing
/// low-dimensional cores).
fn fallback_normal(a: &OracleShape, b: &OracleShape) -> Vector3<f64> {
    let dir = |s: &OracleShape| match s.core.vertices.as_slice() {
        [p, q, ..] => q - p,
        _ => Vector3::zeros(),
    };
    let c = dir(a).cross(&dir(b));
    if c.norm() > 0.0 {
        return c.normalize();
    }
    let any = dir(a) + dir(b);
    if any.norm() > 0.0 {
        any.normalize().cross(&Vector3::x()).try_normalize(0.0).unwrap_or(Vector3::y())
    } else {
        Vector3::x()
    }
}

/// Overlap of posed `a` and `b` along unit `n` (from A to B): how far B must
/// move along `n` to separate; negative if they are apart along `n`.
pub fn overlap_along(a: &OracleShape, b: &OracleShape, n: &Vector3<f64>) -> f64 {
    a.support(n) + b.support(&-n)
}
