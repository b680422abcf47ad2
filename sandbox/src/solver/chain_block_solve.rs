//! A direct (block) solve of the normal rows of each mass-ratio chain,
//! after every push and relax pass, so a heavy body pressed onto a light
//! one meets the contact it would meet with an exact solver.
//!
//! Gauss-Seidel passes only a fraction `m / M` of each sweep's correction
//! across a light body pressed between heavier ones (see
//! [`crate::solver::mass_ratio_chains`]), and its soft springs are stable
//! only up to a quarter of the substep rate, where a 1000:1 load still
//! compresses them by 2 cm. Solved together, the chain's normal rows need
//! neither: the block solve finds the impulses that meet every row's
//! soft-step equation at once, which is the implicit (backward Euler)
//! spring, stable at any stiffness, so the chain's springs may be
//! stiffened until they sag by
//! [`StepSettings::max_contact_sag`](crate::StepSettings) whatever their
//! load.
//!
//! Method. A chain is a connected group of manifolds in a mass-ratio
//! chain (bodies connect them; the static stand-in does not). Its normal
//! rows `i` (one per contact point) have the coupling matrix
//! `K = J M⁻¹ Jᵀ`, assembled once per step from the rows the preparation
//! wrote into the batch lanes, as Box2D v3's block solver for two-point
//! manifolds does for one manifold (Catto), and as the "direct solver"
//! of articulations (Baraff, "Linear-time dynamics using Lagrange
//! multipliers", 1996) does along a chain. The push pass's soft row
//! (parent module) leaves `Δλ_i = -m_i ms_i (vn_i + b_i / ms_i) - is_i λ_i`,
//! whose fixed point, with `vn'` and `λ'` after the change and
//! `ms + is = 1`, is
//!
//! `vn_i' + b_i / ms_i + γ_i λ_i' = 0`,  `γ_i = K_ii is_i / ms_i`,
//!
//! so the chain's impulse changes solve `(K + Γ) Δλ = -(vn + b / ms + Γ λ)`
//! (the relax pass: `ms = 1`, `is = 0`, no bias). The matrix is symmetric
//! and positive semi-definite, singular where a face's four coplanar
//! points leave a rigid row dependent on the others: it is factored as
//! `L D Lᵀ` in f64 (a 1000:1 chain's slow mode is 1000 times below its
//! fast one), a pivot that vanishes marks a dependent row, whose change is
//! left at zero. Contacts only push: a row whose impulse would turn
//! negative is set to zero and the others are solved again (an active set
//! that only shrinks, as the block solver's case enumeration does for two
//! points), at most [`MAX_ACTIVE_SET_PASSES`] times, after which the
//! impulses are clamped. Departures: friction, and contacts outside the
//! chain, stay with the Gauss-Seidel sweeps (the block solve holds them
//! fixed), and chains of more than [`MAX_BLOCK_ROWS`] rows are left to the
//! sweeps too. The solve runs chain by chain in the order of the chains'
//! first manifolds, on one thread, so results do not depend on the thread
//! count.

use collide::nalgebra::Vector3;

use super::contact_solver::SolverParams;
use super::simd_batch::{ConstraintBatch, W};
use super::solver_body::SolverBody;
use crate::collision::manifold::MAX_MANIFOLD_POINTS;
use crate::solver::contact_solver::ConstraintSlot;

/// Most normal rows (contact points) a chain may have to be solved
/// directly: twelve four-point manifolds, a column of a dozen bodies. The
/// factorisation costs `n³ / 6` per pass (about 18,000 multiply-adds at
/// the cap); longer chains stay with the sweeps.
pub(crate) const MAX_BLOCK_ROWS: usize = 48;

/// Most times the rows with negative impulses are dropped and the rest
/// solved again before the impulses are clamped: each pass drops at least
/// one row, and a stack's rows all carry load, so one or two passes are
/// the rule.
const MAX_ACTIVE_SET_PASSES: usize = 6;

/// A pivot of the `L D Lᵀ` factorisation below this fraction of its
/// row's diagonal marks the row as dependent on the rows before it: the
/// fourth coplanar point of a face in a rigid pass leaves a pivot at the
/// rounding of the f32 rows (about 1e-7 of the diagonal), while the
/// slowest real mode of a chain (a 1000:1 light body between heavy ones)
/// keeps about 1e-3, and 1e5:1 would keep 1e-5.
const DEPENDENT_PIVOT: f64 = 1e-6;

/// Marks a slot outside every directly solved chain.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

/// Which pass the block solve follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockPass {
    /// The soft push: spring coefficients and bias of the lanes.
    Push,
    /// The rigid relax: no bias, no softness.
    Relax,
}

/// One chain solved directly: its rows and its matrix.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// First row in [`ChainBlocks::rows`] and the number of rows.
    row_start: usize,
    row_count: usize,
    /// Start of its `row_count²` matrix entries in [`ChainBlocks::matrix`].
    matrix_start: usize,
}

/// One normal row: a contact point in a batch lane.
#[derive(Clone, Copy, Debug)]
struct Row {
    batch: u32,
    lane: u8,
    point: u8,
}

/// The chains solved directly this step and the scratch of their solves,
/// kept between steps so that a step allocates nothing once they have
/// grown.
#[derive(Debug, Default)]
pub(crate) struct ChainBlocks {
    /// Per solver body: its parent in the union-find over chain manifolds.
    parent: Vec<u32>,
    /// Per solver body (a union-find root): the chain it roots, or
    /// [`NO_BLOCK`].
    chain_of_root: Vec<u32>,
    /// Per island: its number of rows, and whether it holds a manifold of
    /// a mass-ratio chain.
    chain_rows: Vec<u32>,
    chain_has_ratio: Vec<bool>,
    /// Per slot: the chain solved directly that holds it, or [`NO_BLOCK`].
    pub slot_block: Vec<u32>,
    blocks: Vec<Block>,
    rows: Vec<Row>,
    /// Each block's `K`, row-major.
    matrix: Vec<f64>,
    scratch: SolveScratch,
}

/// Scratch of one block's solve: the factor, and per row the right-hand
/// side, regularisation, impulse, impulse change and whether it is free.
#[derive(Debug, Default)]
struct SolveScratch {
    factor: Vec<f64>,
    rhs: Vec<f64>,
    gamma: Vec<f64>,
    impulse: Vec<f64>,
    delta: Vec<f64>,
    free: Vec<bool>,
    /// Indices of the free rows of the current active-set pass.
    free_rows: Vec<usize>,
}

impl ChainBlocks {
    /// Whether any chain is solved directly this step.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Groups the manifolds (`pairs`, their solver bodies, and
    /// `point_counts`, their contact points) into islands connected through
    /// dynamic bodies, and records in [`Self::slot_block`] the slots of the
    /// islands that hold a manifold of a mass-ratio chain (`in_chain`) and
    /// are small enough to be solved directly. Islands are numbered in the
    /// order of their first slot.
    pub fn find(
        &mut self,
        pairs: &[(u32, u32)],
        in_chain: &[bool],
        point_counts: impl Iterator<Item = u32>,
        body_count: usize,
    ) {
        self.blocks.clear();
        self.rows.clear();
        self.matrix.clear();
        self.slot_block.clear();
        self.slot_block.resize(pairs.len(), NO_BLOCK);
        if !in_chain.iter().any(|&c| c) {
            return;
        }
        self.parent.clear();
        self.parent.extend(0..body_count as u32);
        for &(a, b) in pairs {
            // The static stand-in (0) joins nothing.
            if a != 0 && b != 0 {
                let (ra, rb) = (self.root(a), self.root(b));
                // The smaller index roots, whatever the order of union.
                let (low, high) = if ra < rb { (ra, rb) } else { (rb, ra) };
                self.parent[high as usize] = low;
            }
        }
        self.chain_of_root.clear();
        self.chain_of_root.resize(body_count, NO_BLOCK);
        self.chain_rows.clear();
        self.chain_has_ratio.clear();
        for ((slot, &(a, b)), count) in pairs.iter().enumerate().zip(point_counts) {
            let root = self.root(if a != 0 { a } else { b }) as usize;
            if self.chain_of_root[root] == NO_BLOCK {
                self.chain_of_root[root] = self.chain_rows.len() as u32;
                self.chain_rows.push(0);
                self.chain_has_ratio.push(false);
            }
            let island = self.chain_of_root[root] as usize;
            self.chain_rows[island] += count;
            self.chain_has_ratio[island] |= in_chain[slot];
            self.slot_block[slot] = island as u32;
        }
        for block in &mut self.slot_block {
            let island = *block as usize;
            if !self.chain_has_ratio[island] || self.chain_rows[island] as usize > MAX_BLOCK_ROWS {
                *block = NO_BLOCK;
            }
        }
    }

    /// The union-find root of body `i`, halving the path on the way.
    fn root(&mut self, mut i: u32) -> u32 {
        // Each step moves to a smaller index, so the walk ends.
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    /// Collects the rows of each chain found by [`Self::find`] from the
    /// prepared batches (each slot's batch lane) and assembles its `K`.
    pub fn assemble(&mut self, slots: &[ConstraintSlot], batches: &[ConstraintBatch]) {
        let chains = self.chain_rows.len();
        if self.slot_block.iter().all(|&b| b == NO_BLOCK) {
            return;
        }
        // Rows of each chain in slot order: one walk of the slots per
        // chain (chains are few and small).
        for chain in 0..chains as u32 {
            let row_start = self.rows.len();
            for (slot, _) in slots.iter().zip(&self.slot_block).filter(|(_, b)| **b == chain) {
                let count = (slot.count as usize).min(MAX_MANIFOLD_POINTS);
                for point in 0..count {
                    self.rows.push(Row {
                        batch: slot.batch,
                        lane: slot.lane as u8,
                        point: point as u8,
                    });
                }
            }
            let row_count = self.rows.len() - row_start;
            if row_count == 0 {
                continue;
            }
            let matrix_start = self.matrix.len();
            self.matrix.resize(matrix_start + row_count * row_count, 0.0);
            self.blocks.push(Block { row_start, row_count, matrix_start });
        }
        for block in &self.blocks {
            let rows = &self.rows[block.row_start..block.row_start + block.row_count];
            let k = &mut self.matrix[block.matrix_start..block.matrix_start + rows.len().pow(2)];
            for (r, row) in rows.iter().enumerate() {
                for (c, column) in rows.iter().enumerate().skip(r) {
                    let entry = coupling(batches, row, column);
                    k[r * rows.len() + c] = entry;
                    k[c * rows.len() + r] = entry;
                }
            }
        }
    }

    /// Solves every chain's normal rows directly after a `pass` of the
    /// sweeps (which left the current separations in the batches), and
    /// applies the impulse changes to the bodies.
    pub fn solve(
        &mut self,
        batches: &mut [ConstraintBatch],
        bodies: &mut [SolverBody],
        params: &SolverParams,
        pass: BlockPass,
    ) {
        for block in &self.blocks {
            let n = block.row_count;
            let rows = &self.rows[block.row_start..block.row_start + n];
            let k = &self.matrix[block.matrix_start..block.matrix_start + n * n];
            self.scratch.solve_block(rows, k, batches, bodies, params, pass);
        }
    }
}

impl SolveScratch {
    /// Solves one chain's rows (`k` its matrix) and applies the changes.
    fn solve_block(
        &mut self,
        rows: &[Row],
        k: &[f64],
        batches: &mut [ConstraintBatch],
        bodies: &mut [SolverBody],
        params: &SolverParams,
        pass: BlockPass,
    ) {
        let n = rows.len();
        for v in [&mut self.rhs, &mut self.gamma, &mut self.impulse, &mut self.delta] {
            v.clear();
            v.resize(n, 0.0);
        }
        // Each row's equation `vn' + b / ms + γ λ' = 0`, as a right-hand
        // side for the changes: -(vn + b / ms + γ λ).
        for (i, row) in rows.iter().enumerate() {
            let (batch, lane, p) =
                (&batches[row.batch as usize], row.lane as usize, row.point as usize);
            let lane_of = |w: W| w.as_array()[lane];
            let vn = normal_velocity(batch, lane, p, bodies);
            let s = lane_of(batch.current_separation[p]);
            let impulse = lane_of(batch.normal_impulse[p]);
            let (bias, gamma) = if s > 0.0 {
                // Speculative: the gap may close within the substep, rigidly.
                (s * params.inv_h, 0.0)
            } else if pass == BlockPass::Push {
                let (ms, rate, is) = (
                    lane_of(batch.mass_scale),
                    lane_of(batch.bias_rate),
                    lane_of(batch.impulse_scale),
                );
                let bias = (s * (ms * rate)).max(-params.max_push_out);
                if ms > 0.0 { (bias / ms, k[i * n + i] * f64::from(is / ms)) } else { (bias, 0.0) }
            } else {
                (0.0, 0.0)
            };
            self.gamma[i] = gamma;
            self.impulse[i] = f64::from(impulse);
            self.rhs[i] = -(f64::from(vn) + f64::from(bias) + gamma * f64::from(impulse));
        }
        self.free.clear();
        self.free.resize(n, true);
        for _ in 0..MAX_ACTIVE_SET_PASSES {
            self.solve_free_rows(k, n);
            // Rows whose impulse would turn negative leave the set; NaN
            // counts as negative, and a pass that drops nothing ends.
            let mut dropped = false;
            for i in 0..n {
                if self.free[i] && !(self.impulse[i] + self.delta[i] >= 0.0) {
                    self.free[i] = false;
                    dropped = true;
                }
            }
            if !dropped {
                break;
            }
        }
        if !self.delta.iter().all(|d| d.is_finite()) {
            // A failed factorisation: keep the sweeps' impulses.
            return;
        }
        for (i, row) in rows.iter().enumerate() {
            // Clamped, in case the last pass still dropped rows.
            let new =
                if self.free[i] { (self.impulse[i] + self.delta[i]).max(0.0) as f32 } else { 0.0 };
            let batch = &mut batches[row.batch as usize];
            let (lane, p) = (row.lane as usize, row.point as usize);
            let old = batch.normal_impulse[p].as_array()[lane];
            batch.normal_impulse[p].as_mut_array()[lane] = new;
            if batch.has_restitution {
                let max = &mut batch.max_normal_impulse[p].as_mut_array()[lane];
                *max = max.max(new);
            }
            apply_normal(batch, lane, p, new - old, bodies);
        }
    }

    /// Solves `(K + Γ) Δλ = rhs` for the free rows, with every other row's
    /// impulse set to zero (`Δλ = -λ`), into [`Self::delta`].
    fn solve_free_rows(&mut self, k: &[f64], n: usize) {
        self.free_rows.clear();
        self.free_rows.extend((0..n).filter(|&i| self.free[i]));
        for i in 0..n {
            if !self.free[i] {
                self.delta[i] = -self.impulse[i];
            }
        }
        let m = self.free_rows.len();
        self.factor.clear();
        self.factor.resize(m * m, 0.0);
        // The reduced right-hand side, kept in `factor`'s shadow: the free
        // rows' rhs minus the fixed rows' changes through K.
        let mut reduced = [0.0f64; MAX_BLOCK_ROWS];
        for (r, &i) in self.free_rows.iter().enumerate() {
            let mut b = self.rhs[i];
            for j in (0..n).filter(|&j| !self.free[j]) {
                b -= k[i * n + j] * self.delta[j];
            }
            reduced[r] = b;
            for (c, &j) in self.free_rows.iter().enumerate() {
                self.factor[r * m + c] = k[i * n + j] + if i == j { self.gamma[i] } else { 0.0 };
            }
        }
        ldlt_solve_in_place(&mut self.factor, m, &mut reduced[..m]);
        for (r, &i) in self.free_rows.iter().enumerate() {
            self.delta[i] = reduced[r];
        }
    }
}

/// Factors the symmetric positive semi-definite `m × m` matrix `a`
/// (row-major) as `L D Lᵀ` in place (L below the diagonal, D on it) and
/// solves `a x = b` into `b`. A pivot below [`DEPENDENT_PIVOT`] times its
/// diagonal entry marks a row dependent on the earlier ones: its column of
/// `L` is zero and its unknown is zero (a consistent system is still met).
fn ldlt_solve_in_place(a: &mut [f64], m: usize, b: &mut [f64]) {
    for j in 0..m {
        let mut d = a[j * m + j];
        for t in 0..j {
            d -= a[j * m + t] * a[j * m + t] * a[t * m + t];
        }
        // Written so that NaN counts as dependent.
        let independent = d > DEPENDENT_PIVOT * a[j * m + j].abs();
        a[j * m + j] = if independent { d } else { 0.0 };
        for i in j + 1..m {
            let value = if independent {
                let mut v = a[i * m + j];
                for t in 0..j {
                    v -= a[i * m + t] * a[j * m + t] * a[t * m + t];
                }
                v / d
            } else {
                0.0
            };
            a[i * m + j] = value;
        }
    }
    for i in 0..m {
        for t in 0..i {
            b[i] -= a[i * m + t] * b[t];
        }
    }
    for i in 0..m {
        let d = a[i * m + i];
        b[i] = if d > 0.0 { b[i] / d } else { 0.0 };
    }
    for i in (0..m).rev() {
        for t in i + 1..m {
            b[i] -= a[t * m + i] * b[t];
        }
    }
}

/// `K` between two rows: the change of `row`'s normal velocity per unit
/// impulse on `column`, summed over the dynamic bodies they share,
/// `s_r s_c (m⁻¹ n_r·n_c + (r_r × n_r)·I⁻¹(r_c × n_c))` with `s = -1` on
/// body A and `+1` on body B.
fn coupling(batches: &[ConstraintBatch], row: &Row, column: &Row) -> f64 {
    let (br, lr, pr) = (&batches[row.batch as usize], row.lane as usize, row.point as usize);
    let (bc, lc, pc) =
        (&batches[column.batch as usize], column.lane as usize, column.point as usize);
    let lane = |w: W, l: usize| f64::from(w.as_array()[l]);
    let dot = |a: Vector3<f32>, b: Vector3<f32>| {
        f64::from(a.x) * f64::from(b.x)
            + f64::from(a.y) * f64::from(b.y)
            + f64::from(a.z) * f64::from(b.z)
    };
    let row_sides =
        [(br.body_a[lr], -1.0, br.rn_a[pr].get(lr)), (br.body_b[lr], 1.0, br.rn_b[pr].get(lr))];
    let column_sides = [
        (bc.body_a[lc], -1.0, bc.irn_a[pc].get(lc), lane(bc.inv_mass_a, lc)),
        (bc.body_b[lc], 1.0, bc.irn_b[pc].get(lc), lane(bc.inv_mass_b, lc)),
    ];
    let (nr, nc) = (br.normal.get(lr), bc.normal.get(lc));
    let mut k = 0.0;
    for (body_r, sign_r, rn) in row_sides {
        for (body_c, sign_c, irn, inv_mass) in column_sides {
            if body_r == body_c && body_r != 0 {
                k += sign_r * sign_c * (inv_mass * dot(nr, nc) + dot(rn, irn));
            }
        }
    }
    k
}

/// Point `p`'s normal velocity in `lane`:
/// `(v_B - v_A)·n + ω_B·(r_B × n) - ω_A·(r_A × n)`.
fn normal_velocity(batch: &ConstraintBatch, lane: usize, p: usize, bodies: &[SolverBody]) -> f32 {
    let (a, b) = (&bodies[batch.body_a[lane] as usize], &bodies[batch.body_b[lane] as usize]);
    (b.linear_velocity() - a.linear_velocity()).dot(&batch.normal.get(lane))
        + b.angular_velocity().dot(&batch.rn_b[p].get(lane))
        - a.angular_velocity().dot(&batch.rn_a[p].get(lane))
}

/// Applies a normal impulse change at point `p` of `lane` to its bodies
/// (never to the static stand-in).
fn apply_normal(
    batch: &ConstraintBatch,
    lane: usize,
    p: usize,
    delta: f32,
    bodies: &mut [SolverBody],
) {
    let n = batch.normal.get(lane);
    let (ia, ib) = (batch.body_a[lane] as usize, batch.body_b[lane] as usize);
    if ia != 0 {
        let body = &mut bodies[ia];
        let v = body.linear_velocity() - n * (delta * batch.inv_mass_a.as_array()[lane]);
        let w = body.angular_velocity() - batch.irn_a[p].get(lane) * delta;
        body.set_velocities(&v, &w);
    }
    if ib != 0 {
        let body = &mut bodies[ib];
        let v = body.linear_velocity() + n * (delta * batch.inv_mass_b.as_array()[lane]);
        let w = body.angular_velocity() + batch.irn_b[p].get(lane) * delta;
        body.set_velocities(&v, &w);
    }
}
