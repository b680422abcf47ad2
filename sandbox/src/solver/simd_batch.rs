//! The contact solver's hot passes (warm start, push, relax) run on batches
//! of four manifolds at once, one manifold per SIMD lane, as Box2D v3's
//! `contact_solver.c` does with its wide contact constraints. The manifolds
//! of a batch share no awake body (see `constraint_batches.rs`), so no
//! body is in two lanes: each lane gathers its two bodies'
//! velocities and pose changes, the batch is solved, and the lanes scatter
//! the bodies back. The equations are those of the parent module's
//! derivation and of [`ConstraintBatch`]'s constraint-space sweep; the
//! manifolds are the lanes and each manifold's points are walked in order,
//! each step of the Gauss-Seidel chain from point to point one vector
//! multiply-add. (Before, the points were the lanes and the chain was
//! scalar, one manifold at a time.) Departure from Box2D: its points are
//! solved one row at a time against the bodies, ours in constraint space
//! with the coupling matrix. Unused lanes (a batch's last, partial
//! group, and the points past a manifold's count) hold zero masses and
//! impulses and body 0, the static stand-in, so they compute zero impulses
//! and are never written back.

// The per-point fields are parallel arrays walked by point index, which
// reads as the equations do.
#![allow(clippy::needless_range_loop)]

use std::mem::offset_of;

use collide::nalgebra::Vector3;

use super::contact_solver::SolverParams;
use crate::collision::manifold::MAX_MANIFOLD_POINTS;
use crate::prefetch::{prefetch, prefetch_ptr};
use crate::solver::simd_target::per_simd_target;
use crate::solver::solver_body::{BodyWindow, SolverBody};
use crate::solver::step_impulses::StepImpulses;
// One scalar, vector or symmetric matrix per manifold of a batch.
pub(super) use crate::wide_lanes::{W, WideSym, WideVec};

/// Manifolds solved side by side, one per lane.
pub(crate) const LANES: usize = 4;

/// Most sweeps over one manifold's normal rows in one push or relax
/// iteration (see [`ConstraintBatch::converge_normal`]): Gauss-Seidel on a
/// face of four points reaches the sweep tolerance from an impact at
/// 2,000 m/s within a few sweeps; the cap only bounds a lane that stalls.
pub(crate) const MAX_MANIFOLD_SWEEPS: usize = 8;

/// Most further normal solves of one relax iteration after its friction
/// (see [`ConstraintBatch::relax`]), each but the last followed by the
/// friction again.
///
/// Why. Friction acts at the manifold's centre, off each point, so its
/// impulse turns the bodies and moves every point's normal velocity
/// (`K_{i,t}`), and the relax pass used to end on it: at an impact the
/// friction that stopped the slip a corner's normal impulse made left
/// other corners closing or separating at metres per second. The next
/// substep's warm start applied the whole impact again, which the push pass
/// (normals only) could not take back, and the spin carried into the
/// next corners: a cuboid fired at a 1 cm wall at 100 m/s, spinning at
/// 10 rad/s, came back at 10.1 m/s (rapier3d: 2.5 m/s), and at friction 0
/// at 0.9 m/s (issue 41). Solving the normals again after the friction
/// brought it to 2.2 m/s (rapier3d: 2.5 m/s; 1.8 m/s with rounds run down
/// to the sweep tolerance, which cost falling-boxes 1000 11 %). A
/// resting or sliding contact's friction moves the normals by far less
/// than the push-out speed per substep, so the rounds run at impacts only.
pub(crate) const MAX_FRICTION_ROUNDS: usize = 3;

/// Number of point pairs `j < i` of a manifold: the entries of the strict
/// upper triangle of its normal rows' coupling matrix.
pub(super) const COUPLING_PAIRS: usize = MAX_MANIFOLD_POINTS * (MAX_MANIFOLD_POINTS - 1) / 2;

/// Index of the pair `j < i` in [`ConstraintBatch::coupling`]: the pairs
/// row by row, `(0,1), (0,2), (0,3), (1,2), (1,3), (2,3)`.
#[inline]
pub(super) const fn pair_index(j: usize, i: usize) -> usize {
    debug_assert!(j < i && i < MAX_MANIFOLD_POINTS);
    j * (2 * MAX_MANIFOLD_POINTS - j - 1) / 2 + (i - j - 1)
}

/// Two unit tangents completing `n` to an orthonormal basis (Duff et al.,
/// "Building an Orthonormal Basis, Revisited", 2017), lane by lane.
#[inline(always)]
pub(super) fn tangent_basis(n: &WideVec) -> [WideVec; 2] {
    // copysign(1, n_z): the sign bit decides, so -0 gives -1.
    let sign = n.z.is_sign_negative().select(W::splat(-1.0), W::ONE);
    let a = W::splat(-1.0) / (sign + n.z);
    let b = n.x * n.y * a;
    [
        WideVec { x: W::ONE + sign * n.x * n.x * a, y: sign * b, z: -sign * n.x },
        WideVec { x: b, y: sign + n.y * n.y * a, z: -n.y },
    ]
}

/// The friction rows' directions of every lane of a batch (see
/// [`ConstraintBatch::friction_axes`]).
pub(super) struct FrictionAxes {
    /// The two unit tangents.
    pub tangents: [WideVec; 2],
    /// `c × t_k` for each tangent, `c` the friction centre from each body's
    /// centre of mass.
    pub rt_a: [WideVec; 2],
    pub rt_b: [WideVec; 2],
}

/// The two bodies' state of every lane, gathered from the solver array.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WideBody {
    linear_velocity: WideVec,
    angular_velocity: WideVec,
    delta_position: WideVec,
    delta_angle: WideVec,
}

impl WideBody {
    /// Loads each lane's body as three rows of four (its twelve floats in
    /// [`SolverBody`](crate::solver::solver_body::SolverBody)'s field order) and transposes the rows into lanes:
    /// row 0 holds `v.x v.y v.z ω.x`, row 1 `ω.y ω.z Δp.x Δp.y`, row 2
    /// `Δp.z Δθ.x Δθ.y Δθ.z`.
    #[inline(always)]
    fn gather(bodies: &BodyWindow<'_>, index: &[u32; LANES]) -> Self {
        // Written out: `index.map` is not always inlined.
        let row = |lane: usize| bodies.rows(index[lane]);
        let rows = [row(0), row(1), row(2), row(3)];
        let column = |r: usize| W::transpose([rows[0][r], rows[1][r], rows[2][r], rows[3][r]]);
        let [vx, vy, vz, wx] = column(0);
        let [wy, wz, px, py] = column(1);
        let [pz, ax, ay, az] = column(2);
        Self {
            linear_velocity: WideVec { x: vx, y: vy, z: vz },
            angular_velocity: WideVec { x: wx, y: wy, z: wz },
            delta_position: WideVec { x: px, y: py, z: pz },
            delta_angle: WideVec { x: ax, y: ay, z: az },
        }
    }

    /// Writes the velocities back (the pose changes are only read by the
    /// solver), skipping the static stand-in: the inverse of
    /// [`Self::gather`]'s transposes for rows 0 and 1, stored whole (row 1's
    /// `Δp.x Δp.y` go back as they were gathered).
    #[inline(always)]
    fn scatter(&self, bodies: &mut BodyWindow<'_>, index: &[u32; LANES]) {
        let (v, w, p) = (&self.linear_velocity, &self.angular_velocity, &self.delta_position);
        let row0 = W::transpose([v.x, v.y, v.z, w.x]);
        let row1 = W::transpose([w.y, w.z, p.x, p.y]);
        for (lane, &i) in index.iter().enumerate() {
            bodies.set_first_rows(i, row0[lane], row1[lane]);
        }
    }
}

/// [`ConstraintBatch::quiet_separation`] of a lane that holds no manifold:
/// any positive length, so that the lane never keeps its batch from being
/// skipped (its bodies are the static stand-in, at rest).
pub(super) const EMPTY_LANE_SEPARATION: f32 = 1.0;

/// What a bound of [`ConstraintBatch::is_quiet`] must clear, as a fraction
/// of the terms it sums: a hundred times the few single-precision roundings
/// (about 6e-8 each) that the rows' own arithmetic makes on those terms.
const QUIET_MARGIN: f32 = 1e-5;

/// Up to [`LANES`] manifolds that share no awake body, field by field with
/// one lane per manifold; each per-point field is an array over the points.
/// [`prepare`](super::prepare::prepare) writes a manifold straight into its
/// lane.
///
/// A manifold is solved in constraint space. A sequential (Gauss-Seidel)
/// sweep over its rows (the normal points, then twist, then the tangent
/// pair) applies each row's impulse to the two bodies before the next row
/// reads their velocities. An impulse `Δλ_j` on row `j` changes row `i`'s
/// velocity by `K_ij Δλ_j`, `K = J M⁻¹ Jᵀ`, so the sweep can read every
/// row's velocity from the bodies once, carry the updates as the scalars
/// `v_i += K_ij Δλ_j`, and apply the summed impulses to the bodies once at
/// the end. The iterates are the row-by-row sweep's up to rounding (the one
/// term dropped, a normal impulse's linear effect on a tangent velocity
/// `(m_A⁻¹ + m_B⁻¹) n·t_k`, is zero in real arithmetic), but the dependency
/// from one row to the next is one multiply-add instead of two body updates
/// and three dot products, and the bodies are read and written once per
/// manifold instead of once per row.
///
/// The layout is fixed (`repr(C)`), cache-line aligned, with the impulses
/// on the lines after the first and then the fields the push pass reads,
/// so that pass streams only the front of each batch.
#[derive(Clone, Debug, Default, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct ConstraintBatch {
    /// Solver indices of the two bodies (0, the static stand-in, in unused lanes).
    pub(super) body_a: [u32; LANES],
    pub(super) body_b: [u32; LANES],
    /// The largest point count of the lanes: the passes walk only that many
    /// points (the rest are zero in every lane), through a copy of each
    /// pass compiled for each count. Zero (a default batch) walks them all.
    /// Read first, so it sits on the batch's first cache line.
    pub(super) point_count: u32,
    /// Whether any lane has restitution.
    pub(super) has_restitution: bool,
    /// Per lane, the smallest separation of its points at the start of the
    /// step ([`EMPTY_LANE_SEPARATION`] in an unused lane): with the two
    /// reaches below and the normal, what [`Self::is_quiet`] reads to skip
    /// a batch whose pass would change nothing.
    pub(super) quiet_separation: W,
    /// The accumulated impulses, on the two cache lines after the first:
    /// the warm start reads them (with the first line) to skip a batch that
    /// holds none, and asks for the rest of a batch only when it holds one
    /// (see [`LoadedAhead`]).
    pub(super) normal_impulse: [W; MAX_MANIFOLD_POINTS],
    pub(super) tangent_impulse: [W; 2],
    pub(super) twist_impulse: W,
    /// Per lane, the largest `|r_A × n|` and `|r_B × n|` over its points:
    /// how far a turn of either body moves a point along the normal, per
    /// radian (zero in an unused lane).
    pub(super) reach_a: W,
    pub(super) reach_b: W,
    /// Unit normal from A to B.
    pub(super) normal: WideVec,
    pub(super) inv_mass_a: W,
    pub(super) inv_mass_b: W,
    /// The soft spring's coefficients (see the parent module).
    pub(super) mass_scale: W,
    pub(super) bias_rate: W,
    pub(super) impulse_scale: W,
    pub(super) normal_mass: [W; MAX_MANIFOLD_POINTS],
    /// `coupling[pair_index(j, i)]`: change of point `i`'s normal velocity
    /// per unit normal impulse at point `j`, the entry `K_ij` of
    /// `K = J M⁻¹ Jᵀ`, for the points after `j` only (`i > j`): the sweep
    /// solves point `j` before `i`, so only those see its impulse. Zero for
    /// points past the manifold's count.
    pub(super) coupling: [W; COUPLING_PAIRS],
    /// `r_A × n` at each point, `r_A` the anchor from A's centre of mass to
    /// the contact point (world axes); zero past a lane's count.
    pub(super) rn_a: [WideVec; MAX_MANIFOLD_POINTS],
    /// `(c_A - c_B) × n`, with `c` the centres of mass: B's
    /// `r_B × n = r_A × n + (c_A - c_B) × n` at every point (see
    /// [`Self::rn_b`]), so the batch stores one vector for B's four. A
    /// velocity then reads `ω_B·(r_B × n) - ω_A·(r_A × n)` as
    /// `(ω_B - ω_A)·(r_A × n) + ω_B·shift`, one dot product per point.
    pub(super) rn_shift: WideVec,
    /// Each body's inverse inertia in world axes. An update sums the
    /// angular impulses `Σ λ (r × n) + …` first and multiplies once, rather
    /// than storing every row's response `I⁻¹ (r × n)`: twelve
    /// numbers per lane in place of forty-two, which matters once the
    /// batches outgrow the caches (falling-boxes 16,000 streams about
    /// 20 MB of them three times per substep).
    pub(super) inv_inertia_a: WideSym,
    pub(super) inv_inertia_b: WideSym,
    /// Separation at the start of the step; the current one is this plus
    /// `(Δp_B - Δp_A)·n + Δθ_B·(r_B × n) - Δθ_A·(r_A × n)`.
    pub(super) separation: [W; MAX_MANIFOLD_POINTS],
    /// Largest normal impulse of the step, for restitution: kept only when
    /// `has_restitution` (it is read for lanes with restitution only).
    pub(super) max_normal_impulse: [W; MAX_MANIFOLD_POINTS],
    /// Change of the twist velocity `(ω_B - ω_A)·n` per unit normal impulse
    /// at each point.
    pub(super) twist_coupling: [W; MAX_MANIFOLD_POINTS],
    /// Change of each tangent velocity at the friction centre per unit
    /// normal impulse at each point.
    pub(super) tangent_coupling: [[W; MAX_MANIFOLD_POINTS]; 2],
    /// Distance from the friction centre: each point's lever arm in twist.
    pub(super) lever_arm: [W; MAX_MANIFOLD_POINTS],
    pub(super) friction: W,
    /// Change of the two tangent velocities per unit twist impulse.
    pub(super) twist_tangent_coupling: [W; 2],
    /// Inverse of the 2×2 effective mass of the two tangent directions
    /// (they couple through rotation), a symmetric matrix stored as its
    /// entries `[00, 01, 11]`.
    pub(super) tangent_mass: [W; 3],
    pub(super) twist_mass: W,
    /// Friction centre from each centre of mass, world axes (with the
    /// normal, all the friction rows need: see [`Self::friction_axes`]).
    pub(super) center_a: WideVec,
    pub(super) center_b: WideVec,
    /// Tangential gap between the anchor points at the start of the step
    /// (B's minus A's, world frame; zero without an anchor).
    pub(super) anchor_gap: WideVec,
    /// Rate (1/s) at which the anchor gap is closed.
    pub(super) anchor_rate: W,
}

impl ConstraintBatch {
    /// Whether any lane holds an impulse (normal at its first `N` points,
    /// friction or twist). A batch without one is all speculative or new
    /// contacts, and its warm start would add zero to every velocity: in
    /// falling-boxes 16,000 that is half the batches (bodies falling side
    /// by side), each a gather and a scatter of eight bodies saved per
    /// substep. Adding a zero impulse changes a velocity only if it is
    /// exactly -0.0 (to +0.0); the pose hashes of every SCENES.md scene,
    /// sleeping or not, are the same with the skip as without.
    #[inline(always)]
    fn is_loaded<const N: usize>(&self) -> bool {
        let mut any = self.twist_impulse.simd_ne(W::ZERO)
            | self.tangent_impulse[0].simd_ne(W::ZERO)
            | self.tangent_impulse[1].simd_ne(W::ZERO);
        for i in 0..N {
            any |= self.normal_impulse[i].simd_ne(W::ZERO);
        }
        any.any()
    }

    /// Whether this pass would leave every lane exactly as it is, so that
    /// it may skip the batch: every lane holds no impulse, and every point
    /// stays apart with room to spare at its present approach, so the
    /// speculative row's impulse `max(-m (v_n + s / h), 0)` is zero in both
    /// the push and the relax pass (and friction and twist, limited by the
    /// normal impulses, are zero too).
    ///
    /// It is decided from the bodies, which the pass gathers anyway, and the
    /// first four cache lines of the batch, not the rows: each point's
    /// separation is at least the lane's smallest at the start of the step
    /// plus the centres' approach along the normal less each body's turn
    /// times its reach, and its normal velocity at least the centres' less
    /// each body's spin times its reach (`|ω·(r × n)| ≤ |ω| |r × n|`). Both
    /// bounds must clear [`QUIET_MARGIN`] of the terms they sum, far above
    /// the rounding of the rows' own arithmetic, so a skipped lane is one
    /// whose impulse the pass computes as exactly zero: the same bits. In
    /// falling-boxes 16,000 four lanes in five are speculative pairs that
    /// never touch within the step. NaN compares false: not quiet.
    #[inline(always)]
    fn is_quiet<const N: usize>(
        &self,
        ba: &WideBody,
        bb: &WideBody,
        params: &SolverParams,
    ) -> bool {
        let s0 = self.quiet_separation;
        if !s0.simd_gt(W::ZERO).all() || self.is_loaded::<N>() {
            return false;
        }
        let n = &self.normal;
        let length = |v: &WideVec| v.dot(v).sqrt();
        let approach = (bb.delta_position - ba.delta_position).dot(n);
        let turned =
            self.reach_a * length(&ba.delta_angle) + self.reach_b * length(&bb.delta_angle);
        let separation = s0 + approach - turned;
        let closing = (bb.linear_velocity - ba.linear_velocity).dot(n);
        let spun = self.reach_a * length(&ba.angular_velocity)
            + self.reach_b * length(&bb.angular_velocity);
        let velocity = closing - spun;
        let h = W::splat(1.0 / params.inv_h);
        let scale = s0 + approach.abs() + turned + h * (closing.abs() + spun);
        let margin = W::splat(QUIET_MARGIN) * scale;
        (separation.simd_gt(margin) & (separation + h * velocity).simd_gt(margin)).all()
    }

    /// Applies normal impulses at the points, friction along the tangents at
    /// the centre and a twist about the normal, summed into one update per body.
    #[inline(always)]
    fn apply<const N: usize>(
        &self,
        ba: &mut WideBody,
        bb: &mut WideBody,
        normal: &[W; MAX_MANIFOLD_POINTS],
        axes: &FrictionAxes,
        friction: [W; 2],
        twist: W,
    ) {
        let (total, lever_a, lever_b) = self.normal_sums::<N>(normal);
        let (t, rt_a, rt_b) = (&axes.tangents, &axes.rt_a, &axes.rt_b);
        let lever_a = lever_a + self.normal * twist + rt_a[0] * friction[0] + rt_a[1] * friction[1];
        let lever_b = lever_b + self.normal * twist + rt_b[0] * friction[0] + rt_b[1] * friction[1];
        let p = self.normal * total + t[0] * friction[0] + t[1] * friction[1];
        self.kick(ba, bb, p, lever_a, lever_b);
    }

    /// The friction rows' directions of every lane, recomputed from the
    /// normal and the friction centres by every pass that needs them
    /// rather than kept in the batch (eighteen numbers per lane fewer to
    /// stream; the same function of the same inputs as in `prepare`, so
    /// the same bits).
    #[inline(always)]
    pub(super) fn friction_axes(&self) -> FrictionAxes {
        let tangents = tangent_basis(&self.normal);
        FrictionAxes {
            rt_a: [self.center_a.cross(&tangents[0]), self.center_a.cross(&tangents[1])],
            rt_b: [self.center_b.cross(&tangents[0]), self.center_b.cross(&tangents[1])],
            tangents,
        }
    }

    /// Applies normal impulses at the points only.
    #[inline(always)]
    fn apply_normals<const N: usize>(
        &self,
        ba: &mut WideBody,
        bb: &mut WideBody,
        normal: &[W; MAX_MANIFOLD_POINTS],
    ) {
        let (total, lever_a, lever_b) = self.normal_sums::<N>(normal);
        self.kick(ba, bb, self.normal * total, lever_a, lever_b);
    }

    /// The first `N` points' normal impulses summed, and their angular
    /// impulses `Σ λ (r × n)` on each body.
    #[inline(always)]
    fn normal_sums<const N: usize>(
        &self,
        normal: &[W; MAX_MANIFOLD_POINTS],
    ) -> (W, WideVec, WideVec) {
        let mut total = normal[0];
        let mut lever_a = self.rn_a[0] * normal[0];
        for i in 1..N {
            total += normal[i];
            lever_a += self.rn_a[i] * normal[i];
        }
        // Σ λ (r_B × n) = Σ λ (r_A × n) + shift Σ λ.
        let lever_b = lever_a + self.rn_shift * total;
        (total, lever_a, lever_b)
    }

    /// Applies linear impulse `p` (from A to B) and the angular impulses
    /// `lever_a`, `lever_b` (taken from A, given to B) to both bodies.
    #[inline(always)]
    fn kick(
        &self,
        ba: &mut WideBody,
        bb: &mut WideBody,
        p: WideVec,
        lever_a: WideVec,
        lever_b: WideVec,
    ) {
        ba.linear_velocity -= p * self.inv_mass_a;
        ba.angular_velocity -= self.inv_inertia_a.mul(&lever_a);
        bb.linear_velocity += p * self.inv_mass_b;
        bb.angular_velocity += self.inv_inertia_b.mul(&lever_b);
    }

    /// Point `point`'s angular response on A in `lane`, `I_A⁻¹ (r_A × n)`.
    pub(super) fn irn_a(&self, point: usize, lane: usize) -> Vector3<f32> {
        self.inv_inertia_a.get(lane) * self.rn_a[point].get(lane)
    }

    /// Point `point`'s angular response on B in `lane`, `I_B⁻¹ (r_B × n)`.
    pub(super) fn irn_b(&self, point: usize, lane: usize) -> Vector3<f32> {
        self.inv_inertia_b.get(lane) * self.rn_b(point).get(lane)
    }

    /// `r_B × n` at point `point` (not zero past a lane's count, where
    /// every mass and impulse is).
    #[inline(always)]
    pub(super) fn rn_b(&self, point: usize) -> WideVec {
        self.rn_a[point] + self.rn_shift
    }

    /// The first `N` points' current separations: the separation at the
    /// start of the step plus the pose change so far, to first order in the
    /// rotation (`(Δθ × r)·n = Δθ·(r × n)`). Computed by every pass from the
    /// bodies it gathered anyway, rather than kept in the batch: the pose
    /// changes only move between the push and the relax phases, so every
    /// iteration of a phase gets the same bits, and the batch is 64 bytes
    /// shorter, with no scratch written back to memory.
    #[inline(always)]
    pub(super) fn current_separations<const N: usize>(
        &self,
        ba: &WideBody,
        bb: &WideBody,
    ) -> [W; MAX_MANIFOLD_POINTS] {
        let dp_n = (bb.delta_position - ba.delta_position).dot(&self.normal);
        let base = dp_n + self.rn_shift.dot(&bb.delta_angle);
        let turn = bb.delta_angle - ba.delta_angle;
        let mut s = [W::ZERO; MAX_MANIFOLD_POINTS];
        for i in 0..N {
            s[i] = self.rn_a[i].dot(&turn) + (self.separation[i] + base);
        }
        s
    }

    /// The two bodies of every lane, gathered (for the tests).
    #[cfg(test)]
    pub(super) fn gather_pair(&self, bodies: &BodyWindow<'_>) -> (WideBody, WideBody) {
        (WideBody::gather(bodies, &self.body_a), WideBody::gather(bodies, &self.body_b))
    }

    /// Lane `lane`'s current separation at point `point` (see
    /// [`Self::current_separations`]), from its two bodies: the same bits.
    pub(super) fn current_separation(
        &self,
        point: usize,
        lane: usize,
        a: &SolverBody,
        b: &SolverBody,
    ) -> f32 {
        let dot = |u: Vector3<f32>, v: Vector3<f32>| u.x * v.x + u.y * v.y + u.z * v.z;
        let dp_n = dot(b.delta_position() - a.delta_position(), self.normal.get(lane));
        let base = dp_n + dot(self.rn_shift.get(lane), b.delta_angle());
        let turn = b.delta_angle() - a.delta_angle();
        dot(self.rn_a[point].get(lane), turn) + (self.separation[point].as_array()[lane] + base)
    }

    /// The normal constraints of every lane, swept in constraint space (see
    /// [`ConstraintBatch`]); returns each point's impulse change, which the
    /// caller applies to the bodies. With `USE_BIAS` overlap is pushed out
    /// softly; without it only the velocity error (and any speculative gap)
    /// is handled, rigidly.
    #[inline(always)]
    fn solve_normal<const USE_BIAS: bool, const N: usize>(
        &mut self,
        ba: &WideBody,
        bb: &WideBody,
        params: &SolverParams,
    ) -> [W; MAX_MANIFOLD_POINTS] {
        // Normal velocity vn = (v_B - v_A)·n + ω_B·(r_B × n) - ω_A·(r_A × n).
        let n = &self.normal;
        let separation = self.current_separations::<N>(ba, bb);
        let dv_n = (bb.linear_velocity - ba.linear_velocity).dot(n)
            + self.rn_shift.dot(&bb.angular_velocity);
        let spin = bb.angular_velocity - ba.angular_velocity;
        let (soft_mass_scale, soft_bias_rate, soft_impulse_scale) = if USE_BIAS {
            (self.mass_scale, self.mass_scale * self.bias_rate, self.impulse_scale)
        } else {
            (W::ONE, W::ZERO, W::ZERO)
        };
        // Soft pass: the spring's scales and a bias capped at the push-out
        // speed; rigid pass: no bias. Speculative points (s > 0) may close
        // the gap within this substep.
        let max_push_out = W::splat(-params.max_push_out);
        let inv_h = W::splat(params.inv_h);
        let mut slope = [W::ZERO; MAX_MANIFOLD_POINTS];
        let mut w = [W::ZERO; MAX_MANIFOLD_POINTS];
        let old = self.normal_impulse;
        // The soft pass of a manifold of several points pushes the mean
        // overlap of its touching points out at the spring's rate, and
        // their differences (the tilt) at the faster tilt rate (see
        // `Self::touching_mean`).
        let (mean, soft_tilt_rate) = if USE_BIAS && N > 1 {
            self.touching_mean::<N>(&separation, params)
        } else {
            (W::ZERO, soft_bias_rate)
        };
        for i in 0..N {
            let vn = self.rn_a[i].dot(&spin) + dv_n;
            let s = separation[i];
            let speculative = s.simd_gt(W::ZERO);
            let soft_bias = if USE_BIAS && N > 1 {
                (mean * soft_bias_rate + (s - mean) * soft_tilt_rate).max(max_push_out)
            } else {
                (s * soft_bias_rate).max(max_push_out)
            };
            let bias = speculative.select(s * inv_h, soft_bias);
            let mass_scale = speculative.select(W::ONE, soft_mass_scale);
            let impulse_scale = speculative.select(W::ZERO, soft_impulse_scale);
            let m = self.normal_mass[i];
            slope[i] = -(m * mass_scale);
            w[i] = slope[i] * vn + (old[i] - m * bias - impulse_scale * old[i]);
        }
        // λ_new = max(λ - m (s_m vn + b) - s_i λ, 0) = max(slope vn + offset, 0).
        // Point i sees vn_i + Σ_{j<i} K_ij (λ_j,new - λ_j,old), so
        // λ_i,new = max(w_i + Σ_{j<i} G_ij λ_j,new, 0) with G_ij = slope_i K_ij
        // and w_i = slope_i vn_i + offset_i - Σ_{j<i} G_ij λ_j,old, all known
        // before the sequential part.
        for j in 0..N {
            for i in j + 1..N {
                w[i] -= slope[i] * self.coupling[pair_index(j, i)] * old[j];
            }
        }
        let mut new = [W::ZERO; MAX_MANIFOLD_POINTS];
        for j in 0..N {
            new[j] = w[j].max(W::ZERO);
            for i in j + 1..N {
                w[i] += slope[i] * self.coupling[pair_index(j, i)] * new[j];
            }
        }
        if N > 1 {
            self.converge_normal::<N>(&slope, &old, &mut w, &mut new, params);
        }
        if self.has_restitution {
            for i in 0..N {
                self.max_normal_impulse[i] = self.max_normal_impulse[i].max(new[i]);
            }
        }
        let mut deltas = [W::ZERO; MAX_MANIFOLD_POINTS];
        for i in 0..N {
            deltas[i] = new[i] - old[i];
        }
        self.normal_impulse = new;
        deltas
    }

    /// The mass-weighted mean separation of each lane's touching points
    /// (`s_i ≤ 0`; zero where none touches), and the soft pass's rate for
    /// the points' differences from it: `mass_scale` times the larger of
    /// the lane's bias rate and [`SolverParams::tilt_bias_rate`].
    ///
    /// Why. With one spring per point, a manifold resists a tilt exactly as
    /// it resists compression: its tilt stiffness is `Σ k_i r_i²`, with
    /// `k_i = m_i ω²` the compression stiffness of point `i` (see
    /// `load_stiffening.rs`). A column of cubes on such springs is a
    /// column of hinges with rotational springs under the weight above
    /// them, which buckles once that weight times its height passes the
    /// springs' stiffness: at 50 Hz (100 Hz against the ground) the
    /// eigenvalues of that hinge chain (a cube's weight times the height of
    /// the cubes above each hinge against `Σ k_i r_i²`) put the limit at 21
    /// unit cubes, at 120 Hz at 38, matching the columns that fell (issue
    /// 41: 20 stood, 25 fell; at 120 Hz 25 and 30 stood, 40 fell). In the
    /// push pass's steady state (velocity zero) point `i` holds
    /// `b_c s̄ + b_t (s_i - s̄) = -γ_i λ_i` (`γ_i = K_ii is / ms`, parent
    /// module), so the mean compression `s̄` keeps the spring's stiffness
    /// while the tilt is stiffer by `b_t / b_c`. Only the position bias
    /// changes: the row's mass and impulse scales (its implicit damping)
    /// stay the spring's, and the tilt's bias per substep, `b_t h`, stays
    /// far below the rigid rate `1 / h`.
    ///
    /// [`TILT_BIAS_FRACTION`]: crate::solver::contact_solver::TILT_BIAS_FRACTION
    #[inline(always)]
    fn touching_mean<const N: usize>(
        &self,
        separation: &[W; MAX_MANIFOLD_POINTS],
        params: &SolverParams,
    ) -> (W, W) {
        let mut mass = W::ZERO;
        let mut weighted = W::ZERO;
        for i in 0..N {
            let touching = separation[i].simd_le(W::ZERO);
            let m = touching.select(self.normal_mass[i], W::ZERO);
            mass += m;
            weighted += m * separation[i];
        }
        // No touching point (or NaN): the mean is unused, and zero.
        let mean = mass.simd_gt(W::ZERO).select(weighted / mass, W::ZERO);
        let tilt_rate = self.bias_rate.max(W::splat(params.tilt_bias_rate));
        (mean, self.mass_scale * tilt_rate)
    }

    /// Further sweeps over the normal rows of the lanes whose first sweep
    /// left a point more than [`SolverParams::sweep_tolerance`] from its
    /// target, until none does (at most [`MAX_MANIFOLD_SWEEPS`] in all).
    ///
    /// One sweep leaves each point's velocity changed by the impulses of
    /// the points after it. That error is small while a contact carries a
    /// substep's weight, but an impact stops a body within one substep: the
    /// first points of the sweep then take impulses that the later ones
    /// would have made unnecessary, each off the body's centre, and leave
    /// it spinning (a 1.3 kg hull at 500 m/s spun at 370 rad/s, and came
    /// back from a wall). Converging the manifold's rows removes that spin.
    ///
    /// The sweeps run in constraint space on the first sweep's quantities.
    /// Point `i`'s argument `w_i` (its impulse before the clamp at zero) at
    /// its next turn is its last one plus `slope_i` times the coupling
    /// `Σ K_ij Δλ_j` of the impulses other points changed since: its own
    /// change drops out, for the soft rows as for the rigid ones, because
    /// `mass_scale + impulse_scale = 1` (so a single row's second sweep
    /// changes nothing, and extra sweeps keep the soft step's spring; they
    /// converge the manifold's coupled rows to the same regularised
    /// solution).
    #[inline(always)]
    fn converge_normal<const N: usize>(
        &self,
        slope: &[W; MAX_MANIFOLD_POINTS],
        old: &[W; MAX_MANIFOLD_POINTS],
        w: &mut [W; MAX_MANIFOLD_POINTS],
        new: &mut [W; MAX_MANIFOLD_POINTS],
        params: &SolverParams,
    ) {
        // Coupling each point has not seen yet: the first sweep's changes at
        // the points after it.
        let mut pending = [W::ZERO; MAX_MANIFOLD_POINTS];
        for j in 0..N {
            let change = new[j] - old[j];
            for i in 0..j {
                pending[i] += self.coupling[pair_index(i, j)] * change;
            }
        }
        let tolerance = W::splat(params.sweep_tolerance);
        let mut last_error = W::splat(f32::INFINITY);
        for _ in 1..MAX_MANIFOLD_SWEEPS {
            // The impulse change the next sweep would make at each point
            // (from the pending coupling only): a lane sweeps again while
            // one would change its point's velocity by more than the
            // tolerance (`|Δλ_i| > tolerance · m_i`, no division) and its
            // largest change still shrinks. NaN compares false and stops
            // the lane.
            let mut off_target = W::ZERO.simd_gt(W::ONE);
            let mut error = W::ZERO;
            for i in 0..N {
                let change = ((w[i] + slope[i] * pending[i]).max(W::ZERO) - new[i]).abs();
                off_target |= change.simd_gt(tolerance * self.normal_mass[i]);
                error = error.max(change);
            }
            let active = off_target & error.simd_lt(last_error);
            if active.none() {
                break;
            }
            last_error = active.select(error, W::ZERO);
            for i in 0..N {
                w[i] = active.select(w[i] + slope[i] * pending[i], w[i]);
                pending[i] = W::ZERO;
                let next = w[i].max(W::ZERO);
                let change = next - new[i];
                new[i] = next;
                for k in 0..N {
                    if k != i {
                        let pair = if k < i { pair_index(k, i) } else { pair_index(i, k) };
                        pending[k] += self.coupling[pair] * change;
                    }
                }
            }
        }
    }

    /// The relax pass of every lane: normals without bias, then twist and
    /// friction at the manifold centre (solved only here, as box3d does:
    /// against rigid normals friction cannot feed the rocking of a soft
    /// contact, which made tall stacks walk), then, while the friction
    /// moved a point's normal velocity by more than the push-out speed,
    /// the normals and the friction again, ending on the normals (at most
    /// [`MAX_FRICTION_ROUNDS`] more normal solves; see there for why).
    #[inline(always)]
    fn relax<const N: usize>(
        &mut self,
        ba: &mut WideBody,
        bb: &mut WideBody,
        params: &SolverParams,
    ) {
        let deltas = self.solve_normal::<false, N>(ba, bb, params);
        let (mut friction, mut twist) = self.relax_friction::<N>(ba, bb, &deltas);
        for round in 0..MAX_FRICTION_ROUNDS {
            if !self.friction_moved_normals::<N>(friction, twist, params) {
                break;
            }
            let deltas = self.solve_normal::<false, N>(ba, bb, params);
            if round + 1 == MAX_FRICTION_ROUNDS {
                self.apply_normals::<N>(ba, bb, &deltas);
            } else {
                (friction, twist) = self.relax_friction::<N>(ba, bb, &deltas);
            }
        }
    }

    /// Whether the friction and twist impulse changes `friction`, `twist`
    /// moved any lane's point's normal velocity by more than the push-out
    /// speed [`SolverParams::max_push_out`] (an impact's friction; less is
    /// within what the next push pass takes back as it pushes overlap
    /// out, and in a pile of falling boxes a tolerance of the sweeps' 1 %
    /// of the slop per substep ran the rounds at every sliding contact,
    /// 11 % of the step): row `i` moves by
    /// `Σ_k K_{i,t_k} Δλ_t,k + K_{i,twist} Δλ_twist` (the tangents' linear
    /// impulse is along the surface and does not move it). NaN compares
    /// false: no further round.
    #[inline(always)]
    fn friction_moved_normals<const N: usize>(
        &self,
        friction: [W; 2],
        twist: W,
        params: &SolverParams,
    ) -> bool {
        let tolerance = W::splat(params.max_push_out);
        let mut moved = W::ZERO.simd_gt(W::ONE);
        for i in 0..N {
            let change = self.tangent_coupling[0][i] * friction[0]
                + self.tangent_coupling[1][i] * friction[1]
                + self.twist_coupling[i] * twist;
            moved |= change.abs().simd_gt(tolerance);
        }
        moved.any()
    }

    /// The twist and friction rows of the relax pass, after normal impulse
    /// changes `deltas` that the bodies do not hold yet: applies `deltas`
    /// with the friction and twist changes, and returns those changes.
    #[inline(always)]
    fn relax_friction<const N: usize>(
        &mut self,
        ba: &mut WideBody,
        bb: &mut WideBody,
        deltas: &[W; MAX_MANIFOLD_POINTS],
    ) -> ([W; 2], W) {
        // Twist and tangent velocities after the normal impulses, read from
        // the bodies plus the normal impulses' couplings:
        // v_t,k = (v_B - v_A)·t_k + ω_B·(c_B × t_k) - ω_A·(c_A × t_k), plus
        // the rate that closes the gap to the static-friction anchor, so
        // sticking contacts cannot creep.
        // The gap moves with the pose changes (recomputed by every
        // iteration, with the same bits within a relax phase, rather than
        // kept in the batch).
        let gap = self.anchor_gap
            + (bb.delta_position - ba.delta_position)
            + bb.delta_angle.cross(&self.center_b)
            - ba.delta_angle.cross(&self.center_a);
        let anchor_velocity = gap * self.anchor_rate;
        let drift = bb.linear_velocity - ba.linear_velocity + anchor_velocity;
        let axes = self.friction_axes();
        // (Two calls, not `[0, 1].map`, which is not always inlined.)
        let tangent_velocity = |k: usize| {
            drift.dot(&axes.tangents[k]) + bb.angular_velocity.dot(&axes.rt_b[k])
                - ba.angular_velocity.dot(&axes.rt_a[k])
        };
        let mut vt = [tangent_velocity(0), tangent_velocity(1)];
        let mut wn = (bb.angular_velocity - ba.angular_velocity).dot(&self.normal);
        let mut total_normal = W::ZERO;
        let mut twist_limit = W::ZERO;
        for i in 0..N {
            vt[0] += self.tangent_coupling[0][i] * deltas[i];
            vt[1] += self.tangent_coupling[1][i] * deltas[i];
            wn += self.twist_coupling[i] * deltas[i];
            total_normal += self.normal_impulse[i];
            twist_limit += self.lever_arm[i] * self.normal_impulse[i];
        }

        // Twist friction about the normal, limited by μ Σ λ_i r_i (max/min:
        // NaN-safe).
        let max_twist = self.friction * twist_limit;
        let twist = (self.twist_impulse - self.twist_mass * wn).max(-max_twist).min(max_twist);
        let twist_delta = twist - self.twist_impulse;
        self.twist_impulse = twist;
        vt[0] += self.twist_tangent_coupling[0] * twist_delta;
        vt[1] += self.twist_tangent_coupling[1] * twist_delta;

        // Friction at the centre: 2×2 block solve, projected on the Coulomb disk.
        let km = &self.tangent_mass;
        let old = self.tangent_impulse;
        let new0 = old[0] - (km[0] * vt[0] + km[1] * vt[1]);
        let new1 = old[1] - (km[1] * vt[0] + km[2] * vt[1]);
        let max_friction = self.friction * total_normal;
        let len_sq = new0 * new0 + new1 * new1;
        let outside = len_sq.simd_gt(max_friction * max_friction);
        let scale = outside.select(max_friction / len_sq.sqrt(), W::ONE);
        let new = [new0 * scale, new1 * scale];
        self.tangent_impulse = new;
        let friction = [new[0] - old[0], new[1] - old[1]];
        self.apply::<N>(ba, bb, deltas, &axes, friction, twist_delta);
        (friction, twist_delta)
    }
}

/// Evaluates `$body` with the const `$n` set to `$count` (1 to
/// [`MAX_MANIFOLD_POINTS`]; any other count, such as a default batch's 0,
/// as the largest), so each pass is
/// compiled once per point count and walks no point that every lane lacks.
macro_rules! by_point_count {
    ($count:expr, $n:ident => $body:expr) => {
        match $count {
            1 => {
                const $n: usize = 1;
                $body
            }
            2 => {
                const $n: usize = 2;
                $body
            }
            3 => {
                const $n: usize = 3;
                $body
            }
            _ => {
                const $n: usize = MAX_MANIFOLD_POINTS;
                $body
            }
        }
    };
}
const _: () = assert!(MAX_MANIFOLD_POINTS == 4, "by_point_count! lists the counts 1 to 4");

// The passes below gather each batch's bodies, solve, and scatter them
// back, in functions marked `inline(always)` (not closures, which the
// compiler may leave out of line): each pass is compiled whole for every
// instruction set `SimdTarget` lists (`simd_target.rs`), so on x86-64 with AVX-512 the
// 128-bit lanes get 32 registers instead of SSE2's 16 and spill less. The
// arithmetic is the same in every version (no fused multiply-add
// contraction), so the results are bit-identical.

/// Batches ahead of the one being solved whose constraint data a pass
/// asks for, when [`SolverParams::prefetch`] is set (see
/// [`crate::prefetch`]). The bodies are asked for one batch ahead,
/// as their indices are read from the batch. Two and four batches ahead
/// measured the same on falling-boxes 16,000.
const PREFETCH_AHEAD: usize = 2;

/// Bytes from a batch's start through the last field the push pass reads
/// (the normal rows, and the largest impulses kept for restitution): the
/// friction and twist fields after them are the relax pass's alone.
const PUSH_READS_END: usize =
    offset_of!(ConstraintBatch, max_normal_impulse) + size_of::<[W; MAX_MANIFOLD_POINTS]>();
const _: () = assert!(
    offset_of!(ConstraintBatch, separation) < PUSH_READS_END
        && offset_of!(ConstraintBatch, inv_inertia_b) < PUSH_READS_END
        && offset_of!(ConstraintBatch, rn_shift) < PUSH_READS_END
        && offset_of!(ConstraintBatch, coupling) < PUSH_READS_END,
    "the push pass's fields lead the batch"
);

/// Prefetches the first `BYTES` bytes of batch `index + PREFETCH_AHEAD` of
/// `batches` (what the pass reads of it), and the bodies of the batch after
/// `index`, where there are such.
#[inline(always)]
fn prefetch_ahead<const BYTES: usize>(
    batches: &[ConstraintBatch],
    index: usize,
    bodies: &BodyWindow<'_>,
) {
    if let Some(c) = batches.get(index + PREFETCH_AHEAD) {
        prefetch_ptr((c as *const ConstraintBatch).cast::<[u8; BYTES]>());
    }
    if let Some(c) = batches.get(index + 1) {
        prefetch_bodies(c, bodies);
    }
}

/// Asks for the eight bodies of batch `c` (see [`BodyWindow::prefetch`]),
/// lane by lane: a fixed count, so the loop unrolls to a few instructions
/// a body (the bounds-tested walk over `body_a` chained to `body_b` it
/// replaces stayed a loop, about 16 instructions a body).
#[inline(always)]
fn prefetch_bodies(c: &ConstraintBatch, bodies: &BodyWindow<'_>) {
    for lane in 0..LANES {
        bodies.prefetch(c.body_a[lane]);
        bodies.prefetch(c.body_b[lane]);
    }
}

const _: () = assert!(
    offset_of!(ConstraintBatch, normal) + size_of::<WideVec>() <= 4 * 64
        && offset_of!(ConstraintBatch, quiet_separation) < 64,
    "what `is_quiet` reads sits on a batch's first four lines"
);

/// Bytes from a batch's start through its last impulse field: what the
/// warm start reads of a batch that holds no impulse.
const IMPULSES_END: usize = {
    let normal =
        offset_of!(ConstraintBatch, normal_impulse) + size_of::<[W; MAX_MANIFOLD_POINTS]>();
    let tangent = offset_of!(ConstraintBatch, tangent_impulse) + size_of::<[W; 2]>();
    let twist = offset_of!(ConstraintBatch, twist_impulse) + size_of::<W>();
    let end = if normal > tangent { normal } else { tangent };
    if end > twist { end } else { twist }
};
const _: () = assert!(IMPULSES_END <= 3 * 64, "the impulses sit on a batch's first three lines");

/// Whether batch `c` holds an impulse ([`ConstraintBatch::is_loaded`] at
/// its point count).
#[inline(always)]
fn holds_impulse(c: &ConstraintBatch) -> bool {
    by_point_count!(c.point_count, N => c.is_loaded::<N>())
}

/// Whether each batch holds an impulse, found once per batch as a
/// prefetching warm start (see [`SolverParams::prefetch`]) walks them in
/// order, a few batches ahead: the warm start of batch `i` needs it, and
/// so does its prefetch for batches `i + 1` and `i + PREFETCH_AHEAD`.
/// Asked anew by each of those, it was found three times a batch. No pass
/// of the warm start changes a batch's impulses, so an answer found ahead
/// stays true. (Without prefetching each batch is asked once, as it is
/// warm started.)
///
/// The prefetch (see [`prefetch_ahead`]): half the batches of
/// falling-boxes 16,000 hold no impulse and are skipped after reading
/// their first three lines, so it asks for those lines of the batch
/// `2 PREFETCH_AHEAD + 1` ahead (read when it enters the window, two
/// batches later), for the whole of the batch `PREFETCH_AHEAD` ahead only
/// if it holds an impulse, and for the bodies of the next batch only if
/// it does.
struct LoadedAhead {
    /// Whether batches `next`, `next + 1`, …, `next + PREFETCH_AHEAD` hold
    /// an impulse (false past the last batch).
    flags: [bool; PREFETCH_AHEAD + 1],
    /// The batch `flags[0]` is about.
    next: usize,
}

impl LoadedAhead {
    /// The window over the first batches of `batches`.
    #[inline(always)]
    fn new(batches: &[ConstraintBatch]) -> Self {
        let flags = std::array::from_fn(|k| batches.get(k).is_some_and(holds_impulse));
        Self { flags, next: 0 }
    }

    /// Whether the next batch in order holds an impulse, after asking for
    /// what the batches after it will read; then moves the window one
    /// batch on.
    #[inline(always)]
    fn advance(&mut self, batches: &[ConstraintBatch], bodies: &BodyWindow<'_>) -> bool {
        let index = self.next;
        if let Some(c) = batches.get(index + 2 * PREFETCH_AHEAD + 1) {
            prefetch_ptr((c as *const ConstraintBatch).cast::<[u8; IMPULSES_END]>());
        }
        if let Some(c) = batches.get(index + PREFETCH_AHEAD).filter(|_| self.flags[PREFETCH_AHEAD])
        {
            prefetch(c);
        }
        if let Some(c) = batches.get(index + 1).filter(|_| self.flags[1]) {
            prefetch_bodies(c, bodies);
        }
        let loaded = self.flags[0];
        self.flags.copy_within(1.., 0);
        self.flags[PREFETCH_AHEAD] =
            batches.get(index + PREFETCH_AHEAD + 1).is_some_and(holds_impulse);
        self.next = index + 1;
        loaded
    }
}

/// Warm start of one batch whose manifolds have at most `N` points and
/// which holds an impulse (one that holds none would add zero to every
/// velocity: see [`ConstraintBatch::is_loaded`]).
#[inline(always)]
fn warm_start_batch<const N: usize>(c: &ConstraintBatch, bodies: &mut BodyWindow<'_>) {
    let mut ba = WideBody::gather(bodies, &c.body_a);
    let mut bb = WideBody::gather(bodies, &c.body_b);
    let axes = c.friction_axes();
    c.apply::<N>(&mut ba, &mut bb, &c.normal_impulse, &axes, c.tangent_impulse, c.twist_impulse);
    ba.scatter(bodies, &c.body_a);
    bb.scatter(bodies, &c.body_b);
}

/// Push of one batch whose manifolds have at most `N` points.
#[inline(always)]
fn push_batch<const N: usize>(
    c: &mut ConstraintBatch,
    bodies: &mut BodyWindow<'_>,
    params: &SolverParams,
) {
    let mut ba = WideBody::gather(bodies, &c.body_a);
    let mut bb = WideBody::gather(bodies, &c.body_b);
    if c.is_quiet::<N>(&ba, &bb, params) {
        return;
    }
    let deltas = c.solve_normal::<true, N>(&ba, &bb, params);
    c.apply_normals::<N>(&mut ba, &mut bb, &deltas);
    ba.scatter(bodies, &c.body_a);
    bb.scatter(bodies, &c.body_b);
}

/// Relax of one batch whose manifolds have at most `N` points.
#[inline(always)]
fn relax_batch<const N: usize>(
    c: &mut ConstraintBatch,
    bodies: &mut BodyWindow<'_>,
    params: &SolverParams,
) {
    let mut ba = WideBody::gather(bodies, &c.body_a);
    let mut bb = WideBody::gather(bodies, &c.body_b);
    if c.is_quiet::<N>(&ba, &bb, params) {
        return;
    }
    c.relax::<N>(&mut ba, &mut bb, params);
    ba.scatter(bodies, &c.body_a);
    bb.scatter(bodies, &c.body_b);
}

/// Whether the passes would skip `c` with the bodies as they are in
/// `bodies` (for the tests).
#[cfg(test)]
pub(super) fn skips(c: &ConstraintBatch, bodies: &BodyWindow<'_>, params: &SolverParams) -> bool {
    let (ba, bb) = c.gather_pair(bodies);
    by_point_count!(c.point_count, N => c.is_quiet::<N>(&ba, &bb, params))
}

/// One push (`push`) or relax pass over `c` that never skips it (for the
/// tests: what a skipped batch would have got).
#[cfg(test)]
pub(super) fn pass_unskipped(
    c: &mut ConstraintBatch,
    bodies: &mut BodyWindow<'_>,
    params: &SolverParams,
    push: bool,
) {
    let mut ba = WideBody::gather(bodies, &c.body_a);
    let mut bb = WideBody::gather(bodies, &c.body_b);
    by_point_count!(c.point_count, N => {
        if push {
            let deltas = c.solve_normal::<true, N>(&ba, &bb, params);
            c.apply_normals::<N>(&mut ba, &mut bb, &deltas);
        } else {
            c.relax::<N>(&mut ba, &mut bb, params);
        }
    });
    ba.scatter(bodies, &c.body_a);
    bb.scatter(bodies, &c.body_b);
}

per_simd_target! {
    /// Applies last substep's impulses again, so the solver starts near the answer.
    fn warm_start(batches: &[ConstraintBatch], bodies: BodyWindow<'_>, params: &SolverParams) {
        let mut bodies = bodies;
        let mut ahead = params.prefetch.then(|| LoadedAhead::new(batches));
        for c in batches {
            let loaded = match &mut ahead {
                Some(ahead) => ahead.advance(batches, &bodies),
                None => holds_impulse(c),
            };
            if loaded {
                by_point_count!(c.point_count, N => warm_start_batch::<N>(c, &mut bodies));
            }
        }
    }
}

per_simd_target! {
    /// [`warm_start`], adding to `totals[i]` (see
    /// [`crate::solver::step_impulses`]) the impulses batch `i` holds, what
    /// its contacts applied in the last substep: the warm start reads them
    /// anyway, so the step's sums need no pass of their own over the
    /// batches after each substep. A batch that holds none (every impulse
    /// zero, which `is_loaded` reads) adds nothing: a sum starts at +0 and
    /// never becomes -0, so adding a zero of either sign to it would leave
    /// its bits as they are.
    fn warm_start_summing(
        batches: &[ConstraintBatch],
        totals: &mut [StepImpulses],
        bodies: BodyWindow<'_>,
        params: &SolverParams,
    ) {
        debug_assert_eq!(batches.len(), totals.len());
        let mut bodies = bodies;
        let mut ahead = params.prefetch.then(|| LoadedAhead::new(batches));
        for (c, total) in batches.iter().zip(totals.iter_mut()) {
            let loaded = match &mut ahead {
                Some(ahead) => ahead.advance(batches, &bodies),
                None => holds_impulse(c),
            };
            if loaded {
                total.add(c);
                by_point_count!(c.point_count, N => warm_start_batch::<N>(c, &mut bodies));
            }
        }
    }
}

per_simd_target! {
    /// The soft pass of a substep (Box2D's "solve" with bias, box3d's "push"):
    /// normal constraints only, pushing overlap out through the soft spring.
    fn push(batches: &mut [ConstraintBatch], bodies: BodyWindow<'_>, params: &SolverParams) {
        sweep::<true>(batches, bodies, params);
    }
}

per_simd_target! {
    /// The rigid pass of a substep (relax) over the batches.
    fn relax(batches: &mut [ConstraintBatch], bodies: BodyWindow<'_>, params: &SolverParams) {
        sweep::<false>(batches, bodies, params);
    }
}

/// One push (`PUSH`) or relax sweep over every batch, in order.
#[inline(always)]
fn sweep<const PUSH: bool>(
    batches: &mut [ConstraintBatch],
    mut bodies: BodyWindow<'_>,
    params: &SolverParams,
) {
    for i in 0..batches.len() {
        if params.prefetch {
            if PUSH {
                prefetch_ahead::<PUSH_READS_END>(batches, i, &bodies);
            } else {
                prefetch_ahead::<{ size_of::<ConstraintBatch>() }>(batches, i, &bodies);
            }
        }
        let c = &mut batches[i];
        if PUSH {
            by_point_count!(c.point_count, N => push_batch::<N>(c, &mut bodies, params));
        } else {
            by_point_count!(c.point_count, N => relax_batch::<N>(c, &mut bodies, params));
        }
    }
}

per_simd_target! {
    /// Further relax sweeps over the batches listed in `selected` only,
    /// after the substep's [`relax`] iterations.
    fn relax_selected(
        batches: &mut [ConstraintBatch],
        selected: &[u32],
        bodies: BodyWindow<'_>,
        params: &SolverParams,
    ) {
        let mut bodies = bodies;
        for &index in selected {
            let c = &mut batches[index as usize];
            by_point_count!(c.point_count, N => relax_batch::<N>(c, &mut bodies, params));
        }
    }
}

per_simd_target! {
    /// Further push sweeps over the batches listed in `selected` only,
    /// after the substep's [`push`] iterations.
    fn push_selected(
        batches: &mut [ConstraintBatch],
        selected: &[u32],
        bodies: BodyWindow<'_>,
        params: &SolverParams,
    ) {
        let mut bodies = bodies;
        for &index in selected {
            let c = &mut batches[index as usize];
            by_point_count!(c.point_count, N => push_batch::<N>(c, &mut bodies, params));
        }
    }
}
