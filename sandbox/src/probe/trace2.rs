//! One 2D probe query: [`collide::dim2::try_contact_with2`] with an
//! [`IterationLog2`], which both answers and records (the 2D queries have
//! no closed forms, so one run does both), plus a timed run without the
//! log. [`Trace2::answer_from_steps`] rebuilds the answer from the recorded
//! steps alone, which the tests compare with the plain query.

use std::time::Duration;

use collide::QueryError;
use collide::dim2::{Contact2, IterationLog2, NoRecord2, Shape2, SupportMap2, try_contact_with2};
use collide::nalgebra::{Isometry2, Unit, Vector2};

use crate::probe::counting::Counted;
use crate::probe::trace3::{TraceStep, mean_time};

/// The signed answer rebuilt from the recorded 2D steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepAnswer2 {
    /// Distance, negative when the shapes penetrate (minus the depth).
    pub signed_distance: f32,
    /// Unit direction from A to B, world frame, when the steps fix it.
    pub normal: Option<Unit<Vector2<f32>>>,
}

/// The probe's 2D query of one pose.
#[derive(Clone, Debug)]
pub struct Trace2 {
    /// The answer, world frame.
    pub contact: Contact2,
    /// Mean wall time of one query without recording.
    pub query_time: Duration,
    /// Support calls of one query.
    pub support_calls: u32,
    /// Every recorded GJK and EPA iteration, in A's frame.
    pub log: IterationLog2,
    /// The margins (radii) of A and B.
    pub margins: (f32, f32),
}

impl Trace2 {
    /// Runs the query for `a` at `pose_a` and `b` at `pose_b`.
    ///
    /// # Errors
    /// Non-finite poses or shapes.
    pub fn run(
        a: &Shape2,
        pose_a: &Isometry2<f32>,
        b: &Shape2,
        pose_b: &Isometry2<f32>,
    ) -> Result<Self, QueryError> {
        let (ca, cb) = (Counted::new(a), Counted::new(b));
        let mut log = IterationLog2::default();
        let contact = try_contact_with2(&ca, pose_a, &cb, pose_b, &mut log)?;
        let support_calls = ca.calls() + cb.calls();
        let query_time = mean_time(|| {
            let answer = try_contact_with2(
                std::hint::black_box(a),
                std::hint::black_box(pose_a),
                b,
                pose_b,
                &mut NoRecord2,
            );
            std::hint::black_box(answer).ok();
        });
        Ok(Self { contact, query_time, support_calls, log, margins: (a.margin(), b.margin()) })
    }

    /// Distance (positive) or minus the depth (negative).
    pub fn signed_distance(&self) -> f32 {
        match self.contact {
            Contact2::Separated { distance, .. } => distance,
            Contact2::Penetrating(p) => -p.depth,
        }
    }

    /// Whether the shapes intersect (penetrate or touch).
    pub fn intersecting(&self) -> bool {
        matches!(self.contact, Contact2::Penetrating(_))
    }

    /// Number of recorded steps.
    pub fn step_count(&self) -> usize {
        self.log.gjk.len() + self.log.epa.len()
    }

    /// Step `i`, GJK's first.
    pub fn step(&self, i: usize) -> Option<TraceStep> {
        TraceStep::nth(i, self.log.gjk.len(), self.log.epa.len())
    }

    /// The answer as the recorded steps alone give it: the last EPA step's
    /// closest edge (its distance from the origin plus the margins is the
    /// depth, its outward normal the normal); with no EPA step, the last GJK
    /// step's estimate (its length minus the margins, `−v` the normal).
    /// `None` when GJK ended inside the difference and EPA recorded nothing
    /// (it answered a point or segment difference on the spot).
    pub fn answer_from_steps(&self) -> Option<StepAnswer2> {
        let margin = self.margins.0 + self.margins.1;
        let to_world = |n: Vector2<f32>| self.log.world_from_a.rotation * Unit::new_normalize(n);
        if let Some(snapshot) = self.log.epa.last() {
            let (normal, distance) = edge_line(&snapshot.vertices, snapshot.closest_edge)?;
            return Some(StepAnswer2 {
                signed_distance: -(distance.max(0.0) + margin),
                normal: Some(to_world(normal)),
            });
        }
        if self.intersecting_cores() {
            return None;
        }
        let last = self.log.gjk.last()?;
        let core_distance = last.direction.norm();
        Some(StepAnswer2 {
            signed_distance: core_distance - margin,
            normal: (core_distance > 0.0).then(|| to_world(last.direction)),
        })
    }

    /// Whether GJK's cores overlap: the answer's depth exceeds the margins.
    fn intersecting_cores(&self) -> bool {
        let margin = self.margins.0 + self.margins.1;
        matches!(self.contact, Contact2::Penetrating(p) if p.depth > margin)
    }
}

/// Outward unit normal and signed distance from the origin of edge `i` of
/// a counter-clockwise polygon (from vertex `i` to the next).
pub fn edge_line(
    vertices: &[collide::dim2::SupportPoint2],
    i: usize,
) -> Option<(Vector2<f32>, f32)> {
    let p = vertices.get(i)?.w;
    let q = vertices.get((i + 1) % vertices.len())?.w;
    let e = q - p;
    // Counter-clockwise: the outward normal is the edge turned clockwise.
    let n = Vector2::new(e.y, -e.x).try_normalize(0.0)?;
    Some((n, n.dot(&p)))
}
