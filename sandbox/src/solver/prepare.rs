//! Prepares the manifolds of one batch for the solver and writes them
//! straight into the batch's lanes: anchors, effective masses, angular
//! responses, the row couplings of the constraint-space sweep (see
//! [`ConstraintBatch`]) and the stored impulses projected on this step's
//! tangents. The equations are the parent module's (Box2D v3's soft step).
//! Departures from Box2D's `b2PrepareContactsTask`: there is no
//! intermediate per-manifold constraint array (the batches are built first
//! from the body pairs alone, so each manifold is prepared once, into the
//! lane it is solved in), and the four manifolds of a batch are prepared
//! side by side, one per SIMD lane. A resting pair's lever arms are those
//! its manifold was computed with (box3d's recycled anchors; see
//! [`LeverTurn`](crate::collision::manifold::LeverTurn)). Every lane runs the scalar derivation's
//! operations in the same order (nalgebra's: `a·b = (a_x b_x + a_y b_y) +
//! a_z b_z`, `(M v)_r = (M_r0 v_x + M_r1 v_y) + M_r2 v_z`), so the lanes hold
//! the same bits a manifold-at-a-time preparation would give.

// The per-point fields are parallel arrays walked by point index, which
// reads as the equations do.
#![allow(clippy::needless_range_loop)]

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};

use super::contact_solver::{ANCHOR_RATE_FRACTION, SolverParams};
use super::load_stiffening::stiffen_for_load;
use super::simd_batch::{
    COUPLING_PAIRS, ConstraintBatch, EMPTY_LANE_SEPARATION, LANES, W, WideSym, WideVec, pair_index,
    tangent_basis,
};
use crate::collision::manifold::{MAX_MANIFOLD_POINTS, Manifold};
use crate::solver::simd_target::per_simd_target;
use crate::solver::solver_body::{SolverBody, SolverMass};

/// Inputs to [`prepare`] for one manifold.
pub(crate) struct ContactInput<'a> {
    pub manifold: &'a Manifold,
    pub body_a: u32,
    pub body_b: u32,
    pub center_a: Point3<f32>,
    pub center_b: Point3<f32>,
    pub friction: f32,
    pub restitution: f32,
    /// Static-friction anchor gap at the start of the step, along the
    /// surface: from A's anchor point to B's, world frame (zero for a new
    /// anchor).
    pub anchor_gap: Vector3<f32>,
    /// Whether the manifold is in a mass-ratio chain, whose spring is
    /// stiffened for its load (see [`crate::solver::mass_ratio_chains`]).
    pub in_chain: bool,
    /// Whether the manifold's chain is solved directly (see
    /// [`crate::solver::chain_block_solve`]), whose springs may be
    /// stiffened beyond the sweeps' stable frequency.
    pub block_solved: bool,
}

/// `if x > 0 { 1 / x } else { 0 }` lane by lane (NaN gives 0).
#[inline]
fn inverse_if_positive(x: W) -> W {
    x.simd_gt(W::ZERO).select(W::ONE / x, W::ZERO)
}

/// A unit quaternion in each lane, as its vector part and scalar part
/// (nalgebra's `[i, j, k]` and `w`).
#[derive(Clone, Copy)]
struct WideQuat {
    vector: WideVec,
    scalar: W,
}

impl WideQuat {
    /// The identity rotation in every lane.
    const IDENTITY: Self = Self { vector: WideVec::ZERO, scalar: W::ONE };

    /// Sets lane `lane` to `q`.
    #[inline]
    fn set(&mut self, lane: usize, q: &UnitQuaternion<f32>) {
        self.vector.set(lane, &q.vector().into_owned());
        self.scalar.as_mut_array()[lane] = q.scalar();
    }
}

/// `q v` in each lane, with nalgebra's operations in its order
/// (`t = 2 (q_v × v)`, then `(t q_w + q_v × t) + v`), so that each lane
/// holds the bits of `UnitQuaternion * Vector3`.
#[inline(always)]
fn turn_lanes(q: &WideQuat, v: &WideVec) -> WideVec {
    let t = q.vector.cross(v) * W::splat(2.0);
    let cross = q.vector.cross(&t);
    t * q.scalar + cross + *v
}

/// `a` in the lanes of `mask`, `b` in the others.
#[inline(always)]
fn select_vec(mask: W, a: WideVec, b: WideVec) -> WideVec {
    WideVec { x: mask.select(a.x, b.x), y: mask.select(a.y, b.y), z: mask.select(a.z, b.z) }
}

per_simd_target! {
    /// Prepares `inputs` (one to [`LANES`] manifolds that share no awake body)
    /// into the lanes of `batch`, in order, writing every field of the batch.
    /// Lanes past the inputs, and points past a manifold's count, get zero
    /// masses and impulses and `stand_in`, the static stand-in of the batch's
    /// task, as both bodies. Returns each
    /// lane's per-point normal relative velocity at the start of the step,
    /// which restitution needs, or zeros for lanes without restitution.
    fn prepare(
        inputs: &[ContactInput<'_>],
        bodies: &[SolverBody],
        masses: &[SolverMass],
        params: &SolverParams,
        stand_in: u32,
        batch: &mut ConstraintBatch,
    ) -> [[f32; MAX_MANIFOLD_POINTS]; LANES] {
        debug_assert!(!inputs.is_empty() && inputs.len() <= LANES);
        // Gather the inputs, one manifold per lane; missing lanes and points
        // stay zero, and their bodies are the batch's static stand-in.
        let mut body_a = [stand_in; LANES];
        let mut body_b = [stand_in; LANES];
        let mut inv_mass_a = W::ZERO;
        let mut inv_mass_b = W::ZERO;
        let mut inv_inertia_a = WideSym::default();
        let mut inv_inertia_b = WideSym::default();
        let mut n = WideVec::default();
        let mut count = W::ZERO;
        let mut points = [WideVec::default(); MAX_MANIFOLD_POINTS];
        let mut separation = [W::ZERO; MAX_MANIFOLD_POINTS];
        let mut normal_impulse = [W::ZERO; MAX_MANIFOLD_POINTS];
        let mut input_center_a = WideVec::default();
        let mut input_center_b = WideVec::default();
        let mut lever_shift_b = WideVec::default();
        let mut turn_a = WideQuat::IDENTITY;
        let mut turn_b = WideQuat::IDENTITY;
        let mut turned = [0.0f32; LANES];
        let mut friction = W::ZERO;
        let mut anchor_gap = WideVec::default();
        let mut friction_impulse = WideVec::default();
        let mut twist_impulse = W::ZERO;
        let mut is_static = [0.0f32; LANES];
        let mut in_chain = [0.0f32; LANES];
        let mut block_solved = [0.0f32; LANES];
        let mut any_restitution = false;
        let mut point_count = 0;
        for (l, input) in inputs.iter().enumerate() {
            let (ia, ib) = (input.body_a as usize, input.body_b as usize);
            let (ma, mb) = (&masses[ia], &masses[ib]);
            let m = input.manifold;
            body_a[l] = input.body_a;
            body_b[l] = input.body_b;
            inv_mass_a.as_mut_array()[l] = ma.inv_mass;
            inv_mass_b.as_mut_array()[l] = mb.inv_mass;
            inv_inertia_a.set(l, &ma.inv_inertia);
            inv_inertia_b.set(l, &mb.inv_inertia);
            n.set(l, &m.normal);
            count.as_mut_array()[l] = m.points.len() as f32;
            point_count = point_count.max(m.points.len() as u32);
            // A resting pair's turns, applied to its points below, all
            // lanes at once.
            if let Some(turn) = &m.lever_turn {
                turn_a.set(l, &turn.a);
                turn_b.set(l, &turn.b);
                turned[l] = 1.0;
            }
            for (i, mp) in m.points.iter().enumerate() {
                points[i].set(l, &mp.point.coords);
                separation[i].as_mut_array()[l] = mp.separation;
                normal_impulse[i].as_mut_array()[l] = mp.normal_impulse;
            }
            input_center_a.set(l, &input.center_a.coords);
            input_center_b.set(l, &input.center_b.coords);
            friction.as_mut_array()[l] = input.friction;
            anchor_gap.set(l, &input.anchor_gap);
            friction_impulse.set(l, &m.friction_impulse);
            twist_impulse.as_mut_array()[l] = m.twist_impulse;
            if ma.inv_mass == 0.0 || mb.inv_mass == 0.0 {
                is_static[l] = 1.0;
            }
            if input.in_chain {
                in_chain[l] = 1.0;
            }
            if input.block_solved {
                block_solved[l] = 1.0;
            }
            any_restitution |= input.restitution != 0.0;
        }
        let valid: [W; MAX_MANIFOLD_POINTS] =
            std::array::from_fn(|i| count.simd_gt(W::splat(i as f32)));
        // A resting pair's lever arms are taken as they were when its
        // manifold was computed, as box3d's recycled contacts keep their
        // anchors (see `LeverTurn` for why): each point turned back about
        // A's centre by A's turn since, and about B's centre by B's. The
        // batch holds one point per row and B's arms as A's plus one
        // offset per manifold (`rn_shift`), so B's arms move by the mean
        // of the two turned points' gaps. Lanes without a turn keep their
        // points and a zero offset, bit for bit; the turned lanes hold the
        // bits of the scalar `p' = c_A + q_A (p - c_A)`,
        // `shift += ((c_B + q_B (p - c_B)) - p') / count` point by point
        // (see `turn_lanes`).
        let turned = W::new(turned).simd_gt(W::ZERO);
        if turned.any() {
            for i in 0..MAX_MANIFOLD_POINTS {
                let point = points[i];
                let moved = input_center_a + turn_lanes(&turn_a, &(point - input_center_a));
                let gap = input_center_b + turn_lanes(&turn_b, &(point - input_center_b)) - moved;
                let take = turned & valid[i];
                let share = WideVec { x: gap.x / count, y: gap.y / count, z: gap.z / count };
                let shifted = lever_shift_b + share;
                lever_shift_b = select_vec(take, shifted, lever_shift_b);
                points[i] = select_vec(take, moved, point);
            }
        }
        let against_static = W::new(is_static).simd_gt(W::ZERO);
        let (dynamic, fixed) = (&params.dynamic_softness, &params.static_softness);
        let soft = |d: f32, s: f32| against_static.select(W::splat(s), W::splat(d));
        let tangents = tangent_basis(&n);
        let inv_mass_sum = inv_mass_a + inv_mass_b;

        // Per-point rows; points past a lane's count are masked to exact zeros.
        let zero_unless = |mask: W, x: W| mask.select(x, W::ZERO);
        let zero_vec_unless = |mask: W, v: WideVec| WideVec {
            x: mask.select(v.x, W::ZERO),
            y: mask.select(v.y, W::ZERO),
            z: mask.select(v.z, W::ZERO),
        };
        let mut rn_a = [WideVec::default(); MAX_MANIFOLD_POINTS];
        let mut rn_b = [WideVec::default(); MAX_MANIFOLD_POINTS];
        // The angular responses I⁻¹ (r × n), for the couplings only (the
        // batch keeps the inverse inertias instead).
        let mut irn_a = [WideVec::default(); MAX_MANIFOLD_POINTS];
        let mut irn_b = [WideVec::default(); MAX_MANIFOLD_POINTS];
        let mut normal_mass = [W::ZERO; MAX_MANIFOLD_POINTS];
        // Largest velocity change one point's warm-start impulse makes,
        // `λ_i / m_i`: the load the spring is stiffened for.
        let mut load = W::ZERO;
        let mut twist_coupling = [W::ZERO; MAX_MANIFOLD_POINTS];
        let mut center = WideVec::default();
        for i in 0..MAX_MANIFOLD_POINTS {
            // Missing points are zero, and adding zero after the first point
            // leaves the sum's bits alone.
            center += points[i];
            let r_a = points[i] - input_center_a;
            let r_b = points[i] + lever_shift_b - input_center_b;
            let rn_a_i = r_a.cross(&n);
            let rn_b_i = r_b.cross(&n);
            let irn_a_i = inv_inertia_a.mul(&rn_a_i);
            let irn_b_i = inv_inertia_b.mul(&rn_b_i);
            let k = inv_mass_sum + rn_a_i.dot(&irn_a_i) + rn_b_i.dot(&irn_b_i);
            rn_a[i] = zero_vec_unless(valid[i], rn_a_i);
            rn_b[i] = zero_vec_unless(valid[i], rn_b_i);
            irn_a[i] = zero_vec_unless(valid[i], irn_a_i);
            irn_b[i] = zero_vec_unless(valid[i], irn_b_i);
            normal_mass[i] = zero_unless(valid[i], inverse_if_positive(k));
            load = load.max(zero_unless(valid[i], normal_impulse[i] * k));
            twist_coupling[i] = zero_unless(valid[i], n.dot(&(irn_a_i + irn_b_i)));
        }
        let base_bias_rate = soft(dynamic.bias_rate, fixed.bias_rate);
        // Lanes outside a chain carry no load to stiffen for.
        let chained = W::new(in_chain).simd_gt(W::ZERO);
        let (mass_scale, bias_rate, impulse_scale) = stiffen_for_load(
            chained.select(load, W::ZERO),
            soft(dynamic.omega, fixed.omega),
            W::new(block_solved).simd_gt(W::ZERO).select(
                W::splat(params.load_stiffening.block_max_omega),
                soft(params.load_stiffening.max_omega, 2.0 * params.load_stiffening.max_omega),
            ),
            (
                soft(dynamic.mass_scale, fixed.mass_scale),
                base_bias_rate,
                soft(dynamic.impulse_scale, fixed.impulse_scale),
            ),
            &params.load_stiffening,
        );
        // The mean over the points, divided component by component as
        // nalgebra's `v / s` does.
        let divisor = W::ONE.max(count);
        let center = WideVec { x: center.x / divisor, y: center.y / divisor, z: center.z / divisor };
        // Friction and twist act where the two surfaces meet, at each body's
        // own surface point below the centre, not at the midpoint between
        // them: a speculative manifold found a step's reach ahead (metres for
        // a fast body) would otherwise put the friction's lever arm that far
        // in front of the body, so that any spin read as a huge sliding
        // speed there and friction turned it into linear velocity (a hull at
        // 500 m/s came back from a wall at 135 m/s). The points' midpoints sit
        // half the separation beyond A's surface and short of B's, along n.
        let mut separation_sum = W::ZERO;
        for i in 0..MAX_MANIFOLD_POINTS {
            separation_sum += separation[i];
        }
        let half_gap = W::splat(0.5) * (separation_sum / divisor);
        let center_a = center - n * half_gap - input_center_a;
        let center_b = center + n * half_gap - input_center_b + lever_shift_b;
        let in_a = inv_inertia_a.mul(&n);
        let in_b = inv_inertia_b.mul(&n);
        let k_twist = n.dot(&in_a) + n.dot(&in_b);
        // K = J M⁻¹ Jᵀ for the two tangents at the centre, inverted in closed form.
        let rt_a = [center_a.cross(&tangents[0]), center_a.cross(&tangents[1])];
        let rt_b = [center_b.cross(&tangents[0]), center_b.cross(&tangents[1])];
        let irt_a = [inv_inertia_a.mul(&rt_a[0]), inv_inertia_a.mul(&rt_a[1])];
        let irt_b = [inv_inertia_b.mul(&rt_b[0]), inv_inertia_b.mul(&rt_b[1])];
        let k = |i: usize, j: usize| {
            let lin = if i == j { inv_mass_sum } else { W::ZERO };
            lin + rt_a[i].dot(&irt_a[j]) + rt_b[i].dot(&irt_b[j])
        };
        let (k11, k12, k22) = (k(0, 0), k(0, 1), k(1, 1));
        let det = k11 * k22 - k12 * k12;
        let invertible = det.simd_gt(W::ZERO);
        let inv = W::ONE / det;
        let tangent_mass = [
            zero_unless(invertible, k22 * inv),
            zero_unless(invertible, -k12 * inv),
            zero_unless(invertible, k11 * inv),
        ];

        // Row couplings, the off-diagonal entries of K used by the sweep in
        // constraint space: a normal impulse at point j moves point i's normal
        // velocity by (m_A⁻¹ + m_B⁻¹) + (r_A,i × n)·I_A⁻¹(r_A,j × n)
        // + (r_B,i × n)·I_B⁻¹(r_B,j × n), the tangent velocities by
        // (c_B × t_k)·I_B⁻¹(r_B,j × n) + (c_A × t_k)·I_A⁻¹(r_A,j × n), and a
        // twist impulse moves them by (c_B × t_k)·I_B⁻¹n + (c_A × t_k)·I_A⁻¹n.
        let mut coupling = [W::ZERO; COUPLING_PAIRS];
        let mut tangent_coupling = [[W::ZERO; MAX_MANIFOLD_POINTS]; 2];
        let mut lever_arm = [W::ZERO; MAX_MANIFOLD_POINTS];
        for j in 0..MAX_MANIFOLD_POINTS {
            let offset = points[j] - center;
            lever_arm[j] = zero_unless(valid[j], offset.dot(&offset).sqrt());
            for i in j + 1..MAX_MANIFOLD_POINTS {
                let along = inv_mass_sum + rn_a[i].dot(&irn_a[j]) + rn_b[i].dot(&irn_b[j]);
                coupling[pair_index(j, i)] = zero_unless(valid[i], along);
            }
            for k in 0..2 {
                tangent_coupling[k][j] =
                    zero_unless(valid[j], rt_b[k].dot(&irn_b[j]) + rt_a[k].dot(&irn_a[j]));
            }
        }
        let twist_tangent = |k: usize| rt_b[k].dot(&in_b) + rt_a[k].dot(&in_a);

        // What the passes read to skip a batch that would not change (see
        // `ConstraintBatch::is_quiet`): each lane's smallest separation,
        // and its largest `|r × n|` on either body, over its own points.
        // A NaN separation or lever makes the lane's separation NaN, which
        // is never quiet.
        let mut lowest = W::splat(f32::INFINITY);
        let mut reach_a = W::ZERO;
        let mut reach_b = W::ZERO;
        let mut nan = W::ZERO.simd_ne(W::ZERO);
        for i in 0..MAX_MANIFOLD_POINTS {
            let s = separation[i];
            lowest = (valid[i] & s.simd_lt(lowest)).select(s, lowest);
            let (ra, rb) = (rn_a[i].dot(&rn_a[i]).sqrt(), rn_b[i].dot(&rn_b[i]).sqrt());
            reach_a = reach_a.max(ra);
            reach_b = reach_b.max(rb);
            nan |= s.simd_ne(s) | ra.simd_ne(ra) | rb.simd_ne(rb);
        }
        let lowest = nan.select(W::splat(f32::NAN), lowest);
        let quiet_separation =
            count.simd_gt(W::ZERO).select(lowest, W::splat(EMPTY_LANE_SEPARATION));

        let mut relative_velocity = [[0.0; MAX_MANIFOLD_POINTS]; LANES];
        if any_restitution {
            restitution_velocities(inputs, bodies, &n, &rn_a, &rn_b, &valid, &mut relative_velocity);
        }

        *batch = ConstraintBatch {
            body_a,
            body_b,
            inv_mass_a,
            inv_mass_b,
            normal: n,
            mass_scale,
            bias_rate,
            impulse_scale,
            rn_a,
            rn_shift: (input_center_a - input_center_b + lever_shift_b).cross(&n),
            inv_inertia_a,
            inv_inertia_b,
            separation,
            quiet_separation,
            reach_a,
            reach_b,
            normal_mass,
            normal_impulse,
            max_normal_impulse: [W::ZERO; MAX_MANIFOLD_POINTS],
            has_restitution: any_restitution,
            coupling,
            twist_coupling,
            tangent_coupling,
            lever_arm,
            friction,
            twist_tangent_coupling: [twist_tangent(0), twist_tangent(1)],
            tangent_mass,
            tangent_impulse: [friction_impulse.dot(&tangents[0]), friction_impulse.dot(&tangents[1])],
            twist_mass: inverse_if_positive(k_twist),
            twist_impulse,
            center_a,
            center_b,
            anchor_gap,
            anchor_rate: W::splat(ANCHOR_RATE_FRACTION) * base_bias_rate,
            point_count,
        };
        relative_velocity
    }
}

/// Each point's normal relative velocity at the start of the step,
/// `(v_B - v_A)·n + ω_B·(r_B × n) - ω_A·(r_A × n)`, for the lanes with
/// restitution.
fn restitution_velocities(
    inputs: &[ContactInput<'_>],
    bodies: &[SolverBody],
    n: &WideVec,
    rn_a: &[WideVec; MAX_MANIFOLD_POINTS],
    rn_b: &[WideVec; MAX_MANIFOLD_POINTS],
    valid: &[W; MAX_MANIFOLD_POINTS],
    out: &mut [[f32; MAX_MANIFOLD_POINTS]; LANES],
) {
    let mut va = WideVec::default();
    let mut vb = WideVec::default();
    let mut wa = WideVec::default();
    let mut wb = WideVec::default();
    for (l, input) in inputs.iter().enumerate() {
        let (ba, bb) = (&bodies[input.body_a as usize], &bodies[input.body_b as usize]);
        va.set(l, &ba.linear_velocity());
        vb.set(l, &bb.linear_velocity());
        wa.set(l, &ba.angular_velocity());
        wb.set(l, &bb.angular_velocity());
    }
    let dv_n = (vb - va).dot(n);
    for i in 0..MAX_MANIFOLD_POINTS {
        let v = valid[i].select(dv_n + wb.dot(&rn_b[i]) - wa.dot(&rn_a[i]), W::ZERO);
        for (l, input) in inputs.iter().enumerate() {
            if input.restitution != 0.0 {
                out[l][i] = v.as_array()[l];
            }
        }
    }
}

#[cfg(test)]
mod tests;
