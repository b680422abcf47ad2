//! box3d's benchmark scenes that the sandbox can build: `large-pyramid`,
//! `many-pyramids`, `convex-pile`, `washer`, `junkyard` and
//! `large-world`, built as box3d's
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
//! at the same bits. `junkyard`'s pusher and `large-world`'s spheres are
//! moved and dropped during the run by the scene's [`SceneDriver`].

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{ConvexHull, Cuboid, Shape};

use crate::body::{BodyDesc, BodyId, BodyShape};
use crate::scene::builtin::SceneError;
use crate::scene::driver::{DROPPED_SPHERES, SceneDriver};
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

/// Density of the shapes of `washer`, `junkyard` and `large-world`: box3d's
/// default, 1 kg/m³.
const DEFAULT_DENSITY: f32 = 1.0;

/// Half-extent of `washer`'s cubes, metres.
const WASHER_CUBE_HALF: f32 = 0.2;

/// Height of `washer`'s drum axis, metres.
const DRUM_HEIGHT: f32 = 21.0;

/// `washer`'s drum turns this fast about z, degrees per second.
const DRUM_DEGREES_PER_SECOND: f32 = 25.0;

/// Wall segments around `washer`'s drum (a paddle on every ninth).
const DRUM_SEGMENTS: usize = 36;

/// `washer` [box3d's washer]: a kinematic drum of 36 wall hulls and 4
/// paddle hulls (8 points each, in the drum's frame) turning at 25°/s
/// about z at (0, 21, 0), holding `n`³ cubes of half-extent 0.2, on a
/// 60 × 1 × 60 ground. The cubes are created x outermost, then y, then z,
/// their coordinates added up step by step as box3d does.
pub(crate) fn build_washer(
    world: &mut World,
    n: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    add_box3d_ground(world, 60.0)?;
    let drum = BodyDesc::kinematic_shapes(drum_shapes()?)
        .with_position(Vector3::new(0.0, DRUM_HEIGHT, 0.0))
        .with_angular_velocity(Vector3::new(0.0, 0.0, DRUM_DEGREES_PER_SECOND.to_radians()))
        .with_linear_velocity(Vector3::new(0.001, -0.002, 0.0));
    world.add_body(drum)?;
    let a = WASHER_CUBE_HALF;
    let cube: Shape = Cuboid::new(Vector3::repeat(a)).into();
    let start = -2.0 * a * n as f32;
    let mut x = start;
    for _ in 0..n {
        let mut y = start + DRUM_HEIGHT;
        for _ in 0..n {
            let mut z = start;
            for _ in 0..n {
                let desc = BodyDesc::dynamic(cube.clone()).with_density(DEFAULT_DENSITY);
                ids.push(world.add_body(desc.with_position(Vector3::new(x, y, z)))?);
                z += 4.0 * a;
            }
            y += 4.0 * a;
        }
        x += 4.0 * a;
    }
    Ok(())
}

/// The 40 hulls of `washer`'s drum, in its frame: for each of the 36
/// segments a wall hull between radii 16 and 18, each side narrowed by 1°,
/// and on every ninth segment a paddle hull between radii 14 and 16, all
/// spanning z from −10 to 10.
pub(crate) fn drum_shapes() -> Result<Vec<BodyShape>, SceneError> {
    let (r0, r1, r2) = (14.0f32, 16.0f32, 18.0f32);
    let (nd, pd) = (Vector3::new(0.0, 0.0, -10.0f32), Vector3::new(0.0, 0.0, 10.0f32));
    let angle = std::f32::consts::PI / 18.0;
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle);
    let qo = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.1 * angle);
    let hull = |corners: [(Vector3<f32>, f32, Vector3<f32>); 8]| -> Result<BodyShape, SceneError> {
        let points: Vec<Point3<f32>> =
            corners.iter().map(|&(c, r, u)| Point3::from(c + u * r)).collect();
        let shape: Shape = ConvexHull::new(&points).map_err(SceneError::Hull)?.into();
        Ok(BodyShape::new(shape).with_density(DEFAULT_DENSITY))
    };
    let mut shapes = Vec::with_capacity(40);
    let mut u1 = Vector3::x();
    for i in 0..DRUM_SEGMENTS {
        let u2 = if i == DRUM_SEGMENTS - 1 { Vector3::x() } else { q * u1 };
        let (a1, a2) = (qo.inverse() * u1, qo * u2);
        shapes.push(hull([
            (nd, r1, a1),
            (nd, r2, a1),
            (nd, r1, a2),
            (nd, r2, a2),
            (pd, r1, a1),
            (pd, r2, a1),
            (pd, r1, a2),
            (pd, r2, a2),
        ])?);
        if i % 9 == 0 {
            shapes.push(hull([
                (nd, r0, u1),
                (nd, r1, u1),
                (nd, r0, u2),
                (nd, r1, u2),
                (pd, r0, u1),
                (pd, r1, u1),
                (pd, r0, u2),
                (pd, r1, u2),
            ])?);
        }
        u1 = u2;
    }
    Ok(shapes)
}

/// Rocks along x and along z in each layer of `junkyard`.
const JUNKYARD_GRID: usize = 21;

/// Radius of `junkyard`'s rock hull, metres.
const ROCK_RADIUS: f32 = 1.5;

/// Points on `junkyard`'s rock hull.
const ROCK_POINTS: usize = 10;

/// Radius of the circle `junkyard`'s pusher travels, metres.
pub(crate) const PUSHER_CIRCLE: f32 = 35.0;

/// Sides of `junkyard`'s pusher prism.
const PUSHER_SIDES: usize = 16;

/// Radius and height of `junkyard`'s pusher prism, metres.
const PUSHER_RADIUS: f32 = 4.0;
const PUSHER_HEIGHT: f32 = 24.0;

/// The points of box3d's rock (`b3CreateRock`): a Fibonacci lattice of
/// [`ROCK_POINTS`] points on the sphere of radius `radius`, each turned from
/// the last by 2π/φ about z (turned by a product of cosines and sines, as
/// box3d does).
pub(crate) fn rock_points(radius: f32) -> Vec<Point3<f32>> {
    let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
    let theta = 2.0 * std::f32::consts::PI / phi;
    let (delta_cos, delta_sin) = (theta.cos(), theta.sin());
    let (mut cos, mut sin) = (1.0f32, 0.0f32);
    (0..ROCK_POINTS)
        .map(|i| {
            let z = 1.0 - (2.0 * i as f32 + 1.0) / ROCK_POINTS as f32;
            let rho = (1.0 - z * z).sqrt();
            let p = Point3::new(radius * rho * cos, radius * rho * sin, radius * z);
            (cos, sin) = (delta_cos * cos - delta_sin * sin, delta_sin * cos + delta_cos * sin);
            p
        })
        .collect()
}

/// The points of a prism of `sides` sides of radius `radius` from local
/// y = `y_offset` to `y_offset + height` (box3d's `b3CreateCylinder`, its
/// angle added up side by side).
pub(crate) fn prism_points(
    height: f32,
    radius: f32,
    y_offset: f32,
    sides: usize,
) -> Vec<Point3<f32>> {
    let delta = 2.0 * std::f32::consts::PI / sides as f32;
    let mut alpha = 0.0f32;
    let mut points = Vec::with_capacity(2 * sides);
    for _ in 0..sides {
        let (s, c) = alpha.sin_cos();
        points.push(Point3::new(radius * c, y_offset, radius * s));
        points.push(Point3::new(radius * c, y_offset + height, radius * s));
        alpha += delta;
    }
    points
}

/// `junkyard` [box3d's junkyard]: a static ground of five cuboids (a floor
/// and four walls), `layers` (24) layers of 21 × 21 rocks dropped above
/// it, and a kinematic prism pusher that the returned [`SceneDriver`]
/// drives round a circle of radius 35 (see `scene/driver.rs`).
pub(crate) fn build_junkyard(
    world: &mut World,
    layers: usize,
    ids: &mut Vec<BodyId>,
) -> Result<SceneDriver, SceneError> {
    let cuboid = |h: [f32; 3], at: [f32; 3]| {
        let shape: Shape = Cuboid::new(Vector3::from(h)).into();
        BodyShape::new(shape).with_density(DEFAULT_DENSITY).with_position(Vector3::from(at))
    };
    let ground = vec![
        cuboid([120.0, 1.0, 120.0], [0.0, 0.0, 0.0]),
        cuboid([1.0, 8.0, 50.0], [-50.0, 8.0, 0.0]),
        cuboid([1.0, 8.0, 50.0], [50.0, 8.0, 0.0]),
        cuboid([50.0, 8.0, 1.0], [0.0, 8.0, -50.0]),
        cuboid([50.0, 8.0, 1.0], [0.0, 8.0, 50.0]),
    ];
    world.add_body(BodyDesc::fixed_shapes(ground).with_position(Vector3::new(0.0, -1.0, 0.0)))?;
    let rock: Shape = ConvexHull::new(&rock_points(ROCK_RADIUS)).map_err(SceneError::Hull)?.into();
    for y in 0..layers {
        for x in 0..JUNKYARD_GRID {
            for z in 0..JUNKYARD_GRID {
                let p = Vector3::new(
                    -40.0 + 4.0 * x as f32,
                    4.0 * y as f32 + 24.0 + 1.0,
                    -40.0 + 4.0 * z as f32,
                );
                let desc = BodyDesc::dynamic(rock.clone()).with_density(DEFAULT_DENSITY);
                ids.push(world.add_body(desc.with_position(p))?);
            }
        }
    }
    let points = prism_points(PUSHER_HEIGHT, PUSHER_RADIUS, 0.0, PUSHER_SIDES);
    let prism: Shape = ConvexHull::new(&points).map_err(SceneError::Hull)?.into();
    let pusher = BodyDesc::kinematic(prism).with_position(Vector3::new(PUSHER_CIRCLE, 0.0, 0.0));
    let pusher = world.add_body(pusher)?;
    Ok(SceneDriver::pusher(pusher, PUSHER_CIRCLE))
}

/// Width of a `large-world` floor tile, metres.
const FLOOR_CELL: f32 = 10.0;

/// Half the thickness of a `large-world` floor tile, metres.
const FLOOR_HALF_THICKNESS: f32 = 0.25;

/// `large-world` [box3d's large_world]: `grid` × `grid` static floor tiles
/// of half-extents (5, 0.25, 5), row i outermost, with the [`SceneDriver`]
/// that drops its 100 spheres during the run. No ground besides the tiles.
pub(crate) fn build_large_world(world: &mut World, grid: usize) -> Result<SceneDriver, SceneError> {
    let half_span = 0.5 * FLOOR_CELL * grid as f32;
    let tile: Shape =
        Cuboid::new(Vector3::new(0.5 * FLOOR_CELL, FLOOR_HALF_THICKNESS, 0.5 * FLOOR_CELL)).into();
    // Room for the tiles and the spheres the driver drops, at once, as
    // box3d's benchmark gives its world the capacity of this scene (room
    // for the tiles alone would have the first sphere copy every array).
    world.reserve_bodies(grid * grid + DROPPED_SPHERES)?;
    for i in 0..grid {
        let x = -half_span + (i as f32 + 0.5) * FLOOR_CELL;
        for j in 0..grid {
            let z = -half_span + (j as f32 + 0.5) * FLOOR_CELL;
            world.add_body(BodyDesc::fixed(tile.clone()).with_position(Vector3::new(x, 0.0, z)))?;
        }
    }
    Ok(SceneDriver::drop_spheres(half_span))
}
