//! The sky: one full-screen triangle behind everything. Each pixel's view
//! ray is unprojected through `world_from_clip` (this works for perspective
//! and orthographic cameras alike) and its elevation picks a colour between
//! the horizon and the zenith, or the nadir below the horizon. An
//! orthographic camera's rays are all parallel, so there the gradient runs
//! up the screen instead.
//! Bindings come from common.wgsl.

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) ndc: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    // (0,0), (2,0), (0,2) in uv cover the screen with one triangle.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOut;
    out.ndc = uv * 2.0 - 1.0;
    out.clip = vec4<f32>(out.ndc, 1.0, 1.0);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let near = globals.world_from_clip * vec4<f32>(in.ndc, 0.0, 1.0);
    let far = globals.world_from_clip * vec4<f32>(in.ndc, 1.0, 1.0);
    var elevation = normalize(far.xyz / far.w - near.xyz / near.w).y;
    if globals.eye.w < 0.5 {
        elevation = clamp(elevation + 0.5 * (in.ndc.y + 1.0), 0.0, 1.0);
    }
    var color: vec3<f32>;
    if elevation >= 0.0 {
        color = mix(globals.sky_horizon.rgb, globals.sky_zenith.rgb, pow(elevation, 0.55));
    } else {
        // Just below the horizon stays horizon-coloured, matching the
        // ground's fogged far edge.
        color = mix(globals.sky_horizon.rgb, globals.sky_nadir.rgb, smoothstep(0.25, 0.9, -elevation));
    }
    return encode_output(color, 1.0);
}
