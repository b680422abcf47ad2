//! Meshes for the shapes the renderer has no unit mesh of: rounded shapes
//! and users' own ([`Shape::Custom`]) are drawn as the convex hull of their
//! support points in many directions, and triangles as two flat faces.
//!
//! The hull's faces are planar polygons (collide's hull merges coplanar
//! triangles); each face corner gets a normal by the usual crease-angle
//! rule of mesh smoothing: the area-weighted mean of the normals of the
//! faces around its vertex that are within [`CREASE_ANGLE`] of its own
//! face's. So a rounded box's corners and a cylinder's side shade smoothly,
//! while a box's edges and a cylinder's rims stay sharp, whatever the
//! shape, with no knowledge of it beyond its support map.

use std::collections::HashMap;

use collide::nalgebra::{Point3, Vector3};
use collide::{ConvexHull, Shape, SupportMap};

/// Support directions sampled per shape: a Fibonacci sphere of this many
/// points, about 8 degrees apart. A rounded corner of the sizes bodies have
/// (a few centimetres to a metre, tens of pixels on screen) then shows no
/// facet on its outline beyond about half a pixel.
pub const SAMPLED_DIRECTIONS: usize = 642;

/// Faces meeting at a vertex at most this far apart (radians) are shaded
/// as one smooth surface there; farther apart, the edge between them is
/// kept sharp. 40 degrees sits between the sampled surfaces' neighbouring
/// faces (under 15 degrees apart at [`SAMPLED_DIRECTIONS`]) and the
/// sharpest real edges drawn smooth by mistake would cost (a regular
/// dodecahedron's faces are 63 degrees apart).
pub const CREASE_ANGLE: f32 = 0.7;

/// Vertices (position, unit normal) and triangles of a mesh to register
/// with [`Renderer::register_mesh`](crate::render::Renderer::register_mesh).
pub type MeshVertices = (Vec<(Point3<f32>, Vector3<f32>)>, Vec<[u32; 3]>);

/// The hull of the shape's support points along [`SAMPLED_DIRECTIONS`]
/// directions, with crease-angle normals; `None` when the points span no
/// volume or area (a degenerate shape: nothing to draw).
pub fn support_mesh(shape: &Shape) -> Option<MeshVertices> {
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    let points: Vec<Point3<f32>> = (0..SAMPLED_DIRECTIONS)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f32 + 0.5) / SAMPLED_DIRECTIONS as f32;
            let r = (1.0 - y * y).max(0.0).sqrt();
            let phi = golden * i as f32;
            shape.local_support(&Vector3::new(r * phi.cos(), y, r * phi.sin()))
        })
        .collect();
    let hull = ConvexHull::new(&points).ok()?;
    Some(smooth_hull_mesh(&hull))
}

/// The hull's faces fanned into triangles, each corner with its
/// crease-angle normal (see the file header).
pub fn smooth_hull_mesh(hull: &ConvexHull) -> MeshVertices {
    let vertices = hull.vertices();
    let faces = hull.faces();
    // Per vertex, the faces around it and each face's area.
    let mut around: Vec<Vec<usize>> = vec![Vec::new(); vertices.len()];
    let area: Vec<f32> = faces
        .iter()
        .enumerate()
        .map(|(f, face)| {
            for &v in &face.vertices {
                around[v as usize].push(f);
            }
            let p = |k: usize| vertices[face.vertices[k] as usize].coords;
            (1..face.vertices.len().saturating_sub(1))
                .map(|k| (p(k) - p(0)).cross(&(p(k + 1) - p(0))).norm() / 2.0)
                .sum()
        })
        .collect();
    let cos_crease = CREASE_ANGLE.cos();
    let mut out: Vec<(Point3<f32>, Vector3<f32>)> = Vec::new();
    // Corners with the same vertex and the same normal share a vertex.
    let mut index_of: HashMap<(u32, [u32; 3]), u32> = HashMap::new();
    let mut triangles = Vec::new();
    for face in faces {
        let own = face.normal.into_inner();
        let corners: Vec<u32> = face
            .vertices
            .iter()
            .map(|&v| {
                let sum: Vector3<f32> = around[v as usize]
                    .iter()
                    .filter(|&&g| faces[g].normal.dot(&own) >= cos_crease)
                    .map(|&g| faces[g].normal.into_inner() * area[g].max(f32::MIN_POSITIVE))
                    .sum();
                let normal = sum.try_normalize(0.0).unwrap_or(own);
                let key = (v, normal.map(f32::to_bits).into());
                *index_of.entry(key).or_insert_with(|| {
                    out.push((vertices[v as usize], normal));
                    (out.len() - 1) as u32
                })
            })
            .collect();
        for k in 1..corners.len().saturating_sub(1) {
            triangles.push([corners[0], corners[k], corners[k + 1]]);
        }
    }
    (out, triangles)
}

/// A triangle drawn from both sides: its two faces, each with its own
/// normal.
pub fn two_sided_triangle(points: [Point3<f32>; 3]) -> Option<MeshVertices> {
    let [a, b, c] = points;
    let normal = (b - a).cross(&(c - a)).try_normalize(0.0)?;
    let vertices =
        vec![(a, normal), (b, normal), (c, normal), (a, -normal), (c, -normal), (b, -normal)];
    Some((vertices, vec![[0, 1, 2], [3, 4, 5]]))
}

#[cfg(test)]
mod tests {
    use collide::{Cuboid, Cylinder, Rounded};

    use super::*;

    /// A cylinder's side is smooth (every side corner's normal is radial,
    /// within the sampling), its caps flat; the hull's area is close to the
    /// closed form's.
    #[test]
    fn a_cylinder_gets_a_smooth_side_and_flat_caps() {
        let (r, h) = (0.4f32, 0.7f32);
        let shape = Shape::Cylinder(Cylinder::try_new(h, r).unwrap());
        let (vertices, triangles) = support_mesh(&shape).unwrap();
        let mut area = 0.0;
        for t in &triangles {
            let [a, b, c] = t.map(|i| vertices[i as usize].0);
            area += (b - a).cross(&(c - a)).norm() / 2.0;
        }
        let exact = std::f32::consts::TAU * r * (r + 2.0 * h);
        assert!((area - exact).abs() < 0.01 * exact, "area {area} vs {exact}");
        for (p, n) in &vertices {
            assert!((n.norm() - 1.0).abs() < 1e-5);
            if n.y.abs() > 0.99 {
                assert!((p.y.abs() - h).abs() < 1e-5, "a cap normal off the cap: {p:?}");
            } else {
                let radial = Vector3::new(p.x, 0.0, p.z).normalize();
                assert!(n.dot(&radial) > 0.99, "side normal {n:?} not radial at {p:?}");
            }
        }
    }

    /// A rounded box: every corner's normal is within a few degrees of the
    /// true one (the direction from the nearest core point), and a plain
    /// box keeps its six flat faces.
    #[test]
    fn a_rounded_box_shades_smoothly_and_a_box_stays_flat() {
        let core = Cuboid::new(Vector3::new(0.5, 0.3, 0.2));
        let rounded = Shape::Rounded(Box::new(Rounded::new(Shape::Cuboid(core), 0.1)));
        let (vertices, _) = support_mesh(&rounded).unwrap();
        for (p, n) in &vertices {
            let nearest = p.coords.zip_map(&core.half_extents, |x, e| x.clamp(-e, e));
            let truth = (p.coords - nearest).normalize();
            assert!(n.dot(&truth) > 0.97, "{n:?} vs {truth:?} at {p:?}");
        }
        let (vertices, triangles) = support_mesh(&Shape::Cuboid(core)).unwrap();
        assert_eq!((vertices.len(), triangles.len()), (24, 12));
        for (p, n) in &vertices {
            let axis = n.iamax();
            assert_eq!(n[axis].abs(), 1.0);
            assert!((p[axis].abs() - core.half_extents[axis]).abs() < 1e-6);
        }
    }

    #[test]
    fn a_triangle_has_two_opposite_faces_and_a_degenerate_one_none() {
        let (v, t) = two_sided_triangle([
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 0.0, -1.0),
        ])
        .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(v[0].1, Vector3::y());
        assert_eq!(v[3].1, -Vector3::y());
        let line = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0)];
        assert!(two_sided_triangle(line).is_none());
    }
}
