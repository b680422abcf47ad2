//! Instanced meshes: every instance of one mesh kind in one draw call.
//! `vs_main`/`fs_main` draw lit, shadowed meshes; `vs_shadow` is the
//! depth-only shadow-map pass from the light.
//!
//! The unit mesh is scaled per axis by the instance, and capsule vertices
//! are moved along local Y by `hemisphere * half_height` (see round_meshes.rs).
//! Normals use the inverse of the scale (the inverse transpose of a
//! diagonal matrix); the capsule offset does not change them.
//!
//! Lighting is evaluated per vertex (Gouraud): the colour in shadow and in
//! sunlight, highlight included, already in the target's space, are
//! interpolated, and only the shadow lookup runs per pixel. On flat faces the diffuse terms are exact;
//! the highlight and the curved meshes' shading are interpolated. On a
//! software rasteriser, where the fragment shader is most of a frame's
//! cost, this halves the cost of a pixel of mesh.
//!
//! Each instance of a draw is a block of bodies (see instance_blocks.rs):
//! the vertex buffer holds the mesh repeated once per body of a block, each
//! copy tagged with its number, and `body` pulls the body's data from the
//! `instances` storage buffer.
//! The other bindings come from common.wgsl.

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) hemisphere: f32,
    @location(2) normal: vec3<f32>,
    // Block size in the high 16 bits, this copy's number in the low 16.
    @location(3) block: u32,
};

struct InstanceIn {
    rotation: vec4<f32>,
    translation_half_height: vec4<f32>,
    scale: vec4<f32>,
    color: vec4<f32>,
};

@group(0) @binding(3) var<storage, read> instances: array<InstanceIn>;

// The body that vertex `v` of draw instance (block) `block_index` belongs to.
fn body(v: VertexIn, block_index: u32) -> InstanceIn {
    return instances[block_index * (v.block >> 16u) + (v.block & 0xffffu)];
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    // The colour in the sun's shadow (the light from the sky and ground)
    // and in sunlight, in the target's space (`to_target` in common.wgsl);
    // a pixel mixes them by its sunlight.
    @location(0) dark: vec3<f32>,
    @location(1) lit: vec3<f32>,
    @location(2) shadow: vec3<f32>,
};

// Strength of the sun's highlight on meshes.
const SPECULAR: f32 = 0.35;

// Rotates v by the unit quaternion q = (x, y, z, w).
fn rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

// The world normal of vertex `v`: the inverse of the scale (the inverse
// transpose of a diagonal matrix), then the body's rotation.
fn world_normal(v: VertexIn, i: InstanceIn) -> vec3<f32> {
    let inverse_scale = 1.0 / max(abs(i.scale.xyz), vec3<f32>(1e-6));
    return normalize(rotate(i.rotation, v.normal * inverse_scale));
}

// A surface of body `i` with unit normal `n`, in the target's space: its
// colour in the sun's shadow, and in sunlight with the highlight as seen
// at `p`.
struct Shading {
    dark: vec3<f32>,
    lit: vec3<f32>,
};

fn shading(i: InstanceIn, n: vec3<f32>, p: vec3<f32>) -> Shading {
    let light = reflected_light(i.color.rgb, n);
    var out: Shading;
    out.dark = to_target(light.ambient);
    out.lit = to_target(light.ambient + light.sun + SPECULAR * sun_highlight(n, p));
    return out;
}

fn world_position(v: VertexIn, i: InstanceIn) -> vec3<f32> {
    let local = v.position * i.scale.xyz + vec3<f32>(0.0, v.hemisphere * i.translation_half_height.w, 0.0);
    return rotate(i.rotation, local) + i.translation_half_height.xyz;
}

// The cube mesh holds only the three faces around the corner (1, 1, 1)
// (`unit_cube_corner` in mesh.rs): at most three faces of a box face any
// one viewer, the ones on the viewer's side along each axis, and they meet
// at one corner. `turn_to_octant` turns the patch so that its corner is the
// one on the viewer's side of every axis, by a signed permutation of the
// axes with determinant +1 (so the winding stays counter-clockwise from
// outside): diag(s), after swapping x and y, which fixes the corner, when
// an odd number of signs is negative. A face that still faces away (the
// viewer within the box's slab along its axis) is back-face culled.
fn octant(i: InstanceIn, to_viewer_world: vec3<f32>) -> vec3<f32> {
    let q = vec4<f32>(-i.rotation.xyz, i.rotation.w);
    let to_viewer = rotate(q, to_viewer_world) * sign(i.scale.xyz);
    return select(vec3<f32>(-1.0), vec3<f32>(1.0), to_viewer >= vec3<f32>(0.0));
}

fn turn_to_octant(s: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    return s * select(v, v.yxz, s.x * s.y * s.z < 0.0);
}

fn turned(v: VertexIn, s: vec3<f32>) -> VertexIn {
    var out = v;
    out.position = turn_to_octant(s, v.position);
    out.normal = turn_to_octant(s, v.normal);
    return out;
}

// From the box centre toward the camera: toward the eye for a perspective
// camera, against the view direction (the z column of the affine
// world_from_clip) for an orthographic one.
fn to_camera(i: InstanceIn) -> vec3<f32> {
    if globals.eye.w < 0.5 {
        return -globals.world_from_clip[2].xyz;
    }
    return globals.eye.xyz - i.translation_half_height.xyz;
}

@vertex
fn vs_main(v: VertexIn, @builtin(instance_index) block_index: u32) -> VertexOut {
    return lit_vertex(v, body(v, block_index));
}

// A box face is flat, so its lighting is one value per face: the cube
// pipeline passes it flat, from each face's far corner (the provoking
// vertex, the only one of the patch's seven that no other face shares).
// The highlight is taken at the face's centre. The shadow lookup's normal
// offset is flat too; only the light-space position is interpolated.
struct CubeOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat, first) dark: vec3<f32>,
    @location(1) @interpolate(flat, first) lit: vec3<f32>,
    @location(2) shadow: vec3<f32>,
    @location(3) @interpolate(flat, first) shadow_offset: vec3<f32>,
};

@vertex
fn vs_cube(v: VertexIn, @builtin(instance_index) block_index: u32) -> CubeOut {
    let i = body(v, block_index);
    let t = turned(v, octant(i, to_camera(i)));
    let p = world_position(t, i);
    var centre = t;
    centre.position = t.normal;
    let n = world_normal(t, i);
    let shade = shading(i, n, world_position(centre, i));
    var out: CubeOut;
    out.clip = globals.clip_from_world * vec4<f32>(p, 1.0);
    out.dark = shade.dark;
    out.lit = shade.lit;
    out.shadow = shadow_coord(p, vec3<f32>(0.0));
    out.shadow_offset = shadow_coord(p, n) - out.shadow;
    return out;
}

@fragment
fn fs_cube(in: CubeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(mix(in.dark, in.lit, sun_visibility(in.shadow + in.shadow_offset)), 1.0);
}

fn lit_vertex(v: VertexIn, i: InstanceIn) -> VertexOut {
    let p = world_position(v, i);
    let n = world_normal(v, i);
    let shade = shading(i, n, p);
    var out: VertexOut;
    out.clip = globals.clip_from_world * vec4<f32>(p, 1.0);
    out.dark = shade.dark;
    out.lit = shade.lit;
    out.shadow = shadow_coord(p, n);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(mix(in.dark, in.lit, sun_visibility(in.shadow)), 1.0);
}

@vertex
fn vs_shadow(v: VertexIn, @builtin(instance_index) block_index: u32) -> @builtin(position) vec4<f32> {
    let i = body(v, block_index);
    return globals.light_clip_from_world * vec4<f32>(world_position(v, i), 1.0);
}

@vertex
fn vs_shadow_cube(v: VertexIn, @builtin(instance_index) block_index: u32) -> @builtin(position) vec4<f32> {
    let i = body(v, block_index);
    let t = turned(v, octant(i, globals.to_light.xyz));
    return globals.light_clip_from_world * vec4<f32>(world_position(t, i), 1.0);
}
