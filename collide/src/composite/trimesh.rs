//! A triangle mesh: indexed triangles over a vertex list, a bounding-volume
//! hierarchy over the triangles, and each triangle's identified edges
//! (see [`super::edges`]), all built once.
//!
//! A mesh is a surface, not a solid: it encloses nothing (a point is never
//! inside it), has no mass, and a convex shape collides with the triangles
//! it overlaps, one by one. Triangles are two-sided; their stored winding
//! only decides which side an edge's fold is measured from.

use nalgebra::{Isometry3, Point3};

use super::edges::{ALL_EDGES_ACTIVE, EdgeKind, classify_edge};
use super::error::CompositeError;
use super::exact_aabb::aabb_of_points;
use crate::aabb::Aabb;
use crate::bvh::StaticBvh;
use crate::shape::{ConvexHull, Triangle};

/// Most triangles (and vertices) a mesh takes: the hierarchy's `2^31` limit.
const MAX_TRIANGLES: usize = (1 << 31) - 1;

/// A triangle mesh with a bounding-volume hierarchy and identified edges.
///
/// ```
/// use collide::composite::TriMesh;
/// use collide::nalgebra::{Isometry3, Point3};
/// // A unit square of two triangles, facing +y.
/// let vertices = vec![
///     Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0),
///     Point3::new(1.0, 0.0, 1.0), Point3::new(1.0, 0.0, 0.0),
/// ];
/// let mesh = TriMesh::try_new(vertices, vec![[0, 1, 2], [2, 3, 0]]).unwrap();
/// assert_eq!(mesh.triangle_count(), 2);
/// // The diagonal they share is flat, so contacts on it are corrected.
/// assert_eq!(mesh.active_edges(0) & 0b100, 0);
/// let b = mesh.aabb(&Isometry3::translation(0.0, 2.0, 0.0));
/// assert_eq!((b.min.y, b.max.y, b.max.x), (2.0, 2.0, 1.0));
/// ```
#[derive(Clone, Debug)]
pub struct TriMesh {
    vertices: Vec<Point3<f32>>,
    triangles: Vec<[u32; 3]>,
    /// Per triangle, bit `i` set when edge `i` is active.
    active: Vec<u8>,
    bvh: StaticBvh,
    /// The vertices of the mesh's convex hull (all vertices if the hull
    /// could not be built): enough for its exact box at any pose.
    hull_points: Vec<Point3<f32>>,
}

impl PartialEq for TriMesh {
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.triangles == other.triangles
    }
}

impl TriMesh {
    /// Builds a mesh from its vertices and its triangles' corner indices,
    /// with the hierarchy and the identified edges. Allocates; O(n log n).
    ///
    /// # Errors
    /// [`CompositeError::Empty`] without triangles;
    /// [`CompositeError::NonFiniteVertex`] for a NaN or infinite vertex
    /// (even one no triangle uses); [`CompositeError::IndexOutOfRange`];
    /// [`CompositeError::DegenerateTriangle`] for a triangle whose corners
    /// lie on one line within rounding (as [`Triangle::try_new`] decides);
    /// [`CompositeError::TooLarge`] for `2^31` triangles or vertices or more.
    pub fn try_new(
        vertices: Vec<Point3<f32>>,
        triangles: Vec<[u32; 3]>,
    ) -> Result<Self, CompositeError> {
        if triangles.is_empty() {
            return Err(CompositeError::Empty);
        }
        for count in [triangles.len(), vertices.len()] {
            if count > MAX_TRIANGLES {
                return Err(CompositeError::TooLarge { count });
            }
        }
        if let Some(index) = vertices.iter().position(|v| !v.iter().all(|x| x.is_finite())) {
            return Err(CompositeError::NonFiniteVertex { index });
        }
        let mut boxes = Vec::with_capacity(triangles.len());
        for (t, tri) in triangles.iter().enumerate() {
            for &index in tri {
                if index as usize >= vertices.len() {
                    let vertex_count = vertices.len();
                    return Err(CompositeError::IndexOutOfRange {
                        triangle: t,
                        index,
                        vertex_count,
                    });
                }
            }
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            if Triangle::try_new(a, b, c).is_err() {
                return Err(CompositeError::DegenerateTriangle { triangle: t });
            }
            boxes.push(Aabb::new(a.inf(&b).inf(&c), a.sup(&b).sup(&c)));
        }
        let bvh = StaticBvh::try_new(&boxes)
            .map_err(|_| CompositeError::TooLarge { count: triangles.len() })?;
        let active = identify_edges(&vertices, &triangles);
        let hull_points = match ConvexHull::new(&vertices) {
            Ok(hull) => hull.vertices().to_vec(),
            Err(_) => vertices.clone(),
        };
        Ok(Self { vertices, triangles, active, bvh, hull_points })
    }

    /// The vertices, as given.
    pub fn vertices(&self) -> &[Point3<f32>] {
        &self.vertices
    }

    /// The triangles' corner indices, as given.
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// How many triangles the mesh has.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Triangle `index` in the mesh's frame, or `None` past the end.
    pub fn triangle(&self, index: u32) -> Option<Triangle> {
        let [a, b, c] = self.triangles.get(index as usize)?.map(|i| self.vertices[i as usize]);
        Some(Triangle::new(a, b, c))
    }

    /// Triangle `index`'s corners; the index must be in range.
    #[inline]
    pub(crate) fn corners(&self, index: u32) -> [Point3<f32>; 3] {
        self.triangles[index as usize].map(|i| self.vertices[i as usize])
    }

    /// The active edges of triangle `index` as a mask: bit `i` is set when
    /// edge `i` (corner `i` to corner `(i + 1) % 3`) is active, convex or
    /// on the boundary (see [`EdgeKind`]). 0 past the end.
    pub fn active_edges(&self, index: u32) -> u8 {
        self.active.get(index as usize).copied().unwrap_or(0)
    }

    /// The hierarchy over the triangles (item `i` is triangle `i`), in the
    /// mesh's frame.
    pub fn bvh(&self) -> &StaticBvh {
        &self.bvh
    }

    /// The mesh's box in its own frame.
    pub fn local_aabb(&self) -> Aabb {
        self.bvh.root_aabb().unwrap_or(Aabb::new(Point3::origin(), Point3::origin()))
    }

    /// The mesh's exact axis-aligned box at `pose` (from the vertices of
    /// its convex hull, so it costs a hull's worth of points, not a mesh's).
    pub fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        if pose.rotation == nalgebra::UnitQuaternion::identity() {
            let b = self.local_aabb();
            let t = pose.translation.vector;
            return Aabb::new(b.min + t, b.max + t);
        }
        aabb_of_points(&self.hull_points, pose)
    }
}

/// The active-edge mask of every triangle: edges are matched by their
/// sorted corner indices, an edge used by exactly two triangles is
/// classified from each side, any other is a boundary (active).
fn identify_edges(vertices: &[Point3<f32>], triangles: &[[u32; 3]]) -> Vec<u8> {
    // (lower corner, higher corner, 3 · triangle + edge), sorted so that
    // the uses of one edge are adjacent.
    let mut uses: Vec<(u32, u32, u32)> = Vec::with_capacity(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for e in 0..3 {
            let (i, j) = (tri[e], tri[(e + 1) % 3]);
            uses.push((i.min(j), i.max(j), 3 * t as u32 + e as u32));
        }
    }
    uses.sort_unstable();
    let mut active = vec![ALL_EDGES_ACTIVE; triangles.len()];
    let mut start = 0;
    while start < uses.len() {
        let mut end = start + 1;
        while end < uses.len() && (uses[end].0, uses[end].1) == (uses[start].0, uses[start].1) {
            end += 1;
        }
        if end - start == 2 {
            let (first, second) = (uses[start].2, uses[start + 1].2);
            for (this, other) in [(first, second), (second, first)] {
                let kind = edge_kind(vertices, triangles, this, other);
                if !kind.is_active() {
                    active[this as usize / 3] &= !(1 << (this % 3));
                }
            }
        }
        start = end;
    }
    active
}

/// How the surface turns across edge `this` (`3 · triangle + edge`) into
/// the triangle of the edge use `other`.
fn edge_kind(vertices: &[Point3<f32>], triangles: &[[u32; 3]], this: u32, other: u32) -> EdgeKind {
    let (t, e) = (this as usize / 3, this as usize % 3);
    let tri = triangles[t];
    let [a, b, c] = tri.map(|i| vertices[i as usize]);
    let Some(normal) = (b - a).cross(&(c - a)).try_normalize(0.0) else {
        return EdgeKind::Boundary;
    };
    let other_tri = triangles[other as usize / 3];
    let oe = other as usize % 3;
    // The neighbour's corner off the shared edge.
    let far = vertices[other_tri[(oe + 2) % 3] as usize];
    let (e0, e1) = (vertices[tri[e] as usize], vertices[tri[(e + 1) % 3] as usize]);
    classify_edge(&normal, &e0, &e1, &far)
}
