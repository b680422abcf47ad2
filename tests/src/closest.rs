//! Exact closest-point primitives in `f64`: point–segment, segment–segment and
//! point–triangle.
//!
//! These follow the region-based derivations in Ericson, *Real-Time Collision
//! Detection* (2005), §5.1.2 (point–segment), §5.1.9 (segment–segment) and
//! §5.1.5 (point–triangle, Voronoi regions of the vertices and edges), written
//! from the derivations, not from any code under test. Departures: degenerate
//! inputs (zero-length segments, zero-area triangles) fall back to the lower
//! dimensional answer instead of dividing by zero, because the oracles feed
//! them flat plates and points.

use nalgebra::Point3;

/// Relative squared-length below which a segment counts as a point and a
/// triangle as flat: the inputs are `f32` geometry, so anything this small
/// relative to the features' own size is below `f32` resolution.
const DEGENERATE_REL: f64 = 1e-18;

/// The point of segment `[a, b]` closest to `p`.
///
/// ```
/// use tests::closest::closest_on_segment;
/// use tests::nalgebra::Point3;
/// let q = closest_on_segment(&Point3::new(0.5, 2.0, 0.0), &Point3::origin(), &Point3::new(1.0, 0.0, 0.0));
/// assert_eq!(q, Point3::new(0.5, 0.0, 0.0));
/// ```
pub fn closest_on_segment(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> Point3<f64> {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 <= DEGENERATE_REL * (a.coords.norm_squared() + b.coords.norm_squared()) || len2 == 0.0 {
        return *a;
    }
    let t = ((p - a).dot(&ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// The closest pair of points between segments `[p1, q1]` and `[p2, q2]`,
/// returned as (point on the first, point on the second).
///
/// ```
/// use tests::closest::closest_segment_segment;
/// use tests::nalgebra::Point3;
/// let (c1, c2) = closest_segment_segment(
///     &Point3::new(-1.0, 0.0, 0.0), &Point3::new(1.0, 0.0, 0.0),
///     &Point3::new(0.0, -1.0, 2.0), &Point3::new(0.0, 1.0, 2.0));
/// assert_eq!((c1, c2), (Point3::origin(), Point3::new(0.0, 0.0, 2.0)));
/// ```
pub fn closest_segment_segment(
    p1: &Point3<f64>,
    q1: &Point3<f64>,
    p2: &Point3<f64>,
    q2: &Point3<f64>,
) -> (Point3<f64>, Point3<f64>) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let scale = p1.coords.norm_squared() + q1.coords.norm_squared() + r.norm_squared() + e;
    let tiny = DEGENERATE_REL * scale;
    if a <= tiny && e <= tiny {
        return (*p1, *p2);
    }
    if a <= tiny {
        return (*p1, closest_on_segment(p1, p2, q2));
    }
    if e <= tiny {
        return (closest_on_segment(p2, p1, q1), *p2);
    }
    let b = d1.dot(&d2);
    let c = d1.dot(&r);
    let f = d2.dot(&r);
    // Minimise |p1 + s d1 - p2 - t d2|^2 over the unit square. The unclamped
    // line–line optimum has s = (b f - c e) / (a e - b^2); clamp s, recompute
    // the best t for it, and if t had to be clamped recompute s for that t.
    let denom = a * e - b * b;
    let mut s = if denom > DEGENERATE_REL * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    let c1 = p1 + d1 * s;
    let c2 = p2 + d2 * t;
    // When the segments are parallel the clamped parametrisation above can
    // miss the optimum; the endpoint–segment candidates cover that case.
    if denom <= DEGENERATE_REL * a * e {
        let candidates = [
            (*p1, closest_on_segment(p1, p2, q2)),
            (*q1, closest_on_segment(q1, p2, q2)),
            (closest_on_segment(p2, p1, q1), *p2),
            (closest_on_segment(q2, p1, q1), *q2),
            (c1, c2),
        ];
        return candidates
            .into_iter()
            .min_by(|x, y| (x.0 - x.1).norm_squared().total_cmp(&(y.0 - y.1).norm_squared()))
            .unwrap_or((c1, c2));
    }
    (c1, c2)
}

/// The point of triangle `abc` closest to `p`.
///
/// ```
/// use tests::closest::closest_on_triangle;
/// use tests::nalgebra::Point3;
/// let (a, b, c) = (Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
/// assert_eq!(closest_on_triangle(&Point3::new(0.25, 0.25, 3.0), &a, &b, &c), Point3::new(0.25, 0.25, 0.0));
/// assert_eq!(closest_on_triangle(&Point3::new(-1.0, -1.0, 0.0), &a, &b, &c), a);
/// ```
pub fn closest_on_triangle(
    p: &Point3<f64>,
    a: &Point3<f64>,
    b: &Point3<f64>,
    c: &Point3<f64>,
) -> Point3<f64> {
    let ab = b - a;
    let ac = c - a;
    let normal2 = ab.cross(&ac).norm_squared();
    if normal2 <= DEGENERATE_REL * ab.norm_squared() * ac.norm_squared() || normal2 == 0.0 {
        // Flat triangle: the closest point lies on one of its sides.
        let cands =
            [closest_on_segment(p, a, b), closest_on_segment(p, b, c), closest_on_segment(p, c, a)];
        return cands
            .into_iter()
            .min_by(|x, y| (p - x).norm_squared().total_cmp(&(p - y).norm_squared()))
            .unwrap_or(*a);
    }
    // Vertex region of a.
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    // Vertex region of b.
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    // Edge region of ab.
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    // Vertex region of c.
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    // Edge region of ac.
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    // Edge region of bc.
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    // Face region: barycentric coordinates from the signed sub-areas.
    let inv = 1.0 / (va + vb + vc);
    a + ab * (vb * inv) + ac * (vc * inv)
}
