//! collide's separating-axis test for two cuboids (the path `intersects`
//! takes, and `closest_points` and `penetration` take for an early answer),
//! and its separating-axis depth (the path `penetration` and `contact`
//! take for overlapping cuboids, falling back to EPA where that is ill
//! conditioned),
//! against the f64 oracle of `tests::separation` (an exact separating-axis
//! depth and brute-force distance, sharing no code with collide) and
//! against collide's own general GJK/EPA path (`try_contact_with`).
//!
//! Cases: random poses at scales 1e-3 to 1e3, just touching and just missing
//! (±1e-4 of the size), exactly touching axis-aligned faces, parallel edges,
//! the A/B swap, and rotation (world-transform) invariance.

use collide::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use collide::query::{NoRecord, try_contact_with};
use collide::{Contact, Cuboid, Proximity, closest_points, intersects, penetration, try_contact};
use tests::generators::{bounding_radius, half_extents, place_at_gap};
use tests::{Pair, Params, SplitMix64, TestShape, Tolerances, check_swap, expected_separation};

const SEED: u64 = 0xB0C5_5A75;

/// Pairs closer to touching than this fraction of their size (the larger of
/// the shapes' bounding radius and their distance from the origin) may be
/// classified either way: f32 poses round at ~1e-7 of that length, the
/// composed relative pose at a few times more, and the test's parallel-edge
/// guard adds 1e-6 of the size.
const UNDECIDED_REL: f64 = 2e-5;

/// The length every tolerance of a pair is relative to.
fn size(pair: &Pair) -> f64 {
    let reach = bounding_radius(&pair.a.oracle).max(bounding_radius(&pair.b.oracle));
    let at = |p: &Isometry3<f32>| f64::from(p.translation.vector.norm());
    reach.max(at(&pair.pose_a)).max(at(&pair.pose_b))
}

/// A random cuboid pair around `scale`, B at `factor` of the reach from A,
/// both placed within `5 * scale` of the origin.
fn random_pair(rng: &mut SplitMix64, scale: f64, factor: f64) -> Pair {
    let cuboid = |rng: &mut SplitMix64| {
        TestShape::new(Params::Cuboid { half: half_extents(rng, 0.1 * scale, 2.0 * scale) })
            .expect("a valid cuboid")
    };
    let (a, b) = (cuboid(rng), cuboid(rng));
    let at = |rng: &mut SplitMix64| {
        let t = Vector3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        Isometry3::from_parts(Translation3::from((t * scale).cast::<f32>()), rng.rotation())
    };
    let pose_a = at(rng);
    let reach = bounding_radius(&a.oracle) + bounding_radius(&b.oracle);
    let centre_b = pose_a.translation.vector.cast::<f64>() + rng.unit_vector() * (factor * reach);
    let pose_b = Isometry3::from_parts(Translation3::from(centre_b.cast::<f32>()), rng.rotation());
    Pair { a, pose_a, b, pose_b }
}

/// Checks every query's overlap verdict on a pair whose oracle separation is
/// clear of zero, in both orders; returns whether the pair was decided.
fn check_clear(pair: &Pair) -> Result<bool, String> {
    let (oa, ob) = pair.oracles();
    let signed = expected_separation(&oa, &ob).signed();
    if signed.abs() <= UNDECIDED_REL * size(pair) {
        return Ok(false);
    }
    let expected = signed <= 0.0;
    for p in [pair.clone(), pair.swapped()] {
        let (a, b) = (&p.a.shape, &p.b.shape);
        let got = intersects(a, &p.pose_a, b, &p.pose_b);
        let by_distance =
            matches!(closest_points(a, &p.pose_a, b, &p.pose_b), Proximity::Intersecting);
        let by_depth = penetration(a, &p.pose_a, b, &p.pose_b).is_some();
        if got != expected || by_distance != expected || by_depth != expected {
            return Err(format!(
                "signed separation {signed:e} (size {:e}): intersects {got}, \
                 closest_points intersecting {by_distance}, penetration {by_depth}; {p:?}",
                size(&p)
            ));
        }
    }
    Ok(true)
}

#[test]
fn random_pairs_at_every_scale_agree_with_the_oracle_in_both_orders() {
    let mut failures = Vec::new();
    let mut decided = 0;
    for (k, scale) in [1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3].into_iter().enumerate() {
        let mut rng = SplitMix64::for_case(SEED, k as u64);
        for _ in 0..400 {
            let factor = rng.range(0.0, 1.1);
            match check_clear(&random_pair(&mut rng, scale, factor)) {
                Ok(d) => decided += usize::from(d),
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
    // The undecided band is thin: almost every pair is checked.
    assert!(decided > 2700, "only {decided} of 2800 pairs were clear of touching");
}

#[test]
fn just_touching_and_just_missing_pairs_are_classified_by_their_gap() {
    let mut failures = Vec::new();
    for (k, scale) in [1e-3, 1.0, 1e3].into_iter().enumerate() {
        let mut rng = SplitMix64::for_case(SEED ^ 1, k as u64);
        for i in 0..60 {
            let start = random_pair(&mut rng, scale, 0.0);
            let dir = rng.unit_vector();
            // ±4 times the undecided band: clearly on one side, yet far
            // closer than any generic random pair.
            let rel = if i % 2 == 0 { 4.0 } else { -4.0 } * UNDECIDED_REL;
            let gap = rel * size(&start).max(10.0 * scale);
            let pair = place_at_gap(&start, &dir, gap);
            match check_clear(&pair) {
                Ok(true) => {}
                Ok(false) => failures.push(format!("gap {gap:e} not placed clear: {pair:?}")),
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}

#[test]
fn axis_aligned_faces_touch_exactly_and_miss_by_one_part_in_a_million() {
    for scale in [1e-3f32, 1.0, 1e3] {
        let cube = Cuboid::new(Vector3::repeat(0.5 * scale));
        let origin = Isometry3::identity();
        // Face to face at exactly the sum of the half extents: touching.
        let touching = Isometry3::translation(scale, 0.3 * scale, -0.2 * scale);
        assert!(intersects(&cube, &origin, &cube, &touching), "scale {scale}");
        assert!(intersects(&cube, &touching, &cube, &origin), "scale {scale}, swapped");
        let apart = Isometry3::translation(scale * (1.0 + 1e-5), 0.3 * scale, -0.2 * scale);
        assert!(!intersects(&cube, &origin, &cube, &apart), "scale {scale}");
        assert!(!intersects(&cube, &apart, &cube, &origin), "scale {scale}, swapped");
    }
}

#[test]
fn parallel_edges_do_not_invent_or_hide_a_separating_axis() {
    // Equal orientations make every edge of A parallel to three of B's: the
    // nine edge axes degenerate to zero and only the face axes decide.
    let rotation = UnitQuaternion::from_euler_angles(0.3, -0.7, 1.1);
    let cube = Cuboid::new(Vector3::new(1.0, 0.5, 0.25));
    let pose_a = Isometry3::from_parts(Translation3::new(1.0, 2.0, 3.0), rotation);
    for (offset_local, overlap) in [
        (Vector3::new(1.99, 0.99, 0.0), true),
        (Vector3::new(2.01, 0.99, 0.0), false),
        (Vector3::new(1.99, 0.99, 0.49), true),
        (Vector3::new(1.99, 0.99, 0.51), false),
    ] {
        let pose_b = Isometry3::from_parts(
            Translation3::from(pose_a.translation.vector + rotation * offset_local),
            rotation,
        );
        assert_eq!(intersects(&cube, &pose_a, &cube, &pose_b), overlap, "{offset_local:?}");
        assert_eq!(intersects(&cube, &pose_b, &cube, &pose_a), overlap, "{offset_local:?}");
    }
}

#[test]
fn the_verdict_is_invariant_under_world_transforms() {
    let mut rng = SplitMix64::new(SEED ^ 2);
    let mut failures = Vec::new();
    for _ in 0..200 {
        let factor = rng.range(0.0, 1.1);
        let pair = random_pair(&mut rng, 1.0, factor);
        let world = Isometry3::from_parts(
            Translation3::from(rng.unit_vector().cast::<f32>() * 3.0),
            rng.rotation(),
        );
        if let Err(e) = check_clear(&pair.moved(&world)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}

#[test]
fn the_separating_axis_verdict_agrees_with_general_gjk_epa() {
    let mut rng = SplitMix64::new(SEED ^ 3);
    let mut compared = 0;
    for _ in 0..1000 {
        let factor = rng.range(0.0, 1.1);
        let p = random_pair(&mut rng, 1.0, factor);
        let (a, b) = (&p.a.shape, &p.b.shape);
        let general =
            try_contact_with(a, &p.pose_a, b, &p.pose_b, &mut NoRecord).expect("finite input");
        let signed = match general {
            Contact::Separated { distance, .. } => f64::from(distance),
            Contact::Penetrating(pen) => -f64::from(pen.depth),
        };
        if signed.abs() <= UNDECIDED_REL * size(&p) {
            continue;
        }
        compared += 1;
        assert_eq!(
            intersects(a, &p.pose_a, b, &p.pose_b),
            signed <= 0.0,
            "GJK/EPA says {signed:e}: {p:?}"
        );
    }
    assert!(compared > 950, "only {compared} pairs compared");
}

/// Whether `penetration` (for an overlapping pair) or `closest_points` (for
/// a separated one) answered differently, bit for bit, from the general
/// GJK/EPA path: then the separating axes answered it (the fallback runs
/// that same path from the same empty cache).
fn answered_by_axes(p: &Pair) -> bool {
    let (a, b) = (&p.a.shape, &p.b.shape);
    let general = try_contact_with(a, &p.pose_a, b, &p.pose_b, &mut NoRecord);
    match general {
        Ok(Contact::Penetrating(g)) => penetration(a, &p.pose_a, b, &p.pose_b) != Some(g),
        Ok(Contact::Separated { distance, point_a, point_b, .. }) => {
            closest_points(a, &p.pose_a, b, &p.pose_b)
                != Proximity::Separated { distance, point_a, point_b }
        }
        Err(_) => false,
    }
}

/// Random pairs at scales 1e-2, 1 and 1e2, B at `factors` of the reach,
/// those that `keep` accepts (given the oracle's signed separation over the
/// pair's size) checked in both orders against the oracle (`check_swap`).
/// Returns how many were kept, how many of those the axes answered, and
/// the failures.
fn sweep_scales(
    seed: u64,
    factors: (f64, f64),
    keep: impl Fn(f64) -> bool,
) -> (usize, usize, Vec<String>) {
    let (mut kept, mut by_axes, mut failures) = (0, 0, Vec::new());
    for (k, scale) in [1e-2, 1.0, 1e2].into_iter().enumerate() {
        let mut rng = SplitMix64::for_case(seed, k as u64);
        for _ in 0..300 {
            let factor = rng.range(factors.0, factors.1);
            let pair = random_pair(&mut rng, scale, factor);
            let (oa, ob) = pair.oracles();
            if !keep(expected_separation(&oa, &ob).signed() / size(&pair)) {
                continue;
            }
            kept += 1;
            by_axes += usize::from(answered_by_axes(&pair));
            if let Err(e) = check_swap(&pair, &Tolerances { length: scale }) {
                failures.push(e);
            }
        }
    }
    (kept, by_axes, failures)
}

/// Box B turned from box A by `angle` (stacked, side by side or crossed,
/// where edge axes are nearly degenerate), its face `gap` from A's along
/// one of A's axes (negative: sunk into A), slid sideways. Also returns
/// that axis in the world.
fn turned_pair(rng: &mut SplitMix64, angle: f32, gap: f64) -> (Pair, Vector3<f32>) {
    let cuboid = |half: Vector3<f32>| TestShape::new(Params::Cuboid { half }).expect("valid");
    let base = UnitQuaternion::from_scaled_axis(rng.unit_vector().cast::<f32>() * 2.0);
    let tilt = UnitQuaternion::from_scaled_axis(rng.unit_vector().cast::<f32>() * angle);
    let (a, b) = (cuboid(Vector3::new(0.5, 0.5, 0.5)), cuboid(Vector3::new(0.7, 0.3, 0.4)));
    let pick = rng.below(3);
    let axis = [Vector3::x(), Vector3::y(), Vector3::z()][pick];
    let side = Vector3::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
    let reach = 0.5 + [0.7, 0.3, 0.4][pick] + gap;
    let local = axis * reach + side - axis * side.dot(&axis);
    let pose_a = Isometry3::from_parts(Translation3::new(1.0, -2.0, 0.5), base);
    let pose_b = Isometry3::from_parts(
        Translation3::from(pose_a.translation.vector + base * local.cast::<f32>()),
        base * tilt,
    );
    (Pair { a, pose_a, b, pose_b }, base * axis.cast::<f32>())
}

/// Overlapping pairs at every scale: the depth against the exact f64 oracle,
/// the normal achieving it, the witnesses on the surfaces with
/// `point_a - point_b = depth * normal`, and B moved by the depth just
/// separated (all of `check_pair`), in both orders with the same depth. Most
/// random pairs must be answered by the axes, not by EPA.
#[test]
fn overlapping_pairs_get_the_oracles_depth_from_the_separating_axes() {
    let (overlapping, by_axes, failures) =
        sweep_scales(SEED ^ 4, (0.0, 0.9), |signed| signed <= -UNDECIDED_REL);
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
    assert!(overlapping > 500, "only {overlapping} overlapping pairs");
    assert!(by_axes * 10 > overlapping * 9, "axes answered {by_axes} of {overlapping}");
}

/// Boxes turned from each other by 0 to 1e-2 rad (stacked, side by side,
/// crossed), where edge axes are nearly degenerate: the answer, from the
/// axes or from EPA, still meets the oracle.
#[test]
fn nearly_parallel_boxes_get_the_oracles_depth() {
    let mut rng = SplitMix64::new(SEED ^ 5);
    let mut failures = Vec::new();
    for angle in [0.0, 1e-7, 1e-5, 5e-5, 1e-4, 1e-3, 1e-2] {
        for _ in 0..20 {
            // B sunk 1 cm into A.
            let (pair, _) = turned_pair(&mut rng, angle, -0.01);
            if let Err(e) = check_swap(&pair, &Tolerances::METRES) {
                failures.push(format!("angle {angle:e}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}

/// Separated pairs at every scale, from nearly touching to far apart: the
/// distance against the f64 brute-force oracle, the witnesses on the
/// surfaces with `point_b - point_a = distance * normal` (all of
/// `check_pair`), in both orders. Most random pairs, whose nearest
/// features are a vertex over a face or two crossing edges, must be
/// answered by the axes, not by GJK.
#[test]
fn separated_pairs_get_the_oracles_distance_from_the_separating_axes() {
    let (separated, by_axes, failures) =
        sweep_scales(SEED ^ 6, (0.6, 2.0), |signed| signed >= UNDECIDED_REL);
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
    assert!(separated > 500, "only {separated} separated pairs");
    assert!(by_axes * 2 > separated, "axes answered {by_axes} of {separated}");
}

/// Boxes turned from each other by 0 to 1e-2 rad, 1 cm apart along one of
/// A's axes and slid sideways, where the nearest features are parallel
/// faces or edges and edge axes are nearly degenerate: the answer, from the
/// axes or from GJK, meets the oracle, and for faces facing each other the
/// normal is A's face normal to within the tilt.
#[test]
fn nearly_parallel_separated_boxes_get_the_oracles_distance() {
    let mut rng = SplitMix64::new(SEED ^ 7);
    let mut failures = Vec::new();
    for angle in [0.0, 1e-7, 1e-5, 5e-5, 1e-4, 1e-3, 1e-2] {
        for _ in 0..20 {
            let (pair, face) = turned_pair(&mut rng, angle, 0.01);
            if let Err(e) = check_swap(&pair, &Tolerances::METRES) {
                failures.push(format!("angle {angle:e}: {e}"));
            }
            let (a, b) = (&pair.a.shape, &pair.b.shape);
            let normal = match try_contact(a, &pair.pose_a, b, &pair.pose_b) {
                Ok(Contact::Separated { normal, .. }) => normal,
                other => {
                    failures.push(format!("angle {angle:e}: not separated: {other:?}"));
                    continue;
                }
            };
            // B's faces are tilted by `angle`, so the nearest features may be
            // a tilted face's vertex over A's face (normal = A's face normal)
            // or A's vertex over B's face (normal within `angle` of it). The
            // sine, from the cross product: an arccosine of a dot product
            // near 1 turns its f32 rounding into ~1e-3 rad.
            let off = normal.cross(&face).norm();
            if !(normal.dot(&face) > 0.0 && off <= angle + 2e-6) {
                failures.push(format!("angle {angle:e}: normal {off:e} rad off the faces'"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {}", failures.len(), failures[0]);
}
