//! What a step did that the caller may need to know beyond the new poses:
//! whether it ran at all, which bodies it removed and why, which shapes
//! started or stopped touching ([`ContactEvent`]) and what entered or left
//! a sensor ([`SensorEvent`]). These are data the caller reads
//! ([`World::step`](crate::World::step)'s return value,
//! [`World::removed_bodies`](crate::World::removed_bodies),
//! [`World::contact_events`](crate::World::contact_events) and
//! [`World::sensor_events`](crate::World::sensor_events)), besides the
//! `log` warnings.

use core::fmt;

use collide::nalgebra::{Point3, Vector3};

use crate::body::BodyId;
use crate::collision::shape_pairs::ShapeKey;

/// Whether [`World::step`](crate::World::step) advanced the world.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum StepOutcome {
    /// The world advanced by the step's `dt`.
    Stepped,
    /// `dt` was not positive and finite, so nothing changed.
    IgnoredDt {
        /// The rejected time step, in seconds.
        dt: f32,
    },
}

/// Why a step removed a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RemovalReason {
    /// Its pose or velocity became NaN or infinite.
    NonFinite,
    /// It left the cube of half-width [`WORLD_BOUND`](crate::WORLD_BOUND).
    OutOfBounds,
}

impl fmt::Display for RemovalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NonFinite => "its state became non-finite",
            Self::OutOfBounds => "it left the world bound",
        })
    }
}

/// A body that a step removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RemovedBody {
    /// The body's handle, stale from now on.
    pub id: BodyId,
    /// Why it was removed.
    pub reason: RemovalReason,
}

/// One shape of one body: the body's handle and the shape's index among
/// its [`BodyDesc::shapes`](crate::BodyDesc::shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeId {
    /// The body.
    pub body: BodyId,
    /// Which of its shapes.
    pub index: u32,
}

/// A change in which shapes touch, as a step (or a body's removal)
/// reports it: see [`World::contact_events`](crate::World::contact_events).
///
/// Two solid shapes touch when their manifold holds a point of separation
/// below the [`LINEAR_SLOP`](crate::LINEAR_SLOP) (5 mm): they overlap,
/// meet, or all but meet, as resting shapes do, whose separation the
/// solver holds within the slop of zero (a speculative point farther out,
/// a gap the bodies could close within the step, is not a touch). Shape
/// `a` belongs to the body in the smaller slot.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ContactEvent {
    /// The shapes started touching this step.
    Begin {
        /// Shape A.
        a: ShapeId,
        /// Shape B.
        b: ShapeId,
    },
    /// The shapes stopped touching this step, or one of their bodies was
    /// removed (then `a` or `b` names a body that is gone).
    End {
        /// Shape A.
        a: ShapeId,
        /// Shape B.
        b: ShapeId,
    },
    /// The shapes started touching this step, approaching faster than
    /// [`World::hit_event_threshold`](crate::World::hit_event_threshold):
    /// listed right after their [`ContactEvent::Begin`].
    Hit {
        /// Shape A.
        a: ShapeId,
        /// Shape B.
        b: ShapeId,
        /// How fast the shapes approached along the normal at `point`
        /// when the step began, m/s (positive).
        approach_speed: f32,
        /// The deepest contact point, world frame.
        point: Point3<f32>,
        /// The contact normal from A to B, world frame.
        normal: Vector3<f32>,
    },
}

/// A change in what overlaps a sensor shape: see
/// [`World::sensor_events`](crate::World::sensor_events). Sensors do not
/// sense each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SensorEvent {
    /// `visitor` started overlapping `sensor` this step.
    Begin {
        /// The sensor shape.
        sensor: ShapeId,
        /// The shape that entered it.
        visitor: ShapeId,
    },
    /// `visitor` stopped overlapping `sensor` this step, or one of their
    /// bodies was removed.
    End {
        /// The sensor shape.
        sensor: ShapeId,
        /// The shape that left it.
        visitor: ShapeId,
    },
}

/// A joint that went away without [`World::remove_joint`](crate::World::remove_joint):
/// see [`World::joint_events`](crate::World::joint_events). The joint's
/// handle is stale from then on.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum JointEvent {
    /// The step's reaction force or torque exceeded the joint's
    /// [`break_force`](crate::JointDesc::break_force) or
    /// [`break_torque`](crate::JointDesc::break_torque), so the step
    /// removed it.
    Broke {
        /// The joint, now removed.
        joint: crate::JointId,
        /// Its body A.
        body_a: BodyId,
        /// Its body B.
        body_b: BodyId,
        /// The reaction force's magnitude that broke it, N.
        force: f32,
        /// The reaction torque's magnitude, N·m.
        torque: f32,
    },
    /// One of the joint's bodies was removed (by
    /// [`World::remove_body`](crate::World::remove_body) or by a step), and
    /// the joint with it.
    BodyRemoved {
        /// The joint, now removed.
        joint: crate::JointId,
        /// The body whose removal took the joint.
        body: BodyId,
    },
}

/// A pair of shapes that started or stopped touching, as the narrow phase
/// finds it, before the world names the bodies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TouchChange {
    /// Which shapes.
    pub key: ShapeKey,
    /// Whether they started touching (else stopped).
    pub began: bool,
    /// For a begin: the approach speed at the deepest point, m/s.
    pub approach_speed: f32,
    /// For a begin: the deepest point, world frame.
    pub point: Point3<f32>,
    /// For a begin: the normal from A to B.
    pub normal: Vector3<f32>,
}

impl TouchChange {
    /// An end of touching.
    pub fn ended(key: ShapeKey) -> Self {
        Self {
            key,
            began: false,
            approach_speed: 0.0,
            point: Point3::origin(),
            normal: Vector3::zeros(),
        }
    }
}

/// The events of a step as the stages find them, keyed by body slots, in
/// the order they are found; the world names the bodies and lists them.
/// Kept between steps, so that a warm step allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct RawEvents {
    /// Pairs dropped from the pair cache (or with a removed body) whose
    /// shapes touched.
    pub ended: Vec<ShapeKey>,
    /// Pairs whose shapes started or stopped touching this step, in pair
    /// order.
    pub touches: Vec<TouchChange>,
    /// Sensor pairs dropped (or with a removed body) that overlapped.
    pub sensor_ended: Vec<ShapeKey>,
    /// Sensor pairs that started (true) or stopped overlapping, in pair
    /// order.
    pub sensor_changes: Vec<(ShapeKey, bool)>,
}

impl RawEvents {
    /// Forgets every event.
    pub fn clear(&mut self) {
        self.ended.clear();
        self.touches.clear();
        self.sensor_ended.clear();
        self.sensor_changes.clear();
    }
}
