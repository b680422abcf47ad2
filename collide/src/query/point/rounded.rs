//! Point projection onto a rounded shape (`inner ⊕ ball(radius)`), exactly:
//! project onto the inner shape, then move out from that point by the
//! radius along the direction to the query point, as a capsule does on its
//! segment. The nearest point of a Minkowski sum with a ball is the inner
//! shape's nearest point pushed out by the radius, and a point is inside
//! when it is within the radius of the inner shape (or in it).
//!
//! Departure: when the query point is on the inner shape's surface (to
//! within rounding), the direction out of it is not defined by the two
//! points; the projection then falls back to GJK/EPA on the rounded shape,
//! which finds the outward normal from the support function.

use nalgebra::Point3;

use super::generic;
use super::project::ProjectPoint;
use super::projection::PointProjection;
use crate::error::QueryError;
use crate::shape::Rounded;

/// Below this distance from the inner shape, in ulps of the largest length
/// in play (the radius, the point's coordinates), the direction from the
/// inner shape's nearest point to the query point is rounding noise.
const DIRECTION_ULPS: f32 = 64.0;

/// Projects `p` (shape frame) onto `shape`.
pub(super) fn project<S: ProjectPoint>(
    shape: &Rounded<S>,
    p: &Point3<f32>,
    solid: bool,
) -> Result<PointProjection, QueryError> {
    let radius = shape.radius;
    let inner = shape.inner.project_local_point(p, false)?;
    let offset = p - inner.point;
    let dist = offset.norm();
    let noise = DIRECTION_ULPS * f32::EPSILON * radius.max(p.coords.amax());
    if !(dist > noise) {
        return generic::project(shape, p, solid);
    }
    // Out of the inner shape: towards `p` when `p` is outside it, away
    // from `p` when inside.
    let outward = if inner.is_inside { -offset / dist } else { offset / dist };
    let is_inside = inner.is_inside || dist <= radius;
    if is_inside && solid {
        return Ok(PointProjection::interior(*p));
    }
    Ok(PointProjection { point: inner.point + outward * radius, is_inside, ..inner })
}
