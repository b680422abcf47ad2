//! Validation of a query's input: poses, margins and cores.
//!
//! Every query starts here, so bad input (a NaN or infinite pose, margin,
//! core point or box extent; a negative margin or extent) is a typed
//! [`QueryError`] before any algorithm runs, never a panic or a silent "no
//! contact". The method is a screen and a full check: one branch-free test
//! over all the numbers at once (poses finite, see [`finite_poses_screen`]; margins
//! and box extents finite and not negative, one integer comparison each,
//! see [`plain_non_negative`]) passes all valid input but `-0.0` margins
//! and extents; only input that fails it runs the full check, number by
//! number, which picks the error (or accepts the `-0.0`s). On the smallest
//! pairs, where the whole answer is a few dozen instructions, a check per
//! number with an early exit each cost more than the answer.

use nalgebra::Isometry3;

use crate::core::Core;
use crate::error::QueryError;
use crate::finite::all_finite;
use crate::support_map::SupportMap;

/// Whether a pose's translation and rotation are finite.
#[inline(always)]
fn finite_pose(pose: &Isometry3<f32>) -> bool {
    all_finite(pose.rotation.coords.as_slice()) & all_finite(pose.translation.vector.as_slice())
}

/// A screen for both poses' numbers: true only if all fourteen are finite.
///
/// A sum or difference of finite numbers is finite unless it overflows,
/// and one with an infinity or a NaN in it is ±∞ or NaN, so the screen is
/// [`all_finite`] over the quaternions' sums (four lanes, a few packed
/// operations) and over the sum of the translations' differences (the
/// difference is the one the closed forms compute anyway). Overflow on
/// finite input only fails the screen.
#[inline(always)]
fn finite_poses_screen(pose_a: &Isometry3<f32>, pose_b: &Isometry3<f32>) -> bool {
    let (qa, qb) = (&pose_a.rotation.coords, &pose_b.rotation.coords);
    let q = [qa.x + qb.x, qa.y + qb.y, qa.z + qb.z, qa.w + qb.w];
    let d = pose_b.translation.vector - pose_a.translation.vector;
    (q[0] * 0.0 == 0.0)
        & (q[1] * 0.0 == 0.0)
        & (q[2] * 0.0 == 0.0)
        & (q[3] * 0.0 == 0.0)
        & ((d.x + d.y + d.z) * 0.0 == 0.0)
}

/// Whether `x` is finite and not negative, `+0.0` to `f32::MAX`: as an
/// unsigned integer, its bits are then below those of `+∞`, while a
/// negative number (sign bit set), an infinity or a NaN is at or above
/// them. `-0.0` fails too, so a screen built on this one sends it to the
/// full check (which accepts it).
#[inline(always)]
fn plain_non_negative(x: f32) -> bool {
    x.to_bits() < f32::INFINITY.to_bits()
}

/// Rejects a shape's non-finite or negative margin or core, as the pair
/// queries do (for the ray casts).
#[inline]
pub(crate) fn check_shape<S: SupportMap + ?Sized>(shape: &S) -> Result<(), QueryError> {
    let (margin, core) = (shape.margin(), shape.core());
    if !(margin.is_finite() && core.is_finite()) {
        if let Some(kind) = shape.non_convex_kind() {
            return Err(QueryError::NotConvex { kind });
        }
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
    // The screen: `&`, not `&&`, so every test runs with no branch between
    // them. It passes only input the full check accepts.
    let plain = finite_poses_screen(pose_a, pose_b)
        & plain_non_negative(ra)
        & plain_non_negative(rb)
        & core_plain(&core_a)
        & core_plain(&core_b);
    if !plain {
        full_check(a, pose_a, b, pose_b)?;
    }
    // Built here from the values at hand, on both paths, so the compiler
    // still sees each shape's core as the constant it is.
    Ok(CheckedPair { margins: (ra, rb), cores: (core_a, core_b) })
}

/// Whether a core's numbers are finite and, for a box, its half extents
/// [plainly non-negative](plain_non_negative).
#[inline(always)]
fn core_plain(core: &Core) -> bool {
    match core {
        Core::Box(h) => plain_non_negative(h.x) & plain_non_negative(h.y) & plain_non_negative(h.z),
        other => other.is_finite(),
    }
}

/// [`check_input`] for input that failed its screen: every check, in the
/// documented order, to pick the error (or accept the input after all, for
/// a `-0.0` margin or extent). Out of line, as it rarely runs.
#[cold]
#[inline(never)]
fn full_check<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<(), QueryError> {
    let (ra, core_a, rb, core_b) = (a.margin(), a.core(), b.margin(), b.core());
    let finite = finite_pose(pose_a)
        & finite_pose(pose_b)
        & all_finite(&[ra, rb])
        & core_a.is_finite()
        & core_b.is_finite();
    if !finite {
        // A composite's NaN margin lands here: name it.
        if let Some(kind) = a.non_convex_kind().or_else(|| b.non_convex_kind()) {
            return Err(QueryError::NotConvex { kind });
        }
        return Err(QueryError::NonFiniteInput);
    }
    if ra < 0.0 || rb < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    check_signs(ra, &core_a)?;
    check_signs(rb, &core_b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capsule, Cuboid, Sphere};
    use nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector3};

    /// Values that stress the screen: non-finite, signed zeros, negatives,
    /// and finite values whose sums and differences overflow.
    const HOSTILE: [f32; 12] = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        0.0,
        -1.0,
        1.0,
        f32::MAX,
        -f32::MAX,
        3e38,
        -3e38,
        f32::MIN_POSITIVE,
    ];

    /// A pose whose seven numbers are `base` with slot `slot` set to `x`
    /// (slots 0-3 the quaternion's i, j, k, w; 4-6 the translation).
    fn pose_with(slot: usize, x: f32, base: [f32; 7]) -> Isometry3<f32> {
        let mut v = base;
        v[slot] = x;
        Isometry3::from_parts(
            Translation3::new(v[4], v[5], v[6]),
            UnitQuaternion::new_unchecked(Quaternion::new(v[3], v[0], v[1], v[2])),
        )
    }

    /// The screened check and the full check (alone) give the same verdict
    /// and the same error on every input: the screen only ever lets through
    /// input the full check accepts.
    fn agree<A: SupportMap, B: SupportMap>(a: &A, pa: &Isometry3<f32>, b: &B, pb: &Isometry3<f32>) {
        let screened = check_input(a, pa, b, pb).map(|_| ());
        let full = full_check(a, pa, b, pb);
        assert_eq!(screened, full, "{pa:?} {pb:?}");
    }

    #[test]
    fn the_screen_never_passes_what_the_full_check_rejects() {
        let base = [0.1, -0.2, 0.3, 0.9, 1.0, -2.0, 3.0];
        let sphere = Sphere::new(0.5);
        for slot in 0..7 {
            for &x in &HOSTILE {
                for &y in &HOSTILE {
                    let (pa, pb) = (pose_with(slot, x, base), pose_with(slot, y, base));
                    agree(&sphere, &pa, &sphere, &pb);
                    agree(&sphere, &pa, &sphere, &pose_with((slot + 3) % 7, y, base));
                }
            }
        }
        let pose = pose_with(0, 0.1, base);
        for &r in &HOSTILE {
            for &h in &HOSTILE {
                let cuboid = Cuboid::new(Vector3::new(0.5, h, 0.25));
                agree(&Sphere::new(r), &pose, &cuboid, &pose);
                agree(&cuboid, &pose, &Sphere::new(r), &pose);
                agree(&Capsule::new(h, r), &pose, &cuboid, &pose);
                agree(&cuboid, &pose, &Capsule::new(r, h), &pose);
            }
        }
    }

    #[test]
    fn the_screen_picks_the_documented_errors() {
        let pose = Isometry3::translation(1.0, 2.0, 3.0);
        let nan_rotation = pose_with(3, f32::NAN, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        let s = Sphere::new(0.5);
        let err = |r: Result<CheckedPair, QueryError>| r.map(|_| ()).unwrap_err();
        // A NaN rotation is an error even for spheres, whose answer never
        // reads it.
        assert_eq!(err(check_input(&s, &nan_rotation, &s, &pose)), QueryError::NonFiniteInput);
        assert_eq!(
            err(check_input(&s, &pose, &Sphere::new(-1.0), &pose)),
            QueryError::NegativeMargin
        );
        let flat = Cuboid::new(Vector3::new(1.0, -0.5, 1.0));
        assert_eq!(err(check_input(&flat, &pose, &s, &pose)), QueryError::NegativeExtent);
        // Non-finite before negative, whatever the slot.
        assert_eq!(
            err(check_input(&flat, &pose, &Sphere::new(f32::INFINITY), &pose)),
            QueryError::NonFiniteInput
        );
        // Signed zeros and huge but finite poses are valid input.
        assert!(
            check_input(&Sphere::new(-0.0), &pose, &Cuboid::new(-Vector3::zeros()), &pose).is_ok()
        );
        let far = Isometry3::translation(f32::MAX, -f32::MAX, 3e38);
        assert!(
            check_input(&s, &far, &s, &Isometry3::translation(-f32::MAX, f32::MAX, -3e38)).is_ok()
        );
    }

    #[test]
    fn ordinary_input_passes_the_screen() {
        // Not a correctness requirement, but the point of the screen: if
        // ordinary poses failed it, every query would pay the full check.
        let base = [0.1, -0.2, 0.3, 0.9, 1.0, -2.0, 3.0];
        for slot in 0..7 {
            for x in [-1e3, -1.0, 0.0, 0.5, 1e3] {
                assert!(finite_poses_screen(
                    &pose_with(slot, x, base),
                    &pose_with(6 - slot, x, base)
                ));
            }
        }
        assert!(plain_non_negative(0.0) && plain_non_negative(f32::MAX));
        assert!(!plain_non_negative(-0.0) && !plain_non_negative(f32::INFINITY));
        assert!(!plain_non_negative(f32::NAN) && !plain_non_negative(-f32::NAN));
    }
}
