//! A convex polyhedron built from a point cloud by our own quickhull
//! (`hull::quickhull`), with coplanar triangles merged into polygon faces
//! (`hull::face_merge`). It keeps the vertices, the faces and the vertex
//! adjacency graph (exactly the polytope's edges) that hill-climbing support
//! strategies walk.

use std::sync::Arc;

use nalgebra::{Isometry3, Point3, Unit, Vector3};
use wide::f32x4;

use crate::aabb::Aabb;
use crate::error::HullError;
use crate::hull;
use crate::hull::support::brute_force::{SoaVertices, support_scalar};
use crate::hull::support::cube_map::CubeMap;
use crate::hull::support::hill_climb::{Adjacency, climb};
use crate::hull::support::strategy::{SupportCache, SupportStrategy};
use crate::hull::support::warm_started::WarmStarted;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// One planar face of a [`ConvexHull`].
#[derive(Clone, Debug, PartialEq)]
pub struct HullFace {
    /// Outward unit normal, in the hull's frame.
    pub normal: Unit<Vector3<f32>>,
    /// Plane offset: points `x` on the face satisfy `normal · x = offset`.
    pub offset: f32,
    /// Indices into [`ConvexHull::vertices`], counter-clockwise seen from outside.
    pub vertices: Vec<u32>,
}

/// A convex polyhedron: its vertices, its (merged, planar) faces and the
/// vertex adjacency graph used by hill-climbing support strategies.
///
/// The hull is a closed convex 2-manifold (V - E + F = 2). Every vertex is an
/// input point where at least three faces meet, every face is a convex
/// polygon, and [`neighbors`](ConvexHull::neighbors) lists exactly the
/// polytope's edges (no diagonals of merged faces).
///
/// A cloud that spans only a plane (within the tolerance) gives a **flat**
/// hull ([`is_flat`](ConvexHull::is_flat)): a convex polygon, stored as two
/// faces with opposite normals sharing one vertex loop, whose vertices are
/// input points projected onto the polygon's plane and whose edges are the
/// loop. Support queries, GJK, EPA and ray casts work on it like on any
/// hull; its volume is zero.
///
/// Support queries use a [`SupportStrategy`], chosen by vertex count unless
/// set with [`with_strategy`](ConvexHull::with_strategy).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull {
    /// (This and every other list: shared slices, not vectors: they never
    /// grow, and the 8 bytes saved on each keep a hull, and so every
    /// [`Shape`](crate::Shape), within 208 bytes with the bounding radius
    /// and the face planes added. Shared, so that a clone costs no copy and
    /// the bodies of a scene that clone one hull, junkyard's 10,584 rocks,
    /// read one copy of its lists that stays in cache, instead of one copy
    /// each, a cache miss per body in the broad phase's boxes and the
    /// narrow phase's support and face scans.)
    vertices: Arc<[Point3<f32>]>,
    faces: Arc<[HullFace]>,
    /// The faces' planes in SIMD lanes, for point projection's scan and
    /// the supporting face's (`manifold::supporting_feature`).
    face_planes: hull::FacePlanes,
    /// `neighbors[adjacency_start[v]..adjacency_start[v + 1]]` are the vertices
    /// sharing an edge with vertex `v`.
    adjacency_start: Arc<[u32]>,
    neighbors: Arc<[u32]>,
    tolerance: f32,
    /// The largest distance of a vertex from the hull's origin.
    radius: f32,
    /// The radius of the largest ball about the hull's origin inside every
    /// face plane (the smallest face offset), or 0 when the origin is not
    /// strictly inside (a flat hull, or an origin off the hull): a point
    /// nearer the origin is inside without a look at any face.
    inradius: f32,
    /// The concrete strategy in use (never `Auto`).
    strategy: SupportStrategy,
    /// The vertices in SIMD lanes, for `BruteForceSimd`.
    soa: Option<Arc<SoaVertices>>,
    /// The direction table, for `CubeMap`.
    cube_map: Option<Arc<CubeMap>>,
}

impl ConvexHull {
    /// Builds the convex hull of `points` with quickhull (Barber, Dobkin and
    /// Huhdanpaa 1996), merging near-coplanar triangles into polygons.
    ///
    /// # Tolerance
    /// Points within [`tolerance`](ConvexHull::tolerance) of a face plane
    /// count as on it: they never become vertices, and faces that agree to
    /// within it are merged. The tolerance is `1e-5` times the bounding-box
    /// diagonal of the cloud, but at least 16 f32 ulps of the largest absolute
    /// coordinate (detail finer than the input's own rounding is noise). So a
    /// cube of side 1e-9 at the origin is a fine hull, while the same cube
    /// centred at (1, 1, 1) is degenerate: f32 cannot represent it there.
    ///
    /// # Errors
    /// * [`HullError::TooFewPoints`] for fewer than three points (three
    ///   points that bound an area make a flat hull, a triangle);
    /// * [`HullError::NonFinitePoint`] for a NaN or infinite coordinate (the
    ///   first such point);
    /// * [`HullError::Degenerate`] when the points lie, within the tolerance,
    ///   on a point or a line (dimension 0 or 1). Points on a plane are not
    ///   an error: they give a flat hull (see [`is_flat`](ConvexHull::is_flat));
    /// * [`HullError::TooManyPoints`] for `u32::MAX` points or more;
    /// * [`HullError::OutOfRange`] when a face plane's offset overflows f32
    ///   (coordinates near `f32::MAX`);
    /// * [`HullError::Numerical`] if an internal consistency check fails
    ///   (a bug, not expected for any input).
    ///
    /// # Example
    /// ```
    /// use collide::ConvexHull;
    /// use collide::nalgebra::Point3;
    ///
    /// // A unit cube's corners, a duplicate, a point inside and a point in the
    /// // middle of a face: only the 8 corners are kept.
    /// let mut points: Vec<Point3<f32>> = (0..8)
    ///     .map(|i| Point3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
    ///     .collect();
    /// points.extend([Point3::new(1.0, 1.0, 1.0), Point3::new(0.5, 0.5, 0.5), Point3::new(0.5, 0.5, 1.0)]);
    ///
    /// let hull = ConvexHull::new(&points)?;
    /// assert_eq!(hull.vertices().len(), 8);
    /// assert_eq!(hull.faces().len(), 6);
    /// assert!(hull.faces().iter().all(|f| f.vertices.len() == 4));
    /// assert!((0..8).all(|v| hull.neighbors(v).len() == 3));
    /// assert!((hull.volume() - 1.0).abs() < 1e-5);
    /// # Ok::<(), collide::HullError>(())
    /// ```
    pub fn new(points: &[Point3<f32>]) -> Result<Self, HullError> {
        let cloud = hull::Cloud::new(points)?;
        let polytope = match hull::triangle_hull(&cloud) {
            Ok(mesh) => hull::merge_faces(points, &cloud, &mesh).ok_or(HullError::Numerical)?,
            // A cloud spanning only a plane is a convex polygon.
            Err(HullError::Degenerate { dimension: 2 }) => hull::flat_polygon(&cloud)?,
            Err(e) => return Err(e),
        };
        if !polytope.faces.iter().all(|f| f.offset.is_finite()) {
            return Err(HullError::OutOfRange);
        }
        let radius = polytope.vertices.iter().map(|v| v.coords.norm()).fold(0.0, f32::max);
        let inradius =
            polytope.faces.iter().map(|f| f.offset).fold(f32::INFINITY, f32::min).max(0.0);
        let hull = Self {
            radius,
            inradius,
            vertices: polytope.vertices.into(),
            face_planes: hull::FacePlanes::new(&polytope.faces),
            faces: polytope.faces.into(),
            adjacency_start: polytope.adjacency_start.into(),
            neighbors: polytope.neighbors.into(),
            tolerance: cloud.tolerance as f32,
            strategy: SupportStrategy::BruteForce,
            soa: None,
            cube_map: None,
        };
        Ok(hull.with_strategy(SupportStrategy::Auto))
    }

    /// The same hull answering support queries with `strategy`, building the
    /// data it needs (a SIMD copy of the vertices, or the cube map).
    ///
    /// ```
    /// use collide::{ConvexHull, SupportMap, SupportStrategy};
    /// use collide::nalgebra::{Point3, Vector3};
    /// let points: Vec<_> = (0..200)
    ///     .map(|i| {
    ///         let (t, z) = (i as f32 * 2.4, 1.0 - 2.0 * (i as f32 + 0.5) / 200.0);
    ///         let r = (1.0 - z * z).sqrt();
    ///         Point3::new(r * t.cos(), r * t.sin(), z)
    ///     })
    ///     .collect();
    /// let brute = ConvexHull::new(&points)?.with_strategy(SupportStrategy::BruteForce);
    /// let climb = brute.clone().with_strategy(SupportStrategy::CubeMap);
    /// let d = Vector3::new(0.3, -0.5, 0.8);
    /// assert_eq!(brute.local_support(&d), climb.local_support(&d));
    /// # Ok::<(), collide::HullError>(())
    /// ```
    pub fn with_strategy(mut self, strategy: SupportStrategy) -> Self {
        self.strategy = strategy.resolve(self.vertices.len());
        self.soa = match self.strategy {
            SupportStrategy::BruteForceSimd => {
                Some(self.soa.take().unwrap_or_else(|| Arc::new(SoaVertices::new(&self.vertices))))
            }
            _ => None,
        };
        self.cube_map = match self.strategy {
            SupportStrategy::CubeMap => Some(
                self.cube_map
                    .take()
                    .unwrap_or_else(|| Arc::new(CubeMap::new(&self.vertices, self.adjacency()))),
            ),
            _ => None,
        };
        self
    }

    /// The strategy answering support queries (never
    /// [`Auto`](SupportStrategy::Auto): that is resolved at construction).
    #[inline]
    pub fn strategy(&self) -> SupportStrategy {
        self.strategy
    }

    /// A view of this hull that answers support queries by hill climbing
    /// from the previous answer, stored in `cache`. When successive
    /// directions turn slowly (a resting contact, frame after frame) each
    /// query takes a step or two whatever the hull's size.
    ///
    /// ```
    /// use collide::{ConvexHull, SupportCache, SupportMap};
    /// use collide::nalgebra::{Point3, Vector3};
    /// let cube: Vec<_> = (0..8).map(|i| Point3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32)).collect();
    /// let hull = ConvexHull::new(&cube)?;
    /// let cache = SupportCache::default();
    /// let warm = hull.warm_started(&cache);
    /// assert_eq!(warm.local_support(&Vector3::new(1.0, 1.0, 1.0)), Point3::new(1.0, 1.0, 1.0));
    /// assert_eq!(hull.vertices()[cache.vertex() as usize], Point3::new(1.0, 1.0, 1.0));
    /// # Ok::<(), collide::HullError>(())
    /// ```
    #[inline]
    pub fn warm_started<'h>(&'h self, cache: &'h SupportCache) -> WarmStarted<'h> {
        WarmStarted::new(self, cache)
    }

    /// Index of a support vertex along `dir`, by the hull's strategy.
    #[inline]
    pub fn support_index(&self, dir: &Vector3<f32>) -> usize {
        let projected;
        let dir = if self.is_flat() {
            projected = self.in_plane(dir);
            &projected
        } else {
            dir
        };
        match (self.strategy, &self.soa, &self.cube_map) {
            (SupportStrategy::BruteForceSimd, Some(soa), _) => soa.support(dir),
            (SupportStrategy::HillClimb, _, _) => climb(&self.vertices, self.adjacency(), dir, 0),
            (SupportStrategy::CubeMap, _, Some(map)) => {
                climb(&self.vertices, self.adjacency(), dir, map.seed(dir))
            }
            _ => support_scalar(&self.vertices, dir),
        }
    }

    /// The direction a support search uses: `dir` itself for a solid hull;
    /// for a flat one, its component in the polygon's plane. Every vertex
    /// of a polygon has the same height along the normal, except for the
    /// rounding of its f32 coordinates; for a direction nearly along the
    /// normal that rounding would swamp the in-plane signal and leave hill
    /// climbing on a false local maximum far from the answer. The in-plane
    /// part ranks the vertices exactly as `dir` does, without the noise.
    #[inline]
    pub(crate) fn in_plane(&self, dir: &Vector3<f32>) -> Vector3<f32> {
        match &*self.faces {
            [top, _] => dir - top.normal.into_inner() * top.normal.dot(dir),
            _ => *dir,
        }
    }

    #[inline]
    pub(crate) fn adjacency(&self) -> Adjacency<'_> {
        Adjacency { start: &self.adjacency_start, neighbors: &self.neighbors }
    }

    /// The hull's vertices (extreme points only), in the hull's frame.
    #[inline]
    pub fn vertices(&self) -> &[Point3<f32>] {
        &self.vertices
    }

    /// The hull's faces, coplanar triangles merged into polygons.
    #[inline]
    pub fn faces(&self) -> &[HullFace] {
        &self.faces
    }

    /// The faces' planes, in SIMD lanes.
    #[inline]
    pub(crate) fn face_planes(&self) -> &hull::FacePlanes {
        &self.face_planes
    }

    /// The vertices sharing an edge with vertex `v`, in increasing order.
    ///
    /// # Panics
    /// If `v >= self.vertices().len()`.
    #[inline]
    pub fn neighbors(&self, v: usize) -> &[u32] {
        let s = self.adjacency_start[v] as usize;
        let e = self.adjacency_start[v + 1] as usize;
        &self.neighbors[s..e]
    }

    /// The radius of the smallest ball about the hull's origin that holds
    /// it: the largest distance of a vertex from the origin.
    ///
    /// ```
    /// use collide::ConvexHull;
    /// use collide::nalgebra::Point3;
    /// let pts = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    /// let hull = ConvexHull::new(&pts.map(Point3::from))?;
    /// assert_eq!(hull.bounding_radius(), 2.0);
    /// # Ok::<(), collide::HullError>(())
    /// ```
    #[inline]
    pub fn bounding_radius(&self) -> f32 {
        self.radius
    }

    /// The radius of the largest ball about the hull's origin that lies
    /// inside every face plane (the smallest face offset), or 0 when the
    /// origin is not strictly inside the hull (always for a flat hull).
    ///
    /// ```
    /// use collide::ConvexHull;
    /// use collide::nalgebra::Point3;
    /// let corners: Vec<_> = (0..8)
    ///     .map(|i| Point3::new([-1.0, 1.0][i & 1], [-2.0, 2.0][i >> 1 & 1], [-3.0, 3.0][i >> 2]))
    ///     .collect();
    /// let hull = ConvexHull::new(&corners)?;
    /// assert_eq!(hull.inradius(), 1.0);
    /// # Ok::<(), collide::HullError>(())
    /// ```
    #[inline]
    pub fn inradius(&self) -> f32 {
        self.inradius
    }

    /// The coplanarity tolerance the hull was built with, in the hull's
    /// units. Input points within this distance of the hull's surface are
    /// not kept as vertices, so an input point may lie up to this far in
    /// front of a face plane (checked against every face it is in front of
    /// during construction). Every face vertex lies on or at most this far
    /// behind its own face plane.
    #[inline]
    pub fn tolerance(&self) -> f32 {
        self.tolerance
    }

    /// Whether the hull is flat: a convex polygon (two faces, opposite
    /// normals) built from a cloud that spans only a plane.
    ///
    /// ```
    /// use collide::ConvexHull;
    /// use collide::nalgebra::Point3;
    /// // A 3 × 3 grid in the plane z = 1: a square, 4 corners.
    /// let grid: Vec<_> = (0..9).map(|i| Point3::new((i % 3) as f32, (i / 3) as f32, 1.0)).collect();
    /// let square = ConvexHull::new(&grid)?;
    /// assert!(square.is_flat());
    /// assert_eq!(square.vertices().len(), 4);
    /// assert_eq!(square.faces().len(), 2);
    /// assert_eq!(square.volume(), 0.0);
    /// # Ok::<(), collide::HullError>(())
    /// ```
    #[inline]
    pub fn is_flat(&self) -> bool {
        self.faces.len() == 2
    }

    /// For a flat hull, the planes through its edges perpendicular to the
    /// polygon, as `(outward unit normal, offset)`: with the two faces they
    /// bound the polygon. Empty for a solid hull.
    pub(crate) fn side_planes(&self) -> impl Iterator<Item = (Vector3<f32>, f32)> + '_ {
        let (normal, ring): (Vector3<f32>, &[u32]) = match &*self.faces {
            [top, _] => (top.normal.into_inner(), &top.vertices),
            _ => (Vector3::zeros(), &[]),
        };
        (0..ring.len()).map(move |i| {
            let from = self.vertices[ring[i] as usize];
            let to = self.vertices[ring[(i + 1) % ring.len()] as usize];
            // The loop is counter-clockwise about `normal`, so outward is
            // edge × normal.
            let outward = (to - from).cross(&normal);
            let outward = outward.try_normalize(0.0).unwrap_or(outward);
            (outward, outward.dot(&from.coords))
        })
    }

    /// The enclosed volume, by the divergence theorem: the sum over faces of
    /// `offset * area / 3`, relative to the first vertex for accuracy.
    /// Computed in f64; infinite if it exceeds the f32 range.
    pub fn volume(&self) -> f32 {
        if self.is_flat() {
            return 0.0;
        }
        let origin = self.vertices[0].coords.cast::<f64>();
        let mut six_volume = 0.0f64;
        for face in self.faces.iter() {
            let at = |i: u32| self.vertices[i as usize].coords.cast::<f64>() - origin;
            let a = at(face.vertices[0]);
            for w in face.vertices[1..].windows(2) {
                // Signed volume of the tetrahedron (origin, a, b, c), times 6.
                six_volume += a.dot(&at(w[0]).cross(&at(w[1])));
            }
        }
        (six_volume / 6.0) as f32
    }
}

/// The smallest and largest coordinates of `vertices` rotated by the
/// matrix `m` (no translation): coordinate `k` of a vertex `v` is
/// `m[k,0] v.x + m[k,1] v.y + m[k,2] v.z`, summed in that order. The three
/// coordinates are the lanes of one vector (the matrix's columns times the
/// vertex's broadcast components), so a vertex is three products, two sums
/// and two selects, in place of a rotation by the pose's quaternion: on
/// `trees`' 12-vertex prisms a box went from about 545 to 443
/// instructions (callgrind), with the same poses after 500 steps in every
/// scene of the hash list. A NaN
/// coordinate never replaces a bound (the compares are false), as
/// [`Point3::inf`] ignores one.
#[inline]
fn rotated_bounds(vertices: &[Point3<f32>], m: &nalgebra::Matrix3<f32>) -> ([f32; 3], [f32; 3]) {
    let column = |j: usize| f32x4::from([m[(0, j)], m[(1, j)], m[(2, j)], 0.0]);
    let (c0, c1, c2) = (column(0), column(1), column(2));
    let mut low = f32x4::splat(f32::INFINITY);
    let mut high = f32x4::splat(f32::NEG_INFINITY);
    for v in vertices {
        let c = c0 * f32x4::splat(v.x) + c1 * f32x4::splat(v.y) + c2 * f32x4::splat(v.z);
        // `if c < low { c } else { low }`, lane by lane; likewise above.
        low = c.simd_lt(low).select(c, low);
        high = c.simd_gt(high).select(c, high);
    }
    let (low, high) = (low.to_array(), high.to_array());
    ([low[0], low[1], low[2]], [high[0], high[1], high[2]])
}

/// Up to this many vertices, a hull's box is found by transforming every
/// vertex (one pass, no branches); above it, by six support queries, which
/// the hull's strategy answers without visiting most vertices.
const AABB_VERTEX_SCAN_MAX: usize = 32;

impl SupportMap for ConvexHull {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.vertices[self.support_index(dir)]
    }

    /// Always inlined, unlike the default: called, the point came back
    /// through the stack in pieces that GJK's next load read across (a
    /// store-forwarding stall in every support call). Inlined, only the
    /// index comes back, in a register, and the vertex is loaded from the
    /// hull.
    ///
    /// The SIMD scan of a solid hull, the usual strategy for GJK's small
    /// hulls, is called straight from here; the other strategies and flat
    /// hulls go through [`support_index`](ConvexHull::support_index), a call
    /// whose spills and dispatch cost a fifth of a 32-vertex SIMD scan.
    #[inline(always)]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let index = match &self.soa {
            Some(soa) if !self.is_flat() => soa.support(dir),
            _ => self.support_index(dir),
        };
        self.vertices[index]
    }

    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        Some(ShapeRef::ConvexHull(self))
    }

    /// A small hull transforms each vertex once; a large one asks its
    /// support strategy for the six extreme points, which visits far fewer
    /// vertices than there are.
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        if self.vertices.len() > AABB_VERTEX_SCAN_MAX {
            return Aabb::from_support(self, pose);
        }
        let (min, max) =
            rotated_bounds(&self.vertices, pose.rotation.to_rotation_matrix().matrix());
        let t = pose.translation.vector;
        Aabb::new(
            Point3::new(min[0] + t.x, min[1] + t.y, min[2] + t.z),
            Point3::new(max[0] + t.x, max[1] + t.y, max[2] + t.z),
        )
    }
}
