//! The prismatic joint's rows (box3d's `prismatic_joint.c`, rewritten):
//! friction and the motor along A's frame z axis (velocity rows bounded
//! by `friction · h` and `max_force · h`), the lower and upper slide
//! limits (one-sided soft rows), the angular lock (three rows), then the
//! two rows across the axis that keep B's anchor on A's line.
//!
//! Every linear row `u` has the lever `r_a + d` on A (the point of A
//! under B's anchor) and `r_b` on B, so that the rows do not turn the
//! slide into a torque about A's anchor. Departure from box3d: the two
//! rows across the axis are solved one after the other rather than as a
//! 2×2 block.

use collide::nalgebra::Vector3;

use crate::joint::prepare::PreparedJoint;
use crate::joint::rows::{JointBodies, Pass, limit_delta, motor_delta};
use crate::joint::storage::JointRecord;

/// The axial impulse of the last substep: friction, motor and limits.
fn axial_impulse(r: &JointRecord) -> f32 {
    let i = &r.impulses;
    i.friction.x + i.motor + i.lower - i.upper
}

/// The axis and the two directions across it, world frame, now.
fn directions(s: &JointBodies) -> [Vector3<f32>; 3] {
    [s.qa * Vector3::z(), s.qa * Vector3::x(), s.qa * Vector3::y()]
}

/// Applies the accumulated impulses of the last substep.
pub(crate) fn warm_start(j: &PreparedJoint, r: &JointRecord, s: &mut JointBodies) {
    let [n, t1, t2] = directions(s);
    let la = s.ra + s.d;
    let i = &r.impulses;
    s.apply_angular(j, &i.angular);
    s.apply_linear_row(j, &n, &la, axial_impulse(r));
    s.apply_linear_row(j, &t1, &la, i.linear.x);
    s.apply_linear_row(j, &t2, &la, i.linear.y);
}

/// One pass of the joint's rows.
pub(crate) fn solve(
    j: &PreparedJoint,
    r: &mut JointRecord,
    s: &mut JointBodies,
    pass: &Pass,
    h: f32,
) {
    let [n, t1, t2] = directions(s);
    let la = s.ra + s.d;
    let mass = s.linear_row_mass(j, &n, &la);
    let i = &mut r.impulses;
    if r.friction > 0.0 {
        let speed = s.linear_row_speed(&n, &la);
        let delta = motor_delta(speed, 0.0, mass, r.friction * h, &mut i.friction.x);
        s.apply_linear_row(j, &n, &la, delta);
    }
    if let Some(motor) = r.motor {
        let speed = s.linear_row_speed(&n, &la);
        let delta = motor_delta(speed, motor.speed, mass, motor.max_force * h, &mut i.motor);
        s.apply_linear_row(j, &n, &la, delta);
    }
    if let Some((lower, upper)) = r.limits {
        let slide = s.d.dot(&n);
        let speed = s.linear_row_speed(&n, &la);
        let delta = limit_delta(slide - lower, speed, mass, pass, &mut i.lower);
        s.apply_linear_row(j, &n, &la, delta);
        let speed = s.linear_row_speed(&n, &la);
        let delta = limit_delta(upper - slide, -speed, mass, pass, &mut i.upper);
        s.apply_linear_row(j, &n, &la, -delta);
    }
    s.solve_angular_lock(j, &pass.soft, pass.use_bias, &mut i.angular);
    for (k, t) in [t1, t2].iter().enumerate() {
        let mass = s.linear_row_mass(j, t, &la);
        let bias = if pass.use_bias { s.d.dot(t) * pass.soft.bias_rate } else { 0.0 };
        let speed = s.linear_row_speed(t, &la);
        let lambda =
            -pass.soft.mass_scale * mass * (speed + bias) - pass.soft.impulse_scale * i.linear[k];
        i.linear[k] += lambda;
        s.apply_linear_row(j, t, &la, lambda);
    }
}

/// The reaction on B over the substep: force and torque (impulses / h).
pub(crate) fn reaction(r: &JointRecord, s: &JointBodies) -> (Vector3<f32>, Vector3<f32>) {
    let [n, t1, t2] = directions(s);
    let i = &r.impulses;
    (n * axial_impulse(r) + t1 * i.linear.x + t2 * i.linear.y, i.angular)
}
