//! Graph colouring of joints (Box2D v3's `constraint_graph.c` idea, for
//! joints alone): each joint, in the order given, takes the lowest colour
//! that no earlier joint on either of its moving bodies took, so no two
//! joints of a colour share a body the solver moves. The joints of one
//! colour can then be solved in any order, in SIMD lanes and on several
//! threads, with the same results. Departure from Box2D: bodies the
//! joints do not move (static or asleep) are left out of the test
//! entirely rather than given a colour bit, and a joint that finds no
//! free colour among [`MAX_COLOURS`] is reported as overflow for the
//! caller's serial path, as Box2D's overflow constraints are.
//!
//! The colouring depends only on the joints and their order, never on
//! the thread count. Joints are coloured as they are prepared, so a
//! colour's joints keep their slot order.

/// Colours a joint may take. A body with more joints than this sends the
/// rest to the overflow; 24 is Box2D v3's `B2_GRAPH_COLOR_COUNT`, and the
/// bit set of one body's colours fits a `u32`.
pub(crate) const MAX_COLOURS: usize = 24;

/// The colouring of one step: the colours each solver body's joints took.
#[derive(Debug, Default)]
pub(crate) struct JointColours {
    /// Per solver body: the colours its joints took, as bits.
    body_colours: Vec<u32>,
}

impl JointColours {
    /// Forgets the last colouring, for solver bodies `0..body_count`.
    pub fn clear(&mut self, body_count: usize) {
        self.body_colours.clear();
        self.body_colours.resize(body_count, 0);
    }

    /// The colour of the next joint, whose moving bodies are `a` and `b`
    /// (solver indices below the count given to [`clear`](Self::clear);
    /// `None` for a side the joint does not move), or `None` if every
    /// colour is taken on one of them (the overflow).
    pub fn add(&mut self, a: Option<u32>, b: Option<u32>) -> Option<usize> {
        let used = |side: Option<u32>| side.map_or(0, |i| self.body_colours[i as usize]);
        let free = !(used(a) | used(b));
        let colour = free.trailing_zeros() as usize;
        if colour >= MAX_COLOURS {
            return None;
        }
        for side in [a, b].into_iter().flatten() {
            self.body_colours[side as usize] |= 1 << colour;
        }
        Some(colour)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two joints of a colour share a moving body, every joint is
    /// coloured once or overflows, and a body with more than
    /// `MAX_COLOURS` joints overflows the rest.
    #[test]
    fn colours_never_share_a_moving_body() {
        // A 30 × 30 grid's edges, then a star of 40 joints on body 0.
        let n = 30u32;
        let mut edges = Vec::new();
        for k in 0..n {
            for i in 0..n {
                let body = k * n + i;
                if i > 0 {
                    edges.push((Some(body - 1), Some(body)));
                }
                if k > 0 {
                    edges.push((Some(body - n), Some(body)));
                }
            }
        }
        for leaf in 1..=40 {
            edges.push((Some(0), (leaf < 35).then_some(leaf)));
        }
        let mut colours = JointColours::default();
        colours.clear((n * n) as usize);
        let mut lists = vec![Vec::new(); MAX_COLOURS];
        let mut overflow = Vec::new();
        for (item, &(a, b)) in edges.iter().enumerate() {
            match colours.add(a, b) {
                Some(colour) => lists[colour].push(item),
                None => overflow.push(item),
            }
        }
        let mut seen = vec![0u32; edges.len()];
        for list in &lists {
            let mut bodies = std::collections::HashSet::new();
            for &item in list {
                seen[item] += 1;
                let (a, b) = edges[item];
                for body in [a, b].into_iter().flatten() {
                    assert!(bodies.insert(body), "body {body} twice in a colour");
                }
            }
            assert!(list.windows(2).all(|w| w[0] < w[1]), "a colour keeps the order");
        }
        for &item in &overflow {
            seen[item] += 1;
        }
        assert!(seen.iter().all(|&s| s == 1));
        // Body 0 has its grid joints (2) and the star's 40: 24 colours at
        // most, so at least 18 of them overflow.
        assert!(overflow.len() >= 2 + 40 - MAX_COLOURS, "{}", overflow.len());
        assert!(overflow.iter().all(|&item| {
            let (a, b) = edges[item];
            a == Some(0) || b == Some(0)
        }));
    }
}
