//! The pairs of bodies that a joint keeps from colliding (joints whose
//! [`collide_connected`](crate::JointDesc::collide_connected) is false),
//! counted per pair, which
//! [`bodies_may_collide`](crate::collision::shape_pairs::bodies_may_collide)
//! asks for every body pair the broad phase reports. A hash map keyed by
//! the ordered slot pair: an O(1) lookup, skipped whole while no joint
//! asks for it, and changed only when joints are created or removed, so
//! a step allocates nothing here.

use std::collections::HashMap;

/// Body pairs (smaller slot first) with how many non-colliding joints
/// join them.
#[derive(Debug, Default)]
pub(crate) struct JoinedPairs {
    counts: HashMap<(u32, u32), u32>,
}

/// The pair's key: the smaller slot first.
#[inline]
fn key(a: u32, b: u32) -> (u32, u32) {
    if a < b { (a, b) } else { (b, a) }
}

impl JoinedPairs {
    /// Counts one more joint keeping `a` and `b` apart.
    pub fn add(&mut self, a: u32, b: u32) {
        *self.counts.entry(key(a, b)).or_insert(0) += 1;
    }

    /// Counts one joint fewer keeping `a` and `b` apart.
    pub fn remove(&mut self, a: u32, b: u32) {
        let k = key(a, b);
        if let Some(n) = self.counts.get_mut(&k) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(&k);
            }
        }
    }

    /// Whether a joint keeps `a` and `b` from colliding.
    #[inline]
    pub fn contains(&self, a: u32, b: u32) -> bool {
        !self.counts.is_empty() && self.counts.contains_key(&key(a, b))
    }
}
