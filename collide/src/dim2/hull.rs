//! Planar convex hull of a point cloud by Andrew's monotone chain.
//!
//! Follows A. M. Andrew, "Another efficient algorithm for convex hulls in two
//! dimensions" (1979): sort the points by (x, y), then build the lower and the
//! upper chain with a stack, popping every point that does not make a strict
//! left turn. Departures: the left-turn test uses a tolerance relative to the
//! two edge lengths (a sine threshold), so nearly collinear points are dropped
//! instead of producing slivers, and a cloud that is collinear within that
//! tolerance (its hull has only its two extreme points) is an error, as a
//! collinear cloud is for a 3D hull: it bounds no area.

use core::cmp::Ordering;

use nalgebra::Point2;

use super::error::PolygonError;

/// Points whose bounding box is smaller than this fraction of their largest
/// coordinate magnitude are one point. 1e-6 is about eight f32 ulps, so
/// clouds that differ only by rounding are rejected, while clouds of any
/// absolute size (1e-9 or 1e9) that really spread out are accepted.
const COINCIDENT_REL_TOL: f32 = 1e-6;

/// A corner whose turn has `|sin(angle)|` at most this is considered straight
/// and dropped. 1e-6 moves the boundary by at most a millionth of an edge
/// length, far below the queries' tolerances, and is above f32 rounding of the
/// cross product of edges computed relative to a common origin.
const COLLINEAR_SIN_TOL: f32 = 1e-6;

/// The convex hull of `points`, counter-clockwise, without repeated or
/// collinear vertices: at least three vertices.
pub(crate) fn convex_hull(points: &[Point2<f32>]) -> Result<Vec<Point2<f32>>, PolygonError> {
    if points.len() < 3 {
        return Err(PolygonError::TooFewPoints { count: points.len() });
    }
    if let Some(index) = points.iter().position(|p| !(p.x.is_finite() && p.y.is_finite())) {
        return Err(PolygonError::NonFinitePoint { index });
    }

    let mut sorted = points.to_vec();
    sorted.sort_unstable_by(|p, q| match p.x.total_cmp(&q.x) {
        Ordering::Equal => p.y.total_cmp(&q.y),
        o => o,
    });
    sorted.dedup();

    // Coincidence test: the cloud's extent against its coordinate magnitude.
    let (mut lo, mut hi) = (sorted[0], sorted[0]);
    let mut magnitude = 0.0f32;
    for p in &sorted {
        lo = lo.inf(p);
        hi = hi.sup(p);
        magnitude = magnitude.max(p.x.abs()).max(p.y.abs());
    }
    let extent = (hi - lo).amax();
    if !(extent > COINCIDENT_REL_TOL * magnitude) {
        return Err(PolygonError::Coincident);
    }

    // `o -> a -> b` turns left by more than the collinearity tolerance.
    let turns_left = |o: &Point2<f32>, a: &Point2<f32>, b: &Point2<f32>| {
        let (oa, ob) = (a - o, b - o);
        let cross = oa.x * ob.y - oa.y * ob.x;
        cross > COLLINEAR_SIN_TOL * oa.norm() * ob.norm()
    };

    let mut hull: Vec<Point2<f32>> = Vec::with_capacity(sorted.len() + 1);
    // Lower chain, left to right.
    for p in &sorted {
        while hull.len() >= 2 && !turns_left(&hull[hull.len() - 2], &hull[hull.len() - 1], p) {
            hull.pop();
        }
        hull.push(*p);
    }
    // Upper chain, right to left; never pop into the lower chain.
    let lower_len = hull.len() + 1;
    for p in sorted.iter().rev().skip(1) {
        while hull.len() >= lower_len
            && !turns_left(&hull[hull.len() - 2], &hull[hull.len() - 1], p)
        {
            hull.pop();
        }
        hull.push(*p);
    }
    // The last point repeats the first.
    hull.pop();

    // Collinear clouds come out as [first, last] (the upper chain adds
    // nothing new); anything shorter would mean a coincident cloud, which the
    // extent test already rejected.
    match hull.len() {
        0 | 1 => Err(PolygonError::Coincident),
        2 => Err(PolygonError::Collinear),
        _ => Ok(hull),
    }
}

/// The two ends of a segment as a two-vertex hull, or why they are none:
/// [`PolygonError::NonFinitePoint`], or [`PolygonError::Coincident`] when
/// they are one point by the hull's own coincidence test.
pub(crate) fn segment(a: Point2<f32>, b: Point2<f32>) -> Result<Vec<Point2<f32>>, PolygonError> {
    for (index, p) in [a, b].iter().enumerate() {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return Err(PolygonError::NonFinitePoint { index });
        }
    }
    let magnitude = a.x.abs().max(a.y.abs()).max(b.x.abs()).max(b.y.abs());
    if !((b - a).amax() > COINCIDENT_REL_TOL * magnitude) {
        return Err(PolygonError::Coincident);
    }
    // Sorted as the monotone chain would leave a collinear cloud's ends.
    let ordered = match a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)) {
        Ordering::Greater => vec![b, a],
        _ => vec![a, b],
    };
    Ok(ordered)
}
