//! The weld joint's rows (box3d's `weld_joint.c`, rewritten): the angular
//! lock, then the point constraint. Each is the joint's soft row in the
//! push pass and rigid in the relax pass, unless the weld has its own
//! linear or angular spring, which then acts in both passes (as box3d's
//! `linearHertz` and `angularHertz` do).

use collide::nalgebra::Vector3;

use crate::joint::prepare::PreparedJoint;
use crate::joint::rows::{JointBodies, Pass};
use crate::joint::storage::JointRecord;

/// Applies the accumulated impulses of the last substep.
pub(crate) fn warm_start(j: &PreparedJoint, r: &JointRecord, s: &mut JointBodies) {
    s.apply_angular(j, &r.impulses.angular);
    s.apply_point(j, &r.impulses.linear);
}

/// One pass of the joint's rows.
pub(crate) fn solve(j: &PreparedJoint, r: &mut JointRecord, s: &mut JointBodies, pass: &Pass) {
    let i = &mut r.impulses;
    match &j.angular_spring {
        Some(spring) => s.solve_angular_lock(j, spring, true, &mut i.angular),
        None => s.solve_angular_lock(j, &pass.soft, pass.use_bias, &mut i.angular),
    }
    match &j.linear_spring {
        Some(spring) => s.solve_point(j, spring, true, &mut i.linear),
        None => s.solve_point(j, &pass.soft, pass.use_bias, &mut i.linear),
    }
}

/// The reaction on B over the substep: force and torque (impulses / h).
pub(crate) fn reaction(r: &JointRecord) -> (Vector3<f32>, Vector3<f32>) {
    (r.impulses.linear, r.impulses.angular)
}
