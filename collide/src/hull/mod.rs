//! Hull construction (quickhull) and, later, hull support strategies.
