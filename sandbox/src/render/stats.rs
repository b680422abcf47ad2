//! What the renderer did in one frame, for tests and the app's overlay.

/// Counts for one rendered frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrameStats {
    /// Draw calls in all passes (shadow, sky, ground, meshes, overlays).
    pub draw_calls: u32,
    /// Instanced mesh draw calls in the main pass: one per mesh kind present.
    pub mesh_draw_calls: u32,
    /// Mesh draw calls in the shadow pass.
    pub shadow_draw_calls: u32,
    /// Ground draw calls: one per kind of ground tile present, 1 to 4
    /// (`ground_tiles.rs`), 0 without a ground.
    pub ground_draw_calls: u32,
    /// Whether the shadow pass was skipped because no caster and not the
    /// light changed since the frame that drew the shadow map.
    pub shadow_map_reused: bool,
    /// Texels along a side of the shadow map (sized to the view; see
    /// `shadow_map_size` in targets.rs), or 0 without shadows.
    pub shadow_map_size: u32,
    /// Mesh instances in the frame (those culled included).
    pub instances: u32,
    /// Mesh instances left out of the main pass because they lie outside
    /// the view (or the scissor rectangle); they still cast shadows.
    pub culled: u32,
    /// Round instances (spheres, capsules, cylinders, cones) drawn at each
    /// level of detail, coarsest first: 8, 12, 16, 24 and 36 vertices
    /// around the equator (`level_of_detail.rs`).
    pub lod_instances: [u32; 5],
    /// Debug line segments drawn.
    pub lines: u32,
    /// Point markers drawn.
    pub points: u32,
    /// Translucent triangles drawn.
    pub translucent_triangles: u32,
    /// Whether the frame was skipped (zero-sized target).
    pub skipped: bool,
}
