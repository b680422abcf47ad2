//! A convex polygon built from a point cloud by our own monotone-chain hull,
//! or a segment asked for by name.

use nalgebra::{Point2, Vector2};

use super::error::PolygonError;
use super::hull::{convex_hull, segment};
use super::support_map::SupportMap2;

/// A convex polygon: the convex hull of the points it was built from, with
/// vertices counter-clockwise. [`Polygon::new`] rejects clouds that bound no
/// area, as [`ConvexHull::new`](crate::ConvexHull::new) does in 3D; a
/// two-vertex polygon, a segment, is made by [`Polygon::segment`], and every
/// query handles it.
///
/// ```
/// use collide::dim2::{Polygon, SupportMap2};
/// use collide::nalgebra::{Point2, Vector2};
/// let tri = Polygon::new(&[
///     Point2::new(0.0, 0.0), Point2::new(2.0, 0.0),
///     Point2::new(0.0, 2.0), Point2::new(0.5, 0.5), // interior, dropped
/// ]).unwrap();
/// assert_eq!(tri.vertices().len(), 3);
/// assert_eq!(tri.local_support(&Vector2::new(1.0, 0.1)), Point2::new(2.0, 0.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    vertices: Vec<Point2<f32>>,
}

impl Polygon {
    /// Builds the convex hull of `points`, in the polygon's frame.
    ///
    /// Interior points and points on an edge (within a relative tolerance)
    /// are dropped.
    ///
    /// # Errors
    /// The same cases as [`ConvexHull::new`](crate::ConvexHull::new)'s:
    /// [`PolygonError::TooFewPoints`] for fewer than three points,
    /// [`PolygonError::NonFinitePoint`] for a NaN or infinite coordinate,
    /// [`PolygonError::Coincident`] when all points coincide and
    /// [`PolygonError::Collinear`] when they all lie on one line (within the
    /// tolerances): such a cloud bounds no area.
    ///
    /// ```
    /// use collide::dim2::{Polygon, PolygonError};
    /// use collide::nalgebra::Point2;
    /// let line = [Point2::new(0.25, 0.25), Point2::new(1.0, 1.0), Point2::new(5.0, 5.0)];
    /// assert_eq!(Polygon::new(&line), Err(PolygonError::Collinear));
    /// let bad = [Point2::new(f32::NAN, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0)];
    /// assert_eq!(Polygon::new(&bad), Err(PolygonError::NonFinitePoint { index: 0 }));
    /// ```
    pub fn new(points: &[Point2<f32>]) -> Result<Self, PolygonError> {
        convex_hull(points).map(|vertices| Self { vertices })
    }

    /// The segment from `a` to `b`: a two-vertex polygon, which has no area
    /// and which every query handles.
    ///
    /// # Errors
    /// [`PolygonError::NonFinitePoint`] for a NaN or infinite coordinate
    /// (index 0 for `a`, 1 for `b`), [`PolygonError::Coincident`] when the
    /// ends coincide (within the same relative tolerance as
    /// [`Polygon::new`]'s).
    ///
    /// ```
    /// use collide::dim2::{Polygon, PolygonError};
    /// use collide::nalgebra::Point2;
    /// let seg = Polygon::segment(Point2::new(0.25, 0.25), Point2::new(5.0, 5.0)).unwrap();
    /// assert_eq!(seg.vertices().len(), 2);
    /// let p = Point2::new(1.0, 2.0);
    /// assert_eq!(Polygon::segment(p, p), Err(PolygonError::Coincident));
    /// ```
    pub fn segment(a: Point2<f32>, b: Point2<f32>) -> Result<Self, PolygonError> {
        segment(a, b).map(|vertices| Self { vertices })
    }

    /// The vertices, counter-clockwise, in the polygon's frame: at least
    /// three, or two for a [`segment`](Self::segment).
    ///
    /// ```
    /// use collide::dim2::Polygon;
    /// use collide::nalgebra::Point2;
    /// let p = Polygon::new(&[Point2::new(1.0, 0.0), Point2::new(0.0, 1.0), Point2::new(0.0, 0.0)]).unwrap();
    /// let v = p.vertices();
    /// let (e1, e2) = (v[1] - v[0], v[2] - v[0]);
    /// assert!(e1.perp(&e2) > 0.0); // counter-clockwise
    /// ```
    #[inline]
    pub fn vertices(&self) -> &[Point2<f32>] {
        &self.vertices
    }
}

impl SupportMap2 for Polygon {
    #[inline]
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        // Linear scan; the constructor guarantees at least two vertices.
        let mut best = self.vertices[0];
        let mut best_dot = best.coords.dot(dir);
        for v in &self.vertices[1..] {
            let d = v.coords.dot(dir);
            if d > best_dot {
                best_dot = d;
                best = *v;
            }
        }
        best
    }
}
