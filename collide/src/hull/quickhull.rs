//! Quickhull (Barber, Dobkin & Huhdanpaa, "The Quickhull Algorithm for Convex
//! Hulls", ACM TOMS 1996): the triangulated convex hull of a point cloud.
//!
//! The method is the paper's: start from a tetrahedron of extreme points, give
//! every remaining point to one face it lies outside ("outside sets"), then
//! repeatedly take the farthest point of some outside set as the *eye*, delete
//! the faces it sees, and close the hole with a cone of new triangles from the
//! eye to the horizon. Points of the deleted faces' outside sets are handed to
//! the new faces, or dropped when they are outside none of them.
//!
//! Departures from the paper, all for robustness in f32:
//! * **Exact visibility.** The points are snapped (relative to their bounding
//!   box centre) to an integer grid of `2^GRID_BITS` steps across the cloud,
//!   finer than the f32 spacing of the input coordinates, and the "does the
//!   eye see this face" decision is the exact sign of an `i128` orientation
//!   determinant. The current hull is therefore always exactly convex, the
//!   visible set is always a disk and the horizon a simple loop, whatever the
//!   input. Barber et al. instead rely on floating point with merged facets.
//! * **Thick outside test.** A point joins an outside set (can become an
//!   eye) only if it is more than the cloud's coplanarity tolerance
//!   (`Cloud::tolerance`) beyond a face, so near-coplanar and duplicate points
//!   never become vertices. Points strictly beyond a face but within the
//!   tolerance are kept in the face's *near set* (the paper's "coplanar
//!   points") and follow it when it is replaced; points behind every new face
//!   are dropped, which is exact. At the end each near point is checked
//!   against every face it sees; one more than the tolerance beyond some face
//!   (possible at sharp edges of thin hulls, where later faces tilt past it)
//!   goes back into an outside set and construction resumes.
//! * The output is a closed triangle mesh; merging coplanar triangles into
//!   polygons is a separate pass (`face_merge`).

use nalgebra::{Point3, Vector3};

use crate::error::HullError;

/// Tolerance relative to the cloud's size: points closer than
/// `COPLANAR_RELATIVE_TOLERANCE * bounding_box_diagonal` to a face plane count
/// as *on* it. At 1e-5 of the cloud's size the error is far below anything a
/// collision query in f32 can resolve on an object of that size (f32 keeps
/// about 1e-7 relative precision), yet large enough to absorb the f32 rounding
/// of points that were meant to be coplanar (a grid on a rotated cube face).
pub(crate) const COPLANAR_RELATIVE_TOLERANCE: f64 = 1e-5;

/// Tolerance floor from f32 rounding, in units of `f32::EPSILON` times the
/// largest absolute input coordinate. A cloud whose extent is only a few f32
/// ulps of its distance from the origin carries no reliable shape (its
/// coordinates were already rounded by that much), so such detail is treated
/// as noise: a 1e-9 cube at the origin is a fine 3D cloud, the same cube
/// translated to (1, 1, 1) is degenerate.
pub(crate) const ROUNDING_TOLERANCE_ULPS: f64 = 16.0;

/// Number of grid steps (as a power of two) across the largest half-extent
/// `h` of the cloud: the step is `2^(ceil(log2 h) - GRID_BITS)`. Some input
/// coordinate is at least `h` in magnitude, so the step is at most half the
/// f32 spacing there, and snapping moves points by at most a quarter of it.
/// Grid coordinates are at most 2^25, differences 2^26, so orientation
/// determinants stay below 2^81 and are exact in an `i128`.
const GRID_BITS: i32 = 25;

/// The fewest points that can bound an area: a triangle, which makes a flat
/// hull. Fewer points are [`HullError::TooFewPoints`]; three collinear or
/// coincident points are [`HullError::Degenerate`], like any such cloud.
pub(crate) const MIN_HULL_POINTS: usize = 3;

/// Marker for "no face / no vertex".
pub(crate) const NONE: u32 = u32::MAX;

/// The input cloud, validated and prepared for exact and approximate geometry.
#[derive(Debug)]
pub(crate) struct Cloud {
    /// Bounding-box centre; every other coordinate here is relative to it.
    pub center: Vector3<f64>,
    /// The input points minus `center`, snapped to the grid (`grid *
    /// grid_step`). Within half a grid step (1/4 f32 ulp of the largest
    /// coordinate) of the input, and consistent with the exact predicates:
    /// every hull triangle has a non-zero area here.
    pub snapped: Vec<Vector3<f64>>,
    /// The points snapped to the integer grid: `(point - center) / grid_step`,
    /// rounded.
    pub grid: Vec<[i64; 3]>,
    /// Coplanarity tolerance in the cloud's units (see the constants above).
    pub tolerance: f64,
    /// Grid spacing in the cloud's units.
    grid_step: f64,
}

impl Cloud {
    /// Checks the input and builds the grid and tolerance data.
    pub(crate) fn new(points: &[Point3<f32>]) -> Result<Self, HullError> {
        if points.len() < MIN_HULL_POINTS {
            return Err(HullError::TooFewPoints { count: points.len() });
        }
        if let Some(index) = points.iter().position(|p| !p.coords.iter().all(|c| c.is_finite())) {
            return Err(HullError::NonFinitePoint { index });
        }
        if u32::try_from(points.len()).is_err() || points.len() == NONE as usize {
            return Err(HullError::TooManyPoints { count: points.len() });
        }

        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        let mut max_abs = 0.0f64;
        for p in points {
            let p = p.coords.cast::<f64>();
            lo = lo.inf(&p);
            hi = hi.sup(&p);
            max_abs = max_abs.max(p.amax());
        }
        let center = (lo + hi) * 0.5;
        let diagonal = (hi - lo).norm();
        let tolerance = (COPLANAR_RELATIVE_TOLERANCE * diagonal)
            .max(ROUNDING_TOLERANCE_ULPS * f64::from(f32::EPSILON) * max_abs);
        // A cloud no larger than the tolerance is a point. Written so that a
        // zero diagonal (all points equal) also lands here.
        if !exceeds(diagonal, tolerance) {
            return Err(HullError::Degenerate { dimension: 0 });
        }

        let half_extent = ((hi - lo) * 0.5).amax();
        // Power of two so that snapping is a pure exponent shift plus rounding.
        let grid_step = 2f64.powi(half_extent.log2().ceil() as i32 - GRID_BITS);
        let grid: Vec<[i64; 3]> = points
            .iter()
            .map(|p| {
                let g = (p.coords.cast::<f64>() - center) / grid_step;
                [g.x.round() as i64, g.y.round() as i64, g.z.round() as i64]
            })
            .collect();
        let snapped = grid
            .iter()
            .map(|g| Vector3::new(g[0] as f64, g[1] as f64, g[2] as f64) * grid_step)
            .collect();
        Ok(Self { center, snapped, grid, tolerance, grid_step })
    }

    /// Exact orientation of `d` against the plane of triangle `(a, b, c)`:
    /// `((b - a) × (c - a)) · (d - a)` on the grid. Positive when `d` is on the
    /// side the counter-clockwise normal of `(a, b, c)` points to.
    pub(crate) fn orient(&self, a: u32, b: u32, c: u32, d: u32) -> i128 {
        let n = self.grid_normal(a, b, c);
        let w = self.grid_diff(d, a);
        n[0] * w[0] + n[1] * w[1] + n[2] * w[2]
    }

    /// The normal `(b - a) × (c - a)` of a triangle, computed exactly on the
    /// grid and then rounded to f64 (so in grid units squared). Non-zero for
    /// every triangle of the hull mesh.
    pub(crate) fn triangle_normal(&self, t: [u32; 3]) -> Vector3<f64> {
        let n = self.grid_normal(t[0], t[1], t[2]);
        Vector3::new(n[0] as f64, n[1] as f64, n[2] as f64)
    }

    /// Exact `(b - a) × (c - a)` on the grid.
    fn grid_normal(&self, a: u32, b: u32, c: u32) -> [i128; 3] {
        let u = self.grid_diff(b, a);
        let v = self.grid_diff(c, a);
        [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    }

    fn grid_diff(&self, a: u32, b: u32) -> [i128; 3] {
        let (a, b) = (self.grid[a as usize], self.grid[b as usize]);
        [i128::from(a[0] - b[0]), i128::from(a[1] - b[1]), i128::from(a[2] - b[2])]
    }

    fn grid_point(&self, a: u32) -> Vector3<f64> {
        let g = self.grid[a as usize];
        Vector3::new(g[0] as f64, g[1] as f64, g[2] as f64)
    }
}

/// Rounds of "verify the near points, re-insert the violators as eyes". A
/// round is needed only when a point dropped as near a face later ends up
/// more than the tolerance beyond a newer face (sharp, nearly flat hulls);
/// each extra round adds at least one vertex. 16 is far more than seen (1-2);
/// if it were reached, the hull is returned as it stands and a few points may
/// lie slightly more than the tolerance outside it.
const MAX_CONTAINMENT_ROUNDS: usize = 16;

/// Below this magnitude (in grid units) the approximate distance cannot be
/// trusted for a sign and the exact orientation decides. Distance errors are
/// ~1e-8 grid units (see `Face::distance`).
const SIGN_UNCERTAINTY: f64 = 1e-6;

/// One triangle of the hull under construction.
#[derive(Debug)]
struct Face {
    v: [u32; 3],
    adj: [u32; 3],
    /// Unit normal on the grid (from the exact cross product, then rounded).
    normal: Vector3<f64>,
    /// Grid point of `v[0]`, the plane's anchor.
    anchor: Vector3<f64>,
    /// Points more than the tolerance beyond this face: candidate eyes.
    outside: Vec<u32>,
    /// Points strictly beyond this face but within the tolerance: not
    /// vertices, but not yet proven inside either (Barber et al.'s
    /// "coplanar points"). They follow their face when it is replaced, and
    /// are checked against the final hull.
    near: Vec<u32>,
    alive: bool,
}

impl Face {
    fn new(cloud: &Cloud, v: [u32; 3]) -> Self {
        let n = cloud.grid_normal(v[0], v[1], v[2]);
        let normal = Vector3::new(n[0] as f64, n[1] as f64, n[2] as f64);
        // Exact arithmetic guarantees a non-degenerate triangle (n != 0), so
        // the norm is positive; `normalize` of a zero vector would give NaN,
        // which the callers' `>` comparisons treat as "not outside".
        debug_assert!(n != [0, 0, 0], "degenerate hull triangle");
        Self {
            v,
            adj: [NONE; 3],
            normal: normal.normalize(),
            anchor: cloud.grid_point(v[0]),
            outside: Vec::new(),
            near: Vec::new(),
            alive: true,
        }
    }

    /// Approximate signed distance of grid point `p` from the plane, in grid
    /// units. `p - anchor` is exact (small integers), so the error is only
    /// the rounding of the unit normal and of the dot product, ~1e-16 relative.
    fn distance(&self, p: &Vector3<f64>) -> f64 {
        self.normal.dot(&(p - self.anchor))
    }

    /// Whether grid point `i` is strictly beyond the plane, exactly.
    fn sees(&self, cloud: &Cloud, i: u32, distance: f64) -> bool {
        distance > SIGN_UNCERTAINTY
            || (distance > -SIGN_UNCERTAINTY
                && cloud.orient(self.v[0], self.v[1], self.v[2], i) > 0)
    }
}

/// The hull under construction and its scratch buffers.
struct Builder<'a> {
    cloud: &'a Cloud,
    /// Grid points as f64 (exact: they are integers below 2^26).
    gp: Vec<Vector3<f64>>,
    /// Tolerance in grid units.
    tol: f64,
    faces: Vec<Face>,
    /// Faces that may have a non-empty outside set.
    pending: Vec<u32>,
    eyes: usize,
    stamp: u32,
    face_stamp: Vec<u32>,
    horizon_slot: Vec<u32>,
}

impl Builder<'_> {
    /// Gives point `i` to the first of `candidates` it is more than the
    /// tolerance beyond (outside set), else to the first it is strictly
    /// beyond (near set), else drops it. Dropping is exact: either the
    /// candidates are the initial tetrahedron, or the point was strictly
    /// beyond a face that the new cone `candidates` replaced and is on or
    /// behind all of them, so it lies in the cone from the eye over the old
    /// hull, on the eye's side of the old face: inside the new hull.
    fn place(&mut self, candidates: &[u32], i: u32) {
        let q = self.gp[i as usize];
        let mut beyond = NONE;
        for &f in candidates {
            let face = &self.faces[f as usize];
            let d = face.distance(&q);
            if d > self.tol {
                self.faces[f as usize].outside.push(i);
                return;
            }
            if beyond == NONE && face.sees(self.cloud, i, d) {
                beyond = f;
            }
        }
        if beyond != NONE {
            self.faces[beyond as usize].near.push(i);
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp += 1;
        self.face_stamp.resize(self.faces.len(), 0);
        self.stamp
    }

    /// The quickhull loop: add eyes until every outside set is empty.
    fn expand(&mut self) -> Result<(), HullError> {
        let n = self.gp.len();
        // Every eye is removed from all outside sets for good, so there are
        // at most n - 4 of them; the cap only guards against a logic error.
        let max_eyes = n;
        let mut visible: Vec<u32> = Vec::new();
        let mut horizon: Vec<(u32, u32, u32)> = Vec::new();
        let mut ordered: Vec<(u32, u32, u32)> = Vec::new();
        let mut new_faces: Vec<u32> = Vec::new();
        while let Some(fi) = self.pending.pop() {
            let f = &self.faces[fi as usize];
            if !f.alive || f.outside.is_empty() {
                continue;
            }
            if self.eyes >= max_eyes {
                return Err(HullError::Numerical);
            }
            self.eyes += 1;

            // The eye: the outside point farthest from the face (a vertex of
            // the final hull, being extreme along this normal).
            let mut eye = f.outside[0];
            let mut eye_dist = f64::NEG_INFINITY;
            for &p in &f.outside {
                let dist = f.distance(&self.gp[p as usize]);
                if dist > eye_dist {
                    eye_dist = dist;
                    eye = p;
                }
            }
            if self.cloud.orient(f.v[0], f.v[1], f.v[2], eye) <= 0 {
                // Cannot happen: the eye is more than `tol` (hundreds of grid
                // steps) beyond the face, far above the distance's error.
                return Err(HullError::Numerical);
            }

            // Visible set: faces whose plane has the eye strictly in front,
            // found by flooding from `fi`. On an exactly convex mesh this is
            // a disk.
            let stamp = self.next_stamp();
            visible.clear();
            visible.push(fi);
            self.face_stamp[fi as usize] = stamp;
            let mut k = 0;
            while k < visible.len() {
                let vf = visible[k] as usize;
                k += 1;
                for nb in self.faces[vf].adj {
                    if self.face_stamp[nb as usize] == stamp {
                        continue;
                    }
                    let nf = &self.faces[nb as usize];
                    if self.cloud.orient(nf.v[0], nf.v[1], nf.v[2], eye) > 0 {
                        self.face_stamp[nb as usize] = stamp;
                        visible.push(nb);
                    }
                }
            }

            // Horizon: edges of visible faces whose neighbour is not visible,
            // oriented as in the visible face. Each start vertex occurs once
            // on a simple loop; chain them in order.
            horizon.clear();
            for &vf in &visible {
                let face = &self.faces[vf as usize];
                for i in 0..3 {
                    let nb = face.adj[i];
                    if self.face_stamp[nb as usize] != stamp {
                        let (from, to) = (face.v[i], face.v[(i + 1) % 3]);
                        if self.horizon_slot[from as usize] != NONE {
                            return Err(HullError::Numerical);
                        }
                        self.horizon_slot[from as usize] = horizon.len() as u32;
                        horizon.push((from, to, nb));
                    }
                }
            }
            let horizon_len = horizon.len();
            ordered.clear();
            let mut at = 0usize;
            for _ in 0..horizon_len {
                let edge = horizon[at];
                ordered.push(edge);
                let next = self.horizon_slot[edge.1 as usize];
                if next == NONE {
                    break;
                }
                at = next as usize;
            }
            for &(from, _, _) in &horizon {
                self.horizon_slot[from as usize] = NONE;
            }
            if ordered.len() != horizon_len || at != 0 {
                return Err(HullError::Numerical);
            }

            // Cone of new faces from the eye over the horizon.
            new_faces.clear();
            let first = self.faces.len() as u32;
            for (k, &(from, to, nb)) in ordered.iter().enumerate() {
                let id = first + k as u32;
                let mut face = Face::new(self.cloud, [from, to, eye]);
                let next = first + ((k + 1) % horizon_len) as u32;
                let prev = first + ((k + horizon_len - 1) % horizon_len) as u32;
                face.adj = [nb, next, prev];
                let other = &mut self.faces[nb as usize];
                let slot = (0..3).find(|&j| other.v[j] == to && other.v[(j + 1) % 3] == from);
                match slot {
                    Some(j) => other.adj[j] = id,
                    None => return Err(HullError::Numerical),
                }
                self.faces.push(face);
                new_faces.push(id);
            }

            // Hand the deleted faces' outside and near points to the new faces.
            for &vf in &visible {
                let face = &mut self.faces[vf as usize];
                face.alive = false;
                let outside = std::mem::take(&mut face.outside);
                let near = std::mem::take(&mut face.near);
                for p in outside.into_iter().chain(near) {
                    if p != eye {
                        self.place(&new_faces, p);
                    }
                }
            }
            for &nf in &new_faces {
                if !self.faces[nf as usize].outside.is_empty() {
                    self.pending.push(nf);
                }
            }
        }
        Ok(())
    }

    /// Checks every near point against all faces it sees (its visible region,
    /// found by flooding from its face with exact orientation tests). Points
    /// more than the tolerance beyond some face become outside points again.
    /// Returns whether any did.
    fn recheck_near_points(&mut self) -> bool {
        let mut region: Vec<u32> = Vec::new();
        let mut any = false;
        for fi in 0..self.faces.len() {
            if !self.faces[fi].alive || self.faces[fi].near.is_empty() {
                continue;
            }
            let near = std::mem::take(&mut self.faces[fi].near);
            let mut kept = Vec::with_capacity(near.len());
            for p in near {
                let q = self.gp[p as usize];
                let stamp = self.next_stamp();
                region.clear();
                region.push(fi as u32);
                self.face_stamp[fi] = stamp;
                let (mut worst, mut worst_dist) = (fi as u32, self.faces[fi].distance(&q));
                let mut k = 0;
                while k < region.len() {
                    let f = region[k] as usize;
                    k += 1;
                    for nb in self.faces[f].adj {
                        if self.face_stamp[nb as usize] == stamp {
                            continue;
                        }
                        self.face_stamp[nb as usize] = stamp;
                        let face = &self.faces[nb as usize];
                        let d = face.distance(&q);
                        if face.sees(self.cloud, p, d) {
                            region.push(nb);
                            if d > worst_dist {
                                (worst, worst_dist) = (nb, d);
                            }
                        }
                    }
                }
                if worst_dist > self.tol {
                    self.faces[worst as usize].outside.push(p);
                    self.pending.push(worst);
                    any = true;
                } else {
                    kept.push(p);
                }
            }
            self.faces[fi].near = kept;
        }
        any
    }
}

/// A closed, exactly convex (on the grid) triangle mesh over input indices.
#[derive(Debug)]
pub(crate) struct TriangleMesh {
    /// Input point indices, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
    /// `neighbors[t][i]` shares the edge `triangles[t][i] -> triangles[t][i + 1]`.
    pub neighbors: Vec<[u32; 3]>,
}

/// Builds the triangulated convex hull of the cloud. Every input point is
/// a vertex, exactly inside, or at most the tolerance beyond every face plane.
pub(crate) fn triangle_hull(cloud: &Cloud) -> Result<TriangleMesh, HullError> {
    let n = cloud.grid.len();
    let tol = cloud.tolerance / cloud.grid_step;
    let gp: Vec<Vector3<f64>> = (0..n as u32).map(|i| cloud.grid_point(i)).collect();

    let simplex = initial_simplex(cloud, &gp, tol)?;
    let mut faces: Vec<Face> = Vec::with_capacity(4 * n.min(1 << 16));
    let [a, b, c, d] = simplex;
    // Orient so that `d` is behind face (a, b, c); then the four faces below
    // are all counter-clockwise seen from outside.
    let (b, c) = if cloud.orient(a, b, c, d) > 0 { (c, b) } else { (b, c) };
    for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
        faces.push(Face::new(cloud, v));
    }
    link_initial(&mut faces);

    let mut builder = Builder {
        cloud,
        gp,
        tol,
        faces,
        pending: (0..4).collect(),
        eyes: 0,
        stamp: 0,
        face_stamp: Vec::new(),
        horizon_slot: vec![NONE; n],
    };
    for i in 0..n as u32 {
        if !simplex.contains(&i) {
            builder.place(&[0, 1, 2, 3], i);
        }
    }
    builder.expand()?;
    for _ in 0..MAX_CONTAINMENT_ROUNDS {
        if !builder.recheck_near_points() {
            break;
        }
        builder.expand()?;
    }

    // Compact the live faces.
    let faces = builder.faces;
    let mut remap = vec![NONE; faces.len()];
    let mut count = 0u32;
    for (i, f) in faces.iter().enumerate() {
        if f.alive {
            remap[i] = count;
            count += 1;
        }
    }
    let live = faces.iter().filter(|f| f.alive);
    let triangles = live.clone().map(|f| f.v).collect();
    let neighbors = live.map(|f| f.adj.map(|a| remap[a as usize])).collect::<Vec<_>>();
    if neighbors.iter().flatten().any(|&a| a == NONE) {
        return Err(HullError::Numerical);
    }
    Ok(TriangleMesh { triangles, neighbors })
}

/// Three extreme points spanning the cloud's widest triangle: the two most
/// distant of the six axis-extreme points and the point farthest from their
/// line; or the dimension the cloud spans if it is a point or a line. `gp`
/// are the points (on the grid, or snapped) and `tol` the tolerance in the
/// same units.
pub(crate) fn initial_triangle(gp: &[Vector3<f64>], tol: f64) -> Result<[u32; 3], HullError> {
    // The two most distant of the six axis-extreme points.
    let mut extremes = [0u32; 6];
    for axis in 0..3 {
        let (mut lo, mut hi) = (0u32, 0u32);
        for (i, p) in gp.iter().enumerate() {
            if p[axis] < gp[lo as usize][axis] {
                lo = i as u32;
            }
            if p[axis] > gp[hi as usize][axis] {
                hi = i as u32;
            }
        }
        extremes[2 * axis] = lo;
        extremes[2 * axis + 1] = hi;
    }
    let (mut a, mut b, mut best) = (0u32, 0u32, -1.0f64);
    for &i in &extremes {
        for &j in &extremes {
            let d = (gp[i as usize] - gp[j as usize]).norm();
            if d > best {
                (a, b, best) = (i, j, d);
            }
        }
    }
    if !exceeds(best, tol) {
        return Err(HullError::Degenerate { dimension: 0 });
    }

    // The point farthest from the line ab.
    let axis = (gp[b as usize] - gp[a as usize]) / best;
    let (mut c, mut best) = (0u32, -1.0f64);
    for (i, p) in gp.iter().enumerate() {
        let w = p - gp[a as usize];
        let d = (w - axis * axis.dot(&w)).norm();
        if d > best {
            (c, best) = (i as u32, d);
        }
    }
    if !exceeds(best, tol) {
        return Err(HullError::Degenerate { dimension: 1 });
    }

    Ok([a, b, c])
}

/// Picks four affinely independent extreme points, or reports the dimension
/// the cloud actually spans.
fn initial_simplex(cloud: &Cloud, gp: &[Vector3<f64>], tol: f64) -> Result<[u32; 4], HullError> {
    let [a, b, c] = initial_triangle(gp, tol)?;
    // The point farthest from the plane abc.
    let n = cloud.grid_normal(a, b, c);
    let normal = Vector3::new(n[0] as f64, n[1] as f64, n[2] as f64).normalize();
    let (mut d, mut best) = (0u32, -1.0f64);
    for (i, p) in gp.iter().enumerate() {
        let dist = normal.dot(&(p - gp[a as usize])).abs();
        if dist > best {
            (d, best) = (i as u32, dist);
        }
    }
    if !exceeds(best, tol) || cloud.orient(a, b, c, d) == 0 {
        return Err(HullError::Degenerate { dimension: 2 });
    }
    Ok([a, b, c, d])
}

/// `x > limit`, false for NaN, so that NaN takes the "degenerate" exit.
fn exceeds(x: f64, limit: f64) -> bool {
    x > limit
}

/// Links the neighbours of the initial tetrahedron's four faces.
fn link_initial(faces: &mut [Face]) {
    for f in 0..faces.len() {
        for i in 0..3 {
            let (from, to) = (faces[f].v[i], faces[f].v[(i + 1) % 3]);
            for g in 0..faces.len() {
                if g == f {
                    continue;
                }
                if (0..3).any(|j| faces[g].v[j] == to && faces[g].v[(j + 1) % 3] == from) {
                    faces[f].adj[i] = g as u32;
                }
            }
        }
    }
}
