//! box3d's `trees` benchmark scene (`trees100`, `trees50`, `trees25` at
//! sizes 1, 2 and 4), built as box3d's `shared/benchmarks.c` (commit
//! 30c67b5, `CreateTrees`) builds it and as `sandbox/SCENES.md`
//! ("box3d's benchmark scenes") describes it: a static wave mesh of
//! 150 s × 200 s cells of width 1/s, and 50 trees, each one dynamic body
//! of 22 hexagonal prism hulls, set spinning about z so that they topple
//! over the waves.
//!
//! Where the sandbox departs from box3d: gravity stays the sandbox's
//! −9.81 (box3d's −10), and the mesh's contacts reach the solver folded
//! into one manifold per prism (see `collision/composite_manifold.rs`)
//! where box3d keeps one per triangle.

use std::f32::consts::TAU;

use collide::composite::TriMesh;
use collide::nalgebra::{Point3, Vector3};
use collide::{ConvexHull, Shape};

use crate::body::{BodyDesc, BodyId, BodyShape};
use crate::scene::builtin::SceneError;
use crate::world::World;

/// Cells of the ground along x and along z at size 1 (box3d's 150 × 200).
const GROUND_CELLS: [usize; 2] = [150, 200];

/// Height of the ground's waves, metres.
const WAVE_AMPLITUDE: f32 = 0.4;

/// The waves' spatial frequencies along x and along z, per metre.
const WAVE_HZ: [f32; 2] = [0.1, 0.05];

/// Trees in the scene.
pub(crate) const TREE_COUNT: usize = 50;

/// Prisms per tree.
pub(crate) const PRISMS_PER_TREE: usize = 22;

/// Sides of each prism.
const PRISM_SIDES: usize = 6;

/// The first prism's radius and its core's height, metres, and the
/// height of its core's base: `y_0 = 1`, `r_0 = 0.75`, `l = 1.5`.
const FIRST_PRISM: (f32, f32) = (1.0, 0.75);
const PRISM_CORE: f32 = 1.5;

/// Each prism's radius is this fraction of the one below's.
const PRISM_TAPER: f32 = 0.95;

/// The trees' material: box3d's friction 0.9, rolling resistance 0.05
/// and density 1, and each tree's sleep threshold, 0.2 m/s.
const TREE_FRICTION: f32 = 0.9;
const TREE_ROLLING_RESISTANCE: f32 = 0.05;
const TREE_DENSITY: f32 = 1.0;
const TREE_SLEEP_THRESHOLD: f32 = 0.2;

/// The spin of tree `n` about z is `±TREE_SPIN · (0.5 + 0.5 n / 50)`.
const TREE_SPIN: f32 = 0.5;

/// The wave mesh at `size`: vertex `(i, j)` (number `j + (Z + 1) i`) at
/// `(−cX/2 + c i, A sin(2π f_x c i) sin(2π f_z c j), −cZ/2 + c j)`, and
/// each cell's two triangles `(v1, v2, v3)` and `(v3, v4, v1)` with
/// `v1 = j + (Z + 1) i`, `v2 = v1 + 1`, `v3 = v2 + Z + 1`, `v4 = v3 − 1`
/// (both facing +y).
pub(crate) fn wave_mesh(size: usize) -> Result<TriMesh, SceneError> {
    let (x_cells, z_cells) = (GROUND_CELLS[0] * size, GROUND_CELLS[1] * size);
    let cell = 1.0 / size as f32;
    let mut vertices = Vec::with_capacity((x_cells + 1) * (z_cells + 1));
    for i in 0..=x_cells {
        for j in 0..=z_cells {
            let (x, z) = (cell * i as f32, cell * j as f32);
            let y = WAVE_AMPLITUDE * (TAU * WAVE_HZ[0] * x).sin() * (TAU * WAVE_HZ[1] * z).sin();
            vertices.push(Point3::new(
                -0.5 * cell * x_cells as f32 + x,
                y,
                -0.5 * cell * z_cells as f32 + z,
            ));
        }
    }
    let stride = (z_cells + 1) as u32;
    let mut triangles = Vec::with_capacity(2 * x_cells * z_cells);
    for i in 0..x_cells as u32 {
        for j in 0..z_cells as u32 {
            let v1 = j + stride * i;
            let (v2, v3) = (v1 + 1, v1 + 1 + stride);
            let v4 = v3 - 1;
            triangles.push([v1, v2, v3]);
            triangles.push([v3, v4, v1]);
        }
    }
    TriMesh::try_new(vertices, triangles).map_err(SceneError::Composite)
}

/// The 22 prisms of a tree, in its frame: prism `t` of radius `r_t`
/// spans y from `y_t − r_t` to `y_t + l + r_t`, `y_(t+1) = y_t + l + 2 r_t`,
/// `r_(t+1) = 0.95 r_t`; its corners are `(r cos α, y, r sin α)`,
/// `α = 2π k / 6`, at both ends (as `washer`'s pusher is built).
fn tree_prisms() -> Result<Vec<Shape>, SceneError> {
    let (mut y, mut r) = FIRST_PRISM;
    let mut prisms = Vec::with_capacity(PRISMS_PER_TREE);
    for _ in 0..PRISMS_PER_TREE {
        let mut points = Vec::with_capacity(2 * PRISM_SIDES);
        for k in 0..PRISM_SIDES {
            let a = TAU * k as f32 / PRISM_SIDES as f32;
            let (c, s) = (r * a.cos(), r * a.sin());
            points.push(Point3::new(c, y - r, s));
            points.push(Point3::new(c, y + PRISM_CORE + r, s));
        }
        prisms.push(ConvexHull::new(&points).map_err(SceneError::Hull)?.into());
        y += PRISM_CORE + 2.0 * r;
        r *= PRISM_TAPER;
    }
    Ok(prisms)
}

/// `trees` [box3d's trees100 at size 1, trees50 at 2, trees25 at 4]: the
/// static wave mesh, then the 50 trees, tree `n` at `(0, 1, −70 + 3n)`
/// with angular velocity `ω = (0, 0, ±0.5 (0.5 + 0.5 n / 50))` (− for
/// `n = 0`, then alternating) and linear velocity
/// `ω × (centre of mass − position)`, as box3d sets them, so the frame's
/// origin starts still. Appends the trees to `ids`.
pub(crate) fn build_trees(
    world: &mut World,
    size: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    let ground = wave_mesh(size.max(1))?;
    world.add_body(BodyDesc::fixed(ground.into()))?;
    let prisms = tree_prisms()?;
    let shapes: Vec<BodyShape> = prisms
        .into_iter()
        .map(|shape| {
            BodyShape::new(shape)
                .with_friction(TREE_FRICTION)
                .with_rolling_resistance(TREE_ROLLING_RESISTANCE)
                .with_density(TREE_DENSITY)
        })
        .collect();
    let mut sign = -1.0f32;
    for n in 0..TREE_COUNT {
        let position = Vector3::new(0.0, 1.0, -70.0 + 3.0 * n as f32);
        let desc = BodyDesc::dynamic_shapes(shapes.clone())
            .with_position(position)
            .with_sleep_threshold(TREE_SLEEP_THRESHOLD);
        let id = world.add_body(desc)?;
        let scale = 0.5 + 0.5 * n as f32 / TREE_COUNT as f32;
        let omega = Vector3::new(0.0, 0.0, sign * TREE_SPIN * scale);
        // The body's frame is not rotated, so its centre of mass sits at
        // its local centre from the position.
        let arm = world.mass_properties(id).map_or(Vector3::zeros(), |m| m.local_center.coords);
        world.set_angular_velocity(id, omega)?;
        world.set_linear_velocity(id, omega.cross(&arm))?;
        ids.push(id);
        sign = -sign;
    }
    Ok(())
}
