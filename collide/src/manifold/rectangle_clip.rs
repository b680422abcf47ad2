//! Sutherland–Hodgman clipping of a polygon by an axis-aligned rectangle:
//! the side planes of a box's face, seen in that box's frame.
//!
//! It gives, vertex for vertex and bit for bit, what four calls of
//! [`super::polygon_clip::clip`] give with the planes `u <= h_u`,
//! `-u <= h_u`, `v <= h_v`, `-v <= h_v` (plane ids 0 to 3, in that order):
//! the same tolerance, the same crossing formula, the same ids. It departs
//! from the generic clipper only in cost, as Box2D v3 and box3d clip against
//! a reference face's rectangle: a plane's signed distance is one
//! subtraction on one coordinate instead of a 3D dot product, the tolerance
//! is added once per call instead of being scaled by a normal's length on
//! every plane, and a polygon inside all four planes (a small box resting on
//! a big one) is copied without clipping. A vertex carries a third
//! coordinate `w`, its height along the face normal, interpolated like the
//! other two (it is linear along an edge), so the caller finds each clipped
//! point's separation without going back to 3D.

use arrayvec::ArrayVec;

use super::polygon_clip::{MAX_POLYGON_VERTICES, crossing_id};

/// A polygon vertex in the rectangle's frame: `[u, v, w]` (the two in-plane
/// coordinates and the height, and a pad lane) and a feature id.
pub(crate) type RectVertex = ([f32; 4], u32);

/// A clipped polygon (or segment, or point).
pub(crate) type RectPolygon = ArrayVec<RectVertex, MAX_POLYGON_VERTICES>;

/// Keeps the part of `input` inside `|u| <= half_u`, `|v| <= half_v` (each
/// widened by `tolerance`), writing it to `out`.
///
/// A vertex kept as is keeps its id; a vertex made where an edge crosses a
/// side gets an id from the side (0: `+u`, 1: `-u`, 2: `+v`, 3: `-v`) and
/// the ids of the edge's ends, as [`super::polygon_clip::clip`] makes it.
pub(crate) fn clip_to_rectangle(
    input: &RectPolygon,
    half_u: f32,
    half_v: f32,
    tolerance: f32,
    out: &mut RectPolygon,
) {
    // The generic clipper adds `tolerance * |normal|` to the offset; the
    // normals here are unit axes, whose length is exactly 1.
    let (off_u, off_v) = (half_u + tolerance, half_v + tolerance);
    // Inside every side: each pass would copy the polygon unchanged (a kept
    // vertex is pushed in input order). Written so NaN takes the clipping
    // path, which drops it as the generic clipper does.
    let inside = input.iter().all(|&([u, v, _, _], _)| {
        u - off_u <= 0.0 && -u - off_u <= 0.0 && v - off_v <= 0.0 && -v - off_v <= 0.0
    });
    if inside {
        out.clone_from(input);
        return;
    }
    let mut scratch = RectPolygon::new();
    // Ping-pong so the last pass writes `out`.
    clip_side::<0, false>(input, off_u, 0, &mut scratch);
    clip_side::<0, true>(&scratch, off_u, 1, out);
    clip_side::<1, false>(out, off_v, 2, &mut scratch);
    clip_side::<1, true>(&scratch, off_v, 3, out);
}

/// Keeps the part of `input` where `±coordinate[AXIS] <= offset` (minus when
/// `NEGATE`), as [`super::polygon_clip::clip`] does with an axis normal:
/// same visiting order, same treatment of points and segments.
fn clip_side<const AXIS: usize, const NEGATE: bool>(
    input: &RectPolygon,
    offset: f32,
    plane_id: u32,
    out: &mut RectPolygon,
) {
    out.clear();
    let distance = |vertex: &RectVertex| {
        let c = vertex.0[AXIS];
        (if NEGATE { -c } else { c }) - offset
    };
    let n = input.len();
    if n == 0 {
        return;
    }
    if n == 1 {
        if distance(&input[0]) <= 0.0 {
            out.push(input[0]);
        }
        return;
    }
    // A segment is a closed polygon of two vertices; visiting its one edge
    // twice would duplicate the crossing, so it is walked once from its
    // first vertex. A polygon is walked from its last vertex round.
    let (first, mut prev) = if n == 2 { (1, input[0]) } else { (0, input[n - 1]) };
    let mut d_prev = distance(&prev);
    if n == 2 && d_prev <= 0.0 {
        out.push(prev);
    }
    for &cur in &input[first..] {
        let d_cur = distance(&cur);
        if (d_prev <= 0.0) != (d_cur <= 0.0) {
            // The crossing, interpolated on all three coordinates in the
            // generic clipper's order of operations.
            let t = d_prev / (d_prev - d_cur);
            let (a, b) = (prev.0, cur.0);
            let mut p = [0.0; 4];
            for l in 0..4 {
                p[l] = a[l] + (b[l] - a[l]) * t;
            }
            let id = crossing_id(plane_id, prev.1, cur.1);
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

#[cfg(test)]
mod tests;
