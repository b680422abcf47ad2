//! Islands for sleeping: bodies linked by touching contacts, found each step
//! with a union-find (Tarjan's disjoint sets with path halving), and put to
//! sleep together once every member has been still for long enough.
//!
//! Departure from Box2D v3, which keeps persistent islands and splits them
//! lazily: islands here are rebuilt from scratch each step over the awake
//! bodies only, which is simpler and linear in bodies plus contacts. A
//! sleeping island remembers its members through a shared island id.

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
