//! A direction lookup table ("cube map") that seeds hill climbing.
//!
//! Directions are binned by the cube face their largest component points to
//! and by a `k × k` grid on that face. Each cell stores the support vertex of
//! the direction through its centre, so a query starts its climb next to the
//! answer and takes a few steps instead of scanning every vertex. This is the
//! idea behind PhysX's "big convex" support lookup, built here from the
//! description: the table is filled by climbing from the previous cell's
//! answer, which costs far less than a brute-force scan per cell.

use nalgebra::{Point3, Vector3};

use super::hill_climb::{Adjacency, climb};

/// Largest grid resolution per cube face: 6 · 32² cells of 4 bytes is 24 KiB.
const MAX_RESOLUTION: usize = 32;

/// The lookup table.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CubeMap {
    resolution: usize,
    seeds: Vec<u32>,
}

impl CubeMap {
    /// Builds the table for a hull; the resolution grows with the vertex
    /// count so each cell covers a handful of vertices.
    pub(crate) fn new(vertices: &[Point3<f32>], adjacency: Adjacency<'_>) -> Self {
        let resolution =
            ((vertices.len() as f32 / 6.0).sqrt().ceil() as usize).clamp(2, MAX_RESOLUTION);
        let mut seeds = Vec::with_capacity(6 * resolution * resolution);
        let mut last = 0;
        for face in 0..6 {
            for row in 0..resolution {
                for col in 0..resolution {
                    let u = (col as f32 + 0.5) / resolution as f32 * 2.0 - 1.0;
                    let v = (row as f32 + 0.5) / resolution as f32 * 2.0 - 1.0;
                    let dir = face_direction(face, u, v);
                    last = climb(vertices, adjacency, &dir, last);
                    seeds.push(last as u32);
                }
            }
        }
        Self { resolution, seeds }
    }

    /// The stored support vertex of the cell `dir` falls in.
    #[inline]
    pub(crate) fn seed(&self, dir: &Vector3<f32>) -> usize {
        let (ax, ay, az) = (dir.x.abs(), dir.y.abs(), dir.z.abs());
        // Face index and the two in-face coordinates, each in [-1, 1].
        let (face, major, u, v) = if ax >= ay && ax >= az {
            (if dir.x >= 0.0 { 0 } else { 1 }, ax, dir.y, dir.z)
        } else if ay >= az {
            (if dir.y >= 0.0 { 2 } else { 3 }, ay, dir.z, dir.x)
        } else {
            (if dir.z >= 0.0 { 4 } else { 5 }, az, dir.x, dir.y)
        };
        if !(major > 0.0) {
            return 0;
        }
        let n = self.resolution;
        let cell = |t: f32| (((t / major + 1.0) * 0.5 * n as f32) as usize).min(n - 1);
        self.seeds[(face * n + cell(v)) * n + cell(u)] as usize
    }
}

/// The direction through the point `(u, v)` of cube face `face`, with the
/// same face numbering and in-face axes as [`CubeMap::seed`].
fn face_direction(face: usize, u: f32, v: f32) -> Vector3<f32> {
    let s = if face.is_multiple_of(2) { 1.0 } else { -1.0 };
    match face / 2 {
        0 => Vector3::new(s, u, v),
        1 => Vector3::new(v, s, u),
        _ => Vector3::new(u, v, s),
    }
}
