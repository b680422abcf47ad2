//! Point projection onto a segment, in closed form (Ericson, *Real-Time
//! Collision Detection*, §5.1.2): the point's parameter along the segment,
//! clamped to its ends.
//!
//! A segment encloses no volume: a point on it (within rounding) is inside,
//! and its own projection, whether `solid` or not.

use nalgebra::Point3;

use super::projection::{PointFeature, PointProjection};

/// Rounding of a point's distance from a segment, in ulps of the largest
/// coordinate in play (the point's or an end's): a point this close is on
/// the segment.
const ON_ULPS: f32 = 8.0;

/// Projects `p` (shape frame) onto the segment `[a, b]`. Features: the
/// ends are vertices 0 (`a`) and 1 (`b`), the segment itself edge `[0, 1]`.
pub(super) fn project(a: &Point3<f32>, b: &Point3<f32>, p: &Point3<f32>) -> PointProjection {
    let ab = b - a;
    let along = (p - a).dot(&ab);
    let length_sq = ab.norm_squared();
    let (point, feature) = if !(along > 0.0) {
        (*a, PointFeature::Vertex(0))
    } else if along >= length_sq {
        (*b, PointFeature::Vertex(1))
    } else {
        (a + ab * (along / length_sq), PointFeature::Edge([0, 1]))
    };
    let reach = a.coords.amax().max(b.coords.amax()).max(p.coords.amax());
    let on = ON_ULPS * f32::EPSILON * reach;
    let inside = (p - point).norm_squared() <= on * on;
    PointProjection::exact(point, inside, feature)
}
