//! Typed errors for building the composite shapes ([`TriMesh`](super::TriMesh),
//! [`HeightField`](super::HeightField), [`Compound`](super::Compound)) from
//! user data.

use core::fmt;

/// Why a mesh, heightfield or compound could not be built.
///
/// ```
/// use collide::composite::{CompositeError, TriMesh};
/// use collide::nalgebra::Point3;
/// let vertices = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0)];
/// assert_eq!(
///     TriMesh::try_new(vertices.to_vec(), vec![[0, 1, 3]]).unwrap_err(),
///     CompositeError::IndexOutOfRange { triangle: 0, index: 3, vertex_count: 3 },
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum CompositeError {
    /// A mesh without triangles, a heightfield without cells or a compound
    /// without parts.
    Empty,
    /// A vertex (or height) is NaN or infinite.
    NonFiniteVertex {
        /// Index of the first offending vertex (for a heightfield, the
        /// sample's index `row * columns + column`).
        index: usize,
    },
    /// A triangle names a vertex that does not exist.
    IndexOutOfRange {
        /// Index of the triangle.
        triangle: usize,
        /// The index it gives.
        index: u32,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// A triangle's corners lie on one line (or coincide), so it has no
    /// normal.
    DegenerateTriangle {
        /// Index of the triangle.
        triangle: usize,
    },
    /// More triangles, samples or parts than the `u32` part indices (less
    /// the bounding-volume hierarchy's own limit of `2^31`) can address.
    TooLarge {
        /// How many were given.
        count: usize,
    },
    /// A heightfield's rows differ in length (`row` is the first that
    /// differs from row 0), or it has fewer than two rows or columns.
    BadGrid {
        /// The first row whose length differs from row 0's, or the count
        /// of rows when there are fewer than two rows or columns.
        row: usize,
    },
    /// A heightfield's cell size is not finite and positive.
    BadCellSize,
    /// A compound's part is a mesh, heightfield or compound: parts must be
    /// convex.
    NonConvexPart {
        /// Index of the part.
        part: usize,
    },
    /// A compound's part has a NaN or infinite pose, or a shape parameter
    /// that is NaN, infinite or negative.
    BadPart {
        /// Index of the part.
        part: usize,
    },
}

impl fmt::Display for CompositeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => {
                f.write_str("a composite shape needs at least one triangle, cell or part")
            }
            Self::NonFiniteVertex { index } => {
                write!(f, "vertex {index} has a NaN or infinite coordinate")
            }
            Self::IndexOutOfRange { triangle, index, vertex_count } => write!(
                f,
                "triangle {triangle} names vertex {index}, but there are only {vertex_count} vertices"
            ),
            Self::DegenerateTriangle { triangle } => {
                write!(f, "triangle {triangle}'s corners lie on one line, so it has no area")
            }
            Self::TooLarge { count } => {
                write!(f, "{count} items are more than a composite shape can index (2^31 - 1)")
            }
            Self::BadGrid { row } => write!(
                f,
                "a heightfield needs at least 2 rows of at least 2 equal-length columns (row {row} differs)"
            ),
            Self::BadCellSize => {
                f.write_str("a heightfield's cell size must be finite and positive")
            }
            Self::NonConvexPart { part } => {
                write!(f, "compound part {part} is not convex (a mesh, heightfield or compound)")
            }
            Self::BadPart { part } => {
                write!(f, "compound part {part} has a non-finite pose or an invalid shape")
            }
        }
    }
}

impl std::error::Error for CompositeError {}
