//! The ghost-contact correction: a contact between a convex part and a
//! triangle of a mesh or heightfield whose feature on the triangle is an
//! inactive edge, a vertex of inactive edges, or the face itself with a
//! leaning normal (see [`super::edges`]) is a contact a smooth surface
//! would not have. Its normal becomes the face's (on the side the other
//! shape's origin is), as Jolt's `ActiveEdges::FixNormal` does.
//!
//! A penetration is then re-measured along the face normal: the other
//! shape's deepest point below the face's plane. A manifold is rebuilt
//! along it: the other shape is collided with a stand-in box whose top face
//! is the triangle's plane and which spans the other shape's footprint
//! (so the box–shape manifold's normal is the face normal), and only the
//! points over the triangle are kept; points over the neighbours are
//! theirs to report. Departure from Jolt, which keeps the manifold built
//! along the old normal and only swaps the normal: rebuilding keeps each
//! point's separation measured along the normal the solver will push on.

use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion, Vector3};

use super::edges::{is_ghost, projects_inside, touched_edges};
use super::pairs::{Leaf, Side};
use super::parts::Face;
use crate::error::QueryError;
use crate::manifold::{ContactManifold, ManifoldOutcome, try_contact_manifold};
use crate::query::Penetration;
use crate::shape::{Cuboid, Shape};
use crate::support_map::SupportMap;

/// A normal within this angle (radians) of the face normal is the face's:
/// 1e-5 rad is f32 rounding of a unit normal, so only contacts that truly
/// lean are examined.
const FACE_NORMAL_ANGLE: f32 = 1e-5;

/// How much wider than the other shape's box the stand-in box is, per
/// side, as a multiple of that box's half diagonal: wide enough that
/// pushing the shape out of the box sideways always costs more than
/// pushing it out of the top.
const STAND_IN_WIDTH: f32 = 2.0;

/// What the correction decided for a contact.
pub(crate) enum Correction<T> {
    /// Not a ghost: keep it.
    Keep,
    /// A ghost, corrected.
    Replace(T),
    /// A ghost with nothing left over the triangle: drop it.
    Drop,
}

/// The face in a leaf and which side holds it, if exactly one side is a
/// triangle of a surface (two triangles face each other: no correction).
fn face_of<'l, 'a, 'b>(leaf: &'l Leaf<'a, 'b>) -> Option<(Face, bool)> {
    match (leaf.a.face, leaf.b.face) {
        (Some(f), None) => Some((f, true)),
        (None, Some(f)) => Some((f, false)),
        _ => None,
    }
}

/// The corrected normal (from the face towards `other`) of a contact at
/// `point_on_face` with normal `normal_from_face`, if it is a ghost.
fn ghost_normal(
    face: &Face,
    point_on_face: &Point3<f32>,
    normal_from_face: &Vector3<f32>,
    other: &Side<'_>,
) -> Option<Vector3<f32>> {
    let n = face.normal()?;
    // Already along the face normal (either side): a face contact.
    if normal_from_face.cross(&n).norm() <= FACE_NORMAL_ANGLE {
        return None;
    }
    if !is_ghost(touched_edges(&face.corners, point_on_face), face.active) {
        return None;
    }
    let toward = other.pose.translation.vector - face.corners[0].coords;
    Some(if n.dot(&toward) >= 0.0 { n } else { -n })
}

/// The world point of `side` farthest along `dir`.
fn support_world(side: &Side<'_>, dir: &Vector3<f32>) -> Point3<f32> {
    side.pose * side.shape.local_support(&side.pose.inverse_transform_vector(dir))
}

/// The correction of a leaf's penetration (normal from A to B).
pub(crate) fn correct_penetration(leaf: &Leaf<'_, '_>, p: &Penetration) -> Correction<Penetration> {
    let Some((face, face_is_a)) = face_of(leaf) else {
        return Correction::Keep;
    };
    let (other, on_face, from_face) = if face_is_a {
        (&leaf.b, p.point_a, p.normal.into_inner())
    } else {
        (&leaf.a, p.point_b, -p.normal.into_inner())
    };
    let Some(s) = ghost_normal(&face, &on_face, &from_face, other) else {
        return Correction::Keep;
    };
    let deepest = support_world(other, &-s);
    let depth = s.dot(&(face.corners[0] - deepest));
    if !(depth >= 0.0) {
        return Correction::Drop;
    }
    let on_plane = deepest + s * depth;
    Correction::Replace(if face_is_a {
        Penetration { depth, normal: Unit::new_unchecked(s), point_a: on_plane, point_b: deepest }
    } else {
        Penetration { depth, normal: Unit::new_unchecked(-s), point_a: deepest, point_b: on_plane }
    })
}

/// The correction of a leaf's manifold (normal from A to B), rebuilt along
/// the face normal with `prediction` (see the module docs).
pub(crate) fn correct_manifold(
    leaf: &Leaf<'_, '_>,
    m: &ContactManifold,
    prediction: f32,
) -> Result<Correction<ContactManifold>, QueryError> {
    let Some((face, face_is_a)) = face_of(leaf) else {
        return Ok(Correction::Keep);
    };
    let Some(deepest) = m.points().iter().min_by(|p, q| p.separation.total_cmp(&q.separation))
    else {
        return Ok(Correction::Keep);
    };
    let (other, on_face, from_face) = if face_is_a {
        (&leaf.b, deepest.point_a, m.normal)
    } else {
        (&leaf.a, deepest.point_b, -m.normal)
    };
    let Some(s) = ghost_normal(&face, &on_face, &from_face, other) else {
        return Ok(Correction::Keep);
    };
    // The stand-in box: top face on the triangle's plane, centred under
    // the other shape's box.
    let other_box = other.shape.aabb(&other.pose);
    let centre = other_box.center();
    let half = STAND_IN_WIDTH * other_box.half_extents().norm();
    let on_plane = centre - s * s.dot(&(centre - face.corners[0]));
    let rotation = UnitQuaternion::rotation_between(&Vector3::y(), &s).unwrap_or_else(|| {
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::PI)
    });
    let box_pose = Isometry3::from_parts(Translation3::from(on_plane.coords - s * half), rotation);
    let stand_in = Shape::Cuboid(Cuboid::new(Vector3::repeat(half)));
    let outcome = try_contact_manifold(&stand_in, &box_pose, other.shape, &other.pose, prediction)?;
    let ManifoldOutcome::Within(rebuilt) = outcome else {
        return Ok(Correction::Drop);
    };
    let normal = if face_is_a { s } else { -s };
    let mut kept = ContactManifold::empty(normal);
    for p in rebuilt.points() {
        if !projects_inside(&face.corners, &p.point_a) {
            continue;
        }
        let mut q = *p;
        if !face_is_a {
            std::mem::swap(&mut q.point_a, &mut q.point_b);
        }
        kept.push(q);
    }
    Ok(if kept.is_empty() { Correction::Drop } else { Correction::Replace(kept) })
}
