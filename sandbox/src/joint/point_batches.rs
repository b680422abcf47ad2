//! The point joints (spherical joints without limits or friction, between
//! bodies the solver moves or static ones) solved four at a time, one
//! joint per SIMD lane, colour by colour: box3d solves its joints colour
//! by colour too (`solver.c`, `b3SolveJointsTask` per graph colour), one
//! at a time in scalar code; the batches here follow Box2D v3's wide
//! contact constraints (`contact_solver.c`) instead, as the contact
//! solver's `simd_batch.rs` does for manifolds.
//!
//! The joints are coloured as they are prepared (`joint_colours.rs`), so
//! that no two of a colour share a moving body, and each goes straight
//! into the next lane of its colour's batches of [`LANES`], in slot
//! order. A pass walks the colours in order and, within a
//! colour, its batches in any order and on any thread: the results are
//! bitwise the same for any thread count. Each batch holds, prepared once
//! per step as structure-of-arrays, all that the substeps read (anchors,
//! the centres' offset, the point constraint's inverse effective mass,
//! masses, softness and the accumulated impulse); the passes read the
//! bodies' velocities, pose changes and rotations since the step began.
//!
//! The rows are those of `JointBodies::solve_point` (`rows.rs`): the
//! anchors turned by each body's rotation since the step began, the
//! relative velocity of the anchors `ċ = v_b + ω_b × r_b − v_a − ω_a × r_a`,
//! the separation `d = Δp_b − Δp_a + Δc + r_b − r_a`, and the impulse
//! `λ = −K⁻¹ (ċ + β d) · mass_scale − λ_acc · impulse_scale`, with `K⁻¹`
//! kept from the step's start.

use arrayvec::ArrayVec;
use collide::nalgebra::UnitQuaternion;
use wide::f32x4;

use crate::joint::desc::JointKind;
use crate::joint::joint_colours::{JointColours, MAX_COLOURS};
use crate::joint::prepare::{NO_INDEX, PreparedJoint};
use crate::joint::storage::{JointRecord, Joints};
use crate::joint::wide::{LANES, W, WideQuat, WideSym, WideVec};
use crate::shared_slice::SharedSlice;
use crate::solver::simd_target::per_simd_target;
use crate::solver::solver_body::{SolverBody, SolverMotion};
use crate::workers::Workers;

/// Batches one worker solves at a time in a pass: each takes a few tens
/// of nanoseconds, so a piece must be large for handing it out to pay.
pub(crate) const BATCHES_PER_CHUNK: usize = 128;

/// Which pass of the substep a sweep is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PointPass {
    /// The push: position errors corrected with each joint's softness.
    Push,
    /// The relax: velocities held rigidly, no position correction.
    Relax,
}

/// Up to [`LANES`] point joints sharing no moving body, field by field
/// with one lane per joint. Empty lanes have no masses and no impulse
/// and name no body, so they compute zero and write nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointBatch {
    /// Each lane's bodies' solver indices ([`NO_INDEX`] for a static side
    /// or an empty lane: read as at rest, never written).
    body_a: [u32; LANES],
    body_b: [u32; LANES],
    /// Each lane's joint slot ([`NO_INDEX`] if empty).
    slot: [u32; LANES],
    /// The anchors relative to the centres of mass, world frame, at the
    /// step's start.
    anchor_a: WideVec,
    anchor_b: WideVec,
    /// Centre of mass of B minus that of A at the step's start.
    delta_center: WideVec,
    /// The inverse of the point constraint's effective mass `K`.
    point_mass: WideSym,
    inv_mass_a: W,
    inv_mass_b: W,
    inv_inertia_a: WideSym,
    inv_inertia_b: WideSym,
    /// The push pass's softness (see `soft.rs`).
    bias_rate: W,
    mass_scale: W,
    impulse_scale: W,
    /// The accumulated impulse on B (its opposite on A), N·s.
    impulse: WideVec,
}

/// The batches of one step, colour by colour, with the colouring.
#[derive(Debug, Default)]
pub(crate) struct PointBatches {
    /// Per colour: its batches, the last one possibly part filled.
    colours: Vec<Vec<PointBatch>>,
    /// Per colour: the lanes its last batch has filled (0 when it has no
    /// batch yet).
    filled: [u8; MAX_COLOURS],
    /// Joints in the batches.
    count: usize,
    colouring: JointColours,
}

/// Whether the batches can solve prepared joint `j` of record `r`: a
/// spherical joint with only its point rows, each side moved by the
/// solver or static (a kinematic or otherwise unmoved awake side would be
/// read by several lanes at once, so it stays on the serial path).
pub(crate) fn is_point_joint(j: &PreparedJoint, r: &JointRecord) -> bool {
    let side_ok = |s: &crate::joint::prepare::JointSide| s.moves || s.index == NO_INDEX;
    j.kind == JointKind::Spherical
        && r.cone_limit.is_none()
        && r.twist_limits.is_none()
        && !(r.friction > 0.0)
        && side_ok(&j.a)
        && side_ok(&j.b)
}

impl PointBatches {
    /// Forgets the last step's batches, for a step of `body_count` solver
    /// bodies.
    pub fn clear(&mut self, body_count: usize) {
        self.colours.resize_with(MAX_COLOURS, Vec::new);
        for batches in &mut self.colours {
            batches.clear();
        }
        self.filled = [0; MAX_COLOURS];
        self.count = 0;
        self.colouring.clear(body_count);
    }

    /// Colours prepared joint `j` of record `r` (one that passes
    /// [`is_point_joint`]; joints come in slot order) and puts it in the
    /// next lane of its colour. Returns `false`, and keeps nothing, when
    /// no colour is free on its bodies: the serial path solves it.
    pub fn add(&mut self, j: &PreparedJoint, r: &JointRecord) -> bool {
        debug_assert!(is_point_joint(j, r));
        let moving = |index: u32| (index != NO_INDEX).then_some(index);
        let Some(colour) = self.colouring.add(moving(j.a.index), moving(j.b.index)) else {
            return false;
        };
        let batches = &mut self.colours[colour];
        let filled = &mut self.filled[colour];
        if *filled == 0 || usize::from(*filled) == LANES {
            batches.push(PointBatch::EMPTY);
            *filled = 0;
        }
        if let Some(batch) = batches.last_mut() {
            batch.set_lane(usize::from(*filled), j, r);
        }
        *filled += 1;
        self.count += 1;
        true
    }

    /// The batches of each colour that has any, in colour order.
    pub fn non_empty_colours(&mut self) -> impl Iterator<Item = &mut [PointBatch]> {
        self.colours.iter_mut().filter(|batches| !batches.is_empty()).map(|b| &mut b[..])
    }

    /// Whether there is nothing to solve.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Applies each joint's accumulated impulse (the warm start).
    pub fn warm_start(
        &mut self,
        bodies: &mut [SolverBody],
        motions: &[SolverMotion],
        workers: &Workers,
    ) {
        self.each_colour(bodies, workers, |batches, bodies| {
            warm_start_batches(batches, bodies, motions);
        });
    }

    /// One sweep of the point rows, the push or the relax pass.
    pub fn solve(
        &mut self,
        bodies: &mut [SolverBody],
        motions: &[SolverMotion],
        pass: PointPass,
        workers: &Workers,
    ) {
        match pass {
            PointPass::Push => self.each_colour(bodies, workers, |batches, bodies| {
                push_batches(batches, bodies, motions);
            }),
            PointPass::Relax => self.each_colour(bodies, workers, |batches, bodies| {
                relax_batches(batches, bodies, motions);
            }),
        }
    }

    /// Copies each joint's accumulated impulse back to its record, for
    /// the next step's warm start, and stores its reaction on B (the
    /// impulses over the substep `h`, as `spherical::reaction` gives it
    /// for a joint without limits), which the break test reads.
    pub fn store_impulses(&self, joints: &mut Joints, h: f32) {
        let inv_h = 1.0 / h;
        for batch in self.colours.iter().flatten() {
            for (lane, &slot) in batch.slot.iter().enumerate() {
                if let Some(r) = joints.records.get_mut(slot as usize) {
                    r.impulses.linear = batch.impulse.get(lane);
                    r.force = r.impulses.linear * inv_h;
                    r.torque = r.impulses.friction * inv_h;
                }
            }
        }
    }

    /// Runs `f` on the batches of each colour in turn, the colour's
    /// batches cut into fixed pieces handed to the workers: the colours
    /// are the stages of one chained job (`Workers::for_each_stage`), so
    /// the workers are forked once a pass, not once a colour.
    fn each_colour<F>(&mut self, bodies: &mut [SolverBody], workers: &Workers, f: F)
    where
        F: Fn(&mut [PointBatch], &SharedSlice<'_, SolverBody>) + Sync,
    {
        let shared = SharedSlice::new(bodies);
        let colours: ArrayVec<&mut [PointBatch], MAX_COLOURS> = self.non_empty_colours().collect();
        let chunks: ArrayVec<usize, MAX_COLOURS> =
            colours.iter().map(|batches| batches.len().div_ceil(BATCHES_PER_CHUNK)).collect();
        let colours: ArrayVec<SharedSlice<'_, PointBatch>, MAX_COLOURS> =
            colours.into_iter().map(SharedSlice::new).collect();
        workers.for_each_stage(
            colours.len(),
            |colour| chunks[colour],
            |colour, chunk| {
                let first = chunk * BATCHES_PER_CHUNK;
                // SAFETY: the chunks of one colour are disjoint runs of its
                // batches, each handed to one call.
                #[allow(unsafe_code)]
                let run = unsafe { colours[colour].run_mut(first..first + BATCHES_PER_CHUNK) };
                f(run, &shared);
            },
        );
    }
}

impl PointBatch {
    /// A batch of empty lanes.
    const EMPTY: Self = Self {
        body_a: [NO_INDEX; LANES],
        body_b: [NO_INDEX; LANES],
        slot: [NO_INDEX; LANES],
        anchor_a: WideVec::ZERO,
        anchor_b: WideVec::ZERO,
        delta_center: WideVec::ZERO,
        point_mass: WideSym::ZERO,
        inv_mass_a: W::ZERO,
        inv_mass_b: W::ZERO,
        inv_inertia_a: WideSym::ZERO,
        inv_inertia_b: WideSym::ZERO,
        bias_rate: W::ZERO,
        mass_scale: W::ZERO,
        impulse_scale: W::ZERO,
        impulse: WideVec::ZERO,
    };

    /// Fills lane `lane` with prepared joint `j` of record `r`.
    fn set_lane(&mut self, lane: usize, j: &PreparedJoint, r: &JointRecord) {
        self.body_a[lane] = j.a.index;
        self.body_b[lane] = j.b.index;
        self.slot[lane] = j.slot;
        self.anchor_a.set(lane, &j.a.anchor);
        self.anchor_b.set(lane, &j.b.anchor);
        self.delta_center.set(lane, &j.delta_center);
        self.point_mass.set(lane, &j.point_mass);
        self.inv_mass_a.as_mut_array()[lane] = j.a.inv_mass;
        self.inv_mass_b.as_mut_array()[lane] = j.b.inv_mass;
        self.inv_inertia_a.set(lane, &j.a.inv_inertia);
        self.inv_inertia_b.set(lane, &j.b.inv_inertia);
        self.bias_rate.as_mut_array()[lane] = j.soft.bias_rate;
        self.mass_scale.as_mut_array()[lane] = j.soft.mass_scale;
        self.impulse_scale.as_mut_array()[lane] = j.soft.impulse_scale;
        self.impulse.set(lane, &r.impulses.linear);
    }
}

/// The rows of a body at rest, for a static side.
const AT_REST: [f32x4; 3] = [f32x4::ZERO; 3];

/// The identity rotation, for a static side.
const NO_TURN: UnitQuaternion<f32> = SolverMotion::IDENTITY.delta_rotation;

/// One side of every lane of a batch: velocities, displacement since the
/// step began and the anchor turned with the body.
#[derive(Clone, Copy, Debug)]
struct WideSide {
    v: WideVec,
    w: WideVec,
    dp: WideVec,
    r: WideVec,
}

impl WideSide {
    /// Gathers the bodies `index` (one per lane) and turns `anchor` by
    /// their rotations since the step began.
    #[inline(always)]
    fn gather(
        bodies: &SharedSlice<'_, SolverBody>,
        motions: &[SolverMotion],
        index: &[u32; LANES],
        anchor: &WideVec,
    ) -> Self {
        let rows = |lane: usize| {
            // SAFETY: the lanes of all the batches of one colour name each
            // moving body at most once (`joint_colours.rs`), a colour's
            // batches are handed to one worker each, and the reference is
            // dropped here, once the rows are copied.
            #[allow(unsafe_code)]
            let body = unsafe { bodies.get_mut(index[lane] as usize) };
            body.map_or(AT_REST, |b| b.rows())
        };
        let turn =
            |lane: usize| motions.get(index[lane] as usize).map_or(&NO_TURN, |m| &m.delta_rotation);
        let rows = [rows(0), rows(1), rows(2), rows(3)];
        let column = |r: usize| W::transpose([rows[0][r], rows[1][r], rows[2][r], rows[3][r]]);
        let [vx, vy, vz, wx] = column(0);
        let [wy, wz, px, py] = column(1);
        let [pz, _, _, _] = column(2);
        let q = WideQuat::from_lanes([turn(0), turn(1), turn(2), turn(3)]);
        Self {
            v: WideVec { x: vx, y: vy, z: vz },
            w: WideVec { x: wx, y: wy, z: wz },
            dp: WideVec { x: px, y: py, z: pz },
            r: q.rotate(anchor),
        }
    }

    /// Writes the velocities back to the bodies `index` (skipping
    /// [`NO_INDEX`]), with the displacement's first two components as
    /// they were gathered.
    #[inline(always)]
    fn scatter(&self, bodies: &SharedSlice<'_, SolverBody>, index: &[u32; LANES]) {
        let (v, w, p) = (&self.v, &self.w, &self.dp);
        let row0 = W::transpose([v.x, v.y, v.z, w.x]);
        let row1 = W::transpose([w.y, w.z, p.x, p.y]);
        for (lane, &i) in index.iter().enumerate() {
            // SAFETY: as in `gather`.
            #[allow(unsafe_code)]
            if let Some(body) = unsafe { bodies.get_mut(i as usize) } {
                body.set_first_rows(row0[lane], row1[lane]);
            }
        }
    }
}

impl PointBatch {
    /// Applies the impulse `p` at the anchors (to B, its opposite to A).
    #[inline(always)]
    fn apply(&self, a: &mut WideSide, b: &mut WideSide, p: &WideVec) {
        a.v -= *p * self.inv_mass_a;
        a.w -= self.inv_inertia_a.mul(&a.r.cross(p));
        b.v += *p * self.inv_mass_b;
        b.w += self.inv_inertia_b.mul(&b.r.cross(p));
    }

    /// The warm start of one batch.
    #[inline(always)]
    fn warm_start(&self, bodies: &SharedSlice<'_, SolverBody>, motions: &[SolverMotion]) {
        let mut a = WideSide::gather(bodies, motions, &self.body_a, &self.anchor_a);
        let mut b = WideSide::gather(bodies, motions, &self.body_b, &self.anchor_b);
        self.apply(&mut a, &mut b, &self.impulse);
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }

    /// One pass of one batch's point rows: with `BIAS`, the push pass
    /// (each joint's softness), else the relax pass (rigid, no bias).
    #[inline(always)]
    fn solve<const BIAS: bool>(
        &mut self,
        bodies: &SharedSlice<'_, SolverBody>,
        motions: &[SolverMotion],
    ) {
        let mut a = WideSide::gather(bodies, motions, &self.body_a, &self.anchor_a);
        let mut b = WideSide::gather(bodies, motions, &self.body_b, &self.anchor_b);
        let cdot = (b.v + b.w.cross(&b.r)) - (a.v + a.w.cross(&a.r));
        let lambda = if BIAS {
            let d = (b.dp - a.dp) + self.delta_center + (b.r - a.r);
            let x = self.point_mass.mul(&(cdot + d * self.bias_rate));
            -(x * self.mass_scale) - self.impulse * self.impulse_scale
        } else {
            -self.point_mass.mul(&cdot)
        };
        self.impulse += lambda;
        self.apply(&mut a, &mut b, &lambda);
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }
}

per_simd_target! {
    /// The warm start of a run of batches of one colour.
    fn warm_start_batches(
        batches: &mut [PointBatch],
        bodies: &SharedSlice<'_, SolverBody>,
        motions: &[SolverMotion],
    ) {
        for batch in batches.iter() {
            batch.warm_start(bodies, motions);
        }
    }
}

per_simd_target! {
    /// The push pass over a run of batches of one colour.
    fn push_batches(
        batches: &mut [PointBatch],
        bodies: &SharedSlice<'_, SolverBody>,
        motions: &[SolverMotion],
    ) {
        for batch in batches.iter_mut() {
            batch.solve::<true>(bodies, motions);
        }
    }
}

per_simd_target! {
    /// The relax pass over a run of batches of one colour.
    fn relax_batches(
        batches: &mut [PointBatch],
        bodies: &SharedSlice<'_, SolverBody>,
        motions: &[SolverMotion],
    ) {
        for batch in batches.iter_mut() {
            batch.solve::<false>(bodies, motions);
        }
    }
}
