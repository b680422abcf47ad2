//! The walks of the static tree's four-wide nodes: a box query, a cast of a
//! ray or a moving box, and a walk guided by a user's test. Each tests a
//! node's four lanes together and pushes the lanes that pass, items
//! included, on a stack; a popped item goes to the callback, a popped node
//! has its lanes tested in turn.
//!
//! Order: a box query (and a guided walk) pushes a node's passing lanes
//! last to first, so the first is visited first and the callback sees the
//! items in the order the binary build's depth-first walk would (see
//! [`collapse`](super::collapse)). A cast pushes them farthest first, so
//! the nearest is visited first (equal entries: the earlier lane first),
//! and pops an entry only if the cast enters its box before the current
//! limit, which the callback may shrink: a closest-hit search skips every
//! subtree behind its best hit. An item whose box the cast enters exactly
//! at the limit is still visited, so a callback that breaks equal hits by
//! the smallest item gets the same answer whatever the order.

use nalgebra::Vector3;

use super::error::BvhError;
use super::stack::{Pending, TraversalStack};
use super::traversal::{RayControl, Traversal, check_query_box};
use super::wide_node::{ITEM_BIT, LANES, LaneSlab, WideNode};
use crate::aabb::Aabb;
use crate::query::Ray;

/// Pushes the lanes of `mask` on `stack`, the highest lane first, so that
/// the lowest is popped first.
#[inline]
fn push_lanes(stack: &mut TraversalStack, node: &WideNode, mut mask: u32) {
    while mask != 0 {
        let k = 31 - mask.leading_zeros();
        mask &= !(1 << k);
        stack.push(Pending { node: node.children[k as usize], toi: 0.0 });
    }
}

/// Calls `on_item` with each item whose box overlaps or touches `aabb`
/// (finite: the caller checked it) until it returns `false`.
pub(crate) fn query_aabb(
    nodes: &[WideNode],
    aabb: &Aabb,
    on_item: impl FnMut(u32) -> bool,
) -> Traversal {
    walk(nodes, |n| n.overlap_mask(aabb), on_item)
}

/// Calls `on_item` with each item whose box `descend` accepts, reached
/// through lanes whose boxes `descend` accepts, until it returns `false`.
pub(crate) fn visit(
    nodes: &[WideNode],
    mut descend: impl FnMut(&Aabb) -> bool,
    on_item: impl FnMut(u32) -> bool,
) -> Traversal {
    let lane_mask = |n: &WideNode| {
        let mut mask = 0;
        for k in 0..(n.len as usize).min(LANES) {
            if descend(&n.lane_box(k)) {
                mask |= 1 << k;
            }
        }
        mask
    };
    walk(nodes, lane_mask, on_item)
}

/// The depth-first walk both queries share: from the root, each node's
/// lanes in `lane_mask`'s bits are pushed (children and items alike), and
/// each item popped goes to `on_item` until it returns `false`.
fn walk(
    nodes: &[WideNode],
    mut lane_mask: impl FnMut(&WideNode) -> u32,
    mut on_item: impl FnMut(u32) -> bool,
) -> Traversal {
    if nodes.is_empty() {
        return Traversal::Finished;
    }
    let mut stack = TraversalStack::new();
    stack.push(Pending { node: 0, toi: 0.0 });
    while let Some(Pending { node, .. }) = stack.pop() {
        if node & ITEM_BIT != 0 {
            if !on_item(node & !ITEM_BIT) {
                return Traversal::Stopped;
            }
            continue;
        }
        let n = &nodes[node as usize];
        push_lanes(&mut stack, n, lane_mask(n));
    }
    Traversal::Finished
}

/// The items whose boxes the ray `origin + t · dir` (or, with `grow`, a box
/// of those half extents centred on it) meets for some `t` in
/// `[0, max_toi]`, nearest first (see the module docs), with the entry
/// parameter into each item's box; see [`RayControl`].
pub(crate) fn try_cast(
    nodes: &[WideNode],
    ray: &Ray,
    grow: Vector3<f32>,
    max_toi: f32,
    mut on_item: impl FnMut(u32, f32) -> RayControl,
) -> Result<Traversal, BvhError> {
    let finite = ray.origin.iter().chain(ray.dir.iter()).chain(grow.iter()).all(|c| c.is_finite());
    if !finite || max_toi.is_nan() {
        return Err(BvhError::NonFiniteQuery);
    }
    if nodes.is_empty() {
        return Ok(Traversal::Finished);
    }
    let slab = LaneSlab::new(&ray.origin, &ray.dir, &grow);
    let mut limit = max_toi;
    let mut stack = TraversalStack::new();
    // The root's own entry is that of its nearest lane, which its walk
    // tests; 0 lets a negative limit refuse it as the scalar test would.
    stack.push(Pending { node: 0, toi: 0.0 });
    while let Some(Pending { node, toi }) = stack.pop() {
        // The limit may have shrunk since the entry was pushed.
        if toi > limit {
            continue;
        }
        if node & ITEM_BIT != 0 {
            match on_item(node & !ITEM_BIT, toi) {
                RayControl::Continue => {}
                RayControl::ShortenTo(t) => {
                    if t < limit {
                        limit = t;
                    }
                }
                RayControl::Stop => return Ok(Traversal::Stopped),
            }
            continue;
        }
        let n = &nodes[node as usize];
        let (entries, mut mask) = slab.entries(n, limit);
        // The passing lanes in push order: farthest first, and among equal
        // entries the later lane first, so the nearest (earliest) pops first.
        let mut order = [Pending { node: 0, toi: 0.0 }; LANES];
        let mut count = 0;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let t = entries[k];
            let mut j = count;
            while j > 0 && order[j - 1].toi <= t {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = Pending { node: n.children[k], toi: t };
            count += 1;
        }
        for entry in &order[..count] {
            stack.push(*entry);
        }
    }
    Ok(Traversal::Finished)
}

/// The cast of `aabb` moving by `t · motion`, `t` in `[0, max_toi]`: the
/// ray of its centre against boxes grown by its half extents.
pub(crate) fn try_cast_aabb(
    nodes: &[WideNode],
    aabb: &Aabb,
    motion: &Vector3<f32>,
    max_toi: f32,
    on_item: impl FnMut(u32, f32) -> RayControl,
) -> Result<Traversal, BvhError> {
    check_query_box(aabb)?;
    if aabb.min.iter().zip(aabb.max.iter()).any(|(lo, hi)| lo > hi) {
        return Err(BvhError::InvertedBox { index: None });
    }
    let ray = Ray::new(aabb.center(), *motion);
    try_cast(nodes, &ray, aabb.half_extents(), max_toi, on_item)
}
