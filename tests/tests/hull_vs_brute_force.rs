//! collide's quickhull against the brute-force hull: the same extreme
//! vertices (as a set of input points) and the same face planes, for random
//! clouds and for box corners (whose coplanar triangles must merge into six
//! faces).

use collide::ConvexHull;
use tests::SplitMix64;
use tests::generators::{cloud, half_extents};
use tests::nalgebra::Point3;
use tests::polytope::Polytope;

const SEED: u64 = 0x4011;
const CASES: u64 = 2_000;
/// Plane agreement for metre-sized clouds given in f32 (relative resolution
/// ~6e-8): collide's f32 plane offsets and normals are compared with a
/// margin of a few hundred ulps.
const PLANE_TOL: f64 = 1e-5;

/// The extreme points: those where the normals of the faces through them
/// span 3D (a vertex of the hull, not a point inside a face or an edge).
fn extreme_points(cloud: &[Point3<f64>], hull: &Polytope) -> Vec<Point3<f64>> {
    let mut out: Vec<Point3<f64>> = Vec::new();
    for p in cloud {
        let normals: Vec<_> = hull
            .faces
            .iter()
            .filter(|f| (f.normal.dot(&p.coords) - f.offset).abs() <= 1e-9)
            .map(|f| f.normal)
            .collect();
        let mut spans = false;
        for i in 0..normals.len() {
            for j in i + 1..normals.len() {
                for k in j + 1..normals.len() {
                    spans |= normals[i].cross(&normals[j]).dot(&normals[k]).abs() > 1e-9;
                }
            }
        }
        if spans && !out.contains(p) {
            out.push(*p);
        }
    }
    out
}

fn compare(points: &[Point3<f32>]) -> Result<(), String> {
    let cloud64: Vec<Point3<f64>> = points.iter().map(|p| p.cast()).collect();
    let brute = Polytope::from_cloud(&cloud64).ok_or("oracle: degenerate")?;
    let hull = ConvexHull::new(points).map_err(|e| format!("ConvexHull::new: {e}"))?;
    let mut want = extreme_points(&cloud64, &brute);
    let mut got: Vec<Point3<f64>> = hull.vertices().iter().map(|p| p.cast()).collect();
    let key = |p: &Point3<f64>| (p.x, p.y, p.z);
    want.sort_by(|a, b| key(a).partial_cmp(&key(b)).expect("finite"));
    got.sort_by(|a, b| key(a).partial_cmp(&key(b)).expect("finite"));
    got.dedup();
    if want != got {
        return Err(format!("vertices differ:\n want {want:?}\n got  {got:?}"));
    }
    if hull.faces().len() != brute.faces.len() {
        return Err(format!(
            "{} faces, brute force finds {}",
            hull.faces().len(),
            brute.faces.len()
        ));
    }
    for f in hull.faces() {
        let n = f.normal.into_inner().cast::<f64>();
        let matched = brute.faces.iter().any(|g| {
            (g.normal - n).norm() <= PLANE_TOL
                && (g.offset - f64::from(f.offset)).abs() <= PLANE_TOL
        });
        if !matched {
            return Err(format!("face {f:?} is not a face plane of the cloud"));
        }
        // Its vertices lie on it, at least three of them.
        if f.vertices.len() < 3 {
            return Err(format!("face {f:?} has fewer than 3 vertices"));
        }
        for &v in &f.vertices {
            let p = hull.vertices()[v as usize].cast::<f64>();
            if (n.dot(&p.coords) - f64::from(f.offset)).abs() > PLANE_TOL {
                return Err(format!("vertex {v} is off its face {f:?}"));
            }
        }
    }
    Ok(())
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
        if let Err(e) = compare(&points) {
            panic!("box case {i}, half extents {h:?}:\n{e}");
        }
    }
}
