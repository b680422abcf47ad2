//! Each shape's supporting feature along a direction: the face, edge or
//! vertex that reaches farthest, as world vertices with feature ids, for
//! clipping one against the other (Jolt's `GetSupportingFace`). A sphere
//! gives its one point; a capsule its segment when it lies across the
//! direction (else its nearer end first, then its farther end); a box its
//! face; a hull the face whose normal is nearest the direction, or, when
//! that face leans away and `edges` is asked for, the face's farthest edge
//! or vertex.

use nalgebra::{Isometry3, Point3, Vector3};

use super::polygon_clip::{MAX_POLYGON_VERTICES, Polygon};
use crate::shape::Shape;
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
                    let p = h.local_support(&dir_local);
                    out.push((pose * p, 0));
                    (0xFF, None)
                }
            }
        }
    }
}
