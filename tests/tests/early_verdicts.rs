//! The early answers of the closed forms (sphere–sphere, sphere–capsule,
//! capsule–capsule, sphere–cuboid, cuboid–cuboid, both orders): a distance
//! query on an overlapping pair and a penetration query on a separated one
//! stop at the verdict, before any normal or witness point is formed, and an
//! intersection test never forms them. Each must give exactly the verdict,
//! and where it goes on, exactly the numbers, of the full `contact` on the
//! same input (they share the verdict's expression, so any drift between
//! them shows up on pairs placed right at touching), and the verdict must
//! match the f64 oracle wherever the pair is clear of touching.
//!
//! Cases: random poses at scales 1e-3, 1 and 1e3; pairs placed by the oracle
//! at signed gaps of ±1e-4, ±1e-6 and 0 of their size (just missing, just
//! touching); the A/B swap; rotated worlds.

use collide::nalgebra::{Isometry3, Translation3, Vector3};
use collide::{Contact, Proximity, closest_points, intersects, penetration, try_contact};
use tests::generators::{bounding_radius, closed_form_kind, place_at_gap, pose_pair};
use tests::{Pair, Params, SplitMix64, TestShape, expected_separation};

const SEED: u64 = 0xEA21_7E5D;

/// Checks every query against `contact` on one pair, and the verdict
/// against the oracle where the oracle's signed separation is beyond
/// `clear`; appends what disagrees to `failures`.
///
/// Two boxes are the exception within `clear` of touching: their early
/// verdict comes from separating axes, with a guard that errs towards
/// "touching", while `contact` runs GJK/EPA, so there the two may differ
/// (by a depth or distance of ~0); beyond `clear` they must agree exactly.
fn check(pair: &Pair, clear: f64, failures: &mut Vec<String>) {
    let (a, pa, b, pb) = (&pair.a.shape, &pair.pose_a, &pair.b.shape, &pair.pose_b);
    let (oa, ob) = pair.oracles();
    let signed = expected_separation(&oa, &ob).signed();
    let boxes = pair.a.params.kind() == "cuboid" && pair.b.params.kind() == "cuboid";
    let compare_with_contact = !boxes || signed.abs() > clear;
    let full = match try_contact(a, pa, b, pb) {
        Ok(c) => c,
        Err(e) => return failures.push(format!("contact failed with {e:?}: {pair:?}")),
    };
    let overlapping = matches!(full, Contact::Penetrating(_));
    if compare_with_contact {
        same_as_contact(pair, &full, failures);
    }
    let intersect = intersects(a, pa, b, pb);
    if signed.abs() > clear {
        if overlapping != (signed <= 0.0) {
            failures.push(format!("contact verdict vs oracle {signed:e}: {pair:?}"));
        }
        if intersect != (signed <= 0.0) {
            failures.push(format!("intersects {intersect} vs oracle {signed:e}: {pair:?}"));
        }
    }
}

/// The distance and penetration queries against the full contact: the same
/// verdict, and bit for bit the same numbers where they go on.
fn same_as_contact(pair: &Pair, full: &Contact, failures: &mut Vec<String>) {
    let (a, pa, b, pb) = (&pair.a.shape, &pair.pose_a, &pair.b.shape, &pair.pose_b);
    // The distance query: the same verdict, and bit for bit the same
    // distance and points when separated.
    match (closest_points(a, pa, b, pb), full) {
        (Proximity::Intersecting, Contact::Penetrating(_)) => {}
        (
            Proximity::Separated { distance, point_a, point_b },
            Contact::Separated { distance: d, point_a: qa, point_b: qb, .. },
        ) if distance == *d && point_a == *qa && point_b == *qb => {}
        (p, c) => failures.push(format!("closest_points {p:?} vs contact {c:?}: {pair:?}")),
    }
    // The penetration query: likewise for the depth, normal and points.
    match (penetration(a, pa, b, pb), full) {
        (None, Contact::Separated { .. }) => {}
        (Some(p), Contact::Penetrating(q)) if p == *q => {}
        (p, c) => failures.push(format!("penetration {p:?} vs contact {c:?}: {pair:?}")),
    }
}

/// The size every tolerance of a pair is relative to: its reach and its
/// distance from the origin (f32 poses round at ~1e-7 of that).
fn size(pair: &Pair) -> f64 {
    let reach = bounding_radius(&pair.a.oracle).max(bounding_radius(&pair.b.oracle));
    let at = |p: &Isometry3<f32>| f64::from(p.translation.vector.norm());
    reach.max(at(&pair.pose_a)).max(at(&pair.pose_b))
}

/// Pairs closer to touching than this fraction of their size may be
/// classified either way by f32 input (as in `cuboid_pair_sat`).
const UNDECIDED_REL: f64 = 2e-5;

#[test]
fn early_answers_match_the_full_contact_and_the_oracle() {
    let mut failures = Vec::new();
    let mut count = 0;
    let kinds = [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0), (2, 2)];
    for (k, scale) in [1e-3, 1.0, 1e3].into_iter().enumerate() {
        let mut rng = SplitMix64::for_case(SEED, k as u64);
        for (ka, kb) in kinds {
            for i in 0..120 {
                let a = TestShape::new(closed_form_kind(&mut rng, ka, scale)).expect("valid shape");
                let b = TestShape::new(closed_form_kind(&mut rng, kb, scale)).expect("valid shape");
                let factor = rng.range(0.0, 1.1);
                let mut p = pose_pair(&mut rng, a, b, factor);
                let shift = p.pose_a.translation.vector * (1.0 - scale as f32);
                p.pose_a.translation.vector -= shift;
                p.pose_b.translation.vector -= shift;
                // Every third pair is moved to touching, just inside or just
                // outside, along a random direction.
                if i % 3 == 0 {
                    let gaps = [0.0, 1e-6, -1e-6, 1e-4, -1e-4];
                    let gap = gaps[rng.below(gaps.len())] * size(&p);
                    p = place_at_gap(&p, &rng.unit_vector(), gap);
                }
                let clear = UNDECIDED_REL * size(&p);
                let world = Isometry3::from_parts(
                    Translation3::from(
                        (Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0) * scale)
                            .cast::<f32>(),
                    ),
                    rng.rotation(),
                );
                for q in [p.clone(), p.swapped(), p.moved(&world)] {
                    check(&q, clear, &mut failures);
                    count += 1;
                }
            }
        }
    }
    assert_eq!(count, 3 * 7 * 120 * 3);
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}

#[test]
fn touching_spheres_and_capsules_agree_at_every_gap() {
    // Exactly-placed pairs along the axes, where the gap is exact in f32:
    // every query must give the same verdict as `contact` at the gap's
    // sign, down to one part in 1e6 of the size.
    let mut failures = Vec::new();
    for scale in [1e-3f32, 1.0, 1e3] {
        for (ka, kb) in [(0, 0), (0, 1), (1, 1)] {
            let shape = |k: usize| {
                let params = if k == 0 {
                    Params::Sphere { radius: 0.5 * scale }
                } else {
                    Params::Capsule { half_height: 0.5 * scale, radius: 0.25 * scale }
                };
                TestShape::new(params).expect("valid shape")
            };
            let (a, b) = (shape(ka), shape(kb));
            let reach = 0.5 * scale + if kb == 0 { 0.5 * scale } else { 0.25 * scale };
            let reach = reach + if ka == 0 { 0.0 } else { -0.25 * scale };
            for rel in [-1e-3f32, -1e-5, 0.0, 1e-5, 1e-3] {
                let x = reach * (1.0 + rel);
                let pair = Pair {
                    a: a.clone(),
                    pose_a: Isometry3::identity(),
                    b: b.clone(),
                    pose_b: Isometry3::translation(x, 0.0, 0.0),
                };
                check(&pair, 1e-6 * f64::from(scale), &mut failures);
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}
