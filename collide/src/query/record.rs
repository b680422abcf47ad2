//! Recording GJK and EPA iterations, for visualisation and debugging.
//!
//! The algorithms are generic over a [`Recorder`]. The default, [`NoRecord`],
//! has empty inlined methods, so when recording is off the calls compile away
//! and cost nothing. [`IterationLog`] keeps every step in memory (it
//! allocates, which is fine for a caller who asked for a log).

use nalgebra::{Isometry3, Vector3};

use crate::query::epa_face::EpaFace;
use crate::query::minkowski::SupportPoint;
use crate::query::simplex::Simplex;

/// One GJK iteration, in A's frame.
#[derive(Clone, Copy, Debug)]
pub struct GjkStep {
    /// The simplex at the start of the iteration.
    pub simplex: Simplex,
    /// The search direction (towards the origin from the current estimate).
    pub direction: Vector3<f32>,
    /// The support point found along `direction`.
    pub support: SupportPoint,
}

/// One EPA iteration, in A's frame.
#[derive(Clone, Copy, Debug)]
pub struct EpaStep<'p> {
    /// The polytope's vertices.
    pub vertices: &'p [SupportPoint],
    /// The polytope's faces.
    pub faces: &'p [EpaFace],
    /// Index in `faces` of the face closest to the origin.
    pub closest_face: usize,
    /// The support point found along that face's normal.
    pub support: SupportPoint,
}

/// Receives each GJK and EPA iteration. All methods default to doing nothing.
pub trait Recorder {
    /// Called once per query, before any step, with A's pose: the step data
    /// is in A's frame and this maps it to the world.
    #[inline]
    fn begin(&mut self, _world_from_a: &Isometry3<f32>) {}
    /// Called at the start of every GJK iteration.
    #[inline]
    fn gjk_step(&mut self, _step: &GjkStep) {}
    /// Called at the start of every EPA iteration.
    #[inline]
    fn epa_step(&mut self, _step: &EpaStep<'_>) {}
    /// Whether [`epa_step`](Recorder::epa_step) does anything: EPA then
    /// gathers its live faces into one slice for it each iteration, which a
    /// recorder that ignores the steps should not pay for.
    #[inline]
    fn records_epa(&self) -> bool {
        true
    }
}

/// The recorder that records nothing and costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRecord;

impl Recorder for NoRecord {
    #[inline]
    fn records_epa(&self) -> bool {
        false
    }
}

/// An EPA step copied out of the solver's scratch space.
#[derive(Clone, Debug, Default)]
pub struct EpaSnapshot {
    /// The polytope's vertices, in A's frame.
    pub vertices: Vec<SupportPoint>,
    /// The faces, as triples of indices into `vertices`.
    pub faces: Vec<[u16; 3]>,
    /// Index in `faces` of the face closest to the origin.
    pub closest_face: usize,
    /// The support point found along the closest face's normal.
    pub support: Option<SupportPoint>,
}

/// A recorder that keeps every step, for visualisation.
///
/// ```
/// use collide::{Cuboid, query::{try_contact_with, IterationLog}};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube = Cuboid::new(Vector3::repeat(0.5));
/// let mut log = IterationLog::default();
/// try_contact_with(&cube, &Isometry3::identity(), &cube, &Isometry3::translation(0.8, 0.1, 0.0),
///                  &mut log).unwrap();
/// assert!(!log.gjk.is_empty());
/// assert!(!log.epa.is_empty()); // the cubes overlap, so EPA ran
/// ```
#[derive(Clone, Debug, Default)]
pub struct IterationLog {
    /// A's pose in the world frame for the last query recorded.
    pub world_from_a: Isometry3<f32>,
    /// Every GJK step, in order.
    pub gjk: Vec<GjkStep>,
    /// Every EPA step, in order.
    pub epa: Vec<EpaSnapshot>,
}

impl Recorder for IterationLog {
    fn begin(&mut self, world_from_a: &Isometry3<f32>) {
        self.world_from_a = *world_from_a;
        self.gjk.clear();
        self.epa.clear();
    }

    fn gjk_step(&mut self, step: &GjkStep) {
        self.gjk.push(*step);
    }

    fn epa_step(&mut self, step: &EpaStep<'_>) {
        self.epa.push(EpaSnapshot {
            vertices: step.vertices.to_vec(),
            faces: step.faces.iter().map(|f| f.vertices).collect(),
            closest_face: step.closest_face,
            support: Some(step.support),
        });
    }
}

impl<R: Recorder + ?Sized> Recorder for &mut R {
    #[inline]
    fn begin(&mut self, world_from_a: &Isometry3<f32>) {
        (**self).begin(world_from_a)
    }
    #[inline]
    fn gjk_step(&mut self, step: &GjkStep) {
        (**self).gjk_step(step)
    }
    #[inline]
    fn epa_step(&mut self, step: &EpaStep<'_>) {
        (**self).epa_step(step)
    }
    #[inline]
    fn records_epa(&self) -> bool {
        (**self).records_epa()
    }
}
