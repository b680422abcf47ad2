//! The continuous stage for a fast body that starts the step with contacts
//! against a surface (a triangle mesh or heightfield): a body resting or
//! sliding on it, struck down within the step harder than its contacts can
//! hold (a cube on a mesh floor under a heavy cube at 2,000 m/s).
//!
//! A sweep of such a body starts within the target distance of the
//! surface, so its time of impact says nothing; as for a solid pair that
//! starts touching (`sink_time`, `core_toi` in the parent), the body goes
//! back only if its solved pose is wrong:
//! * its core sphere (the parent's [`CORE_SPHERE_FRACTION`] of its thinnest
//!   half-width, about its centre of mass) met a triangle during the step,
//!   which only a body sinking by most of its half-thickness can do; or
//! * it ended deeper in the surface than [`allowed_depth`], measured from
//!   the triangles' front sides only (`collision/surface_depth.rs`: a
//!   depth against a triangle can point out of its far side, and going back
//!   on that would stall a prism resting across two wave triangles).
//!
//! It then goes back, by bisection, to the last time of its sweep it was
//! no deeper than allowed from the front (or no deeper than at the step's
//! start plus the slop, for a body that started deeper than a slop short
//! of the allowance: the parent's `sink_limit`), before the core's
//! impact. Box2D v3 and rapier leave a body with contacts to the solver;
//! this departs from them, as the parent does for solid pairs, because the
//! soft contacts cannot stop a body struck at hundreds of m/s in one step.

use collide::nalgebra::{Isometry3, Point3};
use collide::{Shape, Sphere, Sweep, TimeOfImpact};

use super::{
    CORE_SPHERE_FRACTION, DEPTH_BISECTIONS, NO_IMPACT, SweepScratch, allowed_depth, shape_centre,
    shape_sweep, sink_limit,
};
use crate::body::BodyKind;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;
use crate::collision::body_shapes::is_surface;
use crate::collision::pair_cache::{CachedPair, PairCache};
use crate::collision::surface_depth::front_depth;
use crate::collision::sweep_surface::{SurfaceSweep, sweep_against_surface};
use crate::tolerances::LINEAR_SLOP;

/// The time, in `[0, 1]` of the step, to which the moving body of a pair of
/// shapes (`slots`, A's and B's) of which one is a surface must go back
/// ([`NO_IMPACT`] when its solved pose stands), for a pair that had
/// contacts at the step's start (see the module docs).
pub(super) fn touching_surface_toi(
    bodies: &Bodies,
    scratch: &SweepScratch,
    (a, b): (usize, usize),
    (ka, kb): (usize, usize),
) -> f32 {
    let (surface, ks, mover, km) =
        if is_surface(bodies, ka) { (a, ka, b, kb) } else { (b, kb, a, ka) };
    let shapes = &bodies.shapes.shapes;
    let record = &bodies.records[mover];
    if scratch.moving[surface]
        || !scratch.moving[mover]
        || !scratch.fast[mover]
        || record.kind != BodyKind::Dynamic
        || shapes[km].is_composite()
    {
        return NO_IMPACT;
    }
    let body_sweep = scratch.sweep(bodies, mover);
    let sweep = shape_sweep(bodies, km, &body_sweep);
    let surface_pose = bodies.shapes.world_pose(ks, &bodies.poses[surface]);
    let allowed = allowed_depth(bodies, scratch, a, b);
    // The front depth of the moving shape at time t of its sweep (infinite
    // when it cannot be measured: the safe side, going back).
    let depth = |t: f32, bound: f32| {
        let body_at = body_sweep.pose_at(t);
        let centre = shape_centre(bodies, mover, km, &body_at);
        front_depth(&shapes[km], &sweep.pose_at(t), &centre, &shapes[ks], &surface_pose, bound)
            .map_or(f32::INFINITY, |d| d.depth)
    };
    // The core sphere about the centre of mass, turning with the body.
    let core: Shape = Sphere::new(CORE_SPHERE_FRACTION * record.min_extent).into();
    let centre = record.mass.local_center;
    let core_sweep = Sweep {
        pose: body_sweep.pose * collide::nalgebra::Translation3::from(centre.coords),
        local_center: Point3::origin(),
        ..body_sweep
    };
    // The core's own swept box: a sphere's box moves with its centre, which
    // a sweep carries on a straight line whatever the turn, so the box of
    // the centre's two ends grown by the radius holds it at every time.
    // Not the shape's swept box (grown by the turn's arc at the body's
    // extent, the whole tree's for a prism of `trees`): the core is swept
    // only against the triangles it can reach, usually none for a body
    // resting on the surface by a part far from its centre of mass.
    let core_start = core_sweep.pose.translation.vector;
    let core_end = core_start + core_sweep.linear_velocity;
    let core_box = Aabb::new(core_start.inf(&core_end).into(), core_start.sup(&core_end).into())
        .expanded(CORE_SPHERE_FRACTION * record.min_extent + LINEAR_SLOP);
    let core_hit = match sweep_against_surface(
        &core,
        &core_sweep,
        &shapes[ks],
        &surface_pose,
        &core_box,
        1.0,
        0.0,
    ) {
        Ok(SurfaceSweep::Swept(TimeOfImpact::Hit { toi, .. })) if toi > 0.0 => Some(toi),
        _ => None,
    };
    let until = match core_hit {
        Some(toi) => toi,
        // Written so that NaN (unmeasurable) goes back.
        None if !(depth(1.0, allowed) > allowed) => return NO_IMPACT,
        None => 1.0,
    };
    let start = depth(0.0, allowed);
    let limit = sink_limit(start, allowed);
    if !limit.is_finite() {
        return NO_IMPACT;
    }
    if core_hit.is_some() && depth(until, limit) <= limit {
        return until;
    }
    let (mut lo, mut hi) = (0.0f32, until);
    for _ in 0..DEPTH_BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if depth(mid, limit) <= limit {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Whether the contacts a surface pair (`slots`) had at the step's start
/// held its moving shape, by a bound that needs no query: the pair's
/// deepest point at the start, plus how far the shape moved towards the
/// surface along the manifold's normal, plus the arc of its turn at its
/// own farthest point from the body's centre of mass, is within
/// [`allowed_depth`]. Shapes sliding or tumbling along a surface pass it
/// (the prisms of `trees`' falling trees, whose body's extent is the whole
/// tree's: the stage took 10.0 ms/step there before surface pairs with
/// contacts were looked at, 34.8 with no bound); a body struck into the
/// surface does not.
pub(super) fn surface_contacts_hold(
    bodies: &Bodies,
    contacts: &PairCache,
    scratch: &SweepScratch,
    pair: &CachedPair,
    (ka, kb): (usize, usize),
) -> bool {
    let (a, b) = (pair.body_a as usize, pair.body_b as usize);
    let Some(cached) = contacts.slab.get(pair.manifold) else {
        return false;
    };
    let (mover, km, towards) = if is_surface(bodies, ka) { (b, kb, -1.0) } else { (a, ka, 1.0) };
    // The normal from A to B at the step's start (A's start pose: the
    // surface's, or the mover's before the solve).
    let start_a = if scratch.moving[a] { &scratch.start[a] } else { &bodies.poses[a] };
    let n = start_a.rotation * cached.normal_in_a;
    let start_depth =
        -contacts.manifold(pair).points.iter().map(|p| p.separation).fold(f32::INFINITY, f32::min);
    let approach = (towards * scratch.shift[mover].dot(&n)).max(0.0);
    // The turn's angle, at the shape's own farthest point from the centre
    // of mass (a corner of its box).
    let record = &bodies.records[mover];
    let turn = scratch.turn[mover].angle;
    let local = bodies.shapes.local_pose(km).copied().unwrap_or_else(Isometry3::identity);
    let shape_box = Aabb::of_shape(&bodies.shapes.shapes[km], &local);
    let centre = record.mass.local_center;
    let reach = (0..8)
        .map(|k| {
            let pick = |bit: usize, axis: usize| {
                if k >> bit & 1 == 1 { shape_box.max[axis] } else { shape_box.min[axis] }
            };
            (Point3::new(pick(0, 0), pick(1, 1), pick(2, 2)) - centre).norm()
        })
        .fold(0.0f32, f32::max);
    let about_centre = approach + turn * reach;
    // The same bound about the shape's own box centre: its displacement
    // there is exact (the turn included), and the turn moves its other
    // points by at most the turn's angle times their distance from it. A
    // prism at the top of a toppling tree, metres from the tree's centre
    // of mass, moves far less than the turn's arc at that distance says.
    let own_centre = shape_box.min + 0.5 * (shape_box.max - shape_box.min);
    let start_m = if scratch.moving[mover] { &scratch.start[mover] } else { &bodies.poses[mover] };
    let own_shift = bodies.poses[mover] * own_centre - start_m * own_centre;
    let own_approach = (towards * own_shift.dot(&n)).max(0.0);
    let own_reach = 0.5 * (shape_box.max - shape_box.min).norm();
    let about_own = own_approach + turn * own_reach;
    let bound = start_depth + about_centre.min(about_own);
    // Written so that NaN does not hold.
    bound <= allowed_depth(bodies, scratch, a, b)
}
