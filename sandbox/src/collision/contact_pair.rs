//! The public view of one cached pair: which bodies, their combined
//! material and their manifold, as [`World::contacts`](crate::World::contacts)
//! lists them.

use crate::body::BodyId;
use crate::collision::manifold::Manifold;

/// A pair of bodies whose fattened boxes overlap, and their contact
/// manifold (empty when the boxes overlap but the shapes do not).
#[derive(Clone, Copy, Debug)]
pub struct ContactPair<'a> {
    /// Body A: the one created in the smaller slot.
    pub body_a: BodyId,
    /// Body B. The manifold's normal points from A to B.
    pub body_b: BodyId,
    /// Combined friction coefficient.
    pub friction: f32,
    /// Combined restitution coefficient.
    pub restitution: f32,
    /// The contact points.
    pub manifold: &'a Manifold,
}
