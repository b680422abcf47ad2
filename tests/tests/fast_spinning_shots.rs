//! The shots of `fast_spinning.rs` described once: the shapes fired (in
//! collide and in rapier3d), the wall, the step and the reference's caps
//! lifted. Shared by the test and by `examples/fast_spinning_trace.rs`
//! (included there by path), so that what is traced is what is tested.

use collide::nalgebra::{Point3, Vector3};
use collide::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Shape, Sphere};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector};

/// One step, seconds (rapier's default `dt`, checked below).
pub const DT: f32 = 1.0 / 60.0;
/// Half the wall's thickness: the wall is 1 cm thick, centred on x = 0.
pub const WALL_HALF_THICKNESS: f32 = 0.005;
/// The wall's half-size across the flight.
pub const WALL_HALF_SIZE: f32 = 2.0;
/// Gap from the body's nearest point to the wall at the start, metres.
pub const START_GAP: f32 = 5.0;
/// Density in both engines, kg/m³ (the sandbox's default).
pub const DENSITY: f32 = 1000.0;

/// The points of the hull fired: an irregular 8-point polytope about
/// 0.4 m across, so it has no symmetry that would hide a wrong turn.
fn hull_points() -> [[f32; 3]; 8] {
    [
        [0.2, 0.05, 0.0],
        [-0.15, 0.1, 0.05],
        [0.0, 0.2, -0.1],
        [0.05, -0.2, 0.1],
        [-0.1, -0.1, -0.15],
        [0.1, 0.0, 0.2],
        [-0.05, 0.05, -0.2],
        [0.15, -0.1, -0.1],
    ]
}

/// One shape kind, described once and built in each engine.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Sphere,
    Cuboid,
    Capsule,
    Hull,
    Cylinder,
    Cone,
    RoundedCuboid,
}

pub const KINDS: [Kind; 7] = [
    Kind::Sphere,
    Kind::Cuboid,
    Kind::Capsule,
    Kind::Hull,
    Kind::Cylinder,
    Kind::Cone,
    Kind::RoundedCuboid,
];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sphere => "sphere",
            Kind::Cuboid => "cuboid",
            Kind::Capsule => "capsule",
            Kind::Hull => "hull",
            Kind::Cylinder => "cylinder",
            Kind::Cone => "cone",
            Kind::RoundedCuboid => "rounded cuboid",
        }
    }

    /// The kind named `arg` on a command line: its name with `-` for spaces.
    #[allow(dead_code)] // the trace example's; the test fires every kind
    pub fn from_arg(arg: &str) -> Option<Kind> {
        KINDS.into_iter().find(|k| k.name().replace(' ', "-") == arg)
    }

    /// The sandbox's (collide's) shape.
    pub fn collide(self) -> Shape {
        match self {
            Kind::Sphere => Sphere::new(0.1).into(),
            Kind::Cuboid => Cuboid::new(Vector3::new(0.2, 0.2, 0.2)).into(),
            Kind::Capsule => Capsule::new(0.2, 0.1).into(),
            Kind::Hull => {
                let points: Vec<_> =
                    hull_points().iter().map(|p| Point3::new(p[0], p[1], p[2])).collect();
                ConvexHull::new(&points).unwrap().into()
            }
            Kind::Cylinder => Cylinder::new(0.2, 0.1).into(),
            Kind::Cone => Cone::new(0.2, 0.15).into(),
            Kind::RoundedCuboid => Shape::Rounded(Box::new(Rounded::new(
                Cuboid::new(Vector3::new(0.15, 0.1, 0.05)).into(),
                0.05,
            ))),
        }
    }

    /// rapier3d's collider of the same shape (both put cylinders, cones
    /// and capsules along local Y, the cone's apex up).
    pub fn rapier(self) -> ColliderBuilder {
        match self {
            Kind::Sphere => ColliderBuilder::ball(0.1),
            Kind::Cuboid => ColliderBuilder::cuboid(0.2, 0.2, 0.2),
            Kind::Capsule => ColliderBuilder::capsule_y(0.2, 0.1),
            Kind::Hull => {
                let points: Vec<_> =
                    hull_points().iter().map(|p| Vector::new(p[0], p[1], p[2])).collect();
                ColliderBuilder::convex_hull(&points).unwrap()
            }
            Kind::Cylinder => ColliderBuilder::cylinder(0.2, 0.1),
            Kind::Cone => ColliderBuilder::cone(0.2, 0.15),
            Kind::RoundedCuboid => ColliderBuilder::round_cuboid(0.15, 0.1, 0.05, 0.05),
        }
    }
}

/// Lifts rapier3d's default speed cap (400 m/s after each substep,
/// `normalized_max_linear_velocity`) so that its body flies the shot fired
/// (up to 2,000 m/s). Its spin cap (about 45° a step unless a body allows
/// fast rotation) is lifted on the body, where the shot's body is built. With both
/// caps on, rapier3d's body flew a different, slower shot than the
/// sandbox's: 400 m/s for the 500 and 2,000 m/s shots, 47 rad/s for the
/// 100 rad/s ones (checked by `rapier_flies_the_shot_fired`).
pub fn fly_the_shot_uncapped(world: &mut PhysicsWorld) {
    world.integration_parameters.normalized_max_linear_velocity = f32::MAX;
}

/// rapier3d's world for a shot: no gravity, the fixed wall with `friction`,
/// and the caps lifted ([`fly_the_shot_uncapped`]).
pub fn rapier_wall_world(friction: f32) -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, 0.0, 0.0);
    fly_the_shot_uncapped(&mut world);
    world.insert(
        RigidBodyBuilder::fixed(),
        ColliderBuilder::cuboid(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE)
            .friction(friction),
    );
    world
}
