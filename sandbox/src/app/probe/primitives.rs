//! Drawing primitives the probe builds its pictures from, on top of the
//! renderer's instances and overlays: thick segments (thin capsules, lit
//! and legible where a one-pixel line is not), arrows (a capsule shaft and
//! a cone head), markers, and triangle meshes moved into the world.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use crate::probe::HullMesh;
use crate::render::{
    Color, DebugLine, DrawInstance, DrawShape, FrameScene, PointMarker, TranslucentMesh,
};

/// Sides of an arrow's cone head.
const CONE_SIDES: u32 = 12;

/// A capsule of `radius` from `a` to `b`; nothing for a zero-length segment.
pub fn thick_segment(
    frame: &mut FrameScene,
    a: Point3<f32>,
    b: Point3<f32>,
    radius: f32,
    color: Color,
) {
    let axis = b - a;
    let length = axis.norm();
    if !(length > 0.0) {
        return;
    }
    // The capsule's axis is its local Y.
    let rotation = UnitQuaternion::rotation_between(&Vector3::y(), &axis).unwrap_or_else(|| {
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), core::f32::consts::PI)
    });
    let pose = Isometry3::from_parts(Translation3::from(midpoint(a, b)), rotation);
    frame.instances.push(DrawInstance::new(
        DrawShape::Capsule { radius, half_height: 0.5 * length },
        pose,
        color,
    ));
}

fn midpoint(a: Point3<f32>, b: Point3<f32>) -> Vector3<f32> {
    (a.coords + b.coords) * 0.5
}

/// An arrow from `from` to `to`: a shaft of `radius` and a cone head three
/// times as wide and at most a third of the arrow long.
pub fn arrow(
    frame: &mut FrameScene,
    from: Point3<f32>,
    to: Point3<f32>,
    radius: f32,
    color: Color,
) {
    let axis = to - from;
    let length = axis.norm();
    if !(length > 0.0) {
        return;
    }
    let dir = axis / length;
    let head = (8.0 * radius).min(length / 3.0);
    let base = to - dir * head;
    thick_segment(frame, from, base, radius, color);
    // The cone: a ring around `base` and the tip.
    let side = if dir.x.abs() < 0.9 { Vector3::x() } else { Vector3::z() };
    let u = dir.cross(&side).normalize();
    let v = dir.cross(&u);
    let mut positions = vec![to, base];
    for k in 0..CONE_SIDES {
        let (s, c) = (k as f32 * core::f32::consts::TAU / CONE_SIDES as f32).sin_cos();
        positions.push(base + (u * c + v * s) * (3.0 * radius));
    }
    let mut triangles = Vec::new();
    for k in 0..CONE_SIDES {
        let (i, j) = (2 + k, 2 + (k + 1) % CONE_SIDES);
        triangles.push([0, i, j]);
        triangles.push([1, j, i]);
    }
    frame.translucent.push(TranslucentMesh { positions, triangles, color: color.with_alpha(1.0) });
}

/// A square marker of `size_px` with a dark border, so it reads on any
/// background.
pub fn marker(frame: &mut FrameScene, at: Point3<f32>, size_px: f32, color: Color) {
    frame.points.push(PointMarker {
        position: at,
        size_px: size_px + 4.0,
        color: Color::rgb(0.05, 0.05, 0.08),
    });
    frame.points.push(PointMarker { position: at, size_px, color });
}

/// `mesh` placed by `pose` as a translucent mesh, and its edges as lines
/// when `edge_color` is given.
pub fn mesh(
    frame: &mut FrameScene,
    mesh: &HullMesh,
    pose: &Isometry3<f32>,
    color: Color,
    edge_color: Option<Color>,
) {
    let positions: Vec<Point3<f32>> = mesh.positions.iter().map(|p| pose * p).collect();
    if let Some(edge) = edge_color {
        for &[i, j] in &mesh.edges {
            frame.lines.push(DebugLine {
                start: positions[i as usize],
                end: positions[j as usize],
                color: edge,
            });
        }
    }
    frame.translucent.push(TranslucentMesh { positions, triangles: mesh.triangles.clone(), color });
}
