//! Integration tests of `collide::dim2` against independent oracles.
//!
//! The oracles (module `oracle`) work in f64 on explicit vertex lists and share
//! no code with the library: an exact separating-axis depth for convex
//! polygons, brute-force vertex-edge distances, and analytic circle and
//! circle-rectangle answers. Every property runs under seeded random rigid
//! transforms applied to both shapes, over scales from 1e-3 to 1e3, and with A
//! and B swapped.

use collide::QueryError;
use collide::dim2::{
    Circle, Penetration2, Polygon, PolygonError, Proximity2, Rectangle, Shape2, SupportMap2,
    closest_points2, intersects2, penetration2, try_closest_points2, try_intersects2,
    try_penetration2,
};
use nalgebra::{Isometry2, Point2, UnitComplex, Vector2};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Oracles in f64, on world-frame vertex lists.
pub(crate) mod oracle {
    pub type P = [f64; 2];

    pub fn sub(a: P, b: P) -> P {
        [a[0] - b[0], a[1] - b[1]]
    }
    pub fn dot(a: P, b: P) -> f64 {
        a[0] * b[0] + a[1] * b[1]
    }
    pub fn norm(a: P) -> f64 {
        dot(a, a).sqrt()
    }

    /// Distance from `p` to segment `a..b`.
    pub fn point_segment(p: P, a: P, b: P) -> f64 {
        let e = sub(b, a);
        let ee = dot(e, e);
        let t = if ee > 0.0 { (dot(sub(p, a), e) / ee).clamp(0.0, 1.0) } else { 0.0 };
        norm(sub(p, [a[0] + t * e[0], a[1] + t * e[1]]))
    }

    /// Edges of a convex vertex loop; a two-vertex "polygon" gives its
    /// segment twice (once each way), so both of its normals are candidates.
    pub fn edges(poly: &[P]) -> impl Iterator<Item = (P, P)> + '_ {
        (0..poly.len()).map(move |i| (poly[i], poly[(i + 1) % poly.len()]))
    }

    /// Distance from `p` to the boundary of the polygon.
    pub fn to_boundary(p: P, poly: &[P]) -> f64 {
        edges(poly).map(|(a, b)| point_segment(p, a, b)).fold(f64::INFINITY, f64::min)
    }

    /// Exact penetration of convex polygons by the separating-axis theorem:
    /// the smallest translation of B that separates them is along one of the
    /// edge normals of A or B, and along `n` it has length
    /// `max_A(n·x) - min_B(n·x)`. Returns (depth, normal A->B, second-best
    /// depth); depth <= 0 means separated (by at least -depth).
    pub fn sat(a: &[P], b: &[P]) -> (f64, P, f64) {
        let mut best = (f64::INFINITY, [0.0, 0.0]);
        let mut second = f64::INFINITY;
        for (p, q) in edges(a).chain(edges(b)) {
            let e = sub(q, p);
            let len = norm(e);
            if len == 0.0 {
                continue;
            }
            for sign in [1.0, -1.0] {
                let n = [sign * e[1] / len, -sign * e[0] / len];
                let max_a = a.iter().map(|&x| dot(n, x)).fold(f64::NEG_INFINITY, f64::max);
                let min_b = b.iter().map(|&x| dot(n, x)).fold(f64::INFINITY, f64::min);
                let overlap = max_a - min_b;
                // Parallel edges give the same axis twice; only a different
                // axis counts as a competitor.
                if overlap < best.0 {
                    if dot(n, best.1) < 1.0 - 1e-9 {
                        second = best.0;
                    }
                    best = (overlap, n);
                } else if overlap < second && dot(n, best.1) < 1.0 - 1e-9 {
                    second = overlap;
                }
            }
        }
        (best.0, best.1, second)
    }

    /// Distance between disjoint convex polygons: the minimum over vertex-edge
    /// pairs both ways.
    pub fn distance(a: &[P], b: &[P]) -> f64 {
        let mut d = f64::INFINITY;
        for &v in a {
            for (p, q) in edges(b) {
                d = d.min(point_segment(v, p, q));
            }
        }
        for &v in b {
            for (p, q) in edges(a) {
                d = d.min(point_segment(v, p, q));
            }
        }
        d
    }

    /// Circle (centre `c`, radius `r`) against the rectangle with half-extents
    /// `h`, both in the rectangle's frame. Returns (signed distance, normal
    /// rectangle->circle): negative distance is penetration depth.
    pub fn rectangle_circle(h: P, c: P, r: f64) -> (f64, P) {
        let inside = c[0].abs() <= h[0] && c[1].abs() <= h[1];
        if !inside {
            let q = [c[0].clamp(-h[0], h[0]), c[1].clamp(-h[1], h[1])];
            let d = sub(c, q);
            let len = norm(d);
            (len - r, [d[0] / len, d[1] / len])
        } else {
            let (gx, gy) = (h[0] - c[0].abs(), h[1] - c[1].abs());
            if gx < gy {
                (-(gx + r), [1f64.copysign(c[0]), 0.0])
            } else {
                (-(gy + r), [0.0, 1f64.copysign(c[1])])
            }
        }
    }
}

use oracle::P;

fn to_p(p: &Point2<f32>) -> P {
    [p.x as f64, p.y as f64]
}

/// Vertices posed into the world frame, in f64.
pub(crate) fn world(vertices: &[Point2<f32>], pose: &Isometry2<f32>) -> Vec<P> {
    let (c, s) = (pose.rotation.re as f64, pose.rotation.im as f64);
    let t = pose.translation.vector;
    vertices
        .iter()
        .map(|v| {
            let (x, y) = (v.x as f64, v.y as f64);
            [c * x - s * y + t.x as f64, s * x + c * y + t.y as f64]
        })
        .collect()
}

fn world_point(p: P, pose: &Isometry2<f32>) -> P {
    world(&[Point2::new(p[0] as f32, p[1] as f32)], pose)[0]
}

/// Depth tolerance: 1e-3 of the shape size (1e-3 absolute at unit size) plus
/// 0.1% of the value.
fn depth_tol(scale: f64, expected: f64) -> f64 {
    1e-3 * scale.min(1.0) + 1e-3 * expected.abs()
}

/// Distance tolerance: 1e-4 of the shape size (1e-4 absolute at unit size)
/// plus 0.1% of the value.
fn distance_tol(scale: f64, expected: f64) -> f64 {
    1e-4 * scale.min(1.0) + 1e-3 * expected.abs()
}

/// Witness points must lie within 2e-3 (at unit size) of their boundary.
fn witness_tol(scale: f64) -> f64 {
    2e-3 * scale.min(1.0)
}

fn config(seed: u64, cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        // Just-touching pairs and short segments are filtered out by
        // `prop_assume!`; allow for that at any case count.
        max_global_rejects: cases.saturating_mul(4),
        ..Config::default()
    }
}

fn pose(x: f32, y: f32, angle: f32) -> Isometry2<f32> {
    Isometry2::new(Vector2::new(x, y), angle)
}

/// Points on an ellipse at sorted, distinct angles: convex position by
/// construction, so the oracle needs no hull.
pub(crate) fn ellipse_polygon(angles: &[f32], ax: f32, ay: f32, scale: f32) -> Vec<Point2<f32>> {
    let mut a = angles.to_vec();
    a.sort_by(f32::total_cmp);
    a.dedup_by(|x, y| (*x - *y).abs() < 0.05);
    a.iter().map(|t| Point2::new(ax * scale * t.cos(), ay * scale * t.sin())).collect()
}

/// Log-uniform scale in [1e-3, 1e3].
fn scale_strategy() -> impl Strategy<Value = f32> {
    (-3.0f32..=3.0).prop_map(|e| 10f32.powf(e))
}

/// The polygon of a cloud of three or more points, or the segment of two.
fn polygon_or_segment(v: &[Point2<f32>]) -> Polygon {
    match v {
        [a, b] => Polygon::segment(*a, *b).unwrap(),
        _ => Polygon::new(v).unwrap(),
    }
}

fn polygon_strategy() -> impl Strategy<Value = (Vec<f32>, f32, f32)> {
    (prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..10), 0.3f32..1.0, 0.3f32..1.0)
        .prop_filter("at least three distinct angles", |(angles, _, _)| {
            let mut a = angles.clone();
            a.sort_by(f32::total_cmp);
            a.dedup_by(|x, y| (*x - *y).abs() < 0.05);
            a.len() >= 3
        })
}

/// A random rigid transform of the whole scene.
fn world_strategy() -> impl Strategy<Value = (f32, f32, f32)> {
    (-3.0f32..3.0, -3.0f32..3.0, -3.2f32..3.2)
}

/// Checks a penetration result of polygons `a`, `b` (world vertices) against
/// the SAT oracle; returns the depth error.
fn check_polygon_penetration(hit: &Penetration2, a: &[P], b: &[P], scale: f64) -> f64 {
    let (depth, normal, second) = oracle::sat(a, b);
    let err = (hit.depth as f64 - depth).abs();
    assert!(err <= depth_tol(scale, depth), "depth {} vs oracle {depth}", hit.depth);
    let n = [hit.normal.x as f64, hit.normal.y as f64];
    // Moving B by depth * normal must separate (oracle depth back to ~0).
    let moved: Vec<P> = b.iter().map(|p| [p[0] + n[0] * depth, p[1] + n[1] * depth]).collect();
    let (after, _, _) = oracle::sat(a, &moved);
    assert!(after <= depth_tol(scale, depth), "moving B along the normal leaves {after}");
    // Where the minimum is unique, the normal is the oracle's.
    if second - depth > 0.05 * scale {
        assert!(oracle::dot(n, normal) > 1.0 - 1e-3, "normal {n:?} vs oracle {normal:?}");
    }
    // Witnesses: on their boundaries, and point_a - point_b = depth * normal.
    let (pa, pb) = (to_p(&hit.point_a), to_p(&hit.point_b));
    assert!(oracle::to_boundary(pa, a) <= witness_tol(scale), "point_a off A's boundary");
    assert!(oracle::to_boundary(pb, b) <= witness_tol(scale), "point_b off B's boundary");
    let gap = oracle::sub(pa, pb);
    let expect = [n[0] * hit.depth as f64, n[1] * hit.depth as f64];
    assert!(oracle::norm(oracle::sub(gap, expect)) <= witness_tol(scale));
    err
}

// ---------------------------------------------------------------------------
// The issue's cases.

fn issue_square() -> Polygon {
    Polygon::new(&[
        Point2::new(-18.0, -18.0),
        Point2::new(-10.0, -18.0),
        Point2::new(-10.0, -13.0),
        Point2::new(-18.0, -13.0),
    ])
    .unwrap()
}

fn issue_triangle() -> Polygon {
    Polygon::new(&[Point2::new(-14.0, -14.0), Point2::new(-5.0, -16.0), Point2::new(-12.0, -8.0)])
        .unwrap()
}

#[test]
fn issue_square_overlaps_triangle() {
    let id = Isometry2::identity();
    let (square, triangle) = (issue_square(), issue_triangle());
    assert!(intersects2(&square, &id, &triangle, &id));
    assert_eq!(closest_points2(&square, &id, &triangle, &id), Proximity2::Intersecting);
    let hit = penetration2(&square, &id, &triangle, &id).expect("overlap must give a penetration");
    let a = world(square.vertices(), &id);
    let b = world(triangle.vertices(), &id);
    check_polygon_penetration(&hit, &a, &b, 1.0);
}

#[test]
fn issue_circle_overlaps_two_point_polygon() {
    let id = Isometry2::identity();
    let circle = Circle::new(0.5);
    let segment = Polygon::segment(Point2::new(0.25, 0.25), Point2::new(5.0, 5.0)).unwrap();
    assert_eq!(segment.vertices().len(), 2);
    assert!(intersects2(&circle, &id, &segment, &id));
    assert!(intersects2(&segment, &id, &circle, &id));
    // The centre is 0.25*sqrt(2) from the segment's end, so the circle reaches
    // 0.5 - 0.3536 past it, along the segment's direction.
    let hit = penetration2(&circle, &id, &segment, &id).expect("overlap");
    let expected = 0.5 - 0.25 * 2f32.sqrt();
    assert!((hit.depth - expected).abs() < 1e-5, "depth {}", hit.depth);
    let diag = std::f32::consts::FRAC_1_SQRT_2;
    assert!((hit.normal.x - diag).abs() < 1e-4 && (hit.normal.y - diag).abs() < 1e-4);
}

#[test]
fn issue_circle_misses_far_circle() {
    let id = Isometry2::identity();
    let far = Isometry2::translation(5.0, 10.0);
    let (small, big) = (Circle::new(0.5), Circle::new(1.0));
    assert!(!intersects2(&small, &id, &big, &far));
    assert!(penetration2(&small, &id, &big, &far).is_none());
    let Proximity2::Separated { distance, point_a, point_b } =
        closest_points2(&small, &id, &big, &far)
    else {
        panic!("separated circles reported as intersecting");
    };
    let expected = (125f32).sqrt() - 1.5;
    assert!((distance - expected).abs() < 1e-5);
    assert!((point_a.coords.norm() - 0.5).abs() < 1e-5);
    assert!(((point_b - Point2::new(5.0, 10.0)).norm() - 1.0).abs() < 1e-5);
}

// ---------------------------------------------------------------------------
// Degenerate and bad input.

#[test]
fn polygon_rejects_bad_point_clouds() {
    assert_eq!(Polygon::new(&[]), Err(PolygonError::TooFewPoints { count: 0 }));
    assert_eq!(
        Polygon::new(&[Point2::new(3.0, 4.0)]),
        Err(PolygonError::TooFewPoints { count: 1 })
    );
    let third = Point2::new(0.0, 1.0);
    assert_eq!(
        Polygon::new(&[Point2::new(0.0, 0.0), Point2::new(f32::INFINITY, 1.0), third]),
        Err(PolygonError::NonFinitePoint { index: 1 })
    );
    assert_eq!(
        Polygon::new(&[Point2::new(0.0, 0.0), Point2::new(1.0, f32::NAN), third]),
        Err(PolygonError::NonFinitePoint { index: 1 })
    );
    assert_eq!(Polygon::new(&[Point2::new(3.0, 4.0); 3]), Err(PolygonError::Coincident));
    assert_eq!(
        Polygon::segment(Point2::new(0.0, 0.0), Point2::new(f32::NAN, 1.0)),
        Err(PolygonError::NonFinitePoint { index: 1 })
    );
    // Within rounding of one point far from the origin.
    let p = Point2::new(1.0e4, -2.0e4);
    let cloud = [p, p + Vector2::new(1e-3, 0.0), p + Vector2::new(0.0, 1e-3)];
    assert_eq!(Polygon::new(&cloud), Err(PolygonError::Coincident));
    // The same spread near the origin is a real triangle.
    let small = [Point2::origin(), Point2::new(1e-3, 0.0), Point2::new(0.0, 1e-3)];
    assert_eq!(Polygon::new(&small).unwrap().vertices().len(), 3);
    // Errors display.
    assert!(!PolygonError::Coincident.to_string().is_empty());
}

#[test]
fn collinear_cloud_is_rejected_and_its_segment_is_asked_for_by_name() {
    let pts: Vec<Point2<f32>> =
        (0..7).map(|i| Point2::new(1.0 + 0.5 * i as f32, -2.0 + 0.25 * i as f32)).collect();
    let mut shuffled = pts.clone();
    shuffled.swap(0, 4);
    shuffled.swap(2, 6);
    assert_eq!(Polygon::new(&shuffled), Err(PolygonError::Collinear));
    let seg = Polygon::segment(pts[6], pts[0]).unwrap();
    let mut v = seg.vertices().to_vec();
    v.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert_eq!(v, vec![pts[0], pts[6]]);
}

#[test]
fn non_finite_poses_are_reported_not_hung() {
    let c = Circle::new(1.0);
    let r = Rectangle::new(Vector2::new(1.0, 2.0));
    let id = Isometry2::identity();
    let bad_poses = [
        Isometry2::translation(f32::NAN, 0.0),
        Isometry2::translation(0.0, f32::INFINITY),
        Isometry2::from_parts(
            Vector2::zeros().into(),
            UnitComplex::new_unchecked(nalgebra::Complex::new(f32::NAN, 0.0)),
        ),
    ];
    for bad in &bad_poses {
        for (pa, pb) in [(bad, &id), (&id, bad)] {
            assert_eq!(try_intersects2(&c, pa, &r, pb), Err(QueryError::NonFiniteInput));
            assert_eq!(try_closest_points2(&c, pa, &r, pb), Err(QueryError::NonFiniteInput));
            assert_eq!(try_penetration2(&r, pa, &c, pb), Err(QueryError::NonFiniteInput));
            assert!(!intersects2(&c, pa, &r, pb));
            assert!(penetration2(&c, pa, &r, pb).is_none());
            match closest_points2(&c, pa, &r, pb) {
                Proximity2::Separated { distance, .. } => assert!(distance.is_nan()),
                Proximity2::Intersecting => panic!("non-finite input reported as intersecting"),
            }
        }
    }
}

#[test]
fn non_finite_shapes_are_reported() {
    let id = Isometry2::identity();
    let ok = Circle::new(1.0);
    let nan_rect = Rectangle::new(Vector2::new(f32::NAN, 1.0));
    let inf_circle = Circle::new(f32::INFINITY);
    let negative_circle = Circle::new(-1.0);
    assert_eq!(try_penetration2(&ok, &id, &nan_rect, &id), Err(QueryError::NonFiniteInput));
    assert_eq!(try_intersects2(&nan_rect, &id, &ok, &id), Err(QueryError::NonFiniteInput));
    assert_eq!(try_closest_points2(&inf_circle, &id, &ok, &id), Err(QueryError::NonFiniteInput));
    assert_eq!(try_intersects2(&ok, &id, &negative_circle, &id), Err(QueryError::NonFiniteInput));
}

#[test]
fn concentric_circles_penetrate_by_both_radii() {
    let hit = penetration2(
        &Circle::new(0.5),
        &pose(1.0, 2.0, 0.3),
        &Circle::new(2.0),
        &pose(1.0, 2.0, -1.0),
    )
    .expect("overlap");
    assert!((hit.depth - 2.5).abs() < 1e-5);
    assert!((hit.normal.norm() - 1.0).abs() < 1e-5);
    let gap = hit.point_a - hit.point_b;
    assert!((gap - hit.normal.into_inner() * hit.depth).norm() < 1e-5);
}

#[test]
fn circle_centred_on_segment_penetrates_by_radius() {
    // The core difference is a segment through the origin: EPA's flat case.
    let seg = Polygon::segment(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0)).unwrap();
    for x in [-0.7f32, 0.0, 0.3] {
        let hit = penetration2(&seg, &Isometry2::identity(), &Circle::new(0.4), &pose(x, 0.0, 0.5))
            .expect("overlap");
        assert!((hit.depth - 0.4).abs() < 1e-5, "depth {}", hit.depth);
        assert!(hit.normal.y.abs() > 1.0 - 1e-5, "normal {:?}", hit.normal);
        assert!(hit.point_a.y.abs() < 1e-5 && (hit.point_a.x - x).abs() < 1e-5);
    }
}

#[test]
fn collinear_overlapping_segments_touch_with_zero_depth() {
    // The core difference is a segment through the origin: the shapes overlap
    // along a line, with nothing to push apart but their zero width.
    let a = Polygon::segment(Point2::new(0.0, 0.0), Point2::new(2.0, 0.0)).unwrap();
    let b = Polygon::segment(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0)).unwrap();
    let world = pose(3.0, -1.0, 0.8);
    let pb = world * Isometry2::translation(1.5, 0.0);
    assert!(intersects2(&a, &world, &b, &pb));
    let hit = penetration2(&a, &world, &b, &pb).expect("overlap");
    assert!(hit.depth.abs() < 1e-5, "depth {}", hit.depth);
    // The only separating directions are the segments' normals.
    let axis = world.rotation * Vector2::x();
    assert!(hit.normal.dot(&axis).abs() < 1e-5);
    // Parallel and apart: the gap between the lines.
    let above = world * Isometry2::translation(1.5, 0.25);
    match closest_points2(&a, &world, &b, &above) {
        Proximity2::Separated { distance, .. } => assert!((distance - 0.25).abs() < 1e-5),
        Proximity2::Intersecting => panic!("parallel segments reported intersecting"),
    }
}

/// Builds the just-touching configuration the property tests found: B is
/// moved along the SAT normal until it overlaps A by `overlap`.
fn moved_into_contact(
    va: &[Point2<f32>],
    pa: &Isometry2<f32>,
    vb: &[Point2<f32>],
    pb0: &Isometry2<f32>,
    overlap: f64,
) -> Isometry2<f32> {
    let (depth, n, _) = oracle::sat(&world(va, pa), &world(vb, pb0));
    let shift = depth - overlap;
    let t = Vector2::new((n[0] * shift) as f32, (n[1] * shift) as f32);
    Isometry2::from_parts((pb0.translation.vector + t).into(), pb0.rotation)
}

fn assert_matches_sat(
    va: &[Point2<f32>],
    pa: &Isometry2<f32>,
    vb: &[Point2<f32>],
    pb: &Isometry2<f32>,
) {
    let (a, b) = (polygon_or_segment(va), polygon_or_segment(vb));
    let (wa, wb) = (world(va, pa), world(vb, pb));
    let scale = wa.iter().chain(&wb).map(|p| p[0].abs().max(p[1].abs())).fold(0.0, f64::max);
    assert!(oracle::sat(&wa, &wb).0 > 0.0);
    for (x, px, y, py, wx, wy) in [(&a, pa, &b, pb, &wa, &wb), (&b, pb, &a, pa, &wb, &wa)] {
        assert!(intersects2(x, px, y, py));
        let hit = penetration2(x, px, y, py).expect("overlap");
        check_polygon_penetration(&hit, wx, wy, scale.min(1.0));
    }
}

/// Regression: a long simplex edge passing 3e-5 from the origin. Computing its
/// closest point as `p + t (q - p)` tilted v, the next support point came back
/// as a duplicate and GJK reported the overlapping pair as separated.
#[test]
fn long_edge_near_origin_does_not_fake_a_separation() {
    let s = 358.0765f32;
    let va = ellipse_polygon(&[0.5301767, 2.914961, 0.61726296], 0.72054243, 0.95299107, s);
    let vb = ellipse_polygon(&[1.1584795, 2.1326306, 4.881798], 0.418394, 0.7305784, s);
    let pa = pose(0.97997075 * s, 0.0, -2.0858512);
    let pb0 = pa * pose(0.4595692 * s, 0.25533 * s, -2.593106);
    let pb = moved_into_contact(&va, &pa, &vb, &pb0, 1e-3 * s as f64);
    assert_matches_sat(&va, &pa, &vb, &pb);
}

/// Regression: a thin triangle simplex around the origin, built when nearly
/// parallel edges touch. Ericson's dot-product region tests misjudged it as
/// not containing the origin, GJK stalled, and the pair was reported separated.
#[test]
fn thin_triangle_simplex_still_contains_the_origin() {
    let va = ellipse_polygon(&[5.0796924, 3.2789786, 0.0, 4.7411194], 0.97138494, 0.5966792, 1.0);
    let vb = ellipse_polygon(&[1.5894681, 0.0, 4.070635], 0.41142768, 0.60669655, 1.0);
    let pa = pose(-2.640782, 2.4211738, -0.7736259);
    let pb0 = pa * pose(0.29212826, -0.216036, -1.224608);
    let pb = moved_into_contact(&va, &pa, &vb, &pb0, 1e-3);
    assert_matches_sat(&va, &pa, &vb, &pb);
}

#[test]
fn shape_enum_matches_the_shapes_it_wraps() {
    let poly = Polygon::new(&[Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0)])
        .unwrap();
    let shapes: [Shape2; 3] =
        [Circle::new(0.5).into(), Rectangle::new(Vector2::new(0.3, 0.6)).into(), poly.into()];
    let d = Vector2::new(0.3, -0.8);
    for s in &shapes {
        let inner: &dyn SupportMap2 = match s {
            Shape2::Circle(c) => c,
            Shape2::Rectangle(r) => r,
            Shape2::Polygon(p) => p,
        };
        assert_eq!(s.local_support(&d), inner.local_support(&d));
        assert_eq!(s.margin(), inner.margin());
        assert_eq!(s.local_core_support(&d), inner.local_core_support(&d));
    }
}

// ---------------------------------------------------------------------------
// Seeded property tests against the oracles.

proptest! {
    #![proptest_config(config(0x02dc_1c1e, 1024))]

    /// Circle against circle: the analytic answer, under a random rigid
    /// transform, with A and B swapped.
    #[test]
    fn circle_circle_matches_analytic(
        r1 in 0.1f32..1.0, r2 in 0.1f32..1.0, dist in 0.05f32..2.5, dir in -3.2f32..3.2,
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        let (r1, r2, dist) = (r1 * scale, r2 * scale, dist * scale);
        let to_world = pose(wx * scale, wy * scale, wr);
        let pa = to_world * pose(0.0, 0.0, 0.7);
        let pb = to_world * pose(dist * dir.cos(), dist * dir.sin(), -0.2);
        let (ca, cb) = (to_p(&(pa * Point2::origin())), to_p(&(pb * Point2::origin())));
        let d = oracle::norm(oracle::sub(cb, ca));
        let n = [(cb[0] - ca[0]) / d, (cb[1] - ca[1]) / d];
        let signed = d - (r1 + r2) as f64;
        let s = scale as f64;
        let (a, b) = (Circle::new(r1), Circle::new(r2));
        if signed.abs() < 1e-4 * s { return Ok(()); }
        prop_assert_eq!(intersects2(&a, &pa, &b, &pb), signed < 0.0);
        if signed > 0.0 {
            let Proximity2::Separated { distance, point_a, point_b } = closest_points2(&a, &pa, &b, &pb)
            else { panic!("separated circles reported intersecting") };
            prop_assert!((distance as f64 - signed).abs() <= distance_tol(s, signed));
            prop_assert!((oracle::norm(oracle::sub(to_p(&point_a), ca)) - r1 as f64).abs() <= witness_tol(s));
            prop_assert!((oracle::norm(oracle::sub(to_p(&point_b), cb)) - r2 as f64).abs() <= witness_tol(s));
        } else {
            let hit = penetration2(&a, &pa, &b, &pb).expect("overlap");
            prop_assert!((hit.depth as f64 + signed).abs() <= depth_tol(s, -signed));
            prop_assert!(oracle::dot([hit.normal.x as f64, hit.normal.y as f64], n) > 1.0 - 1e-4);
            let swapped = penetration2(&b, &pb, &a, &pa).expect("overlap");
            prop_assert!((swapped.depth - hit.depth).abs() as f64 <= depth_tol(s, -signed));
            prop_assert!((swapped.normal.into_inner() + hit.normal.into_inner()).norm() < 1e-3);
        }
    }

    /// Rectangle against circle: the analytic answer (clamped closest point
    /// outside, nearest face inside).
    #[test]
    fn rectangle_circle_matches_analytic(
        hx in 0.1f32..1.0, hy in 0.1f32..1.0, r in 0.05f32..1.0,
        cx in -2.5f32..2.5, cy in -2.5f32..2.5,
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(), rect_angle in -3.2f32..3.2,
    ) {
        let (hx, hy, r, cx, cy) = (hx * scale, hy * scale, r * scale, cx * scale, cy * scale);
        let to_world = pose(wx * scale, wy * scale, wr);
        let p_rect = to_world * pose(0.0, 0.0, rect_angle);
        // The circle's centre in the rectangle's frame is (cx, cy).
        let p_circle = p_rect * pose(cx, cy, 1.1);
        let (signed, n_local) = oracle::rectangle_circle([hx as f64, hy as f64], [cx as f64, cy as f64], r as f64);
        let s = scale as f64;
        let rect = Rectangle::new(Vector2::new(hx, hy));
        let circle = Circle::new(r);
        if signed.abs() < 1e-4 * s { return Ok(()); }
        prop_assert_eq!(intersects2(&rect, &p_rect, &circle, &p_circle), signed < 0.0);
        prop_assert_eq!(intersects2(&circle, &p_circle, &rect, &p_rect), signed < 0.0);
        let corners = world(&rect.corners(), &p_rect);
        if signed > 0.0 {
            let Proximity2::Separated { distance, point_a, point_b } = closest_points2(&rect, &p_rect, &circle, &p_circle)
            else { panic!("separated reported intersecting") };
            prop_assert!((distance as f64 - signed).abs() <= distance_tol(s, signed), "{} vs {}", distance, signed);
            prop_assert!(oracle::to_boundary(to_p(&point_a), &corners) <= witness_tol(s));
            let centre = to_p(&(p_circle * Point2::origin()));
            prop_assert!((oracle::norm(oracle::sub(to_p(&point_b), centre)) - r as f64).abs() <= witness_tol(s));
        } else {
            let hit = penetration2(&rect, &p_rect, &circle, &p_circle).expect("overlap");
            prop_assert!((hit.depth as f64 + signed).abs() <= depth_tol(s, -signed), "{} vs {}", hit.depth, -signed);
            // The normal is unique unless the centre is near the rectangle's
            // diagonal-like ties inside; check it where the two faces differ.
            let (gx, gy) = (hx - cx.abs(), hy - cy.abs());
            let inside = gx >= 0.0 && gy >= 0.0;
            if !inside || (gx - gy).abs() > 0.05 * scale {
                let n = world_point(n_local, &pose(0.0, 0.0, p_rect.rotation.angle()));
                prop_assert!(oracle::dot([hit.normal.x as f64, hit.normal.y as f64], n) > 1.0 - 1e-3,
                    "normal {:?} vs {:?}", hit.normal, n);
                let swapped = penetration2(&circle, &p_circle, &rect, &p_rect).expect("overlap");
                prop_assert!((swapped.normal.into_inner() + hit.normal.into_inner()).norm() < 1e-3);
            }
            prop_assert!(oracle::to_boundary(to_p(&hit.point_a), &corners) <= witness_tol(s));
        }
    }

    /// Polygon against polygon: depth and normal against the exact SAT
    /// oracle, distance against brute force, under random rigid transforms,
    /// scales and A/B swaps.
    #[test]
    fn polygon_polygon_matches_sat_and_brute_force(
        (angles_a, ax, ay) in polygon_strategy(), (angles_b, bx, by) in polygon_strategy(),
        (px, py, pr) in (-2.0f32..2.0, -2.0f32..2.0, -3.2f32..3.2),
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        let va = ellipse_polygon(&angles_a, ax, ay, scale);
        let vb = ellipse_polygon(&angles_b, bx, by, scale);
        let (a, b) = (Polygon::new(&va).unwrap(), Polygon::new(&vb).unwrap());
        let to_world = pose(wx * scale, wy * scale, wr);
        let pa = to_world * pose(0.0, 0.0, 0.4);
        let pb = to_world * pose(px * scale, py * scale, pr);
        let (wa, wb) = (world(&va, &pa), world(&vb, &pb));
        let (depth, _, _) = oracle::sat(&wa, &wb);
        let s = scale as f64;
        if depth.abs() < 1e-4 * s { return Ok(()); }
        prop_assert_eq!(intersects2(&a, &pa, &b, &pb), depth > 0.0);
        if depth > 0.0 {
            let hit = penetration2(&a, &pa, &b, &pb).expect("overlap");
            check_polygon_penetration(&hit, &wa, &wb, s);
            let swapped = penetration2(&b, &pb, &a, &pa).expect("overlap");
            check_polygon_penetration(&swapped, &wb, &wa, s);
            let (_, _, second) = oracle::sat(&wa, &wb);
            if second - depth > 0.05 * s {
                prop_assert!((swapped.normal.into_inner() + hit.normal.into_inner()).norm() < 2e-3);
            }
        } else {
            prop_assert!(penetration2(&a, &pa, &b, &pb).is_none());
            let expected = oracle::distance(&wa, &wb);
            for (x, px_, y, py_, wx_, wy_) in [(&a, &pa, &b, &pb, &wa, &wb), (&b, &pb, &a, &pa, &wb, &wa)] {
                let Proximity2::Separated { distance, point_a, point_b } = closest_points2(x, px_, y, py_)
                else { panic!("separated polygons reported intersecting") };
                prop_assert!((distance as f64 - expected).abs() <= distance_tol(s, expected),
                    "distance {} vs {}", distance, expected);
                prop_assert!(oracle::to_boundary(to_p(&point_a), wx_) <= witness_tol(s));
                prop_assert!(oracle::to_boundary(to_p(&point_b), wy_) <= witness_tol(s));
                prop_assert!((oracle::norm(oracle::sub(to_p(&point_a), to_p(&point_b))) - expected).abs()
                    <= distance_tol(s, expected));
            }
        }
    }

    /// Pairs moved to just touching (overlap 1e-3 of their size) and just
    /// missing (gap 1e-3) along the oracle's separating direction.
    #[test]
    fn just_touching_and_just_missing(
        (angles_a, ax, ay) in polygon_strategy(), (angles_b, bx, by) in polygon_strategy(),
        (px, py, pr) in (-0.5f32..0.5, -0.5f32..0.5, -3.2f32..3.2),
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        let va = ellipse_polygon(&angles_a, ax, ay, scale);
        let vb = ellipse_polygon(&angles_b, bx, by, scale);
        let (a, b) = (Polygon::new(&va).unwrap(), Polygon::new(&vb).unwrap());
        let to_world = pose(wx * scale, wy * scale, wr);
        let pa = to_world * pose(0.0, 0.0, 0.0);
        let pb0 = to_world * pose(px * scale, py * scale, pr);
        let (wa, wb0) = (world(&va, &pa), world(&vb, &pb0));
        let (depth, n, _) = oracle::sat(&wa, &wb0);
        prop_assume!(depth > 0.0);
        let s = scale as f64;
        for (offset, overlapping) in [(-1e-3 * s, true), (1e-3 * s, false)] {
            let shift = depth + offset;
            let pb = Isometry2::from_parts(
                (pb0.translation.vector + Vector2::new((n[0] * shift) as f32, (n[1] * shift) as f32)).into(),
                pb0.rotation,
            );
            let wb = world(&vb, &pb);
            let (d, _, _) = oracle::sat(&wa, &wb);
            prop_assume!((d > 0.0) == overlapping && d.abs() > 2e-4 * s);
            prop_assert_eq!(intersects2(&a, &pa, &b, &pb), overlapping, "offset {}", offset);
            prop_assert_eq!(intersects2(&b, &pb, &a, &pa), overlapping);
            if overlapping {
                let hit = penetration2(&a, &pa, &b, &pb).expect("just touching must still penetrate");
                check_polygon_penetration(&hit, &wa, &wb, s);
            } else {
                let expected = oracle::distance(&wa, &wb);
                let Proximity2::Separated { distance, .. } = closest_points2(&a, &pa, &b, &pb)
                else { panic!("just missing reported intersecting") };
                prop_assert!((distance as f64 - expected).abs() <= distance_tol(s, expected));
            }
        }
    }

    /// Circle against convex polygons of 3 to 200 vertices: the oracle is the
    /// signed distance from the centre to the polygon (inside: minus the
    /// distance to the boundary), minus the radius.
    #[test]
    fn polygon_circle_matches_point_distance(
        n in 3usize..200, ax in 0.3f32..1.0, ay in 0.3f32..1.0, phase in 0.0f32..1.0,
        cx in -1.5f32..1.5, cy in -1.5f32..1.5, r in 0.02f32..0.8,
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(), poly_angle in -3.2f32..3.2,
    ) {
        let angles: Vec<f32> = (0..n).map(|i| (i as f32 + phase) * std::f32::consts::TAU / n as f32).collect();
        let verts = ellipse_polygon(&angles, ax, ay, scale);
        let poly = Polygon::new(&verts).unwrap();
        let to_world = pose(wx * scale, wy * scale, wr);
        let p_poly = to_world * pose(0.0, 0.0, poly_angle);
        let p_circle = to_world * pose(cx * scale, cy * scale, 0.0);
        let wp = world(&verts, &p_poly);
        let s = scale as f64;
        let radius = (r * scale) as f64;
        let signed_to_poly = |c: P| {
            let inside = oracle::edges(&wp).all(|(a, b)| {
                let e = oracle::sub(b, a);
                e[0] * (c[1] - a[1]) - e[1] * (c[0] - a[0]) >= 0.0
            });
            let d = oracle::to_boundary(c, &wp);
            if inside { -d } else { d }
        };
        let centre = to_p(&(p_circle * Point2::origin()));
        let signed = signed_to_poly(centre) - radius;
        prop_assume!(signed.abs() > 1e-4 * s);
        let circle = Circle::new(r * scale);
        prop_assert_eq!(intersects2(&poly, &p_poly, &circle, &p_circle), signed < 0.0);
        prop_assert_eq!(intersects2(&circle, &p_circle, &poly, &p_poly), signed < 0.0);
        if signed < 0.0 {
            let hit = penetration2(&poly, &p_poly, &circle, &p_circle).expect("overlap");
            prop_assert!((hit.depth as f64 + signed).abs() <= depth_tol(s, -signed), "depth {} vs {}", hit.depth, -signed);
            // Moving the circle out along the normal by the depth makes it touch.
            let n_ = [hit.normal.x as f64, hit.normal.y as f64];
            let moved = [centre[0] + n_[0] * hit.depth as f64, centre[1] + n_[1] * hit.depth as f64];
            prop_assert!((signed_to_poly(moved) - radius).abs() <= depth_tol(s, -signed));
            prop_assert!(oracle::to_boundary(to_p(&hit.point_a), &wp) <= witness_tol(s));
            prop_assert!((oracle::norm(oracle::sub(to_p(&hit.point_b), centre)) - radius).abs() <= witness_tol(s));
            let swapped = penetration2(&circle, &p_circle, &poly, &p_poly).expect("overlap");
            prop_assert!((swapped.depth - hit.depth).abs() as f64 <= depth_tol(s, -signed));
        } else {
            for proximity in [closest_points2(&poly, &p_poly, &circle, &p_circle), closest_points2(&circle, &p_circle, &poly, &p_poly)] {
                let Proximity2::Separated { distance, .. } = proximity
                else { panic!("separated reported intersecting") };
                prop_assert!((distance as f64 - signed).abs() <= distance_tol(s, signed), "distance {} vs {}", distance, signed);
            }
        }
    }

    /// Rectangles (through the `Shape2` enum) against polygons: the SAT oracle.
    #[test]
    fn rectangle_polygon_matches_sat(
        hx in 0.05f32..1.0, hy in 0.05f32..1.0, (angles, bx, by) in polygon_strategy(),
        (px, py, pr) in (-1.5f32..1.5, -1.5f32..1.5, -3.2f32..3.2),
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        let rect = Rectangle::new(Vector2::new(hx, hy) * scale);
        let vb = ellipse_polygon(&angles, bx, by, scale);
        let a: Shape2 = rect.into();
        let b: Shape2 = Polygon::new(&vb).unwrap().into();
        let to_world = pose(wx * scale, wy * scale, wr);
        let pa = to_world * pose(0.0, 0.0, -0.9);
        let pb = to_world * pose(px * scale, py * scale, pr);
        let (wa, wb) = (world(&rect.corners(), &pa), world(&vb, &pb));
        let (depth, _, _) = oracle::sat(&wa, &wb);
        let s = scale as f64;
        prop_assume!(depth.abs() > 1e-4 * s);
        prop_assert_eq!(intersects2(&a, &pa, &b, &pb), depth > 0.0);
        if depth > 0.0 {
            let hit = penetration2(&a, &pa, &b, &pb).expect("overlap");
            check_polygon_penetration(&hit, &wa, &wb, s);
        } else {
            let expected = oracle::distance(&wa, &wb);
            let Proximity2::Separated { distance, .. } = closest_points2(&b, &pb, &a, &pa)
            else { panic!("separated reported intersecting") };
            prop_assert!((distance as f64 - expected).abs() <= distance_tol(s, expected));
        }
    }

    /// Two-point polygons (segments) against each other and against
    /// polygons: their core difference is a parallelogram or, when parallel,
    /// a segment; the SAT oracle and brute force still apply.
    #[test]
    fn segments_match_sat_and_brute_force(
        (x0, y0, x1, y1) in (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
        (angles, bx, by) in polygon_strategy(), against_segment in any::<bool>(),
        (px, py, pr) in (-1.0f32..1.0, -1.0f32..1.0, -3.2f32..3.2),
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        prop_assume!((x1 - x0).hypot(y1 - y0) > 0.1);
        let va = vec![Point2::new(x0, y0) * scale, Point2::new(x1, y1) * scale];
        let vb = if against_segment { vec![va[1], Point2::new(-y0, x1) * scale] } else { ellipse_polygon(&angles, bx, by, scale) };
        prop_assume!((vb[1] - vb[0]).norm() > 0.1 * scale);
        let (a, b) = (polygon_or_segment(&va), polygon_or_segment(&vb));
        let to_world = pose(wx * scale, wy * scale, wr);
        let pa = to_world;
        let pb = to_world * pose(px * scale, py * scale, pr);
        let (wa, wb) = (world(&va, &pa), world(&vb, &pb));
        let (depth, _, _) = oracle::sat(&wa, &wb);
        let s = scale as f64;
        prop_assume!(depth.abs() > 1e-4 * s);
        prop_assert_eq!(intersects2(&a, &pa, &b, &pb), depth > 0.0);
        if depth > 0.0 {
            let hit = penetration2(&a, &pa, &b, &pb).expect("overlap");
            check_polygon_penetration(&hit, &wa, &wb, s);
            let swapped = penetration2(&b, &pb, &a, &pa).expect("overlap");
            check_polygon_penetration(&swapped, &wb, &wa, s);
        } else {
            let expected = oracle::distance(&wa, &wb);
            let Proximity2::Separated { distance, .. } = closest_points2(&a, &pa, &b, &pb)
            else { panic!("separated reported intersecting") };
            prop_assert!((distance as f64 - expected).abs() <= distance_tol(s, expected));
        }
    }

    /// The three queries agree with each other, also inside the touch
    /// tolerance: a polygon pair (no margins) and a polygon-circle pair are
    /// placed within +-2e-5 of contact (relative to their size).
    #[test]
    fn queries_agree_near_contact(
        (angles_a, ax, ay) in polygon_strategy(), (angles_b, bx, by) in polygon_strategy(),
        (px, py, pr) in (-0.5f32..0.5, -0.5f32..0.5, -3.2f32..3.2),
        offset in -2e-5f64..2e-5, radius in 0.01f32..0.5,
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        let va = ellipse_polygon(&angles_a, ax, ay, scale);
        let vb = ellipse_polygon(&angles_b, bx, by, scale);
        let a = Polygon::new(&va).unwrap();
        let to_world = pose(wx * scale, wy * scale, wr);
        let pa = to_world;
        let pb0 = to_world * pose(px * scale, py * scale, pr);
        prop_assume!(oracle::sat(&world(&va, &pa), &world(&vb, &pb0)).0 > 0.0);
        let pb = moved_into_contact(&va, &pa, &vb, &pb0, offset * scale as f64);
        // The circle touches A's first edge at its midpoint, overlapping by
        // the same offset.
        let wa = world(&va, &pa);
        let e = oracle::sub(wa[1], wa[0]);
        let n = [e[1] / oracle::norm(e), -e[0] / oracle::norm(e)];
        let r = (radius.max(0.01) * scale) as f64;
        let along = r - offset * scale as f64;
        let centre = [(wa[0][0] + wa[1][0]) / 2.0 + n[0] * along, (wa[0][1] + wa[1][1]) / 2.0 + n[1] * along];
        let p_circle = Isometry2::translation(centre[0] as f32, centre[1] as f32);
        let shapes: [(Shape2, Isometry2<f32>); 2] =
            [(Polygon::new(&vb).unwrap().into(), pb), (Circle::new(r as f32).into(), p_circle)];
        for (b, pb) in &shapes {
            for swap in [false, true] {
                let (hit, near, touching) = if swap {
                    (penetration2(b, pb, &a, &pa), closest_points2(b, pb, &a, &pa), intersects2(b, pb, &a, &pa))
                } else {
                    (penetration2(&a, &pa, b, pb), closest_points2(&a, &pa, b, pb), intersects2(&a, &pa, b, pb))
                };
                prop_assert_eq!(touching, hit.is_some());
                prop_assert_eq!(touching, near == Proximity2::Intersecting);
            }
        }
    }

    /// A segment polygon against a circle: the analytic point-segment answer.
    #[test]
    fn segment_circle_matches_analytic(
        x0 in -1.0f32..1.0, y0 in -1.0f32..1.0, x1 in -1.0f32..1.0, y1 in -1.0f32..1.0,
        cx in -1.5f32..1.5, cy in -1.5f32..1.5, r in 0.05f32..0.8,
        scale in scale_strategy(), (wx, wy, wr) in world_strategy(),
    ) {
        prop_assume!((x1 - x0).hypot(y1 - y0) > 0.1);
        let seg = Polygon::segment(Point2::new(x0, y0) * scale, Point2::new(x1, y1) * scale).unwrap();
        let to_world = pose(wx * scale, wy * scale, wr);
        let p_seg = to_world;
        let p_circle = to_world * pose(cx * scale, cy * scale, 0.0);
        let ws = world(&[Point2::new(x0, y0) * scale, Point2::new(x1, y1) * scale], &p_seg);
        let centre = to_p(&(p_circle * Point2::origin()));
        let s = scale as f64;
        let signed = oracle::point_segment(centre, ws[0], ws[1]) - (r * scale) as f64;
        prop_assume!(signed.abs() > 1e-4 * s);
        let circle = Circle::new(r * scale);
        prop_assert_eq!(intersects2(&seg, &p_seg, &circle, &p_circle), signed < 0.0);
        if signed < 0.0 {
            let hit = penetration2(&circle, &p_circle, &seg, &p_seg).expect("overlap");
            // Depth: the segment's farthest reach into the circle along the
            // normal, i.e. r minus the centre's signed distance; the normal is
            // from the circle's centre to the segment unless the centre is on
            // the segment. Checked by moving B out along the normal.
            let nn = [hit.normal.x as f64, hit.normal.y as f64];
            let depth = hit.depth as f64;
            let moved: Vec<P> = ws.iter().map(|p| [p[0] + nn[0] * depth, p[1] + nn[1] * depth]).collect();
            let after = oracle::point_segment(centre, moved[0], moved[1]) - (r * scale) as f64;
            prop_assert!(after.abs() <= depth_tol(s, depth), "after moving: {}", after);
            prop_assert!(depth + depth_tol(s, depth) >= -signed, "depth {} below {}", depth, -signed);
        } else {
            let Proximity2::Separated { distance, .. } = closest_points2(&seg, &p_seg, &circle, &p_circle)
            else { panic!("separated reported intersecting") };
            prop_assert!((distance as f64 - signed).abs() <= distance_tol(s, signed));
        }
    }

    /// The hull keeps exactly the extreme points: its vertices are input
    /// points, it is counter-clockwise and convex, and it contains every
    /// input point.
    #[test]
    fn hull_contains_all_points_and_is_convex(
        pts in prop::collection::vec((-10.0f32..10.0, -10.0f32..10.0), 3..40),
    ) {
        let pts: Vec<Point2<f32>> = pts.into_iter().map(|(x, y)| Point2::new(x, y)).collect();
        let Ok(poly) = Polygon::new(&pts) else {
            return Ok(()); // only for all-coincident draws, which cannot pass 3 distinct values often
        };
        let v: Vec<P> = poly.vertices().iter().map(to_p).collect();
        for p in poly.vertices() {
            prop_assert!(pts.contains(p));
        }
        if v.len() >= 3 {
            for i in 0..v.len() {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                let e = oracle::sub(b, a);
                let len = oracle::norm(e);
                for q in &pts {
                    let q = to_p(q);
                    let side = (e[0] * (q[1] - a[1]) - e[1] * (q[0] - a[0])) / len;
                    prop_assert!(side >= -1e-4, "point {:?} outside edge {}", q, i);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Error distribution over a fixed seeded sample (printed with --nocapture).

/// SplitMix64, so the sample is reproducible without extra dependencies.
struct Rng(u64);
impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), at(1.0))
}

#[test]
fn error_distribution_vs_oracles() {
    let mut rng = Rng(0x005e_ed2d);
    let (mut depth_err, mut dist_err) = (Vec::new(), Vec::new());
    let (mut circle_depth_err, mut circle_dist_err) = (Vec::new(), Vec::new());
    while depth_err.len() < 4000 || dist_err.len() < 4000 {
        let scale = 10f32.powf(rng.uniform(-3.0, 3.0));
        let polygon = |rng: &mut Rng| {
            let n = 3 + (rng.next_u64() % 8) as usize;
            let angles: Vec<f32> =
                (0..n).map(|_| rng.uniform(0.0, std::f32::consts::TAU)).collect();
            ellipse_polygon(&angles, rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0), scale)
        };
        let (va, vb) = (polygon(&mut rng), polygon(&mut rng));
        if va.len() < 3 || vb.len() < 3 {
            continue;
        }
        let to_world = pose(
            rng.uniform(-3.0, 3.0) * scale,
            rng.uniform(-3.0, 3.0) * scale,
            rng.uniform(-3.2, 3.2),
        );
        let pa = to_world * pose(0.0, 0.0, rng.uniform(-3.2, 3.2));
        let pb = to_world
            * pose(
                rng.uniform(-2.0, 2.0) * scale,
                rng.uniform(-2.0, 2.0) * scale,
                rng.uniform(-3.2, 3.2),
            );
        let (a, b) = (Polygon::new(&va).unwrap(), Polygon::new(&vb).unwrap());
        let (wa, wb) = (world(&va, &pa), world(&vb, &pb));
        let (depth, _, _) = oracle::sat(&wa, &wb);
        let s = scale as f64;
        if depth > 1e-4 * s {
            let hit = penetration2(&a, &pa, &b, &pb).expect("overlap");
            depth_err.push((hit.depth as f64 - depth).abs() / s);
        } else if depth < -1e-4 * s {
            let expected = oracle::distance(&wa, &wb);
            match closest_points2(&a, &pa, &b, &pb) {
                Proximity2::Separated { distance, .. } => {
                    dist_err.push((distance as f64 - expected).abs() / s)
                }
                Proximity2::Intersecting => panic!("separated pair reported intersecting"),
            }
        }
        // Polygon A against a circle at B's pose: signed centre distance.
        let radius = rng.uniform(0.05, 0.8) * scale;
        let centre = to_p(&(pb * Point2::origin()));
        let inside = oracle::edges(&wa).all(|(p, q)| {
            let e = oracle::sub(q, p);
            e[0] * (centre[1] - p[1]) - e[1] * (centre[0] - p[0]) >= 0.0
        });
        let to_edge = oracle::to_boundary(centre, &wa);
        let signed = if inside { -to_edge } else { to_edge } - radius as f64;
        let circle = Circle::new(radius);
        if signed < -1e-4 * s {
            let hit = penetration2(&a, &pa, &circle, &pb).expect("overlap");
            circle_depth_err.push((hit.depth as f64 + signed).abs() / s);
        } else if signed > 1e-4 * s {
            match closest_points2(&a, &pa, &circle, &pb) {
                Proximity2::Separated { distance, .. } => {
                    circle_dist_err.push((distance as f64 - signed).abs() / s)
                }
                Proximity2::Intersecting => panic!("separated pair reported intersecting"),
            }
        }
    }
    let (c50, c99, cmax) = percentiles(circle_depth_err);
    let (e50, e99, emax) = percentiles(circle_dist_err);
    eprintln!(
        "polygon-circle error / shape size: depth p50 {c50:.2e} p99 {c99:.2e} max {cmax:.2e}"
    );
    eprintln!(
        "polygon-circle error / shape size: distance p50 {e50:.2e} p99 {e99:.2e} max {emax:.2e}"
    );
    assert!(cmax <= 1e-3, "circle depth error {cmax}");
    assert!(emax <= 1e-4, "circle distance error {emax}");
    let (d50, d99, dmax) = percentiles(depth_err);
    let (s50, s99, smax) = percentiles(dist_err);
    eprintln!(
        "polygon-polygon error / shape size: depth p50 {d50:.2e} p99 {d99:.2e} max {dmax:.2e}"
    );
    eprintln!(
        "polygon-polygon error / shape size: distance p50 {s50:.2e} p99 {s99:.2e} max {smax:.2e}"
    );
    assert!(dmax <= 1e-3, "depth error {dmax}");
    assert!(smax <= 1e-4, "distance error {smax}");
}

// Ray casts.

mod ray_oracle {
    use super::oracle::{P, dot, norm, sub, to_boundary};

    /// Signed distance from `p` to a counter-clockwise convex polygon with
    /// at least three vertices: minus the distance to the boundary inside.
    pub fn signed_distance(p: P, poly: &[P]) -> f64 {
        let inside = (0..poly.len()).all(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            let (e, w) = (sub(b, a), sub(p, a));
            e[0] * w[1] - e[1] * w[0] >= 0.0
        });
        let d = to_boundary(p, poly);
        if inside { -d } else { d }
    }

    /// The first `t` in `[0, max_t]` where the convex `f` reaches zero:
    /// `Err(f(0))` if it starts at or below zero, `Ok(None)` for a miss
    /// (with the smallest value reached), `Ok(Some(t))` for a hit.
    pub fn first_root(f: impl Fn(f64) -> f64, max_t: f64) -> Result<(Option<f64>, f64), f64> {
        if f(0.0) <= 0.0 {
            return Err(f(0.0));
        }
        let phi = 0.5 * (5f64.sqrt() - 1.0);
        let (mut lo, mut hi) = (0.0, max_t);
        for _ in 0..200 {
            let (m1, m2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
            if f(m1) <= f(m2) { hi = m2 } else { lo = m1 }
        }
        let t_min = if f(max_t) <= f(lo) { max_t } else { lo };
        let closest = f(t_min);
        if closest > 0.0 {
            return Ok((None, closest));
        }
        let (mut lo, mut hi) = (0.0, t_min);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 { lo = mid } else { hi = mid }
        }
        Ok((Some(hi), 0.0))
    }

    pub fn along(o: P, d: P, t: f64) -> P {
        [o[0] + d[0] * t, o[1] + d[1] * t]
    }

    pub fn unit(a: P) -> P {
        let n = norm(a);
        [a[0] / n, a[1] / n]
    }

    pub fn support(poly: &[P], n: P) -> f64 {
        poly.iter().map(|&v| dot(v, n)).fold(f64::NEG_INFINITY, f64::max)
    }
}

/// Rays at polygons, rectangles and circles under random rigid transforms
/// and scales 1e-3 to 1e3, against the first root of the f64 signed
/// distance along the ray (circles also against the closed form): the
/// outcome, the entry point on the boundary, and a normal that supports the
/// shape there and faces the ray. Outcomes that turn on the tolerance
/// (grazing, starting on the boundary) are skipped.
#[test]
fn ray_casts_match_the_signed_distance() {
    use collide::dim2::{Ray2, RayCast2, try_cast_ray2};
    let config = Config {
        cases: 2_000,
        rng_seed: RngSeed::Fixed(0x2A7),
        failure_persistence: None,
        ..Config::default()
    };
    proptest!(config, |(
        kind in 0usize..3,
        (angles, ax, ay) in polygon_strategy(),
        scale in scale_strategy(),
        (wx, wy, wa) in world_strategy(),
        (from_angle, from_dist, through_x, through_y) in (0.0f32..6.3, 0.0f32..4.0, -1.5f32..1.5, -1.5f32..1.5),
    )| {
        let world = pose(wx * scale, wy * scale, wa);
        let (shape, local): (Shape2, Vec<Point2<f32>>) = match kind {
            0 => {
                let v = ellipse_polygon(&angles, ax, ay, scale);
                (Polygon::new(&v).unwrap().into(), Polygon::new(&v).unwrap().vertices().to_vec())
            }
            1 => {
                let r = Rectangle::new(Vector2::new(ax * scale, ay * scale));
                (r.into(), r.corners().to_vec())
            }
            _ => (Circle::new(ax * scale).into(), Vec::new()),
        };
        let to_p = |p: Point2<f32>| -> P { let q = world * p; [q.x as f64, q.y as f64] };
        let poly: Vec<P> = local.iter().map(|&p| to_p(p)).collect();
        let centre = to_p(Point2::origin());
        let r = f64::from(ax * scale);
        let sd = |p: P| if kind == 2 { oracle::norm(oracle::sub(p, centre)) - r } else { ray_oracle::signed_distance(p, &poly) };
        let origin = world * Point2::new(from_dist * scale * from_angle.cos(), from_dist * scale * from_angle.sin());
        let through = world * Point2::new(through_x * scale, through_y * scale);
        let ray = Ray2::new(origin, through - origin);
        let o = [origin.x as f64, origin.y as f64];
        let d = [ray.dir.x as f64, ray.dir.y as f64];
        let max_t = 2.0;
        let got = try_cast_ray2(&shape, &world, &ray, max_t as f32).unwrap();
        let want = ray_oracle::first_root(|t| sd(ray_oracle::along(o, d, t)), max_t);
        let tol = 1e-5 * scale as f64 * 10.0;
        match (got, want) {
            (RayCast2::StartsInside, Err(_)) | (RayCast2::Miss, Ok((None, _))) => {}
            (RayCast2::Hit { toi, point, normal }, Ok((Some(t), _))) => {
                let p = [point.x as f64, point.y as f64];
                let n = [normal.x as f64, normal.y as f64];
                prop_assert!(sd(p).abs() <= tol, "hit point {} off the boundary", sd(p));
                prop_assert!((f64::from(toi) - t).abs() * oracle::norm(d) <= tol, "toi {toi} vs {t}");
                prop_assert!(oracle::dot(n, d) <= 1e-6 * oracle::norm(d), "normal along the ray");
                let support = if kind == 2 { oracle::dot(centre, n) + r } else { ray_oracle::support(&poly, n) };
                prop_assert!((support - oracle::dot(p, n)).abs() <= tol, "normal does not support the shape");
                if kind == 2 {
                    // The closed form: the normal is radial.
                    let radial = ray_oracle::unit(oracle::sub(p, centre));
                    prop_assert!(oracle::dot(radial, n) >= 1.0 - 1e-5);
                }
            }
            (_, Ok((None, closest))) if closest <= 1e-4 * scale as f64 => {}
            (_, Err(start)) if -start <= 1e-4 * scale as f64 => {}
            (got, want) => prop_assert!(false, "collide {got:?}, oracle {want:?}"),
        }
    });
}

/// Segments (two-vertex polygons): crossed, missed beside an end, and
/// entered end-on along their own line.
#[test]
fn rays_at_a_segment() {
    use collide::dim2::{Ray2, RayCast2, try_cast_ray2};
    let segment = Polygon::segment(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0)).unwrap();
    for (wx, wy, wa) in [(0.0, 0.0, 0.0), (3.0, -2.0, 0.7), (-40.0, 11.0, -2.1)] {
        let world = pose(wx, wy, wa);
        let at = |x: f32, y: f32| world * Point2::new(x, y);
        let along = |x: f32, y: f32| world * Vector2::new(x, y);
        let cases = [
            (Ray2::new(at(0.3, 2.0), along(0.0, -1.0)), Some(2.0)),
            (Ray2::new(at(1.5, 2.0), along(0.0, -1.0)), None),
            (Ray2::new(at(-4.0, 0.0), along(1.0, 0.0)), Some(3.0)),
        ];
        for (ray, want) in cases {
            match (try_cast_ray2(&segment, &world, &ray, 10.0).unwrap(), want) {
                (RayCast2::Hit { toi, .. }, Some(t)) => {
                    assert!((toi - t).abs() <= 1e-4, "{toi} vs {t}")
                }
                (RayCast2::Miss, None) => {}
                (got, want) => panic!("world {wx} {wy} {wa}: {got:?} vs {want:?}"),
            }
        }
    }
}
