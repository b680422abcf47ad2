//! [`GjkCache`]: the warm-start state a caller keeps for repeated queries
//! on the same pair (see [`try_contact_cached`](crate::try_contact_cached)).
//!
//! Besides the last separating direction it keeps the last separated
//! answer's simplex, as box3d's and Box2D's `b3SimplexCache` /
//! `b2SimplexCache` do, so that the next query starts from the closest
//! feature instead of building it up one support point at a time. Departure:
//! Box2D keeps each simplex point as a pair of vertex *indices*, which only
//! polygons have; here each point is kept as the two *directions* (one in
//! each shape's own frame) along which its support points were found, and
//! the seed is those shapes' support points along them. The same shapes
//! give the same vertices whatever their relative pose, and any shapes give
//! points of their Minkowski difference: a cache used with the wrong pair
//! (or a shape changed in place) costs iterations, never a wrong answer.

use nalgebra::{Isometry3, Vector3};

use crate::query::minkowski::MinkowskiDifference;
use crate::query::simplex::Simplex;
use crate::support_map::SupportMap;

/// Most simplex points a cache keeps: a separated pair's closest feature
/// has at most three.
const SEED_POINTS: usize = 3;

/// Warm-start state for repeated queries on the same pair, owned by the
/// caller: the last separating direction, in A's frame, from which GJK starts
/// its next run, and the last separated answer's closest feature (see the
/// module docs), from which it starts instead when it has one. Starting at
/// the answer's feature usually saves most iterations when the pair moves
/// little between frames. Any cache gives correct answers for any pair; one
/// kept for another pair only saves nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GjkCache {
    direction: Option<Vector3<f32>>,
    /// For each kept simplex point, the direction along which A's support
    /// point was found (A's frame) and B's (B's frame).
    seed: [[[f32; 3]; 2]; SEED_POINTS],
    /// How many of `seed` are kept.
    seed_len: u8,
}

impl GjkCache {
    /// The stored direction (A's frame), if any query has filled it.
    pub fn direction(&self) -> Option<Vector3<f32>> {
        self.direction
    }

    /// How many simplex points the cache holds for the next query's start
    /// (0 to 3): the last separated answer's closest feature, a vertex, an
    /// edge or a face of the Minkowski difference.
    ///
    /// ```
    /// use collide::{try_contact_cached, ConvexHull, GjkCache};
    /// use collide::nalgebra::{Isometry3, Point3};
    /// let tetra = ConvexHull::new(&[
    ///     Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
    ///     Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0),
    /// ]).unwrap();
    /// let mut cache = GjkCache::default();
    /// assert_eq!(cache.seed_points(), 0);
    /// // A's face x + y + z = 1 faces B's vertex at the origin, 0.5 beyond it.
    /// let pose_b = Isometry3::translation(1.0, 1.0, 1.0);
    /// try_contact_cached(&tetra, &Isometry3::identity(), &tetra, &pose_b, &mut cache).unwrap();
    /// assert_eq!(cache.seed_points(), 3); // A's face against B's corner
    /// ```
    pub fn seed_points(&self) -> usize {
        usize::from(self.seed_len)
    }

    pub(crate) fn initial_dir(&self, pose_b_in_a: &Isometry3<f32>) -> Vector3<f32> {
        // v approximates a − b, so with no history start from A's centre
        // minus B's.
        self.direction.unwrap_or(-pose_b_in_a.translation.vector)
    }

    /// A cache holding `direction` (A's frame), as if a query had stored
    /// it, and no simplex: GJK's first search direction approximates
    /// `a − b`, so for a pair whose contact normal from A to B is known,
    /// pass that normal negated and rotated into A's frame. A zero or
    /// non-finite `direction` leaves the cache empty (the query then starts
    /// from the shapes' centres).
    ///
    /// ```
    /// use collide::GjkCache;
    /// use collide::nalgebra::Vector3;
    /// let cache = GjkCache::starting_along(-Vector3::y());
    /// assert_eq!(cache.direction(), Some(-Vector3::y()));
    /// assert_eq!(cache.seed_points(), 0);
    /// assert!(GjkCache::starting_along(Vector3::zeros()).direction().is_none());
    /// ```
    pub fn starting_along(direction: Vector3<f32>) -> Self {
        let mut cache = Self::default();
        cache.store(direction);
        cache
    }

    pub(crate) fn store(&mut self, dir: Vector3<f32>) {
        if dir.iter().all(|x| x.is_finite()) && dir.norm_squared() > 0.0 {
            self.direction = Some(dir);
        }
    }

    /// Keeps the points of `simplex` (GJK's final one on `md`) whose
    /// directions are known, for [`seed`](Self::seed).
    #[inline]
    pub(crate) fn store_seed<A, B>(&mut self, simplex: &Simplex, md: &MinkowskiDifference<'_, A, B>)
    where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
    {
        self.seed_len = 0;
        for dir in simplex.dirs().iter().take(SEED_POINTS) {
            if dir.norm_squared() > 0.0 && dir.iter().all(|x| x.is_finite()) {
                let dir_b = md.b_direction(dir);
                self.seed[usize::from(self.seed_len)] = [(*dir).into(), dir_b.into()];
                self.seed_len += 1;
            }
        }
    }

    /// Forgets the simplex (the direction stays).
    #[inline]
    pub(crate) fn clear_seed(&mut self) {
        self.seed_len = 0;
    }

    /// Fills the empty `simplex` with the kept points' support points on
    /// `md` (each shape's point along its own kept direction), skipping
    /// repeats and non-finite points. Leaves it empty when nothing is kept.
    #[inline]
    pub(crate) fn seed<A, B>(&self, md: &MinkowskiDifference<'_, A, B>, simplex: &mut Simplex)
    where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
    {
        debug_assert!(simplex.is_empty(), "seeding a simplex that has points");
        for [dir_a, dir_b] in &self.seed[..usize::from(self.seed_len).min(SEED_POINTS)] {
            let (dir_a, dir_b) = (Vector3::from(*dir_a), Vector3::from(*dir_b));
            let p = md.support_along(&dir_a, &dir_b);
            if p.w.iter().all(|x| x.is_finite()) && !simplex.contains(&p.w) {
                simplex.push(p, dir_a);
            }
        }
    }
}
