//! Shared by the scene shaders: the per-frame bindings, the Globals struct
//! and the lighting helpers. `pipelines.rs` prepends this file to each
//! shader that needs it.

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

// True when the target is not sRGB and the shader must encode. A pipeline
// constant rather than a uniform: a software rasteriser (lavapipe) runs
// both sides of a uniform branch, and the three `pow`s of the encoding
// then cost every pixel as much as the rest of the sky shader.
override ENCODE_SRGB: bool = false;

struct Globals {
    clip_from_world: mat4x4<f32>,
    light_clip_from_world: mat4x4<f32>,
    world_from_clip: mat4x4<f32>,
    // xyz: camera position; w: 1 for perspective, 0 for orthographic.
    eye: vec4<f32>,
    // xyz: unit vector toward the light; w: 1 when shadows are on.
    to_light: vec4<f32>,
    // rgb: linear light colour times intensity; w: ambient fraction.
    light_color: vec4<f32>,
    sky_zenith: vec4<f32>,
    sky_horizon: vec4<f32>,
    sky_nadir: vec4<f32>,
    ground_color: vec4<f32>,
    grid_color: vec4<f32>,
    // x: ground half extent, y: grid cell, z: shadow texel in world units,
    // w: unused.
    params: vec4<f32>,
    // width, height, 1 / width, 1 / height.
    viewport: vec4<f32>,
};

// The fraction of sunlight reaching world point `p` on a surface with unit
// normal `n`. The lookup point is pushed along the normal by a texel and a
// half (normal-offset shadows) so a lit surface does not shadow itself, and
// 3x3 taps of the hardware 2x2 comparison filter soften the edge (PCF).
fn sun_visibility(p: vec3<f32>, n: vec3<f32>) -> f32 {
    if globals.to_light.w < 0.5 {
        return 1.0;
    }
    let lookup = p + n * (1.5 * globals.params.z);
    let clip = globals.light_clip_from_world * vec4<f32>(lookup, 1.0);
    let ndc = clip.xyz / clip.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z > 1.0 {
        return 1.0;
    }
    let texel = 1.0 / vec2<f32>(textureDimensions(shadow_map));
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let offset = vec2<f32>(f32(x), f32(y)) * texel;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + offset, ndc.z);
        }
    }
    return lit / 9.0;
}

// Lambert sun with shadows, a sky/ground hemisphere ambient and a little
// Blinn-Phong specular, all in linear light.
fn shade(albedo: vec3<f32>, n: vec3<f32>, p: vec3<f32>, specular: f32) -> vec3<f32> {
    let l = globals.to_light.xyz;
    let n_dot_l = dot(n, l);
    var visibility = 0.0;
    if n_dot_l > 0.0 {
        visibility = sun_visibility(p, n);
    }
    let sun = globals.light_color.rgb * max(n_dot_l, 0.0) * visibility;
    let sky = mix(globals.sky_horizon.rgb, globals.sky_zenith.rgb, 0.5);
    let bounce = globals.ground_color.rgb * 0.6;
    let ambient = mix(bounce, sky, n.y * 0.5 + 0.5) * globals.light_color.w;
    let v = normalize(globals.eye.xyz - p);
    let h = normalize(l + v);
    let highlight = pow(max(dot(n, h), 0.0), 48.0) * specular * visibility * step(0.0, n_dot_l);
    return albedo * (sun + ambient) + globals.light_color.rgb * highlight;
}

// Linear to sRGB when the target does not encode in hardware.
fn encode_output(linear: vec3<f32>, alpha: f32) -> vec4<f32> {
    if !ENCODE_SRGB {
        return vec4<f32>(linear, alpha);
    }
    let low = linear * 12.92;
    let high = 1.055 * pow(linear, vec3<f32>(1.0 / 2.4)) - 0.055;
    return vec4<f32>(select(high, low, linear <= vec3<f32>(0.0031308)), alpha);
}
