//! A convex polyhedron built from a point cloud by our own quickhull.
//!
//! STUB: the constructor is being written (see `hull::quickhull`). The public
//! surface below is what the rest of the crate relies on.

use nalgebra::{Point3, Unit, Vector3};

use crate::error::HullError;
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
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Point3<f32>>,
    faces: Vec<HullFace>,
    /// `neighbors[adjacency_start[v]..adjacency_start[v + 1]]` are the vertices
    /// sharing an edge with vertex `v`.
    adjacency_start: Vec<u32>,
    neighbors: Vec<u32>,
}

impl ConvexHull {
    /// Builds the convex hull of `points`.
    pub fn new(points: &[Point3<f32>]) -> Result<Self, HullError> {
        let _ = points;
        Err(HullError::TooFewPoints { count: 0 })
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

    /// The vertices sharing an edge with vertex `v`.
    #[inline]
    pub fn neighbors(&self, v: usize) -> &[u32] {
        let s = self.adjacency_start[v] as usize;
        let e = self.adjacency_start[v + 1] as usize;
        &self.neighbors[s..e]
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
