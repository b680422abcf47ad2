//! The ground: a square at y = 0 with a procedural grid that receives sun
//! shadows. Grid lines are anti-aliased with screen-space derivatives and
//! fade out with distance (before they would alias), and the far ground
//! fades into the horizon colour.
//!
//! The ground comes as tiles (ground_tiles.rs), each drawn by the pipeline
//! whose overrides `GRID` and `SHADOW` keep only the per-pixel terms that
//! can be non-zero on it; the rest are constant-folded away, and a tile
//! with neither is drawn by `fs_plain`. The lighting of a flat ground is
//! constant, and the fog is smooth, so both are evaluated per vertex.
//! Bindings come from common.wgsl.

override GRID: bool = true;
override SHADOW: bool = true;

// Grid lines fade out between these distances from the eye, in cells (the
// end is GRID_FADE_END_CELLS in ground_tiles.rs, which must match).
const FADE_START_CELLS: f32 = 25.0;
const FADE_END_CELLS: f32 = 90.0;

// Colours are per vertex and in the target's space (`to_target`): the
// ground lit by the sun and in its shadow, and the grid lines' colour lit
// and shadowed, each fogged. A pixel only mixes them by its grid line
// coverage and its sunlight, which equals lighting the mixed albedo.
struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_xz: vec2<f32>,
    @location(1) shadow: vec3<f32>,
    // The sunlit ground: the whole answer where a tile has no grid and no
    // shadow (`fs_plain`).
    @location(2) plain: vec3<f32>,
    @location(3) shadowed: vec3<f32>,
    @location(4) line_lit: vec3<f32>,
    @location(5) line_shadowed: vec3<f32>,
};

// What `fs_plain` reads: one interpolated colour, written as it is.
struct PlainIn {
    @builtin(position) clip: vec4<f32>,
    @location(2) plain: vec3<f32>,
};

// Coverage of grid lines `width_px` pixels wide at grid coordinate `coord`.
fn grid_lines(coord: vec2<f32>, width_px: f32) -> f32 {
    let pixels = max(fwidth(coord), vec2<f32>(1e-6));
    let distance_px = abs(fract(coord - 0.5) - 0.5) / pixels;
    let line = 1.0 - clamp(distance_px / width_px, vec2<f32>(0.0), vec2<f32>(1.0));
    return max(line.x, line.y);
}

@vertex
fn vs_main(@location(0) xz: vec2<f32>) -> VertexOut {
    let p = vec3<f32>(xz.x, 0.0, xz.y);
    var out: VertexOut;
    out.world_xz = xz;
    out.clip = globals.clip_from_world * vec4<f32>(p, 1.0);
    out.shadow = shadow_coord(p, vec3<f32>(0.0, 1.0, 0.0));
    // Fog into the horizon colour with distance from the eye, and always by
    // the ground's edge, so the ground ends without a visible border.
    let half = globals.params.x;
    let edge = smoothstep(half * 0.6, half, max(abs(p.x), abs(p.z)));
    let haze = smoothstep(half * 0.15, half * 0.9, length(p.xz - globals.eye.xz));
    let fog = max(edge, haze);
    let up = vec3<f32>(0.0, 1.0, 0.0);
    let ground = reflected_light(globals.ground_color.rgb, up);
    let line = reflected_light(globals.grid_color.rgb, up);
    let horizon = globals.sky_horizon.rgb;
    out.plain = to_target(mix(ground.ambient + ground.sun, horizon, fog));
    out.shadowed = to_target(mix(ground.ambient, horizon, fog));
    out.line_lit = to_target(mix(line.ambient + line.sun, horizon, fog));
    out.line_shadowed = to_target(mix(line.ambient, horizon, fog));
    return out;
}

// Tiles with neither grid nor shadow (the `Plain` variant).
@fragment
fn fs_plain(in: PlainIn) -> @location(0) vec4<f32> {
    return vec4<f32>(in.plain, 1.0);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var line = 0.0;
    if GRID {
        let coord = in.world_xz / globals.params.y;
        let minor = grid_lines(coord, 1.0);
        let major = grid_lines(coord / 5.0, 1.6);
        let p = vec3<f32>(in.world_xz.x, 0.0, in.world_xz.y);
        let cell = globals.params.y;
        let fade = 1.0 - smoothstep(cell * FADE_START_CELLS, cell * FADE_END_CELLS, length(p - globals.eye.xyz));
        line = max(minor * 0.45, major) * fade;
    }
    var visible = 1.0;
    if SHADOW {
        visible = sun_visibility(in.shadow);
    }
    let lit = mix(in.plain, in.line_lit, line);
    let dark = mix(in.shadowed, in.line_shadowed, line);
    return vec4<f32>(mix(dark, lit, visible), 1.0);
}
