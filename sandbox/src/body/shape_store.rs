//! The shapes of every body, one slot per shape, structure-of-arrays: the
//! narrow phase reads a pair's two shapes and poses, the solver their
//! materials, the pair filter their filters and sensor flags, each from its
//! own contiguous array. A body's shapes take consecutive slots (its
//! [`ShapeRange`]); a removed body's range goes on a free list and is
//! reused, last in first out, by a body with as many shapes, so a world of
//! one-shape bodies keeps shape slot equal to body slot.
//!
//! A shape of a body with several shapes also has its own fat box here,
//! which the broad phase refits and the shape-pair expansion tests (see
//! `collision/shape_pairs.rs`): the second level of the broad phase.
//!
//! Two columns are kept only as far as they are needed, so that a world of
//! a million fixed one-shape bodies at their origins (large-world's tiles)
//! pays nothing for them (issue 39, 56 bytes a body): the fat boxes cover
//! the slots of every body of several shapes, and the local poses those of
//! every body with a shape away from its origin (each such body's whole
//! range). Past their end, a shape has no fat box of its own and sits at
//! its body's origin; [`ShapeStore::local_pose`] reads them so.

use collide::nalgebra::{Isometry3, Point3};
use collide::{Shape, SupportMap};

use crate::body::body_shape::BodyShape;
use crate::body::filter::Filter;
use crate::collision::aabb::Aabb;
use crate::solver::rolling_resistance::rolling_radius;

/// A shape's surface material, as given in its [`BodyShape`] (checked:
/// friction and rolling resistance zero or positive, restitution in
/// `[0, 1]`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ShapeMaterial {
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution coefficient.
    pub restitution: f32,
    /// Rolling resistance (zero or positive).
    pub rolling_resistance: f32,
    /// The radius the shape rolls at, for rolling resistance
    /// ([`rolling_radius`]).
    pub rolling_radius: f32,
}

/// A ball holding every point of a shape, in its body's frame: the ball
/// around the shape's box at its pose in the body (so not the smallest
/// ball, but one found once, when the body is added). The narrow phase
/// bounds how far a shape of a body with several shapes has moved relative
/// to the other body of a pair with it (contact recycling's drift, the
/// culling of pairs proven apart), so that a shape near a turning body's
/// origin is not treated as moving as far as its farthest tip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ShapeBall {
    /// The ball's centre, in the body's frame.
    pub centre: Point3<f32>,
    /// The ball's radius (m).
    pub radius: f32,
}

impl ShapeBall {
    /// The ball around `shape`'s box at `body_from_shape`, its pose in the
    /// body's frame.
    pub fn around(shape: &Shape, body_from_shape: &Isometry3<f32>) -> Self {
        let aabb = shape.aabb(body_from_shape);
        Self { centre: aabb.center(), radius: 0.5 * (aabb.max - aabb.min).norm() }
    }
}

/// The consecutive shape slots of one body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ShapeRange {
    /// The slot of the body's first shape.
    pub first: u32,
    /// How many shapes the body has (at least one for a live body).
    pub count: u32,
}

impl ShapeRange {
    /// The slots, in the body's order of its shapes.
    #[inline]
    pub fn slots(self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }
}

/// Every shape of every body, by shape slot.
#[derive(Debug, Default)]
pub(crate) struct ShapeStore {
    /// The shapes, each in its own frame.
    pub shapes: Vec<Shape>,
    /// The shape's frame in its body's (`body_from_shape`), `None` at the
    /// body's origin: the shape's world pose is then the body's exactly,
    /// with no product to round. Only as long as the last body with a
    /// shape away from its origin needs (see the module docs): read it
    /// through [`Self::local_pose`].
    pub local_poses: Vec<Option<Isometry3<f32>>>,
    /// Friction and restitution.
    pub materials: Vec<ShapeMaterial>,
    /// Collision filters.
    pub filters: Vec<Filter>,
    /// Whether the shape is a sensor.
    pub sensors: Vec<bool>,
    /// Densities, kg/m³ (read only to describe the shape back).
    pub densities: Vec<f32>,
    /// The body slot each shape belongs to.
    pub bodies: Vec<u32>,
    /// The fat box of each shape of a body with several shapes, world
    /// frame (kept by the broad phase; a body's only shape has none, its
    /// box being its body's). Only as long as the last body of several
    /// shapes needs (see the module docs).
    pub fat: Vec<Aabb>,
    /// A ball holding each shape of a body with several shapes, in its
    /// body's frame (see [`ShapeBall`]), kept as far as `fat` is: what the
    /// narrow phase bounds one shape's relative motion with, rather than
    /// its whole body's.
    pub balls: Vec<ShapeBall>,
    /// Live shapes with a rolling resistance: the solver skips its
    /// rolling rows in the usual world with none.
    pub rolling_shapes: usize,
    /// Live composite shapes (meshes, heightfields, compounds): the
    /// narrow phase cuts its pairs finer for the threads when there are
    /// any (see `collision/narrow_phase.rs`).
    pub composite_shapes: usize,
    /// Freed ranges, most recently freed last.
    free: Vec<ShapeRange>,
}

impl ShapeStore {
    /// Stores `shapes` of the body in slot `body` in consecutive slots: a
    /// freed range of the same length if there is one, else new slots.
    pub fn insert(&mut self, body: u32, shapes: &[BodyShape]) -> ShapeRange {
        let count = shapes.len() as u32;
        let reused = self.free.iter().rposition(|r| r.count == count);
        let range = match reused {
            Some(k) => self.free.remove(k),
            None => {
                let first = self.shapes.len() as u32;
                for s in shapes {
                    self.shapes.push(s.shape.clone());
                }
                let n = shapes.len();
                self.materials.resize(self.shapes.len(), ShapeMaterial::default());
                self.filters.resize(self.shapes.len(), Filter::default());
                self.sensors.resize(self.shapes.len(), false);
                self.densities.resize(self.shapes.len(), 0.0);
                self.bodies.resize(self.shapes.len(), 0);
                debug_assert_eq!(self.shapes.len(), first as usize + n);
                ShapeRange { first, count }
            }
        };
        // The two columns kept only as far as needed cover this body's
        // whole range when it needs them (or keep what they cover).
        let end = range.slots().end;
        if count > 1 && self.fat.len() < end {
            let empty = Aabb::new(Point3::origin(), Point3::origin());
            self.fat.resize(end, empty);
        }
        if count > 1 && self.balls.len() < end {
            self.balls.resize(end, ShapeBall { centre: Point3::origin(), radius: 0.0 });
        }
        let placed = shapes.iter().any(|s| s.local_pose != Isometry3::identity());
        if placed && self.local_poses.len() < end {
            self.local_poses.resize(end, None);
        }
        for (k, s) in range.slots().zip(shapes) {
            self.shapes[k] = s.shape.clone();
            if let Some(local) = self.local_poses.get_mut(k) {
                *local = (s.local_pose != Isometry3::identity()).then_some(s.local_pose);
            }
            self.materials[k] = ShapeMaterial {
                friction: s.friction,
                restitution: s.restitution,
                rolling_resistance: s.rolling_resistance,
                rolling_radius: rolling_radius(&s.shape),
            };
            self.rolling_shapes += usize::from(s.rolling_resistance > 0.0);
            self.composite_shapes += usize::from(s.shape.is_composite());
            self.filters[k] = s.filter;
            self.sensors[k] = s.sensor;
            self.densities[k] = s.density;
            self.bodies[k] = body;
            if count > 1 {
                self.balls[k] = ShapeBall::around(&s.shape, &s.local_pose);
            }
        }
        range
    }

    /// Makes room for `additional` more shape slots in every column, so
    /// that storing them does not grow the columns one doubling at a time.
    pub fn reserve(&mut self, additional: usize) {
        self.shapes.reserve(additional);
        self.materials.reserve(additional);
        self.filters.reserve(additional);
        self.sensors.reserve(additional);
        self.densities.reserve(additional);
        self.bodies.reserve(additional);
    }

    /// Whether a freed run of `count` shape slots waits to be reused (so a
    /// body of `count` shapes would take no new slots).
    pub fn has_free_range(&self, count: usize) -> bool {
        self.free.iter().any(|r| r.count as usize == count)
    }

    /// Frees the slots of a removed body.
    pub fn free(&mut self, range: ShapeRange) {
        let rolling = range.slots().filter(|&k| self.materials[k].rolling_resistance > 0.0);
        self.rolling_shapes -= rolling.count();
        self.composite_shapes -= range.slots().filter(|&k| self.shapes[k].is_composite()).count();
        self.free.push(range);
    }

    /// The frame of the shape in slot `k` in its body's, `None` at the
    /// body's origin.
    #[inline]
    pub fn local_pose(&self, k: usize) -> Option<&Isometry3<f32>> {
        self.local_poses.get(k).and_then(Option::as_ref)
    }

    /// The local poses of the shapes in `range` (a body's), or an empty
    /// slice when all of them sit at the body's origin.
    pub fn local_poses_of(&self, range: ShapeRange) -> &[Option<Isometry3<f32>>] {
        self.local_poses.get(range.slots()).unwrap_or(&[])
    }

    /// The world pose of the shape in slot `k` of a body at `body_pose`.
    #[inline]
    pub fn world_pose(&self, k: usize, body_pose: &Isometry3<f32>) -> Isometry3<f32> {
        match self.local_pose(k) {
            None => *body_pose,
            Some(local) => body_pose * local,
        }
    }

    /// The shape in slot `k` as the [`BodyShape`] it was made from.
    pub fn describe(&self, k: usize) -> BodyShape {
        BodyShape {
            shape: self.shapes[k].clone(),
            local_pose: self.local_pose(k).copied().unwrap_or_else(Isometry3::identity),
            density: self.densities[k],
            friction: self.materials[k].friction,
            restitution: self.materials[k].restitution,
            rolling_resistance: self.materials[k].rolling_resistance,
            filter: self.filters[k],
            sensor: self.sensors[k],
        }
    }
}
