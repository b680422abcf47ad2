//! The world's joints, by slot: each joint's resolved frames and
//! parameters, the impulses it keeps for warm starting from step to step,
//! and its last reaction. Slots are reused with a new generation, as
//! bodies' are, and the solver visits live joints in slot order.

use collide::nalgebra::{Isometry3, Vector3};

use crate::joint::desc::{JointId, JointKind, Motor, Softness};

/// The impulses a joint applied in the last substep, one per row, which
/// warm start the next substep and step (Box2D v3 keeps them the same
/// way: each substep starts from the previous substep's total).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct JointImpulses {
    /// The point constraint (spherical, revolute, weld; a prismatic
    /// joint's two rows across its axis, as x and y), N·s, world frame.
    pub linear: Vector3<f32>,
    /// The angular lock (weld, prismatic: three rows; revolute: the two
    /// rows keeping the axes aligned, as x and y), N·m·s.
    pub angular: Vector3<f32>,
    /// The lower limit's row (≥ 0).
    pub lower: f32,
    /// The upper limit's row (≥ 0).
    pub upper: f32,
    /// The motor's row, within ± max force · h.
    pub motor: f32,
    /// The friction rows (one for revolute and prismatic joints, three for
    /// spherical ones), within ± friction · h.
    pub friction: Vector3<f32>,
    /// A distance joint's spring or rod row.
    pub spring: f32,
    /// A spherical joint's cone limit row (≥ 0).
    pub cone: f32,
    /// A spherical joint's twist limit rows (≥ 0).
    pub twist_lower: f32,
    /// See `twist_lower`.
    pub twist_upper: f32,
}

/// One joint as the world keeps it.
#[derive(Clone, Debug)]
pub(crate) struct JointRecord {
    pub generation: u32,
    pub alive: bool,
    pub kind: JointKind,
    /// The bodies' slots.
    pub body_a: u32,
    pub body_b: u32,
    /// Each body's joint frame, in the body's frame.
    pub frame_a: Isometry3<f32>,
    pub frame_b: Isometry3<f32>,
    pub limits: Option<(f32, f32)>,
    pub cone_limit: Option<f32>,
    pub twist_limits: Option<(f32, f32)>,
    pub motor: Option<Motor>,
    pub friction: f32,
    pub softness: Option<Softness>,
    pub linear_softness: Option<Softness>,
    pub angular_softness: Option<Softness>,
    pub spring: Option<Softness>,
    /// A distance joint's rest length, m.
    pub rest_length: f32,
    pub collide_connected: bool,
    pub break_force: f32,
    pub break_torque: f32,
    pub impulses: JointImpulses,
    /// The last step's reaction force on body B, N, world frame.
    pub force: Vector3<f32>,
    /// The last step's reaction torque on body B, N·m, world frame.
    pub torque: Vector3<f32>,
}

/// Every joint of a world, by slot.
#[derive(Debug, Default)]
pub(crate) struct Joints {
    pub records: Vec<JointRecord>,
    free_slots: Vec<u32>,
    /// Live joints.
    pub count: usize,
}

impl Joints {
    /// Stores `record` in a free slot or a new one and returns its handle.
    pub fn insert(&mut self, mut record: JointRecord) -> JointId {
        record.alive = true;
        if let Some(slot) = self.free_slots.pop() {
            let old = &self.records[slot as usize];
            record.generation = old.generation.wrapping_add(1);
            self.records[slot as usize] = record;
            self.count += 1;
            JointId { index: slot, generation: self.records[slot as usize].generation }
        } else {
            record.generation = 0;
            self.records.push(record);
            self.count += 1;
            JointId { index: self.records.len() as u32 - 1, generation: 0 }
        }
    }

    /// The slot `id` names, if it names a live joint.
    pub fn slot(&self, id: JointId) -> Option<usize> {
        match self.records.get(id.index as usize) {
            Some(r) if r.alive && r.generation == id.generation => Some(id.index as usize),
            _ => None,
        }
    }

    /// The handle of the joint in `slot`.
    pub fn id(&self, slot: usize) -> JointId {
        JointId { index: slot as u32, generation: self.records[slot].generation }
    }

    /// Frees the slot of a live joint.
    pub fn free(&mut self, slot: usize) {
        let r = &mut self.records[slot];
        if r.alive {
            r.alive = false;
            self.count -= 1;
            self.free_slots.push(slot as u32);
        }
    }

    /// The live joints' slots, in order.
    pub fn live(&self) -> impl Iterator<Item = usize> + '_ {
        self.records.iter().enumerate().filter(|(_, r)| r.alive).map(|(i, _)| i)
    }
}
