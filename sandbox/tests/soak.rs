//! The soak run (`sandbox::tools::soak`, `sandbox soak`): short seeded runs of the
//! library driver and of the command, that the checks can fail, and the
//! failures the soak has found, each with the seed and step that reproduce
//! it and the part of the step that handles it.
//!
//! The check these failures broke is "no dynamic body more than 5 cm below
//! the ground":
//! - **Fast spin after an impact.** A body spinning at tens of rad/s (an
//!   elongated hull at 23 m/s, seed 1 step 74) has its contact manifold
//!   built at the start of the step on the features closest then; other
//!   vertices swing into the ground during the step with no contact. The
//!   sweep-fast-bodies stage (`collision/sweep_fast_bodies.rs`) sweeps such bodies
//!   with their rotation, also past half a turn a step (seed 2: a cube at
//!   230 m/s and 330 rad/s grazing the ground), and moves them back to the
//!   time of impact.
//! - **Tunnelling.** A thin hull (7 cm thick) thrown obliquely at 480 m/s
//!   passes through the 1 m ground unless swept
//!   (`thin_hull_at_480_mps_does_not_pass_through_the_ground`).
//! - **A loaded row dropped.** Seed 2, step 140: a 0.1 g sphere at 100 m/s
//!   touching the ground loses its ground contact if the mass-ratio block
//!   solve drops the loaded ground row together with speculative rows
//!   metres away; the solve's active set starts without rows that would
//!   only pull (`solver/chain_block_solve.rs`).
//! - **No cached pair to sweep against.** Seed 1, step 493: a sphere
//!   knocked into the ground at 400 m/s by a thrown body leaves its fat box
//!   and has no cached pair with the ground; the sweep searches the broad
//!   phase for such bodies' partners.
//! - **A capsule's far end.** A capsule spinning about half a turn per step
//!   with only its nearer end in its manifold, an end its spin carries
//!   upwards all step, is not pushed out of the ground while its far end
//!   swings in (seed 4, step 13464;
//!   `a_capsule_spinning_half_a_turn_per_step_is_pushed_out_of_the_ground`).
//!   The far end is a candidate point too. Over seeds 1 to 8 at 30,000
//!   steps each, this took the failed checks from 1,102 on 61 bodies to 152
//!   on 43.
//!
//! Three more, found by scanning each body's first step more than 5 cm
//! under (together they took seeds 1 to 8 at 30,000 steps from 152 failed
//! checks on 43 bodies to 5 on 4):
//! - **The time of impact missed.** A capsule at 404 m/s and 146 rad/s,
//!   1.4 cm above the ground 1.6 km from its centre, reads as a miss and
//!   sinks 6 cm in if the sweep's normal is formed from the closest points:
//!   their rounding beside the 40 km slab (1e-3 m) tilts it by 0.1 rad, and
//!   the tilt turns the sliding speed into separation speed. The sweep uses
//!   GJK's own direction.
//! - **The ground's corners.** A query against the 40 km ground slab that
//!   carries its corners' rounding reads a hull 5 cm deep as touching and
//!   one 1.4 cm above as overlapping, so the sweep would freeze a hull
//!   sliding at 250 m/s in place, 5.1 cm deep, for 2,400 steps. collide
//!   cuts a box far larger than the other shape to a window around it
//!   (`collide/src/query/window.rs`), and the box–box distance's rounding
//!   allowances follow the numbers they compare, not the pair's size.
//! - **Slow turns.** A hull landing at 2.3 m/s and 6 rad/s, with the
//!   ground as its only contact, can dip a corner 7.8 cm in within one
//!   step: the corner is on no face of its manifold, and the body is not
//!   fast. Any body that moved more than the speculative distance is
//!   checked against the unmoving bodies it has pairs with, and moved back
//!   to the last time it was no deeper than the contacts allow.
//!
//! - **Going back into the ground.** A resting hull struck from above at
//!   133 m/s (seed 13, step 8130) is driven down and out again within the
//!   step's substeps; going back to its time of impact with the striker,
//!   along the straight sweep between its poses, would put it 7 cm into the
//!   ground. A body goes back for a moving partner only as far as the
//!   bodies that stood still allow.
//!
//! - **Going back to a pose between two good ones.** A hull spinning at
//!   193 rad/s (seed 4, step 4458), going back to its impact with a fixed
//!   body, can reach a pose where its turn has swung a corner 10 cm into
//!   the ground, though the ground holds at both ends of the step. It goes
//!   back further, to the last time it was within every still partner's
//!   allowance.
//!
//! `longer_soaks_find_no_failure` runs the seeds these cases came from:
//! seed 6 (13 failed checks in 30,000 steps without any of the above), and
//! seeds 10, 11 and 13 (struck resting bodies sent back into the ground).
//!
//! - **Wedged and creeping bodies.** Light bodies the velocity solve
//!   cannot keep out of the ground: a 1.5 g rod under a 20 kg box that also
//!   rests on the ground (seed 2, step 44348, 5.2 cm in), a 0.18 kg plate
//!   under a rolling 1.5 kg capsule at one substep, creeping 2–3 mm a step
//!   (seed 3, step 72344), a 12 g hull struck 10 cm into the ground at
//!   190 m/s (seed 11, step 35234). A body that ends a step deeper than the
//!   speculative distance in a still body is pushed back out to it
//!   (`collision/still_overlap.rs`; its own tests are in `push_out.rs` and
//!   `mass_ratios.rs`).
//!
//! - **A spin the integrator would clamp.** A capsule landing at 390 m/s
//!   at one substep leaves the solve at 1,395 rad/s, which would triple its
//!   energy for a step (seed 1, step 622,985 of a 10-minute run). A step
//!   ends with the integrator's clamp applied (`fast_bodies.rs` has its
//!   test).
//!
//! With the push-out and the end-of-step clamp, seeds 1 to 16 at 100,000
//! steps failed no check (measured at dcc14d1), and neither did 10-minute
//! runs of seeds 1 to 4 (1.5 to 3.2 million steps each). Open: seed 16
//! fails one check at step 68642, a 34 g hull knocked 5.8 cm into the
//! ground within a step by a capsule at 363 m/s, whose ground pair had no
//! points at the step's start (the push-out looks only at pairs with
//! points).
//!
//! A 1-hour run of seed 2111 at aa46cc6 (7.47 million steps, 747,240
//! bodies added, 582,446 throws) failed the check on 2 bodies (3 counted;
//! 100 failed checks, most of them one body falling on under the ground):
//! - step 1,490,278: a plate (1.28 × 1.95 × 0.064 m) thrown at 348 m/s
//!   strikes a fixed body and leaves the step spinning at 190 rad/s
//!   (3.2 rad a step at 4 substeps), a corner swung 7.2 cm into the
//!   ground; the next step pushes it out. Rebuilt from the plate and the
//!   fixed capsule alone (and the resting box beside them) on a2880dc it
//!   does not sink (its lowest point stays 6 mm or more above the ground
//!   over 10 steps at frictions 0 to 1), so the soak's warm contacts or
//!   its other bodies matter; not a test yet.
//! - step 1,811,111: a small hull at 420 m/s passes through the ground
//!   (`small_hull_thrown_at_420_mps_with_friction_does_not_pass_through_the_ground`):
//!   its core starts the step touching the ground and ends past it, which
//!   the checks for a pair that starts touching did not see; the stage now
//!   sweeps the core back from the solved pose
//!   (`collision/sweep_fast_bodies/core_pass.rs`).
//!
//! A 1-hour run of seed 2217 at e118e13 (2.38 million steps on a loaded
//! machine, 239,219 bodies added, 186,040 throws) failed the check on one
//! body: step 72,380, dynamic body 6 is 0.196 m below the ground's top
//! (`sandbox soak --seed 2217 --steps 72390` reproduces it in about
//! 2.5 minutes). Main's binary (a7e1914) takes a different path from that
//! seed (its run diverges before then) and does not fail by that step, so
//! whether the pass test plays a part is not known. Traced at 47fdc2e
//! (`--seconds 450` needed: the default 10 s stops the run first): a thin
//! plate skimming the ground at 235 m/s strikes a small fixed hull and
//! leaves the step spinning with a corner in the ground; rebuilt from the
//! two bodies alone it sank 13.5 cm at friction 0.3
//! (`plate_struck_off_a_fixed_body_does_not_end_in_the_ground`): the
//! guard against going back into still bodies did not see the ground,
//! met only through the search for bodies that left their box; it does
//! now. Last session's 7.2 cm plate (seed 2111 above) is the same
//! pattern.
//!
//! A 1-hour run of seed 99 at b02a2b0 (2026-12-01, 01:11-02:11 UTC, at
//! `nice 19` beside four builds, load 3-8: 4,434,400 steps, 442,565 bodies
//! added, 344,885 throws up to 500 m/s, 35,483 sleep switches and 35,138
//! substep changes) failed no check. The seed-99 failure (step
//! 775,888, a body 6.3 cm under the ground, on an earlier main) is not on
//! this run's path: the run diverges from that one long before, as every
//! change to the step does, and that failing build's pose was not kept, so
//! it has no regression test of its own.

#[cfg(feature = "cli")]
use std::process::Command;

use collide::nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use collide::{ConvexHull, Cuboid};
use sandbox::tools::soak::{QUIET_STEPS, Soak, SoakConfig, SoakReport};
use sandbox::{BodyDesc, World};

/// Steps of each CI run: long enough for the first active phase (at most
/// 240 steps) and a whole quiet window ([`QUIET_STEPS`]), short enough for a
/// debug build (about 10 s a seed here).
const CI_STEPS: u64 = 240 + QUIET_STEPS as u64 + 180;

/// Seeds of the CI runs.
const CI_SEEDS: [u64; 2] = [1, 2];

/// A world at `substeps` with the soak's fixed ground, 1 m thick with its
/// top at y = 0, `half_width` metres each way.
fn world_on_ground(substeps: u32, half_width: f32) -> World {
    let mut world = World::with_settings(sandbox::StepSettings {
        substeps,
        ..sandbox::StepSettings::default()
    })
    .unwrap();
    let ground = Cuboid::new(Vector3::new(half_width, 0.5, half_width));
    world
        .add_body(BodyDesc::fixed(ground.into()).with_position(Vector3::new(0.0, -0.5, 0.0)))
        .unwrap();
    world
}

fn run(seed: u64, steps: u64) -> SoakReport {
    let mut soak = Soak::new(SoakConfig::new(seed)).unwrap();
    for _ in 0..steps {
        if !soak.step() {
            break;
        }
    }
    soak.report().clone()
}

#[test]
fn soak_finds_no_failure() {
    for seed in CI_SEEDS {
        let report = run(seed, CI_STEPS);
        assert_eq!(report.failure_count, 0, "{report}");
    }
}

/// The seeds the cases above came from, at 30,000 steps each (about
/// 5 s a seed in a release build), and seed 4 up to just past its spinning
/// hull (step 4458).
#[test]
fn longer_soaks_find_no_failure() {
    for (seed, steps) in [(6, 30_000), (10, 30_000), (11, 30_000), (13, 30_000), (4, 4_500)] {
        let report = run(seed, steps);
        assert_eq!(report.failure_count, 0, "{report}");
    }
}

/// A seed replays the same run: same totals, same failures, same world.
#[test]
fn a_seed_replays_the_same_run() {
    let steps = 200;
    let mut a = Soak::new(SoakConfig::new(9)).unwrap();
    let mut b = Soak::new(SoakConfig::new(9)).unwrap();
    for _ in 0..steps {
        a.step();
        b.step();
    }
    assert_eq!(a.report(), b.report());
    assert_eq!(a.world().pose_hash(), b.world().pose_hash());
    let mut c = Soak::new(SoakConfig::new(10)).unwrap();
    for _ in 0..steps {
        c.step();
    }
    assert_ne!(a.world().pose_hash(), c.world().pose_hash(), "the seed changes nothing");
}

/// `sandbox soak` prints the totals and exits 0 exactly when no check
/// failed; a failure names its step and seed on stderr.
#[test]
#[cfg(feature = "cli")]
fn the_command_prints_a_summary_and_fails_with_the_step_and_seed() {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["soak", "--seconds", "1000", "--steps", "120", "--seed", "1"])
        .output()
        .expect("runs the binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    for field in
        ["steps             120 ", "bodies added", "bodies touched", "impulses", "teleports"]
    {
        assert!(stdout.contains(field), "no {field:?} in:\n{stdout}");
    }
    let failures: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("failures"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no failure count in:\n{stdout}"));
    if failures == 0 {
        assert!(out.status.success(), "{stderr}");
    } else {
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("(seed 1)") && stderr.contains("step "), "{stderr}");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["soak", "--seconds", "-1"])
        .output()
        .expect("runs the binary");
    assert_eq!(bad.status.code(), Some(2));
}

/// Found by the soak (seed 2, step 31): a thin hull, 7 cm thick and 1.7 m
/// across, thrown at 480 m/s obliquely at the ground (1 m thick), passed
/// through it and fell on under it. No body up to 2,000 m/s may pass
/// through a 1 cm wall; the sweep stage stops it.
#[test]
fn thin_hull_at_480_mps_does_not_pass_through_the_ground() {
    let points: Vec<Point3<f32>> = [
        [0.459, -0.205, -0.031],
        [0.038, 0.352, -0.017],
        [0.806, -0.053, -0.020],
        [0.872, -0.021, 0.012],
        [-0.023, 0.288, -0.030],
        [-0.859, 0.097, -0.008],
        [-0.649, 0.103, 0.029],
        [-0.549, 0.301, -0.003],
        [-0.408, -0.333, 0.008],
        [0.363, -0.171, 0.036],
        [-0.605, -0.145, 0.029],
        [-0.670, -0.200, 0.019],
        [0.383, -0.016, 0.041],
        [-0.589, -0.288, 0.000],
        [-0.418, 0.312, -0.015],
        [0.283, 0.332, 0.017],
        [-0.827, 0.142, -0.007],
        [0.665, -0.067, 0.030],
        [0.237, 0.360, 0.008],
        [0.565, 0.289, -0.008],
        [0.654, -0.220, 0.017],
        [-0.646, 0.042, -0.031],
        [-0.006, -0.380, 0.000],
        [-0.833, 0.045, 0.017],
    ]
    .iter()
    .map(|p| Point3::new(p[0], p[1], p[2]))
    .collect();
    let hull = ConvexHull::new(&points).unwrap();
    let mut world = World::new();
    let ground = Cuboid::new(Vector3::new(1e3, 0.5, 1e3));
    world
        .add_body(BodyDesc::fixed(ground.into()).with_position(Vector3::new(0.0, -0.5, 0.0)))
        .unwrap();
    let mut desc = BodyDesc::dynamic(hull.into()).with_friction(0.7);
    desc.pose = Isometry3::from_parts(
        Translation3::new(6.16, 6.49, 9.93),
        UnitQuaternion::from_quaternion(Quaternion::new(0.224, 0.382, -0.351, -0.825)),
    );
    desc.linear_velocity = Vector3::new(253.1, -348.2, -212.2);
    let body = world.add_body(desc).unwrap();
    for step in 0..60 {
        world.step(1.0 / 60.0);
        world.validate().unwrap();
        let y = world.pose(body).unwrap().translation.y;
        // The hull's half-thickness is under 5 cm: its centre can be no
        // lower than that, plus the 5 cm the soak allows.
        assert!(y > -0.05, "step {step}: centre at y = {y}, under the ground");
    }
}

/// Found by the soak (seed 4, step 13464): a 3 g capsule spinning at
/// 188 rad/s, half a turn per step, sank into the ground and slid on
/// inside the slab for over 60 steps, its velocity changed by gravity
/// alone. The manifold held only the capsule's nearer end, whose spin
/// carried it upwards at ~27 m/s for the whole step, so the solver never
/// pushed; the far end, swinging down, had no point. The far end is
/// a candidate too, kept within the speculative distance. Here the
/// capsule starts 29 cm into the ground with the soak's velocities; with
/// the near end alone it sank to 54 cm in four steps.
#[test]
fn a_capsule_spinning_half_a_turn_per_step_is_pushed_out_of_the_ground() {
    let mut world = world_on_ground(4, 2e4);
    let capsule = collide::Capsule::new(0.146_895, 0.041_910);
    let body = world
        .add_body(
            BodyDesc::dynamic(capsule.into())
                .with_position(Vector3::new(-193.44, -0.193, -379.07))
                .with_rotation(UnitQuaternion::from_euler_angles(0.3, 0.2, 1.1))
                .with_linear_velocity(Vector3::new(-214.23, -2.458, -365.29))
                .with_angular_velocity(Vector3::new(-71.23, 1.272, 174.52)),
        )
        .unwrap();
    let lowest = |world: &World| {
        let pose = world.pose(body).unwrap();
        let down = pose.inverse_transform_vector(&-Vector3::y());
        (pose * collide::SupportMap::local_support(world.shape(body).unwrap(), &down)).y
    };
    let start = lowest(&world);
    for step in 0..4 {
        world.step(1.0 / 60.0);
        world.validate().unwrap();
        let low = lowest(&world);
        assert!(low > start, "step {step}: lowest point {low} m, from {start} m");
    }
    let vy = world.linear_velocity(body).unwrap().y;
    assert!(vy > 0.0, "still sinking at {vy} m/s");
}

/// Found by a 1-hour soak (seed 2111, step 1,811,111 of 7.47 million, at
/// aa46cc6): a small tetrahedron (0.16 m across, 4.2 cm at its thinnest)
/// thrown at 420 m/s obliquely into the 1 m ground passes through it.
/// Rebuilt here from the soak's pose and velocity one step before it
/// reaches the ground, with any friction from 0.1 to 1 (at friction 0 the
/// solve stops it and it lands 1.9 cm deep). What happens:
/// - the first step, the sweep stops it at the surface (speculative and
///   time-of-impact, as it should), but the contact solve takes its
///   downward speed only from 270 to 215 m/s, and the next step only to
///   178 m/s (at friction 0: 213, then 41): with friction the normal
///   impulse is not delivered (the friction at the manifold's centre turns
///   the body, as in the fast spinning shots, `tests/tests/fast_spinning.rs`);
/// - the third step starts 1.7 cm deep, within the 2 cm the stage allows
///   it, so its sweep reads `InitiallyOverlapping`; its core sphere starts
///   inside the ground too (no time of impact after 0), and its solved pose
///   is 1.2 m lower, entirely under the slab, where the depth is 0. Both of
///   the stage's checks for a pair that starts touching (the core's
///   impact, the depth at the end) pass, so it falls on under the ground.
///
/// Fixed in the continuous stage (`collision/sweep_fast_bodies/core_pass.rs`):
/// a body that starts touching is also swept backward, its core from its
/// solved pose; a core that left the other body through a side facing
/// away from the contact normal at the step's start passed through it,
/// and the body goes back to the last time its centre was in front of
/// that contact plane and it was within its allowance. The solve's part
/// (the normal impulse that friction takes away) is left as it is.
#[test]
fn small_hull_thrown_at_420_mps_with_friction_does_not_pass_through_the_ground() {
    let points: Vec<Point3<f32>> = [
        [-0.016_938_537, 0.099_762_81, 0.112_106_614],
        [-0.014_125_782, 0.156_054_82, 0.001_614_100_9],
        [0.002_979_434_6, 0.149_677_37, -0.043_570_716],
        [0.109_739_065, -0.075_656_34, -0.070_648_916],
    ]
    .iter()
    .map(|p| Point3::new(p[0], p[1], p[2]))
    .collect();
    let hull = ConvexHull::new(&points).unwrap();
    for tenth in [1, 5, 10] {
        let friction = tenth as f32 / 10.0;
        let mut world = world_on_ground(3, 2e3);
        let mut desc = BodyDesc::dynamic(hull.clone().into()).with_friction(friction);
        desc.pose = Isometry3::from_parts(
            Translation3::new(8.176_621, 0.464_051_54, 15.778_444),
            UnitQuaternion::from_quaternion(Quaternion::new(
                0.232_366_56,
                0.794_929_9,
                -0.504_501,
                0.244_071_53,
            )),
        );
        desc.linear_velocity = Vector3::new(274.0154, -270.06387, 144.91579);
        let body = world.add_body(desc).unwrap();
        stays_above_ground(&mut world, body, &hull, 30, friction);
    }
}

/// Steps `world` `steps` times, validating it, and asserts that `body`
/// (of shape `hull`) never ends a step with its lowest point more than the
/// soak's bound, 5 cm, below the ground's top (written so that NaN fails).
fn stays_above_ground(
    world: &mut World,
    body: sandbox::BodyId,
    hull: &ConvexHull,
    steps: usize,
    friction: f32,
) {
    for step in 0..steps {
        world.step(1.0 / 60.0);
        world.validate().unwrap();
        let pose = world.pose(body).unwrap();
        let down = pose.inverse_transform_vector(&-Vector3::y());
        let low = (pose * collide::SupportMap::local_support(hull, &down)).y;
        assert!(low > -0.05, "friction {friction}, step {step}: lowest point at {low} m");
    }
}

/// Soak seed 2217, step 72,380 (1-hour run at e118e13; it reproduces on
/// 47fdc2e): a thin hull plate (half-extents about 0.19 × 0.89 × 0.85 m)
/// skimming the ground at 235 m/s strikes a small fixed hull and leaves
/// the step spinning at about 240 rad/s (4 rad a step) with a corner in
/// the ground. Rebuilt here from the two bodies and the ground alone, at
/// their poses and velocities after step 72,379 and the soak's 5
/// substeps: at friction 0.3 the plate's lowest point is 13.5 cm below the
/// ground's top after one step (friction 0: 1.7 cm after two; 0.6 and 1:
/// clear). The plate had no cached pair with the ground (its box at the
/// step's start did not reach it); the continuous stage met the ground
/// only through its search for bodies that left their box, and its guard
/// against going back into still bodies walked only cached pairs, so the
/// plate went back to its time of impact with the fixed hull, where the
/// straight sweep's 4-rad turn had swung a corner into the ground. The
/// guard now walks the pairs that search met too.
#[test]
fn plate_struck_off_a_fixed_body_does_not_end_in_the_ground() {
    fn hull(points: &[[f32; 3]]) -> ConvexHull {
        let points: Vec<Point3<f32>> =
            points.iter().map(|p| Point3::new(p[0], p[1], p[2])).collect();
        ConvexHull::new(&points).unwrap()
    }
    // Poses as the soak printed them: translation, quaternion [i, j, k, w].
    fn pose(t: [f32; 3], q: [f32; 4]) -> Isometry3<f32> {
        Isometry3::from_parts(
            Translation3::new(t[0], t[1], t[2]),
            UnitQuaternion::from_quaternion(Quaternion::new(q[3], q[0], q[1], q[2])),
        )
    }
    let plate = hull(&[
        [-0.010_769_627, -0.821_305_75, -0.419_632_76],
        [-0.098_523_03, 0.095_889_46, 0.794_848_74],
        [0.194_651_93, 0.013_307_756, 0.019_423_531],
        [0.119_252_75, -0.034_899_317, -0.732_977_87],
        [0.130_441_74, 0.608_563_36, 0.316_239_86],
        [0.067_315_675, 0.172_080_67, 0.853_662_1],
        [-0.166_428_98, -0.182_935_77, -0.445_297_2],
        [-0.013_902_481, 0.888_496_46, -0.240_862_07],
        [0.036_704_198, -0.398_278_65, -0.818_829_3],
        [0.061_967_008, -0.262_419_94, 0.839_471],
        [-0.083_902_55, -0.691_470_44, 0.466_475_4],
        [-0.096_179_9, 0.206_802_71, 0.779_846_6],
        [0.017_076_444, 0.711_713_97, 0.584_986_1],
        [0.012_451_766, -0.833_520_05, -0.393_368],
        [-0.192_420_9, -0.104_717_96, -0.095_293_72],
        [0.066_375_725, -0.749_353_7, 0.439_340_23],
        [0.052_721_36, -0.857_652, -0.231_876_16],
        [0.127_998_98, -0.200_110_35, -0.669_921_3],
        [-0.135_499_54, 0.100_415_77, 0.658_946_63],
    ]);
    let rock = hull(&[
        [0.099_244_34, 0.166_687_64, -0.175_617_64],
        [-0.030_221_788, 0.285_737_2, 0.237_767_12],
        [-0.027_884_567, 0.230_918_32, -0.280_397_53],
        [-0.114_505_86, 0.056_836_113, 0.158_447_52],
        [0.102_080_05, 0.234_408_89, 0.080_074_415],
        [-0.043_727_215, -0.298_408_15, 0.208_969_01],
        [-0.068_594_35, -0.063_741_244, -0.293_910_5],
        [-0.100_561_09, 0.245_431_81, -0.068_846_31],
        [0.074_632_74, 0.273_471_03, 0.165_387_03],
        [-0.048_652_675, -0.181_011_86, 0.286_752_05],
        [0.124_505_386, -0.034_754_336, -0.094_940_23],
        [0.128_318_94, 0.041_953_55, -0.038_770_836],
        [-0.020_055_713, 0.330_440_76, -0.199_463_71],
    ]);
    for tenth in [0, 3, 6, 10] {
        let friction = tenth as f32 / 10.0;
        let mut world = world_on_ground(5, 2e3);
        let mut fixed = BodyDesc::fixed(rock.clone().into()).with_friction(friction);
        fixed.pose = pose(
            [9.871_29, 0.956_710_2, -3.543_899_5],
            [-0.272_863_84, -0.677_994_9, 0.351_300_4, 0.585_197_7],
        );
        world.add_body(fixed).unwrap();
        let mut desc = BodyDesc::dynamic(plate.clone().into()).with_friction(friction);
        desc.pose = pose(
            [8.662_542, 0.583_151_46, -1.841_812_5],
            [-0.561_073_84, 0.684_073_9, 0.294_670_73, -0.361_120_7],
        );
        desc.linear_velocity = Vector3::new(164.581_56, 7.128_629_7, -167.334_95);
        desc.angular_velocity = Vector3::new(-0.014_607_102, -0.004_954_89, -0.114_116_5);
        let body = world.add_body(desc).unwrap();
        stays_above_ground(&mut world, body, &plate, 5, friction);
    }
}
