//! A direct (block) solve of the normal rows of each small island of
//! contacts that holds a mass-ratio chain, after every push and relax
//! pass, so a heavy body pressed onto a light one meets the contact it
//! would meet with an exact solver.
//!
//! Gauss-Seidel passes only a fraction `m / M` of each sweep's correction
//! across a light body pressed between heavier ones (see
//! [`crate::solver::mass_ratio_chains`]), and its soft springs are stable
//! only up to a quarter of the substep rate, where a 1000:1 load still
//! compresses them by 2 cm. Solved together, the island's normal rows need
//! neither: the block solve finds the impulses that meet every row's
//! soft-step equation at once, which is the implicit (backward Euler)
//! spring, so the island's springs may be stiffened beyond the sweeps'
//! cap towards a sag of
//! [`StepSettings::max_contact_sag`](crate::StepSettings) (how far is the
//! solve stage's `MAX_BLOCK_HERTZ_PER_SUBSTEP_RATE`).
//!
//! Method. An island is a group of touching manifolds connected through
//! dynamic bodies (the static stand-in connects nothing); one holding a
//! manifold of a mass-ratio chain and at most [`MAX_BLOCK_ROWS`] contact
//! points is solved directly. The whole island, not the chain alone: a
//! chain's bodies solved exactly against neighbours left to the sweeps
//! drove the impulse of a heavy box dropped on a pyramid into the cubes
//! under it, which the sweeps then could not stop. The island's normal
//! rows `i` (one per contact point) have the coupling matrix
//! `K = J M⁻¹ Jᵀ`, assembled once per step from the rows the preparation
//! wrote into the batch lanes, as Box2D v3's block solver for two-point
//! manifolds does for one manifold (Catto), and as a direct solver of
//! articulations does along a chain (Baraff, "Linear-time dynamics using
//! Lagrange multipliers", 1996). The push pass's soft row (parent module)
//! leaves `Δλ_i = -m_i ms_i (vn_i + b_i / ms_i) - is_i λ_i`, whose fixed
//! point, with `vn'` and `λ'` after the change and `ms + is = 1`, is
//!
//! `vn_i' + b_i / ms_i + γ_i λ_i' = 0`,  `γ_i = K_ii is_i / ms_i`,
//!
//! so the island's impulse changes solve `(K + Γ) Δλ = -(vn + b / ms + Γ λ)`
//! (the relax pass: `ms = 1`, `is = 0`, no bias). The matrix is symmetric
//! and positive semi-definite, singular where a face's four coplanar
//! points leave a rigid row dependent on the others: it is factored as
//! `L D Lᵀ` in f64 (a 1000:1 chain's slow mode is 1000 times below its
//! fast one), and a pivot that vanishes marks a dependent row, whose
//! change is left at zero. Contacts only push: a row whose impulse would
//! turn negative is set to zero and the others are solved again (an
//! active set that only shrinks, as the block solver's case enumeration
//! does for two points), at most [`MAX_ACTIVE_SET_PASSES`] times, after
//! which the impulses are clamped. Departures: friction stays with the
//! Gauss-Seidel sweeps (the block solve corrects the normal rows after
//! them), and larger islands are left to the sweeps (with the chains'
//! extra sweeps and capped springs). The solve runs island by island in
//! the order of their first manifolds, on one thread, so results do not
//! depend on the thread count. Scenes without a mass-ratio chain never
//! reach it.

use collide::nalgebra::Vector3;

use super::contact_solver::SolverParams;
use super::simd_batch::{ConstraintBatch, W};
use super::solver_body::SolverBody;
use crate::collision::manifold::MAX_MANIFOLD_POINTS;
use crate::solver::contact_solver::ConstraintSlot;

/// Most normal rows (contact points) an island may have to be solved
/// directly: twelve four-point manifolds, a column of a dozen bodies. The
/// factorisation costs `n³ / 6` per pass (about 18,000 multiply-adds at
/// the cap); larger islands stay with the sweeps.
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
/// slowest real mode of an island (a 1000:1 light body between heavy ones)
/// keeps about 1e-3, and 1e5:1 would keep 1e-5.
const DEPENDENT_PIVOT: f64 = 1e-6;

/// Marks a slot outside every island solved directly.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

/// Which pass the block solve follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockPass {
    /// The soft push: spring coefficients and bias of the lanes.
    Push,
    /// The rigid relax: no bias, no softness.
    Relax,
}

/// One island solved directly: its rows and its matrix.
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

/// The islands solved directly this step and the scratch of their solves,
/// kept between steps so that a step allocates nothing once they have
/// grown.
#[derive(Debug, Default)]
pub(crate) struct ChainBlocks {
    /// Per solver body: its parent in the union-find over the manifolds.
    parent: Vec<u32>,
    /// Per solver body (a union-find root): the island it roots, or
    /// [`NO_BLOCK`].
    island_of_root: Vec<u32>,
    /// Per island: its number of rows, and whether it holds a manifold of
    /// a mass-ratio chain.
    island_rows: Vec<u32>,
    island_has_ratio: Vec<bool>,
    /// Per block: rows filled so far, while [`Self::assemble`] collects them.
    block_fill: Vec<usize>,
    /// Per slot: the island solved directly that holds it, or [`NO_BLOCK`].
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
    /// Whether any island is solved directly this step.
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
        self.island_of_root.clear();
        self.island_of_root.resize(body_count, NO_BLOCK);
        self.island_rows.clear();
        self.island_has_ratio.clear();
        for ((slot, &(a, b)), count) in pairs.iter().enumerate().zip(point_counts) {
            let root = self.root(if a != 0 { a } else { b }) as usize;
            if self.island_of_root[root] == NO_BLOCK {
                self.island_of_root[root] = self.island_rows.len() as u32;
                self.island_rows.push(0);
                self.island_has_ratio.push(false);
            }
            let island = self.island_of_root[root] as usize;
            self.island_rows[island] += count;
            self.island_has_ratio[island] |= in_chain[slot];
            self.slot_block[slot] = island as u32;
        }
        for block in &mut self.slot_block {
            let island = *block as usize;
            if !self.island_has_ratio[island] || self.island_rows[island] as usize > MAX_BLOCK_ROWS
            {
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

    /// Collects the rows of each island found by [`Self::find`] from the
    /// prepared batches (each slot's batch lane), in slot order, and
    /// assembles its `K`.
    pub fn assemble(&mut self, slots: &[ConstraintSlot], batches: &[ConstraintBatch]) {
        if self.slot_block.iter().all(|&b| b == NO_BLOCK) {
            return;
        }
        // Each island solved directly becomes a block, numbered in the
        // order of its first slot, its rows at a running offset
        // (`island_of_root` is reused: island -> block, then the block's
        // fill cursor).
        let islands = self.island_rows.len();
        self.island_of_root.clear();
        self.island_of_root.resize(islands, NO_BLOCK);
        let block_of_island = &mut self.island_of_root;
        let mut row_total = 0;
        for (slot, &island) in slots.iter().zip(&self.slot_block) {
            if island == NO_BLOCK {
                continue;
            }
            let count = (slot.count as usize).min(MAX_MANIFOLD_POINTS);
            let block = &mut block_of_island[island as usize];
            if *block == NO_BLOCK {
                *block = self.blocks.len() as u32;
                self.blocks.push(Block { row_start: 0, row_count: 0, matrix_start: 0 });
            }
            self.blocks[*block as usize].row_count += count;
            row_total += count;
        }
        let (mut row_start, mut matrix_start) = (0, 0);
        for block in &mut self.blocks {
            (block.row_start, block.matrix_start) = (row_start, matrix_start);
            row_start += block.row_count;
            matrix_start += block.row_count * block.row_count;
        }
        self.rows.resize(row_total, Row { batch: 0, lane: 0, point: 0 });
        self.matrix.resize(matrix_start, 0.0);
        let filled = &mut self.block_fill;
        filled.clear();
        filled.resize(self.blocks.len(), 0);
        for (slot, &island) in slots.iter().zip(&self.slot_block) {
            if island == NO_BLOCK {
                continue;
            }
            let block = block_of_island[island as usize] as usize;
            let count = (slot.count as usize).min(MAX_MANIFOLD_POINTS);
            for point in 0..count {
                let at = self.blocks[block].row_start + filled[block];
                self.rows[at] =
                    Row { batch: slot.batch, lane: slot.lane as u8, point: point as u8 };
                filled[block] += 1;
            }
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

    /// Solves every island's normal rows directly after a `pass` of the
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
    /// Solves one island's rows (`k` its matrix) and applies the changes.
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
            let (a, b) = (batch.body_a[lane] as usize, batch.body_b[lane] as usize);
            let s = batch.current_separation(p, lane, &bodies[a], &bodies[b]);
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
        // The active set starts with the rows that carry an impulse or
        // would take one on their own (a positive right-hand side); a row
        // the sweeps left at zero that would only pull (a speculative
        // point metres away, with its bias of gap / h) starts at zero.
        // With every row free, such rows' large negative impulses, solved
        // together with a loaded row, drive the loaded row negative too,
        // and the first pass drops it with them: a light sphere at
        // 100 m/s, touching the ground and with points 3 m off towards two
        // flying bodies, loses its ground contact and goes through the
        // ground (soak seed 2, step 140).
        self.free.clear();
        self.free.extend((0..n).map(|i| !(self.impulse[i] <= 0.0 && self.rhs[i] <= 0.0)));
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
        [(br.body_a[lr], -1.0, br.rn_a[pr].get(lr)), (br.body_b[lr], 1.0, br.rn_b(pr).get(lr))];
    let column_sides = [
        (bc.body_a[lc], -1.0, bc.irn_a(pc, lc), lane(bc.inv_mass_a, lc)),
        (bc.body_b[lc], 1.0, bc.irn_b(pc, lc), lane(bc.inv_mass_b, lc)),
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
        + b.angular_velocity().dot(&batch.rn_b(p).get(lane))
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
        let w = body.angular_velocity() - batch.irn_a(p, lane) * delta;
        body.set_velocities(&v, &w);
    }
    if ib != 0 {
        let body = &mut bodies[ib];
        let v = body.linear_velocity() + n * (delta * batch.inv_mass_b.as_array()[lane]);
        let w = body.angular_velocity() + batch.irn_b(p, lane) * delta;
        body.set_velocities(&v, &w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest residual `|A x - b|` allowed relative to `|b|`: the f64
    /// factorisation of these small, well-conditioned matrices rounds at
    /// about 1e-15.
    const RESIDUAL_TOLERANCE: f64 = 1e-10;

    /// A seeded sequence in [-1, 1) (a linear congruential generator).
    fn numbers(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// `J Jᵀ` for a `rows × columns` J from `next`, and J.
    fn gram(rows: usize, columns: usize, next: &mut impl FnMut() -> f64) -> (Vec<f64>, Vec<f64>) {
        let j: Vec<f64> = (0..rows * columns).map(|_| next()).collect();
        let mut a = vec![0.0; rows * rows];
        for r in 0..rows {
            for c in 0..rows {
                a[r * rows + c] =
                    (0..columns).map(|t| j[r * columns + t] * j[c * columns + t]).sum();
            }
        }
        (a, j)
    }

    /// `|A x - b| / |b|`, by multiplying back (the oracle shares nothing
    /// with the factorisation).
    fn relative_residual(a: &[f64], m: usize, x: &[f64], b: &[f64]) -> f64 {
        let mut residual = 0.0f64;
        let mut norm = 0.0f64;
        for r in 0..m {
            let ax: f64 = (0..m).map(|c| a[r * m + c] * x[c]).sum();
            residual += (ax - b[r]).powi(2);
            norm += b[r].powi(2);
        }
        (residual / norm).sqrt()
    }

    #[test]
    fn positive_definite_systems_are_solved_exactly() {
        for seed in 0..20 {
            let mut next = numbers(seed);
            let m = 1 + seed as usize % 12;
            // More columns than rows: full rank.
            let (a, _) = gram(m, m + 3, &mut next);
            let b: Vec<f64> = (0..m).map(|_| next()).collect();
            let (mut factor, mut x) = (a.clone(), b.clone());
            ldlt_solve_in_place(&mut factor, m, &mut x);
            let residual = relative_residual(&a, m, &x, &b);
            assert!(residual < RESIDUAL_TOLERANCE, "seed {seed}: residual {residual}");
        }
    }

    #[test]
    fn dependent_rows_are_skipped_and_consistent_systems_still_met() {
        // Four rows of rank three, as a face's four coplanar points in a
        // rigid pass; the right-hand side is in the range (b = J y).
        for seed in 0..20 {
            let mut next = numbers(100 + seed);
            let (a, j) = gram(4, 3, &mut next);
            let y: Vec<f64> = (0..3).map(|_| next()).collect();
            let b: Vec<f64> = (0..4).map(|r| (0..3).map(|t| j[r * 3 + t] * y[t]).sum()).collect();
            let (mut factor, mut x) = (a.clone(), b.clone());
            ldlt_solve_in_place(&mut factor, 4, &mut x);
            assert!(x.iter().all(|v| v.is_finite()), "seed {seed}: {x:?}");
            assert_eq!(x[3], 0.0, "the last of four rows of rank three is dependent");
            let residual = relative_residual(&a, 4, &x, &b);
            assert!(residual < 1e-6, "seed {seed}: residual {residual}");
        }
    }

    #[test]
    fn only_small_islands_holding_a_mass_ratio_chain_are_solved_directly() {
        // Body 0 is the static stand-in. Island {1, 2} holds a chain;
        // island {3, 4} does not; bodies 5..=17 form a chain island of 13
        // four-point manifolds, beyond the row cap; the ground contacts of
        // 1 and 3 join their islands through their dynamic body only.
        let mut pairs = vec![(0, 1), (1, 2), (0, 3), (3, 4)];
        let mut in_chain = vec![true, true, false, false];
        for b in 5..18 {
            pairs.push((b, b + 1));
            in_chain.push(b == 5);
        }
        let counts = pairs.iter().map(|_| 4u32);
        let mut blocks = ChainBlocks::default();
        blocks.find(&pairs, &in_chain, counts, 19);
        const { assert!(13 * MAX_MANIFOLD_POINTS > MAX_BLOCK_ROWS) };
        assert_eq!(&blocks.slot_block[..4], &[0, 0, NO_BLOCK, NO_BLOCK]);
        assert!(blocks.slot_block[4..].iter().all(|&b| b == NO_BLOCK));

        // Without any chain nothing is solved directly.
        let none = vec![false; pairs.len()];
        blocks.find(&pairs, &none, pairs.iter().map(|_| 4u32), 19);
        assert!(blocks.slot_block.iter().all(|&b| b == NO_BLOCK));
    }
}
