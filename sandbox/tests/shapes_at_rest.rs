//! Non-box shapes through the GJK/EPA + face-clipping path: each comes to
//! rest on the ground on its natural support (a capsule on its side with
//! both ends touching, a hull on a face with its three corners), at the
//! height geometry predicts.

use crate::common;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Capsule, Cone, Cuboid, Cylinder, Rounded, Shape};
use common::world;
use sandbox::{BodyDesc, BodyId, World, add_ground, icosahedron};

fn drop_on_ground(shape: Shape, rotation: UnitQuaternion<f32>) -> (World, BodyId) {
    let mut w = world(false);
    add_ground(&mut w).unwrap();
    let id = w
        .add_body(
            BodyDesc::dynamic(shape)
                .with_position(Vector3::new(0.0, 1.2, 0.0))
                .with_rotation(rotation),
        )
        .unwrap();
    common::run(&mut w, 240);
    (w, id)
}

fn ground_points(w: &World) -> Vec<f32> {
    w.contacts().flat_map(|c| c.points().iter().map(|p| p.separation).collect::<Vec<_>>()).collect()
}

#[test]
fn capsule_lying_on_the_ground_touches_at_both_ends() {
    // Lying along X: the core segment is horizontal.
    let lying = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f32::consts::FRAC_PI_2);
    let (w, id) = drop_on_ground(Capsule::new(0.5, 0.3).into(), lying);
    let p = w.pose(id).unwrap();
    assert!((p.translation.y - 0.3).abs() < 0.01, "capsule centre at {}", p.translation.y);
    let axis = p.rotation * Vector3::y();
    assert!(axis.y.abs() < 0.05, "capsule is not lying: axis {axis:?}");
    assert_eq!(ground_points(&w).len(), 2, "a lying capsule needs a contact at each end");
    assert!(w.linear_velocity(id).unwrap().norm() < 0.01);
}

#[test]
fn icosahedron_rests_on_a_face() {
    let hull = icosahedron(0.6).expect("icosahedron hull");
    // Inradius of an icosahedron of circumradius R: R · φ² / (√3 · √(φ² + 1)).
    let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
    let inradius = 0.6 * phi * phi / (3.0f32.sqrt() * (phi * phi + 1.0).sqrt());
    let (w, id) = drop_on_ground(hull.into(), UnitQuaternion::from_euler_angles(0.3, 0.1, 0.2));
    let y = w.pose(id).unwrap().translation.y;
    assert!((y - inradius).abs() < 0.01, "centre at {y}, inradius {inradius}");
    assert_eq!(ground_points(&w).len(), 3, "a hull resting on a triangle needs its three corners");
    assert!(w.linear_velocity(id).unwrap().norm() < 0.01);
}

/// Drops `shape` upright (tilted by 0.1 rad so it must settle onto its
/// base) and checks it rests with its centre `rest_height` above the
/// ground, still, after 4 s.
fn rests_upright_at(shape: Shape, rest_height: f32) {
    let kind = shape.kind_name();
    let tilt = UnitQuaternion::from_euler_angles(0.1, 0.0, 0.05);
    let (w, id) = drop_on_ground(shape, tilt);
    let p = w.pose(id).unwrap();
    assert!(
        (p.translation.y - rest_height).abs() < 0.01,
        "{kind}: centre at {}, expected {rest_height}",
        p.translation.y
    );
    let up = p.rotation * Vector3::y();
    assert!(up.y > 0.999, "{kind}: not upright, axis {up:?}");
    assert!(w.linear_velocity(id).unwrap().norm() < 0.01, "{kind} still moving");
    assert!(w.angular_velocity(id).unwrap().norm() < 0.05, "{kind} still turning");
}

#[test]
fn cylinder_cone_and_rounded_box_rest_on_their_flat_sides() {
    rests_upright_at(Cylinder::try_new(0.4, 0.3).unwrap().into(), 0.4);
    rests_upright_at(Cone::try_new(0.4, 0.4).unwrap().into(), 0.4);
    let rounded = Rounded::try_new(Cuboid::new(Vector3::new(0.3, 0.2, 0.3)), 0.05).unwrap();
    rests_upright_at(rounded.into(), 0.25);
}
