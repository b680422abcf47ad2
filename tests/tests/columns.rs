//! Columns of unit cubes stand (issue 41): the sandbox's columns against
//! rapier3d's, run side by side. A column of `n` unit cubes (density 1000)
//! on a fixed ground box, sleeping off, 1,500 steps of 1/60 s (25 s) at the
//! sandbox's and rapier's default settings. The contract: no cube moves
//! more than [`MAX_SIDEWAYS`] sideways at any step, and the top cube sinks
//! no more than rapier3d's does in the same run (its largest sink over the
//! run, and its sink at the end).
//!
//! The oracle for "standing" is geometric (a column stacked exactly has
//! nowhere to go but straight down), and the oracle for the sink is the
//! other engine, which shares no code with the sandbox.
//!
//! The frictionless columns stand since the narrow phase keeps a resting
//! face contact's world normal while its reference face turns by less than
//! 1e-2 rad (`keep_resting_normal` in the sandbox's
//! `collision/contact_recycling.rs`), as box3d's recycled contacts do.
//! Before, the weight carried across a face tilted by 1e-5 to 1e-4 rad
//! (rounding, the sweeps' point order) pushed the cube above sideways,
//! which offset the load and tilted the cube below further: the unstable
//! mode of a soft-contact column (its linearised model grows e-fold every
//! 23 s with 2 cubes, 1.7 s with 10). Measured (first step a cube passed
//! 5 cm, sleeping off): before, 2 frictionless cubes drifted 2 mm in 10 s
//! (tilt 1e-6 or 0 at the start alike), 30 cubes passed 5 cm at step 72;
//! after, no cube of the 25-, 30- or 40-cube column moves sideways at all
//! (0.0 m over 1,500 steps, as box3d's: a 1 mm offset of its top cube
//! stays exactly 1 mm). Tried alone on the same columns before settling
//! on the normal (30 cubes unless said): the direct solve of a manifold's
//! normal rows (branch `solver-direct-normal`) 424; with it, normals kept
//! within 1e-3 rad stand, within 2e-3 without it the 30 and 40 fall at
//! steps 59 and 125, within 5e-3 they stand.
//!
//! Known limitation (issue 41, open; the ignored tests say which): the
//! columns of 30 and 40 cubes at friction 0.6 still buckle, at steps 327
//! and 295 with the normal kept (the friction carries the cube above
//! along with the tilted face's top, so the hinge chain of soft contacts
//! still buckles: see `TILT_BIAS_FRACTION`). Tried alone with the normal
//! kept (40 cubes, first step past 5 cm): the friction anchor off
//! (`ANCHOR_RATE_FRACTION` 0) 257; the direct solve 931 (30 cubes: 1151),
//! both 1165 (30 cubes: 1330); the direct solve with `TILT_BIAS_FRACTION`
//! 0.1: 1028, 0.2: stands (1.8 cm) but pyramid 20 walks 5.3 cm. box3d's
//! 40-cube column at friction 0.6 (50 Hz, 8 substeps) sways by up to
//! 1 cm and comes back; ours grows e-fold every 100 to 250 steps.

use collide::nalgebra::Vector3;
use collide::{Cuboid, Shape};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector};
use sandbox::{BodyDesc, StepSettings, World};

/// One step, seconds (rapier's default `dt`, checked below).
const DT: f32 = 1.0 / 60.0;

/// Steps of the run: 25 s.
const STEPS: usize = 1500;

/// Largest sideways move (m) of any cube at any step: the bound.
const MAX_SIDEWAYS: f32 = 0.05;

/// Cube density (kg/m³), the sandbox's default, given to rapier too.
const DENSITY: f32 = 1000.0;

/// What one run measured.
#[derive(Debug)]
struct Run {
    /// Largest horizontal distance of any cube from the column's axis at
    /// any step, and the first step it passed [`MAX_SIDEWAYS`].
    max_sideways: f32,
    first_past_bound: Option<usize>,
    /// The top cube's largest sink over the run, and its sink at the end.
    top_sink_max: f32,
    top_sink_end: f32,
}

impl Run {
    fn new() -> Self {
        Self { max_sideways: 0.0, first_past_bound: None, top_sink_max: 0.0, top_sink_end: 0.0 }
    }

    /// Records cube `level`'s centre `p` after step `step`.
    fn record(&mut self, step: usize, level: usize, n: usize, p: Vector3<f32>) {
        let sideways = (p.x * p.x + p.z * p.z).sqrt();
        // Written so that NaN counts as past the bound.
        if !(sideways <= MAX_SIDEWAYS) && self.first_past_bound.is_none() {
            self.first_past_bound = Some(step);
        }
        self.max_sideways = self.max_sideways.max(sideways);
        if level == n - 1 {
            let sink = 0.5 + level as f32 - p.y;
            self.top_sink_max = self.top_sink_max.max(sink);
            self.top_sink_end = sink;
        }
    }
}

/// The sandbox column: cubes created bottom-up, centres on the y axis.
fn sandbox_column(n: usize, friction: f32) -> Run {
    let settings = StepSettings { sleep_enabled: false, ..StepSettings::default() };
    let mut world = World::with_settings(settings).unwrap();
    world
        .add_body(
            BodyDesc::fixed(Shape::from(Cuboid::new(Vector3::new(50.0, 0.5, 50.0))))
                .with_position(Vector3::new(0.0, -0.5, 0.0))
                .with_friction(friction),
        )
        .unwrap();
    let ids: Vec<_> = (0..n)
        .map(|level| {
            let cube = BodyDesc::dynamic(Shape::from(Cuboid::new(Vector3::repeat(0.5))))
                .with_position(Vector3::new(0.0, 0.5 + level as f32, 0.0))
                .with_density(DENSITY)
                .with_friction(friction);
            world.add_body(cube).unwrap()
        })
        .collect();
    let mut run = Run::new();
    for step in 1..=STEPS {
        world.step(DT);
        world.validate().unwrap();
        for (level, &id) in ids.iter().enumerate() {
            // A body leaves the world only past its bounds: fallen.
            let p = world.pose(id).map_or(Vector3::repeat(f32::NAN), |p| p.translation.vector);
            run.record(step, level, n, p);
        }
    }
    run
}

/// The rapier3d column: the same bodies, default `IntegrationParameters`,
/// no body allowed to sleep; rapier's default friction rule (the average)
/// gives the pair the same coefficient as the sandbox's geometric mean.
fn rapier_column(n: usize, friction: f32) -> Run {
    let mut world = PhysicsWorld::new();
    assert_eq!(world.integration_parameters.dt, DT, "rapier's default step changed");
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5, 0.0)),
        ColliderBuilder::cuboid(50.0, 0.5, 50.0).friction(friction),
    );
    let handles: Vec<_> = (0..n)
        .map(|level| {
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, 0.5 + level as f32, 0.0))
                .can_sleep(false);
            let cube = ColliderBuilder::cuboid(0.5, 0.5, 0.5).density(DENSITY).friction(friction);
            world.insert(body, cube).0
        })
        .collect();
    let mut run = Run::new();
    for step in 1..=STEPS {
        world.step();
        for (level, &h) in handles.iter().enumerate() {
            let t = world.bodies[h].position().translation;
            run.record(step, level, n, Vector3::new(t.x, t.y, t.z));
        }
    }
    run
}

/// Runs both columns and checks the contract.
fn assert_column_stands(n: usize, friction: f32) {
    let ours = sandbox_column(n, friction);
    let theirs = rapier_column(n, friction);
    let label = format!("{n} cubes, friction {friction}: sandbox {ours:?}, rapier3d {theirs:?}");
    assert!(ours.first_past_bound.is_none(), "{label}: a cube moved past {MAX_SIDEWAYS} m");
    assert!(ours.top_sink_max <= theirs.top_sink_max, "{label}: the top cube sank further");
    assert!(ours.top_sink_end <= theirs.top_sink_end, "{label}: the top cube ended lower");
    // The column really was loaded: the top cube sank (the springs carry
    // the weight), but by less than a cube.
    assert!(ours.top_sink_end > 0.0 && ours.top_sink_max < 1.0, "{label}");
}

#[test]
fn a_column_of_25_with_friction_stands_25_s() {
    assert_column_stands(25, 0.6);
}

#[test]
#[ignore = "issue 41, open: buckles after about 5 s (friction carries the tilt up the column)"]
fn a_column_of_30_with_friction_stands_25_s() {
    assert_column_stands(30, 0.6);
}

#[test]
#[ignore = "issue 41, open: buckles after about 5 s (friction carries the tilt up the column)"]
fn a_column_of_40_with_friction_stands_25_s() {
    assert_column_stands(40, 0.6);
}

#[test]
fn frictionless_columns_of_25_30_and_40_stand_25_s() {
    for n in [25, 30, 40] {
        assert_column_stands(n, 0.0);
    }
}
