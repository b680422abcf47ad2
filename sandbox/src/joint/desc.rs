//! What a joint is made of before the world takes it: its handle
//! ([`JointId`]), its kind ([`JointKind`]), the frames it joins, its
//! limits, motor, friction, softness and breaking thresholds
//! ([`JointDesc`], built by one constructor per kind and `with_` setters).
//!
//! Frames follow box3d's convention: each body holds a joint frame (a pose
//! in the body's frame); the frame's origin is the anchor and its z axis
//! the joint axis (the hinge of a revolute joint, the slide of a prismatic
//! one, the cone axis of a spherical one). The constructors take world
//! anchors and axes at creation, which
//! [`World::create_joint`](crate::World::create_joint) resolves into the
//! two bodies' frames; [`JointDesc::with_local_frames`] gives the frames
//! directly.

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use crate::body::BodyId;

/// A handle to a joint of a [`World`](crate::World).
///
/// Handles carry a generation, so a handle to a removed joint never aliases
/// a joint created later in the same slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JointId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl JointId {
    /// The joint's slot. Joints created in order into a world without
    /// joints get slots 0, 1, 2, ...; the solver visits joints in slot order.
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

/// What a joint holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JointKind {
    /// A ball and socket: the anchors meet; the bodies turn freely, within
    /// an optional cone limit (the angle between the two frames' z axes)
    /// and twist limits (the turn about them).
    Spherical,
    /// A hinge: the anchors meet and the frames' z axes stay aligned; the
    /// bodies turn about that axis, within optional angle limits, driven by
    /// an optional motor, against optional friction.
    Revolute,
    /// A slider: the frames keep their relative rotation and body B's
    /// anchor stays on the line through A's anchor along A's z axis; the
    /// slide is limited, driven and braked as a revolute joint's turn is.
    Prismatic,
    /// The frames stay together: no relative motion at all (unless softened
    /// with [`JointDesc::with_linear_softness`] and
    /// [`JointDesc::with_angular_softness`]).
    Weld,
    /// The anchors keep their distance (a rod), or stay within a range of
    /// distances (a rope, [`JointDesc::with_length_range`]), optionally
    /// pulled towards a rest length by a spring ([`JointDesc::with_spring`]).
    Distance,
}

impl JointKind {
    /// The kind's name, as the scene files spell it (`"revolute"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Spherical => "spherical",
            Self::Revolute => "revolute",
            Self::Prismatic => "prismatic",
            Self::Weld => "weld",
            Self::Distance => "distance",
        }
    }
}

/// A spring of frequency `hertz` (Hz) and damping ratio `damping_ratio`
/// (1 is critical damping), the soft-step form of a constraint's stiffness
/// (Catto, "Soft Constraints", GDC 2011). A `hertz` of zero means rigid
/// where a softness bounds a constraint's position correction, and no
/// spring at all where it is a spring ([`JointDesc::with_spring`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    /// Frequency, Hz (zero or positive).
    pub hertz: f32,
    /// Damping ratio (zero or positive; 1 is critical).
    pub damping_ratio: f32,
}

impl Softness {
    /// A spring of `hertz` and `damping_ratio`.
    pub const fn new(hertz: f32, damping_ratio: f32) -> Self {
        Self { hertz, damping_ratio }
    }
}

/// A joint motor: drives the joint's free coordinate (a revolute joint's
/// angle, a prismatic joint's slide) at `speed` (rad/s or m/s) with at most
/// `max_force` (N·m or N).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    /// Target speed, rad/s (revolute) or m/s (prismatic), of body B
    /// relative to body A about (along) the joint axis.
    pub speed: f32,
    /// Largest torque (N·m) or force (N) the motor applies.
    pub max_force: f32,
}

/// Where a joint's frames come from.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum JointFrames {
    /// World anchors and a world axis at creation: each body's frame is
    /// the frame at the anchor whose z axis is `axis` (turned from the
    /// world z by the shortest rotation), seen from the body at its pose
    /// when the joint is created. Both anchors are the same point except
    /// for a distance joint.
    World {
        /// Body A's anchor, world frame, m.
        anchor_a: Point3<f32>,
        /// Body B's anchor, world frame, m.
        anchor_b: Point3<f32>,
        /// The joint axis, world frame (any finite non-zero length).
        axis: Vector3<f32>,
    },
    /// Each body's frame in that body's frame (origin the anchor, z the
    /// axis).
    Local {
        /// Body A's joint frame, in body A's frame.
        frame_a: Isometry3<f32>,
        /// Body B's joint frame, in body B's frame.
        frame_b: Isometry3<f32>,
    },
}

/// Everything needed to create a joint: one constructor per
/// [`JointKind`], then `with_` setters. Values are checked by
/// [`World::create_joint`](crate::World::create_joint), which returns a
/// typed error for any it refuses; nothing is clamped.
///
/// ```
/// use sandbox::{BodyDesc, JointDesc, World};
/// use sandbox::collide::{Cuboid, Sphere};
/// use sandbox::collide::nalgebra::{Point3, Vector3};
/// let mut world = World::new();
/// let post = world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.1)).into())).unwrap();
/// let bob = world.add_body(BodyDesc::dynamic(Sphere::new(0.1).into())
///     .with_position(Vector3::new(1.0, 0.0, 0.0))).unwrap();
/// let hinge = JointDesc::revolute(post, bob, Point3::origin(), Vector3::z())
///     .with_limits(-1.0, 1.0)
///     .with_friction(0.01);
/// let joint = world.create_joint(hinge).unwrap();
/// assert_eq!(world.joint_count(), 1);
/// for _ in 0..60 {
///     world.step(1.0 / 60.0);
/// }
/// // The bob swung down on its hinge, 1 m from the post.
/// let p = world.pose(bob).unwrap().translation.vector;
/// assert!((p.norm() - 1.0).abs() < 0.01, "{p}");
/// assert!(world.joint(joint).is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct JointDesc {
    /// What the joint holds.
    pub kind: JointKind,
    /// Body A.
    pub body_a: BodyId,
    /// Body B.
    pub body_b: BodyId,
    /// The joint frames.
    pub frames: JointFrames,
    /// Lower and upper limits of the free coordinate: a revolute joint's
    /// angle (rad), a prismatic joint's slide (m), a distance joint's
    /// length (m; see [`JointDesc::with_length_range`]).
    pub limits: Option<(f32, f32)>,
    /// A spherical joint's cone limit: the largest angle between the
    /// frames' z axes, rad, in `(0, π]`.
    pub cone_limit: Option<f32>,
    /// A spherical joint's twist limits about the frames' z axes, rad, in
    /// `[-π, π]`.
    pub twist_limits: Option<(f32, f32)>,
    /// A revolute or prismatic joint's motor.
    pub motor: Option<Motor>,
    /// Largest friction torque (N·m; revolute and spherical) or force (N;
    /// prismatic) the joint resists motion with: a motor of speed zero.
    /// Zero for none.
    pub friction: f32,
    /// How stiffly the joint's position errors are corrected; `None` for
    /// the default ([`DEFAULT_JOINT_SOFTNESS`](crate::DEFAULT_JOINT_SOFTNESS)).
    pub softness: Option<Softness>,
    /// A weld's linear spring (`None`: as rigid as any joint).
    pub linear_softness: Option<Softness>,
    /// A weld's angular spring (`None`: as rigid as any joint).
    pub angular_softness: Option<Softness>,
    /// A distance joint's spring towards its rest length.
    pub spring: Option<Softness>,
    /// A distance joint's rest length, m; `None` for the anchors' distance
    /// at creation.
    pub rest_length: Option<f32>,
    /// Whether the two bodies still collide with each other (default
    /// false, as Box2D's `collideConnected`).
    pub collide_connected: bool,
    /// The reaction force (N) above which a step removes the joint and
    /// reports [`JointEvent::Broke`](crate::JointEvent::Broke); infinite
    /// by default.
    pub break_force: f32,
    /// The reaction torque (N·m) above which the joint breaks; infinite by
    /// default.
    pub break_torque: f32,
}

/// The rotation whose z axis is `axis` (any finite non-zero vector; a zero
/// or non-finite one gives the identity, which
/// [`World::create_joint`](crate::World::create_joint) refuses through the
/// axis check first).
pub(crate) fn rotation_with_z(axis: &Vector3<f32>) -> UnitQuaternion<f32> {
    let z = Vector3::z();
    match axis.try_normalize(f32::MIN_POSITIVE) {
        Some(n) => UnitQuaternion::rotation_between(&z, &n).unwrap_or_else(|| {
            // Antiparallel: half a turn about x.
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::PI)
        }),
        None => UnitQuaternion::identity(),
    }
}

impl JointDesc {
    fn at(
        kind: JointKind,
        a: BodyId,
        b: BodyId,
        anchor_a: Point3<f32>,
        anchor_b: Point3<f32>,
        axis: Vector3<f32>,
    ) -> Self {
        Self {
            kind,
            body_a: a,
            body_b: b,
            frames: JointFrames::World { anchor_a, anchor_b, axis },
            limits: None,
            cone_limit: None,
            twist_limits: None,
            motor: None,
            friction: 0.0,
            softness: None,
            linear_softness: None,
            angular_softness: None,
            spring: None,
            rest_length: None,
            collide_connected: false,
            break_force: f32::INFINITY,
            break_torque: f32::INFINITY,
        }
    }

    /// A ball and socket joining `a` and `b` at `anchor` (world frame, at
    /// creation). Its cone axis is the world z axis unless
    /// [`with_axis`](JointDesc::with_axis) says otherwise.
    pub fn spherical(a: BodyId, b: BodyId, anchor: Point3<f32>) -> Self {
        Self::at(JointKind::Spherical, a, b, anchor, anchor, Vector3::z())
    }

    /// A hinge joining `a` and `b` at `anchor` about `axis` (world frame,
    /// at creation; any non-zero length). Angles are measured from the
    /// bodies' relative rotation at creation, positive when B turns
    /// counter-clockwise about `axis` relative to A.
    pub fn revolute(a: BodyId, b: BodyId, anchor: Point3<f32>, axis: Vector3<f32>) -> Self {
        Self::at(JointKind::Revolute, a, b, anchor, anchor, axis)
    }

    /// A slider joining `a` and `b` at `anchor`, sliding along `axis`
    /// (world frame, at creation). The slide is measured from the anchors'
    /// positions at creation, positive when B moves along `axis`
    /// relative to A.
    pub fn prismatic(a: BodyId, b: BodyId, anchor: Point3<f32>, axis: Vector3<f32>) -> Self {
        Self::at(JointKind::Prismatic, a, b, anchor, anchor, axis)
    }

    /// A weld holding `a` and `b` together at `anchor` (world frame, at
    /// creation), in their relative pose at creation.
    pub fn weld(a: BodyId, b: BodyId, anchor: Point3<f32>) -> Self {
        Self::at(JointKind::Weld, a, b, anchor, anchor, Vector3::z())
    }

    /// A distance joint between `anchor_a` on `a` and `anchor_b` on `b`
    /// (world frame, at creation): a rod of their distance at creation,
    /// unless [`with_length_range`](JointDesc::with_length_range),
    /// [`with_rest_length`](JointDesc::with_rest_length) or
    /// [`with_spring`](JointDesc::with_spring) say otherwise.
    pub fn distance(a: BodyId, b: BodyId, anchor_a: Point3<f32>, anchor_b: Point3<f32>) -> Self {
        Self::at(JointKind::Distance, a, b, anchor_a, anchor_b, Vector3::z())
    }

    /// Sets the joint axis (world frame, at creation): the z axis of both
    /// frames. Ignored with [`with_local_frames`](JointDesc::with_local_frames)
    /// frames.
    pub fn with_axis(mut self, axis: Vector3<f32>) -> Self {
        if let JointFrames::World { axis: a, .. } = &mut self.frames {
            *a = axis;
        }
        self
    }

    /// Gives both joint frames directly, each in its body's frame (origin
    /// the anchor, z the joint axis), replacing the world anchors.
    pub fn with_local_frames(mut self, frame_a: Isometry3<f32>, frame_b: Isometry3<f32>) -> Self {
        self.frames = JointFrames::Local { frame_a, frame_b };
        self
    }

    /// Limits the free coordinate to `[lower, upper]`: a revolute joint's
    /// angle (rad), a prismatic joint's slide (m), a distance joint's
    /// length (m, as [`with_length_range`](JointDesc::with_length_range)).
    pub fn with_limits(mut self, lower: f32, upper: f32) -> Self {
        self.limits = Some((lower, upper));
        self
    }

    /// A distance joint's range of lengths, m: free between `min` and
    /// `max` (a rope for `min` = 0), held at them.
    pub fn with_length_range(self, min: f32, max: f32) -> Self {
        self.with_limits(min, max)
    }

    /// A distance joint's rest length, m (what its spring pulls towards,
    /// or the rod's length without a spring and range).
    pub fn with_rest_length(mut self, length: f32) -> Self {
        self.rest_length = Some(length);
        self
    }

    /// A distance joint's spring towards its rest length.
    pub fn with_spring(mut self, spring: Softness) -> Self {
        self.spring = Some(spring);
        self
    }

    /// A spherical joint's cone limit, rad in `(0, π]`: the largest angle
    /// between body A's and body B's frame z axes.
    pub fn with_cone_limit(mut self, angle: f32) -> Self {
        self.cone_limit = Some(angle);
        self
    }

    /// A spherical joint's twist limits about the frames' z axes, rad,
    /// each in `[-π, π]`.
    pub fn with_twist_limits(mut self, lower: f32, upper: f32) -> Self {
        self.twist_limits = Some((lower, upper));
        self
    }

    /// A motor driving a revolute or prismatic joint at `speed` (rad/s or
    /// m/s) with at most `max_force` (N·m or N).
    pub fn with_motor(mut self, speed: f32, max_force: f32) -> Self {
        self.motor = Some(Motor { speed, max_force });
        self
    }

    /// Joint friction: at most `max` (N·m, or N for a prismatic joint)
    /// resisting the free motion.
    pub fn with_friction(mut self, max: f32) -> Self {
        self.friction = max;
        self
    }

    /// How stiffly the joint corrects its position errors (a weld's too,
    /// unless it has its own springs).
    pub fn with_softness(mut self, softness: Softness) -> Self {
        self.softness = Some(softness);
        self
    }

    /// A weld's linear spring.
    pub fn with_linear_softness(mut self, softness: Softness) -> Self {
        self.linear_softness = Some(softness);
        self
    }

    /// A weld's angular spring.
    pub fn with_angular_softness(mut self, softness: Softness) -> Self {
        self.angular_softness = Some(softness);
        self
    }

    /// Whether the joined bodies still collide with each other (default
    /// false).
    pub fn with_collide_connected(mut self, collide: bool) -> Self {
        self.collide_connected = collide;
        self
    }

    /// The reaction force, N, above which the joint breaks.
    pub fn with_break_force(mut self, force: f32) -> Self {
        self.break_force = force;
        self
    }

    /// The reaction torque, N·m, above which the joint breaks.
    pub fn with_break_torque(mut self, torque: f32) -> Self {
        self.break_torque = torque;
        self
    }
}

/// The softness of a joint that gives none
/// ([`JointDesc::with_softness`]): how stiffly its position errors are
/// corrected in the soft step's push pass (the relax pass holds the
/// velocities rigidly, as Box2D v3 does). box3d's default, 60 Hz at a
/// damping ratio of 2; the solver caps every joint's frequency at a
/// quarter of the substep rate, as box3d does, above which one sweep per
/// substep no longer holds a soft constraint stably.
pub const DEFAULT_JOINT_SOFTNESS: Softness = Softness::new(60.0, 2.0);
