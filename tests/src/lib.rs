//! # Independent oracles for collide's 3D queries
//!
//! The integration tests in `tests/tests/` compare collide's `intersects`,
//! `closest_points` and `penetration` against answers computed here by
//! methods that share no code, and no algorithm, with collide's GJK/EPA and
//! quickhull:
//!
//! * [`analytic`]: closed forms for sphere–sphere and sphere–box.
//! * [`sat`]: exact penetration depth of polytopes by the separating-axis
//!   theorem over face normals and edge cross products.
//! * [`brute_distance`]: exact distance of disjoint polytopes, segments and
//!   points by brute force over feature pairs, using the primitives in
//!   [`closest`].
//! * [`polytope`]: polytope features written down for boxes and found by
//!   brute-force triple enumeration for small point clouds.
//! * [`separation`]: the answer for any two rounded polytopes
//!   (`core ⊕ ball(radius)`): every shape collide has but the curved ones.
//! * [`revolution`]: closed-form support and signed distance of cylinders
//!   and cones, and [`direction_search`]: the signed separation of any two
//!   shapes from their support functions alone, for pairs with a curved
//!   shape.
//! * [`casts`]: ray casts and shape casts, by the first root of the
//!   (convex) signed distance or separation along the motion.
//! * [`check`]: the accuracy bounds and the per-pair checks, shared by the
//!   tests and the `accuracy` report binary.
//! * [`generators`] and [`rng`]: seeded random shapes, poses and pairs;
//!   [`runner`] runs seeded batches of them and [`statistics`] summarises
//!   error distributions.
//!
//! All oracle arithmetic is `f64` on the exact `f64` images of collide's `f32`
//! inputs, so oracle error is negligible against the bounds being tested.
//!
//! Conventions are collide's: world-frame results, the normal points from A
//! to B, and `point_a − point_b = depth · normal`.
//!
//! ```
//! use tests::{Params, TestShape, Pair, check_pair, Tolerances};
//! use tests::nalgebra::Isometry3;
//! let pair = Pair {
//!     a: TestShape::new(Params::Sphere { radius: 1.0 }).unwrap(),
//!     pose_a: Isometry3::identity(),
//!     b: TestShape::new(Params::Sphere { radius: 1.0 }).unwrap(),
//!     pose_b: Isometry3::translation(1.5, 0.0, 0.0),
//! };
//! let (a, b) = pair.oracles();
//! assert_eq!(tests::expected_separation(&a, &b).signed(), -0.5);
//! # let _ = (check_pair, Tolerances::METRES);
//! ```
#![deny(missing_docs)]

pub use collide::nalgebra;

pub mod analytic;
pub mod brute_distance;
pub mod casts;
pub mod check;
pub mod closest;
pub mod direction_search;
pub mod generators;
pub mod oracle_shape;
pub mod polytope;
pub mod revolution;
pub mod rng;
pub mod runner;
pub mod sat;
pub mod separation;
pub mod statistics;
pub mod test_shape;

pub use check::{Measured, Tolerances, check_everywhere, check_pair, check_swap, evaluate_pair};
pub use oracle_shape::OracleShape;
pub use rng::SplitMix64;
pub use separation::{Expected, expected_separation, overlap_along};
pub use test_shape::{Pair, Params, ShowPose, TestShape};
