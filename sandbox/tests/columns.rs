//! Columns of unit cubes on the ground, sleeping off (issue 41). A column
//! of identical cubes stacked exactly is symmetric, so it must settle
//! straight down: the oracle is that no cube moves sideways or turns. With
//! friction 0 nothing damps a sideways kick (the ground's normal is
//! vertical, so the column's horizontal momentum is conserved and any
//! velocity a cube is given stays), which makes it the sharpest probe of a
//! solver that turns bodies by the order it solves their contact points in.
//!
//! Standing for 25 s is tested beside rapier3d in `tests/tests/columns.rs`
//! (the workspace's `tests` crate, which may depend on rapier); these
//! tests pin the settling only, the first half second, where a sweep that
//! stops early kicks every cube the same way. They pass with the
//! manifolds' sweeps converged to 1e-4 of the slop per substep, which cost
//! 1.2 to 1.3 times the step on falling-boxes 1000 and pyramid 20; the
//! solver keeps 1 % (`SWEEP_SLOP_FRACTION` in the solver's
//! `contact_solver.rs`), where the 40-cube column moves 1.2 to 1.9 mm in
//! 30 steps, so they are ignored until a cheaper way to converge a face's
//! four rows lands (issue 41, open). Since resting face contacts keep
//! their world normal (`keep_resting_normal`), the frictionless columns
//! no longer move sideways while settling, but their cubes still turn:
//! 2.4e-3 rad (25 cubes) and 4.1e-3 rad (40 cubes) in 30 steps, and the
//! 40-cube column at friction 0.6 moves 2.0 mm.

use crate::common;

use collide::nalgebra::{Isometry3, UnitQuaternion, Vector3};
use collide::{Cuboid, Shape};
use sandbox::{BodyDesc, BodyId, World};

/// Steps of the settling the tests watch: the column's compression wave
/// has come and gone (the 40-cube column sinks 9.5 cm within 10 steps).
const SETTLING_STEPS: usize = 30;

/// Largest sideways move (m) of any cube while settling: a fifth of the
/// linear slop (5 mm). Before the fix the 40-cube frictionless column moved
/// 1.3 cm within 20 steps.
const MAX_SIDEWAYS: f32 = 1.0e-3;

/// Largest turn (rad) of any cube while settling: 1 mm at a cube's corner.
/// Before the fix every cube turned by about 1.8e-3 rad within 10 steps.
const MAX_TURN: f32 = 1.0e-3;

/// Builds a column of `n` unit cubes with friction `friction` on a fixed
/// ground box (also of friction `friction`), every body turned by
/// `rotation` about the vertical, the cubes created bottom-up or, with
/// `top_down`, top-down (which swaps A and B in every cube pair).
fn column(
    n: usize,
    friction: f32,
    rotation: UnitQuaternion<f32>,
    top_down: bool,
) -> (World, Vec<BodyId>) {
    let mut w = common::world(false);
    w.add_body(
        BodyDesc::fixed(Shape::from(Cuboid::new(Vector3::new(50.0, 0.5, 50.0))))
            .with_position(Vector3::new(0.0, -0.5, 0.0))
            .with_rotation(rotation)
            .with_friction(friction),
    )
    .unwrap();
    let mut levels: Vec<usize> = (0..n).collect();
    if top_down {
        levels.reverse();
    }
    let mut ids = vec![None; n];
    for level in levels {
        let desc = BodyDesc::dynamic(Shape::from(Cuboid::new(Vector3::repeat(0.5))))
            .with_position(Vector3::new(0.0, 0.5 + level as f32, 0.0))
            .with_rotation(rotation)
            .with_friction(friction);
        ids[level] = Some(w.add_body(desc).unwrap());
    }
    (w, ids.into_iter().map(Option::unwrap).collect())
}

/// Settles `column`'s cubes for [`SETTLING_STEPS`] and returns the largest
/// sideways move and the largest turn of any cube at any step.
fn settle(world: &mut World, ids: &[BodyId]) -> (f32, f32) {
    let start: Vec<Isometry3<f32>> = ids.iter().map(|&b| *world.pose(b).unwrap()).collect();
    let (mut sideways, mut turn) = (0.0f32, 0.0f32);
    for _ in 0..SETTLING_STEPS {
        common::step(world);
        for (&b, s) in ids.iter().zip(&start) {
            let p = world.pose(b).unwrap();
            let d = p.translation.vector - s.translation.vector;
            sideways = sideways.max((d.x * d.x + d.z * d.z).sqrt());
            turn = turn.max(s.rotation.angle_to(&p.rotation));
        }
    }
    (sideways, turn)
}

fn assert_settles_straight(n: usize, friction: f32) {
    let turned = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.7);
    for (rotation, top_down, case) in [
        (UnitQuaternion::identity(), false, "bottom-up"),
        (UnitQuaternion::identity(), true, "top-down"),
        (turned, false, "turned 0.7 rad about the vertical"),
    ] {
        let (mut w, ids) = column(n, friction, rotation, top_down);
        let (sideways, turn) = settle(&mut w, &ids);
        let label = format!("{n} cubes, friction {friction}, {case}");
        assert!(sideways < MAX_SIDEWAYS, "{label}: a cube moved {sideways} m sideways");
        assert!(turn < MAX_TURN, "{label}: a cube turned {turn} rad");
    }
}

#[test]
#[ignore = "issue 41, open: cubes turn 2.4e-3 to 4.1e-3 rad while settling (point order; the direct solve of branch solver-direct-normal fixes it at 1.13-1.18x the step)"]
fn a_frictionless_column_of_40_settles_without_a_sideways_kick() {
    assert_settles_straight(40, 0.0);
}

#[test]
#[ignore = "issue 41, open: cubes turn 2.4e-3 to 4.1e-3 rad while settling (point order; the direct solve of branch solver-direct-normal fixes it at 1.13-1.18x the step)"]
fn a_column_of_40_with_friction_settles_without_a_sideways_kick() {
    assert_settles_straight(40, 0.6);
}

#[test]
#[ignore = "issue 41, open: cubes turn 2.4e-3 to 4.1e-3 rad while settling (point order; the direct solve of branch solver-direct-normal fixes it at 1.13-1.18x the step)"]
fn a_frictionless_column_of_25_settles_without_a_sideways_kick() {
    assert_settles_straight(25, 0.0);
}
