//! collide's contact manifolds ([`collide::contact_manifold`]) against the
//! exact signed separation of the oracles (an exact separating-axis depth
//! for polytopes, brute-force distance, closed forms for rounded shapes,
//! and for cylinders and cones closed-form support and distance with an
//! f64 search of the best separating direction),
//! for every ordered pair of kinds (the four first kinds, and all nine:
//! sphere, capsule, cuboid, hull, cylinder, cone, triangle, segment,
//! rounded cuboid) at seeded random orientations, placed
//! along a random direction at a random signed separation from 2 % of the
//! smaller shape's size deep to the prediction distance apart (the contacts
//! a solver sees), under random world transforms, with A and B swapped, and
//! for resting and just touching or just missing boxes at scales 1e-3 to
//! 1e3.
//!
//! Deep overlaps are left out on purpose: face clipping measures a point's
//! separation along the contact normal to the reference face's plane, as
//! Jolt does, which for a normal leaning far from the face overstates the
//! depth of points away from the deepest one (a known limit of the method,
//! harmless at the shallow depths a solver keeps).
//!
//! What a manifold must satisfy, each point checked against the oracle
//! shapes (never against collide's own answers):
//!
//! * every point's `point_a` lies on A's surface and `point_b` on B's,
//!   within [`SURFACE_TOLERANCE`];
//! * no point is deeper than the exact depth, and the deepest point
//!   reaches it (within [`DEPTH_TOLERANCE`] and [`REACH_TOLERANCE`]);
//! * the normal is unit and a separating direction as good as the best one
//!   (the gap between the shapes' supports along it is the exact signed
//!   separation within [`NORMAL_TOLERANCE`]), and agrees with
//!   [`collide::contact`]'s normal unless both are equally good;
//! * pairs farther apart than the prediction distance are `Separated`, by
//!   a bound no larger than the exact distance.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{
    Cone, Contact, ContactManifold, ConvexHull, Cuboid, Cylinder, ManifoldOutcome, Rounded,
    Segment, Shape, Triangle,
};
use tests::direction_search::{MIN_STEP, SAMPLES, max_gap_sampled};
use tests::generators::{closed_form_kind, cloud, isometry, place_at_gap, pose_pair, worlds};
use tests::oracle_shape::pose_to_f64;
use tests::polytope::Polytope;
use tests::revolution::{PosedRevolution, Revolution};
use tests::runner::Batch;
use tests::{OracleShape, Pair, Params, SplitMix64, TestShape, expected_separation};

const SEED: u64 = 0x3A41_F01D;

/// Random cases: every ordered pair of the four kinds, 16 times over this.
const CASES: u64 = 3_200;

/// Distance of a manifold point from its shape's surface, as a fraction of
/// the smaller shape's size. A clipped point may lie outside a face by
/// collide's clip tolerance (5e-4 of the smaller shape's width) and a
/// point on a rounded feature lies on a tangent plane of it.
const SURFACE_TOLERANCE: f64 = 2e-3;

/// How much deeper than the exact depth a point may go, as a fraction of
/// the smaller shape's size: f32 rounding of clipping and EPA (about 1e-5)
/// and hull face vertices lying up to the hull's coplanarity tolerance
/// behind their plane.
const DEPTH_TOLERANCE: f64 = 2e-4;

/// The same for two cuboids, whose separating-axis test keeps a face axis
/// unless an edge axis separates by 2.5e-3 of the smaller box's width more
/// (so boxes stack on faces): along that face axis the boxes overlap by up
/// to that much more than the exact depth.
const BOX_PAIR_DEPTH_TOLERANCE: f64 = 3e-3;

/// How much shallower than the exact depth the deepest point may be, as a
/// fraction of the smaller shape's size: box–box prefers a face axis over
/// an edge axis within 2.5e-3 of the smaller box's width (so boxes stack
/// on faces).
const REACH_TOLERANCE: f64 = 3e-3;

/// How much smaller the gap along the manifold's normal may be than the
/// exact signed separation, as a fraction of the smaller shape's size: the
/// same face-over-edge preference, plus EPA's relative accuracy.
const NORMAL_TOLERANCE: f64 = 3e-3;

/// The prediction distance, as a fraction of the smaller shape's size.
const PREDICTION: f64 = 0.05;

/// The deepest overlap placed, as a fraction of the smaller shape's size.
const MAX_DEPTH: f64 = 0.02;

/// The four kinds with parameters: 0 sphere, 1 capsule, 2 cuboid, 3 hull.
fn shape_of_kind(rng: &mut SplitMix64, kind: usize, scale: f64) -> Result<TestShape, String> {
    let params = match kind {
        3 => {
            let n = 4 + rng.below(13);
            Params::Hull { points: cloud(rng, n, 0.1 * scale, 2.0 * scale) }
        }
        k => closed_form_kind(rng, k, scale),
    };
    TestShape::new(params)
}

/// A posed oracle of any kind: a rounded polytope (exact separation by
/// [`expected_separation`]) or a rounded cylinder or cone (closed-form
/// support and distance, separation by [`max_gap`]).
#[derive(Clone, Debug)]
enum Posed {
    Polytope(OracleShape),
    Revolution(PosedRevolution),
}

impl Posed {
    fn support(&self, n: &Vector3<f64>) -> f64 {
        match self {
            Posed::Polytope(o) => o.support(n),
            Posed::Revolution(r) => r.support(n),
        }
    }

    fn signed_distance(&self, p: &Point3<f64>) -> f64 {
        match self {
            Posed::Polytope(o) => o.signed_distance(p),
            Posed::Revolution(r) => r.signed_distance(p),
        }
    }
}

/// The exact signed separation of two posed oracles: the separating-axis
/// and brute-force oracles for two rounded polytopes, else the direction
/// search over the support functions with `samples` directions refined
/// down to `min_step` radians.
fn exact_separation(a: &Posed, b: &Posed, samples: usize, min_step: f64) -> f64 {
    match (a, b) {
        (Posed::Polytope(a), Posed::Polytope(b)) => expected_separation(a, b).signed(),
        _ => max_gap_sampled(&|n| gap_along(a, b, n), samples, min_step).0,
    }
}

/// The gap between the posed oracle shapes along unit `n` (from A to B):
/// B's lowest support minus A's highest. Its largest value over all `n` is
/// the exact signed separation.
fn gap_along(a: &Posed, b: &Posed, n: &Vector3<f64>) -> f64 {
    -b.support(&-n) - a.support(n)
}

/// Checks one pair's manifold against the oracle; returns the manifold.
fn check_manifold(pair: &Pair) -> Result<Option<ContactManifold>, String> {
    let (oa, ob) = (pair.a.oracle.posed(&pair.pose_a), pair.b.oracle.posed(&pair.pose_b));
    let size = pair.a.oracle.size().min(pair.b.oracle.size());
    let exact = expected_separation(&oa, &ob).signed();
    let posed = Posed::Polytope(oa);
    let shapes = [(&pair.a.shape, &pair.pose_a), (&pair.b.shape, &pair.pose_b)];
    check_posed(shapes, [&posed, &Posed::Polytope(ob)], exact, size)
}

/// Checks the manifold of two posed shapes against their posed oracles,
/// the exact signed separation `exact` and the smaller shape's `size`.
fn check_posed(
    [(shape_a, pose_a), (shape_b, pose_b)]: [(&Shape, &Isometry3<f32>); 2],
    [oa, ob]: [&Posed; 2],
    exact: f64,
    size: f64,
) -> Result<Option<ContactManifold>, String> {
    let boxes = matches!((shape_a, shape_b), (Shape::Cuboid(_), Shape::Cuboid(_)));
    let depth_tolerance = if boxes { BOX_PAIR_DEPTH_TOLERANCE } else { DEPTH_TOLERANCE };
    let prediction = (PREDICTION * size) as f32;
    let outcome = collide::try_contact_manifold(shape_a, pose_a, shape_b, pose_b, prediction)
        .map_err(|e| format!("error {e}"))?;
    let m = match outcome {
        ManifoldOutcome::Separated { distance_bound } => {
            let bound = f64::from(distance_bound);
            if !(bound <= exact + DEPTH_TOLERANCE * size) {
                return Err(format!("bound {bound} beyond the exact distance {exact}"));
            }
            if !(exact >= f64::from(prediction) - DEPTH_TOLERANCE * size) {
                return Err(format!("separated, but {exact} is within {prediction}"));
            }
            return Ok(None);
        }
        ManifoldOutcome::Within(m) => m,
    };
    if exact > f64::from(prediction) + DEPTH_TOLERANCE * size {
        return Err(format!("a manifold at {exact}, beyond the prediction {prediction}"));
    }
    let n = m.normal.cast::<f64>();
    if (n.norm() - 1.0).abs() > 1e-4 {
        return Err(format!("normal {n:?} not unit"));
    }
    let gap = gap_along(oa, ob, &n);
    if gap < exact - NORMAL_TOLERANCE * size {
        return Err(format!("gap {gap} along the normal, exact separation {exact}"));
    }
    if let Ok(Contact::Penetrating(p)) = collide::try_contact(shape_a, pose_a, shape_b, pose_b) {
        let theirs = p.normal.into_inner().cast::<f64>();
        let tie = (gap_along(oa, ob, &theirs) - gap).abs() <= NORMAL_TOLERANCE * size;
        if theirs.dot(&n) < 0.999 && !tie {
            return Err(format!("normal {n:?}, contact's {theirs:?}"));
        }
    }
    if m.is_empty() {
        // Every feature found beyond the prediction: only near it.
        if exact < f64::from(prediction) - REACH_TOLERANCE * size {
            return Err(format!("no point, exact separation {exact}"));
        }
        return Ok(Some(m));
    }
    for p in m.points() {
        let (pa, pb) = (p.point_a.cast::<f64>(), p.point_b.cast::<f64>());
        let (da, db) = (oa.signed_distance(&pa), ob.signed_distance(&pb));
        if da.abs() > SURFACE_TOLERANCE * size || db.abs() > SURFACE_TOLERANCE * size {
            return Err(format!("point {p:?} off the surfaces by {da} (A), {db} (B)"));
        }
        let sep = f64::from(p.separation);
        if sep < exact - depth_tolerance * size {
            return Err(format!("point at {sep}, deeper than the exact {exact}"));
        }
        if sep > f64::from(prediction) + DEPTH_TOLERANCE * size {
            return Err(format!("point at {sep}, beyond the prediction {prediction}"));
        }
    }
    let deepest = f64::from(m.min_separation());
    if deepest > exact + REACH_TOLERANCE * size {
        return Err(format!("deepest point at {deepest}, exact separation {exact}"));
    }
    Ok(Some(m))
}

/// The swapped pair's manifold: the same deepest separation, the normal
/// reversed (or an equally good one).
fn check_swapped(pair: &Pair, m: &Option<ContactManifold>) -> Result<(), String> {
    let swapped = check_manifold(&pair.swapped())?;
    let (Some(m), Some(s)) = (m, &swapped) else { return Ok(()) };
    if m.is_empty() || s.is_empty() {
        return Ok(());
    }
    let size = pair.a.oracle.size().min(pair.b.oracle.size());
    let (dm, ds) = (f64::from(m.min_separation()), f64::from(s.min_separation()));
    if (dm - ds).abs() > REACH_TOLERANCE * size {
        return Err(format!("deepest {dm}, swapped {ds}"));
    }
    Ok(())
}

/// Every ordered pair of the four first kinds, shallow contacts placed by
/// the oracle. It found three defects of the face clipping moved from the
/// sandbox, fixed in collide: points measured along the normal to a
/// reference plane that leans from it (deeper than the exact depth), a
/// leaning capsule's end points joined by a chord inside it, and clip
/// crossings and feet off the surface of a leaning face.
#[test]
fn every_pair_of_kinds_against_the_exact_separation() {
    let mut batch = Batch::default();
    let mut points = 0usize;
    let mut separated = 0usize;
    let mut multi = 0usize;
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        let (ka, kb) = ((i % 4) as usize, ((i / 4) % 4) as usize);
        let result = shape_of_kind(&mut rng, ka, 1.0).and_then(|a| {
            let b = shape_of_kind(&mut rng, kb, 1.0)?;
            let size = a.oracle.size().min(b.oracle.size());
            let centred = pose_pair(&mut rng, a, b, 0.0);
            let gap = rng.range(-MAX_DEPTH, PREDICTION) * size;
            let pair = place_at_gap(&centred, &rng.unit_vector(), gap);
            let m = check_manifold(&pair)?;
            check_swapped(&pair, &m)?;
            for w in worlds(&mut rng, 2) {
                check_manifold(&pair.moved(&w))?;
            }
            Ok(m)
        });
        batch.cases += 1;
        match result {
            Ok(Some(m)) => {
                points += m.len();
                multi += usize::from(m.len() > 1);
            }
            Ok(None) => separated += 1,
            Err(e) => batch.failures.push((i, format!("kinds {ka}-{kb}: {e}"))),
        }
    }
    batch.assert_ok("manifolds", SEED);
    // The cases must mostly be within the prediction, with more than one
    // point on average and a good share of multi-point manifolds (random
    // orientations touch mostly at vertices and edges; 7 of the 16 pairs
    // have a sphere, which touches at one point).
    assert!(separated < CASES as usize / 4, "{separated} of {CASES} pairs apart");
    assert!(points > CASES as usize, "only {points} points in {CASES} manifolds");
    assert!(multi > CASES as usize / 10, "only {multi} of {CASES} manifolds with 2+ points");
}

/// Random cases of the all-kinds test: each of the 81 ordered pairs of the
/// nine kinds, 16 times over this.
const ALL_KINDS_CASES: u64 = 81 * 16;

/// The nine kinds.
const KINDS: usize = 9;

/// A shape of every kind collide has (0 sphere, 1 capsule, 2 cuboid, 3 hull,
/// 4 cylinder, 5 cone, 6 triangle, 7 segment, 8 rounded cuboid), sizes
/// log-uniform in 0.1 to 2, with its oracle in its own frame and its size.
fn any_kind(rng: &mut SplitMix64, kind: usize) -> Result<(Shape, Local, f64), String> {
    let shape = match kind {
        0..=3 => {
            let t = shape_of_kind(rng, kind, 1.0)?;
            let size = t.oracle.size();
            return Ok((t.shape, Local::Polytope(t.oracle), size));
        }
        4 | 5 => {
            let (h, r) = (rng.log_range(0.1, 2.0), rng.log_range(0.1, 2.0));
            let solid = if kind == 4 { Revolution::cylinder(h, r) } else { Revolution::cone(h, r) };
            let shape: Shape = if kind == 4 {
                Cylinder::try_new(h as f32, r as f32).map_err(|e| e.to_string())?.into()
            } else {
                Cone::try_new(h as f32, r as f32).map_err(|e| e.to_string())?.into()
            };
            let solid =
                Revolution { half_height: h as f32 as f64, radius: r as f32 as f64, ..solid };
            return Ok((shape, Local::Revolution(solid), solid.size()));
        }
        6 => {
            let mut corner = || {
                let radius = rng.range(0.3, 1.5);
                Point3::from((rng.unit_vector() * radius).cast::<f32>())
            };
            let [a, b, c] = [corner(), corner(), corner()];
            Triangle::try_new(a, b, c).map_err(|e| e.to_string())?.into()
        }
        7 => {
            let a = Point3::from((rng.unit_vector() * rng.range(0.05, 1.0)).cast::<f32>());
            let b = Point3::from((rng.unit_vector() * rng.range(0.05, 1.0)).cast::<f32>());
            Segment::try_new(a, b).map_err(|e| e.to_string())?.into()
        }
        _ => {
            let half = tests::generators::half_extents(rng, 0.07, 1.4);
            let radius = rng.log_range(0.02, 0.3) as f32;
            Rounded::try_new(Cuboid::new(half), radius).map_err(|e| e.to_string())?.into()
        }
    };
    let cast = |p: &Point3<f32>| p.cast::<f64>();
    let oracle = match &shape {
        Shape::Triangle(t) => OracleShape {
            core: Polytope::triangle(cast(&t.a), cast(&t.b), cast(&t.c))
                .ok_or("degenerate triangle")?,
            radius: 0.0,
        },
        Shape::Segment(s) => {
            OracleShape { core: Polytope::segment(cast(&s.a), cast(&s.b)), radius: 0.0 }
        }
        Shape::Rounded(r) => match &r.inner {
            Shape::Cuboid(c) => OracleShape {
                core: Polytope::cuboid(c.half_extents.cast::<f64>()),
                radius: f64::from(r.radius),
            },
            other => return Err(format!("no oracle for rounded {}", other.kind_name())),
        },
        other => return Err(format!("no oracle for {}", other.kind_name())),
    };
    let size = oracle.size();
    Ok((shape, Local::Polytope(oracle), size))
}

/// An oracle in its shape's own frame.
#[derive(Clone, Debug)]
enum Local {
    Polytope(OracleShape),
    Revolution(Revolution),
}

impl Local {
    fn posed(&self, pose: &Isometry3<f32>) -> Posed {
        match self {
            Local::Polytope(o) => Posed::Polytope(o.posed(pose)),
            Local::Revolution(solid) => Posed::Revolution(PosedRevolution {
                solid: *solid,
                pose: pose_to_f64(pose),
                radius: 0.0,
            }),
        }
    }
}

/// Whether the kind has no volume (a triangle or a segment): two of those
/// cannot overlap by more than touching when neither has faces on both
/// sides of the other (two segments), so such a pair is only placed apart.
fn is_segment(kind: usize) -> bool {
    kind == 7
}

/// B moved along unit `dir` (world) so that the signed separation is
/// about `gap`: the secant method on the signed separation, which is
/// convex along the line, from a coarse direction search, to within
/// `tolerance` (the placement need not be exact: the case is checked at
/// the separation where it lands).
fn place_any(
    a: &Local,
    pose_a: &Isometry3<f32>,
    b: &Local,
    pose_b: &Isometry3<f32>,
    dir: &Vector3<f64>,
    gap: f64,
    tolerance: f64,
) -> Isometry3<f32> {
    const PLACEMENT_SAMPLES: usize = 400;
    const PLACEMENT_STEP: f64 = 1e-6;
    const MAX_ITERATIONS: usize = 40;
    let oa = a.posed(pose_a);
    let moved = |t: f64| {
        let mut p = *pose_b;
        p.translation.vector += (dir * t).cast::<f32>();
        p
    };
    let at = |t: f64| {
        exact_separation(&oa, &b.posed(&moved(t)), PLACEMENT_SAMPLES, PLACEMENT_STEP) - gap
    };
    // Bracket the root: the separation grows at most as fast as t, and at
    // least once B is past A.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..MAX_ITERATIONS {
        if at(hi) >= 0.0 {
            break;
        }
        (lo, hi) = (hi, 2.0 * hi);
    }
    let (mut f_lo, mut f_hi) = (at(lo), at(hi));
    for _ in 0..MAX_ITERATIONS {
        // Regula falsi with bisection when it stalls; NaN stops.
        let secant = lo - f_lo * (hi - lo) / (f_hi - f_lo);
        let t = if secant > lo && secant < hi {
            0.5 * (secant + 0.5 * (lo + hi))
        } else {
            0.5 * (lo + hi)
        };
        let f = at(t);
        if !(f.abs() > tolerance) || !(hi - lo > tolerance) {
            return moved(t);
        }
        if f < 0.0 {
            (lo, f_lo) = (t, f);
        } else {
            (hi, f_hi) = (t, f);
        }
    }
    moved(0.5 * (lo + hi))
}

/// Every ordered pair of all nine kinds, as
/// [`every_pair_of_kinds_against_the_exact_separation`] checks the first
/// four: shallow contacts from 2 % of the smaller size deep (pairs of
/// segments only apart) to the prediction distance apart, A and B swapped,
/// under random world transforms.
#[test]
fn every_pair_of_all_kinds_against_the_exact_separation() {
    let mut batch = Batch::default();
    let (mut points, mut multi, mut separated) = (0usize, 0usize, 0usize);
    for i in 0..ALL_KINDS_CASES {
        let mut rng = SplitMix64::for_case(SEED ^ 0xA11, i);
        let (ka, kb) = ((i as usize) % KINDS, (i as usize / KINDS) % KINDS);
        let result = (|| {
            let (shape_a, local_a, size_a) = any_kind(&mut rng, ka)?;
            let (shape_b, local_b, size_b) = any_kind(&mut rng, kb)?;
            let size = size_a.min(size_b);
            let pose_a = isometry(&mut rng, 5.0);
            let pose_b = Isometry3::from_parts(pose_a.translation, rng.rotation());
            let deepest = if is_segment(ka) && is_segment(kb) { 0.0 } else { -MAX_DEPTH };
            let gap = rng.range(deepest, PREDICTION) * size;
            let dir = rng.unit_vector();
            let pose_b = place_any(&local_a, &pose_a, &local_b, &pose_b, &dir, gap, 1e-3 * size);
            let (oa, ob) = (local_a.posed(&pose_a), local_b.posed(&pose_b));
            let exact = exact_separation(&oa, &ob, SAMPLES, MIN_STEP);
            let m =
                check_posed([(&shape_a, &pose_a), (&shape_b, &pose_b)], [&oa, &ob], exact, size)
                    .map_err(|e| format!("{e}\n  A {shape_a:?}\n  B {shape_b:?}"))?;
            check_posed([(&shape_b, &pose_b), (&shape_a, &pose_a)], [&ob, &oa], exact, size)
                .map_err(|e| format!("swapped: {e}"))?;
            for w in worlds(&mut rng, 2) {
                let (wa, wb) = (w * pose_a, w * pose_b);
                let (oa, ob) = (local_a.posed(&wa), local_b.posed(&wb));
                check_posed([(&shape_a, &wa), (&shape_b, &wb)], [&oa, &ob], exact, size)
                    .map_err(|e| format!("moved: {e}"))?;
            }
            Ok::<_, String>(m)
        })();
        batch.cases += 1;
        match result {
            Ok(Some(m)) => {
                points += m.len();
                multi += usize::from(m.len() > 1);
            }
            Ok(None) => separated += 1,
            Err(e) => batch.failures.push((i, format!("kinds {ka}-{kb}: {e}"))),
        }
    }
    batch.assert_ok("manifolds of all kinds", SEED ^ 0xA11);
    let cases = ALL_KINDS_CASES as usize;
    assert!(separated < cases / 4, "{separated} of {cases} pairs apart");
    assert!(points > cases, "only {points} points in {cases} manifolds");
    assert!(multi > cases / 10, "only {multi} of {cases} manifolds with 2+ points");
}

/// The direction search that the all-kinds test uses for curved shapes
/// agrees with the exact oracles on polytope pairs (overlapping and apart),
/// so its answers for cylinders and cones can be trusted at the test's
/// tolerances.
#[test]
fn the_direction_search_agrees_with_the_exact_oracles() {
    let mut rng = SplitMix64::new(SEED ^ 0x5EA);
    let mut worst = 0.0f64;
    for i in 0..200 {
        let (ka, kb) = (i % 4, (i / 4) % 4);
        let a = shape_of_kind(&mut rng, ka, 1.0).unwrap();
        let b = shape_of_kind(&mut rng, kb, 1.0).unwrap();
        let factor = rng.range(0.2, 0.8);
        let pair = pose_pair(&mut rng, a, b, factor);
        let (oa, ob) = pair.oracles();
        let exact = expected_separation(&oa, &ob).signed();
        let (pa, pb) = (Posed::Polytope(oa), Posed::Polytope(ob));
        let found = max_gap_sampled(&|n| gap_along(&pa, &pb, n), SAMPLES, MIN_STEP).0;
        let size = pair.a.oracle.size().min(pair.b.oracle.size());
        let error = (found - exact) / size;
        // A gap along any direction is a lower bound on the separation.
        assert!(error <= 1e-12, "case {i}: search {found} above the exact {exact}");
        worst = worst.max(-error);
    }
    // Under a sixth of the manifold test's depth tolerance (2e-4 of the
    // size): the pattern search leaves about 2e-5 on ridges of the gap.
    assert!(worst < 3e-5, "the search fell {worst} of the size short of the exact separation");
}

/// A cube resting face to face on a box (as a cuboid pair and as a hull
/// pair), sunk by `depth`: four points, each at `-depth`, on the cube's
/// bottom corners, for every scale, world pose and order of the pair.
#[test]
fn resting_boxes_give_four_points_at_the_corners() {
    let mut rng = SplitMix64::new(SEED ^ 0xB0C5);
    let corners = |h: f32| -> Vec<Point3<f32>> {
        let mut v = Vec::new();
        for x in [-h, h] {
            for y in [-h, h] {
                for z in [-h, h] {
                    v.push(Point3::new(x, y, z));
                }
            }
        }
        v
    };
    for scale in [1e-3f32, 1.0, 1e3] {
        let half = 0.5 * scale;
        let ground: Shape = Cuboid::new(Vector3::new(4.0, 0.5, 4.0) * scale).into();
        let cubes: [Shape; 2] = [
            Cuboid::new(Vector3::repeat(half)).into(),
            ConvexHull::new(&corners(half)).unwrap().into(),
        ];
        for cube in &cubes {
            for depth in [0.0f32, 1e-3 * scale, 1e-2 * scale] {
                let twist = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.3);
                let local = Isometry3::from_parts(
                    Translation3::new(0.3 * scale, 0.5 * scale + half - depth, -0.2 * scale),
                    twist,
                );
                for world in std::iter::once(Isometry3::identity()).chain(worlds(&mut rng, 3)) {
                    let world = Isometry3::from_parts(
                        Translation3::from(world.translation.vector * scale),
                        world.rotation,
                    );
                    let (pose_g, pose_c) = (world, world * local);
                    for (a, pa, b, pb, sign) in [
                        (&ground, &pose_g, cube, &pose_c, 1.0f32),
                        (cube, &pose_c, &ground, &pose_g, -1.0),
                    ] {
                        let outcome = collide::contact_manifold(a, pa, b, pb, 0.01 * scale);
                        let ManifoldOutcome::Within(m) = outcome else {
                            panic!("scale {scale}, depth {depth}: {outcome:?}")
                        };
                        assert_eq!(m.len(), 4, "scale {scale}, depth {depth}: {m:?}");
                        let up = world.rotation * Vector3::y() * sign;
                        assert!((m.normal - up).norm() < 1e-4, "normal {:?}", m.normal);
                        for p in m.points() {
                            assert!(
                                (p.separation + depth).abs() < 1e-4 * scale,
                                "separation {} at depth {depth}",
                                p.separation
                            );
                            // The cube's corner: ±half in x and z, -half in
                            // y, in the cube's frame.
                            let on_cube = if sign > 0.0 { p.point_b } else { p.point_a };
                            let c = pose_c.inverse_transform_point(&on_cube) / half;
                            let corner = (c.x.abs() - 1.0).abs().max((c.z.abs() - 1.0).abs());
                            // Within the clip tolerance (5e-4 of the
                            // cube's width, 1e-3 of its half) and rounding.
                            assert!(corner < 1.5e-3 && (c.y + 1.0).abs() < 1e-4, "{c:?}");
                        }
                    }
                }
            }
        }
    }
}

/// Boxes placed just within and just beyond the prediction distance (and
/// just touching): within gives points at the gap, beyond `Separated`.
#[test]
fn just_touching_and_just_missing_boxes() {
    for scale in [1e-3f32, 1.0, 1e3] {
        let a: Shape = Cuboid::new(Vector3::new(1.0, 0.5, 1.0) * scale).into();
        let b: Shape = Cuboid::new(Vector3::repeat(0.25 * scale)).into();
        let prediction = 0.02 * scale;
        for (gap, within) in [
            (0.0, true),
            (0.9 * prediction, true),
            (1.1 * prediction, false),
            (-1e-4 * scale, true),
        ] {
            let pose_b = Isometry3::translation(0.1 * scale, 0.75 * scale + gap, 0.0);
            match collide::contact_manifold(&a, &Isometry3::identity(), &b, &pose_b, prediction) {
                ManifoldOutcome::Within(m) => {
                    assert!(within, "scale {scale}, gap {gap}: {m:?}");
                    assert_eq!(m.len(), 4);
                    for p in m.points() {
                        assert!((p.separation - gap).abs() < 1e-5 * scale, "{p:?} at {gap}");
                    }
                }
                ManifoldOutcome::Separated { distance_bound } => {
                    assert!(!within, "scale {scale}, gap {gap}");
                    assert!((distance_bound - gap).abs() < 1e-5 * scale);
                }
            }
        }
    }
}

/// Bad input is an error from the `try_` form and the documented NaN
/// fallback from the bare form, never "no contact".
#[test]
fn non_finite_input_is_an_error() {
    let a: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
    let nan = Isometry3::translation(f32::NAN, 0.0, 0.0);
    for (pa, pb, prediction) in [
        (Isometry3::identity(), nan, 0.0),
        (nan, Isometry3::identity(), 0.0),
        (Isometry3::identity(), Isometry3::identity(), f32::INFINITY),
    ] {
        assert_eq!(
            collide::try_contact_manifold(&a, &pa, &a, &pb, prediction),
            Err(collide::QueryError::NonFiniteInput)
        );
        match collide::contact_manifold(&a, &pa, &a, &pb, prediction) {
            ManifoldOutcome::Separated { distance_bound } => assert!(distance_bound.is_nan()),
            other => panic!("{other:?}"),
        }
    }
}
