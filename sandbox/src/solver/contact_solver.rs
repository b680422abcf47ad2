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
//! Because friction acts at the centre, off every point, its impulse moves
//! the points' normal velocities: where it moved one by more than the
//! push-out speed (an impact), the relax pass solves the normals and the
//! friction again, ending on the normals (see
//! [`MAX_FRICTION_ROUNDS`](crate::solver::simd_batch::MAX_FRICTION_ROUNDS):
//! ending on the friction sent fast spinning bodies back from a wall).
//! Each pass runs [`StepSettings::push_iterations`](crate::StepSettings) and
//! `relax_iterations` sweeps (the defaults are in
//! [`StepSettings::default`](crate::StepSettings::default)).
//! The manifolds are first grouped into batches of four that share no
//! awake body, from their body pairs alone, in batches that keep close to
//! the manifolds' own order (see [`crate::solver::constraint_batches`]: graph
//! colouring reordered the sweep and the 100-row pyramid collapsed sooner).
//! [`prepare`](crate::solver::prepare) then writes each manifold straight into its batch lane (see
//! [`ConstraintBatch`]: the sweep runs in constraint space), the
//! substep passes (warm start, push, relax) run in [`crate::solver::simd_batch`], one
//! manifold per SIMD lane, and this module applies restitution and stores
//! impulses straight from the lanes.
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

use collide::nalgebra::{Point3, Vector3};
use wide::f32x4;

use crate::collision::manifold::{FrictionAnchor, MAX_MANIFOLD_POINTS};
use crate::collision::pair_cache::PairCache;
use crate::prefetch::PREFETCH_FROM_BATCHES;
use crate::solver::load_stiffening::LoadStiffening;
use crate::solver::simd_batch::{self, ConstraintBatch, MAX_MANIFOLD_SWEEPS, tangent_basis};
use crate::solver::solver_body::SolverBody;
use crate::solver::step_impulses::StepImpulses;
use crate::workers::Workers;

/// A manifold's normal rows are swept again while a point's velocity is off
/// by more than this fraction of the linear slop per substep: 1 %, 2.4 cm/s
/// at the default 480 substeps per second, so a point keeps less than
/// 0.05 mm of error per substep (1 % of the slop, which assumes metre-sized
/// bodies), while an impact's error (the whole impact speed) is swept out.
///
/// 1e-4 removes the kick a settling column of 40 cubes gets from the
/// sweeps' point order (1.2 to 1.8 mm sideways in 10 steps at 1 %, see
/// the ignored tests of `sandbox/tests/columns.rs`), but cost 1.2 to 1.3
/// times the step on falling-boxes 1000 and pyramid 20 (1e-3: 1.06 to 1.2
/// times on falling-boxes 1000, and 1.9 mm), so it stays at 1 % (issue 41).
pub(crate) const SWEEP_SLOP_FRACTION: f32 = 0.01;

/// Rate at which the push pass closes a manifold's tilt (the differences
/// between its touching points' separations), as a fraction of the
/// substep rate `1 / h`: the tilt spring is `0.05 / (h b)` times stiffer
/// than the compression spring (1.58 times at the default 50 Hz and 480
/// substeps per second; against static bodies, twice as stiff already,
/// it changes nothing), see `ConstraintBatch::touching_mean` in
/// `simd_batch.rs`, whose hinge-chain model puts the buckling limit of a
/// column of unit cubes at 21 cubes without it, 25 with it.
///
/// Measured (columns of unit cubes at friction 0.6, sleeping off, 25 s):
/// at 0.05 the 25-cube column stands (2.8 cm sideways; 1.3 cm with
/// [`SWEEP_SLOP_FRACTION`] 1e-3) and the 30 falls after 5 s (9 s); with
/// the sweeps at 1e-3, at 0.2 the 25, 30 (and, depending on rounding, 40)
/// stand within 3.5 cm, as the model predicts (limit 39),
/// but the stiffer tilt fights the two half-face manifolds under each cube
/// of a pyramid: pyramid 20 walked 3.3 cm sideways at 0.1 and 5.3 cm at
/// 0.2 (0.2 mm without, 2.5 mm at 0.05; 8.7 mm at 0.05 with the sweeps at
/// 1 %), stack 20 1.1 cm at 0.2, and
/// pyramid 100 no longer slept. So the tilt is stiffened only as far as
/// those contracts allow (issue 41 stays open for taller columns).
pub(crate) const TILT_BIAS_FRACTION: f32 = 0.05;

/// Spring coefficients of a soft constraint for one substep length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness {
    /// Angular frequency `ω = 2π f` of the spring (rad/s; 0 for rigid).
    pub(super) omega: f32,
    pub(super) bias_rate: f32,
    pub(super) mass_scale: f32,
    pub(super) impulse_scale: f32,
}

impl Softness {
    /// Coefficients for frequency `hertz`, damping ratio `zeta` and substep `h`.
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        if !(hertz > 0.0) {
            return Self { omega: 0.0, bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self { omega, bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }
}

/// Parameters shared by every contact of a step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    /// Softness of contacts between two dynamic bodies.
    pub dynamic_softness: Softness,
    /// Softness of contacts against static bodies (stiffer: nothing gives).
    pub static_softness: Softness,
    /// How heavily loaded contacts are stiffened (see
    /// [`crate::solver::load_stiffening`]).
    pub load_stiffening: LoadStiffening,
    /// Largest speed (m/s) at which overlap is pushed out.
    pub max_push_out: f32,
    /// Approach speed (m/s) below which restitution is ignored.
    pub restitution_threshold: f32,
    /// `1 / h`, the inverse substep.
    pub inv_h: f32,
    /// Normal velocity error (m/s) a manifold's rows may keep after a
    /// sweep before it is swept again (see
    /// [`ConstraintBatch::converge_normal`](crate::solver::simd_batch)):
    /// [`SWEEP_SLOP_FRACTION`] of the linear slop per substep.
    pub sweep_tolerance: f32,
    /// Rate (1/s) at which the push pass closes the differences between
    /// the separations of a manifold's touching points (its tilt), where
    /// that is above the contact's own bias rate:
    /// [`TILT_BIAS_FRACTION`] of the substep rate.
    pub tilt_bias_rate: f32,
    /// Whether the passes prefetch the batches ahead: set when the step has
    /// at least [`PREFETCH_FROM_BATCHES`](crate::prefetch::PREFETCH_FROM_BATCHES),
    /// too many for the caches. A hint only: it changes no result.
    pub prefetch: bool,
}

/// One value per contact point of a manifold, a SIMD vector of four lanes
/// (`wide` picks SSE, NEON or a scalar fallback). Lanes past the manifold's
/// last point hold zeros: with a zero effective mass their impulse never
/// moves, so the per-point arithmetic runs on all lanes without a count.
type Lanes = f32x4;

/// One vector per contact point of a manifold, stored by component
/// (structure of arrays), as restitution reads a manifold back from its
/// batch lane.
#[derive(Clone, Copy, Debug, Default)]
struct VectorLanes {
    x: Lanes,
    y: Lanes,
    z: Lanes,
}

impl VectorLanes {
    /// `Σ_i w_i v_i`.
    #[inline]
    fn weighted_sum(&self, w: &Lanes) -> Vector3<f32> {
        Vector3::new(lane_dot(&self.x, w), lane_dot(&self.y, w), lane_dot(&self.z, w))
    }

    fn get(&self, i: usize) -> Vector3<f32> {
        Vector3::new(self.x.as_array()[i], self.y.as_array()[i], self.z.as_array()[i])
    }
}

/// `Σ_i a_i b_i` over the lanes.
#[inline]
fn lane_dot(a: &Lanes, b: &Lanes) -> f32 {
    (*a * *b).reduce_add()
}

/// Where a manifold's constraint is solved, and what restitution and
/// storing need of it beyond the batch lanes. Indexed like the manifolds
/// handed to the batcher (their order in the contact list).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstraintSlot {
    /// Index of the contact the impulses are stored back into.
    pub contact: u32,
    /// Batch and lane the manifold is solved in.
    pub batch: u32,
    pub lane: u32,
    /// Number of contact points.
    pub count: u32,
    pub restitution: f32,
    /// Normal relative velocity of each point at the start of the step, for
    /// restitution (zero when `restitution` is).
    pub relative_velocity: [f32; MAX_MANIFOLD_POINTS],
    /// The friction anchor the manifold keeps if it sticks, in the bodies'
    /// frames.
    pub anchor: FrictionAnchor,
}

impl ConstraintSlot {
    /// A placeholder, overwritten when the manifold is prepared.
    pub const EMPTY: Self = Self {
        contact: 0,
        batch: 0,
        lane: 0,
        count: 0,
        restitution: 0.0,
        relative_velocity: [0.0; MAX_MANIFOLD_POINTS],
        anchor: FrictionAnchor {
            local_a: Point3::new(0.0, 0.0, 0.0),
            local_b: Point3::new(0.0, 0.0, 0.0),
        },
    };
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
        bodies[index as usize].set_velocities(&body.linear_velocity(), &body.angular_velocity());
    }
}

/// One manifold's normal rows read back from its batch lane, one SIMD lane
/// per point, for the scalar passes that run once per step.
struct LaneRows {
    normal: Vector3<f32>,
    inv_mass_a: f32,
    inv_mass_b: f32,
    rn_a: VectorLanes,
    rn_b: VectorLanes,
    irn_a: VectorLanes,
    irn_b: VectorLanes,
}

impl LaneRows {
    fn read(batch: &ConstraintBatch, lane: usize) -> Self {
        let vectors = |v: &[simd_batch::WideVec; MAX_MANIFOLD_POINTS]| VectorLanes {
            x: f32x4::new(v.map(|p| p.x.as_array()[lane])),
            y: f32x4::new(v.map(|p| p.y.as_array()[lane])),
            z: f32x4::new(v.map(|p| p.z.as_array()[lane])),
        };
        Self {
            normal: batch.normal.get(lane),
            inv_mass_a: batch.inv_mass_a.as_array()[lane],
            inv_mass_b: batch.inv_mass_b.as_array()[lane],
            rn_a: vectors(&batch.rn_a),
            rn_b: vectors(&std::array::from_fn(|i| batch.rn_b(i))),
            irn_a: vectors(&batch.rn_a.map(|rn| batch.inv_inertia_a.mul(&rn))),
            irn_b: vectors(&std::array::from_fn(|i| batch.inv_inertia_b.mul(&batch.rn_b(i)))),
        }
    }

    /// Applies normal impulses at the points only.
    #[inline]
    fn apply_normals(&self, ba: &mut SolverBody, bb: &mut SolverBody, normal: &Lanes) {
        let total = normal.reduce_add();
        let p = self.normal * total;
        ba.set_velocities(
            &(ba.linear_velocity() - p * self.inv_mass_a),
            &(ba.angular_velocity() - self.irn_a.weighted_sum(normal)),
        );
        bb.set_velocities(
            &(bb.linear_velocity() + p * self.inv_mass_b),
            &(bb.angular_velocity() + self.irn_b.weighted_sum(normal)),
        );
    }
}

/// Restitution, once per step after the substeps, manifold by manifold in
/// the slots' order: points that approached faster than the threshold and
/// carried load get a normal velocity of `-e` times their approach speed.
pub(crate) fn apply_restitution(
    slots: &[ConstraintSlot],
    batches: &mut [ConstraintBatch],
    bodies: &mut [SolverBody],
    params: &SolverParams,
) {
    for s in slots {
        if s.restitution == 0.0 {
            continue;
        }
        let (batch, lane) = (&mut batches[s.batch as usize], s.lane as usize);
        let (a, b) = (batch.body_a[lane], batch.body_b[lane]);
        let (mut ba, mut bb) = load(bodies, a, b);
        restitute_one(s, batch, lane, &mut ba, &mut bb, params);
        store(bodies, a, &ba);
        store(bodies, b, &bb);
    }
}

/// Restitution of one manifold, point by point, swept until no point's
/// velocity would change by more than [`SolverParams::sweep_tolerance`]
/// (at most [`MAX_MANIFOLD_SWEEPS`] sweeps, stopping when the largest
/// change stops shrinking): one sweep over a face's four points leaves the
/// first ones' impulses spinning the body, and a plate thrown flat at a
/// wall with `e = 0.5` came back at `0.33 v`.
#[inline]
fn restitute_one(
    s: &ConstraintSlot,
    batch: &mut ConstraintBatch,
    lane: usize,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
    params: &SolverParams,
) {
    let rows = LaneRows::read(batch, lane);
    let mut last_change = f32::INFINITY;
    for _ in 0..MAX_MANIFOLD_SWEEPS {
        let mut off_target = false;
        let mut largest = 0.0f32;
        for i in 0..(s.count as usize).min(MAX_MANIFOLD_POINTS) {
            let approach = s.relative_velocity[i];
            if approach > -params.restitution_threshold
                || batch.max_normal_impulse[i].as_array()[lane] == 0.0
            {
                continue;
            }
            let vn = (bb.linear_velocity() - ba.linear_velocity()).dot(&rows.normal)
                + bb.angular_velocity().dot(&rows.rn_b.get(i))
                - ba.angular_velocity().dot(&rows.rn_a.get(i));
            let old = batch.normal_impulse[i].as_array()[lane];
            let mass = batch.normal_mass[i].as_array()[lane];
            let new = (old - mass * (vn + s.restitution * approach)).max(0.0);
            let mut deltas = [0.0; MAX_MANIFOLD_POINTS];
            deltas[i] = new - old;
            rows.apply_normals(ba, bb, &f32x4::new(deltas));
            batch.normal_impulse[i].as_mut_array()[lane] = new;
            let change = (new - old).abs();
            off_target |= change > params.sweep_tolerance * mass;
            largest = largest.max(change);
        }
        // Written so that NaN stops the sweeps.
        if !(off_target && largest < last_change) {
            break;
        }
        last_change = largest;
    }
}

/// The friction anchor's gap is closed at this fraction of the contact's
/// position bias rate. At the full rate the pull overshoots against the
/// rocking of the soft normal springs and a resting cube keeps a limit cycle
/// of about 1 mm/s; a quarter settles it below 0.3 mm/s and still holds
/// stacks (10 cubes: 0.5 mm sideways in 25 s, 3.8 mm without anchors).
pub(super) const ANCHOR_RATE_FRACTION: f32 = 0.25;

/// Fraction of the Coulomb limit below which a contact counts as sticking
/// and keeps (or sets) its friction anchor; at the limit it slides and the
/// anchor is dropped.
const STICKING_FRACTION: f32 = 0.99;

/// Batches one worker stores at a time in [`store_impulses`]: each is up
/// to four manifolds, a few cache lines read from the batch and written to
/// each manifold.
const BATCHES_PER_RUN: usize = 256;

/// Writes the accumulated impulses back from the batch lanes to the
/// manifolds for warm starting, with the impulses of the whole step for
/// users (`step_impulses`, the substeps before the last, plus the stored
/// ones: see `solver::step_impulses`), and keeps the friction anchor of
/// sticking contacts and drops it for sliding ones.
///
/// Batch after batch (issue 41, "storing impulses in batch order"):
/// `members(i)` gives the slots batch `i` holds, lane by lane. Each batch
/// is read once, in order, and its tangent directions are found once for
/// all its lanes; storing slot after slot read each batch again for every
/// lane, out of order, and found them again each time. Each lane's
/// arithmetic is what it was, so the stored values are the same bits. Runs
/// on the workers in fixed runs of batches; the batches hold each solved
/// manifold once, so each manifold is written by one worker (the same bits
/// for any thread count).
pub(crate) fn store_impulses<'a>(
    slots: &[ConstraintSlot],
    batches: &[ConstraintBatch],
    members: impl Fn(usize) -> &'a [u32] + Sync,
    step_impulses: &mut [StepImpulses],
    contacts: &mut PairCache,
    workers: &Workers,
) {
    debug_assert!(slots.windows(2).all(|w| w[0].contact < w[1].contact), "a pair solved twice");
    debug_assert_eq!(step_impulses.len(), batches.len());
    let PairCache { pairs, slab, .. } = contacts;
    let pairs = &*pairs;
    let lent = slab.lend();
    let ahead = batches.len() >= PREFETCH_FROM_BATCHES;
    let manifold_of = |m: u32| pairs[slots[m as usize].contact as usize].manifold as usize;
    workers.for_each_run(step_impulses, BATCHES_PER_RUN, |first, run| {
        for (k, earlier) in run.iter().enumerate() {
            let index = first + k;
            // The manifolds lie in the slab in no order the batches follow:
            // on a large step their first write was most of this pass
            // (washer), so ask for the next batch's now.
            if ahead && index + 1 < batches.len() {
                for &m in members(index + 1) {
                    lent.prefetch(manifold_of(m));
                }
            }
            let batch = &batches[index];
            let tangents = tangent_basis(&batch.normal);
            for (lane, &m) in members(index).iter().enumerate() {
                let s = &slots[m as usize];
                debug_assert!(s.batch as usize == index && s.lane as usize == lane);
                let count = (s.count as usize).min(MAX_MANIFOLD_POINTS);
                let mut normal_impulse = [0.0; MAX_MANIFOLD_POINTS];
                for (impulse, lanes) in
                    normal_impulse.iter_mut().zip(&batch.normal_impulse).take(count)
                {
                    *impulse = lanes.as_array()[lane];
                }
                let tangent_impulse = [0, 1].map(|k| batch.tangent_impulse[k].as_array()[lane]);
                let tangents = [0, 1].map(|k| tangents[k].get(lane));
                // SAFETY: the batches hold each solved pair once (`members`
                // is a permutation of the slots, which name each pair once),
                // no two pairs hold the same slab slot, each run of batches
                // goes to one worker, and the reference is dropped before
                // the next.
                #[allow(unsafe_code)]
                let Some(cached) = (unsafe { lent.get_mut(manifold_of(m)) }) else {
                    // The solver sees only touching pairs, which hold a slot.
                    debug_assert!(false, "a solved pair holds no manifold");
                    continue;
                };
                let m = &mut cached.manifold;
                let total_normal = f32x4::new(normal_impulse).reduce_add();
                let limit = batch.friction.as_array()[lane] * total_normal;
                let friction = (tangent_impulse[0].powi(2) + tangent_impulse[1].powi(2)).sqrt();
                m.friction_anchor = (total_normal > 0.0 && friction < STICKING_FRACTION * limit)
                    .then_some(s.anchor);
                for (i, (mp, &impulse)) in m.points.iter_mut().zip(&normal_impulse).enumerate() {
                    mp.normal_impulse = impulse;
                    mp.step_normal_impulse = earlier.normal[i].as_array()[lane] + impulse;
                }
                m.friction_impulse =
                    tangents[0] * tangent_impulse[0] + tangents[1] * tangent_impulse[1];
                let step_tangent =
                    [0, 1].map(|k| earlier.tangent[k].as_array()[lane] + tangent_impulse[k]);
                m.step_friction_impulse =
                    tangents[0] * step_tangent[0] + tangents[1] * step_tangent[1];
                m.twist_impulse = batch.twist_impulse.as_array()[lane];
            }
        }
    });
}
