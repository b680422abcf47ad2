//! Every closed-form pair (sphere–sphere, sphere–capsule, capsule–capsule,
//! sphere–cuboid and cuboid–cuboid, in both orders) against collide's
//! general path on the same input: `try_contact` takes the closed form, while
//! `try_contact_with` runs GJK and EPA on the cores for every pair. The two
//! share only the input checks, so agreement on random pairs at several
//! scales is a cross-check of both; the oracle tests hold each to the exact
//! answers separately.

use collide::query::{NoRecord, try_contact_with};
use collide::{Contact, intersects, try_contact};
use tests::generators::{closed_form_kind, pose_pair};
use tests::{SplitMix64, TestShape, Tolerances};

const SEED: u64 = 0xC105_ED00;

/// Signed separation (distance, or minus depth) and the witness residual
/// `|point_a - point_b - signed * (-normal)|`.
fn signed(c: &Contact) -> (f64, f64) {
    match c {
        Contact::Separated { distance, normal, point_a, point_b } => (
            f64::from(*distance),
            f64::from(((point_b - point_a) - normal.into_inner() * *distance).norm()),
        ),
        Contact::Penetrating(p) => (
            -f64::from(p.depth),
            f64::from(((p.point_a - p.point_b) - p.normal.into_inner() * p.depth).norm()),
        ),
    }
}

#[test]
fn closed_forms_agree_with_gjk_epa_on_random_pairs() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (k, scale) in [1e-3, 1.0, 1e3].into_iter().enumerate() {
        let mut rng = SplitMix64::for_case(SEED, k as u64);
        // A from {sphere, capsule, cuboid}, B likewise; capsule–cuboid has
        // no closed form and is left out.
        for (ka, kb) in [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0), (2, 2)] {
            for _ in 0..150 {
                let a = TestShape::new(closed_form_kind(&mut rng, ka, scale)).expect("valid shape");
                let b = TestShape::new(closed_form_kind(&mut rng, kb, scale)).expect("valid shape");
                let factor = rng.range(0.0, 1.1);
                let mut p = pose_pair(&mut rng, a, b, factor);
                // Keep the pair near the origin at its own scale.
                let shift = p.pose_a.translation.vector * (1.0 - scale as f32);
                p.pose_a.translation.vector -= shift;
                p.pose_b.translation.vector -= shift;
                let tol = Tolerances { length: scale };
                let (sa, sb) = (&p.a.shape, &p.b.shape);
                let closed = try_contact(sa, &p.pose_a, sb, &p.pose_b);
                let general = try_contact_with(sa, &p.pose_a, sb, &p.pose_b, &mut NoRecord);
                count += 1;
                let (Ok(closed), Ok(general)) = (closed, general) else {
                    failures.push(format!("an error on finite input: {p:?}"));
                    continue;
                };
                let ((sc, rc), (sg, rg)) = (signed(&closed), signed(&general));
                let bound = tol.depth(sg).max(tol.distance(sg));
                let residual_bound = tol.witness();
                if (sc - sg).abs() > bound || rc > residual_bound || rg > residual_bound {
                    failures.push(format!(
                        "closed form {sc:e} (residual {rc:e}) vs GJK/EPA {sg:e} \
                         (residual {rg:e}), bound {bound:e}: {p:?}"
                    ));
                }
                // The overlap verdict agrees wherever the general path is clear.
                if sg.abs() > bound && intersects(sa, &p.pose_a, sb, &p.pose_b) != (sg <= 0.0) {
                    failures.push(format!("intersects disagrees with GJK/EPA's {sg:e}: {p:?}"));
                }
            }
        }
    }
    assert_eq!(count, 3 * 7 * 150);
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}
