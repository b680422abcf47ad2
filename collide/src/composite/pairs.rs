//! The pairs of convex parts a composite query visits: a composite side is
//! replaced by its parts whose boxes come within a margin of the other
//! side's box (in the composite's frame), recursively, so a compound
//! against a mesh visits pairs of a part and a triangle. Each pair is a
//! [`Leaf`]: two convex shapes at world poses, with their part indices and,
//! for a triangle, its corners and active edges in the world frame.
//!
//! [`visit_nearest`] searches the pairs in order of a growing margin, for
//! the queries that want the nearest pair at any distance (closest points,
//! point projection): a pair at distance `d` has boxes within `d` of each
//! other in every frame, so once some pair is found at `d`, one walk with
//! margin `d` has seen every pair that can be nearer.

use nalgebra::{Isometry3, Point3, Vector3};

use super::bounding_aabb::bounding_aabb;
use super::parts::{CompositeRef, Face, Span};
use super::support_span::local_support_span;
use crate::aabb::Aabb;
use crate::error::QueryError;
use crate::shape::Shape;
use crate::support_map::SupportMap;

/// One side of a pair of convex parts.
#[derive(Clone, Copy)]
pub(crate) struct Side<'s> {
    /// The convex part (or the whole shape, if convex).
    pub(crate) shape: &'s Shape,
    /// Its world pose.
    pub(crate) pose: Isometry3<f32>,
    /// Its index in its composite, if any.
    pub(crate) part: Option<u32>,
    /// For a triangle of a mesh or heightfield: world corners and active edges.
    pub(crate) face: Option<Face>,
}

impl<'s> Side<'s> {
    /// A whole shape at `pose`.
    pub(crate) fn whole(shape: &'s Shape, pose: &Isometry3<f32>) -> Self {
        Self { shape, pose: *pose, part: None, face: None }
    }
}

/// A pair of convex parts, A's and B's.
pub(crate) struct Leaf<'a, 'b> {
    pub(crate) a: Side<'a>,
    pub(crate) b: Side<'b>,
}

impl Leaf<'_, '_> {
    /// The parts' indices.
    pub(crate) fn parts(&self) -> super::PartIds {
        super::PartIds { a: self.a.part, b: self.b.part }
    }
}

/// Calls `on_leaf` with every pair of convex parts of `a` and `b` whose
/// boxes come within `margin` of each other, until it returns `false`.
/// Returns whether it was stopped.
///
/// When both sides are composites, the smaller (by its own box) is
/// expanded first, so each of its parts culls the larger with the part's
/// own box: a tree of 22 prisms lying across a wave mesh visits the few
/// triangles under each prism, not every triangle under the whole tree's
/// box, each then tested against the tree's hierarchy.
pub(crate) fn visit_leaves(
    a: &Side<'_>,
    b: &Side<'_>,
    margin: f32,
    on_leaf: &mut dyn FnMut(&Leaf<'_, '_>) -> bool,
) -> bool {
    visit_leaves_culled(a, b, margin, &|_, _, _| false, on_leaf)
}

/// Whether a walk may skip a triangle before its plane test: called with
/// the triangle's face (world corners), its shape (composite frame) and
/// the convex side it would be paired with. A cull that measures the
/// convex side along the face's normal itself (as the plane test would,
/// see [`measure_against_plane`]) leaves the [`Span`](super::parts::Span)
/// in the face, and the walk then runs no plane test of its own.
pub(crate) type FaceCull<'c> = dyn Fn(&mut Face, &Shape, &Side<'_>) -> bool + 'c;

/// [`visit_leaves`], skipping every triangle for which `cull` holds before
/// its plane test (a query that would drop the pair anyway spares the
/// test and the leaf).
pub(crate) fn visit_leaves_culled(
    a: &Side<'_>,
    b: &Side<'_>,
    margin: f32,
    cull: &FaceCull<'_>,
    on_leaf: &mut dyn FnMut(&Leaf<'_, '_>) -> bool,
) -> bool {
    let expand_a = match (CompositeRef::of(a.shape), CompositeRef::of(b.shape)) {
        (Some(ca), Some(cb)) => {
            let size = |c: CompositeRef<'_>| c.local_aabb().half_extents().norm_squared();
            // Written so that a NaN size expands A, as a lone composite A is.
            !(size(cb) < size(ca))
        }
        (Some(_), None) => true,
        _ => false,
    };
    if expand_a && let Some(ca) = CompositeRef::of(a.shape) {
        let query = bounding_aabb(b.shape, &(a.pose.inverse() * b.pose)).expanded(margin);
        ca.visit_overlapping(&query, |part| {
            let mut side = Side {
                shape: part.shape,
                pose: a.pose * part.pose,
                part: Some(part.index),
                face: part.face.map(|f| to_world(f, &a.pose)),
            };
            if let Some(face) = &mut side.face
                && (cull(face, part.shape, b)
                    || (face.span.is_none()
                        && measure_against_plane(face, b, margin) == PlaneTest::Beyond))
            {
                return true;
            }
            !visit_leaves_culled(&side, b, margin, cull, on_leaf)
        })
    } else if let Some(cb) = CompositeRef::of(b.shape) {
        let query = bounding_aabb(a.shape, &(b.pose.inverse() * a.pose)).expanded(margin);
        cb.visit_overlapping(&query, |part| {
            let mut side = Side {
                shape: part.shape,
                pose: b.pose * part.pose,
                part: Some(part.index),
                face: part.face.map(|f| to_world(f, &b.pose)),
            };
            if let Some(face) = &mut side.face
                && (cull(face, part.shape, a)
                    || (face.span.is_none()
                        && measure_against_plane(face, a, margin) == PlaneTest::Beyond))
            {
                return true;
            }
            !visit_leaves_culled(a, &side, margin, cull, on_leaf)
        })
    } else {
        !on_leaf(&Leaf { a: *a, b: *b })
    }
}

/// What the plane test found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlaneTest {
    /// `other` lies wholly on one side of the face's plane, farther than
    /// the margin: the face's normal separates them, the pair is skipped.
    Beyond,
    /// It may touch the face (or was not tested).
    Near,
}

/// Whether the convex `other` lies wholly on one side of the face's plane,
/// farther than `margin` from it (see [`PlaneTest`]). Two support points,
/// kept in the face's [`Span`] for the ghost correction, which needs the
/// same two, found in one pass (see [`local_support_span`]). A composite
/// `other` (expanded later) is never skipped here. Written so that NaN
/// skips nothing.
fn measure_against_plane(face: &mut Face, other: &Side<'_>, margin: f32) -> PlaneTest {
    if CompositeRef::of(other.shape).is_some() {
        return PlaneTest::Near;
    }
    let Some(n) = face.normal() else {
        return PlaneTest::Near;
    };
    let offset = n.dot(&face.corners[0].coords);
    let local_n = other.pose.inverse_transform_vector(&n);
    let (lowest, highest) = local_support_span(other.shape, &local_n);
    let (lowest, highest) = (other.pose * lowest, other.pose * highest);
    face.span = Some(Span { lowest, highest, normal: n });
    let (low, high) = (n.dot(&lowest.coords) - offset, n.dot(&highest.coords) - offset);
    if low > margin || high < -margin { PlaneTest::Beyond } else { PlaneTest::Near }
}

/// [`measure_against_plane`] for a convex side whose vertices the caller
/// has in the world already (a small hull's [`hull_corners`](super::hull_corners)):
/// the lowest and highest of those corners along the face's unit normal
/// `n`, kept in the face's [`Span`] as the plane test keeps its two support
/// points, and whether the side lies beyond the plane by more than
/// `margin`. The corners are the hull's vertices moved by the same
/// `pose * p` as the plane test's support points, so each is the same
/// world point; the extremes are taken among the world dot products, not
/// the hull frame's, so they are the true extremes of these points and the
/// test skips no face that the frame's choice would keep (they differ only
/// between vertices tied to rounding). First index wins ties; a NaN
/// product replaces neither extreme, and NaN skips nothing.
pub(crate) fn measure_corners_against_plane(
    face: &mut Face,
    corners: &[Point3<f32>],
    n: &Vector3<f32>,
    margin: f32,
) -> bool {
    if corners.is_empty() {
        return false;
    }
    let offset = n.dot(&face.corners[0].coords);
    let (mut lowest, mut highest) = (0, 0);
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for (i, c) in corners.iter().enumerate() {
        let d = n.dot(&c.coords);
        // `<` and `>` keep the first of equal values; a NaN `d` replaces
        // neither.
        if d < low {
            low = d;
            lowest = i;
        }
        if d > high {
            high = d;
            highest = i;
        }
    }
    let (Some(&lowest), Some(&highest)) = (corners.get(lowest), corners.get(highest)) else {
        return false;
    };
    face.span = Some(Span { lowest, highest, normal: *n });
    // Measured from the kept points, as the plane test does, so that all
    // NaN products give NaN here and skip nothing.
    let (low, high) = (n.dot(&lowest.coords) - offset, n.dot(&highest.coords) - offset);
    low > margin || high < -margin
}

/// A face moved to the world by its composite's pose.
///
/// A pose that does not turn (a static ground at the origin, as the
/// `trees` scene's mesh is) only translates: with a zero quaternion
/// vector the rotation adds only signed zeros to each (finite)
/// coordinate, so adding the translation alone gives the same bits as
/// `pose * p` (but for the sign of a zero coordinate where the
/// translation holds a -0).
#[inline]
fn to_world(face: Face, pose: &Isometry3<f32>) -> Face {
    let corners = if pose.rotation.as_ref().imag() == nalgebra::Vector3::zeros() {
        face.corners.map(|p| p + pose.translation.vector)
    } else {
        face.corners.map(|p| pose * p)
    };
    Face { corners, active: face.active, span: None }
}

/// The first search margin, as a fraction of the pair's size: small enough
/// that a shape resting on a mesh visits only the triangles under it.
const SEARCH_START_FRACTION: f32 = 1e-3;

/// Most times the search margin doubles. The margin starts at least at
/// the boxes' distance and `SEARCH_START_FRACTION` of their size, so after
/// 64 doublings it exceeds any f32 distance between the boxes' corners and
/// every pair has been seen.
const MAX_SEARCH_DOUBLINGS: u32 = 64;

/// Calls `distance_of` with pairs of convex parts of `a` and `b` in order
/// of a growing margin, until every pair that can be nearer than the
/// nearest found has been seen (see the module docs). `distance_of`
/// returns the pair's distance (0 or less when touching), or an error that
/// ends the search.
pub(crate) fn visit_nearest(
    a: &Side<'_>,
    b: &Side<'_>,
    distance_of: &mut dyn FnMut(&Leaf<'_, '_>) -> Result<f32, QueryError>,
) -> Result<(), QueryError> {
    let (box_a, box_b) = (a.shape.aabb(&a.pose), b.shape.aabb(&b.pose));
    let size = (box_a.max - box_a.min).amax().max((box_b.max - box_b.min).amax());
    let mut margin = box_distance(&box_a, &box_b).max(SEARCH_START_FRACTION * size);
    if !margin.is_finite() {
        return Err(QueryError::NonFiniteInput);
    }
    if !(margin > 0.0) {
        margin = f32::MIN_POSITIVE;
    }
    let mut best = f32::INFINITY;
    let mut error = None;
    let mut walk = |margin: f32, best: &mut f32, error: &mut Option<QueryError>| {
        visit_leaves(a, b, margin, &mut |leaf| match distance_of(leaf) {
            Ok(d) => {
                *best = best.min(d);
                true
            }
            Err(e) => {
                *error = Some(e);
                false
            }
        });
    };
    for _ in 0..MAX_SEARCH_DOUBLINGS {
        walk(margin, &mut best, &mut error);
        if let Some(e) = error {
            return Err(e);
        }
        if best.is_finite() {
            if best > margin {
                walk(best, &mut best, &mut error);
            }
            return error.map_or(Ok(()), Err);
        }
        margin *= 2.0;
    }
    Ok(())
}

/// The Euclidean distance between two boxes (0 when they overlap).
fn box_distance(a: &Aabb, b: &Aabb) -> f32 {
    let gap = (a.min - b.max).sup(&(b.min - a.max)).sup(&nalgebra::Vector3::zeros());
    gap.norm()
}

#[cfg(test)]
mod tests {
    use nalgebra::{Isometry3, Point3, Vector3};

    use super::*;
    use crate::composite::hull_corners::hull_corners;
    use crate::composite::hull_corners::tests::prism;

    /// The plane test on a hull's world corners against the plane test on
    /// its support points, over random prisms, poses and triangles of sizes
    /// 1 mm to 1 km: the corners' extremes reach at least as far along the
    /// normal (they are the true extremes of the same world points), so
    /// the corners' test skips a face only where the support points' does
    /// too; and, but for ties to rounding, both pick the same points.
    #[test]
    fn the_corners_plane_test_skips_only_what_the_support_points_skip() {
        let mut state = 0x5851_F42D_4C95_7F2Du64;
        let mut next = move |lo: f32, hi: f32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            lo + (hi - lo) * ((state >> 40) as f32 / (1u64 << 24) as f32)
        };
        let (mut beyond, mut same_points, mut cases) = (0, 0, 0);
        for case in 0..6000 {
            let size = 10f32.powi(case % 7 - 3);
            let shape = prism(0.5 * size, 3.0 * size);
            let pose = Isometry3::new(
                Vector3::new(next(-3.0, 3.0), next(-1.0, 3.0), next(-3.0, 3.0)) * size,
                Vector3::new(next(-3.2, 3.2), next(-3.2, 3.2), next(-3.2, 3.2)),
            );
            let mut corner =
                || Point3::new(next(-3.0, 3.0), next(-0.5, 0.5), next(-3.0, 3.0)) * size;
            let tri = [corner(), corner(), corner()];
            let margin = next(0.0, 0.5) * size;
            let side = Side::whole(&shape, &pose);
            let mut by_support = Face { corners: tri, active: 0, span: None };
            let Some(n) = by_support.normal() else {
                continue;
            };
            cases += 1;
            let mut by_corners = by_support;
            let corners = hull_corners(&shape, &pose).expect("a small hull");
            let skipped = measure_corners_against_plane(&mut by_corners, &corners, &n, margin);
            let old = measure_against_plane(&mut by_support, &side, margin) == PlaneTest::Beyond;
            assert!(
                !skipped || old,
                "case {case}: the corners skip a face the support points keep"
            );
            beyond += usize::from(skipped);
            let (new, old) =
                (by_corners.span.expect("measured"), by_support.span.expect("measured"));
            assert!(n.dot(&new.lowest.coords) <= n.dot(&old.lowest.coords), "case {case}");
            assert!(n.dot(&new.highest.coords) >= n.dot(&old.highest.coords), "case {case}");
            assert_eq!(new.normal, old.normal);
            same_points += usize::from(new.lowest == old.lowest && new.highest == old.highest);
        }
        assert!(beyond > cases / 10, "only {beyond} of {cases} beyond the plane");
        assert!(same_points * 100 >= cases * 99, "{same_points} of {cases} the same points");
    }
}
