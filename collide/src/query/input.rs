//! Validation of a query's input: poses, margins and cores.
//!
//! Every query starts here, so bad input (a NaN or infinite pose, margin,
//! core point or box extent; a negative margin or extent) is a typed
//! [`QueryError`] before any algorithm runs, never a panic or a silent "no
//! contact". The checks are one branch-free test over all the numbers at once
//! (see [`all_finite`]): on the smallest pairs, where the whole answer is a
//! few dozen instructions, a check per number with an early exit each cost
//! more than the answer.

use nalgebra::Isometry3;

use crate::core::Core;
use crate::error::QueryError;
use crate::support_map::SupportMap;

/// Whether every value is finite (neither NaN nor ±∞).
///
/// `x · 0` is exactly ±0 for a finite `x` and NaN for an infinite or NaN
/// one, and a sum of zeros and NaNs is 0 only if every term is 0. Unlike
/// summing the values themselves this cannot overflow, and it costs two
/// instructions per value with no branch (testing each value's exponent
/// bits costs four).
#[inline(always)]
pub(crate) fn all_finite(values: &[f32]) -> bool {
    values.iter().fold(0.0f32, |sum, x| sum + x * 0.0) == 0.0
}

/// Whether a pose's translation and rotation are finite.
#[inline(always)]
fn finite_pose(pose: &Isometry3<f32>) -> bool {
    all_finite(pose.rotation.coords.as_slice()) & all_finite(pose.translation.vector.as_slice())
}

/// Rejects a shape's non-finite or negative margin or core, as the pair
/// queries do (for the ray casts).
#[inline]
pub(crate) fn check_shape<S: SupportMap + ?Sized>(shape: &S) -> Result<(), QueryError> {
    let (margin, core) = (shape.margin(), shape.core());
    if !(margin.is_finite() && core.is_finite()) {
        return Err(QueryError::NonFiniteInput);
    }
    check_signs(margin, &core)
}

/// Rejects a negative margin or box extent (all values already finite).
#[inline]
fn check_signs(margin: f32, core: &Core) -> Result<(), QueryError> {
    if margin < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    if let Core::Box(half) = core
        && half.iter().any(|&x| x < 0.0)
    {
        return Err(QueryError::NegativeExtent);
    }
    Ok(())
}

/// A pair's validated margins and cores.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckedPair {
    /// The margins, A's then B's.
    pub(crate) margins: (f32, f32),
    /// The cores, A's then B's.
    pub(crate) cores: (Core, Core),
}

/// Rejects non-finite poses, margins and cores, and negative margins and
/// box extents; returns the margins and cores.
///
/// Errors come in a fixed order: any non-finite number first, then a
/// negative margin, then a negative extent.
#[inline(always)]
pub(crate) fn check_input<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<CheckedPair, QueryError> {
    let (ra, core_a, rb, core_b) = (a.margin(), a.core(), b.margin(), b.core());
    // `&`, not `&&`: every test runs, with no branch between them.
    let finite = finite_pose(pose_a)
        & finite_pose(pose_b)
        & all_finite(&[ra, rb])
        & core_a.is_finite()
        & core_b.is_finite();
    if !finite {
        return Err(QueryError::NonFiniteInput);
    }
    if ra < 0.0 || rb < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    check_signs(ra, &core_a)?;
    check_signs(rb, &core_b)?;
    Ok(CheckedPair { margins: (ra, rb), cores: (core_a, core_b) })
}
