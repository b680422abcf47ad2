//! Meshes for the probe's pictures, built from support points with
//! collide's own hull algorithms: the Minkowski difference `A ⊖ B` (and its
//! core, where the shapes are rounded) in 3D with collide's quickhull
//! ([`ConvexHull::new`]), the shapes themselves as triangle meshes, and the
//! 2D difference as a polygon with collide's monotone chain
//! ([`Polygon::new`]).
//!
//! A polytope contributes its exact vertices; a rounded shape (sphere,
//! capsule, circle) the support points along a fixed set of directions. The
//! difference of two shapes is the hull of every difference of their point
//! sets, which is exact for two polytopes. When both are rounded the pairs
//! would be too many, so the difference's own support function is sampled
//! instead.

use collide::dim2::{Polygon, Shape2, SupportMap2};
use collide::nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use collide::{ConvexHull, Shape, SupportMap};

/// Directions sampled on a rounded 3D shape: a Fibonacci sphere of this
/// many points puts neighbours about 13° apart, so a 0.6 m sphere is within
/// 5 mm of its faceted mesh.
const SPHERE_DIRECTIONS: usize = 256;

/// Directions sampled on a rounded 2D shape: 3° apart.
const CIRCLE_DIRECTIONS: usize = 120;

/// A triangle mesh, counter-clockwise seen from outside, with the polygon
/// outlines of its (merged, planar) faces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HullMesh {
    /// Vertex positions.
    pub positions: Vec<Point3<f32>>,
    /// Triangles as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// Face edges as index pairs, each edge once.
    pub edges: Vec<[u32; 2]>,
}

impl HullMesh {
    /// The hull of `points`, or `None` when they span no volume and no
    /// polygon (a point or a segment).
    pub fn hull_of(points: &[Point3<f32>]) -> Option<Self> {
        let hull = ConvexHull::new(points).ok()?;
        let mut mesh = HullMesh { positions: hull.vertices().to_vec(), ..Default::default() };
        for face in hull.faces() {
            let v = &face.vertices;
            for k in 1..v.len().saturating_sub(1) {
                mesh.triangles.push([v[0], v[k], v[k + 1]]);
            }
            for k in 0..v.len() {
                let (i, j) = (v[k], v[(k + 1) % v.len()]);
                // Each edge borders two faces; keep the one going up.
                if i < j || hull.is_flat() {
                    mesh.edges.push([i, j]);
                }
            }
        }
        Some(mesh)
    }

    /// The mesh moved by `pose`.
    pub fn transformed(mut self, pose: &Isometry3<f32>) -> Self {
        for p in &mut self.positions {
            *p = pose * *p;
        }
        self
    }
}

/// `n` unit directions spread evenly over the sphere (a Fibonacci lattice).
pub fn sphere_directions(n: usize) -> impl Iterator<Item = Vector3<f32>> {
    let golden = core::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..n).map(move |i| {
        let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
        let r = (1.0 - y * y).max(0.0).sqrt();
        let (s, c) = (golden * i as f32).sin_cos();
        Vector3::new(r * c, y, r * s)
    })
}

/// Whether the shape is a polytope whose vertices are listed exactly.
fn vertices(shape: &Shape) -> Option<Vec<Point3<f32>>> {
    match shape {
        Shape::Cuboid(c) => Some(c.corners().to_vec()),
        Shape::ConvexHull(h) => Some(h.vertices().to_vec()),
        _ => None,
    }
}

/// Points whose hull is the shape (polytopes) or approximates it from
/// inside (rounded shapes), in the shape's frame; `core` drops the margin.
fn point_set(shape: &Shape, core: bool) -> Vec<Point3<f32>> {
    if let Some(v) = vertices(shape) {
        return v;
    }
    if core && let Some([p, q]) = shape.core_segment() {
        return if p == q { vec![p] } else { vec![p, q] };
    }
    sphere_directions(SPHERE_DIRECTIONS).map(|d| shape.local_support(&d)).collect()
}

/// The shape as a triangle mesh in its own frame.
pub fn shape_mesh(shape: &Shape) -> Option<HullMesh> {
    HullMesh::hull_of(&point_set(shape, false))
}

/// The Minkowski difference `A ⊖ B = {a − b}` of the shapes, or of their
/// cores with `core`, as a mesh in A's frame, for B at `pose_b_in_a`.
/// `None` when the difference is a point or a segment (two sphere or
/// capsule cores).
pub fn difference_mesh(
    a: &Shape,
    b: &Shape,
    pose_b_in_a: &Isometry3<f32>,
    core: bool,
) -> Option<HullMesh> {
    let rounded = |s: &Shape| vertices(s).is_none();
    let points: Vec<Point3<f32>> = if !core && rounded(a) && rounded(b) {
        // Sample the difference's own support: s_A(d) − s_B(−d).
        let rotation = pose_b_in_a.rotation;
        sphere_directions(SPHERE_DIRECTIONS)
            .map(|d| {
                let b_point = pose_b_in_a * b.local_support(&(rotation.inverse() * -d));
                Point3::from(a.local_support(&d) - b_point)
            })
            .collect()
    } else {
        let pa = point_set(a, core);
        let pb: Vec<Point3<f32>> = point_set(b, core).iter().map(|p| pose_b_in_a * p).collect();
        pa.iter().flat_map(|p| pb.iter().map(move |q| Point3::from(p - q))).collect()
    };
    HullMesh::hull_of(&points)
}

/// `n` unit directions spread evenly around the circle.
fn circle_directions(n: usize) -> impl Iterator<Item = Vector2<f32>> {
    (0..n).map(move |i| {
        let (s, c) = (i as f32 * core::f32::consts::TAU / n as f32).sin_cos();
        Vector2::new(c, s)
    })
}

/// Points whose hull is the 2D shape (or, rounded, approximates it).
fn point_set2(shape: &Shape2) -> Vec<Point2<f32>> {
    match shape {
        Shape2::Rectangle(r) => r.corners().to_vec(),
        Shape2::Polygon(p) => p.vertices().to_vec(),
        other => circle_directions(CIRCLE_DIRECTIONS).map(|d| other.local_support(&d)).collect(),
    }
}

/// The 2D shape's outline, counter-clockwise, in its own frame.
pub fn shape_outline2(shape: &Shape2) -> Vec<Point2<f32>> {
    Polygon::new(&point_set2(shape)).map(|p| p.vertices().to_vec()).unwrap_or_default()
}

/// The 2D Minkowski difference `A ⊖ B` as a counter-clockwise polygon in
/// A's frame, for B at `pose_b_in_a`.
pub fn difference_polygon2(
    a: &Shape2,
    b: &Shape2,
    pose_b_in_a: &Isometry2<f32>,
) -> Vec<Point2<f32>> {
    let pa = point_set2(a);
    let pb: Vec<Point2<f32>> = point_set2(b).iter().map(|p| pose_b_in_a * p).collect();
    let points: Vec<Point2<f32>> =
        pa.iter().flat_map(|p| pb.iter().map(move |q| Point2::from(p - q))).collect();
    Polygon::new(&points).map(|p| p.vertices().to_vec()).unwrap_or_default()
}
