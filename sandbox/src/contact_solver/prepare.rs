//! Prepares one manifold for the solver and writes it straight into its
//! lane of a [`ConstraintBatch`]: anchors, effective masses, angular
//! responses, the row couplings of the constraint-space sweep (see
//! [`ConstraintBatch`]) and the stored impulses projected on this step's
//! tangents. The equations are the parent module's (Box2D v3's soft step);
//! the one departure from Box2D's `b2PrepareContactsTask` is that there is
//! no intermediate per-manifold constraint array: the batches are built
//! first from the body pairs alone, so each manifold is prepared once, in
//! batch order, into the lane it is solved in.

// The per-point fields are parallel arrays walked by point index, which
// reads as the equations do.
#![allow(clippy::needless_range_loop)]

use collide::nalgebra::{Point3, Vector3};

use super::simd_batch::{ConstraintBatch, pair_index};
use super::{ANCHOR_RATE_FRACTION, SolverParams, VectorLanes};
use crate::manifold::{MAX_MANIFOLD_POINTS, Manifold};
use crate::solver_body::{SolverBody, SolverMass};

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
}

/// The per-point rows of one manifold while it is prepared, one lane per
/// point (zero past the manifold's count), before they are spread over the
/// batch's lanes.
#[derive(Default)]
struct PointRows {
    rn_a: VectorLanes,
    rn_b: VectorLanes,
    irn_a: VectorLanes,
    irn_b: VectorLanes,
    separation: [f32; MAX_MANIFOLD_POINTS],
    normal_mass: [f32; MAX_MANIFOLD_POINTS],
    normal_impulse: [f32; MAX_MANIFOLD_POINTS],
    coupling: [[f32; MAX_MANIFOLD_POINTS]; MAX_MANIFOLD_POINTS],
    twist_coupling: [f32; MAX_MANIFOLD_POINTS],
    tangent_coupling: [[f32; MAX_MANIFOLD_POINTS]; 2],
    lever_arm: [f32; MAX_MANIFOLD_POINTS],
}

/// Two unit tangents completing `n` to an orthonormal basis (Duff et al.,
/// "Building an Orthonormal Basis, Revisited", 2017).
fn tangent_basis(n: &Vector3<f32>) -> [Vector3<f32>; 2] {
    let sign = 1.0f32.copysign(n.z);
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    [
        Vector3::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x),
        Vector3::new(b, sign + n.y * n.y * a, -n.y),
    ]
}

/// Prepares the manifold of `input` into lane `lane` of `batch`, writing
/// every field of that lane (points past the manifold's count get zero
/// masses and impulses). Returns each point's normal relative velocity at
/// the start of the step, which restitution needs, or zeros when the
/// contact has no restitution.
pub(crate) fn prepare(
    input: &ContactInput<'_>,
    bodies: &[SolverBody],
    masses: &[SolverMass],
    params: &SolverParams,
    batch: &mut ConstraintBatch,
    lane: usize,
) -> [f32; MAX_MANIFOLD_POINTS] {
    let (ia, ib) = (input.body_a as usize, input.body_b as usize);
    let (ba, bb) = (&bodies[ia], &bodies[ib]);
    let (ma, mb) = (&masses[ia], &masses[ib]);
    let m = input.manifold;
    let n = m.normal;
    let tangents = tangent_basis(&n);
    let softness = if ma.inv_mass == 0.0 || mb.inv_mass == 0.0 {
        params.static_softness
    } else {
        params.dynamic_softness
    };
    let inv_mass_sum = ma.inv_mass + mb.inv_mass;
    let dv_n = (bb.linear_velocity - ba.linear_velocity).dot(&n);
    let mut rows = PointRows::default();
    let mut relative_velocity = [0.0; MAX_MANIFOLD_POINTS];
    let mut center = Vector3::zeros();
    for (i, mp) in m.points.iter().enumerate() {
        center += mp.point.coords;
        let r_a = mp.point - input.center_a;
        let r_b = mp.point - input.center_b;
        let rn_a = r_a.cross(&n);
        let rn_b = r_b.cross(&n);
        let irn_a = ma.inv_inertia * rn_a;
        let irn_b = mb.inv_inertia * rn_b;
        let k = inv_mass_sum + rn_a.dot(&irn_a) + rn_b.dot(&irn_b);
        rows.rn_a.set(i, &rn_a);
        rows.rn_b.set(i, &rn_b);
        rows.irn_a.set(i, &irn_a);
        rows.irn_b.set(i, &irn_b);
        rows.separation[i] = mp.separation;
        rows.normal_mass[i] = if k > 0.0 { 1.0 / k } else { 0.0 };
        rows.normal_impulse[i] = mp.normal_impulse;
        rows.twist_coupling[i] = n.dot(&(irn_a + irn_b));
        if input.restitution != 0.0 {
            relative_velocity[i] =
                dv_n + bb.angular_velocity.dot(&rn_b) - ba.angular_velocity.dot(&rn_a);
        }
    }
    let count = m.points.len();
    let center = Point3::from(center / count.max(1) as f32);
    let center_a = center - input.center_a;
    let center_b = center - input.center_b;
    let in_a = ma.inv_inertia * n;
    let in_b = mb.inv_inertia * n;
    let k_twist = n.dot(&in_a) + n.dot(&in_b);
    // K = J M⁻¹ Jᵀ for the two tangents at the centre, inverted in closed form.
    // (Written out: `array::map` is not always inlined.)
    let rt_a = [center_a.cross(&tangents[0]), center_a.cross(&tangents[1])];
    let rt_b = [center_b.cross(&tangents[0]), center_b.cross(&tangents[1])];
    let irt_a = [ma.inv_inertia * rt_a[0], ma.inv_inertia * rt_a[1]];
    let irt_b = [mb.inv_inertia * rt_b[0], mb.inv_inertia * rt_b[1]];
    let k = |i: usize, j: usize| {
        let lin = if i == j { inv_mass_sum } else { 0.0 };
        lin + rt_a[i].dot(&irt_a[j]) + rt_b[i].dot(&irt_b[j])
    };
    let (k11, k12, k22) = (k(0, 0), k(0, 1), k(1, 1));
    let det = k11 * k22 - k12 * k12;
    let tangent_mass = if det > 0.0 {
        let inv = 1.0 / det;
        [k22 * inv, -k12 * inv, k11 * inv]
    } else {
        [0.0; 3]
    };

    // Row couplings, the off-diagonal entries of K used by the sweep in
    // constraint space: a normal impulse at point j moves point i's normal
    // velocity by (m_A⁻¹ + m_B⁻¹) + (r_A,i × n)·I_A⁻¹(r_A,j × n)
    // + (r_B,i × n)·I_B⁻¹(r_B,j × n), the tangent velocities by
    // (c_B × t_k)·I_B⁻¹(r_B,j × n) + (c_A × t_k)·I_A⁻¹(r_A,j × n), and a
    // twist impulse moves them by (c_B × t_k)·I_B⁻¹n + (c_A × t_k)·I_A⁻¹n.
    for (j, mp) in m.points.iter().enumerate() {
        rows.lever_arm[j] = (mp.point - center).norm();
        let (irn_a, irn_b) = (rows.irn_a.get(j), rows.irn_b.get(j));
        let (along_a, along_b) = (rows.rn_a.dot(&irn_a), rows.rn_b.dot(&irn_b));
        for i in j + 1..count {
            rows.coupling[j][i] = inv_mass_sum + along_a.as_array()[i] + along_b.as_array()[i];
        }
        for k in 0..2 {
            rows.tangent_coupling[k][j] = rt_b[k].dot(&irn_b) + rt_a[k].dot(&irn_a);
        }
    }
    let twist_tangent = |k: usize| rt_b[k].dot(&in_b) + rt_a[k].dot(&in_a);
    let twist_tangent_coupling = [twist_tangent(0), twist_tangent(1)];

    // Spread the manifold over its lane: point i's values go to lane `lane`
    // of the batch's point-i vectors.
    let (b, l) = (batch, lane);
    b.body_a[l] = input.body_a;
    b.body_b[l] = input.body_b;
    for i in 0..MAX_MANIFOLD_POINTS {
        b.rn_a[i].set(l, &rows.rn_a.get(i));
        b.rn_b[i].set(l, &rows.rn_b.get(i));
        b.irn_a[i].set(l, &rows.irn_a.get(i));
        b.irn_b[i].set(l, &rows.irn_b.get(i));
        set(&mut b.separation[i], l, rows.separation[i]);
        set(&mut b.normal_mass[i], l, rows.normal_mass[i]);
        set(&mut b.normal_impulse[i], l, rows.normal_impulse[i]);
        set(&mut b.max_normal_impulse[i], l, 0.0);
        for j in 0..i {
            set(&mut b.coupling[pair_index(j, i)], l, rows.coupling[j][i]);
        }
        set(&mut b.twist_coupling[i], l, rows.twist_coupling[i]);
        for k in 0..2 {
            set(&mut b.tangent_coupling[k][i], l, rows.tangent_coupling[k][i]);
        }
        set(&mut b.lever_arm[i], l, rows.lever_arm[i]);
    }
    set(&mut b.inv_mass_a, l, ma.inv_mass);
    set(&mut b.inv_mass_b, l, mb.inv_mass);
    b.normal.set(l, &n);
    set(&mut b.mass_scale, l, softness.mass_scale);
    set(&mut b.bias_rate, l, softness.bias_rate);
    set(&mut b.impulse_scale, l, softness.impulse_scale);
    for k in 0..2 {
        b.tangents[k].set(l, &tangents[k]);
        b.rt_a[k].set(l, &rt_a[k]);
        b.rt_b[k].set(l, &rt_b[k]);
        b.irt_a[k].set(l, &irt_a[k]);
        b.irt_b[k].set(l, &irt_b[k]);
        set(&mut b.twist_tangent_coupling[k], l, twist_tangent_coupling[k]);
        set(&mut b.tangent_impulse[k], l, m.friction_impulse.dot(&tangents[k]));
    }
    for k in 0..3 {
        set(&mut b.tangent_mass[k], l, tangent_mass[k]);
    }
    set(&mut b.friction, l, input.friction);
    b.in_a.set(l, &in_a);
    b.in_b.set(l, &in_b);
    set(&mut b.twist_mass, l, if k_twist > 0.0 { 1.0 / k_twist } else { 0.0 });
    set(&mut b.twist_impulse, l, m.twist_impulse);
    b.center_a.set(l, &center_a);
    b.center_b.set(l, &center_b);
    b.anchor_gap.set(l, &input.anchor_gap);
    set(&mut b.anchor_rate, l, ANCHOR_RATE_FRACTION * softness.bias_rate);
    relative_velocity
}

/// Sets lane `lane` of `w` to `v`.
#[inline]
fn set(w: &mut wide::f32x4, lane: usize, v: f32) {
    w.as_mut_array()[lane] = v;
}
