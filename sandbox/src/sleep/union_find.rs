//! Disjoint sets over places 0..n (Tarjan's union-find with path
//! halving), which [`update_sleep`](crate::sleep::update_sleep) uses to
//! find islands over its awake bodies' places and the world view over its
//! movers' (never over every body slot, so that a million fixed bodies
//! size nothing here: issue 39).

/// Disjoint sets over places 0..n.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// Resets to `n` singleton sets.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
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

    /// Joins the sets of `a` and `b`; the smaller place becomes the root so
    /// the result does not depend on the order of unions.
    pub fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.parent[rb as usize] = ra;
        } else if rb < ra {
            self.parent[ra as usize] = rb;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sets after any unions are those of the brute-force closure of
    /// the same links, each set's root its smallest place; and a reset
    /// makes every place a singleton again.
    #[test]
    fn sets_match_the_closure_of_the_links_rooted_at_their_smallest_place() {
        let mut sets = UnionFind::default();
        let mut state = 12345u32;
        let mut next = |n: u32| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) % n
        };
        for round in 0..20u32 {
            let n = 40 + round * 3;
            sets.reset(n as usize);
            for x in 0..n {
                assert_eq!(sets.find(x), x, "round {round}: place {x} not a singleton");
            }
            // Brute force: a label per place, relabelled to the smaller of
            // two labels at each link, until nothing changes.
            let links: Vec<(u32, u32)> = (0..round * 5).map(|_| (next(n), next(n))).collect();
            let mut label: Vec<u32> = (0..n).collect();
            let mut changed = true;
            while changed {
                changed = false;
                for &(a, b) in &links {
                    let low = label[a as usize].min(label[b as usize]);
                    for x in [a, b] {
                        if label[x as usize] != low {
                            label[x as usize] = low;
                            changed = true;
                        }
                    }
                }
            }
            for &(a, b) in &links {
                sets.union(a, b);
            }
            for x in 0..n {
                assert_eq!(sets.find(x), label[x as usize], "round {round}: place {x}");
            }
        }
    }
}
