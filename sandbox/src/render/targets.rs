//! The textures the renderer owns: the multisampled colour and depth
//! attachments sized to the output, and the sun's shadow map.

use super::pipelines::DEPTH_FORMAT;

/// Side of the square shadow map in texels.
pub(crate) const SHADOW_MAP_SIZE: u32 = 1024;

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
    pub view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
}

impl ShadowMap {
    pub fn new(device: &wgpu::Device) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("render.shadow_map"),
            size: wgpu::Extent3d {
                width: SHADOW_MAP_SIZE,
                height: SHADOW_MAP_SIZE,
                depth_or_array_layers: 1,
            },
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
        Self { view, sampler }
    }
}
