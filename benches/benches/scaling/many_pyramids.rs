//! The `many-pyramids` sweep of the scaling bench: box3d's `many_pyramids`
//! (SCENES.md) at N = 4, 8, 14 and 28, N × N pyramids of 55 cubes each on a
//! ground that grows with N, so every size has the same pyramids and the
//! same contacts per body, and time per body measures how an engine's cost
//! grows with the number of bodies at a constant contact density (issue 41:
//! "within 1.3× from the smallest to the largest" for the sandbox).
//!
//! Both engines run it with sleeping off (every body of the scene is created
//! never to sleep), 100 steps at every size: box3d's own step count for the
//! scene, the same at every size so each row covers the same stretch of the
//! settling, and short enough that N = 28 (43,120 cubes) takes well under a
//! minute for both engines on a quiet 2-core machine.
//!
//! [`check_layout`] checks, without building any world, that the
//! transcription in `layout` holds SCENES.md's counts (880 at N = 4 up to
//! 43,120 at N = 28), puts every cube on its ground, and stays within
//! rounding of SCENES.md's closed form for each row's z; the body-by-body
//! comparison with the sandbox's own build happens whenever a row is built.

use sandbox::Scene;

use crate::layout::{self, CUBE_HALF, SMALL_PYRAMID_BASE};

/// Steps of every size (box3d's count for `many_pyramids`).
pub const STEPS: usize = 100;

/// The sweep: label, scene, size and steps.
pub const CASES: [(&str, Scene, usize, usize); 4] = [
    ("many-pyramids4", Scene::ManyPyramids, 4, STEPS),
    ("many-pyramids8", Scene::ManyPyramids, 8, STEPS),
    ("many-pyramids14", Scene::ManyPyramids, 14, STEPS),
    ("many-pyramids28", Scene::ManyPyramids, 28, STEPS),
];

/// The cube counts SCENES.md and issue 41 give for the sweep's sizes.
const EXPECTED_BODIES: [(usize, usize); 4] = [(4, 880), (8, 3520), (14, 10_780), (28, 43_120)];

/// How far a row's z may sit from SCENES.md's closed form (metres, for a
/// ground of half-width g). box3d (and `layout`) add the f32 row spacing up
/// row by row: each of the N − 1 additions rounds by at most half an ulp of
/// a sum no larger than g, and the spacing's own rounding (half an ulp of
/// 2(g − 1)/(N − 1)) is repeated at most N − 1 times, so the gap stays below
/// (N/2 + 1) · ε · g, with ε f32's epsilon (an ulp of x is at most ε · x).
/// The check allows 2 · N · ε · g, a few times that bound, and far below
/// the 1 m between a cube and its neighbour: a wrong row formula fails it.
fn z_tolerance(n: usize, g: f64) -> f64 {
    2.0 * f64::from(f32::EPSILON) * g * n as f64
}

/// Checks `layout`'s `many-pyramids` at every size of the sweep against
/// SCENES.md: the count, every cube on the ground and in its row's z.
pub fn check_layout() -> Result<(), String> {
    for (n, expected) in EXPECTED_BODIES {
        let specs = layout::dynamic_bodies(Scene::ManyPyramids, n).map_err(|e| e.to_string())?;
        let per_pyramid = SMALL_PYRAMID_BASE * (SMALL_PYRAMID_BASE + 1) / 2;
        let from_scene = Scene::ManyPyramids.body_count(n);
        if specs.len() != expected
            || per_pyramid * n * n != expected
            || from_scene != Some(expected as u64)
        {
            return Err(format!(
                "many-pyramids {n}: layout has {} cubes, sandbox::Scene says {from_scene:?}, \
                 SCENES.md {expected}",
                specs.len()
            ));
        }
        let ground = layout::ground(Scene::ManyPyramids, n);
        let g = f64::from(ground.half_extents[0]);
        let half = f64::from(CUBE_HALF);
        for (k, spec) in specs.iter().enumerate() {
            let p = spec.position.map(f64::from);
            let row = k / (per_pyramid * n);
            let z_closed = -g + 1.0 + row as f64 * 2.0 * (g - 1.0) / (n as f64 - 1.0);
            let on_ground = p.x.abs() + half <= g && p.z.abs() + half <= g && p.y >= half;
            if !(on_ground && (p.z - z_closed).abs() <= z_tolerance(n, g)) {
                return Err(format!(
                    "many-pyramids {n}: cube {k} at ({}, {}, {}) is off its ground or row \
                     (closed-form z {z_closed})",
                    p.x, p.y, p.z
                ));
            }
        }
    }
    Ok(())
}
