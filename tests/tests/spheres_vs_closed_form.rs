//! Sphere–sphere and sphere–box queries against the closed forms of
//! `tests::analytic`, under the identity and random world transforms.
//!
//! Each case first confirms that the generic oracle (which `check_pair`
//! uses) agrees with the closed form to 1e-9, so the checks below are checks
//! against the closed form.

use tests::analytic::{sphere_cuboid, sphere_sphere};
use tests::generators::{half_extents, pose_pair};
use tests::oracle_shape::pose_to_f64;
use tests::runner::run_batch;
use tests::{Expected, Pair, Params, SplitMix64, TestShape, Tolerances, expected_separation};

const SEED: u64 = 0xA11A1171C;
const CASES: u64 = 3_000;
/// Agreement between two exact f64 oracles on metre-sized shapes.
const ORACLES_AGREE: f64 = 1e-9;

fn agree(pair: &Pair, closed_form: Expected) -> Result<Pair, String> {
    let (a, b) = pair.oracles();
    let generic = expected_separation(&a, &b);
    if (generic.signed() - closed_form.signed()).abs() > ORACLES_AGREE {
        return Err(format!("oracles disagree: {generic:?} vs {closed_form:?}\n{pair}"));
    }
    Ok(pair.clone())
}

fn coverage(batch: &tests::runner::Batch) -> (usize, usize) {
    let overlapping = batch
        .measured
        .iter()
        .filter(|m| matches!(m.expected, Expected::Overlapping { .. }))
        .count();
    (overlapping, batch.measured.len() - overlapping)
}

#[test]
fn sphere_sphere_matches_closed_form() {
    let batch = run_batch(SEED, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let ra = rng.log_range(0.05, 2.0) as f32;
        let rb = rng.log_range(0.05, 2.0) as f32;
        let a = TestShape::new(Params::Sphere { radius: ra })?;
        let b = TestShape::new(Params::Sphere { radius: rb })?;
        let factor = rng.range(0.02, 1.3);
        let pair = pose_pair(rng, a, b, factor);
        let ca = pair.pose_a.translation.vector.cast::<f64>().into();
        let cb = pair.pose_b.translation.vector.cast::<f64>().into();
        agree(&pair, sphere_sphere(ca, f64::from(ra), cb, f64::from(rb)))
    });
    batch.assert_ok("sphere-sphere", SEED);
    let (over, sep) = coverage(&batch);
    assert!(over > 1000 && sep > 1000, "coverage: {over} overlapping, {sep} separated");
}

#[test]
fn sphere_cuboid_matches_clamp() {
    let batch = run_batch(SEED ^ 1, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let r = rng.log_range(0.05, 2.0) as f32;
        let h = half_extents(rng, 0.05, 2.0);
        let a = TestShape::new(Params::Sphere { radius: r })?;
        let b = TestShape::new(Params::Cuboid { half: h })?;
        // Down to 0: the sphere's centre is often inside the box.
        let factor = rng.range(0.0, 1.1);
        let pair = pose_pair(rng, a, b, factor);
        let centre = pair.pose_a.translation.vector.cast::<f64>().into();
        agree(&pair, sphere_cuboid(centre, f64::from(r), h.cast(), &pose_to_f64(&pair.pose_b)))
    });
    batch.assert_ok("sphere-cuboid", SEED ^ 1);
    let (over, sep) = coverage(&batch);
    assert!(over > 1000 && sep > 1000, "coverage: {over} overlapping, {sep} separated");
}
