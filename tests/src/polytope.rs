//! Convex polytopes described by brute force, for the oracles.
//!
//! A [`Polytope`] holds vertices, the planes of its faces, a set of triangles
//! covering its boundary and a set of segments containing its edges, all in
//! `f64`. Nothing here uses collide's hull code: a box's features are written
//! down directly, and a small point cloud's are found by brute force
//! (Preparata & Shamos, *Computational Geometry*, §3.4's naive method): a
//! triple of points spans a face plane exactly when every point of the cloud
//! lies on one side of it. That is `O(n^4)`, fine for the ≤ 16-point clouds the
//! tests use.
//!
//! The oracles only need *supersets* of the true features: the separating-axis
//! depth is a minimum over candidate axes of exact support values, and the
//! brute-force distance is a minimum over subsets of the shapes, so extra
//! candidates (face diagonals, triangles of a coplanar face taken several
//! ways) never change the answer. Missing a true feature would, so the face
//! test accepts planes within a tolerance rather than rejecting near-ties.
//!
//! Lower-dimensional cores (a point for a sphere, a segment for a capsule)
//! are polytopes with no faces.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::closest::closest_on_triangle;

/// Largest cloud [`Polytope::from_cloud`] accepts: the brute force is `O(n^4)`.
pub const MAX_CLOUD_POINTS: usize = 32;

/// How far (relative to the cloud's bounding-box diagonal) a point may lie on
/// the wrong side of a candidate plane and still count as on it. Inputs are
/// `f32` (relative resolution ~6e-8); the plane arithmetic is `f64`, so 1e-9
/// accepts exact ties without accepting planes that cut the cloud visibly.
const PLANE_TOL_REL: f64 = 1e-9;

/// Below this (relative to the squared diagonal) a triple's cross product is
/// treated as collinear.
const COLLINEAR_REL: f64 = 1e-12;

/// A face plane: points `x` of the polytope satisfy `normal · x <= offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FacePlane {
    /// Outward unit normal.
    pub normal: Vector3<f64>,
    /// Plane offset along the normal.
    pub offset: f64,
}

/// A convex polytope (or a point or a segment) by its features.
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope {
    /// All points of the description (may include non-extreme ones).
    pub vertices: Vec<Point3<f64>>,
    /// Supporting planes of the faces, one per distinct plane. Empty for a
    /// point or a segment.
    pub faces: Vec<FacePlane>,
    /// Triangles (indices into `vertices`) whose union is the boundary.
    pub triangles: Vec<[usize; 3]>,
    /// Segments (indices into `vertices`) containing every edge.
    pub edges: Vec<[usize; 2]>,
}

impl Polytope {
    /// A single point (the core of a sphere).
    pub fn point(p: Point3<f64>) -> Self {
        Self { vertices: vec![p], faces: Vec::new(), triangles: Vec::new(), edges: Vec::new() }
    }

    /// A segment (the core of a capsule).
    pub fn segment(a: Point3<f64>, b: Point3<f64>) -> Self {
        Self { vertices: vec![a, b], faces: Vec::new(), triangles: Vec::new(), edges: vec![[0, 1]] }
    }

    /// The flat triangle `a b c` (collide's `Triangle`): two faces, one on
    /// each side, and three edges. `None` if degenerate.
    ///
    /// ```
    /// use tests::polytope::Polytope;
    /// use tests::nalgebra::{Point3, Vector3};
    /// let t = Polytope::triangle(Point3::origin(), Point3::new(1.0, 0.0, 0.0),
    ///                            Point3::new(0.0, 1.0, 0.0)).unwrap();
    /// assert_eq!(t.signed_distance(&Point3::new(2.0, 0.0, 0.0)), 1.0);
    /// assert_eq!(t.signed_distance(&Point3::new(0.2, 0.2, -0.5)), 0.5);
    /// assert_eq!(t.support(&Vector3::z()), 0.0);
    /// ```
    pub fn triangle(a: Point3<f64>, b: Point3<f64>, c: Point3<f64>) -> Option<Self> {
        let normal = (b - a).cross(&(c - a)).try_normalize(0.0)?;
        let offset = normal.dot(&a.coords);
        Some(Self {
            vertices: vec![a, b, c],
            faces: vec![
                FacePlane { normal, offset },
                FacePlane { normal: -normal, offset: -offset },
            ],
            triangles: vec![[0, 1, 2]],
            edges: vec![[0, 1], [1, 2], [2, 0]],
        })
    }

    /// The box `[-half, half]`, with its features written down directly.
    ///
    /// ```
    /// use tests::polytope::Polytope;
    /// use tests::nalgebra::Vector3;
    /// let b = Polytope::cuboid(Vector3::new(1.0, 2.0, 3.0));
    /// assert_eq!((b.vertices.len(), b.faces.len(), b.triangles.len(), b.edges.len()), (8, 6, 12, 12));
    /// assert_eq!(b.support(&Vector3::new(0.0, -1.0, 0.0)), 2.0);
    /// ```
    pub fn cuboid(half: Vector3<f64>) -> Self {
        // Corner i has coordinate sign + on axis k when bit k of i is set.
        let vertices: Vec<_> = (0..8usize)
            .map(|i| {
                Point3::from(Vector3::from_fn(
                    |k, _| if i >> k & 1 == 1 { half[k] } else { -half[k] },
                ))
            })
            .collect();
        let mut faces = Vec::new();
        let mut triangles = Vec::new();
        for axis in 0..3 {
            let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
            for side in [0usize, 1] {
                let mut normal = Vector3::zeros();
                normal[axis] = if side == 1 { 1.0 } else { -1.0 };
                faces.push(FacePlane { normal, offset: half[axis] });
                // The four corners of this face in cyclic order around it.
                let corner = |bj: usize, bk: usize| side << axis | bj << j | bk << k;
                let quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                triangles.push([quad[0], quad[1], quad[2]]);
                triangles.push([quad[0], quad[2], quad[3]]);
            }
        }
        // Edges join corners differing in exactly one bit.
        let edges = (0..8usize)
            .flat_map(|i| (0..3).map(move |k| [i, i | 1 << k]))
            .filter(|[i, j]| i != j)
            .collect();
        Self { vertices, faces, triangles, edges }
    }

    /// The convex hull of a small point cloud, by brute force. `None` if the
    /// cloud has more than [`MAX_CLOUD_POINTS`] points, a non-finite
    /// coordinate, or spans no volume.
    ///
    /// ```
    /// use tests::polytope::Polytope;
    /// use tests::nalgebra::Point3;
    /// let tet = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0),
    ///            Point3::new(0.0, 0.0, 1.0), Point3::new(0.1, 0.1, 0.1)];
    /// let p = Polytope::from_cloud(&tet).unwrap();
    /// assert_eq!(p.faces.len(), 4);
    /// assert!(Polytope::from_cloud(&tet[..3]).is_none());
    /// ```
    pub fn from_cloud(points: &[Point3<f64>]) -> Option<Self> {
        if points.len() < 4 || points.len() > MAX_CLOUD_POINTS {
            return None;
        }
        if points.iter().any(|p| !p.coords.iter().all(|c| c.is_finite())) {
            return None;
        }
        let mut lo = points[0].coords;
        let mut hi = points[0].coords;
        for p in points {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
        let diagonal = (hi - lo).norm();
        if diagonal.is_nan() || diagonal <= 0.0 {
            return None;
        }
        let plane_tol = PLANE_TOL_REL * diagonal;
        let n = points.len();
        let mut faces: Vec<FacePlane> = Vec::new();
        let mut triangles = Vec::new();
        let mut edges: Vec<[usize; 2]> = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let cross = (points[j] - points[i]).cross(&(points[k] - points[i]));
                    let len = cross.norm();
                    if len <= COLLINEAR_REL * diagonal * diagonal {
                        continue;
                    }
                    let normal = cross / len;
                    let offset = normal.dot(&points[i].coords);
                    let (mut above, mut below) = (false, false);
                    for p in points {
                        let d = normal.dot(&p.coords) - offset;
                        above |= d > plane_tol;
                        below |= d < -plane_tol;
                    }
                    let outward = match (above, below) {
                        (false, _) => normal,
                        (true, false) => -normal,
                        (true, true) => continue,
                    };
                    let plane =
                        FacePlane { normal: outward, offset: outward.dot(&points[i].coords) };
                    let known = faces.iter().any(|f| {
                        f.normal.dot(&plane.normal) > 1.0 - 1e-12
                            && (f.offset - plane.offset).abs() <= plane_tol
                    });
                    if !known {
                        faces.push(plane);
                    }
                    triangles.push([i, j, k]);
                    for e in [[i, j], [i, k], [j, k]] {
                        if !edges.contains(&e) {
                            edges.push(e);
                        }
                    }
                }
            }
        }
        // A cloud with volume has at least four face planes.
        if faces.len() < 4 {
            return None;
        }
        Some(Self { vertices: points.to_vec(), faces, triangles, edges })
    }

    /// Whether the polytope has faces (spans volume), as opposed to a point or
    /// a segment.
    pub fn is_solid(&self) -> bool {
        !self.faces.is_empty()
    }

    /// The same polytope moved by `iso`.
    pub fn transformed(&self, iso: &Isometry3<f64>) -> Self {
        Self {
            vertices: self.vertices.iter().map(|v| iso * v).collect(),
            faces: self
                .faces
                .iter()
                .map(|f| {
                    let normal = iso.rotation * f.normal;
                    FacePlane { normal, offset: f.offset + normal.dot(&iso.translation.vector) }
                })
                .collect(),
            triangles: self.triangles.clone(),
            edges: self.edges.clone(),
        }
    }

    /// Support value `max over the polytope of x · dir`.
    pub fn support(&self, dir: &Vector3<f64>) -> f64 {
        self.vertices.iter().map(|v| v.coords.dot(dir)).fold(f64::NEG_INFINITY, f64::max)
    }

    /// Largest signed distance of `p` to the face planes: the exact signed
    /// distance to the boundary when `p` is inside (negative), and positive
    /// when it is outside. Only meaningful for a solid polytope.
    pub fn max_plane_distance(&self, p: &Point3<f64>) -> f64 {
        self.faces
            .iter()
            .map(|f| f.normal.dot(&p.coords) - f.offset)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Exact signed distance from `p` to the polytope's boundary: negative
    /// inside, positive outside. For a point or segment, the (non-negative)
    /// distance to it.
    pub fn signed_distance(&self, p: &Point3<f64>) -> f64 {
        if self.is_solid() {
            let planes = self.max_plane_distance(p);
            // Strictly inside; a point on a face plane is at distance 0 from
            // the boundary triangles too, and for a flat polytope (a
            // triangle, whose two faces share a plane) every point of the
            // plane is, though only those on the triangle touch it.
            if planes < 0.0 {
                return planes;
            }
            self.triangles
                .iter()
                .map(|&[a, b, c]| {
                    let q = closest_on_triangle(
                        p,
                        &self.vertices[a],
                        &self.vertices[b],
                        &self.vertices[c],
                    );
                    (p - q).norm()
                })
                .fold(f64::INFINITY, f64::min)
        } else {
            let single = Polytope::point(*p);
            crate::brute_distance::core_distance(self, &single).distance
        }
    }
}
