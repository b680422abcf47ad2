//! The earliest outcome over the pairs of parts of a composite cast: a
//! shape cast and a time of impact against a mesh, heightfield or compound
//! both run the convex query pair by pair and keep one answer. An overlap
//! at time 0 of any pair wins; else the earliest hit, unless a pair that
//! stopped at its iteration cap could still touch before it (then its lower
//! bound is the answer); else a miss.

use super::results::{OnParts, PartIds};
use crate::query::{ShapeCast, TimeOfImpact};

/// What a pair's cast answered, seen the same way for both cast kinds.
#[derive(Clone, Copy)]
pub(crate) enum Verdict {
    Hit(f32),
    Overlap,
    Limit(f32),
    Miss,
}

/// A cast result the search over parts can rank and build.
pub(crate) trait CastOutcome: Copy {
    /// The result as a [`Verdict`].
    fn verdict(&self) -> Verdict;
    /// The result for overlapping shapes at time 0.
    const OVERLAP: Self;
    /// The result for no contact within the limit.
    const MISS: Self;
    /// The result for a search stopped at its cap with this lower bound.
    fn limit(toi_lower_bound: f32) -> Self;
}

impl CastOutcome for ShapeCast {
    fn verdict(&self) -> Verdict {
        match *self {
            ShapeCast::Hit { toi, .. } => Verdict::Hit(toi),
            ShapeCast::InitiallyOverlapping => Verdict::Overlap,
            ShapeCast::IterationLimit { toi_lower_bound } => Verdict::Limit(toi_lower_bound),
            ShapeCast::Miss => Verdict::Miss,
        }
    }
    const OVERLAP: Self = ShapeCast::InitiallyOverlapping;
    const MISS: Self = ShapeCast::Miss;
    fn limit(toi_lower_bound: f32) -> Self {
        ShapeCast::IterationLimit { toi_lower_bound }
    }
}

impl CastOutcome for TimeOfImpact {
    fn verdict(&self) -> Verdict {
        match *self {
            TimeOfImpact::Hit { toi, .. } => Verdict::Hit(toi),
            TimeOfImpact::InitiallyOverlapping => Verdict::Overlap,
            TimeOfImpact::IterationLimit { toi_lower_bound } => Verdict::Limit(toi_lower_bound),
            TimeOfImpact::Miss => Verdict::Miss,
        }
    }
    const OVERLAP: Self = TimeOfImpact::InitiallyOverlapping;
    const MISS: Self = TimeOfImpact::Miss;
    fn limit(toi_lower_bound: f32) -> Self {
        TimeOfImpact::IterationLimit { toi_lower_bound }
    }
}

/// The earliest outcome so far over the pairs of parts.
pub(crate) struct Earliest<R> {
    hit: Option<OnParts<R>>,
    /// The least lower bound of the pairs that stopped at their cap.
    lower_bound: f32,
    overlap: Option<PartIds>,
}

impl<R: CastOutcome> Earliest<R> {
    /// Nothing found yet.
    pub fn new() -> Self {
        Self { hit: None, lower_bound: f32::INFINITY, overlap: None }
    }

    /// Whether a pair overlaps at time 0, which ends the search.
    pub fn found_overlap(&self) -> bool {
        self.overlap.is_some()
    }

    /// The current limit: no pair needs searching past the earliest hit.
    pub fn limit(&self, max_toi: f32) -> f32 {
        match self.hit.map(|h| h.answer.verdict()) {
            Some(Verdict::Hit(toi)) => toi.min(max_toi),
            _ => max_toi,
        }
    }

    /// Records one pair's answer, found with [`Self::limit`] as its limit
    /// (so a hit is never later than the one kept). Of two hits at the same
    /// time the one on the smaller parts (`a`, then `b`) is kept, so that
    /// the answer does not depend on the order the pairs are visited in.
    pub fn record(&mut self, answer: R, parts: PartIds) {
        match answer.verdict() {
            Verdict::Hit(toi) => {
                let replaces = match self.hit.map(|h| (h.answer.verdict(), h.parts)) {
                    Some((Verdict::Hit(kept), kept_parts)) => {
                        toi < kept
                            || (toi == kept && (parts.a, parts.b) < (kept_parts.a, kept_parts.b))
                    }
                    _ => true,
                };
                if replaces {
                    self.hit = Some(OnParts { answer, parts });
                }
            }
            Verdict::Overlap => self.overlap = Some(parts),
            Verdict::Limit(bound) => self.lower_bound = self.lower_bound.min(bound),
            Verdict::Miss => {}
        }
    }

    /// The answer: an overlap; else the earliest hit if no capped pair can
    /// still touch before it; else the capped pairs' bound; else a miss.
    pub fn answer(self) -> OnParts<R> {
        if let Some(parts) = self.overlap {
            return OnParts { answer: R::OVERLAP, parts };
        }
        let toi = match self.hit.map(|h| h.answer.verdict()) {
            Some(Verdict::Hit(toi)) => toi,
            _ => f32::INFINITY,
        };
        if self.lower_bound < toi {
            return OnParts { answer: R::limit(self.lower_bound), parts: PartIds::default() };
        }
        self.hit.unwrap_or(OnParts { answer: R::MISS, parts: PartIds::default() })
    }
}
