//! Exact ray casts against each shape, for picking.
//!
//! Each cast works in the shape's frame: the ray is moved into it, intersected
//! analytically (slabs for boxes, a quadratic for spheres, an infinite
//! cylinder plus two end spheres for capsules, half-space clipping for hulls,
//! after Haines' "Fast Ray-Convex Polyhedron Intersection", Graphics Gems II)
//! and the hit is moved back. Rays starting inside a shape hit it at `t = 0`.

use collide::nalgebra::{Isometry3, Point3, Unit, Vector3};
use collide::{Capsule, ConvexHull, Cuboid, Shape, Sphere};

use crate::body::BodyId;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;

/// A half-line `origin + t * direction`, `t ≥ 0`, in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Start of the ray.
    pub origin: Point3<f32>,
    /// Direction of the ray; `t` is measured in multiples of it.
    pub direction: Vector3<f32>,
}

impl Ray {
    /// A ray from `origin` along `direction`.
    pub const fn new(origin: Point3<f32>, direction: Vector3<f32>) -> Self {
        Self { origin, direction }
    }

    /// The point at parameter `t`.
    pub fn at(&self, t: f32) -> Point3<f32> {
        self.origin + self.direction * t
    }
}

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Ray parameter of the hit: the point is `origin + t * direction`.
    pub t: f32,
    /// Outward surface normal at the hit, world frame (the reversed ray
    /// direction when the ray starts inside).
    pub normal: Unit<Vector3<f32>>,
}

/// The first hit of `ray` on `shape` at `pose` with `t ≤ max_t`, or `None`.
///
/// ```
/// use sandbox::{Ray, cast_ray};
/// use collide::{Cuboid, Shape};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
/// let cube: Shape = Cuboid::new(Vector3::repeat(1.0)).into();
/// let ray = Ray::new(Point3::new(-5.0, 0.0, 0.0), Vector3::x());
/// let hit = cast_ray(&cube, &Isometry3::identity(), &ray, 100.0).unwrap();
/// assert!((hit.t - 4.0).abs() < 1e-5);
/// ```
pub fn cast_ray(shape: &Shape, pose: &Isometry3<f32>, ray: &Ray, max_t: f32) -> Option<RayHit> {
    let local = Ray::new(
        pose.inverse_transform_point(&ray.origin),
        pose.inverse_transform_vector(&ray.direction),
    );
    let (t, normal_local) = match shape {
        Shape::Sphere(s) => sphere(s, &local)?,
        Shape::Cuboid(c) => cuboid(c, &local)?,
        Shape::Capsule(c) => capsule(c, &local)?,
        Shape::ConvexHull(h) => hull(h, &local)?,
    };
    // Written so that a NaN parameter is rejected.
    if !(t <= max_t) {
        return None;
    }
    let n = Unit::try_new(pose.rotation * normal_local, 0.0)
        .or_else(|| Unit::try_new(-ray.direction, 0.0))?;
    Some(RayHit { t, normal: n })
}

/// Smallest root `t ≥ 0` of `|o + t d - c|² = r²`, with the normal there.
fn ball(center: &Point3<f32>, radius: f32, ray: &Ray) -> Option<(f32, Vector3<f32>)> {
    let m = ray.origin - center;
    let c = m.norm_squared() - radius * radius;
    if c <= 0.0 {
        return Some((0.0, -ray.direction));
    }
    let a = ray.direction.norm_squared();
    let b = m.dot(&ray.direction);
    if b >= 0.0 || !(a > 0.0) {
        return None;
    }
    let disc = b * b - a * c;
    if !(disc >= 0.0) {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    Some((t, ray.at(t) - center))
}

fn sphere(s: &Sphere, ray: &Ray) -> Option<(f32, Vector3<f32>)> {
    ball(&Point3::origin(), s.radius, ray)
}

/// Slab test: intersect the three intervals where the ray is between each
/// pair of opposite faces; the entering face of the latest entry is the hit.
fn cuboid(c: &Cuboid, ray: &Ray) -> Option<(f32, Vector3<f32>)> {
    let mut t_enter = 0.0f32;
    let mut t_exit = f32::INFINITY;
    let mut normal = -ray.direction;
    for k in 0..3 {
        let (o, d, h) = (ray.origin[k], ray.direction[k], c.half_extents[k]);
        if d == 0.0 {
            if o < -h || o > h {
                return None;
            }
            continue;
        }
        let (mut t0, mut t1) = ((-h - o) / d, (h - o) / d);
        let mut sign = -1.0;
        if t0 > t1 {
            std::mem::swap(&mut t0, &mut t1);
            sign = 1.0;
        }
        if t0 > t_enter {
            t_enter = t0;
            normal = Vector3::zeros();
            normal[k] = sign;
        }
        t_exit = t_exit.min(t1);
        if !(t_enter <= t_exit) {
            return None;
        }
    }
    Some((t_enter, normal))
}

/// The capsule is the union of a finite cylinder and two balls at the segment
/// ends; the first hit on the cylinder's side (within the segment's span) or
/// on either ball is the hit.
fn capsule(c: &Capsule, ray: &Ray) -> Option<(f32, Vector3<f32>)> {
    let (o, d, r, h) = (ray.origin, ray.direction, c.radius, c.half_height);
    let radial_sq = o.x * o.x + o.z * o.z;
    if radial_sq <= r * r && o.y.abs() <= h {
        return Some((0.0, -d));
    }
    let mut best: Option<(f32, Vector3<f32>)> = None;
    let mut consider = |hit: Option<(f32, Vector3<f32>)>| {
        if let Some((t, n)) = hit
            && best.is_none_or(|(bt, _)| t < bt)
        {
            best = Some((t, n));
        }
    };
    // Side: (ox + t dx)² + (oz + t dz)² = r², solved for the entering root.
    let a = d.x * d.x + d.z * d.z;
    if a > 0.0 {
        let b = o.x * d.x + o.z * d.z;
        let cc = radial_sq - r * r;
        let disc = b * b - a * cc;
        if disc >= 0.0 {
            let t = (-b - disc.sqrt()) / a;
            let y = o.y + t * d.y;
            if t >= 0.0 && y.abs() <= h {
                let p = ray.at(t);
                consider(Some((t, Vector3::new(p.x, 0.0, p.z))));
            }
        }
    }
    let [bottom, top] = c.segment();
    consider(ball(&bottom, r, ray));
    consider(ball(&top, r, ray));
    best
}

/// Clip the ray against every face plane: entering planes raise `t_enter`,
/// leaving planes lower `t_exit`; an empty interval means a miss.
fn hull(h: &ConvexHull, ray: &Ray) -> Option<(f32, Vector3<f32>)> {
    if h.faces().is_empty() {
        return None;
    }
    let mut t_enter = 0.0f32;
    let mut t_exit = f32::INFINITY;
    let mut normal = -ray.direction;
    for face in h.faces() {
        let n = face.normal.into_inner();
        let dist = face.offset - n.dot(&ray.origin.coords);
        let denom = n.dot(&ray.direction);
        if denom == 0.0 {
            if dist < 0.0 {
                return None;
            }
            continue;
        }
        let t = dist / denom;
        if denom < 0.0 {
            if t > t_enter {
                t_enter = t;
                normal = n;
            }
        } else {
            t_exit = t_exit.min(t);
        }
        if !(t_enter <= t_exit) {
            return None;
        }
    }
    Some((t_enter, normal))
}

/// The first of `bodies` that `ray` hits with `t ≤ max_t`, and where; a
/// body's shape is cast only when the ray meets its broad-phase box
/// (`fat[slot]`) before the best hit so far.
pub(crate) fn cast_ray_bodies(
    bodies: &Bodies,
    fat: &[Aabb],
    ray: &Ray,
    max_t: f32,
) -> Option<(BodyId, RayHit)> {
    let mut best: Option<(BodyId, RayHit)> = None;
    for (i, r) in bodies.records.iter().enumerate() {
        if !r.alive {
            continue;
        }
        let limit = best.map_or(max_t, |(_, h)| h.t);
        if !ray_meets_box(ray, &fat[i], limit) {
            continue;
        }
        if let Some(hit) = cast_ray(&r.shape, &bodies.poses[i], ray, limit)
            && best.is_none_or(|(_, b)| hit.t < b.t)
        {
            best = Some((bodies.id(i), hit));
        }
    }
    best
}

/// Whether `ray` meets `aabb` for some `t` in `[0, max_t]` (slab test).
fn ray_meets_box(ray: &Ray, aabb: &Aabb, max_t: f32) -> bool {
    let mut t0 = 0.0f32;
    let mut t1 = max_t;
    for k in 0..3 {
        let inv = 1.0 / ray.direction[k];
        let (mut a, mut b) =
            ((aabb.min[k] - ray.origin[k]) * inv, (aabb.max[k] - ray.origin[k]) * inv);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        // A zero direction gives ±inf or NaN (origin on the slab plane); NaN
        // leaves the bounds unchanged, which keeps the box as a candidate.
        if a > t0 {
            t0 = a;
        }
        if b < t1 {
            t1 = b;
        }
        if t0 > t1 {
            return false;
        }
    }
    true
}
