//! The random input of a soak run's active phase: before each step, a few
//! of add a body (sphere, cuboid, capsule or hull; now and then fixed),
//! remove one, apply an impulse, teleport one with `set_pose`, throw one at
//! up to [`MAX_THROW_SPEED`], switch sleeping, change the substeps.
//!
//! New and teleported bodies go only where their box is clear of every
//! other body's: an overlap made by hand would be pushed apart by the
//! solver with energy nobody gave the world, which the quiet-window energy
//! check must not mistake for the solver's own. Overlaps the bodies make by
//! moving (a throw into a pile) are the solver's to resolve and are checked.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Capsule, ConvexHull, Cuboid, Shape, Sphere};

use crate::body::{BodyDesc, BodyId, BodyKind};
use crate::collision::aabb::Aabb;
use crate::settings::StepSettings;

use super::driver::Soak;

/// The fastest throw, m/s (the 500 m/s).
pub const MAX_THROW_SPEED: f32 = 500.0;

/// A throw below this speed is gentle; half of all throws are faster.
const GENTLE_SPEED: f32 = 20.0;

/// The most velocity change an impulse gives a body's centre, m/s.
const MAX_IMPULSE_SPEED: f32 = 30.0;

/// New and teleported bodies are placed with their centre this far from
/// the origin horizontally at most, metres: a pile's worth of room.
const SPREAD: f32 = 12.0;

/// And at most this high, metres.
const MAX_HEIGHT: f32 = 12.0;

/// Clearance kept between a placed body's box and any other box, metres.
const CLEARANCE: f32 = 0.05;

/// Places tried for a new or teleported body before giving up on it.
const MAX_PLACEMENT_TRIES: usize = 8;

/// Points of a random hull: 4 to this many.
const MAX_HULL_POINTS: usize = 24;

/// Largest number of inputs before one step.
const MAX_ACTIONS_PER_STEP: usize = 3;

/// Substep counts the soak switches between.
const MAX_SUBSTEPS: u32 = 8;

impl Soak {
    /// The input before one active step: up to [`MAX_ACTIONS_PER_STEP`]
    /// actions, none on about a third of the steps.
    pub(super) fn act(&mut self) {
        let count = self.rng.below(MAX_ACTIONS_PER_STEP + 2).saturating_sub(1);
        for _ in 0..count {
            let roll = self.rng.next();
            match roll {
                r if r < 0.35 => self.add_random_body(),
                r if r < 0.50 => self.remove_random_body(),
                r if r < 0.68 => self.apply_random_impulse(),
                r if r < 0.80 => self.teleport_random_body(),
                r if r < 0.96 => self.throw_random_body(),
                r if r < 0.98 => self.switch_sleeping(),
                _ => self.change_substeps(),
            }
        }
    }

    fn add_random_body(&mut self) {
        if self.world.body_count() >= self.config.max_bodies {
            self.remove_random_body();
            return;
        }
        let shape = self.random_shape();
        let fixed = self.rng.chance(0.08);
        let Some(pose) = self.clear_pose(&shape, None) else {
            return;
        };
        let mut desc = if fixed { BodyDesc::fixed(shape) } else { BodyDesc::dynamic(shape) };
        desc.pose = pose;
        let only = &mut desc.shapes[0];
        only.density = self.rng.range(0.3, 3.0);
        only.friction = self.rng.range(0.0, 1.0);
        only.restitution = if self.rng.chance(0.7) { 0.0 } else { self.rng.range(0.0, 0.9) };
        let speed = if fixed { 0.0 } else { self.random_speed() };
        desc.linear_velocity = self.random_direction() * speed;
        match self.world.add_body(desc) {
            Ok(id) => {
                self.live.push(id);
                self.expected_bodies += 1;
                self.report.bodies_added += 1;
                self.report.fixed_added += u64::from(fixed);
                self.count_throw(speed);
            }
            Err(_) => self.report.adds_refused += 1,
        }
    }

    fn remove_random_body(&mut self) {
        if self.live.is_empty() {
            return;
        }
        let id = self.live.swap_remove(self.rng.below(self.live.len()));
        if self.world.remove_body(id).is_ok() {
            self.expected_bodies -= 1;
            self.report.bodies_removed += 1;
        }
    }

    /// A live dynamic body, if there is one (a few draws, then none).
    fn random_dynamic(&mut self) -> Option<BodyId> {
        for _ in 0..4 {
            if self.live.is_empty() {
                return None;
            }
            let id = self.live[self.rng.below(self.live.len())];
            if self.world.kind(id) == Some(BodyKind::Dynamic) {
                return Some(id);
            }
        }
        None
    }

    fn apply_random_impulse(&mut self) {
        let Some(id) = self.random_dynamic() else { return };
        let (Some(mass), Some(pose)) =
            (self.world.mass_properties(id).map(|m| m.mass), self.world.pose(id).copied())
        else {
            return;
        };
        let impulse = self.random_direction() * mass * self.rng.range(0.0, MAX_IMPULSE_SPEED);
        // A point near the body, so the impulse also spins it.
        let point = pose * Point3::from(self.random_direction() * self.rng.range(0.0, 0.5));
        if self.world.apply_impulse(id, impulse, point).is_ok() {
            self.report.impulses += 1;
            self.touched(id);
        }
    }

    fn teleport_random_body(&mut self) {
        let Some(id) = self.random_dynamic() else { return };
        let Some(shape) = self.world.shape(id).cloned() else { return };
        let Some(pose) = self.clear_pose(&shape, Some(id)) else { return };
        if self.world.set_pose(id, pose).is_ok() {
            self.report.teleports += 1;
            self.touched(id);
        }
    }

    fn throw_random_body(&mut self) {
        let Some(id) = self.random_dynamic() else { return };
        let speed = self.random_speed();
        let v = self.random_direction() * speed;
        if self.world.set_linear_velocity(id, v).is_ok() {
            self.count_throw(speed);
            self.touched(id);
        }
    }

    fn switch_sleeping(&mut self) {
        let s = *self.world.settings();
        if self.world.set_settings(StepSettings { sleep_enabled: !s.sleep_enabled, ..s }).is_ok() {
            self.report.sleep_switches += 1;
        }
    }

    fn change_substeps(&mut self) {
        let s = *self.world.settings();
        let substeps = 1 + self.rng.below(MAX_SUBSTEPS as usize) as u32;
        if self.world.set_settings(StepSettings { substeps, ..s }).is_ok() {
            self.report.substep_changes += 1;
        }
    }

    fn touched(&mut self, id: BodyId) {
        if self.touched.insert(id) {
            self.report.bodies_touched += 1;
        }
    }

    fn count_throw(&mut self, speed: f32) {
        if speed > GENTLE_SPEED {
            self.report.throws += 1;
            self.report.fastest_throw = self.report.fastest_throw.max(speed);
        }
    }

    /// Half gentle (up to [`GENTLE_SPEED`]), half up to [`MAX_THROW_SPEED`].
    fn random_speed(&mut self) -> f32 {
        if self.rng.chance(0.5) {
            self.rng.range(0.0, GENTLE_SPEED)
        } else {
            self.rng.range(GENTLE_SPEED, MAX_THROW_SPEED)
        }
    }

    /// A unit vector, uniform on the sphere (Archimedes: uniform height and
    /// angle).
    fn random_direction(&mut self) -> Vector3<f32> {
        let z = self.rng.range(-1.0, 1.0);
        let angle = self.rng.range(0.0, std::f32::consts::TAU);
        let r = (1.0 - z * z).max(0.0).sqrt();
        Vector3::new(r * angle.cos(), z, r * angle.sin())
    }

    fn random_rotation(&mut self) -> UnitQuaternion<f32> {
        let axis = self.random_direction();
        UnitQuaternion::from_scaled_axis(axis * self.rng.range(0.0, std::f32::consts::PI))
    }

    /// A sphere, cuboid (thin plates included), capsule or hull, from 5 cm
    /// to 2 m across.
    fn random_shape(&mut self) -> Shape {
        let size = |rng: &mut crate::rng::Lcg| rng.range(0.025, 1.0);
        match self.rng.below(4) {
            0 => Sphere::new(size(&mut self.rng)).into(),
            1 => {
                let half =
                    Vector3::new(size(&mut self.rng), size(&mut self.rng), size(&mut self.rng));
                Cuboid::new(half).into()
            }
            2 => Capsule::new(size(&mut self.rng), size(&mut self.rng).min(0.5)).into(),
            _ => {
                let half =
                    Vector3::new(size(&mut self.rng), size(&mut self.rng), size(&mut self.rng));
                let n = 4 + self.rng.below(MAX_HULL_POINTS - 3);
                let points: Vec<Point3<f32>> = (0..n)
                    .map(|_| {
                        let d = self.random_direction();
                        Point3::from(d.component_mul(&half))
                    })
                    .collect();
                match ConvexHull::new(&points) {
                    // A flat hull has no volume, so it cannot be dynamic;
                    // a box of the same size stands in.
                    Ok(hull) if !hull.is_flat() => hull.into(),
                    _ => Cuboid::new(half).into(),
                }
            }
        }
    }

    /// A pose above the ground whose box is clear of every body but
    /// `ignore`, or `None` after [`MAX_PLACEMENT_TRIES`].
    fn clear_pose(&mut self, shape: &Shape, ignore: Option<BodyId>) -> Option<Isometry3<f32>> {
        let mut found = Vec::new();
        for _ in 0..MAX_PLACEMENT_TRIES {
            let rotation = self.random_rotation();
            let at_origin = Isometry3::from_parts(Translation3::identity(), rotation);
            let local = Aabb::of_shape(shape, &at_origin);
            let x = self.rng.range(-SPREAD, SPREAD);
            let z = self.rng.range(-SPREAD, SPREAD);
            // Lowest point at least the clearance above the ground's top.
            let y = CLEARANCE - local.min.y + self.rng.range(0.0, MAX_HEIGHT);
            let pose = Isometry3::from_parts(Translation3::new(x, y, z), rotation);
            found.clear();
            self.world.query_aabb(&Aabb::of_shape(shape, &pose).expanded(CLEARANCE), &mut found);
            if found.iter().all(|&b| b == self.ground || Some(b) == ignore) {
                return Some(pose);
            }
        }
        None
    }
}
