//! Tunable parameters of a world's step, the limits each must keep to
//! (shared with the scene files' `[settings]`), and their validation.

use collide::nalgebra::Vector3;

use crate::error::{Rule, Setting, SettingsError};

/// Most substeps per step: eight times the default (see
/// [`StepSettings::default`]); past that, more only hides a badly scaled
/// scene.
pub const MAX_SUBSTEPS: u32 = 64;

/// Most push or relax sweeps per substep, and most mass-ratio sweeps (the
/// defaults are in [`StepSettings::default`]); past 16 a scene wants more
/// substeps instead.
pub const MAX_ITERATIONS: u32 = 16;

/// Highest contact frequency (Hz). The solver caps it at a quarter of the
/// substep rate anyway (60 Hz at 4 substeps, 960 Hz at 64); this only
/// rejects values no substep count could honour.
pub const MAX_CONTACT_HERTZ: f32 = 1000.0;

/// Most threads a step runs on. The step splits its work into at most 16
/// solver regions and a few chunks per thread, so more threads than this
/// only cost their stacks and start-up.
pub const MAX_THREADS: usize = 64;

/// Parameters of [`World::step`](crate::World::step). Each field states
/// the values it takes; [`StepSettings::validate`] checks them, and
/// [`World::with_settings`](crate::World::with_settings) and
/// [`World::set_settings`](crate::World::set_settings) refuse settings it
/// refuses. The defaults follow
/// Box2D v3 (one push and one relax sweep per substep, over-damped contact
/// springs, 3 m/s push-out) with stiffer contacts and twice its substeps,
/// which 3D stacks of 1 m, 1 t cubes need (see `substeps` and
/// `contact_hertz`); they suit metre-sized bodies at 60 Hz.
///
/// ```
/// use sandbox::StepSettings;
/// let s = StepSettings { sleep_enabled: false, ..StepSettings::default() };
/// assert_eq!(s.substeps, 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepSettings {
    /// Gravity, m/s² (finite).
    pub gravity: Vector3<f32>,
    /// Substeps per step, 1 to [`MAX_SUBSTEPS`]: more is stiffer and more
    /// accurate, and costs more.
    /// The default, 8 substeps of one push and one relax sweep, lets
    /// pyramid 100 settle and sleep within 4 s; the sandbox README's
    /// "Measured" section gives the comparison with other splits.
    pub substeps: u32,
    /// Soft (position-correcting) solver sweeps over the contacts per
    /// substep, 1 to [`MAX_ITERATIONS`].
    pub push_iterations: u32,
    /// Rigid (relax) sweeps per substep, which also solve friction, 1 to
    /// [`MAX_ITERATIONS`].
    pub relax_iterations: u32,
    /// Stiffness of contacts, as a spring frequency in Hz (contacts against
    /// static bodies use twice this), above 0 and at most
    /// [`MAX_CONTACT_HERTZ`]. Capped at a quarter of the substep
    /// rate, above which the soft step loses stability. A soft contact holds
    /// a load by compressing, and a column of cubes on such springs, pinned
    /// face to face by static friction, buckles once the springs'
    /// rotational stiffness falls below the weight times height above
    /// them (Euler buckling of a hinge chain). Measured with 1 m, 1 t cubes
    /// at friction 0.6 and 8 substeps, the tallest column that stands 25 s:
    /// 20 cubes at 30 Hz, 25 at 50 Hz, 27 at 80 Hz, 30 at 100 Hz, 35 at
    /// 120 Hz; 40 cubes need 16 substeps and 160 Hz (the workspace's
    /// `tests/tests/columns.rs` has the model and the figures).
    pub contact_hertz: f32,
    /// Largest compression (m) of a contact spring under the load it
    /// carries, for contacts in a chain of bodies of very different masses
    /// (a heavy body on a light one, and the light one's other contacts;
    /// see the solver's `mass_ratio_chains.rs`): such a contact whose load
    /// would compress it further is stiffened to compress by this much, up
    /// to a quarter of the substep rate (half against static bodies), as
    /// Box2D caps its contact frequency; in an island of at most 48 contact
    /// points, which the solver then solves directly (`chain_block_solve.rs`),
    /// up to 0.6 of the substep rate. Zero keeps `contact_hertz`; finite,
    /// zero or positive.
    pub max_contact_sag: f32,
    /// Push and relax sweeps per substep over the contacts in chains of
    /// bodies of very different masses (`push_iterations` and
    /// `relax_iterations` where those are larger): a light body pressed
    /// under a heavy one passes only a small fraction of each sweep's
    /// correction on to it. Costs nothing in scenes without such chains.
    /// 0 to [`MAX_ITERATIONS`] (below `push_iterations` and
    /// `relax_iterations` it changes nothing).
    pub mass_ratio_iterations: u32,
    /// Damping ratio of the contact spring (10: heavily over-damped, no
    /// bounce); finite, zero or positive.
    pub contact_damping_ratio: f32,
    /// Largest speed (m/s) at which overlap is pushed apart; finite, zero or
    /// positive.
    pub max_push_out_velocity: f32,
    /// Approach speed (m/s) below which contacts do not bounce; finite, zero
    /// or positive.
    pub restitution_threshold: f32,
    /// Whether still islands go to sleep.
    pub sleep_enabled: bool,
    /// Speed (m/s, for the body's farthest point) below which a body counts
    /// as still; finite, zero or positive.
    pub sleep_velocity: f32,
    /// Time (s) an island must stay still before it sleeps; finite, zero or
    /// positive.
    pub time_to_sleep: f32,
    /// Whether contact manifolds are recycled: a touching pair whose
    /// relative pose has drifted less than 1 mm (a fifth of the linear slop)
    /// since its manifold was computed keeps its contact points fixed on
    /// each body and only refreshes their separations, instead of running
    /// contact determination again (at most 3 steps in a row; see the
    /// sandbox README). Off, a manifold is reused only while the relative
    /// pose is unchanged to 0.1 mm / 1e-4 rad.
    pub contact_recycling: bool,
    /// Threads the step runs on, 1 to [`MAX_THREADS`] (0 is refused, as
    /// is 0 substeps: no count is silently changed). The broad phase's sweep,
    /// the narrow phase, the preparation of the contacts and the
    /// integration inside the substeps are split among them once 1000
    /// bodies are awake, and from 2048 awake bodies the solver's sweeps run
    /// region by region on them too (one region per 1024 awake bodies, up
    /// to 16; see the sandbox's `solver/regions.rs`). The results are
    /// bitwise the same for any count: the regions depend on the bodies'
    /// positions, never on the threads. The app defaults to the machine's
    /// cores, `sandbox bench` to 1.
    pub threads: usize,
}

impl Default for StepSettings {
    fn default() -> Self {
        Self {
            gravity: Vector3::new(0.0, -9.81, 0.0),
            substeps: 8,
            push_iterations: 1,
            relax_iterations: 1,
            contact_hertz: 50.0,
            max_contact_sag: 0.002,
            mass_ratio_iterations: 4,
            contact_damping_ratio: 10.0,
            max_push_out_velocity: 3.0,
            restitution_threshold: 1.0,
            sleep_enabled: true,
            sleep_velocity: 0.05,
            time_to_sleep: 0.5,
            contact_recycling: true,
            threads: 1,
        }
    }
}

impl StepSettings {
    /// Checks every setting against its rule ([`Setting::rule`]): the
    /// counts within their ranges, the contact frequency above 0 and at
    /// most [`MAX_CONTACT_HERTZ`], gravity finite, and the other numbers
    /// finite and zero or positive. These are the limits a scene file's
    /// `[settings]` is held to as well.
    ///
    /// # Errors
    /// A [`SettingsError`] naming the first setting that breaks its rule,
    /// in the order of the fields.
    ///
    /// ```
    /// use sandbox::{Setting, StepSettings};
    /// use collide::nalgebra::Vector3;
    /// assert_eq!(StepSettings::default().validate(), Ok(()));
    /// let nan_gravity = StepSettings { gravity: Vector3::new(0.0, f32::NAN, 0.0), ..Default::default() };
    /// assert_eq!(nan_gravity.validate().unwrap_err().setting, Setting::Gravity);
    /// let many_threads = StepSettings { threads: 1_000_000, ..Default::default() };
    /// assert_eq!(
    ///     many_threads.validate().unwrap_err().to_string(),
    ///     "threads must be a whole number from 1 to 64, got 1000000"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), SettingsError> {
        // Destructured, so that a new field cannot be left unchecked.
        let Self {
            gravity,
            substeps,
            push_iterations,
            relax_iterations,
            contact_hertz,
            max_contact_sag,
            mass_ratio_iterations,
            contact_damping_ratio,
            max_push_out_velocity,
            restitution_threshold,
            sleep_enabled: _,
            sleep_velocity,
            time_to_sleep,
            contact_recycling: _,
            threads,
        } = *self;
        let gravity: [f64; 3] = gravity.map(f64::from).into();
        // Counts are widened to f64 exactly (a usize count past 2^53 is
        // rounded, but stays far past every cap).
        let checks: [(Setting, &[f64]); 13] = [
            (Setting::Gravity, &gravity),
            (Setting::Substeps, &[f64::from(substeps)]),
            (Setting::PushIterations, &[f64::from(push_iterations)]),
            (Setting::RelaxIterations, &[f64::from(relax_iterations)]),
            (Setting::ContactHertz, &[f64::from(contact_hertz)]),
            (Setting::MaxContactSag, &[f64::from(max_contact_sag)]),
            (Setting::MassRatioIterations, &[f64::from(mass_ratio_iterations)]),
            (Setting::ContactDampingRatio, &[f64::from(contact_damping_ratio)]),
            (Setting::MaxPushOutVelocity, &[f64::from(max_push_out_velocity)]),
            (Setting::RestitutionThreshold, &[f64::from(restitution_threshold)]),
            (Setting::SleepVelocity, &[f64::from(sleep_velocity)]),
            (Setting::TimeToSleep, &[f64::from(time_to_sleep)]),
            (Setting::Threads, &[threads as f64]),
        ];
        for (setting, values) in checks {
            let rule = setting.rule();
            if let Some(&value) = values.iter().find(|&&v| !rule.admits(v)) {
                return Err(SettingsError { setting, rule, value });
            }
        }
        Ok(())
    }

    /// Whether going from these settings to `new` changes how bodies move,
    /// so that a sleeping body may no longer be at rest: a change of
    /// gravity, of the solver's substeps, sweeps, springs or push-out
    /// speed, of the restitution threshold, or sleep turned off. The thread
    /// count (the results are bitwise the same for any), contact
    /// recycling (sleeping pairs keep their manifolds), the sleep
    /// thresholds and turning sleep on change no motion.
    pub(crate) fn changes_motion(&self, new: &StepSettings) -> bool {
        // Destructured, so that a new field needs a decision here.
        let Self {
            gravity,
            substeps,
            push_iterations,
            relax_iterations,
            contact_hertz,
            max_contact_sag,
            mass_ratio_iterations,
            contact_damping_ratio,
            max_push_out_velocity,
            restitution_threshold,
            sleep_enabled,
            sleep_velocity: _,
            time_to_sleep: _,
            contact_recycling: _,
            threads: _,
        } = *new;
        gravity != self.gravity
            || substeps != self.substeps
            || push_iterations != self.push_iterations
            || relax_iterations != self.relax_iterations
            || contact_hertz != self.contact_hertz
            || max_contact_sag != self.max_contact_sag
            || mass_ratio_iterations != self.mass_ratio_iterations
            || contact_damping_ratio != self.contact_damping_ratio
            || max_push_out_velocity != self.max_push_out_velocity
            || restitution_threshold != self.restitution_threshold
            || (self.sleep_enabled && !sleep_enabled)
    }
}

impl Setting {
    /// The rule this setting must follow (for gravity, each component),
    /// with the limits [`MAX_SUBSTEPS`], [`MAX_ITERATIONS`],
    /// [`MAX_CONTACT_HERTZ`] and [`MAX_THREADS`].
    ///
    /// ```
    /// use sandbox::{MAX_SUBSTEPS, Rule, Setting};
    /// assert_eq!(Setting::Substeps.rule(), Rule::WholeNumber { min: 1, max: MAX_SUBSTEPS });
    /// ```
    pub fn rule(self) -> Rule {
        match self {
            Self::Gravity => Rule::Finite,
            Self::Substeps => Rule::WholeNumber { min: 1, max: MAX_SUBSTEPS },
            Self::PushIterations | Self::RelaxIterations => {
                Rule::WholeNumber { min: 1, max: MAX_ITERATIONS }
            }
            Self::MassRatioIterations => Rule::WholeNumber { min: 0, max: MAX_ITERATIONS },
            Self::ContactHertz => Rule::PositiveAtMost { max: MAX_CONTACT_HERTZ },
            Self::MaxContactSag
            | Self::ContactDampingRatio
            | Self::MaxPushOutVelocity
            | Self::RestitutionThreshold
            | Self::SleepVelocity
            | Self::TimeToSleep => Rule::NonNegative,
            Self::Threads => Rule::WholeNumber { min: 1, max: MAX_THREADS as u32 },
        }
    }
}
