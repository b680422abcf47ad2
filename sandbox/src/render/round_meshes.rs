//! The unit meshes of the round shapes, at any tessellation: spheres and
//! capsules as octahedral spheres split at the equator, cylinders and cones
//! as prisms and pyramids over a regular polygon. `level_of_detail.rs`
//! picks how finely each instance is drawn.
//!
//! **Spheres and capsules** follow the octahedral sphere ("octasphere"): the
//! eight faces of the octahedron `|x| + |y| + |z| = 1` are cut into `n^2`
//! triangles each and pushed onto the unit sphere, each barycentric weight
//! `w` mapped to `sin(w pi / 2)` before normalising, which makes the arcs
//! along the octahedron's edges exact. The widest edge, inside a face, is
//! 1.33 to 1.45 times the equator's for `n` from 2 to 9; `max_edge_angle`
//! measures it and the levels of detail use that. The equator is a ring of
//! `4 n` vertices
//! at `90 / n` degrees, as a UV sphere of `4 n` segments has, but with
//! `8 n^2` triangles and `4 n^2 + 4 n + 2` vertices where the UV sphere has
//! about `16 n^2` and `(4 n + 1)(2 n + 2)`: it spends no triangles
//! crowding the poles. As in mesh.rs, the upper hemisphere's vertices carry
//! `hemisphere = +1` and the lower ones `-1`, the equator ring is in both,
//! and the capsule's cylinder is the band of `8 n` triangles between the two
//! rings, which the vertex shader stretches by the half height; a sphere
//! leaves the band out.
//!
//! **Cylinders** (radius 1, `y` in `[-1, 1]`) have smooth side normals and
//! flat caps, each cap a fan of its own ring of vertices carrying the
//! cap's normal. **Cones** have their apex at `+Y` and base at `-Y`, as
//! `collide`'s cone; the side normal of the unit cone is `(cos phi, 1/2,
//! sin phi)` normalised, and the apex is one vertex per segment carrying the
//! normal of the segment's middle, so that the shading does not pinch
//! there. Per-axis scale `(r, h, r)` sizes both, and the inverse-scale
//! normal transform in mesh.wgsl keeps their normals right.

use std::collections::HashMap;

use nalgebra::Vector3;

use super::gpu_types::MeshVertex;
use super::mesh::MeshData;

fn vertex(position: Vector3<f32>, normal: Vector3<f32>, hemisphere: f32) -> MeshVertex {
    MeshVertex { position: position.into(), hemisphere, normal: normal.into(), block: 0 }
}

/// Whether the octahedral mesh includes the capsule's cylinder band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Round {
    /// A sphere: the two hemispheres only.
    Sphere,
    /// A capsule: the hemispheres and the band between their equators.
    Capsule,
}

/// The octahedral unit sphere of frequency `n` (each octant face cut into
/// `n^2` triangles), split at the equator as the file header says.
pub(crate) fn octahedral_round(n: u32, round: Round) -> MeshData {
    let n = n.max(1);
    let mut mesh = MeshData::default();
    // Vertices are shared within a hemisphere, found by their rounded
    // position (the octant faces share their edges' vertices).
    let mut index_of: HashMap<(i8, [i32; 3]), u32> = HashMap::new();
    let quarter = std::f32::consts::FRAC_PI_2;
    let mut equator: [Vec<(f32, u32)>; 2] = [Vec::new(), Vec::new()];
    for (h, hemisphere) in [1.0f32, -1.0].into_iter().enumerate() {
        for (sx, sz) in [(1.0f32, 1.0f32), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
            let mut at = |i: u32, j: u32, mesh: &mut MeshData| -> u32 {
                let (a, c) = (i as f32 / n as f32, j as f32 / n as f32);
                let b = (n - i - j) as f32 / n as f32;
                let dir = Vector3::new(
                    sx * (a * quarter).sin(),
                    hemisphere * (b * quarter).sin(),
                    sz * (c * quarter).sin(),
                )
                .normalize();
                let key = (hemisphere as i8, dir.map(|x| (x * 1e5).round() as i32).into());
                *index_of.entry(key).or_insert_with(|| {
                    let index = mesh.vertices.len() as u32;
                    mesh.vertices.push(vertex(dir, dir, hemisphere));
                    if i + j == n {
                        equator[h].push((dir.z.atan2(dir.x), index));
                    }
                    index
                })
            };
            for i in 0..n {
                for j in 0..n - i {
                    let (p, q, r) =
                        (at(i, j, &mut mesh), at(i + 1, j, &mut mesh), at(i, j + 1, &mut mesh));
                    push_outward(&mut mesh, [p, q, r]);
                    if i + j + 1 < n {
                        let s = at(i + 1, j + 1, &mut mesh);
                        push_outward(&mut mesh, [q, s, r]);
                    }
                }
            }
        }
    }
    if round == Round::Capsule {
        for ring in &mut equator {
            ring.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let (upper, lower) = (&equator[0], &equator[1]);
        debug_assert_eq!(upper.len(), (4 * n) as usize);
        debug_assert_eq!(lower.len(), upper.len());
        let len = upper.len();
        for k in 0..len {
            let (u0, u1) = (upper[k].1, upper[(k + 1) % len].1);
            let (l0, l1) = (lower[k].1, lower[(k + 1) % len].1);
            push_outward(&mut mesh, [u0, l0, l1]);
            push_outward(&mut mesh, [u0, l1, u1]);
        }
    }
    mesh
}

/// Appends a triangle wound counter-clockwise seen from outside: the
/// vertices as the shader places them for a half height of 1 (each
/// hemisphere pushed out along Y), and a triangle whose normal points
/// toward the origin flipped. Every unit mesh here is convex with the origin
/// inside, so a face's outward normal has a positive dot product with any
/// of its points.
fn push_outward(mesh: &mut MeshData, [a, b, c]: [u32; 3]) {
    let p = |i: u32| {
        let v = &mesh.vertices[i as usize];
        Vector3::from(v.position) + Vector3::y() * v.hemisphere
    };
    let (pa, pb, pc) = (p(a), p(b), p(c));
    let outward = (pb - pa).cross(&(pc - pa)).dot(&(pa + pb + pc)) >= 0.0;
    mesh.indices.extend(if outward { [a, b, c] } else { [a, c, b] });
}

/// The largest angle, seen from the centre, between two vertices that
/// share an edge of the hemispheres (the band's edges along Y aside): the
/// mesh's outline deviates from the circle by at most `1 - cos(angle / 2)`
/// of the radius.
pub(crate) fn max_edge_angle(mesh: &MeshData) -> f32 {
    let mut widest = 0.0f32;
    for tri in mesh.indices.chunks(3) {
        for k in 0..3 {
            let a = &mesh.vertices[tri[k] as usize];
            let b = &mesh.vertices[tri[(k + 1) % 3] as usize];
            let cos = Vector3::from(a.position).dot(&Vector3::from(b.position));
            widest = widest.max(cos.clamp(-1.0, 1.0).acos());
        }
    }
    widest
}

/// The point at `angle` on the unit circle in the XZ plane.
fn around(angle: f32) -> Vector3<f32> {
    Vector3::new(angle.cos(), 0.0, angle.sin())
}

/// The unit cylinder of `segments` sides: `4 segments` vertices (side and
/// caps apart, so that the caps are flat) and `4 segments - 4` triangles.
pub(crate) fn unit_cylinder(segments: u32) -> MeshData {
    let s = segments.max(3);
    let mut mesh = MeshData::default();
    let step = std::f32::consts::TAU / s as f32;
    for y in [1.0f32, -1.0] {
        for k in 0..s {
            let r = around(k as f32 * step);
            mesh.vertices.push(vertex(r + Vector3::y() * y, r, 0.0));
        }
    }
    for k in 0..s {
        let (t0, t1) = (k, (k + 1) % s);
        let (b0, b1) = (s + k, s + (k + 1) % s);
        push_outward(&mut mesh, [t0, b0, b1]);
        push_outward(&mut mesh, [t0, b1, t1]);
    }
    for y in [1.0f32, -1.0] {
        let first = mesh.vertices.len() as u32;
        for k in 0..s {
            mesh.vertices.push(vertex(
                around(k as f32 * step) + Vector3::y() * y,
                Vector3::y() * y,
                0.0,
            ));
        }
        fan(&mut mesh, first, s);
    }
    mesh
}

/// The unit cone of `segments` sides, apex `(0, 1, 0)`, base of radius 1
/// at `y = -1`: `3 segments` vertices and `2 segments - 2` triangles.
pub(crate) fn unit_cone(segments: u32) -> MeshData {
    let s = segments.max(3);
    let mut mesh = MeshData::default();
    let step = std::f32::consts::TAU / s as f32;
    // The side's normal: the gradient of |xz| - (1 - y) / 2.
    let side_normal = |angle: f32| (around(angle) + Vector3::y() * 0.5).normalize();
    for k in 0..s {
        let angle = k as f32 * step;
        mesh.vertices.push(vertex(around(angle) - Vector3::y(), side_normal(angle), 0.0));
    }
    for k in 0..s {
        let middle = (k as f32 + 0.5) * step;
        mesh.vertices.push(vertex(Vector3::y(), side_normal(middle), 0.0));
    }
    for k in 0..s {
        push_outward(&mut mesh, [k, (k + 1) % s, s + k]);
    }
    let first = mesh.vertices.len() as u32;
    for k in 0..s {
        mesh.vertices.push(vertex(around(k as f32 * step) - Vector3::y(), -Vector3::y(), 0.0));
    }
    fan(&mut mesh, first, s);
    mesh
}

/// A cap: the ring of `count` vertices from `first` as a fan from its first
/// vertex (no centre vertex).
fn fan(mesh: &mut MeshData, first: u32, count: u32) {
    for k in 1..count - 1 {
        push_outward(mesh, [first, first + k, first + k + 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle of the mesh, with the vertices placed as the shader
    /// places them for a half height of `half_height`, has area and faces
    /// away from the origin; returns the total area.
    fn check_outward(mesh: &MeshData, half_height: f32) -> f32 {
        let p = |i: u32| {
            let v = &mesh.vertices[i as usize];
            Vector3::from(v.position) + Vector3::y() * v.hemisphere * half_height
        };
        let mut area = 0.0;
        for tri in mesh.indices.chunks(3) {
            let (a, b, c) = (p(tri[0]), p(tri[1]), p(tri[2]));
            let cross = (b - a).cross(&(c - a));
            assert!(cross.norm() > 1e-5, "{tri:?} has no area");
            assert!(cross.dot(&(a + b + c)) > 0.0, "{tri:?} faces inward");
            area += cross.norm() / 2.0;
        }
        area
    }

    #[test]
    fn octahedral_spheres_have_the_stated_counts_and_converge_to_the_sphere() {
        let mut last_error = f32::INFINITY;
        for n in [2, 3, 4, 6, 9] {
            let sphere = octahedral_round(n, Round::Sphere);
            let capsule = octahedral_round(n, Round::Capsule);
            assert_eq!(sphere.vertices.len() as u32, 4 * n * n + 4 * n + 2);
            assert_eq!(sphere.indices.len() as u32, 3 * 8 * n * n);
            assert_eq!(capsule.indices.len() as u32, 3 * (8 * n * n + 8 * n));
            for v in &sphere.vertices {
                assert!((Vector3::from(v.position).norm() - 1.0).abs() < 1e-6);
                assert_eq!(v.position, v.normal);
            }
            // An inscribed polyhedron's area is below the sphere's, and
            // approaches it as the tessellation refines.
            let area = check_outward(&sphere, 0.0);
            let error = 1.0 - area / (4.0 * std::f32::consts::PI);
            assert!(error > 0.0 && error < last_error, "n = {n}: area error {error}");
            last_error = error;
            // The capsule's band is a cylinder of radius ~1 and length 2.
            let capsule_area = check_outward(&capsule, 1.0);
            let band = capsule_area - area;
            let circumference =
                4.0 * n as f32 * 2.0 * (std::f32::consts::PI / (4 * n) as f32).sin();
            assert!((band - 2.0 * circumference).abs() < 1e-4, "n = {n}: band {band}");
            // The widest edge is inside a face, within 1.46 times the
            // equator's 90 / n degrees (computed in f64 for n = 2 to 9:
            // 1.333, 1.380, 1.396, 1.450, 1.453).
            let equator = std::f32::consts::FRAC_PI_2 / n as f32;
            let widest = max_edge_angle(&capsule);
            assert!(widest >= equator * 0.999 && widest < 1.46 * equator, "n = {n}: {widest}");
        }
    }

    #[test]
    fn cylinders_and_cones_have_flat_caps_and_true_side_normals() {
        for s in [8, 12, 16, 24, 36] {
            let cylinder = unit_cylinder(s);
            assert_eq!(cylinder.vertices.len() as u32, 4 * s);
            assert_eq!(cylinder.indices.len() as u32, 3 * (4 * s - 4));
            // Side 2 * perimeter of the inscribed polygon, caps its area twice.
            let polygon = s as f32 * (std::f32::consts::TAU / s as f32).sin() / 2.0;
            let perimeter = 2.0 * s as f32 * (std::f32::consts::PI / s as f32).sin();
            let area = check_outward(&cylinder, 0.0);
            assert!((area - (2.0 * perimeter + 2.0 * polygon)).abs() < 1e-4, "s = {s}");
            let cone = unit_cone(s);
            assert_eq!(cone.vertices.len() as u32, 3 * s);
            assert_eq!(cone.indices.len() as u32, 3 * (2 * s - 2));
            check_outward(&cone, 0.0);
            for v in &cylinder.vertices {
                let (p, n) = (Vector3::from(v.position), Vector3::from(v.normal));
                if n.y.abs() == 1.0 {
                    assert_eq!(p.y, n.y, "a cap vertex off its cap's plane");
                } else {
                    assert!((n - Vector3::new(p.x, 0.0, p.z)).norm() < 1e-6, "side not radial");
                }
            }
            for v in &cone.vertices {
                let (p, n) = (Vector3::from(v.position), Vector3::from(v.normal));
                assert!((n.norm() - 1.0).abs() < 1e-6);
                if n.y == -1.0 {
                    assert_eq!(p.y, -1.0, "a base vertex off the base");
                } else {
                    // The side: perpendicular to the slant line from the
                    // apex to the base point at the normal's longitude.
                    let radial = Vector3::new(n.x, 0.0, n.z).normalize();
                    let slant = radial - 2.0f32 * Vector3::y();
                    assert!(n.dot(&slant).abs() < 1e-6, "{n:?} not normal to the cone");
                }
            }
        }
    }
}
