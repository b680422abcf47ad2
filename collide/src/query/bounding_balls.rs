//! A proof that two shapes are apart from their bounding balls alone: a
//! ball about each shape's origin holding the whole shape
//! ([`SupportMap::bounding_radius`]), and the two balls disjoint. Settles
//! an intersection test, and a penetration query on a separated pair,
//! before GJK takes its first support point: on two curved shapes a
//! separated pair otherwise costs a GJK iteration and its support calls.
//!
//! It is the bounding-sphere rejection every broad phase makes, run per
//! query. It never decides "overlapping", only "apart", and only with a
//! margin (`BOUNDING_SLACK`), so it cannot change an answer GJK would give.

use nalgebra::Isometry3;

use crate::support_map::SupportMap;

/// Relative slack on the sum of the bounding radii before the balls count
/// as apart: the centres' distance must exceed `(1 + BOUNDING_SLACK)` times
/// the sum. A bounding radius is a square root, correct to an ulp or two,
/// and the squared distance of the centres carries a few more; 1e-5 is ~80
/// f32 ulps, so a pair the test calls apart is apart, by at least 1e-5 of
/// its size. Scale-free.
const BOUNDING_SLACK: f32 = 1e-5;

/// Whether the balls of [`SupportMap::bounding_radius`] about the shapes'
/// origins are disjoint (with [`BOUNDING_SLACK`]), which proves the shapes
/// disjoint. False for shapes without a bounding radius (infinite) and for
/// NaN anywhere, so that GJK decides those.
#[inline(always)]
pub(crate) fn bounding_balls_apart<A, B>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> bool
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let reach = (a.bounding_radius() + b.bounding_radius()) * (1.0 + BOUNDING_SLACK);
    let apart_sq = (pose_b.translation.vector - pose_a.translation.vector).norm_squared();
    // `reach` is +∞ for a shape without a bound (never apart) and NaN for
    // bad input (never apart: the comparison is false).
    apart_sq > reach * reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cone, ConvexHull, Cylinder};
    use nalgebra::Point3;

    #[test]
    fn balls_apart_only_beyond_the_slack() {
        // Radii 5 + 5: apart beyond 10 (plus the slack), not at 10.
        let c = Cylinder::new(3.0, 4.0);
        let at = |x: f32| Isometry3::translation(x, 0.0, 0.0);
        assert!(!bounding_balls_apart(&c, &at(0.0), &c, &at(10.0)));
        assert!(!bounding_balls_apart(&c, &at(0.0), &c, &at(10.0 * (1.0 + 0.5e-5))));
        assert!(bounding_balls_apart(&c, &at(0.0), &c, &at(10.001)));
        assert!(bounding_balls_apart(&c, &at(10.001), &Cone::new(3.0, 4.0), &at(0.0)));
    }

    /// A user's shape that gives no bounding radius (the default).
    struct Unbounded;

    impl SupportMap for Unbounded {
        fn local_support(&self, dir: &nalgebra::Vector3<f32>) -> Point3<f32> {
            Point3::from(dir.normalize())
        }
    }

    #[test]
    fn no_bound_and_nan_are_never_apart() {
        let far = Isometry3::translation(1e6, 0.0, 0.0);
        let c = Cylinder::new(1.0, 1.0);
        assert!(!bounding_balls_apart(&Unbounded, &Isometry3::identity(), &c, &far));
        assert!(!bounding_balls_apart(&c, &far, &Unbounded, &Isometry3::identity()));
        let bad = Cylinder::new(f32::NAN, 1.0);
        assert!(!bounding_balls_apart(&bad, &Isometry3::identity(), &c, &far));
        let nan_pose = Isometry3::translation(f32::NAN, 0.0, 0.0);
        assert!(!bounding_balls_apart(&c, &nan_pose, &c, &far));
    }

    #[test]
    fn a_hull_is_bounded_by_its_farthest_vertex() {
        let hull = ConvexHull::new(&[
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(0.0, 0.0, 1.0),
        ])
        .expect("tetrahedron");
        assert_eq!(SupportMap::bounding_radius(&hull), 1.0);
        let c = Cylinder::new(3.0, 4.0);
        let at = |x: f32| Isometry3::translation(x, 0.0, 0.0);
        assert!(!bounding_balls_apart(&hull, &at(0.0), &c, &at(6.0)));
        assert!(bounding_balls_apart(&hull, &at(0.0), &c, &at(6.001)));
    }
}
