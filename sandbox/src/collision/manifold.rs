//! The solver's contact manifolds: the points of collide's
//! [`ContactManifold`](collide::ContactManifold) (up to four sharing one
//! normal, with feature ids that persist across steps) together with the
//! solver's data: impulses for warm starting, friction anchors, and each
//! point in A's frame for recycling.

use arrayvec::ArrayVec;
use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use crate::tolerances::{ANCHOR_RESET_DISTANCE, LINEAR_SLOP};

/// Old and new contact points closer than this in A's frame are the same
/// contact for warm starting: twice the linear slop, well below the
/// spacing of a manifold's points on metre-sized bodies.
const WARM_START_DISTANCE: f32 = 2.0 * LINEAR_SLOP;

/// Most points a manifold keeps: four span a face contact's area
/// (collide's [`collide::MAX_MANIFOLD_POINTS`]).
pub const MAX_MANIFOLD_POINTS: usize = collide::MAX_MANIFOLD_POINTS;

/// One contact point of a [`Manifold`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    /// World point midway between the two surfaces.
    pub point: Point3<f32>,
    /// Signed distance between the surfaces along the normal: negative when
    /// the shapes overlap, positive for a speculative contact.
    pub separation: f32,
    /// Feature id: the same pair of features gives the same id on every step.
    pub id: u32,
    /// The point in body A's frame when the narrow phase computed it, to
    /// match points across steps when the clipped features change (equal
    /// faces lying flush swap between a vertex and an edge crossing from
    /// step to step).
    pub local_point_a: Point3<f32>,
    /// Accumulated normal impulse of the last substep, N·s: the solver's
    /// warm start.
    pub normal_impulse: f32,
    /// Normal impulse the point applied over the whole of the last step
    /// that solved its manifold, N·s: what users read. Not inherited when
    /// the narrow phase computes the manifold anew: a manifold the step then
    /// does not solve applied none.
    pub step_normal_impulse: f32,
    /// The separation when the narrow phase computed the point. With
    /// `local_point_a` and the normal it fixes the point's two material
    /// points: on A's surface `local_point_a` less half of it along the
    /// normal, on B's surface plus half of it, so contact recycling can
    /// follow them as the bodies move.
    pub computed_separation: f32,
}

impl ContactPoint {
    pub(crate) fn new(point: Point3<f32>, separation: f32, id: u32) -> Self {
        Self {
            point,
            separation,
            id,
            local_point_a: point,
            normal_impulse: 0.0,
            step_normal_impulse: 0.0,
            computed_separation: separation,
        }
    }
}

/// The contact between two bodies: a normal from body A to body B and up to
/// [`MAX_MANIFOLD_POINTS`] points.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Manifold {
    /// Unit normal from A to B, world frame.
    pub normal: Vector3<f32>,
    /// The contact points.
    pub points: ArrayVec<ContactPoint, MAX_MANIFOLD_POINTS>,
    /// Accumulated friction impulse at the manifold's centre in the last
    /// substep, world frame, N·s.
    pub friction_impulse: Vector3<f32>,
    /// Accumulated twist (torsional friction) impulse about the normal, N·m·s.
    pub twist_impulse: f32,
    /// Accumulated rolling-resistance angular impulse on B (A takes its
    /// opposite) in the last substep, world frame, N·m·s: kept from step
    /// to step to warm start the rolling row, as box3d keeps its manifold's
    /// `rollingImpulse`. Zero for shapes without rolling resistance.
    pub rolling_impulse: Vector3<f32>,
    /// Friction impulse at the manifold's centre over the whole of the last
    /// step that solved it, world frame, N·s: what users read.
    pub step_friction_impulse: Vector3<f32>,
    /// Static-friction anchor: the manifold centre where the bodies started
    /// sticking, in A's frame and in B's frame. `None` while sliding or
    /// before the first step.
    pub friction_anchor: Option<FrictionAnchor>,
    /// While a resting pair's manifold is recycled, how far each body has
    /// turned since the manifold was computed: the solver takes its lever
    /// arms as they were then (see [`LeverTurn`]). `None` otherwise.
    pub lever_turn: Option<LeverTurn>,
}

/// The rotations that take each body's lever arms (world-frame offsets
/// from its centre of mass) now back to their directions when the
/// manifold was computed: `R_then · R_now⁻¹` for A and for B. The narrow
/// phase sets them on a resting pair's recycled manifold
/// (`contact_recycling::pair_rests`), and the solver's preparation turns
/// each point's lever arms back by them, so the solver's Jacobians,
/// friction centre and first-order separation updates use the arms the
/// manifold was computed with, as box3d's recycled contacts keep theirs
/// (box3d `physics_world.c`, contact recycling: the anchors, world-frame
/// offsets from the centres, are kept while the pair is recycled). The
/// separations are still refreshed from the bodies' motion.
///
/// Why (issue 41). On soft contacts a loaded column's cubes tilt by 1e-4
/// to 1e-3 rad; with the arms turning along, each cube's support moves
/// where its tilt puts it, which is the overturning lever of the column's
/// buckling mode (Euler buckling of a chain of hinges pinned by static
/// friction): at friction 0.6 and 50 Hz the 30- and 40-cube columns buckle
/// after 5 s (first step past 5 cm: 327 and 295). With the arms kept from
/// the computation while the pair rests, both stand (see the header of
/// `tests/tests/columns.rs` for the measurements). A rigid face does not
/// tilt under its load, so the tilt is an artefact of the soft contact,
/// like the normal's turn that `keep_resting_normal` ignores; the error is
/// bounded by the recycling bounds (1°, 1 mm) and vanishes at every
/// recomputation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeverTurn {
    /// A's turn back.
    pub a: UnitQuaternion<f32>,
    /// B's turn back.
    pub b: UnitQuaternion<f32>,
}

/// Where two bodies started sticking: the contact centre then, fixed in
/// each body. Static friction pulls the two points back together, so a
/// resting contact cannot creep away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionAnchor {
    /// The contact centre in A's frame.
    pub local_a: Point3<f32>,
    /// The same point in B's frame.
    pub local_b: Point3<f32>,
}

impl Manifold {
    /// No points, no impulses, no anchor: [`Manifold::default`] as a constant.
    pub(crate) const EMPTY: Self = Self {
        normal: Vector3::new(0.0, 0.0, 0.0),
        points: ArrayVec::new_const(),
        friction_impulse: Vector3::new(0.0, 0.0, 0.0),
        twist_impulse: 0.0,
        rolling_impulse: Vector3::new(0.0, 0.0, 0.0),
        step_friction_impulse: Vector3::new(0.0, 0.0, 0.0),
        friction_anchor: None,
        lever_turn: None,
    };

    /// Removes every point and zeroes the stored impulses.
    pub(crate) fn clear(&mut self) {
        self.points.clear();
        self.friction_impulse = Vector3::zeros();
        self.twist_impulse = 0.0;
        self.rolling_impulse = Vector3::zeros();
        self.step_friction_impulse = Vector3::zeros();
        self.friction_anchor = None;
        self.lever_turn = None;
    }

    /// Copies the impulses of `old`'s points into the matching points of
    /// `self` (warm starting): a point matches the old point with the same
    /// feature id, or else the nearest old point in A's frame within
    /// [`WARM_START_DISTANCE`]. Also records each point in A's frame.
    pub(crate) fn inherit_impulses(&mut self, old: &Manifold, pose_a: &Isometry3<f32>) {
        for p in &mut self.points {
            p.local_point_a = pose_a.inverse_transform_point(&p.point);
            let by_id = old.points.iter().find(|o| o.id == p.id);
            let matched = by_id.or_else(|| {
                let mut best = None;
                let mut best_d = WARM_START_DISTANCE * WARM_START_DISTANCE;
                for o in &old.points {
                    let d = (o.local_point_a - p.local_point_a).norm_squared();
                    if d < best_d {
                        best_d = d;
                        best = Some(o);
                    }
                }
                best
            });
            if let Some(o) = matched {
                p.normal_impulse = o.normal_impulse;
            }
        }
        if !old.points.is_empty() {
            self.friction_impulse = old.friction_impulse;
            self.twist_impulse = old.twist_impulse;
            self.rolling_impulse = old.rolling_impulse;
            self.friction_anchor = old.friction_anchor;
        }
    }

    /// The static-friction anchor for this step and the gap between its two
    /// points (B's minus A's, world frame). The kept anchor is used unless
    /// the bodies have moved more than [`ANCHOR_RESET_DISTANCE`] apart along
    /// the surface, as a rolling ball does without slipping; otherwise (or
    /// with none kept) a new anchor is set at the manifold's centre, with no gap.
    pub(crate) fn friction_anchor_gap(
        &self,
        pose_a: &Isometry3<f32>,
        pose_b: &Isometry3<f32>,
    ) -> (FrictionAnchor, Vector3<f32>) {
        if let Some(anchor) = self.friction_anchor {
            let gap = pose_b * anchor.local_b - pose_a * anchor.local_a;
            let tangential = gap - self.normal * gap.dot(&self.normal);
            if tangential.norm_squared() <= ANCHOR_RESET_DISTANCE * ANCHOR_RESET_DISTANCE {
                return (anchor, tangential);
            }
        }
        let count = self.points.len().max(1) as f32;
        let center =
            Point3::from(self.points.iter().map(|p| p.point.coords).sum::<Vector3<f32>>() / count);
        // Each body's copy sits on its own surface, half the mean separation
        // from the midpoint (as the solver's friction centre does), so a
        // speculative manifold's anchor is not fixed metres ahead of a body.
        let half_gap = 0.5 * self.points.iter().map(|p| p.separation).sum::<f32>() / count;
        let anchor = FrictionAnchor {
            local_a: pose_a.inverse_transform_point(&(center - self.normal * half_gap)),
            local_b: pose_b.inverse_transform_point(&(center + self.normal * half_gap)),
        };
        (anchor, Vector3::zeros())
    }

    /// Smallest separation of the points (`f32::MAX` without points; NaN
    /// separations are passed over, as `f32::min` does).
    pub fn nearest_separation(&self) -> f32 {
        self.points.iter().map(|p| p.separation).fold(f32::MAX, f32::min)
    }

    /// Deepest penetration of the manifold (zero if none overlaps).
    pub fn penetration(&self) -> f32 {
        self.points.iter().fold(0.0f32, |d, p| d.max(-p.separation))
    }
}
