//! Benchmark support code. The criterion suites are not written yet: see the
//! project's open issues. This crate currently exports nothing.
#![deny(missing_docs)]
