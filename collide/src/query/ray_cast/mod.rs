//! Ray casts: where a half-line first meets a shape, in closed form per
//! shape (one file each) behind one posed, world-frame entry point, and by
//! GJK on the support function for every other convex shape.

mod capsule;
mod cone;
mod cuboid;
mod cylinder;
mod hull;
mod ray;
mod segment;
mod slab;
mod sphere;
mod support;
mod triangle;

pub use ray::{CastRay, LocalRayCast, Ray, RayCast, cast_ray, try_cast_ray};
pub use support::cast_local_ray_by_support;
