//! Oracles for ray casts and shape casts.
//!
//! * [`ray_sphere`]: the closed form for a ray against a ball, in f64.
//! * [`first_contact`]: the first root of a function that is convex along
//!   the cast, by golden-section search for its minimum and bisection before
//!   it. The signed distance from a point moving on a line to a convex
//!   shape is convex in the line's parameter, and so is the signed
//!   separation of two convex shapes under linear relative motion (the
//!   distance from a moving point to their Minkowski difference), so this
//!   finds the time of first contact of any cast.
//! * [`ray_oracle`] and [`shape_cast_oracle`] apply it to the exact f64
//!   signed distance of [`OracleShape`] and the brute-force separation of
//!   [`expected_separation`]; neither shares code or method with collide's
//!   closed forms or its GJK ray cast.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};

use crate::oracle_shape::OracleShape;
use crate::separation::expected_separation;

/// The expected outcome of a cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CastExpected {
    /// Inside or touching at parameter 0; `value` is the signed distance
    /// there (≤ 0).
    StartsInside {
        /// Signed distance or separation at the start.
        value: f64,
    },
    /// First contact at `t`.
    Hit {
        /// Parameter of first contact.
        t: f64,
    },
    /// No contact up to the maximum; `closest` is the smallest signed
    /// distance or separation on the way (> 0).
    Miss {
        /// Smallest value reached.
        closest: f64,
    },
}

/// Golden-section steps: (0.618)^200 shrinks any interval below f64
/// resolution.
const SEARCH_STEPS: usize = 200;

/// First `t` in `[0, max_t]` where the convex function `f` reaches zero.
///
/// ```
/// use tests::casts::{first_contact, CastExpected};
/// let e = first_contact(|t| (t - 3.0).abs() - 1.0, 10.0);
/// assert!(matches!(e, CastExpected::Hit { t } if (t - 2.0).abs() < 1e-12));
/// assert!(matches!(first_contact(|t| (t - 3.0).abs() + 1.0, 10.0), CastExpected::Miss { .. }));
/// ```
pub fn first_contact(f: impl Fn(f64) -> f64, max_t: f64) -> CastExpected {
    let start = f(0.0);
    if start <= 0.0 {
        return CastExpected::StartsInside { value: start };
    }
    // Minimum of the convex f on [0, max_t].
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    let (mut lo, mut hi) = (0.0, max_t);
    for _ in 0..SEARCH_STEPS {
        let m1 = hi - phi * (hi - lo);
        let m2 = lo + phi * (hi - lo);
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let t_min = 0.5 * (lo + hi);
    let closest = f(t_min).min(f(max_t));
    let t_min = if f(max_t) <= f(t_min) { max_t } else { t_min };
    if closest > 0.0 {
        return CastExpected::Miss { closest };
    }
    // f(0) > 0 ≥ f(t_min): one crossing in between.
    let (mut lo, mut hi) = (0.0, t_min);
    for _ in 0..SEARCH_STEPS {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    CastExpected::Hit { t: 0.5 * (lo + hi) }
}

/// Ray `origin + t·dir` against the ball of `radius` about `centre`, in
/// closed form.
///
/// ```
/// use tests::casts::{ray_sphere, CastExpected};
/// use tests::nalgebra::{Point3, Vector3};
/// let e = ray_sphere(&Point3::new(-5.0, 0.0, 0.0), &Vector3::x(), &Point3::origin(), 1.0, 10.0);
/// assert_eq!(e, CastExpected::Hit { t: 4.0 });
/// ```
pub fn ray_sphere(
    origin: &Point3<f64>,
    dir: &Vector3<f64>,
    centre: &Point3<f64>,
    radius: f64,
    max_t: f64,
) -> CastExpected {
    let m = origin - centre;
    let c = m.norm_squared() - radius * radius;
    if c <= 0.0 {
        return CastExpected::StartsInside { value: m.norm() - radius };
    }
    let (a, b) = (dir.norm_squared(), m.dot(dir));
    let disc = b * b - a * c;
    let closest_t = (-b / a).clamp(0.0, max_t);
    let closest = (m + dir * closest_t).norm() - radius;
    if disc < 0.0 || b >= 0.0 {
        return CastExpected::Miss { closest };
    }
    let t = (-b - disc.sqrt()) / a;
    if t <= max_t { CastExpected::Hit { t } } else { CastExpected::Miss { closest } }
}

/// The ray `origin + t·dir` (world frame) against a posed oracle shape.
pub fn ray_oracle(
    shape: &OracleShape,
    origin: &Point3<f64>,
    dir: &Vector3<f64>,
    max_t: f64,
) -> CastExpected {
    first_contact(|t| shape.signed_distance(&(origin + dir * t)), max_t)
}

/// First contact of posed oracle shapes `a` and `b` when B moves by
/// `t · relative_velocity` (world frame).
pub fn shape_cast_oracle(
    a: &OracleShape,
    b: &OracleShape,
    relative_velocity: &Vector3<f64>,
    max_t: f64,
) -> CastExpected {
    first_contact(|t| expected_separation(a, &moved(b, &(relative_velocity * t))).signed(), max_t)
}

/// A posed oracle shape translated by `offset`.
pub fn moved(shape: &OracleShape, offset: &Vector3<f64>) -> OracleShape {
    let iso = Isometry3::from_parts(Translation3::from(*offset), Default::default());
    OracleShape { core: shape.core.transformed(&iso), radius: shape.radius }
}
