//! The penetration depth, normal and witness points of two overlapping
//! boxes, by the separating-axis theorem.
//!
//! The smallest translation that separates two convex polyhedra is along a
//! face normal of their Minkowski difference, and for two boxes those are
//! the fifteen axes of the overlap test ([`super::box_box`]): the three face
//! normals of each box and the nine cross products of an edge of one with an
//! edge of the other. So the depth is the smallest overlap of the boxes'
//! projections over those axes, with no iteration (the method of Gottschalk,
//! Lin and Manocha's *OBBTree*, 1996, and of the box–box contact in Box2D v3
//! and Jolt). EPA reaches the same answer iteratively, at about twenty
//! times the cost.
//!
//! The witness points come from the winning axis: for a face of one box,
//! the other box's deepest vertex and its image on that face; for two edges,
//! their closest points.
//!
//! Where it departs: it answers only when the answer is well conditioned,
//! and otherwise returns `None` so that the caller runs EPA. That is when
//! an edge axis from two nearly parallel edges (whose cross product is too
//! short for f32 to give it a reliable direction and depth) might be the
//! smallest, and when the witness construction does not land on the other
//! box's feature (a face or edge parallel to the winning face, within
//! rounding). Both are rare for general poses.

use nalgebra::{Isometry3, Matrix3, Point3, Unit, Vector3};

use crate::query::results::Penetration;

/// Relative rounding of an edge axis's unnormalised overlap: its terms are
/// products of extents (up to the pair's size) and rotation entries (each
/// rounded at ~6e-8), summed six at a time, so 1e-6 of the pair's size
/// (~16 ulps) bounds the error. Divided by the axis's length, this is the
/// error of that axis's depth.
pub(super) const EDGE_ROUNDING_REL: f32 = 1e-6;

/// The largest depth error, relative to the pair's size, accepted from an
/// edge axis that might win: 1e-4, far inside the accuracy that EPA is held
/// to (1e-3). An axis that might win with more error sends the pair to EPA.
pub(super) const EDGE_DEPTH_ERROR_REL: f32 = 1e-4;

/// The sine of the angle between two edges below which their cross product
/// is not a candidate axis. At zero angle it is not one: parallel edges
/// contribute no face to the Minkowski difference that a box face normal
/// does not also give. Turning a box by a small angle moves every support
/// value, and so the depth, by at most that angle times the pair's size, so
/// leaving out the axes of edges within 5e-5 rad of parallel costs at most
/// 1e-4 of the size in depth (twice 5e-5: the depth found and the true one
/// both move).
pub(super) const PARALLEL_SINE: f32 = 5e-5;

/// How far, relative to the pair's size, a witness point may fall outside
/// the feature it must lie on (a box face or edge) before the pair goes to
/// EPA instead: rounding of the vertex and of its projection, ~100 ulps.
pub(super) const FEATURE_SLACK_REL: f32 = 1e-5;

/// The axis along which the boxes overlap least.
#[derive(Clone, Copy, Debug)]
enum Axis {
    /// Face normal `i` of A.
    FaceA(usize),
    /// Face normal `j` of B.
    FaceB(usize),
    /// A's edge direction `i` crossed with B's edge direction `j`.
    Edges(usize, usize),
}

/// The penetration of two boxes known to overlap or touch (A's half extents
/// `half_a` at the origin of its frame, B's placed by `pose_b_in_a`), in A's
/// frame, or `None` when it is not well conditioned (see the file header).
pub(crate) fn box_penetration(
    half_a: &Vector3<f32>,
    half_b: &Vector3<f32>,
    pose_b_in_a: &Isometry3<f32>,
) -> Option<Penetration> {
    // B's axes are the columns of R, in A's frame.
    let r: Matrix3<f32> = pose_b_in_a.rotation.to_rotation_matrix().into_inner();
    let abs_r = r.abs();
    let t = pose_b_in_a.translation.vector;
    let size = half_a.max() + half_b.max() + t.amax();

    // Face axes: the overlap of the projections, A's radius plus B's minus
    // the centres' separation.
    let mut best = (f32::INFINITY, Axis::FaceA(0));
    for i in 0..3 {
        let rb = half_b.dot(&abs_r.row(i).transpose());
        let overlap = half_a[i] + rb - t[i].abs();
        if overlap < best.0 {
            best = (overlap, Axis::FaceA(i));
        }
    }
    for j in 0..3 {
        let ra = half_a.dot(&abs_r.column(j));
        let overlap = ra + half_b[j] - t.dot(&r.column(j)).abs();
        if overlap < best.0 {
            best = (overlap, Axis::FaceB(j));
        }
    }
    // Edge axes, unnormalised: L = e_i × R_j. Its overlap over |L| is the
    // depth along it, known to about EDGE_ROUNDING_REL · size / |L|.
    for i in 0..3 {
        for j in 0..3 {
            let axis = Vector3::ith(i, 1.0).cross(&r.column(j));
            let in_b = r.tr_mul(&axis);
            let overlap = half_a.dot(&axis.abs()) + half_b.dot(&in_b.abs()) - t.dot(&axis).abs();
            let length = axis.norm();
            if length <= PARALLEL_SINE {
                continue;
            }
            let error = EDGE_ROUNDING_REL * size;
            // Cannot beat the best so far, even with its rounding.
            if overlap - error >= best.0 * length {
                continue;
            }
            if error > EDGE_DEPTH_ERROR_REL * size * length {
                return None;
            }
            let depth = overlap / length;
            if depth < best.0 {
                best = (depth, Axis::Edges(i, j));
            }
        }
    }
    let depth = best.0.max(0.0);
    if !depth.is_finite() {
        return None;
    }
    let slack = FEATURE_SLACK_REL * size;
    // +1 or -1, with +1 for zero, so that a normal always exists.
    let sign = |x: f32| if x < 0.0 { -1.0 } else { 1.0 };
    let (normal, point_a, point_b) = match best.1 {
        Axis::FaceA(i) => {
            // B's deepest vertex along -n must lie over A's face i.
            let n = Vector3::ith(i, sign(t[i]));
            let vertex = Point3::from(t + r * (-r.tr_mul(&n)).map(sign).component_mul(half_b));
            if (0..3).any(|k| k != i && vertex[k].abs() > half_a[k] + slack) {
                return None;
            }
            let mut on_a = vertex;
            on_a[i] = n[i] * half_a[i];
            (n, on_a, vertex)
        }
        Axis::FaceB(j) => {
            // A's deepest vertex along n must lie over B's face j.
            let n = r.column(j) * sign(t.dot(&r.column(j)));
            let vertex = Point3::from(n.map(sign).component_mul(half_a));
            let in_b = r.tr_mul(&(vertex.coords - t));
            if (0..3).any(|k| k != j && in_b[k].abs() > half_b[k] + slack) {
                return None;
            }
            (n, vertex, vertex - n * depth)
        }
        Axis::Edges(i, j) => {
            let (n, centre_a, centre_b) = supporting_edges(i, j, &r, &t, half_a, half_b);
            let (s, u) =
                line_parameters(&centre_a, &Vector3::ith(i, 1.0), &centre_b, &r.column(j).into())?;
            if s.abs() > half_a[i] + slack || u.abs() > half_b[j] + slack {
                return None;
            }
            let on_a = Point3::from(centre_a + Vector3::ith(i, s));
            let on_b = Point3::from(centre_b + r.column(j) * u);
            (n, on_a, on_b)
        }
    };
    let normal = Unit::try_new(normal, 0.0)?;
    Some(Penetration { depth, normal, point_a, point_b })
}

/// For the edge axis `e_i × R_j` (A's axis `i` crossed with B's axis `j`,
/// B's axes the columns of `r` in A's frame, B's centre at `t`): the axis as
/// a unit normal oriented from A towards B, and the centres of the edges
/// that support each box along it, A's along `e_i` through its support
/// along the normal, B's along `R_j` through its support against it.
#[inline(always)]
pub(super) fn supporting_edges(
    i: usize,
    j: usize,
    r: &Matrix3<f32>,
    t: &Vector3<f32>,
    half_a: &Vector3<f32>,
    half_b: &Vector3<f32>,
) -> (Vector3<f32>, Vector3<f32>, Vector3<f32>) {
    // +1 or -1, with +1 for zero, so that a normal always exists.
    let sign = |x: f32| if x < 0.0 { -1.0 } else { 1.0 };
    let axis = Vector3::ith(i, 1.0).cross(&r.column(j));
    let n = axis * (sign(t.dot(&axis)) / axis.norm());
    let mut centre_a = n.map(sign).component_mul(half_a);
    centre_a[i] = 0.0;
    let mut corner_b = (-r.tr_mul(&n)).map(sign).component_mul(half_b);
    corner_b[j] = 0.0;
    (n, centre_a, t + r * corner_b)
}

/// The parameters `(s, u)` of the closest points `p + s d` and `q + u e` of
/// two lines with unit directions `d` and `e`, or `None` when they are too
/// close to parallel for one pair to be singled out.
fn line_parameters(
    p: &Vector3<f32>,
    d: &Vector3<f32>,
    q: &Vector3<f32>,
    e: &Vector3<f32>,
) -> Option<(f32, f32)> {
    let w = p - q;
    let b = d.dot(e);
    let (dw, ew) = (d.dot(&w), e.dot(&w));
    let det = 1.0 - b * b;
    // An edge axis wins only with a sine of at least 1e-2 (see
    // EDGE_DEPTH_ERROR_REL), so a far smaller determinant (the sine squared)
    // is rounding.
    if !(det > 1e-6) {
        return None;
    }
    Some(((b * ew - dw) / det, (ew - b * dw) / det))
}
