//! Typed errors for building 2D shapes from user input.

use core::fmt;

/// Why a point cloud could not be turned into a [`Polygon`](crate::dim2::Polygon).
///
/// ```
/// use collide::dim2::{Polygon, PolygonError};
/// use collide::nalgebra::Point2;
/// assert_eq!(Polygon::new(&[]).unwrap_err(), PolygonError::Empty);
/// let err = Polygon::new(&[Point2::new(1.0, 1.0), Point2::new(1.0, 1.0)]).unwrap_err();
/// assert_eq!(err, PolygonError::Coincident);
/// println!("{err}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PolygonError {
    /// No points were given.
    Empty,
    /// A coordinate is NaN or infinite.
    NonFinitePoint {
        /// Index of the first offending point in the input.
        index: usize,
    },
    /// All points coincide (within a tolerance relative to their coordinates),
    /// so they span neither an area nor a segment.
    Coincident,
}

impl fmt::Display for PolygonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => {
                f.write_str("a polygon needs at least one pair of distinct points, got none")
            }
            Self::NonFinitePoint { index } => {
                write!(f, "point {index} has a NaN or infinite coordinate")
            }
            Self::Coincident => {
                f.write_str("all points coincide, so they span neither an area nor a segment")
            }
        }
    }
}

impl std::error::Error for PolygonError {}
