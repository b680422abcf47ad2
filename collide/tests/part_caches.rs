//! Composite manifolds with GJK's warm starts kept per pair of parts
//! ([`PartCaches`]) against the same query run cold, which shares the walk
//! but none of the carried state: convex hulls drift over a wave mesh whose
//! ridges are active edges (so its triangles go through GJK), the caches
//! carried from frame to frame, at scales 1e-2, 1 and 1e2. Every frame must
//! find the same pairs of parts touching, each with the cold manifold's
//! normal and deepest separation; caches borrowed from another pair, or
//! overfull, must change no answer either.

use collide::composite::{
    self, MAX_PART_CACHES, ManifoldSet, PartCaches, PartIds, PartManifold, TriMesh,
};
use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{ConvexHull, Shape};

use crate::test_rng::Lcg;

/// A wave mesh over `[-extent, extent]²` in cells of `cell`, heights
/// `amplitude · sin(x / wavelength) cos(z / wavelength)`: its ridges fold
/// convex by more than the flat-edge angle, so their edges are active.
fn waves(extent: f32, cell: f32, amplitude: f32, wavelength: f32) -> Shape {
    let n = (2.0 * extent / cell).round() as usize;
    let mut vertices = Vec::with_capacity((n + 1) * (n + 1));
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (-extent + i as f32 * cell, -extent + j as f32 * cell);
            let y = amplitude * (x / wavelength).sin() * (z / wavelength).cos();
            vertices.push(Point3::new(x, y, z));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut triangles = Vec::with_capacity(2 * n * n);
    for i in 0..n {
        for j in 0..n {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i + 1, j + 1), at(i + 1, j), at(i, j)]);
        }
    }
    TriMesh::try_new(vertices, triangles).unwrap().into()
}

/// A hull of `count` points on an ellipsoid of semi-axes up to `size`.
fn hull(rng: &mut Lcg, count: usize, size: f32) -> Option<Shape> {
    let axes = Vector3::new(rng.range(0.4, 1.0), rng.range(0.2, 0.5), rng.range(0.4, 1.0)) * size;
    let points: Vec<Point3<f32>> =
        (0..count).map(|_| Point3::from(rng.unit().component_mul(&axes))).collect();
    ConvexHull::new(&points).ok().map(Shape::from)
}

/// The height of the wave mesh's surface at `(x, z)`, as `waves` built it
/// (at the vertices; between them the triangles cut the curve).
fn wave_height(x: f32, z: f32, amplitude: f32, wavelength: f32) -> f32 {
    amplitude * (x / wavelength).sin() * (z / wavelength).cos()
}

/// Checks that `warm` holds the manifolds of `cold`: the same pairs of
/// parts (in any order: a full set's replacements follow the separations'
/// last bits), each with a normal within 2e-3 rad and a deepest separation
/// within `tolerance`.
fn assert_same_manifolds(warm: &ManifoldSet, cold: &ManifoldSet, tolerance: f32, what: &str) {
    fn sorted(s: &ManifoldSet) -> Vec<&PartManifold> {
        let mut m: Vec<_> = s.manifolds().iter().collect();
        m.sort_by_key(|m| (m.parts.a, m.parts.b));
        m
    }
    let (warm, cold) = (sorted(warm), sorted(cold));
    let parts = |s: &[&PartManifold]| s.iter().map(|m| m.parts).collect::<Vec<PartIds>>();
    assert_eq!(parts(&warm), parts(&cold), "{what}: parts touching differ");
    for (w, c) in warm.iter().zip(&cold) {
        assert!(
            w.manifold.normal.dot(&c.manifold.normal) >= (2e-3f32).cos(),
            "{what}: normals {:?} warm, {:?} cold",
            w.manifold.normal,
            c.manifold.normal
        );
        let (dw, dc) = (w.manifold.min_separation(), c.manifold.min_separation());
        assert!((dw - dc).abs() <= tolerance, "{what}: deepest {dw} warm, {dc} cold");
    }
}

/// The poses of one drift: starting `height` above the surface at a random
/// spot, turning and sliding a little each frame.
fn drift(rng: &mut Lcg, scale: f32, frames: usize) -> Vec<Isometry3<f32>> {
    let (amplitude, wavelength) = (0.6 * scale, 1.0 * scale);
    let (x, z) = (rng.range(-2.0, 2.0) * scale, rng.range(-2.0, 2.0) * scale);
    // From 0.05 size into the waves to 0.3 above: mostly speculative or
    // apart (GJK's separated answers, which leave a seed), some touching.
    let height = rng.range(-0.05, 0.3) * scale;
    let centre = Vector3::new(x, wave_height(x, z, amplitude, wavelength) + height, z);
    let mut pose = Isometry3::from_parts(Translation3::from(centre), rng.rotation());
    let spin = UnitQuaternion::from_scaled_axis(rng.unit() * 0.01);
    let step = rng.unit() * 0.004 * scale;
    (0..frames)
        .map(|_| {
            pose = Isometry3::from_parts(
                Translation3::from(pose.translation.vector + step),
                spin * pose.rotation,
            );
            pose
        })
        .collect()
}

#[test]
fn warm_started_parts_give_the_cold_manifolds() {
    let mut rng = Lcg(0x9a27);
    let (mut frames, mut seeded, mut manifolds) = (0usize, 0usize, 0usize);
    for scale in [1e-2f32, 1.0, 1e2] {
        let mesh = waves(4.0 * scale, 0.5 * scale, 0.6 * scale, 1.0 * scale);
        let prediction = 0.05 * scale;
        let tolerance = 1e-4 * scale;
        for case in 0..30 {
            let count = 6 + (rng.next() * 20.0) as usize;
            let Some(shape) = hull(&mut rng, count, 0.6 * scale) else {
                continue;
            };
            let mut caches = PartCaches::new();
            for (frame, pose) in drift(&mut rng, scale, 12).iter().enumerate() {
                // The warm starts this frame begins with that hold a seed.
                seeded += caches.iter().filter(|(_, c)| c.seed_points() > 0).count();
                let (mut warm, mut cold) = (ManifoldSet::new(), ManifoldSet::new());
                composite::try_contact_manifolds_cached(
                    &mesh,
                    &Isometry3::identity(),
                    &shape,
                    pose,
                    prediction,
                    &mut warm,
                    &mut caches,
                )
                .unwrap();
                composite::try_contact_manifolds(
                    &mesh,
                    &Isometry3::identity(),
                    &shape,
                    pose,
                    prediction,
                    &mut cold,
                )
                .unwrap();
                let what = format!("scale {scale}, case {case}, frame {frame}");
                assert_same_manifolds(&warm, &cold, tolerance, &what);
                // Every kept warm start names a triangle the mesh has and a
                // whole convex B.
                assert!(caches.iter().all(|(p, _)| p.a.is_some() && p.b.is_none()), "{what}");
                assert!(caches.len() <= MAX_PART_CACHES);
                frames += 1;
                manifolds += warm.len();
            }
        }
    }
    // The drift must have exercised the seeds: a test that never seeded
    // would pass with the warm start broken.
    assert!(frames > 1000, "{frames} frames");
    assert!(manifolds > frames, "{manifolds} manifolds over {frames} frames");
    assert!(seeded > frames, "{seeded} seeded warm starts over {frames} frames");
}

#[test]
fn warm_starts_from_another_pair_or_overfull_change_no_answer() {
    let mut rng = Lcg(0xb0a7);
    let mesh = waves(4.0, 0.25, 0.6, 1.0);
    let mut filled = 0;
    for case in 0..60 {
        let (Some(first), Some(second)) = (hull(&mut rng, 16, 0.6), hull(&mut rng, 16, 1.0)) else {
            continue;
        };
        let (poses_a, poses_b) = (drift(&mut rng, 1.0, 3), drift(&mut rng, 1.0, 3));
        // Filled over three frames of the first hull, then used on the
        // second (larger: on 0.25 m cells it meets more triangles than the
        // caches hold).
        let mut caches = PartCaches::new();
        let mut set = ManifoldSet::new();
        for pose in &poses_a {
            composite::try_contact_manifolds_cached(
                &mesh,
                &Isometry3::identity(),
                &first,
                pose,
                0.05,
                &mut set,
                &mut caches,
            )
            .unwrap();
        }
        for pose in &poses_b {
            let mut cold = ManifoldSet::new();
            composite::try_contact_manifolds_cached(
                &mesh,
                &Isometry3::identity(),
                &second,
                pose,
                0.05,
                &mut set,
                &mut caches,
            )
            .unwrap();
            composite::try_contact_manifolds(
                &mesh,
                &Isometry3::identity(),
                &second,
                pose,
                0.05,
                &mut cold,
            )
            .unwrap();
            let what = format!("case {case}");
            if set.overflow() == 0 && cold.overflow() == 0 {
                assert_same_manifolds(&set, &cold, 1e-4, &what);
                filled += usize::from(caches.len() == MAX_PART_CACHES);
            } else {
                // A full set keeps the deepest manifolds; which of two
                // triangles tied at its cut-off it keeps follows the
                // separations' last bits. The deepest must agree.
                let deepest = |s: &ManifoldSet| {
                    s.manifolds()
                        .iter()
                        .map(|m| m.manifold.min_separation())
                        .fold(f32::MAX, f32::min)
                };
                assert_eq!(set.len(), cold.len(), "{what}");
                assert!((deepest(&set) - deepest(&cold)).abs() <= 1e-4, "{what}");
            }
        }
    }
    assert!(filled > 10, "the caches were full on only {filled} frames with no overflow");
}
