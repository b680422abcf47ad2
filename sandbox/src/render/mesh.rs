//! The unit meshes every instance of a kind shares, built on the CPU once:
//! the cube and hull meshes (the round kinds are in round_meshes.rs).
//!
//! The cube spans `[-1, 1]^3`, so scaling by half extents sizes it; only
//! the three faces around one corner are stored ([`unit_cube_corner`]).
//! Hull meshes get flat normals.

use nalgebra::{Point3, Vector3};

use super::RenderError;
use super::gpu_types::MeshVertex;

/// Vertices and triangle indices of one mesh.
#[derive(Debug, Clone, Default)]
pub(crate) struct MeshData {
    pub vertices: Vec<MeshVertex>,
    pub indices: Vec<u32>,
}

fn vertex(position: Vector3<f32>, normal: Vector3<f32>, hemisphere: f32) -> MeshVertex {
    MeshVertex { position: position.into(), hemisphere, normal: normal.into(), block: 0 }
}

/// The three faces of the cube `[-1, 1]^3` around its corner `(1, 1, 1)`:
/// seven vertices and six triangles, counter-clockwise seen from outside.
///
/// At most three faces of a box face any viewer, the ones on the viewer's
/// side along each axis, and they meet at the corner nearest the viewer.
/// The cube shaders turn this patch so that its corner is that one
/// (`turn_to_octant` in mesh.wgsl, [`turn_to_octant`] here), so each box
/// costs seven vertices where its separate faces would cost twelve: on a
/// software rasteriser the per-vertex pipeline is most of the cost of a
/// small box.
///
/// Vertex 0 is the corner; vertex `1 + a` is the corner moved along axis
/// `a`, shared by two faces; vertex `4 + a` is the far corner of face `+a`,
/// which belongs to that face alone. Each face's two triangles start at
/// its far corner, the provoking vertex of flat interpolation, and only
/// those three vertices carry a normal (their face's); the shared ones
/// carry zero, which no face reads.
pub(crate) fn unit_cube_corner() -> MeshData {
    let axis = [Vector3::x(), Vector3::y(), Vector3::z()];
    let corner = Vector3::new(1.0, 1.0, 1.0);
    let mut mesh = MeshData::default();
    mesh.vertices.push(vertex(corner, Vector3::zeros(), 0.0));
    for a in &axis {
        mesh.vertices.push(vertex(corner - 2.0 * a, Vector3::zeros(), 0.0));
    }
    for a in &axis {
        mesh.vertices.push(vertex(2.0 * a - corner, *a, 0.0));
    }
    for a in 0..3u32 {
        // Face +a is bounded by the corner moved along the next axis (b)
        // and along the one after (c): far, edge c, corner / far, corner,
        // edge b winds counter-clockwise about +a.
        let (b, c) = ((a + 1) % 3, (a + 2) % 3);
        mesh.indices.extend([4 + a, 1 + c, 0, 4 + a, 0, 1 + b]);
    }
    mesh
}

/// The cube's silhouette from any direction in the octant of its corner
/// `(1, 1, 1)`, for the shadow map: the six rim vertices of
/// [`unit_cube_corner`] (every vertex but the corner), as a hexagon of four
/// triangles, counter-clockwise seen from that octant.
///
/// A shadow map needs, per texel, a depth between the caster's near and far
/// surfaces: receivers nearer the light than it are lit, farther ones are
/// shadowed, and no receiver lies inside the box. The hexagon qualifies.
/// Seen from a direction in the octant, the rim is the box's outline, so
/// the shadow's edge is exact, and each triangle has its corners on the box,
/// so by convexity it lies inside the box, between the near and far
/// surfaces. Drawing the three faces would store the near surface, at six
/// triangles and seven vertices a box; the hexagon costs four and six, and
/// on a software rasteriser the shadow pass of many small boxes is
/// per-triangle and per-vertex work. That the stored depth lies inside the
/// box, not on its lit faces, also keeps those faces free of shadow acne.
///
/// The same turn as the patch ([`turn_to_octant`]) takes it to any octant.
pub(crate) fn unit_cube_silhouette() -> MeshData {
    let patch = unit_cube_corner();
    let mut mesh = MeshData { vertices: patch.vertices[1..].to_vec(), indices: Vec::new() };
    // Patch vertices 1..=6 are 0..=5 here: the corner moved along x, y, z
    // (edge corners), then the far corners of faces +x, +y, +z. Going round
    // the rim counter-clockwise, each face's far corner between its two
    // edge corners as the patch winds them: edge y, far x, edge z, far y,
    // edge x, far z. Three ears, then the middle triangle.
    let [ex, ey, ez, fx, fy, fz] = [0u32, 1, 2, 3, 4, 5];
    mesh.indices.extend([ey, fx, ez, ez, fy, ex, ex, fz, ey, ey, ez, ex]);
    mesh
}

/// The rotation (a signed axis permutation) that `vs_cube` and
/// `vs_shadow_cube` in mesh.wgsl apply to [`unit_cube_corner`], mirrored
/// here for tests: it takes the corner `(1, 1, 1)` to `(sx, sy, sz)` for the
/// signs `s`. `diag(s)` alone would mirror, and flip the winding, when an
/// odd number of signs is negative; swapping x and y first (which fixes the
/// corner) makes the determinant +1 again.
#[cfg(test)]
pub(crate) fn turn_to_octant(s: Vector3<f32>, v: Vector3<f32>) -> Vector3<f32> {
    let odd = s.x * s.y * s.z < 0.0;
    let v = if odd { Vector3::new(v.y, v.x, v.z) } else { v };
    s.component_mul(&v)
}

/// A flat-shaded hull mesh from positions and triangles, and the radius of
/// the sphere around the local origin that bounds it.
///
/// Each triangle gets its own three vertices and face normal. The mesh is
/// taken to be convex: a triangle whose normal points toward the centroid is
/// flipped, so the caller's winding does not matter. Zero-area triangles are
/// dropped.
pub(crate) fn hull_mesh(
    positions: &[Point3<f32>],
    triangles: &[[u32; 3]],
) -> Result<(MeshData, f32), RenderError> {
    if positions.is_empty() || triangles.is_empty() {
        return Err(RenderError::InvalidHull("no positions or no triangles"));
    }
    if !positions.iter().all(|p| p.coords.iter().all(|c| c.is_finite())) {
        return Err(RenderError::InvalidHull("non-finite position"));
    }
    let n = positions.len() as u32;
    if triangles.iter().flatten().any(|&i| i >= n) {
        return Err(RenderError::InvalidHull("triangle index out of range"));
    }
    let centroid =
        positions.iter().map(|p| p.coords).sum::<Vector3<f32>>() / positions.len() as f32;
    let radius = positions.iter().map(|p| p.coords.norm()).fold(0.0, f32::max);
    let mut mesh = MeshData::default();
    for &[i, j, k] in triangles {
        let (a, b, c) = (
            positions[i as usize].coords,
            positions[j as usize].coords,
            positions[k as usize].coords,
        );
        let cross = (b - a).cross(&(c - a));
        let len = cross.norm();
        // Relative to the hull's size: a sliver this thin has no visible face.
        if !(len > 1e-12 * radius * radius) {
            continue;
        }
        let mut normal = cross / len;
        let mut corners = [a, b, c];
        if normal.dot(&((a + b + c) / 3.0 - centroid)) < 0.0 {
            normal = -normal;
            corners.swap(1, 2);
        }
        let base = mesh.vertices.len() as u32;
        for p in corners {
            mesh.vertices.push(vertex(p, normal, 0.0));
        }
        mesh.indices.extend([base, base + 1, base + 2]);
    }
    if mesh.indices.is_empty() {
        return Err(RenderError::InvalidHull("every triangle is degenerate"));
    }
    Ok((mesh, radius))
}

/// A mesh with a normal per vertex, from `(position, normal)` pairs and
/// triangles, and the radius of the sphere around the local origin that
/// bounds it. Vertices are shared as given, so shading is smooth across
/// them. Each triangle is wound to face the side its corners' normals
/// point to (a triangle whose geometric normal disagrees with their sum is
/// flipped), so the caller's winding does not matter, for closed meshes
/// and for open ones such as a two-sided flat triangle. Zero-area
/// triangles are dropped.
pub(crate) fn smooth_mesh(
    vertices: &[(Point3<f32>, Vector3<f32>)],
    triangles: &[[u32; 3]],
) -> Result<(MeshData, f32), RenderError> {
    if vertices.is_empty() || triangles.is_empty() {
        return Err(RenderError::InvalidHull("no vertices or no triangles"));
    }
    let finite = |v: &Vector3<f32>| v.iter().all(|c| c.is_finite());
    if !vertices.iter().all(|(p, n)| finite(&p.coords) && finite(n)) {
        return Err(RenderError::InvalidHull("non-finite position or normal"));
    }
    let n = vertices.len() as u32;
    if triangles.iter().flatten().any(|&i| i >= n) {
        return Err(RenderError::InvalidHull("triangle index out of range"));
    }
    let radius = vertices.iter().map(|(p, _)| p.coords.norm()).fold(0.0, f32::max);
    let mut mesh = MeshData::default();
    for (p, normal) in vertices {
        let normal = normal.try_normalize(0.0).unwrap_or_else(Vector3::zeros);
        mesh.vertices.push(vertex(p.coords, normal, 0.0));
    }
    for &[i, j, k] in triangles {
        let (a, b, c) = (vertices[i as usize], vertices[j as usize], vertices[k as usize]);
        let cross = (b.0 - a.0).cross(&(c.0 - a.0));
        // Relative to the mesh's size, as in `hull_mesh`.
        if !(cross.norm() > 1e-12 * radius * radius) {
            continue;
        }
        let facing = cross.dot(&(a.1 + b.1 + c.1));
        mesh.indices.extend(if facing >= 0.0 { [i, j, k] } else { [i, k, j] });
    }
    if mesh.indices.is_empty() {
        return Err(RenderError::InvalidHull("every triangle is degenerate"));
    }
    Ok((mesh, radius))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signs() -> impl Iterator<Item = Vector3<f32>> {
        (0..8).map(|k| {
            let s = |bit: u32| if k & (1 << bit) == 0 { 1.0 } else { -1.0 };
            Vector3::new(s(0), s(1), s(2))
        })
    }

    /// Turned to every octant and seen from random directions in it, the
    /// hexagon covers exactly the box's outline (the projected area of a
    /// box is the sum of its three visible faces' projections), each
    /// triangle counter-clockwise from the viewer, with every vertex a box
    /// corner (so every triangle lies inside the box).
    #[test]
    fn the_silhouette_covers_the_outline_from_any_direction_in_the_octant() {
        let mesh = unit_cube_silhouette();
        assert_eq!((mesh.vertices.len(), mesh.indices.len()), (6, 12));
        let mut seed = 7u32;
        let mut unit = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for s in signs() {
            for _ in 0..50 {
                let d = Vector3::new(unit(), unit(), unit()).component_mul(&s).normalize();
                let mut covered = 0.0;
                for tri in mesh.indices.chunks(3) {
                    let p = |i: u32| turn_to_octant(s, mesh.vertices[i as usize].position.into());
                    let (a, b, c) = (p(tri[0]), p(tri[1]), p(tri[2]));
                    for q in [a, b, c] {
                        assert_eq!(q.abs(), Vector3::repeat(1.0), "{q:?} is not a corner");
                    }
                    let projected = (b - a).cross(&(c - a)).dot(&d) / 2.0;
                    assert!(projected >= 0.0, "{s:?} {d:?}: {tri:?} wound clockwise");
                    covered += projected;
                }
                // Each face of the 2x2x2 box has area 4; its projection
                // along d is 4 |n . d|.
                let outline = 4.0 * (d.x.abs() + d.y.abs() + d.z.abs());
                assert!((covered - outline).abs() < 1e-4, "{s:?} {d:?}: {covered} vs {outline}");
            }
        }
    }

    /// Turned to every octant, the patch is the three faces facing that
    /// octant, each covered exactly (area 4 of the 2x2 face), wound
    /// counter-clockwise from outside, with its flat attributes on a
    /// vertex no other face uses.
    #[test]
    fn the_corner_patch_is_the_three_faces_around_any_corner() {
        let mesh = unit_cube_corner();
        assert_eq!((mesh.vertices.len(), mesh.indices.len()), (7, 18));
        for s in signs() {
            let at = |i: u32| {
                let v = &mesh.vertices[i as usize];
                (turn_to_octant(s, v.position.into()), turn_to_octant(s, v.normal.into()))
            };
            assert_eq!(at(0).0, s, "the corner goes to the octant's corner");
            let mut area = [0.0f32; 3];
            let mut provoking = Vec::new();
            for tri in mesh.indices.chunks(3) {
                let ((a, n), (b, _), (c, _)) = (at(tri[0]), at(tri[1]), at(tri[2]));
                assert!((n.norm() - 1.0).abs() < 1e-6, "{s:?}: provoking vertex has no normal");
                let axis = n.iamax();
                assert_eq!(n[axis], s[axis], "{s:?}: face {n:?} does not face the octant");
                for p in [a, b, c] {
                    assert_eq!(p[axis], s[axis], "{s:?}: vertex {p:?} off face {n:?}");
                }
                let cross = (b - a).cross(&(c - a));
                assert!(cross.dot(&n) > 0.0, "{s:?}: triangle {tri:?} wound clockwise");
                area[axis] += cross.norm() / 2.0;
                provoking.push(tri[0]);
            }
            assert_eq!(area, [4.0; 3], "{s:?}");
            for tri in mesh.indices.chunks(3) {
                let owner = provoking.iter().filter(|&&p| p == tri[0]).count();
                let shared = mesh
                    .indices
                    .chunks(3)
                    .filter(|other| other[0] != tri[0] && other.contains(&tri[0]))
                    .count();
                assert_eq!((owner, shared), (2, 0), "{s:?}: vertex {} not private", tri[0]);
            }
        }
    }
}
