//! The pair cache: every overlapping pair's contact manifold, kept sorted by
//! body pair so that one step's manifolds (and their impulses) carry over to
//! the next by a linear merge, with no hashing and a deterministic order.

use collide::nalgebra::{Isometry3, Vector3};

use crate::manifold::Manifold;

/// A pair of bodies whose fattened boxes overlap, and their manifold.
#[derive(Clone, Debug, Default)]
pub struct Contact {
    /// Slot of body A (the smaller slot).
    pub body_a: u32,
    /// Slot of body B.
    pub body_b: u32,
    /// Combined friction coefficient.
    pub friction: f32,
    /// Combined restitution coefficient.
    pub restitution: f32,
    /// The contact points; empty when the boxes overlap but the shapes do not.
    pub manifold: Manifold,
    /// B's pose in A's frame, and the normal in A's frame, when the manifold
    /// was last computed: if the bodies have not moved relative to each other
    /// since, the manifold is reused (Jolt's body-pair cache).
    pub(crate) computed_at: Option<(Isometry3<f32>, Vector3<f32>)>,
}

impl Contact {
    #[inline]
    pub(crate) fn key(&self) -> (u32, u32) {
        (self.body_a, self.body_b)
    }
}

/// Rebuilds `out` from this step's sorted broad-phase `pairs` and the last
/// step's sorted `old` contacts. A pair found in `old` keeps its manifold (so
/// its impulses warm start); a new pair starts empty. Old contacts for which
/// `keep_stale` holds (both bodies asleep or static, so the broad phase did
/// not report them) are kept as they are. `make` builds a new contact.
pub(crate) fn merge(
    pairs: &[(u32, u32)],
    old: &mut Vec<Contact>,
    out: &mut Vec<Contact>,
    keep_stale: impl Fn(&Contact) -> bool,
    make: impl Fn(u32, u32) -> Contact,
) {
    out.clear();
    let mut old_iter = old.drain(..).peekable();
    for &pair in pairs {
        // Old contacts sorting before this pair: keep the stale ones.
        while let Some(c) = old_iter.next_if(|c| c.key() < pair) {
            if keep_stale(&c) {
                out.push(c);
            }
        }
        match old_iter.next_if(|c| c.key() == pair) {
            Some(c) => out.push(c),
            None => out.push(make(pair.0, pair.1)),
        }
    }
    for c in old_iter {
        if keep_stale(&c) {
            out.push(c);
        }
    }
}
