//! The record a query of the dynamic tree reads for each internal node: its
//! two children's boxes, stored lane by lane (`min[axis][child]`,
//! `max[axis][child]`) as the static tree's four-wide nodes store theirs,
//! and the children's names. A query tests both children from the one
//! cache line it has just read, with the lane tests of
//! [`wide_node`](super::wide_node) at two lanes, so a child's entry
//! parameter is bitwise the scalar slab test's.
//!
//! Method: parry's `Bvh` and Jolt's quad trees keep the children's boxes in
//! the parent; Box2D's `b2DynamicTree` keeps each node's own box in the
//! node, so a walk reads both children's nodes to test them. Departure from
//! the four-wide nodes: two lanes, always both in use, and no lane names an
//! item directly; a leaf child is named by its node index with
//! [`LEAF_BIT`].

use nalgebra::Point3;

use crate::aabb::Aabb;

/// No node or record: the parent of the root, the children of a leaf, the
/// end of a free list.
pub(crate) const NULL: u32 = u32::MAX;

/// Set in a record's child name when the child is a leaf (the rest is its
/// node index, the proxy's handle); an internal child is named by its
/// record's index. Node indices stay below `2^31`
/// ([`BvhError::TooManyItems`](super::BvhError::TooManyItems)), so the bit
/// is free.
pub(crate) const LEAF_BIT: u32 = 1 << 31;

/// An internal node's query record (see the module docs). 60 bytes,
/// aligned to start a 64-byte cache line. A free record is on the record
/// free list through `children[0]`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Branch {
    /// The children's smallest corners, axis by axis, child by child.
    pub min: [[f32; 2]; 3],
    /// The children's largest corners, axis by axis, child by child.
    pub max: [[f32; 2]; 3],
    /// The children's names (see [`LEAF_BIT`]).
    pub children: [u32; 2],
    /// The node this record belongs to.
    pub owner: u32,
}

impl Branch {
    /// The record of a node that is not (yet) internal.
    pub const UNUSED: Branch =
        Branch { min: [[0.0; 2]; 3], max: [[0.0; 2]; 3], children: [NULL, NULL], owner: NULL };

    /// The record of node `owner`, whose children, named `children`, have
    /// the boxes `boxes`.
    #[inline]
    pub fn new(boxes: [&Aabb; 2], children: [u32; 2], owner: u32) -> Self {
        let mut min = [[0.0; 2]; 3];
        let mut max = [[0.0; 2]; 3];
        for (k, b) in boxes.iter().enumerate() {
            for axis in 0..3 {
                min[axis][k] = b.min[axis];
                max[axis][k] = b.max[axis];
            }
        }
        Self { min, max, children, owner }
    }

    /// Whether child `k`'s box overlaps or touches the query box `q` (as
    /// [`Aabb::overlaps`] decides). The comparisons stop at the first axis
    /// that separates the two, as most children a walk tests are rejected
    /// on one of the first.
    #[inline]
    pub fn overlaps(&self, k: usize, q: &Aabb) -> bool {
        let (min, max) = (&self.min, &self.max);
        min[0][k] <= q.max.x
            && q.min.x <= max[0][k]
            && min[1][k] <= q.max.y
            && q.min.y <= max[1][k]
            && min[2][k] <= q.max.z
            && q.min.z <= max[2][k]
    }

    /// Child `k`'s box.
    #[inline]
    pub fn child_box(&self, k: usize) -> Aabb {
        Aabb::new(
            Point3::new(self.min[0][k], self.min[1][k], self.min[2][k]),
            Point3::new(self.max[0][k], self.max[1][k], self.max[2][k]),
        )
    }
}

#[cfg(test)]
mod tests {

    use super::super::wide_node::tests::for_each_ray_case;
    use super::*;

    /// The two-lane tests of a record against the scalar ones, child by
    /// child, including rays in a face's plane, zero direction components
    /// of either sign, grown boxes, and touching and just-missing boxes.
    #[test]
    fn a_records_lanes_agree_bitwise_with_the_scalar_tests() {
        let a = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0));
        let b = Aabb::new(Point3::new(2.0, -1.0, 0.5), Point3::new(3.0, 1.0, 0.75));
        let record = Branch::new([&a, &b], [7, 9 | LEAF_BIT], 3);
        assert_eq!(record.child_box(0), a);
        assert_eq!(record.child_box(1), b);
        for_each_ray_case(|lanes, scalar, limit, case| {
            let (enter, mask) = lanes.lane_entries(&record.min, &record.max, limit);
            for (k, child) in [a, b].iter().enumerate() {
                let lane = (mask >> k & 1 == 1).then_some(enter[k]);
                let expect = scalar.entry(child, limit);
                assert_eq!(lane.map(f32::to_bits), expect.map(f32::to_bits), "{case} child {k}");
            }
        });
        let touching = Aabb::new(Point3::new(1.0, 1.0, 1.0), Point3::new(2.0, 2.0, 2.0));
        let missing = Aabb::new(Point3::new(1.0625, 1.0, 1.0), Point3::new(1.5, 2.0, 2.0));
        for q in [a, touching, missing] {
            for (k, child) in [a, b].iter().enumerate() {
                assert_eq!(record.overlaps(k, &q), child.overlaps(&q), "{q:?} child {k}");
            }
        }
    }
}
