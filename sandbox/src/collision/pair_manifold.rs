//! The narrow phase's call into collide: the contact manifold of a pair
//! ([`collide::try_contact_manifold`]: box–box by SAT and clipping, sphere
//! pairs in closed form, every other pair by GJK/EPA and face clipping),
//! turned into the solver's [`Manifold`], whose points start with no
//! impulse. The manifold's normal always points from the first shape to
//! the second. A pair with a mesh, heightfield or compound side goes to
//! [`collide_composite_pair`], which folds collide's per-part manifolds
//! into one.

use collide::composite::PartCaches;
use collide::nalgebra::Isometry3;
use collide::{GjkCache, ManifoldOutcome, Shape, try_contact_manifold_cached};

use crate::collision::composite_manifold::{StepMotion, collide_composite_pair_warm};
use crate::collision::manifold::{ContactPoint, Manifold};

/// Writes into `out` the contact manifold of `a` at `pose_a` and `b` at
/// `pose_b`, keeping points whose separation is at most `speculative`.
/// Returns a lower bound on the shapes' distance when they are proven
/// farther apart than `speculative` (`out` is then empty), and 0 otherwise.
#[cfg(test)]
pub(crate) fn collide_pair(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    out: &mut Manifold,
) -> f32 {
    collide_moving_pair(
        a,
        pose_a,
        b,
        pose_b,
        speculative,
        None,
        &mut GjkCache::default(),
        &mut None,
        out,
    )
}

/// [`collide_pair`] with the bodies' `motion` over the step, if known: a
/// composite pair's fold then keeps first the points the solver may push
/// on this step (see [`collide_composite_pair`]). Other pairs do not
/// read it.
///
/// `gjk` is the pair's own warm-start state, kept with its manifold from
/// one computation to the next: GJK starts from the closest feature it
/// found last time ([`GjkCache`]), as box3d's narrow phase starts from each
/// contact's cached simplex. Composite pairs use `parts` instead, the
/// pair's table of warm starts for each pair of parts ([`PartCaches`]),
/// kept boxed in its slot: `None` starts every pair of parts cold, and is
/// filled with a new table if the pair ends with points (see
/// [`collide_composite_pair_warm`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_moving_pair(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    motion: Option<&StepMotion>,
    gjk: &mut GjkCache,
    parts: &mut Option<Box<PartCaches>>,
    out: &mut Manifold,
) -> f32 {
    if a.is_composite() || b.is_composite() {
        return collide_composite_pair_warm(a, pose_a, b, pose_b, speculative, motion, parts, out);
    }
    out.clear();
    match try_contact_manifold_cached(a, pose_a, b, pose_b, speculative, gjk) {
        Ok(ManifoldOutcome::Within(m)) => {
            out.normal = m.normal;
            out.points
                .extend(m.points().iter().map(|p| ContactPoint::new(p.point, p.separation, p.id)));
            0.0
        }
        Ok(ManifoldOutcome::Separated { distance_bound }) => distance_bound,
        // Non-finite poses: the world removes such bodies before they are
        // stepped again; until then the pair is not proven apart.
        Err(_) => 0.0,
    }
}
