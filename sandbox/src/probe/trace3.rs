//! One 3D probe query, run twice: the plain [`collide::contact`] (timed,
//! its support calls counted), which is the answer the probe shows; and
//! GJK then EPA on the shapes' cores through collide's building blocks
//! ([`MinkowskiDifference`], [`gjk::gjk`], [`epa::epa`]) with an
//! [`IterationLog`], which is what the probe draws and steps through.
//!
//! The second run is needed because the plain query answers sphere and
//! capsule pairs, and sphere–box pairs, in closed form without GJK; the
//! building blocks always run GJK (and EPA on overlap) on the cores. For
//! every other pair the two runs are the same computation.
//! [`Trace3::answer_from_steps`] rebuilds the answer from the recorded
//! steps alone, which the tests compare with the plain query.

use std::time::{Duration, Instant};

use collide::nalgebra::{Isometry3, Unit, Vector3};
use collide::query::epa::{self, EpaResult, EpaStatus};
use collide::query::gjk::{self, GjkOutcome, GjkResult, GjkSettings};
use collide::query::{EpaSnapshot, IterationLog, MinkowskiDifference};
use collide::{Contact, QueryError, Shape, SupportMap};

use crate::probe::counting::Counted;

/// Most times the plain query is run to time it: one run takes about a
/// microsecond, far below the clock's resolution.
pub(crate) const TIMING_RUNS: u32 = 200;

/// Timing stops early once this much time has gone by (slow debug builds).
pub(crate) const TIMING_BUDGET: Duration = Duration::from_micros(300);

/// A recorded step: GJK's or EPA's iteration `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStep {
    /// GJK iteration `index` (into [`IterationLog::gjk`]).
    Gjk(usize),
    /// EPA iteration `index` (into [`IterationLog::epa`]).
    Epa(usize),
}

impl TraceStep {
    /// Step `i` of a log with `gjk` GJK and then `epa` EPA iterations, in
    /// 2D or 3D.
    pub(crate) fn nth(i: usize, gjk: usize, epa: usize) -> Option<Self> {
        if i < gjk {
            Some(Self::Gjk(i))
        } else if i - gjk < epa {
            Some(Self::Epa(i - gjk))
        } else {
            None
        }
    }
}

/// The signed answer rebuilt from the recorded steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepAnswer {
    /// Distance between the shapes, negative when they penetrate (minus the
    /// depth).
    pub signed_distance: f32,
    /// Unit direction from A to B, world frame (`None` when the steps do not
    /// fix it: a flat difference, where EPA records no step).
    pub normal: Option<Unit<Vector3<f32>>>,
}

/// The probe's query of one pose.
#[derive(Clone, Debug)]
pub struct Trace3 {
    /// The plain query's answer, world frame.
    pub contact: Contact,
    /// Mean wall time of one plain query.
    pub query_time: Duration,
    /// Support calls of one plain query (zero for the closed forms).
    pub support_calls: u32,
    /// Whether the plain query took a closed form instead of GJK/EPA.
    pub closed_form: bool,
    /// Every recorded GJK and EPA iteration, in A's frame.
    pub log: IterationLog,
    /// How GJK ended on the cores.
    pub gjk: GjkResult,
    /// How EPA ended on the cores, when GJK found them overlapping.
    pub epa: Option<EpaResult>,
    /// The margins (radii) of A and B, added back to the cores' answer.
    pub margins: (f32, f32),
    /// A's pose: maps the log's A frame to the world.
    pub world_from_a: Isometry3<f32>,
}

impl Trace3 {
    /// Runs both queries for `a` at `pose_a` and `b` at `pose_b`.
    ///
    /// # Errors
    /// Non-finite poses or shapes.
    pub fn run(
        a: &Shape,
        pose_a: &Isometry3<f32>,
        b: &Shape,
        pose_b: &Isometry3<f32>,
    ) -> Result<Self, QueryError> {
        let (ca, cb) = (Counted::new(a), Counted::new(b));
        let contact = collide::try_contact(&ca, pose_a, &cb, pose_b)?;
        let support_calls = ca.calls() + cb.calls();
        let query_time = mean_time(|| {
            let answer = collide::try_contact(
                std::hint::black_box(a),
                std::hint::black_box(pose_a),
                b,
                pose_b,
            );
            std::hint::black_box(answer).ok();
        });

        let md = MinkowskiDifference::new(a, b, pose_a.inv_mul(pose_b));
        let mut log = IterationLog::default();
        // As the plain query starts with no history: from A's centre minus B's.
        let start_dir = -md.pose_b_in_a().translation.vector;
        // The log's frame is A's; `begin` stores A's pose for the drawing.
        collide::query::Recorder::begin(&mut log, pose_a);
        let g = gjk::gjk(&md, start_dir, &GjkSettings::EXACT, &mut log);
        let e = match g.outcome {
            GjkOutcome::Overlapping => Some(epa::epa(&md, &g.simplex, &mut log)?),
            GjkOutcome::NonFinite => return Err(QueryError::NonFiniteInput),
            _ => None,
        };
        Ok(Self {
            contact,
            query_time,
            support_calls,
            closed_form: support_calls == 0,
            log,
            gjk: g,
            epa: e,
            margins: (a.margin(), b.margin()),
            world_from_a: *pose_a,
        })
    }

    /// Distance (positive) or minus the depth (negative) of the plain answer.
    pub fn signed_distance(&self) -> f32 {
        match self.contact {
            Contact::Separated { distance, .. } => distance,
            Contact::Penetrating(p) => -p.depth,
        }
    }

    /// Whether the shapes intersect (penetrate or touch).
    pub fn intersecting(&self) -> bool {
        matches!(self.contact, Contact::Penetrating(_))
    }

    /// The recorded steps, GJK's first.
    pub fn steps(&self) -> impl Iterator<Item = TraceStep> + '_ {
        (0..self.log.gjk.len())
            .map(TraceStep::Gjk)
            .chain((0..self.log.epa.len()).map(TraceStep::Epa))
    }

    /// Number of recorded steps.
    pub fn step_count(&self) -> usize {
        self.log.gjk.len() + self.log.epa.len()
    }

    /// Step `i` of [`steps`](Self::steps).
    pub fn step(&self, i: usize) -> Option<TraceStep> {
        TraceStep::nth(i, self.log.gjk.len(), self.log.epa.len())
    }

    /// Whether EPA stopped short of convergence (cap, capacity, rounding).
    pub fn epa_unconverged(&self) -> bool {
        self.epa.is_some_and(|e| !matches!(e.status, EpaStatus::Converged | EpaStatus::Degenerate))
    }

    /// The answer as the recorded steps alone give it: the last EPA step's
    /// closest face (its distance plus the margins is the depth, its normal
    /// the normal); with no EPA step, the last GJK step's estimate `v` (its
    /// length minus the margins is the signed distance, `−v` the normal).
    /// `None` with no step at all.
    pub fn answer_from_steps(&self) -> Option<StepAnswer> {
        let margin = self.margins.0 + self.margins.1;
        let to_world = |n: Vector3<f32>| self.world_from_a.rotation * Unit::new_normalize(n);
        if let Some(snapshot) = self.log.epa.last() {
            let (normal, distance) = face_plane(snapshot, snapshot.closest_face)?;
            return Some(StepAnswer {
                signed_distance: -(distance.max(0.0) + margin),
                normal: Some(to_world(normal)),
            });
        }
        let last = self.log.gjk.last()?;
        if last.simplex.is_empty() {
            return None;
        }
        if matches!(self.gjk.outcome, GjkOutcome::Overlapping) {
            // Overlapping cores and no EPA step: a flat difference, depth 0.
            return Some(StepAnswer { signed_distance: -margin, normal: None });
        }
        // The step's direction is −v, with v = a − b the closest point of
        // the step's simplex: it points from A's core to B's.
        let core_distance = last.direction.norm();
        Some(StepAnswer {
            signed_distance: core_distance - margin,
            normal: (core_distance > 0.0).then(|| to_world(last.direction)),
        })
    }
}

/// Mean wall time of `query`, run up to [`TIMING_RUNS`] times within
/// [`TIMING_BUDGET`].
pub(crate) fn mean_time(mut query: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut runs = 0;
    while runs < TIMING_RUNS && (runs == 0 || start.elapsed() < TIMING_BUDGET) {
        query();
        runs += 1;
    }
    start.elapsed() / runs.max(1)
}

/// Outward unit normal and signed distance from the origin of face `face`
/// of an EPA snapshot (faces wind counter-clockwise seen from outside).
pub fn face_plane(snapshot: &EpaSnapshot, face: usize) -> Option<(Vector3<f32>, f32)> {
    let [i, j, k] = *snapshot.faces.get(face)?;
    let w = |i: u16| snapshot.vertices.get(i as usize).map(|v| v.w);
    let (a, b, c) = (w(i)?, w(j)?, w(k)?);
    let n = (b - a).cross(&(c - a)).try_normalize(0.0)?;
    Some((n, n.dot(&a)))
}
