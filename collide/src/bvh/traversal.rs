//! The queries of the binary dynamic tree, written over a private view of
//! its query records ([`Hierarchy`], records as [`branch`](super::branch)
//! lays them out), and the types both trees' queries share (the static
//! tree walks its four-wide nodes in
//! [`wide_traversal`](super::wide_traversal)): boxes overlapping a box, ray
//! casts and casts of a moving box visited front to back, and a walk guided
//! by a caller's own test. Each is a depth-first walk on a
//! [`TraversalStack`] of records: a popped record's two children are
//! tested together, a passing internal child is pushed, and a passing leaf
//! goes to the caller's callback, which can stop the walk, without a push
//! (its box is the item's box, so its test was the item's). A cast pushes
//! the farther child first and handles the nearer one at once (a leaf) or
//! next (pushed last), and pops a record only if the ray enters its box
//! before the current limit (which the callback may shrink): a closest-hit
//! search then skips every subtree behind its best hit. A leaf farther than
//! an internal sibling is pushed, named with [`LEAF_BIT`], and handed to
//! the callback when popped, so casts visit items in the order of the
//! entries along each root-to-leaf path (as the static tree's lanes are).

use nalgebra::Vector3;

use super::branch::{Branch, LEAF_BIT};
use super::error::BvhError;
use super::slab::Slab;
use super::stack::{Pending, TraversalStack};
use super::wide_node::LaneSlab;
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

/// The view of a tree's records that the queries walk. Nodes are named as
/// records name their children: a leaf by its node index with
/// [`LEAF_BIT`], an internal node by its record's index.
pub(crate) trait Hierarchy {
    /// What the callbacks receive for each item.
    type Item: Copy;
    /// The root's name and box, or `None` for an empty tree.
    fn root(&self) -> Option<(u32, &Aabb)>;
    /// The query records, indexed by the internal nodes' names.
    fn branches(&self) -> &[Branch];
    /// The item of the leaf whose node index is `leaf` ([`LEAF_BIT`]
    /// cleared).
    fn item(&self, leaf: u32) -> Self::Item;
}

/// Calls `on_item` with each item whose box `descend` accepts, reached
/// through nodes whose boxes `descend` accepts, until it returns `false`.
pub(crate) fn visit<H: Hierarchy>(
    tree: &H,
    mut descend: impl FnMut(&Aabb) -> bool,
    on_item: impl FnMut(H::Item) -> bool,
) -> Traversal {
    let Some((_, root_box)) = tree.root() else {
        return Traversal::Finished;
    };
    if !descend(root_box) {
        return Traversal::Finished;
    }
    let passes = |record: &Branch, k: usize| descend(&record.child_box(k));
    walk(tree, passes, on_item)
}

/// The depth-first walk of box queries and guided walks, from a root
/// whose box passed: each record's children that `passes` accepts are
/// taken, internal ones pushed and leaves handed to `on_item` until it
/// returns `false`.
fn walk<H: Hierarchy>(
    tree: &H,
    mut passes: impl FnMut(&Branch, usize) -> bool,
    mut on_item: impl FnMut(H::Item) -> bool,
) -> Traversal {
    let Some((root, _)) = tree.root() else {
        return Traversal::Finished;
    };
    if root & LEAF_BIT != 0 {
        return if on_item(tree.item(root & !LEAF_BIT)) {
            Traversal::Finished
        } else {
            Traversal::Stopped
        };
    }
    let branches = tree.branches();
    let mut stack = TraversalStack::new();
    stack.push(Pending { node: root, toi: 0.0 });
    while let Some(Pending { node, .. }) = stack.pop() {
        let record = &branches[node as usize];
        // The first child's leaf at once or its record pushed first, so
        // that the second child's subtree is walked first, right after its
        // parent, as `optimize_layout` lays the records out.
        for k in 0..2 {
            if !passes(record, k) {
                continue;
            }
            let child = record.children[k];
            if child & LEAF_BIT != 0 {
                if !on_item(tree.item(child & !LEAF_BIT)) {
                    return Traversal::Stopped;
                }
            } else {
                stack.push(Pending { node: child, toi: 0.0 });
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
    let Some((_, root_box)) = tree.root() else {
        return Ok(Traversal::Finished);
    };
    if !root_box.overlaps(aabb) {
        return Ok(Traversal::Finished);
    }
    Ok(walk(tree, |record: &Branch, k| record.overlaps(k, aabb), on_item))
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
    let Some((root, root_box)) = tree.root() else {
        return Ok(Traversal::Finished);
    };
    let mut limit = max_toi;
    let Some(toi) = Slab::new(ray.origin, &ray.dir, grow).entry(root_box, limit) else {
        return Ok(Traversal::Finished);
    };
    // One visited item: the callback's answer applied to the limit, or
    // `false` to stop.
    let mut visit_item = |leaf: u32, toi: f32, limit: &mut f32| {
        match on_item(tree.item(leaf & !LEAF_BIT), toi) {
            RayControl::Continue => {}
            RayControl::ShortenTo(t) => {
                if t < *limit {
                    *limit = t;
                }
            }
            RayControl::Stop => return false,
        }
        true
    };
    if root & LEAF_BIT != 0 {
        let go_on = visit_item(root, toi, &mut limit);
        return Ok(if go_on { Traversal::Finished } else { Traversal::Stopped });
    }
    let slab = LaneSlab::new(&ray.origin, &ray.dir, &grow);
    let branches = tree.branches();
    let mut stack = TraversalStack::new();
    stack.push(Pending { node: root, toi });
    while let Some(Pending { node, toi }) = stack.pop() {
        // The limit may have shrunk since the node was pushed.
        if toi > limit {
            continue;
        }
        if node & LEAF_BIT != 0 {
            if !visit_item(node, toi, &mut limit) {
                return Ok(Traversal::Stopped);
            }
            continue;
        }
        let record = &branches[node as usize];
        let ([ta, tb], mask) = slab.lane_entries(&record.min, &record.max, limit);
        let [a, b] = record.children;
        // The nearer child is handled next (equal entries: the first).
        let (near, far) = match mask {
            0b11 if tb < ta => ((b, tb), Some((a, ta))),
            0b11 => ((a, ta), Some((b, tb))),
            0b01 => ((a, ta), None),
            0b10 => ((b, tb), None),
            _ => continue,
        };
        if let Some((node, toi)) = far {
            stack.push(Pending { node, toi });
        }
        if near.0 & LEAF_BIT != 0 {
            // It would be popped next: visited now, without the push.
            if !visit_item(near.0, near.1, &mut limit) {
                return Ok(Traversal::Stopped);
            }
        } else {
            stack.push(Pending { node: near.0, toi: near.1 });
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
