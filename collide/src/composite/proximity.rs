//! Overlap, distance and depth between any two shapes, composites
//! included: [`try_intersects`], [`try_closest_points`], [`try_penetration`]
//! and [`try_contact`], each answering with the parts it was found on.
//!
//! Each runs the convex query on the pairs of convex parts that can matter
//! (see `pairs`): those whose boxes overlap for overlap and depth, the
//! nearest by a growing search for distance. The deepest penetration over
//! the pairs is the answer's depth (for a mesh, the deepest triangle's,
//! with the ghost correction of `ghost` applied); the nearest pair's
//! distance is the answer's distance.

use nalgebra::Isometry3;

use super::ghost::{Correction, correct_penetration};
use super::pairs::{Leaf, Side, visit_leaves, visit_nearest};
use super::results::{OnParts, PartIds};
use crate::error::QueryError;
use crate::query::{Contact, Penetration, Proximity};
use crate::shape::Shape;

/// Rejects a NaN or infinite pose (the convex queries check the rest).
pub(crate) fn check_pose(pose: &Isometry3<f32>) -> Result<(), QueryError> {
    let finite =
        pose.translation.vector.iter().chain(pose.rotation.coords.iter()).all(|x| x.is_finite());
    if finite { Ok(()) } else { Err(QueryError::NonFiniteInput) }
}

/// Whether `a` at `pose_a` and `b` at `pose_b` overlap or touch, and if so
/// on which parts (the first pair found). Bad input answers `None`;
/// [`try_intersects`] reports it.
pub fn intersects(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Option<PartIds> {
    try_intersects(a, pose_a, b, pose_b).ok().flatten()
}

/// [`intersects`], reporting bad input.
///
/// ```
/// use collide::composite::{try_intersects, Compound};
/// use collide::{Cuboid, Shape, Sphere};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let l: Shape = Compound::try_new(vec![
///     (cube.clone(), Isometry3::identity()),
///     (cube, Isometry3::translation(1.0, 0.0, 0.0)),
/// ]).unwrap().into();
/// let ball: Shape = Sphere::new(0.2).into();
/// let hit = try_intersects(&l, &Isometry3::identity(), &ball, &Isometry3::translation(1.6, 0.0, 0.0));
/// assert_eq!(hit.unwrap().unwrap().a, Some(1)); // the second cube
/// ```
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, and what the
/// convex query reports for a part.
pub fn try_intersects(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Result<Option<PartIds>, QueryError> {
    check_pose(pose_a)?;
    check_pose(pose_b)?;
    let mut found = None;
    let mut error = None;
    visit_leaves(&Side::whole(a, pose_a), &Side::whole(b, pose_b), 0.0, &mut |leaf| {
        match crate::query::try_intersects(leaf.a.shape, &leaf.a.pose, leaf.b.shape, &leaf.b.pose) {
            Ok(true) => {
                found = Some(leaf.parts());
                false
            }
            Ok(false) => true,
            Err(e) => {
                error = Some(e);
                false
            }
        }
    });
    error.map_or(Ok(found), Err)
}

/// The distance between `a` and `b` and their closest points, on the
/// nearest pair of parts; `Intersecting` on the first overlapping pair
/// found. Bad input answers `Separated` with a NaN distance and points;
/// [`try_closest_points`] reports it.
pub fn closest_points(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> OnParts<Proximity> {
    try_closest_points(a, pose_a, b, pose_b).unwrap_or_else(|_| {
        let nan = nalgebra::Point3::new(f32::NAN, f32::NAN, f32::NAN);
        OnParts {
            answer: Proximity::Separated { distance: f32::NAN, point_a: nan, point_b: nan },
            parts: PartIds::default(),
        }
    })
}

/// [`closest_points`], reporting bad input.
///
/// # Errors
/// As [`try_intersects`].
pub fn try_closest_points(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Result<OnParts<Proximity>, QueryError> {
    check_pose(pose_a)?;
    check_pose(pose_b)?;
    let mut best: Option<(f32, OnParts<Proximity>)> = None;
    visit_nearest(&Side::whole(a, pose_a), &Side::whole(b, pose_b), &mut |leaf| {
        if matches!(best, Some((d, _)) if d <= 0.0) {
            return Ok(0.0);
        }
        let answer = crate::query::try_closest_points(
            leaf.a.shape,
            &leaf.a.pose,
            leaf.b.shape,
            &leaf.b.pose,
        )?;
        let d = match answer {
            Proximity::Intersecting => 0.0,
            Proximity::Separated { distance, .. } => distance,
        };
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, OnParts { answer, parts: leaf.parts() }));
        }
        Ok(d)
    })?;
    best.map(|(_, p)| p).ok_or(QueryError::NonFiniteInput)
}

/// The deepest penetration of `a` and `b` over their overlapping pairs of
/// parts (ghost-corrected on meshes and heightfields), or `None` if no pair
/// overlaps. Bad input answers `None`; [`try_penetration`] reports it.
pub fn penetration(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Option<OnParts<Penetration>> {
    try_penetration(a, pose_a, b, pose_b).ok().flatten()
}

/// [`penetration`], reporting bad input.
///
/// # Errors
/// As [`try_intersects`].
pub fn try_penetration(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Result<Option<OnParts<Penetration>>, QueryError> {
    check_pose(pose_a)?;
    check_pose(pose_b)?;
    deepest(&Side::whole(a, pose_a), &Side::whole(b, pose_b))
}

/// The deepest corrected penetration over the overlapping pairs.
fn deepest(a: &Side<'_>, b: &Side<'_>) -> Result<Option<OnParts<Penetration>>, QueryError> {
    let mut best: Option<OnParts<Penetration>> = None;
    let mut error = None;
    visit_leaves(a, b, 0.0, &mut |leaf: &Leaf<'_, '_>| {
        let found =
            crate::query::try_penetration(leaf.a.shape, &leaf.a.pose, leaf.b.shape, &leaf.b.pose);
        let p = match found {
            Ok(Some(p)) => p,
            Ok(None) => return true,
            Err(e) => {
                error = Some(e);
                return false;
            }
        };
        let p = match correct_penetration(leaf, &p) {
            Correction::Keep => p,
            Correction::Replace(q) => q,
            Correction::Drop => return true,
        };
        if best.as_ref().is_none_or(|b| p.depth > b.answer.depth) {
            best = Some(OnParts { answer: p, parts: leaf.parts() });
        }
        true
    });
    error.map_or(Ok(best), Err)
}

/// The contact of `a` and `b`: the deepest penetration over their pairs of
/// parts if any overlap (as [`penetration`]), else the nearest pair's
/// separation (as [`closest_points`], with its normal). Bad input answers
/// `Separated` with a NaN distance, normal and points; [`try_contact`]
/// reports it.
pub fn contact(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> OnParts<Contact> {
    try_contact(a, pose_a, b, pose_b).unwrap_or_else(|_| {
        let nan = nalgebra::Point3::new(f32::NAN, f32::NAN, f32::NAN);
        let normal = nalgebra::Unit::new_unchecked(nalgebra::Vector3::repeat(f32::NAN));
        OnParts {
            answer: Contact::Separated { distance: f32::NAN, normal, point_a: nan, point_b: nan },
            parts: PartIds::default(),
        }
    })
}

/// [`contact`], reporting bad input.
///
/// ```
/// use collide::composite::{try_contact, HeightField};
/// use collide::{Contact, Shape, Sphere};
/// use collide::nalgebra::Isometry3;
/// let flat: Shape = HeightField::try_new(3, 3, vec![0.0; 9], [1.0, 1.0]).unwrap().into();
/// let ball: Shape = Sphere::new(0.5).into();
/// let c = try_contact(&flat, &Isometry3::identity(), &ball, &Isometry3::translation(0.2, 0.4, 0.3))
///     .unwrap();
/// let Contact::Penetrating(p) = c.answer else { panic!() };
/// assert!((p.depth - 0.1).abs() < 1e-5 && (p.normal.y - 1.0).abs() < 1e-5);
/// assert!(c.parts.a.is_some() && c.parts.b.is_none());
/// ```
///
/// # Errors
/// As [`try_intersects`].
pub fn try_contact(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
) -> Result<OnParts<Contact>, QueryError> {
    check_pose(pose_a)?;
    check_pose(pose_b)?;
    let (sa, sb) = (Side::whole(a, pose_a), Side::whole(b, pose_b));
    if let Some(p) = deepest(&sa, &sb)? {
        return Ok(OnParts { answer: Contact::Penetrating(p.answer), parts: p.parts });
    }
    let mut best: Option<(f32, OnParts<Contact>)> = None;
    visit_nearest(&sa, &sb, &mut |leaf| {
        let answer =
            crate::query::try_contact(leaf.a.shape, &leaf.a.pose, leaf.b.shape, &leaf.b.pose)?;
        let d = match answer {
            Contact::Penetrating(_) => 0.0,
            Contact::Separated { distance, .. } => distance,
        };
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, OnParts { answer, parts: leaf.parts() }));
        }
        Ok(d)
    })?;
    best.map(|(_, p)| p).ok_or(QueryError::NonFiniteInput)
}
