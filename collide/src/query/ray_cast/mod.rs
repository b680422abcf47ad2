//! Ray casts: where a half-line first meets a shape, in closed form per
//! shape (one file each) behind one posed, world-frame entry point.

mod capsule;
mod cuboid;
mod hull;
mod ray;
mod sphere;

pub use ray::{CastRay, LocalRayCast, Ray, RayCast, cast_ray, try_cast_ray};
