//! Contact manifolds for every pair without a closed form: the collision
//! query's normal plus face clipping.
//!
//! Follows Jolt's `ManifoldBetweenTwoFaces`: take the normal and witness
//! points from the collision query (GJK closest points when separated, EPA
//! when overlapping), find each shape's supporting feature along the normal
//! ([`super::supporting_feature`]), clip the incident feature against the
//! side planes of the reference feature and measure each clipped point's
//! separation to the reference plane along the normal. Departures:
//!
//! * The side planes of a reference face contain the contact normal (the
//!   face's prism along the normal), not the face's own normal. A clipped
//!   point `p` lies on the incident feature, on its shape's surface; the
//!   line through it along the normal then meets the reference face inside
//!   the face, where it leaves the reference shape. So `p` and that foot are
//!   the two surfaces' extreme points on one line along the normal, and
//!   their distance along it is never less than the shapes' separation
//!   along the normal: no point is reported deeper than the exact depth,
//!   however far the face leans from the normal. (Jolt's prism along the
//!   face normal keeps points whose line along the contact normal leaves
//!   the face, where the face's plane lies outside the shape, and overstates
//!   their depth.)
//! * The feature with more vertices is the reference (so a capsule lying on
//!   a face clips to two points).
//! * A clip that leaves nothing, or only points shallower than the query's
//!   depth, gets the query's witness point as well instead of dropping the
//!   contact.
use arrayvec::ArrayVec;
use nalgebra::{Isometry3, Point3, Vector3};

use super::contact_manifold::{ContactManifold, ManifoldOutcome};
use super::feature_scale::{
    CLIP_FRACTION, EDGE_FEATURE_GAP_FRACTION, MIN_NORMAL_DISTANCE_FRACTION, MISSED_DEPTH_FRACTION,
    shape_scale,
};
use super::polygon_clip::{MAX_POLYGON_VERTICES, Polygon, clip_on_plane};
use super::reduce::{Candidate, reduce};
use super::supporting_feature::supporting_feature;
use crate::error::QueryError;
use crate::query::{Contact, GjkCache, penetration, try_contact_cached};
use crate::shape::Shape;

/// A reference face whose normal makes a cosine below this with the contact
/// normal is too oblique to measure separation through; the contact normal
/// is used directly.
const MIN_FACE_COSINE: f32 = 0.1;

/// Two edges whose directions make a cosine above this (within about
/// 2.5°) lie side by side and touch along their overlap; others cross.
const PARALLEL_EDGE_COSINE: f32 = 0.999;

/// Any pair, through collide's queries and face clipping: the manifold, or
/// the distance when the shapes are farther apart than `speculative`.
/// `cache` warm-starts GJK.
pub(crate) fn collide_convex(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    cache: &mut GjkCache,
) -> Result<ManifoldOutcome, QueryError> {
    let scale = shape_scale(a).min(shape_scale(b));
    // One GJK run answers both cases: EPA continues from its simplex when
    // the cores overlap.
    let (n, separation, point_a, point_b) = match contact_of_shapes(a, pose_a, b, pose_b, cache)? {
        Contact::Separated { distance, normal, point_a, point_b } => {
            if !(distance <= speculative) {
                return Ok(ManifoldOutcome::Separated { distance_bound: distance });
            }
            let gjk = (normal.into_inner(), distance, point_a, point_b);
            if distance > MIN_NORMAL_DISTANCE_FRACTION * scale {
                gjk
            } else {
                // Touching: EPA's normal where it finds an overlap, else
                // GJK's own. A capsule resting 8 µm above the ground is
                // apart for EPA, and dropping its contact let it fall
                // 5.5 cm into the ground in one step.
                penetration(a, pose_a, b, pose_b)
                    .map_or(gjk, |p| (p.normal.into_inner(), -p.depth, p.point_a, p.point_b))
            }
        }
        Contact::Penetrating(p) => (p.normal.into_inner(), -p.depth, p.point_a, p.point_b),
    };
    // Finite input gives a finite normal; anything else is reported, never
    // turned into "no contact".
    if !n.iter().all(|x| x.is_finite()) {
        return Err(QueryError::NonFiniteInput);
    }
    let witness = Some([point_a, point_b]);
    Ok(ManifoldOutcome::Within(manifold_along(
        a,
        pose_a,
        b,
        pose_b,
        &n,
        separation,
        witness,
        speculative,
        scale,
        None,
    )))
}

/// The manifold of `a` and `b` along the unit normal `n` (from A to B),
/// given the pair's separation along it (negative when overlapping) and
/// the witness points on A and B of that separation: the shapes'
/// supporting features along `n` clipped against each other, each point's
/// separation measured along `n` and bounded below by `separation`, points
/// beyond `speculative` dropped, reduced to four. A clip missing the depth
/// gets the witness (see the module docs), or nothing when `witness` is
/// `None` (a caller whose witness lies outside the part it asks about).
/// `scale` is the pair's [`shape_scale`]. `known` is one side's feature
/// when the caller has found it already ([`SupportingFeature::of`] with
/// the same direction, `separation` and `scale`): `(true, f)` for A's along
/// `n`, `(false, f)` for B's along `-n`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn manifold_along(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    n: &Vector3<f32>,
    separation: f32,
    witness: Option<[Point3<f32>; 2]>,
    speculative: f32,
    scale: f32,
    known: Option<(bool, &SupportingFeature)>,
) -> ContactManifold {
    let n = *n;
    let clip_tolerance = CLIP_FRACTION * scale;

    let mut poly_a = Polygon::new();
    let mut poly_b = Polygon::new();
    let edges = wants_edges(separation, scale);
    let (face_a, normal_a) = match known {
        Some((true, f)) => f.copy_into(&mut poly_a),
        _ => supporting_feature(a, pose_a, &n, edges, &mut poly_a),
    };
    let (face_b, normal_b) = match known {
        Some((false, f)) => f.copy_into(&mut poly_b),
        _ => supporting_feature(b, pose_b, &-n, edges, &mut poly_b),
    };
    let key = (face_a & 0xFF) << 24 | (face_b & 0xFF) << 16;

    let mut candidates: ArrayVec<Candidate, MAX_POLYGON_VERTICES> = ArrayVec::new();
    if (poly_a.len() > 1 || poly_b.len() > 1) && !crossing_edges(&poly_a, &poly_b) {
        let ref_is_a = poly_a.len() >= poly_b.len();
        let (reference, incident, face_normal, towards) = if ref_is_a {
            (&poly_a, &mut poly_b, normal_a, n)
        } else {
            (&poly_b, &mut poly_a, normal_b, -n)
        };
        clip_to_reference(reference, incident, &towards, clip_tolerance);
        let q0 = reference[0].0;
        let plane = face_normal.filter(|m| m.dot(&towards) > MIN_FACE_COSINE);
        for &(p, id) in incident.iter() {
            // `p` is on the incident surface. Its foot on the reference:
            // along the contact normal on a face (inside the face, since the
            // clip kept `p` inside the face's prism along the normal), so
            // both points are the surfaces' extremes on that line; on a
            // segment (an edge, a side line, a capsule's side) the nearest
            // point of it.
            //
            // No line along the normal has a smaller gap between the shapes
            // than the query's separation (the gap of the whole shapes along
            // the normal), so a point measured deeper is bounded by it: a
            // vertex kept by the clip tolerance just outside a leaning face
            // has its foot on the face's plane beyond the face, above the
            // shape's surface there.
            let (foot, sep) = match plane {
                Some(m) => {
                    let sep = ((p - q0).dot(&m) / m.dot(&towards)).max(separation);
                    (p - towards * sep, sep)
                }
                None if reference.len() == 2 => {
                    let axis = reference[1].0 - q0;
                    let t = ((p - q0).dot(&axis) / axis.norm_squared()).clamp(0.0, 1.0);
                    // NaN (a zero-length segment) falls back to its start.
                    let foot = if t.is_finite() { q0 + axis * t } else { q0 };
                    (foot, (p - foot).dot(&towards).max(separation))
                }
                None => {
                    let sep = (p - q0).dot(&towards).max(separation);
                    (p - towards * sep, sep)
                }
            };
            if sep <= speculative && !candidates.is_full() {
                let ends = if ref_is_a { [foot, p] } else { [p, foot] };
                candidates.push((p - towards * (0.5 * sep), sep, key | id, Some(ends)));
            }
        }
    }
    // The clipped features must hold the deepest point the query found.
    // A clip that leaves nothing, or only points shallower than the query's
    // depth (a hull touching with a vertex outside the face that supports
    // it along the normal), gets the query's witness point as well: a hull
    // whose three clipped points said "touching" while its lowest vertex
    // was 2.4 cm into the ground sank by gravity, step after step.
    let deepest = candidates.iter().map(|c| c.1).fold(f32::INFINITY, f32::min);
    // Written so that NaN and the empty clip add the witness.
    if let Some([point_a, point_b]) = witness
        && !(deepest <= separation + MISSED_DEPTH_FRACTION * scale)
    {
        let mid = Point3::from((point_a.coords + point_b.coords) * 0.5);
        let witness = (mid, separation, key | 0xFFFF, Some([point_a, point_b]));
        if candidates.is_full() {
            // Replace the shallowest point (reduce keeps at most four anyway).
            let shallowest = (0..candidates.len())
                .max_by(|&i, &j| candidates[i].1.total_cmp(&candidates[j].1))
                .unwrap_or(0);
            candidates[shallowest] = witness;
        } else {
            candidates.push(witness);
        }
    }
    let mut out = ContactManifold::empty(n);
    reduce(&candidates, &n, &mut out);
    out
}

/// Whether the shapes meet with their leaning faces' edges: only while the
/// gap is wider than the slop (a fast approach); resting and touching pairs
/// keep whole faces, whose clipped points change little as the contact
/// rocks.
fn wants_edges(separation: f32, scale: f32) -> bool {
    separation > EDGE_FEATURE_GAP_FRACTION * scale
}

/// One shape's supporting feature along a direction (see
/// [`supporting_feature`]), found once for both [`feature_misses_triangle`]
/// and [`manifold_along`].
pub(crate) struct SupportingFeature {
    /// World vertices with their feature ids.
    polygon: Polygon,
    /// The feature's index.
    index: u32,
    /// Its outward normal, when it is a face.
    face_normal: Option<Vector3<f32>>,
}

impl SupportingFeature {
    /// The feature of `shape` at `pose` along `dir` (world), for a pair of
    /// the given `separation` along the contact normal and [`shape_scale`].
    pub(crate) fn of(
        shape: &Shape,
        pose: &Isometry3<f32>,
        dir: &Vector3<f32>,
        separation: f32,
        scale: f32,
    ) -> Self {
        let mut polygon = Polygon::new();
        let edges = wants_edges(separation, scale);
        let (index, face_normal) = supporting_feature(shape, pose, dir, edges, &mut polygon);
        Self { polygon, index, face_normal }
    }

    /// Writes the feature's vertices into `out`; returns what
    /// [`supporting_feature`] does.
    fn copy_into(&self, out: &mut Polygon) -> (u32, Option<Vector3<f32>>) {
        out.clone_from(&self.polygon);
        (self.index, self.face_normal)
    }
}

/// Whether clipping `feature`, a shape's supporting feature along `dir`
/// ([`SupportingFeature::of`]), against the triangle `corners` of unit
/// normal `normal` (as [`manifold_along`] does for a pair of the given
/// `scale`, with `dir = -normal` pointing from the shape towards the
/// triangle) can give no
/// point within `speculative`, by one of two cheap proofs:
///
/// * the feature lies wholly outside one side plane of the triangle (the
///   plane through an edge that contains `normal`) by more than twice the
///   clip tolerance: clipping along `normal` is a 2D overlap test of the
///   two features seen along it, so nothing is left whichever feature is
///   the reference (twice the tolerance covers the corners of a reference
///   polygon widened by it);
/// * the feature is a face, and its plane lies farther than `speculative`
///   from the triangle's plane along `normal` at all three corners: a
///   clipped point's separation is the gap between the two planes along
///   the normal where it lies, linear over the triangle, so its least is
///   at a corner (less the gap's slope times the clip tolerance, for
///   points kept just outside).
///
/// A caller without a witness (see [`manifold_along`]) can then skip the
/// triangle; three planes against the feature's few vertices, far cheaper
/// than the clip.
pub(crate) fn feature_misses_triangle(
    feature: &SupportingFeature,
    dir: &Vector3<f32>,
    corners: &[Point3<f32>; 3],
    normal: &Vector3<f32>,
    speculative: f32,
    scale: f32,
) -> bool {
    let (poly, face_normal) = (&feature.polygon, feature.face_normal);
    let tolerance = 2.0 * CLIP_FRACTION * scale;
    if outside_a_triangle_edge(poly.iter().map(|(v, _)| v), corners, normal, scale) {
        return true;
    }
    // The face's plane, facing the triangle steeply enough that
    // `manifold_along` measures through it.
    let Some(m) = face_normal.filter(|m| m.dot(dir) > MIN_FACE_COSINE) else {
        return false;
    };
    let (Some(q0), cosine) = (poly.first().map(|v| v.0), -m.dot(normal)) else {
        return false;
    };
    // The gap along `normal` from corner `c` up to the face's plane:
    // `(q0 - c)·m / (normal·m)`; its slope across the normal is at most
    // the tangent of the planes' angle.
    let slope = (1.0 - cosine * cosine).max(0.0).sqrt() / cosine;
    let least = corners.iter().map(|c| (c - q0).dot(&m) / cosine).fold(f32::INFINITY, f32::min);
    // Written so that NaN misses nothing.
    least - slope * tolerance > speculative
}

/// Whether every one of `points` lies outside one side plane of the
/// triangle `corners` (the plane through an edge that contains `normal`)
/// by more than twice the clip tolerance of a pair of the given `scale`:
/// the first proof of [`feature_misses_triangle`], which calls it with
/// the feature's vertices. Called with every vertex of a hull, of which
/// the feature's are some, it proves the same for any feature of the hull
/// (the same arithmetic on the same points), before the feature is found.
pub(crate) fn outside_a_triangle_edge<'p>(
    points: impl Iterator<Item = &'p Point3<f32>> + Clone,
    corners: &[Point3<f32>; 3],
    normal: &Vector3<f32>,
    scale: f32,
) -> bool {
    let tolerance = 2.0 * CLIP_FRACTION * scale;
    (0..3).any(|k| {
        let (p0, p1, opposite) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
        let mut side = (p1 - p0).cross(normal);
        if side.dot(&(opposite - p0)) > 0.0 {
            side = -side;
        }
        let limit = tolerance * side.norm();
        // Written so that NaN misses nothing.
        points.clone().all(|v| side.dot(&(v - p0)) > limit)
    })
}

/// [`outside_a_triangle_edge`] along `normal` and along `-normal`, both
/// holding, in one pass over the edges where it can. Negating the normal
/// negates each edge's side vector exactly, and negates its dot product
/// with the opposite corner exactly, so the flip towards the outside
/// gives the same side vector bit for bit, and each edge's test the same
/// answer, whenever that dot product has a sign: the second test only
/// runs when an edge it would see differently (a zero or NaN dot
/// product) came before the first test's answer.
pub(crate) fn outside_a_triangle_edge_either_way<'p>(
    points: impl Iterator<Item = &'p Point3<f32>> + Clone,
    corners: &[Point3<f32>; 3],
    normal: &Vector3<f32>,
    scale: f32,
) -> bool {
    let tolerance = 2.0 * CLIP_FRACTION * scale;
    let mut signed = true;
    let outside = (0..3).any(|k| {
        let (p0, p1, opposite) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
        let mut side = (p1 - p0).cross(normal);
        let facing = side.dot(&(opposite - p0));
        if facing > 0.0 {
            side = -side;
        } else if !(facing < 0.0) {
            signed = false;
        }
        let limit = tolerance * side.norm();
        // Written so that NaN misses nothing.
        points.clone().all(|v| side.dot(&(v - p0)) > limit)
    });
    outside && (signed || outside_a_triangle_edge(points, corners, &-normal, scale))
}

/// Whether the two features are segments (edges, capsule or cylinder side
/// lines) that cross rather than lie side by side: they touch at one point,
/// the query's witness, and clipping one by the other's end caps would
/// spread the contact along the whole overlap, off both surfaces.
fn crossing_edges(poly_a: &Polygon, poly_b: &Polygon) -> bool {
    if poly_a.len() != 2 || poly_b.len() != 2 {
        return false;
    }
    let axis_a = poly_a[1].0 - poly_a[0].0;
    let axis_b = poly_b[1].0 - poly_b[0].0;
    // |cos| below the bound, written without division; NaN counts as
    // crossing (the witness point is always safe).
    let dot = axis_a.dot(&axis_b);
    !(dot * dot
        >= PARALLEL_EDGE_COSINE
            * PARALLEL_EDGE_COSINE
            * axis_a.norm_squared()
            * axis_b.norm_squared())
}

/// [`try_contact_cached`] on the concrete shapes, so that GJK and EPA are
/// compiled for each pair of shape kinds and call their support functions
/// directly instead of matching on [`Shape`] at every support point.
fn contact_of_shapes(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    cache: &mut GjkCache,
) -> Result<Contact, QueryError> {
    macro_rules! with_b {
        ($sa:expr) => {
            match b {
                Shape::Sphere(sb) => try_contact_cached($sa, pose_a, sb, pose_b, cache),
                Shape::Cuboid(sb) => try_contact_cached($sa, pose_a, sb, pose_b, cache),
                Shape::Capsule(sb) => try_contact_cached($sa, pose_a, sb, pose_b, cache),
                Shape::ConvexHull(sb) => try_contact_cached($sa, pose_a, sb, pose_b, cache),
                Shape::Cylinder(sb) => try_contact_cached($sa, pose_a, sb, pose_b, cache),
                Shape::Triangle(sb) => try_contact_cached($sa, pose_a, sb, pose_b, cache),
                other => try_contact_cached($sa, pose_a, other, pose_b, cache),
            }
        };
    }
    match a {
        Shape::Sphere(sa) => with_b!(sa),
        Shape::Cuboid(sa) => with_b!(sa),
        Shape::Capsule(sa) => with_b!(sa),
        Shape::ConvexHull(sa) => with_b!(sa),
        Shape::Cylinder(sa) => with_b!(sa),
        // A mesh's or heightfield's triangles meet their convex neighbours
        // here, once for every triangle near them.
        Shape::Triangle(sa) => with_b!(sa),
        // The other kinds go through the enum's dispatch.
        other => try_contact_cached(other, pose_a, b, pose_b, cache),
    }
}

/// Clips `incident` by the side planes of `reference`: the planes through
/// each edge of a face that contain `towards` (the contact normal, pointing
/// from the reference to the incident shape), or the two planes capping a
/// segment.
fn clip_to_reference(
    reference: &Polygon,
    incident: &mut Polygon,
    towards: &Vector3<f32>,
    tolerance: f32,
) {
    let mut scratch = Polygon::new();
    let n = reference.len();
    if n == 2 {
        let (p0, p1) = (reference[0].0, reference[1].0);
        let axis = p1 - p0;
        clip_on_plane(incident, &axis, axis.dot(&p1.coords), 0, tolerance, &mut scratch);
        clip_on_plane(&scratch, &-axis, -axis.dot(&p0.coords), 1, tolerance, incident);
        return;
    }
    let centroid = reference.iter().fold(Vector3::zeros(), |s, v| s + v.0.coords) / n as f32;
    // The clips alternate between the two buffers, and the last one's
    // vertices are copied back once: swapping the buffers after each clip
    // moved both whole arrays three times, vertices or not (about 400
    // instructions a face on the `trees` scene's wave mesh).
    let mut in_scratch = false;
    for k in 0..n {
        let (p0, p1) = (reference[k].0, reference[(k + 1) % n].0);
        let mut side = (p1 - p0).cross(towards);
        if side.dot(&(centroid - p0.coords)) > 0.0 {
            side = -side;
        }
        let (from, to) =
            if in_scratch { (&scratch, &mut *incident) } else { (&*incident, &mut scratch) };
        clip_on_plane(from, &side, side.dot(&p0.coords), k as u32, tolerance, to);
        in_scratch = !in_scratch;
    }
    if in_scratch {
        incident.clear();
        incident.extend(scratch.iter().copied());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::test_rng::Lcg;
    use crate::shape::{Capsule, ConvexHull, Cuboid};
    use nalgebra::{Translation3, UnitQuaternion};

    /// The slop of the unit-sized pairs below (the sandbox's 5 mm).
    const LINEAR_SLOP: f32 = EDGE_FEATURE_GAP_FRACTION;

    /// The convex hull of the 12 vertices of an icosahedron with the given
    /// circumradius: the cyclic permutations of (0, ±1, ±φ), scaled.
    fn icosahedron(circumradius: f32) -> ConvexHull {
        let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
        let s = circumradius / (1.0 + phi * phi).sqrt();
        let mut points = Vec::new();
        for (a, b) in [(1.0, phi), (-1.0, phi), (1.0, -phi), (-1.0, -phi)] {
            points.push(Point3::new(0.0, a * s, b * s));
            points.push(Point3::new(a * s, b * s, 0.0));
            points.push(Point3::new(b * s, 0.0, a * s));
        }
        ConvexHull::new(&points).unwrap()
    }

    /// The manifold of a pair within the speculative distance.
    fn manifold(
        a: &Shape,
        pose_a: &Isometry3<f32>,
        b: &Shape,
        pose_b: &Isometry3<f32>,
        speculative: f32,
    ) -> ContactManifold {
        match collide_convex(a, pose_a, b, pose_b, speculative, &mut GjkCache::default()) {
            Ok(ManifoldOutcome::Within(m)) => m,
            other => panic!("expected a manifold, got {other:?}"),
        }
    }

    /// Relative tolerance on positions and separations, of the
    /// icosahedron's circumradius: f32 clipping rounds far below it.
    const TOLERANCE: f32 = 1e-4;

    /// Regression: two icosahedra meeting along parallel edges (each hull's
    /// farthest feature along ±x is an edge along z) got one contact point
    /// or none, and fast ones flew through each other. The oracle is the
    /// geometry of the icosahedron: both edges have their ends at
    /// z = ±s, at x = ±φ s from each centre (`s` the scale of the
    /// (0, ±1, ±φ) vertex set); the pair is checked in A's frame, at the
    /// identity and under seeded rigid transforms of both.
    /// Regression (soak seed 1, step 6258): a capsule 8 µm above the
    /// ground, closer than GJK's normal is trusted but apart for EPA, got
    /// no contact at all and fell 5.5 cm into the ground in one step. The
    /// oracle is collide's own distance query: a touching point, along +y.
    #[test]
    fn a_pair_closer_than_the_normal_precision_but_apart_keeps_its_contact() {
        use nalgebra::Quaternion;
        let ground: Shape = Cuboid::new(Vector3::new(20000.0, 0.5, 20000.0)).into();
        let ground_pose = Isometry3::translation(0.0, -0.5, 0.0);
        let capsule: Shape = Capsule::new(0.7431157, 0.5).into();
        let rotation = UnitQuaternion::from_quaternion(Quaternion::new(
            0.303971, -0.3999695, 0.24317828, -0.8297532,
        ));
        let pose =
            Isometry3::from_parts(Translation3::new(6.411611, 1.0179092, -18.963705), rotation);
        let mut cache = GjkCache::default();
        match try_contact_cached(&ground, &ground_pose, &capsule, &pose, &mut cache).unwrap() {
            Contact::Separated { distance, .. } => {
                assert!(distance < MIN_NORMAL_DISTANCE_FRACTION)
            }
            other => panic!("the case needs a pair just apart, got {other:?}"),
        }
        let out = manifold(&ground, &ground_pose, &capsule, &pose, 0.02);
        assert!(!out.is_empty(), "a touching capsule lost its contact");
        assert!((out.normal - Vector3::y()).norm() < 1e-3, "normal {:?}", out.normal);
        for p in out.points() {
            assert!(p.separation.abs() < 1e-4, "separation {}", p.separation);
        }
    }

    /// Regression (soak seed 3, step 4411): a hull touching the ground with
    /// a vertex outside the face that supports it along the normal clipped
    /// to three points at 0.1 mm or more of separation while its lowest
    /// vertex was 1.6 mm in, and it sank step after step (2.4 cm by step
    /// 4414). The oracle is collide's penetration query: the manifold must
    /// reach its depth.
    #[test]
    fn a_clip_that_misses_the_deepest_point_gets_the_witness() {
        use nalgebra::Quaternion;
        let points: Vec<Point3<f32>> = [
            [-0.04463901, 0.40154335, -0.16701676],
            [-0.14218168, -0.33714786, -0.12963614],
            [0.15414387, -0.28355202, -0.12787956],
            [-0.11122459, -0.088227235, -0.17478347],
            [0.12910624, 0.55660117, 0.07548696],
            [0.19873387, 0.3670907, 0.0020329554],
            [-0.22585921, -0.013794469, 0.020343954],
            [0.18908104, -0.38234538, 0.046521638],
            [0.11670316, 0.551477, 0.0923122],
            [-0.17541198, 0.24689607, -0.11031562],
            [0.064081095, 0.5268689, -0.134004],
            [-0.21630467, 0.15649188, -0.045194812],
            [0.14083833, -0.51855904, -0.078023694],
            [-0.116704054, -0.3088007, 0.15277839],
            [-0.04745362, 0.61997527, -0.10885484],
            [0.056930665, -0.32921794, 0.17508678],
            [-0.062338036, 0.38086528, -0.16595198],
            [-0.15742019, -0.27475727, -0.12606117],
            [0.13854545, 0.4288145, -0.11239054],
        ]
        .iter()
        .map(|&[x, y, z]| Point3::new(x, y, z))
        .collect();
        let hull: Shape = ConvexHull::new(&points).unwrap().into();
        let rotation = UnitQuaternion::from_quaternion(Quaternion::new(
            -0.47047925,
            -0.7103096,
            0.5173113,
            0.08061349,
        ));
        let pose =
            Isometry3::from_parts(Translation3::new(14.330286, 0.17049253, 0.10419812), rotation);
        let ground: Shape = Cuboid::new(Vector3::new(20000.0, 0.5, 20000.0)).into();
        let ground_pose = Isometry3::translation(0.0, -0.5, 0.0);
        let depth = penetration(&ground, &ground_pose, &hull, &pose).expect("overlapping").depth;
        let scale = shape_scale(&ground).min(shape_scale(&hull));
        assert!(
            depth > MISSED_DEPTH_FRACTION * scale,
            "the case needs a depth beyond the tolerance: {depth}"
        );
        let out = manifold(&ground, &ground_pose, &hull, &pose, 0.02);
        let deepest = out.min_separation();
        assert!(
            (deepest + depth).abs() < 1e-4,
            "deepest manifold point at {deepest}, the hull is {depth} in"
        );
    }

    #[test]
    fn parallel_edges_give_two_points_at_the_edge_ends() {
        let radius = 0.3;
        let hull: Shape = icosahedron(radius).into();
        let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
        let s = radius / (1.0 + phi * phi).sqrt();
        let mut rng = Lcg(7);
        // Pairs approaching from beyond the slop (touching ones have a cone
        // of valid normals, and resting ones keep whole faces).
        for gap in [2.0 * LINEAR_SLOP, 0.1, 1.0] {
            for trial in 0..8 {
                let frame = if trial == 0 {
                    Isometry3::identity()
                } else {
                    Isometry3::from_parts(
                        Translation3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), 0.0),
                        UnitQuaternion::from_scaled_axis(Vector3::new(
                            rng.range(-3.0, 3.0),
                            rng.range(-3.0, 3.0),
                            rng.range(-3.0, 3.0),
                        )),
                    )
                };
                let pose_a = frame;
                let pose_b = frame * Isometry3::translation(2.0 * phi * s + gap, 0.0, 0.0);
                let m = manifold(&hull, &pose_a, &hull, &pose_b, gap + 0.1);
                assert_eq!(m.len(), 2, "gap {gap}, trial {trial}: {m:?}");
                let mut ends = [false; 2];
                for p in m.points() {
                    let local = pose_a.inverse_transform_point(&p.point);
                    assert!(
                        (p.separation - gap).abs() < TOLERANCE * radius,
                        "gap {gap}, trial {trial}: separation {}",
                        p.separation
                    );
                    assert!(local.y.abs() < TOLERANCE * radius, "off the edge: {local}");
                    for (k, z) in [s, -s].into_iter().enumerate() {
                        ends[k] |= (local.z - z).abs() < TOLERANCE * radius;
                    }
                }
                assert_eq!(ends, [true, true], "gap {gap}, trial {trial}: {m:?}");
            }
        }
    }
}
