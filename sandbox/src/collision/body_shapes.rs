//! Queries on the shapes of bodies, for the stages that move bodies after
//! the solve (sweeping fast bodies, pushing out): a shape's sweep from its
//! body's, the contact and the time of impact of one pair of shapes given
//! their bodies' poses or sweeps (through collide's composite queries when
//! a shape is a mesh, heightfield or compound), a body's solid shapes
//! (sensors never push, so they never stop a body), and how far a shape
//! reaches along a direction. For shapes at their body's origin each
//! answers exactly what collide answers for the two shapes.

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
    match bodies.shapes.local_pose(k) {
        None => *body,
        Some(local) => Sweep {
            pose: body.pose * local,
            local_center: local.inverse_transform_point(&body.local_center),
            ..*body
        },
    }
}

/// The contact of shape slot `ka` of body `a` and shape slot `kb` of body
/// `b`, the bodies at `pose_a` and `pose_b`: one pair of what
/// [`deepest_contact`] looks at.
///
/// # Errors
/// collide's, for non-finite poses.
pub(crate) fn pair_contact(
    bodies: &Bodies,
    ka: usize,
    pose_a: &Isometry3<f32>,
    kb: usize,
    pose_b: &Isometry3<f32>,
) -> Result<Contact, QueryError> {
    let shapes = &bodies.shapes;
    let (at_a, at_b) = (shapes.world_pose(ka, pose_a), shapes.world_pose(kb, pose_b));
    shape_contact(&shapes.shapes[ka], &at_a, &shapes.shapes[kb], &at_b)
}

/// The time of impact of shape slot `ka` of a body sweeping as `sweep_a`
/// and shape slot `kb` of a body sweeping as `sweep_b`: one pair of shapes.
///
/// # Errors
/// collide's, for non-finite sweeps.
pub(crate) fn pair_impact(
    bodies: &Bodies,
    ka: usize,
    sweep_a: &Sweep,
    kb: usize,
    sweep_b: &Sweep,
    max_toi: f32,
    slop: f32,
) -> Result<TimeOfImpact, QueryError> {
    let (sa, sb) = (shape_sweep(bodies, ka, sweep_a), shape_sweep(bodies, kb, sweep_b));
    let shapes = &bodies.shapes.shapes;
    shape_time_of_impact(&shapes[ka], &sa, &shapes[kb], &sb, max_toi, slop)
}

/// Whether shape slot `k` is a triangle mesh or a heightfield: a surface,
/// one-sided and hollow, rather than a solid.
#[inline]
pub(crate) fn is_surface(bodies: &Bodies, k: usize) -> bool {
    matches!(bodies.shapes.shapes[k], Shape::TriMesh(_) | Shape::HeightField(_))
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

/// How far shape slot `k`, its body at `pose`, reaches along the world
/// direction `d`: the largest `p · d` over its points.
pub(crate) fn shape_reach_along(
    bodies: &Bodies,
    k: usize,
    pose: &Isometry3<f32>,
    d: &Vector3<f32>,
) -> f32 {
    let at = bodies.shapes.world_pose(k, pose);
    let shape = &bodies.shapes.shapes[k];
    if shape.is_composite() {
        return composite_reach(shape, &at, d);
    }
    let local = shape.local_support(&at.inverse_transform_vector(d));
    (at * local).coords.dot(d)
}
