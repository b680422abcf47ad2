//! Turns the binary hierarchy of the SAH build into the four-wide nodes the
//! static tree's queries walk: each wide node takes the place of a binary
//! node and gathers up to four of its descendants (subtrees or single
//! items) as lanes.
//!
//! Method: the greedy collapse of Wald et al., "Getting rid of packets"
//! (2008) and Dammertz et al. (2008): start from the node's two children
//! and, while a lane is free, open the descendant with the largest surface
//! area (an internal node gives its two children; a leaf gives its items if
//! they fit). Departures: a leaf of one item is always opened (an item
//! needs no node of its own); and the lanes are kept in the order in which
//! the binary tree's depth-first walk reaches them (a node's second child
//! before its first, a leaf's items in order), so that a box query over the
//! wide nodes, pushing a node's lanes last to first, hands the items to its
//! callback in exactly the binary walk's order.

use super::wide_node::{ITEM_BIT, LANES, WideNode};
use crate::aabb::Aabb;

/// A node of the binary build: its box, and either its children
/// (`count == 0`: nodes `first` and `first + 1`) or its items
/// (`items[first..first + count]`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BinaryNode {
    pub aabb: Aabb,
    pub first: u32,
    pub count: u32,
}

/// One lane being gathered: a binary node, or the item at a position of
/// the leaf-ordered item list.
#[derive(Clone, Copy)]
enum Entry {
    Node(u32),
    Item(u32),
}

/// The wide nodes over `binary` (root first, every child after its
/// parent). `items` and `item_boxes` are the item indices and their boxes
/// in leaf order. An empty `binary` gives no node.
pub(crate) fn collapse(binary: &[BinaryNode], items: &[u32], item_boxes: &[Aabb]) -> Vec<WideNode> {
    let mut wide = Vec::new();
    if binary.is_empty() {
        return wide;
    }
    wide.reserve(binary.len() / 2 + 1);
    wide.push(WideNode::EMPTY);
    // Wide nodes still to fill, with the binary node each stands for.
    let mut pending = vec![(0u32, 0u32)];
    while let Some((w, b)) = pending.pop() {
        let lanes = gather(binary, b);
        let mut node = WideNode::EMPTY;
        for entry in lanes.iter().flatten() {
            match *entry {
                Entry::Item(k) => node.push(&item_boxes[k as usize], items[k as usize] | ITEM_BIT),
                Entry::Node(n) => {
                    let child = wide.len() as u32;
                    wide.push(WideNode::EMPTY);
                    node.push(&binary[n as usize].aabb, child);
                    pending.push((child, n));
                }
            }
        }
        wide[w as usize] = node;
    }
    wide
}

/// The lanes of the wide node standing for binary node `b` (see the
/// module docs), in the binary walk's order.
fn gather(binary: &[BinaryNode], b: u32) -> [Option<Entry>; LANES] {
    let mut lanes: [Option<Entry>; LANES] = [None; LANES];
    let mut len = open(binary, Entry::Node(b), &mut lanes, 0, 0);
    debug_assert!(len >= 1, "a binary node opens into one lane or more");
    // Each round opens one lane into two or more (a leaf of one item into
    // one, which leaves the count as it is but removes a node lane), so
    // the rounds are bounded by the lanes plus the node lanes.
    const MAX_ROUNDS: usize = 2 * LANES;
    for _ in 0..MAX_ROUNDS {
        let mut best: Option<(usize, f32)> = None;
        for (k, lane) in lanes[..len].iter().enumerate() {
            let Some(Entry::Node(n)) = *lane else { continue };
            let node = &binary[n as usize];
            let grows_to = if node.count == 0 { len + 1 } else { len - 1 + node.count as usize };
            if grows_to > LANES {
                continue;
            }
            // A one-item leaf first (it costs no lane); else the largest box.
            let area = if node.count == 1 { f32::INFINITY } else { node.aabb.surface_area() };
            // Written so that a NaN area is never chosen over a number.
            if best.is_none_or(|(_, a)| area > a) {
                best = Some((k, area));
            }
        }
        let Some((k, _)) = best else { break };
        let Some(entry) = lanes[k] else { break };
        len = open(binary, entry, &mut lanes, k, len);
    }
    lanes
}

/// Replaces lane `k` of `lanes[..len]` (or, with `len == 0`, fills it) by
/// what `entry` opens into, in the binary walk's order, and returns the
/// new length. The caller has checked that it fits.
fn open(
    binary: &[BinaryNode],
    entry: Entry,
    lanes: &mut [Option<Entry>; LANES],
    k: usize,
    len: usize,
) -> usize {
    let Entry::Node(n) = entry else { return len };
    let node = &binary[n as usize];
    let mut opened: [Option<Entry>; LANES] = [None; LANES];
    let count = if node.count == 0 {
        // The binary walk pushes the first child, then the second, and so
        // reaches the second first.
        opened[0] = Some(Entry::Node(node.first + 1));
        opened[1] = Some(Entry::Node(node.first));
        2
    } else {
        for (slot, item) in opened.iter_mut().zip(node.first..node.first + node.count) {
            *slot = Some(Entry::Item(item));
        }
        node.count as usize
    };
    let replaced = usize::from(len > 0);
    let new_len = len - replaced + count;
    debug_assert!(new_len <= LANES);
    let tail: [Option<Entry>; LANES] = *lanes;
    // Lanes after `k` move over to make room.
    for j in (k + replaced)..len {
        lanes[j - replaced + count] = tail[j];
    }
    lanes[k..k + count].copy_from_slice(&opened[..count]);
    new_len
}
