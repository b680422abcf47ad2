//! A joint as the app and the tests read it: its kind, bodies, both
//! frames in the world (so both anchors and the axis), and its last
//! reaction, built on demand from the world's joint storage.

use collide::nalgebra::{Isometry3, Point3, Vector3};

use crate::body::BodyId;
use crate::joint::desc::{JointId, JointKind};

/// What there is to draw and read of one joint, world frame, at the
/// bodies' current poses: see [`World::joint`](crate::World::joint).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct JointView {
    /// The joint's handle.
    pub id: JointId,
    /// What it holds.
    pub kind: JointKind,
    /// Body A.
    pub body_a: BodyId,
    /// Body B.
    pub body_b: BodyId,
    /// Body A's joint frame in the world (origin the anchor, z the axis).
    pub frame_a: Isometry3<f32>,
    /// Body B's joint frame in the world.
    pub frame_b: Isometry3<f32>,
    /// The reaction force the joint applied to body B over the last step,
    /// N (body A got its opposite).
    pub force: Vector3<f32>,
    /// The reaction torque the joint applied to body B over the last step
    /// about its anchor, N·m, not counting the force's moment.
    pub torque: Vector3<f32>,
    /// Whether the two bodies collide with each other.
    pub collide_connected: bool,
}

impl JointView {
    /// Body A's anchor, world frame.
    pub fn anchor_a(&self) -> Point3<f32> {
        Point3::from(self.frame_a.translation.vector)
    }

    /// Body B's anchor, world frame.
    pub fn anchor_b(&self) -> Point3<f32> {
        Point3::from(self.frame_b.translation.vector)
    }

    /// The joint axis as body A carries it (its frame's z axis), world
    /// frame, unit length.
    pub fn axis(&self) -> Vector3<f32> {
        self.frame_a.rotation * Vector3::z()
    }
}
