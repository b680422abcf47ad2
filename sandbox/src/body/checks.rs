//! The checks a body's values pass before the world takes them: every
//! field of a [`BodyDesc`] and every setter's argument against its
//! [`BodyField::rule`]. One set of rules for the API and the scene files
//! (whose validator checks the same fields against the same rules, with
//! the file's line and column).
//!
//! A convex hull needs no check here: [`ConvexHull::new`](collide::ConvexHull::new)
//! is its only constructor, and it refuses non-finite, too few and
//! degenerate points. A dynamic flat hull has no volume, so no mass: the
//! mass check ([`WorldError::BadMass`]) refuses it.

use collide::Shape;
use collide::nalgebra::{Isometry3, Vector3};

use crate::body::BodyDesc;
use crate::error::{BodyField, WorldError};

/// Checks `values` against `field`'s rule.
///
/// # Errors
/// [`WorldError::InvalidBody`] with the first value that breaks it.
pub(crate) fn check(
    field: BodyField,
    values: impl IntoIterator<Item = f32>,
) -> Result<(), WorldError> {
    let rule = field.rule();
    rule.check(values).map_err(|value| WorldError::InvalidBody { field, rule, value })
}

/// Checks a vector against `field`'s rule, component by component.
///
/// # Errors
/// As [`check`].
pub(crate) fn check_vector(field: BodyField, v: &Vector3<f32>) -> Result<(), WorldError> {
    check(field, v.iter().copied())
}

/// Checks a pose: a finite position within the world bound and a finite
/// unit quaternion.
///
/// # Errors
/// [`WorldError::InvalidBody`] for [`BodyField::Position`] or
/// [`BodyField::Rotation`].
pub(crate) fn check_pose(pose: &Isometry3<f32>) -> Result<(), WorldError> {
    check_vector(BodyField::Position, &pose.translation.vector)?;
    let q = &pose.rotation.coords;
    let norm = match q.iter().find(|c| !c.is_finite()) {
        // Breaks the rule as its norm would, and says why.
        Some(&non_finite) => non_finite,
        None => {
            // Rescaled by the largest component first, so that a huge
            // finite quaternion's norm does not overflow to infinity.
            let largest = q.amax();
            if largest > 0.0 { (q / largest).norm() * largest } else { 0.0 }
        }
    };
    check(BodyField::Rotation, [norm])
}

/// Checks a shape's parameters: positive cuboid half extents, sphere and
/// capsule radii, and a zero or positive capsule half height.
///
/// # Errors
/// [`WorldError::InvalidBody`] for the shape's parameter.
pub(crate) fn check_shape(shape: &Shape) -> Result<(), WorldError> {
    match shape {
        Shape::Cuboid(c) => check_vector(BodyField::CuboidHalfExtents, &c.half_extents),
        Shape::Sphere(s) => check(BodyField::SphereRadius, [s.radius]),
        Shape::Capsule(c) => {
            check(BodyField::CapsuleHalfHeight, [c.half_height])?;
            check(BodyField::CapsuleRadius, [c.radius])
        }
        // Checked by its constructor (see the module's notes).
        Shape::ConvexHull(_) => Ok(()),
    }
}

/// Checks every field of `desc`, in the order of [`BodyField`]'s variants
/// (the pose, the velocities, the material), then its shape. A fixed
/// body's density is checked too, though it has no mass: a bad value is a
/// mistake wherever it is, and the scene files refuse it for any body.
///
/// # Errors
/// [`WorldError::InvalidBody`] naming the first field that breaks its
/// rule.
pub(crate) fn check_desc(desc: &BodyDesc) -> Result<(), WorldError> {
    check_pose(&desc.pose)?;
    check_vector(BodyField::LinearVelocity, &desc.linear_velocity)?;
    check_vector(BodyField::AngularVelocity, &desc.angular_velocity)?;
    check(BodyField::Density, [desc.density])?;
    check(BodyField::Friction, [desc.friction])?;
    check(BodyField::Restitution, [desc.restitution])?;
    check_shape(&desc.shape)
}
