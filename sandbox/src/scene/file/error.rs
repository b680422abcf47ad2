//! Why a scene file was rejected, where, and how to show it: on one line
//! (`path:line:column: message`) or as a compiler does, with the source line
//! and the value underlined (rendered by `annotate-snippets`).

use core::fmt;

use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use collide::HullError;

use crate::error::WorldError;
use crate::scene::builtin::MAX_SCENE_BODIES;
use crate::scene::file::location::Location;
use crate::scene::file::scene_file::MAX_SCENE_FILE_BYTES;
use crate::scene::file::validate::MAX_HULL_POINTS;

/// Why a scene file was rejected. Every variant names where in the file the
/// problem is (a syntax error without any position in the file, which the
/// TOML parser does not produce in practice, would have `location: None`).
///
/// ```
/// use sandbox::{SceneFile, SceneFileError};
/// let err = SceneFile::parse("[[body]]\nshape = { type = \"sphere\", radius = -1 }\n")
///     .unwrap_err();
/// assert_eq!(err.location().unwrap().line, 2);
/// assert!(matches!(err, SceneFileError::OutOfRange { .. }));
/// assert_eq!(
///     err.in_file("ball.toml").to_string(),
///     "ball.toml:2:37: sphere radius must be positive, got -1"
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SceneFileError {
    /// The text is not valid TOML, or a value has the wrong type, a key is
    /// unknown or a required key is missing.
    Syntax {
        /// Where the parser stopped.
        location: Option<Location>,
        /// The parser's description.
        message: String,
    },
    /// A number is NaN or infinite, or too large for an `f32`.
    NonFinite {
        /// Where the number is.
        location: Location,
        /// What the number is, e.g. `position[1]`.
        what: String,
        /// The value as written.
        value: f64,
    },
    /// A number is finite but outside its allowed range.
    OutOfRange {
        /// Where the number is.
        location: Location,
        /// What the number is, e.g. `sphere radius`.
        what: String,
        /// The value as written.
        value: f64,
        /// The allowed range, e.g. `positive`.
        expected: String,
    },
    /// A shape lacks a parameter its type needs, or has one that does not
    /// apply to it.
    Shape {
        /// Where the shape or the stray parameter is.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// A rotation gives both or neither of `euler` and `quaternion`, or a
    /// quaternion too short to normalise.
    Rotation {
        /// Where the rotation is.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// The hull points do not form a hull.
    Hull {
        /// Where the `points` array is.
        location: Location,
        /// Why the hull could not be built.
        source: HullError,
    },
    /// The file asks for more than [`MAX_SCENE_BODIES`] bodies.
    TooManyBodies {
        /// The body (or repeat) that crossed the cap.
        location: Location,
        /// Bodies requested up to and including that entry.
        count: u64,
    },
    /// The file is longer than [`MAX_SCENE_FILE_BYTES`] (it is not read
    /// further).
    FileTooLarge {
        /// The file's length, or the length read before stopping, in bytes.
        bytes: u64,
    },
    /// A hull lists more than [`MAX_HULL_POINTS`] points.
    TooManyHullPoints {
        /// Where the `points` array is.
        location: Location,
        /// How many points it lists.
        count: usize,
    },
    /// The world refused a body while building.
    World {
        /// The body's `[[body]]` entry.
        location: Location,
        /// Why the world refused it.
        source: WorldError,
    },
    /// A `[[joint]]` entry is wrong: a key its kind does not take or a
    /// missing one it needs, limits whose low end is above their high
    /// end, a body index past the bodies, a joint of a body to itself, a
    /// zero axis.
    Joint {
        /// Where the offending value (or the entry) is.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// The world refused a joint while building.
    JointRefused {
        /// The joint's `[[joint]]` entry.
        location: Location,
        /// Why the world refused it.
        source: WorldError,
    },
}

impl SceneFileError {
    /// Where in the file the problem is.
    pub fn location(&self) -> Option<Location> {
        match self {
            Self::Syntax { location, .. } => *location,
            Self::FileTooLarge { .. } => None,
            Self::NonFinite { location, .. }
            | Self::OutOfRange { location, .. }
            | Self::Shape { location, .. }
            | Self::Rotation { location, .. }
            | Self::Hull { location, .. }
            | Self::TooManyBodies { location, .. }
            | Self::TooManyHullPoints { location, .. }
            | Self::World { location, .. }
            | Self::Joint { location, .. }
            | Self::JointRefused { location, .. } => Some(*location),
        }
    }

    /// The error on one line, as a compiler would print it for the file at
    /// `path`, with its causes: `path:line:column: message: cause`.
    pub fn in_file<'a>(&'a self, path: &'a str) -> impl fmt::Display + 'a {
        InFile { error: self, path }
    }

    /// The error as a compiler shows it: the message and its causes, then
    /// the offending line of `text` (the file at `path` that was parsed)
    /// with the value underlined. Plain text, no colour.
    ///
    /// ```
    /// use sandbox::SceneFile;
    /// let text = "[[body]]\nshape = { type = \"sphere\", radius = -1 }\n";
    /// let err = SceneFile::parse(text).unwrap_err();
    /// let shown = err.render("ball.toml", text);
    /// assert!(shown.starts_with("error: sphere radius must be positive, got -1"));
    /// assert!(shown.contains("ball.toml:2:37"));
    /// assert!(shown.contains("radius = -1 }"));
    /// assert!(shown.contains("^^"));
    /// ```
    pub fn render(&self, path: &str, text: &str) -> String {
        let mut title = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_message(&mut title).and_then(|()| write_causes(self, &mut title));
        let report = match self.location() {
            Some(l) => {
                // A point (len 0) is underlined as one character, on the
                // character boundaries of `text`.
                let start = floor_char_boundary(text, l.offset);
                let end = floor_char_boundary(text, (l.offset + l.len.max(1)).min(text.len()));
                let end = if end > start { end } else { next_char_boundary(text, start) };
                vec![
                    Level::ERROR.primary_title(title.as_str()).element(
                        Snippet::source(text)
                            .path(path)
                            .annotation(AnnotationKind::Primary.span(start..end)),
                    ),
                ]
            }
            None => vec![Group::with_title(Level::ERROR.primary_title(title.as_str()))],
        };
        let shown = Renderer::plain().decor_style(DecorStyle::Ascii).render(&report);
        match self.location() {
            Some(_) => shown,
            // No place to show: name the file at least.
            None => format!("{shown}\n  --> {path}"),
        }
    }

    fn write_message(&self, f: &mut impl fmt::Write) -> fmt::Result {
        match self {
            Self::Syntax { message, .. } => f.write_str(message),
            Self::NonFinite { what, value, .. } => {
                let value = Number(*value);
                if value.0.is_finite() {
                    write!(f, "{what} must fit in an f32 (at most {:e}), got {value}", f32::MAX)
                } else {
                    write!(f, "{what} must be finite, got {value}")
                }
            }
            Self::OutOfRange { what, value, expected, .. } => {
                write!(f, "{what} must be {expected}, got {}", Number(*value))
            }
            Self::Shape { message, .. }
            | Self::Rotation { message, .. }
            | Self::Joint { message, .. } => f.write_str(message),
            Self::Hull { .. } => f.write_str("the hull points form no hull"),
            Self::TooManyBodies { count, .. } => write!(
                f,
                "the file asks for {count} bodies, more than the {MAX_SCENE_BODIES} allowed"
            ),
            Self::FileTooLarge { bytes } => write!(
                f,
                "the file is {bytes} bytes or more, longer than the {MAX_SCENE_FILE_BYTES} allowed"
            ),
            Self::TooManyHullPoints { count, .. } => {
                write!(f, "the hull lists {count} points, more than the {MAX_HULL_POINTS} allowed")
            }
            Self::World { .. } => f.write_str("the world refused this body"),
            Self::JointRefused { .. } => f.write_str("the world refused this joint"),
        }
    }
}

/// A number as a person wrote it: plain when short, in scientific notation
/// when plain would run to many digits.
struct Number(f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.abs();
        if a != 0.0 && !(1e-4..1e9).contains(&a) {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

struct InFile<'a> {
    error: &'a SceneFileError,
    path: &'a str,
}

impl fmt::Display for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error.location() {
            Some(l) => write!(f, "{}:{}:{}: ", self.path, l.line, l.column)?,
            None => write!(f, "{}: ", self.path)?,
        }
        self.error.write_message(f)?;
        write_causes(self.error, f)
    }
}

/// Appends `: cause` for each error in `error`'s source chain.
fn write_causes(error: &dyn std::error::Error, f: &mut impl fmt::Write) -> fmt::Result {
    let mut cause = error.source();
    while let Some(c) = cause {
        write!(f, ": {c}")?;
        cause = c.source();
    }
    Ok(())
}

/// The largest character boundary of `text` at or before `i`.
fn floor_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The character boundary just after the one at `i` (or the text's end).
fn next_char_boundary(text: &str, i: usize) -> usize {
    text[i..].chars().next().map_or(i, |c| i + c.len_utf8())
}

impl fmt::Display for SceneFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.location() {
            write!(f, "{l}: ")?;
        }
        self.write_message(f)
    }
}

impl std::error::Error for SceneFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Hull { source, .. } => Some(source),
            Self::World { source, .. } | Self::JointRefused { source, .. } => Some(source),
            _ => None,
        }
    }
}
