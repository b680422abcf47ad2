//! The probe as the app holds it: the probe's state plus the 2D view (an
//! orthographic camera looking down -Z at the plane z = 0, panned and
//! zoomed by the mouse), and how the 3D orbit camera frames the probe.

use collide::nalgebra::{Point2, Point3, Vector3};

use crate::app::orbit_camera::OrbitCamera;
use crate::probe::{Dim, Probe};
use crate::render::{Camera, Projection};

/// Zoom factor per wheel notch in 2D: 10 % closer or farther, as in 3D.
const ZOOM_PER_NOTCH: f32 = 0.9;
/// Smallest and largest half height of the 2D view, metres.
const MIN_HALF_HEIGHT: f32 = 0.2;
const MAX_HALF_HEIGHT: f32 = 200.0;
/// Half height that shows A, B and the Minkowski difference side by side.
const DEFAULT_HALF_HEIGHT: f32 = 2.4;
/// How far in front of the plane the 2D camera sits, metres.
const EYE_DISTANCE: f32 = 10.0;

/// The 2D view: the plane point at the image centre and half the height
/// shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrthoView {
    /// The plane point at the centre of the image.
    pub center: Point2<f32>,
    /// Half the visible height, metres.
    pub half_height: f32,
}

impl Default for OrthoView {
    fn default() -> Self {
        Self { center: Point2::new(0.0, 0.0), half_height: DEFAULT_HALF_HEIGHT }
    }
}

impl OrthoView {
    /// The renderer's camera.
    pub fn camera(&self) -> Camera {
        let target = Point3::new(self.center.x, self.center.y, 0.0);
        Camera {
            eye: target + Vector3::z() * EYE_DISTANCE,
            target,
            up: Vector3::y(),
            projection: Projection::Orthographic {
                half_height: self.half_height,
                near: 0.0,
                far: 2.0 * EYE_DISTANCE,
            },
        }
    }

    /// The plane point under pixel `(x, y)` of a `width` x `height` image.
    pub fn pixel_to_plane(&self, x: f32, y: f32, width: f32, height: f32) -> Point2<f32> {
        let half_w = self.half_height * width / height.max(1.0);
        Point2::new(
            self.center.x + (2.0 * x / width.max(1.0) - 1.0) * half_w,
            self.center.y + (1.0 - 2.0 * y / height.max(1.0)) * self.half_height,
        )
    }

    /// Pans by a drag of `(dx, dy)` pixels: the plane follows the cursor.
    pub fn pan(&mut self, dx: f32, dy: f32, height: f32) {
        let metres_per_pixel = 2.0 * self.half_height / height.max(1.0);
        self.center += collide::nalgebra::Vector2::new(-dx, dy) * metres_per_pixel;
    }

    /// Zooms by `notches` of the wheel (positive: closer).
    pub fn zoom(&mut self, notches: f32) {
        let factor = ZOOM_PER_NOTCH.powf(notches);
        if factor.is_finite() {
            self.half_height = (self.half_height * factor).clamp(MIN_HALF_HEIGHT, MAX_HALF_HEIGHT);
        }
    }
}

/// The probe and its 2D view.
#[derive(Clone, Debug, Default)]
pub struct ProbeSession {
    /// The probe.
    pub probe: Probe,
    /// The 2D view.
    pub view2: OrthoView,
}

impl ProbeSession {
    /// A session in `dim` with the default shapes.
    pub fn new(dim: Dim) -> Self {
        let mut probe = Probe::default();
        if dim != probe.dim {
            probe.apply(crate::probe::ProbeAction::ToggleDim);
        }
        Self { probe, view2: OrthoView::default() }
    }

    /// Frames A and the Minkowski drawing: the orbit camera in 3D, the
    /// 2D view in 2D.
    pub fn frame(&mut self, orbit: &mut OrbitCamera) {
        let a = self.probe.pose_a.translation.vector;
        let o = self.probe.minkowski_origin().coords;
        match self.probe.dim {
            Dim::Three => {
                orbit.target = Point3::from((a + o) * 0.5 + Vector3::new(0.0, -0.15, 0.0));
                orbit.yaw = 0.0;
                orbit.pitch = 0.22;
                orbit.distance = 6.6;
            }
            Dim::Two => self.view2 = OrthoView::default(),
        }
    }
}
