//! Disjoint sets over body slots (Tarjan's union-find with path halving),
//! which [`update_sleep`](crate::sleep::update_sleep) uses to find islands.

/// Disjoint sets over body slots.
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

    /// Joins the sets of `a` and `b`; the smaller slot becomes the root so the
    /// result does not depend on the order of unions.
    pub fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.parent[rb as usize] = ra;
        } else if rb < ra {
            self.parent[ra as usize] = rb;
        }
    }
}
