//! Independent oracles for the integration tests (STUB: being written).
#![deny(missing_docs)]
