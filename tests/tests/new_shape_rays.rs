//! Closed-form ray casts of the cylinder, cone, triangle and segment against
//! f64 oracles that share no code with them:
//!
//! - solids (cylinder, cone): the shape as a convex f64 function `f` (≤ 0
//!   inside); along a ray `f(t)` is convex, so a golden-section search finds
//!   its minimum, and a bisection on the decreasing branch finds the entry;
//! - triangle: Cramer's rule on `o + t d = a + u (b − a) + v (c − a)`;
//! - segment: rays built through a known point of it (hits at a known `t`)
//!   and rays offset from it (misses).
//!
//! Every case runs at random poses and at scales from 1e-2 to 1e2, with
//! just-touching and just-missing rays, and rays starting inside and on the
//! surface. Rays within rounding of an edge (the oracle's `f` minimum
//! within 1e-5 of the size of zero, or a barycentric coordinate within
//! 1e-5 of zero) may go either way and are not counted.

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Cone, Cylinder, Ray, RayCast, Segment, Shape, Triangle, cast_ray};
use tests::SplitMix64;
use tests::generators::isometry;

/// A solid as a convex function of a local f64 point: ≤ 0 inside, and
/// Lipschitz with constant about 1 (a scaled signed distance bound).
type Solid = dyn Fn(&Vector3<f64>) -> f64;

fn cylinder_f(h: f64, r: f64) -> Box<Solid> {
    Box::new(move |p| (p.y.abs() - h).max((p.x * p.x + p.z * p.z).sqrt() - r))
}

fn cone_f(h: f64, r: f64) -> Box<Solid> {
    // The side √(x² + z²) = r (h − y) / 2h, divided by its gradient norm so
    // the function is a distance bound.
    let k = r / (2.0 * h);
    let norm = (1.0 + k * k).sqrt();
    Box::new(move |p| {
        let side = ((p.x * p.x + p.z * p.z).sqrt() - k * (h - p.y)) / norm;
        side.max(-h - p.y)
    })
}

/// What the oracle says about a ray (local f64 origin and direction, up to
/// parameter `max_t`).
#[derive(Debug)]
enum Expect {
    Inside,
    Enter(f64),
    Miss,
    /// Within `tol` of touching: either answer is right.
    Grazing,
}

fn solid_oracle(f: &Solid, o: Vector3<f64>, d: Vector3<f64>, max_t: f64, tol: f64) -> Expect {
    let at = |t: f64| f(&(o + d * t));
    if at(0.0) <= 0.0 {
        return if at(0.0) > -tol { Expect::Grazing } else { Expect::Inside };
    }
    // Golden-section search for the minimum of the convex f on [0, max_t].
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, max_t);
    for _ in 0..200 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if at(m1) <= at(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let t_min = 0.5 * (lo + hi);
    let f_min = at(t_min);
    if f_min.abs() < tol * d.norm().max(1.0) {
        return Expect::Grazing;
    }
    if f_min > 0.0 {
        return Expect::Miss;
    }
    // f(0) > 0 ≥ f(t_min), and f decreases on [0, t_min]: bisect.
    let (mut lo, mut hi) = (0.0, t_min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if at(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Expect::Enter(hi)
}

/// Checks `got` (world) against `want` for a ray of direction `dir`.
fn check(want: &Expect, got: RayCast, dir: &Vector3<f32>, size: f64, what: &str) -> bool {
    match (want, got) {
        (Expect::Enter(t), RayCast::Hit { toi, normal, .. }) => {
            let err = (f64::from(toi) - t).abs() * f64::from(dir.norm());
            assert!(err < 2e-5 * size, "{what}: toi {toi} vs {t}");
            assert!(normal.dot(dir) <= 1e-5 * dir.norm(), "{what}: normal faces along the ray");
            true
        }
        (Expect::Inside, RayCast::StartsInside) | (Expect::Miss, RayCast::Miss) => true,
        (Expect::Grazing, _) => false,
        (w, g) => panic!("{what}: oracle {w:?}, cast {g:?}"),
    }
}

/// Random rays from up to 3 sizes away aimed near the shape, at random
/// poses and scales, against the solid oracle.
fn solid_rays_agree(make: impl Fn(f32) -> (Shape, Box<Solid>), seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let (mut hits, mut inside, mut misses) = (0, 0, 0);
    for case in 0..3000 {
        let scale = rng.log_range(1e-2, 1e2);
        let (shape, f) = make(scale as f32);
        let pose = isometry(&mut rng, 3.0 * scale);
        let from = rng.range(0.0, 3.0) * scale;
        let local_o = (rng.unit_vector() * from).cast::<f32>();
        let aim = (rng.unit_vector() * rng.range(0.0, 1.0) * scale).cast::<f32>();
        let origin = pose * Point3::from(local_o);
        let ray = Ray::new(origin, pose * Point3::from(aim) - origin);
        let max_t = 2.0;
        let o = pose.inverse_transform_point(&origin).coords.cast::<f64>();
        let d = pose.inverse_transform_vector(&ray.dir).cast::<f64>();
        let want = solid_oracle(&*f, o, d, max_t, 1e-5 * scale);
        let got = cast_ray(&shape, &pose, &ray, max_t as f32);
        let what = format!("case {case} {} scale {scale}", shape.kind_name());
        if check(&want, got, &ray.dir, scale, &what) {
            match got {
                RayCast::Hit { .. } => hits += 1,
                RayCast::StartsInside => inside += 1,
                RayCast::Miss => misses += 1,
            }
        }
    }
    // At least 5 % of each answer (1 % starting inside), so that every
    // branch is exercised.
    assert!(
        hits > 150 && inside > 30 && misses > 150,
        "{hits} hits, {inside} inside, {misses} misses"
    );
}

#[test]
fn cylinder_rays_agree_with_the_convex_f64_oracle() {
    solid_rays_agree(
        |s| {
            (
                Cylinder::new(0.6 * s, 0.4 * s).into(),
                cylinder_f(0.6 * f64::from(s), 0.4 * f64::from(s)),
            )
        },
        0xC1,
    );
}

#[test]
fn cone_rays_agree_with_the_convex_f64_oracle() {
    solid_rays_agree(
        |s| (Cone::new(0.5 * s, 0.45 * s).into(), cone_f(0.5 * f64::from(s), 0.45 * f64::from(s))),
        0xC2,
    );
    // A needle and a flat cone.
    solid_rays_agree(
        |s| (Cone::new(1.0 * s, 0.05 * s).into(), cone_f(f64::from(s), 0.05 * f64::from(s))),
        0xC3,
    );
    solid_rays_agree(
        |s| (Cone::new(0.05 * s, 1.0 * s).into(), cone_f(0.05 * f64::from(s), f64::from(s))),
        0xC4,
    );
}

fn local_cast(shape: &Shape, o: [f32; 3], d: [f32; 3]) -> RayCast {
    cast_ray(shape, &Isometry3::identity(), &Ray::new(Point3::from(o), Vector3::from(d)), 100.0)
}

fn toi(got: RayCast) -> f32 {
    match got {
        RayCast::Hit { toi, .. } => toi,
        other => panic!("expected a hit, got {other:?}"),
    }
}

#[test]
fn just_touching_and_just_missing_rays_at_the_rims_and_the_apex() {
    let (h, r) = (0.5f32, 0.4f32);
    let cyl: Shape = Cylinder::new(h, r).into();
    let cone: Shape = Cone::new(h, r).into();
    let eps = 1e-4;
    // Tangent to the cylinder's side, just inside and just outside.
    assert!(
        (toi(local_cast(&cyl, [-2.0, 0.0, r - eps], [1.0, 0.0, 0.0]))
            - (2.0 - (r * r - (r - eps) * (r - eps)).sqrt()))
        .abs()
            < 1e-5
    );
    assert_eq!(local_cast(&cyl, [-2.0, 0.0, r + eps], [1.0, 0.0, 0.0]), RayCast::Miss);
    // Skimming just under and just over the top cap.
    assert!(
        (toi(local_cast(&cyl, [-2.0, h - eps, 0.0], [1.0, 0.0, 0.0])) - (2.0 - r)).abs() < 1e-5
    );
    assert_eq!(local_cast(&cyl, [-2.0, h + eps, 0.0], [1.0, 0.0, 0.0]), RayCast::Miss);
    // Straight down onto the cap's rim and just beside it.
    assert!(
        (toi(local_cast(&cyl, [r - eps, 2.0, 0.0], [0.0, -1.0, 0.0])) - (2.0 - h)).abs() < 1e-6
    );
    assert_eq!(local_cast(&cyl, [r + eps, 2.0, 0.0], [0.0, -1.0, 0.0]), RayCast::Miss);
    // The cone: a horizontal ray just under the apex hits its side at
    // radius k (h − y); just over the apex it misses.
    let k = r / (2.0 * h);
    let y = h - 1e-3;
    let want = 2.0 - k * (h - y);
    assert!((toi(local_cast(&cone, [-2.0, y, 0.0], [1.0, 0.0, 0.0])) - want).abs() < 1e-5);
    assert_eq!(local_cast(&cone, [-2.0, h + eps, 0.0], [1.0, 0.0, 0.0]), RayCast::Miss);
    // Straight down onto the apex: hit at the apex with the axis as normal.
    match local_cast(&cone, [0.0, 2.0, 0.0], [0.0, -1.0, 0.0]) {
        RayCast::Hit { toi, normal, .. } => {
            assert!((toi - (2.0 - h)).abs() < 1e-6);
            assert!(normal.y > 0.99);
        }
        other => panic!("{other:?}"),
    }
    // Up into the base, just inside and just outside the rim.
    assert!(
        (toi(local_cast(&cone, [r - eps, -2.0, 0.0], [0.0, 1.0, 0.0])) - (2.0 - h)).abs() < 1e-6
    );
    assert_eq!(local_cast(&cone, [r + eps, -2.0, 0.0], [0.0, 1.0, 0.0]), RayCast::Miss);
    // Along a ruling's line from outside the base: parallel to the side,
    // just outside it misses, just inside it enters through the base.
    let ruling = Vector3::new(r, -2.0 * h, 0.0).normalize();
    let apex = Point3::new(0.0, h, 0.0);
    let below_base = apex + ruling * (2.5 * (r * r + 4.0 * h * h).sqrt());
    let out = local_cast(&cone, (below_base + Vector3::x() * eps).coords.into(), (-ruling).into());
    assert_eq!(out, RayCast::Miss);
    let into =
        local_cast(&cone, (below_base - Vector3::x() * 0.01).coords.into(), (-ruling).into());
    assert!(matches!(into, RayCast::Hit { normal, .. } if normal.y < -0.99), "{into:?}");
}

#[test]
fn rays_starting_inside_or_on_the_surface_start_inside() {
    let (h, r) = (0.5f32, 0.4f32);
    for shape in [Shape::from(Cylinder::new(h, r)), Cone::new(h, r).into()] {
        for d in [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.3, 0.5, -0.2]] {
            assert_eq!(local_cast(&shape, [0.0, 0.0, 0.0], d), RayCast::StartsInside);
            // On the base (a face both share), pointing out or in.
            assert_eq!(local_cast(&shape, [0.1, -h, 0.1], d), RayCast::StartsInside);
        }
    }
    // On the cylinder's side and the cone's apex.
    let cyl: Shape = Cylinder::new(h, r).into();
    assert_eq!(local_cast(&cyl, [r, 0.2, 0.0], [1.0, 0.0, 0.0]), RayCast::StartsInside);
    let cone: Shape = Cone::new(h, r).into();
    assert_eq!(local_cast(&cone, [0.0, h, 0.0], [0.0, 1.0, 0.0]), RayCast::StartsInside);
    // On the triangle and on the segment.
    let tri: Shape =
        Triangle::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, -1.0))
            .into();
    assert_eq!(local_cast(&tri, [0.25, 0.0, -0.25], [0.0, 1.0, 0.0]), RayCast::StartsInside);
    let seg: Shape = Segment::new(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)).into();
    assert_eq!(local_cast(&seg, [0.5, 0.0, 0.0], [0.0, 1.0, 0.0]), RayCast::StartsInside);
}

/// Cramer's rule on `o + t d = a + u (b − a) + v (c − a)`: `(t, u, v)`, or
/// `None` for a ray parallel to the plane.
fn triangle_oracle(
    tri: &[Vector3<f64>; 3],
    o: Vector3<f64>,
    d: Vector3<f64>,
) -> Option<(f64, f64, f64)> {
    let (e1, e2, rhs) = (tri[1] - tri[0], tri[2] - tri[0], o - tri[0]);
    // Columns: −d, e1, e2.
    let det3 = |c0: Vector3<f64>, c1: Vector3<f64>, c2: Vector3<f64>| c0.dot(&c1.cross(&c2));
    let det = det3(-d, e1, e2);
    if det == 0.0 {
        return None;
    }
    Some((det3(rhs, e1, e2) / det, det3(-d, rhs, e2) / det, det3(-d, e1, rhs) / det))
}

#[test]
fn triangle_rays_agree_with_cramers_rule_from_both_sides() {
    let mut rng = SplitMix64::new(0x7121);
    let (mut hits, mut misses) = (0, 0);
    for case in 0..4000 {
        let scale = rng.log_range(1e-2, 1e2);
        let corner = |rng: &mut SplitMix64| Point3::from((rng.unit_vector() * scale).cast::<f32>());
        let Ok(tri) = Triangle::try_new(corner(&mut rng), corner(&mut rng), corner(&mut rng))
        else {
            continue;
        };
        let pose = isometry(&mut rng, 3.0 * scale);
        let origin =
            pose * Point3::from((rng.unit_vector() * rng.range(0.5, 3.0) * scale).cast::<f32>());
        let aim =
            pose * Point3::from((rng.unit_vector() * rng.range(0.0, 1.0) * scale).cast::<f32>());
        let ray = Ray::new(origin, aim - origin);
        let o = pose.inverse_transform_point(&origin).coords.cast::<f64>();
        let d = pose.inverse_transform_vector(&ray.dir).cast::<f64>();
        let corners = tri.vertices().map(|p| p.coords.cast::<f64>());
        let got = cast_ray(&Shape::from(tri), &pose, &ray, 2.0);
        let Some((t, u, v)) = triangle_oracle(&corners, o, d) else { continue };
        let edge = u.min(v).min(1.0 - u - v);
        if edge.abs() < 1e-5 || (t - 2.0).abs() < 1e-5 {
            continue; // within rounding of an edge or of max_toi
        }
        match got {
            RayCast::Hit { toi, normal, .. } => {
                assert!(
                    edge > 0.0 && (0.0..=2.0).contains(&t),
                    "case {case}: hit at {toi}, oracle t {t}, edge {edge}"
                );
                assert!(
                    (f64::from(toi) - t).abs() * d.norm() < 1e-5 * scale,
                    "case {case}: toi {toi} vs {t}"
                );
                // ±n, facing the ray.
                let n = pose.rotation * tri.normal();
                assert!(normal.dot(&n).abs() > 1.0 - 1e-4, "case {case}: normal off the face");
                assert!(normal.dot(&ray.dir) < 0.0, "case {case}: normal faces along the ray");
                hits += 1;
            }
            RayCast::Miss => {
                assert!(
                    edge < 0.0 || !(0.0..=2.0).contains(&t),
                    "case {case}: missed, oracle t {t}, edge {edge}"
                );
                misses += 1;
            }
            RayCast::StartsInside => {
                panic!("case {case}: starts inside a triangle from off its plane")
            }
        }
    }
    assert!(hits > 400 && misses > 400, "{hits} hits, {misses} misses");
}

#[test]
fn a_ray_in_the_triangles_plane_enters_through_an_edge() {
    let tri: Shape =
        Triangle::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, -1.0))
            .into();
    match local_cast(&tri, [-1.0, 0.0, -0.25], [1.0, 0.0, 0.0]) {
        RayCast::Hit { toi, normal, .. } => {
            assert!((toi - 1.0).abs() < 1e-6);
            assert!((normal.into_inner() + Vector3::x()).norm() < 1e-6);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(local_cast(&tri, [-1.0, 0.0, 0.25], [1.0, 0.0, 0.0]), RayCast::Miss);
    // Just above the plane, parallel to it: a miss.
    assert_eq!(local_cast(&tri, [-1.0, 1e-4, -0.25], [1.0, 0.0, 0.0]), RayCast::Miss);
}

#[test]
fn segment_rays_hit_only_through_the_segment() {
    let mut rng = SplitMix64::new(0x5E6);
    for case in 0..2000 {
        let scale = rng.log_range(1e-2, 1e2);
        let a = Point3::from((rng.unit_vector() * scale).cast::<f32>());
        let b = Point3::from((rng.unit_vector() * scale).cast::<f32>());
        let Ok(seg) = Segment::try_new(a, b) else { continue };
        let shape = Shape::from(seg);
        let pose = isometry(&mut rng, 3.0 * scale);
        // A point of the segment, and a ray to it from 1 to 3 sizes away,
        // not along the segment.
        let s = rng.range(0.05, 0.95);
        let target = a.coords.cast::<f64>() + (b - a).cast::<f64>() * s;
        let from = rng.unit_vector();
        let along = (b - a).cast::<f64>().normalize();
        if from.dot(&along).abs() > 0.9 {
            continue;
        }
        let dist = rng.range(1.0, 3.0) * scale;
        let local_o = target + from * dist;
        let origin = pose * Point3::from(local_o.cast::<f32>());
        let world_target = pose * Point3::from(target.cast::<f32>());
        let dir = world_target - origin;
        match cast_ray(&shape, &pose, &Ray::new(origin, dir), 2.0) {
            RayCast::Hit { toi, normal, .. } => {
                assert!((toi - 1.0).abs() < 1e-4, "case {case}: toi {toi}");
                assert!(normal.dot(&dir) < 0.0, "case {case}");
                assert!(
                    normal.dot(&(pose.rotation * (b - a))).abs() < 1e-3 * (b - a).norm(),
                    "case {case}: normal not across the segment"
                );
            }
            other => panic!("case {case}: ray through the segment got {other:?}"),
        }
        // Offset sideways by a thousandth of the length: a miss.
        let side = along.cross(&from).normalize() * 1e-3 * (b - a).norm() as f64;
        let off = pose * Point3::from((target + side).cast::<f32>());
        assert_eq!(
            cast_ray(&shape, &pose, &Ray::new(origin, off - origin), 2.0),
            RayCast::Miss,
            "case {case}"
        );
        // Too short to reach it.
        assert_eq!(
            cast_ray(&shape, &pose, &Ray::new(origin, dir), 0.99),
            RayCast::Miss,
            "case {case}"
        );
    }
    // Along the segment's line: the nearer end, with −d as the normal.
    let seg: Shape = Segment::new(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)).into();
    match local_cast(&seg, [3.0, 0.0, 0.0], [-1.0, 0.0, 0.0]) {
        RayCast::Hit { toi, normal, .. } => {
            assert!((toi - 2.0).abs() < 1e-6);
            assert!((normal.into_inner() - Vector3::x()).norm() < 1e-6);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(local_cast(&seg, [3.0, 0.0, 0.0], [1.0, 0.0, 0.0]), RayCast::Miss);
}

#[test]
fn casts_do_not_change_under_rotation_and_scale() {
    // The same local ray at the identity and at random poses and scales:
    // the time of impact is a ratio and must not move.
    let mut rng = SplitMix64::new(0x1A7);
    let shapes = |s: f32| -> [Shape; 3] {
        [
            Cylinder::new(0.5 * s, 0.3 * s).into(),
            Cone::new(0.5 * s, 0.3 * s).into(),
            Triangle::new(
                Point3::new(-s, 0.0, 0.0),
                Point3::new(s, 0.0, 0.2 * s),
                Point3::new(0.0, 0.1 * s, -s),
            )
            .into(),
        ]
    };
    let (mut compared, mut flipped) = (0, 0);
    for _ in 0..500 {
        let o = (rng.unit_vector() * 2.0).cast::<f32>();
        let d = ((rng.unit_vector() * 0.5).cast::<f32>() - o) * 1.5;
        let reference = shapes(1.0)
            .map(|s| cast_ray(&s, &Isometry3::identity(), &Ray::new(Point3::from(o), d), 1.0));
        let scale = rng.log_range(1e-2, 1e2) as f32;
        let pose = isometry(&mut rng, 5.0 * f64::from(scale));
        for (shape, want) in shapes(scale).iter().zip(reference) {
            let ray = Ray::new(pose * Point3::from(o * scale), pose * (d * scale));
            let got = cast_ray(shape, &pose, &ray, 1.0);
            match (want, got) {
                (
                    RayCast::Hit { toi: a, normal: na, .. },
                    RayCast::Hit { toi: b, normal: nb, .. },
                ) => {
                    assert!((a - b).abs() < 1e-4, "{}: {a} vs {b}", shape.kind_name());
                    assert!((pose.rotation * na.into_inner() - nb.into_inner()).norm() < 1e-3);
                    compared += 1;
                }
                (a, b) if a == b => {}
                // A grazing ray may flip between a hit and a miss under the
                // rounding of the pose; that must stay rare.
                _ => flipped += 1,
            }
        }
    }
    assert!(compared > 300 && flipped <= 3, "{compared} compared, {flipped} flipped");
}
