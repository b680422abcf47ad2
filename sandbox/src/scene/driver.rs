//! The scene driver: what a scene does to its world before each step, so
//! that every user of a scene (`sandbox bench`, the app, its screenshots
//! and recordings, the tests) runs it the same way. Most scenes do
//! nothing; `junkyard` moves its pusher to the next target pose
//! (`World::set_target_pose`), and `large-world` drops its spheres. The
//! steps are counted as box3d's `benchmark` app counts them (its scene's
//! step function is called with the step index, from 0, before that step).

use collide::nalgebra::{Isometry3, Vector3};
use collide::{Shape, Sphere};

use crate::body::{BodyDesc, BodyId};
use crate::error::WorldError;
use crate::world::World;

/// What a scene does before each step, and the steps it has been called
/// for. Built with the scene (see [`build_scene_with_driver`]); call
/// [`before_step`](Self::before_step) before every
/// [`World::step`](crate::World::step).
///
/// [`build_scene_with_driver`]: crate::build_scene_with_driver
///
/// ```
/// use sandbox::{Scene, World, build_scene_with_driver};
/// let mut world = World::new();
/// let (mut bodies, mut driver) =
///     build_scene_with_driver(&mut world, Scene::LargeWorld, 8).unwrap();
/// for _ in 0..11 {
///     driver.before_step(&mut world, 1.0 / 60.0, &mut bodies).unwrap();
///     world.step(1.0 / 60.0);
/// }
/// // Spheres are dropped before steps 5 and 10.
/// assert_eq!(bodies.len(), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct SceneDriver {
    action: Action,
    /// The index of the next step, from 0.
    step: u64,
}

/// What the driver does.
#[derive(Clone, Debug, Default)]
enum Action {
    /// Nothing: most scenes.
    #[default]
    Nothing,
    /// `junkyard`'s pusher, turned about the y axis at
    /// [`PUSHER_DEGREES_PER_SECOND`] on a circle of `radius`.
    Pusher { body: BodyId, radius: f32, degrees: f32 },
    /// `large-world`'s spheres, dropped over a floor of half-span
    /// `half_span`; `dropped` so far.
    DropSpheres { half_span: f32, dropped: usize },
}

/// `junkyard`'s pusher turns this fast about the y axis (box3d's ω, −6°/s).
pub(crate) const PUSHER_DEGREES_PER_SECOND: f32 = -6.0;

/// `large-world` drops a sphere every this many steps, from this step on.
pub(crate) const DROP_INTERVAL: u64 = 5;

/// `large-world` drops this many spheres in all.
pub(crate) const DROPPED_SPHERES: usize = 100;

/// Radius of `large-world`'s spheres, metres.
const DROPPED_SPHERE_RADIUS: f32 = 0.5;

/// Height their centres are dropped from, metres.
const DROP_HEIGHT: f32 = 1.5;

/// Density of the spheres: box3d's default, 1 kg/m³.
const DROPPED_SPHERE_DENSITY: f32 = 1.0;

impl SceneDriver {
    /// A driver that does nothing.
    pub fn nothing() -> Self {
        Self::default()
    }

    /// `junkyard`'s: before step n it sets the pusher's target pose on its
    /// circle of `radius` at −0.1° · (n + 1).
    pub(crate) fn pusher(body: BodyId, radius: f32) -> Self {
        Self { action: Action::Pusher { body, radius, degrees: 0.0 }, step: 0 }
    }

    /// `large-world`'s: drops its spheres over a floor of half-span
    /// `half_span`.
    pub(crate) fn drop_spheres(half_span: f32) -> Self {
        Self { action: Action::DropSpheres { half_span, dropped: 0 }, step: 0 }
    }

    /// Whether the driver does anything at all.
    pub fn is_active(&self) -> bool {
        !matches!(self.action, Action::Nothing)
    }

    /// The steps the driver has been called for.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// Does what the scene does before the next step of `dt`: moves the
    /// pusher, or drops a sphere (whose handle is pushed onto `added`, the
    /// caller's list of dynamic bodies).
    ///
    /// # Errors
    /// What the world refuses (a removed pusher, for instance); the step
    /// count still advances, so the scene goes on from the next step.
    pub fn before_step(
        &mut self,
        world: &mut World,
        dt: f32,
        added: &mut Vec<BodyId>,
    ) -> Result<(), WorldError> {
        let step = self.step;
        self.step += 1;
        match &mut self.action {
            Action::Nothing => Ok(()),
            Action::Pusher { body, radius, degrees } => {
                // box3d adds up the angle step by step, in f32.
                *degrees += PUSHER_DEGREES_PER_SECOND * dt;
                let angle = degrees.to_radians();
                let target = Vector3::new(*radius * angle.cos(), 0.0, *radius * angle.sin());
                world.set_target_pose(*body, Isometry3::translation(target.x, 0.0, target.z), dt)
            }
            Action::DropSpheres { half_span, dropped } => {
                if *dropped >= DROPPED_SPHERES || step == 0 || !step.is_multiple_of(DROP_INTERVAL) {
                    return Ok(());
                }
                let p = drop_position(*half_span, *dropped);
                let shape: Shape = Sphere::new(DROPPED_SPHERE_RADIUS).into();
                let desc =
                    BodyDesc::dynamic(shape).with_density(DROPPED_SPHERE_DENSITY).with_position(p);
                added.push(world.add_body(desc)?);
                *dropped += 1;
                Ok(())
            }
        }
    }
}

/// Where `large-world` drops sphere `n`: on a 10 × 10 grid over the inner
/// 80 % of the floor, computed in box3d's order of f32 operations.
pub(crate) fn drop_position(half_span: f32, n: usize) -> Vector3<f32> {
    /// Spheres along each side of the grid: the least whose square holds
    /// them all.
    const SIDE: usize = 10;
    const _: () = assert!(SIDE * SIDE >= DROPPED_SPHERES);
    let (gi, gj) = (n % SIDE, n / SIDE);
    let inset = 0.1 * 2.0 * half_span;
    let usable = 2.0 * half_span - 2.0 * inset;
    let cell = usable / SIDE as f32;
    let x = -half_span + inset + (gi as f32 + 0.5) * cell;
    let z = -half_span + inset + (gj as f32 + 0.5) * cell;
    Vector3::new(x, DROP_HEIGHT, z)
}
