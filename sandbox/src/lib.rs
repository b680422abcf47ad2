//! The sandbox's rigid-body world. Not written yet: see the project's open
//! issues. This crate currently exports nothing.
#![deny(missing_docs)]
