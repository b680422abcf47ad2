//! Collision filtering per shape, by Box2D's rule (`b2ShouldShapesCollide`
//! in box2d v3's `shape.c`): a category a shape belongs to, a mask of the
//! categories it collides with, and a group index that overrides both for
//! shapes of the same non-zero group.

/// Which shapes a shape collides with (Box2D's filter).
///
/// Two shapes collide when they share a positive group; never when they
/// share a negative group; otherwise when each one's mask holds a bit of
/// the other's category. The default (category 1, every mask bit, group 0)
/// collides with every default shape.
///
/// ```
/// use sandbox::Filter;
/// let ground = Filter::default();
/// let ghost = Filter { category: 2, mask: !2, group: 0 };
/// assert!(ghost.collides_with(&ground));
/// assert!(!ghost.collides_with(&ghost), "category 2 masks out category 2");
/// let team = Filter { group: -7, ..Filter::default() };
/// assert!(!team.collides_with(&team), "a negative group never collides with itself");
/// let glued = Filter { category: 2, mask: !2, group: 3 };
/// assert!(glued.collides_with(&glued), "a positive group overrides the masks");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories this shape belongs to (usually one bit).
    pub category: u32,
    /// The categories this shape collides with.
    pub mask: u32,
    /// Shapes of the same non-zero group always collide (positive) or never
    /// collide (negative), whatever their categories and masks; zero is no
    /// group.
    pub group: i32,
}

impl Default for Filter {
    /// Category 1, every mask bit, no group: collides with everything.
    fn default() -> Self {
        Self { category: 1, mask: u32::MAX, group: 0 }
    }
}

impl Filter {
    /// Whether a shape with this filter collides with one with `other`'s
    /// (symmetric).
    #[inline]
    pub fn collides_with(&self, other: &Filter) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        (self.mask & other.category) != 0 && (other.mask & self.category) != 0
    }
}
