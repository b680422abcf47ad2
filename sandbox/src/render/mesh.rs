//! The unit meshes every instance of a kind shares, built on the CPU once.
//!
//! The cube spans `[-1, 1]^3`, so scaling by half extents sizes it. The
//! capsule is a UV sphere of radius 1 cut at the equator: the upper
//! hemisphere's vertices carry `hemisphere = +1`, the lower ones `-1`, and
//! the equator ring is duplicated once for each side. The vertex shader moves
//! each vertex by `hemisphere * half_height` along Y, which stretches the
//! band of triangles between the two equator rings into the cylinder; with a
//! zero half height the same mesh is a sphere. Hull meshes get flat normals.

use nalgebra::{Point3, Vector3};

use super::RenderError;
use super::gpu_types::MeshVertex;

/// Longitude segments of the sphere and capsule.
const SEGMENTS: u32 = 32;
/// Latitude rings per hemisphere, pole to equator.
const RINGS_PER_HEMISPHERE: u32 = 10;

/// Vertices and triangle indices of one mesh.
#[derive(Debug, Clone, Default)]
pub(crate) struct MeshData {
    pub vertices: Vec<MeshVertex>,
    pub indices: Vec<u32>,
}

fn vertex(position: Vector3<f32>, normal: Vector3<f32>, hemisphere: f32) -> MeshVertex {
    MeshVertex { position: position.into(), hemisphere, normal: normal.into(), block: 0 }
}

/// The cube `[-1, 1]^3` with one flat-shaded quad per face.
pub(crate) fn unit_cube() -> MeshData {
    let (x, y, z) = (Vector3::x(), Vector3::y(), Vector3::z());
    // (normal, u, v) with u x v = normal, so the corners in the order
    // (-,-), (+,-), (+,+), (-,+) wind counter-clockwise seen from outside.
    let faces = [(x, y, z), (-x, z, y), (y, z, x), (-y, x, z), (z, x, y), (-z, y, x)];
    let mut mesh = MeshData::default();
    for (normal, u, v) in faces {
        let base = mesh.vertices.len() as u32;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            mesh.vertices.push(vertex(normal + u * su + v * sv, normal, 0.0));
        }
        mesh.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    mesh
}

/// The faces +X, +Y and +Z of [`unit_cube`], the same vertices and winding.
/// The cube shaders turn each to whichever of its face and the opposite one
/// faces the viewer (`facing_viewer` in mesh.wgsl), so that only faces that
/// can be visible are drawn.
pub(crate) fn unit_cube_front_faces() -> MeshData {
    let cube = unit_cube();
    let mut mesh = MeshData::default();
    for face in 0..6 {
        let first = &cube.vertices[4 * face];
        if first.normal.iter().sum::<f32>() < 0.0 {
            continue;
        }
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend_from_slice(&cube.vertices[4 * face..4 * face + 4]);
        mesh.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    mesh
}

/// The unit capsule (a sphere when the half height is zero); see the file
/// header for the hemisphere tags.
pub(crate) fn unit_capsule() -> MeshData {
    let mut mesh = MeshData::default();
    let ring_len = SEGMENTS + 1;
    let rings = 2 * (RINGS_PER_HEMISPHERE + 1);
    for ring in 0..rings {
        // Rings 0..=R run from the north pole to the equator (upper
        // hemisphere), rings R+1..2R+1 from the equator to the south pole.
        let upper = ring <= RINGS_PER_HEMISPHERE;
        let step = if upper { ring } else { ring - 1 };
        let theta = std::f32::consts::PI * step as f32 / (2 * RINGS_PER_HEMISPHERE) as f32;
        let hemisphere = if upper { 1.0 } else { -1.0 };
        for segment in 0..ring_len {
            let phi = std::f32::consts::TAU * segment as f32 / SEGMENTS as f32;
            let n = Vector3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin());
            mesh.vertices.push(vertex(n, n, hemisphere));
        }
    }
    // With phi growing from +X toward +Z, a quad between ring k (above) and
    // ring k + 1 (below) winds counter-clockwise from outside as a, b, d /
    // a, d, c with a, b on ring k and c, d below them.
    for ring in 0..rings - 1 {
        for segment in 0..SEGMENTS {
            let a = ring * ring_len + segment;
            let b = a + 1;
            let c = a + ring_len;
            let d = c + 1;
            mesh.indices.extend([a, b, d, a, d, c]);
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
