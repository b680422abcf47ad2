//! The lines that draw a joint's limits when joint debug drawing (J) is
//! on, all in body A's joint frame as drawn (A's frame carries the limits,
//! B's frame x and z axes, drawn beside them, show where the joint is):
//! - a revolute joint: an arc about A's z axis between its limit angles,
//!   with a spoke at each end, at the radius B's x axis is drawn to;
//! - a prismatic joint: a cross at each limit on A's z axis, and the
//!   range between them;
//! - a spherical joint: its cone about A's z axis (a rim circle and a few
//!   lines from the anchor to it) and its twist range (an arc about A's z
//!   axis, as a hinge's).

use collide::nalgebra::{Isometry3, Point3, Vector3};

use crate::joint::{JointKind, JointView};
use crate::render::{Color, DebugLine};

/// The colour of limit lines: orange, apart from the blue and green of
/// the frames' axes and from the dark anchors.
pub(crate) const LIMIT_COLOR: Color = Color::ORANGE;

/// Segments of a full turn of a limit arc or rim: 32 keeps a 0.25 m
/// circle within a pixel of round at the app's usual zoom.
const SEGMENTS_PER_TURN: f32 = 32.0;

/// Half the size of a prismatic limit's cross, as a fraction of the axis
/// length it is drawn beside.
const TICK_FRACTION: f32 = 0.2;

/// Lines from the anchor to a cone's rim.
const CONE_SPOKES: usize = 4;

/// Appends the lines of `view`'s limits to `lines`: `frame_a` is A's joint
/// frame as drawn (its origin the anchor), `length` the drawn joint axis's
/// length (arcs are drawn at half of it, where B's x axis ends; a cone's
/// rim at the whole). A joint without limits adds nothing.
pub(crate) fn limit_lines(
    view: &JointView,
    frame_a: &Isometry3<f32>,
    length: f32,
    lines: &mut Vec<DebugLine>,
) {
    let anchor = Point3::from(frame_a.translation.vector);
    // A point of A's frame, world frame.
    let at = |local: Vector3<f32>| anchor + frame_a.rotation * local;
    let mut line = |start: Point3<f32>, end: Point3<f32>| {
        lines.push(DebugLine { start, end, color: LIMIT_COLOR });
    };
    match view.kind {
        JointKind::Revolute => {
            if let Some((lower, upper)) = view.limits {
                arc(lower, upper, 0.5 * length, &at, &mut line);
            }
        }
        JointKind::Spherical => {
            if let Some((lower, upper)) = view.twist_limits {
                arc(lower, upper, 0.5 * length, &at, &mut line);
            }
            if let Some(cone) = view.cone_limit {
                let (sin, cos) = cone.sin_cos();
                let rim =
                    |phi: f32| at(Vector3::new(sin * phi.cos(), sin * phi.sin(), cos) * length);
                let n = SEGMENTS_PER_TURN as usize;
                let step = std::f32::consts::TAU / n as f32;
                for k in 0..n {
                    line(rim(k as f32 * step), rim((k + 1) as f32 * step));
                }
                for k in 0..CONE_SPOKES {
                    line(anchor, rim(k as f32 * std::f32::consts::TAU / CONE_SPOKES as f32));
                }
            }
        }
        JointKind::Prismatic => {
            if let Some((lower, upper)) = view.limits {
                let tick = TICK_FRACTION * length;
                for slide in [lower, upper] {
                    let c = Vector3::z() * slide;
                    line(at(c - Vector3::x() * tick), at(c + Vector3::x() * tick));
                    line(at(c - Vector3::y() * tick), at(c + Vector3::y() * tick));
                }
                line(at(Vector3::z() * lower), at(Vector3::z() * upper));
            }
        }
        JointKind::Weld | JointKind::Distance => {}
    }
}

/// An arc about A's z axis from angle `lower` to `upper` (rad, from A's x
/// axis towards its y axis) at `radius`, with a spoke from the anchor to
/// each end.
fn arc(
    lower: f32,
    upper: f32,
    radius: f32,
    at: &impl Fn(Vector3<f32>) -> Point3<f32>,
    line: &mut impl FnMut(Point3<f32>, Point3<f32>),
) {
    let point = |angle: f32| at(Vector3::new(angle.cos(), angle.sin(), 0.0) * radius);
    let span = upper - lower;
    // At least one segment; NaN or a reversed range draws the spokes only.
    let segments = if span > 0.0 {
        ((span / std::f32::consts::TAU * SEGMENTS_PER_TURN).ceil() as usize).clamp(1, 64)
    } else {
        0
    };
    for k in 0..segments {
        let a0 = lower + span * k as f32 / segments as f32;
        let a1 = lower + span * (k + 1) as f32 / segments as f32;
        line(point(a0), point(a1));
    }
    let anchor = at(Vector3::zeros());
    line(anchor, point(lower));
    line(anchor, point(upper));
}

#[cfg(test)]
mod tests {
    use collide::nalgebra::{Translation3, UnitQuaternion};
    use collide::{Cuboid, Sphere};

    use super::*;
    use crate::{BodyDesc, JointDesc, World};

    /// A world with a fixed post and a box joined by `joint`'s result.
    fn view_of(make: impl Fn(crate::BodyId, crate::BodyId) -> JointDesc) -> JointView {
        let mut w = World::new();
        let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.1)).into())).unwrap();
        let body = w
            .add_body(
                BodyDesc::dynamic(Sphere::new(0.1).into())
                    .with_position(Vector3::new(0.0, -1.0, 0.0)),
            )
            .unwrap();
        let id = w.create_joint(make(post, body)).unwrap();
        w.joint(id).unwrap()
    }

    /// A frame away from the origin and turned, so that a line drawn in
    /// the wrong frame shows.
    fn frame() -> Isometry3<f32> {
        Isometry3::from_parts(
            Translation3::new(1.0, 2.0, -3.0),
            UnitQuaternion::from_euler_angles(0.3, -0.7, 1.1),
        )
    }

    /// Every endpoint in A's frame, the frame's inverse applied.
    fn local_points(lines: &[DebugLine]) -> Vec<Point3<f32>> {
        let inv = frame().inverse();
        lines.iter().flat_map(|l| [inv * l.start, inv * l.end]).collect()
    }

    #[test]
    fn revolute_arc_spans_its_limit_angles_at_half_the_axis_length() {
        let view = view_of(|a, b| {
            JointDesc::revolute(a, b, Point3::origin(), Vector3::z()).with_limits(-0.4, 1.2)
        });
        let mut lines = Vec::new();
        limit_lines(&view, &frame(), 0.5, &mut lines);
        assert!(!lines.is_empty());
        let mut angles = Vec::new();
        for p in local_points(&lines) {
            assert!(p.z.abs() < 1e-5, "off A's xy plane: {p}");
            let r = p.coords.norm();
            if r > 1e-5 {
                assert!((r - 0.25).abs() < 1e-5, "radius {r}");
                angles.push(p.y.atan2(p.x));
            }
        }
        let lo = angles.iter().cloned().fold(f32::INFINITY, f32::min);
        let hi = angles.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        assert!((lo + 0.4).abs() < 1e-5 && (hi - 1.2).abs() < 1e-5, "{lo} {hi}");
    }

    #[test]
    fn prismatic_crosses_sit_at_its_limits_on_the_axis() {
        let view = view_of(|a, b| {
            JointDesc::prismatic(a, b, Point3::origin(), Vector3::y()).with_limits(-0.3, 0.8)
        });
        let mut lines = Vec::new();
        limit_lines(&view, &frame(), 0.5, &mut lines);
        let points = local_points(&lines);
        let on_axis: Vec<f32> = points.iter().map(|p| p.z).collect();
        let lo = on_axis.iter().cloned().fold(f32::INFINITY, f32::min);
        let hi = on_axis.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        assert!((lo + 0.3).abs() < 1e-5 && (hi - 0.8).abs() < 1e-5, "{lo} {hi}");
        for p in points {
            let across = p.x.hypot(p.y);
            assert!(across < TICK_FRACTION * 0.5 + 1e-5, "{p}");
            // Crosses only at the limits; the range line joins them.
            assert!((p.z + 0.3).abs() < 1e-5 || (p.z - 0.8).abs() < 1e-5, "{p}");
        }
    }

    #[test]
    fn spherical_cone_rim_is_at_its_angle_and_twist_arc_at_its_limits() {
        let view = view_of(|a, b| {
            JointDesc::spherical(a, b, Point3::origin())
                .with_cone_limit(0.6)
                .with_twist_limits(-0.2, 0.5)
        });
        let mut lines = Vec::new();
        limit_lines(&view, &frame(), 0.5, &mut lines);
        let (mut twist, mut rim) = (Vec::new(), 0);
        for p in local_points(&lines) {
            let r = p.coords.norm();
            if r < 1e-5 {
                continue;
            }
            if p.z.abs() < 1e-5 {
                assert!((r - 0.25).abs() < 1e-5, "twist arc radius {r}");
                twist.push(p.y.atan2(p.x));
            } else {
                // A rim point: at the axis length, 0.6 rad off A's z axis.
                assert!((r - 0.5).abs() < 1e-5, "rim radius {r}");
                let angle = p.x.hypot(p.y).atan2(p.z);
                assert!((angle - 0.6).abs() < 1e-4, "cone angle {angle}");
                rim += 1;
            }
        }
        assert!(rim >= 2 * SEGMENTS_PER_TURN as usize, "{rim} rim points");
        let lo = twist.iter().cloned().fold(f32::INFINITY, f32::min);
        let hi = twist.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        assert!((lo + 0.2).abs() < 1e-5 && (hi - 0.5).abs() < 1e-5, "{lo} {hi}");
    }

    #[test]
    fn joints_without_limits_draw_none() {
        for view in [
            view_of(|a, b| JointDesc::spherical(a, b, Point3::origin())),
            view_of(|a, b| JointDesc::revolute(a, b, Point3::origin(), Vector3::x())),
            view_of(|a, b| JointDesc::weld(a, b, Point3::origin())),
        ] {
            let mut lines = Vec::new();
            limit_lines(&view, &frame(), 0.5, &mut lines);
            assert!(lines.is_empty(), "{:?}: {} lines", view.kind, lines.len());
        }
    }
}
