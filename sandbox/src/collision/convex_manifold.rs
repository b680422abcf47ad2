//! Contact manifolds for pairs other than box–box: spheres analytically, and
//! everything else from collide's GJK/EPA normal plus face clipping.
//!
//! Follows Jolt's `ManifoldBetweenTwoFaces`: take the normal and witness
//! points from the collision query (GJK closest points when separated, EPA
//! when overlapping), find each shape's supporting feature along the normal
//! (a sphere's point, a capsule's segment when it lies across the normal, a
//! box or hull face), clip the incident feature against the side planes of
//! the reference feature and measure each clipped point's separation to the
//! reference plane along the normal. Departures: the feature with more
//! vertices is the reference (so a capsule lying on a face clips to two
//! points), and a clip that leaves nothing falls back to the query's single
//! witness point instead of dropping the contact.

use arrayvec::ArrayVec;
use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{
    Contact, GjkCache, QueryError, Shape, Sphere, SupportMap, penetration, try_contact_cached,
};

use crate::collision::manifold::{Candidate, ContactPoint, MAX_POLYGON_VERTICES, Manifold, reduce};
use crate::collision::polygon_clip::{Polygon, clip};
use crate::tolerances::LINEAR_SLOP;

/// A clipped manifold whose deepest point is shallower than the query's
/// separation by more than this (a fifth of the linear slop, 1 mm) missed
/// the feature that goes deepest, and the query's witness point is added.
/// Face-on-face contacts clip to the query's depth within rounding, far
/// below it.
const MISSED_DEPTH: f32 = 0.2 * LINEAR_SLOP;

/// Below this distance (metres, for metre-sized shapes) the GJK closest
/// points no longer define a direction, so EPA is asked instead.
const MIN_NORMAL_DISTANCE: f32 = 1.0e-5;

/// A capsule whose axis makes a cosine below this with the normal (about 3°
/// off perpendicular) lies across it and touches along its whole segment.
const CAPSULE_SIDE_COSINE: f32 = 0.05;

/// A reference face whose normal makes a cosine below this with the contact
/// normal is too oblique to measure separation through; the contact normal
/// is used directly.
const MIN_FACE_COSINE: f32 = 0.1;

/// A hull's face whose normal makes a cosine above this with the contact
/// normal (within about 11°) is its supporting feature; a face leaning
/// farther is not, and the hull touches with that face's farthest edge or
/// vertex instead. Two icosahedra meeting edge to edge picked one face
/// adjacent to each edge (20.9° off the normal); clipping one tilted
/// triangle by the other's side planes left one point or none of the
/// parallel edges, and fast ones passed through each other.
const MIN_HULL_FACE_COSINE: f32 = 0.98;

/// Two edges whose directions make a cosine above this (within about
/// 2.5°) lie side by side and touch along their overlap; others cross.
const PARALLEL_EDGE_COSINE: f32 = 0.999;

/// The vertices of a leaning face within this fraction of the face's
/// spread along the normal of its farthest one form the supporting edge or
/// vertex: the feature is found from the face itself, so the tolerance is
/// relative to its size (the spread is at least a fifth of the face's
/// width at the lean of [`MIN_HULL_FACE_COSINE`]).
const FEATURE_LEVEL_FRACTION: f32 = 0.01;

/// Sphere against sphere, exactly. Returns the distance when the spheres
/// are farther apart than `speculative` (`out` is then empty), else 0.
pub(crate) fn collide_spheres(
    a: &Sphere,
    pose_a: &Isometry3<f32>,
    b: &Sphere,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    out: &mut Manifold,
) -> f32 {
    out.clear();
    let d = pose_b.translation.vector - pose_a.translation.vector;
    let dist = d.norm();
    let separation = dist - a.radius - b.radius;
    if !(separation <= speculative) {
        return separation;
    }
    let n = if dist > MIN_NORMAL_DISTANCE { d / dist } else { Vector3::y() };
    let on_a = pose_a.translation.vector + n * a.radius;
    let on_b = pose_b.translation.vector - n * b.radius;
    out.normal = n;
    out.points.push(ContactPoint::new(Point3::from((on_a + on_b) * 0.5), separation, 0));
    0.0
}

/// A box (A) against a sphere (B), exactly: the closest point of the box to
/// the sphere's centre, or the nearest face when the centre is inside.
/// Returns the distance when they are farther apart than `speculative`
/// (`out` is then empty), else 0.
pub(crate) fn collide_cuboid_sphere(
    a: &collide::Cuboid,
    pose_a: &Isometry3<f32>,
    b: &Sphere,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    out: &mut Manifold,
) -> f32 {
    out.clear();
    let c = pose_a.inverse_transform_point(&Point3::from(pose_b.translation.vector));
    let h = a.half_extents;
    let q = Point3::new(c.x.clamp(-h.x, h.x), c.y.clamp(-h.y, h.y), c.z.clamp(-h.z, h.z));
    let d = c - q;
    let dist = d.norm();
    let (n_local, depth_to_surface, on_box) = if dist > MIN_NORMAL_DISTANCE {
        (d / dist, dist, q)
    } else {
        // Centre inside: leave through the face of least depth.
        let gaps = h - c.coords.abs();
        let k = gaps.imin();
        let n = Vector3::ith(k, 1.0f32.copysign(c[k]));
        let mut on = c;
        on[k] = h[k].copysign(c[k]);
        (n, -gaps[k], on)
    };
    let separation = depth_to_surface - b.radius;
    if !(separation <= speculative) {
        return separation;
    }
    let on_sphere = c - n_local * b.radius;
    out.normal = pose_a.rotation * n_local;
    let mid = pose_a * Point3::from((on_box.coords + on_sphere.coords) * 0.5);
    out.points.push(ContactPoint::new(mid, separation, 0));
    0.0
}

/// Any other pair, through collide's queries and face clipping. Returns the
/// distance when the shapes are farther apart than `speculative` (`out` is
/// then empty), else 0.
pub(crate) fn collide_convex(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    out: &mut Manifold,
) -> f32 {
    out.clear();
    // One GJK run answers both cases: EPA continues from its simplex when
    // the cores overlap.
    let mut cache = GjkCache::default();
    let query = match contact_of_shapes(a, pose_a, b, pose_b, &mut cache) {
        Ok(Contact::Separated { distance, normal, point_a, point_b }) => {
            if !(distance <= speculative) {
                return distance;
            }
            let gjk = (normal.into_inner(), distance, point_a, point_b);
            if distance > MIN_NORMAL_DISTANCE {
                Some(gjk)
            } else {
                // Touching: EPA's normal where it finds an overlap, else
                // GJK's own. A capsule resting 8 µm above the ground is
                // apart for EPA, and dropping its contact let it fall
                // 5.5 cm into the ground in one step.
                penetration(a, pose_a, b, pose_b)
                    .map(|p| (p.normal.into_inner(), -p.depth, p.point_a, p.point_b))
                    .or(Some(gjk))
            }
        }
        Ok(Contact::Penetrating(p)) => {
            Some((p.normal.into_inner(), -p.depth, p.point_a, p.point_b))
        }
        // Non-finite poses: the world removes such bodies before they are
        // stepped again.
        Err(_) => None,
    };
    let Some((n, separation, point_a, point_b)) = query else { return 0.0 };
    if !n.iter().all(|x| x.is_finite()) {
        return 0.0;
    }
    out.normal = n;

    let mut poly_a = Polygon::new();
    let mut poly_b = Polygon::new();
    // Hulls meet with their leaning faces' edges only while the gap is
    // wider than the slop (a fast approach); resting and touching pairs
    // keep whole faces, whose clipped points change little as the
    // contact rocks.
    let edges = separation > LINEAR_SLOP;
    let (face_a, normal_a) = supporting_feature(a, pose_a, &n, edges, &mut poly_a);
    let (face_b, normal_b) = supporting_feature(b, pose_b, &-n, edges, &mut poly_b);
    let key = (face_a & 0xFF) << 24 | (face_b & 0xFF) << 16;

    let mut candidates: ArrayVec<Candidate, MAX_POLYGON_VERTICES> = ArrayVec::new();
    if (poly_a.len() > 1 || poly_b.len() > 1) && !crossing_hull_edges(a, &poly_a, b, &poly_b) {
        let ref_is_a = poly_a.len() >= poly_b.len();
        let (reference, incident, face_normal, towards) = if ref_is_a {
            (&poly_a, &mut poly_b, normal_a, n)
        } else {
            (&poly_b, &mut poly_a, normal_b, -n)
        };
        clip_to_reference(reference, incident, &face_normal.unwrap_or(towards));
        let q0 = reference[0].0;
        let plane = face_normal.filter(|m| m.dot(&towards) > MIN_FACE_COSINE);
        for &(p, id) in incident.iter() {
            let sep = match plane {
                Some(m) => (p - q0).dot(&m) / m.dot(&towards),
                None => (p - q0).dot(&towards),
            };
            if sep <= speculative && !candidates.is_full() {
                candidates.push((p - towards * (0.5 * sep), sep, key | id));
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
    if !(deepest <= separation + MISSED_DEPTH) {
        let mid = Point3::from((point_a.coords + point_b.coords) * 0.5);
        let witness = (mid, separation, key | 0xFFFF);
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
    reduce(&candidates, &n, out);
    0.0
}

/// Whether the two features are segments, at least one a hull's edge,
/// that cross rather than lie side by side: they touch at one point, the
/// query's witness, and clipping one by the other's end caps would spread
/// the contact along the whole overlap.
fn crossing_hull_edges(a: &Shape, poly_a: &Polygon, b: &Shape, poly_b: &Polygon) -> bool {
    let is_hull = |s: &Shape| matches!(s, Shape::ConvexHull(_));
    if poly_a.len() != 2 || poly_b.len() != 2 || !(is_hull(a) || is_hull(b)) {
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

/// collide's [`try_contact_cached`] on the concrete shapes, so that GJK and EPA are
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
                other => try_contact_cached($sa, pose_a, other, pose_b, cache),
            }
        };
    }
    match a {
        Shape::Sphere(sa) => with_b!(sa),
        Shape::Cuboid(sa) => with_b!(sa),
        Shape::Capsule(sa) => with_b!(sa),
        Shape::ConvexHull(sa) => with_b!(sa),
        // The other kinds go through the enum's dispatch.
        other => try_contact_cached(other, pose_a, b, pose_b, cache),
    }
}

/// Clips `incident` by the side planes of `reference`: the planes through
/// each edge of a face, perpendicular to the face, or the two planes capping
/// a segment.
fn clip_to_reference(reference: &Polygon, incident: &mut Polygon, face_normal: &Vector3<f32>) {
    let mut scratch = Polygon::new();
    let n = reference.len();
    if n == 2 {
        let (p0, p1) = (reference[0].0, reference[1].0);
        let axis = p1 - p0;
        clip(incident, &axis, axis.dot(&p1.coords), 0, &mut scratch);
        clip(&scratch, &-axis, -axis.dot(&p0.coords), 1, incident);
        return;
    }
    let centroid = reference.iter().fold(Vector3::zeros(), |s, v| s + v.0.coords) / n as f32;
    for k in 0..n {
        let (p0, p1) = (reference[k].0, reference[(k + 1) % n].0);
        let mut side = (p1 - p0).cross(face_normal);
        if side.dot(&(centroid - p0.coords)) > 0.0 {
            side = -side;
        }
        clip(incident, &side, side.dot(&p0.coords), k as u32, &mut scratch);
        std::mem::swap(incident, &mut scratch);
    }
}

/// Writes into `out` the world vertices of `shape`'s feature farthest along
/// `dir` (world), and returns the feature's index and its outward face
/// normal when it is a face. With `edges`, a hull whose best face leans
/// away from `dir` gives that face's farthest edge or vertex instead.
fn supporting_feature(
    shape: &Shape,
    pose: &Isometry3<f32>,
    dir: &Vector3<f32>,
    edges: bool,
    out: &mut Polygon,
) -> (u32, Option<Vector3<f32>>) {
    out.clear();
    let dir_local = pose.rotation.inverse_transform_vector(dir);
    match shape {
        Shape::Sphere(s) => {
            out.push((Point3::from(pose.translation.vector + dir * s.radius), 0));
            (0, None)
        }
        Shape::Capsule(c) => {
            let [bottom, top] = c.segment();
            let round = dir * c.radius;
            if dir_local.y.abs() < CAPSULE_SIDE_COSINE {
                out.push((pose * bottom + round, 0));
                out.push((pose * top + round, 1));
                (2, None)
            } else if dir_local.y > 0.0 {
                // The nearer end, then the farther, which the clip keeps
                // only within the speculative distance: a capsule spinning
                // half a turn per step brings its far end down within the
                // step, and with only the near end (rising, so never
                // pushed) it sank through the ground (soak seed 4, step
                // 13464: a 3 g capsule at 188 rad/s, 60 steps inside the
                // slab).
                out.push((pose * top + round, 1));
                out.push((pose * bottom + round, 0));
                (1, None)
            } else {
                out.push((pose * bottom + round, 0));
                out.push((pose * top + round, 1));
                (0, None)
            }
        }
        Shape::Cuboid(c) => {
            let k = dir_local.iamax();
            let sign = 1.0f32.copysign(dir_local[k]);
            let h = c.half_extents;
            let (u, v) = ((k + 1) % 3, (k + 2) % 3);
            for (id, (su, sv)) in
                [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)].into_iter().enumerate()
            {
                let mut p = Point3::origin();
                p[k] = sign * h[k];
                p[u] = su * h[u];
                p[v] = sv * h[v];
                out.push((pose * p, id as u32));
            }
            let normal = pose.rotation * Vector3::ith(k, sign);
            ((2 * k) as u32 + u32::from(sign > 0.0), Some(normal))
        }
        Shape::ConvexHull(h) => {
            let mut best = None;
            let mut best_dot = f32::NEG_INFINITY;
            for (i, f) in h.faces().iter().enumerate() {
                let d = f.normal.dot(&dir_local);
                if d > best_dot {
                    best_dot = d;
                    best = Some(i);
                }
            }
            let face = best.map(|i| (i, &h.faces()[i]));
            match face {
                Some((i, f)) if f.vertices.len() <= MAX_POLYGON_VERTICES => {
                    let vertices =
                        || f.vertices.iter().filter_map(|&v| h.vertices().get(v as usize));
                    if !edges || best_dot > MIN_HULL_FACE_COSINE {
                        for (id, p) in vertices().enumerate() {
                            out.push((pose * p, id as u32));
                        }
                        return (i as u32, Some(pose.rotation * f.normal.into_inner()));
                    }
                    // The face leans away from `dir`: the hull meets it
                    // with the face's edge or vertex that reaches farthest.
                    let reach = |p: &Point3<f32>| p.coords.dot(&dir_local);
                    let (low, high) = vertices()
                        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                            (lo.min(reach(p)), hi.max(reach(p)))
                        });
                    let level = high - FEATURE_LEVEL_FRACTION * (high - low);
                    for (id, p) in vertices().enumerate() {
                        if reach(p) >= level {
                            out.push((pose * p, id as u32));
                        }
                    }
                    (i as u32, None)
                }
                _ => {
                    let p = collide::SupportMap::local_support(h, &dir_local);
                    out.push((pose * p, 0));
                    (0xFF, None)
                }
            }
        }
        // Kinds without a feature of their own yet touch with their
        // support point along the normal, a one-point manifold.
        other => {
            out.push((pose * other.local_support(&dir_local), 0));
            (0, None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::builtin::icosahedron;
    use collide::nalgebra::{Translation3, UnitQuaternion};

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
        use collide::nalgebra::{Quaternion, Vector3};
        let ground: Shape = collide::Cuboid::new(Vector3::new(20000.0, 0.5, 20000.0)).into();
        let ground_pose = Isometry3::translation(0.0, -0.5, 0.0);
        let capsule: Shape = collide::Capsule::new(0.7431157, 0.5).into();
        let rotation = UnitQuaternion::from_quaternion(Quaternion::new(
            0.303971, -0.3999695, 0.24317828, -0.8297532,
        ));
        let pose =
            Isometry3::from_parts(Translation3::new(6.411611, 1.0179092, -18.963705), rotation);
        let mut cache = GjkCache::default();
        match try_contact_cached(&ground, &ground_pose, &capsule, &pose, &mut cache).unwrap() {
            Contact::Separated { distance, .. } => assert!(distance < MIN_NORMAL_DISTANCE),
            other => panic!("the case needs a pair just apart, got {other:?}"),
        }
        let mut out = Manifold::default();
        collide_convex(&ground, &ground_pose, &capsule, &pose, 0.02, &mut out);
        assert!(!out.points.is_empty(), "a touching capsule lost its contact");
        assert!((out.normal - Vector3::y()).norm() < 1e-3, "normal {:?}", out.normal);
        for p in &out.points {
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
        use collide::nalgebra::{Quaternion, Vector3};
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
        let hull: Shape = collide::ConvexHull::new(&points).unwrap().into();
        let rotation = UnitQuaternion::from_quaternion(Quaternion::new(
            -0.47047925,
            -0.7103096,
            0.5173113,
            0.08061349,
        ));
        let pose =
            Isometry3::from_parts(Translation3::new(14.330286, 0.17049253, 0.10419812), rotation);
        let ground: Shape = collide::Cuboid::new(Vector3::new(20000.0, 0.5, 20000.0)).into();
        let ground_pose = Isometry3::translation(0.0, -0.5, 0.0);
        let depth = penetration(&ground, &ground_pose, &hull, &pose).expect("overlapping").depth;
        assert!(depth > MISSED_DEPTH, "the case needs a depth beyond the tolerance: {depth}");
        let mut out = Manifold::default();
        collide_convex(&ground, &ground_pose, &hull, &pose, 0.02, &mut out);
        let deepest = out.points.iter().map(|p| p.separation).fold(f32::INFINITY, f32::min);
        assert!(
            (deepest + depth).abs() < 1e-4,
            "deepest manifold point at {deepest}, the hull is {depth} in"
        );
    }

    #[test]
    fn parallel_edges_give_two_points_at_the_edge_ends() {
        let radius = 0.3;
        let hull: Shape = icosahedron(radius).unwrap().into();
        let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
        let s = radius / (1.0 + phi * phi).sqrt();
        let mut rng = crate::rng::Lcg(7);
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
                let mut m = Manifold::default();
                collide_convex(&hull, &pose_a, &hull, &pose_b, gap + 0.1, &mut m);
                assert_eq!(m.points.len(), 2, "gap {gap}, trial {trial}: {m:?}");
                let mut ends = [false; 2];
                for p in &m.points {
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
