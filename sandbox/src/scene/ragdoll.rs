//! A ragdoll: eleven box and capsule parts (pelvis, torso, head, upper and
//! lower arms, upper and lower legs) joined by ball joints with cone and
//! twist limits at the waist, neck, shoulders and hips, and hinges with
//! human ranges at the elbows and knees, every joint with friction, and
//! no joined pair colliding.
//!
//! It follows the plan of box3d's `shared/human.c` (a pelvis at the root,
//! spherical joints with a swing cone and a twist range, revolute knees
//! and elbows with one-sided ranges, joint friction as a capped motor of
//! zero speed, scaled per joint), and departs from it where the sandbox
//! differs: box3d poses its bones from an artist's skeleton, with joint
//! frames given in each body's frame; here the body stands in a simple
//! rest pose (upright, arms down, facing +z, every part unrotated) and
//! each joint is given in the ragdoll's frame by a world anchor and an
//! axis, so the rest pose is every joint's zero angle. One waist joint
//! stands for box3d's three spine joints, and no neck bone sits between
//! the torso and the head. box3d's filter joint between the thighs (so
//! they never collide) has no counterpart: the thighs start 4 cm apart
//! and may touch.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Capsule, Cuboid, Shape};

use crate::body::{BodyDesc, BodyId, DEFAULT_DENSITY, DEFAULT_FRICTION};
use crate::error::WorldError;
use crate::joint::{JointDesc, JointId};
use crate::world::World;

/// One part of a [`Ragdoll`], in the order [`build_ragdoll`] creates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RagdollPart {
    /// The hips: a box, the root every chain of joints starts from.
    Pelvis,
    /// The chest and belly: a box above the pelvis.
    Torso,
    /// An upright capsule above the torso.
    Head,
    /// The left upper arm (on the ragdoll's left, +x), a capsule.
    UpperArmLeft,
    /// The left forearm, a capsule.
    ForearmLeft,
    /// The right upper arm (−x), a capsule.
    UpperArmRight,
    /// The right forearm, a capsule.
    ForearmRight,
    /// The left thigh, a capsule.
    ThighLeft,
    /// The left shin, a capsule.
    ShinLeft,
    /// The right thigh, a capsule.
    ThighRight,
    /// The right shin, a capsule.
    ShinRight,
}

impl RagdollPart {
    /// Every part, in creation order.
    pub const ALL: [RagdollPart; RAGDOLL_PART_COUNT] = [
        RagdollPart::Pelvis,
        RagdollPart::Torso,
        RagdollPart::Head,
        RagdollPart::UpperArmLeft,
        RagdollPart::ForearmLeft,
        RagdollPart::UpperArmRight,
        RagdollPart::ForearmRight,
        RagdollPart::ThighLeft,
        RagdollPart::ShinLeft,
        RagdollPart::ThighRight,
        RagdollPart::ShinRight,
    ];

    /// The part's place in [`RagdollPart::ALL`] and in [`Ragdoll::parts`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How many parts a ragdoll has.
pub const RAGDOLL_PART_COUNT: usize = 11;

/// How many joints a ragdoll has (one per part but the pelvis).
pub const RAGDOLL_JOINT_COUNT: usize = 10;

/// What a ragdoll joint lets its child part do relative to its parent,
/// measured from the rest pose (where every angle is zero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RagdollLimits {
    /// A ball joint: the child's copy of the joint axis stays within
    /// `cone` radians of the parent's, and the child turns about it by an
    /// angle in `twist` (low, high).
    Spherical {
        /// Half-angle of the swing cone, radians.
        cone: f32,
        /// Twist range about the axis, radians (low, high).
        twist: [f32; 2],
    },
    /// A hinge about the joint axis, the child turning by an angle in
    /// `angle` (low, high; positive by the right-hand rule about the axis).
    Revolute {
        /// Angle range, radians (low, high).
        angle: [f32; 2],
    },
}

/// One joint of the ragdoll, in the ragdoll's frame at scale 1: origin
/// between the feet at their soles, +y up, facing +z, the ragdoll's left
/// on +x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RagdollJoint {
    /// What people call it ("left knee").
    pub name: &'static str,
    /// The part nearer the pelvis (the joint's first body).
    pub parent: RagdollPart,
    /// The part it moves (the joint's second body).
    pub child: RagdollPart,
    /// Where the two parts are joined, metres, ragdoll frame.
    pub anchor: [f32; 3],
    /// The hinge axis, or a ball joint's cone and twist axis (pointing
    /// from the joint into the child), ragdoll frame, unit length.
    pub axis: [f32; 3],
    /// The joint's range.
    pub limits: RagdollLimits,
    /// This joint's share of the ragdoll's joint friction (box3d's
    /// per-bone factor: the neck turns more freely than the hips).
    pub friction_share: f32,
}

const fn deg(d: f32) -> f32 {
    d * (core::f32::consts::PI / 180.0)
}

/// The ragdoll's joints, in creation order. The ranges are human ones,
/// narrowed where a symmetric cone must stand for an asymmetric range
/// (a hip swings forward far more than back; the cone allows 60° each
/// way). Knees and elbows open 5° past straight at most.
pub const RAGDOLL_JOINTS: [RagdollJoint; RAGDOLL_JOINT_COUNT] = [
    RagdollJoint {
        name: "waist",
        parent: RagdollPart::Pelvis,
        child: RagdollPart::Torso,
        anchor: [0.0, 1.095, 0.0],
        axis: [0.0, 1.0, 0.0],
        limits: RagdollLimits::Spherical { cone: deg(25.0), twist: [deg(-20.0), deg(20.0)] },
        friction_share: 1.0,
    },
    RagdollJoint {
        name: "neck",
        parent: RagdollPart::Torso,
        child: RagdollPart::Head,
        anchor: [0.0, 1.54, 0.0],
        axis: [0.0, 1.0, 0.0],
        limits: RagdollLimits::Spherical { cone: deg(40.0), twist: [deg(-45.0), deg(45.0)] },
        friction_share: 0.4,
    },
    RagdollJoint {
        name: "left shoulder",
        parent: RagdollPart::Torso,
        child: RagdollPart::UpperArmLeft,
        anchor: [0.245, 1.45, 0.0],
        axis: [0.0, -1.0, 0.0],
        limits: RagdollLimits::Spherical { cone: deg(80.0), twist: [deg(-45.0), deg(45.0)] },
        friction_share: 0.5,
    },
    RagdollJoint {
        name: "left elbow",
        parent: RagdollPart::UpperArmLeft,
        child: RagdollPart::ForearmLeft,
        anchor: [0.245, 1.13, 0.0],
        // About −x, a positive angle swings the hanging forearm forward.
        axis: [-1.0, 0.0, 0.0],
        limits: RagdollLimits::Revolute { angle: [deg(-5.0), deg(140.0)] },
        friction_share: 0.5,
    },
    RagdollJoint {
        name: "right shoulder",
        parent: RagdollPart::Torso,
        child: RagdollPart::UpperArmRight,
        anchor: [-0.245, 1.45, 0.0],
        axis: [0.0, -1.0, 0.0],
        limits: RagdollLimits::Spherical { cone: deg(80.0), twist: [deg(-45.0), deg(45.0)] },
        friction_share: 0.5,
    },
    RagdollJoint {
        name: "right elbow",
        parent: RagdollPart::UpperArmRight,
        child: RagdollPart::ForearmRight,
        anchor: [-0.245, 1.13, 0.0],
        axis: [-1.0, 0.0, 0.0],
        limits: RagdollLimits::Revolute { angle: [deg(-5.0), deg(140.0)] },
        friction_share: 0.5,
    },
    RagdollJoint {
        name: "left hip",
        parent: RagdollPart::Pelvis,
        child: RagdollPart::ThighLeft,
        anchor: [0.09, 0.91, 0.0],
        axis: [0.0, -1.0, 0.0],
        limits: RagdollLimits::Spherical { cone: deg(60.0), twist: [deg(-30.0), deg(30.0)] },
        friction_share: 1.0,
    },
    RagdollJoint {
        name: "left knee",
        parent: RagdollPart::ThighLeft,
        child: RagdollPart::ShinLeft,
        anchor: [0.09, 0.455, 0.0],
        // About +x, a positive angle swings the hanging shin backward.
        axis: [1.0, 0.0, 0.0],
        limits: RagdollLimits::Revolute { angle: [deg(-5.0), deg(140.0)] },
        friction_share: 1.0,
    },
    RagdollJoint {
        name: "right hip",
        parent: RagdollPart::Pelvis,
        child: RagdollPart::ThighRight,
        anchor: [-0.09, 0.91, 0.0],
        axis: [0.0, -1.0, 0.0],
        limits: RagdollLimits::Spherical { cone: deg(60.0), twist: [deg(-30.0), deg(30.0)] },
        friction_share: 1.0,
    },
    RagdollJoint {
        name: "right knee",
        parent: RagdollPart::ThighRight,
        child: RagdollPart::ShinRight,
        anchor: [-0.09, 0.455, 0.0],
        axis: [1.0, 0.0, 0.0],
        limits: RagdollLimits::Revolute { angle: [deg(-5.0), deg(140.0)] },
        friction_share: 1.0,
    },
];

/// A part's shape at scale 1.
#[derive(Clone, Copy)]
enum PartShape {
    /// A box of these half-extents.
    Box([f32; 3]),
    /// An upright capsule (along the part's y).
    Capsule { half_height: f32, radius: f32 },
}

/// Each part's shape and centre (ragdoll frame, scale 1), in the order of
/// [`RagdollPart::ALL`]. Heights for a person 1.87 m tall: soles at 0.02,
/// knees 0.455, hips 0.91, waist 1.095, shoulders 1.45, crown 1.87. Each
/// capsule ends within a centimetre of its joint, and neighbours along a
/// chain overlap there by at most that (they are joined, so never
/// collide).
const PARTS: [(PartShape, [f32; 3]); RAGDOLL_PART_COUNT] = [
    (PartShape::Box([0.15, 0.08, 0.10]), [0.0, 1.0, 0.0]),
    (PartShape::Box([0.17, 0.21, 0.11]), [0.0, 1.32, 0.0]),
    (PartShape::Capsule { half_height: 0.05, radius: 0.11 }, [0.0, 1.71, 0.0]),
    (PartShape::Capsule { half_height: 0.11, radius: 0.055 }, [0.245, 1.31, 0.0]),
    (PartShape::Capsule { half_height: 0.11, radius: 0.045 }, [0.245, 0.965, 0.0]),
    (PartShape::Capsule { half_height: 0.11, radius: 0.055 }, [-0.245, 1.31, 0.0]),
    (PartShape::Capsule { half_height: 0.11, radius: 0.045 }, [-0.245, 0.965, 0.0]),
    (PartShape::Capsule { half_height: 0.16, radius: 0.07 }, [0.09, 0.68, 0.0]),
    (PartShape::Capsule { half_height: 0.16, radius: 0.06 }, [0.09, 0.24, 0.0]),
    (PartShape::Capsule { half_height: 0.16, radius: 0.07 }, [-0.09, 0.68, 0.0]),
    (PartShape::Capsule { half_height: 0.16, radius: 0.06 }, [-0.09, 0.24, 0.0]),
];

/// The joint friction torque of a ragdoll at scale 1, N·m, before each
/// joint's [`friction_share`](RagdollJoint::friction_share): box3d's
/// `rain` scene's 5 N·m, about the torque gravity puts on a forearm held
/// level, so a limb swings but comes to rest.
pub const RAGDOLL_JOINT_FRICTION: f32 = 5.0;

/// Where and how to build a ragdoll: see [`build_ragdoll`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RagdollDesc {
    /// Where the ragdoll's origin (between its soles) is placed, world
    /// frame.
    pub position: Vector3<f32>,
    /// The ragdoll's rotation: identity stands it upright facing +z.
    pub rotation: UnitQuaternion<f32>,
    /// Every length is multiplied by this (1: a person 1.87 m tall).
    pub scale: f32,
    /// Contact friction of every part.
    pub friction: f32,
    /// Joint friction torque at scale 1, N·m, shared out by
    /// [`RagdollJoint::friction_share`] and multiplied by `scale⁴` (the
    /// way gravity's torque on a limb grows: mass by `scale³`, lever by
    /// `scale`), so a scaled ragdoll moves as the unscaled one does.
    pub joint_friction: f32,
    /// Density of every part, kg/m³ (water's 1000 by default: about 81 kg
    /// at scale 1).
    pub density: f32,
}

impl RagdollDesc {
    /// An upright ragdoll at `position`, scale 1, default friction,
    /// [`RAGDOLL_JOINT_FRICTION`] and [`DEFAULT_DENSITY`].
    pub fn new(position: Vector3<f32>) -> Self {
        Self {
            position,
            rotation: UnitQuaternion::identity(),
            scale: 1.0,
            friction: DEFAULT_FRICTION,
            joint_friction: RAGDOLL_JOINT_FRICTION,
            density: DEFAULT_DENSITY,
        }
    }

    /// Sets the rotation.
    pub fn with_rotation(mut self, rotation: UnitQuaternion<f32>) -> Self {
        self.rotation = rotation;
        self
    }

    /// Sets the scale.
    pub fn with_scale(mut self, scale: f32) -> Self {
        self.scale = scale;
        self
    }

    /// Sets the parts' contact friction.
    pub fn with_friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    /// Sets the joint friction torque at scale 1.
    pub fn with_joint_friction(mut self, torque: f32) -> Self {
        self.joint_friction = torque;
        self
    }

    /// Sets the parts' density.
    pub fn with_density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    /// The pose of the ragdoll's frame in the world.
    pub fn world_from_ragdoll(&self) -> Isometry3<f32> {
        Isometry3::from_parts(Translation3::from(self.position), self.rotation)
    }

    /// Where `joint`'s anchor is, world frame, for this ragdoll at rest.
    pub fn anchor_world(&self, joint: &RagdollJoint) -> Point3<f32> {
        self.world_from_ragdoll() * (Point3::from(joint.anchor) * self.scale)
    }

    /// `joint`'s axis, world frame, for this ragdoll at rest.
    pub fn axis_world(&self, joint: &RagdollJoint) -> Vector3<f32> {
        self.rotation * Vector3::from(joint.axis)
    }
}

/// A ragdoll in a world: its parts' bodies and its joints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ragdoll {
    /// The parts' bodies, in the order of [`RagdollPart::ALL`].
    pub parts: [BodyId; RAGDOLL_PART_COUNT],
    /// The joints, in the order of [`RAGDOLL_JOINTS`].
    pub joints: [JointId; RAGDOLL_JOINT_COUNT],
}

impl Ragdoll {
    /// The body of `part`.
    pub fn body(&self, part: RagdollPart) -> BodyId {
        self.parts[part.index()]
    }
}

/// Builds a ragdoll into `world`: the parts of [`RagdollPart::ALL`] as
/// dynamic bodies in the rest pose placed by `desc`, then the joints of
/// [`RAGDOLL_JOINTS`] (joined parts never collide).
///
/// ```
/// use sandbox::collide::nalgebra::Vector3;
/// use sandbox::{RagdollDesc, RagdollPart, World, add_ground, build_ragdoll};
/// let mut world = World::new();
/// add_ground(&mut world).unwrap();
/// let ragdoll = build_ragdoll(&mut world, &RagdollDesc::new(Vector3::zeros())).unwrap();
/// assert_eq!((world.body_count(), world.joint_count()), (12, 10));
/// // Standing on the ground, the head's centre 1.71 m up.
/// let head = world.pose(ragdoll.body(RagdollPart::Head)).unwrap().translation.y;
/// assert!((head - 1.71).abs() < 1e-5);
/// ```
///
/// # Errors
/// What the world refuses: a scale, density or friction its rules reject,
/// a position past [`WORLD_BOUND`](crate::WORLD_BOUND). Bodies and joints
/// added before the refusal stay in the world.
pub fn build_ragdoll(world: &mut World, desc: &RagdollDesc) -> Result<Ragdoll, WorldError> {
    let s = desc.scale;
    let world_from_ragdoll = desc.world_from_ragdoll();
    let mut parts = [BodyId { index: 0, generation: 0 }; RAGDOLL_PART_COUNT];
    for (k, (shape, center)) in PARTS.iter().enumerate() {
        let shape: Shape = match *shape {
            PartShape::Box(h) => Cuboid::new(Vector3::from(h) * s).into(),
            PartShape::Capsule { half_height, radius } => {
                Capsule::new(half_height * s, radius * s).into()
            }
        };
        let pose = world_from_ragdoll * Translation3::from(Vector3::from(*center) * s);
        let body = BodyDesc::dynamic(shape)
            .with_position(pose.translation.vector)
            .with_rotation(pose.rotation)
            .with_density(desc.density)
            .with_friction(desc.friction);
        parts[k] = world.add_body(body)?;
    }
    let torque_scale = s * s * s * s;
    let mut joints = [JointId { index: 0, generation: 0 }; RAGDOLL_JOINT_COUNT];
    for (k, joint) in RAGDOLL_JOINTS.iter().enumerate() {
        let (a, b) = (parts[joint.parent.index()], parts[joint.child.index()]);
        let anchor = desc.anchor_world(joint);
        let axis = desc.axis_world(joint);
        let friction = desc.joint_friction * joint.friction_share * torque_scale;
        let joint_desc = match joint.limits {
            RagdollLimits::Spherical { cone, twist } => JointDesc::spherical(a, b, anchor)
                .with_axis(axis)
                .with_cone_limit(cone)
                .with_twist_limits(twist[0], twist[1]),
            RagdollLimits::Revolute { angle } => {
                JointDesc::revolute(a, b, anchor, axis).with_limits(angle[0], angle[1])
            }
        };
        joints[k] =
            world.create_joint(joint_desc.with_friction(friction).with_collide_connected(false))?;
    }
    Ok(Ragdoll { parts, joints })
}
