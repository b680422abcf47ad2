//! The probe's state: two shapes (in 3D or in 2D), A fixed and B moved,
//! turned and dragged by the user; the query of the current pose, recorded;
//! the iteration the user is stepping through; and the resolve toggle,
//! which moves B out by the penetration vector every frame. Everything here
//! is free of the window and the GPU, so the app's input tests and the unit
//! tests drive it directly.
//!
//! Layout: A sits left of the world origin and the Minkowski difference is
//! drawn to the right, with its own origin at [`Probe::minkowski_origin`];
//! in 3D both float above the ground, in 2D both lie in the plane z = 0.

use collide::dim2::{Circle, Shape2};
use collide::nalgebra::{
    Isometry2, Isometry3, Point2, Point3, Translation3, UnitComplex, UnitQuaternion, Vector2,
    Vector3,
};
use collide::{Contact, Shape, SupportMap};

use crate::probe::minkowski_mesh::{
    HullMesh, difference_mesh, difference_polygon2, shape_mesh, shape_outline2,
};
use crate::probe::shape_choice::{ShapeKind, ShapeKind2};
use crate::probe::trace2::Trace2;
use crate::probe::trace3::Trace3;
use collide::{Ray, RayCast, try_cast_ray};

/// How far one key press moves B, metres.
pub const MOVE_STEP: f32 = 0.05;
/// How far one key press turns B, radians (5°).
pub const TURN_STEP: f32 = 5.0 * core::f32::consts::PI / 180.0;
/// Resolve pushes stop once the depth is below this, metres: the queries'
/// accuracy on metre-sized shapes is about 1e-6 m, so this is "touching"
/// with room to spare, and stops the push from dithering at rounding level.
pub const RESOLVED_DEPTH: f32 = 1e-5;
/// Longest a ray may reach to grab B, metres.
const GRAB_REACH: f32 = 1.0e3;

/// Where A sits in 3D, and the 3D Minkowski drawing's origin.
const A_CENTER_3D: Vector3<f32> = Vector3::new(-2.4, 1.4, 0.0);
const MINKOWSKI_ORIGIN_3D: Vector3<f32> = Vector3::new(2.4, 1.4, 0.0);
/// B's starting offset from A in 3D: overlapping for every pair of shapes.
const B_OFFSET_3D: Vector3<f32> = Vector3::new(0.55, 0.2, 0.15);
/// The same in 2D.
const A_CENTER_2D: Vector2<f32> = Vector2::new(-2.4, 0.0);
const MINKOWSKI_ORIGIN_2D: Vector2<f32> = Vector2::new(2.4, 0.0);
const B_OFFSET_2D: Vector2<f32> = Vector2::new(0.6, 0.25);

/// Whether the probe works in 3D or in the plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// Shapes in space, a perspective camera.
    Three,
    /// Shapes in the plane z = 0, an orthographic camera.
    Two,
}

/// Something the user asked the probe to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProbeAction {
    /// Move B by this world vector (2D: its x and y).
    Move(Vector3<f32>),
    /// Turn B by `angle` radians about world axis `axis` (0, 1, 2 for x,
    /// y, z); in 2D every axis turns B in the plane.
    Turn {
        /// 0, 1 or 2.
        axis: usize,
        /// Radians, counter-clockwise about the axis.
        angle: f32,
    },
    /// Show the next recorded iteration (from the final state: the first).
    NextStep,
    /// Show the previous recorded iteration.
    PreviousStep,
    /// Show the final state again.
    FinalState,
    /// Push B out by the penetration vector every frame, or stop.
    ToggleResolve,
    /// Switch between 3D and 2D.
    ToggleDim,
    /// Choose shape A (3D).
    ShapeA(ShapeKind),
    /// Choose shape B (3D).
    ShapeB(ShapeKind),
    /// Choose shape A (2D).
    ShapeA2(ShapeKind2),
    /// Choose shape B (2D).
    ShapeB2(ShapeKind2),
    /// Draw a new random cloud for the cloud hulls.
    NewCloud,
    /// Put B back where it started.
    ResetPose,
}

/// What the probe draws for the current pose, rebuilt when it changes.
#[derive(Clone, Debug, Default)]
pub struct Pictures {
    /// A's and B's meshes in their own frames (3D).
    pub shapes: [Option<HullMesh>; 2],
    /// The difference of the shapes, in A's frame (3D).
    pub difference: Option<HullMesh>,
    /// The difference of the cores when the shapes are rounded (3D).
    pub core_difference: Option<HullMesh>,
    /// A's and B's outlines in their own frames (2D).
    pub outlines: [Vec<Point2<f32>>; 2],
    /// The 2D difference polygon, in A's frame.
    pub polygon: Vec<Point2<f32>>,
}

/// A drag of B in progress: the grabbed point follows the cursor in a plane
/// facing the camera (3D) or in the plane itself (2D).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Grab {
    /// The grabbed point, world frame, when grabbed.
    point: Point3<f32>,
    /// The plane's normal (towards the camera).
    normal: Vector3<f32>,
    /// B's position minus the grabbed point.
    offset: Vector3<f32>,
}

/// The probe.
#[derive(Clone, Debug)]
pub struct Probe {
    /// 3D or 2D.
    pub dim: Dim,
    /// The 3D shapes' kinds, A then B.
    pub kinds: [ShapeKind; 2],
    /// The 2D shapes' kinds, A then B.
    pub kinds2: [ShapeKind2; 2],
    /// The seed of the random cloud hull.
    pub cloud_seed: u64,
    shapes: [Shape; 2],
    shapes2: [Shape2; 2],
    /// A's pose (3D); fixed.
    pub pose_a: Isometry3<f32>,
    /// B's pose (3D).
    pub pose_b: Isometry3<f32>,
    /// A's pose (2D); fixed.
    pub pose_a2: Isometry2<f32>,
    /// B's pose (2D).
    pub pose_b2: Isometry2<f32>,
    /// Whether B is pushed out by the penetration vector every frame.
    pub resolve: bool,
    /// The recorded iteration shown, or `None` for the final state.
    pub step: Option<usize>,
    trace3: Option<Trace3>,
    trace2: Option<Trace2>,
    pictures: Pictures,
    /// Why the last query failed, if it did.
    pub error: Option<String>,
    grab: Option<Grab>,
    dirty: bool,
}

impl Default for Probe {
    fn default() -> Self {
        Self::new(Dim::Three, [ShapeKind::Cuboid, ShapeKind::Icosahedron])
    }
}

impl Probe {
    /// A probe in `dim` with the 3D shapes `kinds` (2D: rectangle and
    /// polygon), B at its starting pose.
    pub fn new(dim: Dim, kinds: [ShapeKind; 2]) -> Self {
        let cloud_seed = 1;
        let kinds2 = [ShapeKind2::Rectangle, ShapeKind2::Polygon];
        let mut probe = Self {
            dim,
            kinds,
            kinds2,
            cloud_seed,
            shapes: kinds.map(|k| k.build(cloud_seed)),
            shapes2: kinds2.map(ShapeKind2::build),
            pose_a: Isometry3::from_parts(
                Translation3::from(A_CENTER_3D),
                UnitQuaternion::identity(),
            ),
            pose_b: Isometry3::identity(),
            pose_a2: Isometry2::new(A_CENTER_2D, 0.0),
            pose_b2: Isometry2::identity(),
            resolve: false,
            step: None,
            trace3: None,
            trace2: None,
            pictures: Pictures::default(),
            error: None,
            grab: None,
            dirty: true,
        };
        probe.reset_pose();
        probe.refresh();
        probe
    }

    /// A's and B's 3D shapes.
    pub fn shapes(&self) -> &[Shape; 2] {
        &self.shapes
    }

    /// A's and B's 2D shapes.
    pub fn shapes2(&self) -> &[Shape2; 2] {
        &self.shapes2
    }

    /// Sets the 2D shapes' kinds.
    pub fn set_kinds2(&mut self, kinds2: [ShapeKind2; 2]) {
        self.kinds2 = kinds2;
        self.shapes2 = kinds2.map(ShapeKind2::build);
        self.changed();
    }

    /// The 3D query of the current pose (after [`refresh`](Self::refresh)).
    pub fn trace3(&self) -> Option<&Trace3> {
        self.trace3.as_ref()
    }

    /// The 2D query of the current pose (after [`refresh`](Self::refresh)).
    pub fn trace2(&self) -> Option<&Trace2> {
        self.trace2.as_ref()
    }

    /// The meshes and polygons of the current pose.
    pub fn pictures(&self) -> &Pictures {
        &self.pictures
    }

    /// The origin of the Minkowski drawing, world frame.
    pub fn minkowski_origin(&self) -> Point3<f32> {
        match self.dim {
            Dim::Three => Point3::from(MINKOWSKI_ORIGIN_3D),
            Dim::Two => Point3::new(MINKOWSKI_ORIGIN_2D.x, MINKOWSKI_ORIGIN_2D.y, 0.0),
        }
    }

    /// Distance, or minus the depth, of the current pose in the current dim.
    pub fn signed_distance(&self) -> Option<f32> {
        match self.dim {
            Dim::Three => self.trace3.as_ref().map(Trace3::signed_distance),
            Dim::Two => self.trace2.as_ref().map(Trace2::signed_distance),
        }
    }

    /// Whether the shapes intersect in the current dim.
    pub fn intersecting(&self) -> bool {
        match self.dim {
            Dim::Three => self.trace3.as_ref().is_some_and(Trace3::intersecting),
            Dim::Two => self.trace2.as_ref().is_some_and(Trace2::intersecting),
        }
    }

    /// Number of recorded steps of the current query.
    pub fn step_count(&self) -> usize {
        match self.dim {
            Dim::Three => self.trace3.as_ref().map_or(0, Trace3::step_count),
            Dim::Two => self.trace2.as_ref().map_or(0, Trace2::step_count),
        }
    }

    /// B's position in the current dim, world frame (z = 0 in 2D).
    pub fn position_b(&self) -> Point3<f32> {
        match self.dim {
            Dim::Three => Point3::from(self.pose_b.translation.vector),
            Dim::Two => {
                let t = self.pose_b2.translation.vector;
                Point3::new(t.x, t.y, 0.0)
            }
        }
    }

    /// Carries out `action`, then re-runs the query if the pose or the
    /// shapes changed.
    pub fn apply(&mut self, action: ProbeAction) {
        match action {
            ProbeAction::Move(delta) => self.move_b(delta),
            ProbeAction::Turn { axis, angle } => self.turn_b(axis, angle),
            ProbeAction::NextStep => {
                let n = self.step_count();
                self.step = match self.step {
                    _ if n == 0 => None,
                    None => Some(0),
                    Some(i) => Some((i + 1).min(n - 1)),
                };
            }
            ProbeAction::PreviousStep => {
                let n = self.step_count();
                self.step = match self.step {
                    _ if n == 0 => None,
                    None => Some(n - 1),
                    Some(i) => Some(i.saturating_sub(1)),
                };
            }
            ProbeAction::FinalState => self.step = None,
            ProbeAction::ToggleResolve => self.resolve = !self.resolve,
            ProbeAction::ToggleDim => {
                self.dim = match self.dim {
                    Dim::Three => Dim::Two,
                    Dim::Two => Dim::Three,
                };
                self.grab = None;
                self.changed();
            }
            ProbeAction::ShapeA(k) => self.set_kind(0, k),
            ProbeAction::ShapeB(k) => self.set_kind(1, k),
            ProbeAction::ShapeA2(k) => self.set_kinds2([k, self.kinds2[1]]),
            ProbeAction::ShapeB2(k) => self.set_kinds2([self.kinds2[0], k]),
            ProbeAction::NewCloud => {
                self.cloud_seed = self.cloud_seed.wrapping_add(1);
                self.shapes = self.kinds.map(|k| k.build(self.cloud_seed));
                self.changed();
            }
            ProbeAction::ResetPose => self.reset_pose(),
        }
        self.refresh();
    }

    /// Sets the 3D kind of shape `which` (0: A, 1: B).
    fn set_kind(&mut self, which: usize, kind: ShapeKind) {
        self.kinds[which] = kind;
        self.shapes[which] = kind.build(self.cloud_seed);
        self.changed();
    }

    /// Puts B at its starting pose (both dims).
    pub fn reset_pose(&mut self) {
        self.pose_b = Isometry3::from_parts(
            Translation3::from(A_CENTER_3D + B_OFFSET_3D),
            UnitQuaternion::from_euler_angles(0.3, 0.5, 0.2),
        );
        self.pose_b2 = Isometry2::new(A_CENTER_2D + B_OFFSET_2D, 0.35);
        self.changed();
    }

    /// Puts B's centre at `offset` from A's (three numbers in 3D, two in
    /// 2D; missing ones count as zero).
    pub fn set_b_offset(&mut self, offset: &[f32]) {
        let o = |i: usize| offset.get(i).copied().unwrap_or(0.0);
        match self.dim {
            Dim::Three => {
                self.pose_b.translation.vector =
                    self.pose_a.translation.vector + Vector3::new(o(0), o(1), o(2));
            }
            Dim::Two => {
                self.pose_b2.translation.vector =
                    self.pose_a2.translation.vector + Vector2::new(o(0), o(1));
            }
        }
        self.changed();
        self.refresh();
    }

    /// Sets B's rotation: roll, pitch, yaw in radians in 3D (nalgebra's
    /// `from_euler_angles`), one angle in 2D; missing ones count as zero.
    pub fn set_b_angles(&mut self, angles: &[f32]) {
        let a = |i: usize| angles.get(i).copied().unwrap_or(0.0);
        match self.dim {
            Dim::Three => {
                self.pose_b.rotation = UnitQuaternion::from_euler_angles(a(0), a(1), a(2))
            }
            Dim::Two => self.pose_b2.rotation = UnitComplex::new(a(0)),
        }
        self.changed();
        self.refresh();
    }

    /// Moves B by `delta` (2D: its x and y).
    pub fn move_b(&mut self, delta: Vector3<f32>) {
        match self.dim {
            Dim::Three => self.pose_b.translation.vector += delta,
            Dim::Two => self.pose_b2.translation.vector += delta.xy(),
        }
        self.changed();
    }

    /// Turns B by `angle` about world axis `axis` through B's centre (2D:
    /// in the plane, whatever the axis).
    pub fn turn_b(&mut self, axis: usize, angle: f32) {
        match self.dim {
            Dim::Three => {
                let axis = match axis {
                    0 => Vector3::x_axis(),
                    1 => Vector3::y_axis(),
                    _ => Vector3::z_axis(),
                };
                self.pose_b.rotation =
                    UnitQuaternion::from_axis_angle(&axis, angle) * self.pose_b.rotation;
            }
            Dim::Two => self.pose_b2.rotation = UnitComplex::new(angle) * self.pose_b2.rotation,
        }
        self.changed();
    }

    /// One frame: with resolve on and the shapes penetrating deeper than
    /// [`RESOLVED_DEPTH`], moves B out by the penetration vector
    /// (`depth * normal`, which separates the pair by definition) and
    /// re-runs the query. Returns whether B moved.
    pub fn tick(&mut self) -> bool {
        self.refresh();
        if !self.resolve {
            return false;
        }
        let push = match self.dim {
            Dim::Three => match self.trace3.as_ref().map(|t| t.contact) {
                Some(Contact::Penetrating(p)) if p.depth > RESOLVED_DEPTH => {
                    Some(p.normal.into_inner() * p.depth)
                }
                _ => None,
            },
            Dim::Two => match self.trace2.as_ref().map(|t| t.contact) {
                Some(collide::dim2::Contact2::Penetrating(p)) if p.depth > RESOLVED_DEPTH => {
                    let v = p.normal.into_inner() * p.depth;
                    Some(Vector3::new(v.x, v.y, 0.0))
                }
                _ => None,
            },
        };
        match push {
            Some(v) => {
                self.move_b(v);
                self.refresh();
                true
            }
            None => false,
        }
    }

    /// Starts dragging B if `ray` (3D) hits it; the drag plane faces the
    /// ray. Returns whether B was grabbed.
    pub fn grab(&mut self, ray: &Ray) -> bool {
        if self.dim != Dim::Three {
            return false;
        }
        // A ray from inside B grabs it where it starts; a query error (a
        // non-finite ray) grabs nothing.
        let toi = match try_cast_ray(&self.shapes[1], &self.pose_b, ray, GRAB_REACH) {
            Ok(RayCast::Hit { toi, .. }) => toi,
            Ok(RayCast::StartsInside) => 0.0,
            _ => return false,
        };
        let point = ray.point_at(toi);
        let normal = -ray.dir.normalize();
        self.grab =
            Some(Grab { point, normal, offset: self.pose_b.translation.vector - point.coords });
        true
    }

    /// Starts dragging B if the plane point `point` (2D) lies in it.
    pub fn grab2(&mut self, point: Point2<f32>) -> bool {
        if self.dim != Dim::Two {
            return false;
        }
        let at = Isometry2::new(point.coords, 0.0);
        if !collide::dim2::intersects2(&self.shapes2[1], &self.pose_b2, &Circle::new(0.0), &at) {
            return false;
        }
        let p = Point3::new(point.x, point.y, 0.0);
        let t = self.pose_b2.translation.vector;
        self.grab = Some(Grab {
            point: p,
            normal: Vector3::z(),
            offset: Vector3::new(t.x, t.y, 0.0) - p.coords,
        });
        true
    }

    /// Whether a drag is in progress.
    pub fn dragging(&self) -> bool {
        self.grab.is_some()
    }

    /// Moves a dragged B so that the grabbed point follows `ray` (3D) in
    /// the drag plane. Rays parallel to the plane are ignored.
    pub fn drag_to(&mut self, ray: &Ray) {
        let Some(g) = self.grab else { return };
        let along = g.normal.dot(&ray.dir);
        let t = g.normal.dot(&(g.point - ray.origin)) / along;
        if !(t.is_finite() && t > 0.0) {
            return;
        }
        self.pose_b.translation.vector = ray.point_at(t).coords + g.offset;
        self.changed();
        self.refresh();
    }

    /// Moves a dragged B so that the grabbed point is at `point` (2D).
    pub fn drag2_to(&mut self, point: Point2<f32>) {
        let Some(g) = self.grab else { return };
        if !(point.x.is_finite() && point.y.is_finite()) {
            return;
        }
        self.pose_b2.translation.vector = point.coords + g.offset.xy();
        self.changed();
        self.refresh();
    }

    /// Ends a drag.
    pub fn release(&mut self) {
        self.grab = None;
    }

    fn changed(&mut self) {
        self.dirty = true;
    }

    /// Re-runs the query and rebuilds the pictures if anything changed
    /// since the last call. A step index past the new query's steps falls
    /// back to the final state.
    pub fn refresh(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        self.error = None;
        match self.dim {
            Dim::Three => {
                let [a, b] = &self.shapes;
                match Trace3::run(a, &self.pose_a, b, &self.pose_b) {
                    Ok(t) => self.trace3 = Some(t),
                    Err(e) => {
                        self.trace3 = None;
                        self.error = Some(e.to_string());
                    }
                }
                let b_in_a = self.pose_a.inv_mul(&self.pose_b);
                let rounded = a.margin() + b.margin() > 0.0;
                self.pictures.shapes = [shape_mesh(a), shape_mesh(b)];
                self.pictures.difference = difference_mesh(a, b, &b_in_a, false);
                self.pictures.core_difference =
                    if rounded { difference_mesh(a, b, &b_in_a, true) } else { None };
            }
            Dim::Two => {
                let [a, b] = &self.shapes2;
                match Trace2::run(a, &self.pose_a2, b, &self.pose_b2) {
                    Ok(t) => self.trace2 = Some(t),
                    Err(e) => {
                        self.trace2 = None;
                        self.error = Some(e.to_string());
                    }
                }
                let b_in_a = self.pose_a2.inv_mul(&self.pose_b2);
                self.pictures.outlines = [shape_outline2(a), shape_outline2(b)];
                self.pictures.polygon = difference_polygon2(a, b, &b_in_a);
            }
        }
        if self.step.is_some_and(|i| i >= self.step_count()) {
            self.step = None;
        }
    }
}
