//! The unit meshes every instance of a kind shares, built on the CPU once.
//!
//! The cube spans `[-1, 1]^3`, so scaling by half extents sizes it; only
//! the three faces around one corner are stored ([`unit_cube_corner`]). The
//! capsule is a UV sphere of radius 1 cut at the equator: the upper
//! hemisphere's vertices carry `hemisphere = +1`, the lower ones `-1`, and
//! the equator ring is duplicated once for each side. The vertex shader moves
//! each vertex by `hemisphere * half_height` along Y, which stretches the
//! band of triangles between the two equator rings into the cylinder; with a
//! zero half height the same mesh is a sphere. Hull meshes get flat normals.

use nalgebra::{Point3, Vector3};

use super::RenderError;
use super::gpu_types::MeshVertex;

/// Longitude segments of the sphere and capsule. With smooth normals only
/// the outline shows the facets: 12 segments keep it within
/// `1 - cos(pi / 12)`, 3.4 % of the radius, of the circle, under a pixel
/// for a body 50 pixels across, as bodies are in the scenes' default views.
/// That is 144 triangles and 104 vertices a body; 32 segments and 10 rings
/// took 1344 and 726, and made `mixed 500` the slowest scene to draw on a
/// software rasteriser, whose vertex and triangle-setup work is per
/// triangle (measured in sandbox/README.md).
const SEGMENTS: u32 = 12;
/// Latitude rings per hemisphere, pole to equator (30 degrees apart, as the
/// segments are).
const RINGS_PER_HEMISPHERE: u32 = 3;

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

/// The unit capsule (a sphere when the half height is zero); see the file
/// header for the hemisphere tags.
pub(crate) fn unit_capsule() -> MeshData {
    capsule_mesh(SEGMENTS, RINGS_PER_HEMISPHERE)
}

/// Longitude segments and rings per hemisphere of the capsule drawn into
/// the shadow map ([`unit_capsule_shadow`]).
const SHADOW_SEGMENTS: u32 = 8;
const SHADOW_RINGS_PER_HEMISPHERE: u32 = 2;

/// The coarser capsule drawn into the shadow map instead of
/// [`unit_capsule`]: 8 segments and 2 rings a hemisphere, 64 triangles and
/// 54 vertices against 144 and 104. Its outline is within
/// `1 - cos(pi / 8)`, 7.6 % of the radius, of the circle: under two
/// texels of the shadow of a body 50 shadow-map texels across. Its
/// vertices lie on the unit sphere like the drawn mesh's. The shadow map is
/// redrawn every frame while bodies move, and on a software rasteriser that
/// is per-vertex and per-triangle work (measured in sandbox/README.md).
pub(crate) fn unit_capsule_shadow() -> MeshData {
    capsule_mesh(SHADOW_SEGMENTS, SHADOW_RINGS_PER_HEMISPHERE)
}

/// A UV capsule of `segments` longitude segments and `rings_per_hemisphere`
/// latitude rings from each pole to the equator. The triangles at the poles
/// that would have zero area (two corners on the pole) are left out.
fn capsule_mesh(segments: u32, rings_per_hemisphere: u32) -> MeshData {
    let mut mesh = MeshData::default();
    let ring_len = segments + 1;
    let rings = 2 * (rings_per_hemisphere + 1);
    for ring in 0..rings {
        // Rings 0..=R run from the north pole to the equator (upper
        // hemisphere), rings R+1..2R+1 from the equator to the south pole.
        let upper = ring <= rings_per_hemisphere;
        let step = if upper { ring } else { ring - 1 };
        let theta = std::f32::consts::PI * step as f32 / (2 * rings_per_hemisphere) as f32;
        let hemisphere = if upper { 1.0 } else { -1.0 };
        for segment in 0..ring_len {
            let phi = std::f32::consts::TAU * segment as f32 / segments as f32;
            let n = Vector3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin());
            mesh.vertices.push(vertex(n, n, hemisphere));
        }
    }
    // With phi growing from +X toward +Z, a quad between ring k (above) and
    // ring k + 1 (below) winds counter-clockwise from outside as a, b, d /
    // a, d, c with a, b on ring k and c, d below them. On the north pole's
    // ring a and b coincide, on the south pole's c and d.
    for ring in 0..rings - 1 {
        for segment in 0..segments {
            let a = ring * ring_len + segment;
            let b = a + 1;
            let c = a + ring_len;
            let d = c + 1;
            if ring > 0 {
                mesh.indices.extend([a, b, d]);
            }
            if ring < rings - 2 {
                mesh.indices.extend([a, d, c]);
            }
        }
    }
    mesh
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Both capsules, stretched to a half height of 1 as the shader does,
    /// have no zero-area triangle, every one wound counter-clockwise from
    /// outside, and every vertex on the unit sphere before the stretch.
    #[test]
    fn the_capsules_wind_outward_without_empty_triangles() {
        for (mesh, triangles) in [(unit_capsule(), 144), (unit_capsule_shadow(), 64)] {
            assert_eq!(mesh.indices.len(), 3 * triangles);
            let p = |i: u32| {
                let v = &mesh.vertices[i as usize];
                Vector3::from(v.position) + Vector3::y() * v.hemisphere
            };
            for v in &mesh.vertices {
                assert!((Vector3::from(v.position).norm() - 1.0).abs() < 1e-6);
            }
            for tri in mesh.indices.chunks(3) {
                let (a, b, c) = (p(tri[0]), p(tri[1]), p(tri[2]));
                let normal = (b - a).cross(&(c - a));
                assert!(normal.norm() > 1e-4, "{tri:?} has no area");
                assert!(normal.dot(&((a + b + c) / 3.0)) > 0.0, "{tri:?} faces inward");
            }
        }
    }

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
