//! The split of the binned surface-area heuristic, shared by the static
//! tree's build and the dynamic tree's [`rebuild`](super::DynamicTree::rebuild):
//! a run of items is reordered into a left and a right part along one axis.
//!
//! Method: Wald, "On fast construction of SAH-based bounding volume
//! hierarchies" (2007): the items' centroids are dropped into
//! [`BIN_COUNT`] equal bins along the axis where they spread most, and the
//! run is split at the bin boundary that minimises
//! `area(left) · count(left) + area(right) · count(right)`. Departures:
//! items whose centroids coincide, which no plane separates, are split at
//! the middle of the run; and below [`SAH_MAX_DEPTH`] levels the split is
//! the median of the centroids, which halves the run, so a tree built by
//! these splits stays shallower than `SAH_MAX_DEPTH + log2(n) + 1`
//! whatever the input.

use nalgebra::Vector3;

use crate::aabb::Aabb;

/// Bins of the binned SAH. Sixteen is Wald's choice; more bins buy little
/// quality for their build time.
pub(crate) const BIN_COUNT: usize = 16;

/// Depth past which splits are medians (see the module docs), so that
/// `SAH_MAX_DEPTH + log2(2^31) < INLINE_STACK_DEPTH`.
pub(crate) const SAH_MAX_DEPTH: u32 = 32;

/// A bin of the SAH build: how many centroids fell in it, and their boxes'
/// union.
#[derive(Clone, Copy)]
struct Bin {
    count: u32,
    aabb: Aabb,
}

/// The empty box: the identity of `merged`.
pub(crate) const EMPTY_BOX: Aabb = Aabb::new(
    nalgebra::Point3::new(f32::INFINITY, f32::INFINITY, f32::INFINITY),
    nalgebra::Point3::new(f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY),
);

/// Reorders `run` into a left and a right part and returns the left's
/// length, in `1..run.len()` (see the module docs).
pub(crate) fn split(
    run: &mut [u32],
    boxes: &[Aabb],
    centroids: &[Vector3<f32>],
    depth: u32,
) -> u32 {
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
