//! Flat hulls: the convex polygon of a cloud that spans only a plane (within
//! the coplanarity tolerance), kept as a valid [`ConvexHull`](crate::ConvexHull)
//! the way Jolt and parry accept flat convex shapes.
//!
//! The plane is the one quickhull would have started from: through the
//! cloud's widest triangle (`quickhull::initial_triangle`), with its exact
//! grid normal. The points are projected onto the plane's mid-surface (the
//! middle of the cloud's thickness along the normal) and their 2D hull is
//! found by Andrew's monotone chain (Andrew 1979; de Berg et al.,
//! *Computational Geometry*, §1.1). Departure: the strict hull is then
//! simplified, dropping a vertex when it (and every vertex already dropped
//! beside it) lies within the tolerance outside the chord that replaces it,
//! so, as for 3D hulls, points within the tolerance of an edge never become
//! vertices, and every input point stays within the tolerance of the
//! polygon (checking the dropped neighbours too keeps chained drops from
//! accumulating error).
//!
//! The polygon is stored as a degenerate polytope: two faces with opposite
//! normals sharing the vertex loop (counter-clockwise seen from each side),
//! and the loop as the vertex graph. A convex polygon's loop is exactly what
//! hill climbing needs: a linear function along it rises to one maximum and
//! falls, so every support strategy works unchanged. The projection keeps
//! the vertices coplanar to f32 rounding, so that holds on the stored
//! vertices too.

use nalgebra::{Point3, Unit, Vector2};

use super::face_merge::Polytope;
use super::quickhull::{Cloud, initial_triangle};
use crate::error::HullError;
use crate::shape::HullFace;

/// The flat hull of a cloud that `quickhull` found to span only a plane:
/// its vertices (projected onto the plane), two faces and the loop as the
/// vertex graph. [`HullError::Degenerate`] with dimension 1 or 0 if, once
/// the plane is known, the polygon has fewer than three vertices.
pub(crate) fn flat_polygon(cloud: &Cloud) -> Result<Polytope, HullError> {
    let p = &cloud.snapped;
    let tol = cloud.tolerance;
    let [a, b, c] = initial_triangle(p, tol)?;
    let normal = cloud.triangle_normal([a, b, c]);
    let normal = normal / normal.norm();
    // In-plane axes: along ab, and normal × that.
    let u = (p[b as usize] - p[a as usize]).normalize();
    let w = normal.cross(&u);
    let origin = p[a as usize];
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for q in p {
        let h = normal.dot(&(q - origin));
        lo = lo.min(h);
        hi = hi.max(h);
    }
    let mid = 0.5 * (lo + hi);
    if !mid.is_finite() {
        return Err(HullError::Numerical);
    }

    let planar: Vec<Vector2<f64>> = p
        .iter()
        .map(|q| {
            let r = q - origin;
            Vector2::new(u.dot(&r), w.dot(&r))
        })
        .collect();
    let ring = monotone_chain(&planar, tol);
    if ring.len() < 3 {
        return Err(HullError::Degenerate { dimension: 1 });
    }

    // Back to 3D on the mid-plane, in the input's frame (the cloud is
    // centred on its bounding box).
    let base = origin + normal * mid + cloud.center;
    let vertices: Vec<Point3<f32>> = ring
        .iter()
        .map(|&i| {
            let q = planar[i as usize];
            Point3::from((base + u * q.x + w * q.y).cast::<f32>())
        })
        .collect();
    if !vertices.iter().all(|v| v.coords.iter().all(|x| x.is_finite())) {
        return Err(HullError::OutOfRange);
    }
    let n = vertices.len() as u32;
    // The face offsets through the projected vertices: the highest along
    // each normal, so every vertex is on or behind both planes.
    let normal32 = Unit::new_normalize(normal.cast::<f32>());
    let top = vertices.iter().map(|v| normal32.dot(&v.coords)).fold(f32::NEG_INFINITY, f32::max);
    let bottom =
        vertices.iter().map(|v| -normal32.dot(&v.coords)).fold(f32::NEG_INFINITY, f32::max);
    let faces = vec![
        HullFace { normal: normal32, offset: top, vertices: (0..n).collect() },
        HullFace { normal: -normal32, offset: bottom, vertices: (0..n).rev().collect() },
    ];
    let mut adjacency_start = Vec::with_capacity(vertices.len() + 1);
    let mut neighbors = Vec::with_capacity(2 * vertices.len());
    adjacency_start.push(0);
    for i in 0..n {
        let mut pair = [(i + n - 1) % n, (i + 1) % n];
        pair.sort_unstable();
        neighbors.extend(pair);
        adjacency_start.push(neighbors.len() as u32);
    }
    Ok(Polytope { vertices, faces, adjacency_start, neighbors })
}

/// Indices of the convex hull of `points`, counter-clockwise: the strict
/// hull by Andrew's monotone chain, then simplified by dropping vertices that
/// lie within `tol` outside the chord between their kept neighbours.
fn monotone_chain(points: &[Vector2<f64>], tol: f64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..points.len() as u32).collect();
    order.sort_by(|&i, &j| {
        let (p, q) = (points[i as usize], points[j as usize]);
        p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
    });
    // How far `m` lies outside (to the right of) the chord o→c, in the
    // units of the points; `None` for a zero-length chord.
    let outside = |o: u32, m: u32, c: u32| {
        let (o, m, c) = (points[o as usize], points[m as usize], points[c as usize]);
        let chord = c - o;
        let len = chord.norm();
        let left = chord.x * (m - o).y - chord.y * (m - o).x;
        if len > 0.0 { Some(-left / len) } else { None }
    };
    let mut ring: Vec<u32> = Vec::with_capacity(points.len() + 1);
    // Lower chain left to right, then upper chain right to left; each pops
    // its middle point unless it is a strict turn (exact up to f64
    // rounding: duplicates and collinear points go).
    for pass in [order.clone(), order.iter().rev().copied().collect::<Vec<u32>>()] {
        let start = ring.len();
        for &i in &pass {
            while ring.len() >= start + 2
                && !(outside(ring[ring.len() - 2], ring[ring.len() - 1], i)
                    .is_some_and(|d| d > 0.0))
            {
                ring.pop();
            }
            ring.push(i);
        }
        // The last point starts the other chain.
        ring.pop();
    }
    // Simplify: drop a vertex when it and every vertex dropped next to it
    // lie within `tol` outside the chord between the kept neighbours. The
    // strict ring contains every point, so every point then stays within
    // `tol` of the polygon (no error accumulates from chained drops). Each
    // pass either drops a vertex or ends, so at most `ring.len()` passes.
    let n = ring.len();
    let mut kept = vec![true; n];
    let mut count = n;
    for _ in 0..n {
        let mut dropped_any = false;
        for i in 0..n {
            if !kept[i] || count <= 3 {
                continue;
            }
            let prev = (1..n).map(|k| (i + n - k) % n).find(|&j| kept[j]).unwrap_or(i);
            let next = (1..n).map(|k| (i + k) % n).find(|&j| kept[j]).unwrap_or(i);
            let mut j = (prev + 1) % n;
            let mut fits = true;
            while j != next {
                fits &= outside(ring[prev], ring[j], ring[next]).is_some_and(|d| d <= tol);
                j = (j + 1) % n;
            }
            if fits {
                kept[i] = false;
                count -= 1;
                dropped_any = true;
            }
        }
        if !dropped_any {
            break;
        }
    }
    ring.iter().zip(&kept).filter(|&(_, &k)| k).map(|(&v, _)| v).collect()
}
