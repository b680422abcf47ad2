//! A node of the four-wide static hierarchy and its box tests, done four
//! lanes at a time: the node keeps its children's boxes as a structure of
//! arrays (`min[axis][lane]`, `max[axis][lane]`), so testing all four
//! against a query box or a ray is a handful of packed comparisons and
//! products that the compiler vectorises from plain loops over the lanes.
//!
//! Method: the quad-BVH of Dammertz et al., "Shallow bounding volume
//! hierarchies for fast SIMD ray tracing of incoherent rays" (2008), as
//! parry's `Qbvh` and Jolt's quad trees lay their nodes out. Departures: a
//! lane names either a child node or one item (no leaf nodes: an item's box
//! sits in its parent's lane), and unused lanes hold an inverted box
//! (`min = +∞`, `max = −∞`) that no finite query box or ray meets, so the
//! hot loops need no lane count. The ray test is the scalar slab test of
//! [`Slab`](super::slab::Slab), lane by lane, with the same arithmetic in
//! the same order, so a lane's entry parameter is bitwise the one the
//! scalar test gives for the same box.

use nalgebra::{Point3, Vector3};

use crate::aabb::Aabb;

/// Children a node holds.
pub(crate) const LANES: usize = 4;

/// Set in a lane's child when it names an item rather than a node. Items
/// are fewer than `2^31` ([`BvhError::TooManyItems`](super::BvhError::TooManyItems)).
pub(crate) const ITEM_BIT: u32 = 1 << 31;

/// The child of an unused lane (never visited: its box is inverted, and
/// walks that call a user's test stop at [`WideNode::len`]).
pub(crate) const NO_CHILD: u32 = u32::MAX;

/// Four children's boxes, lane by lane, and their names: a node's index,
/// or an item's with [`ITEM_BIT`]. 116 bytes, aligned to start a 64-byte
/// cache line (two lines a node).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct WideNode {
    pub min: [[f32; LANES]; 3],
    pub max: [[f32; LANES]; 3],
    pub children: [u32; LANES],
    /// Lanes in use, `1..=LANES`, lanes `0..len`.
    pub len: u32,
}

impl WideNode {
    /// A node with no lane in use.
    pub const EMPTY: WideNode = WideNode {
        min: [[f32::INFINITY; LANES]; 3],
        max: [[f32::NEG_INFINITY; LANES]; 3],
        children: [NO_CHILD; LANES],
        len: 0,
    };

    /// Puts `aabb` and `child` in the next free lane.
    pub fn push(&mut self, aabb: &Aabb, child: u32) {
        let k = self.len as usize;
        debug_assert!(k < LANES, "a wide node holds at most {LANES} lanes");
        for axis in 0..3 {
            self.min[axis][k] = aabb.min[axis];
            self.max[axis][k] = aabb.max[axis];
        }
        self.children[k] = child;
        self.len += 1;
    }

    /// Lane `k`'s box.
    #[inline]
    pub fn lane_box(&self, k: usize) -> Aabb {
        Aabb::new(
            Point3::new(self.min[0][k], self.min[1][k], self.min[2][k]),
            Point3::new(self.max[0][k], self.max[1][k], self.max[2][k]),
        )
    }

    /// The union of the lanes' boxes.
    pub fn bounds(&self) -> Aabb {
        (1..self.len as usize).fold(self.lane_box(0), |acc, k| acc.merged(&self.lane_box(k)))
    }

    /// Bit `k` set when lane `k`'s box overlaps or touches `q` (as
    /// [`Aabb::overlaps`] decides); unused lanes never do.
    #[inline]
    pub fn overlap_mask(&self, q: &Aabb) -> u32 {
        let mut hit = [false; LANES];
        for (k, h) in hit.iter_mut().enumerate() {
            *h = (self.min[0][k] <= q.max.x)
                & (q.min.x <= self.max[0][k])
                & (self.min[1][k] <= q.max.y)
                & (q.min.y <= self.max[1][k])
                & (self.min[2][k] <= q.max.z)
                & (q.min.z <= self.max[2][k]);
        }
        hit.iter().enumerate().fold(0, |m, (k, &h)| m | (u32::from(h) << k))
    }
}

/// A ray (or the centre of a moving box) prepared for four-lane slab tests
/// (see the module docs, and [`Slab`](super::slab::Slab) for the handling
/// of zero direction components and NaN bounds).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneSlab {
    origin: [f32; 3],
    inv_dir: [f32; 3],
    /// Half extents each tested box is grown by (zero for rays).
    grow: [f32; 3],
    /// Whether the inverse direction is negative on each axis: the bounds
    /// then swap, by the sign and never by comparing them.
    negative: [bool; 3],
}

impl LaneSlab {
    /// For the ray `origin + t · dir`, against boxes grown by `grow`.
    #[inline]
    pub fn new(origin: &Point3<f32>, dir: &Vector3<f32>, grow: &Vector3<f32>) -> Self {
        let inv_dir = [1.0 / dir.x, 1.0 / dir.y, 1.0 / dir.z];
        Self {
            origin: [origin.x, origin.y, origin.z],
            inv_dir,
            grow: [grow.x, grow.y, grow.z],
            negative: inv_dir.map(|i| i < 0.0),
        }
    }

    /// For each lane, the smallest `t` in `[0, limit]` at which the ray is
    /// in its (grown) box, and the mask of the lanes for which there is one.
    #[inline]
    pub fn entries(&self, node: &WideNode, limit: f32) -> ([f32; LANES], u32) {
        self.lane_entries(&node.min, &node.max, limit)
    }

    /// [`entries`](Self::entries) for any number of lanes stored as a node
    /// stores them (`min[axis][lane]`), as the dynamic tree's two-child
    /// records do.
    #[inline]
    pub fn lane_entries<const N: usize>(
        &self,
        min: &[[f32; N]; 3],
        max: &[[f32; N]; 3],
        limit: f32,
    ) -> ([f32; N], u32) {
        let mut enter = [0.0f32; N];
        let mut exit = [limit; N];
        for axis in 0..3 {
            let (o, inv, g) = (self.origin[axis], self.inv_dir[axis], self.grow[axis]);
            let negative = self.negative[axis];
            for k in 0..N {
                let lo = (min[axis][k] - g - o) * inv;
                let hi = (max[axis][k] + g - o) * inv;
                let (near, far) = if negative { (hi, lo) } else { (lo, hi) };
                // Written so that a NaN bound (origin on the slab's plane,
                // zero direction) changes nothing.
                if near > enter[k] {
                    enter[k] = near;
                }
                if far < exit[k] {
                    exit[k] = far;
                }
            }
        }
        // The entry only grows and the exit only shrinks, axis by axis, so
        // one test at the end is the scalar test's early exits.
        let mut mask = 0;
        for k in 0..N {
            mask |= u32::from(enter[k] <= exit[k]) << k;
        }
        (enter, mask)
    }
}

#[cfg(test)]
pub(in crate::bvh) mod tests {
    use super::super::slab::Slab;
    use super::*;

    /// Calls `f` with the lane and scalar slab tests of each ray case the
    /// lane tests are checked on (here and in `branch.rs`): rays in a
    /// face's plane, zero direction components of either sign, grown
    /// boxes, and three distance limits; `case` names it for messages.
    pub(in crate::bvh) fn for_each_ray_case(mut f: impl FnMut(&LaneSlab, &Slab, f32, &str)) {
        let origins =
            [Point3::new(-2.0, 0.5, 0.5), Point3::new(0.0, 1.0, 3.0), Point3::new(1.0, 0.0, 3.0)];
        let dirs = [
            Vector3::x(),
            -Vector3::z(),
            Vector3::new(0.3, -0.2, 0.9),
            Vector3::new(-1.0, 0.0, -0.0),
        ];
        for grow in [Vector3::zeros(), Vector3::new(0.25, 0.5, 0.125)] {
            for o in &origins {
                for d in &dirs {
                    let lanes = LaneSlab::new(o, d, &grow);
                    let scalar = Slab::new(*o, d, grow);
                    for limit in [0.5f32, 10.0, f32::INFINITY] {
                        f(&lanes, &scalar, limit, &format!("{o:?} {d:?} {grow:?} {limit}"));
                    }
                }
            }
        }
    }

    fn node_of(boxes: &[Aabb]) -> WideNode {
        let mut node = WideNode::EMPTY;
        for (i, b) in boxes.iter().enumerate() {
            node.push(b, i as u32 | ITEM_BIT);
        }
        node
    }

    /// The lane tests against the scalar ones, box by box, including rays
    /// in a face's plane, zero direction components of either sign, and
    /// grown boxes; the unused lane never passes.
    #[test]
    fn lanes_agree_bitwise_with_the_scalar_tests() {
        let boxes = [
            Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)),
            Aabb::new(Point3::new(2.0, -1.0, 0.5), Point3::new(3.0, 1.0, 0.75)),
            Aabb::new(Point3::new(-4.0, 1.0, -2.0), Point3::new(-3.0, 2.0, 3.0)),
        ];
        let node = node_of(&boxes);
        for_each_ray_case(|lanes, scalar, limit, case| {
            let (enter, mask) = lanes.entries(&node, limit);
            assert_eq!(mask & 0b1000, 0);
            for (k, b) in boxes.iter().enumerate() {
                let lane = (mask >> k & 1 == 1).then_some(enter[k]);
                let expect = scalar.entry(b, limit);
                assert_eq!(lane.map(f32::to_bits), expect.map(f32::to_bits), "{case} box {k}");
            }
        });
        for q in [boxes[0], Aabb::new(Point3::new(1.0, 1.0, 1.0), Point3::new(2.0, 2.0, 2.0))] {
            let mask = node.overlap_mask(&q);
            for (k, b) in boxes.iter().enumerate() {
                assert_eq!(mask >> k & 1 == 1, b.overlaps(&q), "{q:?} box {k}");
            }
            assert_eq!(mask & 0b1000, 0);
        }
    }
}
