//! A short tour of collide: a few real queries, printed.
//!
//! Run with `cargo run --release -p convex-collide --example tour`.

use collide::nalgebra::{Isometry3, UnitQuaternion, Vector3};
use collide::query::{IterationLog, try_contact_with};
use collide::{
    Capsule, Contact, Cuboid, Proximity, Sphere, closest_points, intersects, penetration,
};

fn main() {
    let ground = Cuboid::new(Vector3::new(50.0, 0.5, 50.0));
    let ground_pose = Isometry3::translation(0.0, -0.5, 0.0);
    let cube = Cuboid::new(Vector3::repeat(0.5));
    let ball = Sphere::new(0.5);
    let capsule = Capsule::new(0.5, 0.3);

    println!("collide tour: every number below is computed now, by GJK/EPA.\n");

    let resting = Isometry3::from_parts(
        Vector3::new(2.0, 0.5 - 0.003, -1.0).into(),
        UnitQuaternion::from_euler_angles(0.0, 0.4, 0.0),
    );
    match penetration(&ground, &ground_pose, &cube, &resting) {
        Some(p) => println!(
            "cube sunk 3 mm into a 100 m ground slab:\n  depth {:.6} m, normal ({:.4}, {:.4}, {:.4})",
            p.depth, p.normal.x, p.normal.y, p.normal.z
        ),
        None => println!("cube on ground: no overlap (unexpected)"),
    }

    let tilted = Isometry3::from_parts(
        Vector3::new(0.0, 1.1, 0.0).into(),
        UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1),
    );
    match penetration(&cube, &Isometry3::identity(), &cube, &tilted) {
        Some(p) => println!(
            "two unit cubes, one tilted and stacked:\n  depth {:.5} m, normal ({:.4}, {:.4}, {:.4})\n  point_a ({:.4}, {:.4}, {:.4}), point_b ({:.4}, {:.4}, {:.4})",
            p.depth,
            p.normal.x,
            p.normal.y,
            p.normal.z,
            p.point_a.x,
            p.point_a.y,
            p.point_a.z,
            p.point_b.x,
            p.point_b.y,
            p.point_b.z
        ),
        None => println!("tilted cubes: separated"),
    }

    match closest_points(
        &ball,
        &Isometry3::translation(0.0, 3.0, 0.0),
        &capsule,
        &Isometry3::identity(),
    ) {
        Proximity::Separated { distance, point_a, point_b } => println!(
            "ball above an upright capsule:\n  distance {distance:.5} m, from ({:.3}, {:.3}, {:.3}) to ({:.3}, {:.3}, {:.3})",
            point_a.x, point_a.y, point_a.z, point_b.x, point_b.y, point_b.z
        ),
        Proximity::Intersecting => println!("ball and capsule: intersecting"),
    }

    println!(
        "ball touching the cube's corner region intersects: {}",
        intersects(&cube, &Isometry3::identity(), &ball, &Isometry3::translation(0.75, 0.75, 0.0))
    );

    let mut log = IterationLog::default();
    let result = try_contact_with(&cube, &Isometry3::identity(), &cube, &tilted, &mut log);
    if let Ok(Contact::Penetrating(p)) = result {
        println!(
            "the same stacked pair, recorded: {} GJK steps, {} EPA steps, depth {:.5} m",
            log.gjk.len(),
            log.epa.len(),
            p.depth
        );
    }
}
