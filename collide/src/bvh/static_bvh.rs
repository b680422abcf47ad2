//! A bounding-volume hierarchy built once over a slice of boxes (the
//! triangles of a mesh, the parts of a compound) and stored flat: nodes in
//! one `Vec`, the two children of a node side by side, each leaf naming a
//! run of at most [`MAX_LEAF_ITEMS`] items in a permuted item list.
//!
//! Method: top-down build with the binned surface-area heuristic (Wald,
//! "On fast construction of SAH-based bounding volume hierarchies", 2007):
//! the items' centroids are dropped into [`BIN_COUNT`] equal bins along the
//! axis where they spread most, and the node is split at the bin boundary
//! that minimises `area(left) · count(left) + area(right) · count(right)`.
//!
//! Departures: a node of at most [`MAX_LEAF_ITEMS`] items is always a leaf
//! and a larger one is always split (no leaf-versus-split cost test); items
//! whose centroids coincide, which no plane separates, are split at the
//! middle of their list; and below [`SAH_MAX_DEPTH`] levels the split is
//! the median of the centroids, which halves the node, so the tree stays
//! shallower than `SAH_MAX_DEPTH + log2(n) + 1` whatever the input and the
//! queries' stacks never leave the call stack.

use nalgebra::Vector3;

use super::error::{BvhError, TreeDefect};
use super::traversal::{self, Hierarchy, NodeContent, RayControl, Traversal};
use crate::aabb::Aabb;
use crate::query::Ray;

/// Most items a leaf holds. Four keeps a leaf's items in one or two cache
/// lines of boxes while halving the nodes of a one-item-per-leaf tree.
pub const MAX_LEAF_ITEMS: usize = 4;

/// Bins of the binned SAH. Sixteen is Wald's choice; more bins buy little
/// quality for their build time.
const BIN_COUNT: usize = 16;

/// Depth past which splits are medians (see the module docs), so that
/// `SAH_MAX_DEPTH + log2(2^31) < INLINE_STACK_DEPTH`.
const SAH_MAX_DEPTH: u32 = 32;

/// A node: its box, and either its children (`count == 0`: nodes `first`
/// and `first + 1`) or its items (`items[first..first + count]`).
#[derive(Clone, Copy, Debug)]
struct FlatNode {
    aabb: Aabb,
    first: u32,
    count: u32,
}

/// A static bounding-volume hierarchy over boxes given once (see the
/// module docs for the build). Items are the boxes' positions in the
/// slice it was built from. Queries are those of
/// [`DynamicTree`](super::DynamicTree), with the same frames (the boxes')
/// and the same callbacks, and do not allocate.
///
/// ```
/// use collide::bvh::{RayControl, StaticBvh};
/// use collide::{Aabb, Ray};
/// use collide::nalgebra::{Point3, Vector3};
///
/// // A row of unit boxes at x = 0, 2, 4, ...
/// let boxes: Vec<Aabb> = (0..100)
///     .map(|i| {
///         let x = 2.0 * i as f32;
///         Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0))
///     })
///     .collect();
/// let bvh = StaticBvh::try_new(&boxes).unwrap();
///
/// // The first box a ray along the row meets, from x = 9.5: box 5 (x = 10).
/// let ray = Ray::new(Point3::new(9.5, 0.5, 0.5), Vector3::x());
/// let mut nearest = None;
/// bvh.cast_ray(&ray, f32::INFINITY, |item, toi| {
///     if nearest.is_none_or(|(_, best)| toi < best) {
///         nearest = Some((item, toi));
///     }
///     RayControl::ShortenTo(toi)
/// });
/// assert_eq!(nearest, Some((5, 0.5)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct StaticBvh {
    nodes: Vec<FlatNode>,
    /// Item indices in leaf order.
    items: Vec<u32>,
    /// The items' boxes, in leaf order.
    item_boxes: Vec<Aabb>,
}

/// A bin of the SAH build: how many centroids fell in it, and their boxes'
/// union.
#[derive(Clone, Copy)]
struct Bin {
    count: u32,
    aabb: Aabb,
}

const EMPTY_BOX: Aabb = Aabb::new(
    nalgebra::Point3::new(f32::INFINITY, f32::INFINITY, f32::INFINITY),
    nalgebra::Point3::new(f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY),
);

impl StaticBvh {
    /// Builds the hierarchy over `boxes`; item `i` is `boxes[i]`. An empty
    /// slice gives an empty hierarchy. Allocates the nodes and two copies
    /// of the item list (indices and boxes, in leaf order).
    ///
    /// # Errors
    /// [`BvhError::NonFiniteBox`] or [`BvhError::InvertedBox`] with the
    /// index of the first bad box; [`BvhError::TooManyItems`] for `2^31`
    /// boxes or more.
    pub fn try_new(boxes: &[Aabb]) -> Result<Self, BvhError> {
        if boxes.len() >= (1usize << 31) {
            return Err(BvhError::TooManyItems { count: boxes.len() });
        }
        for (i, b) in boxes.iter().enumerate() {
            if !b.min.iter().chain(b.max.iter()).all(|c| c.is_finite()) {
                return Err(BvhError::NonFiniteBox { index: Some(i) });
            }
            if b.min.iter().zip(b.max.iter()).any(|(lo, hi)| lo > hi) {
                return Err(BvhError::InvertedBox { index: Some(i) });
            }
        }
        let mut bvh = Self::default();
        if boxes.is_empty() {
            return Ok(bvh);
        }
        let centroids: Vec<Vector3<f32>> = boxes.iter().map(|b| b.center().coords).collect();
        let mut items: Vec<u32> = (0..boxes.len() as u32).collect();
        bvh.nodes.reserve(2 * boxes.len().div_ceil(MAX_LEAF_ITEMS));
        bvh.nodes.push(FlatNode { aabb: EMPTY_BOX, first: 0, count: 0 });
        // Nodes still to build: (node, first item, item count, depth).
        let mut pending = vec![(0u32, 0u32, boxes.len() as u32, 0u32)];
        while let Some((node, first, count, depth)) = pending.pop() {
            let run = &mut items[first as usize..(first + count) as usize];
            let aabb = run.iter().fold(EMPTY_BOX, |acc, &i| acc.merged(&boxes[i as usize]));
            if count as usize <= MAX_LEAF_ITEMS {
                bvh.nodes[node as usize] = FlatNode { aabb, first, count };
                continue;
            }
            let left_count = split(run, boxes, &centroids, depth);
            debug_assert!(0 < left_count && left_count < count, "a split must shrink both sides");
            let children = bvh.nodes.len() as u32;
            bvh.nodes.push(FlatNode { aabb: EMPTY_BOX, first: 0, count: 0 });
            bvh.nodes.push(FlatNode { aabb: EMPTY_BOX, first: 0, count: 0 });
            bvh.nodes[node as usize] = FlatNode { aabb, first: children, count: 0 };
            pending.push((children, first, left_count, depth + 1));
            pending.push((children + 1, first + left_count, count - left_count, depth + 1));
        }
        bvh.item_boxes = items.iter().map(|&i| boxes[i as usize]).collect();
        bvh.items = items;
        Ok(bvh)
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the hierarchy holds no item.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Number of nodes, leaves included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The number of levels below the root (0 for a single leaf or none).
    pub fn height(&self) -> u32 {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut deepest = 0;
        let mut stack = vec![(0u32, 0u32)];
        while let Some((n, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            let node = &self.nodes[n as usize];
            if node.count == 0 {
                stack.extend([(node.first, depth + 1), (node.first + 1, depth + 1)]);
            }
        }
        deepest
    }

    /// The box of every item together (`None` when empty).
    pub fn root_aabb(&self) -> Option<Aabb> {
        self.nodes.first().map(|n| n.aabb)
    }

    /// Calls `on_item` with each item whose box overlaps or touches `aabb`,
    /// in no particular order, until it returns `false`.
    ///
    /// # Errors
    /// [`BvhError::NonFiniteQuery`] for a NaN or infinite corner.
    pub fn try_query_aabb(
        &self,
        aabb: &Aabb,
        on_item: impl FnMut(u32) -> bool,
    ) -> Result<Traversal, BvhError> {
        traversal::try_query_aabb(self, aabb, on_item)
    }

    /// [`try_query_aabb`](Self::try_query_aabb), visiting nothing for a
    /// query box with a NaN or infinite corner.
    pub fn query_aabb(&self, aabb: &Aabb, on_item: impl FnMut(u32) -> bool) -> Traversal {
        self.try_query_aabb(aabb, on_item).unwrap_or(Traversal::Finished)
    }

    /// Calls `on_item` with each item whose box the ray meets at a
    /// parameter `t ≤ max_toi`, with the parameter where it enters the box,
    /// nearest subtrees first; see
    /// [`DynamicTree::try_cast_ray`](super::DynamicTree::try_cast_ray).
    ///
    /// # Errors
    /// [`BvhError::NonFiniteQuery`] for a NaN or infinite origin or
    /// direction, or a NaN limit.
    pub fn try_cast_ray(
        &self,
        ray: &Ray,
        max_toi: f32,
        on_item: impl FnMut(u32, f32) -> RayControl,
    ) -> Result<Traversal, BvhError> {
        traversal::try_cast(self, ray, Vector3::zeros(), max_toi, on_item)
    }

    /// [`try_cast_ray`](Self::try_cast_ray), visiting nothing for a ray or
    /// limit it refuses.
    pub fn cast_ray(
        &self,
        ray: &Ray,
        max_toi: f32,
        on_item: impl FnMut(u32, f32) -> RayControl,
    ) -> Traversal {
        self.try_cast_ray(ray, max_toi, on_item).unwrap_or(Traversal::Finished)
    }

    /// Calls `on_item` with each item whose box `aabb` touches while it
    /// moves by `t · motion`, `t` in `[0, max_toi]`, with the first such
    /// `t`; see [`DynamicTree::try_cast_aabb`](super::DynamicTree::try_cast_aabb).
    ///
    /// # Errors
    /// [`BvhError::NonFiniteQuery`] for a NaN or infinite box corner or
    /// motion, or a NaN limit; [`BvhError::InvertedBox`] for `min > max`.
    pub fn try_cast_aabb(
        &self,
        aabb: &Aabb,
        motion: &Vector3<f32>,
        max_toi: f32,
        on_item: impl FnMut(u32, f32) -> RayControl,
    ) -> Result<Traversal, BvhError> {
        traversal::try_cast_aabb(self, aabb, motion, max_toi, on_item)
    }

    /// [`try_cast_aabb`](Self::try_cast_aabb), visiting nothing for a box,
    /// motion or limit it refuses.
    pub fn cast_aabb(
        &self,
        aabb: &Aabb,
        motion: &Vector3<f32>,
        max_toi: f32,
        on_item: impl FnMut(u32, f32) -> RayControl,
    ) -> Traversal {
        self.try_cast_aabb(aabb, motion, max_toi, on_item).unwrap_or(Traversal::Finished)
    }

    /// Walks every node whose box `descend` accepts and calls `on_item`
    /// with each item whose box it accepts; see
    /// [`DynamicTree::visit`](super::DynamicTree::visit).
    pub fn visit(
        &self,
        descend: impl FnMut(&Aabb) -> bool,
        on_item: impl FnMut(u32) -> bool,
    ) -> Traversal {
        traversal::visit(self, descend, on_item)
    }

    /// Checks every invariant: each node's box holds its children's or its
    /// items' boxes, leaves hold 1 to [`MAX_LEAF_ITEMS`] items, and the
    /// leaves cover every item exactly once. A failure is a bug.
    pub fn validate(&self) -> Result<(), TreeDefect> {
        let defect = |node: u32, invariant| Err(TreeDefect { node, invariant });
        if self.nodes.is_empty() {
            return if self.items.is_empty() { Ok(()) } else { defect(0, "items but no nodes") };
        }
        let mut covered = vec![false; self.items.len()];
        let mut stack = vec![0u32];
        let mut visited = 0usize;
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > self.nodes.len() {
                return defect(n, "a node is reached twice");
            }
            let node = &self.nodes[n as usize];
            if node.count == 0 {
                let [a, b] = [node.first, node.first + 1];
                if b as usize >= self.nodes.len() || a <= n {
                    return defect(n, "children out of range or before their parent");
                }
                for c in [a, b] {
                    if !node.aabb.contains(&self.nodes[c as usize].aabb) {
                        return defect(n, "the box does not hold a child's box");
                    }
                }
                stack.extend([a, b]);
            } else {
                if node.count as usize > MAX_LEAF_ITEMS {
                    return defect(n, "a leaf holds too many items");
                }
                let run = node.first as usize..(node.first + node.count) as usize;
                if run.end > self.items.len() {
                    return defect(n, "a leaf's items are out of range");
                }
                for k in run {
                    if !node.aabb.contains(&self.item_boxes[k]) {
                        return defect(n, "the box does not hold an item's box");
                    }
                    let item = self.items[k] as usize;
                    if item >= covered.len() || std::mem::replace(&mut covered[item], true) {
                        return defect(n, "an item is out of range or in two leaves");
                    }
                }
            }
        }
        if covered.iter().any(|&c| !c) {
            return defect(0, "an item is in no leaf");
        }
        Ok(())
    }
}

/// Reorders `run` into a left and a right part and returns the left's
/// length, in `1..run.len()` (see the module docs).
fn split(run: &mut [u32], boxes: &[Aabb], centroids: &[Vector3<f32>], depth: u32) -> u32 {
    let (lo, hi) = run.iter().fold(
        (Vector3::repeat(f32::INFINITY), Vector3::repeat(f32::NEG_INFINITY)),
        |(lo, hi), &i| (lo.inf(&centroids[i as usize]), hi.sup(&centroids[i as usize])),
    );
    let extent = hi - lo;
    let axis = extent.imax();
    let half = run.len() / 2;
    if !(extent[axis] > 0.0) {
        // Every centroid in one point: no plane separates them.
        return half as u32;
    }
    if depth >= SAH_MAX_DEPTH {
        run.select_nth_unstable_by(half, |&a, &b| {
            centroids[a as usize][axis].total_cmp(&centroids[b as usize][axis])
        });
        return half as u32;
    }
    let scale = BIN_COUNT as f32 / extent[axis];
    let bin_of = |i: u32| {
        let x = (centroids[i as usize][axis] - lo[axis]) * scale;
        // The largest centroid lands on BIN_COUNT itself.
        (x as usize).min(BIN_COUNT - 1)
    };
    let mut bins = [Bin { count: 0, aabb: EMPTY_BOX }; BIN_COUNT];
    for &i in run.iter() {
        let bin = &mut bins[bin_of(i)];
        bin.count += 1;
        bin.aabb = bin.aabb.merged(&boxes[i as usize]);
    }
    // Costs of the BIN_COUNT - 1 planes, from a sweep from each side.
    let mut right_cost = [0.0f32; BIN_COUNT];
    let mut acc = Bin { count: 0, aabb: EMPTY_BOX };
    for plane in (1..BIN_COUNT).rev() {
        acc.count += bins[plane].count;
        acc.aabb = acc.aabb.merged(&bins[plane].aabb);
        right_cost[plane] = area_or_zero(&acc) * acc.count as f32;
    }
    let mut acc = Bin { count: 0, aabb: EMPTY_BOX };
    let mut best = (f32::INFINITY, 0usize);
    for plane in 1..BIN_COUNT {
        acc.count += bins[plane - 1].count;
        acc.aabb = acc.aabb.merged(&bins[plane - 1].aabb);
        let cost = area_or_zero(&acc) * acc.count as f32 + right_cost[plane];
        if cost < best.0 {
            best = (cost, plane);
        }
    }
    if best.1 == 0 {
        // Every cost NaN (areas overflowing f32): split at the middle.
        return half as u32;
    }
    // Partition: the items in bins below the best plane first.
    let mut left = 0;
    for k in 0..run.len() {
        if bin_of(run[k]) < best.1 {
            run.swap(k, left);
            left += 1;
        }
    }
    // The first and last bins hold the extreme centroids, so both sides
    // are non-empty; still, never return an empty side.
    if left == 0 || left == run.len() { half as u32 } else { left as u32 }
}

/// The surface area of a bin's box, or 0 for an empty bin.
fn area_or_zero(bin: &Bin) -> f32 {
    if bin.count == 0 { 0.0 } else { bin.aabb.surface_area() }
}

impl Hierarchy for StaticBvh {
    type Item = u32;
    const LEAF_BOX_IS_ITEM_BOX: bool = false;

    #[inline]
    fn root(&self) -> Option<u32> {
        (!self.nodes.is_empty()).then_some(0)
    }

    #[inline]
    fn node_box(&self, node: u32) -> &Aabb {
        &self.nodes[node as usize].aabb
    }

    #[inline]
    fn content(&self, node: u32) -> NodeContent {
        let n = &self.nodes[node as usize];
        if n.count == 0 {
            NodeContent::Internal([n.first, n.first + 1])
        } else {
            NodeContent::Leaf { first: n.first, count: n.count }
        }
    }

    #[inline]
    fn item(&self, index: u32) -> (&Aabb, u32) {
        (&self.item_boxes[index as usize], self.items[index as usize])
    }
}
