//! Tests of the 2D rectangle clip: bit-identical to four generic polygon
//! clips, and clipped areas against grid sampling.

use super::*;
use crate::manifold::polygon_clip::{Polygon, clip};
use crate::manifold::test_rng::Lcg;
use nalgebra::{Point3, Vector3};

/// The clip tolerance of a unit-sized pair.
const CLIP_TOLERANCE: f32 = 5.0e-4;

/// A parallelogram (a box face seen from another box): centre `c`,
/// half-edges `e1`, `e2`, all with a height `w` linear in position.
fn parallelogram(c: [f32; 3], e1: [f32; 3], e2: [f32; 3]) -> RectPolygon {
    let mut quad = RectPolygon::new();
    for (id, (s1, s2)) in
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)].into_iter().enumerate()
    {
        let p: [f32; 3] = std::array::from_fn(|k| c[k] + e1[k] * s1 + e2[k] * s2);
        quad.push(([p[0], p[1], p[2], 0.0], id as u32));
    }
    quad
}

/// Random parallelograms around the rectangle, with the cases that
/// matter: inside, outside, straddling, corners exactly on the sides,
/// sides flush with the rectangle's, and degenerate (segment, point).
fn random_quads(rng: &mut Lcg, count: usize) -> Vec<(RectPolygon, f32, f32)> {
    let mut out = Vec::new();
    for k in 0..count {
        let scale = [1e-3, 1.0, 1e3][k % 3];
        let (hu, hv) = (rng.range(0.1, 1.0) * scale, rng.range(0.1, 1.0) * scale);
        let mut c = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-0.1, 0.1)];
        let angle = match (k / 3) % 4 {
            0 => rng.range(0.0, 6.3),
            1 => rng.range(-1e-3, 1e-3),
            _ => 0.0,
        };
        let (sin, cos) = angle.sin_cos();
        let (a, b) = (rng.range(0.0, 1.0), rng.range(0.0, 1.0));
        let mut e1 = [cos * a, sin * a, rng.range(-0.1, 0.1)];
        let mut e2 = [-sin * b, cos * b, rng.range(-0.1, 0.1)];
        match (k / 12) % 6 {
            // Flush: the quad is the rectangle, or shares one side.
            0 => {
                (c[0], c[1], e1, e2) = (0.0, 0.0, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
            }
            1 => c[0] = 1.0 - e1[0].abs() - e2[0].abs(),
            // Degenerate: a segment (zero second edge) or a point.
            2 => e2 = [0.0; 3],
            3 => (e1, e2) = ([0.0; 3], [0.0; 3]),
            _ => {}
        }
        let c = c.map(|x| x * scale);
        let (e1, e2) = (e1.map(|x| x * scale), e2.map(|x| x * scale));
        let (e1, e2) = (
            [e1[0] * hu / scale, e1[1] * hv / scale, e1[2]],
            [e2[0] * hu / scale, e2[1] * hv / scale, e2[2]],
        );
        let c = [c[0] * hu / scale, c[1] * hv / scale, c[2]];
        out.push((parallelogram(c, e1, e2), hu, hv));
    }
    out
}

/// The generic clipper's answer, the oracle: the polygon clipped by the
/// rectangle's four half-spaces in turn.
fn generic(input: &RectPolygon, hu: f32, hv: f32) -> Polygon {
    let mut poly: Polygon =
        input.iter().copied().map(|([u, v, w, _], id)| (Point3::new(u, v, w), id)).collect();
    let planes = [(Vector3::x(), hu), (-Vector3::x(), hu), (Vector3::y(), hv), (-Vector3::y(), hv)];
    let mut scratch = Polygon::new();
    for (plane_id, (normal, offset)) in planes.iter().enumerate() {
        clip(&poly, normal, *offset, plane_id as u32, CLIP_TOLERANCE, &mut scratch);
        std::mem::swap(&mut poly, &mut scratch);
    }
    poly
}

/// Bit for bit what four generic clips give (an independent
/// implementation on 3D dot products), which is what keeps the box-box
/// manifolds, and so the scene hashes, unchanged.
#[test]
fn matches_four_generic_clips_bit_for_bit() {
    let mut rng = Lcg(11);
    let mut clipped_something = 0;
    for (k, (mut quad, hu, hv)) in random_quads(&mut rng, 20_000).into_iter().enumerate() {
        // Points and segments take their own paths in both clippers.
        if k % 5 == 4 {
            quad.truncate(1 + k / 5 % 2);
        }
        let mut out = RectPolygon::new();
        clip_to_rectangle(&quad, hu, hv, CLIP_TOLERANCE, &mut out);
        let expected = generic(&quad, hu, hv);
        let got: Vec<_> = out.iter().copied().collect();
        assert_eq!(got.len(), expected.len(), "{got:?} vs {expected:?}");
        for ((c, id), (p, expected_id)) in got.iter().zip(&expected) {
            assert_eq!(id, expected_id);
            for k in 0..3 {
                assert_eq!(c[k].to_bits(), p[k].to_bits(), "{got:?} vs {expected:?}");
            }
        }
        clipped_something += usize::from(got.iter().any(|v| v.1 & 0x8000 != 0));
    }
    assert!(clipped_something > 5_000, "only {clipped_something} quads were cut");
}

/// Geometric oracle: the clipped polygon lies in the widened rectangle
/// and in the quad, its heights lie on the quad's plane, and its area is
/// the area of the intersection measured by sampling a grid.
#[test]
fn clipped_area_matches_grid_sampling() {
    let mut rng = Lcg(5);
    for k in 0..300 {
        let (hu, hv) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0));
        let c = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.5, 0.5)];
        let angle = if k % 2 == 0 { rng.range(0.0, 6.3) } else { 0.0 };
        let (sin, cos) = angle.sin_cos();
        let (a, b) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let (gu, gv) = (rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
        // Heights on the plane w = c[2] + gu (u - c[0]) + gv (v - c[1]).
        let e1 = [cos * a, sin * a, gu * cos * a + gv * sin * a];
        let e2 = [-sin * b, cos * b, -gu * sin * b + gv * cos * b];
        let quad = parallelogram(c, e1, e2);
        let mut out = RectPolygon::new();
        clip_to_rectangle(&quad, hu, hv, CLIP_TOLERANCE, &mut out);
        let (ou, ov) = (hu + CLIP_TOLERANCE, hv + CLIP_TOLERANCE);
        let in_quad = |u: f32, v: f32, slack: f32| {
            // Coordinates along the two half-edges, each within ±1.
            let (du, dv) = (u - c[0], v - c[1]);
            let s1 = (du * cos + dv * sin) / a;
            let s2 = (-du * sin + dv * cos) / b;
            s1.abs() <= 1.0 + slack && s2.abs() <= 1.0 + slack
        };
        for ([u, v, w, _], _) in out.iter().copied() {
            assert!(u.abs() <= ou + 1e-5 && v.abs() <= ov + 1e-5, "({u}, {v}) outside");
            assert!(in_quad(u, v, 1e-4), "({u}, {v}) outside the quad");
            let plane = c[2] + gu * (u - c[0]) + gv * (v - c[1]);
            assert!((w - plane).abs() < 1e-5, "height {w}, plane {plane}");
        }
        let vertices: Vec<_> = out.iter().copied().collect();
        let mut area = 0.0;
        for (i, ([u0, v0, ..], _)) in vertices.iter().enumerate() {
            let ([u1, v1, ..], _) = vertices[(i + 1) % vertices.len()];
            area += 0.5 * (u0 * v1 - u1 * v0);
        }
        const CELLS: usize = 400;
        let (du, dv) = (2.0 * ou / CELLS as f32, 2.0 * ov / CELLS as f32);
        let mut inside = 0usize;
        for i in 0..CELLS {
            for j in 0..CELLS {
                let (u, v) = (-ou + (i as f32 + 0.5) * du, -ov + (j as f32 + 0.5) * dv);
                inside += usize::from(in_quad(u, v, 0.0));
            }
        }
        let sampled = inside as f32 * du * dv;
        // Cells cut by the quad's boundary: perimeter times a cell.
        let error = 4.0 * (a + b) * du.max(dv) + 1e-5;
        assert!((area - sampled).abs() <= error, "area {area}, sampled {sampled}");
    }
}
