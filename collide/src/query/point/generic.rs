//! Point projection onto any convex [`SupportMap`], by GJK and EPA between
//! the shape's core and the point: the fallback for shapes without a
//! closed form (a user's own shapes).
//!
//! Follows parry's support-map point projection (GJK from the point to the
//! shape, EPA when the point is inside), with two departures: GJK and EPA
//! run on the shape's *core* and the margin is added exactly afterwards, as
//! every query of this crate does, and a run that stops early (iteration
//! cap, rounding) is reported through [`ProjectionStatus`], never as an
//! exact answer.
//!
//! * **Outside the core** (GJK separates the core from the point), the
//!   nearest core point `c` is GJK's witness on the shape; the shape's
//!   nearest point is `c` moved towards `p` by the margin, and `p` is inside
//!   exactly when it is within the margin of `c`.
//! * **In the core** (GJK finds the point in it, or touching it within its
//!   tolerance relative to the shape's size), EPA gives the depth and the
//!   exit direction `n` of the point, and the core's boundary point nearest
//!   it; the shape's is that point moved out along `n` by the margin.

use nalgebra::{Isometry3, Point3};

use super::projection::{PointFeature, PointProjection, ProjectionStatus};
use crate::error::QueryError;
use crate::query::epa::{EpaStatus, epa};
use crate::query::gjk::{GjkOutcome, GjkSettings, gjk};
use crate::query::minkowski::MinkowskiDifference;
use crate::query::point_core::PointCore;
use crate::query::record::NoRecord;
use crate::support_map::SupportMap;

/// Projects `p` (shape frame) onto `shape`.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] when a support point is NaN or infinite.
pub(crate) fn project<S: SupportMap + ?Sized>(
    shape: &S,
    p: &Point3<f32>,
    solid: bool,
) -> Result<PointProjection, QueryError> {
    let point = PointCore { margin: 0.0 };
    let md = MinkowskiDifference::new(shape, &point, Isometry3::translation(p.x, p.y, p.z));
    let margin = shape.margin();
    // GJK's estimate `v` is a vector of `core − point`; the core's origin
    // minus the point is the natural first guess.
    let run = gjk(&md, -p.coords, &GjkSettings::EXACT, &mut NoRecord);
    let status = match run.outcome {
        GjkOutcome::NonFinite => return Err(QueryError::NonFiniteInput),
        GjkOutcome::Overlapping => return in_core(&md, &run.simplex, p, margin, solid),
        GjkOutcome::Separated { .. } => ProjectionStatus::Exact,
        GjkOutcome::IterationLimit { .. } => ProjectionStatus::IterationLimit,
        // Unreachable with `EXACT` settings (no early exits); the simplex
        // still holds the best estimate.
        GjkOutcome::Beyond { .. } | GjkOutcome::Within { .. } => ProjectionStatus::NumericalLimit,
    };
    let (core_point, _) = run.simplex.witnesses();
    let offset = p - core_point;
    let dist = offset.norm();
    let inside = dist <= margin;
    if inside && solid {
        return Ok(PointProjection::interior(*p));
    }
    // GJK separated the core from `p`, so `dist > 0`: the direction is
    // defined.
    let point = if dist > 0.0 { core_point + offset * (margin / dist) } else { core_point };
    Ok(PointProjection { point, is_inside: inside, feature: PointFeature::Boundary, status })
}

/// `p` in (or touching) the shape's core: itself when `solid`, else the
/// surface point EPA finds nearest to it.
fn in_core<S: SupportMap + ?Sized>(
    md: &MinkowskiDifference<'_, S, PointCore>,
    simplex: &crate::query::Simplex,
    p: &Point3<f32>,
    margin: f32,
    solid: bool,
) -> Result<PointProjection, QueryError> {
    if solid {
        return Ok(PointProjection::interior(*p));
    }
    let hit = epa(md, simplex, &mut NoRecord)?;
    let status = match hit.status {
        EpaStatus::Converged | EpaStatus::Degenerate => ProjectionStatus::Exact,
        EpaStatus::IterationLimit | EpaStatus::CapacityLimit => ProjectionStatus::IterationLimit,
        _ => ProjectionStatus::NumericalLimit,
    };
    // The normal points from the shape (A) to the point (B): moving the
    // point by `depth · normal` takes it to the core's surface, at
    // `point_a`; the margin lies beyond, along the same normal.
    let point = hit.point_a + hit.normal.into_inner() * margin;
    Ok(PointProjection { point, is_inside: true, feature: PointFeature::Boundary, status })
}
