//! Fast spinning bodies against a 1 cm static wall, in the sandbox and in
//! rapier3d 0.36 (with CCD enabled on the body, and its default speed and
//! spin caps lifted so that it flies the shot fired) side by side: issue 41's
//! restated contract. A body of every shape kind (sphere, cuboid, capsule,
//! hull, cylinder, cone, rounded cuboid) is fired at 100, 500 and
//! 2,000 m/s, spinning at 10, 40 and 100 rad/s about an axis across its
//! flight, at a wall 1 cm thick, with restitution 0 and the same friction
//! and density in both engines. After 1 s the sandbox's body
//! - never passed the wall (its centre never reached the wall's far face);
//! - gained no kinetic energy, translational plus rotational, within 1 %;
//! - rebounds no faster than rapier3d's body in the same shot, plus
//!   [`REBOUND_ALLOWANCE`] (1 m/s).
//!
//! The oracle is the other engine and the energies each one reports of its
//! own body; no code is shared between the two runs. The table of every
//! shot is printed (`--nocapture`). The first two parts hold for every
//! shot. The rebound is compared only in the shots where rapier3d's own
//! body stays on its side of the wall (47 of the 63): where it passes, it
//! has no rebound to compare with (see
//! [`fast_spinning_bodies_rebound_no_faster_than_rapier3d`]). It holds for
//! 37 of those 47 (its test is ignored, with the numbers).
//!
//! Why against rapier rather than a closed form: a tumbling non-round body
//! can rebound from a wall even when every contact is plastic (it rocks
//! onto its next corner and the spin's energy pushes it off), so "at rest
//! with `e = 0`" holds only for spheres and for bodies that do not spin
//! (`sandbox/tests/fast_bodies.rs` keeps those contracts). How fast it may
//! come back is what a reference engine does with the same shot.

use collide::Cuboid;
use collide::nalgebra::{Isometry3, Vector3};
use rapier3d::prelude::{MassProperties, Matrix, PhysicsWorld, RigidBodyBuilder, Vector};
use sandbox::{BodyDesc, StepSettings, World};

mod fast_spinning_shots;
use fast_spinning_shots::{
    DENSITY, DT, KINDS, Kind, START_GAP, WALL_HALF_SIZE, WALL_HALF_THICKNESS,
    fly_the_shot_uncapped, rapier_wall_world,
};

/// Steps flown: 1 s, long after the impact at every speed tried.
const STEPS: usize = 60;
/// Friction of body and wall in both engines (the sandbox's default; the
/// sandbox's geometric mean and rapier's average both give 0.6).
const FRICTION: f32 = 0.6;
/// Speeds fired, m/s.
const SPEEDS: [f32; 3] = [100.0, 500.0, 2000.0];
/// Spins, rad/s, about the axis (0, 0.6, 0.8): across the flight.
const SPINS: [f32; 3] = [10.0, 40.0, 100.0];
/// How much faster than rapier3d's the sandbox's rebound may be, m/s (the
/// issue's "plus 1 m/s").
const REBOUND_ALLOWANCE: f32 = 1.0;
/// Relative kinetic energy the sandbox's body may gain (the 1 %).
const ENERGY_ALLOWANCE: f64 = 0.01;

/// Whether a body whose origin moved from `from` to `to` in a step
/// passed through the wall: it ended inside the wall's slab within its
/// face, or its path crossed the wall's mid-plane (x = 0) within the face.
/// A body deflected along the wall that goes around its edge (the hull at
/// 2,000 m/s leaves the impact at 360 m/s downwards and is 6 m below the
/// 4 m wall a step later) has not passed through it. NaN counts as passed.
fn passed_through(from: Vector3<f32>, to: Vector3<f32>) -> bool {
    let within = |p: Vector3<f32>| p.y.abs() <= WALL_HALF_SIZE && p.z.abs() <= WALL_HALF_SIZE;
    if !to.iter().all(|x| x.is_finite()) {
        return true;
    }
    if to.x.abs() < WALL_HALF_THICKNESS && within(to) {
        return true;
    }
    if from.x < 0.0 && to.x >= 0.0 {
        let t = -from.x / (to.x - from.x);
        return within(from + (to - from) * t);
    }
    false
}

/// What one engine did with one shot.
#[derive(Clone, Copy, Debug)]
struct Shot {
    /// Whether the body's origin ever passed through the wall
    /// ([`passed_through`]).
    passed: bool,
    /// Kinetic energy (translation plus rotation) before and after, J.
    energy_before: f64,
    energy_after: f64,
    /// Speed back from the wall along the flight after [`STEPS`] steps,
    /// m/s (negative: still going towards or through it).
    rebound: f32,
}

/// The start: the body's centre this far before the wall's near face.
fn start_x(reach: f32) -> f32 {
    -(WALL_HALF_THICKNESS + START_GAP + reach)
}

/// The spin vector of `spin` rad/s.
fn spin_vector(spin: f32) -> Vector3<f32> {
    Vector3::new(0.0, 0.6 * spin, 0.8 * spin)
}

/// The sandbox's body's kinetic energy, f64.
fn sandbox_energy(w: &World, id: sandbox::BodyId) -> f64 {
    let m = w.mass_properties(id).unwrap();
    let r = w.pose(id).unwrap().rotation.to_rotation_matrix();
    let inertia = r.matrix() * m.inertia * r.matrix().transpose();
    let (v, omega) = (w.linear_velocity(id).unwrap(), w.angular_velocity(id).unwrap());
    let linear = 0.5 * f64::from(m.mass) * f64::from(v.norm_squared());
    let rotational = 0.5 * f64::from(omega.dot(&(inertia * omega)));
    linear + rotational
}

fn fire_sandbox(kind: Kind, speed: f32, spin: f32) -> Shot {
    let settings =
        StepSettings { gravity: Vector3::zeros(), sleep_enabled: false, ..StepSettings::default() };
    let mut w = World::with_settings(settings).unwrap();
    let wall = Cuboid::new(Vector3::new(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE));
    w.add_body(BodyDesc::fixed(wall.into()).with_friction(FRICTION)).unwrap();
    let body = BodyDesc::dynamic(kind.collide()).with_friction(FRICTION).with_density(DENSITY);
    let id = w.add_body(body).unwrap();
    let aabb = sandbox::Aabb::of_shape(w.shape(id).unwrap(), &Isometry3::identity());
    let reach = (aabb.max - aabb.min).norm() * 0.5;
    w.set_pose(id, Isometry3::translation(start_x(reach), 0.0, 0.0)).unwrap();
    w.set_linear_velocity(id, Vector3::new(speed, 0.0, 0.0)).unwrap();
    w.set_angular_velocity(id, spin_vector(spin)).unwrap();
    let energy_before = sandbox_energy(&w, id);
    let mut passed = false;
    let mut at = w.pose(id).unwrap().translation.vector;
    for _ in 0..STEPS {
        w.step(DT);
        w.validate().unwrap();
        // A removed body (non-finite state) counts as passed.
        let to = w.pose(id).map_or(Vector3::repeat(f32::NAN), |p| p.translation.vector);
        passed |= passed_through(at, to);
        at = to;
    }
    let alive = w.pose(id).is_some();
    Shot {
        passed,
        energy_before,
        energy_after: if alive { sandbox_energy(&w, id) } else { f64::NAN },
        rebound: -w.linear_velocity(id).map_or(f32::NAN, |v| v.x),
    }
}

/// rapier3d's body for a shot: fired along +x from `x` at `speed`, spinning
/// at `spin` about the shots' axis, never asleep, with CCD, and allowed
/// to spin faster than rapier's default cap.
fn rapier_shot_body(speed: f32, spin: f32, x: f32) -> RigidBodyBuilder {
    let w = spin_vector(spin);
    RigidBodyBuilder::dynamic()
        .translation(Vector::new(x, 0.0, 0.0))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .angvel(Vector::new(w.x, w.y, w.z))
        .can_sleep(false)
        .ccd_enabled(true)
        .allow_fast_rotation(true)
}

fn fire_rapier(kind: Kind, speed: f32, spin: f32) -> Shot {
    let mut world = rapier_wall_world(FRICTION);
    assert_eq!(world.integration_parameters.dt, DT, "rapier's default step changed");
    // collide's mass properties (see `both_engines_fire_the_same_bodies`).
    let mass = collide::MassProperties::from_shape(&kind.collide(), DENSITY);
    let inertia = Matrix::from_cols_array(&mass.inertia.as_slice().try_into().unwrap());
    let center = mass.local_center;
    let collider =
        kind.rapier().friction(FRICTION).mass_properties(MassProperties::with_inertia_matrix(
            Vector::new(center.x, center.y, center.z),
            mass.mass,
            inertia,
        ));
    let reach = {
        let c = collider.clone().build();
        let aabb = c.compute_aabb();
        (aabb.maxs - aabb.mins).length() * 0.5
    };
    let body = rapier_shot_body(speed, spin, start_x(reach));
    let handle = world.insert(body, collider).0;
    let energy_before = f64::from(world.bodies[handle].kinetic_energy());
    let mut passed = false;
    let vector = |t: Vector| Vector3::new(t.x, t.y, t.z);
    let mut at = vector(world.bodies[handle].translation());
    for _ in 0..STEPS {
        world.step();
        let to = vector(world.bodies[handle].translation());
        passed |= passed_through(at, to);
        at = to;
    }
    let b = &world.bodies[handle];
    Shot {
        passed,
        energy_before,
        energy_after: f64::from(b.kinetic_energy()),
        rebound: -b.linvel().x,
    }
}

/// One shot fired in both engines.
struct Pair {
    label: String,
    ours: Shot,
    theirs: Shot,
}

/// Every shape kind at every speed and spin, in both engines, with the
/// table printed.
fn every_shot() -> Vec<Pair> {
    println!(
        "| shape | v (m/s) | spin (rad/s) | rebound, sandbox | rebound, rapier3d | \
         E after / before, sandbox | rapier3d |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut pairs = Vec::new();
    for kind in KINDS {
        for speed in SPEEDS {
            for spin in SPINS {
                let ours = fire_sandbox(kind, speed, spin);
                let theirs = fire_rapier(kind, speed, spin);
                let (name, ratio) = (kind.name(), |s: &Shot| s.energy_after / s.energy_before);
                println!(
                    "| {name} | {speed} | {spin} | {:.2}{} | {:.2}{} | {:.4} | {:.4} |",
                    ours.rebound,
                    if ours.passed { " (passed)" } else { "" },
                    theirs.rebound,
                    if theirs.passed { " (passed)" } else { "" },
                    ratio(&ours),
                    ratio(&theirs),
                );
                let label = format!("{name} at {speed} m/s, {spin} rad/s");
                pairs.push(Pair { label, ours, theirs });
            }
        }
    }
    pairs
}

/// Asserts `holds` of every shot, listing those it fails.
fn assert_every_shot(what: &str, holds: impl Fn(&Pair) -> Option<String>) {
    assert_compared_shots(what, |_| true, holds);
}

/// Asserts `holds` of every shot that `compared` keeps, listing those it
/// fails; the shots left out are printed, and fail the test if they are
/// half of all or more (a comparison that skips most shots tests little).
fn assert_compared_shots(
    what: &str,
    compared: impl Fn(&Pair) -> bool,
    holds: impl Fn(&Pair) -> Option<String>,
) {
    let pairs = every_shot();
    let (kept, left_out): (Vec<&Pair>, Vec<&Pair>) = pairs.iter().partition(|p| compared(p));
    for p in &left_out {
        println!("left out: {}", p.label);
    }
    assert!(2 * kept.len() > pairs.len(), "only {} of {} shots compared", kept.len(), pairs.len());
    let failures: Vec<String> = kept.iter().copied().filter_map(holds).collect();
    assert!(
        failures.is_empty(),
        "{} of {} shots compared {what}:\n{}",
        failures.len(),
        kept.len(),
        failures.join("\n")
    );
}

/// The sandbox's body never passes the wall.
#[test]
fn fast_spinning_bodies_never_pass_a_1_cm_wall() {
    assert_every_shot("passed the wall", |p| p.ours.passed.then(|| p.label.clone()));
}

/// The sandbox's body gains no kinetic energy (within 1 %).
#[test]
fn fast_spinning_bodies_gain_no_kinetic_energy() {
    assert_every_shot("gained kinetic energy", |p| {
        // Written so that NaN fails.
        let held = p.ours.energy_after <= p.ours.energy_before * (1.0 + ENERGY_ALLOWANCE);
        (!held).then(|| {
            format!("{}: {} J -> {} J", p.label, p.ours.energy_before, p.ours.energy_after)
        })
    });
}

/// The sandbox's body rebounds no faster than rapier3d's plus 1 m/s, in
/// every shot where rapier3d's body does not pass the wall.
///
/// Why the shots where rapier3d's body passes are left out: its rebound
/// there is no reference, it is the speed at which it went on beyond the
/// wall, and counting it as 0 (as this test did until issue 41's
/// twenty-eighth session) held the sandbox to a closed form ("at rest")
/// that the module doc says is wrong for a tumbling body. At 3fc4c7e they
/// are 16 of the 63, printed "(passed)" in the table: every sphere at
/// 2,000 m/s (the sandbox: 0.00 m/s), the cuboid at 500 m/s, 100 rad/s
/// (rapier3d -9.49, the sandbox 4.65), the capsule at 500 m/s, 100 rad/s
/// (-1.29; 1.34), the hull at 100 m/s, 100 rad/s (-12.05, ending with
/// 0.37 of its energy; 12.32), at 500 m/s, 10 rad/s (-1.88; -6.53) and at
/// 2,000 m/s, 10 and 40 rad/s (-9.75 and -5.65; -21.42, deflected round
/// the wall's edge), the cone at 500 m/s, 10 rad/s (-17.55; 31.55) and at
/// 2,000 m/s, 10 and 40 rad/s (-142.84 and -73.10; -76.95, deflected), the
/// rounded cuboid at 100 m/s, 40 and 100 rad/s (-12.24 and -15.81; 3.39
/// and 3.05), at 500 m/s, 40 rad/s (-21.52; 12.95) and at 2,000 m/s,
/// 100 rad/s (33.98 after passing; 10.49). The sandbox's body stays and
/// gains no energy in all of them: the first two tests hold it there.
///
/// Found: the rebound was made in the contact solve's impact step. The
/// relax pass solved the normals and then the friction at the manifold's
/// centre, and ended on the friction, whose impulse turns the body and so
/// moves every point's normal velocity; at an impact (the cuboid at
/// 100 m/s, 10 rad/s: a normal impulse of 2,167 N s at one corner, and
/// 1,121 N s of friction against the slip that impulse's spin made) the
/// next substeps' warm starts applied it again, the push pass (normals
/// only) could not take the friction's part back, and the spin carried
/// into the next corners: 66 m/s towards the wall to 10.1 m/s back within
/// one step (0.9 m/s at friction 0). The relax pass now solves the normals
/// again after the friction while the friction moved a point's normal
/// velocity by more than the push-out speed (`MAX_FRICTION_ROUNDS` in
/// `sandbox/src/solver/simd_batch.rs`): 30 failing shots of 63 became 16,
/// the cuboid's 10.1 m/s 2.2 m/s (rapier3d 2.5), the hull's 26.1 at
/// 500 m/s, 10 rad/s now none (it is deflected round the wall's edge).
/// With the sweeps' tolerance (2.4 cm/s) in place of the push-out speed
/// 14 failed, but falling-boxes 1000 took 11 % longer a step.
///
/// Open, at 3fc4c7e (session 28): 10 of the 47 shots where rapier3d's
/// body stays, listed below as "the other 10" (unchanged since session
/// 23). Traced (`fast_spinning_trace`), every one is cause 1 below: the
/// impact is solved in one step on speculative points found 1.7 m (at
/// 100 m/s) or 5.1 m (at 500 m/s) away, with the step's start lever
/// arms, while the body turns 0.67 to 1.67 rad; the body leaves that step
/// still flying at the wall (x velocity 36, 45, 38, 57, 55 and 20 m/s for
/// the cuboid at 100 m/s, 40 and 100 rad/s, the capsule at 40 and
/// 100 rad/s, the cylinder at 100 rad/s and the rounded cuboid at
/// 10 rad/s) and spinning faster (the cylinder 100 to 296 rad/s), and a
/// second impact a step later sends it back. rapier3d's CCD stops its body
/// at the time of impact with its velocity, and the next step solves one
/// impact on fresh contacts (the capsule at 100 m/s, 40 rad/s: 1,606 N s
/// at one point, then -0.44 m/s). Friction is much of the excess: at
/// friction 0 in both engines (`fast_spinning_trace ... 8 0`) 4 of the 10
/// still fail (the cuboid at 100 m/s, 40 and 100 rad/s: 4.56 and 3.64
/// against 2.58 and 0.65; the capsule at 100 m/s, 100 rad/s: 13.87 against
/// 0.96; the hull at 500 m/s, 100 rad/s: 13.17 against 2.00).
///
/// Stopping at the time of impact, as rapier3d does, would not be enough
/// (measured in session 28 with a scratch example, not kept: each shot run
/// in rapier3d up to the step its velocity first changes, and the sandbox
/// then started from rapier3d's pose and velocities at that step's start,
/// its body at its CCD stop, so the sandbox meets the wall on fresh
/// contacts only). Of the 47 compared shots 8 still fail at the default
/// 8 substeps (the cuboid at 100 m/s, 40 and 100 rad/s 4.43 and 4.76; the
/// capsule at 100 m/s, 40 and 100 rad/s 3.59 and 5.70; the hull at
/// 100 m/s, 10 rad/s 4.14 and at 500 m/s, 40 and 100 rad/s 20.65 and
/// 8.04; the cylinder at 100 m/s, 40 rad/s 6.42), 3 at friction 0. That
/// rebound grows with the substeps: 1, 0, 5, 8, 13 and 14 failing at 1, 2,
/// 4, 8, 16 and 32 substeps (friction 0: 0, 1, 2, 3, 5, 5); with the spin
/// cap held at 377 rad/s for every substep count (a quarter turn a
/// substep lets 47 rad/s at one substep) 3, 3, 8, 8, 12 and 13 (friction 0:
/// 0, 1, 2, 3, 5, 4). So the cap is not what grows it: with finer
/// substeps the struck body pivots about one point and meets the next
/// within the step, separate plastic impacts that let the spin push it off
/// (cause 2 below), where one substep solves the manifold's points at once.
///
/// Before: 16 shots against rapier3d with its default caps (below, 3), which
/// flew a slower shot than the one fired. Since rapier3d flies the shot
/// fired (its speed and spin caps lifted, `fly_the_shot_uncapped`,
/// checked by `rapier_flies_the_shot_fired`), 18 of 63: rapier3d's own
/// body then passes the wall in 16 shots (every sphere at 2,000 m/s), and
/// 8 of the 18 are such shots, counted as a rapier3d rebound of 0 (the
/// cuboid at 500 m/s, 100 rad/s; the capsule at 500 m/s, 100 rad/s; the
/// hull at 100 m/s, 100 rad/s; the cone at 500 m/s, 10 rad/s at 31.6 m/s;
/// the rounded cuboid at 100 m/s, 40 and 100 rad/s, 500 m/s, 40 rad/s,
/// and 2,000 m/s, 100 rad/s). The other 10, sandbox against rapier3d,
/// m/s: the cone at 500 m/s, 40 rad/s 36.8 against 22.3; the hull at
/// 500 m/s, 40 rad/s 22.6 against 16.0 and at 100 rad/s 12.0 against 2.6;
/// the cylinder at 100 m/s, 100 rad/s 14.1 against 5.1; the capsule at
/// 100 m/s, 40 rad/s 10.4 against 0.4, at 100 rad/s 8.7 against 3.7, and
/// at 500 m/s, 40 rad/s 1.7 against 0.2; the rounded cuboid at 100 m/s,
/// 10 rad/s 7.8 against 3.1; the cuboid at 100 m/s, 40 and 100 rad/s 5.5
/// and 5.0 against 1.2 and 2.4. None passes or gains energy.
///
/// Traced (both engines step by step, the body's velocities and every
/// contact point's position, separation and impulse after each step:
/// `cargo run --release -p tests --example fast_spinning_trace -- cone 500
/// 40`), three causes.
///
/// 1. Impacts solved on stale speculative points. The narrow phase keeps
///    points within the bodies' reach this step (metres here), and the
///    solver takes their lever arms, and their separations to first order,
///    from the step's start, while the body turns by 0.1 to 1.7 rad before
///    it arrives. The cone at 500 m/s, 40 rad/s takes 4,080 N s and 1,233 N s
///    of sticking friction at a rim point found 5.14 m away, leaves the step
///    pivoting about it at the spin clamp (377 rad/s), and a second impact
///    (979 N s at the next rim point) sends it back at 36.8 m/s. The cuboid
///    at 100 m/s, 100 rad/s takes 3,521 N s at a corner 1.77 m from the wall
///    that its flight reaches only at the step's end: a corner turning
///    towards the wall at `ω r` is taken to close at that speed all step.
/// 2. After an impact the body pivots about the struck point or edge, and
///    its spin carries it off the wall: separate plastic impacts, each
///    stopping one point. For the round kinds collide's manifold against the
///    wall is one point where parry's holds the whole face that lands
///    (rapier3d's cone at 500 m/s, 40 rad/s: its base disc as four points,
///    0 to 0.275 m from the wall, all solved in the impact's step), so
///    rapier3d stops the pivot within the step by the face's other points,
///    and the sandbox by a second impact a step later. Where both have the
///    face (the cuboid at 100 m/s, 100 rad/s, with the stale-impact pass
///    tried below: stopped at its time of impact where rapier3d's is,
///    x = -0.351 m, then solved on a fresh four-point face) the sandbox
///    leaves 2,961 J of 328,533 (rapier3d 3,650) but 4.75 m/s of it along
///    the normal (rapier3d 0.69, with 9 m/s along the wall, rolling).
/// 3. The reference's clamps. rapier3d 0.36 caps a body's speed at 400 m/s
///    (`normalized_max_linear_velocity`) and its spin at a quarter turn a
///    *step* (47.1 rad/s at 60 Hz, `MAX_ROTATION` in its
///    `staged_island_solver/worker.rs`): its 100 rad/s shots fly at
///    47.1 rad/s, its 500 and 2,000 m/s shots at 400 m/s, and the pivot an
///    impact starts (hundreds of rad/s) is cut to 47.1 rad/s, which takes
///    the energy the pivot would carry off the wall. The sandbox caps spin
///    at a quarter turn a *substep* (377 rad/s at 8 substeps). With the
///    sandbox's cap set to rapier3d's, 47.1 rad/s (an experiment, not kept:
///    it would stop legitimately tumbling bodies), 10 shots fail, their
///    summed excess over the bound 22.5 m/s instead of 148, the worst the
///    rounded cuboid at 500 m/s, 100 rad/s at 6.9 m/s against 0.4; at
///    94.2 rad/s 13 fail (excess 63.5), at 188.5 rad/s 18 (132.8). At
///    friction 0 the rounded cuboid at 500 m/s, 100 rad/s comes back at
///    2.0, 11.6, 26.4 and 48.0 m/s at 8, 16, 32 and 64 substeps (the cap
///    loosens with them); at one substep (the sandbox's cap then rapier3d's)
///    the 16 shots come back at 4.3 m/s at most, or pass (the cone at
///    500 m/s). So most of that gap was the reference's clamp; the
///    reference now flies the shot fired, uncapped, and rebounds faster
///    itself (the cone at 500 m/s, 40 rad/s: 22.3 m/s instead of 3.8).
///
/// Tried, not kept:
/// - No speculative reach at all (the narrow phase's margin the fixed
///   `SPECULATIVE_DISTANCE` only, as Box2D v3's): 25 shots failed.
/// - For cause 1, a body whose turn before the impact made the first-order
///   separation's error pass the linear slop (`extent (1 - cos θ)`) went
///   back to its free flight's time of impact with its start velocities,
///   its pairs' impulses dropped, as rapier's and Box2D's continuous
///   collision stop a body (patch kept outside the repository): the cone at
///   500 m/s, 40 rad/s came back at 1.06 m/s, the hull at 500 m/s, 40 rad/s
///   at 0.05 (22.6), the rounded cuboid at 500 m/s, 40 rad/s at 2.11 (12.9),
///   but the cone at 500 m/s, 100 rad/s at 26.4 (-4.1) and the hull at
///   100 m/s, 40 rad/s at 9.0 (2.2): still 16 failing, a different set
///   (summed excess 148 to 123 m/s, worst 36.8 to 31.6), since the fresh
///   impact then pivots as in cause 2. It broke two contracts: the small
///   hull at 500 m/s, 40 rad/s with `e = 0.3` came back at 66 m/s instead
///   of `e v` = 150 (`sandbox/tests/fast_bodies.rs`), and soak seed 10 put
///   a body through the ground at step 14,832 (its free flight was swept
///   only against the body it struck). With fixed turns in place of the
///   slop criterion: 15 failing at 0.1 rad, 16 at 0.25, 18 at 0.5, 17 at 1.
///   Sending back only phantom impulses (the free flight does not meet the
///   struck body within the step): 17 failing.
#[test]
#[ignore = "issue 41, open: 10 of the 47 shots where rapier3d's body stays rebound faster than \
            rapier3d (uncapped) + 1 m/s (worst: a cone at 500 m/s, 40 rad/s, 36.8 m/s against 22.3), \
            see the doc comment"]
fn fast_spinning_bodies_rebound_no_faster_than_rapier3d() {
    // No reference where rapier3d's body passed (see above).
    let rapier_stays = |p: &Pair| !p.theirs.passed;
    assert_compared_shots("rebounded faster than rapier3d + 1 m/s", rapier_stays, |p| {
        // Written so that NaN fails.
        let held = p.ours.rebound <= p.theirs.rebound.max(0.0) + REBOUND_ALLOWANCE;
        (!held).then(|| {
            format!("{}: {} m/s, rapier3d {} m/s", p.label, p.ours.rebound, p.theirs.rebound)
        })
    });
}

/// The two engines are given the same shapes: rapier's box of each
/// equals collide's, and so does its mass from its own shape, for every
/// kind but the rounded cuboid, whose border parry's mass properties leave
/// out (it weighs the inner box alone: 6 kg against collide's 22 kg). So
/// the shots give rapier collide's mass properties, for every kind, and
/// their kinetic energies at the start agree.
#[test]
fn both_engines_fire_the_same_bodies() {
    for kind in KINDS {
        let name = kind.name();
        let ours = collide::MassProperties::from_shape(&kind.collide(), DENSITY);
        let theirs = kind.rapier().density(DENSITY).build();
        let aabb = theirs.compute_aabb();
        let our_aabb = sandbox::Aabb::of_shape(&kind.collide(), &Isometry3::identity());
        for k in 0..3 {
            assert!((aabb.mins[k] - our_aabb.min[k]).abs() < 1e-5, "{name}: {aabb:?}");
            assert!((aabb.maxs[k] - our_aabb.max[k]).abs() < 1e-5, "{name}: {aabb:?}");
        }
        let rel = (ours.mass - theirs.mass()).abs() / ours.mass;
        match kind {
            Kind::RoundedCuboid => assert!(theirs.mass() < 0.5 * ours.mass, "{name}"),
            _ => assert!(rel < 1e-3, "{name}: mass {} vs {}", ours.mass, theirs.mass()),
        }
        let (a, b) = (fire_sandbox(kind, 100.0, 40.0), fire_rapier(kind, 100.0, 40.0));
        let rel = (a.energy_before - b.energy_before).abs() / b.energy_before;
        assert!(
            rel < 1e-4,
            "{name}: energy at the start {} J vs {} J",
            a.energy_before,
            b.energy_before
        );
    }
}

/// rapier3d's body flies the shot it is given: a sphere (whose spin
/// stays constant in free flight) fired at each speed and spin with no
/// wall keeps both after a step, within float rounding. With rapier's
/// default caps it would not: speed is cut to 400 m/s after each substep
/// and spin to about a quarter turn a step (47 rad/s at 60 Hz), which the
/// second half checks, so that this test fails if the caps' defaults or
/// names change under it.
#[test]
fn rapier_flies_the_shot_fired() {
    let free_flight = |speed: f32, spin: f32, uncapped: bool| {
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(0.0, 0.0, 0.0);
        let mut body = rapier_shot_body(speed, spin, 0.0);
        if uncapped {
            fly_the_shot_uncapped(&mut world);
        } else {
            body = body.allow_fast_rotation(false);
        }
        let handle = world.insert(body, Kind::Sphere.rapier().density(DENSITY)).0;
        world.step();
        let b = &world.bodies[handle];
        (b.linvel().length(), b.angvel().length())
    };
    for speed in SPEEDS {
        for spin in SPINS {
            let (v, w) = free_flight(speed, spin, true);
            assert!((v - speed).abs() <= 1e-4 * speed, "fired at {speed} m/s, flew at {v}");
            assert!((w - spin).abs() <= 1e-4 * spin, "fired at {spin} rad/s, spun at {w}");
        }
    }
    let (v, w) = free_flight(2000.0, 100.0, false);
    assert!(v < 401.0, "rapier's default speed cap no longer applies: {v} m/s");
    assert!(w < 50.0, "rapier's default spin cap no longer applies: {w} rad/s");
}
