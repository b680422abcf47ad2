//! The drawable surface of a triangle mesh or a heightfield: its
//! triangles as one renderer mesh, with each vertex's normal the
//! area-weighted mean of the normals of the triangles around it, so a
//! curved surface (the `trees` scene's waves) shades smoothly. Built once
//! per distinct shape by the scene drawer; a compound is drawn part by
//! part instead, each part as the convex shape it is.

use collide::Shape;
use collide::composite::{HeightField, TriMesh};
use collide::nalgebra::{Point3, Vector3};

/// A surface as the renderer's `register_mesh` takes it: vertices with
/// normals, and triangles of vertex indices.
pub(crate) type Surface = (Vec<(Point3<f32>, Vector3<f32>)>, Vec<[u32; 3]>);

/// The surface of `shape` if it is a mesh or a heightfield with at least
/// one triangle of some area; `None` otherwise.
pub(crate) fn surface_mesh(shape: &Shape) -> Option<Surface> {
    match shape {
        Shape::TriMesh(mesh) => Some(mesh_surface(mesh)),
        Shape::HeightField(field) => Some(field_surface(field)),
        _ => None,
    }
}

/// The mesh's own vertices and triangles.
fn mesh_surface(mesh: &TriMesh) -> Surface {
    with_normals(mesh.vertices().to_vec(), mesh.triangles().to_vec())
}

/// The heightfield's samples as vertices, and each cell cut along its
/// diagonal from sample `(row, column)` to `(row + 1, column + 1)`, as
/// collide cuts it (see `collide::composite::HeightField`).
fn field_surface(field: &HeightField) -> Surface {
    let (rows, columns) = (field.rows(), field.columns());
    let [dx, dz] = field.cell();
    let heights = field.heights();
    let mut vertices = Vec::with_capacity(rows * columns);
    for row in 0..rows {
        for column in 0..columns {
            vertices.push(Point3::new(
                (column as f32 - (columns - 1) as f32 / 2.0) * dx,
                heights[row * columns + column],
                (row as f32 - (rows - 1) as f32 / 2.0) * dz,
            ));
        }
    }
    let at = |row: usize, column: usize| (row * columns + column) as u32;
    let mut triangles = Vec::with_capacity(2 * (rows - 1) * (columns - 1));
    for row in 0..rows - 1 {
        for column in 0..columns - 1 {
            let (a, b) = (at(row, column), at(row + 1, column + 1));
            triangles.push([a, b, at(row, column + 1)]);
            triangles.push([a, at(row + 1, column), b]);
        }
    }
    with_normals(vertices, triangles)
}

/// Each vertex's normal: the sum of the (area-weighted, so unnormalised)
/// normals of its triangles, each turned to face +y where it can (a
/// surface is seen from above), normalised; straight up where they cancel.
fn with_normals(vertices: Vec<Point3<f32>>, triangles: Vec<[u32; 3]>) -> Surface {
    let mut sums = vec![Vector3::zeros(); vertices.len()];
    for t in &triangles {
        let [a, b, c] = t.map(|i| vertices[i as usize]);
        let mut n = (b - a).cross(&(c - a));
        if n.y < 0.0 {
            n = -n;
        }
        for &i in t {
            sums[i as usize] += n;
        }
    }
    let vertices = vertices
        .into_iter()
        .zip(sums)
        .map(|(p, n)| (p, n.try_normalize(0.0).unwrap_or_else(Vector3::y)))
        .collect();
    (vertices, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_heightfield_is_its_grid_facing_up() {
        let field = HeightField::try_new(3, 4, vec![0.0; 12], [1.0, 2.0]).unwrap();
        let (vertices, triangles) = surface_mesh(&field.into()).unwrap();
        assert_eq!(vertices.len(), 12);
        assert_eq!(triangles.len(), 2 * 2 * 3);
        assert!(vertices.iter().all(|(_, n)| (n - Vector3::y()).norm() < 1e-6));
        let xs: Vec<f32> = vertices[..4].iter().map(|(p, _)| p.x).collect();
        assert_eq!(xs, [-1.5, -0.5, 0.5, 1.5]);
        assert_eq!((vertices[0].0.z, vertices[11].0.z), (-2.0, 2.0));
    }

    #[test]
    fn a_mesh_keeps_its_vertices_and_triangles() {
        let mesh = TriMesh::try_new(
            vec![Point3::origin(), Point3::new(0.0, 0.0, 1.0), Point3::new(1.0, 0.0, 0.0)],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let (vertices, triangles) = surface_mesh(&mesh.into()).unwrap();
        assert_eq!(triangles, vec![[0, 1, 2]]);
        assert!(vertices.iter().all(|(_, n)| (n - Vector3::y()).norm() < 1e-6));
    }
}
