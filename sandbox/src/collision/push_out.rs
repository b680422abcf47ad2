//! The push-out-of-still-bodies stage: after the solve and the sweep of
//! fast bodies, a moving body that ended deeper than
//! [`PUSH_OUT_ALLOWANCE`] in a body that stood still this step (static,
//! asleep, or kinematic) is translated out along the penetration normal
//! until it is exactly that deep. Its velocity is kept.
//!
//! Why. The soft contact solver leaves some bodies sinking into the ground
//! step after step, because its springs and sweeps cannot carry the load
//! pressed onto them (found by the soak, `sandbox soak`):
//! * a light body squeezed under a much heavier one that also rests on the
//!   ground: a 1.5 g rod under a 20 kg box, whose contact springs, scaled
//!   by the rod's mass and capped in frequency for stability, carry a few
//!   newtons of the box's 196 while the box's own ground contacts hold it
//!   level, so the rod is pressed 5 cm into the ground;
//! * a plate under a rolling body eight times heavier at one substep,
//!   where one Gauss-Seidel sweep per substep passes too little of the
//!   ground's correction through the plate and it creeps 2 to 3 mm a step
//!   into the ground;
//! * a 12 g hull struck into the ground by a box at 190 m/s, 10 cm in for
//!   a step.
//!
//! Continuous collision (`collision::sweep_fast_bodies`) moves a body back in
//! time, which cannot help a body that started the step already deep. This
//! stage is the position-level correction of Box2D v2's
//! `b2ContactSolver::SolvePositionConstraints` (non-linear Gauss-Seidel),
//! and of Bullet's split impulse, applied only where the velocity solve
//! failed. Departures:
//! * only against still bodies, whose pose the correction need not share,
//!   and only beyond [`PUSH_OUT_ALLOWANCE`], so bodies the contacts hold
//!   (every body of the benchmark scenes, whose poses are unchanged) are
//!   never touched;
//! * a pure translation by the exact penetration of the pair's two shapes
//!   (collide's [`try_contact`](collide::try_contact)),
//!   not a linearised impulse at the manifold's points, so one pass puts
//!   the body at the allowance;
//! * the velocity is kept: the next step's contacts, found at the corrected
//!   pose, stop what is left of the motion, as the solver would have. No
//!   kinetic energy is added; the potential energy the lift adds is what
//!   the body would have had resting on the surface.
//!
//! Cost. A pair is looked at only if its body may have ended beyond the
//! allowance: its deepest manifold point at the step's start plus a bound
//! on how far any of its points moved this step (the continuous stage's).
//! Bodies at rest never pass; a pair that does is bounded by two support
//! points along its manifold's normal, and only then measured. The pairs
//! with points of which exactly one body moved are listed on the step's
//! workers, in fixed runs of pairs; the passes then walk that list on one
//! thread in pair order, so poses are the same for any number of threads.

use collide::Contact;
use collide::nalgebra::Vector3;

use crate::collision::body_shapes::{is_surface, pair_contact};

use crate::body::BodyKind;
use crate::body::storage::{Bodies, resize_per_slot};
use crate::collision::pair_cache::PairCache;
use crate::collision::surface_depth::front_depth;
use crate::collision::sweep_fast_bodies::{
    SweepScratch, overlap_along_manifold, pair_slots, shape_centre,
};
use crate::slot_visits;
use crate::stage_times::{Stage, StageTimes};
use crate::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::workers::Workers;

/// How deep a moving body may end a step in a body that stood still: the
/// speculative distance, the most the contacts found at the step's start
/// let a body sink (the continuous stage's allowance for still bodies). A
/// body deeper than this is pushed back to it, and no further, so that a
/// body the solver is still pushing out is not also lifted by the slop.
pub(crate) const PUSH_OUT_ALLOWANCE: f32 = SPECULATIVE_DISTANCE;

/// A push shorter than this is rounding, not sinking: half a millimetre,
/// a tenth of the linear slop, above the depth query's rounding next to
/// the soak's 40 km ground slab (about 1e-4 m at 1.5 km from its centre).
const PUSH_OUT_RESOLUTION: f32 = 0.1 * LINEAR_SLOP;

/// Passes over the pairs of the bodies pushed out: a body pushed out of
/// one still body can be pushed into another (a corner between the ground
/// and a fixed wall); each pass corrects once more, and a body wedged
/// between still bodies ends where the last pass left it.
const PUSH_OUT_PASSES: usize = 4;

/// Cached pairs one worker lists the candidates of at a time: each costs
/// a few nanoseconds (two flags), so a run must be long for handing it out
/// to be worth it.
const PAIRS_PER_RUN: usize = 4096;

/// The stage's scratch, kept between steps.
#[derive(Debug, Default)]
pub(crate) struct PushOutScratch {
    /// By body slot: how far the body was pushed this step, m.
    pushed: Vec<f32>,
    /// Per run of [`PAIRS_PER_RUN`] cached pairs, in pair order: the pairs
    /// with points of which exactly one body moved, as the pair's index,
    /// the moving body, and whether it is the pair's second body (its way
    /// out is then along the normal, else against it).
    candidates: Vec<Vec<(u32, u32, bool)>>,
}

/// The push-out-of-still-bodies stage (see the module docs). `continuous`
/// is the scratch of this step's [`crate::collision::sweep_fast_bodies`] stage,
/// which knows which bodies moved and by how much.
pub(crate) fn push_out_of_still_bodies(
    bodies: &mut Bodies,
    contacts: &PairCache,
    continuous: &SweepScratch,
    workers: &Workers,
    scratch: &mut PushOutScratch,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::PushOut);
    let moving = continuous.moving();
    // `pushed` is 0 at every slot but those of the last call's candidates,
    // which are reset here; it only grows, so a world's fixed bodies cost
    // the stage nothing.
    for &(_, i, _) in scratch.candidates.iter().flatten() {
        scratch.pushed[i as usize] = 0.0;
    }
    slot_visits::count(scratch.candidates.iter().map(Vec::len).sum());
    resize_per_slot(&mut scratch.pushed, bodies.len(), bodies.slot_capacity(), 0.0);
    // The pairs the passes look at are listed on the workers, each run of
    // pairs its own list, so that one thread walks those alone.
    let pairs = &contacts.pairs;
    // Only pairs with a moving body are candidates: the stretches of the
    // pair cache with an awake body are walked.
    let stamp = contacts.live_stamp(bodies);
    let live = |run| contacts.live.ranges(stamp, run);
    let candidates = &mut scratch.candidates;
    let any_kinematic = bodies.kinematic_count > 0;
    workers.collect_runs_in(pairs, PAIRS_PER_RUN, candidates, live, |index, pair, found| {
        // A pair without points was farther apart than its speculative
        // reach at the step's start; only a fast body could have crossed
        // that, and the continuous stage answers for those.
        if pair.point_count == 0 {
            return;
        }
        let (a, b) = (pair.body_a, pair.body_b);
        // A kinematic body goes where it was sent: never pushed (its kind
        // is read only in a world that has one).
        let dynamic =
            |i: u32| !any_kinematic || bodies.records[i as usize].kind == BodyKind::Dynamic;
        match (moving[a as usize] && dynamic(a), moving[b as usize] && dynamic(b)) {
            (true, false) => found.push((index as u32, a, false)),
            (false, true) => found.push((index as u32, b, true)),
            _ => {}
        }
    });
    for pass in 0..PUSH_OUT_PASSES {
        let mut pushed_any = false;
        for &(index, i, second) in scratch.candidates.iter().flatten() {
            let pair = &pairs[index as usize];
            let (a, b) = (pair.body_a as usize, pair.body_b as usize);
            // The moving body, and the sign that turns the normal (from A
            // to B) into its way out.
            let (i, sign) = (i as usize, if second { 1.0 } else { -1.0 });
            // After the first pass only the bodies pushed can have gone
            // deeper (into another still body).
            if pass > 0 && scratch.pushed[i] == 0.0 {
                continue;
            }
            let slots = pair_slots(bodies, contacts, index as usize, pair);
            let manifold = contacts.manifold(pair);
            let start_depth =
                -manifold.points.iter().map(|p| p.separation).fold(f32::INFINITY, f32::min);
            // Written so that NaN is skipped (the invalid-body check removes
            // it).
            let reach = start_depth + continuous.motion(i) + scratch.pushed[i];
            if !(reach > PUSH_OUT_ALLOWANCE)
                || !(overlap_along_manifold(bodies, contacts, pair, slots) > PUSH_OUT_ALLOWANCE)
            {
                continue;
            }
            // A mesh or heightfield is a surface: its deepest penetration
            // may point through it (out of a triangle's far side), and
            // pushing along that sank `trees`' trees through the waves. A
            // body is pushed out of a surface along the face normal of the
            // triangle it is deepest in from the front
            // (`collision/surface_depth.rs`).
            if is_surface(bodies, slots.0) || is_surface(bodies, slots.1) {
                let (own, surface) = if second { (slots.1, slots.0) } else { (slots.0, slots.1) };
                let still = if second { a } else { b };
                let Some(excess) = surface_excess(bodies, (i, own), (still, surface)) else {
                    continue;
                };
                bodies.poses[i].translation.vector += excess;
                scratch.pushed[i] += excess.norm();
                pushed_any = true;
                continue;
            }
            let (pose_a, pose_b) = (&bodies.poses[a], &bodies.poses[b]);
            let Ok(Contact::Penetrating(p)) =
                pair_contact(bodies, slots.0, pose_a, slots.1, pose_b)
            else {
                continue;
            };
            let excess = p.depth - PUSH_OUT_ALLOWANCE;
            if !(excess > PUSH_OUT_RESOLUTION) {
                continue;
            }
            let push: Vector3<f32> = sign * excess * p.normal.into_inner();
            bodies.poses[i].translation.vector += push;
            scratch.pushed[i] += excess;
            pushed_any = true;
        }
        if !pushed_any {
            break;
        }
    }
}

/// The push that takes shape slot `own` of moving body `i` out of the
/// surface in shape slot `surface` of still body `still` to
/// [`PUSH_OUT_ALLOWANCE`], along the face normal of the triangle it is
/// deepest in from the front; `None` when it is no deeper than that (by
/// more than [`PUSH_OUT_RESOLUTION`]), when it is a surface itself, or
/// when it covers too many triangles to measure.
fn surface_excess(
    bodies: &Bodies,
    (i, own): (usize, usize),
    (still, surface): (usize, usize),
) -> Option<Vector3<f32>> {
    if is_surface(bodies, own) {
        return None;
    }
    let shapes = &bodies.shapes;
    let own_pose = shapes.world_pose(own, &bodies.poses[i]);
    let surface_pose = shapes.world_pose(surface, &bodies.poses[still]);
    let centre = shape_centre(bodies, i, own, &bodies.poses[i]);
    let found = front_depth(
        &shapes.shapes[own],
        &own_pose,
        &centre,
        &shapes.shapes[surface],
        &surface_pose,
        PUSH_OUT_ALLOWANCE,
    )?;
    let excess = found.depth - PUSH_OUT_ALLOWANCE;
    // Written so that NaN is not pushed.
    if !(excess > PUSH_OUT_RESOLUTION) {
        return None;
    }
    Some(excess * found.normal)
}
