//! Box–box manifolds through a [`SatCache`] against an `f64` brute-force
//! oracle that shares no code with collide's separating-axis test: random
//! cuboid pairs moved by small steps, the same cache carried from frame to
//! frame, at scales 1e-3, 1 and 1e3, under seeded random rigid transforms.
//!
//! What a cached answer must be (see `collide/src/manifold/box_box_cached.rs`):
//! "separated" only when the boxes are farther apart than the prediction;
//! every point on both boxes' surfaces; and no point deeper than the exact
//! separation of the two boxes along the manifold's own normal (their
//! support gap along it, from the eight corners of each). The cached
//! answer is also compared with the full test's: most frames must give
//! the very same manifold.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{
    Cuboid, GjkCache, ManifoldOutcome, SatCache, Shape, contact_manifold,
    contact_manifold_sat_cached,
};

use crate::test_rng::Lcg;

/// The eight corners of a box in the world frame, in `f64`.
fn corners(h: &Vector3<f32>, pose: &Isometry3<f32>) -> Vec<Vector3<f64>> {
    let pose: Isometry3<f64> = pose.cast();
    let h: Vector3<f64> = h.cast();
    let mut out = Vec::with_capacity(8);
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                out.push((pose * Point3::new(sx * h.x, sy * h.y, sz * h.z)).coords);
            }
        }
    }
    out
}

/// The gap between A's and B's corners along the unit `n` (A to B): B's
/// least extent minus A's greatest, the exact separation of two convex
/// polytopes along `n`.
fn support_gap(ca: &[Vector3<f64>], cb: &[Vector3<f64>], n: &Vector3<f64>) -> f64 {
    let max_a = ca.iter().map(|v| v.dot(n)).fold(f64::NEG_INFINITY, f64::max);
    let min_b = cb.iter().map(|v| v.dot(n)).fold(f64::INFINITY, f64::min);
    min_b - max_a
}

/// The boxes' separation: the largest support gap over the 15 axes, both
/// ways (a lower bound on the distance when positive, the negated
/// penetration depth when not), in `f64`.
fn exact_separation(
    ha: &Vector3<f32>,
    pa: &Isometry3<f32>,
    hb: &Vector3<f32>,
    pb: &Isometry3<f32>,
) -> f64 {
    let (ca, cb) = (corners(ha, pa), corners(hb, pb));
    let (ra, rb): (Isometry3<f64>, Isometry3<f64>) = (pa.cast(), pb.cast());
    let axes_a: Vec<_> = (0..3).map(|k| ra.rotation * Vector3::ith(k, 1.0)).collect();
    let axes_b: Vec<_> = (0..3).map(|k| rb.rotation * Vector3::ith(k, 1.0)).collect();
    let mut axes: Vec<Vector3<f64>> = axes_a.iter().chain(&axes_b).copied().collect();
    for ea in &axes_a {
        for eb in &axes_b {
            let n = ea.cross(eb);
            // Nearly parallel edges (within 0.06°) give no axis, as in
            // collide: their faces' axes cover them.
            if n.norm() > 1e-3 {
                axes.push(n.normalize());
            }
        }
    }
    axes.iter()
        .map(|n| support_gap(&ca, &cb, n).max(support_gap(&ca, &cb, &-n)))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// How far `p` lies off the surface of the box `h` at `pose` (signed
/// distance to its boundary along the local axes' worst coordinate).
fn off_surface(h: &Vector3<f32>, pose: &Isometry3<f32>, p: &Point3<f32>) -> f64 {
    let pose: Isometry3<f64> = pose.cast();
    let q = pose.inverse_transform_point(&p.cast());
    let h: Vector3<f64> = h.cast();
    // On the surface: inside every slab, and on at least one face.
    let worst = (0..3).map(|k| q[k].abs() - h[k]).fold(f64::NEG_INFINITY, f64::max);
    worst.abs()
}

fn random_extents(rng: &mut Lcg, scale: f64) -> Vector3<f32> {
    Vector3::new(rng.range_f64(0.2, 1.0), rng.range_f64(0.2, 1.0), rng.range_f64(0.2, 1.0))
        .map(|x| x * scale)
        .cast()
}

/// Cached answers are exact where they claim to be, frame after frame,
/// and mostly the full test's own.
#[test]
fn cached_box_manifolds_match_the_oracle_over_small_steps() {
    let mut rng = Lcg(39);
    let (mut frames, mut same, mut separated, mut within) = (0, 0, 0, 0);
    for case in 0..600 {
        let scale = [1e-3, 1.0, 1e3][case % 3];
        let (ha, hb) = (random_extents(&mut rng, scale), random_extents(&mut rng, scale));
        let (sa, sb): (Shape, Shape) = (Cuboid::new(ha).into(), Cuboid::new(hb).into());
        let size = 2.0 * f64::from(ha.min().min(hb.min()));
        let prediction = (0.02 * size) as f32;
        // Start with B's centre at A's reach plus B's along a random
        // direction, less a little: touching, overlapping or just apart.
        let rot_a = UnitQuaternion::from_scaled_axis(rng.unit_f64() * rng.range_f64(0.0, 3.0));
        let pose_a = Isometry3::from_parts(
            Translation3::from(rng.unit_f64() * rng.range_f64(0.0, 2.0) * scale).cast(),
            rot_a.cast(),
        );
        let dir = rng.unit_f64();
        let reach = f64::from(ha.norm().min(hb.norm())) + f64::from(ha.min().max(hb.min()));
        let mut offset = dir * reach * rng.range_f64(0.6, 1.1);
        let mut rot_b: UnitQuaternion<f64> =
            UnitQuaternion::from_scaled_axis(rng.unit_f64() * rng.range_f64(0.0, 3.0));
        // A slow drift and spin, with a random jolt on top each frame.
        let velocity = rng.unit_f64() * 0.005 * size;
        let spin = rng.unit_f64() * 0.01;
        let mut cache = SatCache::default();
        for _ in 0..40 {
            offset += velocity + rng.unit_f64() * 0.002 * size;
            rot_b = UnitQuaternion::from_scaled_axis(spin + rng.unit_f64() * 0.003) * rot_b;
            let pose_b = Isometry3::from_parts(
                Translation3::from(pose_a.translation.vector.cast::<f64>() + offset).cast(),
                rot_b.cast(),
            );
            let cached = contact_manifold_sat_cached(
                &sa,
                &pose_a,
                &sb,
                &pose_b,
                prediction,
                &mut GjkCache::default(),
                &mut cache,
            );
            let full = contact_manifold(&sa, &pose_a, &sb, &pose_b, prediction);
            frames += 1;
            same += usize::from(cached == full);
            // Rounding of f32 positions at this scale.
            let round = 2e-5 * (scale + f64::from(pose_a.translation.vector.norm()));
            let exact = exact_separation(&ha, &pose_a, &hb, &pose_b);
            match cached.clone() {
                ManifoldOutcome::Separated { distance_bound } => {
                    separated += 1;
                    let bound = f64::from(distance_bound);
                    assert!(bound > f64::from(prediction), "case {case}: bound {bound}");
                    // The bound is a separating axis's gap: at most the
                    // largest one, which is at most the distance.
                    assert!(bound <= exact + round, "case {case}: bound {bound} > exact {exact}");
                }
                ManifoldOutcome::Within(m) => {
                    within += 1;
                    assert!(
                        exact <= f64::from(prediction) + round,
                        "case {case}: apart by {exact}, yet within {prediction}"
                    );
                    let n: Vector3<f64> = m.normal.cast();
                    assert!((n.norm() - 1.0).abs() < 1e-4, "case {case}: normal {n:?}");
                    let along = support_gap(&corners(&ha, &pose_a), &corners(&hb, &pose_b), &n);
                    for p in m.points() {
                        let (off_a, off_b) = (
                            off_surface(&ha, &pose_a, &p.point_a),
                            off_surface(&hb, &pose_b, &p.point_b),
                        );
                        // The clip keeps corners up to the clip tolerance
                        // (0.05 % of the scale) past a side plane.
                        let on = round + 5e-4 * size;
                        assert!(
                            off_a <= on && off_b <= on,
                            "case {case}: {p:?} off A by {off_a}, off B by {off_b} (full test's: {})",
                            cached == full
                        );
                        assert!(p.separation <= prediction, "case {case}: {p:?}");
                        assert!(
                            f64::from(p.separation) >= along - round,
                            "case {case}: {} deeper than the boxes' gap {along} along the normal",
                            p.separation
                        );
                    }
                }
            }
        }
    }
    assert!(separated > 500 && within > 5_000, "{separated} separated, {within} within");
    // The cache changes little: most frames give the full test's manifold
    // bit for bit (a hit rebuilds it with the same routine).
    assert!(same * 10 >= frames * 9, "only {same} of {frames} frames as the full test");
}
