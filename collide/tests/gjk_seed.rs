//! GJK started from a cached simplex ([`GjkCache`]) against two oracles that
//! share no code with it: the f64 support gap of the two point clouds along
//! the answer's own normal (for separated convex hulls that gap *is* the
//! distance when the normal is the closest-point direction), and the same
//! query run cold. Hull pairs drift by small steps, the cache carried from
//! frame to frame; a cache filled on one pair is then used on another, where
//! it must cost nothing in correctness. The time of impact, whose
//! advances carry one cache from each to the next, is held to the same
//! support gap at its hit.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{
    Contact, ConvexHull, GjkCache, Sweep, TimeOfImpact, try_contact_cached, try_time_of_impact,
};

use crate::test_rng::Lcg;

/// `count` points on an ellipsoid of semi-axes up to `size`.
fn cloud(rng: &mut Lcg, count: usize, size: f32) -> Vec<Point3<f32>> {
    let axes = Vector3::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0), rng.range(0.3, 1.0)) * size;
    (0..count).map(|_| Point3::from(rng.unit().component_mul(&axes))).collect()
}

/// The f64 gap between the clouds along `n` (from A to B): B's lowest
/// point along `n` less A's highest, both at their poses.
fn support_gap(
    a: &[Point3<f32>],
    pose_a: &Isometry3<f32>,
    b: &[Point3<f32>],
    pose_b: &Isometry3<f32>,
    n: &Vector3<f32>,
) -> f64 {
    let n = n.cast::<f64>();
    let along = |p: &Point3<f32>, pose: &Isometry3<f32>| (pose * p).coords.cast::<f64>().dot(&n);
    let top_a = a.iter().map(|p| along(p, pose_a)).fold(f64::MIN, f64::max);
    let low_b = b.iter().map(|p| along(p, pose_b)).fold(f64::MAX, f64::min);
    low_b - top_a
}

fn separated(c: Contact) -> Option<(f32, Vector3<f32>)> {
    match c {
        Contact::Separated { distance, normal, .. } => Some((distance, normal.into_inner())),
        _ => None,
    }
}

#[test]
fn a_seeded_gjk_finds_the_cold_distance_and_the_exact_support_gap() {
    let mut rng = Lcg(0x5eed);
    let (mut seeded_frames, mut frames) = (0, 0);
    for scale in [1e-2f32, 1.0, 1e2] {
        for _ in 0..40 {
            let count_a = 4 + (rng.next() * 29.0) as usize;
            let count_b = 4 + (rng.next() * 29.0) as usize;
            let pts_a = cloud(&mut rng, count_a, scale);
            let pts_b = cloud(&mut rng, count_b, scale);
            let (Ok(a), Ok(b)) = (ConvexHull::new(&pts_a), ConvexHull::new(&pts_b)) else {
                continue;
            };
            let pose_a = Isometry3::from_parts(
                Translation3::from(rng.unit() * rng.range(0.0, 10.0) * scale),
                rng.rotation(),
            );
            // B 2.05 to 3 sizes from A's centre along a random direction:
            // apart, as both fit in balls of radius `scale`.
            let offset = rng.unit() * rng.range(2.05, 3.0) * scale;
            let mut pose_b = Isometry3::from_parts(
                Translation3::from(pose_a.translation.vector + offset),
                rng.rotation(),
            );
            let mut cache = GjkCache::default();
            let spin = UnitQuaternion::from_scaled_axis(rng.unit() * 0.01);
            let drift = rng.unit() * 0.003 * scale;
            for _ in 0..12 {
                pose_b = Isometry3::from_parts(
                    Translation3::from(pose_b.translation.vector + drift),
                    spin * pose_b.rotation,
                );
                let seeded_before = cache.seed_points() > 0;
                let warm = try_contact_cached(&a, &pose_a, &b, &pose_b, &mut cache).unwrap();
                let cold =
                    try_contact_cached(&a, &pose_a, &b, &pose_b, &mut GjkCache::default()).unwrap();
                let (Some((d_warm, n_warm)), Some((d_cold, _))) =
                    (separated(warm), separated(cold))
                else {
                    panic!("hulls {scale} apart reported touching: {warm:?} / {cold:?}");
                };
                let tolerance = 1e-5 * f64::from(scale);
                assert!(
                    (f64::from(d_warm) - f64::from(d_cold)).abs() <= tolerance,
                    "seeded {d_warm} against cold {d_cold} at scale {scale}"
                );
                let gap = support_gap(&pts_a, &pose_a, &pts_b, &pose_b, &n_warm);
                assert!(
                    (gap - f64::from(d_warm)).abs() <= tolerance,
                    "seeded distance {d_warm}, support gap along its normal {gap}, scale {scale}"
                );
                frames += 1;
                seeded_frames += usize::from(seeded_before);
                assert!(cache.seed_points() > 0, "a separated answer keeps its feature");
            }
        }
    }
    // Every frame after the first of each pair started from a seed.
    assert!(frames > 1000 && seeded_frames * 12 >= frames * 11, "{seeded_frames} of {frames}");
}

#[test]
fn a_cache_from_another_pair_changes_no_answer() {
    let mut rng = Lcg(0xca11);
    for _ in 0..200 {
        let hulls: Vec<(ConvexHull, Vec<Point3<f32>>)> = (0..4)
            .filter_map(|_| {
                let count = 4 + (rng.next() * 29.0) as usize;
                let pts = cloud(&mut rng, count, 1.0);
                ConvexHull::new(&pts).ok().map(|h| (h, pts))
            })
            .collect();
        if hulls.len() < 4 {
            continue;
        }
        let pose = |rng: &mut Lcg| {
            Isometry3::from_parts(Translation3::from(rng.unit() * 2.5), rng.rotation())
        };
        let (p0, p1, p2) = (Isometry3::identity(), pose(&mut rng), pose(&mut rng));
        let p3 = Isometry3::from_parts(
            Translation3::from(p2.translation.vector + rng.unit() * 2.5),
            rng.rotation(),
        );
        // Filled on hulls 0 and 1, used on hulls 2 and 3.
        let mut cache = GjkCache::default();
        let _ = try_contact_cached(&hulls[0].0, &p0, &hulls[1].0, &p1, &mut cache).unwrap();
        let borrowed = try_contact_cached(&hulls[2].0, &p2, &hulls[3].0, &p3, &mut cache).unwrap();
        let cold = try_contact_cached(&hulls[2].0, &p2, &hulls[3].0, &p3, &mut GjkCache::default())
            .unwrap();
        match (separated(borrowed), separated(cold)) {
            (Some((d_b, n_b)), Some((d_c, _))) => {
                assert!((d_b - d_c).abs() <= 1e-5, "borrowed cache {d_b}, cold {d_c}");
                let gap = support_gap(&hulls[2].1, &p2, &hulls[3].1, &p3, &n_b);
                assert!((gap - f64::from(d_b)).abs() <= 1e-5, "gap {gap} against {d_b}");
            }
            (None, None) => {}
            other => panic!("borrowed cache and cold query disagree: {other:?}"),
        }
    }
}

/// The time of impact starts each advance's GJK from the simplex the last
/// one ended on. At its hit, the distance it reports must be the f64
/// support gap of the two clouds along its own normal, at the poses of
/// that time: a seed that strayed off the Minkowski difference would leave
/// a distance the clouds do not have.
#[test]
fn a_time_of_impact_carrying_its_simplex_reports_the_support_gap_at_its_hit() {
    let mut rng = Lcg(0x7011);
    let mut hits = 0;
    for scale in [1e-2f32, 1.0, 1e2] {
        for _ in 0..60 {
            let (count_a, count_b) =
                (4 + (rng.next() * 29.0) as usize, 4 + (rng.next() * 29.0) as usize);
            let (pts_a, pts_b) = (cloud(&mut rng, count_a, scale), cloud(&mut rng, count_b, scale));
            let (Ok(a), Ok(b)) = (ConvexHull::new(&pts_a), ConvexHull::new(&pts_b)) else {
                continue;
            };
            let pose_a =
                Isometry3::from_parts(Translation3::from(rng.unit() * scale), rng.rotation());
            // B starts 2.5 to 4 sizes away and heads for A's centre,
            // turning, so that it arrives well within the unit of time.
            let towards = rng.unit();
            let start = pose_a.translation.vector + towards * rng.range(2.5, 4.0) * scale;
            let sweep_b = Sweep {
                pose: Isometry3::from_parts(Translation3::from(start), rng.rotation()),
                local_center: Point3::origin(),
                linear_velocity: -towards * rng.range(4.0, 8.0) * scale,
                angular_velocity: rng.unit() * rng.range(0.0, 3.0),
            };
            let target = 0.01 * scale;
            let answer =
                try_time_of_impact(&a, &Sweep::fixed(pose_a), &b, &sweep_b, 1.0, target).unwrap();
            let TimeOfImpact::Hit { toi, distance, normal, .. } = answer else {
                continue;
            };
            let gap = support_gap(&pts_a, &pose_a, &pts_b, &sweep_b.pose_at(toi), &normal);
            let tolerance = 1e-5 * f64::from(scale);
            assert!(
                (gap - f64::from(distance)).abs() <= tolerance,
                "time of impact {toi}: distance {distance}, support gap along its normal {gap}, scale {scale}"
            );
            assert!(
                distance <= target * 1.1 + 1e-3 * scale,
                "stopped {distance} apart, target {target}"
            );
            hits += 1;
        }
    }
    assert!(hits > 150, "{hits} hits");
}
