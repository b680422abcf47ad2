//! Merging the triangles of a quickhull mesh into planar polygon faces, and
//! checking that the result is a valid convex polytope.
//!
//! Coplanar triangles are grown into regions from a seed triangle (largest
//! first, whose normal is the most reliable). A neighbouring triangle joins
//! the region when its new vertex lies within half the coplanarity tolerance
//! of the *seed's* plane (never of its latest neighbour's, so a gently curved surface
//! cannot drift into one "flat" face) and only if the region stays a
//! topological disk (no pinched vertex). Vertices then keep their place only
//! where at least three faces meet; those inside a face, or on the straight
//! edge between just two faces, are dropped. This is the post-processing
//! variant of the facet merging in Barber et al. 1996, simpler than merging
//! during construction because the quickhull mesh here is exactly convex.
//!
//! Merging with a tolerance can in rare near-degenerate cases produce a face
//! that is not a disk, not convex, or a vertex lying too far from the merged
//! polytope (two nearly coplanar faces meeting along a bent chain of edges).
//! Every result is therefore validated (closed 2-manifold, Euler
//! characteristic 2, planar convex faces, convex edges, dropped points within
//! tolerance). The triangles of faces that fail are restricted to merging only
//! with *exactly* coplanar triangles (exact grid predicates) and merging is
//! redone; merging everything exactly is always valid, and is the last resort.

use std::collections::HashMap;

use nalgebra::{Point3, Unit, Vector3};

use super::quickhull::{Cloud, NONE, TriangleMesh};
use crate::shape::HullFace;

/// How many times merging is retried, each time restricting the triangles of
/// the regions that failed validation to exactly coplanar merging. Each pass
/// only ever adds restrictions, and the last resort (everything exact) is
/// always valid. Passes needed in practice: 0-3 (dense spheres, noisy cubes,
/// cylinders); the cap bounds the cost on adversarial input.
const MAX_MERGE_PASSES: usize = 16;

/// A validated convex polytope, ready to become a `ConvexHull`.
#[derive(Debug)]
pub(crate) struct Polytope {
    pub vertices: Vec<Point3<f32>>,
    pub faces: Vec<HullFace>,
    pub adjacency_start: Vec<u32>,
    pub neighbors: Vec<u32>,
}

/// Why one merge attempt was rejected.
enum Rejected {
    /// Some faces failed validation.
    Faces {
        /// The triangles of the faces that failed.
        bad: Vec<u32>,
        /// The triangles of the faces next to those.
        around: Vec<u32>,
    },
    /// A global check (Euler characteristic) failed.
    Everything,
}

/// Merges `mesh` into validated polygon faces; `None` only if even exact
/// merging fails validation, which would be a bug.
pub(crate) fn merge_faces(
    points: &[Point3<f32>],
    cloud: &Cloud,
    mesh: &TriangleMesh,
) -> Option<Polytope> {
    let mut exact_only = vec![false; mesh.triangles.len()];
    for _ in 0..MAX_MERGE_PASSES {
        match try_merge(points, cloud, mesh, &exact_only) {
            Ok(polytope) => return Some(polytope),
            Err(Rejected::Faces { bad, around }) => {
                // Restrict the failed faces; if they already were, their
                // neighbours (a sliver kept exact cannot be absorbed by a
                // neighbour merged with tolerance).
                if !restrict(&mut exact_only, &bad) && !restrict(&mut exact_only, &around) {
                    break;
                }
            }
            Err(Rejected::Everything) => break,
        }
    }
    exact_only.fill(true);
    try_merge(points, cloud, mesh, &exact_only).ok()
}

/// Flags `triangles` as exact-only; whether any was not already.
fn restrict(exact_only: &mut [bool], triangles: &[u32]) -> bool {
    let mut progressed = false;
    for &t in triangles {
        progressed |= !exact_only[t as usize];
        exact_only[t as usize] = true;
    }
    progressed
}

/// One merge attempt. Triangles flagged in `exact_only` only ever join
/// regions of exactly coplanar triangles.
fn try_merge(
    points: &[Point3<f32>],
    cloud: &Cloud,
    mesh: &TriangleMesh,
    exact_only: &[bool],
) -> Result<Polytope, Rejected> {
    // Geometry on the snapped points, consistent with the exact topology (no
    // triangle of the mesh is degenerate there); they are within 1/4 f32 ulp
    // of the input, far below the tolerance.
    let p = &cloud.snapped;
    let tol = cloud.tolerance;
    let tris = &mesh.triangles;
    let adj = &mesh.neighbors;
    let n = p.len();
    // Triangle normals (area-scaled), exact on the grid then rounded.
    let normal_of: Vec<Vector3<f64>> = tris.iter().map(|&t| cloud.triangle_normal(t)).collect();

    // 1. Grow disk-shaped regions of coplanar triangles. A region accepts a
    // vertex within half the tolerance of its seed plane, so that all its
    // vertices lie in a slab of thickness `tol`.
    let area: Vec<f64> = normal_of.iter().map(|n| n.norm()).collect();
    let mut order: Vec<u32> = (0..tris.len() as u32).collect();
    order.sort_by(|&a, &b| area[b as usize].total_cmp(&area[a as usize]));
    let mut region = vec![NONE; tris.len()];
    let mut touched = vec![NONE; n];
    let mut regions: Vec<Vec<u32>> = Vec::new();
    let mut normals: Vec<Vector3<f64>> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for &seed in &order {
        if region[seed as usize] != NONE {
            continue;
        }
        let r = regions.len() as u32;
        let st = tris[seed as usize];
        let exact = exact_only[seed as usize];
        let seed_normal = normal_of[seed as usize] / area[seed as usize];
        let seed_offset = seed_normal.dot(&p[st[0] as usize]);
        let same_side = |t: u32| normal_of[t as usize].dot(&seed_normal) > 0.0;
        let coplanar = |w: u32| {
            if exact {
                cloud.orient(st[0], st[1], st[2], w) == 0
            } else {
                (seed_normal.dot(&p[w as usize]) - seed_offset).abs() <= 0.5 * tol
            }
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
                // the region, or the region would pinch there. Exact-only
                // triangles join only exact regions.
                1 => {
                    let i = shared.iter().position(|&s| s).unwrap_or(0);
                    let w = tri[(i + 2) % 3];
                    (exact || !exact_only[t as usize])
                        && touched[w as usize] != r
                        && coplanar(w)
                        && same_side(t)
                }
                // Filling a notch: all three vertices are already in the
                // region (hence coplanar); the middle one becomes interior.
                2 => same_side(t),
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
        normals.push(seed_normal);
    }
    if regions.len() < 4 {
        return Err(Rejected::Everything);
    }
    let mut bad = vec![false; regions.len()];
    let reject = |bad: &[bool]| {
        let mut near = bad.to_vec();
        for (members, _) in regions.iter().zip(bad).filter(|&(_, &b)| b) {
            for &t in members {
                for a in adj[t as usize] {
                    near[region[a as usize] as usize] = true;
                }
            }
        }
        let collect = |flags: &[bool]| {
            regions
                .iter()
                .zip(flags)
                .filter(|&(_, &b)| b)
                .flat_map(|(members, _)| members.iter().copied())
                .collect()
        };
        Rejected::Faces { bad: collect(bad), around: collect(&near) }
    };

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
            bad[r] = true;
        }
        for &v in &boundary {
            faces_at[v as usize] += 1;
        }
        loops.push(boundary);
    }
    if bad.contains(&true) {
        return Err(reject(&bad));
    }

    // 3. Plane of each face: the seed's normal, offset through the highest
    // region vertex so that every region vertex is on or behind it.
    let planes: Vec<(Vector3<f64>, f64)> = regions
        .iter()
        .zip(&normals)
        .map(|(members, &normal)| {
            let offset = members
                .iter()
                .flat_map(|&t| tris[t as usize])
                .map(|v| normal.dot(&p[v as usize]))
                .fold(f64::NEG_INFINITY, f64::max);
            (normal, offset)
        })
        .collect();
    let below = |(normal, offset): (Vector3<f64>, f64), v: u32| offset - normal.dot(&p[v as usize]);

    // 4. Keep vertices where three or more faces meet; check that dropped ones
    // lie within tolerance of the face (interior) or edge (on a boundary),
    // and that the polygons are planar and convex.
    let kept = |v: u32| faces_at[v as usize] >= 3;
    let mut polygons: Vec<Vec<u32>> = Vec::with_capacity(loops.len());
    for (r, boundary) in loops.iter().enumerate() {
        let polygon = face_polygon(p, tol, planes[r], boundary, &kept);
        let planar = regions[r]
            .iter()
            .flat_map(|&t| tris[t as usize])
            .all(|v| at_most(below(planes[r], v), tol));
        if !planar || polygon.is_none() {
            bad[r] = true;
        }
        polygons.push(polygon.unwrap_or_default());
    }
    if bad.contains(&true) {
        return Err(reject(&bad));
    }

    // 5. Topology: every directed edge once, with its twin in another face,
    // and every edge convex (the neighbour's vertices behind this plane).
    let mut edges: HashMap<(u32, u32), u32> = HashMap::with_capacity(3 * tris.len());
    for (f, polygon) in polygons.iter().enumerate() {
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            if let Some(g) = edges.insert((a, b), f as u32) {
                bad[f] = true;
                bad[g as usize] = true;
            }
        }
    }
    for (f, polygon) in polygons.iter().enumerate() {
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            match edges.get(&(b, a)) {
                Some(&g) if g as usize != f => {
                    let convex =
                        polygons[g as usize].iter().all(|&c| at_most(-below(planes[f], c), tol));
                    if !convex {
                        bad[f] = true;
                        bad[g as usize] = true;
                    }
                }
                _ => bad[f] = true,
            }
        }
    }
    if bad.contains(&true) {
        return Err(reject(&bad));
    }
    let mut kept_ids: Vec<u32> = polygons.iter().flatten().copied().collect();
    kept_ids.sort_unstable();
    kept_ids.dedup();
    let euler = kept_ids.len() as i64 - (edges.len() / 2) as i64 + polygons.len() as i64;
    if euler != 2 {
        return Err(Rejected::Everything);
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
    Ok(Polytope { vertices, faces, adjacency_start, neighbors })
}

/// The face polygon: the region's boundary loop restricted to kept vertices.
/// `None` unless every dropped boundary vertex lies within `tol` of the
/// polygon edge that replaces it, the polygon has at least three vertices,
/// and it is convex within `tol`.
fn face_polygon(
    p: &[Vector3<f64>],
    tol: f64,
    (normal, _): (Vector3<f64>, f64),
    boundary: &[u32],
    kept: &impl Fn(u32) -> bool,
) -> Option<Vec<u32>> {
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
    // Convex within tolerance: every vertex on the inner side of every edge
    // (inner = left of the edge seen from outside, `normal × edge`).
    for (i, &a) in polygon.iter().enumerate() {
        let b = polygon[(i + 1) % polygon.len()];
        let inward = normal.cross(&(p[b as usize] - p[a as usize])).normalize();
        for &c in &polygon {
            if !at_most(-inward.dot(&(p[c as usize] - p[a as usize])), tol) {
                return None;
            }
        }
    }
    Some(polygon)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::{Cloud, triangle_hull};

    /// Merging everything exactly is the last resort; it must give the exact
    /// polytope on its own. An axis-aligned cube with a grid on each face is
    /// exactly coplanar on the snapping grid: exactly 8 corners and 6 squares.
    #[test]
    fn exact_merging_alone_gives_the_cube() {
        let mut points = Vec::new();
        for axis in 0..3 {
            for side in [-1.0f32, 1.0] {
                for i in 0..5 {
                    for j in 0..5 {
                        let mut q = [0.0f32; 3];
                        q[axis] = side;
                        q[(axis + 1) % 3] = -1.0 + 0.5 * i as f32;
                        q[(axis + 2) % 3] = -1.0 + 0.5 * j as f32;
                        points.push(Point3::from(q));
                    }
                }
            }
        }
        let cloud = Cloud::new(&points).unwrap();
        let mesh = triangle_hull(&cloud).unwrap();
        let exact = vec![true; mesh.triangles.len()];
        let Ok(polytope) = try_merge(&points, &cloud, &mesh, &exact) else {
            panic!("exact merge rejected");
        };
        assert_eq!(polytope.vertices.len(), 8);
        assert_eq!(polytope.faces.len(), 6);
        for face in &polytope.faces {
            assert_eq!(face.vertices.len(), 4);
            // Each face is an axis-aligned square: normal is ± a unit axis
            // and every vertex has that coordinate equal to the offset.
            let axis = face.normal.iamax();
            assert!((face.normal[axis].abs() - 1.0).abs() < 1e-6);
            for &v in &face.vertices {
                let q = polytope.vertices[v as usize];
                assert!((q[axis] * face.normal[axis] - face.offset).abs() < 1e-6);
            }
        }
        assert_eq!(polytope.neighbors.len(), 24);
    }

    /// Exact merging of a cloud in general position keeps every triangle,
    /// so F = 2V - 4 and E = 3V - 6 (an independent count from Euler's formula
    /// for simplicial polytopes).
    #[test]
    fn exact_merging_keeps_triangles_in_general_position() {
        let mut state = 12345u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as f32 / u32::MAX as f32 * 2.0 - 1.0
        };
        let points: Vec<Point3<f32>> =
            (0..200).map(|_| Point3::new(next(), next(), next())).collect();
        let cloud = Cloud::new(&points).unwrap();
        let mesh = triangle_hull(&cloud).unwrap();
        let exact = vec![true; mesh.triangles.len()];
        let Ok(polytope) = try_merge(&points, &cloud, &mesh, &exact) else {
            panic!("exact merge rejected");
        };
        let v = polytope.vertices.len();
        assert_eq!(polytope.faces.len(), 2 * v - 4);
        assert_eq!(polytope.neighbors.len(), 2 * (3 * v - 6));
        assert!(polytope.faces.iter().all(|f| f.vertices.len() == 3));
    }
}
