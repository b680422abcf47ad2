//! The distance and closest points of two separated boxes, from their
//! separating axes, each answer certified by a lower bound.
//!
//! Every unit axis bounds the distance from below: projection onto it
//! shortens no segment, so the gap between the boxes' projections is at most
//! their distance. The fifteen axes of the overlap test ([`super::box_box`])
//! name the nearest features: the best face axis of A gives B's nearest
//! point along it (a vertex, or on parallel features the point nearest A's
//! centre) and that point's nearest point on A (by clamping to A); the best
//! face axis of B gives the same the other way round; the best edge axis
//! gives the closest points of the two edges it comes from. Each candidate
//! pair of points lies on the boxes, so its length bounds the distance from
//! above, and the gap along the candidate's own direction bounds it from
//! below. Where the two meet (to GJK's convergence tolerance) the candidate
//! is the answer. The best axis's own candidate is tried first: it meets
//! its bound whenever the nearest features are a vertex over a face or two
//! crossing edges (the axis then attains the distance, and the normal is
//! exactly the face normal or the edges' common perpendicular), and in
//! testing for vertex–edge and vertex–vertex pairs too. This is the
//! separated counterpart of [`super::box_box_depth`], whose witness
//! construction it shares.
//!
//! Where it departs from GJK, which otherwise answers: no iteration, and
//! it answers only what it can certify, returning `None` otherwise (no
//! candidate meets its bound, or an edge axis from nearly parallel edges,
//! too short for f32 to give it a reliable direction, might be the best),
//! so that the caller runs GJK.

use nalgebra::{Isometry3, Matrix3, Point3, Unit, Vector3};

use crate::query::box_box::rows;
use crate::query::box_box_depth::{
    EDGE_DEPTH_ERROR_REL, EDGE_ROUNDING_REL, FEATURE_SLACK_REL, PARALLEL_SINE, supporting_edges,
};
use crate::query::results::Contact;
use crate::query::segment::closest_points_segments;

/// Allowed excess of a candidate's distance over the lower bound along its
/// own normal, relative to the distance: GJK's convergence gap (1e-6, about
/// ten f32 ulps).
const CERTIFICATE_REL: f32 = 1e-6;

/// Rounding floor of that comparison, relative to the magnitude of the
/// terms it sums along the candidate's normal (the offset's, each box's
/// extents' and B's vertex's, see `certified`): the lower bound sums about
/// ten products of extents, offsets and rotation entries, each rounded at
/// ~6e-8 of its own size. Not relative to the pair's size: a 40 km ground
/// slab under a 1 m plate would let a candidate 1 cm too far pass (the
/// slab's extents enter no term along its face normal).
const CERTIFICATE_ROUNDING: f32 = 32.0 * f32::EPSILON;

/// A unit support direction reads as perpendicular to a box axis when its
/// component along it is within this of zero: the components come from a
/// rotation and are rounded absolutely at ~1e-7, whatever the box's size,
/// so this is about 80 ulps of 1. Taking any point of the edge or face then
/// moves the support by at most this times the extent, which the
/// certificate checks.
const PARALLEL_COMPONENT: f32 = 1e-5;

/// A candidate answer: B's nearest point, A's, and the normal between them.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    distance: f32,
    normal: Vector3<f32>,
    point_a: Point3<f32>,
    point_b: Point3<f32>,
}

impl Candidate {
    /// The pair `(on_a, on_b)` with its own direction, or with `axis` when
    /// the two are known to lie on the common perpendicular along it.
    fn new(on_a: Point3<f32>, on_b: Point3<f32>, axis: Option<Vector3<f32>>) -> Option<Self> {
        let gap = on_b - on_a;
        let (distance, normal) = match axis {
            Some(n) => (gap.dot(&n), n),
            None => {
                let d = gap.norm();
                (d, gap / d)
            }
        };
        (distance > 0.0 && distance.is_finite()).then_some(Self {
            distance,
            normal,
            point_a: on_a,
            point_b: on_b,
        })
    }
}

/// The distance, normal (A to B) and closest points of two boxes known to
/// be separated (A's half extents `half_a` at the origin of its frame, B's
/// placed by `pose_b_in_a`), in A's frame, or `None` when the candidates do
/// not give them exactly (see the file header).
pub(crate) fn box_distance(
    half_a: &Vector3<f32>,
    half_b: &Vector3<f32>,
    pose_b_in_a: &Isometry3<f32>,
) -> Option<Contact> {
    // B's axes are the columns of R, in A's frame.
    let r: Matrix3<f32> = pose_b_in_a.rotation.to_rotation_matrix().into_inner();
    let abs_r = r.abs();
    let t = pose_b_in_a.translation.vector;

    // Plain arrays, row-major (`m[i][j]` = A's axis i · B's axis j), so
    // that the unrolled loops index with constants: a vector built by
    // `Vector3::ith` at a loop index is stored in pieces and read back
    // whole, a store-forwarding stall on every axis.
    let (m, am) = (rows(&r), rows(&abs_r));
    let tv = [t.x, t.y, t.z];
    let (a, b) = ([half_a.x, half_a.y, half_a.z], [half_b.x, half_b.y, half_b.z]);
    const NEXT: [usize; 3] = [1, 2, 0];
    const PREV: [usize; 3] = [2, 0, 1];

    // The best face axis of each box: the centres' separation minus A's
    // radius and B's.
    let mut face_a = (f32::NEG_INFINITY, 0);
    for i in 0..3 {
        let rb = b[0] * am[i][0] + b[1] * am[i][1] + b[2] * am[i][2];
        let gap = tv[i].abs() - a[i] - rb;
        if gap > face_a.0 {
            face_a = (gap, i);
        }
    }
    let mut face_b = (f32::NEG_INFINITY, 0);
    for j in 0..3 {
        let ra = a[0] * am[0][j] + a[1] * am[1][j] + a[2] * am[2][j];
        let tj = tv[0] * m[0][j] + tv[1] * m[1][j] + tv[2] * m[2][j];
        let gap = tj.abs() - ra - b[j];
        if gap > face_b.0 {
            face_b = (gap, j);
        }
    }
    // The best edge axis, unnormalised: L = e_i × R_j, whose components in
    // A's frame are −R_{i2 j} at i1 and R_{i1 j} at i2 (with (i, i1, i2)
    // and (j, j1, j2) cyclic), and whose gap over |L| is known to about
    // EDGE_ROUNDING_REL · size / |L| (see `box_box_depth`). Only an edge
    // axis that beats both faces is a candidate.
    let mut edges: Option<(f32, usize, usize)> = None;
    let mut best = face_a.0.max(face_b.0);
    for i in 0..3 {
        let (i1, i2) = (NEXT[i], PREV[i]);
        for j in 0..3 {
            let (j1, j2) = (NEXT[j], PREV[j]);
            let ra = a[i1] * am[i2][j] + a[i2] * am[i1][j];
            let rb = b[j1] * am[i][j2] + b[j2] * am[i][j1];
            let gap = (tv[i2] * m[i1][j] - tv[i1] * m[i2][j]).abs() - ra - rb;
            let length = (m[i1][j] * m[i1][j] + m[i2][j] * m[i2][j]).sqrt();
            if length <= PARALLEL_SINE || gap <= best * length {
                continue;
            }
            // Too ill conditioned to name the edges, yet it might be best.
            if EDGE_ROUNDING_REL > EDGE_DEPTH_ERROR_REL * length {
                return None;
            }
            best = gap / length;
            edges = Some((best, i, j));
        }
    }
    if !(face_a.0.max(face_b.0) > 0.0 || edges.is_some_and(|e| e.0 > 0.0)) {
        // Touching within rounding, or NaN: GJK decides.
        return None;
    }
    // Rounding allowances, each relative to the numbers it compares, never
    // to the pair's size: beside a box 40 km across, 1e-5 of the pair's
    // size is 0.2 m, which let a 1 m plate's every axis read as parallel to
    // the slab's face and moved its nearest point 1.3 cm up. A point of
    // one box taken into the other's frame is rounded at about its
    // coordinates' size (the offset plus its own box's extent); a support
    // direction's components are rounded absolutely, so an axis reads as
    // parallel when its component is within the slack of zero, whatever
    // the box's size.
    let over_slack_a = FEATURE_SLACK_REL * (t.amax() + half_b.max());
    let over_slack_b = FEATURE_SLACK_REL * (t.amax() + half_a.max());
    // +1 or -1, with +1 for zero, so that a normal always exists.
    let sign = |x: f32| if x < 0.0 { -1.0 } else { 1.0 };
    let clamp = |p: Vector3<f32>, half: &Vector3<f32>| {
        Vector3::new(
            p.x.clamp(-half.x, half.x),
            p.y.clamp(-half.y, half.y),
            p.z.clamp(-half.z, half.z),
        )
    };
    let over_face = |p: &Vector3<f32>, half: &Vector3<f32>, face: usize, slack: f32| {
        (0..3).all(|k| k == face || p[k].abs() <= half[k] + slack)
    };

    // A box's nearest point along `dir` (its frame) to `towards`: a vertex,
    // except along the box's axes that `dir` is perpendicular to (within
    // the slack), where the nearest feature is an edge or face and any
    // point of it is as near: there the point nearest `towards` is taken,
    // so that parallel faces meet over each other.
    let nearest = |dir: Vector3<f32>, half: &Vector3<f32>, towards: Vector3<f32>| {
        Vector3::from_fn(|k, _| {
            if dir[k].abs() <= PARALLEL_COMPONENT {
                towards[k].clamp(-half[k], half[k])
            } else {
                sign(dir[k]) * half[k]
            }
        })
    };

    // Across A's best face: B's nearest point along -n and its nearest
    // point on A, on the face if B's point lies over it.
    let candidate_a = || {
        let i = face_a.1;
        let n = Vector3::ith(i, sign(t[i]));
        let vertex = t + r * nearest(-r.tr_mul(&n), half_b, -r.tr_mul(&t));
        if over_face(&vertex, half_a, i, over_slack_a) {
            let mut on_a = vertex;
            on_a[i] = n[i] * half_a[i];
            Candidate::new(on_a.into(), vertex.into(), Some(n))
        } else {
            Candidate::new(clamp(vertex, half_a).into(), vertex.into(), None)
        }
    };
    // Across B's best face, the same in B's frame.
    let candidate_b = || {
        let j = face_b.1;
        let side = sign(t.dot(&r.column(j)));
        let n = r.column(j) * side;
        let vertex = nearest(n, half_a, t);
        let in_b = r.tr_mul(&(vertex - t));
        if over_face(&in_b, half_b, j, over_slack_b) {
            let mut on_b = in_b;
            on_b[j] = -side * half_b[j];
            Candidate::new(vertex.into(), (t + r * on_b).into(), Some(n))
        } else {
            Candidate::new(vertex.into(), (t + r * clamp(in_b, half_b)).into(), None)
        }
    };
    // Between the edges of the best edge axis: A's edge along e_i through
    // its support along n, B's along R_j through its support along -n.
    let candidate_e = || {
        let (_, i, j) = edges?;
        let (n, centre_a, centre_b) = supporting_edges(i, j, &r, &t, half_a, half_b);
        let (ea, eb) = (Vector3::ith(i, half_a[i]), r.column(j) * half_b[j]);
        let closest = closest_points_segments(
            [(centre_a - ea).into(), (centre_a + ea).into()],
            [(centre_b - eb).into(), (centre_b + eb).into()],
        );
        let axis = closest.interior().then_some(n);
        Candidate::new(closest.on_first, closest.on_second, axis)
    };

    // The certificate: along a candidate's own normal the boxes are at
    // least `lower` apart, so the distance lies between `lower` and the
    // candidate's, and these must meet.
    let certified = |c: &Candidate| {
        let u = c.normal;
        let (ua, ub) = (u.abs(), r.tr_mul(&u).abs());
        let lower = t.dot(&u) - half_a.dot(&ua) - half_b.dot(&ub);
        // The magnitude of the terms along u: the offset's, both boxes'
        // supports, and B's vertex, whose coordinates the candidate's
        // points carry.
        let terms = t.abs().dot(&ua) + half_a.dot(&ua) + half_b.dot(&ub) + half_b.max() * ua.sum();
        c.distance - lower <= CERTIFICATE_REL * c.distance + CERTIFICATE_ROUNDING * terms
    };
    // The best axis's own candidate first: it is exact whenever that axis
    // attains the distance (a vertex over a face, crossing edges), which is
    // most poses. Otherwise the nearest candidate of the three.
    let first = match edges {
        Some(_) => candidate_e(),
        None if face_a.0 >= face_b.0 => candidate_a(),
        None => candidate_b(),
    };
    let best = match first {
        Some(c) if certified(&c) => c,
        _ => [candidate_e(), candidate_a(), candidate_b()]
            .into_iter()
            .flatten()
            .filter(certified)
            .min_by(|x, y| x.distance.total_cmp(&y.distance))?,
    };
    let normal = Unit::try_new(best.normal, 0.0)?;
    Some(Contact::Separated {
        distance: best.distance,
        normal,
        point_a: best.point_a,
        point_b: best.point_b,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion};

    type V64 = Vector3<f64>;

    /// A box's corners and edges in A's frame, in f64.
    fn corners(half: &Vector3<f32>, pose: &Isometry3<f32>) -> [V64; 8] {
        let m = pose.to_homogeneous().cast::<f64>();
        std::array::from_fn(|k| {
            let s = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
            let local = V64::new(s(0) * half.x as f64, s(1) * half.y as f64, s(2) * half.z as f64);
            (m * local.push(1.0)).xyz()
        })
    }

    /// The twelve edges of a box, as corner index pairs (differing in one bit).
    fn edges() -> impl Iterator<Item = (usize, usize)> {
        (0..8).flat_map(|k| (0..3).map(move |bit| (k, k | 1 << bit))).filter(|(a, b)| a != b)
    }

    /// Closest distance between segments, by dense ternary search in f64 on
    /// the convex function of two parameters (nested): a brute-force oracle
    /// sharing nothing with the code under test.
    fn segment_distance(p: V64, q: V64, a: V64, b: V64) -> f64 {
        let along = |s: f64| {
            let x = p + (q - p) * s;
            // Distance from x to segment ab, exactly.
            let ab = b - a;
            let u = ((x - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
            (x - (a + ab * u)).norm()
        };
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if along(m1) <= along(m2) { hi = m2 } else { lo = m1 }
        }
        along(0.5 * (lo + hi))
    }

    /// The distance from a point to a box at the origin of its frame.
    fn point_box(x: V64, half: &Vector3<f32>) -> f64 {
        let h = half.cast::<f64>();
        (0..3).map(|k| (x[k].abs() - h[k]).max(0.0).powi(2)).sum::<f64>().sqrt()
    }

    /// The exact distance of two disjoint boxes: the closest pair of two
    /// convex polytopes has a vertex of one or a point on an edge of each.
    fn oracle(half_a: &Vector3<f32>, half_b: &Vector3<f32>, pose: &Isometry3<f32>) -> f64 {
        let (ca, cb) = (corners(half_a, &Isometry3::identity()), corners(half_b, pose));
        let inv = pose.inverse().to_homogeneous().cast::<f64>();
        let mut best = f64::INFINITY;
        for v in cb {
            best = best.min(point_box(v, half_a));
        }
        for v in ca {
            best = best.min(point_box((inv * v.push(1.0)).xyz(), half_b));
        }
        for (i, j) in edges() {
            for (k, l) in edges() {
                best = best.min(segment_distance(ca[i], ca[j], cb[k], cb[l]));
            }
        }
        best
    }

    /// Random separated pairs: every answer the closed form gives has the
    /// oracle's distance, witnesses on the boxes that far apart, and the
    /// normal between them; and it answers nearly every pair (a candidate
    /// built wrongly fails its certificate and would send pairs to GJK).
    #[test]
    fn the_closed_form_answers_nearly_every_pair_with_the_oracles_distance() {
        let mut next = crate::test_stream::stream(0x5EED_B0C5);
        let (mut separated, mut answered) = (0, 0);
        for k in 0..1200 {
            let corner = k % 2 == 1;
            let half = |n: &mut dyn FnMut() -> f32| {
                Vector3::new(n().abs() * 1.9 + 0.1, n().abs() * 1.9 + 0.1, n().abs() * 1.9 + 0.1)
            };
            let (half_a, half_b) = (half(&mut next), half(&mut next));
            // Half the pairs off A's corners and edges, where the nearest
            // features are vertices and edges, not faces.
            let mut dir = Vector3::new(next(), next(), next());
            if corner {
                dir = dir.map(|x| x.signum() * (0.6 + 0.4 * x.abs()));
            }
            let dir = dir.normalize();
            let reach = half_a.norm() + half_b.norm();
            let t = dir * reach * (0.5 + next().abs());
            let q = UnitQuaternion::from_scaled_axis(Vector3::new(next(), next(), next()) * 3.0);
            let pose = Isometry3::from_parts(Translation3::from(t), q);
            let truth = oracle(&half_a, &half_b, &pose);
            let size = f64::from(reach);
            if truth < 1e-4 * size {
                continue;
            }
            separated += 1;
            let Some(Contact::Separated { distance, normal, point_a, point_b }) =
                box_distance(&half_a, &half_b, &pose)
            else {
                continue;
            };
            answered += 1;
            let tol = 1e-5 * size;
            assert!((f64::from(distance) - truth).abs() <= tol, "{distance} vs {truth}: {pose:?}");
            assert!(point_box(point_a.coords.cast(), &half_a) <= tol, "A's point off A");
            let b_local = (pose.inverse() * point_b).coords.cast();
            assert!(point_box(b_local, &half_b) <= tol, "B's point off B");
            let gap = (point_b - point_a).cast::<f64>();
            assert!((gap.norm() - truth).abs() <= tol, "witnesses {} apart", gap.norm());
            let normal = normal.into_inner().cast::<f64>();
            assert!((gap - normal * gap.norm()).norm() <= tol, "normal off");
        }
        assert!(separated > 800, "only {separated} separated pairs");
        assert!(answered * 100 >= separated * 95, "answered {answered} of {separated}");
    }

    /// Two cubes face to face, slid sideways, 1 cm apart: the normal is
    /// exactly the face normal, with no lateral drift however far apart.
    #[test]
    fn facing_faces_give_the_face_normal_exactly() {
        let half = Vector3::new(0.5, 0.5, 0.5);
        for gap in [1e-2f32, 1.0, 1e4] {
            let pose = Isometry3::translation(1.0 + gap, 0.3, -0.2);
            let Some(Contact::Separated { distance, normal, .. }) =
                box_distance(&half, &half, &pose)
            else {
                panic!("no answer at gap {gap}");
            };
            assert_eq!(normal.into_inner(), Vector3::x(), "gap {gap}");
            assert!((distance - gap).abs() <= 1e-6 * (1.0 + gap), "{distance} vs {gap}");
        }
    }
}
