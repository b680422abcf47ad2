//! The revolute joint's rows (box3d's `revolute_joint.c`, rewritten):
//! friction and the motor about the hinge axis (velocity rows bounded by
//! `friction · h` and `max_torque · h`), the lower and upper angle limits
//! (one-sided soft rows), the two rows that keep B's axis on A's, then
//! the point constraint last.
//!
//! Departure from box3d: the alignment error is `z_a × z_b` projected on
//! A's frame x and y axes (the sine of the misalignment, exact in
//! direction) rather than box3d's quaternion-derivative Jacobian.

use collide::nalgebra::{Vector2, Vector3};

use crate::joint::prepare::PreparedJoint;
use crate::joint::rows::{JointBodies, Pass, limit_delta, motor_delta, twist_angle};
use crate::joint::storage::JointRecord;

/// The axial impulse of the last substep: friction, motor and limits.
fn axial_impulse(r: &JointRecord) -> f32 {
    let i = &r.impulses;
    i.friction.x + i.motor + i.lower - i.upper
}

/// Applies the accumulated impulses of the last substep.
pub(crate) fn warm_start(j: &PreparedJoint, r: &JointRecord, s: &mut JointBodies) {
    let (ex, ey, z) = (s.qa * Vector3::x(), s.qa * Vector3::y(), s.qa * Vector3::z());
    let i = &r.impulses;
    s.apply_angular(j, &(ex * i.angular.x + ey * i.angular.y + z * axial_impulse(r)));
    s.apply_point(j, &i.linear);
}

/// One pass of the joint's rows.
pub(crate) fn solve(
    j: &PreparedJoint,
    r: &mut JointRecord,
    s: &mut JointBodies,
    pass: &Pass,
    h: f32,
) {
    let z = s.qa * Vector3::z();
    let mass = s.angular_row_mass(j, &z);
    let i = &mut r.impulses;
    if r.friction > 0.0 {
        let delta = motor_delta(s.angular_speed(&z), 0.0, mass, r.friction * h, &mut i.friction.x);
        s.apply_angular(j, &(z * delta));
    }
    if let Some(motor) = r.motor {
        let max = motor.max_force * h;
        let delta = motor_delta(s.angular_speed(&z), motor.speed, mass, max, &mut i.motor);
        s.apply_angular(j, &(z * delta));
    }
    if let Some((lower, upper)) = r.limits {
        let angle = twist_angle(&s.relative_rotation());
        let delta = limit_delta(angle - lower, s.angular_speed(&z), mass, pass, &mut i.lower);
        s.apply_angular(j, &(z * delta));
        let delta = limit_delta(upper - angle, -s.angular_speed(&z), mass, pass, &mut i.upper);
        s.apply_angular(j, &(z * -delta));
    }
    let mut aligned = Vector2::new(i.angular.x, i.angular.y);
    s.solve_axis_alignment(j, pass, &mut aligned);
    i.angular = Vector3::new(aligned.x, aligned.y, 0.0);
    s.solve_point(j, &pass.soft, pass.use_bias, &mut i.linear);
}

/// The reaction on B over the substep: force and torque (impulses / h).
pub(crate) fn reaction(r: &JointRecord, s: &JointBodies) -> (Vector3<f32>, Vector3<f32>) {
    let (ex, ey, z) = (s.qa * Vector3::x(), s.qa * Vector3::y(), s.qa * Vector3::z());
    let i = &r.impulses;
    (i.linear, ex * i.angular.x + ey * i.angular.y + z * axial_impulse(r))
}
