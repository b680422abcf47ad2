//! Time of impact under rigid motion with rotation (`collide::time_of_impact`)
//! against independent oracles: the exact f64 separation of the oracle
//! shapes (`tests::expected_separation`, brute force, no collide code),
//! sampled densely along the same motion computed in f64 and bisected at
//! the first sample within the target; the closed form for spheres. Cases:
//! random pairs of every kind with random spins, spinning thin plates and
//! capsules against a wall, just touching and just missing, in both orders.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Cuboid, Shape, Sphere, Sweep, TimeOfImpact, try_time_of_impact};
use tests::generators::{bounding_radius, isometry, params};
use tests::oracle_shape::pose_to_f64;
use tests::{OracleShape, SplitMix64, TestShape, expected_separation};

const SEED: u64 = 0x7017;

/// Samples of the motion the oracle takes; a crossing between two samples
/// is found by bisection, so only a dip narrower than 1/2500 of the time
/// range could slip through, and the motions below turn at most a few
/// radians over the range.
const SAMPLES: usize = 2500;

/// Bisection steps from the first sample within the target.
const BISECTIONS: usize = 60;

/// Distance, relative to the scene's size, within which collide's f32
/// distances and poses may disagree with the f64 oracle.
const DISTANCE_REL: f64 = 2e-5;

/// The stop tolerance collide may use, relative to the smaller shape's
/// radius about its centre of rotation: its own is 1e-3 of a bound that is
/// at most √3 times that radius (a bounding-box corner of the core, plus the
/// margin).
const TOLERANCE_REL: f64 = 2e-3;

/// A sweep's pose at `t`, computed in f64 independently of
/// [`Sweep::pose_at`].
fn pose64(s: &Sweep, t: f64) -> Isometry3<f64> {
    let start = pose_to_f64(&s.pose);
    let center0 = start * s.local_center.cast::<f64>();
    let center = center0 + s.linear_velocity.cast::<f64>() * t;
    let rot =
        UnitQuaternion::from_scaled_axis(s.angular_velocity.cast::<f64>() * t) * start.rotation;
    let local = s.local_center.coords.cast::<f64>();
    Isometry3::from_parts(Translation3::from(center.coords - rot * local), rot)
}

/// The oracle's signed separation of the two shapes at time `t`.
fn separation(a: &OracleShape, sa: &Sweep, b: &OracleShape, sb: &Sweep, t: f64) -> f64 {
    let pa = OracleShape { core: a.core.transformed(&pose64(sa, t)), radius: a.radius };
    let pb = OracleShape { core: b.core.transformed(&pose64(sb, t)), radius: b.radius };
    expected_separation(&pa, &pb).signed()
}

/// The first time the function `f` (separation minus target) reaches 0 on
/// `[0, max_t]`, by dense sampling and bisection, and its smallest sample.
fn first_crossing(f: impl Fn(f64) -> f64, max_t: f64) -> (Option<f64>, f64) {
    let mut prev = 0.0;
    let mut lowest = f64::INFINITY;
    for k in 0..=SAMPLES {
        let t = max_t * k as f64 / SAMPLES as f64;
        let v = f(t);
        lowest = lowest.min(v);
        if v <= 0.0 {
            if k == 0 {
                return (Some(0.0), lowest);
            }
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..BISECTIONS {
                let mid = 0.5 * (lo + hi);
                if f(mid) > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return (Some(hi), lowest);
        }
        prev = t;
    }
    (None, lowest)
}

/// One case: two shapes, their sweeps, the time range and the target.
struct Case<'a> {
    a: &'a TestShape,
    sweep_a: Sweep,
    b: &'a TestShape,
    sweep_b: Sweep,
    max_toi: f32,
    target: f32,
}

/// What a case gave, for counting.
#[derive(Debug, PartialEq)]
enum Judged {
    Hit,
    Miss,
    Overlap,
}

/// Judges collide's answer on `case` against the oracle.
fn judge(case: &Case<'_>) -> Result<Judged, String> {
    let (a, b) = (&case.a.oracle, &case.b.oracle);
    let (sa, sb) = (&case.sweep_a, &case.sweep_b);
    let target = f64::from(case.target);
    let scale = bounding_radius(a)
        + bounding_radius(b)
        + f64::from(sa.pose.translation.vector.norm().max(sb.pose.translation.vector.norm()))
        + f64::from((sa.linear_velocity - sb.linear_velocity).norm() * case.max_toi);
    let slack = DISTANCE_REL * scale;
    let tolerance = TOLERANCE_REL * bounding_radius(a).min(bounding_radius(b));
    let f = |t: f64| separation(a, sa, b, sb, t) - target;
    let got = try_time_of_impact(
        &case.a.shape,
        &case.sweep_a,
        &case.b.shape,
        &case.sweep_b,
        case.max_toi,
        case.target,
    )
    .map_err(|e| format!("error {e}"))?;
    let (crossing, lowest) = first_crossing(f, f64::from(case.max_toi));
    match got {
        TimeOfImpact::InitiallyOverlapping => {
            let at0 = separation(a, sa, b, sb, 0.0);
            if at0 <= slack { Ok(Judged::Overlap) } else { Err(format!("overlap, oracle {at0:e}")) }
        }
        TimeOfImpact::Miss => {
            if lowest > -slack {
                Ok(Judged::Miss)
            } else {
                Err(format!(
                    "miss, but the oracle dips {lowest:e} below the target at {crossing:?}"
                ))
            }
        }
        TimeOfImpact::Hit { toi, distance, .. } => {
            let toi = f64::from(toi);
            let at = f(toi);
            // Within the tolerance of the target at the reported time...
            if !(at > -slack && at <= tolerance + slack) {
                return Err(format!(
                    "hit at {toi}: oracle gap over target {at:e}, tol {tolerance:e}"
                ));
            }
            if !((f64::from(distance) - target - at).abs() <= slack) {
                return Err(format!("hit reports distance {distance}, oracle {}", at + target));
            }
            // ...and never late: no sample before it within the target.
            if let Some(c) = crossing
                && f(c.min(toi)) < -slack
            {
                return Err(format!("hit at {toi} after the oracle's crossing at {c}"));
            }
            Ok(Judged::Hit)
        }
        TimeOfImpact::IterationLimit { toi_lower_bound } => {
            Err(format!("iteration limit at {toi_lower_bound}, oracle crossing {crossing:?}"))
        }
    }
}

/// Judges a case and its A/B swap.
fn judge_both(case: &Case<'_>) -> Result<Judged, String> {
    let first = judge(case)?;
    let swapped = Case {
        a: case.b,
        sweep_a: case.sweep_b,
        b: case.a,
        sweep_b: case.sweep_a,
        max_toi: case.max_toi,
        target: case.target,
    };
    let second = judge(&swapped).map_err(|e| format!("swapped: {e}"))?;
    if first != Judged::Hit && second != Judged::Hit && first != second {
        return Err(format!("{first:?} but swapped {second:?}"));
    }
    Ok(first)
}

/// A sweep spinning about the shape's origin.
fn sweep(pose: Isometry3<f32>, v: Vector3<f32>, w: Vector3<f32>) -> Sweep {
    Sweep { pose, local_center: Point3::origin(), linear_velocity: v, angular_velocity: w }
}

#[test]
fn random_spinning_pairs_against_the_separation() {
    let mut rng = SplitMix64::new(SEED);
    let mut counts = [0usize; 3];
    for scale in [0.01, 1.0, 100.0] {
        for case_index in 0..60 {
            let (Ok(a), Ok(b)) =
                (TestShape::new(params(&mut rng, scale)), TestShape::new(params(&mut rng, scale)))
            else {
                continue;
            };
            let reach = bounding_radius(&a.oracle) + bounding_radius(&b.oracle);
            let pose_a = isometry(&mut rng, 5.0 * scale);
            let dir = rng.unit_vector();
            let gap = reach * rng.range(1.05, 3.0);
            let centre_b = pose_a.translation.vector.cast::<f64>() + dir * gap;
            let pose_b =
                Isometry3::from_parts(Translation3::from(centre_b.cast::<f32>()), rng.rotation());
            // B heads roughly at A, covering about the gap in the unit time,
            // both spinning at up to 6 rad per unit time.
            let aim = -dir + rng.unit_vector() * 0.4;
            let v_b = (aim * gap * rng.range(0.5, 1.5)).cast::<f32>();
            let spin =
                |rng: &mut SplitMix64| (rng.unit_vector() * rng.range(0.0, 6.0)).cast::<f32>();
            let case = Case {
                a: &a,
                sweep_a: sweep(
                    pose_a,
                    (rng.unit_vector() * 0.2 * gap).cast::<f32>(),
                    spin(&mut rng),
                ),
                b: &b,
                sweep_b: sweep(pose_b, v_b, spin(&mut rng)),
                max_toi: 1.0,
                target: (reach * rng.range(0.0, 0.05)) as f32,
            };
            match judge_both(&case) {
                Ok(j) => counts[j as usize] += 1,
                Err(e) => panic!(
                    "scale {scale}, case {case_index}: {} vs {}: {e}",
                    a.params.kind(),
                    b.params.kind()
                ),
            }
        }
    }
    // Both outcomes are exercised.
    assert!(counts[0] > 20 && counts[1] > 20, "hits, misses, overlaps: {counts:?}");
}

/// A shape at `speed` along +x with `spin` (rad/s) across the flight,
/// against a 1 cm wall whose near face is 1 m ahead, over one 1/60 s step.
fn wall_case_result(shape: &TestShape, speed: f32, spin: f32) -> Result<Judged, String> {
    let wall = TestShape::new(tests::Params::Cuboid { half: Vector3::new(0.005, 2.0, 2.0) })?;
    let reach = bounding_radius(&shape.oracle) as f32;
    let start = Isometry3::translation(-0.005 - reach - 0.02, 0.3, -0.1);
    let case = Case {
        a: &wall,
        sweep_a: Sweep::fixed(Isometry3::identity()),
        b: shape,
        sweep_b: sweep(
            start,
            Vector3::new(speed, 0.0, 0.0),
            Vector3::new(0.0, 0.6 * spin, 0.8 * spin),
        ),
        max_toi: 1.0 / 60.0,
        target: 0.005,
    };
    judge_both(&case)
}

/// A thin, elongated hull (1.6 m long, 7 cm thick), of the kind the soak
/// throws.
fn thin_hull() -> tests::Params {
    tests::Params::Hull {
        points: vec![
            Point3::new(0.8, 0.0, 0.0),
            Point3::new(-0.8, 0.1, 0.0),
            Point3::new(0.0, 0.35, 0.035),
            Point3::new(0.0, -0.35, -0.035),
            Point3::new(0.1, 0.0, 0.035),
            Point3::new(-0.1, 0.0, -0.035),
        ],
    }
}

#[test]
fn spinning_plates_capsules_and_hulls_against_a_thin_wall() {
    let shapes = [
        tests::Params::Cuboid { half: Vector3::new(0.01, 0.3, 0.3) },
        tests::Params::Cuboid { half: Vector3::new(0.3, 0.005, 0.2) },
        tests::Params::Capsule { half_height: 0.2, radius: 0.1 },
        tests::Params::Capsule { half_height: 0.4, radius: 0.01 },
        thin_hull(),
        tests::Params::Sphere { radius: 0.1 },
    ];
    let mut hits = 0;
    for params in shapes {
        let shape = TestShape::new(params).unwrap();
        for speed in [0.0, 1.0, 100.0, 2000.0] {
            for spin in [0.0, 30.0, 100.0] {
                match wall_case_result(&shape, speed, spin) {
                    Ok(Judged::Hit) => hits += 1,
                    Ok(_) => {}
                    Err(e) => panic!("{} at {speed} m/s, {spin} rad/s: {e}", shape.params.kind()),
                }
            }
        }
    }
    assert!(hits > 20, "{hits} hits");
}

/// The closed form for a ball B passing a ball A on a straight line at
/// closest centre distance `h`: it first comes within `target` when its
/// centre is `r = ra + rb + target` from A's, at `x = −√(r² − h²)`.
#[test]
fn spheres_just_touching_and_just_missing_the_target() {
    let (ra, rb, target) = (0.5f32, 0.25f32, 0.01f32);
    let a = Sphere::new(ra);
    let b = Sphere::new(rb);
    let reach = f64::from(ra + rb + target);
    // collide's tolerance is at most this (1e-3 of √3 times the smaller
    // radius); a pass three times farther out must miss.
    let tolerance = 1e-3 * 3f64.sqrt() * f64::from(rb);
    let (start_x, speed) = (-10.0f32, 20.0f32);
    for spin in [0.0f32, 50.0] {
        for (h, want_hit) in [(reach - 3.0 * tolerance, true), (reach + 3.0 * tolerance, false)] {
            let sweep_a = Sweep::fixed(Isometry3::identity());
            // A ball spinning about its own centre moves as if it did not.
            let sweep_b = sweep(
                Isometry3::translation(start_x, h as f32, 0.0),
                Vector3::new(speed, 0.0, 0.0),
                Vector3::new(spin, -spin, 0.3 * spin),
            );
            for swap in [false, true] {
                let got = if swap {
                    try_time_of_impact(&b, &sweep_b, &a, &sweep_a, 1.0, target)
                } else {
                    try_time_of_impact(&a, &sweep_a, &b, &sweep_b, 1.0, target)
                }
                .unwrap();
                match (got, want_hit) {
                    (TimeOfImpact::Hit { toi, normal, .. }, true) => {
                        let x = -(reach * reach - h * h).sqrt();
                        let exact = (x - f64::from(start_x)) / f64::from(speed);
                        // Never late, and early by at most the tolerance over
                        // the approach speed along the normal at the hit.
                        let closing = f64::from(speed) * (-x / reach);
                        let early = exact - f64::from(toi);
                        assert!(
                            early > -1e-6 && early <= tolerance / closing + 1e-6,
                            "spin {spin}, swap {swap}: toi {toi}, exact {exact}"
                        );
                        let n = if swap { -normal.into_inner() } else { normal.into_inner() };
                        let c = Vector3::new(start_x + speed * toi, h as f32, 0.0).normalize();
                        assert!((n - c).norm() < 1e-3, "normal {n:?}, expected {c:?}");
                    }
                    (TimeOfImpact::Miss, false) => {}
                    (other, _) => panic!("spin {spin}, swap {swap}, h {h}: {other:?}"),
                }
            }
        }
    }
}

/// A ball turning about a point off its centre: its centre runs on a
/// circle, and it first touches the wall when that circle's arc brings it
/// within reach (closed form: the centre's x is `c + ρ sin(ω t)`).
#[test]
fn ball_swung_on_an_arm_reaches_the_wall_in_closed_form() {
    let wall = Cuboid::new(Vector3::new(0.5, 10.0, 10.0));
    let ball = Shape::from(Sphere::new(0.1));
    // The pivot 1 m left of the wall face (x = 0); the ball 0.6 m from the
    // pivot along −y, swinging towards +x at 4 rad/s about +z.
    let arm = 0.6f32;
    let pivot_x = -1.0f32;
    let swing = Sweep {
        pose: Isometry3::translation(pivot_x, -arm, 0.0),
        local_center: Point3::new(0.0, arm, 0.0),
        linear_velocity: Vector3::new(1.0, 0.0, 0.0),
        angular_velocity: Vector3::new(0.0, 0.0, 4.0),
    };
    let fixed = Sweep::fixed(Isometry3::translation(0.5, 0.0, 0.0));
    let got = try_time_of_impact(&wall, &fixed, &ball, &swing, 1.0, 0.0).unwrap();
    let TimeOfImpact::Hit { toi, .. } = got else { panic!("{got:?}") };
    // Ball centre x(t) = pivot_x + t + arm · sin(4t); touching at x = −0.1.
    let x = |t: f64| -(f64::from(pivot_x) + t + f64::from(arm) * (4.0 * t).sin() + 0.1);
    let (Some(exact), _) = first_crossing(x, 1.0) else { panic!("the oracle finds no contact") };
    let early = exact - f64::from(toi);
    assert!(early > -1e-6 && early < 1e-3, "toi {toi}, exact {exact}");
}

/// Bad input is an error, not a hit or a miss.
#[test]
fn non_finite_sweeps_are_errors() {
    let ball = Sphere::new(1.0);
    let good = Sweep::fixed(Isometry3::identity());
    let mut bad = good;
    bad.angular_velocity.x = f32::NAN;
    assert!(try_time_of_impact(&ball, &good, &ball, &bad, 1.0, 0.0).is_err());
    assert!(try_time_of_impact(&ball, &good, &ball, &good, f32::NAN, 0.0).is_err());
    assert!(try_time_of_impact(&ball, &good, &ball, &good, 1.0, f32::INFINITY).is_err());
}

/// Bodies skimming a ground slab 40 km across, far from its centre, as a
/// sandbox ground is: sliding fast, sinking slowly and spinning. Found in
/// the soak (seed 4, step 24799): a capsule at 404 m/s, 146 rad/s, its
/// lowest point 1.4 cm above the slab, was reported a miss and sank 6 cm
/// in, because the advancement's normal was formed from the closest
/// points, whose x and z carry the slab corners' rounding (1e-3 m), and
/// its tilt turned the sliding speed into apparent separation. The oracle
/// is the f64 separation; the slack is relative to the motion and the
/// shape, not to the slab, since the slab's top is the same everywhere.
#[test]
fn bodies_skimming_a_large_slab_far_from_its_centre() {
    let slab = TestShape::new(tests::Params::Cuboid { half: Vector3::new(20000.0, 0.5, 20000.0) })
        .unwrap();
    let slab_sweep = Sweep::fixed(Isometry3::translation(0.0, -0.5, 0.0));
    let shapes = [
        tests::Params::Capsule { half_height: 0.324_245_8, radius: 0.5 },
        tests::Params::Cuboid { half: Vector3::new(0.5, 0.02, 0.3) },
        thin_hull(),
    ];
    // The soak's pose, turn and motion over its step (1/60 s as the unit).
    let rotation = UnitQuaternion::from_quaternion(collide::nalgebra::Quaternion::new(
        -0.447_221_67,
        -0.186_943_2,
        0.677_697_2,
        0.552_966_24,
    ));
    let v = Vector3::new(-6.718_14, -0.067_659_62, 0.526_497);
    let w = Vector3::new(1.023_678_8, 0.001_690_335, 2.169_040_2);
    let target = 0.005f32;
    for params in shapes {
        let shape = TestShape::new(params).unwrap();
        for x in [0.0f32, -1569.176, 12000.0] {
            // Lowest point 1.4 cm above the slab at the start.
            let at = |y: f32| Isometry3::from_parts(Translation3::new(x, y, 126.28), rotation);
            let probe = sweep(at(0.0), v, w);
            let low = separation(&slab.oracle, &slab_sweep, &shape.oracle, &probe, 0.0);
            let body = sweep(at((0.014 - low) as f32), v, w);
            let f = |t: f64| separation(&slab.oracle, &slab_sweep, &shape.oracle, &body, t);
            let (Some(crossing), _) = first_crossing(|t| f(t) - f64::from(target), 1.0) else {
                panic!("{}: the oracle's motion never reaches the slab", shape.params.kind());
            };
            let slack = DISTANCE_REL * (bounding_radius(&shape.oracle) + f64::from(v.norm()));
            let tolerance = TOLERANCE_REL * bounding_radius(&shape.oracle);
            for swap in [false, true] {
                let got = if swap {
                    try_time_of_impact(&shape.shape, &body, &slab.shape, &slab_sweep, 1.0, target)
                } else {
                    try_time_of_impact(&slab.shape, &slab_sweep, &shape.shape, &body, 1.0, target)
                }
                .unwrap();
                let label = format!("{} at x {x}, swap {swap}", shape.params.kind());
                let TimeOfImpact::Hit { toi, normal, .. } = got else {
                    panic!("{label}: {got:?}, the oracle crosses the target at {crossing}")
                };
                let gap = f(f64::from(toi)) - f64::from(target);
                assert!(
                    gap > -slack && gap <= tolerance + slack,
                    "{label}: toi {toi}, gap {gap:e}"
                );
                // Never late: the oracle is not inside the target before it.
                let before = f(crossing.min(f64::from(toi))) - f64::from(target);
                assert!(before > -slack, "{label}: toi {toi}, oracle crossing {crossing}");
                // The slab's face normal, to f32 rounding.
                let up = if swap { -normal.y } else { normal.y };
                assert!(up > 1.0 - 1e-5, "{label}: normal {normal:?}");
            }
        }
    }
}

/// A triangle of a mesh and a part of a compound lie far from their own
/// frames' origins, the centres their sweeps turn about. The stop
/// tolerance is relative to their size, not to that reach: with the reach
/// (50 m here) it was 5 cm, and a part 3 cm above a triangle, moving 1 cm
/// down, was reported hitting at time 0, 3 cm apart (`trees`' continuous
/// stage, a prism 45 m from its tree's centre on the wave mesh). Oracle:
/// the exact gap of a box above a horizontal triangle, both orders.
#[test]
fn shapes_far_from_their_frames_origins_stop_within_their_own_size() {
    use collide::{ConvexHull, Triangle};
    let far = 50.0f32;
    let triangle = Triangle::try_new(
        Point3::new(far - 1.0, 0.0, -1.0),
        Point3::new(far, 0.0, 1.0),
        Point3::new(far + 1.0, 0.0, -1.0),
    )
    .unwrap();
    let still = Sweep::fixed(Isometry3::identity());
    // A box of half-width 0.25 whose vertices are in a frame 50 m away.
    let corners: Vec<_> = (0..8)
        .map(|k| {
            let s = |bit: usize| if k >> bit & 1 == 1 { 0.25 } else { -0.25 };
            Point3::new(far + s(0), 0.25 + s(1), s(2))
        })
        .collect();
    let part: Shape = ConvexHull::new(&corners).unwrap().into();
    // The part's own size: half its box's diagonal.
    let size = (3.0f32 * 0.25 * 0.25).sqrt();
    for (gap, drop) in [(0.03f32, 0.01f32), (0.03, 0.06), (0.002, 0.004), (0.3, 0.2)] {
        let down = |speed: f32| Sweep {
            pose: Isometry3::translation(0.0, gap, 0.0),
            local_center: Point3::origin(),
            linear_velocity: Vector3::new(0.0, -speed, 0.0),
            angular_velocity: Vector3::zeros(),
        };
        let body = down(drop);
        for swap in [false, true] {
            let got = if swap {
                try_time_of_impact(&triangle, &still, &part, &body, 1.0, 0.0)
            } else {
                try_time_of_impact(&part, &body, &triangle, &still, 1.0, 0.0)
            }
            .unwrap();
            let label = format!("gap {gap}, drop {drop}, swap {swap}: {got:?}");
            if drop < gap {
                assert_eq!(got, TimeOfImpact::Miss, "{label}");
                continue;
            }
            let TimeOfImpact::Hit { toi, distance, .. } = got else { panic!("{label}") };
            // Exact: the box's bottom reaches the plane at gap / drop.
            let exact = gap / drop;
            let left = gap - drop * toi;
            assert!(toi <= exact + 1e-5, "{label}: late, exact {exact}");
            assert!(left <= 1e-3 * size + 1e-5, "{label}: {left} m left, exact {exact}");
            assert!((distance - left).abs() < 1e-5, "{label}: {left}");
        }
    }
}
