//! The probe as the app holds it: the probe's state plus the 2D view (an
//! orthographic camera looking down -Z at the plane z = 0, panned and
//! zoomed by the mouse), and how both views frame the probe's drawing (the
//! two shapes and the Minkowski difference) in the part of the window the
//! HUD leaves free.

use collide::nalgebra::{Isometry3, Point2, Point3, Translation3, Vector2, Vector3};

use crate::app::orbit_camera::OrbitCamera;
use crate::app::view_region::ViewRegion;
use crate::collision::aabb::Aabb;
use crate::probe::{Dim, Probe};
use crate::render::{Camera, Projection};

/// Zoom factor per wheel notch in 2D: 10 % closer or farther, as in 3D.
const ZOOM_PER_NOTCH: f32 = 0.9;
/// Smallest and largest half height of the 2D view, metres.
const MIN_HALF_HEIGHT: f32 = 0.2;
const MAX_HALF_HEIGHT: f32 = 200.0;
/// Half height that shows A, B and the Minkowski difference side by side.
const DEFAULT_HALF_HEIGHT: f32 = 2.4;
/// How much room framing leaves around the drawing, as a factor on its
/// half size.
const FRAME_MARGIN: f32 = 1.1;
/// How far the drawing is assumed to reach around A's centre and the
/// Minkowski origin when a shape has no mesh or outline yet, metres.
const FALLBACK_REACH: f32 = 1.2;
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

    /// Fits the plane box `min..max` in `region`: the half height shows
    /// the box's height, and its width in the free columns, and the centre
    /// moves left so that the box's centre lies in the middle of them.
    pub fn frame_in(&mut self, min: Point2<f32>, max: Point2<f32>, region: ViewRegion) {
        let half = (max - min) * 0.5;
        let center = Point2::from((min.coords + max.coords) * 0.5);
        if !(half.iter().all(|x| x.is_finite()) && center.coords.iter().all(|x| x.is_finite())) {
            return;
        }
        let half_height = FRAME_MARGIN * half.y.max(half.x / region.free_aspect());
        self.half_height = half_height.clamp(MIN_HALF_HEIGHT, MAX_HALF_HEIGHT);
        let metres_per_pixel = 2.0 * self.half_height / region.height.max(1.0);
        self.center = center - Vector2::new(region.center_shift() * metres_per_pixel, 0.0);
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

    /// Frames the shapes and the Minkowski drawing in `region`: the orbit
    /// camera in 3D (looking along -Z, a little from above), the 2D view
    /// in 2D.
    pub fn frame(&mut self, orbit: &mut OrbitCamera, region: ViewRegion) {
        match self.probe.dim {
            Dim::Three => {
                orbit.yaw = 0.0;
                orbit.pitch = 0.22;
                orbit.frame_box_in(&self.bounds3(), region);
            }
            Dim::Two => {
                let (min, max) = self.bounds2();
                self.view2.frame_in(min, max, region);
            }
        }
    }

    /// The world box of what the 3D probe draws: A, B and the difference
    /// at the Minkowski origin (with A's rotation, as `draw3` places it),
    /// and the origin itself; with a mesh missing, a reach of
    /// 1.2 m (`FALLBACK_REACH`) around A's centre and the origin.
    pub fn bounds3(&self) -> Aabb {
        let p = &self.probe;
        let pictures = p.pictures();
        let origin = p.minkowski_origin();
        let minkowski_from_a =
            Isometry3::from_parts(Translation3::from(origin.coords), p.pose_a.rotation);
        let mut b = Aabb { min: origin, max: origin };
        let mut grow = |q: Point3<f32>| {
            b.min = b.min.inf(&q);
            b.max = b.max.sup(&q);
        };
        let posed = [
            (&pictures.shapes[0], p.pose_a),
            (&pictures.shapes[1], p.pose_b),
            (&pictures.difference, minkowski_from_a),
        ];
        for (mesh, pose) in posed {
            match mesh {
                Some(m) => m.positions.iter().for_each(|q| grow(pose * q)),
                None => {
                    let reach = Vector3::repeat(FALLBACK_REACH);
                    let a = Point3::from(p.pose_a.translation.vector);
                    for centre in [a, origin] {
                        grow(centre - reach);
                        grow(centre + reach);
                    }
                }
            }
        }
        b
    }

    /// The plane box of what the 2D probe draws: A's and B's outlines and
    /// the difference polygon around the Minkowski origin.
    pub fn bounds2(&self) -> (Point2<f32>, Point2<f32>) {
        let p = &self.probe;
        let pictures = p.pictures();
        let origin = p.minkowski_origin();
        let origin = Point2::new(origin.x, origin.y);
        let minkowski_from_a =
            collide::nalgebra::Isometry2::from_parts(origin.coords.into(), p.pose_a2.rotation);
        let posed = [
            (&pictures.outlines[0], p.pose_a2),
            (&pictures.outlines[1], p.pose_b2),
            (&pictures.polygon, minkowski_from_a),
        ];
        let mut min = Point2::new(f32::MAX, f32::MAX);
        let mut max = Point2::new(f32::MIN, f32::MIN);
        for (points, pose) in posed {
            for q in points {
                let q = pose * q;
                min = min.inf(&q);
                max = max.sup(&q);
            }
        }
        let reach = Vector2::repeat(FALLBACK_REACH);
        for centre in [Point2::from(p.pose_a2.translation.vector), origin] {
            if !(min.x <= max.x) || pictures.polygon.is_empty() {
                min = min.inf(&(centre - reach));
                max = max.sup(&(centre + reach));
            }
        }
        (min, max)
    }
}
