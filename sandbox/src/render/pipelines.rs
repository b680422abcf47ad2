//! The bind group layouts and render pipelines, created once per renderer.
//!
//! Main-pass pipelines share one layout (globals, shadow map, comparison
//! sampler) and the MSAA sample count; the shadow pipeline has its own
//! layout with only the globals and the instances, because the shadow map is
//! its attachment. Both layouts bind the instance storage buffer at
//! [`INSTANCES_BINDING`] for the meshes' vertex pulling (instance_blocks.rs).

use std::borrow::Cow;

use super::gpu_types::{GpuInstance, LineVertex, MeshVertex, PointInstance, TranslucentVertex};
use super::ground_tiles::GroundVariant;

/// Depth format of the main pass and of the shadow map.
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

const COMMON_WGSL: &str = include_str!("shaders/common.wgsl");

/// Every pipeline and layout the renderer uses.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub scene_layout: wgpu::BindGroupLayout,
    pub shadow_layout: wgpu::BindGroupLayout,
    pub sky: wgpu::RenderPipeline,
    /// The ground, one pipeline per `GroundVariant::ALL` entry.
    pub ground: [wgpu::RenderPipeline; 4],
    pub mesh: wgpu::RenderPipeline,
    /// The mesh pipeline for the cube's corner patch (`vs_cube`, `fs_cube`).
    pub mesh_cube: wgpu::RenderPipeline,
    pub shadow: wgpu::RenderPipeline,
    /// The shadow pipeline for the cube's corner patch (`vs_shadow_cube`).
    pub shadow_cube: wgpu::RenderPipeline,
    pub lines: wgpu::RenderPipeline,
    pub points: wgpu::RenderPipeline,
    pub translucent: wgpu::RenderPipeline,
}

fn shader(device: &wgpu::Device, label: &str, body: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(Cow::Owned(format!("{COMMON_WGSL}\n{body}"))),
    })
}

const MESH_VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 4] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32, 2 => Float32x3, 3 => Uint32];
const GROUND_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Float32x2];
const LINE_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
const POINT_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4];
const TRANSLUCENT_ATTRIBUTES: [wgpu::VertexAttribute; 3] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x4];

/// The block mesh's vertices; the bodies come from the instance storage
/// buffer (see instance_blocks.rs).
fn mesh_buffers() -> [Option<wgpu::VertexBufferLayout<'static>>; 1] {
    [Some(wgpu::VertexBufferLayout {
        array_stride: size_of::<MeshVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &MESH_VERTEX_ATTRIBUTES,
    })]
}

/// The binding of the instance storage buffer in both the scene and the
/// shadow bind group (`instances` in mesh.wgsl).
pub(crate) const INSTANCES_BINDING: u32 = 3;

/// The read-only instance storage buffer, read by vertex shaders.
fn instances_entry() -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding: INSTANCES_BINDING,
        visibility: wgpu::ShaderStages::VERTEX,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(size_of::<GpuInstance>() as u64),
        },
        count: None,
    }
}

fn depth_state(write: bool, compare: wgpu::CompareFunction) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: wgpu::StencilState::default(),
        bias: wgpu::DepthBiasState::default(),
    }
}

/// What differs between the main-pass pipelines.
struct MainPipeline<'a> {
    label: &'a str,
    module: &'a wgpu::ShaderModule,
    vs: &'a str,
    fs: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    topology: wgpu::PrimitiveTopology,
    cull: Option<wgpu::Face>,
    depth: wgpu::DepthStencilState,
    blend: Option<wgpu::BlendState>,
    /// Pipeline-overridable constants of the fragment stage, besides
    /// `ENCODE_SRGB`.
    overrides: &'a [(&'a str, f64)],
}

impl Pipelines {
    pub fn new(device: &wgpu::Device, target_format: wgpu::TextureFormat, samples: u32) -> Self {
        let scene_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("render.scene_bind_group_layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
                instances_entry(),
            ],
        });
        let shadow_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("render.shadow_bind_group_layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                instances_entry(),
            ],
        });
        let main_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render.main_pipeline_layout"),
            bind_group_layouts: &[Some(&scene_layout)],
            immediate_size: 0,
        });
        let shadow_pipeline_layout =
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("render.shadow_pipeline_layout"),
                bind_group_layouts: &[Some(&shadow_layout)],
                immediate_size: 0,
            });

        let sky_module = shader(device, "render.sky_shader", include_str!("shaders/sky.wgsl"));
        let ground_module =
            shader(device, "render.ground_shader", include_str!("shaders/ground.wgsl"));
        let mesh_module = shader(device, "render.mesh_shader", include_str!("shaders/mesh.wgsl"));
        let overlay_module =
            shader(device, "render.overlay_shader", include_str!("shaders/overlay.wgsl"));

        // Constant-folded out of the shaders; see `ENCODE_SRGB` in common.wgsl.
        let encode_srgb = [("ENCODE_SRGB", if target_format.is_srgb() { 0.0 } else { 1.0 })];
        let main = |p: MainPipeline<'_>| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(p.label),
                layout: Some(&main_layout),
                vertex: wgpu::VertexState {
                    module: p.module,
                    entry_point: Some(p.vs),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &encode_srgb,
                        ..wgpu::PipelineCompilationOptions::default()
                    },
                    buffers: p.buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: p.topology,
                    cull_mode: p.cull,
                    ..wgpu::PrimitiveState::default()
                },
                depth_stencil: Some(p.depth),
                multisample: wgpu::MultisampleState {
                    count: samples,
                    ..wgpu::MultisampleState::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: p.module,
                    entry_point: Some(p.fs),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &[&encode_srgb[..], p.overrides].concat(),
                        ..wgpu::PipelineCompilationOptions::default()
                    },
                    targets: &[Some(wgpu::ColorTargetState {
                        format: target_format,
                        blend: p.blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        use wgpu::CompareFunction::{Less, LessEqual};
        use wgpu::PrimitiveTopology::{LineList, TriangleList};
        let sky = main(MainPipeline {
            label: "render.sky_pipeline",
            module: &sky_module,
            vs: "vs_main",
            fs: "fs_main",
            buffers: &[],
            topology: TriangleList,
            cull: None,
            // Drawn last among the opaques at depth 1: only where the
            // cleared depth is untouched.
            depth: depth_state(false, LessEqual),
            blend: None,
            overrides: &[],
        });
        let ground = GroundVariant::ALL.map(|variant| {
            let flag = |on: bool| if on { 1.0 } else { 0.0 };
            let plain = !variant.grid() && !variant.shadow();
            main(MainPipeline {
                label: "render.ground_pipeline",
                module: &ground_module,
                vs: "vs_main",
                // The plain tiles only pass the interpolated colour on.
                fs: if plain { "fs_plain" } else { "fs_main" },
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: size_of::<[f32; 2]>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &GROUND_ATTRIBUTES,
                })],
                overrides: &[("GRID", flag(variant.grid())), ("SHADOW", flag(variant.shadow()))],
                topology: TriangleList,
                cull: None,
                depth: depth_state(true, Less),
                blend: None,
            })
        });
        let mesh = main(MainPipeline {
            label: "render.mesh_pipeline",
            module: &mesh_module,
            vs: "vs_main",
            fs: "fs_main",
            buffers: &mesh_buffers(),
            topology: TriangleList,
            cull: Some(wgpu::Face::Back),
            depth: depth_state(true, Less),
            blend: None,
            overrides: &[],
        });
        let mesh_cube = main(MainPipeline {
            label: "render.mesh_cube_pipeline",
            vs: "vs_cube",
            module: &mesh_module,
            fs: "fs_cube",
            buffers: &mesh_buffers(),
            topology: TriangleList,
            cull: Some(wgpu::Face::Back),
            depth: depth_state(true, Less),
            blend: None,
            overrides: &[],
        });
        let lines = main(MainPipeline {
            label: "render.line_pipeline",
            module: &overlay_module,
            vs: "vs_line",
            fs: "fs_flat",
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<LineVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &LINE_ATTRIBUTES,
            })],
            topology: LineList,
            cull: None,
            depth: depth_state(false, LessEqual),
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            overrides: &[],
        });
        let points = main(MainPipeline {
            label: "render.point_pipeline",
            module: &overlay_module,
            vs: "vs_point",
            fs: "fs_flat",
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<PointInstance>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &POINT_ATTRIBUTES,
            })],
            topology: TriangleList,
            cull: None,
            depth: depth_state(false, LessEqual),
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            overrides: &[],
        });
        let translucent = main(MainPipeline {
            label: "render.translucent_pipeline",
            module: &overlay_module,
            vs: "vs_translucent",
            fs: "fs_translucent",
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<TranslucentVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &TRANSLUCENT_ATTRIBUTES,
            })],
            topology: TriangleList,
            cull: None,
            depth: depth_state(false, Less),
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            overrides: &[],
        });
        let shadow_pipeline = |label: &str, vs: &str| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&shadow_pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &mesh_module,
                    entry_point: Some(vs),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    buffers: &mesh_buffers(),
                },
                primitive: wgpu::PrimitiveState {
                    topology: TriangleList,
                    // Front faces are culled is tempting (less acne) but thin
                    // bodies would then lose their shadows; back faces are
                    // culled and the slope bias plus normal offset handle acne.
                    cull_mode: Some(wgpu::Face::Back),
                    ..wgpu::PrimitiveState::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    bias: wgpu::DepthBiasState { constant: 2, slope_scale: 2.0, clamp: 0.0 },
                    ..depth_state(true, LessEqual)
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: None,
                multiview_mask: None,
                cache: None,
            })
        };
        let shadow = shadow_pipeline("render.shadow_pipeline", "vs_shadow");
        let shadow_cube = shadow_pipeline("render.shadow_cube_pipeline", "vs_shadow_cube");
        Self {
            scene_layout,
            shadow_layout,
            sky,
            ground,
            mesh,
            mesh_cube,
            shadow,
            shadow_cube,
            lines,
            points,
            translucent,
        }
    }
}
