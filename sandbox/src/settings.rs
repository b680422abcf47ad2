//! Tunable parameters of a world's step.

use collide::nalgebra::Vector3;

/// Parameters of [`World::step`](crate::World::step). The defaults follow
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
    /// Gravity, m/s².
    pub gravity: Vector3<f32>,
    /// Substeps per step: more is stiffer and more accurate, and costs more.
    /// The default, 8 substeps of one push and one relax sweep, lets
    /// pyramid 100 settle and sleep within 4 s; the sandbox README's
    /// "Measured" section gives the comparison with other splits.
    pub substeps: u32,
    /// Soft (position-correcting) solver sweeps over the contacts per
    /// substep.
    pub push_iterations: u32,
    /// Rigid (relax) sweeps per substep, which also solve friction.
    pub relax_iterations: u32,
    /// Stiffness of contacts, as a spring frequency in Hz (contacts against
    /// static bodies use twice this). Capped at a quarter of the substep
    /// rate, above which the soft step loses stability. A soft contact holds
    /// a load by compressing, and a column of cubes on such springs buckles
    /// once the springs' rotational stiffness falls below the weight times
    /// height above them: at 30 Hz a free-standing column of 1 m cubes
    /// topples at about 15 cubes, at 60 Hz it holds 20 with margin.
    pub contact_hertz: f32,
    /// Largest compression (m) of a contact spring under the load it
    /// carries, for contacts in a chain of bodies of very different masses
    /// (a heavy body on a light one, and the light one's other contacts;
    /// see the solver's `mass_ratio_chains.rs`): such a contact whose load
    /// would compress it further is stiffened to compress by this much, up
    /// to a quarter of the substep rate (half against static bodies), as
    /// Box2D caps its contact frequency; in an island of at most 48 contact
    /// points, which the solver then solves directly (`chain_block_solve.rs`),
    /// up to 0.6 of the substep rate. Zero keeps `contact_hertz`.
    pub max_contact_sag: f32,
    /// Push and relax sweeps per substep over the contacts in chains of
    /// bodies of very different masses (`push_iterations` and
    /// `relax_iterations` where those are larger): a light body pressed
    /// under a heavy one passes only a small fraction of each sweep's
    /// correction on to it. Costs nothing in scenes without such chains.
    pub mass_ratio_iterations: u32,
    /// Damping ratio of the contact spring (10: heavily over-damped, no bounce).
    pub contact_damping_ratio: f32,
    /// Largest speed (m/s) at which overlap is pushed apart.
    pub max_push_out_velocity: f32,
    /// Approach speed (m/s) below which contacts do not bounce.
    pub restitution_threshold: f32,
    /// Whether still islands go to sleep.
    pub sleep_enabled: bool,
    /// Speed (m/s, for the body's farthest point) below which a body counts as still.
    pub sleep_velocity: f32,
    /// Time (s) an island must stay still before it sleeps.
    pub time_to_sleep: f32,
    /// Whether contact manifolds are recycled: a touching pair whose
    /// relative pose has drifted less than 1 mm (a fifth of the linear slop)
    /// since its manifold was computed keeps its contact points fixed on
    /// each body and only refreshes their separations, instead of running
    /// contact determination again (at most 3 steps in a row; see the
    /// sandbox README). Off, a manifold is reused only while the relative
    /// pose is unchanged to 0.1 mm / 1e-4 rad.
    pub contact_recycling: bool,
    /// Threads the step runs on (0 counts as 1). The broad phase's sweep,
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
