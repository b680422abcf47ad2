//! A box hierarchy bulk-loaded in one linear pass over items sorted along
//! a space-filling curve: the fixed bodies' hierarchy of the broad phase
//! (`collision/static_boxes.rs`), built over up to millions of boxes at
//! once.
//!
//! Method: the packed R-tree of Kamel and Faloutsos ("On packing R-trees",
//! CIKM 1993): sort the items by the curve's index of their box centres,
//! cut the sorted list into runs of [`FAN`] items (the leaves), then cut
//! each level's nodes into runs of [`FAN`] to make the level above, up to
//! one root. Departures: the curve is Morton's (Z-order: the bits of the
//! three quantised coordinates interleaved) rather than Hilbert's, which
//! is cheaper to compute and as good for the grid-like sets this holds;
//! the sort is a least-significant-digit radix sort, stable, so items
//! with the same code stay in the order given and the tree depends only
//! on the items, their order and their boxes. The tree keeps no copy of
//! the items' boxes: a query reads them from the caller's slice (the
//! broad phase's fat boxes by slot), so the tree costs an item index and
//! about a third of a node box per item.
//!
//! Against the binned-SAH build of `collide::bvh::StaticBvh` (which this
//! replaces for the fixed bodies): O(n) after an O(n) sort instead of
//! O(n log n) passes of random reads, and sequential memory traffic. Its
//! nodes are looser on irregular sets, which costs queries a little; the
//! fixed bodies are queried only by the moving bodies' boxes that moved.

use collide::nalgebra::Point3;

use crate::collision::aabb::Aabb;

/// Children of a node, and items of a leaf: four keeps a node's children
/// in two cache lines of boxes, and the tree a quarter as tall as a binary
/// one.
pub(crate) const FAN: usize = 4;

/// Most levels a tree has: `FAN^16 = 2^32` covers every `u32` item count,
/// so a query's stack never outgrows its fixed array.
const MAX_LEVELS: usize = 16;

/// Bits of each coordinate in the Morton code: three times 21 fills 63
/// bits of the `u64` key.
const BITS_PER_AXIS: u32 = 21;

/// The largest quantised coordinate.
const MAX_CELL: f32 = ((1u32 << BITS_PER_AXIS) - 1) as f32;

/// Bits the radix sort takes per pass.
const DIGIT_BITS: u32 = 8;

/// A packed box hierarchy over caller-owned boxes (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct PackedBoxTree {
    /// The items in curve order: leaf `i` holds `items[FAN i..FAN (i + 1)]`.
    items: Vec<u32>,
    /// Every node's box, level by level from the leaves up; node `i` of
    /// level `k > 0` has the nodes `FAN i..FAN (i + 1)` of level `k - 1`
    /// as its children.
    nodes: Vec<Aabb>,
    /// Where each level starts in `nodes`, and where the last one ends.
    level_starts: Vec<usize>,
}

impl PackedBoxTree {
    /// Builds the tree over `items`, with item `s`'s box `boxes[s]`.
    /// Boxes should be finite with `min <= max` (the caller screens
    /// them); any other box only makes queries slower or lets them miss
    /// that item, never panics. Items must be indices into `boxes`.
    pub fn build(items: &[u32], boxes: &[Aabb]) -> Self {
        let mut tree = Self::default();
        if items.is_empty() {
            return tree;
        }
        debug_assert!(items.len() < u32::MAX as usize, "item count fits the node indices");
        tree.items = curve_order(items, boxes);
        // The leaves' boxes, then each level's from the one below.
        tree.level_starts.push(0);
        tree.nodes.reserve(items.len().div_ceil(FAN - 1));
        for run in tree.items.chunks(FAN) {
            tree.nodes.push(union(run.iter().map(|&s| &boxes[s as usize])));
        }
        loop {
            let start = *tree.level_starts.last().expect("pushed above");
            let end = tree.nodes.len();
            tree.level_starts.push(end);
            if end - start <= 1 {
                break;
            }
            for first in (start..end).step_by(FAN) {
                let last = end.min(first + FAN);
                let parent = union(tree.nodes[first..last].iter());
                tree.nodes.push(parent);
            }
        }
        debug_assert!(tree.level_starts.len() <= MAX_LEVELS + 1, "too many levels");
        tree
    }

    /// Number of items.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Calls `f` with every item whose box in `boxes` (the slice the tree
    /// was built over, as it is now) overlaps `query` (touching counts, as
    /// [`Aabb::overlaps`]), each once, in an order that depends only on
    /// the tree. A box that changed since the build is tested as it is
    /// now but found only if its old box's nodes still overlap the query:
    /// the caller rebuilds or keeps changed boxes elsewhere. Does not
    /// allocate.
    pub fn for_each_overlap(&self, boxes: &[Aabb], query: &Aabb, mut f: impl FnMut(u32)) {
        let Some(levels) = self.level_starts.len().checked_sub(1).filter(|&l| l > 0) else {
            return;
        };
        // Pending nodes as (level, index in level): each popped internal
        // node pushes at most FAN children, so the stack holds at most
        // FAN - 1 waiting siblings per level plus the FAN just pushed.
        let mut stack = [(0u32, 0u32); FAN * MAX_LEVELS];
        let mut len = 0;
        let top = levels - 1;
        if self.nodes[self.level_starts[top]].overlaps(query) {
            stack[0] = (top as u32, 0);
            len = 1;
        }
        while len > 0 {
            len -= 1;
            let (level, index) = stack[len];
            let (level, index) = (level as usize, index as usize);
            if level == 0 {
                let end = self.items.len().min(FAN * (index + 1));
                for &item in &self.items[FAN * index..end] {
                    if boxes[item as usize].overlaps(query) {
                        f(item);
                    }
                }
                continue;
            }
            let (below, below_end) = (self.level_starts[level - 1], self.level_starts[level]);
            let first = below + FAN * index;
            for child in first..below_end.min(first + FAN) {
                if self.nodes[child].overlaps(query) {
                    debug_assert!(len < stack.len(), "query stack overflow");
                    stack[len] = ((level - 1) as u32, (child - below) as u32);
                    len += 1;
                }
            }
        }
    }
}

/// The union of `boxes` (at least one).
fn union<'a>(mut boxes: impl Iterator<Item = &'a Aabb>) -> Aabb {
    let first = *boxes.next().expect("a run is never empty");
    boxes.fold(first, |acc, b| acc.merged(b))
}

/// `items` sorted by the Morton code of their box centres, quantised to
/// [`BITS_PER_AXIS`] bits over the centres' bounds; items of equal code
/// keep their order in `items`.
fn curve_order(items: &[u32], boxes: &[Aabb]) -> Vec<u32> {
    let center = |s: u32| boxes[s as usize].center();
    let (lo, hi) = items.iter().fold(
        (Point3::from([f32::INFINITY; 3]), Point3::from([f32::NEG_INFINITY; 3])),
        |(lo, hi), &s| {
            let c = center(s);
            (lo.inf(&c), hi.sup(&c))
        },
    );
    // Cells per metre on each axis; a flat axis (or a non-finite bound)
    // gets 0, putting every item in its first cell.
    let scale = (hi - lo).map(|e| if e > 0.0 && e.is_finite() { MAX_CELL / e } else { 0.0 });
    let mut keyed: Vec<(u64, u32)> = items
        .iter()
        .map(|&s| {
            let q = (center(s) - lo).component_mul(&scale);
            // `as` saturates, and takes NaN to 0.
            let cell = |x: f32| (x.min(MAX_CELL) as u32).min((1 << BITS_PER_AXIS) - 1);
            let code = spread(cell(q.x)) | (spread(cell(q.y)) << 1) | (spread(cell(q.z)) << 2);
            (code, s)
        })
        .collect();
    radix_sort(&mut keyed);
    keyed.into_iter().map(|(_, s)| s).collect()
}

/// The low [`BITS_PER_AXIS`] bits of `x`, each moved to every third bit
/// (bit `k` to bit `3k`).
fn spread(x: u32) -> u64 {
    let mut x = u64::from(x) & ((1 << BITS_PER_AXIS) - 1);
    x = (x | (x << 32)) & 0x001f_0000_0000_ffff;
    x = (x | (x << 16)) & 0x001f_0000_ff00_00ff;
    x = (x | (x << 8)) & 0x100f_00f0_0f00_f00f;
    x = (x | (x << 4)) & 0x10c3_0c30_c30c_30c3;
    x = (x | (x << 2)) & 0x1249_2492_4924_9249;
    x
}

/// Sorts by the key, stably, [`DIGIT_BITS`] bits a pass from the lowest,
/// skipping the passes whose digit is the same for every entry.
fn radix_sort(keyed: &mut Vec<(u64, u32)>) {
    const BUCKETS: usize = 1 << DIGIT_BITS;
    let mut other = vec![(0u64, 0u32); keyed.len()];
    for shift in (0..u64::BITS).step_by(DIGIT_BITS as usize) {
        let digit = |k: u64| ((k >> shift) as usize) & (BUCKETS - 1);
        let mut counts = [0usize; BUCKETS];
        for &(k, _) in keyed.iter() {
            counts[digit(k)] += 1;
        }
        if counts.contains(&keyed.len()) {
            continue;
        }
        let mut next = 0;
        for c in counts.iter_mut() {
            let here = *c;
            *c = next;
            next += here;
        }
        for &entry in keyed.iter() {
            let d = digit(entry.0);
            other[counts[d]] = entry;
            counts[d] += 1;
        }
        std::mem::swap(keyed, &mut other);
    }
}

#[cfg(test)]
mod tests {
    use collide::nalgebra::Point3;

    use super::*;
    use crate::rng::Lcg;

    fn brute_force(items: &[u32], boxes: &[Aabb], query: &Aabb) -> Vec<u32> {
        items.iter().copied().filter(|&s| boxes[s as usize].overlaps(query)).collect()
    }

    fn found(tree: &PackedBoxTree, boxes: &[Aabb], query: &Aabb) -> Vec<u32> {
        let mut out = Vec::new();
        tree.for_each_overlap(boxes, query, |s| out.push(s));
        out.sort_unstable();
        out
    }

    fn cube(center: [f32; 3], half: f32) -> Aabb {
        let c = Point3::from(center);
        Aabb::new(c - Point3::from([half; 3]).coords, c + Point3::from([half; 3]).coords)
    }

    /// Random boxes of sizes from 1e-3 to 1e2, some of them skipped so the
    /// items are not every index; every query's answer is the brute
    /// force's, for tree sizes around the fan's powers.
    #[test]
    fn queries_find_the_brute_force_items() {
        let mut rng = Lcg(38);
        for n in [1usize, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65, 257, 1000] {
            let boxes: Vec<Aabb> = (0..n + 10)
                .map(|_| {
                    let c = [rng.range(-50.0, 50.0), rng.range(-5.0, 5.0), rng.range(-50.0, 50.0)];
                    cube(c, 10f32.powf(rng.range(-3.0, 2.0)))
                })
                .collect();
            let items: Vec<u32> = (0..n as u32 + 10).filter(|s| s % 7 != 3).collect();
            let tree = PackedBoxTree::build(&items, &boxes);
            assert_eq!(tree.len(), items.len());
            for _ in 0..200 {
                let c = [rng.range(-60.0, 60.0), rng.range(-8.0, 8.0), rng.range(-60.0, 60.0)];
                let query = cube(c, 10f32.powf(rng.range(-2.0, 1.5)));
                let mut want = brute_force(&items, &boxes, &query);
                want.sort_unstable();
                assert_eq!(found(&tree, &boxes, &query), want, "n {n}, query {query:?}");
            }
        }
    }

    /// A grid of touching tiles: a query box that just touches a tile's
    /// edge finds it, one that stops a hair short does not, and each tile
    /// is reported once.
    #[test]
    fn touching_tiles_are_found_and_just_missed_ones_are_not() {
        let (grid, cell) = (37usize, 10.0f32);
        let boxes: Vec<Aabb> = (0..grid * grid)
            .map(|k| {
                let (i, j) = ((k / grid) as f32, (k % grid) as f32);
                Aabb::new(
                    Point3::new(i * cell, -0.25, j * cell),
                    Point3::new((i + 1.0) * cell, 0.25, (j + 1.0) * cell),
                )
            })
            .collect();
        let items: Vec<u32> = (0..boxes.len() as u32).collect();
        let tree = PackedBoxTree::build(&items, &boxes);
        // Touches tiles (3, 4) and (4, 4) at x = 40, from above.
        let touching = Aabb::new(Point3::new(35.0, 0.25, 45.0), Point3::new(40.0, 1.0, 46.0));
        assert_eq!(found(&tree, &boxes, &touching), vec![3 * 37 + 4, 4 * 37 + 4]);
        let above = Aabb::new(Point3::new(35.0, 0.2501, 45.0), Point3::new(40.0, 1.0, 46.0));
        assert_eq!(found(&tree, &boxes, &above), Vec::<u32>::new());
        // Everything, each once.
        let all = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(400.0, 1.0, 400.0));
        assert_eq!(found(&tree, &boxes, &all), items);
    }

    /// The build depends only on the items and their boxes: the same
    /// input gives the same item order, and a set of boxes at one point
    /// (every code equal) keeps the order given.
    #[test]
    fn equal_codes_keep_the_given_order() {
        let boxes = vec![cube([1.0, 2.0, 3.0], 0.5); 9];
        let items = [8u32, 2, 5, 0, 1, 7, 3, 6, 4];
        let tree = PackedBoxTree::build(&items, &boxes);
        assert_eq!(tree.items, items);
        let all = cube([1.0, 2.0, 3.0], 1.0);
        assert_eq!(found(&tree, &boxes, &all), (0..9).collect::<Vec<u32>>());
    }

    /// Morton codes interleave the bits: x in bits 0, 3, 6, ..., y in 1,
    /// 4, ..., z in 2, 5, ...
    #[test]
    fn spread_moves_bit_k_to_bit_3k() {
        for k in 0..BITS_PER_AXIS {
            assert_eq!(spread(1 << k), 1u64 << (3 * k), "bit {k}");
        }
        assert_eq!(spread(u32::MAX), 0x1249_2492_4924_9249);
    }

    /// The radix sort agrees with a stable comparison sort.
    #[test]
    fn radix_sort_is_a_stable_sort_by_key() {
        let mut rng = Lcg(41);
        let mut keyed: Vec<(u64, u32)> = (0..5000)
            .map(|i| {
                let k = (rng.below(1 << 20) as u64) << (8 * rng.below(5) as u64);
                (k, i)
            })
            .collect();
        let mut want = keyed.clone();
        want.sort_by_key(|&(k, _)| k);
        radix_sort(&mut keyed);
        assert_eq!(keyed, want);
    }
}
