//! The camera: where it looks from, and how it projects to wgpu clip space.
//!
//! Both projections are right-handed (the camera looks down its local -Z)
//! and map view depth to wgpu's `0..=1` clip depth, `near` to 0 and `far`
//! to 1. nalgebra's `Perspective3` and `Orthographic3` follow OpenGL and map
//! depth to `-1..=1`, which would clip everything in front of the middle of
//! the range, so they are not used here.

use nalgebra::{Isometry3, Matrix4, Point2, Point3, Vector3, Vector4};

use super::RenderError;

/// How the camera projects view space onto the image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Projection {
    /// A perspective projection with a vertical field of view.
    Perspective {
        /// Vertical field of view in radians, in `(0, pi)`.
        fov_y: f32,
        /// Distance to the near plane, `> 0`.
        near: f32,
        /// Distance to the far plane, `> near`.
        far: f32,
    },
    /// An orthographic projection, for 2D views.
    Orthographic {
        /// Half the visible height in world units; the width follows the aspect.
        half_height: f32,
        /// Distance to the near plane (may be negative).
        near: f32,
        /// Distance to the far plane, `> near`.
        far: f32,
    },
}

/// A camera looking from `eye` at `target`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// The camera position in the world.
    pub eye: Point3<f32>,
    /// The point the camera looks at.
    pub target: Point3<f32>,
    /// The world direction that appears upwards on screen.
    pub up: Vector3<f32>,
    /// The projection.
    pub projection: Projection,
}

impl Camera {
    /// A perspective camera with Y up, a 50 degree vertical field of view,
    /// `near = 0.05` and `far = 500`.
    pub fn looking_at(eye: Point3<f32>, target: Point3<f32>) -> Self {
        Self {
            eye,
            target,
            up: Vector3::y(),
            projection: Projection::Perspective {
                fov_y: 50f32.to_radians(),
                near: 0.05,
                far: 500.0,
            },
        }
    }

    /// Checks that the camera can form a projection.
    pub fn validate(&self) -> Result<(), RenderError> {
        let finite = self.eye.coords.iter().all(|c| c.is_finite())
            && self.target.coords.iter().all(|c| c.is_finite())
            && self.up.iter().all(|c| c.is_finite());
        if !finite {
            return Err(RenderError::InvalidCamera("non-finite eye, target or up"));
        }
        let forward = self.target - self.eye;
        if !(forward.norm() > 0.0) {
            return Err(RenderError::InvalidCamera("eye and target coincide"));
        }
        if !(forward.normalize().cross(&self.up).norm() > 1e-6) {
            return Err(RenderError::InvalidCamera("up is parallel to the view direction"));
        }
        match self.projection {
            Projection::Perspective { fov_y, near, far } => {
                if !(fov_y > 0.0 && fov_y < std::f32::consts::PI) {
                    return Err(RenderError::InvalidCamera("fov_y must lie in (0, pi)"));
                }
                if !(near > 0.0 && far > near && far.is_finite()) {
                    return Err(RenderError::InvalidCamera("need 0 < near < far"));
                }
            }
            Projection::Orthographic { half_height, near, far } => {
                if !(half_height > 0.0 && half_height.is_finite()) {
                    return Err(RenderError::InvalidCamera("half_height must be positive"));
                }
                if !(far > near && near.is_finite() && far.is_finite()) {
                    return Err(RenderError::InvalidCamera("need near < far"));
                }
            }
        }
        Ok(())
    }

    /// The rigid transform from world space to view space.
    pub fn view_from_world(&self) -> Isometry3<f32> {
        Isometry3::look_at_rh(&self.eye, &self.target, &self.up)
    }

    /// The projection matrix for an image of the given aspect (width / height).
    pub fn clip_from_view(&self, aspect: f32) -> Matrix4<f32> {
        match self.projection {
            Projection::Perspective { fov_y, near, far } => {
                perspective_rh_zo(fov_y, aspect, near, far)
            }
            Projection::Orthographic { half_height, near, far } => {
                orthographic_rh_zo(half_height * aspect, half_height, near, far)
            }
        }
    }

    /// The full world-to-clip matrix.
    pub fn clip_from_world(&self, aspect: f32) -> Matrix4<f32> {
        self.clip_from_view(aspect) * self.view_from_world().to_homogeneous()
    }

    /// Where a world point lands in a `width` x `height` image, in pixels
    /// from the top-left corner, or `None` if it lies behind the camera or
    /// outside the depth range.
    pub fn project_to_pixel(
        &self,
        point_world: &Point3<f32>,
        width: u32,
        height: u32,
    ) -> Option<Point2<f32>> {
        let aspect = width as f32 / height.max(1) as f32;
        let clip = self.clip_from_world(aspect) * point_world.to_homogeneous();
        if !(clip.w > 0.0) {
            return None;
        }
        let ndc = clip.xyz() / clip.w;
        if !(0.0..=1.0).contains(&ndc.z) {
            return None;
        }
        Some(Point2::new((ndc.x * 0.5 + 0.5) * width as f32, (0.5 - ndc.y * 0.5) * height as f32))
    }
}

/// A right-handed perspective projection with clip depth in `0..=1`.
///
/// With `f = 1 / tan(fov_y / 2)` and view depth `z < 0`, clip `w = -z` and
/// clip `z = (far * z + near * far) / (near - far)`, which is 0 at
/// `z = -near` and `w` (depth 1) at `z = -far`.
pub fn perspective_rh_zo(fov_y: f32, aspect: f32, near: f32, far: f32) -> Matrix4<f32> {
    let f = 1.0 / (fov_y * 0.5).tan();
    let depth_scale = far / (near - far);
    Matrix4::from_rows(&[
        Vector4::new(f / aspect, 0.0, 0.0, 0.0).transpose(),
        Vector4::new(0.0, f, 0.0, 0.0).transpose(),
        Vector4::new(0.0, 0.0, depth_scale, near * depth_scale).transpose(),
        Vector4::new(0.0, 0.0, -1.0, 0.0).transpose(),
    ])
}

/// A right-handed orthographic projection with clip depth in `0..=1`: view
/// depth `z = -near` maps to 0 and `z = -far` to 1.
pub fn orthographic_rh_zo(half_width: f32, half_height: f32, near: f32, far: f32) -> Matrix4<f32> {
    let depth_scale = 1.0 / (near - far);
    Matrix4::from_rows(&[
        Vector4::new(1.0 / half_width, 0.0, 0.0, 0.0).transpose(),
        Vector4::new(0.0, 1.0 / half_height, 0.0, 0.0).transpose(),
        Vector4::new(0.0, 0.0, depth_scale, near * depth_scale).transpose(),
        Vector4::new(0.0, 0.0, 0.0, 1.0).transpose(),
    ])
}
