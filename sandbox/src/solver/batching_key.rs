//! What the grouping of the solved manifolds into tasks and SIMD batches is
//! a function of, kept from the step that built it, so that a step whose
//! grouping would come out the same keeps the last one instead of building
//! it again (issue 41, "keeping batches between steps").
//!
//! The grouping (`Regions::assign`, then `ConstraintBatches::append` per
//! task, see [`crate::solver::solve`]) reads only each solved manifold's
//! pair of solver bodies, whether it is far, the regions' layout (their
//! count and where each region's solver bodies start) and the number of
//! kinematic copies per region. When all of these are equal, element for
//! element, to the last build's, every array the grouping writes would be
//! written with the same values, so skipping it gives the same bits. A
//! resting pile keeps its pairs from step to step, and the regrouping was
//! about 2 % of a settling pyramid's step (callgrind). Box2D v3 keeps its
//! constraint colours between steps in the same spirit, adding and removing
//! constraints as contacts begin and end; here the key is compared whole,
//! a copy of a few bytes per manifold, and any change rebuilds everything.

use crate::solver::regions::MAX_REGIONS;

/// The inputs of the last grouping of the solved manifolds.
#[derive(Debug, Default)]
pub(crate) struct BatchingKey {
    /// Whether the fields below describe a grouping still held.
    valid: bool,
    /// Per solved manifold: its two solver bodies.
    pairs: Vec<(u32, u32)>,
    /// Per solved manifold: whether it was far.
    far: Vec<bool>,
    /// The regions' count and their solver-index starts (the entries past
    /// the count are zero).
    regions: usize,
    starts: [u32; MAX_REGIONS + 1],
    /// The kinematic copies after each region's stand-in.
    shared: u32,
}

impl BatchingKey {
    /// Whether a grouping of `pairs` and `far` over the regions `starts`
    /// (one more entry than there are regions) with `shared` kinematic
    /// copies would be the one last recorded.
    pub fn matches(&self, pairs: &[(u32, u32)], far: &[bool], starts: &[u32], shared: u32) -> bool {
        self.valid
            && self.shared == shared
            && self.regions + 1 == starts.len()
            && self.starts[..starts.len()] == *starts
            && self.pairs == pairs
            && self.far == far
    }

    /// Records the inputs of a grouping just built.
    pub fn record(&mut self, pairs: &[(u32, u32)], far: &[bool], starts: &[u32], shared: u32) {
        debug_assert!(!starts.is_empty() && starts.len() <= MAX_REGIONS + 1);
        self.pairs.clear();
        self.pairs.extend_from_slice(pairs);
        self.far.clear();
        self.far.extend_from_slice(far);
        self.regions = starts.len().saturating_sub(1);
        self.starts = [0; MAX_REGIONS + 1];
        self.starts[..starts.len()].copy_from_slice(starts);
        self.shared = shared;
        self.valid = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_grouping_matches_only_its_own_inputs() {
        let mut key = BatchingKey::default();
        let pairs = [(0, 1), (1, 2), (0, 3)];
        let far = [false, false, true];
        let starts = [0, 4];
        assert!(!key.matches(&pairs, &far, &starts, 0), "nothing recorded yet");
        key.record(&pairs, &far, &starts, 0);
        assert!(key.matches(&pairs, &far, &starts, 0));
        assert!(!key.matches(&[(0, 1), (1, 2), (0, 2)], &far, &starts, 0), "a pair");
        assert!(!key.matches(&pairs[..2], &far[..2], &starts, 0), "fewer manifolds");
        assert!(!key.matches(&pairs, &[false, true, true], &starts, 0), "a far flag");
        assert!(!key.matches(&pairs, &far, &[0, 5], 0), "a region start");
        assert!(!key.matches(&pairs, &far, &[0, 2, 4], 0), "the region count");
        assert!(!key.matches(&pairs, &far, &starts, 1), "the kinematic copies");
    }
}
