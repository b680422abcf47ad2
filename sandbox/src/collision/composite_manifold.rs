//! The contact of a shape pair with a composite side (a triangle mesh, a
//! heightfield or a compound): collide's
//! [`contact_manifolds`](collide::composite::contact_manifolds) gives one
//! ghost-corrected manifold per touching triangle or part, and this folds
//! them into the one solver [`Manifold`] the pair holds.
//!
//! The fold, in the spirit of PhysX's contact patches and of the point
//! reduction of Box2D's and Jolt's manifolds:
//! - the normal is that of the part manifold holding the deepest point
//!   (on a flat floor every triangle's is the face normal, since collide's
//!   ghost correction has already replaced the normals of contacts on
//!   inactive edges);
//! - the points of every part manifold whose normal lies within
//!   [`MAX_FOLD_ANGLE_COS`] of it are kept (a part pushing the other way
//!   cannot be expressed along one normal; on a surface folded that
//!   sharply, the deepest side wins), each with a feature id that mixes in
//!   the part's index, so a point keeps its id, and its warm-start impulse,
//!   while the parts around it come and go;
//! - more than [`MAX_MANIFOLD_POINTS`] points are reduced to the one
//!   farthest from their centre across the normal, the one farthest from
//!   it, the one spanning the largest triangle with those two, and the one
//!   farthest outside that triangle (the corners of the support area),
//!   the last replaced by the deepest point when that is deeper than every
//!   corner by more than the linear slop (for a pair in motion, the point
//!   deepest at the step's end at the bodies' velocities, its separation
//!   less its closing over the step);
//! - but for a *settling* pair (no point closing or opening by more than
//!   the slop over the step at the bodies' velocities), the points that
//!   bear this step come first: those touching, and the speculative ones
//!   the motion closes within the step (twice over). The corners of the
//!   whole area, far speculative points among them, otherwise crowd out
//!   the points a resting body stands on, and the solver, which pushes on
//!   a speculative point only once it closes, lets the body rock on them:
//!   `trees`' fallen trees rocked on the wave crests and never slept (18
//!   of 50 awake at step 600; box3d's all sleep by step 475). Bearing
//!   points beyond four are reduced to their corners; fewer are topped up
//!   with the others that widen the area most, so the body keeps a point
//!   on each side it could tip to.
//!
//! Departure from box3d and Jolt, which keep one solver manifold per
//! triangle: the sandbox's pair cache and solver hold one manifold per
//! shape pair, and the fold keeps them so. On a flat or gently curved
//! surface the two agree; in a sharp valley one manifold along the deepest
//! normal pushes less well than two would.
//!
//! Each pair of parts that goes through GJK starts from the closest
//! feature it found at the pair's last computation: the pair's slot keeps
//! collide's [`PartCaches`] beside its manifold, as it keeps a convex
//! pair's one `GjkCache` (on `trees`, GJK's instructions for the
//! prism–triangle pairs fell by 58 %; see `benches/COMPOSITES.md`).
//!
//! No allocation per computation: the part manifolds are gathered in a
//! fixed-capacity [`ManifoldSet`] on the stack, and a pair's warm starts
//! are boxed once, when it first ends a computation with points.

use arrayvec::ArrayVec;
use collide::Shape;
use collide::composite::{
    ManifoldSet, PartCaches, PartIds, bounding_aabb, contact_manifolds, contact_manifolds_cached,
};
use collide::nalgebra::{Isometry3, Point3, Vector3};

use crate::collision::manifold::{ContactPoint, MAX_MANIFOLD_POINTS, Manifold};
use crate::tolerances::LINEAR_SLOP;

/// A part manifold is folded in when its normal is within this cosine of
/// the deepest one's (about 60°): the points of a neighbouring face still
/// hold the shape up along the shared normal, while a face leaning away
/// by more would be pushed along a direction far from its own.
const MAX_FOLD_ANGLE_COS: f32 = 0.5;

/// Most points gathered before the reduction: the points of the part
/// manifolds of one pair (collide keeps at most 32 of those, of four
/// points each).
const MAX_GATHERED: usize = collide::composite::MAX_PART_MANIFOLDS * MAX_MANIFOLD_POINTS;

/// A speculative point bears load when the bodies close the gap at it
/// within this many times the step's closing at their velocities now:
/// the solver's impulses change the velocities within the step (a body
/// rocking on its touching points swings its far side down faster than
/// it moved at the step's start), and twice the closing covers a swing
/// doubled.
const CLOSING_MARGIN: f32 = 2.0;

/// A pair is settling, and its fold keeps the points that bear first,
/// when no point closes or opens by more than this over the step at the
/// bodies' velocities (0.3 m/s at 60 Hz): the motion of a body rocking on
/// its support, not of one struck or tumbling.
const SETTLING_CLOSING: f32 = LINEAR_SLOP;

/// The two bodies' velocities over the step, which tell the speculative
/// points the solver may push on this step from those it will not.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepMotion {
    /// A's linear velocity, of its centre of mass.
    pub linear_a: Vector3<f32>,
    /// A's angular velocity.
    pub angular_a: Vector3<f32>,
    /// A's centre of mass, world frame.
    pub center_a: Point3<f32>,
    /// B's linear velocity, of its centre of mass.
    pub linear_b: Vector3<f32>,
    /// B's angular velocity.
    pub angular_b: Vector3<f32>,
    /// B's centre of mass, world frame.
    pub center_b: Point3<f32>,
    /// The step's length.
    pub dt: f32,
}

impl StepMotion {
    /// How far the shapes close at the world point `point` along
    /// `normal` (from A to B) over the step at these velocities:
    /// `-(v_b(p) - v_a(p)) · n dt`, negative when they part there.
    fn closing(&self, point: &Point3<f32>, normal: &Vector3<f32>) -> f32 {
        let v_a = self.linear_a + self.angular_a.cross(&(point - self.center_a));
        let v_b = self.linear_b + self.angular_b.cross(&(point - self.center_b));
        -(v_b - v_a).dot(normal) * self.dt
    }
}

/// Writes into `out` (cleared first) the contact of `a` at `pose_a` and
/// `b` at `pose_b`, at least one of them a composite, keeping points
/// within `speculative`. Returns a lower bound on their distance when
/// their boxes are farther apart than `speculative` (`out` is then empty),
/// and 0 otherwise. `parts`, the pair's GJK warm starts per pair of parts
/// kept from its last computation, is updated (`None`: every pair of parts
/// starts cold).
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_composite_pair(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    motion: Option<&StepMotion>,
    parts: Option<&mut PartCaches>,
    out: &mut Manifold,
) -> f32 {
    out.clear();
    // The gap between the two boxes along the axis that separates them
    // most bounds the shapes' distance from below (NaN gives 0: not
    // proven apart). The composites' boxes are their local boxes turned,
    // not their exact ones (a compound's is the union of every part's).
    let (box_a, box_b) = (bounding_aabb(a, pose_a), bounding_aabb(b, pose_b));
    let gap = (0..3)
        .map(|k| (box_a.min[k] - box_b.max[k]).max(box_b.min[k] - box_a.max[k]))
        .fold(0.0f32, f32::max);
    if gap > speculative {
        return gap;
    }
    let mut set = ManifoldSet::new();
    match parts {
        Some(parts) => contact_manifolds_cached(a, pose_a, b, pose_b, speculative, &mut set, parts),
        None => contact_manifolds(a, pose_a, b, pose_b, speculative, &mut set),
    }
    fold_into(&set, motion, out);
    0.0
}

/// [`collide_composite_pair`] with the pair's own table of warm starts,
/// as its slot keeps it: `parts` is used and updated if present; if not, a
/// table on the stack is used and boxed into `parts` only if the pair ends
/// with points (and so takes a slot that keeps it). Out of line, so that
/// the table's 1.8 KB stays off the stack frame of the narrow phase's
/// convex pairs.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn collide_composite_pair_warm(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    motion: Option<&StepMotion>,
    parts: &mut Option<Box<PartCaches>>,
    out: &mut Manifold,
) -> f32 {
    if let Some(table) = parts.as_deref_mut() {
        return collide_composite_pair(a, pose_a, b, pose_b, speculative, motion, Some(table), out);
    }
    let mut table = PartCaches::new();
    let gap =
        collide_composite_pair(a, pose_a, b, pose_b, speculative, motion, Some(&mut table), out);
    if !out.points.is_empty() {
        *parts = Some(Box::new(table));
    }
    gap
}

/// A feature id that names the part too: collide's ids are per part
/// manifold, so two triangles' points may share one.
fn part_feature_id(parts: PartIds, id: u32) -> u32 {
    // Odd multipliers (from the golden ratio) spread consecutive part
    // indices over the id's bits.
    let mix = |part: Option<u32>, k: u32| part.map_or(0, |p| p.wrapping_add(1).wrapping_mul(k));
    id ^ mix(parts.a, 0x9E37_79B1) ^ mix(parts.b, 0x85EB_CA77)
}

/// Folds the part manifolds of `set` into `out` (see the module's notes).
fn fold_into(set: &ManifoldSet, motion: Option<&StepMotion>, out: &mut Manifold) {
    // The deepest point's manifold gives the normal (NaN separations are
    // passed over by `total_cmp` ordering them last).
    let deepest = set.manifolds().iter().min_by(|x, y| {
        let depth = |m: &collide::composite::PartManifold| {
            m.manifold.points().iter().map(|p| p.separation).fold(f32::MAX, f32::min)
        };
        depth(x).total_cmp(&depth(y))
    });
    let Some(deepest) = deepest else {
        return;
    };
    let normal = deepest.manifold.normal;
    let mut gathered = ArrayVec::<ContactPoint, MAX_GATHERED>::new();
    for pm in set.manifolds() {
        if !(pm.manifold.normal.dot(&normal) >= MAX_FOLD_ANGLE_COS) {
            continue;
        }
        for p in pm.manifold.points() {
            let id = part_feature_id(pm.parts, p.id);
            // A point two parts share (a vertex of both triangles) once.
            if gathered.iter().any(|q| q.id == id) {
                continue;
            }
            if gathered.try_push(ContactPoint::new(p.point, p.separation, id)).is_err() {
                break;
            }
        }
    }
    out.normal = normal;
    reduce(&gathered, &normal, motion, out);
}

/// Keeps at most [`MAX_MANIFOLD_POINTS`] of `points` in `out`: all of
/// them if they fit; else, with the bodies' `motion` known, the points
/// that bear this step first (see [`bears`]): the corners of their area
/// if there are more than fit, or all of them and then the others that
/// spread the manifold most; without `motion`, or when no point bears,
/// the corners of all (see the module's notes).
fn reduce(
    points: &[ContactPoint],
    normal: &Vector3<f32>,
    motion: Option<&StepMotion>,
    out: &mut Manifold,
) {
    if points.len() <= MAX_MANIFOLD_POINTS {
        out.points.extend(points.iter().copied());
        return;
    }
    let Some(motion) = motion else {
        corners(points, &[], normal, out);
        return;
    };
    // A pair in motion keeps the corners of all: within a step of impacts
    // its velocities change far from those at the step's start, and a
    // point that did not bear then may bear before the step ends.
    // Each point's closing, found once for both tests.
    let mut closings = ArrayVec::<f32, MAX_GATHERED>::new();
    closings.extend(points.iter().take(MAX_GATHERED).map(|p| motion.closing(&p.point, normal)));
    let settling = closings.iter().all(|c| c.abs() <= SETTLING_CLOSING);
    if !settling {
        corners(points, &closings, normal, out);
        return;
    }
    let mut bearing = ArrayVec::<ContactPoint, MAX_GATHERED>::new();
    let mut rest = ArrayVec::<ContactPoint, MAX_GATHERED>::new();
    for (p, &closing) in points.iter().zip(&closings) {
        if bears(p, closing) { bearing.push(*p) } else { rest.push(*p) }
    }
    if bearing.is_empty() {
        corners(points, &[], normal, out);
        return;
    }
    if bearing.len() >= MAX_MANIFOLD_POINTS {
        corners(&bearing, &[], normal, out);
        return;
    }
    out.points.extend(bearing.iter().copied());
    spread_into(&rest, normal, out);
}

/// Whether `p` can bear load within this step: it touches (within the
/// linear slop), or the bodies' motion, which closes the gap at it by
/// `closing` over the step ([`StepMotion::closing`]), closes it within
/// [`CLOSING_MARGIN`] times that. A point that does
/// neither gets no impulse from the solver this step (a speculative
/// point pushes only once it closes), so it is the first to drop: the
/// corners of the whole area, far speculative points among them, would
/// otherwise crowd out the touching points a resting body stands on
/// (trees rocked on their far speculative corners and never slept).
/// Written so that a NaN closing counts as none.
fn bears(p: &ContactPoint, closing: f32) -> bool {
    p.separation <= LINEAR_SLOP + CLOSING_MARGIN * closing.max(0.0)
}

/// Adds to `out` points of `candidates` until it holds
/// [`MAX_MANIFOLD_POINTS`], each the one that grows the area the points
/// of `out` span across `normal` the most, the farthest from every point
/// of `out` among equals (the first of those; NaN never wins): with the
/// points a body stands on along a line, the next ones are on either side
/// of it, where it would tip.
fn spread_into(candidates: &[ContactPoint], normal: &Vector3<f32>, out: &mut Manifold) {
    let mut taken = [false; MAX_GATHERED];
    // At most one point a pass, each pass either adds one or stops.
    for _ in 0..MAX_MANIFOLD_POINTS {
        if out.points.len() >= MAX_MANIFOLD_POINTS {
            break;
        }
        let mut pick = None;
        let mut top = (f32::NEG_INFINITY, f32::NEG_INFINITY);
        for (i, p) in candidates.iter().enumerate() {
            if taken[i] {
                continue;
            }
            let area = spanned_area(&out.points, &p.point, normal);
            let gap = out
                .points
                .iter()
                .map(|q| {
                    let d = p.point - q.point;
                    (d - normal * d.dot(normal)).norm_squared()
                })
                .fold(f32::MAX, f32::min);
            // Written so that NaN never wins.
            if area > top.0 || (area == top.0 && gap > top.1) {
                top = (area, gap);
                pick = Some(i);
            }
        }
        let Some(i) = pick else { break };
        taken[i] = true;
        out.points.push(candidates[i]);
    }
}

/// Twice the area, across `normal`, of the convex hull of `points` (at
/// most three) and `extra`: the largest triangle of the four and, for four
/// points in convex position, the largest of their three quadrilaterals
/// (a simple quadrilateral's shoelace area is its hull's; a crossed one's,
/// and a triangle's with the fourth point inside, are smaller).
fn spanned_area(points: &[ContactPoint], extra: &Point3<f32>, normal: &Vector3<f32>) -> f32 {
    let mut all = ArrayVec::<Point3<f32>, MAX_MANIFOLD_POINTS>::new();
    all.extend(points.iter().take(MAX_MANIFOLD_POINTS - 1).map(|p| p.point));
    all.push(*extra);
    // Twice the signed area of the triangle (p, q, r) seen along the normal.
    let twice =
        |p: &Point3<f32>, q: &Point3<f32>, r: &Point3<f32>| (q - p).cross(&(r - p)).dot(normal);
    let mut best = 0.0f32;
    let n = all.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                best = best.max(twice(&all[i], &all[j], &all[k]).abs());
            }
        }
    }
    if n == 4 {
        for [a, b, c, d] in [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3]] {
            let quad = twice(&all[a], &all[b], &all[c]) + twice(&all[a], &all[c], &all[d]);
            best = best.max(quad.abs());
        }
    }
    best
}

/// Writes into `out` four corners of the area of `points` (more than
/// [`MAX_MANIFOLD_POINTS`]) across `normal` (see the module's notes).
///
/// With `closings` (each point's [`StepMotion::closing`]; empty for none)
/// the deepest point is judged at the step's end: its separation less its
/// closing. A pair in motion is pushed where it will be deepest, not where
/// it is: a tree landing at 12 m/s and turning at 6 rad/s sank its base
/// prism 0.40 m into the waves within a step, at none of the four points
/// its fold had kept, the deepest of them touching at the step's start
/// (`benches/SPREAD.md`).
fn corners(points: &[ContactPoint], closings: &[f32], normal: &Vector3<f32>, out: &mut Manifold) {
    let across = |p: &Point3<f32>, q: &Point3<f32>| {
        let d = q - p;
        d - normal * d.dot(normal)
    };
    // Picks the index with the largest finite score (NaN never wins).
    // Generic, so that each score is inlined into its loop (a `dyn Fn`
    // was an indirect call per point).
    fn best(points: &[ContactPoint], score: impl Fn(&ContactPoint) -> f32) -> usize {
        let mut pick = 0;
        let mut top = f32::NEG_INFINITY;
        for (i, p) in points.iter().enumerate() {
            let s = score(p);
            if s > top {
                top = s;
                pick = i;
            }
        }
        pick
    }
    // The first corner: the point farthest from the points' centre across
    // the normal (on a flat contact all are equally deep, so depth cannot
    // pick a corner).
    let centre = Point3::from(
        points.iter().map(|p| p.point.coords).sum::<Vector3<f32>>() / points.len() as f32,
    );
    let i0 = best(points, |p| across(&centre, &p.point).norm_squared());
    let p0 = points[i0].point;
    let i1 = best(points, |p| across(&p0, &p.point).norm_squared());
    let p1 = points[i1].point;
    // Signed area (twice) of the triangle (p, q, r) seen along the normal.
    let area = |p: &Point3<f32>, q: &Point3<f32>, r: &Point3<f32>| {
        across(p, q).cross(&across(p, r)).dot(normal)
    };
    let i2 = best(points, |p| area(&p0, &p1, &p.point).abs());
    let p2 = points[i2].point;
    // Orient the triangle counter-clockwise about the normal, then take
    // the point farthest outside one of its edges.
    let (q1, q2) = if area(&p0, &p1, &p2) >= 0.0 { (p1, p2) } else { (p2, p1) };
    let i3 = best(points, |p| {
        [(&p0, &q1), (&q1, &q2), (&q2, &p0)]
            .iter()
            .map(|(u, v)| -area(u, v, &p.point))
            .fold(f32::NEG_INFINITY, f32::max)
    });
    // The deepest point (at the step's end) replaces the fourth when it is
    // deeper than every corner by more than the linear slop: it is where
    // the push must act. A NaN closing counts as none.
    let ahead = |i: usize| {
        points[i].separation - closings.get(i).copied().filter(|c| c.is_finite()).unwrap_or(0.0)
    };
    // The first of the deepest (NaN never wins).
    let mut deepest = 0;
    let mut top = f32::NEG_INFINITY;
    for i in 0..points.len() {
        if -ahead(i) > top {
            top = -ahead(i);
            deepest = i;
        }
    }
    let deepest_corner = [i0, i1, i2, i3].iter().map(|&i| ahead(i)).fold(f32::MAX, f32::min);
    let i3 = if ahead(deepest) < deepest_corner - LINEAR_SLOP { deepest } else { i3 };
    let mut chosen = ArrayVec::<usize, MAX_MANIFOLD_POINTS>::new();
    for i in [i0, i1, i2, i3] {
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    out.points.extend(chosen.iter().map(|&i| points[i]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::composite::TriMesh;
    use collide::{Cuboid, Sphere};

    /// A flat floor at y = 0 of `n` × `n` cells of 1 m, two triangles
    /// each, centred on the origin.
    fn floor(n: u32) -> Shape {
        let half = n as f32 / 2.0;
        let mut vertices = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                vertices.push(Point3::new(i as f32 - half, 0.0, j as f32 - half));
            }
        }
        let mut triangles = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let v = |i: u32, j: u32| i * (n + 1) + j;
                triangles.push([v(i, j), v(i, j + 1), v(i + 1, j + 1)]);
                triangles.push([v(i + 1, j + 1), v(i + 1, j), v(i, j)]);
            }
        }
        TriMesh::try_new(vertices, triangles).unwrap().into()
    }

    #[test]
    fn a_cube_across_cells_gets_its_four_corners_along_the_face_normal() {
        let mesh = floor(6);
        let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
        // Straddling cell boundaries and a diagonal, 1 mm into the floor.
        let pose = Isometry3::translation(0.3, 0.499, -0.2);
        let mut m = Manifold::default();
        let gap = collide_composite_pair(
            &mesh,
            &Isometry3::identity(),
            &cube,
            &pose,
            0.02,
            None,
            None,
            &mut m,
        );
        assert_eq!(gap, 0.0);
        assert!((m.normal - Vector3::y()).norm() < 1e-5, "{:?}", m.normal);
        assert_eq!(m.points.len(), 4);
        for corner in [(-0.2, -0.7), (0.8, -0.7), (0.8, 0.3), (-0.2, 0.3)] {
            let found = m.points.iter().any(|p| {
                (p.point.x - corner.0).abs() < 1e-4 && (p.point.z - corner.1).abs() < 1e-4
            });
            assert!(found, "corner {corner:?} missing from {:?}", m.points);
        }
        for p in &m.points {
            assert!((p.separation + 0.001).abs() < 1e-5, "{}", p.separation);
        }
        // Ids are distinct.
        for (i, p) in m.points.iter().enumerate() {
            assert!(m.points[..i].iter().all(|q| q.id != p.id));
        }
    }

    /// Still bodies, over a step of 1/60 s.
    fn still() -> StepMotion {
        StepMotion {
            linear_a: Vector3::zeros(),
            angular_a: Vector3::zeros(),
            center_a: Point3::origin(),
            linear_b: Vector3::zeros(),
            angular_b: Vector3::zeros(),
            center_b: Point3::new(0.0, 0.5, 0.0),
            dt: 1.0 / 60.0,
        }
    }

    /// A body resting on two touching points along its middle, with four
    /// far corners 1.5 cm clear (a prism on the crest of a wave).
    fn crest() -> Vec<ContactPoint> {
        let p = |x: f32, z: f32, separation: f32, id: u32| {
            ContactPoint::new(Point3::new(x, separation, z), separation, id)
        };
        vec![
            p(-2.0, -0.4, 0.015, 1),
            p(2.0, -0.4, 0.015, 2),
            p(0.0, 0.0, -0.001, 3),
            p(2.0, 0.4, 0.015, 4),
            p(-2.0, 0.4, 0.015, 5),
            p(0.5, 0.0, -0.001, 6),
        ]
    }

    fn ids(m: &Manifold) -> Vec<u32> {
        let mut ids: Vec<u32> = m.points.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids
    }

    #[test]
    fn a_settling_pair_keeps_the_points_it_stands_on() {
        let n = Vector3::y();
        let mut m = Manifold::default();
        // Without motion: three far corners of the whole area and the
        // deepest point; the body stands on one of its two points.
        reduce(&crest(), &n, None, &mut m);
        assert_eq!(ids(&m), vec![1, 2, 3, 4]);
        // Still: both touching points, then two far corners, one on each
        // side of the line the body stands on (where it would tip).
        m.clear();
        reduce(&crest(), &n, Some(&still()), &mut m);
        let kept = ids(&m);
        assert_eq!(m.points.len(), 4);
        assert!(kept.contains(&3) && kept.contains(&6), "{kept:?}");
        let far: Vec<_> = m.points.iter().filter(|p| p.separation > 0.0).collect();
        assert_eq!(far.len(), 2);
        assert!(far[0].point.z * far[1].point.z < 0.0, "{far:?}");
    }

    #[test]
    fn a_settling_pair_keeps_a_far_point_that_closes_within_the_step() {
        // Rocking about z through B's centre at 0.1 rad/s: the +x corners,
        // 2 m out, come down by 0.33 cm a step (settling: under the 0.5 cm
        // bound), and bear within the slop plus twice that (1.17 cm): the
        // one 0.9 cm away does, the one 1.5 cm away does not.
        let n = Vector3::y();
        let mut points = crest();
        points[1].separation = 0.009;
        let rocking = StepMotion { angular_b: Vector3::new(0.0, 0.0, -0.1), ..still() };
        let mut m = Manifold::default();
        reduce(&points, &n, Some(&rocking), &mut m);
        let kept = ids(&m);
        assert!(kept.contains(&2) && kept.contains(&3) && kept.contains(&6), "{kept:?}");
    }

    #[test]
    fn a_pair_in_motion_keeps_the_corners() {
        // Falling at 1 m/s: 1.7 cm a step, more than the settling bound.
        let n = Vector3::y();
        let falling = StepMotion { linear_b: Vector3::new(0.0, -1.0, 0.0), ..still() };
        let mut m = Manifold::default();
        reduce(&crest(), &n, Some(&falling), &mut m);
        assert_eq!(ids(&m), vec![1, 2, 3, 4]);
        // A NaN velocity is not settling either.
        let broken = StepMotion { linear_b: Vector3::new(f32::NAN, 0.0, 0.0), ..still() };
        m.clear();
        reduce(&crest(), &n, Some(&broken), &mut m);
        assert_eq!(ids(&m), vec![1, 2, 3, 4]);
    }

    #[test]
    fn a_pair_in_motion_keeps_the_point_deepest_at_the_steps_end() {
        // A long contact area across the normal y, with B rolling about x
        // at 5 rad/s: the gap closes by 5 z / 60 over the step, 5 cm at
        // z = 0.6 and 3.3 cm at the far corners (z = 0.4).
        let p = |x: f32, z: f32, separation: f32, id: u32| {
            ContactPoint::new(Point3::new(x, separation, z), separation, id)
        };
        let points = vec![
            p(-2.0, -0.4, 0.05, 1),
            p(2.0, -0.4, 0.05, 2),
            p(2.0, 0.4, 0.05, 3),
            p(-2.0, 0.4, 0.05, 4),
            // Touching, at the middle, where the roll does not close it.
            p(0.0, 0.0, -0.002, 5),
            // 2 cm apart now, 3 cm in at the step's end.
            p(0.0, 0.6, 0.02, 6),
        ];
        let rolling = StepMotion {
            angular_b: Vector3::new(5.0, 0.0, 0.0),
            center_b: Point3::new(0.0, 0.5, 0.0),
            ..still()
        };
        let mut m = Manifold::default();
        reduce(&points, &Vector3::y(), Some(&rolling), &mut m);
        let kept = ids(&m);
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert!(kept.contains(&6), "{kept:?}");
        // Without the motion the touching point is the deepest one.
        m.clear();
        reduce(&points, &Vector3::y(), None, &mut m);
        let kept = ids(&m);
        assert!(kept.contains(&5) && !kept.contains(&6), "{kept:?}");
    }

    #[test]
    fn far_apart_boxes_prove_a_gap() {
        let mesh = floor(2);
        let ball: Shape = Sphere::new(0.5).into();
        let mut m = Manifold::default();
        let gap = collide_composite_pair(
            &ball,
            &Isometry3::translation(0.0, 3.0, 0.0),
            &mesh,
            &Isometry3::identity(),
            0.02,
            None,
            None,
            &mut m,
        );
        assert!((gap - 2.5).abs() < 1e-5, "{gap}");
        assert!(m.points.is_empty());
    }

    #[test]
    fn the_normal_points_from_a_to_b_either_way_round() {
        let mesh = floor(2);
        let ball: Shape = Sphere::new(0.5).into();
        let at = Isometry3::translation(0.1, 0.49, 0.2);
        let mut m = Manifold::default();
        collide_composite_pair(&mesh, &Isometry3::identity(), &ball, &at, 0.02, None, None, &mut m);
        assert!((m.normal - Vector3::y()).norm() < 1e-5);
        collide_composite_pair(&ball, &at, &mesh, &Isometry3::identity(), 0.02, None, None, &mut m);
        assert!((m.normal + Vector3::y()).norm() < 1e-5);
        assert_eq!(m.points.len(), 1);
        assert!((m.points[0].separation + 0.01).abs() < 1e-5);
    }
}
