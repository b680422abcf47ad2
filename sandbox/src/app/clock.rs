//! The fixed-step clock: physics advances in steps of exactly
//! [`FIXED_DT`], decoupled from the frame rate, and the display interpolates
//! poses between the last two steps (Glenn Fiedler's "Fix Your Timestep!").
//! A cap on the steps per frame keeps a slow frame from asking for more
//! steps, which make the next frame slower still (the spiral of death):
//! time beyond the cap is dropped, and the simulation runs slower than real
//! time until frames are fast again.

use std::time::Duration;

/// One physics step, seconds.
pub const FIXED_DT: f32 = 1.0 / 60.0;

/// Most physics steps one frame may run: four steps is 67 ms of simulated
/// time, a frame at 15 FPS. Slower frames drop the rest.
pub const MAX_STEPS_PER_FRAME: u32 = 4;

/// Real time carried over between frames, to be simulated in fixed steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FixedStepClock {
    /// Real time not yet simulated, seconds: in `[0, FIXED_DT)` after
    /// [`advance`](Self::advance).
    accumulator: f64,
}

/// What a frame should do: run `steps` physics steps, then draw poses at
/// `alpha` of the way from the previous step's poses to the last one's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSteps {
    /// Physics steps to run this frame, at most [`MAX_STEPS_PER_FRAME`].
    pub steps: u32,
    /// Interpolation factor in `[0, 1)` between the last two steps.
    pub alpha: f32,
    /// Whether time had to be dropped because the frame was too slow.
    pub dropped: bool,
}

impl FixedStepClock {
    /// Adds `elapsed` real time and says how many fixed steps to run.
    /// A negative or non-finite duration cannot happen with [`Duration`];
    /// an absurdly long one (a debugger pause) is capped like any slow frame.
    pub fn advance(&mut self, elapsed: Duration) -> FrameSteps {
        let dt = f64::from(FIXED_DT);
        self.accumulator += elapsed.as_secs_f64();
        let wanted = (self.accumulator / dt).floor();
        let steps = wanted.min(f64::from(MAX_STEPS_PER_FRAME));
        self.accumulator -= steps * dt;
        let dropped = wanted > steps;
        if dropped {
            // Keep only the fraction of a step, so the next frame does not
            // inherit the backlog.
            self.accumulator %= dt;
        }
        FrameSteps { steps: steps as u32, alpha: (self.accumulator / dt) as f32, dropped }
    }

    /// Forgets carried-over time (after a pause or a restart).
    pub fn reset(&mut self) {
        self.accumulator = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn frames_at_the_step_rate_run_one_step_each() {
        let mut clock = FixedStepClock::default();
        let total: u32 = (0..600).map(|_| clock.advance(secs(1.0 / 60.0)).steps).sum();
        // Rounding of 1/60 may defer one step to the end.
        assert!((599..=600).contains(&total), "{total}");
    }

    #[test]
    fn fast_frames_interpolate_and_slow_ones_run_several_steps() {
        let mut clock = FixedStepClock::default();
        let f = clock.advance(secs(0.25 / 60.0));
        assert_eq!(f.steps, 0);
        assert!((f.alpha - 0.25).abs() < 1e-4, "{f:?}");
        let f = clock.advance(secs(2.0 / 60.0));
        assert_eq!(f.steps, 2);
        assert!((f.alpha - 0.25).abs() < 1e-4, "{f:?}");
        assert!(!f.dropped);
    }

    #[test]
    fn a_very_slow_frame_is_capped_and_drops_the_backlog() {
        let mut clock = FixedStepClock::default();
        let f = clock.advance(secs(1.0));
        assert_eq!(f.steps, MAX_STEPS_PER_FRAME);
        assert!(f.dropped);
        assert!((0.0..1.0).contains(&f.alpha));
        // The next normal frame runs normally: no spiral.
        let f = clock.advance(secs(1.0 / 60.0));
        assert!(f.steps <= 1, "{f:?}");
    }
}
