//! The sky: one full-screen triangle behind everything. Each pixel's view
//! ray picks a colour by its elevation: between the horizon and the zenith,
//! or the nadir below the horizon. An orthographic camera's rays are all
//! parallel, so there the gradient runs up the screen instead.
//!
//! The ray is unprojected through `world_from_clip` per vertex, not per
//! pixel: on the near and far planes clip w is constant, so the world
//! points there, and the ray between them, are affine in NDC and the
//! rasteriser's interpolation reproduces them exactly. A software
//! rasteriser then spends only a normalisation and the gradient per pixel.
//! The gradient mixes the colours in the target's space (see `to_target`
//! in common.wgsl).
//! Bindings come from common.wgsl.

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    // xyz: the unnormalised world view ray (perspective), zero for an
    // orthographic camera; w: the orthographic elevation before clamping.
    @location(0) ray: vec4<f32>,
    // The sky's colours in the target's space (`to_target`), converted
    // once per vertex: the gradient mixes them per pixel.
    @location(1) @interpolate(flat, first) zenith: vec3<f32>,
    @location(2) @interpolate(flat, first) horizon: vec3<f32>,
    @location(3) @interpolate(flat, first) nadir: vec3<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    // (0,0), (2,0), (0,2) in uv cover the screen with one triangle.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    let ndc = uv * 2.0 - 1.0;
    let near = globals.world_from_clip * vec4<f32>(ndc, 0.0, 1.0);
    let far = globals.world_from_clip * vec4<f32>(ndc, 1.0, 1.0);
    let ray = far.xyz / far.w - near.xyz / near.w;
    var out: VertexOut;
    out.clip = vec4<f32>(ndc, 1.0, 1.0);
    if globals.eye.w < 0.5 {
        out.ray = vec4<f32>(0.0, 0.0, 0.0, normalize(ray).y + 0.5 * (ndc.y + 1.0));
    } else {
        out.ray = vec4<f32>(ray, 0.0);
    }
    out.zenith = to_target(globals.sky_zenith.rgb);
    out.horizon = to_target(globals.sky_horizon.rgb);
    out.nadir = to_target(globals.sky_nadir.rgb);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var elevation = in.ray.y * inverseSqrt(max(dot(in.ray.xyz, in.ray.xyz), 1e-30));
    if globals.eye.w < 0.5 {
        elevation = clamp(in.ray.w, 0.0, 1.0);
    }
    // Above the horizon toward the zenith; just below it the colour stays
    // horizon-coloured, matching the ground's fogged far edge.
    let up = mix(in.horizon, in.zenith, pow(max(elevation, 0.0), 0.55));
    let down = mix(in.horizon, in.nadir, smoothstep(0.25, 0.9, -elevation));
    return vec4<f32>(select(down, up, elevation >= 0.0), 1.0);
}
