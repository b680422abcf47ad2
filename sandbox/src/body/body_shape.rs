//! One shape of a body: the convex shape, where it sits in the body's
//! frame, and what it is made of (density, friction, restitution), which
//! shapes it collides with ([`Filter`]) and whether it is a sensor.

use collide::Shape;
use collide::nalgebra::{Isometry3, UnitQuaternion, Vector3};

use crate::body::filter::Filter;

/// Density of a shape unless set, kg/m³ (water's, so that a unit cube
/// weighs a tonne as the scenes' cubes do).
pub const DEFAULT_DENSITY: f32 = 1000.0;

/// Friction coefficient of a shape unless set.
pub const DEFAULT_FRICTION: f32 = 0.6;

/// Most shapes a body may have; a body of more is refused
/// ([`BodyField::ShapeCount`](crate::BodyField::ShapeCount)). A pair's
/// shapes are kept as 16-bit indices, and a body of thousands of shapes
/// is better made a mesh.
pub const MAX_BODY_SHAPES: u32 = 4096;

/// One shape of a [`BodyDesc`](crate::BodyDesc).
///
/// ```
/// use sandbox::{BodyDesc, BodyShape, World};
/// use sandbox::collide::Cuboid;
/// use sandbox::collide::nalgebra::Vector3;
/// // A box whose frame sits at one end of it: its centre of mass is 1 m
/// // along x from the body's origin.
/// let bar = BodyShape::new(Cuboid::new(Vector3::new(1.0, 0.25, 0.25)).into())
///     .with_position(Vector3::new(1.0, 0.0, 0.0))
///     .with_friction(0.3);
/// let mut world = World::new();
/// let id = world.add_body(BodyDesc::dynamic_shapes(vec![bar])).unwrap();
/// let center = world.mass_properties(id).unwrap().local_center;
/// assert!((center.x - 1.0).abs() < 1e-6);
/// assert_eq!(world.body_shape(id, 0).unwrap().friction, 0.3);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BodyShape {
    /// The collision shape, in its own frame: positive cuboid half
    /// extents and sphere or capsule radii, a capsule half height of zero
    /// or more.
    pub shape: Shape,
    /// The shape's frame in the body's frame (`body_from_shape`): a finite
    /// position within [`WORLD_BOUND`](crate::WORLD_BOUND) and a unit
    /// quaternion.
    pub local_pose: Isometry3<f32>,
    /// Density in kg/m³, positive (ignored for static bodies, but checked).
    pub density: f32,
    /// Coulomb friction coefficient, zero or positive. Pairs combine as
    /// `sqrt(f_a * f_b)`.
    pub friction: f32,
    /// Restitution coefficient in `[0, 1]`. Pairs combine as the maximum.
    pub restitution: f32,
    /// Rolling resistance, zero or positive (box3d's): a contact resists
    /// the relative rolling of its two bodies with an angular impulse of
    /// at most `rolling_resistance × normal impulse × radius`, where the
    /// radius is the larger of the two shapes' rolling radii (a sphere's
    /// or capsule's radius, a quarter of any other convex shape's thinnest
    /// half width, box3d's choice for hulls; a mesh or heightfield has
    /// none). Pairs combine as the larger value; 0, the default, adds
    /// nothing to the solver.
    pub rolling_resistance: f32,
    /// Which other shapes this one collides with.
    pub filter: Filter,
    /// A sensor reports the shapes that overlap it and never pushes: it
    /// has no solver contacts. Its density counts towards the body's mass
    /// as any shape's does (Box2D's choice).
    pub sensor: bool,
}

impl BodyShape {
    /// `shape` at the body's origin, density [`DEFAULT_DENSITY`], friction
    /// [`DEFAULT_FRICTION`], restitution 0, rolling resistance 0, the default
    /// [`Filter`], not a sensor.
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            local_pose: Isometry3::identity(),
            density: DEFAULT_DENSITY,
            friction: DEFAULT_FRICTION,
            restitution: 0.0,
            rolling_resistance: 0.0,
            filter: Filter::default(),
            sensor: false,
        }
    }

    /// Sets the shape's position in the body's frame, keeping its rotation.
    pub fn with_position(mut self, position: Vector3<f32>) -> Self {
        self.local_pose.translation.vector = position;
        self
    }

    /// Sets the shape's rotation in the body's frame, keeping its position.
    pub fn with_rotation(mut self, rotation: UnitQuaternion<f32>) -> Self {
        self.local_pose.rotation = rotation;
        self
    }

    /// Sets the density.
    pub fn with_density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    /// Sets the friction coefficient.
    pub fn with_friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    /// Sets the restitution coefficient.
    pub fn with_restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    /// Sets the rolling resistance.
    ///
    /// ```
    /// use sandbox::BodyShape;
    /// use sandbox::collide::Sphere;
    /// let ball = BodyShape::new(Sphere::new(0.5).into()).with_rolling_resistance(0.05);
    /// assert_eq!(ball.rolling_resistance, 0.05);
    /// ```
    pub fn with_rolling_resistance(mut self, rolling_resistance: f32) -> Self {
        self.rolling_resistance = rolling_resistance;
        self
    }

    /// Sets the collision filter.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// Makes the shape a sensor (or not).
    pub fn with_sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }
}
