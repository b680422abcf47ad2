//! Point projection onto a triangle, in closed form by its Voronoi regions
//! (Ericson, *Real-Time Collision Detection*, §5.1.5): the signs of a few
//! dot products and of three barycentric sub-determinants say whether the
//! nearest point is a vertex, on an edge, or the foot on the plane, and
//! name that feature.
//!
//! A triangle encloses no volume: a point on it (within the rounding of its
//! plane) is inside, and its own projection, whether `solid` or not.

use nalgebra::Point3;

use super::projection::{PointFeature, PointProjection};

/// Rounding of a point's distance from a triangle, in ulps of the largest
/// coordinate in play (the point's or a vertex's): the rounding of moving
/// the point into the triangle's frame and of the plane through the
/// vertices. A point this close is on the triangle.
const ON_ULPS: f32 = 8.0;

/// Projects `p` (shape frame) onto the triangle `[a, b, c]`. Features:
/// vertices 0, 1, 2; edges by vertex pairs; face 0 on the side of
/// `(b − a) × (c − a)`, face 1 on the other.
pub(super) fn project(&[a, b, c]: &[Point3<f32>; 3], p: &Point3<f32>) -> PointProjection {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    let (point, feature) = 'region: {
        if d1 <= 0.0 && d2 <= 0.0 {
            break 'region (a, PointFeature::Vertex(0));
        }
        let bp = p - b;
        let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
        if d3 >= 0.0 && d4 <= d3 {
            break 'region (b, PointFeature::Vertex(1));
        }
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            break 'region (a + ab * (d1 / (d1 - d3)), PointFeature::Edge([0, 1]));
        }
        let cp = p - c;
        let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
        if d6 >= 0.0 && d5 <= d6 {
            break 'region (c, PointFeature::Vertex(2));
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            break 'region (a + ac * (d2 / (d2 - d6)), PointFeature::Edge([0, 2]));
        }
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && d4 >= d3 && d5 >= d6 {
            let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            break 'region (b + (c - b) * w, PointFeature::Edge([1, 2]));
        }
        // Inside all three edge regions: the foot on the plane, by its
        // barycentric coordinates.
        let denom = 1.0 / (va + vb + vc);
        let face = if ab.cross(&ac).dot(&ap) >= 0.0 { 0 } else { 1 };
        (a + ab * (vb * denom) + ac * (vc * denom), PointFeature::Face(face))
    };
    let reach = [a, b, c, *p].iter().fold(0.0f32, |m, v| m.max(v.coords.amax()));
    let on = ON_ULPS * f32::EPSILON * reach;
    let inside = (p - point).norm_squared() <= on * on;
    PointProjection::exact(point, inside, feature)
}
