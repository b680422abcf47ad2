//! Cross-checks of the oracles against each other and against certificates,
//! without calling collide's queries: the box written down directly against
//! the box found by brute force, the generic rounded-polytope oracle against
//! the closed forms, and every distance and depth against a certificate
//! (a separating direction that proves the distance is not smaller, and a
//! translation that proves the depth is not larger).

use tests::analytic::{sphere_cuboid, sphere_sphere};
use tests::generators::{cloud, half_extents, isometry};
use tests::nalgebra::{Isometry3, Point3, Vector3};
use tests::oracle_shape::pose_to_f64;
use tests::polytope::Polytope;
use tests::sat::sat_penetration;
use tests::{Expected, OracleShape, SplitMix64, expected_separation, overlap_along};

const SEED: u64 = 0x5E1F_C4EC;
const CASES: u64 = 2_000;
/// Agreement expected between two exact f64 methods on metre-sized input.
const EXACT: f64 = 1e-9;

fn random_oracle(rng: &mut SplitMix64) -> OracleShape {
    match rng.below(4) {
        0 => OracleShape::sphere(rng.range(0.1, 2.0)),
        1 => OracleShape::cuboid(half_extents(rng, 0.1, 2.0).cast()),
        2 => OracleShape::capsule(rng.range(0.1, 2.0), rng.range(0.1, 2.0)),
        _ => {
            let n = 4 + rng.below(13);
            let pts: Vec<Point3<f64>> = cloud(rng, n, 0.1, 2.0).iter().map(|p| p.cast()).collect();
            OracleShape::hull(&pts).expect("generator returns non-degenerate clouds")
        }
    }
}

/// Pattern search for a local minimum of `h_D(n) = overlap_along(a, b, n)`
/// over unit `n`, from `n`: try steps along ±x, ±y, ±z, keep any that lowers
/// `h_D`, halve the step when none does.
fn descend(a: &OracleShape, b: &OracleShape, start: Vector3<f64>) -> (Vector3<f64>, f64) {
    const MAX_ITERATIONS: usize = 400;
    const MIN_STEP: f64 = 1e-9;
    let mut n = start;
    let mut h = overlap_along(a, b, &n);
    let mut step = 0.5;
    for _ in 0..MAX_ITERATIONS {
        if !(step > MIN_STEP) {
            break;
        }
        let mut improved = false;
        for k in 0..6 {
            let mut m = n;
            m[k / 2] += if k % 2 == 0 { step } else { -step };
            let m = m.normalize();
            let hm = overlap_along(a, b, &m);
            if hm < h {
                (n, h, improved) = (m, hm, true);
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    (n, h)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= EXACT * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn box_by_brute_force_matches_box_written_down() {
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        let h = half_extents(&mut rng, 0.05, 2.0).cast::<f64>();
        let corners: Vec<Point3<f64>> = Polytope::cuboid(h).vertices;
        let brute = Polytope::from_cloud(&corners).expect("a box spans volume");
        assert_eq!(brute.faces.len(), 6, "case {i}: {h:?}");
        let direct = Polytope::cuboid(h);
        let pose_b = isometry(&mut rng, 2.0).cast::<f64>();
        let other = Polytope::cuboid(half_extents(&mut rng, 0.05, 2.0).cast()).transformed(&pose_b);
        let (s1, s2) = (sat_penetration(&direct, &other), sat_penetration(&brute, &other));
        let (s1, s2) = (s1.expect("axes"), s2.expect("axes"));
        // Only a positive minimum is exact (a depth); a non-positive one just
        // says "separated", and its value depends on the extra candidates.
        let agree = if s1.depth > 0.0 || s2.depth > 0.0 { close(s1.depth, s2.depth) } else { true };
        assert!(agree, "case {i}: {} vs {}", s1.depth, s2.depth);
    }
}

#[test]
fn generic_oracle_matches_closed_forms() {
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED ^ 1, i);
        let (ra, rb) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let pa = isometry(&mut rng, 2.0);
        let pb = isometry(&mut rng, 2.0);
        let a = OracleShape::sphere(ra).posed(&pa);
        let b = OracleShape::sphere(rb).posed(&pb);
        let ca = pa.translation.vector.cast::<f64>().into();
        let cb = pb.translation.vector.cast::<f64>().into();
        let want = sphere_sphere(ca, ra, cb, rb);
        assert!(close(expected_separation(&a, &b).signed(), want.signed()), "sphere-sphere {i}");

        let h = half_extents(&mut rng, 0.1, 2.0);
        let bx = OracleShape::cuboid(h.cast()).posed(&pb);
        let want = sphere_cuboid(ca, ra, h.cast(), &pose_to_f64(&pb));
        let got = expected_separation(&a, &bx);
        assert!(close(got.signed(), want.signed()), "sphere-box {i}: {got:?} vs {want:?}");
        if let (
            Expected::Overlapping { normal: n1, runner_up, depth },
            Expected::Overlapping { normal: n2, .. },
        ) = (got, want)
            && runner_up > depth + 1e-6
        {
            assert!(n1.dot(&n2) > 1.0 - 1e-9, "sphere-box normal {i}: {n1:?} vs {n2:?}");
        }
    }
}

#[test]
fn every_answer_has_a_certificate() {
    let mut counts = [0usize; 2];
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED ^ 2, i);
        let a = random_oracle(&mut rng).posed(&isometry(&mut rng, 1.0));
        let b = random_oracle(&mut rng).posed(&isometry(&mut rng, 1.0));
        match expected_separation(&a, &b) {
            Expected::Separated { distance, point_a, point_b } => {
                counts[0] += 1;
                // Upper bound: the witnesses are on the shapes, this far apart.
                assert!(a.signed_distance(&point_a).abs() <= EXACT, "case {i}");
                assert!(b.signed_distance(&point_b).abs() <= EXACT, "case {i}");
                assert!(close((point_a - point_b).norm(), distance), "case {i}");
                // Lower bound: the slab between the support planes along the
                // witness direction is empty and exactly this wide.
                let u = (point_b - point_a) / distance;
                assert!(close(-overlap_along(&a, &b, &u), distance), "case {i}");
            }
            Expected::Overlapping { depth, normal, .. } => {
                counts[1] += 1;
                // Upper bound: moving B by depth along the normal makes them touch.
                assert!(close(overlap_along(&a, &b, &normal), depth), "case {i}");
                let moved = b.core.transformed(&Isometry3::from(normal * depth));
                let moved = OracleShape { core: moved, radius: b.radius };
                assert!(expected_separation(&a, &moved).signed().abs() <= 1e-7, "case {i}");
                // Lower bound (searched): no direction needs less, neither
                // random ones nor the local minima a descent reaches from them.
                for _ in 0..16 {
                    let n = rng.unit_vector();
                    assert!(overlap_along(&a, &b, &n) >= depth - EXACT, "case {i}: {n:?}");
                    let (m, h) = descend(&a, &b, n);
                    assert!(h >= depth - EXACT, "case {i}: descent found {h} < {depth} at {m:?}");
                }
            }
        }
    }
    // The generator must exercise both outcomes.
    assert!(counts[0] > CASES as usize / 10 && counts[1] > CASES as usize / 10, "{counts:?}");
}

#[test]
fn capsule_oracle_matches_hand_computed_cases() {
    // Parallel capsules side by side: distance = gap between axes minus radii.
    let a = OracleShape::capsule(1.0, 0.25).posed(&Isometry3::identity());
    let b = OracleShape::capsule(0.5, 0.5).posed(&Isometry3::translation(1.0, 0.3, 0.0));
    assert!(close(expected_separation(&a, &b).signed(), 0.25));
    // Crossing capsules (b along x at z = 0.5, axes 0.5 apart): depth = radii - 0.5.
    let rot =
        Isometry3::new(Vector3::new(0.0, 0.0, 0.5), Vector3::z() * core::f64::consts::FRAC_PI_2);
    let b = OracleShape::capsule(2.0, 0.5).posed(&rot.cast());
    assert!(close(expected_separation(&a, &b).signed(), -0.25));
    // End caps facing: top of a at y=1.25, bottom of b at y=3-1=2.
    let b = OracleShape::capsule(0.5, 0.5).posed(&Isometry3::translation(0.0, 3.0, 0.0));
    assert!(close(expected_separation(&a, &b).signed(), 0.75));
}
