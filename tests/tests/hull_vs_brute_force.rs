//! collide's quickhull against the brute-force hull.
//!
//! collide merges faces that are coplanar within a documented tolerance
//! (`1e-5` of the cloud's bounding-box diagonal), so its hull may differ from
//! the exact one by that much; the checks allow exactly that:
//! * every hull vertex is an input point;
//! * every input point is inside every face plane (within tolerance), so the
//!   hull contains the cloud;
//! * every face has at least three vertices, all on its plane;
//! * every input point that sticks out of the hull of the *other* points by
//!   more than the tolerance is a hull vertex (no real corner is dropped);
//! * for box corners, where coplanarity is exact, exactly six faces.

use collide::ConvexHull;
use tests::SplitMix64;
use tests::generators::{cloud, half_extents};
use tests::nalgebra::Point3;
use tests::polytope::Polytope;

const SEED: u64 = 0x4011;
const CASES: u64 = 2_000;
/// collide's documented coplanarity tolerance, relative to the cloud's
/// bounding-box diagonal.
const COPLANAR_REL: f64 = 1e-5;
/// Rounding of an f32 plane (normal and offset) evaluated at an f32 point,
/// relative to the largest coordinate: a few ulps.
const F32_PLANE_REL: f64 = 1e-6;

fn compare(points: &[Point3<f32>]) -> Result<ConvexHull, String> {
    let cloud64: Vec<Point3<f64>> = points.iter().map(|p| p.cast()).collect();
    Polytope::from_cloud(&cloud64).ok_or("oracle: degenerate")?;
    let hull = ConvexHull::new(points).map_err(|e| format!("ConvexHull::new: {e}"))?;
    let (mut lo, mut hi) = (cloud64[0].coords, cloud64[0].coords);
    for p in &cloud64 {
        lo = lo.inf(&p.coords);
        hi = hi.sup(&p.coords);
    }
    let max_abs = lo.abs().sup(&hi.abs()).max();
    let tol = COPLANAR_REL * (hi - lo).norm() + F32_PLANE_REL * max_abs;
    for v in hull.vertices() {
        if !points.contains(v) {
            return Err(format!("hull vertex {v:?} is not an input point"));
        }
    }
    for f in hull.faces() {
        let n = f.normal.into_inner().cast::<f64>();
        let off = f64::from(f.offset);
        if f.vertices.len() < 3 {
            return Err(format!("face {f:?} has fewer than 3 vertices"));
        }
        for &v in &f.vertices {
            let p = hull.vertices()[v as usize].cast::<f64>();
            if !((n.dot(&p.coords) - off).abs() <= tol) {
                return Err(format!(
                    "vertex {v} is {:e} off its face {f:?}",
                    n.dot(&p.coords) - off
                ));
            }
        }
        for p in &cloud64 {
            if !(n.dot(&p.coords) - off <= tol) {
                return Err(format!(
                    "input {p:?} is {:e} outside face {f:?}",
                    n.dot(&p.coords) - off
                ));
            }
        }
    }
    for (i, p) in cloud64.iter().enumerate() {
        let others: Vec<Point3<f64>> =
            cloud64.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, q)| *q).collect();
        let sticks_out = match Polytope::from_cloud(&others) {
            Some(rest) => rest.max_plane_distance(p) > tol,
            None => true, // without it the cloud is flat: it is a corner
        };
        if sticks_out && !hull.vertices().contains(&points[i]) {
            return Err(format!("input point {i} {p:?} is a corner but not a hull vertex"));
        }
    }
    Ok(hull)
}

#[test]
fn quickhull_matches_brute_force_on_random_clouds() {
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        let n = 4 + rng.below(13);
        let points = cloud(&mut rng, n, 0.05, 2.0);
        if let Err(e) = compare(&points) {
            panic!("case {i} (seed {SEED:#x}), cloud {points:?}:\n{e}");
        }
    }
}

#[test]
fn quickhull_merges_box_faces() {
    for i in 0..200 {
        let mut rng = SplitMix64::for_case(SEED ^ 1, i);
        // Axis-aligned, so the corners are exactly coplanar in f32 (a rotated
        // box's corners are coplanar only up to rounding).
        let h = half_extents(&mut rng, 0.01, 5.0);
        let mut points: Vec<Point3<f32>> = collide::Cuboid::new(h).corners().to_vec();
        // An interior point and points inside a face and an edge must not
        // become vertices.
        points.push(Point3::origin());
        points.push(Point3::new(h.x, 0.0, 0.0));
        points.push(Point3::new(h.x, h.y, 0.0));
        match compare(&points) {
            Ok(hull) => assert_eq!(hull.faces().len(), 6, "box case {i}: {hull:?}"),
            Err(e) => panic!("box case {i}, half extents {h:?}:\n{e}"),
        }
    }
}
