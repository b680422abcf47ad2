//! box3d's benchmark scenes that the sandbox can build: `large-pyramid`,
//! `many-pyramids` and `convex-pile`, built as box3d's
//! `shared/benchmarks.c` (commit 30c67b5) builds them and as
//! `sandbox/SCENES.md` ("box3d's benchmark scenes") describes them, so the
//! two engines can be timed side by side on the same bodies.
//!
//! Where the sandbox departs from box3d: gravity stays the sandbox's −9.81
//! (box3d's −10); box3d's grounds are boxes made as hulls, here cuboids of
//! the same half-extents; and `many-pyramids`' bodies, which box3d creates
//! with sleeping disabled body by body, are kept awake by turning the
//! world's sleeping off (every dynamic body of the scene never sleeps, so
//! the two are the same; the sandbox has no per-body flag). Positions are
//! computed with box3d's f32 arithmetic, in its order (`many-pyramids`
//! adds the row spacing up row by row, as box3d does), so the bodies start
//! at the same bits.

use collide::nalgebra::{Point3, Vector3};
use collide::{ConvexHull, Cuboid, Shape};

use crate::body::{BodyDesc, BodyId};
use crate::scene::builtin::SceneError;
use crate::settings::StepSettings;
use crate::world::World;

/// Half-extent of the cubes of both pyramid scenes, metres.
const CUBE_HALF: f32 = 0.5;

/// Density of the cubes of both pyramid scenes, kg/m³ (box3d's 100).
const PYRAMID_DENSITY: f32 = 100.0;

/// Density of `convex-pile`'s hulls: box3d's default shape density, 1.
const HULL_DENSITY: f32 = 1.0;

/// Cubes along the base of each of `many-pyramids`' small pyramids.
const SMALL_PYRAMID_BASE: usize = 10;

/// Bodies per layer of `convex-pile` along x and along z.
const PILE_GRID: usize = 8;

/// Points on the sphere `convex-pile`'s hull is built around.
const PILE_HULL_POINTS: usize = 32;

/// Radius of the sphere those points lie on, metres (box3d's amplitude).
const PILE_HULL_RADIUS: f32 = 2.0;

/// Turns the world's sleeping off, as box3d's scene does (for
/// `large-pyramid`, `b3World_EnableSleeping(false)`; for `many-pyramids`,
/// whose every dynamic body is created never to sleep, the same).
fn sleep_off(world: &mut World) -> Result<(), SceneError> {
    let settings = StepSettings { sleep_enabled: false, ..*world.settings() };
    world.set_settings(settings)?;
    Ok(())
}

/// A static cuboid ground of half-extents `(g, 1, g)` centred at
/// `(0, -1, 0)`, so its top face is at y = 0.
fn add_box3d_ground(world: &mut World, g: f32) -> Result<BodyId, SceneError> {
    let shape = Cuboid::new(Vector3::new(g, 1.0, g)).into();
    Ok(world.add_body(BodyDesc::fixed(shape).with_position(Vector3::new(0.0, -1.0, 0.0)))?)
}

fn add_cube(world: &mut World, p: Vector3<f32>, ids: &mut Vec<BodyId>) -> Result<(), SceneError> {
    let shape = Cuboid::new(Vector3::repeat(CUBE_HALF)).into();
    let desc = BodyDesc::dynamic(shape).with_density(PYRAMID_DENSITY).with_position(p);
    ids.push(world.add_body(desc)?);
    Ok(())
}

/// `large-pyramid` [box3d's large_pyramid]: the pyramid of `base` cubes
/// (100 in box3d) on a 400 × 1 × 400 ground, density 100, sleeping off.
/// Row `i` holds cubes `j in i..base` at
/// `x = (i + 1) h + 2 (j - i) h - h · base`, `y = (2 i + 1) h`, which is
/// where `pyramid` puts them.
pub(crate) fn build_large_pyramid(
    world: &mut World,
    base: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    sleep_off(world)?;
    add_box3d_ground(world, 400.0)?;
    let h = CUBE_HALF;
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * h;
        for j in i..base {
            let x = (i as f32 + 1.0) * h + 2.0 * (j - i) as f32 * h - h * base as f32;
            add_cube(world, Vector3::new(x, y, 0.0), ids)?;
        }
    }
    Ok(())
}

/// `many-pyramids` [box3d's many_pyramids]: `n` × `n` pyramids of base 10
/// on a ground of half-extent `g = 0.5 · 11 · n`, their rows spread
/// evenly in z from `-g + 1` to `g - 1`. Sleeping off (see the module
/// docs).
pub(crate) fn build_many_pyramids(
    world: &mut World,
    n: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    sleep_off(world)?;
    let extent = CUBE_HALF;
    let base = SMALL_PYRAMID_BASE;
    let g = extent * n as f32 * (base as f32 + 1.0);
    add_box3d_ground(world, g)?;
    let base_width = 2.0 * extent * base as f32;
    let mut base_z = -g + 2.0 * extent;
    // Infinite for a single row, which is never stepped past.
    let delta_z = 2.0 * (g - 2.0 * extent) / (n as f32 - 1.0);
    for _row in 0..n {
        for column in 0..n {
            let center_x = -g + column as f32 * (base_width + 2.0 * extent) + 2.0 * extent;
            for i in 0..base {
                let y = (2.0 * i as f32 + 1.0) * extent;
                for j in i..base {
                    let x =
                        (i as f32 + 1.0) * extent + 2.0 * (j - i) as f32 * extent + center_x - 0.5;
                    add_cube(world, Vector3::new(x, y, base_z), ids)?;
                }
            }
        }
        base_z += delta_z;
    }
    Ok(())
}

/// PEEL's `BasicRandom`, the generator box3d's convex pile draws its hull
/// points with: a linear congruential generator on a `u32`.
struct PeelRandom(u32);

impl PeelRandom {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(2_147_001_325).wrapping_add(715_136_305);
        self.0
    }

    /// A coordinate in [-0.5, 0.5].
    fn coordinate(&mut self) -> f32 {
        (self.next() & 0xFFFF) as f32 / 65535.0 - 0.5
    }

    /// A direction uniform on the unit sphere: points are drawn in the cube
    /// until one lies in the ball of radius 0.5, which is then normalised
    /// (box3d's `b3Normalize`: one over the square root, then a product).
    fn unit_point(&mut self) -> Vector3<f32> {
        /// Draws that fail this often in a row cannot come from a working
        /// generator (each lands in the ball with probability π/6).
        const MAX_DRAWS: usize = 1000;
        let mut p = Vector3::zeros();
        for _ in 0..MAX_DRAWS {
            p = Vector3::new(self.coordinate(), self.coordinate(), self.coordinate());
            let length_squared = p.x * p.x + p.y * p.y + p.z * p.z;
            if length_squared <= 0.25 {
                let s = 1.0 / length_squared.sqrt();
                return Vector3::new(s * p.x, s * p.y, s * p.z);
            }
        }
        p
    }
}

/// The points of `convex-pile`'s hull: [`PILE_HULL_POINTS`] directions of
/// PEEL's generator seeded with 42, scaled to the radius 2.
pub(crate) fn convex_pile_points() -> Vec<Point3<f32>> {
    let mut rng = PeelRandom(42);
    (0..PILE_HULL_POINTS).map(|_| Point3::from(rng.unit_point() * PILE_HULL_RADIUS)).collect()
}

/// `convex-pile` [box3d's convex_pile]: `layers` layers of 8 × 8 copies of
/// one hull (the hull of [`convex_pile_points`]), density 1, on a
/// 250 × 1 × 250 ground: body (layer, z, x) at
/// `((x - 4) · 4, 2 + 4 · layer, (z - 4) · 4)`, created layer by layer, z
/// before x.
pub(crate) fn build_convex_pile(
    world: &mut World,
    layers: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    add_box3d_ground(world, 250.0)?;
    let hull: Shape = ConvexHull::new(&convex_pile_points()).map_err(SceneError::Hull)?.into();
    let amplitude = PILE_HULL_RADIUS;
    let scatter = 2.0 * amplitude;
    let count = PILE_GRID as f32;
    for layer in 0..layers {
        for z in 0..PILE_GRID {
            for x in 0..PILE_GRID {
                let p = Vector3::new(
                    (x as f32 - 0.5 * count) * scatter,
                    amplitude + 2.0 * amplitude * layer as f32,
                    (z as f32 - 0.5 * count) * scatter,
                );
                let desc = BodyDesc::dynamic(hull.clone()).with_density(HULL_DENSITY);
                ids.push(world.add_body(desc.with_position(p))?);
            }
        }
    }
    Ok(())
}
