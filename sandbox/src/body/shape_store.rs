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

use collide::Shape;
use collide::nalgebra::{Isometry3, Point3};

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
    /// with no product to round.
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
    /// frame (kept by the broad phase; meaningless for a body's only
    /// shape, whose box is its body's).
    pub fat: Vec<Aabb>,
    /// Live shapes with a rolling resistance: the solver skips its
    /// rolling rows in the usual world with none.
    pub rolling_shapes: usize,
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
                self.local_poses.resize(self.shapes.len(), None);
                self.materials.resize(self.shapes.len(), ShapeMaterial::default());
                self.filters.resize(self.shapes.len(), Filter::default());
                self.sensors.resize(self.shapes.len(), false);
                self.densities.resize(self.shapes.len(), 0.0);
                self.bodies.resize(self.shapes.len(), 0);
                let empty = Aabb::new(Point3::origin(), Point3::origin());
                self.fat.resize(self.shapes.len(), empty);
                debug_assert_eq!(self.shapes.len(), first as usize + n);
                ShapeRange { first, count }
            }
        };
        for (k, s) in range.slots().zip(shapes) {
            self.shapes[k] = s.shape.clone();
            self.local_poses[k] = (s.local_pose != Isometry3::identity()).then_some(s.local_pose);
            self.materials[k] = ShapeMaterial {
                friction: s.friction,
                restitution: s.restitution,
                rolling_resistance: s.rolling_resistance,
                rolling_radius: rolling_radius(&s.shape),
            };
            self.rolling_shapes += usize::from(s.rolling_resistance > 0.0);
            self.filters[k] = s.filter;
            self.sensors[k] = s.sensor;
            self.densities[k] = s.density;
            self.bodies[k] = body;
        }
        range
    }

    /// Makes room for `additional` more shape slots in every column, so
    /// that storing them does not grow the columns one doubling at a time.
    pub fn reserve(&mut self, additional: usize) {
        self.shapes.reserve(additional);
        self.local_poses.reserve(additional);
        self.materials.reserve(additional);
        self.filters.reserve(additional);
        self.sensors.reserve(additional);
        self.densities.reserve(additional);
        self.bodies.reserve(additional);
        self.fat.reserve(additional);
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
        self.free.push(range);
    }

    /// The world pose of the shape in slot `k` of a body at `body_pose`.
    #[inline]
    pub fn world_pose(&self, k: usize, body_pose: &Isometry3<f32>) -> Isometry3<f32> {
        match &self.local_poses[k] {
            None => *body_pose,
            Some(local) => body_pose * local,
        }
    }

    /// The shape in slot `k` as the [`BodyShape`] it was made from.
    pub fn describe(&self, k: usize) -> BodyShape {
        BodyShape {
            shape: self.shapes[k].clone(),
            local_pose: self.local_poses[k].unwrap_or_else(Isometry3::identity),
            density: self.densities[k],
            friction: self.materials[k].friction,
            restitution: self.materials[k].restitution,
            rolling_resistance: self.materials[k].rolling_resistance,
            filter: self.filters[k],
            sensor: self.sensors[k],
        }
    }
}
