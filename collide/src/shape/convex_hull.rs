//! A convex polyhedron built from a point cloud by our own quickhull
//! (`hull::quickhull`), with coplanar triangles merged into polygon faces
//! (`hull::face_merge`). It keeps the vertices, the faces and the vertex
//! adjacency graph (exactly the polytope's edges) that hill-climbing support
//! strategies walk.

use nalgebra::{Point3, Unit, Vector3};

use crate::error::HullError;
use crate::hull::{self, Coplanarity};
use crate::support_map::SupportMap;

/// One planar face of a [`ConvexHull`].
#[derive(Clone, Debug, PartialEq)]
pub struct HullFace {
    /// Outward unit normal, in the hull's frame.
    pub normal: Unit<Vector3<f32>>,
    /// Plane offset: points `x` on the face satisfy `normal · x = offset`.
    pub offset: f32,
    /// Indices into [`ConvexHull::vertices`], counter-clockwise seen from outside.
    pub vertices: Vec<u32>,
}

/// A convex polyhedron: its vertices, its (merged, planar) faces and the
/// vertex adjacency graph used by hill-climbing support strategies.
///
/// The hull is a closed convex 2-manifold (V - E + F = 2). Every vertex is an
/// input point where at least three faces meet, every face is a convex
/// polygon, and [`neighbors`](ConvexHull::neighbors) lists exactly the
/// polytope's edges (no diagonals of merged faces).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Point3<f32>>,
    faces: Vec<HullFace>,
    /// `neighbors[adjacency_start[v]..adjacency_start[v + 1]]` are the vertices
    /// sharing an edge with vertex `v`.
    adjacency_start: Vec<u32>,
    neighbors: Vec<u32>,
    tolerance: f32,
}

impl ConvexHull {
    /// Builds the convex hull of `points` with quickhull (Barber, Dobkin and
    /// Huhdanpaa 1996), merging near-coplanar triangles into polygons.
    ///
    /// # Tolerance
    /// Points within [`tolerance`](ConvexHull::tolerance) of a face plane
    /// count as on it: they never become vertices, and faces that agree to
    /// within it are merged. The tolerance is `1e-5` times the bounding-box
    /// diagonal of the cloud, but at least 16 f32 ulps of the largest absolute
    /// coordinate (detail finer than the input's own rounding is noise). So a
    /// cube of side 1e-9 at the origin is a fine hull, while the same cube
    /// centred at (1, 1, 1) is degenerate: f32 cannot represent it there.
    ///
    /// # Errors
    /// * [`HullError::TooFewPoints`] for fewer than four points;
    /// * [`HullError::NonFinitePoint`] for a NaN or infinite coordinate (the
    ///   first such point);
    /// * [`HullError::Degenerate`] when the points lie, within the tolerance,
    ///   on a point, a line or a plane;
    /// * [`HullError::TooManyPoints`] for `u32::MAX` points or more;
    /// * [`HullError::Numerical`] if an internal consistency check fails
    ///   (a bug, not expected for any input).
    ///
    /// # Example
    /// ```
    /// use collide::ConvexHull;
    /// use collide::nalgebra::Point3;
    ///
    /// // A unit cube's corners, a duplicate, a point inside and a point in the
    /// // middle of a face: only the 8 corners are kept.
    /// let mut points: Vec<Point3<f32>> = (0..8)
    ///     .map(|i| Point3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
    ///     .collect();
    /// points.extend([Point3::new(1.0, 1.0, 1.0), Point3::new(0.5, 0.5, 0.5), Point3::new(0.5, 0.5, 1.0)]);
    ///
    /// let hull = ConvexHull::new(&points)?;
    /// assert_eq!(hull.vertices().len(), 8);
    /// assert_eq!(hull.faces().len(), 6);
    /// assert!(hull.faces().iter().all(|f| f.vertices.len() == 4));
    /// assert!((0..8).all(|v| hull.neighbors(v).len() == 3));
    /// assert!((hull.volume() - 1.0).abs() < 1e-5);
    /// # Ok::<(), collide::HullError>(())
    /// ```
    pub fn new(points: &[Point3<f32>]) -> Result<Self, HullError> {
        let cloud = hull::Cloud::new(points)?;
        let mesh = hull::triangle_hull(&cloud)?;
        // Merging within the tolerance is validated; in the rare case it
        // fails, merging only exactly coplanar triangles is always valid.
        let polytope = hull::merge_faces(points, &cloud, &mesh, Coplanarity::WithinTolerance)
            .or_else(|| hull::merge_faces(points, &cloud, &mesh, Coplanarity::Exact))
            .ok_or(HullError::Numerical)?;
        Ok(Self {
            vertices: polytope.vertices,
            faces: polytope.faces,
            adjacency_start: polytope.adjacency_start,
            neighbors: polytope.neighbors,
            tolerance: cloud.tolerance as f32,
        })
    }

    /// The hull's vertices (extreme points only), in the hull's frame.
    #[inline]
    pub fn vertices(&self) -> &[Point3<f32>] {
        &self.vertices
    }

    /// The hull's faces, coplanar triangles merged into polygons.
    #[inline]
    pub fn faces(&self) -> &[HullFace] {
        &self.faces
    }

    /// The vertices sharing an edge with vertex `v`, in increasing order.
    ///
    /// # Panics
    /// If `v >= self.vertices().len()`.
    #[inline]
    pub fn neighbors(&self, v: usize) -> &[u32] {
        let s = self.adjacency_start[v] as usize;
        let e = self.adjacency_start[v + 1] as usize;
        &self.neighbors[s..e]
    }

    /// The coplanarity tolerance the hull was built with, in the hull's
    /// units: every input point lies at most this far in front of any face
    /// plane, and every face vertex at most this far behind its own plane.
    #[inline]
    pub fn tolerance(&self) -> f32 {
        self.tolerance
    }

    /// The enclosed volume, by the divergence theorem: the sum over faces of
    /// `offset * area / 3`, relative to the first vertex for accuracy.
    pub fn volume(&self) -> f32 {
        let origin = self.vertices[0].coords.cast::<f64>();
        let mut six_volume = 0.0f64;
        for face in &self.faces {
            let at = |i: u32| self.vertices[i as usize].coords.cast::<f64>() - origin;
            let a = at(face.vertices[0]);
            for w in face.vertices[1..].windows(2) {
                // Signed volume of the tetrahedron (origin, a, b, c), times 6.
                six_volume += a.dot(&at(w[0]).cross(&at(w[1])));
            }
        }
        (six_volume / 6.0) as f32
    }
}

impl SupportMap for ConvexHull {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
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
