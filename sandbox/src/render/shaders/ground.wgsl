//! The ground: a square at y = 0 with a procedural grid that receives sun
//! shadows. Grid lines are anti-aliased with screen-space derivatives and
//! fade out with distance (before they would alias), and the far ground
//! fades into the horizon colour.
//! Bindings come from common.wgsl.

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) shadow: vec3<f32>,
};

// Coverage of grid lines `width_px` pixels wide at grid coordinate `coord`.
fn grid_lines(coord: vec2<f32>, width_px: f32) -> f32 {
    let pixels = max(fwidth(coord), vec2<f32>(1e-6));
    let distance_px = abs(fract(coord - 0.5) - 0.5) / pixels;
    let line = 1.0 - clamp(distance_px / width_px, vec2<f32>(0.0), vec2<f32>(1.0));
    return max(line.x, line.y);
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    let c = corners[index] * globals.params.x;
    var out: VertexOut;
    out.world_position = vec3<f32>(c.x, 0.0, c.y);
    out.clip = globals.clip_from_world * vec4<f32>(out.world_position, 1.0);
    out.shadow = shadow_coord(out.world_position, vec3<f32>(0.0, 1.0, 0.0));
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let p = in.world_position;
    let coord = p.xz / globals.params.y;
    let minor = grid_lines(coord, 1.0);
    let major = grid_lines(coord / 5.0, 1.6);
    let distance = length(p - globals.eye.xyz);
    let fade = 1.0 - smoothstep(globals.params.y * 25.0, globals.params.y * 90.0, distance);
    let line = max(minor * 0.45, major) * fade;
    let albedo = mix(globals.ground_color.rgb, globals.grid_color.rgb, line);
    let light = reflected_light(albedo, vec3<f32>(0.0, 1.0, 0.0));
    let lit = light.ambient + light.sun * sun_visibility(in.shadow);
    // Fog into the horizon colour with distance from the eye, and always by
    // the ground's edge, so the ground ends without a visible border.
    let half = globals.params.x;
    let edge = smoothstep(half * 0.6, half, max(abs(p.x), abs(p.z)));
    let haze = smoothstep(half * 0.15, half * 0.9, length(p.xz - globals.eye.xz));
    return encode_output(mix(lit, globals.sky_horizon.rgb, max(edge, haze)), 1.0);
}
