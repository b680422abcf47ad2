//! Rigid-body handles and the description a body is created from.

use collide::Shape;
use collide::nalgebra::{Isometry3, UnitQuaternion, Vector3};

use crate::body::body_shape::BodyShape;

/// A handle to a body of a [`World`](crate::World).
///
/// Handles carry a generation, so a handle to a removed body never aliases a
/// body created later in the same slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl BodyId {
    /// The slot of the body. Bodies created in order into an empty world get
    /// slots 0, 1, 2, ...
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

/// Whether a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Never moves; infinite mass. Made by [`BodyDesc::fixed`].
    Fixed,
    /// Moved by gravity and contacts. Made by [`BodyDesc::dynamic`].
    Dynamic,
    /// Moved only by the velocity it is given
    /// ([`World::set_linear_velocity`](crate::World::set_linear_velocity),
    /// [`World::set_angular_velocity`](crate::World::set_angular_velocity),
    /// [`World::set_target_pose`](crate::World::set_target_pose)); infinite
    /// mass, so it pushes dynamic bodies and is never pushed, and carries
    /// what rests on it through friction. It never collides with fixed or
    /// other kinematic bodies. Made by [`BodyDesc::kinematic`].
    Kinematic,
}

/// Everything needed to create a body: see [`World::add_body`](crate::World::add_body),
/// which checks every field against its [`BodyField::rule`](crate::BodyField::rule)
/// (the `with_*` setters take any value; nothing is clamped).
///
/// A body has one or more [`BodyShape`]s, each placed in the body's frame
/// with its own material, filter and sensor flag. [`BodyDesc::dynamic`]
/// and [`BodyDesc::fixed`] make the common body of one shape at the
/// body's origin:
///
/// ```
/// use sandbox::BodyDesc;
/// use collide::Sphere;
/// use collide::nalgebra::Vector3;
/// let ball = BodyDesc::dynamic(Sphere::new(0.5).into())
///     .with_position(Vector3::new(0.0, 2.0, 0.0))
///     .with_restitution(0.5);
/// assert_eq!(ball.shapes.len(), 1);
/// assert_eq!(ball.shapes[0].restitution, 0.5);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// Fixed, dynamic or kinematic.
    pub kind: BodyKind,
    /// The body's shapes, at least one. The body's mass properties are
    /// those of all of them together; the first is what
    /// [`World::shape`](crate::World::shape) answers.
    pub shapes: Vec<BodyShape>,
    /// Pose of the body's frame in the world: a position within
    /// [`WORLD_BOUND`](crate::WORLD_BOUND) on every axis, a unit quaternion.
    pub pose: Isometry3<f32>,
    /// Linear velocity of the centre of mass (of a kinematic body's frame
    /// origin), m/s (finite; a fixed body's is ignored).
    pub linear_velocity: Vector3<f32>,
    /// Angular velocity, rad/s, world frame (finite).
    pub angular_velocity: Vector3<f32>,
    /// The speed in m/s under which the body counts as still for sleeping
    /// (its centre's speed and its angular speed times its extent, box3d's
    /// `sleepThreshold`); zero or positive. `None`, the default, follows
    /// the world's [`StepSettings::sleep_velocity`](crate::StepSettings::sleep_velocity).
    pub sleep_threshold: Option<f32>,
}

impl BodyDesc {
    /// A dynamic body at the origin with one shape at its origin (density
    /// 1000, friction 0.6, restitution 0: see [`BodyShape::new`]).
    pub fn dynamic(shape: Shape) -> Self {
        Self::dynamic_shapes(vec![BodyShape::new(shape)])
    }

    /// A static body at the origin with one shape at its origin (friction
    /// 0.6, restitution 0).
    pub fn fixed(shape: Shape) -> Self {
        Self::fixed_shapes(vec![BodyShape::new(shape)])
    }

    /// A dynamic body at the origin made of `shapes`.
    pub fn dynamic_shapes(shapes: Vec<BodyShape>) -> Self {
        Self {
            kind: BodyKind::Dynamic,
            shapes,
            pose: Isometry3::identity(),
            linear_velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            sleep_threshold: None,
        }
    }

    /// A static body at the origin made of `shapes`.
    pub fn fixed_shapes(shapes: Vec<BodyShape>) -> Self {
        Self { kind: BodyKind::Fixed, ..Self::dynamic_shapes(shapes) }
    }

    /// Adds a shape after the others.
    pub fn with_shape(mut self, shape: BodyShape) -> Self {
        self.shapes.push(shape);
        self
    }

    /// A kinematic body at the origin, at rest, with one shape at its
    /// origin (friction 0.6, restitution 0; the density is ignored, but
    /// checked).
    ///
    /// ```
    /// use sandbox::{BodyDesc, BodyKind};
    /// use collide::Cuboid;
    /// use collide::nalgebra::Vector3;
    /// let platform = BodyDesc::kinematic(Cuboid::new(Vector3::new(2.0, 0.1, 2.0)).into())
    ///     .with_linear_velocity(Vector3::new(1.0, 0.0, 0.0));
    /// assert_eq!(platform.kind, BodyKind::Kinematic);
    /// ```
    pub fn kinematic(shape: Shape) -> Self {
        Self { kind: BodyKind::Kinematic, ..Self::dynamic(shape) }
    }

    /// A kinematic body at the origin made of `shapes`.
    pub fn kinematic_shapes(shapes: Vec<BodyShape>) -> Self {
        Self { kind: BodyKind::Kinematic, ..Self::dynamic_shapes(shapes) }
    }

    /// Sets the position, keeping the rotation.
    pub fn with_position(mut self, position: Vector3<f32>) -> Self {
        self.pose.translation.vector = position;
        self
    }

    /// Sets the rotation, keeping the position.
    pub fn with_rotation(mut self, rotation: UnitQuaternion<f32>) -> Self {
        self.pose.rotation = rotation;
        self
    }

    /// Sets the linear velocity.
    pub fn with_linear_velocity(mut self, v: Vector3<f32>) -> Self {
        self.linear_velocity = v;
        self
    }

    /// Sets the angular velocity.
    pub fn with_angular_velocity(mut self, w: Vector3<f32>) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Sets the body's own sleep threshold, m/s, in place of the world's
    /// [`StepSettings::sleep_velocity`](crate::StepSettings::sleep_velocity).
    ///
    /// ```
    /// use sandbox::BodyDesc;
    /// use collide::Sphere;
    /// let ball = BodyDesc::dynamic(Sphere::new(0.5).into()).with_sleep_threshold(0.2);
    /// assert_eq!(ball.sleep_threshold, Some(0.2));
    /// ```
    pub fn with_sleep_threshold(mut self, speed: f32) -> Self {
        self.sleep_threshold = Some(speed);
        self
    }

    /// Sets the rolling resistance of every shape (see
    /// [`BodyShape::rolling_resistance`]).
    pub fn with_rolling_resistance(mut self, rolling_resistance: f32) -> Self {
        self.shapes.iter_mut().for_each(|s| s.rolling_resistance = rolling_resistance);
        self
    }

    /// Sets the density of every shape (the one shape of a body made by
    /// [`dynamic`](Self::dynamic)).
    pub fn with_density(mut self, density: f32) -> Self {
        self.shapes.iter_mut().for_each(|s| s.density = density);
        self
    }

    /// Sets the friction coefficient of every shape.
    pub fn with_friction(mut self, friction: f32) -> Self {
        self.shapes.iter_mut().for_each(|s| s.friction = friction);
        self
    }

    /// Sets the restitution coefficient of every shape.
    pub fn with_restitution(mut self, restitution: f32) -> Self {
        self.shapes.iter_mut().for_each(|s| s.restitution = restitution);
        self
    }
}
