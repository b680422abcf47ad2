//! Each shape's supporting feature along a direction: the face, edge or
//! vertex that reaches farthest, as world vertices with feature ids, for
//! clipping one against the other (Jolt's `GetSupportingFace`). A sphere
//! gives its one point; a capsule the side line facing the direction (its
//! segment moved out by the radius across the axis; nearer end first when
//! it leans), or its nearer end's support point when it points along the
//! direction; a box its
//! face; a hull the face whose normal is nearest the direction, or, when
//! that face leans away and `edges` is asked for, the face's farthest edge
//! or vertex. The kinds added later: a cylinder's cap (a regular polygon of
//! [`CAP_VERTICES`] on its rim) or side line (both rim points, nearer
//! first); a cone's base (the same polygon), side line or single support
//! point (apex or rim); a triangle's face, edge or vertex; a segment as a
//! capsule's core; a rounded shape its core's feature moved out by the
//! radius onto the rounded surface; a custom shape, whose faces collide does not know, its support
//! point alone (a one-point manifold, which a solver completes over a few
//! frames, as for a sphere).

use arrayvec::ArrayVec;
use nalgebra::{Isometry3, Point3, Vector3};

use super::polygon_clip::{MAX_POLYGON_VERTICES, Polygon};
use crate::shape::{Cone, ConvexHull, Cylinder, Segment, Shape, Triangle};
use crate::support_map::SupportMap;

/// A capsule whose axis makes a cosine below this with the normal (about 3°
/// off perpendicular) lies across it and touches along its whole segment.
const CAPSULE_SIDE_COSINE: f32 = 0.05;

/// A hull's face whose normal makes a cosine above this with the contact
/// normal (within about 11°) is its supporting feature; a face leaning
/// farther is not, and the hull touches with that face's farthest edge or
/// vertex instead. Two icosahedra meeting edge to edge picked one face
/// adjacent to each edge (20.9° off the normal); clipping one tilted
/// triangle by the other's side planes left one point or none of the
/// parallel edges, and fast ones passed through each other.
const MIN_HULL_FACE_COSINE: f32 = 0.98;

/// The vertices of a leaning face within this fraction of the face's
/// spread along the normal of its farthest one form the supporting edge or
/// vertex: the feature is found from the face itself, so the tolerance is
/// relative to its size (the spread is at least a fifth of the face's
/// width at the lean of [`MIN_HULL_FACE_COSINE`]).
const FEATURE_LEVEL_FRACTION: f32 = 0.01;

/// Vertices of the regular polygon standing for a cylinder's cap or a
/// cone's base, all on the rim: 8, as Jolt approximates a cylinder's cap,
/// so that a cap clipped against a box face stays within
/// [`MAX_POLYGON_VERTICES`] (8 + 4 crossings at most) and is cheap. A cap
/// resting on a plane touches it at these rim points exactly.
pub(crate) const CAP_VERTICES: usize = 8;

/// Unit (cos, sin) of the [`CAP_VERTICES`] rim angles, k·45°.
const CAP_DIRECTIONS: [(f32, f32); CAP_VERTICES] = [
    (1.0, 0.0),
    (std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2),
    (0.0, 1.0),
    (-std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2),
    (-1.0, 0.0),
    (-std::f32::consts::FRAC_1_SQRT_2, -std::f32::consts::FRAC_1_SQRT_2),
    (0.0, -1.0),
    (std::f32::consts::FRAC_1_SQRT_2, -std::f32::consts::FRAC_1_SQRT_2),
];

/// Writes into `out` the world vertices of `shape`'s feature farthest along
/// `dir` (world), and returns the feature's index and its outward face
/// normal when it is a face. With `edges`, a hull whose best face leans
/// away from `dir` gives that face's farthest edge or vertex instead.
pub(crate) fn supporting_feature(
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
            // The capsule's side line facing `dir`: the core segment moved
            // out by the radius along the part of `dir` across the axis, so
            // every point of it (and every clip crossing on it) lies on the
            // capsule's surface. Moving the ends along `dir` itself would
            // put the chord between them inside a capsule leaning from the
            // normal, by up to its radius.
            let across = Vector3::new(dir_local.x, 0.0, dir_local.z);
            let across_len = across.norm();
            if !(across_len >= CAPSULE_SIDE_COSINE) {
                // Within about 3° of the axis (or NaN): the nearer end's
                // support point alone.
                let end = if dir_local.y > 0.0 { (top, 1) } else { (bottom, 0) };
                out.push((pose * end.0 + dir * c.radius, end.1));
                return (end.1, None);
            }
            let round = pose.rotation * (across * (c.radius / across_len));
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
                // slab). The near end's support point, on its hemisphere,
                // reaches deeper than the side line by `radius (1 - sin)`
                // of the lean; the clip adds the query's witness point
                // when that matters.
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
            // The first face of largest `n · dir` (none for a NaN
            // direction).
            let face = most_aligned_face(h, &dir_local).and_then(|i| {
                let f = h.faces().get(i)?;
                Some((i, f, f.normal.dot(&dir_local)))
            });
            match face {
                Some((i, f, best_dot)) if f.vertices.len() <= MAX_POLYGON_VERTICES => {
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
                    // Each vertex's reach is found once, for both passes.
                    let mut reached = ArrayVec::<(Point3<f32>, f32), MAX_POLYGON_VERTICES>::new();
                    reached.extend(vertices().map(|p| (*p, p.coords.dot(&dir_local))));
                    let (low, high) = reached
                        .iter()
                        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &(_, r)| {
                            (lo.min(r), hi.max(r))
                        });
                    let level = high - FEATURE_LEVEL_FRACTION * (high - low);
                    for (id, (p, r)) in reached.iter().enumerate() {
                        if *r >= level {
                            out.push((pose * p, id as u32));
                        }
                    }
                    (i as u32, None)
                }
                _ => {
                    let p = h.local_support(&dir_local);
                    out.push((pose * p, 0));
                    (0xFF, None)
                }
            }
        }
        Shape::Cylinder(c) => cylinder_feature(c, pose, &dir_local, out),
        Shape::Cone(c) => cone_feature(c, pose, &dir_local, out),
        Shape::Triangle(t) => triangle_feature(t, pose, &dir_local, out),
        Shape::Segment(s) => segment_feature(s, pose, &dir_local, out),
        Shape::Rounded(r) => {
            // The core's feature moved out by the radius onto the rounded
            // shape's surface: a face along its normal (the rounded shape's
            // flat face), a segment along the part of the direction across
            // it (the rounded side facing the direction), a vertex along
            // the direction (its support point).
            let feature = supporting_feature(&r.inner, pose, dir, edges, out);
            let offset = match (feature.1, out.len()) {
                (Some(normal), _) => normal * r.radius,
                (None, 2) => {
                    let axis = out[1].0 - out[0].0;
                    let across = dir - axis * (dir.dot(&axis) / axis.norm_squared());
                    let len = across.norm();
                    // A segment along the direction (or NaN): its support.
                    if len >= CAPSULE_SIDE_COSINE {
                        across * (r.radius / len)
                    } else {
                        dir * r.radius
                    }
                }
                _ => dir * r.radius,
            };
            for v in out.iter_mut() {
                v.0 += offset;
            }
            feature
        }
        Shape::Custom(c) => {
            out.push((pose * c.local_support(&dir_local), 0));
            (0, None)
        }
        // Not convex: refused by the manifold's input check before this.
        Shape::TriMesh(_) | Shape::HeightField(_) | Shape::Compound(_) => (0, None),
    }
}

/// Hulls with at most this many faces find the face most aligned with a
/// direction by a plain loop over the faces; larger ones by the SIMD scan
/// of their face planes (`FacePlanes::most_aligned`).
/// The scan works in blocks of 16 lanes and folds them, a fixed cost of
/// about 300 instructions (callgrind, the `trees` scene's 8-face prisms)
/// that the loop's 8 dot products undercut by far.
const LOOP_FACE_SCAN_MAX: usize = 8;

/// The first face of `h` whose normal has the largest dot product with
/// `dir_local`, or `None` when none beats −∞ (a NaN direction): the face
/// `FacePlanes::most_aligned` picks, which sums each dot product in the
/// same order and keeps the first of equal ones, as the loop does.
#[inline]
fn most_aligned_face(h: &ConvexHull, dir_local: &Vector3<f32>) -> Option<usize> {
    let faces = h.faces();
    if faces.len() > LOOP_FACE_SCAN_MAX {
        return h.face_planes().most_aligned(dir_local);
    }
    let mut best = None;
    let mut best_dot = f32::NEG_INFINITY;
    for (i, f) in faces.iter().enumerate() {
        let d = f.normal.dot(dir_local);
        // `>` keeps the first of equal faces; a NaN never wins.
        if d > best_dot {
            best_dot = d;
            best = Some(i);
        }
    }
    best
}

/// The unit radial direction of `dir_local` in the XZ plane (x when it has
/// none).
fn radial(dir_local: &Vector3<f32>) -> (f32, f32) {
    let length = (dir_local.x * dir_local.x + dir_local.z * dir_local.z).sqrt();
    if length > 0.0 { (dir_local.x / length, dir_local.z / length) } else { (1.0, 0.0) }
}

/// Pushes the [`CAP_VERTICES`] rim points of radius `r` at height `y`.
fn push_cap(r: f32, y: f32, pose: &Isometry3<f32>, out: &mut Polygon) {
    for (id, &(c, s)) in CAP_DIRECTIONS.iter().enumerate() {
        out.push((pose * Point3::new(r * c, y, r * s), id as u32));
    }
}

/// A cylinder's cap when the direction is within the face cosine of its
/// axis; its side line (both rim points) when the direction lies across the
/// axis; else the side line nearer rim point first, as a capsule's ends, so
/// that the clip keeps the far end only within the prediction distance.
fn cylinder_feature(
    c: &Cylinder,
    pose: &Isometry3<f32>,
    dir_local: &Vector3<f32>,
    out: &mut Polygon,
) -> (u32, Option<Vector3<f32>>) {
    let y = dir_local.y;
    if y.abs() > MIN_HULL_FACE_COSINE {
        let sign = 1.0f32.copysign(y);
        push_cap(c.radius, sign * c.half_height, pose, out);
        return (u32::from(sign > 0.0), Some(pose.rotation * Vector3::new(0.0, sign, 0.0)));
    }
    let (ux, uz) = radial(dir_local);
    let bottom = pose * Point3::new(c.radius * ux, -c.half_height, c.radius * uz);
    let top = pose * Point3::new(c.radius * ux, c.half_height, c.radius * uz);
    if y.abs() < CAPSULE_SIDE_COSINE || y < 0.0 {
        out.push((bottom, 0));
        out.push((top, 1));
    } else {
        out.push((top, 1));
        out.push((bottom, 0));
    }
    (2, None)
}

/// A cone's base when the direction is within the face cosine of -Y; its
/// side line (rim point to apex) when the direction lies across it; else
/// its support point (the apex or a rim point).
fn cone_feature(
    c: &Cone,
    pose: &Isometry3<f32>,
    dir_local: &Vector3<f32>,
    out: &mut Polygon,
) -> (u32, Option<Vector3<f32>>) {
    if dir_local.y < -MIN_HULL_FACE_COSINE {
        push_cap(c.radius, -c.half_height, pose, out);
        return (0, Some(pose.rotation * Vector3::new(0.0, -1.0, 0.0)));
    }
    let (ux, uz) = radial(dir_local);
    let rim = Point3::new(c.radius * ux, -c.half_height, c.radius * uz);
    let apex = Point3::new(0.0, c.half_height, 0.0);
    let side = apex - rim;
    // |cos| of the direction with the side line below the bound, without a
    // division; NaN gives the single point.
    let along = dir_local.dot(&side);
    if along * along < CAPSULE_SIDE_COSINE * CAPSULE_SIDE_COSINE * side.norm_squared() {
        out.push((pose * rim, 0));
        out.push((pose * apex, 1));
        return (1, None);
    }
    if along > 0.0 {
        out.push((pose * apex, 1));
        (2, None)
    } else {
        out.push((pose * rim, 0));
        (3, None)
    }
}

/// A triangle's face (either side) when the direction is within the face
/// cosine of its normal; else its vertices within
/// [`FEATURE_LEVEL_FRACTION`] of the farthest one's reach (an edge or a
/// vertex).
fn triangle_feature(
    t: &Triangle,
    pose: &Isometry3<f32>,
    dir_local: &Vector3<f32>,
    out: &mut Polygon,
) -> (u32, Option<Vector3<f32>>) {
    let normal = (t.b - t.a).cross(&(t.c - t.a));
    let along = normal.dot(dir_local);
    let vertices = [t.a, t.b, t.c];
    // |cos| above the bound, without a division.
    if along * along > MIN_HULL_FACE_COSINE * MIN_HULL_FACE_COSINE * normal.norm_squared() {
        let sign = 1.0f32.copysign(along);
        for (id, p) in vertices.iter().enumerate() {
            out.push((pose * p, id as u32));
        }
        let n = pose.rotation * (normal * sign).normalize();
        return (u32::from(sign > 0.0), Some(n));
    }
    let reach = |p: &Point3<f32>| p.coords.dot(dir_local);
    let (low, high) = vertices.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(reach(p)), hi.max(reach(p)))
    });
    let level = high - FEATURE_LEVEL_FRACTION * (high - low);
    for (id, p) in vertices.iter().enumerate() {
        if reach(p) >= level {
            out.push((pose * p, id as u32));
        }
    }
    if out.is_empty() {
        // NaN reaches: the support point alone.
        out.push((pose * t.a, 0));
    }
    (2, None)
}

/// A segment as a capsule's core: both ends when it lies across the
/// direction, else the nearer end first, then the farther.
fn segment_feature(
    s: &Segment,
    pose: &Isometry3<f32>,
    dir_local: &Vector3<f32>,
    out: &mut Polygon,
) -> (u32, Option<Vector3<f32>>) {
    let axis = s.b - s.a;
    let along = axis.dot(dir_local);
    if along * along < CAPSULE_SIDE_COSINE * CAPSULE_SIDE_COSINE * axis.norm_squared()
        || along < 0.0
    {
        out.push((pose * s.a, 0));
        out.push((pose * s.b, 1));
    } else {
        out.push((pose * s.b, 1));
        out.push((pose * s.a, 0));
    }
    (0, None)
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Vector3};

    use super::*;

    /// A hexagonal prism (8 faces, the loop's case), and a 32-point hull
    /// on a sphere (the scan's case).
    fn hulls() -> Vec<ConvexHull> {
        let mut prism = Vec::new();
        for k in 0..6 {
            let a = std::f32::consts::TAU * k as f32 / 6.0;
            prism.push(Point3::new(0.75 * a.cos(), 0.25, 0.75 * a.sin()));
            prism.push(Point3::new(0.75 * a.cos(), 3.25, 0.75 * a.sin()));
        }
        let ball: Vec<_> = (0..32)
            .map(|i| {
                let (t, z) = (i as f32 * 2.4, 1.0 - 2.0 * (i as f32 + 0.5) / 32.0);
                let r = (1.0 - z * z).sqrt();
                Point3::new(r * t.cos(), r * t.sin(), z)
            })
            .collect();
        let cube: Vec<_> = (0..8)
            .map(|i| Point3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
            .collect();
        [prism, ball, cube].iter().map(|p| ConvexHull::new(p).unwrap()).collect()
    }

    #[test]
    fn the_face_loop_picks_the_face_plane_scans_face() {
        let mut state = 0x9e37_79b9_u32;
        let mut next = || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        // Axes and diagonals (exact ties between faces), a NaN, then
        // seeded directions at scales 1e-3 to 1e3.
        let mut dirs = vec![
            Vector3::x(),
            -Vector3::y(),
            Vector3::new(1.0, 0.0, 1.0),
            Vector3::new(-1.0, -1.0, 0.0),
            Vector3::new(f32::NAN, 0.0, 1.0),
        ];
        for i in 0..600 {
            dirs.push(Vector3::new(next(), next(), next()) * 10f32.powi(i % 7 - 3));
        }
        for h in hulls() {
            for d in &dirs {
                assert_eq!(most_aligned_face(&h, d), h.face_planes().most_aligned(d), "{d:?}");
            }
        }
    }
}
