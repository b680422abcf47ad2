//! The pass test for a fast body that starts the step touching another
//! body: whether its core (the parent's [`CORE_SPHERE_FRACTION`] sphere
//! about its centre of mass) left the other body during the step through
//! the far side, which only a body that passed through can do, and the
//! time to go back to when it did.
//!
//! The parent's checks for a pair that starts within the slop rest on the
//! core's first impact after the step's start and on the depth at the
//! step's end. Neither sees a body whose core already touched the other at
//! the start (a thin tetrahedron 1.7 cm into the ground: its centre of mass
//! is a quarter of its height from its face, half its thinnest half-width)
//! and whose solved pose is entirely past it (1.2 m lower, under the 1 m
//! ground slab, where the depth is 0; soak seed 2111, step 1,811,111). Here
//! the core is swept *backward* from the solved pose: the time it meets the
//! other is the last time within the step it touched it, and the normal
//! there says where it left. A core that leaves through a side facing away
//! from the side the body started on (the exit normal against the contact
//! normal at the step's start, carried with the other body) has crossed the
//! other's solid; one that leaves where it came in (a sunk body pushed
//! back out) or along a side (a corner) has not.
//!
//! A body that passed goes back, by bisection over the part of its straight
//! sweep before it left, to the last time its centre was still in front of
//! the contact plane at the step's start and it was no deeper than the
//! parent's `sink_time` allows (its allowance, or its depth at the start
//! plus the slop for a body that started deeper); the step's start when
//! none is. This departs from Box2D v3 and rapier, which leave a body that
//! starts in contact to the solver, as the parent does for solid pairs
//! that start touching.

use collide::nalgebra::{Isometry3, Point3};
use collide::{Contact, Shape, Sphere, Sweep, TimeOfImpact};

use super::{
    CORE_SPHERE_FRACTION, DEPTH_BISECTIONS, SweepScratch, allowed_depth, depth_at, shape_sweep,
};
use crate::body::BodyKind;
use crate::body::storage::Bodies;
use crate::collision::body_shapes::{pair_contact, shape_time_of_impact};
use crate::tolerances::LINEAR_SLOP;

/// The core of body `i`: a sphere of [`CORE_SPHERE_FRACTION`] of its
/// thinnest half-width, and its sweep this step (about the centre of mass,
/// turning with the body, whose centre moves on a straight line).
pub(super) fn core_of(bodies: &Bodies, scratch: &SweepScratch, i: usize) -> (Shape, Sweep) {
    let r = &bodies.records[i];
    let core = Shape::Sphere(Sphere::new(CORE_SPHERE_FRACTION * r.min_extent));
    let body_sweep = scratch.sweep(bodies, i);
    let centre = r.mass.local_center;
    let core_sweep = Sweep {
        pose: body_sweep.pose * Isometry3::translation(centre.x, centre.y, centre.z),
        local_center: Point3::origin(),
        ..body_sweep
    };
    (core, core_sweep)
}

/// The same motion run backward: time `t` of the result is time `1 − t`
/// of `sweep` (the centre moves on a line and the turn is a constant
/// angular velocity, so reversing both retraces the path).
fn reversed(sweep: &Sweep) -> Sweep {
    Sweep {
        pose: sweep.pose_at(1.0),
        local_center: sweep.local_center,
        linear_velocity: -sweep.linear_velocity,
        angular_velocity: -sweep.angular_velocity,
    }
}

/// The time, in `[0, 1]` of the step, to which a fast dynamic body of the
/// pair of shapes `slots` (A's, B's), which starts the step within the
/// slop, must go back because its core passed through the other shape
/// (see the module docs); `None` when neither body's did.
pub(super) fn core_pass_time(
    bodies: &Bodies,
    scratch: &SweepScratch,
    (a, b): (usize, usize),
    (ka, kb): (usize, usize),
) -> Option<f32> {
    let mut earliest: Option<f32> = None;
    for ((fast, other), (k_fast, k_other)) in [((a, b), (ka, kb)), ((b, a), (kb, ka))] {
        if !(scratch.fast[fast] && bodies.records[fast].kind == BodyKind::Dynamic) {
            continue;
        }
        if let Some(t) = body_pass_time(bodies, scratch, (fast, other), (k_fast, k_other)) {
            earliest = Some(earliest.map_or(t, |e| e.min(t)));
        }
    }
    earliest
}

/// [`core_pass_time`] for the fast body `fast` against `other`, with their
/// shapes of the pair `(k_fast, k_other)`.
fn body_pass_time(
    bodies: &Bodies,
    scratch: &SweepScratch,
    (fast, other): (usize, usize),
    (k_fast, k_other): (usize, usize),
) -> Option<f32> {
    let (fast_sweep, other_sweep) = (scratch.sweep(bodies, fast), scratch.sweep(bodies, other));
    // The contact plane at the step's start, from the other towards the
    // fast body: a point between the closest (or deepest) points, and the
    // normal.
    let (start_fast, start_other) = (fast_sweep.pose_at(0.0), other_sweep.pose_at(0.0));
    let (point, normal) = match pair_contact(bodies, k_other, &start_other, k_fast, &start_fast) {
        Ok(Contact::Separated { point_a, point_b, normal, .. }) => {
            (point_a + 0.5 * (point_b - point_a), *normal)
        }
        Ok(Contact::Penetrating(p)) => (p.point_a + 0.5 * (p.point_b - p.point_a), *p.normal),
        Err(_) => return None,
    };
    // The plane at time t, carried with the other body from its start
    // pose, and the centre's signed distance from it.
    let centre_local = bodies.records[fast].mass.local_center;
    let plane_at = |t: f32| {
        let carry = other_sweep.pose_at(t) * start_other.inverse();
        (carry * point, carry * normal)
    };
    let in_front = |t: f32| {
        let (p, n) = plane_at(t);
        (fast_sweep.pose_at(t) * centre_local - p).dot(&n)
    };
    // Cheap first: a body whose centre ended in front of the plane did not
    // pass. Written so that NaN reads as in front (the invalid-body check
    // removes such a body).
    if !(in_front(1.0) < 0.0) {
        return None;
    }
    // The core swept backward from the solved poses: its first touch is
    // the last time within the step it touched the other.
    let (core, core_sweep) = core_of(bodies, scratch, fast);
    let other_shape = &bodies.shapes.shapes[k_other];
    let other_path = reversed(&shape_sweep(bodies, k_other, &other_sweep));
    let exit = match shape_time_of_impact(
        other_shape,
        &other_path,
        &core,
        &reversed(&core_sweep),
        1.0,
        0.0,
    ) {
        Ok(TimeOfImpact::Hit { toi, normal, .. }) => (1.0 - toi, *normal),
        // The core ends in the other, or never touched it: the depth
        // checks (`sink_time`) or nothing.
        _ => return None,
    };
    let (t_exit, exit_normal) = exit;
    // Left through a side facing away from the start's: passed.
    let (_, normal_at_exit) = plane_at(t_exit);
    if !(exit_normal.dot(&normal_at_exit) < 0.0) {
        return None;
    }
    // Back to the last time before it left that its centre was in front
    // of the plane and it was no deeper than allowed: the predicate holds
    // from the start until the body sinks past either, and fails where it
    // left (its centre then behind the plane).
    let own = (k_fast, k_other);
    let depth = |t: f32| depth_at(bodies, own, &fast_sweep.pose_at(t), &other_sweep.pose_at(t));
    let allowed = allowed_depth(bodies, scratch, fast, other);
    let start = depth(0.0);
    let limit = if start <= allowed { allowed } else { start + LINEAR_SLOP };
    // Written so that NaN fails.
    let holds = |t: f32| in_front(t) > 0.0 && depth(t) <= limit;
    if !holds(0.0) {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (0.0f32, t_exit);
    for _ in 0..DEPTH_BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if holds(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}
