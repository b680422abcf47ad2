//! The queries of the binary dynamic tree, written over a private view of
//! its nodes ([`Hierarchy`]), and the types both trees' queries share (the
//! static tree walks its four-wide nodes in
//! [`wide_traversal`](super::wide_traversal)): boxes overlapping a box, ray casts and
//! casts of a moving box visited front to back, and a walk guided by a
//! caller's own test. Each is a depth-first walk on a [`TraversalStack`]
//! that tests a node's box before pushing it; leaves hand their items,
//! each tested by its own box, to the caller's callback, which can stop
//! the walk. A cast pushes the nearer child last, so it is visited first,
//! and pops a node only if the ray enters its box before the current limit
//! (which the callback may shrink): a closest-hit search then skips every
//! subtree behind its best hit.

use nalgebra::Vector3;

use super::error::BvhError;
use super::slab::Slab;
use super::stack::{Pending, TraversalStack};
use crate::aabb::Aabb;
use crate::query::Ray;

/// How a query's walk over a tree ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Traversal {
    /// Every item that passed the query was handed to the callback.
    Finished,
    /// The callback asked to stop; items may remain unvisited.
    Stopped,
}

/// What a cast's callback asks of the walk after seeing an item.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayControl {
    /// Go on with the same limit.
    Continue,
    /// Go on, visiting only items the cast enters at a parameter at most
    /// this one (a closest-hit search passes its best hit). A value above
    /// the current limit, or NaN, leaves the limit as it is.
    ShortenTo(f32),
    /// End the walk.
    Stop,
}

/// What a node of a tree is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NodeContent {
    /// An internal node and its two children.
    Internal([u32; 2]),
    /// A leaf holding items `first..first + count` of the tree's item list.
    Leaf { first: u32, count: u32 },
}

/// The view of a tree's nodes that the queries walk.
pub(crate) trait Hierarchy {
    /// What the callbacks receive for each item.
    type Item: Copy;
    /// Whether a leaf's single item has the leaf's own box, so the item's
    /// test repeats the node's and is skipped.
    const LEAF_BOX_IS_ITEM_BOX: bool;
    fn root(&self) -> Option<u32>;
    fn node_box(&self, node: u32) -> &Aabb;
    fn content(&self, node: u32) -> NodeContent;
    /// The boxes of an internal node's `children` (as [`content`](Self::content)
    /// named them). A tree that keeps them in the parent's own record
    /// answers without touching the children's.
    #[inline]
    fn child_boxes(&self, _node: u32, children: [u32; 2]) -> [&Aabb; 2] {
        [self.node_box(children[0]), self.node_box(children[1])]
    }
    /// Item `index` of the item list: its box and what the callback gets.
    fn item(&self, index: u32) -> (&Aabb, Self::Item);
}

/// Calls `on_item` with each item whose box `descend` accepts, reached
/// through nodes whose boxes `descend` accepts, until it returns `false`.
pub(crate) fn visit<H: Hierarchy>(
    tree: &H,
    mut descend: impl FnMut(&Aabb) -> bool,
    mut on_item: impl FnMut(H::Item) -> bool,
) -> Traversal {
    let Some(root) = tree.root() else {
        return Traversal::Finished;
    };
    if !descend(tree.node_box(root)) {
        return Traversal::Finished;
    }
    let mut stack = TraversalStack::new();
    stack.push(Pending { node: root, toi: 0.0 });
    while let Some(Pending { node, .. }) = stack.pop() {
        match tree.content(node) {
            NodeContent::Internal(children) => {
                let boxes = tree.child_boxes(node, children);
                for (child, aabb) in children.into_iter().zip(boxes) {
                    if descend(aabb) {
                        stack.push(Pending { node: child, toi: 0.0 });
                    }
                }
            }
            NodeContent::Leaf { first, count } => {
                for index in first..first + count {
                    let (aabb, item) = tree.item(index);
                    let passes = H::LEAF_BOX_IS_ITEM_BOX || descend(aabb);
                    if passes && !on_item(item) {
                        return Traversal::Stopped;
                    }
                }
            }
        }
    }
    Traversal::Finished
}

/// Checks a box given as a query.
pub(crate) fn check_query_box(aabb: &Aabb) -> Result<(), BvhError> {
    if aabb.min.iter().chain(aabb.max.iter()).all(|c| c.is_finite()) {
        Ok(())
    } else {
        Err(BvhError::NonFiniteQuery)
    }
}

/// The items whose boxes overlap or touch `aabb`.
pub(crate) fn try_query_aabb<H: Hierarchy>(
    tree: &H,
    aabb: &Aabb,
    on_item: impl FnMut(H::Item) -> bool,
) -> Result<Traversal, BvhError> {
    check_query_box(aabb)?;
    Ok(visit(tree, |b| b.overlaps(aabb), on_item))
}

/// The items whose boxes the ray `origin + t · dir` (or, with `grow`, a box
/// of those half extents centred on it) meets for some `t` in
/// `[0, max_toi]`, nearest subtrees first, with the entry parameter into
/// each item's box; see [`RayControl`].
pub(crate) fn try_cast<H: Hierarchy>(
    tree: &H,
    ray: &Ray,
    grow: Vector3<f32>,
    max_toi: f32,
    mut on_item: impl FnMut(H::Item, f32) -> RayControl,
) -> Result<Traversal, BvhError> {
    let finite = ray.origin.iter().chain(ray.dir.iter()).chain(grow.iter()).all(|c| c.is_finite());
    if !finite || max_toi.is_nan() {
        return Err(BvhError::NonFiniteQuery);
    }
    let Some(root) = tree.root() else {
        return Ok(Traversal::Finished);
    };
    let slab = Slab::new(ray.origin, &ray.dir, grow);
    let mut limit = max_toi;
    let Some(toi) = slab.entry(tree.node_box(root), limit) else {
        return Ok(Traversal::Finished);
    };
    let mut stack = TraversalStack::new();
    stack.push(Pending { node: root, toi });
    while let Some(Pending { node, toi }) = stack.pop() {
        // The limit may have shrunk since the node was pushed.
        if toi > limit {
            continue;
        }
        match tree.content(node) {
            NodeContent::Internal([a, b]) => {
                let [box_a, box_b] = tree.child_boxes(node, [a, b]);
                let ta = slab.entry(box_a, limit);
                let tb = slab.entry(box_b, limit);
                // The nearer child goes on last, to be visited first.
                let (near, far) = match (ta, tb) {
                    (Some(x), Some(y)) if y < x => ((b, y), Some((a, x))),
                    (Some(x), Some(y)) => ((a, x), Some((b, y))),
                    (Some(x), None) => ((a, x), None),
                    (None, Some(y)) => ((b, y), None),
                    (None, None) => continue,
                };
                if let Some((node, toi)) = far {
                    stack.push(Pending { node, toi });
                }
                stack.push(Pending { node: near.0, toi: near.1 });
            }
            NodeContent::Leaf { first, count } => {
                for index in first..first + count {
                    let (aabb, item) = tree.item(index);
                    let entry =
                        if H::LEAF_BOX_IS_ITEM_BOX { Some(toi) } else { slab.entry(aabb, limit) };
                    let Some(entry) = entry else { continue };
                    match on_item(item, entry) {
                        RayControl::Continue => {}
                        RayControl::ShortenTo(t) => {
                            if t < limit {
                                limit = t;
                            }
                        }
                        RayControl::Stop => return Ok(Traversal::Stopped),
                    }
                    // A shortened limit can exclude the leaf's later items.
                    if H::LEAF_BOX_IS_ITEM_BOX || toi > limit {
                        break;
                    }
                }
            }
        }
    }
    Ok(Traversal::Finished)
}

/// The cast of `aabb` moving by `t · motion`, `t` in `[0, max_toi]`: the
/// ray of its centre against boxes grown by its half extents.
pub(crate) fn try_cast_aabb<H: Hierarchy>(
    tree: &H,
    aabb: &Aabb,
    motion: &Vector3<f32>,
    max_toi: f32,
    on_item: impl FnMut(H::Item, f32) -> RayControl,
) -> Result<Traversal, BvhError> {
    check_query_box(aabb)?;
    if aabb.min.iter().zip(aabb.max.iter()).any(|(lo, hi)| lo > hi) {
        return Err(BvhError::InvertedBox { index: None });
    }
    let ray = Ray::new(aabb.center(), *motion);
    try_cast(tree, &ray, aabb.half_extents(), max_toi, on_item)
}
