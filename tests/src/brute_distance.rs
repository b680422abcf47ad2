//! Brute-force distance between two disjoint convex polytopes (or points or
//! segments).
//!
//! The closest pair of two disjoint convex polytopes is realised by a vertex
//! of one and a face of the other, or by an edge of each; every other contact
//! type (vertex–edge, parallel faces...) also has a witness of one of those
//! two kinds. So the distance is the minimum over vertex–triangle pairs (both
//! ways) and segment–segment pairs of the exact closest-point routines in
//! [`crate::closest`]. Points and segments, which have no triangles, add
//! vertex–segment and vertex–vertex pairs. Because every candidate is a
//! subset of its shape, extra candidates cannot lower the minimum below the
//! true distance, and the true witness pair is always among them.
//!
//! Only meaningful when the shapes are disjoint (or touch): for overlapping
//! solids it returns a boundary-to-boundary distance, not zero.

use nalgebra::Point3;

use crate::closest::{closest_on_segment, closest_on_triangle, closest_segment_segment};
use crate::polytope::Polytope;

/// The closest pair between two shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPair {
    /// Euclidean distance between the two points.
    pub distance: f64,
    /// The point on the first shape.
    pub point_a: Point3<f64>,
    /// The point on the second shape.
    pub point_b: Point3<f64>,
}

/// Distance and closest points between disjoint `a` and `b`, by brute force
/// over feature pairs.
///
/// ```
/// use tests::brute_distance::core_distance;
/// use tests::polytope::Polytope;
/// use tests::nalgebra::{Isometry3, Point3, Vector3};
/// let a = Polytope::cuboid(Vector3::repeat(1.0));
/// let b = Polytope::point(Point3::new(3.0, 0.5, 0.0));
/// assert_eq!(core_distance(&a, &b).distance, 2.0);
/// ```
pub fn core_distance(a: &Polytope, b: &Polytope) -> ClosestPair {
    let mut best =
        ClosestPair { distance: f64::INFINITY, point_a: a.vertices[0], point_b: b.vertices[0] };
    let mut offer = |pa: Point3<f64>, pb: Point3<f64>| {
        let d = (pa - pb).norm();
        if d < best.distance {
            best = ClosestPair { distance: d, point_a: pa, point_b: pb };
        }
    };
    // Vertices of one against the other's triangles, segments or points:
    // `first_is_a` says which way round to report the pair.
    let mut vertex_pass = |from: &Polytope, to: &Polytope, first_is_a: bool| {
        for v in &from.vertices {
            let q = if !to.triangles.is_empty() {
                to.triangles
                    .iter()
                    .map(|&[i, j, k]| {
                        closest_on_triangle(v, &to.vertices[i], &to.vertices[j], &to.vertices[k])
                    })
                    .min_by(|x, y| (v - x).norm_squared().total_cmp(&(v - y).norm_squared()))
            } else if !to.edges.is_empty() {
                to.edges
                    .iter()
                    .map(|&[i, j]| closest_on_segment(v, &to.vertices[i], &to.vertices[j]))
                    .min_by(|x, y| (v - x).norm_squared().total_cmp(&(v - y).norm_squared()))
            } else {
                to.vertices
                    .iter()
                    .copied()
                    .min_by(|x, y| (v - x).norm_squared().total_cmp(&(v - y).norm_squared()))
            };
            if let Some(q) = q {
                if first_is_a { offer(*v, q) } else { offer(q, *v) }
            }
        }
    };
    vertex_pass(a, b, true);
    vertex_pass(b, a, false);
    for &[i, j] in &a.edges {
        for &[k, l] in &b.edges {
            let (pa, pb) = closest_segment_segment(
                &a.vertices[i],
                &a.vertices[j],
                &b.vertices[k],
                &b.vertices[l],
            );
            offer(pa, pb);
        }
    }
    best
}
