//! A cached layer: a texture painted only now and then (the app paints its
//! egui HUD into one) and drawn over every frame's target inside a
//! rectangle.
//!
//! The layer holds premultiplied-alpha colour in the target's format, as
//! egui's renderer leaves it when it paints over a transparent clear.
//! [`CachedLayer::draw`] is one full-screen triangle, scissored to the given
//! rectangle, whose fragment shader loads the texel under the pixel (the
//! layer has the target's size, so there is no filtering) and blends it
//! "over" the target: `src + (1 - src.a) * dst`. Premultiplied "over" is
//! associative, so painting egui into a transparent layer and then drawing
//! the layer over the scene gives the picture that painting egui onto the
//! scene gives, up to the layer's 8-bit rounding.
//!
//! Why: on a software rasteriser egui's fragment shader costs about 10 ms of
//! CPU per frame for the HUD panel at 1280x720, while loading and blending a
//! texel costs a small fraction of that; the app repaints the layer a few
//! times a second and on input (see app/hud_refresh.rs).

/// A premultiplied-alpha layer with the target's size and format, drawn
/// over the target by [`draw`](Self::draw).
#[derive(Debug)]
pub struct CachedLayer {
    format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    /// `None` while zero-sized (a minimised window).
    texture: Option<LayerTexture>,
    width: u32,
    height: u32,
}

#[derive(Debug)]
struct LayerTexture {
    view: wgpu::TextureView,
    bind_group: wgpu::BindGroup,
}

impl CachedLayer {
    /// A zero-sized layer for targets of `format`; call
    /// [`resize`](Self::resize) before painting it.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("render.layer_layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("render.layer_shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shaders/layer.wgsl").into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render.layer_pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let over = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("render.layer_pipeline"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState { color: over, alpha: over }),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        Self { format, layout, pipeline, texture: None, width: 0, height: 0 }
    }

    /// Resizes the layer to the target's size; its contents are then
    /// undefined until painted again. Returns whether the size changed.
    pub fn resize(&mut self, device: &wgpu::Device, width: u32, height: u32) -> bool {
        if (width, height) == (self.width, self.height) {
            return false;
        }
        (self.width, self.height) = (width, height);
        self.texture = (width > 0 && height > 0).then(|| {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("render.layer"),
                size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: self.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            });
            let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("render.layer_bind_group"),
                layout: &self.layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                }],
            });
            LayerTexture { view, bind_group }
        });
        true
    }

    /// The layer's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The view to paint the layer through (clear it to transparent first),
    /// or `None` while the layer is zero-sized.
    pub fn view(&self) -> Option<&wgpu::TextureView> {
        self.texture.as_ref().map(|t| &t.view)
    }

    /// Draws the layer over `target` (which must have the layer's size and
    /// format) inside `rect` = `[x, y, width, height]` in pixels, clamped to
    /// the layer. Nothing is recorded for an empty rectangle or a
    /// zero-sized layer.
    pub fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        rect: [u32; 4],
    ) {
        let Some(texture) = &self.texture else { return };
        let x = rect[0].min(self.width);
        let y = rect[1].min(self.height);
        let w = rect[2].min(self.width - x);
        let h = rect[3].min(self.height - y);
        if w == 0 || h == 0 {
            return;
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("render.layer_pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            ..wgpu::RenderPassDescriptor::default()
        });
        pass.set_scissor_rect(x, y, w, h);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &texture.bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
