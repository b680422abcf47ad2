//! The textures the renderer owns: the multisampled colour and depth
//! attachments sized to the output, and the sun's shadow map, sized to the
//! detail the camera can show ([`shadow_map_size`]).

use nalgebra::Point3;

use super::camera::{Camera, Projection};
use super::pipelines::DEPTH_FORMAT;

/// The fewest texels along a side of the shadow map.
pub(crate) const MIN_SHADOW_MAP_SIZE: u32 = 512;
/// The most texels along a side of the shadow map.
pub(crate) const MAX_SHADOW_MAP_SIZE: u32 = 1024;
/// Shadow-map sides are multiples of this, so that small camera moves keep
/// the map (and the shadow pass it may let the renderer skip).
pub(crate) const SHADOW_MAP_STEP: u32 = 128;
/// Shadow-map texels per screen pixel, measured across the shadow sphere
/// at its centre's distance. Finer than 1 is invisible through the
/// comparison sampler's bilinear filter; coarser shows as stair steps on
/// shadow edges.
pub(crate) const SHADOW_TEXELS_PER_PIXEL: f32 = 1.0;

/// The side of the shadow map, in texels, for a shadow sphere (`center`,
/// `radius`) seen by `camera` in an image `height` pixels high: about
/// [`SHADOW_TEXELS_PER_PIXEL`] map texels per screen pixel where the
/// sphere's centre is, rounded up to a multiple of [`SHADOW_MAP_STEP`] and
/// clamped to [`MIN_SHADOW_MAP_SIZE`]..=[`MAX_SHADOW_MAP_SIZE`].
///
/// Why: the map's cost on a software rasteriser is the texels its casters
/// cover, a whole pyramid of boxes layered along the light's rays, so
/// texels the screen cannot show are pure cost (pyramid 100 in its default
/// view spans about 660 pixels: 768 texels, against the 1024 that the
/// renderer always drew before). Closer views get up to
/// [`MAX_SHADOW_MAP_SIZE`], the old fixed size; finer would need a map
/// fitted to the view, not to the scene. A camera inside the sphere, or a
/// non-finite input, gets the largest map.
pub(crate) fn shadow_map_size(
    center: &Point3<f32>,
    radius: f32,
    camera: &Camera,
    height: u32,
) -> u32 {
    let visible_height = match camera.projection {
        Projection::Perspective { fov_y, .. } => {
            let distance = (center - camera.eye).norm();
            if distance <= radius {
                return MAX_SHADOW_MAP_SIZE;
            }
            2.0 * distance * (fov_y / 2.0).tan()
        }
        Projection::Orthographic { half_height, .. } => 2.0 * half_height,
    };
    let texels = 2.0 * radius * height as f32 / visible_height * SHADOW_TEXELS_PER_PIXEL;
    if !texels.is_finite() || texels >= MAX_SHADOW_MAP_SIZE as f32 {
        return MAX_SHADOW_MAP_SIZE;
    }
    let steps = (texels.max(0.0) / SHADOW_MAP_STEP as f32).ceil() as u32;
    (steps * SHADOW_MAP_STEP).clamp(MIN_SHADOW_MAP_SIZE, MAX_SHADOW_MAP_SIZE)
}

/// The main pass's MSAA colour (resolved into the caller's view) and depth.
#[derive(Debug)]
pub(crate) struct FrameTargets {
    /// `None` when rendering single-sampled straight into the caller's view.
    pub color: Option<wgpu::TextureView>,
    pub depth: wgpu::TextureView,
}

impl FrameTargets {
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        samples: u32,
        width: u32,
        height: u32,
    ) -> Self {
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let texture = |label: &str, format: wgpu::TextureFormat| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size,
                    mip_level_count: 1,
                    sample_count: samples,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor {
                    label: Some(label),
                    ..wgpu::TextureViewDescriptor::default()
                })
        };
        Self {
            color: (samples > 1).then(|| texture("render.msaa_color", format)),
            depth: texture("render.depth", DEPTH_FORMAT),
        }
    }
}

/// The sun's depth map and the comparison sampler that reads it.
#[derive(Debug)]
pub(crate) struct ShadowMap {
    /// Texels along each side.
    pub size: u32,
    pub view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
}

impl ShadowMap {
    pub fn new(device: &wgpu::Device, size: u32) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("render.shadow_map"),
            size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("render.shadow_map_view"),
            ..wgpu::TextureViewDescriptor::default()
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("render.shadow_sampler"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            address_mode_w: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..wgpu::SamplerDescriptor::default()
        });
        Self { size, view, sampler }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera `distance` from the origin along +z, looking at it.
    fn camera_at(distance: f32) -> Camera {
        Camera::looking_at(Point3::new(0.0, 0.0, distance), Point3::origin())
    }

    fn fov_y(camera: &Camera) -> f32 {
        match camera.projection {
            Projection::Perspective { fov_y, .. } => fov_y,
            Projection::Orthographic { .. } => unreachable!("a perspective camera"),
        }
    }

    /// The sphere spans `2 r h / (2 d tan(fov/2))` pixels: one texel per
    /// pixel, rounded up to the step, within the limits.
    #[test]
    fn the_map_has_about_one_texel_per_pixel_across_the_sphere() {
        let camera = camera_at(100.0);
        let pixels_per_unit = 720.0 / (2.0 * 100.0 * (fov_y(&camera) / 2.0).tan());
        // A sphere spanning 650 pixels (the default framing of every scene)
        // gets 768 texels; 700 pixels too; 770 pixels needs 896.
        for (span, size) in [(650.0, 768), (700.0, 768), (770.0, 896), (900.0, 1024)] {
            let radius = span / pixels_per_unit / 2.0;
            assert_eq!(shadow_map_size(&Point3::origin(), radius, &camera, 720), size, "{span}");
        }
        // Twice the image height needs twice the texels.
        let radius = 300.0 / pixels_per_unit / 2.0;
        assert_eq!(shadow_map_size(&Point3::origin(), radius, &camera, 720), 512);
        assert_eq!(shadow_map_size(&Point3::origin(), radius, &camera, 1440), 640);
    }

    #[test]
    fn far_views_get_the_smallest_map_and_near_ones_the_largest() {
        let sphere = (Point3::new(1.0, 2.0, 3.0), 10.0);
        let size = |distance: f32| {
            let mut camera = camera_at(distance);
            camera.eye += sphere.0.coords;
            camera.target = sphere.0;
            shadow_map_size(&sphere.0, sphere.1, &camera, 720)
        };
        assert_eq!(size(1e4), MIN_SHADOW_MAP_SIZE);
        assert_eq!(size(15.0), MAX_SHADOW_MAP_SIZE);
        // Inside the sphere, and at its centre (distance 0).
        assert_eq!(size(5.0), MAX_SHADOW_MAP_SIZE);
        assert_eq!(size(0.0), MAX_SHADOW_MAP_SIZE);
        let mut last = MAX_SHADOW_MAP_SIZE;
        for distance in [20.0, 40.0, 80.0, 160.0, 320.0] {
            let s = size(distance);
            assert!(s <= last && s % SHADOW_MAP_STEP == 0, "{distance}: {s} after {last}");
            last = s;
        }
    }

    #[test]
    fn orthographic_views_and_bad_input_get_a_valid_size() {
        let mut camera = camera_at(10.0);
        camera.projection =
            Projection::Orthographic { half_height: 20.0, near: -100.0, far: 100.0 };
        // 40 units over 720 pixels: a sphere of radius 10 spans 360 pixels.
        assert_eq!(shadow_map_size(&Point3::origin(), 10.0, &camera, 720), 512);
        assert_eq!(shadow_map_size(&Point3::origin(), 25.0, &camera, 720), 1024);
        camera.projection = Projection::Orthographic { half_height: 0.0, near: -1.0, far: 1.0 };
        assert_eq!(shadow_map_size(&Point3::origin(), 10.0, &camera, 720), MAX_SHADOW_MAP_SIZE);
        let camera = camera_at(f32::NAN);
        assert_eq!(shadow_map_size(&Point3::origin(), 10.0, &camera, 720), MAX_SHADOW_MAP_SIZE);
        assert_eq!(
            shadow_map_size(&Point3::origin(), 10.0, &camera_at(50.0), 0),
            MIN_SHADOW_MAP_SIZE
        );
    }
}
