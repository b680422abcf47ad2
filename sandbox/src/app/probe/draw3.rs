//! The 3D probe as a [`FrameScene`]. Left: A and B, translucent so the
//! vectors inside them show, green when separated and red when
//! intersecting, with the penetration vector (an arrow from `point_b` to
//! `point_a`) and the witness points, or the closest points and the segment
//! between them. Right: the Minkowski difference `A ⊖ B` around its own
//! origin (marked, with short axes), the same vector from the origin, and
//! GJK's simplex and EPA's polytope with the closest face highlighted: the
//! final ones, or those of the iteration being stepped through with its
//! search direction and support point.

use collide::Contact;
use collide::nalgebra::{Isometry3, Point3, Translation3, Vector3};
use collide::query::{EpaSnapshot, Simplex};

use crate::app::probe::palette::*;
use crate::app::probe::primitives::{arrow, marker, mesh, thick_segment};
use crate::probe::{Probe, Trace3, TraceStep, face_plane};
use crate::render::{DebugLine, FrameScene, TranslucentMesh};

/// Radius of the thick segments (vectors, simplex edges), metres: about
/// three pixels across in the default view.
const THICK: f32 = 0.024;
/// Length of a drawn search direction, metres.
const DIRECTION_LENGTH: f32 = 0.6;
/// Length of the Minkowski origin's axes, metres.
const AXIS_LENGTH: f32 = 0.3;

/// Fills `frame` (cleared first) with the 3D probe.
pub fn fill3(probe: &Probe, frame: &mut FrameScene) {
    frame.clear();
    let intersecting = probe.intersecting();
    let pictures = probe.pictures();
    let (color_a, color_b) = shape_colors(intersecting);
    for (mesh_local, pose, color) in [
        (&pictures.shapes[0], &probe.pose_a, color_a),
        (&pictures.shapes[1], &probe.pose_b, color_b),
    ] {
        if let Some(m) = mesh_local {
            let edges = (m.edges.len() <= MAX_OUTLINE_EDGES).then_some(color.with_alpha(1.0));
            mesh(frame, m, pose, color, edges);
        }
    }
    let origin = probe.minkowski_origin();
    // A's frame (where the trace and the difference live) drawn at the
    // Minkowski origin: A's rotation, the origin's position.
    let minkowski_from_a =
        Isometry3::from_parts(Translation3::from(origin.coords), probe.pose_a.rotation);
    if let Some(diff) = &pictures.difference {
        let edges = (diff.edges.len() <= MAX_OUTLINE_EDGES).then_some(MINKOWSKI_EDGE);
        mesh(frame, diff, &minkowski_from_a, MINKOWSKI, edges);
    }
    if let Some(core) = &pictures.core_difference {
        for &[i, j] in &core.edges {
            frame.lines.push(DebugLine {
                start: minkowski_from_a * core.positions[i as usize],
                end: minkowski_from_a * core.positions[j as usize],
                color: CORE_EDGE,
            });
        }
    }
    for (axis, color) in [(Vector3::x(), AXIS_X), (Vector3::y(), AXIS_Y), (Vector3::z(), AXIS_Z)] {
        frame.lines.push(DebugLine { start: origin, end: origin + axis * AXIS_LENGTH, color });
    }
    marker(frame, origin, 9.0, ORIGIN);

    let Some(trace) = probe.trace3() else { return };
    draw_contact(frame, trace, origin);
    let to_world = |w: &Vector3<f32>| minkowski_from_a * Point3::from(*w);
    match probe.step.and_then(|i| trace.step(i)) {
        None => {
            draw_simplex(frame, &trace.gjk.simplex, &to_world, SIMPLEX);
            if let Some(last) = trace.log.epa.last() {
                draw_polytope(frame, last, &to_world);
            }
        }
        Some(TraceStep::Gjk(k)) => {
            let step = &trace.log.gjk[k];
            draw_simplex(frame, &step.simplex, &to_world, SIMPLEX);
            let dir = probe.pose_a.rotation * step.direction.normalize();
            arrow(frame, origin, origin + dir * DIRECTION_LENGTH, 0.8 * THICK, DIRECTION);
            marker(frame, to_world(&step.support.w), 11.0, SUPPORT);
        }
        Some(TraceStep::Epa(k)) => {
            let snapshot = &trace.log.epa[k];
            draw_polytope(frame, snapshot, &to_world);
            if let Some((n, _)) = face_plane(snapshot, snapshot.closest_face) {
                let dir = probe.pose_a.rotation * n;
                arrow(frame, origin, origin + dir * DIRECTION_LENGTH, 0.8 * THICK, DIRECTION);
            }
            if let Some(s) = snapshot.support {
                marker(frame, to_world(&s.w), 11.0, SUPPORT);
            }
        }
    }
}

/// The answer in both places: between the shapes, and from the Minkowski
/// origin to the difference's nearest boundary point `point_a − point_b`.
fn draw_contact(frame: &mut FrameScene, trace: &Trace3, origin: Point3<f32>) {
    match trace.contact {
        Contact::Penetrating(p) => {
            arrow(frame, p.point_b, p.point_a, THICK, PENETRATION);
            arrow(frame, origin, origin + (p.point_a - p.point_b), THICK, PENETRATION);
            marker(frame, p.point_a, 10.0, WITNESS_A);
            marker(frame, p.point_b, 10.0, WITNESS_B);
        }
        Contact::Separated { point_a, point_b, .. } => {
            thick_segment(frame, point_a, point_b, 0.7 * THICK, CLOSEST);
            thick_segment(frame, origin, origin + (point_a - point_b), 0.7 * THICK, CLOSEST);
            marker(frame, point_a, 10.0, WITNESS_A);
            marker(frame, point_b, 10.0, WITNESS_B);
        }
    }
}

/// A GJK simplex: its edges as thick segments and its vertices as markers
/// (a triangle lightly filled).
fn draw_simplex(
    frame: &mut FrameScene,
    simplex: &Simplex,
    to_world: &impl Fn(&Vector3<f32>) -> Point3<f32>,
    color: crate::render::Color,
) {
    let points: Vec<Point3<f32>> = simplex.points().iter().map(|p| to_world(&p.w)).collect();
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            thick_segment(frame, points[i], points[j], 0.6 * THICK, color);
        }
        marker(frame, points[i], 8.0, color);
    }
    // A triangle is filled lightly so its plane reads; a tetrahedron is
    // left as edges, or its fill would hide the difference it encloses.
    if points.len() == 3 {
        let triangles = vec![[0, 1, 2]];
        frame.translucent.push(TranslucentMesh {
            positions: points,
            triangles,
            color: color.with_alpha(0.2),
        });
    }
}

/// An EPA polytope: its edges as lines, its closest face filled.
fn draw_polytope(
    frame: &mut FrameScene,
    snapshot: &EpaSnapshot,
    to_world: &impl Fn(&Vector3<f32>) -> Point3<f32>,
) {
    let points: Vec<Point3<f32>> = snapshot.vertices.iter().map(|v| to_world(&v.w)).collect();
    for face in &snapshot.faces {
        for k in 0..3 {
            let (i, j) = (face[k] as usize, face[(k + 1) % 3] as usize);
            // Each edge borders two faces; draw it once.
            if i < j {
                frame.lines.push(DebugLine { start: points[i], end: points[j], color: POLYTOPE });
            }
        }
    }
    if let Some(face) = snapshot.faces.get(snapshot.closest_face) {
        let corners = face.map(|i| points[i as usize]);
        for k in 0..3 {
            thick_segment(frame, corners[k], corners[(k + 1) % 3], 0.6 * THICK, CLOSEST_FACE);
        }
        frame.translucent.push(TranslucentMesh {
            positions: corners.to_vec(),
            triangles: vec![[0, 1, 2]],
            color: CLOSEST_FACE.with_alpha(0.75),
        });
    }
}
