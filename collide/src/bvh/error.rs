//! Typed errors of the bounding-volume trees: bad boxes or margins given to
//! a build or an insertion, bad queries, stale proxy handles, and the
//! defects [`validate`](super::DynamicTree::validate) finds.

use core::fmt;

/// Why a tree could not take a box or answer a query.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum BvhError {
    /// A box corner is NaN or infinite. `index` is the box's position in
    /// the slice given to [`StaticBvh::try_new`](super::StaticBvh::try_new),
    /// or `None` for a single box.
    NonFiniteBox {
        /// Position of the first offending box in the input, if any.
        index: Option<usize>,
    },
    /// A box has `min > max` on some axis.
    InvertedBox {
        /// Position of the first offending box in the input, if any.
        index: Option<usize>,
    },
    /// A fattening margin is negative, NaN or infinite.
    InvalidMargin {
        /// The margin given.
        margin: f32,
    },
    /// A query's box, ray, motion or limit is NaN or infinite (an infinite
    /// limit is allowed: it means no limit).
    NonFiniteQuery,
    /// The proxy handle does not name a live proxy of this tree (it was
    /// removed, or belongs to another tree).
    UnknownProxy,
    /// More boxes than the tree's `u32` indices can address.
    TooManyItems {
        /// How many boxes were given.
        count: usize,
    },
}

impl fmt::Display for BvhError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |index: &Option<usize>| match index {
            Some(i) => format!("box {i}"),
            None => "the box".to_owned(),
        };
        match self {
            Self::NonFiniteBox { index } => {
                write!(f, "{} has a NaN or infinite corner", at(index))
            }
            Self::InvertedBox { index } => {
                write!(f, "{} has a min corner above its max corner", at(index))
            }
            Self::InvalidMargin { margin } => {
                write!(f, "the margin {margin} is not finite and non-negative")
            }
            Self::NonFiniteQuery => f.write_str("the query has a NaN or infinite value"),
            Self::UnknownProxy => f.write_str("the proxy handle names no live proxy"),
            Self::TooManyItems { count } => {
                write!(f, "a tree takes fewer than 2^31 boxes, got {count}")
            }
        }
    }
}

impl std::error::Error for BvhError {}

/// An invariant of a tree that [`DynamicTree::validate`](super::DynamicTree::validate)
/// or [`StaticBvh::validate`](super::StaticBvh::validate) found broken. It
/// is a bug in the tree, never the caller's fault; please report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeDefect {
    /// The node where the invariant fails.
    pub node: u32,
    /// Which invariant fails.
    pub invariant: &'static str,
}

impl fmt::Display for TreeDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tree node {}: {}", self.node, self.invariant)
    }
}

impl std::error::Error for TreeDefect {}
