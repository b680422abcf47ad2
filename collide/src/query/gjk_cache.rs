//! [`GjkCache`]: the warm-start state a caller keeps for repeated queries
//! on the same pair (see [`try_contact_cached`](crate::try_contact_cached)).

use nalgebra::{Isometry3, Vector3};

/// Warm-start state for repeated queries on the same pair, owned by the
/// caller: the last separating direction, in A's frame, from which GJK starts
/// its next run. Starting close to the answer usually saves most iterations
/// when the pair moves little between frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GjkCache {
    direction: Option<Vector3<f32>>,
}

impl GjkCache {
    /// The stored direction (A's frame), if any query has filled it.
    pub fn direction(&self) -> Option<Vector3<f32>> {
        self.direction
    }

    pub(crate) fn initial_dir(&self, pose_b_in_a: &Isometry3<f32>) -> Vector3<f32> {
        // v approximates a − b, so with no history start from A's centre
        // minus B's.
        self.direction.unwrap_or(-pose_b_in_a.translation.vector)
    }

    /// A cache holding `direction` (A's frame), as if a query had stored it.
    pub(crate) fn starting_along(direction: Vector3<f32>) -> Self {
        let mut cache = Self::default();
        cache.store(direction);
        cache
    }

    pub(crate) fn store(&mut self, dir: Vector3<f32>) {
        if dir.iter().all(|x| x.is_finite()) && dir.norm_squared() > 0.0 {
            self.direction = Some(dir);
        }
    }
}
