//! The public manifold queries: [`contact_manifold`] and its `try_`,
//! `_cached` and `_sat_cached` forms, which check the input and pick the
//! routine for the pair of shape kinds.
//!
//! Box–box runs the separating-axis test with face clipping
//! ([`super::box_box`]; with a [`SatCache`], first the cached axis,
//! [`super::box_box_cached`]), and GJK's closest points when the boxes are apart
//! and no clipped point is within the prediction distance; sphere–sphere and cuboid–sphere (either order) are
//! closed forms ([`super::sphere_pairs`]); every other pair takes collide's
//! GJK/EPA normal and clips the shapes' supporting features
//! ([`super::face_clipping`]).

use nalgebra::Isometry3;

use super::box_box::collide_cuboids;
use super::box_box_cached::collide_cuboids_cached;
use super::contact_manifold::ManifoldOutcome;
use super::face_clipping::collide_convex;
use super::sat_cache::SatCache;
use super::sphere_pairs::{collide_cuboid_sphere, collide_sphere_cuboid, collide_spheres};
use crate::core::Core;
use crate::error::QueryError;
use crate::finite::all_finite;
use crate::query::GjkCache;
use crate::shape::{Cuboid, Shape};
use crate::support_map::SupportMap;

/// What the bare forms return on bad input: "separated" by a NaN bound,
/// which compares false with everything.
const MANIFOLD_NOT_COMPUTED: ManifoldOutcome =
    ManifoldOutcome::Separated { distance_bound: f32::NAN };

/// The contact manifold of `a` at `pose_a` and `b` at `pose_b`: up to
/// [`MAX_MANIFOLD_POINTS`](crate::MAX_MANIFOLD_POINTS) points whose
/// separation is at most `prediction` (predicted contacts let a solver stop
/// approaching bodies at the surface; pass 0 for touching and overlapping
/// points only), one normal from A to B, feature ids stable across frames.
/// [`ManifoldOutcome::Separated`] when the shapes are proven farther apart
/// than `prediction`.
///
/// On bad input (non-finite poses, shape parameters or `prediction`,
/// negative radii or extents) returns `Separated` with a NaN
/// `distance_bound`; [`try_contact_manifold`] reports it as an error.
///
/// ```
/// use collide::{contact_manifold, Capsule, Cuboid, ManifoldOutcome, Shape};
/// use collide::nalgebra::{Isometry3, UnitQuaternion, Vector3};
/// use std::f32::consts::FRAC_PI_2;
///
/// let ground: Shape = Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into();
/// // A capsule lying on its side on the ground's top face (y = 0.5), 2 mm deep.
/// let capsule: Shape = Capsule::new(0.5, 0.25).into();
/// let pose = Isometry3::from_parts(
///     Vector3::new(0.0, 0.748, 0.0).into(),
///     UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2),
/// );
/// match contact_manifold(&ground, &Isometry3::identity(), &capsule, &pose, 0.0) {
///     ManifoldOutcome::Within(m) => {
///         assert_eq!(m.len(), 2); // both ends of the segment
///         for p in m.points() {
///             assert!((p.separation + 0.002).abs() < 1e-4);
///             assert!((p.point_a.y - 0.5).abs() < 1e-4); // on the ground
///         }
///     }
///     ManifoldOutcome::Separated { .. } => unreachable!(),
/// }
/// ```
pub fn contact_manifold(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
) -> ManifoldOutcome {
    try_contact_manifold(a, pose_a, b, pose_b, prediction).unwrap_or(MANIFOLD_NOT_COMPUTED)
}

/// [`contact_manifold`], reporting bad input as a [`QueryError`].
///
/// # Errors
///
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, shape
/// parameter, support point or `prediction`; [`QueryError::NegativeMargin`]
/// and [`QueryError::NegativeExtent`] for negative radii and half extents.
///
/// ```
/// use collide::{try_contact_manifold, QueryError, Shape, Sphere};
/// use collide::nalgebra::Isometry3;
/// let ball: Shape = Sphere::new(1.0).into();
/// let nan = Isometry3::translation(f32::NAN, 0.0, 0.0);
/// assert_eq!(
///     try_contact_manifold(&ball, &Isometry3::identity(), &ball, &nan, 0.0),
///     Err(QueryError::NonFiniteInput)
/// );
/// ```
pub fn try_contact_manifold(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
) -> Result<ManifoldOutcome, QueryError> {
    try_contact_manifold_cached(a, pose_a, b, pose_b, prediction, &mut GjkCache::default())
}

/// [`contact_manifold`] with a caller-owned [`GjkCache`] that warm-starts
/// the GJK run of pairs without a closed form when the same pair is asked
/// again (the box–box and sphere routines do not use it). Bad input gives
/// the same fallback as [`contact_manifold`].
///
/// ```
/// use collide::{contact_manifold_cached, ConvexHull, GjkCache, ManifoldOutcome, Shape};
/// use collide::nalgebra::{Isometry3, Point3};
/// let corners = [-0.5f32, 0.5].iter().flat_map(|&x| {
///     [-0.5f32, 0.5].iter().flat_map(move |&y| [-0.5f32, 0.5].map(|z| Point3::new(x, y, z)))
/// });
/// let cube: Shape = ConvexHull::new(&corners.collect::<Vec<_>>())?.into();
/// let mut cache = GjkCache::default();
/// for frame in 0..3 {
///     let pose_b = Isometry3::translation(0.0, 0.99 + 0.001 * frame as f32, 0.0);
///     let outcome = contact_manifold_cached(
///         &cube, &Isometry3::identity(), &cube, &pose_b, 0.01, &mut cache,
///     );
///     let ManifoldOutcome::Within(m) = outcome else { panic!("stacked cubes") };
///     assert_eq!(m.len(), 4); // face on face
/// }
/// # Ok::<(), collide::HullError>(())
/// ```
pub fn contact_manifold_cached(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    cache: &mut GjkCache,
) -> ManifoldOutcome {
    try_contact_manifold_cached(a, pose_a, b, pose_b, prediction, cache)
        .unwrap_or(MANIFOLD_NOT_COMPUTED)
}

/// [`contact_manifold_cached`], reporting bad input as a [`QueryError`]
/// (see [`try_contact_manifold`]).
///
/// # Errors
///
/// As [`try_contact_manifold`].
pub fn try_contact_manifold_cached(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    cache: &mut GjkCache,
) -> Result<ManifoldOutcome, QueryError> {
    // Two cuboids take the one-test check (the common pair of the box
    // scenes: the general check cost them some 230 instructions a query).
    let cuboids_valid = match (a, b) {
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
            cuboid_input_is_valid(ca, pose_a, cb, pose_b, prediction)
        }
        _ => false,
    };
    if !cuboids_valid {
        check_input(a, pose_a, b, pose_b, prediction)?;
    }
    Ok(match (a, b) {
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
            match collide_cuboids(ca, pose_a, cb, pose_b, prediction) {
                // Separated boxes whose best separating-axis feature lies
                // beyond the prediction while their closest points do not
                // (a vertex or edge beside the reference face): GJK's exact
                // closest points instead of no contact.
                ManifoldOutcome::Within(m) if m.is_empty() => {
                    return collide_convex(a, pose_a, b, pose_b, prediction, cache);
                }
                outcome => outcome,
            }
        }
        (Shape::Sphere(sa), Shape::Sphere(sb)) => {
            collide_spheres(sa, pose_a, sb, pose_b, prediction)
        }
        (Shape::Cuboid(ca), Shape::Sphere(sb)) => {
            collide_cuboid_sphere(ca, pose_a, sb, pose_b, prediction)
        }
        (Shape::Sphere(sa), Shape::Cuboid(cb)) => {
            collide_sphere_cuboid(sa, pose_a, cb, pose_b, prediction)
        }
        _ => return collide_convex(a, pose_a, b, pose_b, prediction, cache),
    })
}

/// [`contact_manifold_cached`] with a caller-owned [`SatCache`] as well:
/// for two cuboids the axis the last query on the pair decided on is tried
/// first, and the full separating-axis test runs only when that axis no
/// longer decides the pair (the cache is then refilled). A cached
/// "separated" is exact; a manifold rebuilt on the cached axis is exact
/// along that axis but not proven to be along the axis the full test would
/// pick now (see [`SatCache`] and the crate's `box_box_cached` module for
/// what is accepted). Other pairs leave `sat` empty and answer as
/// [`contact_manifold_cached`]. Bad input gives the same fallback as
/// [`contact_manifold`] and empties `sat`.
///
/// ```
/// use collide::{contact_manifold_sat_cached, Cuboid, GjkCache, ManifoldOutcome, SatCache, Shape};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let (mut gjk, mut sat) = (GjkCache::default(), SatCache::default());
/// // Apart by 0.5 along x: the cached axis proves it on the second frame.
/// for _ in 0..2 {
///     let pose_b = Isometry3::translation(1.5, 0.0, 0.0);
///     let outcome = contact_manifold_sat_cached(
///         &cube, &Isometry3::identity(), &cube, &pose_b, 0.01, &mut gjk, &mut sat,
///     );
///     let ManifoldOutcome::Separated { distance_bound } = outcome else { panic!("apart") };
///     assert!((distance_bound - 0.5).abs() < 1e-5);
/// }
/// ```
pub fn contact_manifold_sat_cached(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    gjk: &mut GjkCache,
    sat: &mut SatCache,
) -> ManifoldOutcome {
    try_contact_manifold_sat_cached(a, pose_a, b, pose_b, prediction, gjk, sat)
        .unwrap_or(MANIFOLD_NOT_COMPUTED)
}

/// [`contact_manifold_sat_cached`], reporting bad input as a
/// [`QueryError`] (see [`try_contact_manifold`]).
///
/// # Errors
///
/// As [`try_contact_manifold`].
pub fn try_contact_manifold_sat_cached(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
    gjk: &mut GjkCache,
    sat: &mut SatCache,
) -> Result<ManifoldOutcome, QueryError> {
    let (Shape::Cuboid(ca), Shape::Cuboid(cb)) = (a, b) else {
        sat.clear();
        return try_contact_manifold_cached(a, pose_a, b, pose_b, prediction, gjk);
    };
    if !cuboid_input_is_valid(ca, pose_a, cb, pose_b, prediction)
        && let Err(error) = check_input(a, pose_a, b, pose_b, prediction)
    {
        sat.clear();
        return Err(error);
    }
    Ok(match collide_cuboids_cached(ca, pose_a, cb, pose_b, prediction, sat) {
        // As in `try_contact_manifold_cached`: GJK's closest points. The
        // face found is no answer to cache.
        ManifoldOutcome::Within(m) if m.is_empty() => {
            sat.clear();
            return collide_convex(a, pose_a, b, pose_b, prediction, gjk);
        }
        outcome => outcome,
    })
}

/// Whether two cuboids' input passes [`check_input`]: they have only the
/// poses, the prediction and the half extents to check (no margin), so one
/// finiteness test over them all and two signs decide it. `false` sends
/// the caller to [`check_input`], which names the fault.
#[inline]
fn cuboid_input_is_valid(
    a: &Cuboid,
    pose_a: &Isometry3<f32>,
    b: &Cuboid,
    pose_b: &Isometry3<f32>,
    prediction: f32,
) -> bool {
    let (pa, pb) = (&pose_a.translation.vector, &pose_b.translation.vector);
    let (qa, qb) = (&pose_a.rotation.coords, &pose_b.rotation.coords);
    let (ha, hb) = (&a.half_extents, &b.half_extents);
    let numbers = [
        pa.x, pa.y, pa.z, qa.x, qa.y, qa.z, qa.w, pb.x, pb.y, pb.z, qb.x, qb.y, qb.z, qb.w,
        prediction, ha.x, ha.y, ha.z, hb.x, hb.y, hb.z,
    ];
    all_finite(&numbers) && ha.min() >= 0.0 && hb.min() >= 0.0
}

/// Rejects non-finite poses, prediction and shape parameters, and negative
/// radii and box extents, in that order of kinds.
#[inline]
pub(crate) fn check_input(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    prediction: f32,
) -> Result<(), QueryError> {
    let pose_numbers = |p: &Isometry3<f32>| {
        let (t, q) = (p.translation.vector, p.rotation.coords);
        [t.x, t.y, t.z, q.x, q.y, q.z, q.w]
    };
    let (margin_a, core_a, margin_b, core_b) = (a.margin(), a.core(), b.margin(), b.core());
    let finite = all_finite(&pose_numbers(pose_a))
        & all_finite(&pose_numbers(pose_b))
        & all_finite(&[prediction, margin_a, margin_b])
        & core_a.is_finite()
        & core_b.is_finite();
    if !finite {
        // A composite's NaN margin lands here: name it.
        if let Some(kind) = a.non_convex_kind().or_else(|| b.non_convex_kind()) {
            return Err(QueryError::NotConvex { kind });
        }
        return Err(QueryError::NonFiniteInput);
    }
    if margin_a < 0.0 || margin_b < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    let negative_box = |core: &Core| matches!(core, Core::Box(h) if h.min() < 0.0);
    if negative_box(&core_a) || negative_box(&core_b) {
        return Err(QueryError::NegativeExtent);
    }
    Ok(())
}
