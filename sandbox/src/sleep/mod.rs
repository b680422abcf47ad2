//! Sleeping: islands of bodies linked by touching contacts, and the stage
//! that puts still islands to sleep.

pub(crate) mod union_find;
pub(crate) mod update_sleep;
