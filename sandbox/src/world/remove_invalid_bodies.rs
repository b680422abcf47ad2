//! The remove-invalid-bodies stage, which runs first in the step and again
//! after the bodies moved: every awake body whose pose or velocity is not
//! finite, or which has left [`WORLD_BOUND`](crate::WORLD_BOUND), is
//! removed with a warning, so it cannot poison the solver, and is recorded
//! for [`World::removed_bodies`]. The bodies are found by the body storage
//! (`Bodies::find_invalid`); removing one also drops its pairs and its
//! broad-phase box, which is why the stage is the world's. The step starts
//! its timer (`stage_times.rs`), which runs until the next stage starts.

use crate::events::RemovedBody;
use crate::world::World;

impl World {
    /// The remove-invalid-bodies stage (see the module docs).
    pub(super) fn remove_invalid_bodies(&mut self) {
        self.invalid.clear();
        self.bodies.find_invalid(&self.workers, &mut self.invalid);
        let invalid = std::mem::take(&mut self.invalid);
        for &(id, reason) in &invalid {
            log::warn!("removing body {}: {reason}", id.index());
            // The handle was read from a live record just above.
            if self.remove_body(id).is_ok() {
                self.removed.push(RemovedBody { id, reason });
            }
        }
        self.invalid = invalid;
    }
}
