//! Stacks of unit cubes whose densities differ by 10:1, 100:1 and 1000:1 stand
//! for 10 s without sleeping, with every overlap under 1 cm and every cube
//! within 1 cm of its start sideways: four cubes alternating light and
//! heavy from the ground up, a heavy cube on a light one, and a light cube
//! between two heavy ones. A 10-high pyramid with a heavy box (100:1)
//! dropped on top does not explode. The oracles are the poses alone: the
//! brute-force corner depth of `common` and the start positions.
//!
//! Why the islands with a mass-ratio chain are solved directly
//! (`chain_block_solve.rs`): with the soft-step sweeps alone, the
//! alternating stack at 100:1 overlapped by 2 cm and sank 4 cm, and at
//! 1000:1 it collapsed (40 cm overlaps, cubes spread over 4 m); with
//! load-stiffened springs alone, capped for the sweeps' stability, the
//! 1000:1 columns overlapped by 2.2 to 4.9 cm.

use crate::common;

use collide::nalgebra::Vector3;
use collide::{Cuboid, Shape};
use common::{DT, cube_pair_sat_depth, ground_depth, world};
use sandbox::{BodyDesc, BodyId, Scene, World, add_ground, build_scene};

/// Density of a light cube (kg/m³): the scenes' 1000 kg cube.
const LIGHT_DENSITY: f32 = 1000.0;
/// Steps run: 10 s at 1/60 s.
const STEPS: usize = 600;
/// Largest overlap allowed between cubes or with the ground (m): 1 cm of a
/// 1 m cube.
const MAX_PENETRATION: f32 = 0.01;
/// Largest sideways drift allowed of any cube from its start (m).
const MAX_DRIFT: f32 = 0.01;

/// A unit cube.
fn cube() -> Shape {
    Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).into()
}

/// What a column did over the run: the deepest overlap seen after any
/// step, and the largest sideways distance of any cube from its start.
#[derive(Debug)]
struct ColumnRun {
    penetration: f32,
    drift: f32,
}

/// Stacks one unit cube per density, from the ground up, exactly touching,
/// on the ground of the scenes, and runs it [`STEPS`] steps without sleep.
fn run_column(densities: &[f32]) -> ColumnRun {
    let mut w = world(false);
    add_ground(&mut w).unwrap();
    let ids: Vec<BodyId> =
        densities
            .iter()
            .enumerate()
            .map(|(i, &density)| {
                let desc = BodyDesc::dynamic(cube())
                    .with_density(density)
                    .with_position(Vector3::new(0.0, 0.5 + i as f32, 0.0));
                w.add_body(desc).unwrap()
            })
            .collect();
    let start: Vec<_> = ids.iter().map(|&b| w.pose(b).unwrap().translation.vector).collect();
    let mut run = ColumnRun { penetration: 0.0, drift: 0.0 };
    for _ in 0..STEPS {
        common::step(&mut w);
        run.penetration = run.penetration.max(column_penetration(&w, &ids));
        for (&b, s) in ids.iter().zip(&start) {
            let d = w.pose(b).map_or(Vector3::repeat(f32::NAN), |p| p.translation.vector - s);
            // NaN (a removed body) fails the comparison below.
            run.drift = run.drift.max((d.x * d.x + d.z * d.z).sqrt());
            if d.x.is_nan() {
                run.drift = f32::NAN;
            }
        }
    }
    run
}

/// The deepest overlap of a column: each cube with the ground and with
/// the cube above it, by the exact separating-axis depth (the cubes stay
/// aligned, so a corner test would see none of their face overlap).
fn column_penetration(w: &World, ids: &[BodyId]) -> f32 {
    let poses: Vec<_> = ids.iter().filter_map(|&b| w.pose(b).copied()).collect();
    let mut depth = poses.iter().fold(0.0f32, |d, p| d.max(ground_depth(p, 0.5)));
    for pair in poses.windows(2) {
        depth = depth.max(cube_pair_sat_depth(&pair[0], &pair[1], 0.5));
    }
    depth
}

/// Runs the column and checks both bounds, naming the case.
fn assert_column_stands(name: &str, densities: &[f32]) {
    let run = run_column(densities);
    eprintln!("{name}: penetration {:.4} m, drift {:.4} m", run.penetration, run.drift);
    assert!(
        run.penetration < MAX_PENETRATION,
        "{name}: cubes overlapped by {} m (densities {densities:?})",
        run.penetration
    );
    assert!(
        run.drift < MAX_DRIFT,
        "{name}: a cube moved {} m sideways (densities {densities:?})",
        run.drift
    );
}

/// Four cubes, light, heavy, light, heavy from the ground up.
fn alternating(ratio: f32) -> [f32; 4] {
    let heavy = ratio * LIGHT_DENSITY;
    [LIGHT_DENSITY, heavy, LIGHT_DENSITY, heavy]
}

#[test]
fn alternating_stack_at_10_to_1_stands() {
    assert_column_stands("alternating 10:1", &alternating(10.0));
}

#[test]
fn alternating_stack_at_100_to_1_stands() {
    assert_column_stands("alternating 100:1", &alternating(100.0));
}

#[test]
fn heavy_cube_on_light_cube_at_100_to_1_stands() {
    assert_column_stands("heavy on light 100:1", &[LIGHT_DENSITY, 100.0 * LIGHT_DENSITY]);
}

#[test]
fn light_cube_between_heavy_cubes_at_100_to_1_stands() {
    let heavy = 100.0 * LIGHT_DENSITY;
    assert_column_stands("light between heavy 100:1", &[heavy, LIGHT_DENSITY, heavy]);
}

#[test]
fn alternating_stack_at_1000_to_1_stands() {
    assert_column_stands("alternating 1000:1", &alternating(1000.0));
}

#[test]
fn heavy_cube_on_light_cube_at_1000_to_1_stands() {
    assert_column_stands("heavy on light 1000:1", &[LIGHT_DENSITY, 1000.0 * LIGHT_DENSITY]);
}

#[test]
fn light_cube_between_heavy_cubes_at_1000_to_1_stands() {
    let heavy = 1000.0 * LIGHT_DENSITY;
    assert_column_stands("light between heavy 1000:1", &[heavy, LIGHT_DENSITY, heavy]);
}

/// Rows of the pyramid the heavy box is dropped on.
const PYRAMID_ROWS: usize = 10;
/// Height (m) of the heavy box's lowest face above the pyramid's top.
const DROP_HEIGHT: f32 = 1.0;
/// Kinetic energy per kilogram (J/kg) below which the pile counts as
/// settled: the energy of every body moving at 1 cm/s.
const SETTLED_ENERGY_PER_KG: f32 = 0.5 * 0.01 * 0.01;
/// Farthest any pyramid cube may end from its start (m): the top rows may
/// give way under the impact, but nothing is thrown across the floor.
const MAX_PYRAMID_SCATTER: f32 = 1.0;

/// Total kinetic energy and mass of the dynamic bodies `ids`.
fn kinetic_energy(w: &World, ids: &[BodyId]) -> (f32, f32) {
    let mut energy = 0.0;
    let mut mass = 0.0;
    for &b in ids {
        let mp = w.mass_properties(b).unwrap();
        let v = w.linear_velocity(b).unwrap();
        let omega = w.angular_velocity(b).unwrap();
        let r = w.pose(b).unwrap().rotation;
        let omega_local = r.inverse() * omega;
        let inertia = mp.inertia * omega_local;
        energy += 0.5 * mp.mass * v.norm_squared() + 0.5 * omega_local.dot(&inertia);
        mass += mp.mass;
    }
    (energy, mass)
}

/// A 10-row pyramid with a 100:1 box dropped onto its top cube from 1 m:
/// nothing explodes. The box ends above the pyramid's lower rows, no cube
/// is thrown more than [`MAX_PYRAMID_SCATTER`], nothing sinks into the
/// ground by 1 cm, and the pile has come to rest after 10 s.
#[test]
fn heavy_box_dropped_on_pyramid_does_not_explode() {
    let mut w = world(false);
    let mut ids = build_scene(&mut w, Scene::Pyramid, PYRAMID_ROWS).unwrap();
    let start: Vec<_> = ids.iter().map(|&b| w.pose(b).unwrap().translation.vector).collect();
    let top = PYRAMID_ROWS as f32;
    let heavy = BodyDesc::dynamic(cube())
        .with_density(100.0 * LIGHT_DENSITY)
        .with_position(Vector3::new(0.0, top + DROP_HEIGHT + 0.5, 0.0));
    let heavy = w.add_body(heavy).unwrap();
    ids.push(heavy);
    let mut deepest_in_ground = 0.0f32;
    for _ in 0..STEPS {
        common::step(&mut w);
        for &b in &ids {
            let pose = w.pose(b).expect("no body is removed");
            deepest_in_ground = deepest_in_ground.max(ground_depth(pose, 0.5));
        }
    }
    for (k, (&b, s)) in ids.iter().zip(&start).enumerate() {
        let moved = (w.pose(b).unwrap().translation.vector - s).norm();
        assert!(moved < MAX_PYRAMID_SCATTER, "pyramid cube {k} ended {moved} m from its start");
    }
    let heavy_y = w.pose(heavy).unwrap().translation.y;
    assert!(heavy_y > top - 2.0, "the heavy box sank to y = {heavy_y} into the pyramid");
    assert!(
        deepest_in_ground < MAX_PENETRATION,
        "a cube sank {deepest_in_ground} m into the ground"
    );
    let (energy, mass) = kinetic_energy(&w, &ids);
    assert!(
        energy < SETTLED_ENERGY_PER_KG * mass,
        "pile still moving after {} s: {energy} J over {mass} kg",
        STEPS as f32 * DT
    );
}

/// Deepest a light body wedged under a heavy one may end a step in the
/// ground (m): the world's push-out allowance (the speculative distance,
/// 2 cm) plus a millimetre for the depth query's rounding and the
/// support-point oracle's.
const WEDGE_MAX_DEPTH: f32 = 0.021;

/// The lowest point of `id` below the ground's top (y = 0), by its support
/// point along −y: the oracle is the pose and the shape alone.
fn depth_below_ground(w: &World, id: BodyId) -> f32 {
    use collide::SupportMap as _;
    let pose = w.pose(id).unwrap();
    let down = pose.inverse_transform_vector(&-Vector3::y());
    -(pose * w.shape(id).unwrap().local_support(&down)).y
}

/// A 1.5 g rod lying on the ground with a 20 kg box (13,000:1) dropped
/// half onto it, at one and two substeps: the rod may not end any step
/// deeper than the push-out allowance in the ground.
///
/// Regression (soak seed 2, step 44,348): the rod's contact springs, set by
/// its mass and capped in frequency, carried a few newtons of the box's
/// 196 while the box's own ground contacts held it level, so the rod was
/// pressed 5.2 cm (of its 6 cm thickness) into the ground and stayed there.
#[test]
fn light_rod_wedged_under_a_heavy_box_stays_out_of_the_ground() {
    for substeps in [1, 2] {
        let mut w = World::with_settings(sandbox::StepSettings {
            sleep_enabled: false,
            substeps,
            ..sandbox::StepSettings::default()
        })
        .unwrap();
        add_ground(&mut w).unwrap();
        let rod_shape: Shape = collide::Capsule::new(0.33, 0.03).into();
        let rod = w
            .add_body(
                BodyDesc::dynamic(rod_shape)
                    .with_density(0.76)
                    .with_rotation(collide::nalgebra::UnitQuaternion::from_axis_angle(
                        &Vector3::x_axis(),
                        std::f32::consts::FRAC_PI_2,
                    ))
                    .with_position(Vector3::new(0.0, 0.03, 0.0)),
            )
            .unwrap();
        let mass = w.mass_properties(rod).unwrap().mass;
        assert!((0.001..0.002).contains(&mass), "rod of {mass} kg");
        let heavy = Cuboid::new(Vector3::new(0.95, 0.99, 0.92));
        w.add_body(
            BodyDesc::dynamic(heavy.into())
                .with_density(2.87)
                .with_position(Vector3::new(-0.8, 1.1, 0.0)),
        )
        .unwrap();
        let mut deepest = 0.0f32;
        for _ in 0..STEPS {
            common::step(&mut w);
            deepest = deepest.max(depth_below_ground(&w, rod));
        }
        assert!(
            deepest <= WEDGE_MAX_DEPTH,
            "{substeps} substep(s): the rod went {deepest} m into the ground"
        );
    }
}
