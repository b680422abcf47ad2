//! Whether a pair of shapes moved fast *relative to each other* this step:
//! a bound on how far every point of one shape moved in the other body's
//! frame, in each of the two frames, against the pair's fast threshold.
//! The parent sweeps a pair only when its bound in the world frame and
//! both bounds here exceed the threshold.
//!
//! Why: in the world frame a pair's motion is its centres' relative shift
//! plus *both* bodies' turn arcs at their whole extents. A cube carried by
//! `washer`'s kinematic drum (25°/s, 40 hulls reaching 28 m from its
//! centre) has barely moved against the drum wall it rests on, yet the
//! drum's arc at its extent alone (0.2 m a step) is twice the fast
//! threshold of a 0.2 m cube (0.1 m), so every pair with the drum was swept
//! every step. In the drum's frame the same cube moves by its own slip
//! along the wall plus its own turn against the drum's times its own
//! radius. Box2D v3 and box3d avoid the question differently: a non-bullet
//! fast body is swept against static shapes only, never against a
//! kinematic or dynamic one.
//!
//! The bound, for shape `kb` of body B seen from body A. Let `r0`, `r1` be
//! B's centre of mass less A's at the step's start and end (world frame),
//! `Δr = r1 − r0`, `Ra0`, `Ra1` A's rotations, and let A turn by at most
//! `θa` and the pair turn against each other by at most `φ` over the step.
//! On the stage's sweep (centres on straight lines, each body turning at a
//! constant angular velocity), B's centre in A's frame is
//! `f(t) = Ra(t)ᵀ·r(t)` and a point of the shape `f(t) + Q(t)·s`, with
//! `Q = Raᵀ·Rb` and `|s| ≤ ρ`, the shape's radius about B's centre of mass.
//! * `|f(t) − f(0)| ≤ |f(1) − f(0)| + max|f''| / 8`: a curve departs from
//!   its chord by at most an eighth of its largest second derivative (the
//!   error of linear interpolation, `t(1 − t)/2 ≤ 1/8`). The chord is
//!   `|r1 − Ra1·Ra0ᵀ·r0|`, and `f'' = Ra''ᵀ·r + 2·Ra'ᵀ·Δr` gives
//!   `|f''| ≤ θa²·(|r0| + |Δr|) + 2·θa·|Δr|` (the bow term below).
//! * `|Q(t)·s − Q(0)·s| ≤ φ·ρ`: the relative rotation turns a point of
//!   radius `ρ` along an arc no longer than `φ·ρ`.
//!
//! The turns are taken as the world-frame bound takes them, so the two
//! are conservative in the same sense: `θa` is the larger of A's turn
//! between its poses (at most `π·sin(θa/2)`) and its angular speed times
//! the step, and `φ` the larger of the
//! relative turn between the poses (at most `π·sin(φ/2)`) and the angular
//! velocities' difference times the step. Either frame's bound covers the
//! pair: a shape that moved by less than `d` against the other body held
//! fixed has crossed no more than `d` of it, so the pair is fast only when
//! both frames' bounds exceed the threshold. The frame of the body with
//! the larger extent goes first: seen from it, the other moves least (the
//! drum's frame for a cube in it), and the second is then often not
//! needed.

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use super::SweepScratch;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;

/// Whether shapes `ka` of body `a` and `kb` of body `b` moved more than
/// `threshold` relative to each other this step, in both bodies' frames
/// (see the module docs). A non-finite bound reads as slow, as in the
/// world-frame test: the invalid-body check removes such a body.
pub(super) fn moved_fast_relative(
    bodies: &Bodies,
    scratch: &SweepScratch,
    (a, b): (usize, usize),
    (ka, kb): (usize, usize),
    threshold: f32,
) -> bool {
    let (ends_a, ends_b) = (Ends::of(bodies, scratch, a), Ends::of(bodies, scratch, b));
    let spin = relative_turn(bodies, scratch, (a, b), (&ends_a, &ends_b));
    let in_frame_of_a = || {
        centre_motion_in_frame(&ends_a, &ends_b) + spin * shape_radius(bodies, b, kb) > threshold
    };
    let in_frame_of_b = || {
        centre_motion_in_frame(&ends_b, &ends_a) + spin * shape_radius(bodies, a, ka) > threshold
    };
    // The larger body's frame first: what it carries is most often slow
    // there, so the second bound is rarely computed. The answer is the same
    // in either order.
    if bodies.records[a].extent >= bodies.records[b].extent {
        both_in_order(in_frame_of_a, in_frame_of_b)
    } else {
        both_in_order(in_frame_of_b, in_frame_of_a)
    }
}

/// `first() && second()`, evaluating `second` only when `first` holds.
fn both_in_order(first: impl FnOnce() -> bool, second: impl FnOnce() -> bool) -> bool {
    first() && second()
}

/// A body's centre of mass and rotation at the step's start and end (the
/// same at both for a body that stood still), and a bound on its turn.
struct Ends {
    centre: [Point3<f32>; 2],
    rotation: [UnitQuaternion<f32>; 2],
    /// At least the angle the body turned through this step.
    turn: f32,
}

impl Ends {
    /// Body `i`'s ends this step.
    fn of(bodies: &Bodies, scratch: &SweepScratch, i: usize) -> Self {
        let r = &bodies.records[i];
        let end = &bodies.poses[i];
        let (start, turn) = if scratch.moving[i] {
            // As `measure_motion` bounds it: the turn θ between the poses
            // is at most `π·sin(θ/2)`, and at least the angular speed
            // times the step is taken.
            let start = &scratch.start[i];
            let half_sine = (end.rotation * start.rotation.inverse()).imag().norm();
            let spin = bodies.angular_velocities[i].norm() * scratch.dt;
            (start, (std::f32::consts::PI * half_sine).max(spin))
        } else {
            (end, 0.0)
        };
        let at = |pose: &Isometry3<f32>| pose * r.mass.local_center;
        Self { centre: [at(start), at(end)], rotation: [start.rotation, end.rotation], turn }
    }
}

/// A bound on the angle through which the two bodies turned against each
/// other: the larger of their relative rotation between the step's poses
/// (bounded by `π·sin(φ/2)`, no inverse trigonometry) and their angular
/// velocities' difference times the step.
fn relative_turn(
    bodies: &Bodies,
    scratch: &SweepScratch,
    (a, b): (usize, usize),
    (ends_a, ends_b): (&Ends, &Ends),
) -> f32 {
    let relative = |k: usize| ends_a.rotation[k].inverse() * ends_b.rotation[k];
    let half_sine = (relative(1) * relative(0).inverse()).imag().norm();
    let omega = |i: usize| {
        if scratch.moving[i] { bodies.angular_velocities[i] * scratch.dt } else { Vector3::zeros() }
    };
    (std::f32::consts::PI * half_sine).max((omega(b) - omega(a)).norm())
}

/// A bound on how far the centre of mass of the body with `ends_b` strays
/// from where it started, in the frame of the body with `ends_a`, over the
/// whole step: the chord plus the curve's largest departure from it (the
/// module docs' bow term).
fn centre_motion_in_frame(ends_a: &Ends, ends_b: &Ends) -> f32 {
    let r0 = ends_b.centre[0] - ends_a.centre[0];
    let r1 = ends_b.centre[1] - ends_a.centre[1];
    let dr = r1 - r0;
    let r0_carried = ends_a.rotation[1] * (ends_a.rotation[0].inverse() * r0);
    let chord = (r1 - r0_carried).norm();
    let (turn, dr_norm) = (ends_a.turn, dr.norm());
    let bow = (turn * turn * (r0.norm() + dr_norm) + 2.0 * turn * dr_norm) / 8.0;
    chord + bow
}

/// The distance from body `i`'s centre of mass to the farthest point of
/// its shape slot `k`, bounded by the corners of the shape's box in the
/// body's frame: the body's extent for a body of one shape, a part's own
/// reach for a body of several.
fn shape_radius(bodies: &Bodies, i: usize, k: usize) -> f32 {
    let r = &bodies.records[i];
    if bodies.shape_ranges[i].count == 1 {
        return r.extent;
    }
    let local = bodies.shapes.local_pose(k).copied().unwrap_or_else(Isometry3::identity);
    let shape_box = Aabb::of_shape(&bodies.shapes.shapes[k], &local);
    let c = r.mass.local_center;
    let corner: Vector3<f32> = (shape_box.max - c).abs().sup(&(shape_box.min - c).abs());
    corner.norm()
}
