//! A direct solve of the point rows of joints whose graph is a tree
//! (chains, ropes, ragdoll limbs, a bridge's planks hung from one post):
//! Baraff's linear-time method ("Linear-time dynamics using Lagrange
//! multipliers", SIGGRAPH 1996). A sweep of single joints cannot hold a
//! light link between a fixed pivot and a heavy body: each joint sees only
//! its two bodies' masses, so a 1,000:1 chain needs thousands of sweeps,
//! and a soft joint sags by `force / (m_eff ω²)` with the light link's
//! effective mass. Solved together, every row gets the whole tree's
//! effective mass and the velocity error of all of them is removed at once.
//!
//! The method: the system `[M Jᵀ; J 0] [y; λ] = [0; b]`, one node per body
//! (its 6 × 6 mass `M`) and per joint (its three point rows, diagonal 0),
//! the blocks `J` the edges between a joint and its bodies, is a tree when
//! the joints' graph is one (fixed bodies are not nodes, so a chain hung
//! from the ground stays a tree). Ordered children first, its block `LDLᵀ`
//! factorisation makes no fill: `D_i = H_ii - Σ_children B_cᵀ D_c⁻¹ B_c`.
//! Then one forward and one backward pass give `λ = -(J M⁻¹ Jᵀ)⁻¹ b`.
//!
//! Departures from Baraff:
//! - The factorisation and the sweeps run in f64: a link's pivot mixes its
//!   spin about its own axis (inertia ~1e-3 kg·m²) with the heavy end's
//!   mass carried up the chain (~1e3 kg and 1e3 kg·m of coupling), six
//!   orders apart, which f32 rounding turns into a wrong spin pivot.
//! - The trees are found once per step; each pass factors them at the
//!   anchors of that moment (see `refresh_jacobians`) with the inertias of
//!   the step's start, as the rows apply their impulses, then runs the two
//!   sweeps with the residuals of that moment.
//! - The soft step's rows keep their softness: with the tree's exact
//!   `A = J M⁻¹ Jᵀ`, the soft row's update `Δλ = -s_m A⁻¹ (J v + β C) -
//!   s_i λ` (`rows.rs`, `soft.rs`) is the exact soft solution from the
//!   velocities of that moment, so it is applied once, after the joint
//!   sweep, which still runs every row (limits, motors, the angular rows)
//!   with its own small effective mass.
//! - A leaf joint would have a zero pivot, so a tree holds at most one
//!   joint to a fixed body (its root); a second one, and a joint closing a
//!   loop, stay with the sweep alone.
//! - It runs only on trees that need it: those holding a joint whose two
//!   bodies' masses differ by [`MIN_DIRECT_MASS_RATIO`] or more. Elsewhere
//!   (joint_grid's equal spheres) the sweep converges well enough and the
//!   step pays only the ratio test.

use collide::nalgebra::{Matrix3, Matrix3x6, Matrix6, Vector3, Vector6};

use crate::joint::desc::JointKind;
use crate::joint::prepare::{JointSide, PreparedJoint};
use crate::joint::rows::JointBodies;
use crate::joint::soft::Soft;
use crate::joint::storage::Joints;
use crate::solver::solver_body::{SolverBody, SolverMotion};

/// The mass ratio across one joint from which its tree is solved directly.
/// A soft joint's sag grows with the load over the light side's effective
/// mass: the sweep alone stretches issue 40's chain 63 % at 1,000:1, so
/// (estimated, linearly) about 0.6 % at 10:1, under the 1 % the issue
/// allows; above it the direct solve is needed. Ragdolls' parts exceed it
/// (their step costs about 2.2 times the sweep's with it, see the commit).
pub(crate) const MIN_DIRECT_MASS_RATIO: f32 = 10.0;

/// No node: a root's parent, a body not in a tree.
const NONE: u32 = u32::MAX;

/// What a node of the tree stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum NodeKind {
    /// A moving body, by solver index.
    Body(u32),
    /// A joint's point rows, by index into the prepared joints.
    Joint(u32),
}

/// One node of a tree, in elimination order (children before parents).
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: NodeKind,
    /// The parent node, or [`NONE`] for a root.
    parent: u32,
    /// The edge to the parent: the joint (index into the prepared joints)
    /// and whether the body is its side B.
    edge: (u32, bool),
    /// The edge's 3 × 6 Jacobian block, the joint's on the body (whichever
    /// of the node and its parent is the joint), at the anchors of the pass.
    jacobian: Matrix3x6<f64>,
    /// The inverse of the pivot `D`: 6 × 6 for a body; a joint's 3 × 3 in
    /// the top-left corner.
    d_inv: Matrix6<f64>,
}

/// The direct solve's arrays, kept between steps (no allocation once they
/// have grown to the scene).
#[derive(Debug, Default)]
pub(crate) struct TreeSolve {
    /// Every tree's nodes, children before parents; the trees one after the
    /// other.
    nodes: Vec<Node>,
    /// The forward sweep's vectors, one per node (a joint's in the first
    /// three entries).
    z: Vec<Vector6<f64>>,
    /// Union-find over solver indices: parent, or itself at a root.
    set_parent: Vec<u32>,
    /// Per union-find root: whether its tree holds a joint to a fixed body,
    /// and whether it holds a joint of high mass ratio.
    set_grounded: Vec<bool>,
    set_heavy: Vec<bool>,
    /// Per prepared joint: whether it is an edge of the forest.
    in_forest: Vec<bool>,
    /// Per prepared joint of a tree: its index in the passes' list.
    renumbered: Vec<u32>,
    /// The forest's joints by body (compressed rows over solver indices).
    body_start: Vec<u32>,
    body_joints: Vec<u32>,
    /// The next free entry of each body's row while filling them.
    fill: Vec<u32>,
    /// Per solver index: whether it has been put in a tree.
    placed: Vec<bool>,
    /// The depth-first stack: (node kind, parent's pre-order position).
    stack: Vec<(NodeKind, u32)>,
    /// Pre-order of the tree being built.
    pre: Vec<(NodeKind, u32)>,
}

/// Whether the joint's point rows are the pass's rows (`solve_point` with
/// the joint's softness): spherical and revolute joints, and welds without
/// a linear spring of their own. A prismatic joint's two rows and a
/// distance joint's one are left to the sweep.
fn has_point_rows(j: &PreparedJoint) -> bool {
    match j.kind {
        JointKind::Spherical | JointKind::Revolute => true,
        JointKind::Weld => j.linear_spring.is_none(),
        JointKind::Prismatic | JointKind::Distance => false,
    }
}

/// Whether a joint side is moved by impulses (dynamic, awake, finite mass).
fn moving(side: &JointSide) -> bool {
    side.moves && side.inv_mass > 0.0
}

/// The point rows' Jacobian block on one side, for the anchor `r` (centre
/// of mass to anchor): `[±I, ∓[r]×]`, + for B.
fn point_jacobian(r: &Vector3<f32>, sign: f64) -> Matrix3x6<f64> {
    let mut jac = Matrix3x6::zeros();
    jac.fixed_view_mut::<3, 3>(0, 0).copy_from(&(Matrix3::identity() * sign));
    jac.fixed_view_mut::<3, 3>(0, 3).copy_from(&(r.cast::<f64>().cross_matrix() * -sign));
    jac
}

impl TreeSolve {
    /// Whether any tree is solved directly this step.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether prepared joint `k` is in a tree solved this step (found by
    /// the last [`TreeSolve::prepare`]).
    pub fn solves(&self, k: usize) -> bool {
        !self.nodes.is_empty() && self.in_forest.get(k).copied().unwrap_or(false)
    }

    /// Records that prepared joint `k` of the list [`TreeSolve::prepare`]
    /// read is at `index` in the list the passes are given.
    pub fn renumber(&mut self, k: usize, index: usize) {
        if self.solves(k) {
            self.renumbered[k] = index as u32;
        }
    }

    /// Moves the trees' joints to their indices given by
    /// [`TreeSolve::renumber`].
    pub fn finish_renumbering(&mut self) {
        for node in &mut self.nodes {
            if let NodeKind::Joint(i) = &mut node.kind {
                *i = self.renumbered[*i as usize];
            }
            if node.parent != NONE {
                node.edge.0 = self.renumbered[node.edge.0 as usize];
            }
        }
    }

    /// Finds this step's trees among the prepared joints (`body_count`
    /// solver bodies); each pass factors them.
    pub fn prepare(&mut self, prepared: &[PreparedJoint], body_count: usize) {
        self.nodes.clear();
        self.in_forest.clear();
        self.renumbered.clear();
        self.renumbered.resize(prepared.len(), NONE);
        // Most steps have no joint of a high mass ratio: one pass decides.
        let heavy = |j: &PreparedJoint| {
            moving(&j.a)
                && moving(&j.b)
                && j.a.inv_mass.max(j.b.inv_mass)
                    >= MIN_DIRECT_MASS_RATIO * j.a.inv_mass.min(j.b.inv_mass)
        };
        if !prepared.iter().any(|j| has_point_rows(j) && heavy(j)) {
            return;
        }
        self.find_forest(prepared, body_count, heavy);
        self.build_trees(prepared, body_count);
        self.z.clear();
        self.z.resize(self.nodes.len(), Vector6::zeros());
    }

    /// Each edge's Jacobian at the anchors of this pass (moved by the
    /// bodies' turns since the step began), the same anchors the impulses
    /// are applied at: at 1,000:1 the solve's impulses are sized for the
    /// heavy end, so a lever a per cent off the one they are applied with
    /// throws a light link by ten times the error, and the chain diverges
    /// within a second of swinging.
    fn refresh_jacobians(
        &mut self,
        prepared: &[PreparedJoint],
        bodies: &[SolverBody],
        motions: &[SolverMotion],
    ) {
        for node in &mut self.nodes {
            if node.parent == NONE {
                continue;
            }
            let (joint, on_b) = node.edge;
            let s = JointBodies::read(&prepared[joint as usize], bodies, motions);
            node.jacobian =
                if on_b { point_jacobian(&s.rb, 1.0) } else { point_jacobian(&s.ra, -1.0) };
        }
    }

    /// The union-find root of solver body `i`, halving the path.
    fn find(&mut self, mut i: u32) -> u32 {
        while self.set_parent[i as usize] != i {
            let up = self.set_parent[self.set_parent[i as usize] as usize];
            self.set_parent[i as usize] = up;
            i = up;
        }
        i
    }

    /// Marks the joints that make a forest, in slot order: each one joins
    /// two trees, or grounds a tree not yet grounded. Distance joints (one
    /// row, not three) and prismatic ones are left to the sweep
    /// ([`has_point_rows`]).
    fn find_forest(
        &mut self,
        prepared: &[PreparedJoint],
        body_count: usize,
        heavy: impl Fn(&PreparedJoint) -> bool,
    ) {
        self.set_parent.clear();
        self.set_parent.extend(0..body_count as u32);
        self.set_grounded.clear();
        self.set_grounded.resize(body_count, false);
        self.set_heavy.clear();
        self.set_heavy.resize(body_count, false);
        self.in_forest.clear();
        self.in_forest.resize(prepared.len(), false);
        for (k, j) in prepared.iter().enumerate() {
            if !has_point_rows(j) {
                continue;
            }
            let (ma, mb) = (moving(&j.a), moving(&j.b));
            let edge = match (ma, mb) {
                (true, true) => {
                    let (ra, rb) = (self.find(j.a.index), self.find(j.b.index));
                    let (ga, gb) = (self.set_grounded[ra as usize], self.set_grounded[rb as usize]);
                    if ra == rb || (ga && gb) {
                        false
                    } else {
                        self.set_parent[rb as usize] = ra;
                        self.set_grounded[ra as usize] = ga || gb;
                        let h = self.set_heavy[ra as usize] || self.set_heavy[rb as usize];
                        self.set_heavy[ra as usize] = h || heavy(j);
                        true
                    }
                }
                (true, false) | (false, true) => {
                    let index = if ma { j.a.index } else { j.b.index };
                    let root = self.find(index);
                    let grounded = &mut self.set_grounded[root as usize];
                    !std::mem::replace(grounded, true)
                }
                (false, false) => false,
            };
            self.in_forest[k] = edge;
        }
    }

    /// The moving bodies of prepared joint `k`.
    fn bodies_of(j: &PreparedJoint) -> [Option<u32>; 2] {
        [moving(&j.a).then_some(j.a.index), moving(&j.b).then_some(j.b.index)]
    }

    /// Lays out the heavy trees' nodes, children before parents, with their
    /// Jacobian edges. A grounded tree is rooted at its joint to a fixed
    /// body, another at its first body.
    fn build_trees(&mut self, prepared: &[PreparedJoint], body_count: usize) {
        // The forest's joints of heavy trees, by body.
        for (k, j) in prepared.iter().enumerate() {
            if self.in_forest[k] {
                let body = Self::bodies_of(j).into_iter().flatten().next();
                let root = body.map(|b| self.find(b));
                self.in_forest[k] = root.is_some_and(|r| self.set_heavy[r as usize]);
            }
        }
        self.body_start.clear();
        self.body_start.resize(body_count + 1, 0);
        for (k, j) in prepared.iter().enumerate() {
            if self.in_forest[k] {
                for b in Self::bodies_of(j).into_iter().flatten() {
                    self.body_start[b as usize + 1] += 1;
                }
            }
        }
        for b in 0..body_count {
            self.body_start[b + 1] += self.body_start[b];
        }
        self.body_joints.clear();
        self.body_joints.resize(self.body_start[body_count] as usize, 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.body_start[..body_count]);
        for (k, j) in prepared.iter().enumerate() {
            if self.in_forest[k] {
                for b in Self::bodies_of(j).into_iter().flatten() {
                    self.body_joints[self.fill[b as usize] as usize] = k as u32;
                    self.fill[b as usize] += 1;
                }
            }
        }
        self.placed.clear();
        self.placed.resize(body_count, false);
        // Grounded trees first, from their joint to the ground, in slot
        // order; then the others from their first body.
        for (k, j) in prepared.iter().enumerate() {
            let bodies = Self::bodies_of(j);
            let grounding = bodies.iter().flatten().count() == 1;
            if self.in_forest[k] && grounding {
                let body = bodies.into_iter().flatten().next().unwrap_or(0);
                if !self.placed[body as usize] {
                    self.lay_out(prepared, NodeKind::Joint(k as u32));
                }
            }
        }
        for (k, j) in prepared.iter().enumerate() {
            if self.in_forest[k] {
                for b in Self::bodies_of(j).into_iter().flatten() {
                    if !self.placed[b as usize] {
                        self.lay_out(prepared, NodeKind::Body(b));
                    }
                }
            }
        }
    }

    /// Appends the tree reached from `root` (depth first, then reversed so
    /// that children come before their parents).
    fn lay_out(&mut self, prepared: &[PreparedJoint], root: NodeKind) {
        self.pre.clear();
        self.stack.clear();
        self.stack.push((root, NONE));
        while let Some((kind, parent)) = self.stack.pop() {
            let here = self.pre.len() as u32;
            self.pre.push((kind, parent));
            let from = (parent != NONE).then(|| self.pre[parent as usize].0);
            match kind {
                NodeKind::Body(b) => {
                    self.placed[b as usize] = true;
                    let range = self.body_start[b as usize]..self.body_start[b as usize + 1];
                    for &k in &self.body_joints[range.start as usize..range.end as usize] {
                        if from != Some(NodeKind::Joint(k)) {
                            self.stack.push((NodeKind::Joint(k), here));
                        }
                    }
                }
                NodeKind::Joint(k) => {
                    for b in Self::bodies_of(&prepared[k as usize]).into_iter().flatten() {
                        if from != Some(NodeKind::Body(b)) {
                            self.stack.push((NodeKind::Body(b), here));
                        }
                    }
                }
            }
        }
        let first = self.nodes.len() as u32;
        let n = self.pre.len() as u32;
        for p in (0..n).rev() {
            let (kind, parent) = self.pre[p as usize];
            // Pre-order position p is node first + (n - 1 - p).
            let parent_node = if parent == NONE { NONE } else { first + n - 1 - parent };
            let edge = if parent == NONE {
                (0, false)
            } else {
                let (joint, body) = match (kind, self.pre[parent as usize].0) {
                    (NodeKind::Joint(k), NodeKind::Body(b))
                    | (NodeKind::Body(b), NodeKind::Joint(k)) => (k, b),
                    _ => unreachable!("a tree's edges join a joint and a body"),
                };
                let j = &prepared[joint as usize];
                (joint, moving(&j.b) && j.b.index == body)
            };
            self.nodes.push(Node {
                kind,
                parent: parent_node,
                edge,
                jacobian: Matrix3x6::zeros(),
                d_inv: Matrix6::zeros(),
            });
        }
    }

    /// The block `LDLᵀ` factorisation: each node's pivot, children first.
    /// `d_inv` holds `D` until the node's turn, then its inverse. Returns
    /// false if a pivot does not invert.
    fn factor(&mut self, prepared: &[PreparedJoint]) -> bool {
        // H_ii: a body's mass matrix, a joint's zero.
        for node in &mut self.nodes {
            node.d_inv = Matrix6::zeros();
        }
        for k in 0..self.nodes.len() {
            if let NodeKind::Body(b) = self.nodes[k].kind {
                let Some(side) = self.side_of(prepared, k, b) else {
                    return false;
                };
                let Some(inertia) = side.inv_inertia.cast::<f64>().try_inverse() else {
                    return false;
                };
                let d = &mut self.nodes[k].d_inv;
                let mass = 1.0 / f64::from(side.inv_mass);
                d.fixed_view_mut::<3, 3>(0, 0).copy_from(&(Matrix3::identity() * mass));
                d.fixed_view_mut::<3, 3>(3, 3).copy_from(&inertia);
            }
        }
        for k in 0..self.nodes.len() {
            let node = self.nodes[k];
            let parent = node.parent;
            let jac = &node.jacobian;
            match node.kind {
                NodeKind::Body(_) => {
                    let Some(inv) = node.d_inv.try_inverse() else {
                        return false;
                    };
                    self.nodes[k].d_inv = inv;
                    if parent != NONE {
                        // B = Jᵀ (6 × 3): the joint's D -= J D_b⁻¹ Jᵀ.
                        let update = jac * inv * jac.transpose();
                        let mut d = self.nodes[parent as usize].d_inv.fixed_view_mut::<3, 3>(0, 0);
                        d -= update;
                    }
                }
                NodeKind::Joint(_) => {
                    let d: Matrix3<f64> = node.d_inv.fixed_view::<3, 3>(0, 0).into();
                    let Some(inv) = d.try_inverse() else {
                        return false;
                    };
                    let mut stored = Matrix6::zeros();
                    stored.fixed_view_mut::<3, 3>(0, 0).copy_from(&inv);
                    self.nodes[k].d_inv = stored;
                    if parent != NONE {
                        // B = J (3 × 6): the body's D -= Jᵀ D_j⁻¹ J.
                        self.nodes[parent as usize].d_inv -= jac.transpose() * inv * jac;
                    }
                }
            }
        }
        true
    }

    /// The joint side of body node `k` (solver index `b`): any of its
    /// joints' sides on `b` carries its mass.
    fn side_of<'a>(
        &self,
        prepared: &'a [PreparedJoint],
        k: usize,
        b: u32,
    ) -> Option<&'a JointSide> {
        // A body node's parent or one of its children is a joint.
        let neighbour = if self.nodes[k].parent != NONE {
            Some(self.nodes[k].parent as usize)
        } else {
            self.nodes[..k].iter().rposition(|n| n.parent == k as u32)
        }?;
        let NodeKind::Joint(j) = self.nodes[neighbour].kind else {
            return None;
        };
        let j = &prepared[j as usize];
        if moving(&j.a) && j.a.index == b { Some(&j.a) } else { Some(&j.b) }
    }

    /// One pass over the trees: every tree joint's point rows get the
    /// impulse that solves them all at once, with each joint's softness in
    /// the push pass (`use_bias`) and rigidly in the relax pass.
    pub fn solve(
        &mut self,
        prepared: &[PreparedJoint],
        joints: &mut Joints,
        bodies: &mut [SolverBody],
        motions: &[SolverMotion],
        use_bias: bool,
    ) {
        self.refresh_jacobians(prepared, bodies, motions);
        if !self.factor(prepared) {
            // A pivot that would not invert (a degenerate inertia): the
            // sweep alone solves this pass.
            return;
        }
        // The right-hand side: each joint's velocity error and bias, a
        // body's zero; and the forward sweep, z_p -= B_iᵀ D_i⁻¹ z_i.
        for k in 0..self.nodes.len() {
            let node = self.nodes[k];
            let mut z = self.z[k];
            if let NodeKind::Joint(i) = node.kind {
                let j = &prepared[i as usize];
                let s = JointBodies::read(j, bodies, motions);
                let cdot = s.vb + s.wb.cross(&s.rb) - s.va - s.wa.cross(&s.ra);
                let bias = if use_bias { s.d * j.soft.bias_rate } else { Vector3::zeros() };
                let r = (cdot + bias).cast::<f64>();
                z[0] += r.x;
                z[1] += r.y;
                z[2] += r.z;
            }
            self.z[k] = z;
            if node.parent != NONE {
                let y = node.d_inv * z;
                let up = match node.kind {
                    // B_iᵀ = J (3 × 6) into a joint.
                    NodeKind::Body(_) => {
                        let v = node.jacobian * y;
                        Vector6::new(v.x, v.y, v.z, 0.0, 0.0, 0.0)
                    }
                    // B_iᵀ = Jᵀ (6 × 3) into a body.
                    NodeKind::Joint(_) => node.jacobian.transpose() * y.fixed_rows::<3>(0),
                };
                self.z[node.parent as usize] -= up;
            }
        }
        // The backward sweep, x_i = D_i⁻¹ z_i - D_i⁻¹ B_i x_p, parents first
        // (z now holds x).
        for k in (0..self.nodes.len()).rev() {
            let node = self.nodes[k];
            let mut rhs = self.z[k];
            if node.parent != NONE {
                let xp = self.z[node.parent as usize];
                match node.kind {
                    // B_i = Jᵀ (6 × 3) from a joint.
                    NodeKind::Body(_) => rhs -= node.jacobian.transpose() * xp.fixed_rows::<3>(0),
                    // B_i = J (3 × 6) from a body.
                    NodeKind::Joint(_) => {
                        let v = node.jacobian * xp;
                        rhs -= Vector6::new(v.x, v.y, v.z, 0.0, 0.0, 0.0);
                    }
                }
            }
            self.z[k] = node.d_inv * rhs;
        }
        // The joints' impulses: x is -A⁻¹ (J v + β C); the soft update
        // scales it and relaxes the accumulated impulse (`rows.rs`).
        for k in 0..self.nodes.len() {
            let NodeKind::Joint(i) = self.nodes[k].kind else {
                continue;
            };
            let x = Vector3::new(self.z[k][0], self.z[k][1], self.z[k][2]).cast::<f32>();
            let j = &prepared[i as usize];
            let soft = if use_bias { j.soft } else { Soft::RIGID };
            let accumulated = &mut joints.records[j.slot as usize].impulses.linear;
            let lambda = x * soft.mass_scale - *accumulated * soft.impulse_scale;
            if !lambda.iter().all(|v| v.is_finite()) {
                continue;
            }
            *accumulated += lambda;
            let mut s = JointBodies::read(j, bodies, motions);
            s.apply_point(j, &lambda);
            s.write(j, bodies);
        }
        self.z.iter_mut().for_each(|z| *z = Vector6::zeros());
    }
}
