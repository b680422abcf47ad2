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
use collide::{Contact, GjkCache, QueryError, Shape, Sphere, contact, penetration};

use crate::collision::manifold::{Candidate, ContactPoint, MAX_POLYGON_VERTICES, Manifold, reduce};
use crate::collision::polygon_clip::{Polygon, clip};

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
            if distance > MIN_NORMAL_DISTANCE {
                Some((normal.into_inner(), distance, point_a, point_b))
            } else {
                penetration(a, pose_a, b, pose_b)
                    .map(|p| (p.normal.into_inner(), -p.depth, p.point_a, p.point_b))
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
    let (face_a, normal_a) = supporting_feature(a, pose_a, &n, &mut poly_a);
    let (face_b, normal_b) = supporting_feature(b, pose_b, &-n, &mut poly_b);
    let key = (face_a & 0xFF) << 24 | (face_b & 0xFF) << 16;

    let mut candidates: ArrayVec<Candidate, MAX_POLYGON_VERTICES> = ArrayVec::new();
    if poly_a.len() > 1 || poly_b.len() > 1 {
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
    if candidates.is_empty() {
        let mid = Point3::from((point_a.coords + point_b.coords) * 0.5);
        candidates.push((mid, separation, key | 0xFFFF));
    }
    reduce(&candidates, &n, out);
    0.0
}

/// collide's [`contact`] on the concrete shapes, so that GJK and EPA are
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
                Shape::Sphere(sb) => contact($sa, pose_a, sb, pose_b, cache),
                Shape::Cuboid(sb) => contact($sa, pose_a, sb, pose_b, cache),
                Shape::Capsule(sb) => contact($sa, pose_a, sb, pose_b, cache),
                Shape::ConvexHull(sb) => contact($sa, pose_a, sb, pose_b, cache),
            }
        };
    }
    match a {
        Shape::Sphere(sa) => with_b!(sa),
        Shape::Cuboid(sa) => with_b!(sa),
        Shape::Capsule(sa) => with_b!(sa),
        Shape::ConvexHull(sa) => with_b!(sa),
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
/// normal when it is a face.
fn supporting_feature(
    shape: &Shape,
    pose: &Isometry3<f32>,
    dir: &Vector3<f32>,
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
                out.push((pose * top + round, 1));
                (1, None)
            } else {
                out.push((pose * bottom + round, 0));
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
                    for (id, &v) in f.vertices.iter().enumerate() {
                        if let Some(p) = h.vertices().get(v as usize) {
                            out.push((pose * p, id as u32));
                        }
                    }
                    (i as u32, Some(pose.rotation * f.normal.into_inner()))
                }
                _ => {
                    let p = collide::SupportMap::local_support(h, &dir_local);
                    out.push((pose * p, 0));
                    (0xFF, None)
                }
            }
        }
    }
}
