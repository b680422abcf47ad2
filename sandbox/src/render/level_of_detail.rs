//! Level of detail: how finely each round instance (sphere, capsule,
//! cylinder, cone) is tessellated, chosen per instance on the CPU from its
//! radius on screen.
//!
//! A tessellated circle of radius `r` pixels whose vertices are `theta`
//! apart (seen from its centre) strays from the true outline by at most
//! `r (1 - cos(theta / 2))` pixels, midway between two vertices. Each
//! level has a fixed tessellation ([`LEVEL_SEGMENTS`] around the equator),
//! so each has a largest on-screen radius at which that error stays within
//! [`MAX_OUTLINE_ERROR_PX`]; an instance gets the coarsest level that holds
//! its radius, and the finest beyond. Smooth normals hide the facets inside
//! the outline, so the outline is what shows. The instance buffer groups
//! instances by level as it groups them by mesh kind: one draw per kind and
//! level present.
//!
//! On a software rasteriser the vertex and triangle-setup work is per
//! triangle whatever the size on screen, so small, far bodies drawn at the
//! coarse levels cost a fraction of a near one (sandbox/README.md measures
//! it).

use nalgebra::{Point3, Vector3};

use super::{Camera, Projection};

/// Levels of detail of the round meshes, coarsest first.
pub(crate) const LEVELS: usize = 5;

/// Vertices around the equator of each level: the cylinder's and cone's
/// segments, and four times the octahedral sphere's frequency
/// (round_meshes.rs), so multiples of 4. 8 segments are 45 degrees apart,
/// 36 are 10. Neighbouring levels differ by at most 1.5x in segments, so an
/// instance is never drawn with much more detail than it needs: the
/// bodies of the built-in scenes' default views, 10 to 40 pixels in
/// radius, fall in the middle three.
pub(crate) const LEVEL_SEGMENTS: [u32; LEVELS] = [8, 12, 16, 24, 36];

/// The most, in pixels, a drawn outline may stray from the true one at an
/// edge's midpoint. Each level's limit uses its mesh's widest edge (for the
/// octahedral spheres one inside a face, up to 1.45 times the equator's
/// arc: round_meshes.rs). A silhouette that crosses a face instead strays
/// up to 4/3 of this (a face's sagitta against its edges'), so drawn
/// outlines stay within a pixel of the true ones, which single-sampled
/// rasterisation (the default on a CPU adapter) cannot show finer anyway.
pub(crate) const MAX_OUTLINE_ERROR_PX: f32 = 0.75;

/// The largest on-screen radius, in pixels, at which a mesh whose
/// neighbouring vertices are at most `edge_angle` apart keeps its outline
/// within [`MAX_OUTLINE_ERROR_PX`].
pub(crate) fn max_radius_px(edge_angle: f32) -> f32 {
    MAX_OUTLINE_ERROR_PX / (1.0 - (0.5 * edge_angle).cos()).max(f32::EPSILON)
}

/// Picks a level per instance for one frame's camera and target height.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LevelPicker {
    eye: Point3<f32>,
    /// The unit view direction.
    forward: Vector3<f32>,
    /// Pixels per metre: at unit depth in front of a perspective camera, or
    /// anywhere for an orthographic one.
    pixels_per_metre: f32,
    perspective: bool,
    /// Per level, the largest radius in pixels it draws within tolerance.
    max_radius_px: [f32; LEVELS],
}

impl LevelPicker {
    /// The picker for `camera` drawing into a target `height` pixels tall,
    /// with `max_radius_px` per level (from [`max_radius_px`]).
    pub(crate) fn new(camera: &Camera, height: u32, max_radius_px: [f32; LEVELS]) -> Self {
        let forward = (camera.target - camera.eye).try_normalize(0.0).unwrap_or_else(Vector3::z);
        let half_height_px = 0.5 * height as f32;
        let (pixels_per_metre, perspective) = match camera.projection {
            Projection::Perspective { fov_y, .. } => (half_height_px / (0.5 * fov_y).tan(), true),
            Projection::Orthographic { half_height, .. } => (half_height_px / half_height, false),
        };
        Self { eye: camera.eye, forward, pixels_per_metre, perspective, max_radius_px }
    }

    /// The radius in pixels of a circle of `radius` metres centred at
    /// `center`, or infinity when the camera is within `radius` of the
    /// centre along the view direction (it may fill the view).
    pub(crate) fn radius_px(&self, center: &Vector3<f32>, radius: f32) -> f32 {
        if !self.perspective {
            return radius * self.pixels_per_metre;
        }
        let depth = (center - self.eye.coords).dot(&self.forward);
        if depth > radius { radius * self.pixels_per_metre / depth } else { f32::INFINITY }
    }

    /// The coarsest level that draws a round body of `radius` at `center`
    /// within tolerance; the finest when none does or the size is not a
    /// number.
    pub(crate) fn level(&self, center: &Vector3<f32>, radius: f32) -> usize {
        let r = self.radius_px(center, radius);
        self.max_radius_px.iter().position(|&max| r <= max).unwrap_or(LEVELS - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker() -> LevelPicker {
        let camera = Camera::looking_at(Point3::new(0.0, 0.0, 10.0), Point3::origin());
        let levels = LEVEL_SEGMENTS.map(|s| max_radius_px(std::f32::consts::TAU / s as f32));
        LevelPicker::new(&camera, 720, levels)
    }

    /// The radius on screen against the projection of the sphere's top
    /// point by the camera itself (a sphere centred on the view axis).
    #[test]
    fn radius_on_screen_matches_the_projection() {
        let p = picker();
        let camera = Camera::looking_at(Point3::new(0.0, 0.0, 10.0), Point3::origin());
        for (depth, radius) in [(10.0f32, 0.5f32), (5.0, 0.1), (30.0, 2.0)] {
            let center = Point3::new(0.0, 0.0, 10.0 - depth);
            let top = camera
                .project_to_pixel(&(center + Vector3::y() * radius), 1280, 720)
                .expect("in view");
            let expected = 360.0 - top.y;
            let got = p.radius_px(&center.coords, radius);
            assert!((got - expected).abs() < 1e-3 * expected, "{got} vs {expected}");
        }
    }

    #[test]
    fn levels_grow_with_the_size_on_screen_and_stay_within_the_tolerance() {
        let p = picker();
        let mut last = 0;
        for k in 1..400 {
            let radius = 0.01 * k as f32;
            let center = Vector3::zeros();
            let level = p.level(&center, radius);
            assert!(level >= last, "radius {radius}: level {level} after {last}");
            last = level;
            let r_px = p.radius_px(&center, radius);
            let theta = std::f32::consts::TAU / LEVEL_SEGMENTS[level] as f32;
            let error = r_px * (1.0 - (0.5 * theta).cos());
            assert!(level == LEVELS - 1 || error <= MAX_OUTLINE_ERROR_PX, "{radius}: {error}");
            if level > 0 {
                // The coarser level would have strayed too far.
                let coarser = std::f32::consts::TAU / LEVEL_SEGMENTS[level - 1] as f32;
                assert!(r_px * (1.0 - (0.5 * coarser).cos()) > MAX_OUTLINE_ERROR_PX);
            }
        }
        assert_eq!(last, LEVELS - 1, "a 4 m sphere 10 m away needs the finest level");
        // Inside the body, or a size that is not a number: the finest.
        assert_eq!(p.level(&Vector3::new(0.0, 0.0, 9.5), 1.0), LEVELS - 1);
        assert_eq!(p.level(&Vector3::zeros(), f32::NAN), LEVELS - 1);
        assert_eq!(p.level(&Vector3::zeros(), 1e-4), 0);
    }
}
