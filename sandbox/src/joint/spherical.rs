//! The spherical joint's rows (box3d's `spherical_joint.c`, rewritten):
//! friction on the relative spin (three rows, their impulse kept within
//! a ball of `friction · h`), the two twist limits about the frames' z
//! axes, the cone limit on the angle between them, then the point
//! constraint last, so that the anchors' meeting has the last word.
//!
//! Departure from box3d: the twist row's Jacobian is the mean of the two
//! z axes (exact when the swing is zero, and never singular below a
//! half-turn of swing) rather than box3d's `z_a + tan(θ/2) · perp`, and
//! the swing and twist axes are recomputed every substep instead of once
//! per step.

use collide::nalgebra::Vector3;

use crate::joint::prepare::PreparedJoint;
use crate::joint::rows::{JointBodies, Pass, limit_delta, twist_angle};
use crate::joint::storage::JointRecord;

/// Below this sine of the swing angle the swing axis is undefined; the
/// cone row is then far from any limit a ragdoll uses and is skipped.
const MIN_SWING_SINE: f32 = 1e-6;

/// The axis the twist is measured about: the mean of the frames' z axes.
fn twist_axis(s: &JointBodies) -> Vector3<f32> {
    let (za, zb) = (s.qa * Vector3::z(), s.qb * Vector3::z());
    (za + zb).try_normalize(MIN_SWING_SINE).unwrap_or(za)
}

/// The swing angle and the unit axis it turns about (`z_a × z_b`), if
/// defined.
fn swing(s: &JointBodies) -> Option<(f32, Vector3<f32>)> {
    let (za, zb) = (s.qa * Vector3::z(), s.qb * Vector3::z());
    let c = za.cross(&zb);
    let sine = c.norm();
    (sine > MIN_SWING_SINE).then(|| (sine.atan2(za.dot(&zb)), c / sine))
}

/// Applies the accumulated impulses of the last substep.
pub(crate) fn warm_start(j: &PreparedJoint, r: &JointRecord, s: &mut JointBodies) {
    let i = &r.impulses;
    let mut angular = i.friction;
    if r.twist_limits.is_some() {
        angular += twist_axis(s) * (i.twist_lower - i.twist_upper);
    }
    // The swing is only worked out for a joint with a cone limit.
    if let Some((_, axis)) = r.cone_limit.and_then(|_| swing(s)) {
        angular -= axis * i.cone;
    }
    s.apply_angular(j, &angular);
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
    let i = &mut r.impulses;
    if r.friction > 0.0 {
        let k = j.a.inv_inertia + j.b.inv_inertia;
        if let Some(c) = k.cholesky() {
            let old = i.friction;
            let mut new = old - c.solve(&(s.wb - s.wa));
            let max = r.friction * h;
            let norm = new.norm();
            if norm > max {
                new *= max / norm;
            }
            if new.iter().all(|x| x.is_finite()) {
                i.friction = new;
                s.apply_angular(j, &(new - old));
            }
        }
    }
    if let Some((lower, upper)) = r.twist_limits {
        let angle = twist_angle(&s.relative_rotation());
        let t = twist_axis(s);
        let mass = s.angular_row_mass(j, &t);
        let delta = limit_delta(angle - lower, s.angular_speed(&t), mass, pass, &mut i.twist_lower);
        s.apply_angular(j, &(t * delta));
        let delta =
            limit_delta(upper - angle, -s.angular_speed(&t), mass, pass, &mut i.twist_upper);
        s.apply_angular(j, &(t * -delta));
    }
    if let Some((cone, (angle, axis))) = r.cone_limit.and_then(|c| Some((c, swing(s)?))) {
        let mass = s.angular_row_mass(j, &axis);
        let delta = limit_delta(cone - angle, -s.angular_speed(&axis), mass, pass, &mut i.cone);
        s.apply_angular(j, &(axis * -delta));
    }
    s.solve_point(j, &pass.soft, pass.use_bias, &mut i.linear);
}

/// The reaction on B over the substep: force and torque (impulses / h).
pub(crate) fn reaction(r: &JointRecord, s: &JointBodies) -> (Vector3<f32>, Vector3<f32>) {
    let i = &r.impulses;
    let mut torque = i.friction;
    if r.twist_limits.is_some() {
        torque += twist_axis(s) * (i.twist_lower - i.twist_upper);
    }
    if let Some((_, axis)) = r.cone_limit.and_then(|_| swing(s)) {
        torque -= axis * i.cone;
    }
    (i.linear, torque)
}
