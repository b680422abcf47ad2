//! Box–box manifolds from a [`SatCache`]: the axis the last full
//! separating-axis test decided on is tried first, and the full test
//! ([`super::box_box`]) runs only when it no longer does.
//!
//! Follows box3d's `b3CollideHulls` with its `b3SATCache` (Erin Catto,
//! `convex_manifold.c`): a cached axis first tests separation on its own;
//! otherwise the contact is rebuilt on the cached reference face (or edge
//! pair) and accepted when its separation is within a slop of the cached
//! one. Departures:
//!
//! * The tolerance is [`SAT_CACHE_FRACTION`] of the pair's scale (the
//!   smaller box's smallest width), not box3d's absolute linear slop.
//! * The separation compared is the axis's own (one closed form, judged
//!   before clipping, so that most misses waste no clip); the clipped
//!   manifold must then reach that separation (its deepest point within the
//!   tolerance of the axis's depth): a face whose deepest incident corner
//!   is clipped away, hanging past the reference face's side, is where an
//!   edge contact begins, and goes back to the full test. (Testing that
//!   corner alone before clipping refused half the face hits on `washer`,
//!   whose piled cubes overhang each other's faces.) An edge pair's closest
//!   points must likewise give the axis's separation to within the
//!   tolerance: closest points clamped at an edge's end have slid off it.
//! * A face axis is kept only while B stays on the same side of it (box3d
//!   keeps a hull face, which has one side), and only while no other of the
//!   six face axes separates the boxes more by the full test's face
//!   preference (six closed forms): the face choice stays the full test's,
//!   and only the nine edge axes go unsearched on a hit.
//!
//! What a cached answer promises. "Separated" is exact: a cached axis whose
//! separation exceeds the prediction is a separating axis, whose gap is a
//! lower bound on the distance, as the full test's. A rebuilt manifold is
//! exact along the cached axis: the same routine as the full test builds
//! it from the same reference face or edges, so its points lie on both
//! boxes' surfaces and its deepest point's separation is the axis's own.
//! What the cache skips is the search over the edge axes, so a rebuilt
//! face manifold is not proven to be along the axis the full test would
//! choose now: an edge axis that has come to separate the boxes more (a
//! lesser depth, or even a gap beyond the prediction, which the oracle test
//! caught at a looser tolerance) is missed until the cached axis's
//! separation changes by the tolerance, when the full test runs and refills
//! the cache. The full test itself keeps a face up to its preference
//! tolerances (0.5 mm and 2.5 mm at scale 1) over a better axis; the cache
//! adds the drift of the edge axes while the cached one stays within
//! [`SAT_CACHE_FRACTION`].
//!
//! Measured (issue 39): on `washer` (150 steps, callgrind) the cache
//! answers a third of the box–box queries and makes them 3.7 % cheaper
//! (2,296 -> 2,211 instructions a query; at 2.5 times the tolerance, 43 %
//! and 6 %): the separating-axis search is only about 430 of a face
//! contact's 1,900 instructions, the clipping and reduction the rest. And
//! `falling-boxes` 1000 penetrated deeper with it (0.138 -> 0.19 to 0.21 m
//! over five variants), so the sandbox does not use it yet.

use super::box_box::{BoxPair, collide_cuboids_filling, edge_manifold, face_manifold};
use super::contact_manifold::ManifoldOutcome;
use super::feature_scale::{FACE_PREFERENCE_FRACTION, SAT_CACHE_FRACTION};
use super::sat_cache::{CachedAxis, SatCache};
use crate::shape::Cuboid;
use nalgebra::{Isometry3, Vector3};

/// Edge axes whose unnormalised cross product is shorter than this are not
/// rebuilt from the cache: the full test skips them too (`MIN_EDGE_CROSS`
/// in [`super::box_box`], about 0.06°).
const MIN_CACHED_EDGE_CROSS: f32 = 1.0e-3;

/// The manifold of boxes `a` and `b` as
/// [`collide_cuboids`](super::box_box::collide_cuboids) finds it, trying
/// the axis in `cache` first; `cache` then holds the axis the answer is
/// along (refilled by the full test on a miss).
pub(crate) fn collide_cuboids_cached(
    a: &Cuboid,
    pose_a: &Isometry3<f32>,
    b: &Cuboid,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    cache: &mut SatCache,
) -> ManifoldOutcome {
    let pair = BoxPair::new(a, pose_a, b, pose_b);
    if let Some(outcome) = from_cached_axis(&pair, speculative, cache) {
        return outcome;
    }
    collide_cuboids_filling(&pair, speculative, cache)
}

/// The answer along the cached axis, or `None` (a miss) when the axis no
/// longer decides the pair: see the module header for what is accepted.
fn from_cached_axis(
    pair: &BoxPair<'_>,
    speculative: f32,
    cache: &SatCache,
) -> Option<ManifoldOutcome> {
    let tolerance = SAT_CACHE_FRACTION * pair.scale;
    let face_tolerance = FACE_PREFERENCE_FRACTION * pair.scale;
    // Whether `s`, the axis's separation now, is still the cached one
    // (written so that NaN misses).
    let still = |s: f32| (s - cache.separation).abs() <= tolerance;
    // Whether a rebuilt manifold whose deepest point lies `excess` above
    // the axis's separation reaches it.
    let reaches = |excess: f32| excess <= tolerance;
    match cache.axis {
        CachedAxis::Empty => None,
        CachedAxis::FaceA { axis, positive } => {
            let i = usize::from(axis);
            let s = pair.face_a_separation(i);
            // A separating axis whatever the side (NaN reports separated,
            // as the full test does).
            if !(s <= speculative) {
                return Some(ManifoldOutcome::Separated { distance_bound: s });
            }
            if (pair.t[i] >= 0.0) != positive || !still(s) {
                return None;
            }
            let t_in_b = pair.r.transpose() * pair.t;
            if !(best_face_separation(pair, &t_in_b) <= s + face_tolerance) {
                return None;
            }
            let m = face_manifold(pair, &t_in_b, false, i, speculative);
            (!m.is_empty() && reaches(m.min_separation() - s)).then_some(ManifoldOutcome::Within(m))
        }
        CachedAxis::FaceB { axis, positive } => {
            let j = usize::from(axis);
            let t_in_b = pair.r.transpose() * pair.t;
            let s = pair.face_b_separation(&t_in_b, j);
            if !(s <= speculative) {
                return Some(ManifoldOutcome::Separated { distance_bound: s });
            }
            if (t_in_b[j] <= 0.0) != positive
                || !still(s)
                || !(best_face_separation(pair, &t_in_b) <= s + face_tolerance)
            {
                return None;
            }
            let m = face_manifold(pair, &t_in_b, true, j, speculative);
            (!m.is_empty() && reaches(m.min_separation() - s)).then_some(ManifoldOutcome::Within(m))
        }
        CachedAxis::Edge { a, b } => {
            let (i, j) = (usize::from(a), usize::from(b));
            let (gap, len_squared) = pair.edge_gap(i, j);
            let len = len_squared.sqrt();
            if !(len > MIN_CACHED_EDGE_CROSS) {
                return None;
            }
            let s = gap / len;
            if !(s <= speculative) {
                return Some(ManifoldOutcome::Separated { distance_bound: s });
            }
            if !still(s) {
                return None;
            }
            let outcome = edge_manifold(
                pair.pose_a,
                &pair.rot_a,
                &pair.ha,
                &pair.hb,
                &pair.r,
                &pair.t,
                (s, i, j, len),
                speculative,
            );
            match &outcome {
                ManifoldOutcome::Within(m) if !m.is_empty() && reaches(m.min_separation() - s) => {
                    Some(outcome)
                }
                _ => None,
            }
        }
    }
}

/// The largest separation over both boxes' six face axes (NaN if any is):
/// a cached face is kept only while no other face separates the boxes
/// more by the full test's face preference, so that the face choice stays
/// the full test's; only the edge axes go unsearched.
#[inline]
fn best_face_separation(pair: &BoxPair<'_>, t_in_b: &Vector3<f32>) -> f32 {
    let mut best = f32::NEG_INFINITY;
    for k in 0..3 {
        let (sa, sb) = (pair.face_a_separation(k), pair.face_b_separation(t_in_b, k));
        // `max` would pass over a NaN; this keeps it.
        best = if sa > best || sa.is_nan() { sa } else { best };
        best = if sb > best || sb.is_nan() { sb } else { best };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::box_box::collide_cuboids;
    use nalgebra::{Translation3, UnitQuaternion};

    fn cube() -> Cuboid {
        Cuboid::new(Vector3::repeat(0.5))
    }

    /// The cached query, and whether the cached axis answered it.
    fn cached(
        pose_b: &Isometry3<f32>,
        speculative: f32,
        cache: &mut SatCache,
    ) -> (ManifoldOutcome, bool) {
        let id = Isometry3::identity();
        let pair = BoxPair::new(&cube(), &id, &cube(), pose_b);
        let hit = from_cached_axis(&pair, speculative, cache).is_some();
        (collide_cuboids_cached(&cube(), &id, &cube(), pose_b, speculative, cache), hit)
    }

    fn full(pose_b: &Isometry3<f32>, speculative: f32) -> ManifoldOutcome {
        collide_cuboids(&cube(), &Isometry3::identity(), &cube(), pose_b, speculative)
    }

    /// A cube resting on another and sliding a little: after the first
    /// query the cached face answers, with the full test's manifold bit
    /// for bit.
    #[test]
    fn a_resting_cube_is_answered_from_its_cached_face() {
        let mut cache = SatCache::default();
        for frame in 0..5 {
            let pose_b = Isometry3::translation(0.01 * frame as f32, 0.995, 0.002 * frame as f32);
            let (outcome, hit) = cached(&pose_b, 0.02, &mut cache);
            assert_eq!(hit, frame > 0, "frame {frame}");
            assert_eq!(outcome, full(&pose_b, 0.02), "frame {frame}");
        }
        assert_eq!(cache.axis, CachedAxis::FaceA { axis: 1, positive: true });
    }

    /// A cached face whose separation has moved on is refused: B now lies
    /// beside A, overlapping A's +x face, and the answer is the full
    /// test's (an always-accepting cache would report A's top face 1 m
    /// deep).
    #[test]
    fn a_cached_face_whose_separation_moved_is_refused() {
        let mut cache = SatCache::default();
        cached(&Isometry3::translation(0.0, 0.99, 0.0), 0.02, &mut cache);
        let beside = Isometry3::translation(0.99, 0.0, 0.0);
        let (outcome, hit) = cached(&beside, 0.02, &mut cache);
        assert!(!hit);
        assert_eq!(outcome, full(&beside, 0.02));
        let ManifoldOutcome::Within(m) = outcome else { panic!("overlapping") };
        assert!((m.normal.x - 1.0).abs() < 1e-6 && (m.min_separation() + 0.01).abs() < 1e-5);
        assert_eq!(cache.axis, CachedAxis::FaceA { axis: 0, positive: true });
    }

    /// A cached face with the same separation whose incident corner hangs
    /// past its side is refused: B, turned 45° about z, has its lowest
    /// edge beyond A's top face, 1 cm below its plane, and meets A's corner
    /// edge with its own face. Without the test that the clipped manifold
    /// reaches the axis's depth the cache would clip on A's top face and
    /// report points 9 cm above it.
    #[test]
    fn a_cached_face_whose_deepest_corner_hangs_past_its_side_is_refused() {
        let mut cache = SatCache::default();
        cached(&Isometry3::translation(0.0, 0.99, 0.0), 0.2, &mut cache);
        let turned = Isometry3::from_parts(
            Translation3::new(0.6, 0.49 + 0.5 * std::f32::consts::SQRT_2, 0.0),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f32::consts::FRAC_PI_4),
        );
        let (outcome, hit) = cached(&turned, 0.2, &mut cache);
        assert!(!hit);
        assert_eq!(outcome, full(&turned, 0.2));
        let ManifoldOutcome::Within(m) = outcome else { panic!("within 0.2") };
        assert!(m.normal.y < 0.9, "A's top face kept: {m:?}");
    }

    /// A cached axis that separates by more than the prediction answers
    /// "separated" alone, and only then.
    #[test]
    fn a_cached_separating_axis_proves_separation() {
        let mut cache = SatCache::default();
        let apart = Isometry3::translation(0.0, 1.1, 0.0);
        assert!(matches!(cached(&apart, 0.02, &mut cache).0, ManifoldOutcome::Separated { .. }));
        let (outcome, hit) = cached(&Isometry3::translation(0.01, 1.08, 0.0), 0.02, &mut cache);
        assert!(hit);
        let ManifoldOutcome::Separated { distance_bound } = outcome else { panic!("apart") };
        assert!((distance_bound - 0.08).abs() < 1e-5);
        // Closer than the prediction: no longer a proof of separation.
        let near = Isometry3::translation(0.0, 1.01, 0.0);
        assert_eq!(cached(&near, 0.02, &mut cache).0, full(&near, 0.02));
    }

    /// An edge contact is rebuilt from its cached edges while it moves a
    /// little, as the full test builds it.
    #[test]
    fn a_cached_edge_pair_is_rebuilt() {
        // B turned 45° about x then about y crosses A's top edge with an
        // edge of its own.
        let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.7)
            * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::FRAC_PI_4);
        let mut cache = SatCache::default();
        let mut hits = 0;
        for frame in 0..4 {
            let pose_b = Isometry3::from_parts(
                Translation3::new(0.9 + 0.0005 * frame as f32, 1.05, 0.2),
                turn,
            );
            let (outcome, hit) = cached(&pose_b, 0.02, &mut cache);
            hits += usize::from(hit);
            assert_eq!(outcome, full(&pose_b, 0.02), "frame {frame}");
        }
        assert!(matches!(cache.axis, CachedAxis::Edge { .. }), "{:?}", cache.axis);
        assert_eq!(hits, 3);
    }
}
