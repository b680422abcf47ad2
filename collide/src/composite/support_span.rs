//! A convex shape's two support points along a direction and its opposite,
//! the lowest and the highest along it, found together: what the walk's
//! plane test measures a shape with against every triangle it visits.
//!
//! Two [`local_support`](crate::SupportMap::local_support) calls answer
//! it for any shape. A small solid hull, whose support strategy is the
//! scalar scan ([`SupportStrategy::BruteForce`], under
//! [`AUTO_SIMD_MIN`](crate::AUTO_SIMD_MIN) vertices, or chosen), is
//! scanned once for both: each vertex's dot product with the direction is
//! compared with the running largest and the running smallest. The scalar scan keeps the first vertex of
//! largest `v · d`; along `-d` that is the first vertex of smallest
//! `v · d`, since `v · (-d) = -(v · d)` exactly (negation commutes with
//! round-to-nearest products and sums), so the one pass picks exactly the
//! two vertices the two scans pick, and NaN dot products, which never
//! compare, replace neither.

use nalgebra::{Point3, Vector3};

use crate::hull::support::strategy::SupportStrategy;
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// The points of `shape` farthest along `-dir_local` and along `dir_local`
/// (shape frame): exactly `(local_support(-dir), local_support(dir))`.
#[inline]
pub(crate) fn local_support_span(
    shape: &Shape,
    dir_local: &Vector3<f32>,
) -> (Point3<f32>, Point3<f32>) {
    if let Shape::ConvexHull(h) = shape
        && h.strategy() == SupportStrategy::BruteForce
        && !h.is_flat()
    {
        let vertices = h.vertices();
        let (mut lowest, mut highest) = (0, 0);
        let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
        for (i, v) in vertices.iter().enumerate() {
            let d = v.coords.dot(dir_local);
            // `>` and `<` keep the first of equal values, as the scalar
            // scan does; a NaN `d` replaces neither.
            if d > high {
                high = d;
                highest = i;
            }
            if d < low {
                low = d;
                lowest = i;
            }
        }
        if let (Some(l), Some(h)) = (vertices.get(lowest), vertices.get(highest)) {
            return (*l, *h);
        }
    }
    (shape.local_support(&-dir_local), shape.local_support(dir_local))
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Vector3};

    use super::*;
    use crate::shape::{ConvexHull, Cuboid};

    /// A hexagonal prism as the `trees` scene builds them (radius `r`,
    /// from `y0` to `y1`), vertices away from the frame's origin, with the
    /// scalar scan that the one pass stands for (its 12 vertices would
    /// take the SIMD scan by default, and the two support calls).
    fn prism(r: f32, y0: f32, y1: f32) -> Shape {
        let mut points = Vec::new();
        for k in 0..6 {
            let a = std::f32::consts::TAU * k as f32 / 6.0;
            points.push(Point3::new(r * a.cos(), y0, r * a.sin()));
            points.push(Point3::new(r * a.cos(), y1, r * a.sin()));
        }
        ConvexHull::new(&points).unwrap().with_strategy(SupportStrategy::BruteForce).into()
    }

    /// Seeded directions: the axes and diagonals (exact ties between
    /// vertices), then pseudo-random ones at scales 1e-3 to 1e3.
    fn directions() -> Vec<Vector3<f32>> {
        let mut dirs = vec![
            Vector3::x(),
            -Vector3::y(),
            Vector3::z(),
            Vector3::new(1.0, 1.0, 0.0),
            Vector3::new(0.0, -1.0, 1.0),
            Vector3::zeros(),
        ];
        let mut state = 0x2545_f491_u32;
        let mut next = || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        for i in 0..600 {
            let scale = 10f32.powi(i % 7 - 3);
            dirs.push(Vector3::new(next(), next(), next()) * scale);
        }
        dirs
    }

    #[test]
    fn the_one_pass_span_is_exactly_the_two_support_points() {
        let shapes = [
            prism(0.75, 0.25, 3.25),
            prism(1e-3, -2e-3, 5e-3),
            prism(1e3, 1e3, 4e3),
            Cuboid::new(Vector3::new(0.5, 1.0, 2.0)).into(),
        ];
        for shape in &shapes {
            for d in directions() {
                let (lowest, highest) = local_support_span(shape, &d);
                assert_eq!(lowest, shape.local_support(&-d), "{d:?}");
                assert_eq!(highest, shape.local_support(&d), "{d:?}");
            }
        }
    }

    #[test]
    fn a_nan_direction_gives_the_two_scans_answer() {
        let shape = prism(0.75, 0.25, 3.25);
        let d = Vector3::new(f32::NAN, 1.0, 0.0);
        let (lowest, highest) = local_support_span(&shape, &d);
        assert_eq!(lowest, shape.local_support(&-d));
        assert_eq!(highest, shape.local_support(&d));
    }
}
