//! Ghost contacts in the world (issue 38's acceptance tests): a body
//! sliding or rolling across a flat floor made of many triangles must move
//! as it would on one flat face. The oracle is the motion on a smooth
//! plane, in closed form: with no friction a sliding cube keeps its
//! velocity and stays level; a rolling sphere stays at its radius.
//!
//! A catch on an internal edge (a "ghost" contact, whose normal leans
//! against the motion) would show as a vertical kick (|v_y|), a tilt and
//! a loss of speed; each is bounded at every step of the run.
//!
//! Tolerances:
//! - |v_y| < 1 cm/s and tilt < 0.5°: the bounds. A resting cube's
//!   soft contact settles within a few mm/s of still, and a ghost catch at
//!   5 m/s kicks by tenths of a m/s, so these separate the two by decades.
//! - speed within 1 cm/s (0.2 %) of 5 m/s: with no friction a flat
//!   contact's impulses are vertical and cannot change the horizontal
//!   velocity at all, so only f32 rounding of the velocity (about 1e-6
//!   relative per step) remains; a ghost catch takes a share of the speed
//!   itself (its normal's horizontal part times the normal impulse, of
//!   order the impact speed), tens of cm/s. 1 cm/s is the same bound as
//!   the vertical one, far above rounding and far below a catch.

use collide::composite::{HeightField, TriMesh};
use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Cuboid, Shape, Sphere};
use sandbox::{BodyDesc, World};

use crate::common::{run, step, world};

/// A flat mesh floor at y = 0 of `nx` × `nz` cells of 1 m, two triangles
/// per cell, spanning x in `[x0, x0 + nx]` and z in `[-nz/2, nz/2]`.
fn mesh_floor(x0: f32, nx: u32, nz: u32) -> Shape {
    let mut vertices = Vec::new();
    for i in 0..=nx {
        for j in 0..=nz {
            vertices.push(Point3::new(x0 + i as f32, 0.0, j as f32 - nz as f32 / 2.0));
        }
    }
    let v = |i: u32, j: u32| i * (nz + 1) + j;
    let mut triangles = Vec::new();
    for i in 0..nx {
        for j in 0..nz {
            triangles.push([v(i, j), v(i, j + 1), v(i + 1, j + 1)]);
            triangles.push([v(i + 1, j + 1), v(i + 1, j), v(i, j)]);
        }
    }
    TriMesh::try_new(vertices, triangles).unwrap().into()
}

/// A flat heightfield of 1 m cells, `nx` × `nz` cells, centred on its
/// body.
fn heightfield_floor(nx: usize, nz: usize) -> Shape {
    let rows = vec![vec![0.0; nx + 1]; nz + 1];
    HeightField::try_from_rows(&rows, [1.0, 1.0]).unwrap().into()
}

/// The angle (degrees) between a body's up axis and the world's.
fn tilt_degrees(rotation: &UnitQuaternion<f32>) -> f32 {
    let up = rotation * Vector3::y();
    up.y.clamp(-1.0, 1.0).acos().to_degrees()
}

/// A frictionless unit cube resting on `floor` (a fixed body at
/// `floor_at`) at `start`, yawed by `yaw`, sliding at 5 m/s along
/// `direction` (horizontal) for `steps` steps: checks the three bounds of
/// the module's notes at every step, and that it crossed cells.
fn slide_across(
    floor: Shape,
    floor_at: Vector3<f32>,
    start: Vector3<f32>,
    yaw: f32,
    dir: Vector3<f32>,
) {
    const SPEED: f32 = 5.0;
    const MAX_VY: f32 = 0.01;
    const MAX_TILT_DEGREES: f32 = 0.5;
    const MAX_SPEED_CHANGE: f32 = 0.01;
    let mut world = world(false);
    world.add_body(BodyDesc::fixed(floor).with_position(floor_at).with_friction(0.0)).unwrap();
    let cube = Cuboid::new(Vector3::repeat(0.5)).into();
    let rotation = UnitQuaternion::from_euler_angles(0.0, yaw, 0.0);
    // Settled first, at rest, so the slide starts from a resting contact.
    let id = world
        .add_body(
            BodyDesc::dynamic(cube)
                .with_friction(0.0)
                .with_position(start + Vector3::new(0.0, 0.5, 0.0))
                .with_rotation(rotation),
        )
        .unwrap();
    run(&mut world, 30);
    let v = dir.normalize() * SPEED;
    world.set_linear_velocity(id, v).unwrap();
    let from = world.pose(id).unwrap().translation.vector;
    // 1.2 s: 6 m, across six cells and their diagonals.
    for k in 0..72 {
        step(&mut world);
        let pose = world.pose(id).unwrap();
        let vel = world.linear_velocity(id).unwrap();
        let tilt = tilt_degrees(&pose.rotation);
        let horizontal = Vector3::new(vel.x, 0.0, vel.z);
        assert!(vel.y.abs() < MAX_VY, "step {k}: v_y = {} at {:?}", vel.y, pose.translation);
        assert!(tilt < MAX_TILT_DEGREES, "step {k}: tilt {tilt}° at {:?}", pose.translation);
        assert!(
            (horizontal - v).norm() < MAX_SPEED_CHANGE,
            "step {k}: velocity {vel:?}, started {v:?}, at {:?}",
            pose.translation
        );
    }
    let travelled = world.pose(id).unwrap().translation.vector - from;
    assert!(travelled.norm() > 5.9, "travelled {travelled:?}");
}

#[test]
fn a_cube_slides_across_a_flat_mesh_floor_without_catching() {
    // Along x, centred in a row of cells and then across cell corners.
    slide_across(mesh_floor(-2.0, 12, 6), Vector3::zeros(), Vector3::zeros(), 0.0, Vector3::x());
    slide_across(
        mesh_floor(-2.0, 12, 6),
        Vector3::zeros(),
        Vector3::new(0.0, 0.0, 0.5),
        0.0,
        Vector3::x(),
    );
    // Yawed and sliding obliquely, across diagonals at an angle.
    slide_across(
        mesh_floor(-2.0, 12, 12),
        Vector3::zeros(),
        Vector3::new(0.3, 0.0, -2.0),
        0.4,
        Vector3::new(1.0, 0.0, 0.5),
    );
    // Backwards along -x (the swapped direction across the same edges).
    slide_across(mesh_floor(-10.0, 12, 6), Vector3::zeros(), Vector3::zeros(), 0.0, -Vector3::x());
}

#[test]
fn a_cube_slides_across_a_flat_heightfield_without_catching() {
    // Cells centred on the body: 12 × 6 cells span x in [-6, 6].
    let at = Vector3::new(4.0, 0.0, 0.0);
    slide_across(heightfield_floor(12, 6), at, Vector3::zeros(), 0.0, Vector3::x());
    slide_across(heightfield_floor(12, 6), at, Vector3::new(0.0, 0.0, 0.5), 0.0, Vector3::x());
    slide_across(
        heightfield_floor(12, 12),
        at,
        Vector3::new(0.3, 0.0, -2.0),
        0.4,
        Vector3::new(1.0, 0.0, 0.5),
    );
    slide_across(heightfield_floor(12, 6), -at, Vector3::zeros(), 0.0, -Vector3::x());
}

#[test]
fn a_sphere_rolling_over_the_seam_of_two_coplanar_triangles_does_not_hop() {
    // A 4 m square of two triangles whose seam runs along its diagonal.
    let square: Shape = TriMesh::try_new(
        vec![
            Point3::new(-2.0, 0.0, -2.0),
            Point3::new(-2.0, 0.0, 2.0),
            Point3::new(2.0, 0.0, 2.0),
            Point3::new(2.0, 0.0, -2.0),
        ],
        vec![[0, 1, 2], [2, 3, 0]],
    )
    .unwrap()
    .into();
    for (start, velocity) in [
        (Vector3::new(-1.5, 0.5, 0.0), Vector3::new(2.0, 0.0, 0.0)),
        (Vector3::new(0.0, 0.5, 1.5), Vector3::new(0.0, 0.0, -2.0)),
        (Vector3::new(1.2, 0.5, -0.3), Vector3::new(-2.0, 0.0, 0.5)),
    ] {
        let mut world: World = world(false);
        world.add_body(BodyDesc::fixed(square.clone())).unwrap();
        let ball = world
            .add_body(
                BodyDesc::dynamic(Sphere::new(0.5).into())
                    .with_position(start)
                    .with_linear_velocity(velocity)
                    // Rolling from the start: ω = n × v / r with n = +y.
                    .with_angular_velocity(Vector3::y().cross(&velocity) / 0.5),
            )
            .unwrap();
        let mut lowest = f32::MAX;
        let mut highest = f32::MIN;
        // 1.5 s at 2 m/s: 3 m, over the seam.
        for k in 0..90 {
            step(&mut world);
            let p = world.pose(ball).unwrap().translation.vector;
            let v = world.linear_velocity(ball).unwrap();
            assert!(v.y.abs() < 0.01, "step {k}: v_y = {} at {p:?}", v.y);
            lowest = lowest.min(p.y);
            highest = highest.max(p.y);
        }
        // At its radius throughout: a hop would lift it, a catch sink it.
        assert!(highest < 0.5 + 1e-3 && lowest > 0.5 - 5e-3, "y in [{lowest}, {highest}]");
        let end = world.pose(ball).unwrap().translation.vector;
        let crossed = (start.x - start.z).signum() != (end.x - end.z).signum();
        assert!(crossed, "from {start:?} to {end:?}: the seam x = z was not crossed");
    }
}
