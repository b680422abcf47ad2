//! Ray against a triangle, a flat shape of zero thickness hit from either
//! side: the ray meets the triangle's plane at `t = n·(a − o) / n·d`, and
//! hits if that point is on the inner side of all three edges (the
//! plane-then-barycentric test of Ericson §5.3.6, equivalent to
//! Möller–Trumbore's; written here in f64 with the edge tests as signed
//! volumes, so no division decides inside from outside).
//!
//! Departures: the normal returned faces the ray (`±n`), since the triangle
//! has no inside. A ray lying in the triangle's plane (direction and origin
//! both exactly in it) is clipped against the three edges' in-plane
//! half-planes, as a flat hull is, and enters through an edge, with that
//! edge's outward in-plane normal. An origin on the triangle starts inside.

use nalgebra::Vector3;

use super::ray::{CastRay, LocalRayCast, Ray};
use crate::shape::Triangle;

impl CastRay for Triangle {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        // Everything relative to corner a, in f64.
        let a = self.a.coords.cast::<f64>();
        let (ab, ac) = (self.b.coords.cast::<f64>() - a, self.c.coords.cast::<f64>() - a);
        let o = ray.origin.coords.cast::<f64>() - a;
        let d = ray.dir.cast::<f64>();
        let n = ab.cross(&ac);
        if n == Vector3::zeros() {
            // Corners on one line (which `Triangle::try_new` refuses): the
            // support function still describes the segment they span.
            return super::support::cast_local_ray_by_support(self, ray, max_toi);
        }
        // Height of the origin above the plane (times |n|) and the ray's
        // rate of climb.
        let height = n.dot(&o);
        let climb = n.dot(&d);
        let corners = [Vector3::zeros(), ab, ac];
        if climb == 0.0 {
            if height != 0.0 {
                return LocalRayCast::Miss;
            }
            return in_plane(&corners, &n, &o, &d, max_toi);
        }
        let t = -height / climb;
        if !(t >= 0.0) || !(t <= f64::from(max_toi)) {
            return LocalRayCast::Miss;
        }
        let p = o + d * t;
        if !inside(&corners, &n, &p) {
            return LocalRayCast::Miss;
        }
        if t == 0.0 {
            return LocalRayCast::StartsInside;
        }
        let normal = if climb < 0.0 { n } else { -n };
        LocalRayCast::within(t as f32, normal.cast(), max_toi)
    }
}

/// Whether `p` (in the triangle's plane) is on the inner side of, or on,
/// each edge: the signed volume `(v_{i+1} − v_i) × (p − v_i) · n ≥ 0`.
fn inside(corners: &[Vector3<f64>; 3], n: &Vector3<f64>, p: &Vector3<f64>) -> bool {
    (0..3).all(|i| {
        let (v, w) = (corners[i], corners[(i + 1) % 3]);
        (w - v).cross(&(p - v)).dot(n) >= 0.0
    })
}

/// A ray in the triangle's plane, clipped by the three edges' half-planes
/// `m_i · (x − v_i) ≤ 0`, `m_i = (v_{i+1} − v_i) × n` pointing outwards.
fn in_plane(
    corners: &[Vector3<f64>; 3],
    n: &Vector3<f64>,
    o: &Vector3<f64>,
    d: &Vector3<f64>,
    max_toi: f32,
) -> LocalRayCast {
    let (mut enter, mut exit) = (0.0f64, f64::from(max_toi));
    let mut entered = None;
    let mut starts_inside = true;
    for i in 0..3 {
        let (v, w) = (corners[i], corners[(i + 1) % 3]);
        let m = (w - v).cross(n);
        let below = -m.dot(&(o - v));
        let climb = m.dot(d);
        starts_inside &= below >= 0.0;
        if climb < 0.0 {
            let t = below / climb;
            if t > enter {
                enter = t;
                entered = Some(m);
            }
        } else if climb > 0.0 {
            exit = exit.min(below / climb);
        } else if !(below >= 0.0) {
            return LocalRayCast::Miss;
        }
    }
    if starts_inside {
        return LocalRayCast::StartsInside;
    }
    match entered {
        Some(m) if enter <= exit => LocalRayCast::within(enter as f32, m.cast(), max_toi),
        _ => LocalRayCast::Miss,
    }
}
