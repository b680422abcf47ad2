//! The manifold types: [`ContactManifold`] (a normal and up to
//! [`MAX_MANIFOLD_POINTS`] [`ManifoldPoint`]s in a fixed-capacity array) and
//! [`ManifoldOutcome`], what [`contact_manifold`](crate::contact_manifold)
//! returns.

use arrayvec::ArrayVec;
use nalgebra::{Point3, Vector3};

/// Most points a manifold holds: four span a face contact's area.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// One contact point of a [`ContactManifold`], world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint {
    /// The point midway between the two surfaces, where a solver applies
    /// the contact's impulse.
    pub point: Point3<f32>,
    /// The point on A's surface.
    pub point_a: Point3<f32>,
    /// The point on B's surface. `point_b - point_a` is
    /// `separation * normal` except where a clipped face point's foot on
    /// the other shape's face is taken along that face's normal (a deep
    /// contact whose normal leans from the face), so that both points stay
    /// on the surfaces.
    pub point_b: Point3<f32>,
    /// Signed distance between the surfaces along the manifold's normal:
    /// negative when the shapes overlap there, positive for a predicted
    /// (speculative) contact.
    pub separation: f32,
    /// Feature id: the same pair of features (faces, edges, vertices, or a
    /// clip plane crossing of an edge) gives the same id on every frame, so
    /// a solver can match points across frames to warm start them. A vertex
    /// made by two clip planes in turn keeps only the low bits of the first
    /// crossing's ends, so two such vertices of one manifold can share an
    /// id; a solver should fall back on position (as the sandbox does).
    pub id: u32,
}

impl ManifoldPoint {
    /// A point from its midpoint, separation and id, with the two surface
    /// points half the separation either side along `normal`.
    #[inline]
    pub(crate) fn from_midpoint(
        point: Point3<f32>,
        separation: f32,
        id: u32,
        normal: &Vector3<f32>,
    ) -> Self {
        let half = normal * (0.5 * separation);
        Self { point, point_a: point - half, point_b: point + half, separation, id }
    }
}

/// The contact between two shapes: one unit normal from A to B and up to
/// [`MAX_MANIFOLD_POINTS`] points, all in the world frame. Fixed capacity:
/// building one never allocates.
///
/// ```
/// use collide::{contact_manifold, Cuboid, ManifoldOutcome, Shape};
/// use collide::nalgebra::{Isometry3, Vector3};
///
/// let ground: Shape = Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into();
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// // The cube rests 1 mm deep in the ground's top face (y = 0.5).
/// let pose_cube = Isometry3::translation(0.0, 0.999, 0.0);
/// let ManifoldOutcome::Within(m) =
///     contact_manifold(&ground, &Isometry3::identity(), &cube, &pose_cube, 0.01)
/// else {
///     panic!("resting cube")
/// };
/// assert_eq!(m.len(), 4);
/// assert!((m.normal.y - 1.0).abs() < 1e-6);
/// assert!(m.points().iter().all(|p| (p.separation + 0.001).abs() < 1e-5));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ContactManifold {
    /// Unit normal from A to B.
    pub normal: Vector3<f32>,
    points: ArrayVec<ManifoldPoint, MAX_MANIFOLD_POINTS>,
}

impl ContactManifold {
    /// A manifold with `normal` and no points.
    #[inline]
    pub(crate) fn empty(normal: Vector3<f32>) -> Self {
        Self { normal, points: ArrayVec::new_const() }
    }

    /// Adds a point (ignored when the manifold is full).
    #[inline]
    pub(crate) fn push(&mut self, point: ManifoldPoint) {
        if !self.points.is_full() {
            self.points.push(point);
        }
    }

    /// The contact points (at most [`MAX_MANIFOLD_POINTS`]).
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points
    }

    /// How many points the manifold holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether the manifold holds no point: every feature found lies
    /// beyond the prediction distance.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The smallest separation of the points (`f32::INFINITY` with none).
    #[inline]
    pub fn min_separation(&self) -> f32 {
        self.points.iter().map(|p| p.separation).fold(f32::INFINITY, f32::min)
    }
}

/// What [`contact_manifold`](crate::contact_manifold) found.
#[derive(Clone, Debug, PartialEq)]
pub enum ManifoldOutcome {
    /// The shapes are proven farther apart than the prediction distance.
    /// `distance_bound` is a lower bound on their distance (the exact
    /// distance for pairs that run GJK, a separating axis's gap for two
    /// cuboids).
    Separated {
        /// A lower bound on the distance between the shapes.
        distance_bound: f32,
    },
    /// The shapes are within the prediction distance (or overlap): the
    /// manifold holds their points whose separation is at most the
    /// prediction distance. It holds at least one point except in rare
    /// near-threshold cases where every clipped point lies just beyond the
    /// prediction distance.
    Within(ContactManifold),
}
