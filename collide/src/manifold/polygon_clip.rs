//! Sutherland–Hodgman clipping of a small polygon by half-spaces, carrying a
//! feature id on every vertex so manifold points keep their ids across
//! frames.

use arrayvec::ArrayVec;
use nalgebra::{Point3, Vector3};

/// Most vertices a clipped polygon may hold (a quad clipped by a quad gives
/// 8; hull faces above this fall back to a single deepest point).
pub(crate) const MAX_POLYGON_VERTICES: usize = 16;

/// The feature id of the vertex made where the edge from a vertex with id
/// `from` to one with id `to` crosses clip plane `plane_id`: the same
/// crossing gives the same id on every frame (bit 15 marks a crossing, then
/// the plane and the two ends' low bits).
#[inline]
pub(crate) fn crossing_id(plane_id: u32, from: u32, to: u32) -> u32 {
    0x8000 | (plane_id & 0x7F) << 8 | (from & 0xF) << 4 | (to & 0xF)
}

/// A convex polygon (or segment, or point) whose vertices carry feature ids.
pub(crate) type Polygon = ArrayVec<(Point3<f32>, u32), MAX_POLYGON_VERTICES>;

/// Keeps the part of `input` where `normal · p <= offset`, vertices up to
/// `tolerance · |normal|` outside counting as inside, writing it to `out`.
///
/// A vertex kept as is keeps its id. A vertex made where edge `a → b` crosses
/// the plane gets an id built from the plane's id and the ids of `a` and `b`,
/// so the same crossing gives the same id on the next frame.
pub(crate) fn clip(
    input: &Polygon,
    normal: &Vector3<f32>,
    offset: f32,
    plane_id: u32,
    tolerance: f32,
    out: &mut Polygon,
) {
    out.clear();
    // `normal` need not be unit length: scale the tolerance with it.
    let offset = offset + tolerance * normal.norm();
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
mod tests {
    use super::*;

    /// The clip tolerance of a unit-sized pair.
    const TOLERANCE: f32 = 5.0e-4;

    fn square(half: f32, noise: f32) -> Polygon {
        let mut p = Polygon::new();
        for (id, (x, z)) in
            [(half, half), (-half, half), (-half, -half), (half, -half)].into_iter().enumerate()
        {
            // Rounding-level noise on x, alternating in sign, as equal boxes
            // give after their poses have been through a few steps.
            let jitter = if id % 2 == 0 { noise } else { -noise };
            p.push((Point3::new(x + jitter, 0.0, z), id as u32));
        }
        p
    }

    /// Regression: an edge lying on the clip plane (equal boxes stacked
    /// flush) keeps its corners. Cut at a point anywhere along it, chosen
    /// by rounding, it would move contact points and swap their ids between
    /// steps, so that warm starting fed impulses to the wrong corners.
    #[test]
    fn edge_on_the_plane_keeps_its_corners_and_ids() {
        for noise in [0.0, 1e-7, 3e-6] {
            let mut out = Polygon::new();
            clip(&square(0.5, noise), &Vector3::x(), 0.5, 0, TOLERANCE, &mut out);
            let ids: Vec<u32> = out.iter().map(|v| v.1).collect();
            assert_eq!(ids, vec![0, 1, 2, 3], "noise {noise}");
        }
    }

    #[test]
    fn crossing_edges_are_cut_at_the_plane() {
        let mut out = Polygon::new();
        clip(&square(0.5, 0.0), &Vector3::x(), 0.2, 3, TOLERANCE, &mut out);
        assert_eq!(out.len(), 4);
        for v in &out {
            assert!(v.0.x <= 0.2 + TOLERANCE + 1e-6);
        }
        let cut: Vec<_> = out.iter().filter(|v| v.1 & 0x8000 != 0).collect();
        assert_eq!(cut.len(), 2);
        assert!(cut.iter().all(|v| (v.0.x - (0.2 + TOLERANCE)).abs() < 1e-6));
    }
}
