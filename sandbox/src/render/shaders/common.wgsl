//! Shared by the scene shaders: the per-frame bindings, the Globals struct
//! and the lighting helpers. `pipelines.rs` prepends this file to each
//! shader that needs it.

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

// True when the target is not sRGB and the shaders must encode (see
// `to_target`). A pipeline constant rather than a uniform: a software
// rasteriser (lavapipe) runs both sides of a uniform branch.
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
    // w: shadow texel in texture coordinates.
    params: vec4<f32>,
    // width, height, 1 / width, 1 / height.
    viewport: vec4<f32>,
};

// Where world point `p` on a surface with unit normal `n` looks up the
// shadow map: xy is the texture coordinate, z the depth to compare. The
// point is pushed along the normal by a texel and a half (normal-offset
// shadows) so a lit surface does not shadow itself. The sun's projection is
// orthographic (w = 1), so this is affine in `p`: vertex shaders call it
// and the interpolated value is exact on flat faces.
fn shadow_coord(p: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let lookup = p + n * (1.5 * globals.params.z);
    let clip = globals.light_clip_from_world * vec4<f32>(lookup, 1.0);
    return vec3<f32>(clip.x * 0.5 + 0.5, 0.5 - clip.y * 0.5, clip.z);
}

// The fraction of sunlight reaching a fragment at shadow coordinate
// `coord`: one tap of the 2x2 comparison filter (bilinear PCF), which
// softens the edge over one texel. On lavapipe every tap is a software
// sampler call per pixel; 3x3 taps cost about 30 ms a 1280x720 frame of the
// 5050-cube pyramid, where a texel is half a pixel and the extra softening
// is invisible. The tap is not skipped for unshadowed frames or out-of-map
// fragments, only overridden: lavapipe runs both sides of a branch anyway.
fn sun_visibility(coord: vec3<f32>) -> f32 {
    let lit = textureSampleCompareLevel(shadow_map, shadow_sampler, coord.xy, coord.z);
    let outside = any(coord.xy < vec2<f32>(0.0)) || any(coord.xy > vec2<f32>(1.0)) || coord.z > 1.0;
    return select(lit, 1.0, outside || globals.to_light.w < 0.5);
}

// The light a surface of colour `albedo` and unit normal `n` reflects, in
// linear light: `ambient` from a sky/ground hemisphere, and `sun` from
// Lambert's law, which the caller scales by the sun's visibility.
struct Reflected {
    ambient: vec3<f32>,
    sun: vec3<f32>,
};

fn reflected_light(albedo: vec3<f32>, n: vec3<f32>) -> Reflected {
    let sky = mix(globals.sky_horizon.rgb, globals.sky_zenith.rgb, 0.5);
    let bounce = globals.ground_color.rgb * 0.6;
    var out: Reflected;
    out.ambient = albedo * mix(bounce, sky, n.y * 0.5 + 0.5) * globals.light_color.w;
    out.sun = albedo * globals.light_color.rgb * max(dot(n, globals.to_light.xyz), 0.0);
    return out;
}

// A Blinn-Phong highlight of exponent 48 for a surface at `p` lit by the
// sun, in linear light. The power is three multiplies and four squarings,
// x^48 = (x^3)^16, rather than `pow`'s exp2(48 log2 x).
fn sun_highlight(n: vec3<f32>, p: vec3<f32>) -> vec3<f32> {
    let l = globals.to_light.xyz;
    let h = normalize(l + normalize(globals.eye.xyz - p));
    let x = max(dot(n, h), 0.0);
    var power = x * x * x;
    power *= power;
    power *= power;
    power *= power;
    power *= power;
    return globals.light_color.rgb * (power * step(0.0, dot(n, l)));
}

// Linear light to sRGB-encoded values.
fn srgb_encode(linear: vec3<f32>) -> vec3<f32> {
    let low = linear * 12.92;
    let high = 1.055 * pow(linear, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, linear <= vec3<f32>(0.0031308));
}

// The space the scene shaders mix colours in and write them: the values
// the target stores. On a target that does not encode in hardware
// (`ENCODE_SRGB`, the default offscreen and window targets) that is sRGB;
// on an sRGB target it is linear light, which the hardware encodes on the
// store. Vertex shaders convert their per-vertex or per-face colours once
// with `to_target`, and fragment shaders only mix those and write them:
// no `pow` per pixel, and no format conversion on the store. On lavapipe
// the store's conversion to an sRGB target costs about 10 ms of CPU per
// 1280x720 frame, and a fragment shader that only passes an interpolated
// colour to an 8-bit unorm target is the rasteriser's cheapest case.
// Mixing encoded values equals mixing linear ones where the weight is 0
// or 1, and differs slightly in between: the grid lines' anti-aliased
// edges, the one-texel shadow penumbra and the sky's gradient.
fn to_target(linear: vec3<f32>) -> vec3<f32> {
    if !ENCODE_SRGB {
        return linear;
    }
    return srgb_encode(linear);
}

// Linear to what the target stores, per pixel: for the debug overlays,
// which are few pixels.
fn encode_output(linear: vec3<f32>, alpha: f32) -> vec4<f32> {
    return vec4<f32>(to_target(linear), alpha);
}
