//! The closed set of shapes this crate knows, as one enum.

use std::sync::Arc;

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::shape::{
    Capsule, Cone, ConvexHull, Cuboid, CustomShape, Cylinder, Rounded, Segment, ShapeRef, Sphere,
    Triangle,
};
use crate::support_map::SupportMap;

/// Any of the crate's shapes. Dispatches [`SupportMap`] by `match`, which is
/// cheaper than a trait object and lets a physics world store shapes by value.
///
/// ```
/// use collide::{Shape, Sphere, Cuboid, intersects};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let a: Shape = Sphere::new(1.0).into();
/// let b: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// assert!(intersects(&a, &Isometry3::identity(), &b, &Isometry3::translation(1.2, 0.0, 0.0)));
/// ```
///
/// Two shapes are equal when they are the same kind with equal parameters;
/// two [`Shape::Custom`]s are equal when they share one allocation.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Shape {
    /// A ball.
    Sphere(Sphere),
    /// A box.
    Cuboid(Cuboid),
    /// A segment dilated by a radius.
    Capsule(Capsule),
    /// A convex polyhedron.
    ConvexHull(ConvexHull),
    /// A cylinder along local Y.
    Cylinder(Cylinder),
    /// A cone along local Y, apex up.
    Cone(Cone),
    /// A triangle (flat, no volume).
    Triangle(Triangle),
    /// A segment (no volume).
    Segment(Segment),
    /// Another shape grown by a radius. Boxed, because a shape of any kind
    /// (a rounded one too) can be rounded.
    Rounded(Box<Rounded<Shape>>),
    /// A user's own convex shape (see [`CustomShape`]).
    Custom(Arc<dyn CustomShape>),
}

impl PartialEq for Shape {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Shape::Sphere(a), Shape::Sphere(b)) => a == b,
            (Shape::Cuboid(a), Shape::Cuboid(b)) => a == b,
            (Shape::Capsule(a), Shape::Capsule(b)) => a == b,
            (Shape::ConvexHull(a), Shape::ConvexHull(b)) => a == b,
            (Shape::Cylinder(a), Shape::Cylinder(b)) => a == b,
            (Shape::Cone(a), Shape::Cone(b)) => a == b,
            (Shape::Triangle(a), Shape::Triangle(b)) => a == b,
            (Shape::Segment(a), Shape::Segment(b)) => a == b,
            (Shape::Rounded(a), Shape::Rounded(b)) => a == b,
            (Shape::Custom(a), Shape::Custom(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Shape {
    /// The kind's name in lower case, as scene files and messages spell it
    /// (`"sphere"`, `"cuboid"`, `"convex_hull"`, `"rounded"`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Sphere(_) => "sphere",
            Shape::Cuboid(_) => "cuboid",
            Shape::Capsule(_) => "capsule",
            Shape::ConvexHull(_) => "convex_hull",
            Shape::Cylinder(_) => "cylinder",
            Shape::Cone(_) => "cone",
            Shape::Triangle(_) => "triangle",
            Shape::Segment(_) => "segment",
            Shape::Rounded(_) => "rounded",
            Shape::Custom(_) => "custom",
        }
    }

    /// Whether the shape encloses a volume (everything but triangles and
    /// segments): only such shapes have mass and can be dynamic bodies.
    pub fn is_solid(&self) -> bool {
        !matches!(self, Shape::Triangle(_) | Shape::Segment(_))
    }
}

macro_rules! dispatch {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            Shape::Sphere($s) => $e,
            Shape::Cuboid($s) => $e,
            Shape::Capsule($s) => $e,
            Shape::ConvexHull($s) => $e,
            Shape::Cylinder($s) => $e,
            Shape::Cone($s) => $e,
            Shape::Triangle($s) => $e,
            Shape::Segment($s) => $e,
            Shape::Rounded($s) => $e,
            Shape::Custom($s) => $e,
        }
    };
}

impl SupportMap for Shape {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        dispatch!(self, s => s.local_support(dir))
    }
    #[inline]
    fn margin(&self) -> f32 {
        dispatch!(self, s => s.margin())
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        dispatch!(self, s => s.local_core_support(dir))
    }
    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        dispatch!(self, s => s.core_segment())
    }
    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        dispatch!(self, s => s.core_box())
    }
    #[inline]
    fn core(&self) -> Core {
        dispatch!(self, s => s.core())
    }
    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        dispatch!(self, s => s.as_shape_ref())
    }
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        dispatch!(self, s => s.aabb(pose))
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        dispatch!(self, s => s.bounding_radius())
    }
}

impl From<Sphere> for Shape {
    fn from(s: Sphere) -> Self {
        Self::Sphere(s)
    }
}
impl From<Cuboid> for Shape {
    fn from(s: Cuboid) -> Self {
        Self::Cuboid(s)
    }
}
impl From<Capsule> for Shape {
    fn from(s: Capsule) -> Self {
        Self::Capsule(s)
    }
}
impl From<ConvexHull> for Shape {
    fn from(s: ConvexHull) -> Self {
        Self::ConvexHull(s)
    }
}
impl From<Cylinder> for Shape {
    fn from(s: Cylinder) -> Self {
        Self::Cylinder(s)
    }
}
impl From<Cone> for Shape {
    fn from(s: Cone) -> Self {
        Self::Cone(s)
    }
}
impl From<Triangle> for Shape {
    fn from(s: Triangle) -> Self {
        Self::Triangle(s)
    }
}
impl From<Segment> for Shape {
    fn from(s: Segment) -> Self {
        Self::Segment(s)
    }
}
impl<S: Into<Shape>> From<Rounded<S>> for Shape {
    fn from(s: Rounded<S>) -> Self {
        Self::Rounded(Box::new(Rounded::new(s.inner.into(), s.radius)))
    }
}
impl From<Arc<dyn CustomShape>> for Shape {
    fn from(s: Arc<dyn CustomShape>) -> Self {
        Self::Custom(s)
    }
}
