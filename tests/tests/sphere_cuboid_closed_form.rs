//! collide's closed-form sphere–cuboid path, in both orders, against the
//! clamp oracle of `tests::analytic` (f64) and the generic oracle checks of
//! `check_pair`/`check_swap`.
//!
//! Beyond the generic bounds (which GJK/EPA must meet too), a closed form
//! should be exact up to f32 rounding, so each case is also held to a tight
//! bound, [`TIGHT_REL`], on the signed separation and on the witness points'
//! distance from their surfaces. Cases: random poses over sizes 1e-3 to 1e3,
//! just touching and just missing (±1e-3 of the size), centre inside near each
//! face, centre exactly at the box centre, centre outside an edge or a corner,
//! the A/B swap and rotation (world-transform) invariance.

use collide::nalgebra::{Isometry3, Point3, Translation3, Vector3};
use collide::{
    Contact, Cuboid, GjkCache, QueryError, Sphere, try_closest_points, try_contact,
    try_contact_cached, try_intersects, try_penetration,
};
use tests::analytic::sphere_cuboid;
use tests::generators::{half_extents, isometry, place_at_gap, pose_pair};
use tests::oracle_shape::pose_to_f64;
use tests::{Expected, Pair, Params, SplitMix64, TestShape, Tolerances, check_swap};

const SEED: u64 = 0x5B0C_0B0C;

/// The closed form's bound, relative to the largest length in the case
/// (coordinates and sizes): composing two f32 poses and moving the centre
/// into the box's frame costs a few ulps (~1.2e-7 each) of that length, so
/// 4e-6 (~32 ulps) is exact up to rounding. GJK/EPA's answers are held only
/// to the generic 1e-3 bounds.
const TIGHT_REL: f64 = 4e-6;

/// Normals are compared when the pair is clearly apart or clearly unique:
/// their f32 rounding is then below ~1e-5, far below this.
const NORMAL_AGREE: f64 = 1e-4;

/// The sphere's radius, the box's half extents and which of A, B is the box.
fn split(pair: &Pair) -> (f64, Vector3<f64>, bool) {
    match (&pair.a.params, &pair.b.params) {
        (Params::Sphere { radius }, Params::Cuboid { half }) => {
            (f64::from(*radius), half.cast(), false)
        }
        (Params::Cuboid { half }, Params::Sphere { radius }) => {
            (f64::from(*radius), half.cast(), true)
        }
        _ => panic!("not a sphere-cuboid pair"),
    }
}

/// The f64 clamp answer, from A's point of view.
fn oracle(pair: &Pair) -> Expected {
    let (r, half, box_is_a) = split(pair);
    let (pose_sphere, pose_box) =
        if box_is_a { (&pair.pose_b, &pair.pose_a) } else { (&pair.pose_a, &pair.pose_b) };
    let centre = Point3::from(pose_sphere.translation.vector.cast::<f64>());
    let e = sphere_cuboid(centre, r, half, &pose_to_f64(pose_box));
    if !box_is_a {
        return e;
    }
    match e {
        Expected::Overlapping { depth, normal, runner_up } => {
            Expected::Overlapping { depth, normal: -normal, runner_up }
        }
        Expected::Separated { distance, point_a, point_b } => {
            Expected::Separated { distance, point_a: point_b, point_b: point_a }
        }
    }
}

/// The largest length in the case, which sets the f32 rounding.
fn length(pair: &Pair) -> f64 {
    let (r, half, _) = split(pair);
    let coords = pair.pose_a.translation.vector.norm().max(pair.pose_b.translation.vector.norm());
    f64::from(coords).max(r).max(half.max())
}

/// `contact` held to the tight bound against the clamp oracle.
fn check_tight(pair: &Pair) -> Result<Contact, String> {
    let expected = oracle(pair);
    let len = length(pair);
    let tol = TIGHT_REL * len;
    let got = try_contact(&pair.a.shape, &pair.pose_a, &pair.b.shape, &pair.pose_b)
        .map_err(|e| format!("contact returned {e}\n{pair}"))?;
    let (signed, normal, point_a, point_b) = match got {
        Contact::Separated { distance, normal, point_a, point_b } => {
            (f64::from(distance), normal, point_a, point_b)
        }
        Contact::Penetrating(p) => (-f64::from(p.depth), p.normal, p.point_a, p.point_b),
    };
    let mut problems = Vec::new();
    if !((signed - expected.signed()).abs() <= tol) {
        problems.push(format!("signed separation {signed:e} vs exact {:e}", expected.signed()));
    }
    let (oa, ob) = pair.oracles();
    let (sa, sb) = (oa.signed_distance(&point_a.cast()), ob.signed_distance(&point_b.cast()));
    if !(sa.abs() <= tol && sb.abs() <= tol) {
        problems.push(format!("witnesses {sa:e}, {sb:e} off their surfaces"));
    }
    let gap = (point_a - point_b - normal.into_inner() * (-signed as f32)).norm();
    if !(f64::from(gap) <= tol) {
        problems
            .push(format!("point_a - point_b differs from the depth along the normal by {gap:e}"));
    }
    // The normal, where it is well defined.
    let n = normal.into_inner().cast::<f64>();
    let want = match expected {
        Expected::Separated { distance, point_a, point_b } if distance > 1e-2 * len => {
            Some((point_b - point_a) / distance)
        }
        Expected::Overlapping { depth, normal, runner_up }
            if runner_up - depth > 1e-2 * len && depth > 1e-2 * len =>
        {
            Some(normal)
        }
        _ => None,
    };
    if let Some(w) = want
        && !((n - w).norm() <= NORMAL_AGREE)
    {
        problems.push(format!("normal {n:?} vs exact {w:?}"));
    }
    if problems.is_empty() {
        Ok(got)
    } else {
        Err(format!("{}\n{pair}\nexpected {expected:?}\ngot {got:?}", problems.join("\n")))
    }
}

/// Both orders, tight and generic checks, and the same under two random
/// world transforms (translations scaled with the shapes).
fn check_all(pair: &Pair, scale: f64, rng: &mut SplitMix64) -> Result<(), String> {
    let tol = Tolerances { length: scale };
    for p in [pair.clone(), pair.swapped()] {
        check_tight(&p)?;
    }
    check_swap(pair, &tol)?;
    for _ in 0..2 {
        let world = isometry(rng, 10.0 * scale);
        let moved = pair.moved(&world);
        check_tight(&moved).map_err(|e| format!("under world {world:?}:\n{e}"))?;
        check_swap(&moved, &tol)?;
    }
    Ok(())
}

fn sphere_box(r: f64, half: Vector3<f32>) -> (TestShape, TestShape) {
    (
        TestShape::new(Params::Sphere { radius: r as f32 }).unwrap(),
        TestShape::new(Params::Cuboid { half }).unwrap(),
    )
}

/// Runs `make(rng, scale)` for `cases` seeded cases at each scale from 1e-3
/// to 1e3, failing with every failing case.
fn run(name: &str, cases: u64, make: impl Fn(&mut SplitMix64, f64) -> Pair) {
    let mut failures = Vec::new();
    for (k, scale) in [1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3].into_iter().enumerate() {
        for i in 0..cases {
            let mut rng = SplitMix64::for_case(SEED ^ ((k as u64) << 32), i);
            let pair = make(&mut rng, scale);
            if let Err(e) = check_all(&pair, scale, &mut rng) {
                failures.push(format!("scale {scale:e} case {i}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} failures, first:\n{}",
        failures.len(),
        failures.iter().take(3).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn random_poses_over_scales() {
    run("random poses", 300, |rng, scale| {
        let (s, b) = sphere_box(
            rng.log_range(0.05, 2.0) * scale,
            half_extents(rng, 0.05 * scale, 2.0 * scale),
        );
        let factor = rng.range(0.0, 1.1);
        let mut pair = pose_pair(rng, s, b, factor);
        // pose_pair places A within 5 m: bring it to the shapes' scale.
        let shift = pair.pose_a.translation.vector * (1.0 - scale as f32);
        pair.pose_a.translation.vector -= shift;
        pair.pose_b.translation.vector -= shift;
        pair
    });
}

#[test]
fn just_touching_and_just_missing() {
    for sign in [-1.0, 1.0] {
        run("just touching/missing", 60, |rng, scale| {
            let (s, b) = sphere_box(
                rng.log_range(0.05, 2.0) * scale,
                half_extents(rng, 0.05 * scale, 2.0 * scale),
            );
            let start = Pair {
                a: s,
                pose_a: isometry(rng, scale),
                b,
                pose_b: Isometry3::from_parts(Translation3::identity(), rng.rotation()),
            };
            let mut start = start;
            start.pose_b.translation = start.pose_a.translation;
            let (r, half, _) = split(&start);
            let gap = sign * 1e-3 * (r + half.norm());
            place_at_gap(&start, &rng.unit_vector(), gap)
        });
    }
}

/// Classification must be exact at ±1e-3 of the size, far beyond f32
/// resolution; the runner's generic checks allow a band there.
#[test]
fn just_missing_is_separated_and_just_touching_overlaps() {
    let mut rng = SplitMix64::new(SEED ^ 7);
    for i in 0..400 {
        let scale = 10f64.powf(rng.range(-3.0, 3.0));
        let (s, b) = sphere_box(
            rng.log_range(0.05, 2.0) * scale,
            half_extents(&mut rng, 0.05 * scale, 2.0 * scale),
        );
        let mut start =
            Pair { a: s, pose_a: isometry(&mut rng, scale), b, pose_b: isometry(&mut rng, 0.0) };
        start.pose_b.translation = start.pose_a.translation;
        let (r, half, _) = split(&start);
        let dir = rng.unit_vector();
        for sign in [-1.0, 1.0] {
            let pair = place_at_gap(&start, &dir, sign * 1e-3 * (r + half.norm()));
            for p in [pair.clone(), pair.swapped()] {
                let hit = try_intersects(&p.a.shape, &p.pose_a, &p.b.shape, &p.pose_b).unwrap();
                let pen = try_penetration(&p.a.shape, &p.pose_a, &p.b.shape, &p.pose_b).unwrap();
                let near =
                    try_closest_points(&p.a.shape, &p.pose_a, &p.b.shape, &p.pose_b).unwrap();
                let apart = sign > 0.0;
                assert_eq!(hit, !apart, "case {i} intersects\n{p}");
                assert_eq!(pen.is_none(), apart, "case {i} penetration {pen:?}\n{p}");
                assert_eq!(
                    matches!(near, collide::Proximity::Separated { .. }),
                    apart,
                    "case {i} closest_points {near:?}\n{p}"
                );
            }
        }
    }
}

/// The sphere's centre inside the box, `depth_in` (less than every other
/// slack) below face `±axis`, optionally pushed towards an edge.
fn inside_near_face(rng: &mut SplitMix64, scale: f64, axis: usize, sign: f64) -> Pair {
    let half = half_extents(rng, 0.2 * scale, 2.0 * scale);
    let h = half.cast::<f64>();
    let min_other = (0..3).filter(|&k| k != axis).map(|k| h[k]).fold(f64::INFINITY, f64::min);
    let slack = rng.range(0.05, 0.9) * h[axis].min(min_other);
    let mut c = Vector3::zeros();
    c[axis] = sign * (h[axis] - slack);
    for k in (0..3).filter(|&k| k != axis) {
        // Keep the other slacks above `slack` (strictly, by a margin).
        let room = h[k] - 1.5 * slack;
        c[k] = if room > 0.0 { rng.range(-room, room) } else { 0.0 };
    }
    let r = rng.log_range(0.05, 2.0) * scale;
    sphere_at_box_point(rng, scale, r, half, &c)
}

/// A sphere of radius `r` (A) centred at `c` in the frame of a box with
/// half extents `half` (B), the box placed by a random pose at `scale`.
fn sphere_at_box_point(
    rng: &mut SplitMix64,
    scale: f64,
    r: f64,
    half: Vector3<f32>,
    c: &Vector3<f64>,
) -> Pair {
    let (s, b) = sphere_box(r, half);
    let pose_b = isometry(rng, scale);
    let centre = pose_b * Point3::from(c.cast::<f32>());
    Pair {
        a: s,
        pose_a: Isometry3::from_parts(Translation3::from(centre.coords), rng.rotation()),
        b,
        pose_b,
    }
}

#[test]
fn centre_inside_near_each_face() {
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            run("inside near a face", 40, |rng, scale| inside_near_face(rng, scale, axis, sign));
        }
    }
}

#[test]
fn centre_exactly_at_box_centre() {
    let mut rng = SplitMix64::new(SEED ^ 9);
    for i in 0..200 {
        let scale = 10f64.powf(rng.range(-3.0, 3.0));
        let cube = i % 2 == 0;
        let half = if cube {
            Vector3::repeat(rng.log_range(0.05 * scale, 2.0 * scale) as f32)
        } else {
            half_extents(&mut rng, 0.05 * scale, 2.0 * scale)
        };
        let r = rng.log_range(0.05, 2.0) * scale;
        let pose_box = isometry(&mut rng, 10.0 * scale);
        let pose_ball = Isometry3::from_parts(pose_box.translation, rng.rotation());
        let (ball, b) = (Sphere::new(r as f32), Cuboid::new(half));
        let c = try_contact(&b, &pose_box, &ball, &pose_ball).unwrap();
        let Contact::Penetrating(p) = c else { panic!("case {i}: {c:?}") };
        // Exact answer: out through the face of the smallest half extent (the
        // first such axis), on its positive side; depth = radius + extent.
        let axis = half.imin();
        let expected_depth = r + f64::from(half[axis]);
        assert!(
            (f64::from(p.depth) - expected_depth).abs() <= TIGHT_REL * expected_depth,
            "case {i}: depth {} vs {expected_depth}",
            p.depth
        );
        let want = pose_box.rotation * Vector3::ith(axis, 1.0);
        assert!(
            (p.normal.into_inner() - want).norm() < 1e-5,
            "case {i}: {:?} vs {want:?}",
            p.normal
        );
        if cube {
            assert_eq!(axis, 0, "ties go to the first axis");
        }
        // The other order: the opposite normal, the same depth.
        let q = try_penetration(&ball, &pose_ball, &b, &pose_box).unwrap().unwrap();
        assert_eq!(q.depth, p.depth);
        assert_eq!(q.normal.into_inner(), -p.normal.into_inner());
    }
}

/// The centre outside the box past an edge (two coordinates beyond the
/// faces) or a corner (three), overlapping or not.
#[test]
fn centre_in_edge_and_corner_regions() {
    for beyond in [2, 3] {
        run("edge/corner region", 60, |rng, scale| {
            let half = half_extents(rng, 0.05 * scale, 2.0 * scale);
            let r = rng.log_range(0.05, 2.0) * scale;
            let mut c = Vector3::zeros();
            let skip = rng.below(3);
            for k in 0..3 {
                let h = f64::from(half[k]);
                c[k] = if beyond == 3 || k != skip {
                    let s = if rng.chance(0.5) { 1.0 } else { -1.0 };
                    s * (h + rng.range(0.0, 1.2) * r)
                } else {
                    rng.range(-h, h)
                };
            }
            sphere_at_box_point(rng, scale, r, half, &c)
        });
    }
}

/// The pair seen through a rotation and translation of the world gives the
/// same depth or distance and the rotated normal (the path works in the
/// box's frame, so only rounding may differ).
#[test]
fn rotation_invariance() {
    let mut rng = SplitMix64::new(SEED ^ 11);
    for i in 0..2000 {
        let (s, b) = sphere_box(rng.log_range(0.05, 2.0), half_extents(&mut rng, 0.05, 2.0));
        let factor = rng.range(0.0, 1.1);
        let pair = pose_pair(&mut rng, s, b, factor);
        let world = isometry(&mut rng, 10.0);
        let moved = pair.moved(&world);
        let c0 = check_tight(&pair).unwrap();
        let c1 = check_tight(&moved).unwrap();
        let len = length(&pair).max(length(&moved));
        match (c0, c1) {
            (Contact::Penetrating(p), Contact::Penetrating(q)) => {
                assert!(f64::from((p.depth - q.depth).abs()) <= 2.0 * TIGHT_REL * len, "case {i}");
                if p.depth > 1e-2 {
                    let rotated = world.rotation * p.normal.into_inner();
                    let same = (rotated - q.normal.into_inner()).norm() < 1e-4;
                    // A different face is fine only on a slack tie.
                    let tie = matches!(oracle(&pair), Expected::Overlapping { depth, runner_up, .. } if runner_up - depth < 1e-3);
                    assert!(same || tie, "case {i}: {rotated:?} vs {:?}", q.normal);
                }
            }
            (
                Contact::Separated { distance: d0, normal: n0, .. },
                Contact::Separated { distance: d1, normal: n1, .. },
            ) => {
                assert!(f64::from((d0 - d1).abs()) <= 2.0 * TIGHT_REL * len, "case {i}");
                if d0 > 1e-2 {
                    assert!(
                        (world.rotation * n0.into_inner() - n1.into_inner()).norm() < 1e-4,
                        "case {i}"
                    );
                }
            }
            (c0, c1) => {
                assert!(
                    oracle(&pair).signed().abs() <= 2.0 * TIGHT_REL * len,
                    "case {i}: {c0:?} vs {c1:?}"
                );
            }
        }
    }
}

/// Bad input is a typed error in both orders and every query, never a panic.
#[test]
fn bad_input_is_a_typed_error() {
    let id = Isometry3::identity();
    let near = Isometry3::translation(0.3, 0.0, 0.0);
    let nan_pose = Isometry3::translation(f32::NAN, 0.0, 0.0);
    let good_ball = Sphere::new(0.5);
    let good_box = Cuboid::new(Vector3::new(0.5, 0.2, 0.3));
    let cases: [(Sphere, Cuboid, Isometry3<f32>, QueryError); 6] = [
        (Sphere::new(f32::NAN), good_box, near, QueryError::NonFiniteInput),
        (Sphere::new(f32::INFINITY), good_box, near, QueryError::NonFiniteInput),
        (
            good_ball,
            Cuboid::new(Vector3::new(0.5, f32::NAN, 0.3)),
            near,
            QueryError::NonFiniteInput,
        ),
        (good_ball, good_box, nan_pose, QueryError::NonFiniteInput),
        (Sphere::new(-0.5), good_box, near, QueryError::NegativeMargin),
        (good_ball, Cuboid::new(Vector3::new(0.5, -0.2, 0.3)), near, QueryError::NegativeExtent),
    ];
    for (ball, cube, pose, err) in cases {
        let cache = &mut GjkCache::default();
        assert_eq!(try_intersects(&ball, &pose, &cube, &id), Err(err));
        assert_eq!(try_intersects(&cube, &id, &ball, &pose), Err(err));
        assert_eq!(try_closest_points(&ball, &pose, &cube, &id), Err(err));
        assert_eq!(try_closest_points(&cube, &id, &ball, &pose), Err(err));
        assert_eq!(try_penetration(&ball, &pose, &cube, &id), Err(err));
        assert_eq!(try_penetration(&cube, &id, &ball, &pose), Err(err));
        assert_eq!(try_contact_cached(&ball, &pose, &cube, &id, cache), Err(err));
        assert_eq!(try_contact_cached(&cube, &id, &ball, &pose, cache), Err(err));
        // The plain functions answer without panicking.
        assert!(!collide::intersects(&ball, &pose, &cube, &id));
        assert!(collide::penetration(&cube, &id, &ball, &pose).is_none());
        let _ = collide::closest_points(&ball, &pose, &cube, &id);
    }
}

/// At exact contact (the oracle's gap 0, then f32 rounding either way) the
/// closed form's queries must still agree with each other: one separation
/// test serves all of them, with no band of disagreement.
#[test]
fn queries_classify_alike_at_exact_contact() {
    let mut rng = SplitMix64::new(SEED ^ 13);
    let mut seen = [0usize; 2];
    for i in 0..1000 {
        let (s, b) = sphere_box(rng.log_range(0.05, 2.0), half_extents(&mut rng, 0.05, 2.0));
        let mut start =
            Pair { a: s, pose_a: isometry(&mut rng, 5.0), b, pose_b: isometry(&mut rng, 0.0) };
        start.pose_b.translation = start.pose_a.translation;
        let pair = place_at_gap(&start, &rng.unit_vector(), 0.0);
        for p in [pair.clone(), pair.swapped()] {
            let (a, pa, b, pb) = (&p.a.shape, &p.pose_a, &p.b.shape, &p.pose_b);
            let hit = try_intersects(a, pa, b, pb).unwrap();
            let pen = try_penetration(a, pa, b, pb).unwrap();
            let near = try_closest_points(a, pa, b, pb).unwrap();
            let c = try_contact(a, pa, b, pb).unwrap();
            assert_eq!(pen.is_some(), hit, "case {i}: penetration {pen:?}\n{p}");
            assert_eq!(matches!(near, collide::Proximity::Intersecting), hit, "case {i}\n{p}");
            assert_eq!(matches!(c, Contact::Penetrating(_)), hit, "case {i}: {c:?}\n{p}");
            seen[usize::from(hit)] += 1;
        }
    }
    // Rounding sends exact contacts both ways; both must have been tested.
    assert!(seen[0] > 50 && seen[1] > 50, "coverage {seen:?}");
}
