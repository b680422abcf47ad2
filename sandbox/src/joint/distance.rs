//! The distance joint's rows (box3d's `distance_joint.c`, rewritten), all
//! along the line between the anchors: a rod (one two-sided row at the
//! rest length, soft in the push pass and rigid in the relax pass) when
//! the joint has neither spring nor range; otherwise the spring towards
//! the rest length (in both passes), then the range's lower and upper
//! ends as one-sided rows.

use collide::nalgebra::Vector3;

use crate::joint::prepare::PreparedJoint;
use crate::joint::rows::{JointBodies, Pass, limit_delta};
use crate::joint::storage::JointRecord;

/// Shortest length (m) at which the line between the anchors has a
/// direction: below it (anchors that meet, a rope gone slack to nothing)
/// the rows are skipped for the substep. A micrometre, far below any
/// joint's length and above f32 rounding of metre-scale positions.
const MIN_LENGTH: f32 = 1e-6;

/// The line's unit direction from A's anchor to B's, and its length.
fn line(s: &JointBodies) -> Option<(Vector3<f32>, f32)> {
    let length = s.d.norm();
    (length > MIN_LENGTH).then(|| (s.d / length, length))
}

/// The impulse along the line of the last substep.
fn line_impulse(r: &JointRecord) -> f32 {
    let i = &r.impulses;
    i.spring + i.lower - i.upper
}

/// Applies the accumulated impulses of the last substep.
pub(crate) fn warm_start(j: &PreparedJoint, r: &JointRecord, s: &mut JointBodies) {
    if let Some((n, _)) = line(s) {
        let ra = s.ra;
        s.apply_linear_row(j, &n, &ra, line_impulse(r));
    }
}

/// One pass of the joint's rows.
pub(crate) fn solve(j: &PreparedJoint, r: &mut JointRecord, s: &mut JointBodies, pass: &Pass) {
    let Some((n, length)) = line(s) else {
        return;
    };
    let ra = s.ra;
    let mass = s.linear_row_mass(j, &n, &ra);
    let i = &mut r.impulses;
    let rod = j.linear_spring.is_none() && r.limits.is_none();
    if rod || j.linear_spring.is_some() {
        let soft = j.linear_spring.unwrap_or(pass.soft);
        let use_bias = j.linear_spring.is_some() || pass.use_bias;
        let c = length - r.rest_length;
        let bias = if use_bias { c * soft.bias_rate } else { 0.0 };
        let speed = s.linear_row_speed(&n, &ra);
        let lambda = -soft.mass_scale * mass * (speed + bias) - soft.impulse_scale * i.spring;
        if lambda.is_finite() {
            i.spring += lambda;
            s.apply_linear_row(j, &n, &ra, lambda);
        }
    }
    if let Some((lower, upper)) = r.limits {
        let speed = s.linear_row_speed(&n, &ra);
        let delta = limit_delta(length - lower, speed, mass, pass, &mut i.lower);
        s.apply_linear_row(j, &n, &ra, delta);
        let speed = s.linear_row_speed(&n, &ra);
        let delta = limit_delta(upper - length, -speed, mass, pass, &mut i.upper);
        s.apply_linear_row(j, &n, &ra, -delta);
    }
}

/// The reaction on B over the substep: force and torque (impulses / h).
pub(crate) fn reaction(r: &JointRecord, s: &JointBodies) -> (Vector3<f32>, Vector3<f32>) {
    let n = line(s).map_or(Vector3::zeros(), |(n, _)| n);
    (n * line_impulse(r), Vector3::zeros())
}
