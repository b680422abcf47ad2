//! The ray cast every convex shape has: GJK on its support function, for
//! shapes without a closed form (users' own, rounded shapes).
//!
//! A ray is a shape cast of a point: the point starts at the ray's origin
//! and moves by the ray's direction per unit of `toi`, against the shape
//! held still. [`try_shape_cast`](crate::try_shape_cast) runs van den
//! Bergen's GJK ray cast (2004) on the shape's core and adds its margin
//! exactly, so the answer is exact to the cast's tolerance (a millionth of
//! the shape's size) for any support map that keeps its contract.

use nalgebra::{Isometry3, Vector3};

use crate::query::ray_cast::{LocalRayCast, Ray};
use crate::query::shape_cast::{ShapeCast, try_shape_cast};
use crate::shape::Sphere;
use crate::support_map::SupportMap;

/// `ray` (in the shape's frame) cast at `shape` by GJK on its support
/// function; the default of [`CastRay::cast_local_ray`](crate::CastRay::cast_local_ray).
///
/// A search that ends unconverged (a support function breaking its
/// contract, or rounding stalling it) answers a hit at the proven lower
/// bound on the time of impact, with the reversed ray as its normal: the
/// ray certainly reaches nothing before it. Non-finite input answers
/// [`LocalRayCast::Miss`], as the other shapes' closed forms do; the posed
/// [`try_cast_ray`](crate::try_cast_ray) reports it as an error before
/// getting here.
pub fn cast_local_ray_by_support<S: SupportMap + ?Sized>(
    shape: &S,
    ray: &Ray,
    max_toi: f32,
) -> LocalRayCast {
    let point = Sphere::new(0.0);
    let start = Isometry3::translation(ray.origin.x, ray.origin.y, ray.origin.z);
    let cast = try_shape_cast(
        &point,
        &start,
        &ray.dir,
        shape,
        &Isometry3::identity(),
        &Vector3::zeros(),
        max_toi,
    );
    match cast {
        // The normal points from the point (A) to the shape (B): the
        // shape's outward normal at the entry is its reverse.
        Ok(ShapeCast::Hit { toi, normal, .. }) => {
            LocalRayCast::within(toi, -normal.into_inner(), max_toi)
        }
        Ok(ShapeCast::InitiallyOverlapping) => LocalRayCast::StartsInside,
        Ok(ShapeCast::IterationLimit { toi_lower_bound }) if ray.dir != Vector3::zeros() => {
            LocalRayCast::within(toi_lower_bound, -ray.dir, max_toi)
        }
        Ok(ShapeCast::Miss | ShapeCast::IterationLimit { .. }) | Err(_) => LocalRayCast::Miss,
    }
}
