//! A bounding-volume hierarchy built once over a slice of boxes (the
//! triangles of a mesh, the parts of a compound) and stored flat as
//! four-wide nodes: each node holds up to four children's boxes side by
//! side, lane by lane, each lane naming a child node or a single item, so
//! a query tests four boxes at once (see [`wide_node`](super::wide_node)).
//!
//! Method: a binary tree is built top-down with the binned surface-area
//! heuristic (Wald, "On fast construction of SAH-based bounding volume
//! hierarchies", 2007): the items' centroids are dropped into
//! [`BIN_COUNT`](super::sah_split::BIN_COUNT) equal bins along the axis where they spread most, and the
//! node is split at the bin boundary that minimises
//! `area(left) · count(left) + area(right) · count(right)`. The binary
//! tree, whose leaves hold at most [`MAX_LEAF_ITEMS`] items, is then
//! collapsed into four-wide nodes (see [`collapse`](super::collapse)).
//!
//! Departures: a node of at most [`MAX_LEAF_ITEMS`] items is always a leaf
//! and a larger one is always split (no leaf-versus-split cost test); items
//! whose centroids coincide, which no plane separates, are split at the
//! middle of their list; and below [`SAH_MAX_DEPTH`](super::sah_split::SAH_MAX_DEPTH) levels the split is
//! the median of the centroids, which halves the node, so the tree stays
//! shallower than `SAH_MAX_DEPTH + log2(n) + 1` whatever the input and the
//! queries' stacks stay on the call stack.

use nalgebra::Vector3;

use super::collapse::{BinaryNode, collapse};
use super::error::{BvhError, TreeDefect};
use super::sah_split::{EMPTY_BOX, split};
use super::traversal::{RayControl, Traversal, check_query_box};
use super::wide_node::{ITEM_BIT, LANES, NO_CHILD, WideNode};
use super::wide_traversal;
use crate::aabb::Aabb;
use crate::query::Ray;

/// Most items a leaf of the binary build holds; the collapse spreads them
/// over lanes. Four fills one wide node.
pub const MAX_LEAF_ITEMS: usize = 4;

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
    /// The four-wide nodes, root first, each after its parent.
    nodes: Vec<WideNode>,
    /// Number of items.
    item_count: usize,
    /// The box of every item together.
    root_box: Option<Aabb>,
}

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
        let mut binary: Vec<BinaryNode> =
            Vec::with_capacity(2 * boxes.len().div_ceil(MAX_LEAF_ITEMS));
        binary.push(BinaryNode { aabb: EMPTY_BOX, first: 0, count: 0 });
        // Nodes still to build: (node, first item, item count, depth).
        let mut pending = vec![(0u32, 0u32, boxes.len() as u32, 0u32)];
        while let Some((node, first, count, depth)) = pending.pop() {
            let run = &mut items[first as usize..(first + count) as usize];
            let aabb = run.iter().fold(EMPTY_BOX, |acc, &i| acc.merged(&boxes[i as usize]));
            if count as usize <= MAX_LEAF_ITEMS {
                binary[node as usize] = BinaryNode { aabb, first, count };
                continue;
            }
            let left_count = split(run, boxes, &centroids, depth);
            debug_assert!(0 < left_count && left_count < count, "a split must shrink both sides");
            let children = binary.len() as u32;
            binary.push(BinaryNode { aabb: EMPTY_BOX, first: 0, count: 0 });
            binary.push(BinaryNode { aabb: EMPTY_BOX, first: 0, count: 0 });
            binary[node as usize] = BinaryNode { aabb, first: children, count: 0 };
            pending.push((children, first, left_count, depth + 1));
            pending.push((children + 1, first + left_count, count - left_count, depth + 1));
        }
        let item_boxes: Vec<Aabb> = items.iter().map(|&i| boxes[i as usize]).collect();
        bvh.nodes = collapse(&binary, &items, &item_boxes);
        bvh.item_count = boxes.len();
        bvh.root_box = Some(binary[0].aabb);
        Ok(bvh)
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.item_count
    }

    /// Whether the hierarchy holds no item.
    pub fn is_empty(&self) -> bool {
        self.item_count == 0
    }

    /// Number of (four-wide) nodes; items sit in their parents' lanes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The number of levels of nodes below the root (0 for a single node
    /// or none).
    pub fn height(&self) -> u32 {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut deepest = 0;
        let mut stack = vec![(0u32, 0u32)];
        while let Some((n, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            let node = &self.nodes[n as usize];
            for &child in &node.children[..(node.len as usize).min(LANES)] {
                if child & ITEM_BIT == 0 {
                    stack.push((child, depth + 1));
                }
            }
        }
        deepest
    }

    /// The box of every item together (`None` when empty).
    pub fn root_aabb(&self) -> Option<Aabb> {
        self.root_box
    }

    /// Calls `on_item` with each item whose box overlaps or touches `aabb`
    /// until it returns `false`. The order of the calls is not part of the
    /// contract (it is the same from run to run for the same tree and
    /// box); a caller that folds the items should not depend on it.
    ///
    /// # Errors
    /// [`BvhError::NonFiniteQuery`] for a NaN or infinite corner.
    pub fn try_query_aabb(
        &self,
        aabb: &Aabb,
        on_item: impl FnMut(u32) -> bool,
    ) -> Result<Traversal, BvhError> {
        check_query_box(aabb)?;
        Ok(wide_traversal::query_aabb(&self.nodes, aabb, on_item))
    }

    /// [`try_query_aabb`](Self::try_query_aabb), visiting nothing for a
    /// query box with a NaN or infinite corner.
    pub fn query_aabb(&self, aabb: &Aabb, on_item: impl FnMut(u32) -> bool) -> Traversal {
        self.try_query_aabb(aabb, on_item).unwrap_or(Traversal::Finished)
    }

    /// Calls `on_item` with each item whose box the ray meets at a
    /// parameter `t ≤ max_toi`, with the parameter where it enters the box,
    /// nearest first (each node's lanes by their entries, equal entries in
    /// lane order); an item the ray enters exactly at the (shortened) limit
    /// is still visited, so a closest-hit search that breaks equal hits by
    /// the smallest item answers the same whatever the order; see
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
        wide_traversal::try_cast(&self.nodes, ray, Vector3::zeros(), max_toi, on_item)
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
        wide_traversal::try_cast_aabb(&self.nodes, aabb, motion, max_toi, on_item)
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
        wide_traversal::visit(&self.nodes, descend, on_item)
    }

    /// Checks every invariant: each node uses 1 to 4 lanes, holds inverted
    /// boxes in the others, and its lanes' boxes hold their children's
    /// lanes' boxes; children come after their parents, and every node and
    /// every item is reached exactly once. A failure is a bug.
    pub fn validate(&self) -> Result<(), TreeDefect> {
        let defect = |node: u32, invariant| Err(TreeDefect { node, invariant });
        if self.nodes.is_empty() {
            return if self.item_count == 0 { Ok(()) } else { defect(0, "items but no nodes") };
        }
        let mut covered = vec![false; self.item_count];
        let mut reached = vec![false; self.nodes.len()];
        let mut stack = vec![0u32];
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut reached[n as usize], true) {
                return defect(n, "a node is reached twice");
            }
            let node = &self.nodes[n as usize];
            let len = node.len as usize;
            if !(1..=LANES).contains(&len) {
                return defect(n, "a node uses no lane or too many");
            }
            for k in len..LANES {
                let b = node.lane_box(k);
                let inverted = b.min.iter().zip(b.max.iter()).all(|(lo, hi)| lo > hi);
                if !inverted || node.children[k] != NO_CHILD {
                    return defect(n, "an unused lane is not empty");
                }
            }
            for k in 0..len {
                let (aabb, child) = (node.lane_box(k), node.children[k]);
                if child & ITEM_BIT != 0 {
                    let item = (child & !ITEM_BIT) as usize;
                    if item >= covered.len() || std::mem::replace(&mut covered[item], true) {
                        return defect(n, "an item is out of range or in two lanes");
                    }
                    continue;
                }
                if child as usize >= self.nodes.len() || child <= n {
                    return defect(n, "a child out of range or before its parent");
                }
                if !aabb.contains(&self.nodes[child as usize].bounds()) {
                    return defect(n, "a lane's box does not hold its child's boxes");
                }
                stack.push(child);
            }
        }
        if reached.iter().any(|&r| !r) {
            return defect(0, "a node is unreachable");
        }
        if covered.iter().any(|&c| !c) {
            return defect(0, "an item is in no lane");
        }
        Ok(())
    }
}
