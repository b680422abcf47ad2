//! Places in a scene file: byte offsets turned into 1-based lines and
//! columns (counted in characters) through a table of line starts.

use core::fmt;
use core::ops::Range;

use toml::Spanned;

/// A place in a scene file: a 1-based line and column (counted in
/// characters) for people, and the byte span of the value there for tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Line number, from 1.
    pub line: usize,
    /// Column number, from 1, in characters (not bytes).
    pub column: usize,
    /// Byte offset of the value's start in the file.
    pub offset: usize,
    /// The value's length in bytes (0 where the parser gave only a point).
    pub len: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Turns byte offsets into lines and columns.
pub(super) struct Locator<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { text, line_starts }
    }

    pub fn at(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        // The last line starting at or before `offset` (line_starts[0] = 0).
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.line_starts[line];
        // A span never splits a character, but be safe: count the characters
        // of the longest valid prefix.
        let column = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        Location { line: line + 1, column: column + 1, offset, len: 0 }
    }

    /// For the rare parser error that carries no span (toml's "recursion
    /// limit" on an over-long dotted key): the first line whose inclusion
    /// makes a plain TOML parse fail without a span, found by bisecting on
    /// whole-line prefixes (assuming, as for that error, that once a prefix
    /// fails so, every longer one does). `None` if bisection finds no such
    /// line, rather than a guess.
    pub fn first_spanless_line(&self) -> Option<Location> {
        let prefix_fails = |lines: usize| {
            let end = self.line_starts.get(lines).map_or(self.text.len(), |&s| s);
            matches!(self.text[..end].parse::<toml::Table>(), Err(e) if e.span().is_none())
        };
        // Invariant: prefixes of `lo` lines pass, of `hi` lines fail.
        let (mut lo, mut hi) = (0, self.line_starts.len());
        if !prefix_fails(hi) {
            return None;
        }
        // Halves `hi - lo` each pass, so it ends within log2(lines) + 1 passes.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if prefix_fails(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let offset = self.line_starts[hi - 1];
        Some(Location { line: hi, column: 1, offset, len: 0 })
    }

    pub fn span(&self, span: Range<usize>) -> Location {
        let end = span.end.min(self.text.len());
        Location { len: end.saturating_sub(span.start), ..self.at(span.start) }
    }

    pub fn of<T>(&self, value: &Spanned<T>) -> Location {
        self.span(value.span())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locator_counts_lines_and_characters_from_one() {
        let text = "ab\nçd\n\nx";
        let l = Locator::new(text);
        assert_eq!((l.at(0).line, l.at(0).column), (1, 1));
        assert_eq!((l.at(2).line, l.at(2).column), (1, 3));
        assert_eq!((l.at(3).line, l.at(3).column), (2, 1));
        // 'ç' is two bytes: the 'd' after it is the second character.
        assert_eq!((l.at(5).line, l.at(5).column), (2, 2));
        assert_eq!((l.at(7).line, l.at(7).column), (3, 1));
        assert_eq!((l.at(8).line, l.at(8).column), (4, 1));
        assert_eq!((l.at(100).line, l.at(100).column), (4, 2));
    }
}
