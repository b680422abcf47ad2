//! Instanced meshes: every instance of one mesh kind in one draw call.
//! `vs_main`/`fs_main` draw lit, shadowed meshes; `vs_shadow` is the
//! depth-only shadow-map pass from the light.
//!
//! The unit mesh is scaled per axis by the instance, and capsule vertices
//! are moved along local Y by `hemisphere * half_height` (see mesh.rs).
//! Normals use the inverse of the scale (the inverse transpose of a
//! diagonal matrix); the capsule offset does not change them.
//!
//! Lighting is evaluated per vertex (Gouraud): the ambient and the
//! unshadowed sun light, highlight included, are interpolated, and only the
//! shadow lookup runs per pixel. On flat faces the diffuse terms are exact;
//! the highlight and the curved meshes' shading are interpolated. On a
//! software rasteriser, where the fragment shader is most of a frame's
//! cost, this halves the cost of a pixel of mesh.
//! Bindings come from common.wgsl.

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) hemisphere: f32,
    @location(2) normal: vec3<f32>,
};

struct InstanceIn {
    @location(3) rotation: vec4<f32>,
    @location(4) translation_half_height: vec4<f32>,
    @location(5) scale: vec4<f32>,
    @location(6) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    // Linear light reflected from the sky and ground, and from the sun
    // when nothing shadows it (see the file header).
    @location(0) ambient: vec3<f32>,
    @location(1) sun: vec3<f32>,
    @location(2) shadow: vec3<f32>,
};

// Strength of the sun's highlight on meshes.
const SPECULAR: f32 = 0.35;

// Rotates v by the unit quaternion q = (x, y, z, w).
fn rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

fn world_position(v: VertexIn, i: InstanceIn) -> vec3<f32> {
    let local = v.position * i.scale.xyz + vec3<f32>(0.0, v.hemisphere * i.translation_half_height.w, 0.0);
    return rotate(i.rotation, local) + i.translation_half_height.xyz;
}

@vertex
fn vs_main(v: VertexIn, i: InstanceIn) -> VertexOut {
    let p = world_position(v, i);
    let inverse_scale = 1.0 / max(abs(i.scale.xyz), vec3<f32>(1e-6));
    let n = normalize(rotate(i.rotation, v.normal * inverse_scale));
    let light = reflected_light(i.color.rgb, n);
    var out: VertexOut;
    out.clip = globals.clip_from_world * vec4<f32>(p, 1.0);
    out.ambient = light.ambient;
    out.sun = light.sun + SPECULAR * sun_highlight(n, p);
    out.shadow = shadow_coord(p, n);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return encode_output(in.ambient + in.sun * sun_visibility(in.shadow), 1.0);
}

@vertex
fn vs_shadow(v: VertexIn, i: InstanceIn) -> @builtin(position) vec4<f32> {
    return globals.light_clip_from_world * vec4<f32>(world_position(v, i), 1.0);
}
