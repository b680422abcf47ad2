//! Box–box contact manifolds by the separating-axis test and face clipping.
//!
//! Follows the classic scheme of Gottschalk's OBB test and Dirk Gregorius'
//! "Robust Contact Creation for Physics Simulations" (GDC 2015), as Box2D v3,
//! box3d and Jolt use it: test the 15 candidate axes (3 face normals of each
//! box and 9 edge-edge cross products), keep the axis of largest separation
//! with a bias towards face axes, then either clip the incident face against
//! the side planes of the reference face (up to 8 points reduced to 4) or
//! take the closest points of the two edges (1 point). Departures: the whole
//! test runs in A's frame, and contact ids encode (reference face, incident
//! face, clip feature) so impulses warm start across steps. This path needs
//! no GJK or EPA, so the cube scenes depend on nothing iterative.
//!
//! For speed, the side planes are axis-aligned in the reference box's frame,
//! so the incident face is clipped in 2D against a rectangle
//! ([`super::rectangle_clip`], bit for bit the generic clipper's answer),
//! and edge axes that provably neither separate nor win are dismissed from
//! their unnormalised separation, without a square root.

use arrayvec::ArrayVec;
use nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use super::contact_manifold::{ContactManifold, ManifoldOutcome, ManifoldPoint};
use super::feature_scale::{
    CLIP_FRACTION, EDGE_PREFERENCE_FRACTION, FACE_PREFERENCE_FRACTION, cuboid_scale,
};
use super::polygon_clip::MAX_POLYGON_VERTICES;
use super::rectangle_clip::{RectPolygon, clip_to_rectangle};
use super::reduce::{Candidate, reduce};
use super::sat_cache::SatCache;
use crate::shape::Cuboid;

/// Added to every |R_ij| so that edge axes built from near-parallel edges
/// (whose cross product is tiny and ill-defined) never win by round-off; the
/// value is Gottschalk's, for unit rotation matrix entries.
const PARALLEL_EPSILON: f32 = 1.0e-6;

/// Edge axes whose unnormalised cross product is shorter than this (the sine
/// of the angle between the edges, about 0.06°) are skipped: parallel edges
/// are covered by the face axes.
const MIN_EDGE_CROSS: f32 = 1.0e-3;

/// A squared cross product at most this long has a square root at most
/// [`MIN_EDGE_CROSS`] whatever the rounding (it is 1e-4 below the square), so
/// its axis is skipped without taking the root.
const PARALLEL_EDGES_LENGTH_SQUARED: f32 = MIN_EDGE_CROSS * MIN_EDGE_CROSS * (1.0 - 1.0e-4);

/// Edge axes are skipped without a square root or a division when their
/// unnormalised separation already shows they cannot matter. That proof
/// divides by `|n|`, the sine of the angle between two unit edges: at most
/// 1, and this bound on `|n|²` leaves room for the rotation matrices'
/// rounding (about 1e-6). Axes with a longer `n` take the exact path.
const EDGE_LENGTH_SQUARED_BOUND: f32 = 1.001;

/// The factor the skip test scales the edge bar by: at least the square
/// root of [`EDGE_LENGTH_SQUARED_BOUND`] (about 1.0005) plus rounding, so a
/// skipped axis provably separates less than the bar.
const EDGE_LENGTH_BOUND: f32 = 1.001;

/// Two boxes seen from A's frame: what every separating-axis test of the
/// pair reads, computed once per query (by the full test here and by the
/// cached one of [`super::box_box_cached`]).
pub(super) struct BoxPair<'p> {
    /// A's pose.
    pub pose_a: &'p Isometry3<f32>,
    /// B's pose.
    pub pose_b: &'p Isometry3<f32>,
    /// A's rotation matrix.
    pub rot_a: Matrix3<f32>,
    /// B's rotation matrix.
    pub rot_b: Matrix3<f32>,
    /// B's axes (columns) in A's frame.
    pub r: Matrix3<f32>,
    /// B's centre in A's frame.
    pub t: Vector3<f32>,
    /// `|r|`, entry by entry.
    pub abs_r_exact: Matrix3<f32>,
    /// `|r|` plus [`PARALLEL_EPSILON`], for the face axes.
    pub abs_r: Matrix3<f32>,
    /// A's half extents.
    pub ha: Vector3<f32>,
    /// B's half extents.
    pub hb: Vector3<f32>,
    /// The pair's length scale: the smaller box's smallest width.
    pub scale: f32,
}

impl<'p> BoxPair<'p> {
    /// The pair `a` at `pose_a`, `b` at `pose_b`.
    #[inline(always)]
    pub fn new(
        a: &Cuboid,
        pose_a: &'p Isometry3<f32>,
        b: &Cuboid,
        pose_b: &'p Isometry3<f32>,
    ) -> Self {
        let rot_a = *pose_a.rotation.to_rotation_matrix().matrix();
        let rot_b = *pose_b.rotation.to_rotation_matrix().matrix();
        let r = rot_a.transpose() * rot_b;
        let t = rot_a.transpose() * (pose_b.translation.vector - pose_a.translation.vector);
        let abs_r_exact = r.map(f32::abs);
        let abs_r = abs_r_exact.map(|x| x + PARALLEL_EPSILON);
        Self {
            pose_a,
            pose_b,
            rot_a,
            rot_b,
            r,
            t,
            abs_r_exact,
            abs_r,
            ha: a.half_extents,
            hb: b.half_extents,
            scale: cuboid_scale(a).min(cuboid_scale(b)),
        }
    }

    /// The separation along A's face axis `i` (B's side of it).
    #[inline]
    pub fn face_a_separation(&self, i: usize) -> f32 {
        self.t[i].abs() - (self.ha[i] + self.abs_r.row(i).transpose().dot(&self.hb))
    }

    /// The separation along B's face axis `j` (A's side of it); `t_in_b`
    /// is `r^T t`, the centres' offset in B's axes.
    #[inline]
    pub fn face_b_separation(&self, t_in_b: &Vector3<f32>, j: usize) -> f32 {
        t_in_b[j].abs() - (self.hb[j] + self.abs_r.column(j).dot(&self.ha))
    }

    /// The edge axis `e_i × r_j`'s unnormalised separation and squared
    /// length (see [`collide_cuboids_filling`] for the closed forms).
    #[inline]
    pub fn edge_gap(&self, i: usize, j: usize) -> (f32, f32) {
        let (r, ha, hb, t, abs_r) = (&self.r, &self.ha, &self.hb, &self.t, &self.abs_r_exact);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let (n1, n2) = (-r[(i2, j)], r[(i1, j)]);
        let proj_a = ha[i1] * abs_r[(i2, j)] + ha[i2] * abs_r[(i1, j)];
        let proj_b = hb[j1] * abs_r[(i, j2)] + hb[j2] * abs_r[(i, j1)];
        ((t[i1] * n1 + t[i2] * n2).abs() - (proj_a + proj_b), n1 * n1 + n2 * n2)
    }
}

/// The manifold of boxes `a` and `b`: points whose separation is at most
/// `speculative`, normal from A to B; or the separating axis's gap when one
/// exceeds `speculative` (a lower bound on the boxes' distance; NaN input
/// gives a NaN gap).
pub(crate) fn collide_cuboids(
    a: &Cuboid,
    pose_a: &Isometry3<f32>,
    b: &Cuboid,
    pose_b: &Isometry3<f32>,
    speculative: f32,
) -> ManifoldOutcome {
    let pair = BoxPair::new(a, pose_a, b, pose_b);
    collide_cuboids_filling(&pair, speculative, &mut SatCache::default())
}

/// [`collide_cuboids`] on a prepared pair, recording in `cache` the axis it
/// decided on (the separating axis that proved the boxes apart, the edge
/// axis of an edge contact, the reference face of a face contact) with its
/// separation.
pub(super) fn collide_cuboids_filling(
    pair: &BoxPair<'_>,
    speculative: f32,
    cache: &mut SatCache,
) -> ManifoldOutcome {
    let separated = |distance_bound| ManifoldOutcome::Separated { distance_bound };
    let face_tolerance = FACE_PREFERENCE_FRACTION * pair.scale;
    let edge_tolerance = EDGE_PREFERENCE_FRACTION * pair.scale;
    let (r, t) = (&pair.r, &pair.t);
    let (ha, hb) = (pair.ha, pair.hb);

    let mut best_a = (f32::NEG_INFINITY, 0usize);
    for i in 0..3 {
        let s = pair.face_a_separation(i);
        // Written so a NaN separation is reported as separated.
        if !(s <= speculative) {
            *cache = SatCache::face_a(i, t[i] >= 0.0, s);
            return separated(s);
        }
        if s > best_a.0 {
            best_a = (s, i);
        }
    }
    let t_in_b = r.transpose() * t;
    let mut best_b = (f32::NEG_INFINITY, 0usize);
    for j in 0..3 {
        let s = pair.face_b_separation(&t_in_b, j);
        if !(s <= speculative) {
            *cache = SatCache::face_b(j, t_in_b[j] <= 0.0, s);
            return separated(s);
        }
        if s > best_b.0 {
            best_b = (s, j);
        }
    }
    let (face_sep, flip) =
        if best_b.0 > best_a.0 + face_tolerance { (best_b.0, true) } else { (best_a.0, false) };

    // Edge axes n = e_i × r_j (A's edge i, B's edge j), unnormalised: |n| is
    // the sine of the angle between the edges. Their projections follow
    // Gottschalk's closed forms: n has the components -R[i2][j] and R[i1][j]
    // (i1, i2 the other two indices), so A's half-width along n is
    // ha[i1] |R[i2][j]| + ha[i2] |R[i1][j]|; and r_k · n = e_i · (r_j × r_k)
    // = ±R[i][l] (l the third column), so B's is
    // hb[j1] |R[i][j2]| + hb[j2] |R[i][j1]|. The separation is divided by
    // |n| once, at the end.
    //
    // An edge axis matters only if its separation s exceeds `speculative`
    // (the boxes are apart) or the face axis's by `edge_tolerance` (it
    // wins); below both, at most `bar`, it changes nothing. With the
    // unnormalised separation s|n| = gap and |n| <= EDGE_LENGTH_BOUND,
    // gap <= min(0, EDGE_LENGTH_BOUND bar) implies s <= bar (for a negative
    // bar, dividing by |n| only makes s more negative than bar), so most
    // axes of overlapping boxes need no square root.
    let edge_bar = face_sep + edge_tolerance;
    let skip_gap = (speculative.min(edge_bar) * EDGE_LENGTH_BOUND).min(0.0);
    // All nine unnormalised gaps first, in straight-line code (the loops
    // unroll to constant indices), then the exact test only for the axes
    // that the cheap tests cannot dismiss, in the same order, so the same
    // axis returns or wins. `pending` has bit 3i + j set for axis (i, j).
    let mut gaps = [0.0f32; 9];
    let mut lens_squared = [0.0f32; 9];
    for i in 0..3 {
        for j in 0..3 {
            (gaps[3 * i + j], lens_squared[3 * i + j]) = pair.edge_gap(i, j);
        }
    }
    let mut pending = 0u32;
    for (e, (&gap, &len_squared)) in gaps.iter().zip(&lens_squared).enumerate() {
        let dismissed = (gap <= skip_gap && len_squared <= EDGE_LENGTH_SQUARED_BOUND)
            || len_squared <= PARALLEL_EDGES_LENGTH_SQUARED;
        pending |= u32::from(!dismissed) << e;
    }
    let mut best_edge = (f32::NEG_INFINITY, 0usize, 0usize, 1.0f32);
    while pending != 0 {
        let e = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let len = lens_squared[e].sqrt();
        if !(len > MIN_EDGE_CROSS) {
            continue;
        }
        let s = gaps[e] / len;
        if !(s <= speculative) {
            *cache = SatCache::edge(e / 3, e % 3, s);
            return separated(s);
        }
        if s > best_edge.0 {
            best_edge = (s, e / 3, e % 3, len);
        }
    }

    if best_edge.0 > edge_bar {
        *cache = SatCache::edge(best_edge.1, best_edge.2, best_edge.0);
        let (rot_a, pose_a) = (&pair.rot_a, pair.pose_a);
        return edge_manifold(pose_a, rot_a, &ha, &hb, r, t, best_edge, speculative);
    }
    let axis = if flip { best_b.1 } else { best_a.1 };
    *cache = if flip {
        SatCache::face_b(axis, t_in_b[axis] <= 0.0, face_sep)
    } else {
        SatCache::face_a(axis, t[axis] >= 0.0, face_sep)
    };
    ManifoldOutcome::Within(face_manifold(pair, &t_in_b, flip, axis, speculative))
}

/// The face contact on A's face axis `axis` (B's when `flip`): B's (A's)
/// incident face clipped against the reference face's sides, reduced to at
/// most four points. `t_in_b` is `r^T t`.
pub(super) fn face_manifold(
    pair: &BoxPair<'_>,
    t_in_b: &Vector3<f32>,
    flip: bool,
    axis: usize,
    speculative: f32,
) -> ContactManifold {
    let clip_tolerance = CLIP_FRACTION * pair.scale;
    let (ha, hb, r, t) = (&pair.ha, &pair.hb, &pair.r, &pair.t);
    let mut candidates: ArrayVec<Candidate, MAX_POLYGON_VERTICES> = ArrayVec::new();
    let normal_ref = if flip {
        // B is the reference: A's axes and centre in B's frame.
        let n = face_contact(
            hb,
            ha,
            &r.transpose(),
            &-t_in_b,
            axis,
            speculative,
            clip_tolerance,
            &mut candidates,
        );
        for c in &mut candidates {
            c.0 = pair.pose_b * c.0;
            c.2 |= 1 << 31;
        }
        -(pair.rot_b * n)
    } else {
        let n = face_contact(ha, hb, r, t, axis, speculative, clip_tolerance, &mut candidates);
        for c in &mut candidates {
            c.0 = pair.pose_a * c.0;
        }
        pair.rot_a * n
    };
    let mut out = ContactManifold::empty(normal_ref);
    reduce(&candidates, &normal_ref, &mut out);
    out
}

/// The one-point manifold of the edge axis `best_edge` (its separation, A's
/// edge index, B's edge index, and the axis's unnormalised length); `r`,
/// `t` and the normal are in A's frame, `rot_a` is A's rotation.
#[allow(clippy::too_many_arguments)]
pub(super) fn edge_manifold(
    pose_a: &Isometry3<f32>,
    rot_a: &Matrix3<f32>,
    ha: &Vector3<f32>,
    hb: &Vector3<f32>,
    r: &Matrix3<f32>,
    t: &Vector3<f32>,
    best_edge: (f32, usize, usize, f32),
    speculative: f32,
) -> ManifoldOutcome {
    let (_, i, j, len) = best_edge;
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let (n1, n2) = (-r[(i2, j)] / len, r[(i1, j)] / len);
    // Built without indexed stores, as in `face_contact`.
    let mut n = match i {
        0 => Vector3::new(0.0, n1, n2),
        1 => Vector3::new(n2, 0.0, n1),
        _ => Vector3::new(n1, n2, 0.0),
    };
    if t.dot(&n) < 0.0 {
        n = -n;
    }
    let normal = rot_a * n;
    let mut out = ContactManifold::empty(normal);
    if let Some((point, separation, id, ends)) = edge_contact(ha, hb, r, t, i, j, &n, speculative) {
        let mut p = ManifoldPoint::from_midpoint(pose_a * point, separation, id, &normal);
        // The two edges' closest points, on the boxes' surfaces.
        if let Some([on_a, on_b]) = ends {
            (p.point_a, p.point_b) = (pose_a * on_a, pose_a * on_b);
        }
        out.push(p);
    }
    ManifoldOutcome::Within(out)
}

/// Clips the incident box's most anti-parallel face against the side planes
/// of the reference face on `axis`, all in the reference box's frame. Pushes
/// `(midpoint, separation, id)` candidates and returns the reference normal
/// (pointing from the reference box to the incident one).
///
/// The side planes are axis-aligned in this frame, so the clip is
/// [`clip_to_rectangle`] on the face's two in-plane coordinates, with the
/// height along `axis` carried as a third.
#[allow(clippy::too_many_arguments)]
fn face_contact(
    h_ref: &Vector3<f32>,
    h_inc: &Vector3<f32>,
    rot_inc: &Matrix3<f32>,
    t_inc: &Vector3<f32>,
    axis: usize,
    speculative: f32,
    clip_tolerance: f32,
    candidates: &mut ArrayVec<Candidate, MAX_POLYGON_VERTICES>,
) -> Vector3<f32> {
    let sign = if t_inc[axis] >= 0.0 { 1.0 } else { -1.0 };
    // `Vector3::ith` would store one lane by index, stalling the wide loads
    // of `n` below.
    let n = match axis {
        0 => Vector3::new(sign, 0.0, 0.0),
        1 => Vector3::new(0.0, sign, 0.0),
        _ => Vector3::new(0.0, 0.0, sign),
    };
    // Incident face: the face whose outward normal is most anti-parallel to
    // n. The incident axes' components along n are row `axis` of `rot_inc`.
    let d = rot_inc.row(axis).transpose() * sign;
    let k = d.iamax();
    let inc_sign = if d[k] > 0.0 { -1.0 } else { 1.0 };
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    let center = t_inc + rot_inc.column(k) * (inc_sign * h_inc[k]);
    let eu = rot_inc.column(u) * h_inc[u];
    let ev = rot_inc.column(v) * h_inc[v];
    // The reference face's in-plane axes pu, pv and its normal `axis` order
    // each vertex's coordinates as [u, v, w].
    let (pu, pv) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut quad = RectPolygon::new();
    for (id, (su, sv)) in
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)].into_iter().enumerate()
    {
        let p = center + eu * su + ev * sv;
        quad.push(([p[pu], p[pv], p[axis], 0.0], id as u32));
    }
    let mut clipped = RectPolygon::new();
    clip_to_rectangle(&quad, h_ref[pu], h_ref[pv], clip_tolerance, &mut clipped);
    let ref_face = (2 * axis + usize::from(sign > 0.0)) as u32;
    let inc_face = (2 * k + usize::from(inc_sign > 0.0)) as u32;
    let key = (ref_face << 3 | inc_face) << 16;
    for &([cu, cv, cw, _], id) in &clipped {
        let separation = sign * cw - h_ref[axis];
        if separation <= speculative {
            // Back from [u, v, w] to the frame's axes, without indexed
            // stores (a later wide load of the point would stall on them).
            let p = match axis {
                0 => Point3::new(cw, cu, cv),
                1 => Point3::new(cv, cw, cu),
                _ => Point3::new(cu, cv, cw),
            };
            candidates.push((p - n * (0.5 * separation), separation, key | id, None));
        }
    }
    n
}

/// The single contact of two crossing edges: the closest points of edge `i`
/// of A and edge `j` of B (directions in A's frame), each chosen as the edge
/// of its box farthest along `n` (A) or `-n` (B). Returns their midpoint (in
/// A's frame), separation and id, if within `speculative`.
#[allow(clippy::too_many_arguments)]
fn edge_contact(
    ha: &Vector3<f32>,
    hb: &Vector3<f32>,
    r: &Matrix3<f32>,
    t: &Vector3<f32>,
    i: usize,
    j: usize,
    n: &Vector3<f32>,
    speculative: f32,
) -> Option<Candidate> {
    let mut pa = Vector3::zeros();
    for k in 0..3 {
        if k != i {
            pa[k] = ha[k].copysign(n[k]);
        }
    }
    let n_in_b = r.transpose() * n;
    let mut pb = *t;
    for k in 0..3 {
        if k != j {
            pb += r.column(k) * (-hb[k].copysign(n_in_b[k]));
        }
    }
    let da = Vector3::ith(i, 1.0);
    let db: Vector3<f32> = r.column(j).into();
    // Closest points of the lines pa + s da and pb + u db (both unit).
    let w = pa - pb;
    let bb = da.dot(&db);
    let c = da.dot(&w);
    let f = db.dot(&w);
    let denom = 1.0 - bb * bb;
    let s = if denom > MIN_EDGE_CROSS * MIN_EDGE_CROSS { (bb * f - c) / denom } else { 0.0 };
    let s = s.clamp(-ha[i], ha[i]);
    let u = (bb * s + f).clamp(-hb[j], hb[j]);
    // With B's parameter clamped, A's nearest to it again (Ericson's
    // segment–segment closest points): both points stay on their edges.
    let s = (bb * u - c).clamp(-ha[i], ha[i]);
    let point_a = pa + da * s;
    let point_b = pb + db * u;
    let separation = (point_b - point_a).dot(n);
    let id = 0x4000_0000 | (i * 3 + j) as u32;
    (separation <= speculative).then(|| {
        let mid = Point3::from((point_a + point_b) * 0.5);
        (mid, separation, id, Some([Point3::from(point_a), Point3::from(point_b)]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::test_rng::Lcg;
    use nalgebra::{Translation3, UnitQuaternion};

    /// The edge preference of the unit-sized pairs below.
    const EDGE_TOLERANCE: f32 = EDGE_PREFERENCE_FRACTION;

    /// The manifold, or an empty one with the gap for separated boxes.
    fn manifold(
        a: &Cuboid,
        pa: &Isometry3<f32>,
        b: &Cuboid,
        pb: &Isometry3<f32>,
        speculative: f32,
    ) -> (ContactManifold, f32) {
        match collide_cuboids(a, pa, b, pb, speculative) {
            ManifoldOutcome::Within(m) => (m, 0.0),
            ManifoldOutcome::Separated { distance_bound } => {
                (ContactManifold::empty(Vector3::zeros()), distance_bound)
            }
        }
    }

    fn random_pose(rng: &mut Lcg, spread: f32) -> Isometry3<f32> {
        let axis = Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        Isometry3::from_parts(
            Translation3::new(
                rng.range(-spread, spread),
                rng.range(-spread, spread),
                rng.range(-spread, spread),
            ),
            UnitQuaternion::from_scaled_axis(axis * rng.range(0.0, 3.0)),
        )
    }

    /// The deepest manifold point matches the penetration depth found by
    /// collide's EPA (an independent algorithm), for random overlapping
    /// boxes and with A and B swapped. The SAT prefers faces over edges by
    /// `EDGE_TOLERANCE`, so depths may differ by that much.
    #[test]
    fn deepest_point_matches_epa_depth() {
        let mut rng = Lcg(7);
        let mut checked = 0;
        for _ in 0..400 {
            let a = Cuboid::new(Vector3::new(
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
            ));
            let b = Cuboid::new(Vector3::new(
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
            ));
            let (pa, pb) = (random_pose(&mut rng, 0.2), random_pose(&mut rng, 1.0));
            let Some(epa) = crate::penetration(&a, &pa, &b, &pb) else { continue };
            for (x, px, y, py) in [(&a, &pa, &b, &pb), (&b, &pb, &a, &pa)] {
                let (m, _) = manifold(x, px, y, py, 0.0);
                assert!(!m.is_empty(), "overlapping boxes gave no contact");
                let depth = -m.min_separation();
                // The preference is a fraction of the smaller box's width.
                let scale = cuboid_scale(x).min(cuboid_scale(y));
                let tolerance = EDGE_TOLERANCE * scale + 2e-3 * epa.depth.max(1.0);
                assert!(
                    (depth - epa.depth).abs() <= tolerance,
                    "SAT depth {depth}, EPA depth {}",
                    epa.depth
                );
                assert!((m.normal.norm() - 1.0).abs() < 1e-4);
            }
            checked += 1;
        }
        assert!(checked > 100, "only {checked} overlapping pairs");
    }

    #[test]
    fn separated_boxes_give_no_points_beyond_the_speculative_distance() {
        let a = Cuboid::new(Vector3::repeat(0.5));
        let pb = Isometry3::translation(0.0, 1.05, 0.0);
        let (m, _) = manifold(&a, &Isometry3::identity(), &a, &pb, 0.06);
        assert_eq!(m.len(), 4);
        assert!(m.points().iter().all(|p| (p.separation - 0.05).abs() < 1e-5));
        let (m, gap) = manifold(&a, &Isometry3::identity(), &a, &pb, 0.04);
        assert!(m.is_empty() && (gap - 0.05).abs() < 1e-5);
        let (m, gap) =
            manifold(&a, &Isometry3::identity(), &a, &Isometry3::translation(0.0, 1.07, 0.0), 0.06);
        assert!(m.is_empty() && (gap - 0.07).abs() < 1e-5);
    }

    /// A box resting on a bigger one keeps the same four feature ids when it
    /// moves a little, which is what warm starting relies on.
    #[test]
    fn resting_contact_ids_persist_across_small_motions() {
        let ground = Cuboid::new(Vector3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(Vector3::repeat(0.5));
        let mut ids = Vec::new();
        for (dx, angle) in [(0.0, 0.0), (0.01, 0.002), (-0.02, -0.004)] {
            let pose = Isometry3::from_parts(
                Translation3::new(dx, 0.999, 0.0),
                UnitQuaternion::from_axis_angle(&Vector3::y_axis(), angle),
            );
            let (m, _) = manifold(&ground, &Isometry3::identity(), &cube, &pose, 0.02);
            let mut step_ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
            step_ids.sort_unstable();
            assert_eq!(step_ids.len(), 4);
            ids.push(step_ids);
        }
        assert!(ids.windows(2).all(|w| w[0] == w[1]), "ids changed: {ids:?}");
    }

    /// The largest separation over A's and B's face axes and over the edge
    /// axes, by brute force: every axis normalised, in the world frame, the
    /// boxes' extents along it summed corner by corner. Edge axes of nearly
    /// parallel edges (|cross| < `min_cross`) are left out.
    fn brute_force_sat(
        a: &Cuboid,
        pa: &Isometry3<f32>,
        b: &Cuboid,
        pb: &Isometry3<f32>,
        min_cross: f32,
    ) -> (f32, f32) {
        let axes_a: Vec<Vector3<f32>> =
            (0..3).map(|k| pa.rotation * Vector3::ith(k, 1.0)).collect();
        let axes_b: Vec<Vector3<f32>> =
            (0..3).map(|k| pb.rotation * Vector3::ith(k, 1.0)).collect();
        let d = pb.translation.vector - pa.translation.vector;
        let separation = |l: &Vector3<f32>| {
            let reach = |axes: &[Vector3<f32>], h: &Vector3<f32>| {
                (0..3).map(|k| h[k] * axes[k].dot(l).abs()).sum::<f32>()
            };
            d.dot(l).abs() - reach(&axes_a, &a.half_extents) - reach(&axes_b, &b.half_extents)
        };
        let face = axes_a.iter().chain(&axes_b).map(separation).fold(f32::NEG_INFINITY, f32::max);
        let mut edge = f32::NEG_INFINITY;
        for ea in &axes_a {
            for eb in &axes_b {
                let n = ea.cross(eb);
                if n.norm() >= min_cross {
                    edge = edge.max(separation(&n.normalize()));
                }
            }
        }
        (face, edge)
    }

    /// Separation, and the face-or-edge choice, agree with a brute-force
    /// SAT over the 15 normalised axes: for random pairs at scales 1e-3 to
    /// 1e3, with random and with nearly aligned rotations (where edge axes
    /// are nearly degenerate and the square-root-free dismissal of edge axes
    /// is tested hardest), and with A and B swapped. Cases within a rounding
    /// margin of a threshold are not judged.
    #[test]
    fn axis_choice_matches_brute_force_sat() {
        let mut rng = Lcg(23);
        let (mut edges, mut faces, mut apart) = (0, 0, 0);
        for k in 0..30_000 {
            let scale = [1e-3f32, 1.0, 1e3][k % 3];
            let mut extents = || {
                Vector3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0)) * scale
            };
            let (a, b) = (Cuboid::new(extents()), Cuboid::new(extents()));
            let pair_scale = cuboid_scale(&a).min(cuboid_scale(&b));
            let angle = [3.0, 0.05, 1e-3][(k / 3) % 3];
            let mut pose = |spread: f32| {
                let axis =
                    Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                Isometry3::from_parts(
                    Translation3::new(
                        rng.range(-spread, spread),
                        rng.range(-spread, spread),
                        rng.range(-spread, spread),
                    ),
                    UnitQuaternion::from_scaled_axis(axis * rng.range(0.0, angle)),
                )
            };
            let (pa, pb) = (pose(0.0), pose(2.0 * scale));
            let speculative = 0.02 * scale;
            let margin = 1e-4 * scale;
            for (x, px, y, py) in [(&a, &pa, &b, &pb), (&b, &pb, &a, &pa)] {
                let (face, edge) = brute_force_sat(x, px, y, py, 0.05);
                let (_, edge_all) = brute_force_sat(x, px, y, py, 0.0);
                let (m, gap) = manifold(x, px, y, py, speculative);
                let worst = face.max(edge_all);
                if worst > speculative + margin {
                    assert!(gap > speculative && m.is_empty(), "apart by {worst}: {gap}");
                    apart += 1;
                    continue;
                }
                if face.max(edge) < speculative - margin {
                    assert_eq!(gap, 0.0, "face {face}, edge {edge}");
                }
                if gap != 0.0 {
                    continue;
                }
                let is_edge = m.len() == 1 && m.points()[0].id & 0x4000_0000 != 0;
                let bar = face + EDGE_TOLERANCE * pair_scale;
                if edge > bar + margin && edge_all == edge {
                    assert!(is_edge, "edge axis {edge} beats face axis {face}: {m:?}");
                    edges += 1;
                } else if edge_all < bar - margin {
                    assert!(!is_edge, "face axis {face} beats edge axis {edge_all}: {m:?}");
                    faces += 1;
                }
            }
        }
        assert!(edges > 1_000 && faces > 1_000 && apart > 1_000, "{edges} {faces} {apart}");
    }
}
