//! The ghost-contact correction: a contact between a convex part and a
//! triangle of a mesh or heightfield whose feature on the triangle is an
//! inactive edge, a vertex of inactive edges, or the face itself with a
//! leaning normal (see [`super::edges`]) is a contact a smooth surface
//! would not have. Its normal becomes the face's (on the side the other
//! shape mostly lies, see [`face_side`]), as Jolt's
//! `ActiveEdges::FixNormal` does.
//!
//! A penetration is then re-measured along the face normal: the other
//! shape's deepest point below the face's plane. A manifold is rebuilt
//! along it: the other shape's supporting feature along the face normal is
//! clipped against the triangle (the face clipping of
//! [`contact_manifold`](crate::contact_manifold) with the normal given), so
//! only its part over the triangle is kept; the part over the neighbours is
//! theirs to report. Departure from Jolt, which keeps the manifold built
//! along the old normal and only swaps the normal: rebuilding keeps each
//! point's separation measured along the normal the solver will push on.
//!
//! A triangle whose three edges are all inactive (a triangle inside a flat
//! or gently curved surface) has every contact corrected to its face
//! normal, whatever the collision query finds, so [`face_normal_only`]
//! lets the manifold query skip GJK and EPA for it and build the face
//! manifold directly. So does a shape lying wholly above any triangle with
//! its deepest point over it: the face normal is then the query's own
//! answer (on the `trees` scene's wave mesh, whose crests have active
//! edges, 3.5 % of the pairs that went through GJK: most triangles a
//! shape's box reaches lie beside its deepest point, not under it).

use nalgebra::{Point3, Unit, Vector3};

use super::edges::{is_ghost, projects_inside, projects_into, touched_edges};
use super::hull_corners::HullCorners;
use super::pairs::{Leaf, Side};
use super::parts::Face;
use crate::manifold::{
    ContactManifold, SupportingFeature, feature_misses_triangle, manifold_along,
    outside_a_triangle_edge, shape_scale,
};
use crate::query::Penetration;
use crate::support_map::SupportMap;

/// A normal within this angle (radians) of the face normal is the face's:
/// 1e-5 rad is f32 rounding of a unit normal, so only contacts that truly
/// lean are examined.
const FACE_NORMAL_ANGLE: f32 = 1e-5;

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
) -> Option<FaceSide> {
    let n = face.normal()?;
    // Already along the face normal (either side): a face contact.
    if normal_from_face.cross(&n).norm() <= FACE_NORMAL_ANGLE {
        return None;
    }
    if !is_ghost(touched_edges(&face.corners, point_on_face), face.active) {
        return None;
    }
    Some(face_side(face, &n, other))
}

/// A face normal turned towards the other shape, and that shape's deepest
/// point along it (its support point along `-normal`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FaceSide {
    pub(crate) normal: Vector3<f32>,
    pub(crate) deepest: Point3<f32>,
}

/// The face normal `n` (or `-n`) on the side of the face's plane where
/// `other` mostly lies: the side whose push out of the plane is the
/// shorter, i.e. the midpoint of `other`'s extent along `n` is on it
/// (`n` when it is on the plane, or for non-finite extents). The extent is
/// the face's [`Span`](super::parts::Span) when the walk measured it.
///
/// Not the side of `other`'s origin: a shape's origin need not lie in it
/// (a hull's vertices may all sit away from its frame's origin, as a
/// tree's prisms do in the sandbox's `trees` scene, where a tilted bottom
/// prism resting on the waves has its origin below them), and a shape
/// just touching the face from above would then be pushed down through
/// it, as deep as the shape is tall.
pub(crate) fn face_side(face: &Face, n: &Vector3<f32>, other: &Side<'_>) -> FaceSide {
    let (highest, lowest) = match face.span {
        Some(span) => (span.highest, span.lowest),
        None => (support_world(other, n), support_world(other, &-n)),
    };
    let plane = n.dot(&face.corners[0].coords);
    let above = n.dot(&highest.coords) - plane;
    let below = plane - n.dot(&lowest.coords);
    // Written so that NaN keeps the front side.
    if below > above {
        FaceSide { normal: -n, deepest: highest }
    } else {
        FaceSide { normal: *n, deepest: lowest }
    }
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
    let Some(FaceSide { normal: s, deepest }) = ghost_normal(&face, &on_face, &from_face, other)
    else {
        return Correction::Keep;
    };
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

/// The normal of every contact of a leaf known without the collision
/// query: the face normal on the other shape's side (see [`face_side`]),
/// with which side holds the face, for a triangle whose three edges are
/// all inactive (the correction's normal, whatever the query finds) or
/// with the other shape over the face (the query's own normal, see
/// [`over_the_face`]); `None` for other leaves.
pub(crate) fn face_normal_only(leaf: &Leaf<'_, '_>) -> Option<(Face, bool, FaceSide)> {
    let (face, face_is_a) = face_of(leaf)?;
    let n = face.normal()?;
    let other = if face_is_a { &leaf.b } else { &leaf.a };
    let side = face_side(&face, &n, other);
    if face.active == 0 || over_the_face(&face, &side) {
        Some((face, face_is_a, side))
    } else {
        None
    }
}

/// Whether the other shape lies wholly on `side`'s side of the face's
/// plane (its deepest point at or above it) with that deepest point over
/// the closed triangle: then the triangle's nearest point to the shape is
/// the deepest point's projection, at the separation along the face
/// normal, so the face normal *is* the pair's contact normal, on any
/// triangle, whatever its active edges (every point of the shape is at
/// least that far from the plane, and so from the triangle, and this one
/// is exactly that far from a point of it). The collision query would
/// find the same normal and separation, up to its rounding.
fn over_the_face(face: &Face, side: &FaceSide) -> bool {
    let separation = side.normal.dot(&(side.deepest - face.corners[0]));
    separation >= 0.0 && projects_into(&face.corners, &side.deepest)
}

/// The correction of a leaf's manifold (normal from A to B), rebuilt along
/// the face normal with `prediction` (see the module docs); `corners` are
/// the other shape's, if [`hull_corners`](super::hull_corners) found them.
pub(crate) fn correct_manifold(
    leaf: &Leaf<'_, '_>,
    m: &ContactManifold,
    prediction: f32,
    corners: Option<&HullCorners>,
) -> Correction<ContactManifold> {
    let Some((face, face_is_a)) = face_of(leaf) else {
        return Correction::Keep;
    };
    let Some(deepest) = m.points().iter().min_by(|p, q| p.separation.total_cmp(&q.separation))
    else {
        return Correction::Keep;
    };
    let (other, on_face, from_face) = if face_is_a {
        (&leaf.b, deepest.point_a, m.normal)
    } else {
        (&leaf.a, deepest.point_b, -m.normal)
    };
    match ghost_normal(&face, &on_face, &from_face, other) {
        Some(side) => face_manifold(leaf, &face, face_is_a, &side, prediction, corners),
        None => Correction::Keep,
    }
}

/// The manifold of a leaf along its face's normal `s` (unit, from the face
/// towards the other shape, with the other shape's deepest point along
/// it): the other shape's supporting feature along `-s` clipped against
/// the triangle, separations measured along `s` (see the module docs). The
/// other shape's deepest point is the witness only when it lies over the
/// triangle. `Drop` when nothing over the triangle is within `prediction`.
/// `corners`, the other shape's vertices when it is a small hull (see
/// [`hull_corners`](super::hull_corners)), let a triangle beside the whole
/// hull be dropped before the feature is found.
pub(crate) fn face_manifold(
    leaf: &Leaf<'_, '_>,
    face: &Face,
    face_is_a: bool,
    side: &FaceSide,
    prediction: f32,
    corners: Option<&HullCorners>,
) -> Correction<ContactManifold> {
    let other = if face_is_a { &leaf.b } else { &leaf.a };
    let (s, deepest) = (&side.normal, side.deepest);
    let separation = s.dot(&(deepest - face.corners[0]));
    // Written so that NaN drops the pair.
    if !(separation <= prediction) {
        return Correction::Drop;
    }
    let scale = shape_scale(leaf.a.shape).min(shape_scale(leaf.b.shape));
    // The whole hull beside the triangle: so is its feature (see
    // `hull_corners`).
    if let Some(corners) = corners
        && outside_a_triangle_edge(corners.iter(), &face.corners, s, scale)
    {
        return Correction::Drop;
    }
    // The other shape's feature along `-s`, found once for the test and
    // the clip.
    let feature = SupportingFeature::of(other.shape, &other.pose, &-s, separation, scale);
    if feature_misses_triangle(&feature, &-s, &face.corners, s, prediction, scale) {
        return Correction::Drop;
    }
    // The witness, only for the few triangles the test keeps (on the
    // `trees` scene's wave mesh it drops about 14 in 15).
    let on_plane = deepest - s * separation;
    let over = projects_inside(&face.corners, &deepest);
    let (normal, witness) = if face_is_a {
        (*s, over.then_some([on_plane, deepest]))
    } else {
        (-s, over.then_some([deepest, on_plane]))
    };
    // `normal` is `s` from A to B: the other shape is B, its feature along
    // `-normal`; else it is A, its feature along `normal = -s`.
    let m = manifold_along(
        leaf.a.shape,
        &leaf.a.pose,
        leaf.b.shape,
        &leaf.b.pose,
        &normal,
        separation,
        witness,
        prediction,
        scale,
        Some((!face_is_a, &feature)),
    );
    if m.is_empty() { Correction::Drop } else { Correction::Replace(m) }
}
