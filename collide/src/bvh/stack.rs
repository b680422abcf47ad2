//! The traversal stack of the tree queries: a fixed-capacity array on the
//! call stack, with a heap `Vec` behind it that is only used (and only
//! allocates) when a tree is deeper than the array. Both trees keep their
//! depth far below it (the dynamic tree balances itself by rotations, the
//! static build falls back to median splits past a depth), so queries do
//! not allocate; a degenerate tree costs an allocation, never a miss or a
//! panic.

/// Entries the traversal stack holds before it spills to the heap. A
/// depth-first walk of the binary dynamic tree holds at most one entry per
/// level plus one (a balanced tree of 2^40 leaves is 40 levels deep); the
/// four-wide static tree's walk holds up to three per level, and its
/// levels are half as many (2^40 leaves: 20 levels, 61 entries). Deeper or
/// degenerate trees spill to the heap and still answer exactly.
pub const INLINE_STACK_DEPTH: usize = 64;

/// A node waiting to be visited, with the ray parameter at which the query
/// enters its box (0 for queries that are not casts).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub node: u32,
    pub toi: f32,
}

/// A last-in first-out stack of [`Pending`] nodes (see the module docs).
#[derive(Debug)]
pub(crate) struct TraversalStack {
    inline: [Pending; INLINE_STACK_DEPTH],
    len: usize,
    spill: Vec<Pending>,
}

impl TraversalStack {
    /// An empty stack; no allocation.
    #[inline]
    pub fn new() -> Self {
        Self {
            inline: [Pending { node: 0, toi: 0.0 }; INLINE_STACK_DEPTH],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    pub fn push(&mut self, entry: Pending) {
        if self.len < INLINE_STACK_DEPTH {
            self.inline[self.len] = entry;
        } else {
            self.spill.push(entry);
        }
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Pending> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if self.len < INLINE_STACK_DEPTH { Some(self.inline[self.len]) } else { self.spill.pop() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spills_past_the_inline_depth_and_pops_in_reverse() {
        let mut stack = TraversalStack::new();
        let n = 3 * INLINE_STACK_DEPTH as u32;
        for node in 0..n {
            stack.push(Pending { node, toi: node as f32 });
        }
        for node in (0..n).rev() {
            assert_eq!(stack.pop().map(|p| p.node), Some(node));
        }
        assert!(stack.pop().is_none());
    }
}
