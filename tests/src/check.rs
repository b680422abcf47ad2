//! Checks collide's three queries on one pair against the oracle, within the
//! accuracy bounds of the issue.
//!
//! Bounds (issue): depth within 1e-3 m + 0.1 % of the exact depth; distance
//! within 1e-4 m + 0.1 %; witness points within 2e-3 m of their shape's
//! surface. The absolute parts are multiplied by [`Tolerances::length`], so a
//! scale sweep can ask for results that scale linearly with the shapes.
//!
//! Near contact the classification may legitimately go either way: a pair
//! whose exact distance is below the distance bound may be reported as
//! intersecting (depth ~0), and one whose exact depth is below the depth bound
//! may be reported as separated (distance ~0). Outside that band the
//! classification must match, and in both cases the reported numbers must be
//! within the bounds.

use core::fmt::Write as _;

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Contact, GjkCache, Penetration, Proximity};

use crate::separation::{Expected, expected_separation, overlap_along};
use crate::test_shape::Pair;

/// Absolute part of the depth bound, metres at unit length scale.
pub const DEPTH_ABS: f64 = 1e-3;
/// Relative part of the depth bound (0.1 %).
pub const DEPTH_REL: f64 = 1e-3;
/// Absolute part of the distance bound, metres at unit length scale.
pub const DISTANCE_ABS: f64 = 1e-4;
/// Relative part of the distance bound (0.1 %).
pub const DISTANCE_REL: f64 = 1e-3;
/// How far a witness point may be from its shape's surface, metres at unit
/// length scale.
pub const WITNESS_ABS: f64 = 2e-3;

/// Below this signed separation, relative to the largest coordinate of the
/// pair, the queries may classify a pair differently from each other: f32
/// carries ~6e-8 relative precision and composing the two poses loses a few
/// ulps more, so 1e-6 (~16 ulps) is the resolution of "touching".
pub const CONSISTENCY_BAND_REL: f64 = 1e-6;

/// The accuracy bounds at a given length scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// Multiplies every absolute bound: 1 for shapes measured in metres,
    /// `s` for a pair scaled by `s` (so errors must scale linearly too).
    pub length: f64,
}

impl Tolerances {
    /// The bounds, in metres.
    pub const METRES: Self = Self { length: 1.0 };

    /// Allowed depth error for an exact depth.
    pub fn depth(&self, exact: f64) -> f64 {
        DEPTH_ABS * self.length + DEPTH_REL * exact.abs()
    }

    /// Allowed distance error for an exact distance.
    pub fn distance(&self, exact: f64) -> f64 {
        DISTANCE_ABS * self.length + DISTANCE_REL * exact.abs()
    }

    /// Allowed distance of a witness point from its surface.
    pub fn witness(&self) -> f64 {
        WITNESS_ABS * self.length
    }
}

/// What one checked pair measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// The oracle's answer.
    pub expected: Expected,
    /// `|collide depth − exact depth|`, when both say "overlapping".
    pub depth_error: Option<f64>,
    /// `|collide distance − exact distance|`, when both say "separated".
    pub distance_error: Option<f64>,
    /// Largest distance of a reported witness point from its own shape's
    /// surface (penetration or closest points, whichever was reported).
    pub witness_error: Option<f64>,
    /// `|point_a − point_b − depth·normal|` of a reported penetration.
    pub witness_gap: Option<f64>,
    /// collide's penetration, if any.
    pub penetration: Option<Penetration>,
    /// collide's proximity.
    pub proximity: Proximity,
}

/// Runs `intersects`, `closest_points`, `penetration` and `contact` (and the
/// `try_` twins) on `pair` and checks them against the oracle. `Err` carries a
/// self-contained description of every violated bound, with the pair.
pub fn check_pair(pair: &Pair, tol: &Tolerances) -> Result<Measured, String> {
    let (measured, problems) = evaluate_pair(pair, tol);
    if problems.is_empty() { Ok(measured) } else { Err(problems) }
}

/// Like [`check_pair`], but always returns the measurements, together with
/// the failure description (empty when every check passed).
pub fn evaluate_pair(pair: &Pair, tol: &Tolerances) -> (Measured, String) {
    let (oa, ob) = pair.oracles();
    let expected = expected_separation(&oa, &ob);
    let (a, pa, b, pb) = (&pair.a.shape, &pair.pose_a, &pair.b.shape, &pair.pose_b);
    let hit = collide::intersects(a, pa, b, pb);
    let proximity = collide::closest_points(a, pa, b, pb);
    let penetration = collide::penetration(a, pa, b, pb);

    let mut problems = String::new();
    let mut fail = |msg: String| {
        let _ = writeln!(problems, "  - {msg}");
    };

    if collide::try_intersects(a, pa, b, pb) != Ok(hit) {
        fail("try_intersects disagrees with intersects".into());
    }
    if collide::try_closest_points(a, pa, b, pb) != Ok(proximity) {
        fail("try_closest_points disagrees with closest_points".into());
    }
    if collide::try_penetration(a, pa, b, pb) != Ok(penetration) {
        fail("try_penetration disagrees with penetration".into());
    }
    // The three queries must classify the pair alike, except when the exact
    // signed separation is below what f32 coordinates can resolve.
    let coordinates = pa.translation.vector.norm().max(pb.translation.vector.norm());
    let resolvable =
        expected.signed().abs() > CONSISTENCY_BAND_REL * (f64::from(coordinates) + tol.length);
    if resolvable && hit != matches!(proximity, Proximity::Intersecting) {
        fail(format!("intersects = {hit} but closest_points = {proximity:?}"));
    }
    if resolvable && hit != penetration.is_some() {
        fail(format!("intersects = {hit} but penetration = {penetration:?}"));
    }

    let mut depth_error = None;
    let mut distance_error = None;
    match expected {
        Expected::Overlapping { depth, .. } => {
            let band = tol.depth(depth);
            if depth > band && !hit {
                fail(format!("exact depth {depth:e} > bound {band:e} but intersects = false"));
            }
            if let Proximity::Separated { distance, .. } = proximity
                && f64::from(distance) + depth > band
            {
                fail(format!("exact depth {depth:e} but reported distance {distance:e}"));
            }
            if let Some(p) = penetration {
                let err = (f64::from(p.depth) - depth).abs();
                depth_error = Some(err);
                if !(err <= band) {
                    fail(format!(
                        "depth {:e} vs exact {depth:e}: error {err:e} > {band:e}",
                        p.depth
                    ));
                }
                check_penetration(pair, &p, depth, tol, &mut fail);
            }
        }
        Expected::Separated { distance, .. } => {
            let band = tol.distance(distance);
            if distance > band && (hit || penetration.is_some()) {
                fail(format!("exact distance {distance:e} > bound {band:e} but reported overlap"));
            }
            if let Some(p) = penetration
                && f64::from(p.depth) + distance > tol.depth(0.0)
            {
                fail(format!("exact distance {distance:e} but reported depth {:e}", p.depth));
            }
            if let Proximity::Separated { distance: got, point_a, point_b } = proximity {
                let err = (f64::from(got) - distance).abs();
                distance_error = Some(err);
                if !(err <= band) {
                    fail(format!(
                        "distance {got:e} vs exact {distance:e}: error {err:e} > {band:e}"
                    ));
                }
                check_witnesses(pair, &point_a, &point_b, tol, &mut fail);
                let gap = (point_a - point_b).norm();
                if !((f64::from(gap) - f64::from(got)).abs() <= tol.distance(distance)) {
                    fail(format!("|point_a - point_b| = {gap:e} but distance = {got:e}"));
                }
            }
        }
    }

    check_contact(pair, &expected, tol, &mut fail);

    let surface = |p: &Point3<f32>, q: &Point3<f32>| {
        oa.signed_distance(&p.cast()).abs().max(ob.signed_distance(&q.cast()).abs())
    };
    let witness_error = match (penetration, proximity) {
        (Some(p), _) => Some(surface(&p.point_a, &p.point_b)),
        (None, Proximity::Separated { point_a, point_b, .. }) => Some(surface(&point_a, &point_b)),
        (None, Proximity::Intersecting) => None,
    };
    let witness_gap = penetration
        .map(|p| f64::from(((p.point_a - p.point_b) - p.normal.into_inner() * p.depth).norm()));
    let measured = Measured {
        expected,
        depth_error,
        distance_error,
        witness_error,
        witness_gap,
        penetration,
        proximity,
    };
    if problems.is_empty() {
        (measured, problems)
    } else {
        let report = format!(
            "{pair}\n  expected {expected:?}\n  got intersects={hit}, closest_points={proximity:?}, \
             penetration={penetration:?}\n{problems}"
        );
        (measured, report)
    }
}

/// The checks specific to a reported penetration: the normal really achieves
/// the depth, the witnesses are on the surfaces and `point_a − point_b =
/// depth·normal`, and moving B by the depth along the normal separates.
fn check_penetration(
    pair: &Pair,
    p: &Penetration,
    exact: f64,
    tol: &Tolerances,
    fail: &mut impl FnMut(String),
) {
    let (oa, ob) = pair.oracles();
    let n = p.normal.into_inner();
    if !(n.iter().all(|c| c.is_finite()) && (n.norm() - 1.0).abs() <= 1e-4) {
        fail(format!("normal {n:?} is not a finite unit vector"));
        return;
    }
    let band = tol.depth(exact);
    // h_D(n) is the distance B must move along n; for a correct normal it is
    // the penetration depth itself (any other direction gives more).
    let along = overlap_along(&oa, &ob, &n.cast::<f64>());
    if !((along - exact).abs() <= band) {
        fail(format!(
            "overlap along the reported normal is {along:e}, exact depth {exact:e} (bound {band:e})"
        ));
    }
    check_witnesses(pair, &p.point_a, &p.point_b, tol, fail);
    let diff = (p.point_a - p.point_b) - n * p.depth;
    if !(f64::from(diff.norm()) <= band) {
        fail(format!("point_a - point_b differs from depth*normal by {:e}", diff.norm()));
    }
    // Twice the depth bound: the reported depth may itself be off by one bound,
    // so this leaves at least one bound of clearance on each side.
    let eps = 2.0 * band;
    let (a, pa, b) = (&pair.a.shape, &pair.pose_a, &pair.b.shape);
    let moved = |dist: f64| {
        let mut pose = pair.pose_b;
        pose.translation.vector += n * dist as f32;
        pose
    };
    let out = moved(f64::from(p.depth) + eps);
    if collide::intersects(a, pa, b, &out) {
        fail(format!("still intersecting after moving B by depth + {eps:e} along the normal"));
    }
    let inside = f64::from(p.depth) - eps;
    if inside > 0.0 && !collide::intersects(a, pa, b, &moved(inside)) {
        fail(format!("separated after moving B by only depth - {eps:e} along the normal"));
    }
}

/// Both witness points must lie on their own shape's surface.
fn check_witnesses(
    pair: &Pair,
    point_a: &Point3<f32>,
    point_b: &Point3<f32>,
    tol: &Tolerances,
    fail: &mut impl FnMut(String),
) {
    let (oa, ob) = pair.oracles();
    let sa = oa.signed_distance(&point_a.cast::<f64>());
    let sb = ob.signed_distance(&point_b.cast::<f64>());
    if !(sa.abs() <= tol.witness()) {
        fail(format!("point_a {point_a:?} is {sa:e} from A's surface"));
    }
    if !(sb.abs() <= tol.witness()) {
        fail(format!("point_b {point_b:?} is {sb:e} from B's surface"));
    }
}

/// Checks the swap symmetry: B–A must report the same depth or distance as
/// A–B, and, where the oracle says the normal is unique, the opposite normal.
pub fn check_swap(pair: &Pair, tol: &Tolerances) -> Result<(), String> {
    let ab = check_pair(pair, tol)?;
    let ba = check_pair(&pair.swapped(), tol)?;
    let mut problems = String::new();
    match (ab.penetration, ba.penetration) {
        (Some(p), Some(q)) => {
            let exact = -ab.expected.signed();
            if !(f64::from((p.depth - q.depth).abs()) <= tol.depth(exact)) {
                let _ = writeln!(problems, "  - depth A-B {:e} vs B-A {:e}", p.depth, q.depth);
            }
            if let Expected::Overlapping { depth, runner_up, .. } = ab.expected {
                // Unique when every other direction needs clearly more.
                let unique = runner_up - depth > 10.0 * tol.depth(depth);
                let dot = p.normal.dot(&q.normal);
                if unique && !(dot <= -SWAP_NORMAL_COS) {
                    let _ = writeln!(
                        problems,
                        "  - normals A-B {:?}, B-A {:?} not opposite",
                        p.normal, q.normal
                    );
                }
            }
        }
        (None, None) => {}
        _ => {
            // Only allowed inside the ambiguous band, which check_pair accepted.
            if !(ab.expected.signed().abs() <= tol.depth(0.0)) {
                let _ = writeln!(problems, "  - A-B and B-A classify differently");
            }
        }
    }
    if let (Proximity::Separated { distance: d1, .. }, Proximity::Separated { distance: d2, .. }) =
        (ab.proximity, ba.proximity)
        && !(f64::from((d1 - d2).abs()) <= tol.distance(ab.expected.signed()))
    {
        let _ = writeln!(problems, "  - distance A-B {d1:e} vs B-A {d2:e}");
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("swap check failed\n{pair}\n{problems}")) }
}

/// How close to exactly opposite the A–B and B–A normals must be when the
/// oracle says the normal is unique: cos of ~0.8 degrees.
pub const SWAP_NORMAL_COS: f32 = 0.9999;

/// `check_pair` under the identity and under each of `worlds` applied to
/// both poses. The first error, if any, says which world failed.
pub fn check_everywhere(
    pair: &Pair,
    worlds: &[Isometry3<f32>],
    tol: &Tolerances,
) -> Result<Vec<Measured>, String> {
    let mut out = Vec::with_capacity(worlds.len() + 1);
    out.push(check_pair(pair, tol)?);
    for (i, w) in worlds.iter().enumerate() {
        out.push(check_pair(&pair.moved(w), tol).map_err(|e| format!("under world #{i}:\n{e}"))?);
    }
    Ok(out)
}

/// `contact` (the sandbox's one-call query) must agree with the oracle like
/// `closest_points` and `penetration` do: from a cold cache, warm-started by
/// its own previous answer on the same pair, and warm-started from a nearby
/// earlier pose.
fn check_contact(
    pair: &Pair,
    expected: &Expected,
    tol: &Tolerances,
    fail: &mut impl FnMut(String),
) {
    let (a, pa, b, pb) = (&pair.a.shape, &pair.pose_a, &pair.b.shape, &pair.pose_b);
    let mut cache = GjkCache::default();
    // A third run warm-starts from the pair a frame earlier: B 1 cm (at unit
    // length scale) away along a fixed direction, as in a simulation.
    let mut nearby_cache = GjkCache::default();
    let mut earlier = *pb;
    earlier.translation.vector += Vector3::new(0.006, -0.008, 0.0) * tol.length as f32;
    let _ = collide::try_contact_cached(a, pa, b, &earlier, &mut nearby_cache);
    for start in ["cold", "warm", "warm from a nearby pose"] {
        let cache = if start == "warm from a nearby pose" { &mut nearby_cache } else { &mut cache };
        let got = match collide::try_contact_cached(a, pa, b, pb, cache) {
            Ok(c) => c,
            Err(e) => {
                fail(format!("contact ({start}) returned {e}"));
                return;
            }
        };
        match (got, *expected) {
            (
                Contact::Separated { distance, normal, point_a, point_b },
                Expected::Separated { distance: exact, .. },
            ) => {
                let err = (f64::from(distance) - exact).abs();
                if !(err <= tol.distance(exact)) {
                    fail(format!("contact ({start}) distance {distance:e} vs exact {exact:e}"));
                }
                let along = (point_b - point_a).dot(&normal);
                if !((f64::from(along) - f64::from(distance)).abs() <= tol.distance(exact)) {
                    fail(format!("contact ({start}) normal does not join the closest points"));
                }
                check_witnesses(pair, &point_a, &point_b, tol, fail);
            }
            (Contact::Penetrating(p), Expected::Overlapping { depth: exact, .. }) => {
                if !((f64::from(p.depth) - exact).abs() <= tol.depth(exact)) {
                    fail(format!("contact ({start}) depth {:e} vs exact {exact:e}", p.depth));
                }
                let (oa, ob) = pair.oracles();
                let along = overlap_along(&oa, &ob, &p.normal.into_inner().cast::<f64>());
                if !((along - exact).abs() <= tol.depth(exact)) {
                    fail(format!(
                        "contact ({start}) overlap along its normal {along:e} vs {exact:e}"
                    ));
                }
                check_witnesses(pair, &p.point_a, &p.point_b, tol, fail);
            }
            (Contact::Separated { distance, .. }, Expected::Overlapping { depth, .. }) => {
                if f64::from(distance) + depth > tol.depth(depth) {
                    fail(format!(
                        "contact ({start}) separated by {distance:e}, exact depth {depth:e}"
                    ));
                }
            }
            (Contact::Penetrating(p), Expected::Separated { distance, .. }) => {
                if f64::from(p.depth) + distance > tol.depth(0.0) {
                    fail(format!(
                        "contact ({start}) depth {:e}, exact distance {distance:e}",
                        p.depth
                    ));
                }
            }
        }
    }
}
