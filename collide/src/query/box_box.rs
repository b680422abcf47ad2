//! Whether two boxes overlap, by the separating-axis theorem.
//!
//! Two convex polyhedra are disjoint exactly when some axis separates their
//! projections, and for two boxes the candidates are the three face normals
//! of each and the nine cross products of an edge of one with an edge of
//! the other: fifteen axes (Gottschalk, Lin and Manocha, *OBBTree*, 1996;
//! written as in Ericson, *Real-Time Collision Detection*, §4.4.1). On each
//! axis the test compares the distance between the centres' projections
//! with the sum of the boxes' projected radii, all in A's frame, where B's
//! axes are the columns of the rotation `R`.
//!
//! Where it departs: the only answer is overlap or not, with touching
//! counted as overlap (as the other queries do); the depth and witness
//! points still come from EPA. Ericson's absolute epsilon added to `|R|`
//! is here relative to the rotation's unit entries (see
//! [`PARALLEL_GUARD`]), so the guard scales with the boxes.

use nalgebra::{Isometry3, Matrix3, Vector3};

/// Added to each `|R_ij|` so that for two nearly parallel edges, whose
/// cross product is nearly zero, rounding in `R` cannot produce a false
/// separating axis: the projected radii grow by this fraction of the
/// extents, which makes the test err towards "overlapping" by at most
/// ~1e-6 of the boxes' size, below f32's resolution of their poses
/// (rotation entries are near 1, so their rounding is ~6e-8).
const PARALLEL_GUARD: f32 = 1e-6;

/// Whether box A (half extents `half_a`, at the origin of its frame) and
/// box B (half extents `half_b`, placed by `pose_b_in_a`) overlap or touch.
///
/// Always inlined: called, it read B's relative pose back from the stack
/// with wider loads than the caller had stored it with, a store-forwarding
/// stall on the path of every separated pair's verdict.
#[inline(always)]
pub(crate) fn boxes_overlap(
    half_a: &Vector3<f32>,
    half_b: &Vector3<f32>,
    pose_b_in_a: &Isometry3<f32>,
) -> bool {
    // Plain arrays, row-major (`r[i][j]` = A's axis i · B's axis j), so
    // the fully unrolled loops index with constants and no bounds checks.
    let m: Matrix3<f32> = pose_b_in_a.rotation.to_rotation_matrix().into_inner();
    let r = rows(&m);
    let g = |x: f32| x.abs() + PARALLEL_GUARD;
    let abs_r = [
        [g(r[0][0]), g(r[0][1]), g(r[0][2])],
        [g(r[1][0]), g(r[1][1]), g(r[1][2])],
        [g(r[2][0]), g(r[2][1]), g(r[2][2])],
    ];
    let v = pose_b_in_a.translation.vector;
    let t = [v.x, v.y, v.z];
    let (a, b) = ([half_a.x, half_a.y, half_a.z], [half_b.x, half_b.y, half_b.z]);
    const NEXT: [usize; 3] = [1, 2, 0];
    const PREV: [usize; 3] = [2, 0, 1];

    // A's face normals: axis i, B's radius through row i of |R|.
    for i in 0..3 {
        let rb = b[0] * abs_r[i][0] + b[1] * abs_r[i][1] + b[2] * abs_r[i][2];
        if t[i].abs() > a[i] + rb {
            return false;
        }
    }
    // B's face normals: column j of R.
    for j in 0..3 {
        let ra = a[0] * abs_r[0][j] + a[1] * abs_r[1][j] + a[2] * abs_r[2][j];
        let tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        if tj.abs() > ra + b[j] {
            return false;
        }
    }
    // Edge pairs: A's axis i crossed with B's axis j. With (i, i1, i2) and
    // (j, j1, j2) cyclic, the axis is e_i × R_j, whose components in A's
    // frame are −R_{i2 j} at i1 and R_{i1 j} at i2.
    for i in 0..3 {
        let (i1, i2) = (NEXT[i], PREV[i]);
        for j in 0..3 {
            let (j1, j2) = (NEXT[j], PREV[j]);
            let ra = a[i1] * abs_r[i2][j] + a[i2] * abs_r[i1][j];
            let rb = b[j1] * abs_r[i][j2] + b[j2] * abs_r[i][j1];
            let tij = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            if tij.abs() > ra + rb {
                return false;
            }
        }
    }
    // No separating axis; a NaN anywhere also ends here (every comparison
    // with NaN is false), but the queries reject non-finite input first.
    true
}

/// A matrix as plain row-major arrays (`rows(m)[i][j]` = `m[(i, j)]`), so
/// that unrolled loops index it with constants and no bounds checks.
/// Written out: `array::map` was left as a call, through the stack, whose
/// result the next loads read across the pieces it was stored in (a
/// store-forwarding stall, a third of a separated pair's verdict).
#[inline(always)]
pub(super) fn rows(m: &Matrix3<f32>) -> [[f32; 3]; 3] {
    [
        [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
        [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
        [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
    ]
}
