//! The soak run behind `sandbox soak`: a world driven for as long as asked
//! by seeded random input (bodies of every shape kind added and removed,
//! impulses, teleports, throws at up to 500 m/s, sleeping and substeps
//! switched), checked after every step (finite state, no panic, the body
//! count, nothing sunk into the ground, energy that does not grow while
//! nobody touches the world, [`World::validate`](crate::World::validate)).
//! The driver is here, in the library, so that tests run it directly; the
//! binary only adds a wall-clock budget and prints the report.

mod actions;
mod checks;
mod driver;
mod report;

pub use actions::MAX_THROW_SPEED;
pub use checks::{BELOW_GROUND_TOLERANCE, ENERGY_GROWTH_FRACTION};
pub use driver::{DEFAULT_MAX_BODIES, QUIET_STEPS, SOAK_DT, Soak, SoakConfig};
pub use report::{FailureAt, SoakFailure, SoakReport};
