//! Tunable parameters of a world's step.

use collide::nalgebra::Vector3;

/// Parameters of [`World::step`](crate::World::step). The defaults are Box2D
/// v3's, which suit metre-sized bodies at 60 Hz.
///
/// ```
/// use sandbox::StepSettings;
/// let s = StepSettings { sleep_enabled: false, ..StepSettings::default() };
/// assert_eq!(s.substeps, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepSettings {
    /// Gravity, m/s².
    pub gravity: Vector3<f32>,
    /// Substeps per step: more is stiffer and more accurate, and costs more.
    pub substeps: u32,
    /// Stiffness of contacts, as a spring frequency in Hz. Capped at a quarter
    /// of the substep rate, above which the soft step loses stability.
    pub contact_hertz: f32,
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
}

impl Default for StepSettings {
    fn default() -> Self {
        Self {
            gravity: Vector3::new(0.0, -9.81, 0.0),
            substeps: 4,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            max_push_out_velocity: 3.0,
            restitution_threshold: 1.0,
            sleep_enabled: true,
            sleep_velocity: 0.05,
            time_to_sleep: 0.5,
        }
    }
}
