//! `Renderer`: turns a [`FrameScene`] into GPU passes recorded into the
//! caller's command encoder and resolved into the caller's texture view.
//!
//! Per frame: pick each round instance's level of detail from its size on
//! screen (level_of_detail.rs), group the instances by mesh kind and level
//! (a counting sort into one instance buffer, so each is one contiguous
//! range and one draw, each instance of which is a block of bodies:
//! instance_blocks.rs), within each the ones in view (view_culling.rs)
//! first and nearest first, upload the globals and overlays, render the
//! shadow map from the sun unless the casters and light are unchanged since
//! it was drawn, then one main pass (multisampled on a GPU, single-sampled
//! by default on a CPU adapter): meshes, ground, sky, translucent
//! triangles, lines and points.
//!
//! Costs on a software rasteriser (lavapipe), where a frame is per-vertex
//! and per-triangle work on one thread and per-pixel work on the others,
//! shaped the renderer: lighting per vertex or per face, already in the
//! target's space so that pixels only mix and write colours (`to_target`
//! in common.wgsl), one shadow tap per pixel, the sky's ray per vertex, no
//! uniform branches around expensive code (both sides run), cubes drawn as
//! the three faces around their corner nearest the camera (seven
//! vertices) and into the shadow map as their outline from the light (six
//! vertices, four triangles: `unit_cube_silhouette` in mesh.rs), round
//! bodies as octahedral spheres at a tessellation fitted to their size on
//! screen (round_meshes.rs) and into the shadow map at the coarsest, bodies
//! out of view left out of the main pass, a shadow
//! map with about one texel per screen pixel (`shadow_map_size` in
//! targets.rs), bodies pulled in blocks rather than one instance each, the
//! ground cut into tiles that each evaluate only the per-pixel terms that
//! can show on them, refined around each caster's shadow
//! (ground_tiles.rs), and no colour clear where the sky covers the rest.
//! `render_timing` in tests.rs and `sandbox screenshot --bench-frames`
//! measure them. The surface and window belong to the app; after `render`
//! returns, the app may record more passes (a UI) into the same encoder
//! and view with `LoadOp::Load`.

use nalgebra::{Matrix4, Point3, Vector3};

use super::gpu_types::{
    Globals, GpuInstance, LineVertex, MeshVertex, PointInstance, TranslucentVertex,
};
use super::ground_tiles::{GroundTiles, ShadowCasters};
use super::growable_buffer::GrowableBuffer;
use super::instance_blocks::{block_mesh, block_size, padded_len, padding_instance};
use super::level_of_detail::{LEVEL_SEGMENTS, LEVELS, LevelPicker, max_radius_px};
use super::mesh::{MeshData, hull_mesh, smooth_mesh, unit_cube_corner, unit_cube_silhouette};
use super::pipelines::{INSTANCES_BINDING, Pipelines};
use super::round_meshes::{Round, max_edge_angle, octahedral_round, unit_cone, unit_cylinder};
use super::targets::{FrameTargets, MAX_SHADOW_MAP_SIZE, ShadowMap, shadow_map_size};
use super::view_culling::{ViewFrustum, ndc_rect};
use super::{
    Color, DrawShape, FrameScene, FrameStats, HullMeshId, MeshKind, Projection, RenderError,
    ShadowFit, orthographic_rh_zo,
};

/// The main pass's default multisample count on a GPU.
pub const MSAA_SAMPLES: u32 = 4;

/// The default on a CPU adapter (lavapipe, SwiftShader, WARP). A software
/// rasteriser tests depth and writes colour per sample and resolves on the
/// CPU: at 1280x720 on lavapipe 4x costs about 1.5-2x the whole frame of 1x.
/// [`Renderer::set_msaa_samples`] turns it back on.
pub const CPU_MSAA_SAMPLES: u32 = 1;

/// The default samples per pixel for a device: [`CPU_MSAA_SAMPLES`] on a
/// CPU adapter, [`MSAA_SAMPLES`] otherwise.
pub fn default_msaa_samples(device: &wgpu::Device) -> u32 {
    if device.adapter_info().device_type == wgpu::DeviceType::Cpu {
        CPU_MSAA_SAMPLES
    } else {
        MSAA_SAMPLES
    }
}

/// The smallest grid cell drawn, in metres: a smaller or non-positive
/// `Ground::cell_size` is raised to it.
const MIN_CELL_SIZE: f32 = 1e-3;

/// The round mesh kinds, each drawn at [`LEVELS`] levels of detail.
const ROUND_KINDS: [MeshKind; 4] =
    [MeshKind::Sphere, MeshKind::Capsule, MeshKind::Cylinder, MeshKind::Cone];

/// Mesh slots in the instance buffer: the cube, each round kind at each
/// level of detail (kind-major), then the registered hulls.
const FIRST_HULL_SLOT: usize = 1 + ROUND_KINDS.len() * LEVELS;

/// The slot of a round kind (its index in [`ROUND_KINDS`]) at a level.
fn round_slot(kind: usize, level: usize) -> usize {
    1 + kind * LEVELS + level
}

/// The unit mesh of round kind `kind` at `segments` around its equator.
fn round_mesh(kind: usize, segments: u32) -> MeshData {
    match ROUND_KINDS[kind] {
        MeshKind::Sphere => octahedral_round(segments / 4, Round::Sphere),
        MeshKind::Capsule => octahedral_round(segments / 4, Round::Capsule),
        MeshKind::Cylinder => unit_cylinder(segments),
        _ => unit_cone(segments),
    }
}

/// What one slot draws: its mesh in the main pass and in the shadow pass.
#[derive(Debug)]
struct SlotMeshes {
    main: GpuMesh,
    /// A cheaper mesh over the same blocks for the shadow map, or `None`
    /// for `main`.
    shadow: Option<GpuMesh>,
    /// The cube's corner patch, drawn by the cube pipelines.
    cube: bool,
}

/// A mesh uploaded once, as its block mesh (see instance_blocks.rs).
#[derive(Debug)]
struct GpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Indices of the whole block mesh: `block` copies of the mesh.
    index_count: u32,
    /// Bodies per block: per instance of the draw.
    block: u32,
    /// Radius of a sphere around the local origin bounding the unit mesh.
    radius: f32,
}

impl GpuMesh {
    fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        label: &str,
        data: &MeshData,
        radius: f32,
    ) -> Self {
        Self::with_block(device, queue, label, data, radius, block_size(data.vertices.len()))
    }

    /// A mesh drawn over the same instance blocks as another (the cube's
    /// shadow silhouette over the cube's range): `block` bodies a block.
    fn with_block(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        label: &str,
        data: &MeshData,
        radius: f32,
        block: u32,
    ) -> Self {
        let buffer = |suffix: &str, bytes: &[u8], usage: wgpu::BufferUsages| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("{label}.{suffix}")),
                size: bytes.len() as u64,
                usage: usage | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            queue.write_buffer(&buffer, 0, bytes);
            buffer
        };
        let data = &block_mesh(data, block);
        Self {
            vertices: buffer(
                "vertices",
                bytemuck::cast_slice(&data.vertices),
                wgpu::BufferUsages::VERTEX,
            ),
            indices: buffer(
                "indices",
                bytemuck::cast_slice(&data.indices),
                wgpu::BufferUsages::INDEX,
            ),
            index_count: data.indices.len() as u32,
            block,
            radius,
        }
    }
}

/// The wgpu renderer of a [`FrameScene`].
///
/// The app owns the surface. Per frame it acquires the surface texture
/// (reconfiguring on `Outdated`/`Lost`, skipping on `Timeout`/`Occluded`),
/// creates a view, calls [`render`](Self::render) with its encoder, records
/// its UI pass into the same view with `LoadOp::Load`, submits, and presents
/// with `queue.present(surface_texture)`. On a window resize it calls
/// [`resize`](Self::resize), which accepts a minimised window's 0 x 0.
#[derive(Debug)]
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    target_format: wgpu::TextureFormat,
    width: u32,
    height: u32,
    /// Samples per pixel of the main pass: 1 or 4.
    samples: u32,
    /// The part of the target the main pass draws, `[x, y, width, height]`
    /// in pixels (see [`set_scissor`](Self::set_scissor)); `None`: all.
    scissor: Option<[u32; 4]>,
    /// The device rasterises on the CPU (lavapipe and the like): there the
    /// main pass loads its colour target instead of clearing it (see
    /// `render`).
    cpu_adapter: bool,
    pipelines: Pipelines,
    globals: wgpu::Buffer,
    scene_bind_group: wgpu::BindGroup,
    shadow_bind_group: wgpu::BindGroup,
    shadow_map: ShadowMap,
    /// What the shadow map holds, or `None` when it is stale.
    shadow_contents: Option<ShadowContents>,
    /// `None` while the target is zero-sized (a minimised window).
    targets: Option<FrameTargets>,
    /// Per slot (`FIRST_HULL_SLOT`): the cube, whose shadow mesh is its
    /// outline from the light (`unit_cube_silhouette`); the round kinds at
    /// each level, whose shadow mesh is the coarsest level; the hulls.
    slots: Vec<SlotMeshes>,
    /// Per level of detail, the largest round body on screen (radius in
    /// pixels) it draws within tolerance (level_of_detail.rs).
    level_radius_px: [f32; LEVELS],
    instance_buffer: GrowableBuffer,
    /// This frame's ground tiles and their vertex buffer.
    ground_tiles: GroundTiles,
    ground_buffer: GrowableBuffer,
    /// Tests: draw every ground tile with this variant instead of its own.
    #[cfg(test)]
    pub(crate) ground_override: Option<super::ground_tiles::GroundVariant>,
    line_buffer: GrowableBuffer,
    point_buffer: GrowableBuffer,
    translucent_buffer: GrowableBuffer,
    /// Per-frame scratch, kept to avoid reallocating.
    scratch_instances: Vec<GpuInstance>,
    scratch_ranges: Vec<(u32, u32)>,
    /// Per instance of the frame, its slot.
    scratch_slots: Vec<u32>,
    /// Per slot, how many of its instances (the first ones) are in view.
    scratch_visible: Vec<u32>,
    /// Every instance's bounding sphere (centre, radius): the shadow casters
    /// whose shadows the ground tiles look up.
    scratch_casters: Vec<[f32; 4]>,
    scratch_lines: Vec<LineVertex>,
    scratch_points: Vec<PointInstance>,
    scratch_translucent: Vec<TranslucentVertex>,
}

impl Renderer {
    /// Creates a renderer drawing into views of `target_format` (sRGB or
    /// not; non-sRGB targets are encoded in the shader) of the given size.
    /// A zero size is allowed and renders nothing until [`resize`](Self::resize).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target_format: wgpu::TextureFormat,
        width: u32,
        height: u32,
    ) -> Self {
        let samples = default_msaa_samples(device);
        let pipelines = Pipelines::new(device, target_format, samples);
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render.globals"),
            size: size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let shadow_map = ShadowMap::new(device, MAX_SHADOW_MAP_SIZE);
        let instance_buffer =
            GrowableBuffer::new(device, "render.instances", wgpu::BufferUsages::STORAGE);
        let (scene_bind_group, shadow_bind_group) =
            bind_groups(device, &pipelines, &globals, &shadow_map, instance_buffer.buffer());
        let cube =
            GpuMesh::new(device, queue, "render.cube_mesh", &unit_cube_corner(), 3f32.sqrt());
        let cube_shadow = GpuMesh::with_block(
            device,
            queue,
            "render.cube_shadow_mesh",
            &unit_cube_silhouette(),
            3f32.sqrt(),
            cube.block,
        );
        let mut slots = vec![SlotMeshes { main: cube, shadow: Some(cube_shadow), cube: true }];
        for (kind, mesh_kind) in ROUND_KINDS.iter().enumerate() {
            let name = format!("{mesh_kind:?}").to_lowercase();
            for (level, &segments) in LEVEL_SEGMENTS.iter().enumerate() {
                // Every unit round mesh lies within the sphere of radius
                // sqrt(2) (the cylinder's rims).
                let radius = 2f32.sqrt();
                let label = format!("render.{name}_mesh_{segments}");
                let main = GpuMesh::new(device, queue, &label, &round_mesh(kind, segments), radius);
                let shadow = (level > 0).then(|| {
                    GpuMesh::with_block(
                        device,
                        queue,
                        &format!("render.{name}_shadow_mesh_{segments}"),
                        &round_mesh(kind, LEVEL_SEGMENTS[0]),
                        radius,
                        main.block,
                    )
                });
                debug_assert_eq!(slots.len(), round_slot(kind, level));
                slots.push(SlotMeshes { main, shadow, cube: false });
            }
        }
        // The octahedral sphere's widest edge sets each level's tolerance
        // (the cylinder's and cone's are the equator's, no wider).
        let level_radius_px = LEVEL_SEGMENTS.map(|segments| {
            let capsule = octahedral_round(segments / 4, Round::Capsule);
            max_radius_px(max_edge_angle(&capsule).max(std::f32::consts::TAU / segments as f32))
        });
        let mut renderer = Self {
            device: device.clone(),
            queue: queue.clone(),
            target_format,
            width: 0,
            height: 0,
            samples,
            scissor: None,
            cpu_adapter: device.adapter_info().device_type == wgpu::DeviceType::Cpu,
            pipelines,
            globals,
            scene_bind_group,
            shadow_bind_group,
            shadow_map,
            shadow_contents: None,
            targets: None,
            slots,
            level_radius_px,
            instance_buffer,
            ground_tiles: GroundTiles::default(),
            ground_buffer: GrowableBuffer::new(device, "render.ground", wgpu::BufferUsages::VERTEX),
            #[cfg(test)]
            ground_override: None,
            line_buffer: GrowableBuffer::new(device, "render.lines", wgpu::BufferUsages::VERTEX),
            point_buffer: GrowableBuffer::new(device, "render.points", wgpu::BufferUsages::VERTEX),
            translucent_buffer: GrowableBuffer::new(
                device,
                "render.translucent",
                wgpu::BufferUsages::VERTEX,
            ),
            scratch_instances: Vec::new(),
            scratch_ranges: Vec::new(),
            scratch_slots: Vec::new(),
            scratch_visible: Vec::new(),
            scratch_casters: Vec::new(),
            scratch_lines: Vec::new(),
            scratch_points: Vec::new(),
            scratch_translucent: Vec::new(),
        };
        renderer.resize(width, height);
        renderer
    }

    /// Limits the main pass to the rectangle `[x, y, width, height]` of
    /// the target, in pixels from its top left (clamped to the target), or
    /// lifts the limit with `None`. The rest of the target is left as it
    /// was, which on a CPU adapter means unspecified: for a caller that
    /// covers it anyway, such as the app's HUD panel, whose pixels would
    /// otherwise be shaded twice. The shadow map is not affected.
    pub fn set_scissor(&mut self, rect: Option<[u32; 4]>) {
        self.scissor = rect;
    }

    /// Resizes the attachments. A zero width or height (a minimised window)
    /// drops them, and [`render`](Self::render) then skips frames until the
    /// next non-zero resize. Sizes above the device's 2D texture limit are
    /// clamped (and `render` will then report a target mismatch).
    pub fn resize(&mut self, width: u32, height: u32) {
        let max = self.device.limits().max_texture_dimension_2d;
        let (width, height) = (width.min(max), height.min(max));
        if (width, height) == (self.width, self.height)
            && (self.targets.is_some() || width == 0 || height == 0)
        {
            return;
        }
        self.width = width;
        self.height = height;
        self.targets = (width > 0 && height > 0).then(|| {
            FrameTargets::new(&self.device, self.target_format, self.samples, width, height)
        });
    }

    /// Sets the main pass's samples per pixel: 4 (MSAA resolved into the
    /// target; the default on a GPU) or 1 (no anti-aliasing; the default on
    /// a CPU adapter such as lavapipe, where it costs about half as much).
    /// See [`default_msaa_samples`]. WebGPU guarantees only these two
    /// counts, so others are refused.
    pub fn set_msaa_samples(&mut self, samples: u32) -> Result<(), RenderError> {
        if samples != 1 && samples != 4 {
            return Err(RenderError::UnsupportedSampleCount(samples));
        }
        if samples != self.samples {
            self.samples = samples;
            self.pipelines = Pipelines::new(&self.device, self.target_format, samples);
            self.rebind();
            self.targets = (self.width > 0 && self.height > 0).then(|| {
                FrameTargets::new(
                    &self.device,
                    self.target_format,
                    samples,
                    self.width,
                    self.height,
                )
            });
        }
        Ok(())
    }

    /// Forgets what the shadow map holds, so the next frame redraws it.
    pub fn invalidate_shadow_map(&mut self) {
        self.shadow_contents = None;
    }

    /// The main pass's samples per pixel.
    pub fn msaa_samples(&self) -> u32 {
        self.samples
    }

    /// The current size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The format of the views this renderer draws into.
    pub fn target_format(&self) -> wgpu::TextureFormat {
        self.target_format
    }

    /// Uploads a hull mesh (positions and triangles in the hull's local
    /// frame) and returns its id. Register one mesh per distinct hull and
    /// draw it with [`DrawShape::Hull`]. Normals are flat; see the
    /// convexity note in the errors: a triangle facing the centroid is
    /// flipped, so the winding does not matter for convex hulls.
    pub fn register_hull(
        &mut self,
        positions: &[Point3<f32>],
        triangles: &[[u32; 3]],
    ) -> Result<HullMeshId, RenderError> {
        let (data, radius) = hull_mesh(positions, triangles)?;
        Ok(self.push_hull_slot(&data, radius))
    }

    /// Uploads a mesh with a normal per vertex (`(position, normal)` pairs
    /// in the mesh's local frame, shared by the triangles that name them,
    /// so shading is smooth across them) and returns its id, drawn with
    /// [`DrawShape::Hull`] like a hull's. Each triangle is turned to face
    /// the side its corners' normals point to, so the winding does not
    /// matter; give a two-sided surface two triangles with opposite
    /// normals. The app draws rounded shapes and users' own shapes this way
    /// (`app/support_mesh.rs`).
    ///
    /// # Errors
    /// [`RenderError::InvalidHull`] for no triangles, a non-finite value, an
    /// index out of range, or only zero-area triangles.
    pub fn register_mesh(
        &mut self,
        vertices: &[(Point3<f32>, Vector3<f32>)],
        triangles: &[[u32; 3]],
    ) -> Result<HullMeshId, RenderError> {
        let (data, radius) = smooth_mesh(vertices, triangles)?;
        Ok(self.push_hull_slot(&data, radius))
    }

    /// Uploads a registered mesh into a new hull slot.
    fn push_hull_slot(&mut self, data: &MeshData, radius: f32) -> HullMeshId {
        let id = HullMeshId((self.slots.len() - FIRST_HULL_SLOT) as u32);
        let main = GpuMesh::new(
            &self.device,
            &self.queue,
            &format!("render.hull_mesh_{}", id.0),
            data,
            radius,
        );
        self.slots.push(SlotMeshes { main, shadow: None, cube: false });
        id
    }

    /// Records one frame into `encoder`, resolving into `target`, which must
    /// have this renderer's size and format (up to the sRGB suffix).
    /// Returns what was drawn. Skips (and says so in the stats) while the
    /// size is zero.
    ///
    /// The shadow pass is recorded only when the casters or the light differ
    /// from the frame that last drew the shadow map, so the encoder is
    /// assumed to be submitted; after dropping one unsubmitted, call
    /// [`invalidate_shadow_map`](Self::invalidate_shadow_map).
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: &FrameScene,
    ) -> Result<FrameStats, RenderError> {
        let mut stats = FrameStats::default();
        if self.targets.is_none() {
            stats.skipped = true;
            return Ok(stats);
        }
        let texture = target.texture();
        let found = (texture.width(), texture.height(), texture.format());
        if (found.0, found.1) != (self.width, self.height)
            || found.2.remove_srgb_suffix() != self.target_format.remove_srgb_suffix()
        {
            return Err(RenderError::TargetMismatch {
                expected: (self.width, self.height, self.target_format),
                found,
            });
        }
        frame.camera.validate()?;

        // Counting sort of the instances by mesh slot (kind and level of
        // detail), so every slot is one contiguous range of the instance
        // buffer and one draw call. Each range starts on a multiple of its
        // mesh's block size, and what is not a body (before a range, and
        // after it to the end of its last block) is a zero-area padding
        // instance (see instance_blocks.rs).
        let slots = self.slots.len();
        self.scratch_ranges.clear();
        self.scratch_ranges.resize(slots, (0, 0));
        self.scratch_slots.clear();
        let picker = LevelPicker::new(&frame.camera, self.height, self.level_radius_px);
        for instance in &frame.instances {
            let slot = self.slot(&instance.shape, &instance.world_from_local, &picker)?;
            if let Some(level) = slot.checked_sub(1).filter(|&s| s < FIRST_HULL_SLOT - 1) {
                stats.lod_instances[level % LEVELS] += 1;
            }
            self.scratch_slots.push(slot as u32);
            self.scratch_ranges[slot].1 += 1;
        }
        let mut cursor = 0u32;
        for slot in 0..slots {
            let block = self.slots[slot].main.block;
            let range = &mut self.scratch_ranges[slot];
            let count = range.1;
            range.0 = cursor.next_multiple_of(block);
            range.1 = range.0;
            cursor = range.0 + padded_len(count, block);
        }
        // Now `range.1` is the write cursor; it ends at the range's end.
        self.scratch_instances.clear();
        self.scratch_instances.resize(cursor as usize, padding_instance());
        self.scratch_casters.clear();
        let mut bounds = SceneBounds::default();
        for (instance, &slot) in frame.instances.iter().zip(&self.scratch_slots) {
            let slot = slot as usize;
            let (scale, half_height) = instance.shape.scale_and_half_height();
            let hull_radius = match instance.shape {
                DrawShape::Hull { .. } => self.slots[slot].main.radius,
                _ => 0.0,
            };
            let t = instance.world_from_local.translation.vector;
            let radius = instance.shape.bounding_radius(hull_radius);
            bounds.add(&t, radius);
            self.scratch_casters.push([t.x, t.y, t.z, radius]);
            let mut color = instance.color.to_linear();
            if instance.sleeping {
                let k = frame.sleeping_brightness.clamp(0.0, 1.0);
                color = [color[0] * k, color[1] * k, color[2] * k, color[3]];
            }
            let q = instance.world_from_local.rotation.coords;
            let cursor = &mut self.scratch_ranges[slot].1;
            self.scratch_instances[*cursor as usize] = GpuInstance {
                rotation: [q.x, q.y, q.z, q.w],
                translation_half_height: [t.x, t.y, t.z, half_height],
                // The bounding radius rides along for the view culling.
                scale: [scale.x, scale.y, scale.z, radius],
                color,
            };
            *cursor += 1;
        }
        // The shadow map's size follows the detail the camera can show; a
        // new size is a new, empty map.
        let sphere = shadow_sphere(frame, &bounds);
        if frame.light.shadows {
            let (center, radius) = sphere;
            let size = shadow_map_size(&center, radius, &frame.camera, self.height);
            if size != self.shadow_map.size {
                self.shadow_map = ShadowMap::new(&self.device, size);
                self.shadow_contents = None;
                self.rebind();
            }
        }
        // The shadow map depends only on the casters (in mesh-kind order,
        // before the camera sort below) and the light's projection.
        let globals = self.globals(frame, sphere);
        let reuse_shadow_map = frame.light.shadows
            && self.shadow_contents.as_ref().is_some_and(|c| {
                c.light_clip_from_world == globals.light_clip_from_world
                    && c.ranges == self.scratch_ranges
                    && bytemuck::cast_slice::<_, u8>(&c.instances)
                        == bytemuck::cast_slice::<_, u8>(&self.scratch_instances)
            });
        if !frame.light.shadows {
            self.shadow_contents = None;
        } else if !reuse_shadow_map {
            let contents = self.shadow_contents.get_or_insert_with(ShadowContents::default);
            contents.light_clip_from_world = globals.light_clip_from_world;
            contents.ranges.clone_from(&self.scratch_ranges);
            contents.instances.clone_from(&self.scratch_instances);
        }

        // Within each slot, the instances the main pass may see first (it
        // draws only those; the shadow pass draws all), and those nearest
        // first along the view direction, so the depth test rejects hidden
        // fragments before they are shaded (a software rasteriser shades
        // what it does not reject early).
        let aspect = self.width as f32 / self.height as f32;
        let (ndc_x, ndc_y) = ndc_rect(
            self.scissor.unwrap_or([0, 0, self.width, self.height]),
            self.width,
            self.height,
        );
        let frustum = ViewFrustum::new(&frame.camera.clip_from_world(aspect), ndc_x, ndc_y);
        let centre = |i: &GpuInstance| {
            let t = i.translation_half_height;
            Vector3::new(t[0], t[1], t[2])
        };
        let forward = (frame.camera.target - frame.camera.eye).try_normalize(0.0);
        let eye = frame.camera.eye.coords;
        self.scratch_visible.clear();
        for &(start, end) in &self.scratch_ranges {
            let range = &mut self.scratch_instances[start as usize..end as usize];
            // Partition: swap each instance in view to the front.
            let mut visible = 0;
            for k in 0..range.len() {
                if frustum.may_see(&centre(&range[k]), range[k].scale[3]) {
                    range.swap(visible, k);
                    visible += 1;
                }
            }
            if let Some(forward) = forward {
                let depth = |i: &GpuInstance| (centre(i) - eye).dot(&forward);
                range[..visible].sort_unstable_by(|a, b| depth(a).total_cmp(&depth(b)));
            }
            self.scratch_visible.push(visible as u32);
            stats.culled += (range.len() - visible) as u32;
        }
        stats.instances = frame.instances.len() as u32;
        let instance_bytes: &[u8] = bytemuck::cast_slice(&self.scratch_instances);
        if self.instance_buffer.write(&self.device, &self.queue, instance_bytes) {
            self.rebind();
        }

        self.upload_overlays(frame, &mut stats);
        if let Some(ground) = &frame.ground {
            let casters = ShadowCasters {
                to_light: Vector3::new(
                    globals.to_light[0],
                    globals.to_light[1],
                    globals.to_light[2],
                ),
                spheres: &self.scratch_casters,
            };
            self.ground_tiles.rebuild(
                ground.half_extent,
                ground.cell_size.max(MIN_CELL_SIZE),
                &frame.camera.eye,
                frame.light.shadows.then_some(&casters),
            );
            #[cfg(test)]
            if let Some(variant) = self.ground_override {
                self.ground_tiles.draw_all_as(variant);
            }
            self.ground_buffer.write(
                &self.device,
                &self.queue,
                bytemuck::cast_slice(&self.ground_tiles.vertices),
            );
        }
        self.queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));

        // Shadow pass: cleared even when nothing casts, so that no stale
        // shadow from an earlier frame remains, and skipped when the map
        // already holds these casters seen from this light (bodies at rest).
        stats.shadow_map_reused = reuse_shadow_map;
        stats.shadow_map_size = if frame.light.shadows { self.shadow_map.size } else { 0 };
        if frame.light.shadows && !reuse_shadow_map {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("render.shadow_pass"),
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.shadow_map.view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, &self.shadow_bind_group, &[]);
            let draws = self.draw_meshes(&mut pass, Pass::Shadow);
            stats.shadow_draw_calls = draws;
            stats.draw_calls += draws;
        }

        let Some(targets) = &self.targets else {
            // Checked on entry; kept as a skip rather than a panic.
            stats.skipped = true;
            return Ok(stats);
        };
        let sky = frame.sky.horizon.to_linear();
        let (color_view, resolve_target) = match &targets.color {
            Some(msaa) => (msaa, Some(target)),
            None => (target, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("render.main_pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: color_view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    // The sky is drawn wherever nothing opaque is (at depth
                    // 1, against the cleared depth), so no pixel keeps what
                    // the pass loads. A software rasteriser then skips a
                    // full-screen clear (about 0.5 ms of CPU per thread at
                    // 1280x720 on lavapipe); a GPU clears for free, and
                    // loading could cost it a read.
                    load: if self.cpu_adapter && resolve_target.is_none() {
                        wgpu::LoadOp::Load
                    } else {
                        wgpu::LoadOp::Clear(wgpu::Color {
                            r: f64::from(sky[0]),
                            g: f64::from(sky[1]),
                            b: f64::from(sky[2]),
                            a: 1.0,
                        })
                    },
                    // The samples are not needed once resolved.
                    store: if resolve_target.is_some() {
                        wgpu::StoreOp::Discard
                    } else {
                        wgpu::StoreOp::Store
                    },
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &targets.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if let Some([x, y, w, h]) = self.scissor {
            let (x, y) = (x.min(self.width), y.min(self.height));
            pass.set_scissor_rect(x, y, w.min(self.width - x), h.min(self.height - y));
        }
        // Opaque front to back, roughly: meshes, then the ground where they
        // left it visible, then the sky (at depth 1) only on untouched
        // pixels, so the software rasteriser shades few hidden fragments.
        pass.set_bind_group(0, &self.scene_bind_group, &[]);
        let draws = self.draw_meshes(&mut pass, Pass::Main);
        stats.mesh_draw_calls = draws;
        stats.draw_calls += draws;
        if frame.ground.is_some() {
            pass.set_vertex_buffer(0, self.ground_buffer.buffer().slice(..));
            for (pipeline, &(start, end)) in
                self.pipelines.ground.iter().zip(&self.ground_tiles.ranges)
            {
                if start < end {
                    pass.set_pipeline(pipeline);
                    pass.draw(start..end, 0..1);
                    stats.ground_draw_calls += 1;
                }
            }
        }
        stats.draw_calls += stats.ground_draw_calls;
        pass.set_pipeline(&self.pipelines.sky);
        pass.draw(0..3, 0..1);
        stats.draw_calls += 1;
        if stats.translucent_triangles > 0 {
            pass.set_pipeline(&self.pipelines.translucent);
            pass.set_vertex_buffer(0, self.translucent_buffer.buffer().slice(..));
            pass.draw(0..stats.translucent_triangles * 3, 0..1);
            stats.draw_calls += 1;
        }
        if stats.lines > 0 {
            pass.set_pipeline(&self.pipelines.lines);
            pass.set_vertex_buffer(0, self.line_buffer.buffer().slice(..));
            pass.draw(0..stats.lines * 2, 0..1);
            stats.draw_calls += 1;
        }
        if stats.points > 0 {
            pass.set_pipeline(&self.pipelines.points);
            pass.set_vertex_buffer(0, self.point_buffer.buffer().slice(..));
            pass.draw(0..6, 0..stats.points);
            stats.draw_calls += 1;
        }
        Ok(stats)
    }

    /// Per level of detail, the largest round body (radius in pixels) it
    /// draws within tolerance.
    #[cfg(test)]
    pub(crate) fn level_radius_px(&self) -> [f32; LEVELS] {
        self.level_radius_px
    }

    /// The instance buffer's capacity in bytes, to test that it is reused.
    #[cfg(test)]
    pub(crate) fn instance_buffer_capacity(&self) -> u64 {
        self.instance_buffer.capacity()
    }

    /// The mesh slot of a shape at a pose: its kind, and for a round kind
    /// the level of detail `picker` chooses; an error for a hull id never
    /// issued.
    fn slot(
        &self,
        shape: &DrawShape,
        world_from_local: &nalgebra::Isometry3<f32>,
        picker: &LevelPicker,
    ) -> Result<usize, RenderError> {
        let round = |kind: usize, radius: f32| {
            round_slot(kind, picker.level(&world_from_local.translation.vector, radius))
        };
        match *shape {
            DrawShape::Cuboid { .. } => Ok(0),
            DrawShape::Sphere { radius } => Ok(round(0, radius)),
            DrawShape::Capsule { radius, .. } => Ok(round(1, radius)),
            DrawShape::Cylinder { radius, .. } => Ok(round(2, radius)),
            DrawShape::Cone { radius, .. } => Ok(round(3, radius)),
            DrawShape::Hull { id, .. } if (id.0 as usize) < self.slots.len() - FIRST_HULL_SLOT => {
                Ok(FIRST_HULL_SLOT + id.0 as usize)
            }
            DrawShape::Hull { id, .. } => Err(RenderError::UnknownHull(id)),
        }
    }

    /// Recreates the bind groups, which name the instance buffer, after it
    /// was reallocated or the pipelines (and so the layouts) were rebuilt.
    fn rebind(&mut self) {
        (self.scene_bind_group, self.shadow_bind_group) = bind_groups(
            &self.device,
            &self.pipelines,
            &self.globals,
            &self.shadow_map,
            self.instance_buffer.buffer(),
        );
    }

    /// One instanced draw per non-empty mesh slot, with the pass's
    /// pipelines and meshes; returns the draw count. Each instance of a
    /// draw is a block of the slot's bodies: all of them in the shadow
    /// pass, the ones in view (the first ones) in the main pass.
    fn draw_meshes(&self, pass: &mut wgpu::RenderPass<'_>, which: Pass) -> u32 {
        let mut draws = 0;
        let ranges = self.scratch_ranges.iter().zip(&self.scratch_visible);
        for (meshes, (&(start, end), &visible)) in self.slots.iter().zip(ranges) {
            let (pipeline, mesh, count) = match (which, meshes.cube) {
                (Pass::Main, true) => (&self.pipelines.mesh_cube, &meshes.main, visible),
                (Pass::Main, false) => (&self.pipelines.mesh, &meshes.main, visible),
                (Pass::Shadow, cube) => (
                    if cube { &self.pipelines.shadow_cube } else { &self.pipelines.shadow },
                    meshes.shadow.as_ref().unwrap_or(&meshes.main),
                    end - start,
                ),
            };
            if count == 0 {
                continue;
            }
            pass.set_pipeline(pipeline);
            let blocks = start / mesh.block..(start + padded_len(count, mesh.block)) / mesh.block;
            pass.set_vertex_buffer(0, mesh.vertices.slice(..));
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..mesh.index_count, 0, blocks);
            draws += 1;
        }
        draws
    }

    /// Fills and uploads the line, point and translucent vertex buffers.
    fn upload_overlays(&mut self, frame: &FrameScene, stats: &mut FrameStats) {
        self.scratch_lines.clear();
        for line in &frame.lines {
            let color = line.color.to_linear();
            self.scratch_lines.push(LineVertex { position: line.start.into(), color });
            self.scratch_lines.push(LineVertex { position: line.end.into(), color });
        }
        self.scratch_points.clear();
        self.scratch_points.extend(frame.points.iter().map(|p| PointInstance {
            position_size: [p.position.x, p.position.y, p.position.z, p.size_px.max(0.0)],
            color: p.color.to_linear(),
        }));
        self.scratch_translucent.clear();
        for mesh in &frame.translucent {
            let color = mesh.color.to_linear();
            for &[i, j, k] in &mesh.triangles {
                // Triangles with an index out of range are skipped, not fatal:
                // a debug overlay should not take the frame down.
                let (Some(a), Some(b), Some(c)) = (
                    mesh.positions.get(i as usize),
                    mesh.positions.get(j as usize),
                    mesh.positions.get(k as usize),
                ) else {
                    continue;
                };
                let normal = (b - a).cross(&(c - a)).try_normalize(0.0).unwrap_or_else(Vector3::y);
                for p in [a, b, c] {
                    self.scratch_translucent.push(TranslucentVertex {
                        position: (*p).into(),
                        normal: normal.into(),
                        color,
                    });
                }
            }
        }
        stats.lines = frame.lines.len() as u32;
        stats.points = frame.points.len() as u32;
        stats.translucent_triangles = (self.scratch_translucent.len() / 3) as u32;
        self.line_buffer.write(
            &self.device,
            &self.queue,
            bytemuck::cast_slice(&self.scratch_lines),
        );
        self.point_buffer.write(
            &self.device,
            &self.queue,
            bytemuck::cast_slice(&self.scratch_points),
        );
        self.translucent_buffer.write(
            &self.device,
            &self.queue,
            bytemuck::cast_slice(&self.scratch_translucent),
        );
    }

    /// The per-frame constants, including the light's projection fitted to
    /// the shadow sphere (`shadow_sphere`).
    fn globals(&self, frame: &FrameScene, (center, radius): (Point3<f32>, f32)) -> Globals {
        let aspect = self.width as f32 / self.height as f32;
        let clip_from_world = frame.camera.clip_from_world(aspect);
        let world_from_clip = clip_from_world.try_inverse().unwrap_or_else(Matrix4::identity);
        let to_light = (-frame.light.direction).try_normalize(0.0).unwrap_or_else(Vector3::y);
        // The light looks at the sphere from two radii away along its
        // direction; the box [-r, r]^2 x [r, 3r] in light view space holds it.
        let up = if to_light.y.abs() > 0.99 { Vector3::z() } else { Vector3::y() };
        let light_eye = center + to_light * (2.0 * radius);
        let light_view = nalgebra::Isometry3::look_at_rh(&light_eye, &center, &up);
        let light_clip_from_world = orthographic_rh_zo(radius, radius, radius * 0.5, radius * 3.5)
            * light_view.to_homogeneous();
        let light = frame.light.color.to_linear();
        let k = frame.light.intensity.max(0.0);
        let ground = frame.ground.unwrap_or_default();
        let v4 = |c: Color| c.to_linear();
        Globals {
            clip_from_world: clip_from_world.into(),
            light_clip_from_world: light_clip_from_world.into(),
            world_from_clip: world_from_clip.into(),
            eye: [
                frame.camera.eye.x,
                frame.camera.eye.y,
                frame.camera.eye.z,
                if matches!(frame.camera.projection, Projection::Perspective { .. }) {
                    1.0
                } else {
                    0.0
                },
            ],
            to_light: [
                to_light.x,
                to_light.y,
                to_light.z,
                if frame.light.shadows { 1.0 } else { 0.0 },
            ],
            light_color: [light[0] * k, light[1] * k, light[2] * k, frame.light.ambient.max(0.0)],
            sky_zenith: v4(frame.sky.zenith),
            sky_horizon: v4(frame.sky.horizon),
            sky_nadir: v4(frame.sky.nadir),
            ground_color: v4(ground.color),
            grid_color: v4(ground.line_color),
            params: [
                ground.half_extent.max(0.0),
                ground.cell_size.max(MIN_CELL_SIZE),
                2.0 * radius / self.shadow_map.size as f32,
                1.0 / self.shadow_map.size as f32,
            ],
            viewport: [
                self.width as f32,
                self.height as f32,
                1.0 / self.width as f32,
                1.0 / self.height as f32,
            ],
        }
    }
}

/// The pass [`Renderer::draw_meshes`] records into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    Main,
    Shadow,
}

/// The sphere the shadow map is fitted to: every caster is inside it.
fn shadow_sphere(frame: &FrameScene, bounds: &SceneBounds) -> (Point3<f32>, f32) {
    let (center, radius) = match frame.light.shadow_fit {
        ShadowFit::SceneBounds { min_radius } => {
            let (c, r) = bounds.sphere();
            (c, r.max(min_radius))
        }
        ShadowFit::Sphere { center, radius } => (center, radius),
    };
    (center, if radius.is_finite() && radius > 0.0 { radius } else { 1.0 })
}

/// The scene and shadow bind groups over the globals, the shadow map and the
/// instance storage buffer.
fn bind_groups(
    device: &wgpu::Device,
    pipelines: &Pipelines,
    globals: &wgpu::Buffer,
    shadow_map: &ShadowMap,
    instances: &wgpu::Buffer,
) -> (wgpu::BindGroup, wgpu::BindGroup) {
    let scene = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("render.scene_bind_group"),
        layout: &pipelines.scene_layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(&shadow_map.view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(&shadow_map.sampler),
            },
            wgpu::BindGroupEntry {
                binding: INSTANCES_BINDING,
                resource: instances.as_entire_binding(),
            },
        ],
    });
    let shadow = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("render.shadow_bind_group"),
        layout: &pipelines.shadow_layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() },
            wgpu::BindGroupEntry {
                binding: INSTANCES_BINDING,
                resource: instances.as_entire_binding(),
            },
        ],
    });
    (scene, shadow)
}

/// The casters and light the shadow map was last drawn from, compared
/// bytewise with the next frame's: any change, however small, redraws it.
#[derive(Debug, Default)]
struct ShadowContents {
    light_clip_from_world: [[f32; 4]; 4],
    /// Instance ranges per mesh slot.
    ranges: Vec<(u32, u32)>,
    /// Instances in mesh-slot order, before the sort by camera distance.
    instances: Vec<GpuInstance>,
}

/// The axis-aligned box around every instance's bounding sphere.
#[derive(Debug, Clone, Copy)]
struct SceneBounds {
    min: Vector3<f32>,
    max: Vector3<f32>,
}

impl Default for SceneBounds {
    fn default() -> Self {
        Self { min: Vector3::repeat(f32::INFINITY), max: Vector3::repeat(f32::NEG_INFINITY) }
    }
}

impl SceneBounds {
    fn add(&mut self, center: &Vector3<f32>, radius: f32) {
        // Non-finite instances are left out of the shadow fit.
        if center.iter().all(|c| c.is_finite()) && radius.is_finite() {
            self.min = self.min.inf(&center.add_scalar(-radius));
            self.max = self.max.sup(&center.add_scalar(radius));
        }
    }

    /// The bounding sphere of the box (the origin and zero when empty).
    fn sphere(&self) -> (Point3<f32>, f32) {
        if !(self.min.x <= self.max.x) {
            return (Point3::origin(), 0.0);
        }
        (Point3::from((self.min + self.max) * 0.5), (self.max - self.min).norm() * 0.5)
    }
}

/// Compile-time layout checks against the WGSL structs.
const _: () = {
    assert!(size_of::<MeshVertex>() == 32);
    assert!(size_of::<GpuInstance>() == 64);
    assert!(size_of::<Globals>() == 3 * 64 + 10 * 16);
    // `FrameStats::lod_instances` has one entry per level.
    assert!(LEVELS == 5);
};
