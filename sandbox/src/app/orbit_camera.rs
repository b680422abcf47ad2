//! The app's orbit camera: it circles a target point at a distance, with a
//! yaw about the world's Y axis and a pitch above the horizon. Left drag
//! orbits, right or middle drag pans the target in the view plane, the
//! wheel zooms by a constant factor per notch, and "frame" fits a bounding
//! box in view, or in the part of the window the HUD leaves free
//! ([`ViewRegion`]). It also turns a pixel into a picking ray.

use crate::app::view_region::ViewRegion;
use crate::collision::aabb::Aabb;
use crate::render::{Camera, Projection};
use collide::Ray;
use collide::nalgebra::{Point3, Vector3};

/// Radians of orbit per pixel dragged: a drag across a 1280-pixel window
/// turns the view by about 3.2 rad (half a turn and a bit).
const ORBIT_PER_PIXEL: f32 = 0.0025;
/// Pitch limit short of straight down or up, where yaw degenerates.
const MAX_PITCH: f32 = 1.5;
/// Zoom factor per wheel notch: 10 % closer or farther.
const ZOOM_PER_NOTCH: f32 = 0.9;
/// Room [`OrbitCamera::frame_box_in`] leaves around a box it fits: a
/// tenth of its size on each side.
const BOX_MARGIN: f32 = 1.1;
/// Nearest and farthest orbit distances, metres.
const MIN_DISTANCE: f32 = 0.5;
const MAX_DISTANCE: f32 = 400.0;

/// A camera orbiting a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at and orbited.
    pub target: Point3<f32>,
    /// Distance from the target to the eye, metres.
    pub distance: f32,
    /// Angle about world Y, radians (0: the eye on +Z of the target).
    pub yaw: f32,
    /// Angle above the horizontal plane, radians.
    pub pitch: f32,
    /// Vertical field of view, radians.
    pub fov_y: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Point3::new(0.0, 2.0, 0.0),
            distance: 25.0,
            yaw: 0.6,
            pitch: 0.45,
            fov_y: 50f32.to_radians(),
        }
    }
}

impl OrbitCamera {
    /// The eye's position.
    pub fn eye(&self) -> Point3<f32> {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vector3::new(sy * cp, sp, cy * cp) * self.distance
    }

    /// The renderer's camera for this orbit.
    pub fn camera(&self) -> Camera {
        Camera {
            projection: Projection::Perspective {
                fov_y: self.fov_y,
                near: (0.01 * self.distance).clamp(0.02, 1.0),
                far: 2000.0,
            },
            ..Camera::looking_at(self.eye(), self.target)
        }
    }

    /// Orbits by a mouse drag of `(dx, dy)` pixels: right turns the view
    /// right (the eye moves left), down raises the eye.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * ORBIT_PER_PIXEL;
        self.pitch = (self.pitch + dy * ORBIT_PER_PIXEL).clamp(-MAX_PITCH, MAX_PITCH);
    }

    /// Pans by a mouse drag of `(dx, dy)` pixels in a window `height`
    /// pixels tall: the point under the cursor at the target's depth stays
    /// under the cursor.
    pub fn pan(&mut self, dx: f32, dy: f32, height: f32) {
        let metres_per_pixel = 2.0 * self.distance * (0.5 * self.fov_y).tan() / height.max(1.0);
        let forward = (self.target - self.eye()).normalize();
        let right = forward.cross(&Vector3::y()).normalize();
        let up = right.cross(&forward);
        self.target += (-right * dx + up * dy) * metres_per_pixel;
    }

    /// Zooms by `notches` of the wheel (positive: closer).
    pub fn zoom(&mut self, notches: f32) {
        let factor = ZOOM_PER_NOTCH.powf(notches);
        if factor.is_finite() {
            self.distance = (self.distance * factor).clamp(MIN_DISTANCE, MAX_DISTANCE);
        }
    }

    /// Targets the centre of `aabb` and backs off until its bounding sphere
    /// fits the vertical field of view, keeping yaw and pitch.
    pub fn frame(&mut self, aabb: &Aabb) {
        let center = Point3::from((aabb.min.coords + aabb.max.coords) * 0.5);
        let radius = 0.5 * (aabb.max - aabb.min).norm();
        if !(center.coords.iter().all(|x| x.is_finite()) && radius.is_finite()) {
            return;
        }
        self.target = center;
        let fit = radius.max(0.5) / (0.5 * self.fov_y).sin();
        self.distance = fit.clamp(MIN_DISTANCE, MAX_DISTANCE);
    }

    /// Frames the sphere of `radius` around `center` in `region`: backs
    /// off until the sphere fits both the vertical field of view and the
    /// region's width, then moves the target sideways (along the view's
    /// right) so that `center` appears at the middle of the region. Yaw
    /// and pitch are kept. Non-finite input changes nothing.
    pub fn frame_sphere_in(&mut self, center: Point3<f32>, radius: f32, region: ViewRegion) {
        if !(center.coords.iter().all(|x| x.is_finite()) && radius.is_finite()) {
            return;
        }
        // Tangent of the half angle per pixel, at unit depth.
        let tan_half_v = (0.5 * self.fov_y).tan();
        let tan_per_pixel = tan_half_v / (0.5 * region.height.max(1.0));
        let tan_half_free = tan_per_pixel * 0.5 * region.free_width();
        let half_angle = tan_half_v.min(tan_half_free).atan();
        // Off the axis, `theta` from it (the region's centre: about 15
        // degrees right of the HUD at 1280x720), a sphere's image is
        // stretched radially by about 1 / cos(theta): back off that much.
        let off_axis = 1.0 / (region.center_shift() * tan_per_pixel).atan().cos();
        let fit = off_axis * radius.max(0.5) / half_angle.sin();
        self.distance = fit.clamp(MIN_DISTANCE, MAX_DISTANCE);
        // With the target at `center` the centre projects to the window's
        // middle; a target moved by -s along the view's right puts it
        // `s / (distance * tan_per_pixel)` pixels right of the middle.
        self.target = center;
        let right = self.right();
        self.target -= right * (region.center_shift() * tan_per_pixel * self.distance);
    }

    /// Frames `aabb`'s bounding sphere in `region` (see
    /// [`frame_sphere_in`](Self::frame_sphere_in)).
    pub fn frame_in(&mut self, aabb: &Aabb, region: ViewRegion) {
        let center = Point3::from((aabb.min.coords + aabb.max.coords) * 0.5);
        let radius = 0.5 * (aabb.max - aabb.min).norm();
        self.frame_sphere_in(center, radius, region);
    }

    /// Frames `aabb` itself in `region`, tighter than its bounding sphere
    /// for a wide, flat box: the box's half extents along the view's right
    /// and up must fit the region's half width and the half height at the
    /// depth of its near side. The target moves as in
    /// [`frame_sphere_in`](Self::frame_sphere_in).
    pub fn frame_box_in(&mut self, aabb: &Aabb, region: ViewRegion) {
        let center = Point3::from((aabb.min.coords + aabb.max.coords) * 0.5);
        let half = (aabb.max - aabb.min) * 0.5;
        if !(center.coords.iter().all(|x| x.is_finite()) && half.iter().all(|x| x.is_finite())) {
            return;
        }
        let right = self.right();
        let forward = (self.target - self.eye()).normalize();
        let up = right.cross(&forward);
        // The box's half extent along a unit axis: the support of the box
        // centred at the origin.
        let along = |axis: Vector3<f32>| half.dot(&axis.abs());
        let tan_half_v = (0.5 * self.fov_y).tan();
        let tan_per_pixel = tan_half_v / (0.5 * region.height.max(1.0));
        let tan_half_free = tan_per_pixel * 0.5 * region.free_width();
        let fit = (along(right) / tan_half_free).max(along(up) / tan_half_v) + along(forward);
        let off_axis = 1.0 / (region.center_shift() * tan_per_pixel).atan().cos();
        self.distance = (BOX_MARGIN * off_axis * fit).clamp(MIN_DISTANCE, MAX_DISTANCE);
        self.target = center;
        self.target -= right * (region.center_shift() * tan_per_pixel * self.distance);
    }

    /// The view's right, horizontal, unit.
    fn right(&self) -> Vector3<f32> {
        let (sy, cy) = self.yaw.sin_cos();
        // The eye sits at (sin yaw, ., cos yaw) from the target; looking
        // back at it, right is forward x up.
        Vector3::new(cy, 0.0, -sy)
    }

    /// The ray from the eye through pixel `(x, y)` of a `width` x `height`
    /// window (pixels from the top-left), with a unit direction.
    pub fn ray_through(&self, x: f32, y: f32, width: f32, height: f32) -> Ray {
        let eye = self.eye();
        let forward = (self.target - eye).normalize();
        let right = forward.cross(&Vector3::y()).normalize();
        let up = right.cross(&forward);
        let half_h = (0.5 * self.fov_y).tan();
        let half_w = half_h * width / height.max(1.0);
        let u = (2.0 * x / width.max(1.0) - 1.0) * half_w;
        let v = (1.0 - 2.0 * y / height.max(1.0)) * half_h;
        Ray::new(eye, (forward + right * u + up * v).normalize())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_pixel_ray_points_at_the_target_and_projects_back() {
        let cam = OrbitCamera::default();
        let ray = cam.ray_through(640.0, 360.0, 1280.0, 720.0);
        let to_target = (cam.target - cam.eye()).normalize();
        assert!((ray.dir - to_target).norm() < 1e-5);
        // A point along an off-centre ray lands back on its pixel.
        let ray = cam.ray_through(200.0, 100.0, 1280.0, 720.0);
        let p = ray.point_at(7.0);
        let px = cam.camera().project_to_pixel(&p, 1280, 720).unwrap();
        assert!((px.x - 200.0).abs() < 0.05 && (px.y - 100.0).abs() < 0.05, "{px:?}");
    }

    #[test]
    fn orbit_keeps_the_distance_and_clamps_the_pitch() {
        let mut cam = OrbitCamera::default();
        cam.orbit(300.0, 0.0);
        assert!(((cam.eye() - cam.target).norm() - cam.distance).abs() < 1e-3);
        cam.orbit(0.0, 1e6);
        assert_eq!(cam.pitch, MAX_PITCH);
    }

    #[test]
    fn pan_moves_the_target_in_the_view_plane_and_zoom_is_bounded() {
        let mut cam = OrbitCamera::default();
        let before = cam.target;
        let forward = (cam.target - cam.eye()).normalize();
        cam.pan(50.0, -20.0, 720.0);
        let moved = cam.target - before;
        assert!(moved.norm() > 0.1 && moved.dot(&forward).abs() < 1e-4, "{moved:?}");
        cam.zoom(1000.0);
        assert_eq!(cam.distance, MIN_DISTANCE);
        cam.zoom(f32::INFINITY);
        assert_eq!(cam.distance, MIN_DISTANCE);
    }

    /// Framed right of a 420-pixel panel, every corner of the box projects
    /// into the free columns, and the box's centre onto their middle.
    #[test]
    fn frame_in_puts_the_box_right_of_the_panel() {
        let aabb = Aabb { min: Point3::new(-3.0, 0.5, -1.0), max: Point3::new(3.0, 2.5, 1.0) };
        let region = ViewRegion::right_of(1280.0, 720.0, 420.0);
        for yaw in [0.0, 0.6, -2.0] {
            let mut cam = OrbitCamera { yaw, ..OrbitCamera::default() };
            cam.frame_in(&aabb, region);
            let camera = cam.camera();
            let centre = Point3::new(0.0, 1.5, 0.0);
            let px = camera.project_to_pixel(&centre, 1280, 720).unwrap();
            assert!((px.x - 850.0).abs() < 0.5 && (px.y - 360.0).abs() < 0.5, "{yaw}: {px:?}");
            for i in 0..8 {
                let pick = |bit: usize, lo: f32, hi: f32| if i & (1 << bit) == 0 { lo } else { hi };
                let corner = Point3::new(
                    pick(0, aabb.min.x, aabb.max.x),
                    pick(1, aabb.min.y, aabb.max.y),
                    pick(2, aabb.min.z, aabb.max.z),
                );
                let p = camera.project_to_pixel(&corner, 1280, 720).unwrap();
                assert!(p.x > 420.0 && p.x < 1280.0, "{yaw}: corner {corner:?} at {p:?}");
                assert!(p.y > 0.0 && p.y < 720.0, "{yaw}: corner {corner:?} at {p:?}");
            }
        }
    }

    #[test]
    fn frame_fits_the_box() {
        let mut cam = OrbitCamera::default();
        let aabb = Aabb { min: Point3::new(-10.0, 0.0, -1.0), max: Point3::new(10.0, 20.0, 1.0) };
        cam.frame(&aabb);
        assert_eq!(cam.target, Point3::new(0.0, 10.0, 0.0));
        let camera = cam.camera();
        for corner in [aabb.min, aabb.max] {
            assert!(camera.project_to_pixel(&corner, 720, 720).is_some());
        }
    }
}
