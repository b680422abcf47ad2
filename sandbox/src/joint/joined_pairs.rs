//! The pairs of bodies that a joint keeps from colliding (joints whose
//! [`collide_connected`](crate::JointDesc::collide_connected) is false),
//! counted per pair, which
//! [`bodies_may_collide`](crate::collision::shape_pairs::bodies_may_collide)
//! asks for every body pair the broad phase reports. A hash map keyed by
//! the ordered slot pair: an O(1) lookup, skipped whole while no joint
//! asks for it, and changed only when joints are created or removed, so
//! a step allocates nothing here.
//!
//! The map hashes its keys with [`PairHasher`], one folded 64 × 64-bit
//! multiply, rather than the standard library's SipHash: the lookup runs
//! for every broad-phase pair of every step (joint-grid's 20,000 a step),
//! and SipHash's protection against chosen keys buys nothing for body
//! slots the world hands out itself. Nothing iterates the map, so its
//! order cannot reach a result.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The multiplier of [`PairHasher`]: 2⁶⁴ divided by the golden ratio,
/// odd, so multiplying by it is a bijection on 64-bit keys.
const PAIR_HASH_MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// Hashes a slot pair packed in a `u64` by a full 64 × 64 → 128-bit
/// multiply folded back to 64 bits (high half XOR low half). Every key bit
/// reaches both the low bits the map picks its bucket from and the top
/// seven bits it keeps as tags, at the cost of one multiply.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher {
    hash: u64,
}

impl PairHasher {
    /// Mixes `word` into the hash.
    #[inline]
    fn mix(&mut self, word: u64) {
        let product = u128::from(self.hash ^ word) * u128::from(PAIR_HASH_MULTIPLIER);
        self.hash = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for PairHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.mix(word);
    }

    /// Any other key type: its bytes, eight at a time.
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
    }
}

/// Body pairs (smaller slot first) with how many non-colliding joints
/// join them.
#[derive(Debug, Default)]
pub(crate) struct JoinedPairs {
    counts: HashMap<u64, u32, BuildHasherDefault<PairHasher>>,
}

/// The pair's key: the smaller slot in the high half.
#[inline]
fn key(a: u32, b: u32) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    (u64::from(low) << 32) | u64::from(high)
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::hash::BuildHasher;

    use super::*;

    /// Adds and removes random pairs, in either order of their slots, and
    /// checks every lookup against a sorted map of the same counts.
    #[test]
    fn counts_match_a_sorted_map_reference() {
        let mut rng = crate::rng::Lcg(7);
        let mut pairs = JoinedPairs::default();
        let mut reference = BTreeMap::<(u32, u32), u32>::new();
        let slot = |rng: &mut crate::rng::Lcg| rng.below(40) as u32;
        for _ in 0..4000 {
            let (a, b) = (slot(&mut rng), slot(&mut rng));
            let k = (a.min(b), a.max(b));
            if rng.chance(0.6) {
                pairs.add(a, b);
                *reference.entry(k).or_insert(0) += 1;
            } else {
                pairs.remove(b, a);
                if let Some(n) = reference.get_mut(&k) {
                    *n -= 1;
                    if *n == 0 {
                        reference.remove(&k);
                    }
                }
            }
            let (c, d) = (slot(&mut rng), slot(&mut rng));
            let expected = reference.contains_key(&(c.min(d), c.max(d)));
            assert_eq!(pairs.contains(c, d), expected, "pair ({c}, {d})");
            assert_eq!(pairs.contains(d, c), expected, "pair ({d}, {c})");
        }
        assert_eq!(pairs.counts.len(), reference.len());
    }

    /// A grid's neighbour pairs (keys that differ in a few low bits of each
    /// half) spread over the low bits the map indexes buckets with as a
    /// random function would (4,096 keys into 4,096 buckets fill about
    /// 1 − 1/e of them, 2,589), and over the top seven bits it keeps as tags.
    #[test]
    fn grid_neighbour_keys_spread_over_buckets_and_tags() {
        let build = BuildHasherDefault::<PairHasher>::default();
        let mut buckets = vec![false; 4096];
        let mut tags = [false; 128];
        for i in 0..4096u32 {
            let hash = build.hash_one(key(i, i + 1 + (i % 2) * 63));
            buckets[(hash & 4095) as usize] = true;
            tags[(hash >> 57) as usize] = true;
        }
        let filled = buckets.iter().filter(|&&b| b).count();
        assert!(filled > 2400, "{filled} of 4096 buckets");
        assert_eq!(tags.iter().filter(|&&t| t).count(), 128);
    }
}
