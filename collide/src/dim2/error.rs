//! Typed errors for building 2D shapes from user input.

use core::fmt;

/// Why a point cloud could not be turned into a [`Polygon`](crate::dim2::Polygon).
///
/// The variants mirror [`HullError`](crate::HullError)'s for 3D hulls, so
/// the same cloud is rejected the same way in both dimensions: too few
/// points, a non-finite coordinate, or points that bound no area (all on
/// one point: [`Coincident`](Self::Coincident), 3D's `Degenerate {
/// dimension: 0 }`; all on one line: [`Collinear`](Self::Collinear), 3D's
/// `Degenerate { dimension: 1 }`). A segment is still available, asked for
/// by name: [`Polygon::segment`](crate::dim2::Polygon::segment).
///
/// ```
/// use collide::dim2::{Polygon, PolygonError};
/// use collide::nalgebra::Point2;
/// assert_eq!(Polygon::new(&[]).unwrap_err(), PolygonError::TooFewPoints { count: 0 });
/// let same = [Point2::new(1.0, 1.0); 3];
/// assert_eq!(Polygon::new(&same).unwrap_err(), PolygonError::Coincident);
/// let line = [Point2::new(0.0, 0.0), Point2::new(1.0, 1.0), Point2::new(3.0, 3.0)];
/// let err = Polygon::new(&line).unwrap_err();
/// assert_eq!(err, PolygonError::Collinear);
/// println!("{err}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PolygonError {
    /// Fewer than three points were given (three non-collinear points make
    /// the smallest polygon, a triangle).
    TooFewPoints {
        /// How many points were given.
        count: usize,
    },
    /// A coordinate is NaN or infinite.
    NonFinitePoint {
        /// Index of the first offending point in the input.
        index: usize,
    },
    /// All points coincide (within a tolerance relative to their
    /// coordinates), so they bound no area.
    Coincident,
    /// All points lie on one line (within a tolerance relative to the
    /// cloud's extent), so they bound no area.
    Collinear,
}

impl fmt::Display for PolygonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewPoints { count } => {
                write!(f, "a polygon needs at least 3 points, got {count}")
            }
            Self::NonFinitePoint { index } => {
                write!(f, "point {index} has a NaN or infinite coordinate")
            }
            Self::Coincident => {
                f.write_str("the points all lie on a single point, so they bound no area")
            }
            Self::Collinear => f.write_str("the points all lie on a line, so they bound no area"),
        }
    }
}

impl std::error::Error for PolygonError {}
