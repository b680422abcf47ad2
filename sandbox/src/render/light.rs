//! The directional light and how its shadow map is fitted to the scene.

use nalgebra::{Point3, Vector3};

use super::Color;

/// How the shadow map's orthographic light projection covers the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShadowFit {
    /// Fit a sphere bounding every mesh instance (at least `min_radius`).
    SceneBounds {
        /// The smallest radius used, so a lone small body still gets a
        /// sensibly sized shadow frustum.
        min_radius: f32,
    },
    /// Cover a fixed sphere, e.g. a radius around the camera target.
    Sphere {
        /// The sphere centre in the world.
        center: Point3<f32>,
        /// The sphere radius.
        radius: f32,
    },
}

/// A directional light (the sun) with a shadow map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DirectionalLight {
    /// The direction the light travels, from the sun into the scene.
    pub direction: Vector3<f32>,
    /// The light colour.
    pub color: Color,
    /// Light intensity multiplier.
    pub intensity: f32,
    /// Ambient light from the sky hemisphere, as a fraction of `color`.
    pub ambient: f32,
    /// Whether to render and sample a shadow map.
    pub shadows: bool,
    /// How the shadow map is fitted.
    pub shadow_fit: ShadowFit,
}

impl Default for DirectionalLight {
    fn default() -> Self {
        Self {
            direction: Vector3::new(-0.4, -1.0, -0.65),
            color: Color::rgb(1.0, 0.97, 0.92),
            intensity: 1.0,
            ambient: 0.35,
            shadows: true,
            shadow_fit: ShadowFit::SceneBounds { min_radius: 4.0 },
        }
    }
}
