//! 2D `contact2`, `shape_cast2` and `time_of_impact2` against oracles that
//! share no code with them, as the 3D casts are tested: analytic
//! circle–circle and circle–rectangle times of impact (roots of the
//! quadratic, faces and rounded corners), an exact moving separating-axis
//! time of impact for convex polygons (each edge normal gives the interval
//! of times over which the projections overlap; the polygons meet on the
//! intersection of those intervals), and brute force for rotating motion
//! (the f64 separating-axis distance sampled along the sweep). Every case
//! runs under seeded random rigid transforms of the whole scene, at scales
//! from 1e-3 to 1e3, with A and B swapped, and just-touching and
//! just-missing pairs are checked on both sides.

use collide::dim2::{
    Circle, Contact2, Polygon, Proximity2, Rectangle, ShapeCast2, SupportMap2, Sweep2,
    TimeOfImpact2, closest_points2, contact2, penetration2, try_shape_cast2, try_time_of_impact2,
};
use nalgebra::{Isometry2, Point2, Vector2};

use crate::dim2::oracle::{self, P};
use crate::dim2::{ellipse_polygon, world};

/// Small deterministic generator (xorshift64*), so every run draws the same
/// cases.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    /// Log-uniform in [1e-3, 1e3].
    fn scale(&mut self) -> f32 {
        10f32.powf(self.range(-3.0, 3.0))
    }
    /// A rigid transform of the whole scene, its translation `spread` wide.
    fn world(&mut self, spread: f32) -> Isometry2<f32> {
        Isometry2::new(
            Vector2::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0)) * spread,
            self.range(-3.2, 3.2),
        )
    }
}

fn f64v(v: &Vector2<f32>) -> P {
    [v.x as f64, v.y as f64]
}

/// Analytic first time at which centres `ca + va t` and `cb + vb t` come
/// `reach` apart, if they do at some `t ≥ 0` (`Some(0)` if already within).
fn circles_toi(ca: P, va: P, cb: P, vb: P, reach: f64) -> Option<f64> {
    let d = oracle::sub(cb, ca);
    let w = oracle::sub(vb, va);
    let c = oracle::dot(d, d) - reach * reach;
    if c <= 0.0 {
        return Some(0.0);
    }
    let (a, b) = (oracle::dot(w, w), oracle::dot(d, w));
    let disc = b * b - a * c;
    if a == 0.0 || b >= 0.0 || disc < 0.0 {
        return None;
    }
    Some((-b - disc.sqrt()) / a)
}

/// Analytic first time at which a circle (centre `c + w t`, radius `r`, in
/// the rectangle's frame) touches the rectangle of half extents `h`: the
/// earliest of the four faces pushed out by `r` (where the centre is beside
/// the face) and the four corner discs of radius `r`. Each corner disc lies
/// inside the rounded rectangle, so its entry is never earlier than the
/// true one, and the true one is on a face or on a corner arc.
fn circle_rectangle_toi(h: P, c: P, w: P, r: f64) -> Option<f64> {
    let mut best: Option<f64> = None;
    let mut keep = |t: f64| {
        if t >= 0.0 && best.is_none_or(|b| t < b) {
            best = Some(t);
        }
    };
    for axis in 0..2 {
        let other = 1 - axis;
        for sign in [1.0, -1.0] {
            let speed = sign * w[axis];
            if speed < 0.0 {
                let t = (h[axis] + r - sign * c[axis]) / speed;
                if (c[other] + w[other] * t).abs() <= h[other] {
                    keep(t);
                }
            }
        }
    }
    for corner in [[h[0], h[1]], [-h[0], h[1]], [h[0], -h[1]], [-h[0], -h[1]]] {
        if let Some(t) = circles_toi(corner, [0.0, 0.0], c, w, r) {
            keep(t);
        }
    }
    best
}

/// Exact first time at which convex polygon B, moving by `w` relative to A,
/// touches A, by separating axes: along each edge normal `n` the
/// projections overlap while `min_B + s t ≤ max_A` and
/// `max_B + s t ≥ min_A` (`s = w·n`); translation keeps the shapes, so the
/// polygons meet exactly on the intersection of those intervals.
fn polygons_toi(a: &[P], b: &[P], w: P) -> Option<f64> {
    let (mut enter, mut leave) = (f64::NEG_INFINITY, f64::INFINITY);
    for (p, q) in oracle::edges(a).chain(oracle::edges(b)) {
        let e = oracle::sub(q, p);
        let n = [e[1], -e[0]];
        let proj = |poly: &[P]| {
            poly.iter()
                .map(|&x| oracle::dot(n, x))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |m, d| (m.0.min(d), m.1.max(d)))
        };
        let ((a_min, a_max), (b_min, b_max)) = (proj(a), proj(b));
        let s = oracle::dot(w, n);
        let (hi, lo) = (a_max - b_min, a_min - b_max);
        if s == 0.0 {
            if hi < 0.0 || lo > 0.0 {
                return None;
            }
        } else if s > 0.0 {
            enter = enter.max(lo / s);
            leave = leave.min(hi / s);
        } else {
            enter = enter.max(hi / s);
            leave = leave.min(lo / s);
        }
    }
    (enter <= leave && leave >= 0.0).then_some(enter.max(0.0))
}

/// Signed f64 distance between convex polygons: the distance when apart,
/// minus the separating-axis depth when they overlap.
fn polygons_signed(a: &[P], b: &[P]) -> f64 {
    let (depth, _, _) = oracle::sat(a, b);
    if depth > 0.0 { -depth } else { oracle::distance(a, b) }
}

/// Asserts a shape cast hit at `want` (exact time), within `time_tol`, with
/// touching witnesses and a unit normal; the answer is returned for more
/// checks.
fn expect_hit(got: ShapeCast2, want: f64, time_tol: f64, touch_tol: f64, what: &str) -> ShapeCast2 {
    let ShapeCast2::Hit { toi, point_a, point_b, normal } = got else {
        panic!("{what}: expected a hit at {want}, got {got:?}");
    };
    assert!(
        (toi as f64 - want).abs() <= time_tol,
        "{what}: toi {toi} vs exact {want} (±{time_tol})"
    );
    assert!(
        (point_a - point_b).norm() as f64 <= touch_tol,
        "{what}: witnesses {point_a} {point_b}"
    );
    assert!((normal.norm() - 1.0).abs() < 1e-5, "{what}");
    got
}

#[test]
fn contact2_agrees_with_distance_and_depth_queries_and_its_normal_is_analytic() {
    let mut rng = Rng(0x00C0_FFEE);
    for case in 0..400 {
        let scale = rng.scale();
        let world_pose = rng.world(3.0 * scale);
        let (ra, rb) = (rng.range(0.2, 1.0) * scale, rng.range(0.2, 1.0) * scale);
        let offset = Vector2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)) * scale;
        let (pa, pb) = (world_pose, world_pose * Isometry2::translation(offset.x, offset.y));
        let (a, b) = (Circle::new(ra), Circle::new(rb));
        let (ca, cb) = (f64v(&pa.translation.vector), f64v(&pb.translation.vector));
        let gap = oracle::norm(oracle::sub(cb, ca)) - (ra + rb) as f64;
        let s = scale as f64;
        if gap.abs() < 1e-4 * s {
            continue; // just touching: covered by the dedicated test below
        }
        let got = contact2(&a, &pa, &b, &pb);
        let swapped = contact2(&b, &pb, &a, &pa);
        match (got, swapped) {
            (
                Contact2::Separated { distance, normal, point_a, point_b },
                Contact2::Separated { normal: back, .. },
            ) => {
                assert!(gap > 0.0, "case {case}: separated, oracle gap {gap}");
                assert!((distance as f64 - gap).abs() <= 1e-4 * s, "case {case}");
                let d = oracle::sub(cb, ca);
                let len = oracle::norm(d);
                assert!((normal.x as f64 - d[0] / len).abs() < 1e-4, "case {case}: {normal:?}");
                assert!((normal.y as f64 - d[1] / len).abs() < 1e-4, "case {case}: {normal:?}");
                assert!((normal.into_inner() + back.into_inner()).norm() < 1e-4, "case {case}");
                // Agrees with closest_points2.
                let Proximity2::Separated { distance: d2, point_a: qa, point_b: qb } =
                    closest_points2(&a, &pa, &b, &pb)
                else {
                    panic!("case {case}: closest_points2 disagrees")
                };
                assert_eq!((distance, point_a, point_b), (d2, qa, qb), "case {case}");
            }
            (Contact2::Penetrating(p), Contact2::Penetrating(q)) => {
                assert!(gap < 0.0, "case {case}: penetrating, oracle gap {gap}");
                assert!((p.depth as f64 + gap).abs() <= 1e-4 * s, "case {case}");
                assert_eq!(Some(p), penetration2(&a, &pa, &b, &pb), "case {case}");
                assert!(
                    (p.normal.into_inner() + q.normal.into_inner()).norm() < 1e-3,
                    "case {case}"
                );
            }
            other => panic!("case {case}: A/B disagree: {other:?}"),
        }
    }
}

#[test]
fn contact2_of_just_touching_and_just_missing_rectangles() {
    let r = Rectangle::new(Vector2::new(1.0, 0.5));
    for scale in [1e-3f32, 1.0, 1e3] {
        let rs = Rectangle::new(r.half_extents * scale);
        for (gap, apart) in [(1e-3f32, true), (-1e-3, false)] {
            let pb = Isometry2::translation((2.0 + gap) * scale, 0.2 * scale);
            match contact2(&rs, &Isometry2::identity(), &rs, &pb) {
                Contact2::Separated { distance, normal, .. } => {
                    assert!(apart, "scale {scale}");
                    assert!((distance - gap * scale).abs() <= 1e-5 * scale, "{distance}");
                    assert!((normal.x - 1.0).abs() < 1e-5);
                }
                Contact2::Penetrating(p) => {
                    assert!(!apart, "scale {scale}");
                    assert!((p.depth + gap * scale).abs() <= 1e-5 * scale, "{}", p.depth);
                }
            }
        }
    }
}

#[test]
fn circle_casts_match_the_analytic_quadratic_under_transforms_scales_and_swaps() {
    let mut rng = Rng(0x5EED_0001);
    let (mut hits, mut misses) = (0, 0);
    for case in 0..600 {
        let scale = rng.scale();
        let s = scale as f64;
        let world_pose = rng.world(5.0 * scale);
        let (ra, rb) = (rng.range(0.1, 1.0) * scale, rng.range(0.1, 1.0) * scale);
        let start_b = Vector2::new(rng.range(3.0, 6.0), rng.range(-2.5, 2.5)) * scale;
        let vel_local = Vector2::new(rng.range(-2.0, -0.5), rng.range(-0.6, 0.6)) * scale;
        let (pa, pb) = (world_pose, world_pose * Isometry2::translation(start_b.x, start_b.y));
        let (va, vb) = (Vector2::zeros(), world_pose.rotation * vel_local);
        let exact = circles_toi(
            f64v(&pa.translation.vector),
            f64v(&va),
            f64v(&pb.translation.vector),
            f64v(&vb),
            (ra + rb) as f64,
        );
        // Just-grazing paths: whether they count is below f32 resolution.
        let miss_by = {
            let d = [start_b.x as f64, start_b.y as f64];
            let w = f64v(&vel_local);
            (d[0] * w[1] - d[1] * w[0]).abs() / oracle::norm(w) - (ra + rb) as f64
        };
        if miss_by.abs() < 1e-3 * s {
            continue;
        }
        let max_toi = 10.0;
        let (a, b) = (Circle::new(ra), Circle::new(rb));
        let got = try_shape_cast2(&a, &pa, &va, &b, &pb, &vb, max_toi).unwrap();
        let back = try_shape_cast2(&b, &pb, &vb, &a, &pa, &va, max_toi).unwrap();
        match exact.filter(|&t| t <= max_toi as f64) {
            Some(t) => {
                hits += 1;
                let speed = oracle::norm(f64v(&vel_local));
                let time_tol = 1e-4 * s / speed + 1e-6 * t;
                let ShapeCast2::Hit { normal, .. } =
                    expect_hit(got, t, time_tol, 1e-4 * s, &format!("case {case}"))
                else {
                    unreachable!()
                };
                let ShapeCast2::Hit { toi: toi_back, normal: n_back, .. } =
                    expect_hit(back, t, time_tol, 1e-4 * s, &format!("case {case} swapped"))
                else {
                    unreachable!()
                };
                let ShapeCast2::Hit { toi, .. } = got else { unreachable!() };
                assert!((toi - toi_back).abs() as f64 <= time_tol, "case {case}");
                assert!((normal.into_inner() + n_back.into_inner()).norm() < 1e-3, "case {case}");
                // The normal is the line of centres at the time of impact.
                let cb = pb.translation.vector + vb * toi;
                let want = (cb - pa.translation.vector).normalize();
                assert!((normal.into_inner() - want).norm() < 1e-3, "case {case}: {normal:?}");
            }
            None => {
                misses += 1;
                assert_eq!(got, ShapeCast2::Miss, "case {case}");
                assert_eq!(back, ShapeCast2::Miss, "case {case}");
            }
        }
    }
    assert!(hits > 100 && misses > 100, "{hits} hits, {misses} misses");
}

#[test]
fn circle_rectangle_casts_match_faces_and_rounded_corners() {
    let mut rng = Rng(0x5EED_0002);
    let mut hits = 0;
    for case in 0..600 {
        let scale = rng.scale();
        let s = scale as f64;
        let world_pose = rng.world(5.0 * scale);
        let h = Vector2::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5)) * scale;
        let r = rng.range(0.1, 1.0) * scale;
        let angle = rng.range(0.0, std::f32::consts::TAU);
        let dist = rng.range(4.0, 6.0) * scale;
        let start = Vector2::new(angle.cos(), angle.sin()) * dist;
        // Aimed at a random point near the rectangle.
        let aim = Vector2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)) * scale;
        let vel_local = (aim - start) * rng.range(0.3, 2.0);
        let rect = Rectangle::new(h);
        let circle = Circle::new(r);
        let p_rect = world_pose;
        let p_circle = world_pose * Isometry2::translation(start.x, start.y);
        let v_circle = world_pose.rotation * vel_local;
        let max_toi = 5.0;
        let exact = circle_rectangle_toi(f64v(&h), f64v(&start), f64v(&vel_local), r as f64)
            .filter(|&t| t <= max_toi as f64);
        // Skip paths that graze within 1e-3 of the shape: whether they hit
        // is below f32 resolution. Found by the same oracle, dilated.
        let dilated = |dr: f64| {
            circle_rectangle_toi(f64v(&h), f64v(&start), f64v(&vel_local), r as f64 + dr)
                .filter(|&t| t <= max_toi as f64)
                .is_some()
        };
        if dilated(1e-3 * s) != dilated(-1e-3 * s) {
            continue;
        }
        let zero = Vector2::zeros();
        let got =
            try_shape_cast2(&rect, &p_rect, &zero, &circle, &p_circle, &v_circle, max_toi).unwrap();
        let back =
            try_shape_cast2(&circle, &p_circle, &v_circle, &rect, &p_rect, &zero, max_toi).unwrap();
        match exact {
            Some(t) => {
                hits += 1;
                let speed = oracle::norm(f64v(&vel_local));
                // A glancing hit on a corner arc converges more slowly in
                // time than a head-on one: the tolerance on the distance
                // (1e-6 of the size) divided by the approach speed along
                // the normal, which 1e-3 s / speed bounds at the angles drawn.
                let time_tol = 1e-3 * s / speed;
                expect_hit(got, t, time_tol, 1e-3 * s, &format!("case {case}"));
                expect_hit(back, t, time_tol, 1e-3 * s, &format!("case {case} swapped"));
            }
            None => {
                assert_eq!(got, ShapeCast2::Miss, "case {case}");
                assert_eq!(back, ShapeCast2::Miss, "case {case}");
            }
        }
    }
    assert!(hits > 150, "{hits} hits");
}

#[test]
fn polygon_casts_match_the_exact_moving_separating_axis_time() {
    let mut rng = Rng(0x5EED_0003);
    let mut hits = 0;
    for case in 0..500 {
        let scale = rng.scale();
        let s = scale as f64;
        let angles: Vec<f32> = (0..7).map(|_| rng.range(0.0, std::f32::consts::TAU)).collect();
        let va_local = ellipse_polygon(&angles, rng.range(0.3, 1.0), rng.range(0.3, 1.0), scale);
        let angles: Vec<f32> = (0..7).map(|_| rng.range(0.0, std::f32::consts::TAU)).collect();
        let vb_local = ellipse_polygon(&angles, rng.range(0.3, 1.0), rng.range(0.3, 1.0), scale);
        if va_local.len() < 3 || vb_local.len() < 3 {
            continue;
        }
        let (a, b) = (Polygon::new(&va_local).unwrap(), Polygon::new(&vb_local).unwrap());
        let world_pose = rng.world(5.0 * scale);
        let pa = world_pose * Isometry2::rotation(rng.range(-3.2, 3.2));
        let start = Vector2::new(rng.range(3.0, 5.0), rng.range(-2.0, 2.0)) * scale;
        let pb = world_pose * Isometry2::new(start, rng.range(-3.2, 3.2));
        let vel_a =
            world_pose.rotation * Vector2::new(rng.range(0.0, 1.0), rng.range(-0.5, 0.5)) * scale;
        let vel_b =
            world_pose.rotation * Vector2::new(rng.range(-2.0, -0.5), rng.range(-0.8, 0.8)) * scale;
        let (wa, wb) = (world(a.vertices(), &pa), world(b.vertices(), &pb));
        let rel = oracle::sub(f64v(&vel_b), f64v(&vel_a));
        let max_toi = 5.0;
        let exact = polygons_toi(&wa, &wb, rel).filter(|&t| t <= max_toi as f64);
        // Grazing paths: compare with B grown and shrunk by 1e-3 of the size
        // (scaled about its centre), and skip if they disagree.
        let grown = |k: f64| {
            let c = f64v(&pb.translation.vector);
            let wb2: Vec<P> =
                wb.iter().map(|p| [c[0] + (p[0] - c[0]) * k, c[1] + (p[1] - c[1]) * k]).collect();
            polygons_toi(&wa, &wb2, rel).filter(|&t| t <= max_toi as f64).is_some()
        };
        if grown(1.0 + 2e-3) != grown(1.0 - 2e-3) {
            continue;
        }
        let got = try_shape_cast2(&a, &pa, &vel_a, &b, &pb, &vel_b, max_toi).unwrap();
        let back = try_shape_cast2(&b, &pb, &vel_b, &a, &pa, &vel_a, max_toi).unwrap();
        match exact {
            Some(t) => {
                hits += 1;
                let speed = oracle::norm(rel);
                let time_tol = 1e-3 * s / speed;
                expect_hit(got, t, time_tol, 1e-3 * s, &format!("case {case}"));
                expect_hit(back, t, time_tol, 1e-3 * s, &format!("case {case} swapped"));
                // At the reported time the polygons touch, by the oracle.
                let ShapeCast2::Hit { toi, .. } = got else { unreachable!() };
                let moved = |w: &[P], v: &Vector2<f32>| -> Vec<P> {
                    w.iter()
                        .map(|p| [p[0] + v.x as f64 * toi as f64, p[1] + v.y as f64 * toi as f64])
                        .collect()
                };
                let gap = polygons_signed(&moved(&wa, &vel_a), &moved(&wb, &vel_b));
                assert!(gap.abs() <= 1e-3 * s, "case {case}: gap {gap} at toi");
            }
            None => {
                assert_eq!(got, ShapeCast2::Miss, "case {case}");
                assert_eq!(back, ShapeCast2::Miss, "case {case}");
            }
        }
    }
    assert!(hits > 100, "{hits} hits");
}

#[test]
fn just_touching_and_just_missing_casts_at_every_scale() {
    for scale in [1e-3f32, 1e-1, 1.0, 1e1, 1e3] {
        let sq = Rectangle::new(Vector2::repeat(scale));
        let c = Circle::new(scale);
        let pa = Isometry2::identity();
        let v = Vector2::new(-scale, 0.0);
        for (shape_b, name) in [(&sq as &dyn SupportMap2, "square"), (&c, "circle")] {
            // B passes A's top at a height that clears it by ±1e-3 of the
            // size: below, a hit; above, a miss.
            for (clear, hits) in [(-1e-3f32, true), (1e-3, false)] {
                let y = (2.0 + clear) * scale;
                let pb = Isometry2::translation(5.0 * scale, y);
                let got =
                    try_shape_cast2(&sq, &pa, &Vector2::zeros(), shape_b, &pb, &v, 10.0).unwrap();
                assert_eq!(
                    matches!(got, ShapeCast2::Hit { .. }),
                    hits,
                    "{name} at scale {scale}, clearance {clear}: {got:?}"
                );
            }
            // Starting in contact (touching exactly) is an initial overlap.
            let touching = Isometry2::translation(2.0 * scale, 0.0);
            let got =
                try_shape_cast2(&sq, &pa, &Vector2::zeros(), shape_b, &touching, &v, 10.0).unwrap();
            assert_eq!(got, ShapeCast2::InitiallyOverlapping, "{name} at scale {scale}");
        }
    }
}

/// A's world vertices at time `t` of a sweep, computed in f64 from the
/// sweep's definition (centre on a line, angle growing linearly), not with
/// `Sweep2::pose_at`.
fn swept(local: &[Point2<f32>], sweep: &Sweep2, t: f64) -> Vec<P> {
    let p = &sweep.pose;
    let angle =
        (p.rotation.im as f64).atan2(p.rotation.re as f64) + sweep.angular_velocity as f64 * t;
    let (c, s) = (angle.cos(), angle.sin());
    let (c0, s0) = (p.rotation.re as f64, p.rotation.im as f64);
    let lc = [sweep.local_center.x as f64, sweep.local_center.y as f64];
    let centre0 = [
        c0 * lc[0] - s0 * lc[1] + p.translation.vector.x as f64,
        s0 * lc[0] + c0 * lc[1] + p.translation.vector.y as f64,
    ];
    let centre = [
        centre0[0] + sweep.linear_velocity.x as f64 * t,
        centre0[1] + sweep.linear_velocity.y as f64 * t,
    ];
    local
        .iter()
        .map(|v| {
            let d = [v.x as f64 - lc[0], v.y as f64 - lc[1]];
            [centre[0] + c * d[0] - s * d[1], centre[1] + s * d[0] + c * d[1]]
        })
        .collect()
}

#[test]
fn time_of_impact2_with_rotation_is_never_late_and_within_its_tolerance_by_brute_force() {
    let mut rng = Rng(0x5EED_0004);
    let (mut hits, mut misses, mut limits) = (0, 0, 0);
    for case in 0..300 {
        let scale = rng.scale();
        let s = scale as f64;
        let angles: Vec<f32> = (0..6).map(|_| rng.range(0.0, std::f32::consts::TAU)).collect();
        let va_local = ellipse_polygon(&angles, rng.range(0.3, 1.0), rng.range(0.1, 1.0), scale);
        let angles: Vec<f32> = (0..6).map(|_| rng.range(0.0, std::f32::consts::TAU)).collect();
        let vb_local = ellipse_polygon(&angles, rng.range(0.3, 1.0), rng.range(0.3, 1.0), scale);
        if va_local.len() < 3 || vb_local.len() < 3 {
            continue;
        }
        let (a, b) = (Polygon::new(&va_local).unwrap(), Polygon::new(&vb_local).unwrap());
        let world_pose = rng.world(5.0 * scale);
        let sweep_a = Sweep2 {
            pose: world_pose * Isometry2::rotation(rng.range(-3.2, 3.2)),
            local_center: Point2::new(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)) * scale,
            linear_velocity: world_pose.rotation
                * Vector2::new(rng.range(0.5, 3.0), rng.range(-1.0, 1.0))
                * scale,
            angular_velocity: rng.range(-8.0, 8.0),
        };
        let sweep_b = Sweep2 {
            pose: world_pose
                * Isometry2::new(
                    Vector2::new(rng.range(2.5, 4.0), rng.range(-1.5, 1.5)) * scale,
                    rng.range(-3.2, 3.2),
                ),
            local_center: Point2::origin(),
            linear_velocity: world_pose.rotation
                * Vector2::new(rng.range(-1.0, 0.0), rng.range(-0.5, 0.5))
                * scale,
            angular_velocity: rng.range(-3.0, 3.0),
        };
        let target = if case % 3 == 0 { 0.05 * scale } else { 0.0 };
        let max_toi = 1.5f32;
        let at = |t: f64| {
            polygons_signed(&swept(a.vertices(), &sweep_a, t), &swept(b.vertices(), &sweep_b, t))
        };
        if at(0.0) <= target as f64 + 1e-3 * s {
            continue; // starts within the target: the dedicated test covers it
        }
        // The tolerance the query promises: 1e-3 of the smaller rotation
        // radius (bounded here by the polygons' farthest vertex from their
        // centre of rotation, plus f32 room).
        let radius = |v: &[Point2<f32>], c: Point2<f32>| {
            v.iter().map(|p| (p - c).norm()).fold(0.0f32, f32::max) as f64
        };
        let tol = 1e-3
            * radius(a.vertices(), sweep_a.local_center)
                .min(radius(b.vertices(), Point2::origin()))
            * 1.5
            + 1e-5 * s;
        let got = try_time_of_impact2(&a, &sweep_a, &b, &sweep_b, max_toi, target).unwrap();
        // Brute force: the distance sampled over [0, end] never falls below
        // the target (the time is never late).
        let never_below = |end: f64| {
            let n = 400;
            (0..=n).map(|i| at(end * i as f64 / n as f64)).fold(f64::INFINITY, f64::min)
        };
        match got {
            TimeOfImpact2::Hit { toi, distance, .. } => {
                hits += 1;
                let d = at(toi as f64);
                assert!(
                    d <= target as f64 + tol,
                    "case {case}: distance {d} at toi {toi}, tol {tol}"
                );
                assert!((distance as f64 - d).abs() <= 1e-4 * s, "case {case}: {distance} vs {d}");
                let low = never_below(toi as f64);
                assert!(low >= target as f64 - 1e-5 * s, "case {case}: dips to {low} before {toi}");
            }
            TimeOfImpact2::Miss => {
                misses += 1;
                let low = never_below(max_toi as f64);
                assert!(low >= target as f64 - 1e-5 * s, "case {case}: missed, but dips to {low}");
            }
            TimeOfImpact2::IterationLimit { toi_lower_bound } => {
                limits += 1;
                let low = never_below(toi_lower_bound as f64);
                assert!(low >= target as f64 - 1e-5 * s, "case {case}: bound {toi_lower_bound}");
            }
            TimeOfImpact2::InitiallyOverlapping => panic!("case {case}: starts apart"),
        }
    }
    assert!(hits > 50 && misses > 10, "{hits} hits, {misses} misses, {limits} capped");
    assert!(limits * 20 <= hits + misses, "{limits} capped of {}", hits + misses + limits);
}

#[test]
fn time_of_impact2_translating_circles_match_the_analytic_time_and_swap() {
    let mut rng = Rng(0x5EED_0005);
    let mut hits = 0;
    for case in 0..400 {
        let scale = rng.scale();
        let s = scale as f64;
        let world_pose = rng.world(5.0 * scale);
        let (ra, rb) = (rng.range(0.2, 1.0) * scale, rng.range(0.2, 1.0) * scale);
        let start = Vector2::new(rng.range(3.0, 5.0), rng.range(-1.0, 1.0)) * scale;
        let vel =
            world_pose.rotation * Vector2::new(rng.range(-3.0, -1.0), rng.range(-0.3, 0.3)) * scale;
        let target = if case % 2 == 0 { 0.1 * scale } else { 0.0 };
        let sweep_a =
            Sweep2 { angular_velocity: rng.range(-5.0, 5.0), ..Sweep2::fixed(world_pose) };
        let sweep_b = Sweep2 {
            linear_velocity: vel,
            ..Sweep2::fixed(world_pose * Isometry2::translation(start.x, start.y))
        };
        let exact = circles_toi(
            f64v(&sweep_a.pose.translation.vector),
            [0.0, 0.0],
            f64v(&sweep_b.pose.translation.vector),
            f64v(&vel),
            (ra + rb + target) as f64,
        );
        let (a, b) = (Circle::new(ra), Circle::new(rb));
        let max_toi = 3.0;
        let got = try_time_of_impact2(&a, &sweep_a, &b, &sweep_b, max_toi, target).unwrap();
        let back = try_time_of_impact2(&b, &sweep_b, &a, &sweep_a, max_toi, target).unwrap();
        // Just grazing: skip (whether they come within the target is below
        // the tolerance).
        let graze = |dr: f64| {
            circles_toi(
                f64v(&sweep_a.pose.translation.vector),
                [0.0, 0.0],
                f64v(&sweep_b.pose.translation.vector),
                f64v(&vel),
                (ra + rb + target) as f64 + dr,
            )
            .is_some_and(|t| t <= max_toi as f64)
        };
        if graze(2e-3 * s) != graze(-2e-3 * s) {
            continue;
        }
        // The query's tolerance is 1e-3 of the smaller shape (a circle's
        // core has radius 0, so its margin); in time, divided by the
        // approach speed along the normal, which is at least 0.3 of the
        // speed for the paths drawn that are not grazing.
        let speed = oracle::norm(f64v(&vel));
        match exact.filter(|&t| t <= max_toi as f64) {
            Some(t) => {
                hits += 1;
                for (got, what) in [(got, "A, B"), (back, "B, A")] {
                    let TimeOfImpact2::Hit { toi, distance, .. } = got else {
                        panic!("case {case} {what}: expected a hit at {t}, got {got:?}");
                    };
                    let toi = toi as f64;
                    assert!(toi <= t + 1e-6 * t + 1e-6, "case {case} {what}: late, {toi} > {t}");
                    let tol = 1e-3 * ra.min(rb) as f64;
                    assert!(toi >= t - 20.0 * tol / speed, "case {case} {what}: {toi} vs {t}");
                    assert!(distance as f64 <= target as f64 + tol * 1.01, "case {case} {what}");
                }
            }
            None => {
                assert_eq!(got, TimeOfImpact2::Miss, "case {case}");
                assert_eq!(back, TimeOfImpact2::Miss, "case {case}");
            }
        }
    }
    assert!(hits > 100, "{hits} hits");
}

#[test]
fn time_of_impact2_of_shapes_already_within_the_target() {
    let c = Circle::new(1.0);
    let a = Sweep2::fixed(Isometry2::identity());
    // 0.05 apart, target 0.1: a hit at time zero.
    let b = Sweep2::fixed(Isometry2::translation(2.05, 0.0));
    let got = try_time_of_impact2(&c, &a, &c, &b, 1.0, 0.1).unwrap();
    assert!(
        matches!(got, TimeOfImpact2::Hit { toi, distance, .. }
        if toi == 0.0 && (distance - 0.05).abs() < 1e-5),
        "{got:?}"
    );
    // Overlapping: initially overlapping.
    let b = Sweep2::fixed(Isometry2::translation(1.5, 0.0));
    let got = try_time_of_impact2(&c, &a, &c, &b, 1.0, 0.0).unwrap();
    assert_eq!(got, TimeOfImpact2::InitiallyOverlapping);
}
