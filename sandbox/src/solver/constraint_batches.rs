//! Groups the contact constraints into batches of up to [`LANES`] manifolds
//! that share no awake body, so that a batch can be solved in SIMD lanes
//! (one manifold per lane) without two lanes writing the same body.
//!
//! Box2D v3 (`constraint_graph.c`) graph-colours the constraints and solves
//! colour by colour, which lets threads share a colour. This solver runs on
//! one thread, so only a batch needs to be conflict free, not a whole
//! colour, and the sweep can stay close to the constraints' own order. That
//! order matters: solving colour after colour (greedy colouring, 16 colours)
//! made the 100-row pyramid slide 2.3 m by step 600 where the original
//! order leaves 0.46 m, and even a window of two batches filled oldest-first
//! left 1.0 m. Each constraint, in order, joins the *newest* of the last
//! [`WINDOW`] open batches that has room and none of its bodies, so it moves
//! as little as possible; when none does, a new batch opens and, if the
//! window is full, the oldest open batch is closed as it is (partly
//! filled). Batches are solved in the order they opened. The static
//! stand-in (solver body 0) is never written, so any number of lanes may
//! hold it.

use crate::solver::simd_batch::LANES;

/// Open batches a constraint may join. Wider windows fill more lanes but
/// move constraints further from their order: on the 100-row pyramid
/// (sleep on, 4 substeps, 50 Hz) four batches gave 0.52 m of drift at step
/// 600 against the original order's 0.46 m, six gave 0.65 m at step 576.
const WINDOW: usize = 4;

/// An open batch: its constraints and their bodies. Unused body slots hold
/// 0, the static stand-in, which never conflicts.
#[derive(Clone, Copy, Debug, Default)]
struct OpenBatch {
    members: [u32; LANES],
    bodies: [[u32; 2]; LANES],
    len: usize,
}

impl OpenBatch {
    fn accepts(&self, a: u32, b: u32) -> bool {
        self.len < LANES && self.bodies.iter().flatten().all(|&x| x == 0 || (x != a && x != b))
    }
}

/// The batches of one step, with the scratch they are built in.
#[derive(Debug, Default)]
pub(crate) struct ConstraintBatches {
    /// The open batches, oldest first from `first`, as a ring.
    open: [OpenBatch; WINDOW],
    first: usize,
    open_count: usize,
    /// Constraint indices, batch after batch.
    pub order: Vec<u32>,
    /// Number of constraints in each batch (1 to [`LANES`]), in `order`'s order.
    pub lens: Vec<u8>,
}

impl ConstraintBatches {
    /// Batches the constraints whose solver body pairs are `pairs`,
    /// numbering them in order from 0.
    #[cfg(test)]
    pub fn build(&mut self, pairs: impl Iterator<Item = (u32, u32)>) {
        self.clear();
        self.append(pairs.enumerate().map(|(i, (a, b))| (i as u32, a, b)));
    }

    /// Forgets every batch.
    pub fn clear(&mut self) {
        self.order.clear();
        self.lens.clear();
    }

    /// Batches the constraints `(index, a, b)` (their index and their
    /// solver body pair) after the batches already built, never mixing
    /// them with those: the solver runs the batches of each region apart
    /// (see [`crate::solver::regions`]).
    pub fn append(&mut self, constraints: impl Iterator<Item = (u32, u32, u32)>) {
        self.first = 0;
        self.open_count = 0;
        for (i, a, b) in constraints {
            // The newest open batch that takes the constraint, else a new one.
            let found = (0..self.open_count).rev().find(|&k| self.open_at(k).accepts(a, b));
            let k = match found {
                Some(k) => k,
                None => {
                    if self.open_count == WINDOW {
                        self.close_front();
                    }
                    let slot = (self.first + self.open_count) % WINDOW;
                    self.open[slot] = OpenBatch::default();
                    self.open_count += 1;
                    self.open_count - 1
                }
            };
            let o = &mut self.open[(self.first + k) % WINDOW];
            o.members[o.len] = i;
            o.bodies[o.len] = [a, b];
            o.len += 1;
            // Full batches leave as soon as every older one has.
            while self.open_count > 0 && self.open_at(0).len == LANES {
                self.close_front();
            }
        }
        while self.open_count > 0 {
            self.close_front();
        }
    }

    /// The `k`-th oldest open batch.
    fn open_at(&self, k: usize) -> &OpenBatch {
        &self.open[(self.first + k) % WINDOW]
    }

    fn close_front(&mut self) {
        let o = self.open[self.first];
        self.order.extend_from_slice(&o.members[..o.len]);
        self.lens.push(o.len as u8);
        self.first = (self.first + 1) % WINDOW;
        self.open_count -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute-force oracle: every constraint appears once, and no batch holds
    /// a non-static body twice.
    #[test]
    fn no_body_twice_in_a_batch() {
        let mut state = 12345u32;
        let mut rand = |n: u32| {
            state = state.wrapping_mul(1664525).wrapping_add(1013904223);
            (state >> 8) % n
        };
        let pairs: Vec<(u32, u32)> = (0..400).map(|_| (rand(30), 1 + rand(29))).collect();
        let mut batches = ConstraintBatches::default();
        batches.build(pairs.iter().copied());
        let mut seen = vec![false; pairs.len()];
        for &i in &batches.order {
            assert!(!seen[i as usize], "constraint {i} twice");
            seen[i as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let mut start = 0;
        for &len in &batches.lens {
            let members = &batches.order[start..start + len as usize];
            for (k, &i) in members.iter().enumerate() {
                for &j in &members[k + 1..] {
                    let (p, q) = (pairs[i as usize], pairs[j as usize]);
                    for x in [p.0, p.1] {
                        assert!(x == 0 || (x != q.0 && x != q.1), "batch at {start}: {p:?} {q:?}");
                    }
                }
            }
            start += len as usize;
        }
        assert_eq!(start, pairs.len());
    }

    /// Constraints that share no body keep their order exactly and fill
    /// whole batches.
    #[test]
    fn independent_constraints_keep_their_order() {
        let pairs: Vec<(u32, u32)> = (0..10).map(|i| (0, i + 1)).collect();
        let mut batches = ConstraintBatches::default();
        batches.build(pairs.iter().copied());
        assert_eq!(batches.order, (0..10).collect::<Vec<u32>>());
        assert_eq!(batches.lens, vec![4, 4, 2]);
    }

    /// The window rule written plainly, as a list of open batches: each
    /// constraint joins the newest open batch with room and none of its
    /// bodies, else opens one (closing the oldest when `WINDOW` are open);
    /// full batches close once every older one has. The ring buffer must
    /// give the same batches, in the same order.
    #[test]
    fn ring_matches_the_plain_window_rule() {
        let mut state = 99u32;
        let mut rand = |n: u32| {
            state = state.wrapping_mul(1664525).wrapping_add(1013904223);
            (state >> 8) % n
        };
        for bodies in [3, 8, 40, 400] {
            let pairs: Vec<(u32, u32)> =
                (0..1000).map(|_| (rand(bodies), 1 + rand(bodies - 1))).collect();
            let mut open: Vec<Vec<(u32, u32, u32)>> = Vec::new();
            let mut batches: Vec<Vec<u32>> = Vec::new();
            let conflict_free = |batch: &Vec<(u32, u32, u32)>, a: u32, b: u32| {
                batch.len() < LANES
                    && batch
                        .iter()
                        .all(|&(_, x, y)| [x, y].iter().all(|&z| z == 0 || (z != a && z != b)))
            };
            for (i, &(a, b)) in pairs.iter().enumerate() {
                let k = match open.iter().rposition(|o| conflict_free(o, a, b)) {
                    Some(k) => k,
                    None => {
                        if open.len() == WINDOW {
                            batches.push(open.remove(0).iter().map(|m| m.0).collect());
                        }
                        open.push(Vec::new());
                        open.len() - 1
                    }
                };
                open[k].push((i as u32, a, b));
                while open.first().is_some_and(|o| o.len() == LANES) {
                    batches.push(open.remove(0).iter().map(|m| m.0).collect());
                }
            }
            batches.extend(open.drain(..).map(|o| o.iter().map(|m| m.0).collect::<Vec<u32>>()));
            let mut built = ConstraintBatches::default();
            built.build(pairs.iter().copied());
            let lens: Vec<u8> = batches.iter().map(|b| b.len() as u8).collect();
            assert_eq!(built.lens, lens, "{bodies} bodies");
            assert_eq!(built.order, batches.concat(), "{bodies} bodies");
        }
    }
}
