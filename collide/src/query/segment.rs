//! Closest points between two segments, the exact core query behind the
//! sphere/capsule fast path.
//!
//! Follows Ericson, *Real-Time Collision Detection* (2005), §5.1.9: minimise
//! over the two segment parameters, clamping first one and then the other.
//! Degenerate segments (points) are handled by the same clamps. The
//! "parallel" test is relative to the segments' lengths.

use nalgebra::Point3;

/// Squared sine of the angle below which two segments count as parallel,
/// when the closest-point parameter along the first segment is arbitrary.
/// f32 resolves angles to ~1e-7 rad, so 1e-12 on the squared sine is at the
/// rounding floor.
const PARALLEL_SIN_SQ: f32 = 1e-12;

/// Closest points between segments `[p1, q1]` and `[p2, q2]`, with their
/// parameters along each segment (0 at the start, 1 at the end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SegmentClosest {
    pub(crate) on_first: Point3<f32>,
    pub(crate) on_second: Point3<f32>,
    pub(crate) s: f32,
    pub(crate) t: f32,
}

impl SegmentClosest {
    /// Whether both closest points lie strictly inside their segments.
    pub(crate) fn interior(&self) -> bool {
        self.s > 0.0 && self.s < 1.0 && self.t > 0.0 && self.t < 1.0
    }
}

/// Closest points between segments `[p1, q1]` and `[p2, q2]`.
pub(crate) fn closest_points_segments(
    [p1, q1]: [Point3<f32>; 2],
    [p2, q2]: [Point3<f32>; 2],
) -> SegmentClosest {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let (s, t);
    if !(a > 0.0) && !(e > 0.0) {
        return SegmentClosest { on_first: p1, on_second: p2, s: 0.0, t: 0.0 };
    }
    if !(a > 0.0) {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if !(e > 0.0) {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            // Non-parallel: the unclamped minimiser on the first line, clamped.
            // Parallel: any s works; take 0 and let t's clamp settle the rest.
            let mut s0 = if denom > PARALLEL_SIN_SQ * a * e {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    SegmentClosest { on_first: p1 + d1 * s, on_second: p2 + d2 * t, s, t }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_segments_meet() {
        let c = closest_points_segments(
            [Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)],
            [Point3::new(0.0, -1.0, 1.0), Point3::new(0.0, 1.0, 1.0)],
        );
        assert!((c.on_first - Point3::origin()).norm() < 1e-6);
        assert!((c.on_second - Point3::new(0.0, 0.0, 1.0)).norm() < 1e-6);
        assert!(c.interior());
    }

    #[test]
    fn parallel_overlapping_segments_are_one_gap_apart() {
        let c = closest_points_segments(
            [Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0)],
            [Point3::new(1.0, 0.5, 0.0), Point3::new(3.0, 0.5, 0.0)],
        );
        assert!(((c.on_first - c.on_second).norm() - 0.5).abs() < 1e-6);
    }

    #[test]
    fn point_to_segment_clamps_to_the_end() {
        let p = Point3::new(5.0, 1.0, 0.0);
        let c = closest_points_segments(
            [p, p],
            [Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0)],
        );
        assert_eq!(c.on_first, p);
        assert!((c.on_second - Point3::new(2.0, 0.0, 0.0)).norm() < 1e-6);
        assert!(!c.interior());
    }
}
