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

/// The oracle for a flat cloud (a convex polygon): every triple of points as
/// a triangle and every pair as an edge. Each lies inside the polygon, and
/// together they cover its faces and edges, which is all the brute-force
/// distance needs (`Polytope::from_cloud` rejects flat clouds, having no
/// face planes to offer).
fn polygon_oracle(points: &[Point3<f32>]) -> Polytope {
    let vertices: Vec<Point3<f64>> = points.iter().map(|p| p.cast()).collect();
    let n = vertices.len();
    let mut triangles = Vec::new();
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            edges.push([i, j]);
            for k in j + 1..n {
                triangles.push([i, j, k]);
            }
        }
    }
    Polytope { vertices, faces: Vec::new(), triangles, edges }
}

/// A random flat cloud of `n` points: a disc of radius `size` in a random
/// plane through a random offset, optionally 1e-6 of its size thick.
fn flat_cloud(rng: &mut SplitMix64, n: usize, size: f64, thick: bool) -> Vec<Point3<f32>> {
    let rot = rng.rotation();
    let offset = rng.unit_vector() * size * 0.5;
    (0..n)
        .map(|_| {
            let (r, t) = (rng.unit().sqrt() * size, rng.range(0.0, std::f64::consts::TAU));
            let z = if thick { rng.range(-0.5e-6, 0.5e-6) * size } else { 0.0 };
            let local = Point3::new((r * t.cos()) as f32, (r * t.sin()) as f32, z as f32);
            rot * local + offset.cast::<f32>()
        })
        .collect()
}

/// GJK distance between a flat hull and a box or another flat hull, in
/// random poses at sizes 1e-3 to 1e3, separated by 5 % to 200 % of their
/// reach, in both orders, against the brute-force distance over feature
/// pairs.
#[test]
fn flat_hull_distance_matches_brute_force() {
    use collide::{Cuboid, Proximity, Shape, closest_points};
    use tests::brute_distance::core_distance;
    use tests::generators::isometry;
    use tests::oracle_shape::pose_to_f64;
    for i in 0..1_500 {
        let mut rng = SplitMix64::for_case(SEED ^ 0xF1A7, i);
        let size = rng.log_range(1e-3, 1e3);
        let n = 3 + rng.below(10);
        let thick = rng.chance(0.3);
        let points = flat_cloud(&mut rng, n.max(4), size, thick);
        let flat = ConvexHull::new(&points).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert!(flat.is_flat(), "case {i}: not flat");
        let (other, other_oracle): (Shape, Polytope) = if rng.chance(0.5) {
            let h = half_extents(&mut rng, 0.05 * size, size);
            (Cuboid::new(h).into(), Polytope::cuboid(h.cast()))
        } else {
            let m = 4 + rng.below(8);
            let q = flat_cloud(&mut rng, m, size, false);
            (ConvexHull::new(&q).expect("flat cloud").into(), polygon_oracle(&q))
        };
        let pose_a = isometry(&mut rng, 10.0 * size);
        let reach = 4.0 * size;
        let gap = rng.range(1.05, 3.0) * reach;
        let centre_b = pose_a.translation.vector.cast::<f64>() + rng.unit_vector() * gap;
        let pose_b = tests::nalgebra::Isometry3::from_parts(
            tests::nalgebra::Translation3::from(centre_b.cast::<f32>()),
            rng.rotation(),
        );
        let want = core_distance(
            &polygon_oracle(&points).transformed(&pose_to_f64(&pose_a)),
            &other_oracle.transformed(&pose_to_f64(&pose_b)),
        )
        .distance;
        let flat_shape: Shape = flat.clone().into();
        for (a, pa, b, pb) in
            [(&flat_shape, &pose_a, &other, &pose_b), (&other, &pose_b, &flat_shape, &pose_a)]
        {
            let Proximity::Separated { distance, .. } = closest_points(a, pa, b, pb) else {
                panic!("case {i}: intersecting, brute force says {want}");
            };
            // The hull's own tolerance, plus f32 rounding at the poses' scale.
            let tol = f64::from(flat.tolerance()) + 2e-6 * (gap + 10.0 * size);
            assert!(
                (f64::from(distance) - want).abs() <= tol,
                "case {i}: distance {distance}, brute force {want}, tolerance {tol}"
            );
        }
    }
}

/// Two identical squares stacked along their normal, 1e-3 to 1e3 m apart:
/// parallel faces, the distance is the gap exactly.
#[test]
fn stacked_flat_squares_are_their_gap_apart() {
    use collide::{Proximity, closest_points};
    let mut rng = SplitMix64::for_case(SEED ^ 0x5A, 0);
    for k in 0..200 {
        let size = 10f32.powf(-3.0 + 6.0 * (k as f32 / 199.0));
        let rot = rng.rotation();
        let square: Vec<Point3<f32>> = (0..4)
            .map(|c| {
                Point3::new(
                    if c & 1 == 1 { size } else { -size },
                    if c & 2 == 2 { size } else { -size },
                    0.0,
                )
            })
            .collect();
        let hull = ConvexHull::new(&square).unwrap();
        let gap = 0.37 * size;
        let pose_a = tests::nalgebra::Isometry3::from_parts(Default::default(), rot);
        let pose_b = tests::nalgebra::Isometry3::from_parts(
            (rot * tests::nalgebra::Vector3::z() * gap).into(),
            rot,
        );
        match closest_points(&hull, &pose_a, &hull, &pose_b) {
            Proximity::Separated { distance, .. } => {
                assert!((distance - gap).abs() <= 1e-5 * size, "size {size}: {distance} vs {gap}")
            }
            other => panic!("size {size}: {other:?}"),
        }
    }
}

/// A flat cloud's oracle with its two face planes, for the separating-axis
/// depth (the polygon's normal is a candidate axis).
fn polygon_oracle_with_faces(points: &[Point3<f32>]) -> Polytope {
    use tests::polytope::FacePlane;
    let mut p = polygon_oracle(points);
    let v = &p.vertices;
    let normal = (1..v.len())
        .flat_map(|j| (j + 1..v.len()).map(move |k| (j, k)))
        .map(|(j, k)| (v[j] - v[0]).cross(&(v[k] - v[0])))
        .max_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))
        .expect("at least three points")
        .normalize();
    for n in [normal, -normal] {
        p.faces.push(FacePlane { normal: n, offset: p.support(&n) });
    }
    p
}

/// EPA on a flat hull overlapping a box, at sizes 1e-3 to 1e3, in both
/// orders: the depth against the exact separating-axis depth, and moving B
/// by the depth along the normal separates the oracle shapes.
#[test]
fn flat_hull_penetration_matches_sat() {
    use collide::{Cuboid, Shape, penetration};
    use tests::generators::isometry;
    use tests::oracle_shape::pose_to_f64;
    use tests::sat::{overlap_along, sat_penetration};
    let mut checked = 0;
    for i in 0..1_000 {
        let mut rng = SplitMix64::for_case(SEED ^ 0xE9A, i);
        let size = rng.log_range(1e-3, 1e3);
        let n = 4 + rng.below(9);
        let points = flat_cloud(&mut rng, n, size, false);
        let flat: Shape = ConvexHull::new(&points).expect("flat cloud").into();
        let h = half_extents(&mut rng, 0.2 * size, size);
        let cube: Shape = Cuboid::new(h).into();
        let pose_a = isometry(&mut rng, 10.0 * size);
        let centre_b = pose_a.translation.vector.cast::<f64>()
            + rng.unit_vector() * size * rng.range(0.0, 1.0);
        let pose_b = tests::nalgebra::Isometry3::from_parts(
            tests::nalgebra::Translation3::from(centre_b.cast::<f32>()),
            rng.rotation(),
        );
        let oa = polygon_oracle_with_faces(&points).transformed(&pose_to_f64(&pose_a));
        let ob = Polytope::cuboid(h.cast()).transformed(&pose_to_f64(&pose_b));
        let Some(sat) = sat_penetration(&oa, &ob) else { continue };
        // Clear overlaps only: near-touching pairs are the distance tests'.
        if !(sat.depth > 1e-3 * size) {
            continue;
        }
        checked += 1;
        let tol = 2e-5 * (size + 10.0 * size);
        for (a, pa, b, pb, oa, ob) in
            [(&flat, &pose_a, &cube, &pose_b, &oa, &ob), (&cube, &pose_b, &flat, &pose_a, &ob, &oa)]
        {
            let p = penetration(a, pa, b, pb).unwrap_or_else(|| panic!("case {i}: no overlap"));
            let n = p.normal.into_inner().cast::<f64>();
            assert!(
                (f64::from(p.depth) - sat.depth).abs() <= tol,
                "case {i}: depth {}, SAT {}",
                p.depth,
                sat.depth
            );
            // The overlap along the reported normal is the reported depth.
            let along = overlap_along(oa, ob, &n);
            assert!(
                (along - f64::from(p.depth)).abs() <= tol,
                "case {i}: overlap along normal {along}"
            );
        }
    }
    assert!(checked > 300, "only {checked} overlapping cases");
}
