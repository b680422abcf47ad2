//! The rapier3d side: the same bodies in a `PhysicsWorld` with default
//! `IntegrationParameters` (dt 1/60 s, 4 solver iterations, sleeping on,
//! contact recycling on) and no `parallel` feature, so one thread (with
//! this crate's `rapier-parallel` feature, a pool of one thread unless
//! `set_threads` is called). Every
//! collider has its specification's density (1000, or `many-pyramids`'
//! 100), friction 0.6 and restitution 0; rapier's
//! default friction combine rule (the average) then gives 0.6 for every
//! pair, as the sandbox's geometric mean does, and `contacts` reports the
//! combined coefficient so the run can check it.

use std::error::Error;

use rapier3d::math::Pose;
use rapier3d::prelude::{
    ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle, Rotation, Vector,
};

use crate::engine::{ContactSummary, EMPTY_RANGE, Engine, widen};
use crate::layout::{
    BodySpec, CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS, COMMON_GROUND, CUBE_HALF, FRICTION, GroundSpec,
    RESTITUTION, SPHERE_RADIUS, ShapeSpec,
};

/// The rapier world of one scene.
pub struct RapierSide {
    world: PhysicsWorld,
    bodies: Vec<RigidBodyHandle>,
}

impl RapierSide {
    /// Builds the common ground, then `specs` in order; with `can_sleep`
    /// false no body ever sleeps (the sandbox's `--no-sleep`).
    pub fn build_with(specs: &[BodySpec], can_sleep: bool) -> Result<Self, Box<dyn Error>> {
        Self::build_on(COMMON_GROUND, specs, can_sleep)
    }

    /// Builds `ground`, then `specs` in order, as [`Self::build_with`] does.
    pub fn build_on(
        ground: GroundSpec,
        specs: &[BodySpec],
        can_sleep: bool,
    ) -> Result<Self, Box<dyn Error>> {
        let mut world = PhysicsWorld::new();
        let [hx, hy, hz] = ground.half_extents;
        world.insert(
            RigidBodyBuilder::fixed().translation(Vector::new(0.0, ground.centre_y, 0.0)),
            ColliderBuilder::cuboid(hx, hy, hz).friction(FRICTION).restitution(RESTITUTION),
        );
        let mut bodies = Vec::with_capacity(specs.len());
        for spec in specs {
            let collider = match &spec.shape {
                ShapeSpec::Cube => ColliderBuilder::cuboid(CUBE_HALF, CUBE_HALF, CUBE_HALF),
                ShapeSpec::Sphere => ColliderBuilder::ball(SPHERE_RADIUS),
                ShapeSpec::Capsule => {
                    ColliderBuilder::capsule_y(CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS)
                }
                ShapeSpec::Hull(vertices) => {
                    let points: Vec<Vector> =
                        vertices.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
                    ColliderBuilder::convex_hull(&points)
                        .ok_or("rapier could not hull the icosahedron")?
                }
            }
            .density(spec.density)
            .friction(FRICTION)
            .restitution(RESTITUTION);
            let (p, q) = (spec.position, spec.rotation.quaternion());
            let pose = Pose {
                rotation: Rotation::from_xyzw(q.i, q.j, q.k, q.w),
                translation: Vector::new(p.x, p.y, p.z),
                ..Pose::IDENTITY
            };
            let body = RigidBodyBuilder::dynamic().pose(pose).can_sleep(can_sleep);
            bodies.push(world.insert(body, collider).0);
        }
        let side = Self { world, bodies };
        // Built with `parallel` (the `rapier-parallel` feature of this
        // crate), rapier would use every core of the global pool: one
        // thread unless `set_threads` says otherwise.
        #[cfg(feature = "rapier-parallel")]
        let side = {
            let mut side = side;
            side.set_threads(1)?;
            side
        };
        Ok(side)
    }

    /// Runs rapier's parallel stages on a pool of `threads` threads.
    #[cfg(feature = "rapier-parallel")]
    pub fn set_threads(&mut self, threads: usize) -> Result<(), Box<dyn Error>> {
        self.world.physics_pipeline.configure_thread_pool(threads)?;
        Ok(())
    }

    /// The mass of every dynamic body, kg, in creation order.
    pub fn masses(&self) -> Vec<f32> {
        self.bodies.iter().map(|&h| self.world.bodies[h].mass()).collect()
    }

    /// The time step rapier integrates, seconds.
    pub fn dt(&self) -> f32 {
        self.world.integration_parameters.dt
    }
}

impl Engine for RapierSide {
    fn name(&self) -> &'static str {
        "rapier3d"
    }

    fn step(&mut self) {
        self.world.step();
    }

    fn contacts(&self) -> ContactSummary {
        let mut deepest = 0.0f32;
        let mut friction_range = EMPTY_RANGE;
        for pair in self.world.narrow_phase.contact_pairs() {
            for m in pair.manifolds() {
                let tracked = m.points.iter().map(|p| p.dist);
                let solver = m.data.solver_contacts.iter().map(|c| c.dist);
                for dist in tracked.chain(solver) {
                    deepest = deepest.max(-dist);
                }
                if !m.data.solver_contacts.is_empty() {
                    friction_range = widen(friction_range, m.data.friction);
                }
            }
        }
        ContactSummary { max_penetration: deepest, friction_range }
    }

    fn poses(&self, out: &mut Vec<Option<Pose>>) {
        out.clear();
        out.extend(self.bodies.iter().map(|&h| {
            let body = &self.world.bodies[h];
            body.is_enabled().then(|| *body.position())
        }));
    }

    fn awake(&self) -> usize {
        self.bodies.iter().filter(|&&h| !self.world.bodies[h].is_sleeping()).count()
    }
}
