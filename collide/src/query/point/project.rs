//! The per-shape [`ProjectPoint`] trait: a point projection in the shape's
//! own frame, in closed form for each of the crate's kinds (one file each)
//! and by GJK/EPA by default, for users' own shapes.

use nalgebra::Point3;

use super::projection::PointProjection;
use super::{capsule, cone, cuboid, cylinder, generic, hull, rounded, segment, sphere, triangle};
use crate::error::QueryError;
use crate::shape::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Segment, Shape, Sphere, Triangle,
};
use crate::support_map::SupportMap;

/// A shape that can project a point given in its own frame.
///
/// Implemented by every shape of this crate and by [`Shape`];
/// [`project_point`](crate::project_point),
/// [`contains_point`](crate::contains_point) and
/// [`distance_to_point`](crate::distance_to_point) are the posed,
/// world-frame queries. A shape of your own takes the default, GJK from the
/// point to the shape and EPA from inside, with an empty impl:
///
/// ```
/// use collide::{distance_to_point, ProjectPoint, SupportMap};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
///
/// /// An octahedron `|x| + |y| + |z| ≤ r`.
/// struct Octahedron { r: f32 }
/// impl SupportMap for Octahedron {
///     fn local_support(&self, d: &Vector3<f32>) -> Point3<f32> {
///         let i = d.iamax();
///         let mut p = Point3::origin();
///         p[i] = self.r.copysign(d[i]);
///         p
///     }
/// }
/// impl ProjectPoint for Octahedron {}
///
/// let d = distance_to_point(&Octahedron { r: 1.0 }, &Isometry3::identity(), &Point3::new(3.0, 0.0, 0.0));
/// assert!((d - 2.0).abs() < 1e-5);
/// ```
pub trait ProjectPoint: SupportMap {
    /// Projects `point`, given in the shape's frame, onto the shape: the
    /// answer in the shape's frame (see
    /// [`project_point`](crate::project_point) for `solid` and the fields).
    /// The input has been checked: the point and the shape's margin and
    /// core are finite, the margin and box extents not negative.
    ///
    /// The default runs GJK between the shape's core and the point, EPA
    /// when the point is in the core, and adds the margin exactly; its
    /// feature is [`PointFeature::Boundary`](crate::PointFeature::Boundary).
    ///
    /// # Errors
    /// [`QueryError::NonFiniteInput`] when a support point is NaN or
    /// infinite.
    fn project_local_point(
        &self,
        point: &Point3<f32>,
        solid: bool,
    ) -> Result<PointProjection, QueryError> {
        generic::project(self, point, solid)
    }
}

macro_rules! closed_form {
    ($ty:ty, |$s:ident, $p:ident, $solid:ident| $body:expr) => {
        impl ProjectPoint for $ty {
            #[inline]
            fn project_local_point(
                &self,
                $p: &Point3<f32>,
                $solid: bool,
            ) -> Result<PointProjection, QueryError> {
                let $s = self;
                Ok($body)
            }
        }
    };
}

closed_form!(Sphere, |s, p, solid| sphere::project(s.radius, p, solid));
closed_form!(Cuboid, |s, p, solid| cuboid::project(&s.half_extents, p, solid));
closed_form!(Capsule, |s, p, solid| capsule::project(s.half_height, s.radius, p, solid));
closed_form!(ConvexHull, |s, p, solid| hull::project(s, p, solid));
closed_form!(Cylinder, |s, p, solid| cylinder::project(s.half_height, s.radius, p, solid));
closed_form!(Cone, |s, p, solid| cone::project(s.half_height, s.radius, p, solid));
closed_form!(Triangle, |s, p, _solid| triangle::project(&s.vertices(), p));
closed_form!(Segment, |s, p, _solid| segment::project(&s.a, &s.b, p));

impl<S: ProjectPoint> ProjectPoint for Rounded<S> {
    #[inline]
    fn project_local_point(
        &self,
        point: &Point3<f32>,
        solid: bool,
    ) -> Result<PointProjection, QueryError> {
        rounded::project(self, point, solid)
    }
}

impl ProjectPoint for Shape {
    #[inline]
    fn project_local_point(
        &self,
        point: &Point3<f32>,
        solid: bool,
    ) -> Result<PointProjection, QueryError> {
        match self {
            Shape::Sphere(s) => s.project_local_point(point, solid),
            Shape::Cuboid(s) => s.project_local_point(point, solid),
            Shape::Capsule(s) => s.project_local_point(point, solid),
            Shape::ConvexHull(s) => s.project_local_point(point, solid),
            Shape::Cylinder(s) => s.project_local_point(point, solid),
            Shape::Cone(s) => s.project_local_point(point, solid),
            Shape::Triangle(s) => s.project_local_point(point, solid),
            Shape::Segment(s) => s.project_local_point(point, solid),
            Shape::Rounded(s) => s.project_local_point(point, solid),
            // A user's shape: GJK/EPA on its support function.
            Shape::Custom(s) => generic::project(&**s, point, solid),
        }
    }
}

impl<T: ProjectPoint + ?Sized> ProjectPoint for &T {
    #[inline]
    fn project_local_point(
        &self,
        point: &Point3<f32>,
        solid: bool,
    ) -> Result<PointProjection, QueryError> {
        (**self).project_local_point(point, solid)
    }
}

impl<T: ProjectPoint + ?Sized> ProjectPoint for Box<T> {
    #[inline]
    fn project_local_point(
        &self,
        point: &Point3<f32>,
        solid: bool,
    ) -> Result<PointProjection, QueryError> {
        (**self).project_local_point(point, solid)
    }
}
