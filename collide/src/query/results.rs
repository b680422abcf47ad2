//! The answers of the 3D queries, as the public API returns them:
//! [`Proximity`] (how far apart), [`Penetration`] (how deep), [`Contact`]
//! (either), plus the crate's own [`Separation`] (a distance with its
//! normal). They live apart from the functions that compute them so that
//! the closed forms (`sphere_cuboid`, `box_box_depth`, `box_box_distance`)
//! and the general path (`api`) share them without importing each other.

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use crate::query::frames::rotate;

/// How far apart two shapes are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proximity {
    /// The shapes overlap or touch.
    Intersecting,
    /// The shapes are disjoint.
    Separated {
        /// Euclidean distance between the shapes, in metres.
        distance: f32,
        /// Point of A closest to B, world frame, on A's surface.
        point_a: Point3<f32>,
        /// Point of B closest to A, world frame, on B's surface.
        point_b: Point3<f32>,
    },
}

/// How deeply two overlapping shapes penetrate, and along which direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Length of the smallest translation of B that separates the shapes, in
    /// metres. Zero for shapes that just touch.
    pub depth: f32,
    /// Unit direction from A to B, world frame: moving B by `depth * normal`
    /// separates the shapes.
    pub normal: Unit<Vector3<f32>>,
    /// Point of A deepest inside B, world frame.
    pub point_a: Point3<f32>,
    /// Point of B deepest inside A, world frame; `point_a - point_b = depth * normal`.
    pub point_b: Point3<f32>,
}

/// The contact state of a pair: separated with a distance, or penetrating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Contact {
    /// The shapes are disjoint.
    Separated {
        /// Distance between the shapes, in metres (positive).
        distance: f32,
        /// Unit direction from A's closest point to B's, world frame.
        normal: Unit<Vector3<f32>>,
        /// Point of A closest to B, world frame.
        point_a: Point3<f32>,
        /// Point of B closest to A, world frame.
        point_b: Point3<f32>,
    },
    /// The shapes overlap or touch.
    Penetrating(Penetration),
}

/// Two shapes a positive distance apart, with the normal GJK ended on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separation {
    /// Distance between the shapes.
    pub(crate) distance: f32,
    /// Unit direction from A to B, from GJK's last search direction (or
    /// the closed form's), not from the difference of the witness points:
    /// on a large shape the witness points carry the rounding of its far
    /// vertices (1e-3 m on a 20 km ground slab), which tilts a normal
    /// formed from a centimetre gap between them by 0.1 rad.
    pub(crate) normal: Unit<Vector3<f32>>,
    /// Point of A closest to B.
    pub(crate) point_a: Point3<f32>,
    /// Point of B closest to A.
    pub(crate) point_b: Point3<f32>,
}

impl Contact {
    /// The contact moved from A's frame to the world by A's pose. Always
    /// inlined: see `point_box_contact`.
    #[inline(always)]
    pub(crate) fn to_world(self, world_from_a: &Isometry3<f32>) -> Self {
        let r = &world_from_a.rotation;
        let turn = |n: Unit<Vector3<f32>>| Unit::new_unchecked(rotate(r, &n));
        let moved =
            |p: Point3<f32>| Point3::from(rotate(r, &p.coords) + world_from_a.translation.vector);
        match self {
            Contact::Separated { distance, normal, point_a, point_b } => Contact::Separated {
                distance,
                normal: turn(normal),
                point_a: moved(point_a),
                point_b: moved(point_b),
            },
            Contact::Penetrating(p) => Contact::Penetrating(Penetration {
                depth: p.depth,
                normal: turn(p.normal),
                point_a: moved(p.point_a),
                point_b: moved(p.point_b),
            }),
        }
    }
}
