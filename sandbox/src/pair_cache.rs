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
    /// Steps in a row the manifold has been recycled (moved with the bodies
    /// instead of computed) since `computed_at`; zero when it is exactly as
    /// computed there.
    pub(crate) recycled_steps: u32,
    /// When the manifold is empty because the shapes were proven farther
    /// apart than the speculative distance at `computed_at`: a lower bound on
    /// their distance then. Zero otherwise.
    pub(crate) clearance: f32,
    /// The two bodies' summed travel (see `World`) when `clearance` was
    /// found: the gap can since have closed by at most their travel beyond it.
    pub(crate) travel_at: f64,
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
    if pairs_all_cached(pairs, old) {
        // The usual step: no new pair. The result is `old` less the contacts
        // neither paired nor kept, filtered in place, so the contacts (a few
        // hundred bytes each) are not moved one by one into `out`.
        let mut next_pair = pairs.iter().peekable();
        old.retain(|c| next_pair.next_if(|&&p| p == c.key()).is_some() || keep_stale(c));
        std::mem::swap(old, out);
        return;
    }
    // Walk the old contacts once, each moved at most once; the cursor peeks
    // into the (small) pairs, never into the contacts.
    let mut next_pair = pairs.iter().peekable();
    for c in old.drain(..) {
        let key = c.key();
        while let Some(&(a, b)) = next_pair.next_if(|&&p| p < key) {
            out.push(make(a, b));
        }
        if next_pair.next_if(|&&p| p == key).is_some() || keep_stale(&c) {
            out.push(c);
        }
    }
    for &(a, b) in next_pair {
        out.push(make(a, b));
    }
}

/// Whether every pair of the sorted `pairs` already has a contact in the
/// sorted `old` (a linear walk over both).
fn pairs_all_cached(pairs: &[(u32, u32)], old: &[Contact]) -> bool {
    let mut keys = old.iter().map(Contact::key).peekable();
    pairs.iter().all(|&pair| {
        while keys.next_if(|&k| k < pair).is_some() {}
        keys.next_if(|&k| k == pair).is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A contact tagged through its friction, so the test can tell a carried
    /// contact (tag = its old index + 1) from a new one (tag 0).
    fn contact(a: u32, b: u32, tag: f32) -> Contact {
        Contact { body_a: a, body_b: b, friction: tag, ..Contact::default() }
    }

    /// Brute-force oracle: each pair carries its old contact or starts new,
    /// and unpaired old contacts stay only if `keep` says so; sorted by key.
    fn expected(
        pairs: &[(u32, u32)],
        old: &[Contact],
        keep: &dyn Fn(&Contact) -> bool,
    ) -> Vec<(u32, u32, f32)> {
        let mut out: Vec<(u32, u32, f32)> = pairs
            .iter()
            .map(|&(a, b)| {
                let tag = old.iter().find(|c| c.key() == (a, b)).map_or(0.0, |c| c.friction);
                (a, b, tag)
            })
            .collect();
        for c in old {
            if !pairs.contains(&c.key()) && keep(c) {
                out.push((c.body_a, c.body_b, c.friction));
            }
        }
        out.sort_by_key(|x| (x.0, x.1));
        out
    }

    #[test]
    fn merge_matches_brute_force_with_and_without_new_pairs() {
        let old_keys = [(0, 1), (0, 2), (1, 3), (2, 3), (4, 5)];
        // Stale contacts with an even body A are kept.
        let keep = |c: &Contact| c.body_a.is_multiple_of(2);
        let cases: [&[(u32, u32)]; 5] = [
            &[(0, 1), (0, 2), (1, 3), (2, 3), (4, 5)], // unchanged
            &[(0, 2), (2, 3)],                         // some gone
            &[],                                       // all gone
            &[(0, 1), (0, 3), (4, 5), (6, 7)],         // new pairs
            &[(0, 0), (9, 9)],                         // only new pairs
        ];
        for pairs in cases {
            let make_old = || -> Vec<Contact> {
                old_keys
                    .iter()
                    .enumerate()
                    .map(|(i, &(a, b))| contact(a, b, i as f32 + 1.0))
                    .collect()
            };
            let want = expected(pairs, &make_old(), &keep);
            let mut old = make_old();
            let mut out = vec![contact(42, 43, -1.0)];
            merge(pairs, &mut old, &mut out, keep, |a, b| contact(a, b, 0.0));
            let got: Vec<_> = out.iter().map(|c| (c.body_a, c.body_b, c.friction)).collect();
            assert_eq!(got, want, "pairs {pairs:?}");
            assert!(old.is_empty(), "old contacts left behind for pairs {pairs:?}");
        }
    }
}
