//! 2D shapes and queries (STUB: being written).
