//! The 2D probe as a [`FrameScene`] in the plane z = 0, seen by an
//! orthographic camera: the shapes as filled polygons with outlines, the
//! penetration vector or the closest points, and on the right the
//! Minkowski difference polygon around its marked origin with GJK's simplex
//! and EPA's polygon (closest edge highlighted), final or stepped through.
//!
//! Fills lie a little behind the plane and lines and vectors a little in
//! front, so the depth test keeps the vectors on top.

use collide::dim2::{Contact2, SupportPoint2};
use collide::nalgebra::{Isometry2, Point2, Point3, Vector2, Vector3};

use crate::app::probe::palette::*;
use crate::app::probe::primitives::{arrow, marker, thick_segment};
use crate::probe::{Probe, Trace2, TraceStep, edge_line};
use crate::render::{Color, FrameScene, TranslucentMesh};

/// Depth of the shapes' fills and of the difference's fill (behind).
const SHAPE_Z: f32 = -0.2;
const DIFFERENCE_Z: f32 = -0.4;
/// Depth of the outlines, vectors and markers (in front).
const LINE_Z: f32 = 0.1;
/// Radius of the thick segments, metres: about three pixels across in the
/// default view.
const THICK: f32 = 0.02;
/// Length of a drawn search direction, metres.
const DIRECTION_LENGTH: f32 = 0.55;
/// Length of the Minkowski origin's axes, metres.
const AXIS_LENGTH: f32 = 0.3;

fn at(p: Point2<f32>, z: f32) -> Point3<f32> {
    Point3::new(p.x, p.y, z)
}

/// A filled polygon (a fan: the polygons here are convex) and its outline.
fn polygon(
    frame: &mut FrameScene,
    points: &[Point2<f32>],
    fill_z: f32,
    fill: Color,
    outline: Color,
) {
    if points.len() < 3 {
        return;
    }
    let positions: Vec<Point3<f32>> = points.iter().map(|p| at(*p, fill_z)).collect();
    let triangles = (1..points.len() as u32 - 1).map(|k| [0, k, k + 1]).collect();
    frame.translucent.push(TranslucentMesh { positions, triangles, color: fill });
    for k in 0..points.len() {
        let (p, q) = (points[k], points[(k + 1) % points.len()]);
        thick_segment(frame, at(p, LINE_Z), at(q, LINE_Z), 0.6 * THICK, outline);
    }
}

/// How far markers sit in front of the outlines and vectors, metres: more
/// than the thick segments' radius, so the capsules never cover them.
const MARKER_LIFT: f32 = 0.1;

/// Fills `frame` (cleared first) with the 2D probe.
pub fn fill2(probe: &Probe, frame: &mut FrameScene) {
    frame.clear();
    draw(probe, frame);
    for p in &mut frame.points {
        p.position.z += MARKER_LIFT;
    }
}

fn draw(probe: &Probe, frame: &mut FrameScene) {
    let pictures = probe.pictures();
    let (color_a, color_b) = shape_colors(probe.intersecting());
    for (outline, pose, color) in [
        (&pictures.outlines[0], &probe.pose_a2, color_a),
        (&pictures.outlines[1], &probe.pose_b2, color_b),
    ] {
        let world: Vec<Point2<f32>> = outline.iter().map(|p| pose * p).collect();
        polygon(frame, &world, SHAPE_Z, color.with_alpha(FLAT_SHAPE_ALPHA), color.with_alpha(1.0));
    }
    let origin3 = probe.minkowski_origin();
    let origin = Point2::new(origin3.x, origin3.y);
    // A's frame (where the trace and the polygon live) drawn at the origin.
    let minkowski_from_a = Isometry2::from_parts(origin.coords.into(), probe.pose_a2.rotation);
    let diff: Vec<Point2<f32>> = pictures.polygon.iter().map(|p| minkowski_from_a * p).collect();
    polygon(frame, &diff, DIFFERENCE_Z, MINKOWSKI.with_alpha(FLAT_MINKOWSKI_ALPHA), MINKOWSKI_EDGE);
    for (axis, color) in [(Vector2::x(), AXIS_X), (Vector2::y(), AXIS_Y)] {
        thick_segment(
            frame,
            at(origin, LINE_Z),
            at(origin + axis * AXIS_LENGTH, LINE_Z),
            0.4 * THICK,
            color,
        );
    }
    marker(frame, at(origin, LINE_Z), 9.0, ORIGIN);

    let Some(trace) = probe.trace2() else { return };
    draw_contact(frame, trace, origin);
    let to_world = |w: &Vector2<f32>| at(minkowski_from_a * Point2::from(*w), LINE_Z);
    let rotate = |v: Vector2<f32>| {
        let r = probe.pose_a2.rotation * v;
        Vector3::new(r.x, r.y, 0.0)
    };
    let origin_z = at(origin, LINE_Z);
    match probe.step.and_then(|i| trace.step(i)) {
        None => {
            if let Some(last) = trace.log.gjk.last() {
                let mut points: Vec<SupportPoint2> = last.simplex().to_vec();
                // Overlapping: the last support point closed the simplex
                // around the origin.
                if !trace.log.epa.is_empty() {
                    points.push(last.support);
                }
                draw_simplex(frame, &points, &to_world);
            }
            if let Some(last) = trace.log.epa.last() {
                draw_polygon(frame, &last.vertices, last.closest_edge, &to_world);
            }
        }
        Some(TraceStep::Gjk(k)) => {
            let step = &trace.log.gjk[k];
            draw_simplex(frame, step.simplex(), &to_world);
            if let Some(dir) = step.direction.try_normalize(0.0) {
                arrow(
                    frame,
                    origin_z,
                    origin_z + rotate(dir) * DIRECTION_LENGTH,
                    0.8 * THICK,
                    DIRECTION,
                );
            }
            marker(frame, to_world(&step.support.w), 11.0, SUPPORT);
        }
        Some(TraceStep::Epa(k)) => {
            let snapshot = &trace.log.epa[k];
            draw_polygon(frame, &snapshot.vertices, snapshot.closest_edge, &to_world);
            if let Some((n, _)) = edge_line(&snapshot.vertices, snapshot.closest_edge) {
                arrow(
                    frame,
                    origin_z,
                    origin_z + rotate(n) * DIRECTION_LENGTH,
                    0.8 * THICK,
                    DIRECTION,
                );
            }
            marker(frame, to_world(&snapshot.support.w), 11.0, SUPPORT);
        }
    }
}

/// The answer between the shapes and from the Minkowski origin.
fn draw_contact(frame: &mut FrameScene, trace: &Trace2, origin: Point2<f32>) {
    let (point_a, point_b, penetrating) = match trace.contact {
        Contact2::Penetrating(p) => (p.point_a, p.point_b, true),
        Contact2::Separated { point_a, point_b, .. } => (point_a, point_b, false),
    };
    let (a, b) = (at(point_a, LINE_Z), at(point_b, LINE_Z));
    let o = at(origin, LINE_Z);
    let gap = a - b;
    if penetrating {
        arrow(frame, b, a, THICK, PENETRATION);
        arrow(frame, o, o + gap, THICK, PENETRATION);
    } else {
        thick_segment(frame, a, b, 0.7 * THICK, CLOSEST);
        thick_segment(frame, o, o + gap, 0.7 * THICK, CLOSEST);
    }
    marker(frame, a, 10.0, WITNESS_A);
    marker(frame, b, 10.0, WITNESS_B);
}

/// A 2D GJK simplex: edges and vertices.
fn draw_simplex(
    frame: &mut FrameScene,
    points: &[SupportPoint2],
    to_world: &impl Fn(&Vector2<f32>) -> Point3<f32>,
) {
    let p: Vec<Point3<f32>> = points.iter().map(|s| to_world(&s.w)).collect();
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            thick_segment(frame, p[i], p[j], 0.6 * THICK, SIMPLEX);
        }
        marker(frame, p[i], 8.0, SIMPLEX);
    }
}

/// A 2D EPA polygon: its edges, the closest one highlighted.
fn draw_polygon(
    frame: &mut FrameScene,
    vertices: &[SupportPoint2],
    closest: usize,
    to_world: &impl Fn(&Vector2<f32>) -> Point3<f32>,
) {
    let p: Vec<Point3<f32>> = vertices.iter().map(|s| to_world(&s.w)).collect();
    for k in 0..p.len() {
        let (a, b) = (p[k], p[(k + 1) % p.len()]);
        let (radius, color) =
            if k == closest { (1.2 * THICK, CLOSEST_FACE) } else { (0.5 * THICK, POLYTOPE) };
        thick_segment(frame, a, b, radius, color);
        marker(frame, a, 6.0, POLYTOPE);
    }
}
