//! A joint as the app and the tests read it: its kind, bodies, both
//! frames in the world (so both anchors and the axis), its limits, the
//! coordinates they bound, and its last reaction, built on demand from the
//! world's joint storage.

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

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
    /// Lower and upper limits of the free coordinate, as the joint was
    /// made with them: a revolute joint's angle (rad, B's frame x axis
    /// about A's z axis from A's x axis, [`JointView::angle`]), a prismatic
    /// joint's slide (m, along A's z axis, [`JointView::slide`]), a
    /// distance joint's length range (m).
    pub limits: Option<(f32, f32)>,
    /// A spherical joint's cone limit: the largest angle between the
    /// frames' z axes, rad ([`JointView::swing`]).
    pub cone_limit: Option<f32>,
    /// A spherical joint's twist limits about the frames' z axes, rad
    /// ([`JointView::twist`]).
    pub twist_limits: Option<(f32, f32)>,
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

    /// The rotation from A's frame to B's, with a non-negative scalar
    /// part, so that the angles read from it lie in `[-π, π]`.
    fn relative_rotation(&self) -> UnitQuaternion<f32> {
        let q = self.frame_a.rotation.inverse() * self.frame_b.rotation;
        if q.w < 0.0 { UnitQuaternion::new_unchecked(-q.into_inner()) } else { q }
    }

    /// The turn of B's frame about A's z axis, rad in `[-π, π]`: a
    /// revolute joint's angle, a spherical joint's twist (the twist of the
    /// swing-twist decomposition of A's frame to B's about z), which the
    /// limits bound.
    ///
    /// ```
    /// use sandbox::{BodyDesc, JointDesc, World};
    /// use sandbox::collide::{Cuboid, nalgebra::{Point3, UnitQuaternion, Vector3}};
    /// let mut world = World::new();
    /// let post = world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.1)).into())).unwrap();
    /// let door = world.add_body(BodyDesc::dynamic(Cuboid::new(Vector3::new(0.5, 1.0, 0.05)).into())
    ///     .with_position(Vector3::new(0.5, 0.0, 0.0))
    ///     .with_rotation(UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.3))).unwrap();
    /// let hinge = world.create_joint(JointDesc::revolute(post, door, Point3::origin(), Vector3::y())
    ///     .with_limits(-0.5, 1.0)).unwrap();
    /// let view = world.joint(hinge).unwrap();
    /// assert_eq!(view.limits, Some((-0.5, 1.0)));
    /// assert!(view.angle().abs() < 1e-6); // the frames start together
    /// ```
    pub fn angle(&self) -> f32 {
        let q = self.relative_rotation();
        2.0 * q.k.atan2(q.w)
    }

    /// A spherical joint's twist about the frames' z axes, rad: the same
    /// turn as [`JointView::angle`].
    pub fn twist(&self) -> f32 {
        self.angle()
    }

    /// The angle between the frames' z axes, rad in `[0, π]`: a spherical
    /// joint's swing, which its cone limit bounds.
    pub fn swing(&self) -> f32 {
        let (za, zb) = (self.frame_a.rotation * Vector3::z(), self.frame_b.rotation * Vector3::z());
        za.cross(&zb).norm().atan2(za.dot(&zb))
    }

    /// A prismatic joint's slide: how far B's anchor lies from A's along
    /// A's axis, m, which its limits bound.
    pub fn slide(&self) -> f32 {
        self.axis().dot(&(self.anchor_b() - self.anchor_a()))
    }
}
