//! Seeded random inputs: rigid transforms, boxes over a range of extents,
//! convex point clouds, capsules, spheres, and posed pairs of them.
//!
//! Every generator takes a [`SplitMix64`], so a case is reproducible from its
//! seed. Pairs are placed by centre distance relative to the shapes'
//! bounding radii, which yields a mix of deep overlaps, shallow overlaps and
//! separations; [`place_at_gap`] places B at an exact signed gap by bisection
//! on the oracle.

use nalgebra::{Isometry3, Point3, Translation3, Vector3};

use crate::oracle_shape::OracleShape;
use crate::rng::SplitMix64;
use crate::sat::sat_penetration;
use crate::separation::expected_separation;
use crate::test_shape::{Pair, Params, TestShape};

/// A rigid transform with a uniform rotation and a translation uniform in
/// `[-extent, extent]^3`.
pub fn isometry(rng: &mut SplitMix64, extent: f64) -> Isometry3<f32> {
    let t = Vector3::new(
        rng.range(-extent, extent),
        rng.range(-extent, extent),
        rng.range(-extent, extent),
    );
    Isometry3::from_parts(Translation3::from(t.cast::<f32>()), rng.rotation())
}

/// `count` random world transforms (translations up to 10 m) to run a case under.
pub fn worlds(rng: &mut SplitMix64, count: usize) -> Vec<Isometry3<f32>> {
    (0..count).map(|_| isometry(rng, 10.0)).collect()
}

/// A shape of a kind that has a closed form with the other two kinds
/// (`which`: 0 sphere, 1 capsule, else cuboid), each size log-uniform in
/// `0.1 scale ..= 2 scale`.
pub fn closed_form_kind(rng: &mut SplitMix64, which: usize, scale: f64) -> Params {
    let (lo, hi) = (0.1 * scale, 2.0 * scale);
    match which {
        0 => Params::Sphere { radius: rng.log_range(lo, hi) as f32 },
        1 => Params::Capsule {
            half_height: rng.log_range(lo, hi) as f32,
            radius: rng.log_range(lo, hi) as f32,
        },
        _ => Params::Cuboid { half: half_extents(rng, lo, hi) },
    }
}

/// Box half extents, each log-uniform in `[lo, hi]`.
pub fn half_extents(rng: &mut SplitMix64, lo: f64, hi: f64) -> Vector3<f32> {
    Vector3::new(rng.log_range(lo, hi), rng.log_range(lo, hi), rng.log_range(lo, hi)).cast::<f32>()
}

/// Thinnest cloud [`cloud`] returns, relative to its bounding-box diagonal.
/// collide treats clouds flatter than 1e-5 of the diagonal as degenerate
/// (its documented coplanarity tolerance); valid-input tests stay two orders
/// of magnitude clear of that band, which the bad-input tests cover.
pub const MIN_RELATIVE_WIDTH: f64 = 1e-3;

fn lo_corner(points: &[Point3<f64>]) -> Vector3<f64> {
    points.iter().fold(Vector3::repeat(f64::INFINITY), |m, p| m.inf(&p.coords))
}

fn hi_corner(points: &[Point3<f64>]) -> Vector3<f64> {
    points.iter().fold(Vector3::repeat(f64::NEG_INFINITY), |m, p| m.sup(&p.coords))
}

/// A convex cloud of `n` points (`4 <= n <= 16`): points on an ellipsoid with
/// semi-axes log-uniform in `[lo, hi]`, some pulled inside (non-extreme), the
/// whole rotated. Retries until the brute-force hull is at least
/// [`MIN_RELATIVE_WIDTH`] thick.
pub fn cloud(rng: &mut SplitMix64, n: usize, lo: f64, hi: f64) -> Vec<Point3<f32>> {
    const MAX_ATTEMPTS: usize = 64;
    let mut points = Vec::new();
    for _ in 0..MAX_ATTEMPTS {
        let axes =
            Vector3::new(rng.log_range(lo, hi), rng.log_range(lo, hi), rng.log_range(lo, hi));
        let rotation = rng.rotation().cast::<f64>();
        points = (0..n)
            .map(|_| {
                let u = rng.unit_vector();
                let inward = if rng.chance(0.2) { rng.range(0.3, 1.0) } else { 1.0 };
                Point3::from((rotation * u.component_mul(&axes)) * inward).cast::<f32>()
            })
            .collect();
        let cloud64: Vec<Point3<f64>> = points.iter().map(|p| p.cast::<f64>()).collect();
        if let Some(hull) = OracleShape::hull(&cloud64) {
            // The hull's minimum width is its overlap with itself.
            let width = sat_penetration(&hull.core, &hull.core).map_or(0.0, |s| s.depth);
            let diagonal = (hi_corner(&cloud64) - lo_corner(&cloud64)).norm();
            if width > MIN_RELATIVE_WIDTH * diagonal {
                return points;
            }
        }
    }
    points
}

/// Random parameters of any kind, with sizes around `scale` metres.
pub fn params(rng: &mut SplitMix64, scale: f64) -> Params {
    let (lo, hi) = (0.1 * scale, 2.0 * scale);
    match rng.below(4) {
        0 => Params::Sphere { radius: rng.log_range(lo, hi) as f32 },
        1 => Params::Cuboid { half: half_extents(rng, lo, hi) },
        2 => Params::Capsule {
            half_height: rng.log_range(lo, hi) as f32,
            radius: rng.log_range(lo, hi) as f32,
        },
        _ => {
            let n = 4 + rng.below(13);
            Params::Hull { points: cloud(rng, n, lo, hi) }
        }
    }
}

/// An upper bound on the distance from the shape's origin to its points.
pub fn bounding_radius(shape: &OracleShape) -> f64 {
    shape.core.vertices.iter().map(|v| v.coords.norm()).fold(0.0, f64::max) + shape.radius
}

/// Poses A randomly and B at a random direction from A with centre
/// distance `factor * (bound_a + bound_b)`.
pub fn pose_pair(rng: &mut SplitMix64, a: TestShape, b: TestShape, factor: f64) -> Pair {
    let pose_a = isometry(rng, 5.0);
    let reach = bounding_radius(&a.oracle) + bounding_radius(&b.oracle);
    let offset = rng.unit_vector() * (factor * reach);
    let centre_b = pose_a.translation.vector.cast::<f64>() + offset;
    let pose_b = Isometry3::from_parts(Translation3::from(centre_b.cast::<f32>()), rng.rotation());
    Pair { a, pose_a, b, pose_b }
}

/// A random pair of shapes of random kinds around `scale` metres, placed so
/// that roughly half overlap.
pub fn pair(rng: &mut SplitMix64, scale: f64) -> Result<Pair, String> {
    let a = TestShape::new(params(rng, scale))?;
    let b = TestShape::new(params(rng, scale))?;
    let factor = rng.range(0.0, 1.1);
    Ok(pose_pair(rng, a, b, factor))
}

/// Moves B along unit `dir` (world frame) so that the oracle's signed
/// separation (distance, or minus depth) is `gap`, by bisection. The signed
/// separation is convex along the line and B starts from the configuration
/// given, so if that starts below `gap` there is exactly one crossing ahead.
pub fn place_at_gap(pair: &Pair, dir: &Vector3<f64>, gap: f64) -> Pair {
    const MAX_ITERATIONS: usize = 200;
    let signed_at = |t: f64| {
        let p = pair.with_b_offset(&(dir * t).cast::<f32>());
        let (a, b) = p.oracles();
        expected_separation(&a, &b).signed()
    };
    let reach = bounding_radius(&pair.a.oracle) + bounding_radius(&pair.b.oracle);
    let (mut lo, mut hi) = (0.0, 4.0 * reach + gap.abs());
    for _ in 0..MAX_ITERATIONS {
        let mid = 0.5 * (lo + hi);
        // Stop when the interval no longer shrinks (f64 resolution).
        if !(mid > lo && mid < hi) {
            break;
        }
        if signed_at(mid) < gap {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    pair.with_b_offset(&(dir * (0.5 * (lo + hi))).cast::<f32>())
}
