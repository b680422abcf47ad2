//! The support-map abstraction every query in this crate is written against.
//!
//! A convex shape is described by its *support function*: for a direction `d`,
//! the point of the shape farthest along `d`. GJK and EPA never look at a
//! shape's vertices or faces, only at support points, so any convex shape
//! (and any hull support strategy) plugs in by implementing one method.
//!
//! Rounded shapes (sphere, capsule) are described as a *core* plus a *margin*:
//! the shape is the Minkowski sum of the core and a ball of radius `margin`.
//! Queries run GJK/EPA on the cores, which are points and segments with exact
//! supports, and add the margins analytically, as Jolt's "convex radius" and
//! parry's dilated shapes do. This keeps curved shapes out of EPA, where a
//! sphere would otherwise need many iterations to approximate.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::shape::ShapeRef;

/// A convex shape given by its support function, in the shape's own frame.
///
/// Only [`local_support`](SupportMap::local_support) is required. Rounded
/// shapes override [`margin`](SupportMap::margin) and
/// [`local_core_support`](SupportMap::local_core_support) so queries can work
/// on the core and add the radius exactly.
///
/// # Contract
/// * `local_support(d)` returns a point `p` of the shape with
///   `p·d = max over the shape of x·d`. Ties may be broken arbitrarily.
/// * `d` need not be normalised and may be zero; for a zero direction any
///   point of the shape is a valid answer.
/// * The shape is `core ⊕ ball(margin)`, so for a unit `d`,
///   `local_support(d) = local_core_support(d) + margin * d`.
///
/// # Example
/// A user-defined shape, an axis-aligned ellipsoid-free "diamond" (octahedron):
/// ```
/// use collide::{SupportMap, Sphere, penetration};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
///
/// struct Octahedron { r: f32 }
/// impl SupportMap for Octahedron {
///     fn local_support(&self, d: &Vector3<f32>) -> Point3<f32> {
///         let i = d.iamax();
///         let mut p = Point3::origin();
///         p[i] = self.r.copysign(d[i]);
///         p
///     }
/// }
///
/// let hit = penetration(
///     &Octahedron { r: 1.0 }, &Isometry3::identity(),
///     &Sphere::new(0.5), &Isometry3::translation(1.25, 0.0, 0.0),
/// ).expect("overlapping");
/// assert!((hit.depth - 0.25).abs() < 1e-4);
/// assert!((hit.normal.x - 1.0).abs() < 1e-4);
/// ```
pub trait SupportMap {
    /// The point of the shape farthest along `dir`, in the shape's frame.
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32>;

    /// Radius of the ball added to the core: the shape is `core ⊕ ball(margin)`.
    ///
    /// Zero for shapes without rounding (the default).
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }

    /// Support point of the core (the shape without its margin).
    ///
    /// Defaults to [`local_support`](SupportMap::local_support), which is right
    /// for every shape whose margin is zero.
    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.local_support(dir)
    }

    /// The core as a segment `[start, end]` in the shape's frame, when the core
    /// is a point (both ends equal) or a segment.
    ///
    /// Spheres and capsules return `Some`, which lets queries between two such
    /// shapes take an exact closed-form path instead of GJK/EPA. The default
    /// `None` is always correct.
    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        None
    }

    /// The core as a box centred on the local origin and aligned with the
    /// local axes, given by its half extents.
    ///
    /// Cuboids return `Some`, which lets queries against a sphere take an
    /// exact closed-form path instead of GJK/EPA, and lets queries reject
    /// negative or non-finite extents. The default `None` is always correct.
    ///
    /// ```
    /// use collide::{Cuboid, Sphere, SupportMap};
    /// use collide::nalgebra::Vector3;
    /// let half = Vector3::new(1.0, 2.0, 3.0);
    /// assert_eq!(Cuboid::new(half).core_box(), Some(half));
    /// assert_eq!(Sphere::new(1.0).core_box(), None);
    /// ```
    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        None
    }

    /// The core's kind and data in one call: what the queries use to pick a
    /// closed form.
    ///
    /// The default builds it from [`core_box`](SupportMap::core_box) and
    /// [`core_segment`](SupportMap::core_segment), so a shape that
    /// overrides only those is classified correctly; overriding `core` too
    /// saves the queries a call or two. It must agree with them.
    #[inline]
    fn core(&self) -> Core {
        Core::from_parts(self)
    }

    /// The shape itself, if it is one of the crate's own kinds.
    ///
    /// The queries match the pair of answers once and then run code
    /// compiled for that pair of kinds (a [`Shape`](crate::Shape) answers
    /// with the kind it holds). The default `None`, right for every shape
    /// defined outside this crate, runs the query on the shapes as given.
    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        None
    }

    /// An upper bound on the distance from the shape's local origin to any
    /// of its points, margin included: the radius of a ball about the
    /// origin that holds the shape.
    ///
    /// The pair queries use it to prove two shapes apart before GJK runs
    /// (two such balls that do not meet hold shapes that do not meet). The
    /// default, `f32::INFINITY`, is always correct and turns that test off;
    /// the crate's shapes give theirs in closed form (a hull, its farthest
    /// vertex's distance).
    ///
    /// ```
    /// use collide::{Cylinder, Rounded, Sphere, SupportMap};
    /// assert_eq!(Cylinder::new(3.0, 4.0).bounding_radius(), 5.0);
    /// assert_eq!(Rounded::new(Sphere::new(1.0), 0.5).bounding_radius(), 1.5);
    /// ```
    #[inline]
    fn bounding_radius(&self) -> f32 {
        f32::INFINITY
    }

    /// The shape's exact axis-aligned box at `pose`, in the world frame.
    ///
    /// The default takes the six support points along the world axes
    /// ([`Aabb::from_support`]), which is exact for every convex shape;
    /// the crate's shapes override it with closed forms.
    ///
    /// ```
    /// use collide::{Aabb, Cuboid, SupportMap};
    /// use collide::nalgebra::{Isometry3, Point3, Vector3};
    /// let cube = Cuboid::new(Vector3::repeat(1.0));
    /// let turned = Isometry3::rotation(Vector3::z() * std::f32::consts::FRAC_PI_4);
    /// let b = cube.aabb(&turned);
    /// assert!((b.max.x - 2f32.sqrt()).abs() < 1e-6 && (b.max.z - 1.0).abs() < 1e-6);
    /// ```
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        Aabb::from_support(self, pose)
    }

    /// For a [`Shape`](crate::Shape) holding a mesh, heightfield or
    /// compound, which is not convex: its kind's name, and every convex
    /// query refuses it with
    /// [`QueryError::NotConvex`](crate::QueryError::NotConvex). `None`, the
    /// default, for every convex shape.
    ///
    /// (Such a shape also answers a NaN margin and NaN support points, so
    /// the check costs nothing on valid input: only input that fails the
    /// queries' finiteness screen asks.)
    #[inline]
    fn non_convex_kind(&self) -> Option<&'static str> {
        None
    }
}

impl<T: SupportMap + ?Sized> SupportMap for &T {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        (**self).local_support(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        (**self).local_core_support(dir)
    }
    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        (**self).core_segment()
    }
    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        (**self).core_box()
    }
    #[inline]
    fn core(&self) -> Core {
        (**self).core()
    }
    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        (**self).as_shape_ref()
    }
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        (**self).aabb(pose)
    }
    #[inline]
    fn non_convex_kind(&self) -> Option<&'static str> {
        (**self).non_convex_kind()
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        (**self).bounding_radius()
    }
}

impl<T: SupportMap + ?Sized> SupportMap for Box<T> {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        (**self).local_support(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        (**self).local_core_support(dir)
    }
    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        (**self).core_segment()
    }
    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        (**self).core_box()
    }
    #[inline]
    fn core(&self) -> Core {
        (**self).core()
    }
    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        (**self).as_shape_ref()
    }
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        (**self).aabb(pose)
    }
    #[inline]
    fn non_convex_kind(&self) -> Option<&'static str> {
        (**self).non_convex_kind()
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        (**self).bounding_radius()
    }
}

impl Core {
    /// The core a shape describes through [`SupportMap::core_box`] and
    /// [`SupportMap::core_segment`] (the default of [`SupportMap::core`]).
    /// Defined here, beside the trait it reads, so that `core.rs` needs
    /// nothing from this file.
    #[inline]
    pub fn from_parts<S: SupportMap + ?Sized>(shape: &S) -> Self {
        if let Some(half) = shape.core_box() {
            return Core::Box(half);
        }
        match shape.core_segment() {
            Some([p, q]) if p == q => Core::Point(p),
            Some(segment) => Core::Segment(segment),
            None => Core::General,
        }
    }
}
