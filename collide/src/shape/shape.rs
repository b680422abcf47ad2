//! The closed set of shapes this crate knows, as one enum.

use std::sync::Arc;

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::composite::{Compound, HeightField, TriMesh};
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
///
/// **Composites.** [`Shape::TriMesh`], [`Shape::HeightField`] and
/// [`Shape::Compound`] are not convex, so no convex query may treat them as
/// their hull: every convex query (`intersects`, `contact`,
/// `contact_manifold`, `shape_cast`, `cast_ray`, `project_point`, ...)
/// reports [`QueryError::NotConvex`](crate::QueryError::NotConvex) for them
/// (the bare forms their fallback). Use the queries of
/// [`collide::composite`](crate::composite), which take any pair of shapes.
/// As a last-resort guard, their [`SupportMap`] answers a NaN margin and
/// NaN support points ([`SupportMap::non_convex_kind`] names them), so code
/// that reaches their support functions some other way sees non-finite
/// numbers, never a hull.
/// (The [`CastRay`](crate::CastRay) and [`ProjectPoint`](crate::ProjectPoint)
/// methods in the shape's frame answer them exactly, as does
/// [`SupportMap::aabb`].)
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
    /// A triangle mesh (not convex: see [the composite queries](crate::composite)).
    TriMesh(Arc<TriMesh>),
    /// A heightfield (not convex: see [the composite queries](crate::composite)).
    HeightField(Arc<HeightField>),
    /// Convex parts at local poses (not convex: see
    /// [the composite queries](crate::composite)).
    Compound(Arc<Compound>),
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
            (Shape::TriMesh(a), Shape::TriMesh(b)) => a == b,
            (Shape::HeightField(a), Shape::HeightField(b)) => a == b,
            (Shape::Compound(a), Shape::Compound(b)) => a == b,
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
            Shape::TriMesh(_) => "mesh",
            Shape::HeightField(_) => "heightfield",
            Shape::Compound(_) => "compound",
        }
    }

    /// Whether the shape is a mesh, heightfield or compound: not convex,
    /// answered by the queries of [`collide::composite`](crate::composite)
    /// rather than the convex ones.
    pub fn is_composite(&self) -> bool {
        matches!(self, Shape::TriMesh(_) | Shape::HeightField(_) | Shape::Compound(_))
    }

    /// Whether the shape encloses a volume (everything but triangles,
    /// segments, meshes and heightfields): only such shapes have mass and
    /// can be dynamic bodies.
    pub fn is_solid(&self) -> bool {
        !matches!(
            self,
            Shape::Triangle(_) | Shape::Segment(_) | Shape::TriMesh(_) | Shape::HeightField(_)
        )
    }
}

/// What a composite answers as a support point: NaN, which every convex
/// query rejects as non-finite input.
const NOT_CONVEX: Point3<f32> = Point3::new(f32::NAN, f32::NAN, f32::NAN);

macro_rules! dispatch {
    ($self:ident, $s:ident => $e:expr, composite => $c:expr) => {
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
            Shape::TriMesh(_) | Shape::HeightField(_) | Shape::Compound(_) => $c,
        }
    };
}

impl SupportMap for Shape {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        dispatch!(self, s => s.local_support(dir), composite => NOT_CONVEX)
    }
    #[inline]
    fn margin(&self) -> f32 {
        dispatch!(self, s => s.margin(), composite => f32::NAN)
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        dispatch!(self, s => s.local_core_support(dir), composite => NOT_CONVEX)
    }
    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        dispatch!(self, s => s.core_segment(), composite => None)
    }
    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        dispatch!(self, s => s.core_box(), composite => None)
    }
    #[inline]
    fn core(&self) -> Core {
        dispatch!(self, s => s.core(), composite => Core::General)
    }
    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        dispatch!(self, s => s.as_shape_ref(), composite => None)
    }
    #[inline]
    fn non_convex_kind(&self) -> Option<&'static str> {
        self.is_composite().then(|| self.kind_name())
    }
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        match self {
            Shape::TriMesh(m) => m.aabb(pose),
            Shape::HeightField(f) => f.aabb(pose),
            Shape::Compound(c) => c.aabb(pose),
            _ => dispatch!(self, s => s.aabb(pose), composite => Aabb::new(NOT_CONVEX, NOT_CONVEX)),
        }
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        // A composite has no ball test: infinite switches it off, and the
        // convex queries refuse it as not convex.
        dispatch!(self, s => s.bounding_radius(), composite => f32::INFINITY)
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
impl From<TriMesh> for Shape {
    fn from(s: TriMesh) -> Self {
        Self::TriMesh(Arc::new(s))
    }
}
impl From<HeightField> for Shape {
    fn from(s: HeightField) -> Self {
        Self::HeightField(Arc::new(s))
    }
}
impl From<Compound> for Shape {
    fn from(s: Compound) -> Self {
        Self::Compound(Arc::new(s))
    }
}
