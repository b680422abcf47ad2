//! The world's joint API: creating and removing joints, reading them for
//! drawing, and the joint events; the joint stage's calls in the step are
//! in `world.rs`.

use collide::nalgebra::{Isometry3, Translation3};

use crate::body::BodyKind;
use crate::error::WorldError;
use crate::events::JointEvent;
use crate::joint::checks::check_desc;
use crate::joint::desc::{JointDesc, JointFrames, JointId, JointKind, rotation_with_z};
use crate::joint::storage::{JointImpulses, JointRecord};
use crate::joint::view::JointView;
use crate::world::World;

/// The joint events of the last step, and those of removals since, which
/// the next step lists first.
#[derive(Debug, Default)]
pub(crate) struct JointEventLists {
    /// The last step's joint events.
    pub listed: Vec<JointEvent>,
    /// Events of removals not yet listed.
    pub pending: Vec<JointEvent>,
}

impl JointEventLists {
    /// Starts a step's list with the removals' events that waited.
    pub fn start_step(&mut self) {
        self.listed.clear();
        self.listed.append(&mut self.pending);
    }

    /// Lists the removals' events that waited.
    pub fn flush_pending(&mut self) {
        self.listed.append(&mut self.pending);
    }
}

impl World {
    /// Creates a joint and returns its handle. World anchors and axes
    /// ([`JointFrames::World`]) are resolved into each body's frame at the
    /// bodies' current poses. Both bodies wake. Unless the joint
    /// [collides connected](JointDesc::with_collide_connected), the two
    /// bodies stop colliding from the next step on.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] if either handle is stale;
    /// - [`WorldError::JointToItself`] if both handles name one body;
    /// - [`WorldError::JointWithoutDynamicBody`] if neither body is dynamic;
    /// - [`WorldError::InvalidJoint`] naming the first value that breaks
    ///   its [rule](crate::JointField::rule) (a non-finite anchor, a zero
    ///   axis, a negative friction, a NaN anywhere, ...);
    /// - [`WorldError::JointRangeReversed`] for limits whose lower end is
    ///   above the upper one.
    ///
    /// ```
    /// use sandbox::{BodyDesc, JointDesc, JointField, World, WorldError};
    /// use sandbox::collide::Sphere;
    /// use sandbox::collide::nalgebra::{Point3, Vector3};
    /// let mut world = World::new();
    /// let a = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())).unwrap();
    /// let b = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())
    ///     .with_position(Vector3::new(1.0, 0.0, 0.0))).unwrap();
    /// let hinge = JointDesc::revolute(a, b, Point3::new(0.5, 0.0, 0.0), Vector3::y());
    /// assert!(matches!(
    ///     world.create_joint(hinge.with_limits(1.0, -1.0)),
    ///     Err(WorldError::JointRangeReversed { field: JointField::Limits, .. })
    /// ));
    /// assert_eq!(world.create_joint(JointDesc::weld(a, a, Point3::origin())), Err(WorldError::JointToItself));
    /// assert!(world.create_joint(hinge).is_ok());
    /// ```
    pub fn create_joint(&mut self, desc: JointDesc) -> Result<JointId, WorldError> {
        let a = self.bodies.slot(desc.body_a)?;
        let b = self.bodies.slot(desc.body_b)?;
        if a == b {
            return Err(WorldError::JointToItself);
        }
        check_desc(&desc)?;
        let dynamic = |i: usize| self.bodies.records[i].kind == BodyKind::Dynamic;
        if !dynamic(a) && !dynamic(b) {
            return Err(WorldError::JointWithoutDynamicBody);
        }
        let (pose_a, pose_b) = (self.bodies.poses[a], self.bodies.poses[b]);
        let (frame_a, frame_b) = match desc.frames {
            JointFrames::World { anchor_a, anchor_b, axis } => {
                let rotation = rotation_with_z(&axis);
                let world_a = Isometry3::from_parts(Translation3::from(anchor_a.coords), rotation);
                let world_b = Isometry3::from_parts(Translation3::from(anchor_b.coords), rotation);
                (pose_a.inverse() * world_a, pose_b.inverse() * world_b)
            }
            JointFrames::Local { frame_a, frame_b } => (frame_a, frame_b),
        };
        let anchors_apart =
            ((pose_b * frame_b).translation.vector - (pose_a * frame_a).translation.vector).norm();
        let record = JointRecord {
            generation: 0,
            alive: true,
            kind: desc.kind,
            body_a: a as u32,
            body_b: b as u32,
            frame_a,
            frame_b,
            limits: desc.limits,
            cone_limit: desc.cone_limit,
            twist_limits: desc.twist_limits,
            motor: desc.motor,
            friction: desc.friction,
            softness: desc.softness,
            linear_softness: desc.linear_softness,
            angular_softness: desc.angular_softness,
            spring: desc.spring,
            rest_length: desc.rest_length.unwrap_or(anchors_apart),
            collide_connected: desc.collide_connected,
            break_force: desc.break_force,
            break_torque: desc.break_torque,
            impulses: JointImpulses::default(),
            force: Default::default(),
            torque: Default::default(),
        };
        let id = self.joints.insert(record);
        if !desc.collide_connected {
            self.bodies.joined.add(a as u32, b as u32);
            // The pair filter runs on shape pairs (see
            // `collision/shape_pairs.rs`), and in the broad phase, which
            // drops the pairs it kept of these two bodies by finding every
            // pair again.
            self.contacts.enable_shape_mode();
            self.broad_phase.rule_changed();
        }
        self.bodies.wake(a);
        self.bodies.wake(b);
        self.at_rest = false;
        Ok(id)
    }

    /// Removes a joint; its bodies wake (and collide again if it kept them
    /// apart).
    ///
    /// # Errors
    /// [`WorldError::UnknownJoint`] if the handle is stale.
    pub fn remove_joint(&mut self, id: JointId) -> Result<(), WorldError> {
        let slot = self.joints.slot(id).ok_or(WorldError::UnknownJoint)?;
        self.free_joint(slot);
        Ok(())
    }

    /// Frees the joint in `slot`, wakes its bodies and lets them collide.
    pub(crate) fn free_joint(&mut self, slot: usize) {
        let r = &self.joints.records[slot];
        let (a, b, collide) = (r.body_a, r.body_b, r.collide_connected);
        if !collide {
            self.bodies.joined.remove(a, b);
            // The broad phase left their pair out: it finds it again.
            self.broad_phase.rule_changed();
        }
        self.joints.free(slot);
        self.bodies.wake(a as usize);
        self.bodies.wake(b as usize);
        self.at_rest = false;
    }

    /// Removes the joints of the body in `slot`, listing a
    /// [`JointEvent::BodyRemoved`] for each (in joint slot order).
    pub(crate) fn remove_joints_of(&mut self, slot: usize) {
        if self.joints.count == 0 {
            return;
        }
        let body = self.bodies.id(slot);
        let slot = slot as u32;
        for j in 0..self.joints.records.len() {
            let r = &self.joints.records[j];
            if r.alive && (r.body_a == slot || r.body_b == slot) {
                let joint = self.joints.id(j);
                self.free_joint(j);
                self.joint_events.pending.push(JointEvent::BodyRemoved { joint, body });
            }
        }
    }

    /// Wakes the sleeping body of every joint whose other body is awake
    /// (woken this step by a touch or a call), until no joint has one
    /// side awake and the other asleep: at most one pass per island woken,
    /// and none while every joint's bodies agree.
    pub(crate) fn wake_joint_partners(&mut self) {
        if self.joints.count == 0 {
            return;
        }
        // Each pass that wakes a body wakes its whole island, so the passes
        // end within one per island (bounded by the body count).
        for _ in 0..=self.bodies.len() {
            let mut woke = false;
            for j in 0..self.joints.records.len() {
                let r = &self.joints.records[j];
                if !r.alive {
                    continue;
                }
                let (a, b) = (r.body_a as usize, r.body_b as usize);
                for (awake, other) in [(a, b), (b, a)] {
                    let body = &self.bodies.records[other];
                    let asleep = body.alive && body.kind != BodyKind::Fixed && !body.awake;
                    if self.bodies.active[awake] && asleep {
                        self.bodies.wake(other);
                        woke = true;
                    }
                }
            }
            if !woke {
                break;
            }
        }
    }

    /// Removes the joints the step's reaction broke (over their break
    /// force or torque), in slot order, listing a [`JointEvent::Broke`]
    /// for each.
    pub(crate) fn break_joints(&mut self) {
        for k in 0..self.joint_scratch.solved.len() {
            let j = self.joint_scratch.solved[k] as usize;
            let r = &self.joints.records[j];
            let (force, torque) = (r.force.norm(), r.torque.norm());
            // Written so that a NaN reaction breaks nothing.
            if r.alive && (force > r.break_force || torque > r.break_torque) {
                let event = JointEvent::Broke {
                    joint: self.joints.id(j),
                    body_a: self.bodies.id(r.body_a as usize),
                    body_b: self.bodies.id(r.body_b as usize),
                    force,
                    torque,
                };
                self.free_joint(j);
                self.joint_events.listed.push(event);
            }
        }
    }

    /// Number of live joints.
    pub fn joint_count(&self) -> usize {
        self.joints.count
    }

    /// Handles of every live joint, in slot order (the order the solver
    /// visits them in).
    pub fn joints(&self) -> impl Iterator<Item = JointId> + '_ {
        self.joints.live().map(|j| self.joints.id(j))
    }

    /// A joint as it stands: its kind, bodies, both frames in the world
    /// at the bodies' current poses, and the last step's reaction. `None`
    /// for a stale handle.
    ///
    /// ```
    /// use sandbox::{BodyDesc, JointDesc, JointKind, World};
    /// use sandbox::collide::{Cuboid, Sphere};
    /// use sandbox::collide::nalgebra::{Point3, Vector3};
    /// let mut world = World::new();
    /// let post = world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.1)).into())).unwrap();
    /// let ball = world.add_body(BodyDesc::dynamic(Sphere::new(0.1).into())
    ///     .with_position(Vector3::new(0.0, -1.0, 0.0))).unwrap();
    /// let rod = world.create_joint(JointDesc::distance(post, ball, Point3::origin(),
    ///     Point3::new(0.0, -1.0, 0.0))).unwrap();
    /// world.step(1.0 / 60.0);
    /// let view = world.joint(rod).unwrap();
    /// assert_eq!(view.kind, JointKind::Distance);
    /// assert!((view.anchor_b() - Point3::new(0.0, -1.0, 0.0)).norm() < 1e-3);
    /// // The rod holds the ball's weight: m g upwards on the ball.
    /// let weight = world.mass_properties(ball).unwrap().mass * 9.81;
    /// assert!((view.force.y - weight).abs() < 0.01 * weight, "{} {weight}", view.force.y);
    /// ```
    pub fn joint(&self, id: JointId) -> Option<JointView> {
        let j = self.joints.slot(id)?;
        let r = &self.joints.records[j];
        let (a, b) = (r.body_a as usize, r.body_b as usize);
        Some(JointView {
            id,
            kind: r.kind,
            body_a: self.bodies.id(a),
            body_b: self.bodies.id(b),
            frame_a: self.bodies.poses[a] * r.frame_a,
            frame_b: self.bodies.poses[b] * r.frame_b,
            force: r.force,
            torque: r.torque,
            collide_connected: r.collide_connected,
            limits: r.limits,
            cone_limit: r.cone_limit,
            twist_limits: r.twist_limits,
        })
    }

    /// The joint events of the last step that ran: first the joints
    /// removed with their bodies since the step before, then, in joint
    /// slot order, the joints the step broke ([`JointEvent::Broke`]), then
    /// the joints of bodies the step removed. Replaced by every step that
    /// runs.
    pub fn joint_events(&self) -> &[JointEvent] {
        &self.joint_events.listed
    }

    /// The kind of a joint, or `None` for a stale handle.
    pub fn joint_kind(&self, id: JointId) -> Option<JointKind> {
        self.joints.slot(id).map(|j| self.joints.records[j].kind)
    }
}
