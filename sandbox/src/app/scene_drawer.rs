//! Turns a simulation into the renderer's [`FrameScene`]: one instance per
//! shape of each body with its interpolated pose (a body of several shapes
//! drawn shape by shape, each at its pose in the body), a colour per body
//! (or per island), sleeping bodies dimmer, kinematic bodies in their own
//! colour, sensors as translucent meshes in their own pale tint (drawn in
//! the renderer's translucent pass, so they cast no shadow and the bodies
//! inside show through), the debug overlays the user turned on (contact
//! points and normals, fat AABBs, joint axes and limits), every joint's
//! anchors and the contact flashes. It reads the world only through
//! [`World::view`](crate::World::view). Each distinct hull is uploaded to
//! the renderer once. Cuboids, spheres, capsules, cylinders and cones are
//! instances of the renderer's unit meshes; segments are thin capsules;
//! triangles, rounded shapes and users' own shapes get a mesh of their own
//! (support_mesh.rs), built and uploaded once per distinct shape; meshes
//! and heightfields their triangles (surface_mesh.rs), uploaded once per
//! distinct shape; a compound is drawn part by part.

use std::collections::HashMap;

use collide::Shape;
use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use crate::app::joint_limit_lines::limit_lines;
use crate::app::simulation::Simulation;
use crate::app::support_mesh::{support_mesh, two_sided_triangle};
use crate::app::surface_mesh::surface_mesh;
use crate::body::{BodyId, BodyKind};
use crate::render::{
    Color, DebugLine, DrawInstance, DrawShape, FrameScene, HullMeshId, PointMarker, TranslucentMesh,
};
use crate::render::{RenderError, Renderer};
use crate::world_view::BodyView;

/// Length of a drawn contact normal, metres.
const NORMAL_LENGTH: f32 = 0.4;

/// The colour of kinematic bodies: a dark steel blue, darker than every
/// [`palette`] colour (value 0.92) and bluer than the grey of fixed ones,
/// so a moving platform reads as neither a dynamic body nor the scenery.
pub(crate) const KINEMATIC_COLOR: Color = Color::rgb(0.22, 0.32, 0.48);

/// What the debug overlays show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DebugDraw {
    /// Contact points, and their normals from A to B.
    pub contacts: bool,
    /// Each body's fattened broad-phase box.
    pub aabbs: bool,
    /// Colour bodies by island instead of by body.
    pub islands: bool,
    /// Each joint's axis as each of its bodies carries it, and each
    /// body's frame x axis about it (their angle is the joint's turn).
    pub joints: bool,
}

/// Builds frames, remembering which hull meshes the renderer already has.
#[derive(Debug, Default)]
pub struct SceneDrawer {
    /// Per shape of a body, its hull mesh (looked up once per shape).
    by_body: HashMap<(BodyId, u32), HullMeshId>,
    /// Per distinct hull (by a hash of its vertex bits), its mesh.
    by_content: HashMap<u64, HullMeshId>,
    /// Per sensor shape of a body, its mesh in the shape's frame (built
    /// once; placed at the shape's pose each frame).
    sensor_meshes: HashMap<(BodyId, u32), Option<SensorMesh>>,
    /// What the fixed bodies draw, kept while the world's fixed bodies do
    /// not change (issue 39: a million fixed bodies are not walked every
    /// frame).
    fixed: FixedDrawing,
}

/// The instances and translucent meshes of a world's fixed bodies, built
/// at one revision of them ([`crate::WorldView::fixed_revision`]).
#[derive(Debug, Default)]
struct FixedDrawing {
    /// The revision drawn; `None` when nothing is kept.
    revision: Option<u64>,
    instances: Vec<DrawInstance>,
    translucent: Vec<TranslucentMesh>,
}

/// A sensor's triangle mesh in its shape's frame.
#[derive(Debug)]
struct SensorMesh {
    positions: Vec<Point3<f32>>,
    triangles: Vec<[u32; 3]>,
}

impl SceneDrawer {
    /// Forgets the uploaded meshes (for a new renderer).
    pub fn clear(&mut self) {
        self.by_body.clear();
        self.by_content.clear();
        self.sensor_meshes.clear();
        self.fixed = FixedDrawing::default();
    }

    /// Fills `frame` (cleared first; camera, light and sky kept) with the
    /// simulation's bodies at `alpha` between the last two steps, plus the
    /// overlays `debug` asks for.
    ///
    /// # Errors
    /// A hull mesh the renderer could not take.
    pub fn fill(
        &mut self,
        sim: &Simulation,
        alpha: f32,
        debug: DebugDraw,
        renderer: &mut Renderer,
        frame: &mut FrameScene,
    ) -> Result<(), RenderError> {
        frame.clear();
        let view = sim.world.view();
        // The fixed bodies: drawn again only when one was added, removed
        // or moved; otherwise their instances are copied as they were.
        let revision = view.fixed_revision();
        if self.fixed.revision != Some(revision) {
            self.fixed.revision = None;
            let (instances, translucent) = (frame.instances.len(), frame.translucent.len());
            for body in view.bodies().filter(|b| b.kind == BodyKind::Fixed) {
                self.draw_body(sim, &body, alpha, debug, renderer, frame)?;
            }
            self.fixed.instances.clear();
            self.fixed.instances.extend_from_slice(&frame.instances[instances..]);
            self.fixed.translucent.clear();
            self.fixed.translucent.extend_from_slice(&frame.translucent[translucent..]);
            self.fixed.revision = Some(revision);
        } else {
            frame.instances.extend_from_slice(&self.fixed.instances);
            frame.translucent.extend_from_slice(&self.fixed.translucent);
        }
        for body in view.movers() {
            self.draw_body(sim, &body, alpha, debug, renderer, frame)?;
        }
        if debug.aabbs {
            for body in view.bodies() {
                let aabb = body.fat_aabb;
                frame.push_aabb(aabb.min, aabb.max, Color::YELLOW);
            }
        }
        if debug.contacts {
            for pair in view.contacts() {
                let n = pair.normal;
                for p in pair.points() {
                    let color = if p.separation < 0.0 { Color::RED } else { Color::ORANGE };
                    frame.points.push(PointMarker { position: p.point, size_px: 6.0, color });
                    frame.lines.push(DebugLine {
                        start: p.point,
                        end: p.point + n * NORMAL_LENGTH,
                        color: Color::WHITE,
                    });
                }
            }
        }
        draw_joints(sim, alpha, debug.joints, frame);
        if sim.flashes.enabled {
            sim.flashes.draw(frame);
        }
        if let Some(drag) = sim.drag()
            && let Some(pose) = sim.world.pose(drag.body)
        {
            let anchor = pose * drag.anchor_local;
            frame.lines.push(DebugLine { start: anchor, end: drag.target, color: Color::WHITE });
            frame.points.push(PointMarker {
                position: drag.target,
                size_px: 8.0,
                color: Color::WHITE,
            });
        }
        Ok(())
    }

    /// Adds the instances (and sensor meshes) of one body. A fixed body is
    /// drawn at its pose (it only moves by being set, a jump), any other
    /// at its pose interpolated `alpha` of the way through the last step.
    fn draw_body(
        &mut self,
        sim: &Simulation,
        body: &BodyView<'_>,
        alpha: f32,
        debug: DebugDraw,
        renderer: &mut Renderer,
        frame: &mut FrameScene,
    ) -> Result<(), RenderError> {
        let slot = body.id.index();
        let fixed = body.kind == BodyKind::Fixed;
        let drawn = if fixed { *body.pose } else { sim.interpolated(slot, body.pose, alpha) };
        for (k, body_shape) in body.shapes.iter().enumerate() {
            if body.is_sensor(k) {
                let pose = drawn * body.local_pose(k);
                self.push_sensor((body.id, k as u32), body_shape, &pose, frame);
                continue;
            }
            // A compound is drawn part by part, each part at its pose
            // in the compound; any other shape as itself.
            let pieces = match body_shape {
                Shape::Compound(c) => c.parts().len(),
                _ => 1,
            };
            for piece in 0..pieces {
                let (piece_shape, in_shape, key) = match body_shape {
                    Shape::Compound(c) => {
                        let (part, pose) = &c.parts()[piece];
                        (part, *pose, (body.id, part_key(k, piece)))
                    }
                    other => (other, Isometry3::identity(), (body.id, k as u32)),
                };
                let Some((shape, local)) = self.draw_shape(key, piece_shape, renderer)? else {
                    continue;
                };
                let in_body = body.local_pose(k);
                let alone = body.shapes.len() == 1 && in_body == Isometry3::identity();
                if fixed && alone && is_scene_ground(body_shape, body.pose) {
                    // The renderer draws its own ground grid at y = 0.
                    continue;
                }
                let color = if fixed {
                    Color::rgb(0.55, 0.55, 0.58)
                } else if body.kind == BodyKind::Kinematic {
                    KINEMATIC_COLOR
                } else if debug.islands {
                    palette(body.island.unwrap_or(slot as u32) as usize)
                } else {
                    palette(slot)
                };
                let pose = drawn * in_body * in_shape * local;
                let mut instance = DrawInstance::new(shape, pose, color);
                instance.sleeping = !fixed && !body.awake;
                frame.instances.push(instance);
            }
        }
        Ok(())
    }

    /// Adds sensor shape `key` at `pose` as a translucent mesh (the hull of
    /// its support points, built once per shape), which the renderer
    /// draws after the solids, without a shadow.
    fn push_sensor(
        &mut self,
        key: (BodyId, u32),
        shape: &Shape,
        pose: &Isometry3<f32>,
        frame: &mut FrameScene,
    ) {
        let mesh = self.sensor_meshes.entry(key).or_insert_with(|| {
            support_mesh(shape).map(|(vertices, triangles)| SensorMesh {
                positions: vertices.into_iter().map(|(p, _)| p).collect(),
                triangles,
            })
        });
        if let Some(mesh) = mesh {
            frame.translucent.push(TranslucentMesh {
                positions: mesh.positions.iter().map(|p| pose * p).collect(),
                triangles: mesh.triangles.clone(),
                color: SENSOR_COLOR,
            });
        }
    }

    /// How to draw one convex shape (or a mesh or heightfield): the
    /// renderer's shape and its pose in the shape's frame, registering
    /// its mesh first if it needs one of its own. `None` when there is
    /// nothing to draw.
    fn draw_shape(
        &mut self,
        key: (BodyId, u32),
        shape: &Shape,
        renderer: &mut Renderer,
    ) -> Result<Option<(DrawShape, Isometry3<f32>)>, RenderError> {
        let mut local = Isometry3::identity();
        let drawn = match shape {
            Shape::Cuboid(c) => DrawShape::Cuboid { half_extents: c.half_extents },
            Shape::Sphere(s) => DrawShape::Sphere { radius: s.radius },
            Shape::Capsule(c) => {
                DrawShape::Capsule { radius: c.radius, half_height: c.half_height }
            }
            Shape::ConvexHull(h) => DrawShape::Hull {
                id: self.hull_mesh(key, h, renderer)?,
                scale: Vector3::repeat(1.0),
            },
            Shape::Segment(seg) => {
                let axis = seg.b - seg.a;
                let rotation = UnitQuaternion::rotation_between(&Vector3::y(), &axis)
                    .unwrap_or_else(|| {
                        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::PI)
                    });
                local = Isometry3::from_parts(
                    Translation3::from(collide::nalgebra::center(&seg.a, &seg.b).coords),
                    rotation,
                );
                DrawShape::Capsule { radius: SEGMENT_DRAW_RADIUS, half_height: 0.5 * axis.norm() }
            }
            Shape::Cylinder(c) => {
                DrawShape::Cylinder { radius: c.radius, half_height: c.half_height }
            }
            Shape::Cone(c) => DrawShape::Cone { radius: c.radius, half_height: c.half_height },
            // A rounded sphere or capsule is a larger one.
            Shape::Rounded(r) => match &r.inner {
                Shape::Sphere(s) => DrawShape::Sphere { radius: s.radius + r.radius },
                Shape::Capsule(c) => {
                    DrawShape::Capsule { radius: c.radius + r.radius, half_height: c.half_height }
                }
                _ => match self.sampled_mesh(key, shape, renderer)? {
                    Some(id) => DrawShape::Hull { id, scale: Vector3::repeat(1.0) },
                    None => return Ok(None),
                },
            },
            // Meshes and heightfields as their triangles, one mesh per
            // distinct shape (surface_mesh.rs).
            Shape::TriMesh(_) | Shape::HeightField(_) => {
                match self.surface(key, shape, renderer)? {
                    Some(id) => DrawShape::Hull { id, scale: Vector3::repeat(1.0) },
                    None => return Ok(None),
                }
            }
            // Triangles as two flat faces; rounded shapes, users' own
            // and any later kind as the hull of their support points
            // (support_mesh.rs); each mesh built once per distinct shape.
            other => match self.sampled_mesh(key, other, renderer)? {
                Some(id) => DrawShape::Hull { id, scale: Vector3::repeat(1.0) },
                None => return Ok(None),
            },
        };
        Ok(Some((drawn, local)))
    }

    /// The mesh of a triangle mesh or heightfield, registered once per
    /// distinct shape (by its `Arc`, so equal shapes shared by bodies
    /// share a mesh, and nothing of the shape is hashed).
    fn surface(
        &mut self,
        body: (BodyId, u32),
        shape: &Shape,
        renderer: &mut Renderer,
    ) -> Result<Option<HullMeshId>, RenderError> {
        if let Some(&id) = self.by_body.get(&body) {
            return Ok(Some(id));
        }
        let key = match shape {
            Shape::TriMesh(m) => std::sync::Arc::as_ptr(m) as usize as u64 ^ SURFACE_KEY,
            Shape::HeightField(f) => std::sync::Arc::as_ptr(f) as usize as u64 ^ SURFACE_KEY,
            _ => return Ok(None),
        };
        if let Some(&id) = self.by_content.get(&key) {
            self.by_body.insert(body, id);
            return Ok(Some(id));
        }
        let Some((vertices, triangles)) = surface_mesh(shape) else {
            return Ok(None);
        };
        let id = renderer.register_mesh(&vertices, &triangles)?;
        self.by_content.insert(key, id);
        self.by_body.insert(body, id);
        Ok(Some(id))
    }

    /// The mesh of a triangle (two flat faces) or of a shape drawn as the
    /// hull of its support points (support_mesh.rs), registered once per
    /// distinct shape: a user's shape by its `Arc`, any other by its
    /// parameters. `None` when there is nothing to draw (a degenerate
    /// shape).
    fn sampled_mesh(
        &mut self,
        body: (BodyId, u32),
        shape: &Shape,
        renderer: &mut Renderer,
    ) -> Result<Option<HullMeshId>, RenderError> {
        if let Some(&id) = self.by_body.get(&body) {
            return Ok(Some(id));
        }
        let key = match shape {
            Shape::Custom(custom) => {
                (std::sync::Arc::as_ptr(custom) as *const () as usize as u64) ^ CUSTOM_KEY
            }
            other => fnv1a(format!("{other:?}").bytes().map(u64::from)),
        };
        if let Some(&id) = self.by_content.get(&key) {
            self.by_body.insert(body, id);
            return Ok(Some(id));
        }
        let mesh = match shape {
            Shape::Triangle(t) => two_sided_triangle([t.a, t.b, t.c]),
            other => support_mesh(other),
        };
        let Some((vertices, triangles)) = mesh else {
            return Ok(None);
        };
        let id = renderer.register_mesh(&vertices, &triangles)?;
        self.by_content.insert(key, id);
        self.by_body.insert(body, id);
        Ok(Some(id))
    }

    fn hull_mesh(
        &mut self,
        body: (BodyId, u32),
        hull: &collide::ConvexHull,
        renderer: &mut Renderer,
    ) -> Result<HullMeshId, RenderError> {
        if let Some(&id) = self.by_body.get(&body) {
            return Ok(id);
        }
        let key = hull_key(hull);
        let id = match self.by_content.get(&key) {
            Some(&id) => id,
            None => {
                let (positions, triangles) = hull_triangles(hull);
                let id = renderer.register_hull(&positions, &triangles)?;
                self.by_content.insert(key, id);
                id
            }
        };
        self.by_body.insert(body, id);
        Ok(id)
    }
}

/// The colour of joint anchors and of the line between a joint's two
/// anchors (a distance joint's rod or rope, or another joint's error): a
/// dark slate, which reads as a pin on the light palette colours without
/// hiding small parts (a ragdoll's joints are 10 to 30 cm apart).
const JOINT_COLOR: Color = Color::rgb(0.12, 0.14, 0.2);

/// Size of a joint's anchor marker, pixels.
const JOINT_MARKER_PX: f32 = 3.0;

/// Length of a drawn joint axis, and of the frame x axes about it, metres:
/// about a ragdoll's limb radius times four, short of the next joint.
const JOINT_AXIS_LENGTH: f32 = 0.25;

/// Draws every joint: a small marker at each anchor, a line between the
/// two anchors where they differ (always for a distance joint); with
/// `axes`, body A's joint axis (z) in blue and body B's in green from the
/// anchor, with each body's frame x axis in the colour of its body's
/// axis at half length, so a hinge's turn and a ball joint's swing and
/// twist read at a glance, and the joint's limits in orange
/// (`joint_limit_lines.rs`). Poses are interpolated as the bodies' are, so
/// the markers stay on the drawn bodies.
fn draw_joints(sim: &Simulation, alpha: f32, axes: bool, frame: &mut FrameScene) {
    let world = &sim.world;
    for id in world.joints() {
        let Some(view) = world.joint(id) else { continue };
        // Each frame carried by its body's drawn (interpolated) pose.
        let drawn = |body: BodyId, frame_world: &Isometry3<f32>| -> Isometry3<f32> {
            match world.pose(body) {
                Some(pose) => {
                    let in_body = pose.inverse() * frame_world;
                    sim.interpolated(body.index(), pose, alpha) * in_body
                }
                None => *frame_world,
            }
        };
        let (fa, fb) = (drawn(view.body_a, &view.frame_a), drawn(view.body_b, &view.frame_b));
        let (pa, pb) = (Point3::from(fa.translation.vector), Point3::from(fb.translation.vector));
        frame.points.push(PointMarker {
            position: pa,
            size_px: JOINT_MARKER_PX,
            color: JOINT_COLOR,
        });
        let apart = (pa - pb).norm() > 1e-3;
        if apart || view.kind == crate::joint::JointKind::Distance {
            frame.points.push(PointMarker {
                position: pb,
                size_px: JOINT_MARKER_PX,
                color: JOINT_COLOR,
            });
            frame.lines.push(DebugLine { start: pa, end: pb, color: JOINT_COLOR });
        }
        if axes {
            for (f, p, color) in [(fa, pa, Color::BLUE), (fb, pb, Color::GREEN)] {
                let z = f.rotation * Vector3::z();
                let x = f.rotation * Vector3::x();
                frame.lines.push(DebugLine { start: p, end: p + z * JOINT_AXIS_LENGTH, color });
                let end = p + x * (0.5 * JOINT_AXIS_LENGTH);
                frame.lines.push(DebugLine { start: p, end, color });
            }
            limit_lines(&view, &fa, JOINT_AXIS_LENGTH, &mut frame.lines);
        }
    }
}

/// The tint of sensor shapes: a pale cyan, apart from the palette's
/// body colours and the grey of fixed bodies, a third opaque so that what
/// is inside a sensor shows through it.
pub(crate) const SENSOR_COLOR: Color = Color::rgba(0.55, 0.9, 0.95, 0.3);

/// Set in the content key of a user's shape (its `Arc`'s address), so that
/// it cannot equal a hull's or another shape's hash by accident of value.
const CUSTOM_KEY: u64 = 0xc057_0000_0000_0000;

/// Set in the content key of a mesh or heightfield (its `Arc`'s
/// address), apart from a user's shape's and from hashes of values.
const SURFACE_KEY: u64 = 0x5a4f_0000_0000_0000;

/// The key of part `piece` of the compound that is shape `k` of its body,
/// apart from the keys of the body's own shapes (below
/// [`MAX_BODY_SHAPES`](crate::MAX_BODY_SHAPES)).
fn part_key(k: usize, piece: usize) -> u32 {
    (k as u32).wrapping_add((piece as u32).wrapping_add(1).wrapping_mul(crate::MAX_BODY_SHAPES))
}

/// The radius of the thin capsule a segment is drawn as, m.
const SEGMENT_DRAW_RADIUS: f32 = 0.02;

/// The hull's faces fanned into triangles, in the hull's frame.
pub fn hull_triangles(hull: &collide::ConvexHull) -> (Vec<Point3<f32>>, Vec<[u32; 3]>) {
    let mut triangles = Vec::new();
    for face in hull.faces() {
        for k in 1..face.vertices.len().saturating_sub(1) {
            triangles.push([face.vertices[0], face.vertices[k], face.vertices[k + 1]]);
        }
    }
    (hull.vertices().to_vec(), triangles)
}

/// FNV-1a over the vertices' bit patterns: equal hulls share a mesh.
fn hull_key(hull: &collide::ConvexHull) -> u64 {
    fnv1a(hull.vertices().iter().flat_map(|v| v.coords.iter().map(|x| u64::from(x.to_bits()))))
}

/// FNV-1a over a sequence of words.
fn fnv1a(words: impl Iterator<Item = u64>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for word in words {
        h ^= word;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Whether a fixed body is the SCENES.md ground (a wide flat box whose top
/// face is y = 0), which the renderer's grid already shows.
fn is_scene_ground(shape: &Shape, pose: &collide::nalgebra::Isometry3<f32>) -> bool {
    match shape {
        Shape::Cuboid(c) => {
            let top = pose.translation.y + c.half_extents.y;
            pose.rotation.angle() < 1e-6
                && top.abs() < 1e-4
                && c.half_extents.x >= 10.0
                && c.half_extents.z >= 10.0
        }
        _ => false,
    }
}

/// A saturated colour for index `i`: hues spaced by the golden angle, so
/// neighbours in creation order differ clearly.
pub fn palette(i: usize) -> Color {
    let hue = (i as f32 * 0.618_034).fract();
    let (r, g, b) = hsv_to_rgb(hue, 0.65, 0.92);
    Color::rgb(r, g, b)
}

fn hsv_to_rgb(h: f32, s: f32, v: f32) -> (f32, f32, f32) {
    let h6 = h * 6.0;
    let sector = h6.floor();
    let f = h6 - sector;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match sector as i32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    }
}
