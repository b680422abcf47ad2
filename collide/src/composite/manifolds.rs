//! Contact manifolds between any two shapes, composites included: one
//! [`ContactManifold`](crate::ContactManifold) per pair of convex parts
//! within the prediction distance, ghost-corrected on meshes and
//! heightfields, in a caller-owned [`ManifoldSet`].

use nalgebra::Isometry3;

use std::cell::OnceCell;

use super::CompositeRef;
use super::face_axes::{HullPlanes, beyond_a_face_axis};
use super::ghost::{Correction, correct_manifold, face_manifold, face_normal_only, face_side};
use super::hull_corners::hull_corners;
use super::pairs::{Leaf, Side, measure_corners_against_plane, visit_leaves_culled};
use super::part_caches::PartCaches;
use super::parts::Face;
use super::proximity::check_pose;
use super::results::{ManifoldSet, PartManifold};
use crate::error::QueryError;
use crate::manifold::{
    ManifoldOutcome, check_input, outside_a_triangle_edge_either_way, shape_scale,
    try_contact_manifold_cached,
};
use crate::query::GjkCache;
use crate::shape::Shape;

/// Fills `out` (emptied first) with the manifolds of `a` at `pose_a` and
/// `b` at `pose_b`: one per pair of convex parts whose points come within
/// `prediction` (as [`contact_manifold`](crate::contact_manifold) for each
/// pair), each with its parts' indices. A contact with a triangle of a mesh
/// or heightfield on one of its inactive edges (or vertices) gets the
/// triangle's face normal and keeps only its points over the triangle (see
/// the module docs of [`composite`](crate::composite)). Two convex shapes
/// give at most one manifold, exactly [`contact_manifold`](crate::contact_manifold)'s.
/// A pair touching more than [`MAX_PART_MANIFOLDS`](super::MAX_PART_MANIFOLDS)
/// parts keeps the deepest (see [`ManifoldSet::overflow`]).
///
/// Bad input leaves `out` empty; [`try_contact_manifolds`] reports it.
pub fn contact_manifolds(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    out: &mut ManifoldSet,
) {
    if try_contact_manifolds(a, pose_a, b, pose_b, prediction, out).is_err() {
        out.clear();
    }
}

/// [`contact_manifolds`], reporting bad input.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose or
/// `prediction`, and what [`try_contact_manifold`](crate::try_contact_manifold)
/// reports for a pair of parts.
pub fn try_contact_manifolds(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    out: &mut ManifoldSet,
) -> Result<(), QueryError> {
    manifolds_of(a, pose_a, b, pose_b, prediction, out, None)
}

/// [`contact_manifolds`] with GJK's warm starts for the pairs of parts,
/// kept in `caches` from the last call for the same two shapes and
/// replaced by this call's (see [`PartCaches`]). The answers are those of
/// [`contact_manifolds`] to GJK's tolerance, whatever `caches` holds.
/// Bad input leaves `out` empty and `caches` as it was.
pub fn contact_manifolds_cached(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    out: &mut ManifoldSet,
    caches: &mut PartCaches,
) {
    if try_contact_manifolds_cached(a, pose_a, b, pose_b, prediction, out, caches).is_err() {
        out.clear();
    }
}

/// [`contact_manifolds_cached`], reporting bad input.
///
/// # Errors
/// As [`try_contact_manifolds`].
pub fn try_contact_manifolds_cached(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    out: &mut ManifoldSet,
    caches: &mut PartCaches,
) -> Result<(), QueryError> {
    manifolds_of(a, pose_a, b, pose_b, prediction, out, Some(caches))
}

/// [`try_contact_manifolds_cached`], or cold when `caches` is `None`.
fn manifolds_of(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    out: &mut ManifoldSet,
    caches: Option<&mut PartCaches>,
) -> Result<(), QueryError> {
    out.clear();
    check_pose(pose_a)?;
    check_pose(pose_b)?;
    if !prediction.is_finite() {
        return Err(QueryError::NonFiniteInput);
    }
    // The convex shapes' parameters, once for every leaf (each against
    // itself: the check is per shape).
    for (shape, pose) in [(a, pose_a), (b, pose_b)] {
        if CompositeRef::of(shape).is_none() {
            check_input(shape, pose, shape, pose, prediction)?;
        }
    }
    let mut error = None;
    let margin = prediction.max(0.0);
    // The convex side's vertices in the world, if it is a small hull,
    // found at the first triangle that needs them (see `hull_corners`).
    let whole_convex = if CompositeRef::of(a).is_none() { (a, pose_a) } else { (b, pose_b) };
    let corners = OnceCell::new();
    // Its size, for the cull's tolerances (the only side the cull measures
    // against: a compound's parts have no corners here).
    let convex_scale = shape_scale(whole_convex.0);
    let corners_of = |other: &Side<'_>| {
        // A compound's part moves with its own pose: not these corners.
        if other.part.is_some() {
            return None;
        }
        corners.get_or_init(|| hull_corners(whole_convex.0, whole_convex.1)).as_ref()
    };
    // The same hull's face planes in the world, for the triangles with an
    // active edge (see `face_axes`).
    let planes = OnceCell::new();
    // A triangle of inactive edges goes to the face path, which drops it
    // when the whole hull lies beside it (see `hull_corners`): dropped here
    // before its plane test, by the same test. The face path's side
    // planes are the same for either face normal its `face_side` picks
    // (each flips to face away from the triangle), but for a sliver whose
    // opposite corner lies on an edge's line; both are tested, so even
    // then only a triangle it would drop is skipped.
    //
    // A triangle with an active edge goes to the collision query, which
    // finds it farther than the prediction whenever a face axis of the
    // pair separates them by more (see `face_axes`): dropped here too.
    //
    // A triangle that stays goes to the plane test, measured here on the
    // same corners (see `measure_corners_against_plane`).
    let cull = |face: &mut Face, triangle: &Shape, other: &Side<'_>| {
        let (Some(corners), Some(n)) = (corners_of(other), face.normal()) else {
            return false;
        };
        let scale = shape_scale(triangle).min(convex_scale);
        let culled = if face.active != 0 {
            let planes = planes.get_or_init(|| HullPlanes::of(whole_convex.0, whole_convex.1));
            planes.as_ref().is_some_and(|planes| {
                beyond_a_face_axis(corners, planes, &face.corners, &n, margin, scale)
            })
        } else {
            outside_a_triangle_edge_either_way(corners.iter(), &face.corners, &n, scale)
        };
        culled || measure_corners_against_plane(face, corners, &n, margin)
    };
    // This call's warm starts, which replace the caller's at the end (kept
    // only when the caller has a table).
    let warm = caches.is_some();
    let mut next = PartCaches::new();
    let (side_a, side_b) = (Side::whole(a, pose_a), Side::whole(b, pose_b));
    visit_leaves_culled(&side_a, &side_b, margin, &cull, &mut |leaf| {
        let mut run = || -> Result<Option<PartManifold>, QueryError> {
            // Every contact with a triangle of inactive edges gets its face
            // normal: no collision query needed.
            if let Some((face, face_is_a, s)) = face_normal_only(leaf) {
                // A whole convex shape was checked once above; a compound's
                // part is checked here.
                if (if face_is_a { leaf.b.part } else { leaf.a.part }).is_some() {
                    check_input(
                        leaf.a.shape,
                        &leaf.a.pose,
                        leaf.b.shape,
                        &leaf.b.pose,
                        prediction,
                    )?;
                }
                // The walk's cull has tested the whole hull already.
                return Ok(match face_manifold(leaf, &face, face_is_a, &s, prediction, None) {
                    Correction::Replace(manifold) => {
                        Some(PartManifold { manifold, parts: leaf.parts() })
                    }
                    Correction::Keep | Correction::Drop => None,
                });
            }
            // The pair of parts' own warm start, else the triangle's normal.
            let parts = leaf.parts();
            let mut cache = match caches.as_deref().and_then(|c| c.get(parts)) {
                Some(kept) => *kept,
                None => facing_start(leaf),
            };
            let outcome = try_contact_manifold_cached(
                leaf.a.shape,
                &leaf.a.pose,
                leaf.b.shape,
                &leaf.b.pose,
                prediction,
                &mut cache,
            )?;
            if warm {
                next.push(parts, cache);
            }
            let ManifoldOutcome::Within(m) = outcome else {
                return Ok(None);
            };
            if m.is_empty() {
                return Ok(None);
            }
            let corners = match (leaf.a.face, leaf.b.face) {
                (Some(_), None) => corners_of(&leaf.b),
                (None, Some(_)) => corners_of(&leaf.a),
                _ => None,
            };
            let manifold = match correct_manifold(leaf, &m, prediction, corners) {
                Correction::Keep => m,
                Correction::Replace(fixed) => fixed,
                Correction::Drop => return Ok(None),
            };
            Ok(Some(PartManifold { manifold, parts: leaf.parts() }))
        };
        match run() {
            Ok(Some(pm)) => {
                out.push(pm);
                true
            }
            Ok(None) => true,
            Err(e) => {
                error = Some(e);
                false
            }
        }
    });
    match error {
        Some(e) => {
            out.clear();
            Err(e)
        }
        None => {
            if let Some(caches) = caches {
                *caches = next;
            }
            Ok(())
        }
    }
}

/// GJK's first direction for a leaf with a triangle: the triangle's
/// normal, turned towards the side of its plane where the other shape
/// mostly lies (the ghost correction's [`face_side`]), as a direction from
/// B towards A in A's frame (GJK's `v ≈ a − b`). GJK's own start, A's
/// origin less B's, reads a mesh triangle's origin, which is the mesh's
/// and may lie anywhere; the normal is the separating direction of a
/// shape over the face and near it over an edge. On the `trees` scene it
/// saves about 8 % of GJK's instructions a call.
fn facing_start(leaf: &Leaf<'_, '_>) -> GjkCache {
    let (face, other, face_is_a) = match (&leaf.a.face, &leaf.b.face) {
        (None, Some(f)) => (f, &leaf.a, false),
        (Some(f), None) => (f, &leaf.b, true),
        _ => return GjkCache::default(),
    };
    let Some(n) = face.normal() else {
        return GjkCache::default();
    };
    let towards_other = face_side(face, &n, other).normal;
    // In the world, from B to A.
    let b_to_a = if face_is_a { -towards_other } else { towards_other };
    GjkCache::starting_along(leaf.a.pose.inverse_transform_vector(&b_to_a))
}
