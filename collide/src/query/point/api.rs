//! The posed, world-frame point queries.
//!
//! A query checks its input, moves the point into the shape's frame once
//! (the inverse pose), answers there through the shape's
//! [`ProjectPoint`] (a closed form for each of the crate's kinds, GJK/EPA
//! for users' own shapes), and takes only the projected point back.

use nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use super::cuboid;
use super::hull::INSCRIBED_BALL_SHARE;
use super::project::ProjectPoint;
use super::projection::{PointFeature, PointProjection, ProjectionStatus};
use crate::error::QueryError;
use crate::finite::all_finite;
use crate::query::input::check_shape;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// Projects `point` (world frame) onto `shape` placed at `pose`.
///
/// Returns the nearest point of the shape's surface, whether `point` is in
/// the closed shape, and the [`PointFeature`] the nearest point lies on.
/// With `solid = true` a point inside is its own projection (feature
/// [`PointFeature::Interior`]); with `solid = false` it is projected onto
/// the surface, from inside too. (A flat [`ConvexHull`](crate::ConvexHull)
/// has no interior: a point on it is reported on its face either way.)
///
/// Every kind of [`Shape`](crate::Shape) but
/// [`Custom`](crate::Shape::Custom) is answered in closed form, exact to
/// f32 rounding. A user's own shape (a [`Shape::Custom`](crate::Shape::Custom),
/// or any type with an empty `impl` [`ProjectPoint`]) is answered by GJK
/// (and EPA from inside) with feature [`PointFeature::Boundary`]; a run
/// that stops early says so in [`PointProjection::status`]. Triangles and
/// segments enclose no volume: a point on them, to within f32 rounding, is
/// inside, and is its own projection.
///
/// For bad input (a non-finite pose, point or shape parameter, a negative
/// size) this returns a NaN point, `is_inside: false`, feature
/// [`PointFeature::Boundary`] and status [`ProjectionStatus::InvalidInput`];
/// [`try_project_point`] reports it as an error.
///
/// ```
/// use collide::{project_point, Cuboid, PointFeature};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(1.0));
/// let pose = Isometry3::translation(10.0, 0.0, 0.0);
/// // Outside, beyond the +X face: lands on that face (index 2·0 + 1).
/// let p = project_point(&cube, &pose, &Point3::new(13.0, 0.5, 0.0), true);
/// assert_eq!(p.point, Point3::new(11.0, 0.5, 0.0));
/// assert!(!p.is_inside);
/// assert_eq!(p.feature, PointFeature::Face(1));
/// // Inside: the point itself when solid, else the nearest face.
/// let q = Point3::new(10.5, 0.2, 0.0);
/// assert_eq!(project_point(&cube, &pose, &q, true).feature, PointFeature::Interior);
/// let surface = project_point(&cube, &pose, &q, false);
/// assert!(surface.is_inside);
/// assert_eq!(surface.point, Point3::new(11.0, 0.2, 0.0));
/// ```
pub fn project_point<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
    solid: bool,
) -> PointProjection {
    try_project_point(shape, pose, point, solid).unwrap_or(PointProjection {
        point: Point3::new(f32::NAN, f32::NAN, f32::NAN),
        is_inside: false,
        feature: PointFeature::Boundary,
        status: ProjectionStatus::InvalidInput,
    })
}

/// [`project_point`], reporting bad input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, point, shape
/// parameter or support point; [`QueryError::NegativeMargin`] /
/// [`QueryError::NegativeExtent`] for a negative radius or half extent.
///
/// ```
/// use collide::{try_project_point, QueryError, Sphere};
/// use collide::nalgebra::{Isometry3, Point3};
/// let ball = Sphere::new(1.0);
/// let p = try_project_point(&ball, &Isometry3::identity(), &Point3::new(0.0, 3.0, 0.0), true)?;
/// assert_eq!(p.point, Point3::new(0.0, 1.0, 0.0));
/// let nan = Point3::new(f32::NAN, 0.0, 0.0);
/// assert_eq!(
///     try_project_point(&ball, &Isometry3::identity(), &nan, true),
///     Err(QueryError::NonFiniteInput),
/// );
/// # Ok::<(), QueryError>(())
/// ```
pub fn try_project_point<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
    solid: bool,
) -> Result<PointProjection, QueryError> {
    if let Some(ShapeRef::Cuboid(c)) = shape.as_shape_ref() {
        return project_cuboid(&c.half_extents, pose, point, solid);
    }
    let (_, projection) = project_local(shape, pose, point, solid)?;
    let mut world = projection.to_world(pose);
    // The query point, not its round trip through the shape's frame.
    if projection.feature == PointFeature::Interior {
        world.point = *point;
    }
    Ok(world)
}

/// Whether `point` (world frame) lies in the closed shape (inside or on its
/// surface) placed at `pose`.
///
/// Returns `false` for bad input; [`try_contains_point`] reports it.
///
/// ```
/// use collide::{contains_point, Capsule};
/// use collide::nalgebra::{Isometry3, Point3};
/// let capsule = Capsule::new(1.0, 0.5);
/// let pose = Isometry3::identity();
/// assert!(contains_point(&capsule, &pose, &Point3::new(0.0, 1.4, 0.0)));
/// assert!(!contains_point(&capsule, &pose, &Point3::new(0.0, 1.6, 0.0)));
/// ```
pub fn contains_point<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> bool {
    try_contains_point(shape, pose, point).unwrap_or(false)
}

/// [`contains_point`], reporting bad input as an error.
///
/// # Errors
/// As [`try_project_point`].
pub fn try_contains_point<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> Result<bool, QueryError> {
    if let Some(ShapeRef::ConvexHull(h)) = shape.as_shape_ref()
        && !h.is_flat()
    {
        let local = to_local(h, pose, point)?;
        // Within the inscribed ball, no face need be looked at (see
        // `hull::project`).
        if local.coords.norm_squared() < INSCRIBED_BALL_SHARE * h.inradius().powi(2) {
            return Ok(true);
        }
        return Ok(h.faces().iter().all(|f| f.normal.dot(&local.coords) <= f.offset));
    }
    Ok(project_local(shape, pose, point, true)?.1.is_inside)
}

/// The **signed** distance from `point` (world frame) to the surface of
/// `shape` placed at `pose`: positive outside (the distance to the shape),
/// negative inside (minus the distance to the surface), zero on it.
///
/// (parry's `distance_to_point(.., solid)` is unsigned: 0 inside a solid
/// shape, the distance to the surface otherwise. Its `solid = true` answer
/// is `max(distance_to_point, 0)` here, and its `solid = false` answer is
/// `distance_to_point.abs()`.)
///
/// Returns NaN for bad input; [`try_distance_to_point`] reports it.
///
/// ```
/// use collide::{distance_to_point, Sphere};
/// use collide::nalgebra::{Isometry3, Point3};
/// let ball = Sphere::new(2.0);
/// let pose = Isometry3::translation(0.0, 0.0, 5.0);
/// assert_eq!(distance_to_point(&ball, &pose, &Point3::new(0.0, 0.0, 10.0)), 3.0);
/// assert_eq!(distance_to_point(&ball, &pose, &Point3::new(0.0, 0.5, 5.0)), -1.5);
/// assert!(distance_to_point(&ball, &pose, &Point3::new(f32::NAN, 0.0, 0.0)).is_nan());
/// ```
pub fn distance_to_point<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> f32 {
    try_distance_to_point(shape, pose, point).unwrap_or(f32::NAN)
}

/// [`distance_to_point`], reporting bad input as an error.
///
/// # Errors
/// As [`try_project_point`].
pub fn try_distance_to_point<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> Result<f32, QueryError> {
    let (local, projection) = project_local(shape, pose, point, false)?;
    // Measured in the shape's frame, where the projection was computed.
    let distance = (local - projection.point).norm();
    Ok(if projection.is_inside { -distance } else { distance })
}

/// [`try_project_point`] for a box, in one piece: the input checked and
/// moved in by [`box_local`], the closed form inlined, and the answer taken
/// out by the same matrix.
#[inline(always)]
fn project_cuboid(
    half: &Vector3<f32>,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
    solid: bool,
) -> Result<PointProjection, QueryError> {
    let (rot, local) = box_local(half, pose, point)?;
    let projection = cuboid::project(half, &local, solid);
    Ok(if projection.feature == PointFeature::Interior {
        // The query point, not its round trip through the box's frame.
        PointProjection { point: *point, ..projection }
    } else {
        let world = Point3::from(rot * projection.point.coords) + pose.translation.vector;
        PointProjection { point: world, ..projection }
    })
}

/// Checks a box query's input in one finiteness sum and moves `point` into
/// the box's frame by the pose's rotation matrix (computed once, returned
/// for the way out: two quaternion rotations cost more). Every box query
/// moves its point in this way, so that they agree to the last bit on
/// which side of a face a point is.
#[inline(always)]
fn box_local(
    half: &Vector3<f32>,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> Result<(Matrix3<f32>, Point3<f32>), QueryError> {
    let finite = all_finite(pose.rotation.coords.as_slice())
        & all_finite(pose.translation.vector.as_slice())
        & all_finite(point.coords.as_slice())
        & all_finite(half.as_slice());
    if !finite {
        return Err(QueryError::NonFiniteInput);
    }
    if (half.x < 0.0) | (half.y < 0.0) | (half.z < 0.0) {
        return Err(QueryError::NegativeExtent);
    }
    let rot = pose.rotation.to_rotation_matrix().into_inner();
    let local = Point3::from(rot.tr_mul(&(point - pose.translation.vector).coords));
    Ok((rot, local))
}

/// Checks the input and moves `point` into the shape's frame.
#[inline]
fn to_local<S: SupportMap + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> Result<Point3<f32>, QueryError> {
    let finite = all_finite(pose.rotation.coords.as_slice())
        & all_finite(pose.translation.vector.as_slice())
        & all_finite(point.coords.as_slice());
    if !finite {
        return Err(QueryError::NonFiniteInput);
    }
    check_shape(shape)?;
    Ok(pose.inverse_transform_point(point))
}

/// Checks the input, moves `point` into the shape's frame and projects it
/// there. Returns the point in the shape's frame too.
///
/// The kinds [`SupportMap::as_shape_ref`] names are matched first and their
/// input checked on the concrete shape, so that each arm's checks fold to
/// the few its kind needs (through a [`Shape`](crate::Shape), checking
/// first costs two more matches on the kind than the answer does for a
/// box); every other shape goes through its [`ProjectPoint`].
#[inline]
fn project_local<S: ProjectPoint + ?Sized>(
    shape: &S,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
    solid: bool,
) -> Result<(Point3<f32>, PointProjection), QueryError> {
    macro_rules! concrete {
        ($s:expr) => {{
            let local = to_local($s, pose, point)?;
            Ok((local, $s.project_local_point(&local, solid)?))
        }};
    }
    match shape.as_shape_ref() {
        Some(ShapeRef::Sphere(s)) => concrete!(s),
        Some(ShapeRef::Cuboid(s)) => {
            let (_, local) = box_local(&s.half_extents, pose, point)?;
            Ok((local, cuboid::project(&s.half_extents, &local, solid)))
        }
        Some(ShapeRef::Capsule(s)) => concrete!(s),
        Some(ShapeRef::ConvexHull(s)) => concrete!(s),
        Some(ShapeRef::Cylinder(s)) => concrete!(s),
        Some(ShapeRef::Cone(s)) => concrete!(s),
        None => concrete!(shape),
    }
}
