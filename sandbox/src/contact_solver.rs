//! The contact solver: Box2D v3's soft step (Erin Catto, "Solver2D" and
//! "Soft Step", 2024) carried to 3D.
//!
//! Each step is split into substeps. In a substep the solver integrates
//! velocities, warm starts, solves every contact with a *soft* constraint
//! (a spring-damper of fixed frequency that pushes overlap out at a bounded
//! speed), integrates positions and then *relaxes*: solves again without the
//! position bias so the push-out velocity does not become bounce. After the
//! substeps, restitution is applied once and impulses are stored for the next
//! step's warm start. Departures from Box2D: friction is not applied per
//! point but once per manifold at the centre of its points, as two tangent
//! directions clamped to the Coulomb disk `μ Σλ_n` plus a twist (torsional)
//! friction about the normal clamped to `μ Σλ_n r̄` (`r̄` the mean distance of
//! the points from the centre), the "friction patch" of PhysX and Bepu. With
//! per-corner friction in 3D, the rocking of a soft 4-point contact fed the
//! corners' friction and made tall stacks walk; at the centre it cannot.
//! Static friction is anchored, as PhysX's friction patches are: while a
//! manifold sticks (friction inside `0.99 μ Σλ_n`) it keeps the point where
//! sticking began, fixed in both bodies, and the relax pass closes the
//! tangential gap between the two copies at a quarter of the contact's bias
//! rate instead of aiming at zero slip. A velocity-only target lets each
//! substep's small slip add up: a stack of 10 cubes walked 3.8 mm in 25 s,
//! anchored 0.5 mm.
//! Each pass runs [`StepSettings::push_iterations`](crate::StepSettings) and
//! `relax_iterations` sweeps (Box2D runs one): with one sweep, the order in
//! which a 4-point face is solved biases its impulses and stiff contacts rock.
//! This module prepares each manifold (see [`ContactConstraint`]: the sweep
//! runs in constraint space), applies restitution and stores impulses; the
//! substep passes (warm start, push, relax) run in [`simd_batch`], four
//! manifolds that share no awake body at a time, one per SIMD lane, in
//! batches that keep close to the manifolds' own order (see
//! [`crate::constraint_batches`]: graph colouring reordered the sweep and
//! the 100-row pyramid collapsed sooner).
//!
//! Soft constraint derivation (Catto, "Soft Constraints", GDC 2011): a
//! spring of angular frequency `ω = 2π f` and damping ratio `ζ` on position
//! error `C`, integrated implicitly over a substep `h`, turns the velocity
//! constraint `J v + b = 0` into
//!
//! `λ = -m_eff · mass_scale · (J v + bias) - impulse_scale · λ_acc`
//!
//! with `bias = C · ω / (2ζ + hω)`, `mass_scale = hω(2ζ + hω) / (1 + hω(2ζ + hω))`
//! and `impulse_scale = 1 / (1 + hω(2ζ + hω))`.

pub(crate) mod simd_batch;

use collide::nalgebra::{Point3, Vector3};
use wide::f32x4;

use crate::manifold::{FrictionAnchor, MAX_MANIFOLD_POINTS, Manifold};
use crate::pair_cache::Contact;
use crate::solver_body::{SolverBody, SolverMass};

/// Spring coefficients of a soft constraint for one substep length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness {
    bias_rate: f32,
    mass_scale: f32,
    impulse_scale: f32,
}

impl Softness {
    /// Coefficients for frequency `hertz`, damping ratio `zeta` and substep `h`.
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        if !(hertz > 0.0) {
            return Self { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }
}

/// Parameters shared by every contact of a step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    /// Softness of contacts between two dynamic bodies.
    pub dynamic_softness: Softness,
    /// Softness of contacts against static bodies (stiffer: nothing gives).
    pub static_softness: Softness,
    /// Largest speed (m/s) at which overlap is pushed out.
    pub max_push_out: f32,
    /// Approach speed (m/s) below which restitution is ignored.
    pub restitution_threshold: f32,
    /// `1 / h`, the inverse substep.
    pub inv_h: f32,
}

/// One value per contact point of a manifold, a SIMD vector of four lanes
/// (`wide` picks SSE, NEON or a scalar fallback). Lanes past the manifold's
/// last point hold zeros: with a zero effective mass their impulse never
/// moves, so the per-point arithmetic runs on all lanes without a count.
type Lanes = f32x4;

/// One vector per contact point, stored by component (structure of arrays)
/// so that a dot product with one body vector is a few lane-wise
/// multiply-adds over all points at once.
#[derive(Clone, Copy, Debug, Default)]
struct VectorLanes {
    x: Lanes,
    y: Lanes,
    z: Lanes,
}

impl VectorLanes {
    /// `v_i · u` for every lane.
    #[inline]
    fn dot(&self, u: &Vector3<f32>) -> Lanes {
        self.x * u.x + self.y * u.y + self.z * u.z
    }

    /// `Σ_i w_i v_i`.
    #[inline]
    fn weighted_sum(&self, w: &Lanes) -> Vector3<f32> {
        Vector3::new(lane_dot(&self.x, w), lane_dot(&self.y, w), lane_dot(&self.z, w))
    }

    fn get(&self, i: usize) -> Vector3<f32> {
        Vector3::new(self.x.as_array()[i], self.y.as_array()[i], self.z.as_array()[i])
    }

    fn set(&mut self, i: usize, v: &Vector3<f32>) {
        self.x.as_mut_array()[i] = v.x;
        self.y.as_mut_array()[i] = v.y;
        self.z.as_mut_array()[i] = v.z;
    }
}

/// `Σ_i a_i b_i` over the lanes.
#[inline]
fn lane_dot(a: &Lanes, b: &Lanes) -> f32 {
    (*a * *b).reduce_add()
}

/// The normal rows of one manifold, one lane per contact point. The angular
/// Jacobian `r × n` and the angular response `I⁻¹ (r × n)` are precomputed,
/// so a solve is a few dot products and never a matrix product, and so are
/// the points' couplings to the manifold's other rows (see
/// [`ContactConstraint`]).
#[derive(Clone, Copy, Debug, Default)]
struct NormalRows {
    /// `r × n` for each body, `r` the anchor from its centre of mass to the
    /// contact point (world axes), and their angular responses `I⁻¹ (r × n)`.
    rn_a: VectorLanes,
    rn_b: VectorLanes,
    irn_a: VectorLanes,
    irn_b: VectorLanes,
    /// Separation at the start of the step; the current one is this plus
    /// `(Δp_B - Δp_A)·n + Δθ_B·(r_B × n) - Δθ_A·(r_A × n)`.
    separation: Lanes,
    normal_mass: Lanes,
    normal_impulse: Lanes,
    max_normal_impulse: Lanes,
    /// `coupling[j][i]`: change of point `i`'s normal velocity per unit
    /// normal impulse at point `j`, the entry `K_ij` of `K = J M⁻¹ Jᵀ`, for
    /// the points after `j` only (`i > j`; zero otherwise): the sweep solves
    /// point `j` before `i`, so only those see its impulse.
    coupling: [Lanes; MAX_MANIFOLD_POINTS],
    /// Change of the twist velocity `(ω_B - ω_A)·n` per unit normal impulse
    /// at each point.
    twist_coupling: Lanes,
    /// Change of each tangent velocity at the friction centre per unit
    /// normal impulse at each point.
    tangent_coupling: [Lanes; 2],
    /// Distance from the friction centre: each point's lever arm in twist.
    lever_arm: Lanes,
    /// Normal relative velocity at the start of the step, for restitution.
    relative_velocity: Lanes,
}

/// One manifold prepared for solving.
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
#[derive(Clone, Debug)]
pub(crate) struct ContactConstraint {
    body_a: u32,
    body_b: u32,
    inv_mass_a: f32,
    inv_mass_b: f32,
    normal: Vector3<f32>,
    softness: Softness,
    /// Number of contact points (used lanes of `rows`).
    count: usize,
    rows: NormalRows,
    tangents: [Vector3<f32>; 2],
    friction: f32,
    /// `c × t_k` (with `c` the friction anchor: the centre of the points,
    /// from each centre of mass) and `I⁻¹ (center × t_k)` for each tangent and body.
    rt_a: [Vector3<f32>; 2],
    rt_b: [Vector3<f32>; 2],
    irt_a: [Vector3<f32>; 2],
    irt_b: [Vector3<f32>; 2],
    /// `I⁻¹ n` for each body (twist response).
    in_a: Vector3<f32>,
    in_b: Vector3<f32>,
    /// Change of the two tangent velocities per unit twist impulse.
    twist_tangent_coupling: [f32; 2],
    /// Inverse of the 2×2 effective mass of the two tangent directions
    /// (they couple through rotation), row-major.
    tangent_mass: [f32; 4],
    tangent_impulse: [f32; 2],
    twist_mass: f32,
    twist_impulse: f32,
    /// Friction centre from each centre of mass, world axes.
    center_a: Vector3<f32>,
    center_b: Vector3<f32>,
    /// Tangential gap between the anchor points at the start of the step
    /// (B's minus A's, world frame; zero without an anchor).
    anchor_gap: Vector3<f32>,
    /// Rate (1/s) at which the anchor gap is closed.
    anchor_rate: f32,
    restitution: f32,
    /// Index of the contact the impulses are stored back into.
    contact: u32,
}

impl ContactConstraint {
    /// Solver index of body A.
    pub fn body_a(&self) -> u32 {
        self.body_a
    }

    /// Solver index of body B.
    pub fn body_b(&self) -> u32 {
        self.body_b
    }
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

/// Inputs to [`prepare`] for one manifold.
pub(crate) struct ContactInput<'a> {
    pub manifold: &'a Manifold,
    pub contact: u32,
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

/// Builds the constraint of one manifold: anchors, effective masses, angular
/// responses, row couplings and the stored impulses projected on this
/// step's tangents.
pub(crate) fn prepare(
    input: &ContactInput<'_>,
    bodies: &[SolverBody],
    masses: &[SolverMass],
    params: &SolverParams,
) -> ContactConstraint {
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
    let mut rows = NormalRows::default();
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
        rows.separation.as_mut_array()[i] = mp.separation;
        rows.normal_mass.as_mut_array()[i] = if k > 0.0 { 1.0 / k } else { 0.0 };
        rows.normal_impulse.as_mut_array()[i] = mp.normal_impulse;
        rows.twist_coupling.as_mut_array()[i] = n.dot(&(irn_a + irn_b));
        rows.relative_velocity.as_mut_array()[i] =
            dv_n + bb.angular_velocity.dot(&rn_b) - ba.angular_velocity.dot(&rn_a);
    }
    let count = m.points.len();
    let center = Point3::from(center / count.max(1) as f32);
    let center_a = center - input.center_a;
    let center_b = center - input.center_b;
    let in_a = ma.inv_inertia * n;
    let in_b = mb.inv_inertia * n;
    let k_twist = n.dot(&in_a) + n.dot(&in_b);
    // K = J M⁻¹ Jᵀ for the two tangents at the centre, inverted in closed form.
    let rt_a = tangents.map(|t| center_a.cross(&t));
    let rt_b = tangents.map(|t| center_b.cross(&t));
    let irt_a = rt_a.map(|r| ma.inv_inertia * r);
    let irt_b = rt_b.map(|r| mb.inv_inertia * r);
    let k = |i: usize, j: usize| {
        let lin = if i == j { inv_mass_sum } else { 0.0 };
        lin + rt_a[i].dot(&irt_a[j]) + rt_b[i].dot(&irt_b[j])
    };
    let (k11, k12, k22) = (k(0, 0), k(0, 1), k(1, 1));
    let det = k11 * k22 - k12 * k12;
    let tangent_mass = if det > 0.0 {
        let inv = 1.0 / det;
        [k22 * inv, -k12 * inv, -k12 * inv, k11 * inv]
    } else {
        [0.0; 4]
    };

    // Row couplings, the off-diagonal entries of K used by the sweep in
    // constraint space: a normal impulse at point j moves point i's normal
    // velocity by (m_A⁻¹ + m_B⁻¹) + (r_A,i × n)·I_A⁻¹(r_A,j × n)
    // + (r_B,i × n)·I_B⁻¹(r_B,j × n), the tangent velocities by
    // (c_B × t_k)·I_B⁻¹(r_B,j × n) + (c_A × t_k)·I_A⁻¹(r_A,j × n), and a
    // twist impulse moves them by (c_B × t_k)·I_B⁻¹n + (c_A × t_k)·I_A⁻¹n.
    for (j, mp) in m.points.iter().enumerate() {
        rows.lever_arm.as_mut_array()[j] = (mp.point - center).norm();
        let (irn_a, irn_b) = (rows.irn_a.get(j), rows.irn_b.get(j));
        let (along_a, along_b) = (rows.rn_a.dot(&irn_a), rows.rn_b.dot(&irn_b));
        for i in j + 1..count {
            rows.coupling[j].as_mut_array()[i] =
                inv_mass_sum + along_a.as_array()[i] + along_b.as_array()[i];
        }
        for k in 0..2 {
            rows.tangent_coupling[k].as_mut_array()[j] = rt_b[k].dot(&irn_b) + rt_a[k].dot(&irn_a);
        }
    }
    let twist_tangent_coupling = [0, 1].map(|k| rt_b[k].dot(&in_b) + rt_a[k].dot(&in_a));
    ContactConstraint {
        body_a: input.body_a,
        body_b: input.body_b,
        inv_mass_a: ma.inv_mass,
        inv_mass_b: mb.inv_mass,
        normal: n,
        softness,
        count,
        rows,
        tangents,
        friction: input.friction,
        rt_a,
        rt_b,
        irt_a,
        irt_b,
        in_a,
        in_b,
        twist_tangent_coupling,
        tangent_mass,
        tangent_impulse: tangents.map(|t| m.friction_impulse.dot(&t)),
        twist_mass: if k_twist > 0.0 { 1.0 / k_twist } else { 0.0 },
        twist_impulse: m.twist_impulse,
        center_a,
        center_b,
        anchor_gap: input.anchor_gap,
        anchor_rate: ANCHOR_RATE_FRACTION * softness.bias_rate,
        restitution: input.restitution,
        contact: input.contact,
    }
}

/// Copies of a constraint's two bodies, read once per manifold. Index 0 is
/// the static stand-in: it reads as at rest and [`store`] never writes it.
#[inline]
fn load(bodies: &[SolverBody], a: u32, b: u32) -> (SolverBody, SolverBody) {
    (bodies[a as usize], bodies[b as usize])
}

/// Writes a body's velocities back, unless it is the static stand-in.
#[inline]
fn store(bodies: &mut [SolverBody], index: u32, body: &SolverBody) {
    if index != 0 {
        let slot = &mut bodies[index as usize];
        slot.linear_velocity = body.linear_velocity;
        slot.angular_velocity = body.angular_velocity;
    }
}

impl ContactConstraint {
    /// Applies normal impulses at the points only.
    #[inline]
    fn apply_normals(&self, ba: &mut SolverBody, bb: &mut SolverBody, normal: &Lanes) {
        let total = normal.reduce_add();
        let p = self.normal * total;
        ba.linear_velocity -= p * self.inv_mass_a;
        ba.angular_velocity -= self.rows.irn_a.weighted_sum(normal);
        bb.linear_velocity += p * self.inv_mass_b;
        bb.angular_velocity += self.rows.irn_b.weighted_sum(normal);
    }
}

/// Restitution, once per step after the substeps: points that approached
/// faster than the threshold and carried load get a normal velocity of
/// `-e` times their approach speed.
pub(crate) fn apply_restitution(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    params: &SolverParams,
) {
    for c in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let (mut ba, mut bb) = load(bodies, c.body_a, c.body_b);
        restitute_one(c, &mut ba, &mut bb, params);
        store(bodies, c.body_a, &ba);
        store(bodies, c.body_b, &bb);
    }
}

/// Restitution of one manifold, point by point.
#[inline]
fn restitute_one(
    c: &mut ContactConstraint,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
    params: &SolverParams,
) {
    for i in 0..c.count.min(MAX_MANIFOLD_POINTS) {
        let rows = &c.rows;
        let approach = rows.relative_velocity.as_array()[i];
        if approach > -params.restitution_threshold || rows.max_normal_impulse.as_array()[i] == 0.0
        {
            continue;
        }
        let vn = (bb.linear_velocity - ba.linear_velocity).dot(&c.normal)
            + bb.angular_velocity.dot(&rows.rn_b.get(i))
            - ba.angular_velocity.dot(&rows.rn_a.get(i));
        let old = rows.normal_impulse.as_array()[i];
        let impulse = -rows.normal_mass.as_array()[i] * (vn + c.restitution * approach);
        let new = (old + impulse).max(0.0);
        let mut deltas = [0.0; MAX_MANIFOLD_POINTS];
        deltas[i] = new - old;
        c.apply_normals(ba, bb, &f32x4::new(deltas));
        c.rows.normal_impulse.as_mut_array()[i] = new;
    }
}

/// The friction anchor's gap is closed at this fraction of the contact's
/// position bias rate. At the full rate the pull overshoots against the
/// rocking of the soft normal springs and a resting cube keeps a limit cycle
/// of about 1 mm/s; a quarter settles it below 0.3 mm/s and still holds
/// stacks (10 cubes: 0.5 mm sideways in 25 s, 3.8 mm without anchors).
const ANCHOR_RATE_FRACTION: f32 = 0.25;

/// Fraction of the Coulomb limit below which a contact counts as sticking
/// and keeps (or sets) its friction anchor; at the limit it slides and the
/// anchor is dropped.
const STICKING_FRACTION: f32 = 0.99;

/// Writes the accumulated impulses back to the manifolds for warm starting,
/// and keeps the friction anchor of sticking contacts (`anchors[i]` is the
/// anchor constraint `i` would set, in the bodies' frames) and drops it for
/// sliding ones.
pub(crate) fn store_impulses(
    constraints: &[ContactConstraint],
    anchors: &[FrictionAnchor],
    contacts: &mut [Contact],
) {
    for (c, anchor) in constraints.iter().zip(anchors) {
        let m = &mut contacts[c.contact as usize].manifold;
        let total_normal = c.rows.normal_impulse.reduce_add();
        let limit = c.friction * total_normal;
        let friction = (c.tangent_impulse[0].powi(2) + c.tangent_impulse[1].powi(2)).sqrt();
        m.friction_anchor =
            (total_normal > 0.0 && friction < STICKING_FRACTION * limit).then_some(*anchor);
        for (mp, &impulse) in m.points.iter_mut().zip(c.rows.normal_impulse.as_array()) {
            mp.normal_impulse = impulse;
        }
        m.friction_impulse =
            c.tangents[0] * c.tangent_impulse[0] + c.tangents[1] * c.tangent_impulse[1];
        m.twist_impulse = c.twist_impulse;
    }
}
