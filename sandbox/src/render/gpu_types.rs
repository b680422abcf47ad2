//! The byte layouts shared with the WGSL shaders.
//!
//! Each struct is `#[repr(C)]` and `Pod` so it uploads with
//! `bytemuck::cast_slice`; the field order and sizes must match the WGSL
//! structs and vertex attribute lists in `shaders/` and `pipelines.rs`.
// bytemuck's derives expand to `unsafe impl`s; the derive checks the layout.
#![allow(unsafe_code)]

use bytemuck::{Pod, Zeroable};

/// A vertex of a unit mesh (cube, sphere/capsule, hull).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct MeshVertex {
    /// Position in the unit mesh's frame.
    pub position: [f32; 3],
    /// +1 for the capsule's upper hemisphere, -1 for the lower, 0 otherwise:
    /// the vertex shader offsets it along Y by this times the half height.
    pub hemisphere: f32,
    /// Outward unit normal.
    pub normal: [f32; 3],
    /// The copy of the mesh this vertex belongs to within a block mesh, and
    /// the block size (`instance_blocks::block_tag`); 0 in a plain mesh.
    pub block: u32,
}

/// One mesh instance, 64 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct GpuInstance {
    /// The unit quaternion of `world_from_local`, as (x, y, z, w).
    pub rotation: [f32; 4],
    /// The translation of `world_from_local`, and the capsule half height in w.
    pub translation_half_height: [f32; 4],
    /// The per-axis scale of the unit mesh (w unused).
    pub scale: [f32; 4],
    /// Linear RGBA colour, sleeping dimming already applied.
    pub color: [f32; 4],
}

/// Per-frame constants (group 0, binding 0).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct Globals {
    pub clip_from_world: [[f32; 4]; 4],
    pub light_clip_from_world: [[f32; 4]; 4],
    pub world_from_clip: [[f32; 4]; 4],
    /// Camera position; w is 1 for a perspective camera, 0 for orthographic.
    pub eye: [f32; 4],
    /// Unit vector toward the light; w = 1 when shadows are on.
    pub to_light: [f32; 4],
    /// Linear light colour times intensity; w = ambient fraction.
    pub light_color: [f32; 4],
    pub sky_zenith: [f32; 4],
    pub sky_horizon: [f32; 4],
    pub sky_nadir: [f32; 4],
    pub ground_color: [f32; 4],
    pub grid_color: [f32; 4],
    /// Ground half extent, grid cell size, shadow texel size in world units
    /// and in texture coordinates.
    pub params: [f32; 4],
    /// Target width, height, 1 / width, 1 / height.
    pub viewport: [f32; 4],
}

/// A debug line end point.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct LineVertex {
    pub position: [f32; 3],
    /// Linear RGBA.
    pub color: [f32; 4],
}

/// A point marker instance.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct PointInstance {
    /// World position, and the marker side in pixels in w.
    pub position_size: [f32; 4],
    /// Linear RGBA.
    pub color: [f32; 4],
}

/// A translucent triangle vertex with its face normal.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct TranslucentVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    /// Linear RGBA.
    pub color: [f32; 4],
}
