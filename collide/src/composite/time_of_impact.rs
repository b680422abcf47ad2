//! Time of impact under rigid motion (rotation included) between any two
//! shapes, composites included, answering with the parts that meet first.
//!
//! With a composite on one side, the parts the other shape can reach over
//! `[0, max_toi]` are bounded conservatively in the composite's frame: the
//! other shape stays within its radius `r` of its centre, which moves
//! relative to the composite by at most `|Δv| T`, and the composite's own
//! rotation carries that centre by at most `|ω| T (ρ + |Δv| T)` (`ρ` its
//! distance from the composite's centre of rotation). Each part in that
//! box runs the convex query with its own sweep (the composite's, with the
//! centre of rotation moved into the part's frame), the limit shrinking to
//! the earliest hit so far.

use nalgebra::{Isometry3, Point3, Vector3};

use super::earliest::Earliest;
use super::expansion::{Expansion, HasShape};
use super::results::{OnParts, PartIds};
use crate::aabb::Aabb;
use crate::error::QueryError;
use crate::query::{Sweep, TimeOfImpact};
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// The first time in `[0, max_toi]` at which A, moving by `sweep_a`, and B,
/// moving by `sweep_b`, come within `target_distance`, and the parts that
/// do (as [`time_of_impact`](crate::time_of_impact) for each pair of
/// convex parts; the earliest wins, an overlap at time 0 of any pair is
/// `InitiallyOverlapping`). Bad input answers `Miss`;
/// [`try_time_of_impact`] reports it.
pub fn time_of_impact(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    max_toi: f32,
    target_distance: f32,
) -> OnParts<TimeOfImpact> {
    try_time_of_impact(a, sweep_a, b, sweep_b, max_toi, target_distance)
        .unwrap_or(OnParts { answer: TimeOfImpact::Miss, parts: PartIds::default() })
}

/// [`time_of_impact`], reporting bad input.
///
/// ```
/// use collide::composite::{try_time_of_impact, TriMesh};
/// use collide::{Cuboid, Shape, Sweep, TimeOfImpact};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
/// let floor: Shape = TriMesh::try_new(
///     vec![Point3::new(-5.0, 0.0, -5.0), Point3::new(-5.0, 0.0, 5.0), Point3::new(5.0, 0.0, 5.0),
///          Point3::new(5.0, 0.0, -5.0)],
///     vec![[0, 1, 2], [2, 3, 0]],
/// ).unwrap().into();
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let falling = Sweep {
///     pose: Isometry3::translation(0.0, 2.5, 0.0),
///     local_center: Point3::origin(),
///     linear_velocity: Vector3::new(0.0, -1.0, 0.0),
///     angular_velocity: Vector3::zeros(),
/// };
/// let fixed = Sweep::fixed(Isometry3::identity());
/// let toi = try_time_of_impact(&cube, &falling, &floor, &fixed, 5.0, 0.0).unwrap();
/// let TimeOfImpact::Hit { toi, .. } = toi.answer else { panic!() };
/// assert!(toi <= 2.0 && toi > 2.0 - 2e-3); // never late
/// ```
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite sweep, a NaN
/// `max_toi` or a non-finite `target_distance`; what
/// [`try_time_of_impact`](crate::try_time_of_impact) reports for a pair of
/// parts.
pub fn try_time_of_impact(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    max_toi: f32,
    target_distance: f32,
) -> Result<OnParts<TimeOfImpact>, QueryError> {
    if !(sweep_finite(sweep_a) && sweep_finite(sweep_b))
        || max_toi.is_nan()
        || !target_distance.is_finite()
    {
        return Err(QueryError::NonFiniteInput);
    }
    let mut best = Earliest::new();
    let query = Query { max_toi: max_toi.max(0.0), target: target_distance };
    toi(
        &Swept { shape: a, sweep: *sweep_a, part: None },
        &Swept { shape: b, sweep: *sweep_b, part: None },
        &query,
        &mut best,
    )?;
    Ok(best.answer())
}

/// One side: a shape (or part) and its sweep.
#[derive(Clone, Copy)]
struct Swept<'s> {
    shape: &'s Shape,
    sweep: Sweep,
    part: Option<u32>,
}

impl HasShape for Swept<'_> {
    fn shape(&self) -> &Shape {
        self.shape
    }
}

/// The query's limits.
struct Query {
    max_toi: f32,
    target: f32,
}

/// The box, in the composite's frame, that `other` can reach over the
/// query (see the module docs); the composite's whole box when unbounded.
fn reach_box(composite: &Swept<'_>, other: &Swept<'_>, query: &Query, whole: Aabb) -> Aabb {
    let to_local = composite.sweep.pose.inverse();
    let centre_world = other.sweep.pose * other.sweep.local_center;
    let centre = to_local * centre_world;
    let own = other.shape.aabb(&Isometry3::identity());
    let lc = other.sweep.local_center;
    let mut radius = 0.0f32;
    for corner in 0..8 {
        let pick =
            |bit: usize, k: usize| if corner >> bit & 1 == 0 { own.min[k] } else { own.max[k] };
        let p = Point3::new(pick(0, 0), pick(1, 1), pick(2, 2));
        radius = radius.max((p - lc).norm());
    }
    let t = query.max_toi;
    let dv = (other.sweep.linear_velocity - composite.sweep.linear_velocity).norm();
    let spin = composite.sweep.angular_velocity.norm();
    let rho = (centre - composite.sweep.local_center).norm();
    let reach = radius + query.target.max(0.0) + dv * t + spin * t * (rho + dv * t);
    if !reach.is_finite() {
        return whole;
    }
    Aabb::new(centre - Vector3::repeat(reach), centre + Vector3::repeat(reach))
}

/// Runs the query on `a` and `b`, expanding a composite side into its
/// parts, recording into `best`.
fn toi(
    a: &Swept<'_>,
    b: &Swept<'_>,
    query: &Query,
    best: &mut Earliest<TimeOfImpact>,
) -> Result<(), QueryError> {
    if best.found_overlap() {
        return Ok(());
    }
    let Some(expansion) = Expansion::of(a, b) else {
        let answer = crate::query::try_time_of_impact(
            a.shape,
            &a.sweep,
            b.shape,
            &b.sweep,
            best.limit(query.max_toi),
            query.target,
        )?;
        best.record(answer, PartIds { a: a.part, b: b.part });
        return Ok(());
    };
    let (composite, comp_side, other) = (expansion.composite, expansion.side, expansion.other);
    let region = reach_box(comp_side, other, query, composite.local_aabb());
    let mut error = None;
    composite.visit_overlapping(&region, |part| {
        let sweep = Sweep {
            pose: comp_side.sweep.pose * part.pose,
            local_center: part.pose.inverse() * comp_side.sweep.local_center,
            ..comp_side.sweep
        };
        let side = Swept { shape: part.shape, sweep, part: Some(part.index) };
        if let Err(e) = expansion.in_order(&side, |a, b| toi(a, b, query, best)) {
            error = Some(e);
            return false;
        }
        !best.found_overlap()
    });
    error.map_or(Ok(()), Err)
}

/// Whether every number of a sweep is finite.
fn sweep_finite(s: &Sweep) -> bool {
    s.pose
        .translation
        .vector
        .iter()
        .chain(s.pose.rotation.coords.iter())
        .chain(s.local_center.iter())
        .chain(s.linear_velocity.iter())
        .chain(s.angular_velocity.iter())
        .all(|x| x.is_finite())
}
