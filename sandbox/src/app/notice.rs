//! A short message the HUD shows for a few seconds ("saved
//! sandbox-1764380000.png"), timed by the frames' elapsed time so that
//! tests can run its clock without waiting.

use std::time::Duration;

/// How long a notice stays on screen.
pub const NOTICE_DURATION: Duration = Duration::from_secs(4);

/// A message and how long it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The text shown.
    pub text: String,
    /// Time left on screen.
    pub remaining: Duration,
}

impl Notice {
    /// `text`, shown for [`NOTICE_DURATION`].
    pub fn new(text: impl Into<String>) -> Self {
        Self { text: text.into(), remaining: NOTICE_DURATION }
    }

    /// Runs the notice's clock by a frame's `elapsed` time; `false` once
    /// its time is up.
    pub fn tick(&mut self, elapsed: Duration) -> bool {
        self.remaining = self.remaining.saturating_sub(elapsed);
        !self.remaining.is_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_lasts_its_duration_and_no_longer() {
        let mut n = Notice::new("saved x.png");
        let frame = Duration::from_millis(16);
        let frames = (NOTICE_DURATION.as_millis() / frame.as_millis()) as u32;
        for _ in 1..frames {
            assert!(n.tick(frame), "gone early, {:?} left", n.remaining);
        }
        assert!(!n.tick(frame));
        assert!(n.remaining.is_zero());
    }
}
