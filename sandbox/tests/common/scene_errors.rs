//! Helpers for the scene-file tests that check where an error points: the
//! error of a text that must be refused, its line and column, and the line
//! and column where a value sits in the text (the oracle, found by
//! searching the text, not by the parser).

use sandbox::{SceneFile, SceneFileError};

/// The error of `text`, which must be refused.
pub fn parse_err(text: &str) -> SceneFileError {
    match SceneFile::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// The line and column (both from 1) the error names.
pub fn at(e: &SceneFileError) -> (usize, usize) {
    let loc = e.location().unwrap_or_else(|| panic!("no location: {e}"));
    (loc.line, loc.column)
}

/// The line and column (both from 1) where `needle` first appears in
/// `text`: where the error about that value must point.
pub fn where_is(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).unwrap_or_else(|| panic!("{needle} not in the text"));
    let line = text[..offset].matches('\n').count() + 1;
    let column = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}
