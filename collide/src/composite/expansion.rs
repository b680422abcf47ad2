//! Which side of a pair a recursive composite query expands into parts,
//! and how a part is handed back to the query in the pair's own order: the
//! common step of the shape cast and the time of impact, which both
//! expand B first (then A), and recurse with the part in the expanded
//! side's place, so that every answer keeps A's and B's roles.

use super::parts::CompositeRef;
use crate::shape::Shape;

/// One side of a query pair that knows its shape.
pub(crate) trait HasShape {
    /// The side's shape (a whole shape or a composite's part).
    fn shape(&self) -> &Shape;
}

/// A pair with a composite side to expand.
pub(crate) struct Expansion<'p, T> {
    /// The composite to walk.
    pub(crate) composite: CompositeRef<'p>,
    /// The side that holds it.
    pub(crate) side: &'p T,
    /// The other side.
    pub(crate) other: &'p T,
    /// Whether the composite is A.
    pub(crate) composite_is_a: bool,
}

impl<'p, T: HasShape> Expansion<'p, T> {
    /// B's composite if B is one, else A's, else `None` (two convex
    /// shapes: the convex query answers).
    pub(crate) fn of(a: &'p T, b: &'p T) -> Option<Self> {
        if let Some(composite) = CompositeRef::of(b.shape()) {
            Some(Self { composite, side: b, other: a, composite_is_a: false })
        } else {
            CompositeRef::of(a.shape()).map(|composite| Self {
                composite,
                side: a,
                other: b,
                composite_is_a: true,
            })
        }
    }

    /// Runs `query` on `part` (standing in for the composite side) and the
    /// other side, in the pair's order: `query(part, other)` when the
    /// composite is A, `query(other, part)` when it is B.
    pub(crate) fn in_order<R>(&self, part: &T, query: impl FnOnce(&T, &T) -> R) -> R {
        if self.composite_is_a { query(part, self.other) } else { query(self.other, part) }
    }
}
