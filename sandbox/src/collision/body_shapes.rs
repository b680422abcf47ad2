//! Whole-body queries over a body's shapes, for the stages that ask about
//! bodies rather than shape pairs (sweeping fast bodies, pushing out): a
//! shape's sweep from its body's, the deepest contact and the earliest
//! time of impact over every pair of the two bodies' solid shapes, and how
//! far a body reaches along a direction. For bodies of one shape at their
//! origin each answers exactly what collide answers for the two shapes.
//! Sensors are skipped: they never push, so they never stop a body; and
//! so are the pairs the shapes' filters exclude.

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{
    Contact, QueryError, Shape, SupportMap, Sweep, TimeOfImpact, composite, intersects,
    try_contact, try_time_of_impact,
};

use crate::body::storage::Bodies;

/// collide's contact of two shapes: through its composite query when
/// either is a mesh, heightfield or compound (deepest over the pairs of
/// parts), else the convex query itself.
///
/// # Errors
/// collide's, for non-finite poses.
pub(crate) fn shape_contact(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Result<Contact, QueryError> {
    if a.is_composite() || b.is_composite() {
        composite::try_contact(a, pose_a, b, pose_b).map(|c| c.answer)
    } else {
        try_contact(a, pose_a, b, pose_b)
    }
}

/// collide's time of impact of two swept shapes, through its composite
/// query (the earliest over the pairs of parts) when either is a
/// composite, else the convex query itself.
///
/// # Errors
/// collide's, for non-finite sweeps.
pub(crate) fn shape_time_of_impact(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    max_toi: f32,
    target_distance: f32,
) -> Result<TimeOfImpact, QueryError> {
    if a.is_composite() || b.is_composite() {
        composite::try_time_of_impact(a, sweep_a, b, sweep_b, max_toi, target_distance)
            .map(|t| t.answer)
    } else {
        try_time_of_impact(a, sweep_a, b, sweep_b, max_toi, target_distance)
    }
}

/// Whether two shapes overlap, through collide's composite query when
/// either is a composite. A query that fails (non-finite poses) reads as
/// apart.
pub(crate) fn shapes_intersect(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> bool {
    if a.is_composite() || b.is_composite() {
        composite::intersects(a, pose_a, b, pose_b).is_some()
    } else {
        intersects(a, pose_a, b, pose_b)
    }
}

/// Whether the body in slot `i` has a triangle mesh or a heightfield.
pub(crate) fn has_surface(bodies: &Bodies, i: usize) -> bool {
    solid_shapes(bodies, i)
        .any(|k| matches!(bodies.shapes.shapes[k], Shape::TriMesh(_) | Shape::HeightField(_)))
}

/// The solid (non-sensor) shape slots of the body in slot `i`.
#[inline]
pub(crate) fn solid_shapes(bodies: &Bodies, i: usize) -> impl Iterator<Item = usize> + '_ {
    bodies.shape_ranges[i].slots().filter(|&k| !bodies.shapes.sensors[k])
}

/// The sweep of the shape in slot `k` whose body sweeps as `body`: the
/// same motion, seen from the shape's frame (the body's sweep itself for
/// a shape at the body's origin).
#[inline]
pub(crate) fn shape_sweep(bodies: &Bodies, k: usize, body: &Sweep) -> Sweep {
    match &bodies.shapes.local_poses[k] {
        None => *body,
        Some(local) => Sweep {
            pose: body.pose * local,
            local_center: local.inverse_transform_point(&body.local_center),
            ..*body
        },
    }
}

/// The contact of bodies `a` and `b` at the given poses over their solid
/// shapes: the deepest penetration if any pair penetrates, else the
/// nearest separation; `None` when either body has no solid shape.
///
/// # Errors
/// collide's, for non-finite poses.
pub(crate) fn deepest_contact(
    bodies: &Bodies,
    a: usize,
    pose_a: &Isometry3<f32>,
    b: usize,
    pose_b: &Isometry3<f32>,
) -> Result<Option<Contact>, QueryError> {
    let mut best: Option<Contact> = None;
    let filters = &bodies.shapes.filters;
    for ka in solid_shapes(bodies, a) {
        let at_a = bodies.shapes.world_pose(ka, pose_a);
        for kb in solid_shapes(bodies, b).filter(|&kb| filters[kb].collides_with(&filters[ka])) {
            let at_b = bodies.shapes.world_pose(kb, pose_b);
            let c =
                shape_contact(&bodies.shapes.shapes[ka], &at_a, &bodies.shapes.shapes[kb], &at_b)?;
            // Depth as a signed separation: deeper is smaller.
            let signed = |c: &Contact| match c {
                Contact::Penetrating(p) => -p.depth,
                Contact::Separated { distance, .. } => *distance,
            };
            if best.as_ref().is_none_or(|old| signed(&c) < signed(old)) {
                best = Some(c);
            }
        }
    }
    Ok(best)
}

/// The time of impact of bodies `a` and `b` sweeping as given, over their
/// solid shapes: the earliest over every pair (an overlap at the start
/// first, then the earliest hit, then the smallest proven-clear bound of a
/// sweep stopped at its cap); a miss when every pair misses.
///
/// # Errors
/// collide's, for non-finite sweeps.
pub(crate) fn earliest_impact(
    bodies: &Bodies,
    a: usize,
    sweep_a: &Sweep,
    b: usize,
    sweep_b: &Sweep,
    max_toi: f32,
    slop: f32,
) -> Result<TimeOfImpact, QueryError> {
    let rank = |t: &TimeOfImpact| match t {
        TimeOfImpact::InitiallyOverlapping => -1.0,
        TimeOfImpact::Hit { toi, .. } => *toi,
        TimeOfImpact::IterationLimit { toi_lower_bound } => *toi_lower_bound,
        TimeOfImpact::Miss => f32::INFINITY,
    };
    let mut best: Option<TimeOfImpact> = None;
    let filters = &bodies.shapes.filters;
    for ka in solid_shapes(bodies, a) {
        let sa = shape_sweep(bodies, ka, sweep_a);
        for kb in solid_shapes(bodies, b).filter(|&kb| filters[kb].collides_with(&filters[ka])) {
            let sb = shape_sweep(bodies, kb, sweep_b);
            let shapes = &bodies.shapes.shapes;
            let t = shape_time_of_impact(&shapes[ka], &sa, &shapes[kb], &sb, max_toi, slop)?;
            // The first pair's answer is taken as it is, NaN and all.
            if best.as_ref().is_none_or(|old| rank(&t) < rank(old)) {
                best = Some(t);
            }
        }
    }
    Ok(best.unwrap_or(TimeOfImpact::Miss))
}

/// How far a composite at `pose` reaches along `d`, bounded by its local
/// box: the farthest of the box's corners (a composite has no support
/// point, and its exact box holds every point of it).
fn composite_reach(shape: &Shape, pose: &Isometry3<f32>, d: &Vector3<f32>) -> f32 {
    let local = shape.aabb(&Isometry3::identity());
    (0..8)
        .map(|corner| {
            let pick = |bit: usize, k: usize| {
                if corner >> bit & 1 == 1 { local.max[k] } else { local.min[k] }
            };
            (pose * Point3::new(pick(0, 0), pick(1, 1), pick(2, 2))).coords.dot(d)
        })
        .fold(f32::NEG_INFINITY, |far, x| if x > far || x.is_nan() { x } else { far })
}

/// How far the body in slot `i` at `pose` reaches along the world
/// direction `d`: the largest `p · d` over the points of its solid shapes
/// (−∞ for a body of sensors alone).
pub(crate) fn reach_along(
    bodies: &Bodies,
    i: usize,
    pose: &Isometry3<f32>,
    d: &Vector3<f32>,
) -> f32 {
    solid_shapes(bodies, i)
        .map(|k| {
            let at = bodies.shapes.world_pose(k, pose);
            let shape = &bodies.shapes.shapes[k];
            if shape.is_composite() {
                return composite_reach(shape, &at, d);
            }
            let local = shape.local_support(&at.inverse_transform_vector(d));
            (at * local).coords.dot(d)
        })
        // NaN wins, so that a non-finite pose reads as such.
        .fold(f32::NEG_INFINITY, |far, x| if x > far || x.is_nan() { x } else { far })
}
