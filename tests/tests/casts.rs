//! Ray casts and shape casts against independent oracles: the closed form
//! for rays and moving spheres against balls, and for every shape pair the
//! first root of the exact f64 signed distance (rays) or brute-force
//! separation (shape casts) along the motion (`tests::casts`). Every case
//! runs at scales 1e-3 to 1e3 under seeded random poses, and shape casts in
//! both orders.

use collide::nalgebra::{Isometry3, Point3, Translation3, Vector3};
use collide::{Cuboid, Ray, RayCast, ShapeCast, Sphere, try_cast_ray, try_shape_cast};
use tests::casts::{CastExpected, moved, ray_oracle, ray_sphere, shape_cast_oracle};
use tests::generators::{isometry, params};
use tests::oracle_shape::pose_to_f64;
use tests::{OracleShape, Params, SplitMix64, TestShape};

const SEED: u64 = 0xCA57;
const SCALES: [f64; 4] = [1e-3, 1e-1, 10.0, 1e3];

/// Relative distance within which collide and an oracle may disagree about
/// the outcome (a grazing ray, a ray starting on the surface): such cases
/// are skipped rather than judged.
const AMBIGUOUS_REL: f64 = 1e-4;

/// Relative accuracy asked of a contact point: the oracle's signed distance
/// at collide's hit point, over the scale of the scene.
const POINT_REL: f64 = 1e-5;

/// A ray at a random shape: from a random point at 1 to 4 sizes from the
/// shape, through a random point near it, so about half hit.
fn aimed_ray(rng: &mut SplitMix64, pose: &Isometry3<f32>, size: f64) -> Ray {
    let centre = pose.translation.vector.cast::<f64>();
    let from = centre + rng.unit_vector() * size * rng.range(0.0, 4.0);
    let through = centre + rng.unit_vector() * size * rng.range(0.0, 1.5);
    let dir = (through - from) * rng.log_range(0.1, 10.0);
    Ray::new(Point3::from(from.cast::<f32>()), dir.cast::<f32>())
}

/// Judges a ray cast against the expected outcome; `None` if ambiguous.
fn judge_ray(
    got: RayCast,
    want: CastExpected,
    oracle: &OracleShape,
    ray: &Ray,
    scale: f64,
) -> Result<(), String> {
    let dir = ray.dir.cast::<f64>();
    let tol = POINT_REL * scale;
    match (got, want) {
        (RayCast::StartsInside, CastExpected::StartsInside { .. })
        | (RayCast::Miss, CastExpected::Miss { .. }) => Ok(()),
        (RayCast::Hit { toi, point, normal }, CastExpected::Hit { t }) => {
            let p = point.cast::<f64>();
            let off = oracle.signed_distance(&p);
            let n = normal.into_inner().cast::<f64>();
            // The normal supports the shape at the hit point and faces the ray.
            let support_gap = oracle.support(&n) - n.dot(&p.coords);
            if !(off.abs() <= tol) {
                return Err(format!("hit point {off:e} off the surface (toi {toi}, oracle {t})"));
            }
            if !(support_gap.abs() <= tol) {
                return Err(format!("normal {n:?} does not support the shape: {support_gap:e}"));
            }
            if !(n.dot(&dir) <= 1e-6 * dir.norm()) {
                return Err(format!("normal {n:?} along the ray"));
            }
            // Within the tolerance of the oracle's parameter, in distance.
            if !((f64::from(toi) - t).abs() * dir.norm() <= tol.max(1e-6 * t * dir.norm())) {
                return Err(format!("toi {toi}, oracle {t}"));
            }
            Ok(())
        }
        // A near-miss or near-graze whose outcome turns on the tolerance.
        (_, CastExpected::Miss { closest }) if closest <= AMBIGUOUS_REL * scale => Ok(()),
        (_, CastExpected::StartsInside { value }) if -value <= AMBIGUOUS_REL * scale => Ok(()),
        (RayCast::Miss, CastExpected::Hit { .. }) | (RayCast::StartsInside, _)
            if ray_ambiguous(oracle, ray, scale) =>
        {
            Ok(())
        }
        (got, want) => Err(format!("collide {got:?}, oracle {want:?}")),
    }
}

/// Whether the ray starts on the surface or only grazes the shape.
fn ray_ambiguous(oracle: &OracleShape, ray: &Ray, scale: f64) -> bool {
    let o = ray.origin.cast::<f64>();
    let d = ray.dir.cast::<f64>();
    oracle.signed_distance(&o).abs() <= AMBIGUOUS_REL * scale
        || matches!(
            tests::casts::first_contact(
                |t| oracle.signed_distance(&(o + d * t)) + AMBIGUOUS_REL * scale,
                1e3
            ),
            CastExpected::Miss { .. }
        )
}

#[test]
fn ray_vs_sphere_closed_form() {
    for &scale in &SCALES {
        for i in 0..2_000 {
            let mut rng = SplitMix64::for_case(SEED, i);
            let r = rng.log_range(0.1, 2.0) * scale;
            let pose = isometry(&mut rng, 10.0 * scale);
            let ray = aimed_ray(&mut rng, &pose, r);
            let sphere = Sphere::new(r as f32);
            let got = try_cast_ray(&sphere, &pose, &ray, 1e3).unwrap();
            let centre = Point3::from(pose.translation.vector.cast::<f64>());
            let want = ray_sphere(
                &ray.origin.cast(),
                &ray.dir.cast(),
                &centre,
                f64::from(sphere.radius),
                1e3,
            );
            let oracle = OracleShape::sphere(f64::from(sphere.radius)).posed(&pose);
            let scene = r + (ray.origin.cast::<f64>() - centre).norm();
            if let Err(e) = judge_ray(got, want, &oracle, &ray, scene) {
                panic!("scale {scale} case {i}: {e}\n ray {ray:?} r {r}");
            }
        }
    }
}

/// Rays tangent to a ball, and rays passing 1e-4 of its radius inside and
/// outside the tangent: hit, hit, miss.
#[test]
fn grazing_rays_on_a_sphere() {
    for &scale in &SCALES {
        let r = scale as f32;
        let sphere = Sphere::new(r);
        let pose = Isometry3::translation(3.0 * r, -2.0 * r, r);
        for (offset, hits) in [(1.0 - 1e-4, true), (1.0 + 1e-4, false)] {
            let ray = Ray::new(Point3::new(-5.0 * r, -2.0 * r + offset * r, r), Vector3::x());
            let got = try_cast_ray(&sphere, &pose, &ray, 100.0 * r).unwrap();
            assert_eq!(
                matches!(got, RayCast::Hit { .. }),
                hits,
                "scale {scale} offset {offset}: {got:?}"
            );
        }
    }
}

#[test]
fn ray_vs_every_shape_against_the_signed_distance() {
    let mut kinds = [0usize; 3];
    for &scale in &SCALES {
        for i in 0..1_500 {
            let mut rng = SplitMix64::for_case(SEED ^ 1, i);
            let Ok(shape) = TestShape::new(params(&mut rng, scale)) else { continue };
            let pose = isometry(&mut rng, 10.0 * scale);
            let oracle = shape.oracle.posed(&pose);
            let size = oracle.size();
            let ray = aimed_ray(&mut rng, &pose, size);
            let max_t = 1e3;
            let got = try_cast_ray(&shape.shape, &pose, &ray, max_t as f32).unwrap();
            let want = ray_oracle(&oracle, &ray.origin.cast(), &ray.dir.cast(), max_t);
            kinds[match got {
                RayCast::Hit { .. } => 0,
                RayCast::StartsInside => 1,
                RayCast::Miss => 2,
            }] += 1;
            let scene = size + (ray.origin.coords - pose.translation.vector).norm() as f64;
            if let Err(e) = judge_ray(got, want, &oracle, &ray, scene) {
                panic!("scale {scale} case {i}: {e}\n {:?}\n ray {ray:?}", shape.params);
            }
        }
    }
    // The generator covers every outcome.
    assert!(kinds.iter().all(|&k| k > 100), "hits, insides, misses: {kinds:?}");
}

/// Rays parallel to a box's faces: sliding exactly in a face plane is
/// inside that slab (a hit on the far face's neighbour), a hair outside
/// misses; the same for the box as a convex hull.
#[test]
fn rays_parallel_to_faces() {
    for &scale in &SCALES {
        let h = scale as f32;
        let cube = Cuboid::new(Vector3::repeat(h));
        let hull = collide::ConvexHull::new(&cube.corners()).unwrap();
        let id = Isometry3::identity();
        for (y, hits) in [(h, true), (h * (1.0 + 1e-6), false), (0.5 * h, true)] {
            let ray = Ray::new(Point3::new(-3.0 * h, y, 0.0), Vector3::x());
            for got in [
                try_cast_ray(&cube, &id, &ray, 10.0 * h).unwrap(),
                try_cast_ray(&hull, &id, &ray, 10.0 * h).unwrap(),
            ] {
                match got {
                    RayCast::Hit { toi, normal, .. } if hits => {
                        assert!((toi - 2.0 * h).abs() <= 1e-6 * h, "scale {scale}: {toi}");
                        assert_eq!(normal.into_inner(), -Vector3::x());
                    }
                    RayCast::Miss if !hits => {}
                    other => panic!("scale {scale} y {y}: {other:?}"),
                }
            }
        }
    }
}

/// Starting inside (or on the surface) is reported as such for every shape,
/// whatever the direction; a zero direction outside misses.
#[test]
fn rays_starting_inside() {
    let shapes: Vec<collide::Shape> = vec![
        Sphere::new(1.0).into(),
        Cuboid::new(Vector3::new(1.0, 0.5, 0.2)).into(),
        collide::Capsule::new(1.0, 0.3).into(),
        collide::ConvexHull::new(&Cuboid::new(Vector3::repeat(0.7)).corners()).unwrap().into(),
    ];
    let pose = Isometry3::translation(5.0, -3.0, 2.0);
    for s in &shapes {
        for dir in [Vector3::x(), -Vector3::y(), Vector3::zeros()] {
            let inside = Ray::new(Point3::new(5.0, -3.0, 2.0), dir);
            assert_eq!(
                try_cast_ray(s, &pose, &inside, 1.0).unwrap(),
                RayCast::StartsInside,
                "{s:?}"
            );
        }
        let outside = Ray::new(Point3::new(15.0, -3.0, 2.0), Vector3::zeros());
        assert_eq!(try_cast_ray(s, &pose, &outside, 1.0).unwrap(), RayCast::Miss, "{s:?}");
    }
}

/// A flat hull (a square in the plane z = 0, rotated): hit through the face
/// from either side, edge-on within its plane, missed beside it.
#[test]
fn rays_against_a_flat_hull() {
    let square: Vec<Point3<f32>> =
        (0..9).map(|i| Point3::new((i % 3) as f32 - 1.0, (i / 3) as f32 - 1.0, 0.0)).collect();
    let hull = collide::ConvexHull::new(&square).unwrap();
    assert!(hull.is_flat());
    let mut rng = SplitMix64::new(SEED ^ 2);
    for _ in 0..200 {
        let pose = isometry(&mut rng, 10.0);
        let at = |x: f32, y: f32, z: f32| pose * Point3::new(x, y, z);
        let along = |x: f32, y: f32, z: f32| pose * Vector3::new(x, y, z);
        let cases = [
            (Ray::new(at(0.3, 0.2, 2.0), along(0.0, 0.0, -1.0)), Some(2.0)),
            (Ray::new(at(0.3, 0.2, -2.0), along(0.0, 0.0, 1.0)), Some(2.0)),
            (Ray::new(at(-3.0, 0.2, 0.0), along(1.0, 0.0, 0.0)), Some(2.0)),
            (Ray::new(at(1.5, 0.2, 2.0), along(0.0, 0.0, -1.0)), None),
        ];
        for (ray, want) in cases {
            match (try_cast_ray(&hull, &pose, &ray, 10.0).unwrap(), want) {
                (RayCast::Hit { toi, normal, .. }, Some(t)) => {
                    assert!((toi - t).abs() <= 1e-4, "{toi} vs {t}");
                    assert!(normal.dot(&ray.dir) < 0.0);
                }
                (RayCast::Miss, None) => {}
                (got, want) => panic!("{got:?} vs {want:?}"),
            }
        }
    }
}

/// Judges a shape cast against the oracle; checks the hit's geometry on the
/// oracle shapes moved to the reported time.
fn judge_cast(
    got: ShapeCast,
    want: CastExpected,
    (a, b): (&OracleShape, &OracleShape),
    (vel_a, vel_b): (&Vector3<f64>, &Vector3<f64>),
    scale: f64,
) -> Result<(), String> {
    let tol = POINT_REL * scale;
    match (got, want) {
        (ShapeCast::InitiallyOverlapping, CastExpected::StartsInside { .. })
        | (ShapeCast::Miss, CastExpected::Miss { .. }) => Ok(()),
        (ShapeCast::Hit { toi, point_a, point_b, normal }, CastExpected::Hit { .. }) => {
            let t = f64::from(toi);
            let (a_t, b_t) = (moved(a, &(vel_a * t)), moved(b, &(vel_b * t)));
            let sep = tests::expected_separation(&a_t, &b_t).signed();
            if !(sep.abs() <= tol) {
                return Err(format!("separation {sep:e} at the reported toi {toi} ({want:?})"));
            }
            let n = normal.into_inner().cast::<f64>();
            let (pa, pb) = (point_a.cast::<f64>(), point_b.cast::<f64>());
            let gaps = [
                a_t.support(&n) - n.dot(&pa.coords),
                b_t.support(&-n) + n.dot(&pb.coords),
                a_t.signed_distance(&pa),
                b_t.signed_distance(&pb),
                (pa - pb).norm(),
            ];
            if !gaps.iter().all(|g| g.abs() <= tol) {
                return Err(format!("contact geometry off by {gaps:?} (tolerance {tol:e})"));
            }
            Ok(())
        }
        (_, CastExpected::Miss { closest }) if closest <= AMBIGUOUS_REL * scale => Ok(()),
        (_, CastExpected::StartsInside { value }) if -value <= AMBIGUOUS_REL * scale => Ok(()),
        (ShapeCast::InitiallyOverlapping, CastExpected::Hit { t }) if t * 0.0 == 0.0 => {
            Err(format!("collide says overlapping at the start, oracle hits at {t}"))
        }
        (got, want) => Err(format!("collide {got:?}, oracle {want:?}")),
    }
}

/// Pairs of every kind at scales 1e-3 to 1e3, moving (both of them) so that
/// about half meet within the time limit, in both orders.
#[test]
fn shape_cast_every_pair_against_the_separation() {
    let mut kinds = [0usize; 4];
    for &scale in &SCALES {
        for i in 0..600 {
            let mut rng = SplitMix64::for_case(SEED ^ 3, i);
            let (Ok(sa), Ok(sb)) =
                (TestShape::new(params(&mut rng, scale)), TestShape::new(params(&mut rng, scale)))
            else {
                continue;
            };
            let pose_a = isometry(&mut rng, 10.0 * scale);
            let reach = sa.oracle.size() + sb.oracle.size();
            let start = pose_a.translation.vector.cast::<f64>()
                + rng.unit_vector() * reach * rng.range(0.2, 3.0);
            let pose_b =
                Isometry3::from_parts(Translation3::from(start.cast::<f32>()), rng.rotation());
            // B heads for a point near A; A drifts.
            let aim = pose_a.translation.vector.cast::<f64>()
                + rng.unit_vector() * reach * rng.range(0.0, 1.0);
            let vel_b = ((aim - start) * rng.range(0.3, 2.0)).cast::<f32>();
            let vel_a = (rng.unit_vector() * reach * rng.range(0.0, 0.3)).cast::<f32>();
            let max_toi = 1.5;
            let (a, b) = (sa.oracle.posed(&pose_a), sb.oracle.posed(&pose_b));
            let rel = (vel_b - vel_a).cast::<f64>();
            let want = shape_cast_oracle(&a, &b, &rel, max_toi);
            let scene = reach + 10.0 * scale;
            let vels = (vel_a.cast::<f64>(), vel_b.cast::<f64>());
            let ab = try_shape_cast(
                &sa.shape,
                &pose_a,
                &vel_a,
                &sb.shape,
                &pose_b,
                &vel_b,
                max_toi as f32,
            )
            .unwrap();
            let ba = try_shape_cast(
                &sb.shape,
                &pose_b,
                &vel_b,
                &sa.shape,
                &pose_a,
                &vel_a,
                max_toi as f32,
            )
            .unwrap();
            kinds[match ab {
                ShapeCast::Hit { .. } => 0,
                ShapeCast::Miss => 1,
                ShapeCast::InitiallyOverlapping => 2,
                ShapeCast::IterationLimit { .. } => 3,
            }] += 1;
            let check = judge_cast(ab, want, (&a, &b), (&vels.0, &vels.1), scene)
                .and_then(|()| judge_cast(ba, want, (&b, &a), (&vels.1, &vels.0), scene));
            if let Err(e) = check {
                panic!(
                    "scale {scale} case {i}: {e}\n A {:?} pose {pose_a:?} vel {vel_a:?}\n B {:?} pose {pose_b:?} vel {vel_b:?}\n ab {ab:?}\n ba {ba:?}",
                    sa.params, sb.params
                );
            }
        }
    }
    assert_eq!(kinds[3], 0, "iteration limits: {kinds:?}");
    assert!(kinds[..3].iter().all(|&k| k > 100), "hits, misses, overlaps: {kinds:?}");
}

/// Two balls on a collision course: the closed-form time of first contact,
/// and the same motion with the time limit a hair short and long, and the
/// lateral offset a hair inside and outside the sum of the radii.
#[test]
fn shape_cast_spheres_closed_form_and_just_touching() {
    for &scale in &SCALES {
        for i in 0..500 {
            let mut rng = SplitMix64::for_case(SEED ^ 4, i);
            let (ra, rb) = (rng.log_range(0.1, 2.0) * scale, rng.log_range(0.1, 2.0) * scale);
            let pose_a = isometry(&mut rng, 10.0 * scale);
            let pose_b = isometry(&mut rng, 10.0 * scale);
            let (ca, cb) =
                (pose_a.translation.vector.cast::<f64>(), pose_b.translation.vector.cast::<f64>());
            let vel_a = (rng.unit_vector() * scale).cast::<f32>();
            let vel_b = ((ca - cb) * rng.range(0.2, 1.0)).cast::<f32>();
            let (sa, sb) = (Sphere::new(ra as f32), Sphere::new(rb as f32));
            let rel = (vel_b - vel_a).cast::<f64>();
            // |cb − ca + t·rel| = ra + rb: B's centre as a ray against the
            // summed ball about A's centre.
            let want = ray_sphere(
                &Point3::from(cb),
                &rel,
                &Point3::from(ca),
                f64::from(sa.radius) + f64::from(sb.radius),
                10.0,
            );
            let got = try_shape_cast(&sa, &pose_a, &vel_a, &sb, &pose_b, &vel_b, 10.0).unwrap();
            let scene = ra + rb + (cb - ca).norm();
            match (got, want) {
                (ShapeCast::Hit { toi, .. }, CastExpected::Hit { t }) => {
                    let err = (f64::from(toi) - t).abs() * rel.norm();
                    assert!(err <= POINT_REL * scene, "scale {scale} case {i}: toi {toi} vs {t}");
                    // A limit just short of the contact misses, just past hits.
                    let short = try_shape_cast(
                        &sa,
                        &pose_a,
                        &vel_a,
                        &sb,
                        &pose_b,
                        &vel_b,
                        (t * (1.0 - 1e-3)) as f32,
                    )
                    .unwrap();
                    let long = try_shape_cast(
                        &sa,
                        &pose_a,
                        &vel_a,
                        &sb,
                        &pose_b,
                        &vel_b,
                        (t * (1.0 + 1e-3)) as f32,
                    )
                    .unwrap();
                    assert_eq!(short, ShapeCast::Miss, "scale {scale} case {i}");
                    assert!(
                        matches!(long, ShapeCast::Hit { .. }),
                        "scale {scale} case {i}: {long:?}"
                    );
                }
                (ShapeCast::InitiallyOverlapping, CastExpected::StartsInside { .. })
                | (ShapeCast::Miss, CastExpected::Miss { .. }) => {}
                (got, want) => panic!("scale {scale} case {i}: {got:?} vs {want:?}"),
            }
        }
        // Passing at a lateral offset a hair inside or outside ra + rb.
        let (ra, rb) = (scale as f32, 0.5 * scale as f32);
        for (k, hits) in [(1.0 - 1e-4f32, true), (1.0 + 1e-4, false)] {
            let pose_b = Isometry3::translation(-10.0 * ra, k * (ra + rb), 0.0);
            let got = try_shape_cast(
                &Sphere::new(ra),
                &Isometry3::identity(),
                &Vector3::zeros(),
                &Sphere::new(rb),
                &pose_b,
                &Vector3::new(4.0 * ra, 0.0, 0.0),
                10.0,
            )
            .unwrap();
            assert_eq!(matches!(got, ShapeCast::Hit { .. }), hits, "scale {scale} k {k}: {got:?}");
        }
    }
}

/// A box sliding parallel to a ground slab's face, a hair above it, never
/// touches; a hair into it, it overlaps from the start; falling onto it, it
/// lands flat with the normal straight up.
#[test]
fn shape_cast_box_on_a_slab() {
    let slab = Cuboid::new(Vector3::new(50.0, 0.5, 50.0));
    let slab_pose = Isometry3::translation(0.0, -0.5, 0.0);
    let cube = Cuboid::new(Vector3::repeat(0.5));
    let slide = Vector3::new(3.0, 0.0, 1.0);
    let above = Isometry3::translation(0.0, 0.5 + 1e-4, 0.0);
    let into = Isometry3::translation(0.0, 0.5 - 1e-4, 0.0);
    assert_eq!(
        try_shape_cast(&slab, &slab_pose, &Vector3::zeros(), &cube, &above, &slide, 5.0).unwrap(),
        ShapeCast::Miss
    );
    assert_eq!(
        try_shape_cast(&slab, &slab_pose, &Vector3::zeros(), &cube, &into, &slide, 5.0).unwrap(),
        ShapeCast::InitiallyOverlapping
    );
    let high = Isometry3::translation(2.0, 10.5, -3.0);
    match try_shape_cast(
        &slab,
        &slab_pose,
        &Vector3::zeros(),
        &cube,
        &high,
        &Vector3::new(0.0, -4.0, 0.0),
        5.0,
    )
    .unwrap()
    {
        ShapeCast::Hit { toi, normal, .. } => {
            assert!((toi - 2.5).abs() <= 1e-5, "{toi}");
            assert!((normal.y - 1.0).abs() <= 1e-6, "{normal:?}");
        }
        other => panic!("{other:?}"),
    }
    let _ = Params::Sphere { radius: 1.0 };
    let _ = pose_to_f64(&high);
}

/// A flat hull (a square plate) dropped flat onto a box, and edge-on: the
/// time of impact is the gap over the speed, with the normal along the
/// motion; the plate sliding edge-on past the box's corner by a hair misses.
#[test]
fn shape_cast_flat_plate() {
    let plate: Vec<Point3<f32>> = (0..4)
        .map(|c| {
            Point3::new(
                if c & 1 == 1 { 1.0 } else { -1.0 },
                0.0,
                if c & 2 == 2 { 1.0 } else { -1.0 },
            )
        })
        .collect();
    let plate = collide::ConvexHull::new(&plate).unwrap();
    assert!(plate.is_flat());
    let cube = Cuboid::new(Vector3::repeat(0.5));
    for &scale in &SCALES {
        let s = scale as f32;
        let cube = Cuboid::new(cube.half_extents * s);
        let plate =
            collide::ConvexHull::new(&plate.vertices().iter().map(|p| p * s).collect::<Vec<_>>())
                .unwrap();
        let id = Isometry3::identity();
        // Flat, falling from 3 s above the top face at speed s.
        let above = Isometry3::translation(0.1 * s, 3.5 * s, -0.2 * s);
        match try_shape_cast(
            &cube,
            &id,
            &Vector3::zeros(),
            &plate,
            &above,
            &Vector3::new(0.0, -s, 0.0),
            10.0,
        )
        .unwrap()
        {
            ShapeCast::Hit { toi, normal, .. } => {
                assert!((toi - 3.0).abs() <= 1e-5, "scale {scale}: {toi}");
                assert!((normal.y - 1.0).abs() <= 1e-5, "scale {scale}: {normal:?}");
            }
            other => panic!("scale {scale}: {other:?}"),
        }
        // Edge-on, sliding along x, a hair above and below the top face.
        for (dy, hits) in [(1e-4f32, false), (-1e-4, true)] {
            let side = Isometry3::translation(-5.0 * s, (0.5 + dy) * s, 0.0);
            let got = try_shape_cast(
                &cube,
                &id,
                &Vector3::zeros(),
                &plate,
                &side,
                &Vector3::new(s, 0.0, 0.0),
                10.0,
            )
            .unwrap();
            assert_eq!(
                matches!(got, ShapeCast::Hit { .. }),
                hits,
                "scale {scale} dy {dy}: {got:?}"
            );
        }
    }
}
