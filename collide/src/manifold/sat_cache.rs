//! [`SatCache`]: the separating axis a box–box query decided on, kept by
//! the caller for the same pair's next query (box3d's `b3SATCache`, whose
//! use in `b3CollideHulls` this follows for cuboids; see
//! [`super::box_box_cached`] for what a cached query accepts).

/// The separating-axis state a caller keeps for one ordered pair of
/// cuboids between frames, passed to
/// [`contact_manifold_sat_cached`](crate::contact_manifold_sat_cached): the
/// axis the last full separating-axis test decided on (A's or B's face,
/// with the side, or a pair of edges) and its separation then.
/// [`SatCache::default`] is empty, and an empty cache runs the full test.
///
/// It belongs to the pair in the order it was asked: swapping A and B
/// with the same cache is not wrong (a stale axis only makes the next query
/// run the full test) but wastes it. Pairs other than two cuboids leave it
/// empty.
///
/// ```
/// use collide::{contact_manifold_sat_cached, Cuboid, GjkCache, ManifoldOutcome, SatCache, Shape};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// let mut sat = SatCache::default();
/// assert!(sat.is_empty());
/// for frame in 0..3 {
///     let pose_b = Isometry3::translation(0.01 * frame as f32, 0.99, 0.0);
///     let outcome = contact_manifold_sat_cached(
///         &cube, &Isometry3::identity(), &cube, &pose_b, 0.01,
///         &mut GjkCache::default(), &mut sat,
///     );
///     let ManifoldOutcome::Within(m) = outcome else { panic!("stacked cubes") };
///     assert_eq!(m.len(), 4); // face on face, from the cached face after frame 0
///     assert!(!sat.is_empty());
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SatCache {
    pub(crate) axis: CachedAxis,
    /// The axis's separation when the full test decided on it.
    pub(crate) separation: f32,
}

/// Which axis a [`SatCache`] holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum CachedAxis {
    /// None: the next query runs the full test.
    #[default]
    Empty,
    /// A's face normal `axis` (0..3); `positive` when B lies on its `+`
    /// side (the reference face is A's `+axis` face).
    FaceA { axis: u8, positive: bool },
    /// B's face normal `axis`; `positive` when A lies on its `+` side.
    FaceB { axis: u8, positive: bool },
    /// The cross product of A's edge direction `a` and B's `b` (0..3 each).
    Edge { a: u8, b: u8 },
}

impl SatCache {
    /// Whether the cache holds no axis (the next query runs the full test).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.axis == CachedAxis::Empty
    }

    /// Forgets the axis: the next query runs the full test.
    #[inline]
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    #[inline]
    pub(crate) fn face_a(axis: usize, positive: bool, separation: f32) -> Self {
        Self { axis: CachedAxis::FaceA { axis: axis as u8, positive }, separation }
    }

    #[inline]
    pub(crate) fn face_b(axis: usize, positive: bool, separation: f32) -> Self {
        Self { axis: CachedAxis::FaceB { axis: axis as u8, positive }, separation }
    }

    #[inline]
    pub(crate) fn edge(a: usize, b: usize, separation: f32) -> Self {
        Self { axis: CachedAxis::Edge { a: a as u8, b: b as u8 }, separation }
    }
}
