//! A small hull's vertices moved to the world once for a whole walk over a
//! mesh or heightfield, so that each triangle the walk visits can be
//! dropped before the hull's supporting feature is found when the whole
//! hull lies outside one of the triangle's side planes.
//!
//! The face path of the ghost correction ([`face_manifold`](super::ghost))
//! finds the hull's supporting feature along the face normal, then drops
//! the triangle when that feature lies outside a side plane of the
//! triangle ([`feature_misses_triangle`](crate::manifold::feature_misses_triangle)).
//! The feature's vertices are some of the hull's, moved to the world by
//! the same `pose * p`; so when every vertex of the hull is outside a side
//! plane by the same test (the same arithmetic on the same points), the
//! feature's are too, and the triangle is dropped exactly as it would have
//! been, without finding the feature. On the `trees` scene's wave mesh most
//! triangles the walk visits (those within the speculative margin of a
//! prism's box but beside the prism) end that way.

use arrayvec::ArrayVec;
use nalgebra::{Isometry3, Point3};

use crate::shape::Shape;

/// Hulls with at most this many vertices are moved to the world for the
/// walk (12 for the `trees` scene's prisms); a larger hull would cost more
/// per triangle to test than the feature it spares, and is not culled.
pub(crate) const MAX_CULLED_HULL_VERTICES: usize = 32;

/// A hull's vertices in the world frame, as its supporting feature has them.
pub(crate) type HullCorners = ArrayVec<Point3<f32>, MAX_CULLED_HULL_VERTICES>;

/// The vertices of `shape` at `pose`, if it is a hull of at most
/// [`MAX_CULLED_HULL_VERTICES`] vertices: each `pose * p`, the expression
/// the supporting feature moves them with.
pub(crate) fn hull_corners(shape: &Shape, pose: &Isometry3<f32>) -> Option<HullCorners> {
    let Shape::ConvexHull(h) = shape else {
        return None;
    };
    if h.vertices().len() > MAX_CULLED_HULL_VERTICES {
        return None;
    }
    Some(h.vertices().iter().map(|p| pose * p).collect())
}

#[cfg(test)]
pub(super) mod tests {
    use nalgebra::{Isometry3, Point3, Vector3};

    use super::*;
    use crate::manifold::{
        SupportingFeature, feature_misses_triangle, outside_a_triangle_edge,
        outside_a_triangle_edge_either_way, shape_scale,
    };
    use crate::shape::{ConvexHull, Triangle};

    /// A hexagonal prism of radius `r` along y from 0 to `length`, as the
    /// `trees` scene's (12 vertices, 8 faces); the face-axes tests use it
    /// too.
    pub(in crate::composite) fn prism(r: f32, length: f32) -> Shape {
        let mut points = Vec::new();
        for k in 0..6 {
            let a = std::f32::consts::TAU * k as f32 / 6.0;
            points.push(Point3::new(r * a.cos(), 0.0, r * a.sin()));
            points.push(Point3::new(r * a.cos(), length, r * a.sin()));
        }
        ConvexHull::new(&points).unwrap().into()
    }

    /// A seeded generator of numbers in `[lo, hi)`.
    struct Lcg(u64);
    impl Lcg {
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
        }
    }

    /// Whether the cull drops the triangle `corners` (unit normal `n`)
    /// for `shape` at `pose`.
    fn culled(shape: &Shape, pose: &Isometry3<f32>, corners: &[Point3<f32>; 3]) -> bool {
        let n = (corners[1] - corners[0]).cross(&(corners[2] - corners[0])).normalize();
        let triangle: Shape = Triangle::new(corners[0], corners[1], corners[2]).into();
        let scale = shape_scale(shape).min(shape_scale(&triangle));
        let hull = hull_corners(shape, pose).unwrap();
        outside_a_triangle_edge(hull.iter(), corners, &n, scale)
    }

    #[test]
    fn a_prism_beside_a_triangle_is_culled_and_one_over_it_or_touching_its_edge_is_not() {
        let shape = prism(0.5, 3.0);
        // Up-facing triangle in the plane y = 0 over x, z in [0, 1].
        let tri =
            [Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0), Point3::new(1.0, 0.0, 0.0)];
        // Lying along x (turned about z), its axis 0.5 above the plane.
        let lying = |x: f32, z: f32| {
            Isometry3::new(Vector3::new(x, 0.5, z), Vector3::z() * std::f32::consts::FRAC_PI_2)
        };
        // It spans x0 - 3 to x0 along x, and 0.433 (the hexagon's half
        // width) either side of its axis along z.
        assert!(culled(&shape, &lying(0.5, 3.95), &tri));
        assert!(culled(&shape, &lying(0.5, -0.45), &tri));
        assert!(culled(&shape, &lying(-0.01, 0.3), &tri));
        // Over the triangle, and reaching 3 mm over its edge z = 0 or its
        // edge x = 0.
        assert!(!culled(&shape, &lying(0.5, 0.4), &tri));
        assert!(!culled(&shape, &lying(0.5, -0.43), &tri));
        assert!(!culled(&shape, &lying(0.003, 0.3), &tri));
    }

    #[test]
    fn the_cull_drops_only_triangles_the_feature_test_drops() {
        let mut rng = Lcg(7);
        let mut culls = 0;
        for case in 0..4000 {
            let size = 10f32.powi(case % 7 - 3);
            let shape = prism(0.5 * size, 3.0 * size);
            let mut corner = || {
                Point3::new(rng.range(-2.0, 2.0), rng.range(-0.3, 0.3), rng.range(-2.0, 2.0)) * size
            };
            let tri = [corner(), corner(), corner()];
            let Some(n) = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).try_normalize(1e-6) else {
                continue;
            };
            let pose = Isometry3::new(
                Vector3::new(rng.range(-3.0, 3.0), rng.range(-1.0, 2.0), rng.range(-3.0, 3.0))
                    * size,
                Vector3::new(rng.range(-3.2, 3.2), rng.range(-3.2, 3.2), rng.range(-3.2, 3.2)),
            );
            if !culled(&shape, &pose, &tri) {
                continue;
            }
            culls += 1;
            let triangle: Shape = Triangle::new(tri[0], tri[1], tri[2]).into();
            let scale = shape_scale(&shape).min(shape_scale(&triangle));
            // Both faces of the triangle, touching and far (a face or a
            // leaning face's edge as the feature).
            for s in [n, -n] {
                for separation in [0.0, 0.5 * scale] {
                    let feature = SupportingFeature::of(&shape, &pose, &-s, separation, scale);
                    assert!(
                        feature_misses_triangle(&feature, &-s, &tri, &s, 0.01 * scale, scale),
                        "case {case}: culled, but the feature test keeps it"
                    );
                }
            }
        }
        assert!(culls > 500, "only {culls} culled cases");
    }

    #[test]
    fn the_one_pass_test_of_both_normals_answers_as_the_two_tests_do() {
        let mut rng = Lcg(29);
        let (mut both, mut neither) = (0, 0);
        for case in 0..4000 {
            let size = 10f32.powi(case % 7 - 3);
            let shape = prism(0.5 * size, 3.0 * size);
            let mut corner = || {
                Point3::new(rng.range(-2.0, 2.0), rng.range(-0.3, 0.3), rng.range(-2.0, 2.0)) * size
            };
            let tri = [corner(), corner(), corner()];
            let pose = Isometry3::new(
                Vector3::new(rng.range(-3.0, 3.0), rng.range(-1.0, 2.0), rng.range(-3.0, 3.0))
                    * size,
                Vector3::new(rng.range(-3.2, 3.2), rng.range(-3.2, 3.2), rng.range(-3.2, 3.2)),
            );
            // The triangle's normal, and (every 5th case) a normal in its
            // plane along an edge's neighbour, which puts the opposite
            // corner on that edge's side plane.
            let n = if case % 5 == 0 {
                (tri[2] - tri[0]).try_normalize(0.0)
            } else {
                (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).try_normalize(1e-6)
            };
            let Some(n) = n else { continue };
            let hull = hull_corners(&shape, &pose).unwrap();
            let scale = 0.5 * size;
            let two = outside_a_triangle_edge(hull.iter(), &tri, &n, scale)
                && outside_a_triangle_edge(hull.iter(), &tri, &-n, scale);
            assert_eq!(
                outside_a_triangle_edge_either_way(hull.iter(), &tri, &n, scale),
                two,
                "case {case}"
            );
            if two { both += 1 } else { neither += 1 }
        }
        assert!(both > 500 && neither > 500, "{both} outside, {neither} not");
        // A normal in the triangle's plane makes every edge's side vector
        // perpendicular to the plane (zero dot products with the opposite
        // corners, no flip either way): the one-pass test falls back to
        // the second; and a NaN normal, which drops nothing.
        let tri =
            [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)];
        for n in [Vector3::y(), Vector3::new(0.6, 0.8, 0.0), Vector3::repeat(f32::NAN)] {
            for z in [-2.0f32, 0.0, 2.0] {
                let points = [Point3::new(0.5, 0.5, z), Point3::new(0.2, 0.1, z)];
                let two = outside_a_triangle_edge(points.iter(), &tri, &n, 1.0)
                    && outside_a_triangle_edge(points.iter(), &tri, &-n, 1.0);
                assert_eq!(
                    outside_a_triangle_edge_either_way(points.iter(), &tri, &n, 1.0),
                    two,
                    "normal {n:?}, z {z}"
                );
            }
        }
    }
}
