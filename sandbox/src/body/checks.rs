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

use collide::nalgebra::{Isometry3, Vector3};
use collide::{Segment, Shape, Triangle};

use crate::body::{BodyDesc, BodyKind};
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
    check_pose_as(pose, BodyField::Position, BodyField::Rotation)
}

/// Checks a pose as [`check_pose`] does, naming its parts `position` and
/// `rotation` (a body's, or a shape's in its body).
fn check_pose_as(
    pose: &Isometry3<f32>,
    position: BodyField,
    rotation: BodyField,
) -> Result<(), WorldError> {
    check_vector(position, &pose.translation.vector)?;
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
    check(rotation, [norm])
}

/// Checks a shape's parameters: positive sizes (cuboid half extents,
/// radii, cylinder and cone half heights, a rounding radius), a zero or
/// positive capsule half height, finite triangle and segment points that
/// span a triangle or a segment, and a rounded shape's inner shape.
///
/// A user's [`Shape::Custom`] is the user's to keep valid: its support
/// points are checked by every query, and a mass that is not positive by
/// [`WorldError::BadMass`].
///
/// # Errors
/// [`WorldError::InvalidBody`] for the shape's parameter;
/// [`WorldError::InvalidShape`] for a degenerate triangle or segment.
/// Meshes, heightfields and compounds were checked when they were built
/// (their constructors refuse degenerate or non-finite triangles and
/// parts).
pub(crate) fn check_shape(shape: &Shape) -> Result<(), WorldError> {
    match shape {
        Shape::Cuboid(c) => check_vector(BodyField::CuboidHalfExtents, &c.half_extents),
        Shape::Sphere(s) => check(BodyField::SphereRadius, [s.radius]),
        Shape::Capsule(c) => {
            check(BodyField::CapsuleHalfHeight, [c.half_height])?;
            check(BodyField::CapsuleRadius, [c.radius])
        }
        Shape::Cylinder(c) => {
            check(BodyField::CylinderHalfHeight, [c.half_height])?;
            check(BodyField::CylinderRadius, [c.radius])
        }
        Shape::Cone(c) => {
            check(BodyField::ConeHalfHeight, [c.half_height])?;
            check(BodyField::ConeRadius, [c.radius])
        }
        Shape::Triangle(t) => {
            let points = t.vertices();
            check(BodyField::TrianglePoints, points.iter().flat_map(|p| p.coords.iter().copied()))?;
            Triangle::try_new(t.a, t.b, t.c).map(|_| ()).map_err(WorldError::InvalidShape)
        }
        Shape::Segment(s) => {
            check(BodyField::SegmentPoints, s.a.coords.iter().chain(s.b.coords.iter()).copied())?;
            Segment::try_new(s.a, s.b).map(|_| ()).map_err(WorldError::InvalidShape)
        }
        Shape::Rounded(r) => {
            check(BodyField::RoundedRadius, [r.radius])?;
            check_shape(&r.inner)
        }
        // Checked by its constructor (see the module's notes), and the
        // user's own shapes by the user (see above).
        Shape::ConvexHull(_) | Shape::Custom(_) => Ok(()),
        // Checked by their constructors: `TriMesh::try_new`,
        // `HeightField::try_new` and `Compound::try_new` refuse what the
        // world could not simulate.
        Shape::TriMesh(_) | Shape::HeightField(_) | Shape::Compound(_) => Ok(()),
        // A kind added to collide after this world was written: the
        // queries check its parameters.
        _ => Ok(()),
    }
}

/// Checks every field of `desc`: the pose, the velocities and the sleep
/// threshold, the number of shapes (1 to [`MAX_BODY_SHAPES`](crate::MAX_BODY_SHAPES)), then each shape in order, its
/// pose in the body, its material and its parameters. A fixed body's
/// density is checked too, though it has no mass: a bad value is a
/// mistake wherever it is, and the scene files refuse it for any body.
///
/// # Errors
/// [`WorldError::InvalidBody`] naming the first field that breaks its
/// rule; [`WorldError::UnsupportedShape`] for a dynamic body with a mesh
/// or heightfield.
pub(crate) fn check_desc(desc: &BodyDesc) -> Result<(), WorldError> {
    check_pose(&desc.pose)?;
    check_vector(BodyField::LinearVelocity, &desc.linear_velocity)?;
    check_vector(BodyField::AngularVelocity, &desc.angular_velocity)?;
    if let Some(speed) = desc.sleep_threshold {
        check(BodyField::SleepThreshold, [speed])?;
    }
    // Saturated, so that a count past u32 still reads as too many.
    let count = u32::try_from(desc.shapes.len()).unwrap_or(u32::MAX);
    let rule = BodyField::ShapeCount.rule();
    if !rule.admits(f64::from(count)) {
        return Err(WorldError::InvalidBody {
            field: BodyField::ShapeCount,
            rule,
            value: count as f32,
        });
    }
    for s in &desc.shapes {
        check_pose_as(&s.local_pose, BodyField::ShapePosition, BodyField::ShapeRotation)?;
        check(BodyField::Density, [s.density])?;
        check(BodyField::Friction, [s.friction])?;
        check(BodyField::Restitution, [s.restitution])?;
        check(BodyField::RollingResistance, [s.rolling_resistance])?;
        check_shape(&s.shape)?;
        // A mesh or heightfield is a surface with no volume, so no mass:
        // fixed or kinematic only (a compound of solid parts may move).
        if desc.kind == BodyKind::Dynamic
            && matches!(s.shape, Shape::TriMesh(_) | Shape::HeightField(_))
        {
            return Err(WorldError::UnsupportedShape { kind: s.shape.kind_name() });
        }
    }
    Ok(())
}
