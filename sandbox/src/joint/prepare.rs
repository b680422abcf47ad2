//! The joint stage's per-step preparation (box3d's `b3PrepareJoint`):
//! for each joint with an awake body, in slot order, the solver indices of
//! its bodies, their inverse masses and world inverse inertias frozen at
//! the step's start, its frames' world rotations and anchors relative to
//! the centres of mass at the step's start, and its softness over the
//! substep. The substeps then move the anchors with each body's rotation
//! since the step began (the solver's `SolverMotion`), as box3d does.

use collide::nalgebra::{Matrix3, Point3, UnitQuaternion, Vector3};

use crate::body::BodyKind;
use crate::body::storage::Bodies;
use crate::joint::desc::{DEFAULT_JOINT_SOFTNESS, JointKind};
use crate::joint::point_batches::{PointBatches, is_point_joint};
use crate::joint::soft::Soft;
use crate::joint::storage::Joints;
use crate::solver::solver_body::SolverMass;
use crate::workers::Workers;

/// A body of a joint that the solver does not move (fixed or asleep):
/// no solver index.
pub(crate) const NO_INDEX: u32 = u32::MAX;

/// One side of a prepared joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointSide {
    /// Solver index, or [`NO_INDEX`].
    pub index: u32,
    /// Whether the joint's impulses move it (dynamic and awake).
    pub moves: bool,
    pub inv_mass: f32,
    pub inv_inertia: Matrix3<f32>,
    /// The joint frame's world rotation at the step's start (the identity
    /// where [`PreparedJoint::reads_frames`] is false: no row reads it).
    pub frame_rotation: UnitQuaternion<f32>,
    /// The anchor relative to the centre of mass, world frame, at the
    /// step's start.
    pub anchor: Vector3<f32>,
}

/// One joint as the substeps solve it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PreparedJoint {
    /// The joint's slot.
    pub slot: u32,
    pub kind: JointKind,
    /// Whether the rows read the frames' rotations (every kind but a
    /// spherical joint without limits or friction, and a distance joint):
    /// the substeps skip turning them otherwise.
    pub reads_frames: bool,
    pub a: JointSide,
    pub b: JointSide,
    /// Centre of mass of B minus that of A at the step's start.
    pub delta_center: Vector3<f32>,
    /// The inverse of the point constraint's effective-mass matrix `K`
    /// at the step's start (see `JointBodies::solve_point`), for the kinds
    /// whose anchors meet: kept for the step, as Box2D v3 keeps each
    /// contact's normal mass, instead of rebuilt and factored in every
    /// pass (most of a spherical joint's cost on joint_grid).
    pub point_mass: Matrix3<f32>,
    /// The position-correcting softness of the push pass.
    pub soft: Soft,
    /// A weld's linear and angular springs, a distance joint's spring
    /// (in `linear_spring`): used in both passes.
    pub linear_spring: Option<Soft>,
    pub angular_spring: Option<Soft>,
}

/// The joint stage's per-step arrays, kept between steps.
#[derive(Debug, Default)]
pub(crate) struct JointScratch {
    /// The slots of every joint solved this step, in order: those the
    /// break test reads.
    pub solved: Vec<u32>,
    /// The joints solved one at a time, in slot order: every kind but the
    /// point joints, and the point joints no colour was free for.
    pub prepared: Vec<PreparedJoint>,
    /// The direct solve of the trees that need it (`tree_solve.rs`).
    pub trees: crate::joint::tree_solve::TreeSolve,
    /// Every joint prepared this step, before the trees take theirs and
    /// the batches the other point joints (its length is kept between
    /// steps, and only what `solved` names is current).
    staged: Vec<PreparedJoint>,
    /// The point joints, solved in SIMD batches colour by colour (see
    /// `point_batches.rs`).
    pub points: PointBatches,
    /// The substep length of this step.
    pub h: f32,
}

/// Joints one worker prepares at a time: each takes a few tens of
/// nanoseconds (an inertia product and a 3 × 3 inverse), so a run must be
/// long for handing it out to pay.
const JOINTS_PER_CHUNK: usize = 1024;

/// Prepares the joint of slot `slot` (alive, with an awake body) for a
/// step of substeps `h`, from the solver's arrays of this step (see
/// [`JointScratch::prepare`]).
fn prepare_joint(
    slot: u32,
    joints: &Joints,
    bodies: &Bodies,
    solver_index: &[u32],
    masses: &[SolverMass],
    centers: &[Point3<f32>],
    h: f32,
) -> PreparedJoint {
    let r = &joints.records[slot as usize];
    let (ia, ib) = (r.body_a as usize, r.body_b as usize);
    let reads_frames = match r.kind {
        JointKind::Spherical => r.cone_limit.is_some() || r.twist_limits.is_some(),
        JointKind::Distance => false,
        _ => true,
    };
    let side = |i: usize, frame: &collide::nalgebra::Isometry3<f32>| {
        let pose = &bodies.poses[i];
        let record = &bodies.records[i];
        let awake = bodies.active[i];
        let index = if awake { solver_index[i] } else { NO_INDEX };
        let (inv_mass, inv_inertia, center) = if awake {
            let m = &masses[index as usize];
            (m.inv_mass, m.inv_inertia, centers[index as usize])
        } else {
            (0.0, Matrix3::zeros(), pose * record.mass.local_center)
        };
        let side = JointSide {
            index,
            moves: awake && record.kind == BodyKind::Dynamic,
            inv_mass,
            inv_inertia,
            // Left at the identity where no row reads it (joint-grid's
            // 19,701 spherical joints).
            frame_rotation: if reads_frames {
                pose.rotation * frame.rotation
            } else {
                UnitQuaternion::identity()
            },
            anchor: pose.rotation * (frame.translation.vector - record.mass.local_center.coords),
        };
        (side, center)
    };
    let (a, center_a) = side(ia, &r.frame_a);
    let (b, center_b) = side(ib, &r.frame_b);
    let spring = |s: &Option<crate::joint::desc::Softness>| {
        s.filter(|s| s.hertz > 0.0).map(|s| Soft::new(&s, h))
    };
    let (linear_spring, angular_spring) = match r.kind {
        JointKind::Weld => (spring(&r.linear_softness), spring(&r.angular_softness)),
        JointKind::Distance => (spring(&r.spring), None),
        _ => (None, None),
    };
    // K = (m_a + m_b) I - [r_a]× I_a⁻¹ [r_a]× - [r_b]× I_b⁻¹ [r_b]×;
    // a singular K (two bodies that cannot move) leaves the rows out.
    let (sa, sb) = (a.anchor.cross_matrix(), b.anchor.cross_matrix());
    let k = Matrix3::identity() * (a.inv_mass + b.inv_mass)
        - sa * a.inv_inertia * sa
        - sb * b.inv_inertia * sb;
    let point_mass = k.try_inverse().unwrap_or_else(Matrix3::zeros);
    PreparedJoint {
        slot,
        kind: r.kind,
        reads_frames,
        a,
        b,
        delta_center: center_b - center_a,
        point_mass,
        soft: Soft::capped(&r.softness.unwrap_or(DEFAULT_JOINT_SOFTNESS), h),
        linear_spring,
        angular_spring,
    }
}

impl JointScratch {
    /// Prepares every joint with an awake body for a step of substeps `h`:
    /// the point joints straight into their batches, the others into
    /// `prepared`.
    /// `solver_index`, `masses` and `centers` are the solver's arrays for
    /// this step (a body that is not awake has solver index 0, the static
    /// stand-in, and is read from `bodies`).
    ///
    /// The joints are listed in slot order on this thread, each is
    /// prepared on the workers in fixed runs (each joint reads its records
    /// and writes its own entry), then the trees and the colouring, which
    /// depend on the order, take them in order on this thread.
    // The solver's arrays are borrowed apart, as the solve holds them.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare(
        &mut self,
        joints: &Joints,
        bodies: &Bodies,
        solver_index: &[u32],
        masses: &[SolverMass],
        centers: &[Point3<f32>],
        h: f32,
        workers: &Workers,
    ) {
        self.clear();
        self.points.clear(masses.len());
        self.h = h;
        if joints.count == 0 {
            self.trees.prepare(&self.prepared, masses.len());
            return;
        }
        for (slot, r) in joints.records.iter().enumerate() {
            if r.alive && (bodies.active[r.body_a as usize] || bodies.active[r.body_b as usize]) {
                self.solved.push(slot as u32);
            }
        }
        // Every entry is written below; the array keeps its length between
        // steps, so only a grown one is filled first.
        let count = self.solved.len();
        if self.staged.len() >= count {
            self.staged.truncate(count);
        } else if let Some(&slot) = self.solved.first() {
            let blank = prepare_joint(slot, joints, bodies, solver_index, masses, centers, h);
            self.staged.resize(count, blank);
        }
        let solved = &self.solved;
        workers.for_each_run(&mut self.staged, JOINTS_PER_CHUNK, |first, run| {
            for (joint, &slot) in run.iter_mut().zip(&solved[first..]) {
                *joint = prepare_joint(slot, joints, bodies, solver_index, masses, centers, h);
            }
        });
        // The joints of directly solved trees are solved one at a time
        // (their impulses live in the records the tree solve updates); the
        // other point joints go to the batches.
        self.trees.prepare(&self.staged, masses.len());
        for (k, joint) in self.staged.iter().enumerate() {
            let r = &joints.records[joint.slot as usize];
            let tree = self.trees.solves(k);
            if tree || !(is_point_joint(joint, r) && self.points.add(joint, r)) {
                self.trees.renumber(k, self.prepared.len());
                self.prepared.push(*joint);
            }
        }
        self.trees.finish_renumbering();
    }

    /// Whether every joint of this step is a point joint in the colour
    /// batches (none is solved one at a time or in a tree), and there is
    /// at least one.
    pub fn only_points(&self) -> bool {
        self.prepared.is_empty() && self.trees.is_empty() && !self.points.is_empty()
    }

    /// Forgets the last step's joints (a step with nothing awake solves
    /// none).
    pub fn clear(&mut self) {
        self.solved.clear();
        self.prepared.clear();
        self.points.clear(0);
    }
}
