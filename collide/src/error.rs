//! Typed errors for bad input to shape constructors and queries.

use core::fmt;

/// Why a point cloud could not be turned into a [`ConvexHull`](crate::ConvexHull).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HullError {
    /// Fewer than three points were given (three non-collinear points make
    /// a flat hull, a triangle).
    TooFewPoints {
        /// How many points were given.
        count: usize,
    },
    /// A coordinate is NaN or infinite.
    NonFinitePoint {
        /// Index of the first offending point in the input.
        index: usize,
    },
    /// All points lie (within tolerance) on one point or one line, so they
    /// bound no area. (Points on a plane are not an error: they make a flat
    /// hull, a convex polygon.)
    Degenerate {
        /// Dimension of the affine hull actually spanned: 0 or 1.
        /// Never 2: [`ConvexHull::new`](crate::ConvexHull::new) makes a flat
        /// hull of a coplanar cloud.
        dimension: u8,
    },
    /// More points than the hull's `u32` indices can address.
    TooManyPoints {
        /// How many points were given.
        count: usize,
    },
    /// The points are so far from the origin that a face plane's offset
    /// (`normal · x` on the face) does not fit in an f32.
    OutOfRange,
    /// The construction failed an internal consistency check. This is a bug
    /// (the exact predicates should make it unreachable); please report the
    /// input.
    Numerical,
}

impl fmt::Display for HullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewPoints { count } => {
                write!(f, "a convex hull needs at least 3 points, got {count}")
            }
            Self::NonFinitePoint { index } => {
                write!(f, "point {index} has a NaN or infinite coordinate")
            }
            Self::Degenerate { dimension } => {
                let what = match dimension {
                    0 => "a single point",
                    1 => "a line",
                    _ => "a plane",
                };
                write!(f, "the points all lie on {what}, so they bound no area")
            }
            Self::TooManyPoints { count } => {
                write!(f, "a convex hull takes fewer than 2^32 - 1 points, got {count}")
            }
            Self::OutOfRange => {
                f.write_str("the points are too far from the origin for f32 face planes")
            }
            Self::Numerical => {
                f.write_str("the hull construction failed an internal consistency check")
            }
        }
    }
}

impl std::error::Error for HullError {}

/// Why a query could not be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueryError {
    /// A pose, a shape parameter or a support point is NaN or infinite.
    NonFiniteInput,
    /// A shape reports a negative margin (for example a sphere with a
    /// negative radius).
    NegativeMargin,
    /// A box reports a negative half extent.
    NegativeExtent,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteInput => {
                f.write_str("a pose, shape parameter or support point is NaN or infinite")
            }
            Self::NegativeMargin => f.write_str("a shape has a negative radius or margin"),
            Self::NegativeExtent => f.write_str("a box has a negative half extent"),
        }
    }
}

impl std::error::Error for QueryError {}

/// Why a shape's parameters were rejected by its `try_new` constructor.
///
/// ```
/// use collide::{Cylinder, ShapeError};
/// assert_eq!(
///     Cylinder::try_new(1.0, -0.5),
///     Err(ShapeError::NotPositive { parameter: "radius", value: -0.5 }),
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A size or coordinate is NaN or infinite.
    NonFinite {
        /// The parameter's name, as in the constructor's signature.
        parameter: &'static str,
    },
    /// A size (radius, half height, half extent) is zero or negative.
    NotPositive {
        /// The parameter's name, as in the constructor's signature.
        parameter: &'static str,
        /// The value given.
        value: f32,
    },
    /// A triangle's corners lie on one line (or coincide), so it has no
    /// area and no normal.
    DegenerateTriangle,
    /// A segment's ends coincide, so it has no direction.
    DegenerateSegment,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite { parameter } => write!(f, "{parameter} is NaN or infinite"),
            Self::NotPositive { parameter, value } => {
                write!(f, "{parameter} must be positive, got {value}")
            }
            Self::DegenerateTriangle => {
                f.write_str("the triangle's corners lie on one line, so it has no area")
            }
            Self::DegenerateSegment => f.write_str("the segment's ends coincide"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Checks that a size is finite and positive, naming it in the error.
pub(crate) fn positive(parameter: &'static str, value: f32) -> Result<f32, ShapeError> {
    if !value.is_finite() {
        Err(ShapeError::NonFinite { parameter })
    } else if value > 0.0 {
        Ok(value)
    } else {
        Err(ShapeError::NotPositive { parameter, value })
    }
}

/// Checks that every coordinate of a point is finite, naming it in the error.
pub(crate) fn finite_point(
    parameter: &'static str,
    p: &nalgebra::Point3<f32>,
) -> Result<(), ShapeError> {
    if p.iter().all(|x| x.is_finite()) { Ok(()) } else { Err(ShapeError::NonFinite { parameter }) }
}
