//! Typed errors of the world's API: which value was refused, the rule it
//! broke, and the value itself. A [`Rule`] is also what the scene-file
//! validator checks a file's numbers against, so the API and the files
//! accept the same values.

use core::fmt;

use crate::body::storage::WORLD_BOUND;

/// Why a world operation was refused. The world is unchanged after any of
/// them.
///
/// ```
/// use sandbox::{BodyDesc, BodyField, Rule, World, WorldError};
/// use collide::Sphere;
/// let mut world = World::new();
/// let e = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into()).with_friction(-1.0));
/// assert_eq!(
///     e,
///     Err(WorldError::InvalidBody { field: BodyField::Friction, rule: Rule::NonNegative, value: -1.0 })
/// );
/// assert_eq!(e.unwrap_err().to_string(), "friction must be zero or positive, got -1");
/// assert_eq!(world.body_count(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle names a body that was removed (or never existed).
    UnknownBody,
    /// A value of a body (a [`BodyDesc`](crate::BodyDesc) field, or the
    /// argument of a setter such as [`World::set_pose`](crate::World::set_pose))
    /// breaks its rule.
    InvalidBody {
        /// Which value.
        field: BodyField,
        /// The rule it breaks.
        rule: Rule,
        /// The offending value: the first component that breaks the rule
        /// for a vector; for a rotation, the quaternion's norm, or its first
        /// NaN or infinite component.
        value: f32,
    },
    /// A dynamic body's shape and density give a mass or inertia that is not
    /// positive and finite (a flat hull, which has no volume, or a shape so
    /// large that its mass overflows an f32).
    BadMass,
    /// A shape's points are degenerate: a triangle whose corners lie on one
    /// line, or a segment whose ends coincide (the shape's
    /// [`ShapeError`](collide::ShapeError) says which).
    InvalidShape(collide::ShapeError),
    /// The step settings break a rule (see [`StepSettings::validate`](crate::StepSettings::validate)).
    InvalidSettings(SettingsError),
    /// The shape is a kind a body of its kind cannot have: a triangle mesh
    /// or a heightfield on a dynamic body (they are surfaces with no
    /// volume, so no mass: make the body fixed or kinematic). Compounds
    /// may be dynamic.
    UnsupportedShape {
        /// The kind's name, as [`collide::Shape::kind_name`] spells it.
        kind: &'static str,
    },
    /// The handle names a joint that was removed (or never existed).
    UnknownJoint,
    /// A value of a [`JointDesc`](crate::JointDesc) breaks its rule.
    InvalidJoint {
        /// Which value.
        field: JointField,
        /// The rule it breaks.
        rule: Rule,
        /// The offending value (the first component that breaks the rule
        /// for a vector; an axis's length when it is zero).
        value: f32,
    },
    /// A joint's range has its lower end above its upper end.
    JointRangeReversed {
        /// Which range.
        field: JointField,
        /// The lower end given.
        lower: f32,
        /// The upper end given.
        upper: f32,
    },
    /// A joint would join a body to itself.
    JointToItself,
    /// Neither of a joint's bodies is dynamic (two fixed or kinematic
    /// bodies): nothing the joint could move.
    JointWithoutDynamicBody,
    /// Adding the body would take the world past its memory budget
    /// ([`World::set_memory_budget`](crate::World::set_memory_budget));
    /// nothing was added.
    OverMemoryBudget {
        /// The bytes the world would count with the body (see
        /// [`BYTES_PER_BODY`](crate::BYTES_PER_BODY) and
        /// [`BYTES_PER_SHAPE`](crate::BYTES_PER_SHAPE)).
        needed: usize,
        /// The budget, bytes.
        budget: usize,
    },
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownBody => f.write_str("the body handle names no live body"),
            Self::InvalidBody { field, rule, value } => {
                write!(f, "{} must be {rule}, got {value}", field.name())
            }
            Self::BadMass => {
                f.write_str("the shape and density give a non-positive or non-finite mass")
            }
            Self::InvalidShape(e) => write!(f, "invalid shape: {e}"),
            Self::InvalidSettings(e) => write!(f, "invalid step settings: {e}"),
            Self::UnsupportedShape { kind } => write!(
                f,
                "a dynamic body cannot have a {kind} shape (it has no volume: make the body fixed or kinematic)"
            ),
            Self::UnknownJoint => f.write_str("the joint handle names no live joint"),
            Self::InvalidJoint { field, rule, value } => {
                write!(f, "joint {} must be {rule}, got {value}", field.name())
            }
            Self::JointRangeReversed { field, lower, upper } => write!(
                f,
                "joint {} must have its lower end at most its upper end, got [{lower}, {upper}]",
                field.name()
            ),
            Self::JointToItself => f.write_str("a joint must join two different bodies"),
            Self::JointWithoutDynamicBody => {
                f.write_str("a joint needs a dynamic body on at least one side")
            }
            Self::OverMemoryBudget { needed, budget } => write!(
                f,
                "adding the body would take the world to {needed} bytes, past its memory budget of {budget} bytes"
            ),
        }
    }
}

/// The message of [`WorldError::InvalidSettings`] already holds its
/// [`SettingsError`]'s, so it reports no source (a chain printed cause by
/// cause would say it twice).
impl std::error::Error for WorldError {}

impl From<SettingsError> for WorldError {
    fn from(e: SettingsError) -> Self {
        Self::InvalidSettings(e)
    }
}

/// A value of a body, by name: a field of [`BodyDesc`](crate::BodyDesc)
/// (with the shape's parameters), or the argument of a setter of
/// [`World`](crate::World). Each has one [`rule`](BodyField::rule), which
/// the scene files follow too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BodyField {
    /// The position (the pose's translation), in metres.
    Position,
    /// The rotation (the pose's quaternion).
    Rotation,
    /// The linear velocity, m/s.
    LinearVelocity,
    /// The angular velocity, rad/s.
    AngularVelocity,
    /// The density, kg/m³ (checked for fixed bodies too, which ignore it).
    Density,
    /// The friction coefficient.
    Friction,
    /// The restitution coefficient.
    Restitution,
    /// A cuboid's half extents, m.
    CuboidHalfExtents,
    /// A sphere's radius, m.
    SphereRadius,
    /// A capsule's half height (of its core segment), m.
    CapsuleHalfHeight,
    /// A capsule's radius, m.
    CapsuleRadius,
    /// A cylinder's half height, m.
    CylinderHalfHeight,
    /// A cylinder's radius, m.
    CylinderRadius,
    /// A cone's half height (half the distance from base to apex), m.
    ConeHalfHeight,
    /// A cone's base radius, m.
    ConeRadius,
    /// A triangle's corners, m (in the body's frame).
    TrianglePoints,
    /// A segment's ends, m (in the body's frame).
    SegmentPoints,
    /// A rounded shape's rounding radius, m.
    RoundedRadius,
    /// The impulse of [`World::apply_impulse`](crate::World::apply_impulse), N·s.
    Impulse,
    /// The point [`World::apply_impulse`](crate::World::apply_impulse) applies
    /// its impulse at, m.
    ImpulsePoint,
    /// The step length of
    /// [`World::set_target_pose`](crate::World::set_target_pose), s.
    TimeStep,
    /// How many shapes a body has: 1 to [`MAX_BODY_SHAPES`](crate::MAX_BODY_SHAPES).
    ShapeCount,
    /// A shape's position in its body's frame, m.
    ShapePosition,
    /// A shape's rotation in its body's frame.
    ShapeRotation,
    /// The speed of [`World::set_hit_event_threshold`](crate::World::set_hit_event_threshold), m/s.
    HitEventThreshold,
    /// A shape's rolling resistance
    /// ([`BodyShape::rolling_resistance`](crate::BodyShape::rolling_resistance)).
    RollingResistance,
    /// A body's sleep threshold, m/s
    /// ([`BodyDesc::sleep_threshold`](crate::BodyDesc::sleep_threshold)).
    SleepThreshold,
}

impl BodyField {
    /// The value's name, as the scene files and the API's fields spell it
    /// (`"linear_velocity"`, `"cuboid half_extents"`, `"impulse point"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Position => "position",
            Self::Rotation => "rotation",
            Self::LinearVelocity => "linear_velocity",
            Self::AngularVelocity => "angular_velocity",
            Self::Density => "density",
            Self::Friction => "friction",
            Self::Restitution => "restitution",
            Self::CuboidHalfExtents => "cuboid half_extents",
            Self::SphereRadius => "sphere radius",
            Self::CapsuleHalfHeight => "capsule half_height",
            Self::CapsuleRadius => "capsule radius",
            Self::CylinderHalfHeight => "cylinder half_height",
            Self::CylinderRadius => "cylinder radius",
            Self::ConeHalfHeight => "cone half_height",
            Self::ConeRadius => "cone radius",
            Self::TrianglePoints => "triangle points",
            Self::SegmentPoints => "segment points",
            Self::RoundedRadius => "rounded radius",
            Self::Impulse => "impulse",
            Self::ImpulsePoint => "impulse point",
            Self::TimeStep => "dt",
            Self::ShapeCount => "shape count",
            Self::ShapePosition => "shape position",
            Self::ShapeRotation => "shape rotation",
            Self::HitEventThreshold => "hit event threshold",
            Self::RollingResistance => "rolling_resistance",
            Self::SleepThreshold => "sleep_threshold",
        }
    }

    /// The rule every component of the value must follow. Every rule also
    /// asks for a finite value.
    ///
    /// Velocities need only be finite: the step limits a body's speed to
    /// [`MAX_LINEAR_SPEED`](crate::MAX_LINEAR_SPEED) and its spin per
    /// substep, as it does for speeds that impulses and contacts give.
    pub fn rule(self) -> Rule {
        match self {
            Self::Position | Self::ShapePosition => Rule::WithinWorldBound,
            Self::Rotation | Self::ShapeRotation => Rule::UnitQuaternion,
            Self::ShapeCount => {
                Rule::WholeNumber { min: 1, max: crate::body::body_shape::MAX_BODY_SHAPES }
            }
            Self::LinearVelocity
            | Self::AngularVelocity
            | Self::Impulse
            | Self::ImpulsePoint
            | Self::TrianglePoints
            | Self::SegmentPoints => Rule::Finite,
            Self::Density
            | Self::CuboidHalfExtents
            | Self::SphereRadius
            | Self::CapsuleRadius
            | Self::CylinderHalfHeight
            | Self::CylinderRadius
            | Self::ConeHalfHeight
            | Self::ConeRadius
            | Self::RoundedRadius
            | Self::TimeStep => Rule::Positive,
            Self::Friction
            | Self::CapsuleHalfHeight
            | Self::HitEventThreshold
            | Self::RollingResistance
            | Self::SleepThreshold => Rule::NonNegative,
            Self::Restitution => Rule::UnitInterval,
        }
    }
}

/// A value of a [`JointDesc`](crate::JointDesc), by name, with one
/// [`rule`](JointField::rule) (which the scene files' `[[joint]]` entries
/// follow too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JointField {
    /// An anchor (world frame, at creation), m.
    Anchor,
    /// The joint axis (world frame, at creation): finite and non-zero.
    Axis,
    /// A local frame's position, in its body's frame, m.
    FramePosition,
    /// A local frame's rotation, in its body's frame.
    FrameRotation,
    /// The limits of the free coordinate (rad or m; a distance joint's
    /// length range, m, which must not be negative).
    Limits,
    /// A spherical joint's cone limit, rad.
    ConeLimit,
    /// A spherical joint's twist limits, rad.
    TwistLimits,
    /// A motor's speed, rad/s or m/s.
    MotorSpeed,
    /// A motor's largest torque or force, N·m or N.
    MotorMaxForce,
    /// The largest friction torque or force, N·m or N.
    Friction,
    /// A softness's (or weld spring's) frequency, Hz.
    SoftnessHertz,
    /// A softness's (or weld spring's) damping ratio.
    SoftnessDampingRatio,
    /// A distance joint's spring frequency, Hz.
    SpringHertz,
    /// A distance joint's spring damping ratio.
    SpringDampingRatio,
    /// A distance joint's rest length, m.
    RestLength,
    /// The force above which the joint breaks, N (infinite for never).
    BreakForce,
    /// The torque above which the joint breaks, N·m (infinite for never).
    BreakTorque,
}

impl JointField {
    /// The value's name, as the scene files spell it (`"limits"`,
    /// `"motor max_force"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Anchor => "anchor",
            Self::Axis => "axis",
            Self::FramePosition => "frame position",
            Self::FrameRotation => "frame rotation",
            Self::Limits => "limits",
            Self::ConeLimit => "cone_limit",
            Self::TwistLimits => "twist_limits",
            Self::MotorSpeed => "motor speed",
            Self::MotorMaxForce => "motor max_force",
            Self::Friction => "friction",
            Self::SoftnessHertz => "softness hertz",
            Self::SoftnessDampingRatio => "softness damping_ratio",
            Self::SpringHertz => "spring hertz",
            Self::SpringDampingRatio => "spring damping_ratio",
            Self::RestLength => "rest_length",
            Self::BreakForce => "break_force",
            Self::BreakTorque => "break_torque",
        }
    }

    /// The rule every component of the value must follow. The break
    /// thresholds also admit infinity (never break); every other rule asks
    /// for a finite value. A range (limits, twist limits) must also have
    /// its lower end at most its upper end
    /// ([`WorldError::JointRangeReversed`]).
    pub fn rule(self) -> Rule {
        use std::f32::consts::PI;
        match self {
            Self::Anchor | Self::FramePosition => Rule::WithinWorldBound,
            Self::FrameRotation => Rule::UnitQuaternion,
            Self::Axis => Rule::Positive,
            Self::Limits | Self::MotorSpeed => Rule::Finite,
            Self::ConeLimit => Rule::PositiveAtMost { max: PI },
            Self::TwistLimits => Rule::Between { min: -PI, max: PI },
            Self::MotorMaxForce
            | Self::Friction
            | Self::SoftnessHertz
            | Self::SoftnessDampingRatio
            | Self::SpringHertz
            | Self::SpringDampingRatio
            | Self::RestLength => Rule::NonNegative,
            Self::BreakForce | Self::BreakTorque => Rule::Positive,
        }
    }
}

impl fmt::Display for JointField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for BodyField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How far a rotation's quaternion may be from unit length: `|‖q‖ − 1|`
/// at most this. A quaternion of norm `1 + ε` scales what it rotates by
/// about `1 + 2ε`, 0.2 mm on a 1 m body at this tolerance; rounding in f32
/// leaves about 1e-7 per composed rotation, so a pose read back from the
/// world, or built from a few composed rotations, always passes.
pub const UNIT_QUATERNION_TOLERANCE: f32 = 1e-4;

/// A rule a value must follow. Every rule asks for a finite value (NaN
/// breaks every rule); its `Display` is the phrase the errors use
/// ("zero or positive", "a whole number from 1 to 64").
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// Finite: not NaN or infinite.
    Finite,
    /// Finite and above zero.
    Positive,
    /// Finite and zero or above.
    NonNegative,
    /// In `[0, 1]`.
    UnitInterval,
    /// At most [`WORLD_BOUND`] from the origin on every axis.
    WithinWorldBound,
    /// A quaternion's norm within [`UNIT_QUATERNION_TOLERANCE`] of 1 (the
    /// value checked is the norm).
    UnitQuaternion,
    /// A whole number from `min` to `max`, both included.
    WholeNumber {
        /// The smallest allowed.
        min: u32,
        /// The largest allowed.
        max: u32,
    },
    /// Above zero and at most `max`.
    PositiveAtMost {
        /// The largest allowed.
        max: f32,
    },
    /// From `min` to `max`, both included.
    Between {
        /// The smallest allowed.
        min: f32,
        /// The largest allowed.
        max: f32,
    },
}

impl Rule {
    /// Whether `value` follows the rule. Every comparison is written so that
    /// NaN fails it.
    ///
    /// ```
    /// use sandbox::Rule;
    /// assert!(Rule::NonNegative.admits(0.0));
    /// assert!(!Rule::NonNegative.admits(f64::NAN));
    /// assert!(!Rule::WholeNumber { min: 1, max: 64 }.admits(0.0));
    /// assert!(Rule::WholeNumber { min: 1, max: 64 }.admits(64.0));
    /// ```
    pub fn admits(self, value: f64) -> bool {
        match self {
            Self::Finite => value.is_finite(),
            Self::Positive => value > 0.0 && value.is_finite(),
            Self::NonNegative => value >= 0.0 && value.is_finite(),
            Self::UnitInterval => (0.0..=1.0).contains(&value),
            Self::WithinWorldBound => value.abs() <= f64::from(WORLD_BOUND),
            Self::UnitQuaternion => (value - 1.0).abs() <= f64::from(UNIT_QUATERNION_TOLERANCE),
            Self::WholeNumber { min, max } => {
                value.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&value)
            }
            Self::PositiveAtMost { max } => value > 0.0 && value <= f64::from(max),
            Self::Between { min, max } => (f64::from(min)..=f64::from(max)).contains(&value),
        }
    }

    /// Whether every value follows the rule; if not, the first one that
    /// breaks it.
    pub(crate) fn check(self, values: impl IntoIterator<Item = f32>) -> Result<(), f32> {
        values.into_iter().try_for_each(|v| if self.admits(f64::from(v)) { Ok(()) } else { Err(v) })
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Finite => f.write_str("finite"),
            Self::Positive => f.write_str("positive"),
            Self::NonNegative => f.write_str("zero or positive"),
            Self::UnitInterval => f.write_str("in [0, 1]"),
            Self::WithinWorldBound => {
                write!(f, "within the world bound (|x| <= {WORLD_BOUND} m)")
            }
            Self::UnitQuaternion => write!(
                f,
                "a unit quaternion (a norm within {UNIT_QUATERNION_TOLERANCE:e} of 1; the value is \
                 its norm)"
            ),
            Self::WholeNumber { min, max } => write!(f, "a whole number from {min} to {max}"),
            Self::PositiveAtMost { max } => write!(f, "above 0 and at most {max}"),
            Self::Between { min, max } => write!(f, "from {min} to {max}"),
        }
    }
}

/// A setting of [`StepSettings`](crate::StepSettings), by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // Each variant is the field of the same name.
pub enum Setting {
    Gravity,
    Substeps,
    PushIterations,
    RelaxIterations,
    ContactHertz,
    MaxContactSag,
    MassRatioIterations,
    ContactDampingRatio,
    MaxPushOutVelocity,
    RestitutionThreshold,
    SleepVelocity,
    TimeToSleep,
    Threads,
}

impl Setting {
    /// The field's name in [`StepSettings`](crate::StepSettings) (and in a
    /// scene file's `[settings]`, for those it may set).
    pub fn name(self) -> &'static str {
        match self {
            Self::Gravity => "gravity",
            Self::Substeps => "substeps",
            Self::PushIterations => "push_iterations",
            Self::RelaxIterations => "relax_iterations",
            Self::ContactHertz => "contact_hertz",
            Self::MaxContactSag => "max_contact_sag",
            Self::MassRatioIterations => "mass_ratio_iterations",
            Self::ContactDampingRatio => "contact_damping_ratio",
            Self::MaxPushOutVelocity => "max_push_out_velocity",
            Self::RestitutionThreshold => "restitution_threshold",
            Self::SleepVelocity => "sleep_velocity",
            Self::TimeToSleep => "time_to_sleep",
            Self::Threads => "threads",
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A [`StepSettings`](crate::StepSettings) value that breaks its rule (see
/// [`StepSettings::validate`](crate::StepSettings::validate)).
///
/// ```
/// use sandbox::{Rule, Setting, StepSettings};
/// let e = StepSettings { substeps: 0, ..StepSettings::default() }.validate().unwrap_err();
/// assert_eq!((e.setting, e.rule), (Setting::Substeps, Rule::WholeNumber { min: 1, max: 64 }));
/// assert_eq!(e.to_string(), "substeps must be a whole number from 1 to 64, got 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SettingsError {
    /// Which setting.
    pub setting: Setting,
    /// The rule it breaks.
    pub rule: Rule,
    /// The offending value (the first component that breaks the rule, for
    /// gravity), widened to f64 so that a count too large for an f32 keeps
    /// its digits.
    pub value: f64,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { setting, rule, value } = self;
        match rule {
            Rule::WholeNumber { .. } => write!(f, "{setting} must be {rule}, got {value}"),
            // An f32 setting, shown at its own precision (the widening to
            // f64 is exact, the narrowing back too).
            _ => write!(f, "{setting} must be {rule}, got {}", *value as f32),
        }
    }
}

impl std::error::Error for SettingsError {}
