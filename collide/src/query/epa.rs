//! The Expanding Polytope Algorithm: penetration depth of overlapping cores.
//!
//! Follows van den Bergen, *Proximity Queries and Penetration Depth
//! Computation on 3D Game Objects* (GDC 2001): starting from a polytope
//! inside the Minkowski difference `D = A − B` that contains the origin,
//! repeatedly take the face closest to the origin, find D's support point
//! along its normal and, unless that point lies on the face's plane (within a
//! tolerance relative to D's size), replace every face that sees it by a fan
//! of faces around the new point. The closest face's distance is a lower
//! bound on the depth and the support distance an upper bound.
//!
//! Departures and additions:
//! * GJK may stop with 1 to 3 points (when the origin lies on a vertex, edge
//!   or face of D). Those are grown into a tetrahedron with extra support
//!   points, as Jolt does: a triangle gets the farther of its two normal
//!   supports, a segment the best pair of three supports spread around it, a
//!   point the supports along four tetrahedral directions. The origin may then
//!   lie on the boundary or even marginally outside the tetrahedron; faces
//!   keep *signed* distances, and expanding a face the origin lies beyond
//!   pulls it back in, so these cases need no special code.
//! * If D is flat (both shapes are flat plates in one plane, say) no
//!   tetrahedron exists; the depth is then zero along the plane's normal and
//!   the status says [`EpaStatus::Degenerate`].
//! * Every exit that is not convergence — the iteration cap, the polytope's
//!   capacity, an expansion that rounding made inconsistent — returns the
//!   best face found with a status saying why. EPA never reports an overlap
//!   as "no contact".
//! * Storage is fixed-capacity ([`MAX_VERTICES`], [`MAX_FACES`]) on the
//!   stack: no allocation per query.
//! * Each face keeps the faces across its three edges, updated as faces are
//!   removed and fanned in, so finding the faces that see a new point and
//!   their horizon needs no search and no rehash of every edge at every
//!   step (van den Bergen rebuilds nothing either). The flood
//!   fill that finds the visible faces collects the horizon as it goes, and
//!   removed faces are only marked dead and their slots reused by the fan,
//!   so an expansion touches the visible faces and their neighbours, never
//!   the whole polytope (compacting the face list and renumbering every
//!   link each step would be most of a hull–hull penetration query).

use arrayvec::ArrayVec;
use nalgebra::{Point3, Unit, Vector3};

use crate::error::QueryError;
use crate::query::all_finite;
pub use crate::query::epa_face::EpaFace;
use crate::query::minkowski::{MinkowskiDifference, SupportPoint};
use crate::query::record::{EpaStep, Recorder};
use crate::query::simplex::Simplex;
use crate::support_map::SupportMap;

/// Most vertices the polytope holds. Cores are polytopes, on which EPA ends
/// as soon as it reaches a true face of D; 128 is far more than the box–box
/// or hull–hull cases need, and bounds the stack use to a few kilobytes.
pub const MAX_VERTICES: usize = 128;

/// Most faces the polytope holds: a closed triangulated polytope with V
/// vertices has 2V − 4 faces.
pub const MAX_FACES: usize = 2 * MAX_VERTICES;

/// Iteration cap: each iteration adds one vertex to the starting tetrahedron
/// (up to two more when a simplex is grown), so the vertex capacity bounds it.
pub const MAX_ITERATIONS: u32 = (MAX_VERTICES - 6) as u32;

/// Gap between the upper and lower depth bounds at which EPA has converged,
/// relative to the size of D (its largest vertex norm). On polytopes the gap
/// reaches rounding level once the true face is found; 2e-6 is about 16 ulps.
const REL_TOLERANCE: f32 = 2e-6;

/// Thickness, relative to the size of D, below which D counts as flat when
/// growing a simplex into a tetrahedron.
const FLAT_REL: f32 = 1e-6;

/// How EPA ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EpaStatus {
    /// The closest face lies on D's boundary within tolerance: exact.
    Converged,
    /// [`MAX_ITERATIONS`] reached; the best face is returned.
    IterationLimit,
    /// The polytope's fixed capacity is full; the best face is returned.
    CapacityLimit,
    /// Rounding made the next expansion inconsistent; the best face is returned.
    NumericalLimit,
    /// D is flat (no tetrahedron fits in it): the depth is zero along its
    /// plane's normal, or along any direction if D is a segment or a point.
    Degenerate,
}

/// EPA's answer, on the cores, in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaResult {
    /// How the run ended.
    pub status: EpaStatus,
    /// Penetration depth of the cores, at least 0.
    pub depth: f32,
    /// Outward normal of D's closest face: the direction from A to B.
    pub normal: Unit<Vector3<f32>>,
    /// Point of A's core deepest inside B's core.
    pub point_a: Point3<f32>,
    /// Point of B's core deepest inside A's core.
    pub point_b: Point3<f32>,
    /// Number of support points evaluated after GJK.
    pub iterations: u32,
}

struct Polytope {
    vertices: ArrayVec<SupportPoint, MAX_VERTICES>,
    /// Live faces and dead ones (see [`DEAD`]), whose slots `free` lists
    /// for reuse.
    faces: ArrayVec<EpaFace, MAX_FACES>,
    /// For each live face, the faces across its edges `ij`, `jk` and `ki`:
    /// the polytope is closed, so every edge has exactly one face on its
    /// other side. Kept beside `faces`, index for index.
    neighbours: ArrayVec<[u16; 3], MAX_FACES>,
    /// Slots of dead faces, to be reused before `faces` grows.
    free: ArrayVec<u16, MAX_FACES>,
}

/// A removed face: its first vertex index is `DEAD`, and its distance is
/// infinite, so the searches for the closest face and for coplanar faces
/// pass over it without a test of their own. No live face links to it.
const DEAD: u16 = u16::MAX;

/// Faces per bit-set word.
const WORD: usize = 64;

/// One bit per face slot.
type FaceSet = [u64; MAX_FACES / WORD];

/// Why an expansion step could not be carried out.
enum Stop {
    Capacity,
    Numerical,
}

impl Polytope {
    fn new() -> Self {
        Self {
            vertices: ArrayVec::new(),
            faces: ArrayVec::new(),
            neighbours: ArrayVec::new(),
            free: ArrayVec::new(),
        }
    }

    /// Whether face slot `f` holds a live face.
    #[inline]
    fn is_live(&self, f: usize) -> bool {
        self.faces[f].vertices[0] != DEAD
    }

    fn w(&self, i: u16) -> Vector3<f32> {
        self.vertices[i as usize].w
    }

    /// The face `ijk` (counter-clockwise from outside), unless it is a
    /// sliver.
    #[inline]
    fn make_face(&self, [i, j, k]: [u16; 3], min_area_sq: f32) -> Result<EpaFace, Stop> {
        let (a, b, c) = (self.w(i), self.w(j), self.w(k));
        let n = (b - a).cross(&(c - a));
        let n_sq = n.norm_squared();
        if !(n_sq > min_area_sq) {
            return Err(Stop::Numerical);
        }
        let normal = n / n_sq.sqrt();
        Ok(EpaFace { vertices: [i, j, k], normal, distance: normal.dot(&a) })
    }

    /// Adds the face `ijk` (counter-clockwise from outside) in a new slot.
    fn push_face(&mut self, vertices: [u16; 3], min_area_sq: f32) -> Result<(), Stop> {
        let face = self.make_face(vertices, min_area_sq)?;
        self.faces.try_push(face).map_err(|_| Stop::Capacity)?;
        // Linked by the caller.
        self.neighbours.push([NO_FACE; 3]);
        Ok(())
    }

    /// A slot for a new face: a dead face's, or a new one at the end.
    #[inline]
    fn allocate(&mut self) -> Result<u16, Stop> {
        if let Some(f) = self.free.pop() {
            return Ok(f);
        }
        let f = self.faces.len();
        let dead =
            EpaFace { vertices: [DEAD; 3], normal: Vector3::zeros(), distance: f32::INFINITY };
        self.faces.try_push(dead).map_err(|_| Stop::Capacity)?;
        self.neighbours.push([NO_FACE; 3]);
        Ok(f as u16)
    }

    /// Face `f`'s directed edges `ij`, `jk`, `ki`.
    fn edges(&self, f: usize) -> [[u16; 2]; 3] {
        let [i, j, k] = self.faces[f].vertices;
        [[i, j], [j, k], [k, i]]
    }

    /// Links every face to its neighbours by searching all faces for each
    /// edge's twin: for the starting tetrahedron, whose four faces make this
    /// cheaper than any bookkeeping. `false` if some edge has no twin.
    fn link_by_search(&mut self) -> bool {
        for f in 0..self.faces.len() {
            for (e, [a, b]) in self.edges(f).into_iter().enumerate() {
                let twin = (0..self.faces.len()).find(|&g| self.edges(g).contains(&[b, a]));
                match twin {
                    Some(g) => self.neighbours[f][e] = g as u16,
                    None => return false,
                }
            }
        }
        true
    }

    /// Index of the live face closest to the origin.
    fn closest_face(&self) -> Option<usize> {
        let mut best = None;
        let mut best_d = f32::INFINITY;
        for (i, f) in self.faces.iter().enumerate() {
            if f.distance < best_d {
                best_d = f.distance;
                best = Some(i);
            }
        }
        best
    }

    /// Whether face `f` sees `w`: `w` lies in front of its plane, or on it
    /// within `on_plane`. Counting points *on* the plane as seen matters on
    /// boxes, whose supports along directions with a zero component land
    /// mid-edge: re-triangulating the coplanar face around `w` drops the
    /// mid-edge point from the hull instead of leaving it to form a
    /// zero-area triangle with `w`.
    fn sees(&self, f: usize, w: &Vector3<f32>, on_plane: f32) -> bool {
        let face = &self.faces[f];
        face.normal.dot(&(w - self.w(face.vertices[0]))) > -on_plane
    }

    /// Replaces the faces that see `w`, flood-filled from face `start` (which
    /// must see it), by a fan of faces around `w`.
    fn expand(
        &mut self,
        w: SupportPoint,
        start: usize,
        on_plane: f32,
        min_area_sq: f32,
    ) -> Result<(), Stop> {
        let new = self.vertices.len() as u16;
        self.vertices.try_push(w).map_err(|_| Stop::Capacity)?;
        // Flood fill over edge-adjacent faces keeps the removed region
        // connected, so its boundary (the horizon) is one loop. A neighbour
        // that does not see `w` never will, so the edge to it is a horizon
        // edge the moment it is found: the directed edge of the removed
        // face, with the face that stays across it.
        let mut visible: FaceSet = [0; MAX_FACES / WORD];
        let mark = |set: &mut FaceSet, f: usize| set[f / WORD] |= 1 << (f % WORD);
        let marked = |set: &FaceSet, f: usize| set[f / WORD] & (1 << (f % WORD)) != 0;
        let mut removed: ArrayVec<u16, MAX_FACES> = ArrayVec::new();
        let mut horizon: ArrayVec<[u16; 2], MAX_FACES> = ArrayVec::new();
        let mut outside: ArrayVec<u16, MAX_FACES> = ArrayVec::new();
        mark(&mut visible, start);
        removed.push(start as u16);
        let mut next_removed = 0;
        while let Some(&f) = removed.get(next_removed) {
            next_removed += 1;
            let f = usize::from(f);
            for (edge, g) in self.edges(f).into_iter().zip(self.neighbours[f]) {
                let g = usize::from(g);
                // Every link is made and live (NO_FACE would be out of
                // range): a bad one means the bookkeeping broke, not a panic.
                if g >= self.faces.len() || !self.is_live(g) {
                    return Err(Stop::Numerical);
                }
                if marked(&visible, g) {
                    continue;
                }
                if self.sees(g, &w.w, on_plane) {
                    mark(&mut visible, g);
                    removed.try_push(g as u16).map_err(|_| Stop::Capacity)?;
                } else {
                    horizon.try_push(edge).map_err(|_| Stop::Capacity)?;
                    outside.push(g as u16);
                }
            }
        }
        if horizon.len() < 3 || !is_single_loop(&horizon) {
            return Err(Stop::Numerical);
        }
        // The removed faces die; their slots go to the fan first.
        for &f in &removed {
            let face = &mut self.faces[usize::from(f)];
            face.vertices = [DEAD; 3];
            face.distance = f32::INFINITY;
            self.free.push(f);
        }
        // The fan: face k is `i j new` for horizon edge k = `i → j`. Across
        // `ij` lies the face that stayed; across `j → new`, the fan face of
        // the horizon edge leaving j; across `new → i`, that of the edge
        // entering i.
        let mut fan: ArrayVec<u16, MAX_FACES> = ArrayVec::new();
        let mut leaving = [0u16; MAX_VERTICES];
        for &[i, _] in &horizon {
            let f = self.allocate()?;
            fan.push(f);
            leaving[usize::from(i)] = f;
        }
        // By reference: iterating the ArrayVec by value would copy all of
        // its capacity first.
        for (k, &[i, j]) in horizon.iter().enumerate() {
            let f = usize::from(fan[k]);
            self.faces[f] = self.make_face([i, j, new], min_area_sq)?;
            let stayed = outside[k];
            self.neighbours[f] = [stayed, leaving[usize::from(j)], NO_FACE];
            // The stayed face's edge `j → i` now borders the fan face.
            let slot = self.edges(usize::from(stayed)).iter().position(|e| *e == [j, i]);
            self.neighbours[usize::from(stayed)][slot.ok_or(Stop::Numerical)?] = fan[k];
        }
        // Each fan face's `new → i` edge is the twin of the `j → new` edge
        // of the fan face before it.
        for &f in &fan {
            let next = usize::from(self.neighbours[usize::from(f)][1]);
            self.neighbours.get_mut(next).ok_or(Stop::Numerical)?[2] = f;
        }
        Ok(())
    }

    /// Among the faces coplanar with `best` (same plane within `tolerance`),
    /// the one whose triangle best contains the origin's projection. A face
    /// of D is often split into several triangles; the closest by distance
    /// may not be the one the projection falls in, and clamped barycentrics
    /// there would put the witnesses far from the contact.
    fn containing_coplanar_face(&self, best: usize, tolerance: f32) -> usize {
        let n = self.faces[best].normal;
        let d = self.faces[best].distance;
        let p = n * d;
        let mut chosen = best;
        let mut chosen_min = f32::NEG_INFINITY;
        for (i, f) in self.faces.iter().enumerate() {
            let coplanar = (f.distance - d).abs() <= tolerance
                && f.normal.dot(&n) >= 1.0 - COPLANAR_NORMAL_DOT;
            if !coplanar {
                continue;
            }
            let corners = f.vertices.map(|v| self.w(v));
            let min =
                raw_barycentric(&corners, &f.normal, &p).into_iter().fold(f32::INFINITY, f32::min);
            if min > chosen_min {
                chosen_min = min;
                chosen = i;
            }
        }
        chosen
    }
}

/// A face index that names no face: a link not yet made.
const NO_FACE: u16 = u16::MAX;

/// `1 − cos θ` below which two face normals count as one plane's: θ ≈ 1.4e-3
/// rad, well above f32 noise in a cross product of edges and well below any
/// real angle between the faces of a shape.
const COPLANAR_NORMAL_DOT: f32 = 1e-6;

/// Barycentric coordinates of `p` in triangle `[a, b, c]` with unit normal
/// `n`, from signed sub-triangle areas, unclamped (negative outside).
fn raw_barycentric([a, b, c]: &[Vector3<f32>; 3], n: &Vector3<f32>, p: &Vector3<f32>) -> [f32; 3] {
    let la = n.dot(&(b - p).cross(&(c - p)));
    let lb = n.dot(&(c - p).cross(&(a - p)));
    let lc = n.dot(&(a - p).cross(&(b - p)));
    let sum = la + lb + lc;
    if sum.abs() > 0.0 { [la / sum, lb / sum, lc / sum] } else { [1.0 / 3.0; 3] }
}

/// Whether directed edges form one closed loop: every edge's start vertex
/// starts no other edge, and walking from any edge returns to its start after
/// exactly as many steps as there are edges. Edges name vertices below
/// [`MAX_VERTICES`].
fn is_single_loop(edges: &[[u16; 2]]) -> bool {
    // The edge leaving each vertex, found in one pass (a repeated start
    // fails at once), then one walk: linear in the number of edges.
    const NONE: u16 = u16::MAX;
    let mut next = [NONE; MAX_VERTICES];
    for &[from, to] in edges {
        match next.get_mut(usize::from(from)) {
            Some(slot) if *slot == NONE => *slot = to,
            _ => return false,
        }
    }
    let start = edges[0][0];
    let mut v = start;
    for step in 1..=edges.len() {
        match next.get(usize::from(v)) {
            Some(&n) if n != NONE => v = n,
            _ => return false,
        }
        if v == start {
            return step == edges.len();
        }
    }
    false
}

/// Runs EPA on the cores of `md`, from the simplex GJK ended with (which must
/// contain or touch the origin).
///
/// Returns an error only when a support point is non-finite.
pub fn epa<A, B, R>(
    md: &MinkowskiDifference<'_, A, B>,
    simplex: &Simplex,
    recorder: &mut R,
) -> Result<EpaResult, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    R: Recorder + ?Sized,
{
    let mut poly = Polytope::new();
    let mut iterations = 0;
    match grow_to_tetrahedron(md, simplex, &mut poly, &mut iterations)? {
        Grown::Tetrahedron if poly.link_by_search() => {}
        // A tetrahedron always links; treat a failure as flat, not a panic.
        Grown::Tetrahedron => return Ok(flat_result(md, simplex, Vector3::y(), iterations)),
        Grown::Flat(normal) => return Ok(flat_result(md, simplex, normal, iterations)),
    }
    let mut scale = poly.vertices.iter().fold(0.0f32, |m, v| m.max(v.w.norm()));
    // A face with a squared doubled area below this is a sliver that rounding
    // could flip; refusing it stops expansion with the best face instead.
    let min_area_sq = |scale: f32| (FLAT_REL * scale * scale).powi(2);

    // The best face so far, by value: its slot may be reused, but its
    // vertices stay (the polytope never drops a vertex).
    let mut best: Option<EpaFace> = None;
    let status = loop {
        let Some(fi) = poly.closest_face() else { break EpaStatus::NumericalLimit };
        let face = poly.faces[fi];
        // The closest face's distance never decreases in exact arithmetic.
        // If rounding made it drop, the previous face is the better answer.
        let tolerance = REL_TOLERANCE * scale;
        if best.is_some_and(|b| face.distance < b.distance - tolerance) {
            break EpaStatus::NumericalLimit;
        }
        best = Some(face);

        if iterations >= MAX_ITERATIONS {
            break EpaStatus::IterationLimit;
        }
        iterations += 1;
        let w = md.support(&face.normal);
        if !all_finite(w.w.as_slice()) {
            return Err(QueryError::NonFiniteInput);
        }
        if recorder.records_epa() {
            // The live faces only, in slot order, and the closest one's
            // index among them.
            let live: ArrayVec<EpaFace, MAX_FACES> =
                (0..poly.faces.len()).filter(|&f| poly.is_live(f)).map(|f| poly.faces[f]).collect();
            let closest_face = (0..fi).filter(|&f| poly.is_live(f)).count();
            recorder.epa_step(&EpaStep {
                vertices: &poly.vertices,
                faces: &live,
                closest_face,
                support: w,
            });
        }
        // Converged: D has no point beyond the face's plane (within
        // tolerance), so the face lies on D's boundary. `!(gap > tol)` also
        // exits on NaN.
        let gap = face.normal.dot(&w.w) - face.distance;
        if !(gap > tolerance) {
            let fi = poly.containing_coplanar_face(fi, tolerance);
            best = Some(poly.faces[fi]);
            break EpaStatus::Converged;
        }
        // A support point already in the polytope brings no new information.
        if poly.vertices.iter().any(|v| v.w == w.w) {
            break EpaStatus::NumericalLimit;
        }
        scale = scale.max(w.w.norm());
        match poly.expand(w, fi, FLAT_REL * scale, min_area_sq(scale)) {
            Ok(()) => {}
            Err(Stop::Capacity) => break EpaStatus::CapacityLimit,
            Err(Stop::Numerical) => break EpaStatus::NumericalLimit,
        }
    };
    let Some(face) = best else {
        // No face ever existed: the tetrahedron had none, which `grow` rules out.
        debug_assert!(false, "EPA ended without a face");
        return Ok(flat_result(md, simplex, Vector3::y(), iterations));
    };
    let corners = face.vertices.map(|i| poly.vertices[usize::from(i)]);
    Ok(face_result(status, &face, &corners, iterations))
}

/// The result for the face `face`: the origin's projection onto it, and the
/// witnesses interpolated with that projection's barycentric coordinates.
fn face_result(
    status: EpaStatus,
    face: &EpaFace,
    corners: &[SupportPoint; 3],
    iterations: u32,
) -> EpaResult {
    let n = face.normal;
    let p = n * face.distance;
    // The projection can fall marginally outside the triangle through
    // rounding, so negative weights are clamped and the rest renormalised.
    let [la, lb, lc] = raw_barycentric(&corners.map(|s| s.w), &n, &p).map(|l| l.max(0.0));
    let sum = la + lb + lc;
    let (la, lb, lc) =
        if sum > 0.0 { (la / sum, lb / sum, lc / sum) } else { (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0) };
    let point_a = Point3::from(
        corners[0].a.coords * la + corners[1].a.coords * lb + corners[2].a.coords * lc,
    );
    let point_b = Point3::from(
        corners[0].b.coords * la + corners[1].b.coords * lb + corners[2].b.coords * lc,
    );
    EpaResult {
        status,
        depth: face.distance.max(0.0),
        normal: Unit::new_unchecked(n),
        point_a,
        point_b,
        iterations,
    }
}

enum Grown {
    Tetrahedron,
    /// D is flat; the vector is its plane's normal, or a best guess if D is
    /// lower-dimensional still.
    Flat(Vector3<f32>),
}

/// Builds a tetrahedron inside D from GJK's 1 to 4 points. Starting from the
/// largest feature GJK found (point, segment or triangle), it adds the
/// support point farthest off that feature's span, along directions
/// orthogonal to it, until the points span 3D. If no direction adds a point
/// off the span, D itself is that flat.
fn grow_to_tetrahedron<A, B>(
    md: &MinkowskiDifference<'_, A, B>,
    simplex: &Simplex,
    poly: &mut Polytope,
    iterations: &mut u32,
) -> Result<Grown, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut support = |d: &Vector3<f32>| {
        *iterations += 1;
        let s = md.support(d);
        if s.w.iter().all(|x| x.is_finite()) { Ok(s) } else { Err(QueryError::NonFiniteInput) }
    };
    let pts = simplex.points();
    let mut scale = pts.iter().fold(0.0f32, |m, p| m.max(p.w.norm()));
    let volume = |t: &[SupportPoint; 4]| {
        (t[1].w - t[0].w).cross(&(t[2].w - t[0].w)).dot(&(t[3].w - t[0].w)).abs()
    };

    let tetra =
        if pts.len() == 4 && volume(&[pts[0], pts[1], pts[2], pts[3]]) > FLAT_REL * scale.powi(3) {
            // GJK's enclosing tetrahedron.
            [pts[0], pts[1], pts[2], pts[3]]
        } else {
            let (mut feature, mut dim) = largest_feature(pts);
            if dim == 0 {
                // Off a point: the farthest of the six axis supports.
                let mut farthest = None;
                let mut best = 0.0;
                for axis in [Vector3::x(), Vector3::y(), Vector3::z()] {
                    for d in [axis, -axis] {
                        let s = support(&d)?;
                        scale = scale.max(s.w.norm());
                        let dist = (s.w - feature[0].w).norm();
                        if dist > best {
                            best = dist;
                            farthest = Some(s);
                        }
                    }
                }
                match farthest {
                    Some(s) if best > FLAT_REL * scale => {
                        feature = [feature[0], s, s];
                        dim = 1;
                    }
                    _ => return Ok(Grown::Flat(towards_b_off_axis(md, None))),
                }
            }
            if dim == 1 {
                // Off a segment: the farthest of three supports spread at 120°
                // around it. Three directions summing to zero cannot all see
                // points on one line through the segment unless D is that line.
                let e = feature[1].w - feature[0].w;
                let u = any_perpendicular(&e);
                let v = e.normalize().cross(&u);
                let (c, s) = (-0.5f32, 0.75f32.sqrt());
                let mut farthest = None;
                let mut best = 0.0;
                for d in [u, u * c + v * s, u * c - v * s] {
                    let p = support(&d)?;
                    scale = scale.max(p.w.norm());
                    let area = e.cross(&(p.w - feature[0].w)).norm();
                    if area > best {
                        best = area;
                        farthest = Some(p);
                    }
                }
                match farthest {
                    Some(p) if best > FLAT_REL * scale * scale => {
                        feature[2] = p;
                        dim = 2;
                    }
                    _ => return Ok(Grown::Flat(towards_b_off_axis(md, Some(e)))),
                }
            }
            debug_assert_eq!(dim, 2);
            // Off a triangle: the farther of the supports along its two normals.
            let n = (feature[1].w - feature[0].w).cross(&(feature[2].w - feature[0].w)).normalize();
            let p = support(&n)?;
            let q = support(&-n)?;
            scale = scale.max(p.w.norm()).max(q.w.norm());
            let hp = n.dot(&(p.w - feature[0].w));
            let hq = -n.dot(&(q.w - feature[0].w));
            if !(hp.max(hq) > FLAT_REL * scale) {
                return Ok(Grown::Flat(n));
            }
            [feature[0], feature[1], feature[2], if hp >= hq { p } else { q }]
        };

    // Wind each face counter-clockwise seen from outside: its normal must
    // point away from the centroid.
    let centroid = tetra.iter().fold(Vector3::zeros(), |c, p| c + p.w) / 4.0;
    for p in tetra {
        poly.vertices.push(p);
    }
    for [i, j, k] in [[0u16, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
        let (a, b, c) = (poly.w(i), poly.w(j), poly.w(k));
        let outward = (b - a).cross(&(c - a)).dot(&(a - centroid)) >= 0.0;
        let face = if outward { [i, j, k] } else { [i, k, j] };
        if poly.push_face(face, 0.0).is_err() {
            // Unreachable for a solid tetrahedron; treat as flat rather than panic.
            return Ok(Grown::Flat(Vector3::y()));
        }
    }
    Ok(Grown::Tetrahedron)
}

/// The largest-area triangle among `pts` (dimension 2), else the longest
/// segment (dimension 1), else a point (dimension 0).
fn largest_feature(pts: &[SupportPoint]) -> ([SupportPoint; 3], u8) {
    let scale_sq = pts.iter().fold(0.0f32, |m, p| m.max(p.w.norm_squared()));
    let mut best_tri = None;
    let mut best_area = FLAT_REL * FLAT_REL * scale_sq * scale_sq;
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            for k in j + 1..pts.len() {
                let area = (pts[j].w - pts[i].w).cross(&(pts[k].w - pts[i].w)).norm_squared();
                if area > best_area {
                    best_area = area;
                    best_tri = Some([pts[i], pts[j], pts[k]]);
                }
            }
        }
    }
    if let Some(t) = best_tri {
        return (t, 2);
    }
    let mut best_seg = None;
    let mut best_len = FLAT_REL * FLAT_REL * scale_sq;
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            let len = (pts[j].w - pts[i].w).norm_squared();
            if len > best_len {
                best_len = len;
                best_seg = Some([pts[i], pts[j], pts[j]]);
            }
        }
    }
    match best_seg {
        Some(s) => (s, 1),
        None => ([pts.first().copied().unwrap_or(SupportPoint::ZERO); 3], 0),
    }
}

/// A unit vector perpendicular to `v` (any, if `v` is zero).
fn any_perpendicular(v: &Vector3<f32>) -> Vector3<f32> {
    // Cross with the axis least aligned with v, so the result is well scaled.
    let axis = if v.x.abs() <= v.y.abs() && v.x.abs() <= v.z.abs() {
        Vector3::x()
    } else if v.y.abs() <= v.z.abs() {
        Vector3::y()
    } else {
        Vector3::z()
    };
    v.cross(&axis).try_normalize(0.0).unwrap_or_else(Vector3::y)
}

/// For a D that is a segment along `axis` (or a point, `None`): the
/// direction perpendicular to it that points most from A's centre towards
/// B's. Any perpendicular separates by zero; this one is the natural choice.
fn towards_b_off_axis<A, B>(
    md: &MinkowskiDifference<'_, A, B>,
    axis: Option<Vector3<f32>>,
) -> Vector3<f32>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let towards_b = md.pose_b_in_a().translation.vector;
    let unit = axis.and_then(|e| e.try_normalize(0.0));
    let off_axis = match unit {
        Some(u) => towards_b - u * u.dot(&towards_b),
        None => towards_b,
    };
    match (off_axis.try_normalize(0.0), unit) {
        (Some(n), _) => n,
        (None, Some(u)) => any_perpendicular(&u),
        (None, None) => Vector3::y(),
    }
}

/// The answer for a flat D: zero depth along `normal`, oriented from A to B
/// where the centres tell, witnesses at GJK's closest point.
fn flat_result<A, B>(
    md: &MinkowskiDifference<'_, A, B>,
    simplex: &Simplex,
    normal: Vector3<f32>,
    iterations: u32,
) -> EpaResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let towards_b = md.pose_b_in_a().translation.vector;
    let normal = if normal.dot(&towards_b) < 0.0 { -normal } else { normal };
    let normal = Unit::try_new(normal, 0.0).unwrap_or_else(Vector3::y_axis);
    let (point_a, point_b) = if simplex.len() < 4 {
        simplex.witnesses()
    } else {
        let n = simplex.len() as f32;
        let a = simplex.points().iter().fold(Vector3::zeros(), |s, p| s + p.a.coords) / n;
        let b = simplex.points().iter().fold(Vector3::zeros(), |s, p| s + p.b.coords) / n;
        (a.into(), b.into())
    };
    EpaResult { status: EpaStatus::Degenerate, depth: 0.0, normal, point_a, point_b, iterations }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A support point at `w` (witnesses unused by the polytope).
    fn point(w: Vector3<f32>) -> SupportPoint {
        SupportPoint { w, a: Point3::from(w), b: Point3::origin() }
    }

    /// Every face's links, against a search of all faces for each edge's
    /// twin.
    fn check_links(poly: &Polytope) {
        assert_eq!(poly.faces.len(), poly.neighbours.len());
        let live: Vec<usize> = (0..poly.faces.len()).filter(|&f| poly.is_live(f)).collect();
        assert_eq!(live.len() + poly.free.len(), poly.faces.len());
        for &f in &live {
            for (e, [a, b]) in poly.edges(f).into_iter().enumerate() {
                let twins: Vec<usize> =
                    live.iter().copied().filter(|&g| poly.edges(g).contains(&[b, a])).collect();
                assert_eq!(twins, [usize::from(poly.neighbours[f][e])], "face {f} edge {e}");
            }
        }
    }

    /// Expanding a tetrahedron by 60 points on a sphere, each from the face
    /// that sees it most, keeps every face linked to the face across each
    /// edge, as a search finds it, through every removal and fan.
    #[test]
    fn expansion_keeps_the_links_between_faces() {
        let mut next = crate::test_stream::stream(0x1234_5678);
        let mut poly = Polytope::new();
        let tetra = [
            Vector3::new(1.0, 1.0, 1.0),
            Vector3::new(1.0, -1.0, -1.0),
            Vector3::new(-1.0, 1.0, -1.0),
            Vector3::new(-1.0, -1.0, 1.0),
        ];
        for w in tetra {
            poly.vertices.push(point(w * 0.1));
        }
        for face in [[0u16, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
            let (a, b, c) = (poly.w(face[0]), poly.w(face[1]), poly.w(face[2]));
            let outward = (b - a).cross(&(c - a)).dot(&a) >= 0.0;
            let face = if outward { face } else { [face[0], face[2], face[1]] };
            assert!(poly.push_face(face, 0.0).is_ok());
        }
        assert!(poly.link_by_search());
        check_links(&poly);
        for _ in 0..60 {
            let w = Vector3::new(next(), next(), next()).normalize();
            let start = (0..poly.faces.len())
                .max_by(|&f, &g| {
                    let gap = |f: usize| poly.faces[f].normal.dot(&w) - poly.faces[f].distance;
                    gap(f).total_cmp(&gap(g))
                })
                .expect("faces");
            if !poly.sees(start, &w, 0.0) {
                continue;
            }
            assert!(poly.expand(point(w), start, 1e-6, 1e-12).is_ok());
            check_links(&poly);
        }
        let live = (0..poly.faces.len()).filter(|&f| poly.is_live(f)).count();
        assert!(live > 60, "only {live} faces");
    }
}
