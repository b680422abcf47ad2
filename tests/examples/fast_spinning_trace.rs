//! Traces one shot of `tests/fast_spinning.rs` step by step in the sandbox
//! and in rapier3d 0.36 (CCD on): after each step, the body's centre,
//! velocity, spin and kinetic energy, and every contact's normal, friction
//! impulse and points (position, separation, normal impulse); rapier's
//! manifolds with each point's body-local position, distance and impulse.
//! What issue 41's rebound was traced with.
//!
//! ```text
//! cargo run --release -p tests --example fast_spinning_trace -- cone 500 40 [substeps] [friction]
//! ```
//!
//! The shapes, sizes, wall and start are the test's own
//! (`tests/fast_spinning_shots.rs`, shared by path): the test's table is
//! the contract, this only prints.

use collide::Cuboid;
use collide::nalgebra::{Isometry3, Vector3};
use rapier3d::prelude::{MassProperties, Matrix, RigidBodyBuilder, Vector};
use sandbox::{BodyDesc, StepSettings, World};

// The test's shots, described once (the example uses only some of it).
#[allow(dead_code)]
#[path = "../tests/fast_spinning_shots.rs"]
mod fast_spinning_shots;
use fast_spinning_shots::{
    DENSITY, DT, Kind, START_GAP, WALL_HALF_SIZE, WALL_HALF_THICKNESS, rapier_wall_world,
};

/// Steps traced.
const STEPS: usize = 12;

/// `(x, y, z)` with `digits` decimals.
fn f3(v: Vector3<f32>, digits: usize) -> String {
    format!("({:.d$}, {:.d$}, {:.d$})", v.x, v.y, v.z, d = digits)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: fast_spinning_trace <sphere|cuboid|capsule|hull|cylinder|cone|\
                 rounded-cuboid> <speed m/s> <spin rad/s> [substeps] [friction]";
    let number = |k: usize| args.get(k).and_then(|s| s.parse::<f32>().ok());
    let (Some((ours, theirs)), Some(speed), Some(spin)) = (
        args.first().and_then(|s| Kind::from_arg(s)).map(|k| (k.collide(), k.rapier())),
        number(1),
        number(2),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let friction = number(4).unwrap_or(0.6);
    let spin = Vector3::new(0.0, 0.6 * spin, 0.8 * spin);
    let aabb = sandbox::Aabb::of_shape(&ours, &Isometry3::identity());
    let start_x = -(WALL_HALF_THICKNESS + START_GAP + (aabb.max - aabb.min).norm() * 0.5);

    let mut settings =
        StepSettings { gravity: Vector3::zeros(), sleep_enabled: false, ..StepSettings::default() };
    if let Some(substeps) = number(3) {
        settings.substeps = substeps as u32;
    }
    let mut w = World::with_settings(settings).expect("valid settings");
    let wall = Cuboid::new(Vector3::new(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE));
    w.add_body(BodyDesc::fixed(wall.into()).with_friction(friction)).expect("wall");
    let body = BodyDesc::dynamic(ours.clone()).with_friction(friction).with_density(DENSITY);
    let id = w.add_body(body).expect("body");
    w.set_pose(id, Isometry3::translation(start_x, 0.0, 0.0)).expect("pose");
    w.set_linear_velocity(id, Vector3::new(speed, 0.0, 0.0)).expect("velocity");
    w.set_angular_velocity(id, spin).expect("spin");
    println!("sandbox");
    for step in 0..STEPS {
        w.step(DT);
        let (Some(p), Some(v), Some(s)) =
            (w.pose(id), w.linear_velocity(id), w.angular_velocity(id))
        else {
            println!("{step}: removed");
            break;
        };
        let (t, m) = (p.translation.vector, w.mass_properties(id).expect("mass"));
        let r = p.rotation.to_rotation_matrix();
        let inertia = r.matrix() * m.inertia * r.matrix().transpose();
        let energy = 0.5 * m.mass * v.norm_squared() + 0.5 * s.dot(&(inertia * s));
        println!("{step}: x {} v {} spin {} E {energy:.1} J", f3(t, 3), f3(v, 2), f3(s, 1));
        for c in w.contacts() {
            print!("    n {} friction {}", f3(c.normal, 2), f3(c.friction_impulse, 1));
            for q in c.points() {
                let at = f3(q.point.coords, 3);
                print!(" [{at} s {:.3} λ {:.1}]", q.separation, q.normal_impulse);
            }
            println!();
        }
    }

    // As the test: no gravity, the wall, rapier's caps lifted.
    let mut world = rapier_wall_world(friction);
    // collide's mass properties, as the test gives rapier.
    let mass = collide::MassProperties::from_shape(&ours, DENSITY);
    let inertia = Matrix::from_cols_array(&mass.inertia.as_slice().try_into().expect("3×3"));
    let c = mass.local_center;
    let collider = theirs.friction(friction).mass_properties(MassProperties::with_inertia_matrix(
        Vector::new(c.x, c.y, c.z),
        mass.mass,
        inertia,
    ));
    let body = RigidBodyBuilder::dynamic()
        .translation(Vector::new(start_x, 0.0, 0.0))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .angvel(Vector::new(spin.x, spin.y, spin.z))
        .can_sleep(false)
        .ccd_enabled(true)
        .allow_fast_rotation(true);
    let handle = world.insert(body, collider).0;
    println!("rapier3d");
    for step in 0..STEPS {
        world.step();
        let b = &world.bodies[handle];
        let v3 = |v: Vector| Vector3::new(v.x, v.y, v.z);
        let (t, v, s) = (f3(v3(b.translation()), 3), f3(v3(b.linvel()), 2), f3(v3(b.angvel()), 1));
        println!("{step}: x {t} v {v} spin {s} E {:.1} J", b.kinetic_energy());
        for pair in world.narrow_phase.contact_pairs() {
            for m in pair.manifolds() {
                print!("    n {}", f3(v3(m.data.normal), 2));
                for q in &m.points {
                    let local = f3(v3(q.local_p2), 3);
                    print!(" [body-local {local} d {:.3} λ {:.1}]", q.dist, q.data.impulse);
                }
                println!();
            }
        }
    }
}
