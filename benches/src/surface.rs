//! The composite suites' inputs: the `trees` scene's wave surface as
//! samples and triangles, the 12-point hull that collides with it, and
//! seeded poses near it. Shared by `benches/benches/composites.rs` and the
//! `composite_cost` example, so both time the same inputs.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion};
use rand::Rng;
use rand::rngs::StdRng;

use crate::STREAM_LEN;

/// Cells of the surface along x.
pub const CELLS_X: usize = 250;
/// Cells of the surface along z.
pub const CELLS_Z: usize = 200;
/// The cells' width (m).
pub const CELL: f32 = 0.5;

/// The `trees` scene's wave, `0.4 sin(2π 0.1 x) sin(2π 0.05 z)`.
pub fn wave(x: f32, z: f32) -> f32 {
    use std::f32::consts::TAU;
    0.4 * (TAU * 0.1 * x).sin() * (TAU * 0.05 * z).sin()
}

/// The surface's samples, row-major with rows along x stacked along z
/// (collide's heightfield layout), for `cx × cz` cells of width `c`.
pub fn samples(cx: usize, cz: usize, c: f32) -> Vec<Point3<f32>> {
    let (hx, hz) = (0.5 * cx as f32 * c, 0.5 * cz as f32 * c);
    let mut out = Vec::with_capacity((cx + 1) * (cz + 1));
    for r in 0..=cz {
        for col in 0..=cx {
            let (x, z) = (-hx + c * col as f32, -hz + c * r as f32);
            out.push(Point3::new(x, wave(x, z), z));
        }
    }
    out
}

/// The triangles over [`samples`], cut as collide's heightfield is.
pub fn indices(cx: usize, cz: usize) -> Vec<[u32; 3]> {
    let w = cx as u32 + 1;
    let mut out = Vec::with_capacity(2 * cx * cz);
    for r in 0..cz as u32 {
        for c in 0..cx as u32 {
            let v = |rr: u32, cc: u32| rr * w + cc;
            out.push([v(r, c), v(r + 1, c), v(r + 1, c + 1)]);
            out.push([v(r, c), v(r + 1, c + 1), v(r, c + 1)]);
        }
    }
    out
}

/// 12 points on a sphere of radius 0.6 (an icosahedron), for the hull.
pub fn hull_points() -> Vec<Point3<f32>> {
    let g = (1.0 + 5f32.sqrt()) / 2.0;
    let s = 0.6 / (1.0 + g * g).sqrt();
    let mut out = Vec::new();
    for (a, b) in [(1.0, g), (-1.0, g), (1.0, -g), (-1.0, -g)] {
        out.push(Point3::new(0.0, a * s, b * s));
        out.push(Point3::new(a * s, b * s, 0.0));
        out.push(Point3::new(b * s, 0.0, a * s));
    }
    out
}

/// [`STREAM_LEN`] poses over the surface within `half_x`, `half_z` of its
/// centre, from 0.3 m above to 0.3 m into it (for a shape of half-size
/// 0.5), randomly turned.
pub fn poses_near_surface(rng: &mut StdRng, half_x: f32, half_z: f32) -> Vec<Isometry3<f32>> {
    (0..STREAM_LEN)
        .map(|_| {
            let (x, z) = (rng.random_range(-half_x..half_x), rng.random_range(-half_z..half_z));
            let y = wave(x, z) + 0.5 + rng.random_range(-0.3..0.3);
            let q = UnitQuaternion::from_euler_angles(
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
            );
            Isometry3::from_parts(Translation3::new(x, y, z), q)
        })
        .collect()
}
