//! Disjoint sets over body slots (Tarjan's union-find with path halving),
//! which [`update_sleep`](crate::sleep::update_sleep) uses to find islands.
//!
//! The sets can be reset two ways: [`UnionFind::reset`] makes every slot a
//! singleton (a pass over all of them), and [`UnionFind::undo`] puts back
//! only the roots the unions since the last reset or undo changed, so that
//! a step that joins a few awake bodies among a million fixed ones pays for
//! those few (issue 39).

/// Disjoint sets over body slots.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
    /// The slots whose parent a union changed since the last reset or
    /// undo: the only ones that are not their own parent (path halving
    /// only rewrites the parents of such slots).
    joined: Vec<u32>,
}

impl UnionFind {
    /// Resets to `n` singleton sets.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.joined.clear();
    }

    /// Makes the sets `n` singletons again, as [`Self::reset`], walking
    /// only the slots joined since (and the new ones, when `n` grew).
    pub fn undo(&mut self, n: usize) {
        for &x in &self.joined {
            self.parent[x as usize] = x;
        }
        self.joined.clear();
        if self.parent.len() > n {
            self.parent.truncate(n);
        }
        let from = self.parent.len() as u32;
        self.parent.extend(from..n as u32);
    }

    /// Slots the last [`Self::undo`] (or the next) walks: those joined.
    pub fn joined(&self) -> usize {
        self.joined.len()
    }

    /// The representative of `x`'s set.
    pub fn find(&mut self, mut x: u32) -> u32 {
        // Path halving: each visited node skips to its grandparent. The loop
        // ends because every parent link points to a smaller-or-equal rank.
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Joins the sets of `a` and `b`; the smaller slot becomes the root so the
    /// result does not depend on the order of unions.
    pub fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.parent[rb as usize] = ra;
            self.joined.push(rb);
        } else if rb < ra {
            self.parent[ra as usize] = rb;
            self.joined.push(ra);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After any unions, `undo` gives the sets `reset` gives: every slot
    /// its own root, at the new size (grown or shrunk); and the sets found
    /// after it are those of a fresh structure.
    #[test]
    fn undo_restores_singletons_like_reset() {
        let mut sets = UnionFind::default();
        sets.reset(50);
        let mut fresh = UnionFind::default();
        let mut state = 12345u32;
        let mut next = |n: u32| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) % n
        };
        for round in 0..20u32 {
            let n = 40 + round * 3;
            sets.undo(n as usize);
            fresh.reset(n as usize);
            for x in 0..n {
                assert_eq!(sets.find(x), x, "round {round}: slot {x} not a singleton");
            }
            for _ in 0..(round * 5) {
                let (a, b) = (next(n), next(n));
                sets.union(a, b);
                fresh.union(a, b);
            }
            for x in 0..n {
                assert_eq!(sets.find(x), fresh.find(x), "round {round}: slot {x}");
            }
        }
    }
}
