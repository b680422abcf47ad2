//! The sandbox side: the scene built by `sandbox::build_scene` with default
//! `StepSettings` (sleeping on), exactly as `sandbox bench` runs it, and
//! checked body by body against the independent transcription in `layout`.

use std::error::Error;

use collide::Shape;
use rapier3d::math::Pose;
use rapier3d::prelude::{Rotation, Vector};
use sandbox::{BodyId, BodyKind, Scene, StepSettings, World, build_scene};

use crate::engine::{ContactSummary, EMPTY_RANGE, Engine, widen};
use crate::layout::{
    BodySpec, CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS, CUBE_HALF, GroundSpec, SPHERE_RADIUS, ShapeSpec,
};

/// One step, seconds.
const DT: f32 = 1.0 / 60.0;
/// How far (metres, radians) a built pose may sit from the specification:
/// both sides compute the same f32 expressions, so only rounding differs.
const POSE_TOLERANCE: f32 = 1e-5;

/// The sandbox world of one scene.
pub struct SandboxSide {
    world: World,
    bodies: Vec<BodyId>,
}

impl SandboxSide {
    /// Builds `scene` at `size` with `settings` and checks it against `specs`.
    pub fn build_with(
        scene: Scene,
        size: usize,
        specs: &[BodySpec],
        settings: StepSettings,
    ) -> Result<Self, Box<dyn Error>> {
        let mut world = World::with_settings(settings).expect("valid settings");
        let bodies = build_scene(&mut world, scene, size)?;
        check_ground(&world, crate::layout::ground(scene, size))?;
        if bodies.len() != specs.len() {
            return Err(format!(
                "{scene} {size}: sandbox built {} bodies, SCENES.md says {}",
                bodies.len(),
                specs.len()
            )
            .into());
        }
        for (k, (&id, spec)) in bodies.iter().zip(specs).enumerate() {
            let pose = world.pose(id).ok_or("a scene body is missing")?;
            let shape = world.shape(id).ok_or("a scene body has no shape")?;
            let moved = (pose.translation.vector - spec.position).norm();
            let turned = pose.rotation.angle_to(&spec.rotation);
            if !(moved <= POSE_TOLERANCE && turned <= POSE_TOLERANCE && same_shape(shape, spec)) {
                return Err(format!("{scene} {size}: body {k} differs from SCENES.md").into());
            }
        }
        Ok(Self { world, bodies })
    }

    /// The mass of every dynamic body, kg, in creation order.
    pub fn masses(&self) -> Vec<f32> {
        self.bodies
            .iter()
            .map(|&b| self.world.mass_properties(b).map_or(f32::NAN, |m| m.mass))
            .collect()
    }
}

/// The ground must be the first body: fixed, the cuboid of `spec`, centred
/// where it says.
fn check_ground(world: &World, spec: GroundSpec) -> Result<(), Box<dyn Error>> {
    let ground = world.bodies().next().ok_or("the world is empty")?;
    let ok = world.kind(ground) == Some(BodyKind::Fixed)
        && world.pose(ground).is_some_and(|p| {
            (p.translation.vector - nalgebra::Vector3::new(0.0, spec.centre_y, 0.0)).norm()
                <= POSE_TOLERANCE
                && p.rotation.angle() <= POSE_TOLERANCE
        })
        && matches!(world.shape(ground), Some(Shape::Cuboid(c))
            if c.half_extents == nalgebra::Vector3::from(spec.half_extents));
    if ok { Ok(()) } else { Err("the sandbox ground differs from SCENES.md".into()) }
}

fn same_shape(shape: &Shape, spec: &BodySpec) -> bool {
    match (shape, &spec.shape) {
        (Shape::Cuboid(c), ShapeSpec::Cube) => {
            c.half_extents == nalgebra::Vector3::repeat(CUBE_HALF)
        }
        (Shape::Sphere(s), ShapeSpec::Sphere) => s.radius == SPHERE_RADIUS,
        (Shape::Capsule(c), ShapeSpec::Capsule) => {
            c.half_height == CAPSULE_HALF_HEIGHT && c.radius == CAPSULE_RADIUS
        }
        (Shape::ConvexHull(h), ShapeSpec::Hull(v)) => h.vertices() == v.as_slice(),
        _ => false,
    }
}

/// A sandbox pose in parry3d's pose type.
pub fn to_parry(pose: &nalgebra::Isometry3<f32>) -> Pose {
    let (t, q) = (pose.translation.vector, pose.rotation.quaternion());
    Pose {
        rotation: Rotation::from_xyzw(q.i, q.j, q.k, q.w),
        translation: Vector::new(t.x, t.y, t.z),
        ..Pose::IDENTITY
    }
}

impl Engine for SandboxSide {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn step(&mut self) {
        self.world.step(DT);
    }

    fn contacts(&self) -> ContactSummary {
        let friction_range = self.world.contacts().fold(EMPTY_RANGE, |r, c| widen(r, c.friction));
        let max_penetration = self.world.contacts().fold(0.0f32, |d, c| d.max(c.depth()));
        ContactSummary { max_penetration, friction_range }
    }

    fn poses(&self, out: &mut Vec<Option<Pose>>) {
        out.clear();
        out.extend(self.bodies.iter().map(|&b| self.world.pose(b).map(to_parry)));
    }

    fn awake(&self) -> usize {
        self.bodies.iter().filter(|&&b| self.world.is_awake(b) == Some(true)).count()
    }
}
