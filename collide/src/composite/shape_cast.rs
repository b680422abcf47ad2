//! Linear shape casts between any two shapes, composites included,
//! answering with the parts that touch first.
//!
//! With a composite on one side, the other side's box (in the composite's
//! frame) is swept by the relative motion through the composite's
//! hierarchy, nearest parts first; each part is cast by the convex query
//! with the limit shrunk to the earliest hit so far. A compound against a
//! composite casts each of its parts in turn.

use nalgebra::{Isometry3, Vector3};

use super::earliest::Earliest;
use super::expansion::{Expansion, HasShape};
use super::proximity::check_pose;
use super::results::{OnParts, PartIds};
use crate::bvh::RayControl;
use crate::error::QueryError;
use crate::query::ShapeCast;
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// The first time A, moving with `vel_a`, and B, moving with `vel_b`,
/// touch over `[0, max_toi]`, and the parts that touch (as
/// [`shape_cast`](crate::shape_cast) for each pair of convex parts; the
/// earliest hit wins, an overlap at time 0 of any pair is
/// `InitiallyOverlapping`). Bad input answers `Miss`; [`try_shape_cast`]
/// reports it.
///
/// ```
/// use collide::composite::{shape_cast, HeightField};
/// use collide::{Shape, ShapeCast, Sphere};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let flat: Shape = HeightField::try_new(4, 4, vec![0.0; 16], [1.0, 1.0]).unwrap().into();
/// let ball: Shape = Sphere::new(0.5).into();
/// // Dropped from y = 3 at 1 m/s: touches at t = 2.5.
/// let cast = shape_cast(
///     &ball, &Isometry3::translation(0.3, 3.0, 0.1), &Vector3::new(0.0, -1.0, 0.0),
///     &flat, &Isometry3::identity(), &Vector3::zeros(), 10.0,
/// );
/// let ShapeCast::Hit { toi, normal, .. } = cast.answer else { panic!("{cast:?}") };
/// assert!((toi - 2.5).abs() < 1e-4 && normal.y < -0.999);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn shape_cast(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    vel_a: &Vector3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    vel_b: &Vector3<f32>,
    max_toi: f32,
) -> OnParts<ShapeCast> {
    try_shape_cast(a, pose_a, vel_a, b, pose_b, vel_b, max_toi)
        .unwrap_or(OnParts { answer: ShapeCast::Miss, parts: PartIds::default() })
}

/// [`shape_cast`], reporting bad input.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose or velocity,
/// or a NaN `max_toi`; what [`try_shape_cast`](crate::try_shape_cast)
/// reports for a pair of parts.
#[allow(clippy::too_many_arguments)]
pub fn try_shape_cast(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    vel_a: &Vector3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    vel_b: &Vector3<f32>,
    max_toi: f32,
) -> Result<OnParts<ShapeCast>, QueryError> {
    check_pose(pose_a)?;
    check_pose(pose_b)?;
    if !vel_a.iter().chain(vel_b.iter()).all(|x| x.is_finite()) || max_toi.is_nan() {
        return Err(QueryError::NonFiniteInput);
    }
    let mut best = Earliest::new();
    cast(
        &Moving { shape: a, pose: *pose_a, vel: *vel_a, part: None },
        &Moving { shape: b, pose: *pose_b, vel: *vel_b, part: None },
        max_toi.max(0.0),
        &mut best,
    )?;
    Ok(best.answer())
}

/// One side of a cast: a shape (or part), its world pose and velocity.
#[derive(Clone, Copy)]
struct Moving<'s> {
    shape: &'s Shape,
    pose: Isometry3<f32>,
    vel: Vector3<f32>,
    part: Option<u32>,
}

impl HasShape for Moving<'_> {
    fn shape(&self) -> &Shape {
        self.shape
    }
}

/// Casts `a` against `b`, expanding a composite side into its parts,
/// recording into `best`. Returns early once an overlap is found.
fn cast(
    a: &Moving<'_>,
    b: &Moving<'_>,
    max_toi: f32,
    best: &mut Earliest<ShapeCast>,
) -> Result<(), QueryError> {
    if best.found_overlap() {
        return Ok(());
    }
    let Some(expansion) = Expansion::of(a, b) else {
        let answer = crate::query::try_shape_cast(
            a.shape,
            &a.pose,
            &a.vel,
            b.shape,
            &b.pose,
            &b.vel,
            best.limit(max_toi),
        )?;
        best.record(answer, PartIds { a: a.part, b: b.part });
        return Ok(());
    };
    let (comp_side, other) = (expansion.side, expansion.other);
    // The other side's box and motion in the composite's frame.
    let inverse = comp_side.pose.inverse();
    let other_box = other.shape.aabb(&(inverse * other.pose));
    let motion = inverse.transform_vector(&(other.vel - comp_side.vel));
    let mut error = None;
    expansion.composite.visit_swept(&other_box, &motion, best.limit(max_toi), |part, entry| {
        if !(entry <= best.limit(max_toi)) {
            return RayControl::Continue;
        }
        let side = Moving {
            shape: part.shape,
            pose: comp_side.pose * part.pose,
            vel: comp_side.vel,
            part: Some(part.index),
        };
        if let Err(e) = expansion.in_order(&side, |a, b| cast(a, b, max_toi, best)) {
            error = Some(e);
            return RayControl::Stop;
        }
        if best.found_overlap() {
            RayControl::Stop
        } else {
            RayControl::ShortenTo(best.limit(max_toi))
        }
    });
    error.map_or(Ok(()), Err)
}
