//! Identified edges: which edges of a triangle surface a contact may push
//! on, decided once from the neighbouring triangle, so that a convex shape
//! sliding over a flat or concave seam gets no "ghost" contact from the
//! seam.
//!
//! Method: Jolt's active edges (`Jolt/Geometry/ActiveEdges.h`, and
//! `MeshShape`'s build) and box3d's identified edges. An edge shared by
//! two triangles is *active* when the surface turns convex across it by
//! more than [`FLAT_EDGE_ANGLE`]; flat and concave edges are inactive. An
//! edge with no neighbour (a boundary) or more than one (non-manifold) is
//! active. A contact whose feature on the triangle is an inactive edge, or
//! a vertex whose two edges in that triangle are both inactive, is a ghost:
//! a smooth surface there has the face's normal.
//!
//! Departure: the convex/concave test uses the signed distance of the
//! neighbour's far corner to this triangle's plane, relative to that
//! corner's distance from the shared edge (the sine of the fold angle),
//! rather than the two face normals, so it does not depend on the
//! neighbour's winding.

use nalgebra::{Point3, Vector3};

/// Fold angle (radians) below which an edge counts as flat: 5°, Jolt's
/// default active-edge threshold. A convex fold gentler than this is
/// smoothed over (the face normal of either side is within 5° of the true
/// one), which is what keeps contacts on a finely tessellated curved
/// surface from catching on its seams.
pub const FLAT_EDGE_ANGLE: f32 = 5.0 * std::f32::consts::PI / 180.0;

/// Bit `i` of a triangle's edge mask: edge `i` (from corner `i` to corner
/// `(i + 1) % 3`) is active.
pub(crate) const ALL_EDGES_ACTIVE: u8 = 0b111;

/// How the surface turns across an edge shared with a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// The neighbour continues the plane (within [`FLAT_EDGE_ANGLE`]).
    Flat,
    /// The surface folds towards the front side (a valley): inactive.
    Concave,
    /// The surface folds away from the front side (a ridge): active.
    Convex,
    /// No neighbour, or more than one: active.
    Boundary,
}

impl EdgeKind {
    /// Whether contacts on such an edge keep their own normal.
    pub fn is_active(self) -> bool {
        matches!(self, EdgeKind::Convex | EdgeKind::Boundary)
    }
}

/// Classifies edge `e0 → e1` of a triangle with (unit) front normal
/// `normal`, given the far corner `far` of the neighbour across it.
pub(crate) fn classify_edge(
    normal: &Vector3<f32>,
    e0: &Point3<f32>,
    e1: &Point3<f32>,
    far: &Point3<f32>,
) -> EdgeKind {
    let edge = e1 - e0;
    let to_far = far - e0;
    // The far corner's distance from the edge's line, and its height over
    // this triangle's plane: their ratio is the sine of the fold angle.
    let len2 = edge.norm_squared();
    let along = if len2 > 0.0 { to_far.dot(&edge) / len2 } else { 0.0 };
    let off_edge = (to_far - edge * along).norm();
    let height = normal.dot(&to_far);
    // Written so that a NaN height counts as a fold (active: the safe side).
    if height.abs() <= FLAT_EDGE_ANGLE.sin() * off_edge {
        EdgeKind::Flat
    } else if height > 0.0 {
        EdgeKind::Concave
    } else {
        EdgeKind::Convex
    }
}

/// Barycentric fraction under which a point counts as on an edge: 1e-4 of
/// the triangle's size, far above f32 rounding of a point computed on the
/// triangle (~1e-7 relative) and far below any real distance from an edge.
const ON_EDGE_FRACTION: f32 = 1e-4;

/// The feature of triangle `[a, b, c]` that `point` (on or near its plane)
/// lies on, as a mask of the edges it touches: 0 inside the face, one bit
/// on an edge, two bits at a corner (edges `i` and `i + 2 mod 3` meet at
/// corner `i`).
pub(crate) fn touched_edges(tri: &[Point3<f32>; 3], point: &Point3<f32>) -> u8 {
    let Some([wa, wb, wc]) = barycentric(tri, point) else {
        return ALL_EDGES_ACTIVE;
    };
    let mut mask = 0;
    // Edge 0 (a→b) is where the weight of c vanishes, edge 1 (b→c) of a,
    // edge 2 (c→a) of b. Written so that NaN weights touch every edge.
    if !(wc > ON_EDGE_FRACTION) {
        mask |= 0b001;
    }
    if !(wa > ON_EDGE_FRACTION) {
        mask |= 0b010;
    }
    if !(wb > ON_EDGE_FRACTION) {
        mask |= 0b100;
    }
    mask
}

/// Whether `point` (on or near the plane of `tri`) projects into the
/// triangle, its edges included to [`ON_EDGE_FRACTION`].
pub(crate) fn projects_inside(tri: &[Point3<f32>; 3], point: &Point3<f32>) -> bool {
    barycentric(tri, point).is_some_and(|w| w.iter().all(|&x| x >= -ON_EDGE_FRACTION))
}

/// Whether `point`'s projection onto the plane of `tri` lies in the
/// closed triangle, with no tolerance: every barycentric weight at least
/// 0 (`false` for a triangle without area, or NaN).
pub(crate) fn projects_into(tri: &[Point3<f32>; 3], point: &Point3<f32>) -> bool {
    barycentric(tri, point).is_some_and(|w| w.iter().all(|&x| x >= 0.0))
}

/// The barycentric weights of `point`'s projection onto the plane of
/// `tri`: the area of the sub-triangle opposite each corner over the whole.
/// `None` for a triangle without area.
fn barycentric(tri: &[Point3<f32>; 3], point: &Point3<f32>) -> Option<[f32; 3]> {
    let [a, b, c] = tri;
    let n = (b - a).cross(&(c - a));
    let n2 = n.norm_squared();
    if !(n2 > 0.0) {
        return None;
    }
    let wa = (c - b).cross(&(point - b)).dot(&n) / n2;
    let wb = (a - c).cross(&(point - c)).dot(&n) / n2;
    Some([wa, wb, 1.0 - wa - wb])
}

/// Whether a contact on the feature `touched` (see [`touched_edges`]) of a
/// triangle whose active edges are `active` is a ghost: on the face (no
/// edge touched: a normal that leans there is rounding), on an inactive
/// edge, or at a corner whose touched edges are all inactive.
pub(crate) fn is_ghost(touched: u8, active: u8) -> bool {
    touched & active == 0
}
