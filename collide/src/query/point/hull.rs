//! Exact point projection onto a convex polyhedron, by its face planes and
//! face polygons.
//!
//! The method is the textbook reduction of Ericson, *Real-Time Collision
//! Detection* (2005), §5.1.6 (closest point on a convex polyhedron) to
//! closest points on its face polygons, with a bound that skips most faces:
//!
//! * **Inside** (behind every face plane), the nearest surface point is the
//!   foot on the nearest face plane: the ball about the point through that
//!   foot lies in the hull, so the foot is on the face itself.
//! * **Outside**, the nearest point `q` lies on some face that the point is
//!   in front of: `p − q` is a non-negative combination of the normals of
//!   the faces at `q`, and `(p − q)·(p − q) > 0` makes one of those
//!   normals see `p`. And if `p`'s foot on such a face's plane lies in
//!   the face, it is the answer outright (the hull lies behind that plane,
//!   and the foot is the nearest point of the half-space).
//!
//! So the search starts at the face `p` is highest above. If `p`'s foot
//! lands in it, that is the answer. If its nearest point is on an edge or
//! a vertex, a Voronoi test on the hull's vertex adjacency (is `p − q` in
//! the feature's normal cone?) usually confirms it at once. Only when it
//! does not are all faces `p` is in front of searched, stopping at the
//! first whose foot lands inside it and otherwise keeping the nearest edge
//! or vertex point. (A face's height is no use as a bound to skip faces:
//! it never exceeds the hull's distance.)
//!
//! On a face, the same argument in the face's plane picks the nearest
//! point among the edges the projected point is outside of, or the
//! projected point itself when it is inside them all. Departure from
//! Ericson, who walks the hull with GJK or clips Voronoi regions: this
//! needs no iteration and reports the feature (face, edge or vertex index)
//! directly. The plane and side tests are dot products in f32 on the
//! hull's own data; only the distances of edge and vertex candidates,
//! which are compared with each other, are computed in f64 (see
//! `closest_on_edge`), so the answer is exact to f32 rounding relative to
//! the hull's size.
//!
//! A flat hull (a convex polygon, two faces with opposite normals) is the
//! same search on its one polygon, and a point counts as inside when it is
//! on the polygon to within the rounding of its plane.

use nalgebra::{Point3, Vector3};

use super::projection::{PointFeature, PointProjection};
use crate::shape::ConvexHull;

/// Rounding of a point's height above a flat hull's plane, in ulps of the
/// largest coordinate in play (the point's or the hull's bounding radius):
/// the rounding of moving the point into the hull's frame and of the
/// plane's offset. A point this close to the polygon's plane, over the
/// polygon, is on it.
const FLAT_SLACK_ULPS: f32 = 8.0;

/// The share of the squared inradius (see [`ConvexHull::inradius`]) within
/// which a point is inside without a face test: `1 − 2⁻¹⁰`, far above the
/// relative rounding of a squared norm (a few f32 ulps, about 1e-7), so
/// the test never admits a point the face scan would put outside.
pub(super) const INSCRIBED_BALL_SHARE: f32 = 1.0 - 1.0 / 1024.0;

/// The nearest point of one face polygon to a point.
#[derive(Clone, Copy, Debug)]
struct FaceClosest {
    point: Point3<f32>,
    /// Squared distance, in f64 for edges and vertices (see
    /// `closest_on_edge`).
    dist_sq: f64,
    feature: PointFeature,
    /// Whether the point's foot on the face plane lies in the polygon: the
    /// nearest point of the whole hull, then.
    interior: bool,
}

/// Projects `p` (hull frame) onto `hull`.
pub(super) fn project(hull: &ConvexHull, p: &Point3<f32>, solid: bool) -> PointProjection {
    if hull.is_flat() {
        return project_flat(hull, p);
    }
    // Well inside the inscribed ball about the origin, the point is behind
    // every face plane and, solid, is its own answer without a look at the
    // faces. `|p| ≤ r` gives `n·p ≤ r ≤ offset` for every face; the margin
    // keeps the f32 rounding of `|p|²` (a few ulps) from admitting a point
    // on the ball's edge.
    if solid && p.coords.norm_squared() < INSCRIBED_BALL_SHARE * hull.inradius().powi(2) {
        return PointProjection::interior(*p);
    }
    let faces = hull.faces();
    // The face plane `p` is highest above (or least deep below), the first
    // such face, by the SIMD scan of the planes; none (no face, or a NaN
    // point) gives face 0 at −∞, as the scan's loop would.
    let (top, top_height) = match hull.face_planes().highest(&p.coords) {
        Some(i) => {
            (i, faces.get(i).map_or(f32::NEG_INFINITY, |f| f.normal.dot(&p.coords) - f.offset))
        }
        None => (0, f32::NEG_INFINITY),
    };
    // Behind every plane (or on the surface): inside. Written so that a
    // NaN height (no face, or non-finite input) also lands here.
    if !(top_height > 0.0) {
        if solid {
            return PointProjection::interior(*p);
        }
        let normal = faces.get(top).map_or_else(Vector3::zeros, |f| f.normal.into_inner());
        let foot = p - normal * top_height;
        return PointProjection::exact(foot, true, PointFeature::Face(top as u32));
    }
    // A foot inside its face is the answer: the hull lies behind that
    // face's plane, and the foot is the nearest point of that half-space.
    // Otherwise the answer is on an edge or a vertex of a face `p` is in
    // front of, and a face whose height exceeds the best distance so far
    // cannot hold a nearer one.
    let mut best = closest_on_face(hull, top, p);
    if !best.interior && !settled(hull, p, &best) {
        for (i, face) in faces.iter().enumerate() {
            let height = face.normal.dot(&p.coords) - face.offset;
            if i != top && height > 0.0 {
                let candidate = closest_on_face(hull, i, p);
                if candidate.interior {
                    best = candidate;
                    break;
                }
                if candidate.dist_sq < best.dist_sq {
                    best = candidate;
                }
            }
        }
    }
    PointProjection::exact(best.point, false, best.feature)
}

/// Whether the edge or vertex point `best` is the hull's nearest point to
/// `p`, by the Voronoi test of its feature (first-order, so robust to
/// rounding): `p − q` must lie in the feature's normal cone, i.e. make a
/// non-positive product with every direction from `q` into the hull. The
/// hull's edges from a vertex `v` generate those directions at `v`; at a
/// point inside an edge `ab`, the edges from `a` other than `ab` itself do,
/// with `±(b − a)`, to which `p − q` is perpendicular by construction. A
/// tie within rounding fails the test, which only costs the full search.
fn settled(hull: &ConvexHull, p: &Point3<f32>, best: &FaceClosest) -> bool {
    let vertices = hull.vertices();
    let at = |i: u32| vertices[i as usize].cast::<f64>();
    let p64 = p.cast::<f64>();
    let (from, skip, q) = match best.feature {
        PointFeature::Vertex(v) => (v, None, at(v)),
        PointFeature::Edge([a, b]) => {
            let (a64, edge) = (at(a), at(b) - at(a));
            let t = ((p64 - a64).dot(&edge) / edge.norm_squared()).clamp(0.0, 1.0);
            (a, Some(b), a64 + edge * t)
        }
        _ => return false,
    };
    let (origin, out) = (at(from), p64 - q);
    hull.neighbors(from as usize)
        .iter()
        .filter(|&&w| Some(w) != skip)
        .all(|&w| out.dot(&(at(w) - origin)) <= 0.0)
}

/// Projects `p` onto a flat hull: the polygon of its face on `p`'s side.
fn project_flat(hull: &ConvexHull, p: &Point3<f32>) -> PointProjection {
    let top = &hull.faces()[0];
    let height = top.normal.dot(&p.coords) - top.offset;
    let face = if height >= 0.0 { 0 } else { 1 };
    let closest = closest_on_face(hull, face, p);
    let reach = p.coords.amax().max(hull.bounding_radius());
    let slack = FLAT_SLACK_ULPS * f32::EPSILON * reach;
    let inside = closest.interior && height.abs() <= slack;
    PointProjection::exact(closest.point, inside, closest.feature)
}

/// The nearest point to `p` of face `index`'s polygon.
///
/// The polygon's vertices run counter-clockwise about its outward normal
/// `n`, so `(b − a) × n` points out of the polygon across edge `ab`. If
/// `p` is behind every edge's line, its foot on the plane is in the
/// polygon. Otherwise the nearest point is on an edge whose line `p` is in
/// front of (the argument of the module doc, in the plane), clamped to the
/// edge's ends.
#[inline]
fn closest_on_face(hull: &ConvexHull, index: usize, p: &Point3<f32>) -> FaceClosest {
    let face = &hull.faces()[index];
    let vertices = hull.vertices();
    let normal = face.normal.into_inner();
    let ring = &face.vertices;
    let mut best: Option<FaceClosest> = None;
    let mut prev = ring[ring.len() - 1];
    for &next in ring.iter() {
        let (a, b) = (vertices[prev as usize], vertices[next as usize]);
        if (p - a).dot(&(b - a).cross(&normal)) > 0.0 {
            let candidate = closest_on_edge(&a, &b, prev, next, p);
            if best.is_none_or(|b| candidate.dist_sq < b.dist_sq) {
                best = Some(candidate);
            }
        }
        prev = next;
    }
    best.unwrap_or_else(|| {
        let height = normal.dot(&p.coords) - face.offset;
        FaceClosest {
            point: p - normal * height,
            dist_sq: f64::from(height).powi(2),
            feature: PointFeature::Face(index as u32),
            interior: true,
        }
    })
}

/// The nearest point to `p` of the edge from vertex `ia` at `a` to vertex
/// `ib` at `b`.
///
/// In f64, on the exact f64 images of the f32 inputs: seen from a point far
/// away compared with the gap between them, a vertex and a point of an edge
/// beside it are at distances equal to within f32 rounding, yet they are
/// apart by `√(2 · distance · rounding)`, so only distances compared in f64
/// pick the right one. The clamp tests (which side of an end the point is)
/// are first-order and would be right in f32 too.
#[inline]
fn closest_on_edge(
    a: &Point3<f32>,
    b: &Point3<f32>,
    ia: u32,
    ib: u32,
    p: &Point3<f32>,
) -> FaceClosest {
    let (a64, b64, p64) = (a.cast::<f64>(), b.cast::<f64>(), p.cast::<f64>());
    let edge = b64 - a64;
    let from_a = p64 - a64;
    let along = from_a.dot(&edge);
    let length_sq = edge.norm_squared();
    let (point, feature) = if !(along > 0.0) {
        (a64, PointFeature::Vertex(ia))
    } else if along >= length_sq {
        (b64, PointFeature::Vertex(ib))
    } else {
        (a64 + edge * (along / length_sq), PointFeature::Edge([ia.min(ib), ia.max(ib)]))
    };
    let dist_sq = (p64 - point).norm_squared();
    FaceClosest { point: point.cast::<f32>(), dist_sq, feature, interior: false }
}
