//! Contact recycling: a pair whose relative pose has drifted only a little
//! since its manifold was last computed keeps the manifold's contact points,
//! fixed in each body, and only refreshes their separations, world points
//! and the world normal, skipping contact determination (SAT or GJK/EPA and
//! clipping).
//!
//! The idea is parry's `ContactManifold::try_update_contacts` and rapier's
//! `contact_recycling`: each point is a pair of material points, one on A's
//! surface and one on B's; after a small relative move the separation is
//! the gap between them along the normal, which stays fixed in A. The two
//! points are not stored apart: the midpoint in A's frame and the
//! separation when computed (both kept on [`ContactPoint`](crate::ContactPoint))
//! give A's point, and B's point follows B through the relative pose the
//! manifold was computed at, so a contact point stays small for the pair
//! cache, which moves contacts every step. Departures: the refusal tests are
//! written against the pose the manifold was *computed* at (not the last
//! step's), as one bound on the motion of B's surface in A's frame
//! (translation plus the rotation's arc at B's extent; for a shape of a body
//! with several, the move of the ball holding that shape plus the arc at
//! its radius, [`PointsOfB`], so that each shape of a compound is recycled
//! or culled by its own motion) together with parry's
//! per-point tests (the normal's turn, each point's tangential slip, a point
//! changing between penetrating and separated); a point that drifts beyond
//! the speculative distance (which a fresh computation would drop) also
//! refuses; an empty manifold is never recycled (a new feature may come
//! within the speculative distance); and a manifold is recomputed after
//! [`MAX_RECYCLED_STEPS`] recycled steps unless its pair rests.
//!
//! A resting pair ([`pair_rests`]: every point touching, and the two
//! surfaces moving relative to each other slower than [`RESTING_SPEED`])
//! keeps its manifold without that cap, for as long as it rests and the
//! refusal tests above pass, and the solver then takes its lever arms as
//! they were when the manifold was computed
//! ([`LeverTurn`](crate::collision::manifold::LeverTurn)), as box3d's
//! recycled contacts do (issue 41: that is what lets the friction-0.6
//! columns of 30 and 40 cubes stand). What recycling promises: a pair
//! that moves (lands, slides, rolls, is approached or is teleported by
//! more than the bounds) is computed afresh at least every
//! [`MAX_RECYCLED_STEPS`] + 1 steps, as before; a resting pair's points
//! and separations follow the bodies within the same bounds, but a
//! feature that comes within the speculative distance while the pair
//! rests is found only once the pair moves or drifts past a bound (it can
//! have come at most [`RECYCLE_DISTANCE`] closer, so it still has a gap).
//! While a resting pair's relative pose stays within the narrow phase's
//! reuse tolerance of the pose it was last recycled at, that recycling's
//! points are moved with A instead of being recycled again
//! ([`moved_with_a`], [`RestedAt`]).
//!
//! A face contact also keeps its world normal while the normal found anew
//! stays within [`RESTING_NORMAL_CHORD`] of it ([`keep_resting_normal`]),
//! as box3d's recycled contacts keep theirs (box3d `physics_world.c`,
//! contact recycling: the normal stays fixed in the world while the
//! relative pose drifts less than 10 times the linear slop). See that
//! function for why.
//!
//! The same bound culls pairs that were apart: a pair whose shapes were
//! found at least a distance d apart cannot have come closer than d minus
//! that drift, so while that stays beyond the speculative distance its
//! manifold stays empty without being computed ([`distance_bound`]), as
//! conservative advancement bounds approach by motion.

use collide::nalgebra::{Isometry3, Point3, Vector3};

use crate::body::motion_bound::motion_bound;
use crate::body::shape_store::ShapeBall;
use crate::collision::manifold::{MAX_MANIFOLD_POINTS, Manifold};
use crate::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};

/// Largest drift of B's surface in A's frame (metres) since the manifold was
/// computed for which it is recycled: 1 mm, a fifth of the linear slop, for
/// metre-sized bodies. It bounds how much closer a feature left out of the
/// manifold (farther than the speculative distance, 2 cm) can have come, and
/// how far the kept points can have slid from where a fresh manifold would
/// put them. Measured with [`MAX_RECYCLED_STEPS`] = 3: 2 mm computes no
/// fewer manifolds in pyramid 100 (1.61 against 1.62 million over 600
/// steps, 3.87 million without recycling), so the smaller error is kept.
pub(crate) const RECYCLE_DISTANCE: f32 = 0.2 * LINEAR_SLOP;

/// Largest tangential slip of one contact point (its material point on B
/// against its material point on A, across the normal) for which the
/// manifold is recycled: 1 mm, parry's value. The drift bound above already
/// implies it for B's whole surface; it stays as a per-point guard, so that
/// a larger `RECYCLE_DISTANCE` cannot let points slide farther.
pub(crate) const RECYCLE_SLIP: f32 = 0.2 * LINEAR_SLOP;

/// Sine of half the largest relative rotation (which is also the largest
/// turn of the normal as seen from B) for which the manifold is recycled:
/// 1°, parry's value. A larger turn changes which features face each other.
const RECYCLE_HALF_SINE: f32 = 0.008_726_535; // sin(0.5°)

/// Most consecutive recycled steps before a manifold is computed afresh: 3.
/// Measured on five pyramid-20 starts perturbed by 0.1 mm (`--no-sleep`,
/// 20 s): with 3 the top drifts 0.98–0.99 cm as without recycling (1 and 2
/// alike), with 4 up to 1.1 cm and with 8 up to 1.8 cm (the one-cube-thick
/// pyramid leans out of plane). Fresh manifolds pick the deepest points and the
/// reference face anew, which a long run of recycled steps does not.
pub(crate) const MAX_RECYCLED_STEPS: u32 = 3;

/// Largest change of a face contact's normal (the chord `|n_new - n_old|`
/// between the unit normals, about the angle in radians) that is ignored
/// ([`keep_resting_normal`]): 1e-2 rad, about 0.6°. Dimensionless, so it
/// holds at any scale. Measured on frictionless columns of unit cubes
/// (sleeping off, 1,500 steps): 2e-3 lets the landing tilts of a 30- and a
/// 40-cube column through (a cube past 5 cm at steps 59 and 125), 5e-3
/// holds both exactly (no cube moves sideways at all); 1e-2 keeps a
/// margin of two. box3d keeps a recycled normal for up to about 10°.
pub(crate) const RESTING_NORMAL_CHORD: f32 = 1.0e-2;

/// Manifolds of at least this many points are face contacts, whose normal
/// [`keep_resting_normal`] keeps; fewer points (a vertex or an edge, or a
/// round shape) always take the normal found anew.
const FACE_CONTACT_POINTS: usize = 3;

// A feature left out of a manifold was farther than the speculative
// distance; while recycling it can have come at most `RECYCLE_DISTANCE`
// closer, so it still has a gap when the manifold is next computed.
const _: () = assert!(RECYCLE_DISTANCE < 0.5 * SPECULATIVE_DISTANCE);

/// Where the points of B that a pair concerns lie, in B's frame: what the
/// drift of B's surface in A's frame is bounded over.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PointsOfB {
    /// Every point of B, within this distance of B's origin: the pair of a
    /// body of one shape.
    Within(f32),
    /// The points of one shape of B, a body of several shapes, within this
    /// ball: only that shape takes part in the pair, so a shape near the
    /// centre of a turning body drifts as little as it really does, not as
    /// much as the body's farthest tip.
    Ball(ShapeBall),
}

impl PointsOfB {
    /// How far any of these points can have moved between B's poses
    /// `then` and `now` in A's frame, and the sine of half the rotation
    /// between the two. For a ball of centre `s` and radius `r`, a point
    /// `s + d` moves by `(now·s − then·s) + (R_now − R_then)·d`, at most
    /// the centre's own move plus `2 sin(θ/2) r` (see [`motion_bound`],
    /// which is the same bound about B's origin).
    pub(crate) fn drift(&self, then: &Isometry3<f32>, now: &Isometry3<f32>) -> (f32, f32) {
        match self {
            Self::Within(radius) => motion_bound(then, now, *radius),
            Self::Ball(ball) => {
                let half_sine = (then.rotation.inverse() * now.rotation).imag().norm();
                let shift = (now * ball.centre - then * ball.centre).norm();
                (shift + 2.0 * half_sine * ball.radius, half_sine)
            }
        }
    }

    /// The largest distance of these points from B's origin.
    pub(crate) fn farthest(&self) -> f32 {
        match self {
            Self::Within(radius) => *radius,
            Self::Ball(ball) => ball.centre.coords.norm() + ball.radius,
        }
    }
}

/// A lower bound on the distance now of a pair found at least `clearance`
/// apart when B's pose in A's frame was `computed_at`, B's pose in A's frame
/// being `relative` now (B's points that take part being `points_b`): the
/// gap can have shrunk by at most the drift of B's surface. While the bound
/// exceeds the speculative distance the pair's manifold stays empty without
/// running contact determination; a NaN anywhere gives NaN, which exceeds
/// nothing.
pub(crate) fn distance_bound(
    clearance: f32,
    computed_at: &Isometry3<f32>,
    relative: &Isometry3<f32>,
    points_b: &PointsOfB,
) -> f32 {
    let (drift, _) = points_b.drift(computed_at, relative);
    clearance - drift
}

/// Relative speed of two surfaces below which their pair rests
/// ([`pair_rests`]): the linear slop per second, 5 mm/s. A resting pair's
/// surfaces move less than the slop (the depth the solver leaves a
/// resting contact at) in a second, a tenth of the default sleep velocity,
/// so a pair that rests by this measure is one whose bodies may fall
/// asleep; a pair that lands, slides or rolls is far faster (a falling body
/// gains gravity times the step, 0.16 m/s, every step at 60 Hz; the
/// slowest slide of the tests, 9 mm/s, is capped as before). Measured on
/// the friction-0.6 columns (30 and 40 unit cubes, 50 Hz, sleeping off):
/// at 1 mm/s, 5 mm/s and 2 cm/s they stand alike (9.0 mm / 1.2 cm, 1.0 cm /
/// 2.6 cm, 9.1 mm / 2.2 cm at most sideways).
pub(crate) const RESTING_SPEED: f32 = LINEAR_SLOP;

/// Whether a pair rests, and so keeps its manifold past
/// [`MAX_RECYCLED_STEPS`] with the lever arms it was computed with (see
/// [`LeverTurn`](crate::collision::manifold::LeverTurn)): the manifold has
/// points, every one of them touches (separation at most the linear slop,
/// so a speculative point of a pair still approaching does not rest), and
/// B's surface moves relative to A's slower than [`RESTING_SPEED`], both
/// at every point (`relative_velocity_at`, B's velocity less A's at a
/// world point) and by its turn (`relative_spin`, B's angular velocity
/// less A's, times `radius_b`, the largest distance of B's points from its
/// origin; so a box pivoting on one edge onto its face does not rest). NaN
/// does not rest.
pub(crate) fn pair_rests(
    manifold: &Manifold,
    relative_velocity_at: impl Fn(&Point3<f32>) -> Vector3<f32>,
    relative_spin: &Vector3<f32>,
    radius_b: f32,
) -> bool {
    if manifold.points.is_empty() || !(relative_spin.norm() * radius_b <= RESTING_SPEED) {
        return false;
    }
    manifold.points.iter().all(|p| {
        p.separation <= LINEAR_SLOP
            && relative_velocity_at(&p.point).norm_squared() <= RESTING_SPEED * RESTING_SPEED
    })
}

/// Tries to recycle `manifold`, computed when B's pose in A's frame was
/// `computed_at` and its normal in A's frame `normal_in_a`, for B's pose in
/// A's frame now, `relative`, and A's world pose `pose_a`. `points_b` holds
/// B's points that take part in the pair, and `speculative` is the
/// distance within which this step keeps speculative points.
///
/// On success refreshes every point's world midpoint and separation and the
/// world normal and returns the points' midpoints in A's frame (the
/// manifold's first `points.len()` entries; a resting pair keeps them as
/// its [`RestedAt`]); otherwise leaves the manifold untouched and returns
/// `None`, and the manifold must be computed afresh.
pub(crate) fn try_recycle(
    manifold: &mut Manifold,
    computed_at: &Isometry3<f32>,
    normal_in_a: &Vector3<f32>,
    relative: &Isometry3<f32>,
    pose_a: &Isometry3<f32>,
    points_b: &PointsOfB,
    speculative: f32,
) -> Option<[Point3<f32>; MAX_MANIFOLD_POINTS]> {
    if manifold.points.is_empty() {
        return None;
    }
    let (drift, half_sine) = points_b.drift(computed_at, relative);
    // Written so that NaN refuses.
    if !(drift <= RECYCLE_DISTANCE && half_sine <= RECYCLE_HALF_SINE) {
        return None;
    }
    // Maps a point fixed on B from where it was in A's frame when the
    // manifold was computed to where it is now.
    let b_moved = relative * computed_at.inverse();
    let mut separations = [0.0f32; MAX_MANIFOLD_POINTS];
    let mut midpoints_in_a = [Point3::origin(); MAX_MANIFOLD_POINTS];
    for (i, p) in manifold.points.iter().enumerate() {
        // When computed, the point's material points on A and B lay half
        // the separation below and above the midpoint along the normal.
        let half_gap = normal_in_a * (0.5 * p.computed_separation);
        let on_a = p.local_point_a - half_gap;
        let on_b = b_moved * (p.local_point_a + half_gap);
        let gap = on_b - on_a;
        let separation = gap.dot(normal_in_a);
        let slip = gap - normal_in_a * separation;
        let same_side = (separation > 0.0) == (p.separation > 0.0);
        if !(slip.norm_squared() <= RECYCLE_SLIP * RECYCLE_SLIP
            && same_side
            && separation <= speculative)
        {
            return None;
        }
        separations[i] = separation;
        midpoints_in_a[i] = on_a + gap * 0.5;
    }
    manifold.normal = pose_a.rotation * normal_in_a;
    for (i, p) in manifold.points.iter_mut().enumerate() {
        p.separation = separations[i];
        p.point = pose_a * midpoints_in_a[i];
    }
    Some(midpoints_in_a)
}

/// What a resting pair's last recycling found, kept so that the steps
/// after it can reuse it cheaply ([`moved_with_a`]): B's pose in A's frame
/// then, and each point's midpoint in A's frame then (the manifold's
/// separations stay those it found). Dropped when the manifold is computed
/// or recycled while the pair moves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RestedAt {
    /// B's pose in A's frame at that recycling.
    pub relative: Isometry3<f32>,
    /// Each point's midpoint in A's frame at that recycling.
    pub midpoints_in_a: [Point3<f32>; MAX_MANIFOLD_POINTS],
}

/// Moves a resting pair's recycled `manifold` with A, to A's world pose
/// `pose_a`, while B's pose in A's frame is unchanged (within the narrow
/// phase's reuse tolerance) since that recycling, `rested`: each world
/// point is A's pose applied to its midpoint in A's frame then, the world
/// normal is A's turn applied to `normal_in_a` (then kept by
/// [`keep_resting_normal`] as a recycling keeps it), and the separations
/// stay as that recycling found them. This is the narrow phase's cheap
/// "unchanged" path for a manifold that was recycled rather than computed:
/// the same approximation (a relative move below 0.1 mm and 1e-4 rad is
/// ignored), applied to the recycled points rather than the computed ones.
pub(crate) fn moved_with_a(
    manifold: &mut Manifold,
    rested: &RestedAt,
    normal_in_a: &Vector3<f32>,
    pose_a: &Isometry3<f32>,
) {
    for (p, m) in manifold.points.iter_mut().zip(&rested.midpoints_in_a) {
        p.point = pose_a * m;
    }
    let before = manifold.normal;
    manifold.normal = pose_a.rotation * normal_in_a;
    keep_resting_normal(&before, manifold);
}

/// Keeps `before`, the world normal a face contact had last step, as
/// `manifold`'s normal while the normal found this step (in `manifold`)
/// differs from it by at most [`RESTING_NORMAL_CHORD`]; larger turns, and
/// manifolds of fewer than three points, keep the new normal.
///
/// Why (issue 41). The normal of a face contact is its reference face's,
/// so it turns with that body. Resting on soft contacts, a loaded body
/// tilts by tiny angles (1e-5 to 1e-4 rad for a column of unit cubes):
/// rounding and the sweeps' point order make them, and an offset load
/// tilts the body under it. With the normal turning along, the weight
/// carried across a tilted face pushes the body above sideways by the
/// weight times the tilt; that offsets the load on the body below, which
/// tilts it further. The linearised soft-contact column (two and ten unit
/// cubes at 50/100 Hz) has this unstable mode, growing e-fold every 23 s
/// and 1.7 s; a frictionless column of 2 cubes moved 2 mm in 10 s, one of
/// 30 cubes 5 cm in 1 s, while box3d's, whose recycled contacts keep
/// their world normal, does not move at all (a 1 mm offset of the top
/// cube stays exactly 1 mm for 25 s). A rigid face does not tilt under an
/// offset load, so the tilt is an artefact of the soft contact, and
/// ignoring the normal's turn below a bound removes the feedback: the
/// weight stays vertical.
///
/// The error is bounded: the normal kept is never more than the bound from
/// the one found, and a face that really turns (a toppling box) gets its
/// new normal once it has turned by the bound. Points and separations stay
/// as found: along the two normals they differ by at most the slip across
/// the face (at most a millimetre while recycling) times the bound.
pub(crate) fn keep_resting_normal(before: &Vector3<f32>, manifold: &mut Manifold) {
    let change = before - manifold.normal;
    // Written so that NaN keeps the new normal.
    if manifold.points.len() >= FACE_CONTACT_POINTS
        && change.norm_squared() <= RESTING_NORMAL_CHORD * RESTING_NORMAL_CHORD
    {
        manifold.normal = *before;
    }
}

#[cfg(test)]
mod tests;
