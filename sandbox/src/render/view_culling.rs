//! View-frustum culling of instances for the main pass: an instance whose
//! bounding sphere lies wholly outside the part of the view the main pass
//! draws (the frustum, narrowed to the scissor rectangle) is left out of
//! it. The shadow pass still draws every instance, since a body out of
//! view can cast a shadow into it.
//!
//! The planes are read off the rows of the clip-from-world matrix (Gribb
//! and Hartmann's method): a point is inside when
//! `x_min w <= x <= x_max w`, likewise for `y`, and `0 <= z <= w` in clip
//! space, which for row `r_i` of the matrix are the half-spaces
//! `(r_0 - x_min r_3) . p >= 0` and so on. Normalised, each plane's value at
//! a point is its signed distance, and a sphere is outside when that is
//! below minus its radius for any plane. The test is conservative (a
//! sphere past a frustum corner can be kept), never the other way.

use nalgebra::{Matrix4, Vector3, Vector4};

/// The six planes of the drawn part of the view, normalised so that each
/// gives the signed distance in world units, positive inside.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ViewFrustum {
    planes: [Vector4<f32>; 6],
}

impl ViewFrustum {
    /// The frustum of `clip_from_world` narrowed to the NDC rectangle
    /// `[x_min, x_max] x [y_min, y_max]` (the scissor; `[-1, 1]^2` for the
    /// whole target).
    pub(crate) fn new(clip_from_world: &Matrix4<f32>, ndc_x: [f32; 2], ndc_y: [f32; 2]) -> Self {
        let row = |i: usize| clip_from_world.row(i).transpose();
        let (x, y, z, w) = (row(0), row(1), row(2), row(3));
        let mut planes =
            [x - w * ndc_x[0], w * ndc_x[1] - x, y - w * ndc_y[0], w * ndc_y[1] - y, z, w - z];
        for plane in &mut planes {
            let norm = plane.xyz().norm();
            // A degenerate plane (a non-invertible matrix) culls nothing.
            *plane = if norm > 0.0 { *plane / norm } else { Vector4::new(0.0, 0.0, 0.0, 1.0) };
        }
        Self { planes }
    }

    /// Whether any part of the sphere may be in view. A sphere with a
    /// coordinate or radius that is not a number is kept.
    pub(crate) fn may_see(&self, center: &Vector3<f32>, radius: f32) -> bool {
        let p = center.push(1.0);
        !self.planes.iter().any(|plane| plane.dot(&p) < -radius)
    }
}

/// The NDC ranges of the pixel rectangle `[x, y, width, height]` (from the
/// top left) of a `width` x `height` target.
pub(crate) fn ndc_rect([x, y, w, h]: [u32; 4], width: u32, height: u32) -> ([f32; 2], [f32; 2]) {
    let (fw, fh) = (width.max(1) as f32, height.max(1) as f32);
    let x0 = x.min(width) as f32;
    let x1 = x.saturating_add(w).min(width) as f32;
    let y0 = y.min(height) as f32;
    let y1 = y.saturating_add(h).min(height) as f32;
    ([2.0 * x0 / fw - 1.0, 2.0 * x1 / fw - 1.0], [1.0 - 2.0 * y1 / fh, 1.0 - 2.0 * y0 / fh])
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;
    use crate::render::Camera;

    /// Against brute force: a sphere is in view when some point of it
    /// projects inside the rectangle in front of the camera. Spheres the
    /// frustum keeps may be outside (near a corner); spheres it drops must
    /// have no point in view.
    #[test]
    fn culled_spheres_have_no_point_in_the_drawn_rectangle() {
        let camera = Camera::looking_at(Point3::new(3.0, 4.0, 12.0), Point3::new(0.0, 1.0, 0.0));
        let (width, height) = (1280u32, 720u32);
        let rect = [263, 0, 1017, 720];
        let (nx, ny) = ndc_rect(rect, width, height);
        let frustum = ViewFrustum::new(&camera.clip_from_world(16.0 / 9.0), nx, ny);
        let mut rng = crate::rng::Lcg(7);
        let (mut kept, mut dropped) = (0, 0);
        for _ in 0..2000 {
            let mut u = || rng.range(-1.0, 1.0);
            let center = Vector3::new(30.0 * u(), 10.0 * u() + 5.0, 30.0 * u());
            let radius = 0.1 + 2.0 * (u() + 1.0);
            let inside = |p: Point3<f32>| {
                camera.project_to_pixel(&p, width, height).is_some_and(|px| {
                    px.x >= rect[0] as f32
                        && px.x <= (rect[0] + rect[2]) as f32
                        && px.y >= 0.0
                        && px.y <= height as f32
                })
            };
            // Points on and in the sphere.
            let mut any = inside(Point3::from(center));
            for k in 0..400 {
                let t = k as f32 * 2.399_963;
                let y = 1.0 - 2.0 * (k as f32 + 0.5) / 400.0;
                let s = (1.0 - y * y).sqrt();
                let dir = Vector3::new(s * t.cos(), y, s * t.sin());
                any |= inside(Point3::from(center + dir * radius * 0.999));
            }
            if frustum.may_see(&center, radius) {
                kept += 1;
            } else {
                assert!(!any, "{center:?} r {radius} dropped but in view");
                dropped += 1;
            }
        }
        assert!(kept > 100 && dropped > 100, "kept {kept}, dropped {dropped}");
        assert!(frustum.may_see(&Vector3::new(f32::NAN, 0.0, 0.0), 1.0));
    }

    #[test]
    fn the_whole_target_is_the_unit_square() {
        assert_eq!(ndc_rect([0, 0, u32::MAX, u32::MAX], 1280, 720), ([-1.0, 1.0], [-1.0, 1.0]));
        assert_eq!(ndc_rect([640, 0, 640, 360], 1280, 720), ([0.0, 1.0], [0.0, 1.0]));
    }
}
