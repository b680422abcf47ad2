//! The joint stage inside the soft step's substeps (box3d's
//! `b3WarmStartJoint`, `b3SolveJoint` with and without bias, and the
//! reactions its `b3GetJointForce` reads), after the contact sweeps of
//! the same pass: first the point joints in SIMD batches, colour by
//! colour, each colour's batches shared among the workers
//! (`point_batches.rs`), then every other prepared joint one after the
//! other in slot order, on the calling thread. The colouring and the
//! order depend on the joints alone, so the joints give bitwise the same
//! results for any number of threads.

use collide::nalgebra::Vector3;

use crate::joint::desc::JointKind;
use crate::joint::point_batches::PointPass;
use crate::joint::prepare::JointScratch;
use crate::joint::rows::{JointBodies, Pass};
use crate::joint::soft::Soft;
use crate::joint::storage::Joints;
use crate::joint::{distance, prismatic, revolute, spherical, weld};
use crate::solver::solver_body::{SolverBody, SolverMotion};
use crate::workers::Workers;

impl JointScratch {
    /// Applies each joint's impulses of the last substep (the warm start).
    pub fn warm_start(
        &mut self,
        joints: &mut Joints,
        bodies: &mut [SolverBody],
        motions: &[SolverMotion],
        workers: &Workers,
    ) {
        if !self.points.is_empty() {
            self.points.warm_start(bodies, motions, workers);
        }
        for j in &self.prepared {
            let r = &joints.records[j.slot as usize];
            let mut s = JointBodies::read(j, bodies, motions);
            match j.kind {
                JointKind::Spherical => spherical::warm_start(j, r, &mut s),
                JointKind::Revolute => revolute::warm_start(j, r, &mut s),
                JointKind::Prismatic => prismatic::warm_start(j, r, &mut s),
                JointKind::Weld => weld::warm_start(j, r, &mut s),
                JointKind::Distance => distance::warm_start(j, r, &mut s),
            }
            s.write(j, bodies);
        }
    }

    /// One sweep of every joint's rows: the push pass (`use_bias`, position
    /// errors corrected with each joint's softness) or the relax pass
    /// (velocities held rigidly).
    pub fn solve(
        &mut self,
        joints: &mut Joints,
        bodies: &mut [SolverBody],
        motions: &[SolverMotion],
        use_bias: bool,
        workers: &Workers,
    ) {
        if !self.points.is_empty() {
            let pass = if use_bias { PointPass::Push } else { PointPass::Relax };
            self.points.solve(bodies, motions, pass, workers);
        }
        let h = self.h;
        for j in &self.prepared {
            let r = &mut joints.records[j.slot as usize];
            let pass = Pass {
                soft: if use_bias { j.soft } else { Soft::RIGID },
                use_bias,
                inv_h: 1.0 / h,
            };
            let mut s = JointBodies::read(j, bodies, motions);
            match j.kind {
                JointKind::Spherical => spherical::solve(j, r, &mut s, &pass, h),
                JointKind::Revolute => revolute::solve(j, r, &mut s, &pass, h),
                JointKind::Prismatic => prismatic::solve(j, r, &mut s, &pass, h),
                JointKind::Weld => weld::solve(j, r, &mut s, &pass),
                JointKind::Distance => distance::solve(j, r, &mut s, &pass),
            }
            s.write(j, bodies);
        }
        if !self.trees.is_empty() {
            self.trees.solve(&self.prepared, joints, bodies, motions, use_bias);
        }
    }

    /// Stores each solved joint's reaction on body B (the last substep's
    /// impulses over the substep), which the break test and
    /// [`World::joint`](crate::World::joint) read.
    pub fn store_reactions(
        &self,
        joints: &mut Joints,
        bodies: &[SolverBody],
        motions: &[SolverMotion],
    ) {
        self.points.store_impulses(joints, self.h);
        let inv_h = 1.0 / self.h;
        for j in &self.prepared {
            let r = &mut joints.records[j.slot as usize];
            let s = JointBodies::read(j, bodies, motions);
            let (impulse, angular): (Vector3<f32>, Vector3<f32>) = match j.kind {
                JointKind::Spherical => spherical::reaction(r, &s),
                JointKind::Revolute => revolute::reaction(r, &s),
                JointKind::Prismatic => prismatic::reaction(r, &s),
                JointKind::Weld => weld::reaction(r),
                JointKind::Distance => distance::reaction(r, &s),
            };
            r.force = impulse * inv_h;
            r.torque = angular * inv_h;
        }
    }
}
