//! Recording 2D GJK and EPA iterations, for visualisation and debugging:
//! the planar counterpart of [`crate::query::IterationLog`].
//!
//! The 2D algorithms are generic over a [`Recorder2`]. Every query but
//! [`try_contact_with2`](super::try_contact_with2) passes [`NoRecord2`], whose empty
//! inlined methods compile away. [`IterationLog2`] keeps every step in
//! memory (it allocates, which is fine for a caller who asked for a log).

use nalgebra::{Isometry2, Vector2};

use super::minkowski::SupportPoint2;

/// One GJK iteration, in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkStep2 {
    points: [SupportPoint2; 3],
    len: u8,
    /// The search direction (towards the origin from the current estimate).
    pub direction: Vector2<f32>,
    /// The support point found along `direction`.
    pub support: SupportPoint2,
}

impl GjkStep2 {
    /// A step from the simplex at its start (at most three points).
    pub(crate) fn new(
        simplex: &[SupportPoint2],
        direction: Vector2<f32>,
        support: SupportPoint2,
    ) -> Self {
        let mut points = [support; 3];
        let len = simplex.len().min(3);
        points[..len].copy_from_slice(&simplex[..len]);
        Self { points, len: len as u8, direction, support }
    }

    /// The simplex at the start of the iteration (empty for the first).
    pub fn simplex(&self) -> &[SupportPoint2] {
        &self.points[..usize::from(self.len)]
    }
}

/// One EPA iteration, in A's frame.
#[derive(Clone, Copy, Debug)]
pub struct EpaStep2<'p> {
    /// The polygon's vertices, counter-clockwise; edge `i` runs from vertex
    /// `i` to vertex `i + 1` (mod the count).
    pub vertices: &'p [SupportPoint2],
    /// Index of the edge closest to the origin.
    pub closest_edge: usize,
    /// The support point found along that edge's outward normal.
    pub support: SupportPoint2,
}

/// Receives each 2D GJK and EPA iteration. All methods default to nothing.
pub trait Recorder2 {
    /// Called once per query, before any step, with A's pose: the step data
    /// is in A's frame and this maps it to the world.
    #[inline]
    fn begin(&mut self, _world_from_a: &Isometry2<f32>) {}
    /// Called once per GJK support point, the first one included.
    #[inline]
    fn gjk_step(&mut self, _step: &GjkStep2) {}
    /// Called once per EPA iteration.
    #[inline]
    fn epa_step(&mut self, _step: &EpaStep2<'_>) {}
}

/// The recorder that records nothing and costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRecord2;

impl Recorder2 for NoRecord2 {}

/// An EPA step copied out of the solver's fixed arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct EpaSnapshot2 {
    /// The polygon's vertices, counter-clockwise, in A's frame.
    pub vertices: Vec<SupportPoint2>,
    /// Index of the edge closest to the origin (from vertex `closest_edge`
    /// to the next).
    pub closest_edge: usize,
    /// The support point found along the closest edge's normal.
    pub support: SupportPoint2,
}

/// A recorder that keeps every step, for visualisation.
///
/// ```
/// use collide::dim2::{Contact2, IterationLog2, Rectangle, try_contact_with2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// let square = Rectangle::new(Vector2::repeat(0.5));
/// let mut log = IterationLog2::default();
/// let hit = try_contact_with2(&square, &Isometry2::identity(),
///                        &square, &Isometry2::translation(0.8, 0.1), &mut log).unwrap();
/// assert!(matches!(hit, Contact2::Penetrating(_)));
/// assert!(!log.gjk.is_empty());
/// assert!(!log.epa.is_empty()); // the squares overlap, so EPA ran
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IterationLog2 {
    /// A's pose in the world for the last query recorded.
    pub world_from_a: Isometry2<f32>,
    /// Every GJK step, in order.
    pub gjk: Vec<GjkStep2>,
    /// Every EPA step, in order.
    pub epa: Vec<EpaSnapshot2>,
}

impl Recorder2 for IterationLog2 {
    fn begin(&mut self, world_from_a: &Isometry2<f32>) {
        self.world_from_a = *world_from_a;
        self.gjk.clear();
        self.epa.clear();
    }

    fn gjk_step(&mut self, step: &GjkStep2) {
        self.gjk.push(*step);
    }

    fn epa_step(&mut self, step: &EpaStep2<'_>) {
        self.epa.push(EpaSnapshot2 {
            vertices: step.vertices.to_vec(),
            closest_edge: step.closest_edge,
            support: step.support,
        });
    }
}

impl<R: Recorder2 + ?Sized> Recorder2 for &mut R {
    #[inline]
    fn begin(&mut self, world_from_a: &Isometry2<f32>) {
        (**self).begin(world_from_a)
    }
    #[inline]
    fn gjk_step(&mut self, step: &GjkStep2) {
        (**self).gjk_step(step)
    }
    #[inline]
    fn epa_step(&mut self, step: &EpaStep2<'_>) {
        (**self).epa_step(step)
    }
}
