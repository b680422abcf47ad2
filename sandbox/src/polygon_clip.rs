//! Sutherland–Hodgman clipping of a small polygon by half-spaces, carrying a
//! feature id on every vertex so manifold points keep their ids across steps.

use arrayvec::ArrayVec;
use collide::nalgebra::{Point3, Vector3};

use crate::manifold::MAX_POLYGON_VERTICES;
use crate::tolerances::LINEAR_SLOP;

/// Vertices up to this far outside a clip plane count as inside: a tenth of
/// the linear slop (0.5 mm for metre-sized bodies). Without it, an edge lying
/// on the plane (equal boxes stacked flush) has both ends a rounding error
/// from it, and the crossing lands anywhere along the edge from step to
/// step, moving the contact point and its warm-start id with it.
const CLIP_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// A convex polygon (or segment, or point) whose vertices carry feature ids.
pub(crate) type Polygon = ArrayVec<(Point3<f32>, u32), MAX_POLYGON_VERTICES>;

/// Keeps the part of `input` where `normal · p <= offset` (within
/// [`CLIP_TOLERANCE`]), writing it to `out`.
///
/// A vertex kept as is keeps its id. A vertex made where edge `a → b` crosses
/// the plane gets an id built from the plane's id and the ids of `a` and `b`,
/// so the same crossing gives the same id on the next step.
pub(crate) fn clip(
    input: &Polygon,
    normal: &Vector3<f32>,
    offset: f32,
    plane_id: u32,
    out: &mut Polygon,
) {
    out.clear();
    // `normal` need not be unit length: scale the tolerance with it.
    let offset = offset + CLIP_TOLERANCE * normal.norm();
    let n = input.len();
    if n == 0 {
        return;
    }
    if n == 1 {
        if normal.dot(&input[0].0.coords) <= offset {
            out.push(input[0]);
        }
        return;
    }
    // A segment is a closed polygon of two vertices; visiting its one edge
    // twice would duplicate the crossing, so only walk it once.
    let edges = if n == 2 { 1 } else { n };
    let mut prev = input[n - 1];
    let mut d_prev = normal.dot(&prev.0.coords) - offset;
    if n == 2 {
        prev = input[0];
        d_prev = normal.dot(&prev.0.coords) - offset;
        if d_prev <= 0.0 {
            out.push(prev);
        }
    }
    for k in 0..edges {
        let cur = if n == 2 { input[1] } else { input[k] };
        let d_cur = normal.dot(&cur.0.coords) - offset;
        if (d_prev <= 0.0) != (d_cur <= 0.0) {
            let t = d_prev / (d_prev - d_cur);
            let p = prev.0 + (cur.0 - prev.0) * t;
            let id = 0x8000 | (plane_id & 0x7F) << 8 | (prev.1 & 0xF) << 4 | (cur.1 & 0xF);
            if !out.is_full() {
                out.push((p, id));
            }
        }
        if d_cur <= 0.0 && !out.is_full() {
            out.push(cur);
        }
        prev = cur;
        d_prev = d_cur;
    }
}
