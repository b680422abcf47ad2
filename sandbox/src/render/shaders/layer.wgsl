//! A cached layer drawn over the target: one full-screen triangle, scissored
//! to the layer's content, that loads the layer's texel under each pixel.
//! The layer and the target have the same size, so there is no filtering;
//! the pipeline blends the premultiplied texel "over" the target
//! (see layer.rs).

@group(0) @binding(0) var layer: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // (0,0), (2,0), (0,2) in uv cover the screen with one triangle.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_main(@builtin(position) pixel: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(layer, vec2<i32>(pixel.xy), 0);
}
