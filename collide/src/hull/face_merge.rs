//! Merging the triangles of a quickhull mesh into planar polygon faces, and
//! checking that the result is a valid convex polytope.
//!
//! Coplanar triangles are grown into regions from a seed triangle (largest
//! first, whose normal is the most reliable). A neighbouring triangle joins
//! the region when its new vertex lies within the coplanarity tolerance of the
//! *seed's* plane (never of its latest neighbour's, so a gently curved surface
//! cannot drift into one "flat" face) and only if the region stays a
//! topological disk (no pinched vertex). Vertices then keep their place only
//! where at least three faces meet; those inside a face, or on the straight
//! edge between just two faces, are dropped. This is the post-processing
//! variant of the facet merging in Barber et al. 1996, simpler than merging
//! during construction because the quickhull mesh here is exactly convex.
//!
//! Merging with a tolerance can in rare near-degenerate cases produce a face
//! that is not a disk, not convex, or a vertex lying too far from the merged
//! polytope. Every result is therefore validated (closed 2-manifold, Euler
//! characteristic 2, convex planar faces, convex edges, dropped points within
//! tolerance). The caller falls back to merging only *exactly* coplanar
//! triangles (exact grid predicates), which is always valid.

use std::collections::HashMap;

use nalgebra::{Point3, Unit, Vector3};

use super::quickhull::{Cloud, NONE, TriangleMesh};
use crate::shape::HullFace;

/// Which triangles count as coplanar when merging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coplanarity {
    /// Within the cloud's coplanarity tolerance of the seed plane.
    WithinTolerance,
    /// Exactly coplanar on the snapping grid.
    Exact,
}

/// A validated convex polytope, ready to become a `ConvexHull`.
#[derive(Debug)]
pub(crate) struct Polytope {
    pub vertices: Vec<Point3<f32>>,
    pub faces: Vec<HullFace>,
    pub adjacency_start: Vec<u32>,
    pub neighbors: Vec<u32>,
}

/// Merges `mesh` into polygon faces; `None` when the result fails validation.
pub(crate) fn merge_faces(
    points: &[Point3<f32>],
    cloud: &Cloud,
    mesh: &TriangleMesh,
    mode: Coplanarity,
) -> Option<Polytope> {
    let p = &cloud.local;
    let tol = cloud.tolerance;
    let tris = &mesh.triangles;
    let adj = &mesh.neighbors;
    let n = p.len();
    let cross = |t: [u32; 3]| {
        let a = p[t[0] as usize];
        (p[t[1] as usize] - a).cross(&(p[t[2] as usize] - a))
    };

    // 1. Grow disk-shaped regions of coplanar triangles.
    let area: Vec<f64> = tris.iter().map(|&t| cross(t).norm()).collect();
    let mut order: Vec<u32> = (0..tris.len() as u32).collect();
    order.sort_by(|&a, &b| area[b as usize].total_cmp(&area[a as usize]));
    let mut region = vec![NONE; tris.len()];
    let mut touched = vec![NONE; n];
    let mut regions: Vec<Vec<u32>> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for &seed in &order {
        if region[seed as usize] != NONE {
            continue;
        }
        let r = regions.len() as u32;
        let st = tris[seed as usize];
        let seed_normal = cross(st).normalize();
        let seed_offset = seed_normal.dot(&p[st[0] as usize]);
        let same_side = |t: [u32; 3]| cross(t).dot(&seed_normal) > 0.0;
        let coplanar = |w: u32| match mode {
            Coplanarity::WithinTolerance => {
                (seed_normal.dot(&p[w as usize]) - seed_offset).abs() <= tol
            }
            Coplanarity::Exact => cloud.orient(st[0], st[1], st[2], w) == 0,
        };
        let mut members = vec![seed];
        region[seed as usize] = r;
        for v in st {
            touched[v as usize] = r;
        }
        stack.clear();
        stack.extend(adj[seed as usize]);
        // Each accepted triangle pushes at most three, so the loop runs at
        // most 3 * (triangle count + 1) times.
        while let Some(t) = stack.pop() {
            if region[t as usize] != NONE {
                continue;
            }
            let tri = tris[t as usize];
            let shared = adj[t as usize].map(|a| region[a as usize] == r);
            let accept = match shared.iter().filter(|&&s| s).count() {
                // Growing across one edge: the opposite vertex must be new to
                // the region, or the region would pinch there.
                1 => {
                    let i = shared.iter().position(|&s| s).unwrap_or(0);
                    let w = tri[(i + 2) % 3];
                    touched[w as usize] != r && coplanar(w) && same_side(tri)
                }
                // Filling a notch: all three vertices are already in the
                // region (hence coplanar); the middle one becomes interior.
                2 => same_side(tri),
                // Three shared edges would close the surface.
                _ => false,
            };
            if accept {
                region[t as usize] = r;
                members.push(t);
                for v in tri {
                    touched[v as usize] = r;
                }
                stack.extend(
                    adj[t as usize].iter().copied().filter(|&a| region[a as usize] == NONE),
                );
            }
        }
        regions.push(members);
    }
    if regions.len() < 4 {
        return None;
    }

    // 2. Each region's boundary loop, counter-clockwise seen from outside.
    let mut next = vec![NONE; n];
    let mut faces_at = vec![0u32; n];
    let mut loops: Vec<Vec<u32>> = Vec::with_capacity(regions.len());
    let mut starts: Vec<u32> = Vec::new();
    for (r, members) in regions.iter().enumerate() {
        starts.clear();
        let mut pinched = false;
        for &t in members {
            let tri = tris[t as usize];
            for i in 0..3 {
                if region[adj[t as usize][i] as usize] != r as u32 {
                    let (a, b) = (tri[i], tri[(i + 1) % 3]);
                    pinched |= next[a as usize] != NONE;
                    next[a as usize] = b;
                    starts.push(a);
                }
            }
        }
        let mut boundary = Vec::with_capacity(starts.len());
        if let Some(&first) = starts.first() {
            let mut v = first;
            for _ in 0..starts.len() {
                boundary.push(v);
                v = next[v as usize];
                if v == NONE {
                    break;
                }
            }
            pinched |= v != first || boundary.len() != starts.len();
        }
        for &a in &starts {
            next[a as usize] = NONE;
        }
        if pinched || boundary.len() < 3 {
            return None;
        }
        for &v in &boundary {
            faces_at[v as usize] += 1;
        }
        loops.push(boundary);
    }

    // 3. Plane of each face: area-weighted normal of its triangles, offset
    // through its highest vertex so that every region vertex is on or behind.
    let mut planes: Vec<(Vector3<f64>, f64)> = Vec::with_capacity(regions.len());
    for members in &regions {
        let sum: Vector3<f64> = members.iter().map(|&t| cross(tris[t as usize])).sum();
        let normal = sum.normalize();
        let offset = members
            .iter()
            .flat_map(|&t| tris[t as usize])
            .map(|v| normal.dot(&p[v as usize]))
            .fold(f64::NEG_INFINITY, f64::max);
        if !(normal.iter().all(|c| c.is_finite()) && offset.is_finite()) {
            return None;
        }
        planes.push((normal, offset));
    }
    let below = |(normal, offset): (Vector3<f64>, f64), v: u32| offset - normal.dot(&p[v as usize]);

    // 4. Keep vertices where three or more faces meet; check that dropped ones
    // lie within tolerance of the face (interior) or edge (on a boundary).
    let kept = |v: u32| faces_at[v as usize] >= 3;
    let mut polygons: Vec<Vec<u32>> = Vec::with_capacity(loops.len());
    for (r, boundary) in loops.iter().enumerate() {
        let plane = planes[r];
        for &t in &regions[r] {
            for v in tris[t as usize] {
                if !at_most(below(plane, v), tol) {
                    return None;
                }
            }
        }
        let start = boundary.iter().position(|&v| kept(v))?;
        let mut polygon: Vec<u32> = Vec::new();
        let mut dropped: Vec<u32> = Vec::new();
        for k in 0..=boundary.len() {
            let v = boundary[(start + k) % boundary.len()];
            if !kept(v) {
                dropped.push(v);
                continue;
            }
            if let Some(&a) = polygon.last() {
                for &d in &dropped {
                    if !at_most(distance_to_segment(p, d, a, v), tol) {
                        return None;
                    }
                }
            }
            dropped.clear();
            if k < boundary.len() {
                polygon.push(v);
            }
        }
        if polygon.len() < 3 {
            return None;
        }
        // Convex within tolerance: every vertex on the inner side of every
        // edge (inner = left of the edge seen from outside, `normal × edge`).
        let normal = plane.0;
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            let inward = normal.cross(&(p[b as usize] - p[a as usize])).normalize();
            for &c in &polygon {
                if !at_most(-inward.dot(&(p[c as usize] - p[a as usize])), tol) {
                    return None;
                }
            }
        }
        polygons.push(polygon);
    }

    // 5. Topology: every directed edge once, with its twin; Euler V - E + F = 2.
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for (f, polygon) in polygons.iter().enumerate() {
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            if edges.insert((a, b), f as u32).is_some() {
                return None;
            }
        }
    }
    for (&(a, b), &f) in &edges {
        // Convex edge: the neighbouring face's vertices are behind this plane.
        let g = *edges.get(&(b, a))?;
        if g == f {
            return None;
        }
        for &c in &polygons[g as usize] {
            if !at_most(-below(planes[f as usize], c), tol) {
                return None;
            }
        }
    }
    let mut kept_ids: Vec<u32> = polygons.iter().flatten().copied().collect();
    kept_ids.sort_unstable();
    kept_ids.dedup();
    let euler = kept_ids.len() as i64 - (edges.len() / 2) as i64 + polygons.len() as i64;
    if euler != 2 {
        return None;
    }

    // 6. Output, vertices renumbered in input order.
    let mut remap = vec![NONE; n];
    for (new, &old) in kept_ids.iter().enumerate() {
        remap[old as usize] = new as u32;
    }
    let vertices = kept_ids.iter().map(|&i| points[i as usize]).collect();
    let faces = polygons
        .iter()
        .zip(&planes)
        .map(|(polygon, &(normal, offset))| HullFace {
            normal: Unit::new_normalize(normal.cast::<f32>()),
            offset: (offset + normal.dot(&cloud.center)) as f32,
            vertices: polygon.iter().map(|&v| remap[v as usize]).collect(),
        })
        .collect();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); kept_ids.len()];
    for &(a, b) in edges.keys() {
        lists[remap[a as usize] as usize].push(remap[b as usize]);
    }
    let mut adjacency_start = Vec::with_capacity(lists.len() + 1);
    let mut neighbors = Vec::with_capacity(edges.len());
    adjacency_start.push(0);
    for mut list in lists {
        list.sort_unstable();
        neighbors.extend(list);
        adjacency_start.push(neighbors.len() as u32);
    }
    Some(Polytope { vertices, faces, adjacency_start, neighbors })
}

/// `x <= limit`, false for NaN: every validation check is written so that a
/// NaN anywhere rejects the polytope.
fn at_most(x: f64, limit: f64) -> bool {
    x <= limit
}

/// Distance from point `d` to the segment `ab`.
fn distance_to_segment(p: &[Vector3<f64>], d: u32, a: u32, b: u32) -> f64 {
    let (d, a, b) = (p[d as usize], p[a as usize], p[b as usize]);
    let ab = b - a;
    let t = (ab.dot(&(d - a)) / ab.norm_squared()).clamp(0.0, 1.0);
    (d - (a + ab * t)).norm()
}
