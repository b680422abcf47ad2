//! The joint scenes: `chain` (links hanging from a static body with a heavy
//! ball at the end), `bridge` (planks on hinges between two posts),
//! `ragdolls` (a grid of ragdolls dropped on a rolling triangle-mesh
//! terrain) and box3d's
//! `joint-grid` (a grid of spheres held by ball joints), built as
//! `sandbox/SCENES.md` defines them.
//!
//! `joint-grid` follows box3d's `CreateJointGrid` (`shared/benchmarks.c`,
//! commit 30c67b5): the same spheres, positions, filter and joint anchors,
//! sleeping off (box3d creates every body never to sleep; no other body is
//! in the scene, so turning the world's sleeping off is the same). It
//! departs in one place: box3d also joins neighbouring spheres of the
//! static top row to each other, joints between two static bodies that
//! never act, which the sandbox's world refuses; they are left out, so
//! the sandbox has `N − 1` joints fewer (19,701 for box3d's 19,800 at
//! N = 100).

use collide::composite::TriMesh;
use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Capsule, Cuboid, Sphere};

use crate::body::{BodyDesc, BodyId, Filter};
use crate::joint::JointDesc;
use crate::scene::builtin::{SceneError, add_ground};
use crate::scene::ragdoll::{RagdollDesc, build_ragdoll};
use crate::settings::StepSettings;
use crate::world::World;

/// Length of one chain link, end to end, metres.
pub(crate) const CHAIN_LINK_LENGTH: f32 = 0.5;

/// Radius of a chain link's capsule, metres.
const CHAIN_LINK_RADIUS: f32 = 0.05;

/// Radius of the chain's end ball, metres.
const CHAIN_BALL_RADIUS: f32 = 0.3;

/// How many times a chain link's mass the end ball weighs.
pub(crate) const CHAIN_BALL_MASS_RATIO: f32 = 1000.0;

/// Height of the chain's static anchor above the ground, metres: the
/// chain starts level and swings down past a 20-link chain's length plus
/// the ball, clear of the ground.
const CHAIN_HEIGHT: f32 = 12.5;

/// `chain` (size n, default 20 links): a small static box at
/// (0, 12.5, 0), `n` capsules 0.5 m long end to end along +x from it,
/// level (they swing down), each joined to the one before at their shared
/// end by a ball joint (the first to the box), and a ball of 0.3 m radius
/// weighing 1,000 links at the far end, joined to the last link. Returns
/// the links and the ball.
pub(crate) fn build_chain(
    world: &mut World,
    links: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    add_ground(world)?;
    let top = Vector3::new(0.0, CHAIN_HEIGHT, 0.0);
    let anchor_body = world
        .add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.1)).into()).with_position(top))?;
    let half_height = 0.5 * CHAIN_LINK_LENGTH - CHAIN_LINK_RADIUS;
    let link_shape = Capsule::new(half_height, CHAIN_LINK_RADIUS);
    // Capsules lie along their local y: turned to lie along +x.
    let along_x =
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), -core::f32::consts::FRAC_PI_2);
    let mut previous = anchor_body;
    for i in 0..links {
        let center = top + Vector3::x() * (CHAIN_LINK_LENGTH * (i as f32 + 0.5));
        let link = world.add_body(
            BodyDesc::dynamic(link_shape.into()).with_position(center).with_rotation(along_x),
        )?;
        let joint = top + Vector3::x() * (CHAIN_LINK_LENGTH * i as f32);
        world.create_joint(JointDesc::spherical(previous, link, Point3::from(joint)))?;
        ids.push(link);
        previous = link;
    }
    let link_mass = link_shape_mass(half_height);
    let ball_volume = 4.0 / 3.0 * core::f32::consts::PI * CHAIN_BALL_RADIUS.powi(3);
    let end = top + Vector3::x() * (CHAIN_LINK_LENGTH * links as f32);
    let ball = world.add_body(
        BodyDesc::dynamic(Sphere::new(CHAIN_BALL_RADIUS).into())
            .with_position(end + Vector3::x() * CHAIN_BALL_RADIUS)
            .with_density(CHAIN_BALL_MASS_RATIO * link_mass / ball_volume),
    )?;
    world.create_joint(JointDesc::spherical(previous, ball, Point3::from(end)))?;
    ids.push(ball);
    Ok(())
}

/// The mass of one chain link at the default density: a cylinder of the
/// link's radius and length `2 half_height` and a sphere of its radius.
fn link_shape_mass(half_height: f32) -> f32 {
    let r = CHAIN_LINK_RADIUS;
    let volume = core::f32::consts::PI * r * r * (2.0 * half_height + 4.0 / 3.0 * r);
    volume * crate::body::DEFAULT_DENSITY
}

/// Half-extents of a bridge plank, metres: 0.5 m along the bridge, 0.1 m
/// thick, 2 m wide.
const PLANK_HALF: [f32; 3] = [0.25, 0.05, 1.0];

/// Height of the bridge's deck above the ground at its ends, metres.
const BRIDGE_HEIGHT: f32 = 5.0;

/// `bridge` (size n, default 40 planks): two static posts whose tops are
/// at the deck's height, 0.5 m × n apart, and `n` planks between them,
/// each hinged to its neighbours (the first and last to the posts) about
/// the bridge's width (z) at their shared edges. Returns the planks.
pub(crate) fn build_bridge(
    world: &mut World,
    planks: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    add_ground(world)?;
    let plank = Vector3::from(PLANK_HALF);
    let span = 2.0 * plank.x * planks as f32;
    let left = -0.5 * span;
    let post_half = Vector3::new(0.25, 0.5 * BRIDGE_HEIGHT, plank.z);
    // Standing on the ground, their tops level with the deck's.
    let post = |x: f32| {
        BodyDesc::fixed(Cuboid::new(post_half).into()).with_position(Vector3::new(
            x,
            0.5 * BRIDGE_HEIGHT,
            0.0,
        ))
    };
    let left_post = world.add_body(post(left - post_half.x))?;
    let mut previous = left_post;
    for i in 0..planks {
        let x = left + plank.x * (2.0 * i as f32 + 1.0);
        let body = world.add_body(
            BodyDesc::dynamic(Cuboid::new(plank).into()).with_position(Vector3::new(
                x,
                BRIDGE_HEIGHT - plank.y,
                0.0,
            )),
        )?;
        let hinge = Point3::new(x - plank.x, BRIDGE_HEIGHT - plank.y, 0.0);
        world.create_joint(JointDesc::revolute(previous, body, hinge, Vector3::z()))?;
        ids.push(body);
        previous = body;
    }
    let right_post = world.add_body(post(-left + post_half.x))?;
    let hinge = Point3::new(-left, BRIDGE_HEIGHT - plank.y, 0.0);
    world.create_joint(JointDesc::revolute(previous, right_post, hinge, Vector3::z()))?;
    Ok(())
}

/// Distance between neighbouring ragdolls of `ragdolls`, metres.
const RAGDOLL_SPACING: f32 = 2.0;

/// Height the ragdolls of `ragdolls` are dropped from (their origin, between
/// the soles), metres.
const RAGDOLL_DROP_HEIGHT: f32 = 2.0;

/// Cells of the `ragdolls` terrain beyond the ragdoll grid's edge on each
/// side, metres (one cell is 1 m): room for a ragdoll that lands and
/// tumbles outwards.
const TERRAIN_MARGIN_CELLS: usize = 4;

/// Half the height of the `ragdolls` terrain's hills, metres: a quarter of
/// a ragdoll's leg, so a ragdoll lies across slopes that differ from part
/// to part, yet every drop height stays above the hills. The terrain spans
/// y = 0 to twice this, never below the app's ground grid at y = 0 (which
/// would hide its dips).
const TERRAIN_AMPLITUDE: f32 = 0.25;

/// Angular wavenumbers of the terrain's hills along x and z, rad/m: hills
/// about 8 m and 10 m long, so each ragdoll lands on its own slope.
const TERRAIN_WAVENUMBER: [f32; 2] = [0.8, 0.6];

/// The `ragdolls` terrain for an `n × n` grid: a triangle mesh of 1 m
/// cells over `[−e, e]²` with `e = n + TERRAIN_MARGIN_CELLS` (so `2e` cells
/// a side), vertex `(x, A (1 + sin(k_x x) sin(k_z z)), z)`, each cell split
/// into two triangles facing +y.
pub(crate) fn ragdoll_terrain(n: usize) -> Result<TriMesh, SceneError> {
    let cells = 2 * (n + TERRAIN_MARGIN_CELLS);
    let half = 0.5 * cells as f32;
    let mut vertices = Vec::with_capacity((cells + 1) * (cells + 1));
    for i in 0..=cells {
        for j in 0..=cells {
            let (x, z) = (i as f32 - half, j as f32 - half);
            let y = TERRAIN_AMPLITUDE
                * (1.0 + (TERRAIN_WAVENUMBER[0] * x).sin() * (TERRAIN_WAVENUMBER[1] * z).sin());
            vertices.push(Point3::new(x, y, z));
        }
    }
    let stride = (cells + 1) as u32;
    let mut triangles = Vec::with_capacity(2 * cells * cells);
    for i in 0..cells as u32 {
        for j in 0..cells as u32 {
            let v1 = j + stride * i;
            let (v2, v3) = (v1 + 1, v1 + 1 + stride);
            triangles.push([v1, v2, v3]);
            triangles.push([v3, v3 - 1, v1]);
        }
    }
    TriMesh::try_new(vertices, triangles).map_err(SceneError::Composite)
}

/// `ragdolls` (size n, default 5): `n × n` ragdolls ([`build_ragdoll`]),
/// 2 m apart on a grid centred over the origin, dropped from 2 m onto a
/// static rolling terrain mesh ([`ragdoll_terrain`]), each turned about y
/// by 0.7 rad more than the last and tipped 0.5 rad about x, alternately
/// forward and back, so they land in different poses. Returns every part
/// of every ragdoll, ragdoll by ragdoll.
pub(crate) fn build_ragdolls(
    world: &mut World,
    n: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    world.add_body(BodyDesc::fixed(ragdoll_terrain(n)?.into()))?;
    let offset = 0.5 * RAGDOLL_SPACING * (n as f32 - 1.0);
    for row in 0..n {
        for column in 0..n {
            let k = row * n + column;
            let position = Vector3::new(
                RAGDOLL_SPACING * column as f32 - offset,
                RAGDOLL_DROP_HEIGHT,
                RAGDOLL_SPACING * row as f32 - offset,
            );
            let tip = if k.is_multiple_of(2) { 0.5 } else { -0.5 };
            let rotation = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.7 * k as f32)
                * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), tip);
            let ragdoll =
                build_ragdoll(world, &RagdollDesc::new(position).with_rotation(rotation))?;
            ids.extend_from_slice(&ragdoll.parts);
        }
    }
    Ok(())
}

/// Radius of `joint-grid`'s spheres, metres (box3d's).
const GRID_SPHERE_RADIUS: f32 = 0.4;

/// `joint-grid`'s filter: category 2, colliding with every category but 2,
/// so the spheres never collide with each other (box3d's).
const GRID_FILTER: Filter = Filter { category: 2, mask: !2, group: 0 };

/// `joint-grid` [box3d's joint_grid] (size n, default 100): `n × n` spheres
/// of radius 0.4 at `(k, −i, 0)` for `k` then `i` in `0..n`, those of
/// `i = 0` static, the rest dynamic, never colliding with each other; ball
/// joints between vertical neighbours at their midpoint `(k, 0.5 − i, 0)`
/// and, below the static row, between horizontal ones at
/// `(k − 0.5, −i, 0)` (see the module docs). Sleeping off, no ground.
/// Returns the dynamic spheres.
pub(crate) fn build_joint_grid(
    world: &mut World,
    n: usize,
    ids: &mut Vec<BodyId>,
) -> Result<(), SceneError> {
    let settings = StepSettings { sleep_enabled: false, ..*world.settings() };
    world.set_settings(settings)?;
    let sphere = crate::body::BodyShape::new(Sphere::new(GRID_SPHERE_RADIUS).into())
        .with_filter(GRID_FILTER);
    // Every body of the grid, column by column, to find the neighbours.
    let mut grid = Vec::with_capacity(n.saturating_mul(n));
    for k in 0..n {
        for i in 0..n {
            let position = Vector3::new(k as f32, -(i as f32), 0.0);
            let desc = if i == 0 {
                BodyDesc::fixed_shapes(vec![sphere.clone()])
            } else {
                BodyDesc::dynamic_shapes(vec![sphere.clone()])
            };
            let body = world.add_body(desc.with_position(position))?;
            if i > 0 {
                let above = grid[k * n + i - 1];
                let anchor = Point3::new(k as f32, 0.5 - i as f32, 0.0);
                world.create_joint(JointDesc::spherical(above, body, anchor))?;
            }
            if k > 0 && i > 0 {
                let left = grid[(k - 1) * n + i];
                let anchor = Point3::new(k as f32 - 0.5, -(i as f32), 0.0);
                world.create_joint(JointDesc::spherical(left, body, anchor))?;
            }
            grid.push(body);
            if i > 0 {
                ids.push(body);
            }
        }
    }
    Ok(())
}
