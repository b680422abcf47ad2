//! Debug overlays: lines (`vs_line`), screen-facing point markers
//! (`vs_point`) and translucent triangles (`vs_translucent`/`fs_translucent`).
//! Lines and points are pulled a little toward the camera in depth so that
//! markers lying on a surface are not hidden by it.
//! Bindings come from common.wgsl.

struct LineIn {
    @location(0) position: vec3<f32>,
    @location(1) color: vec4<f32>,
};

struct PointIn {
    @location(0) position_size: vec4<f32>,
    @location(1) color: vec4<f32>,
};

struct TranslucentIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec4<f32>,
};

struct FlatOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

struct TranslucentOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec4<f32>,
};

// Depth pull toward the camera, as a fraction of clip w.
const DEPTH_PULL: f32 = 2e-4;

@vertex
fn vs_line(v: LineIn) -> FlatOut {
    var out: FlatOut;
    out.clip = globals.clip_from_world * vec4<f32>(v.position, 1.0);
    out.clip.z = max(out.clip.z - DEPTH_PULL * out.clip.w, 0.0);
    out.color = v.color;
    return out;
}

@vertex
fn vs_point(@builtin(vertex_index) index: u32, v: PointIn) -> FlatOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    var out: FlatOut;
    out.clip = globals.clip_from_world * vec4<f32>(v.position_size.xyz, 1.0);
    // Half a side of `size` pixels is size / width in NDC; scale by w so the
    // offset survives the perspective divide.
    out.clip.x += corners[index].x * v.position_size.w * globals.viewport.z * out.clip.w;
    out.clip.y += corners[index].y * v.position_size.w * globals.viewport.w * out.clip.w;
    out.clip.z = max(out.clip.z - 4.0 * DEPTH_PULL * out.clip.w, 0.0);
    out.color = v.color;
    return out;
}

@fragment
fn fs_flat(in: FlatOut) -> @location(0) vec4<f32> {
    return encode_output(in.color.rgb, in.color.a);
}

@vertex
fn vs_translucent(v: TranslucentIn) -> TranslucentOut {
    var out: TranslucentOut;
    out.clip = globals.clip_from_world * vec4<f32>(v.position, 1.0);
    out.normal = v.normal;
    out.color = v.color;
    return out;
}

@fragment
fn fs_translucent(in: TranslucentOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let n = select(-in.normal, in.normal, front);
    let sun = max(dot(n, globals.to_light.xyz), 0.0) * 0.6 + 0.4;
    return encode_output(in.color.rgb * sun, in.color.a);
}
