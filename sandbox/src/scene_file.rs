//! Custom scenes read from TOML files: optional step settings, the ground
//! flag and a list of bodies, each optionally repeated on a grid.
//!
//! The text is parsed with serde and the `toml` crate into raw structs whose
//! every value is wrapped in [`toml::Spanned`], so that after parsing, the
//! validation (finite numbers, positive sizes, a rotation that is a rotation,
//! a hull that encloses volume) can still say where in the file a bad value
//! sits. Byte offsets become 1-based lines and columns through a table of
//! line starts. Numbers are read as `f64` and narrowed to `f32` only after
//! checking that they fit, so `1e300` is reported as out of range rather
//! than silently becoming infinity.
//!
//! The format:
//!
//! ```toml
//! ground = true                 # the SCENES.md ground; default true
//!
//! [settings]                    # every key optional; defaults: StepSettings::default()
//! gravity = [0.0, -9.81, 0.0]
//! substeps = 8                  # 1 to 64
//! push_iterations = 1           # soft sweeps per substep, 1 to 16
//! relax_iterations = 1          # rigid sweeps per substep, 1 to 16
//! contact_hertz = 50.0          # contact spring frequency, (0, 1000]
//! contact_recycling = true      # move touching manifolds instead of recomputing
//! sleep = true
//!
//! [[body]]
//! kind = "dynamic"              # or "static"; default "dynamic"
//! shape = { type = "cuboid", half_extents = [0.5, 0.5, 0.5] }
//! # or { type = "sphere", radius = 0.5 }
//! # or { type = "capsule", half_height = 0.5, radius = 0.3 }   (along local Y)
//! # or { type = "hull", points = [[x, y, z], ...] }
//! position = [0.0, 0.5, 0.0]    # default origin
//! rotation = { euler = [0.1, 0.2, 0.3] }   # roll, pitch, yaw (radians), nalgebra's
//! # or rotation = { quaternion = [1.0, 0.0, 0.0, 0.0] }   # w, x, y, z; normalised
//! linear_velocity = [0.0, 0.0, 0.0]
//! angular_velocity = [0.0, 0.0, 0.0]
//! density = 1000.0
//! friction = 0.6
//! restitution = 0.0
//! repeat = { count = [1, 5, 1], step = [0.0, 1.0, 0.0] }   # optional grid
//! ```

use core::fmt;
use core::ops::Range;

use collide::nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use collide::{Capsule, ConvexHull, Cuboid, HullError, Shape, Sphere};
use serde::Deserialize;
use toml::Spanned;

use crate::body::{BodyDesc, BodyId};
use crate::error::WorldError;
use crate::scenes::add_ground;
use crate::settings::StepSettings;
use crate::world::{WORLD_BOUND, World};

/// Most bodies one scene file may create, counting every repeat: the same
/// cap as `sandbox bench --size`, beyond which a world would need more memory
/// than a benchmark machine is expected to have.
pub const MAX_SCENE_FILE_BODIES: usize = 1_000_000;

/// Most substeps a scene file may ask for. Box2D uses 4; 64 already costs
/// sixteen times as much, and more only hides a badly scaled scene.
pub const MAX_SUBSTEPS: u32 = 64;

/// Most push or relax sweeps per substep a scene file may ask for: the
/// default is 2, and past 16 a scene wants more substeps instead.
pub const MAX_ITERATIONS: u32 = 16;

/// Highest contact frequency a scene file may ask for (Hz). The solver caps
/// it at a quarter of the substep rate anyway (60 Hz at 4 substeps, 960 Hz
/// at 64); this only rejects values no substep count could honour.
pub const MAX_CONTACT_HERTZ: f32 = 1000.0;

/// A quaternion shorter than this cannot be normalised reliably in f32 (its
/// direction is lost to rounding), so it names no rotation. The written
/// quaternions this guards against are all-zero or nearly so; any
/// deliberately written rotation has a norm of order one.
const MIN_QUATERNION_NORM: f64 = 1e-6;

/// A 1-based line and column (counted in characters) in a scene file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Line number, from 1.
    pub line: usize,
    /// Column number, from 1, in characters (not bytes).
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

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
    /// The file asks for more than [`MAX_SCENE_FILE_BODIES`] bodies.
    TooManyBodies {
        /// The body (or repeat) that crossed the cap.
        location: Location,
        /// Bodies requested up to and including that entry.
        count: u64,
    },
    /// The world refused a body while building.
    World {
        /// The body's `[[body]]` entry.
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
            Self::NonFinite { location, .. }
            | Self::OutOfRange { location, .. }
            | Self::Shape { location, .. }
            | Self::Rotation { location, .. }
            | Self::Hull { location, .. }
            | Self::TooManyBodies { location, .. }
            | Self::World { location, .. } => Some(*location),
        }
    }

    /// The error as a compiler would print it for the file at `path`:
    /// `path:line:column: message`.
    pub fn in_file<'a>(&'a self, path: &'a str) -> impl fmt::Display + 'a {
        InFile { error: self, path }
    }

    fn write_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            Self::Shape { message, .. } | Self::Rotation { message, .. } => f.write_str(message),
            Self::Hull { source, .. } => write!(f, "bad hull: {source}"),
            Self::TooManyBodies { count, .. } => write!(
                f,
                "the file asks for {count} bodies, more than the {MAX_SCENE_FILE_BODIES} allowed"
            ),
            Self::World { source, .. } => write!(f, "the world refused this body: {source}"),
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
        self.error.write_message(f)
    }
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
            Self::World { source, .. } => Some(source),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Raw, spanned form: exactly what serde reads, before validation.

type RawNumber = Spanned<f64>;
type RawVec3 = Spanned<[RawNumber; 3]>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    ground: Option<bool>,
    settings: Option<RawSettings>,
    #[serde(default)]
    body: Vec<Spanned<RawBody>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    gravity: Option<RawVec3>,
    substeps: Option<Spanned<i64>>,
    push_iterations: Option<Spanned<i64>>,
    relax_iterations: Option<Spanned<i64>>,
    contact_hertz: Option<RawNumber>,
    contact_recycling: Option<bool>,
    sleep: Option<bool>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RawKind {
    Dynamic,
    Static,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBody {
    kind: Option<RawKind>,
    shape: Spanned<RawShape>,
    position: Option<RawVec3>,
    rotation: Option<Spanned<RawRotation>>,
    linear_velocity: Option<RawVec3>,
    angular_velocity: Option<RawVec3>,
    density: Option<RawNumber>,
    friction: Option<RawNumber>,
    restitution: Option<RawNumber>,
    repeat: Option<Spanned<RawRepeat>>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum RawShapeKind {
    Sphere,
    Cuboid,
    Capsule,
    Hull,
}

impl RawShapeKind {
    fn name(self) -> &'static str {
        match self {
            Self::Sphere => "sphere",
            Self::Cuboid => "cuboid",
            Self::Capsule => "capsule",
            Self::Hull => "hull",
        }
    }
}

/// One struct for every shape type, so that each parameter keeps its span;
/// which parameters a type takes is checked after parsing.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShape {
    #[serde(rename = "type")]
    kind: Spanned<RawShapeKind>,
    radius: Option<RawNumber>,
    half_extents: Option<RawVec3>,
    half_height: Option<RawNumber>,
    points: Option<Spanned<Vec<RawVec3>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRotation {
    euler: Option<RawVec3>,
    quaternion: Option<Spanned<[RawNumber; 4]>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRepeat {
    count: Spanned<[Spanned<i64>; 3]>,
    step: RawVec3,
}

// ---------------------------------------------------------------------------
// Locations.

/// Turns byte offsets into lines and columns.
struct Locator<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { text, line_starts }
    }

    fn at(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        // The last line starting at or before `offset` (line_starts[0] = 0).
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.line_starts[line];
        // A span never splits a character, but be safe: count the characters
        // of the longest valid prefix.
        let column = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        Location { line: line + 1, column: column + 1 }
    }

    /// For the rare parser error that carries no span (toml's "recursion
    /// limit" on an over-long dotted key): the first line whose inclusion
    /// makes a plain TOML parse fail without a span, found by bisecting on
    /// whole-line prefixes (assuming, as for that error, that once a prefix
    /// fails so, every longer one does). `None` if bisection finds no such
    /// line, rather than a guess.
    fn first_spanless_line(&self) -> Option<Location> {
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
        Some(Location { line: hi, column: 1 })
    }

    fn span(&self, span: Range<usize>) -> Location {
        self.at(span.start)
    }

    fn of<T>(&self, value: &Spanned<T>) -> Location {
        self.span(value.span())
    }
}

// ---------------------------------------------------------------------------
// Validation helpers.

fn within_world_bound() -> String {
    format!("within the world bound (|x| <= {WORLD_BOUND} m)")
}

impl Locator<'_> {
    /// A finite number that fits an f32.
    fn number(&self, n: &RawNumber, what: &str) -> Result<f32, SceneFileError> {
        let v = *n.get_ref();
        // Written so that NaN fails: `!(|v| <= MAX)`.
        if !(v.abs() <= f64::from(f32::MAX)) {
            return Err(SceneFileError::NonFinite {
                location: self.of(n),
                what: what.to_owned(),
                value: v,
            });
        }
        Ok(v as f32)
    }

    /// A finite number that satisfies `ok`, described by `expected`.
    fn number_in(
        &self,
        n: &RawNumber,
        what: &str,
        ok: impl Fn(f32) -> bool,
        expected: &str,
    ) -> Result<f32, SceneFileError> {
        let v = self.number(n, what)?;
        if ok(v) {
            Ok(v)
        } else {
            Err(SceneFileError::OutOfRange {
                location: self.of(n),
                what: what.to_owned(),
                value: *n.get_ref(),
                expected: expected.to_owned(),
            })
        }
    }

    fn vector(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = v.get_ref();
        Ok(Vector3::new(
            self.number(x, &format!("{what}[0]"))?,
            self.number(y, &format!("{what}[1]"))?,
            self.number(z, &format!("{what}[2]"))?,
        ))
    }

    fn positive_vector(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = v.get_ref();
        let mut out = Vector3::zeros();
        for (i, n) in [x, y, z].into_iter().enumerate() {
            out[i] = self.number_in(n, &format!("{what}[{i}]"), |v| v > 0.0, "positive")?;
        }
        Ok(out)
    }

    /// A position: finite and inside the world's bound.
    fn position(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = v.get_ref();
        let mut out = Vector3::zeros();
        for (i, n) in [x, y, z].into_iter().enumerate() {
            out[i] = self.number_in(
                n,
                &format!("{what}[{i}]"),
                |v| v.abs() <= WORLD_BOUND,
                &within_world_bound(),
            )?;
        }
        Ok(out)
    }

    fn settings(&self, raw: &RawSettings) -> Result<SettingsOverrides, SceneFileError> {
        let gravity = raw.gravity.as_ref().map(|g| self.vector(g, "gravity")).transpose()?;
        let count = |raw: &Option<Spanned<i64>>, what: &str, max: u32| {
            raw.as_ref().map(|s| self.whole_number(s, what, max)).transpose()
        };
        let substeps = count(&raw.substeps, "substeps", MAX_SUBSTEPS)?;
        let push_iterations = count(&raw.push_iterations, "push_iterations", MAX_ITERATIONS)?;
        let relax_iterations = count(&raw.relax_iterations, "relax_iterations", MAX_ITERATIONS)?;
        let contact_hertz = raw
            .contact_hertz
            .as_ref()
            .map(|n| {
                self.number_in(
                    n,
                    "contact_hertz",
                    |v| v > 0.0 && v <= MAX_CONTACT_HERTZ,
                    &format!("a frequency above 0 and at most {MAX_CONTACT_HERTZ} Hz"),
                )
            })
            .transpose()?;
        Ok(SettingsOverrides {
            gravity,
            substeps,
            push_iterations,
            relax_iterations,
            contact_hertz,
            contact_recycling: raw.contact_recycling,
            sleep: raw.sleep,
        })
    }

    /// A whole number from 1 to `max`.
    fn whole_number(&self, s: &Spanned<i64>, what: &str, max: u32) -> Result<u32, SceneFileError> {
        let v = *s.get_ref();
        match u32::try_from(v) {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(SceneFileError::OutOfRange {
                location: self.of(s),
                what: what.to_owned(),
                value: v as f64,
                expected: format!("a whole number from 1 to {max}"),
            }),
        }
    }

    fn shape(&self, raw: &Spanned<RawShape>) -> Result<Shape, SceneFileError> {
        let s = raw.get_ref();
        let kind = *s.kind.get_ref();
        let name = kind.name();
        // Which parameters each type takes; anything else is a mistake.
        let given: [(&str, Option<Range<usize>>); 4] = [
            ("radius", s.radius.as_ref().map(Spanned::span)),
            ("half_extents", s.half_extents.as_ref().map(Spanned::span)),
            ("half_height", s.half_height.as_ref().map(Spanned::span)),
            ("points", s.points.as_ref().map(Spanned::span)),
        ];
        let takes: &[&str] = match kind {
            RawShapeKind::Sphere => &["radius"],
            RawShapeKind::Cuboid => &["half_extents"],
            RawShapeKind::Capsule => &["half_height", "radius"],
            RawShapeKind::Hull => &["points"],
        };
        for (key, span) in &given {
            if let Some(span) = span
                && !takes.contains(key)
            {
                return Err(SceneFileError::Shape {
                    location: self.span(span.clone()),
                    message: format!("`{key}` does not apply to a {name}"),
                });
            }
        }
        let missing = |key: &str| SceneFileError::Shape {
            location: self.of(raw),
            message: format!("a {name} needs `{key}`"),
        };
        Ok(match kind {
            RawShapeKind::Sphere => {
                let r = s.radius.as_ref().ok_or_else(|| missing("radius"))?;
                Sphere::new(self.number_in(r, "sphere radius", |v| v > 0.0, "positive")?).into()
            }
            RawShapeKind::Cuboid => {
                let h = s.half_extents.as_ref().ok_or_else(|| missing("half_extents"))?;
                Cuboid::new(self.positive_vector(h, "cuboid half_extents")?).into()
            }
            RawShapeKind::Capsule => {
                let hh = s.half_height.as_ref().ok_or_else(|| missing("half_height"))?;
                let r = s.radius.as_ref().ok_or_else(|| missing("radius"))?;
                let hh =
                    self.number_in(hh, "capsule half_height", |v| v >= 0.0, "zero or positive")?;
                let r = self.number_in(r, "capsule radius", |v| v > 0.0, "positive")?;
                Capsule::new(hh, r).into()
            }
            RawShapeKind::Hull => {
                let points = s.points.as_ref().ok_or_else(|| missing("points"))?;
                let mut cloud = Vec::with_capacity(points.get_ref().len());
                for (i, p) in points.get_ref().iter().enumerate() {
                    cloud.push(Point3::from(self.vector(p, &format!("hull points[{i}]"))?));
                }
                ConvexHull::new(&cloud)
                    .map_err(|source| SceneFileError::Hull { location: self.of(points), source })?
                    .into()
            }
        })
    }

    fn rotation(&self, raw: &Spanned<RawRotation>) -> Result<UnitQuaternion<f32>, SceneFileError> {
        let r = raw.get_ref();
        match (&r.euler, &r.quaternion) {
            (Some(e), None) => {
                let [roll, pitch, yaw] = e.get_ref();
                Ok(UnitQuaternion::from_euler_angles(
                    self.number(roll, "euler roll")?,
                    self.number(pitch, "euler pitch")?,
                    self.number(yaw, "euler yaw")?,
                ))
            }
            (None, Some(q)) => {
                let [w, x, y, z] = q.get_ref();
                for (c, name) in [
                    (w, "quaternion w"),
                    (x, "quaternion x"),
                    (y, "quaternion y"),
                    (z, "quaternion z"),
                ] {
                    self.number(c, name)?;
                }
                // Measured in f64 so that large finite components cannot
                // overflow the norm; NaN cannot reach here.
                let norm = [w, x, y, z].iter().map(|c| c.get_ref().powi(2)).sum::<f64>().sqrt();
                if !(norm >= MIN_QUATERNION_NORM) {
                    return Err(SceneFileError::Rotation {
                        location: self.of(q),
                        message: format!(
                            "a quaternion needs a norm of at least {MIN_QUATERNION_NORM:e} to \
                             name a rotation, got {norm:e}"
                        ),
                    });
                }
                // Normalised in f64 first, so the f32 normalisation cannot
                // overflow or lose a tiny quaternion's direction.
                let q = Quaternion::new(
                    (w.get_ref() / norm) as f32,
                    (x.get_ref() / norm) as f32,
                    (y.get_ref() / norm) as f32,
                    (z.get_ref() / norm) as f32,
                );
                Ok(UnitQuaternion::from_quaternion(q))
            }
            (Some(_), Some(_)) => Err(SceneFileError::Rotation {
                location: self.of(raw),
                message: "a rotation takes `euler` or `quaternion`, not both".to_owned(),
            }),
            (None, None) => Err(SceneFileError::Rotation {
                location: self.of(raw),
                message: "a rotation needs `euler = [roll, pitch, yaw]` or \
                          `quaternion = [w, x, y, z]`"
                    .to_owned(),
            }),
        }
    }

    fn repeat(
        &self,
        raw: &Spanned<RawRepeat>,
        position: &Vector3<f32>,
    ) -> Result<Repeat, SceneFileError> {
        let r = raw.get_ref();
        let mut count = [0u32; 3];
        for (i, c) in r.count.get_ref().iter().enumerate() {
            let v = *c.get_ref();
            count[i] = match u32::try_from(v) {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(SceneFileError::OutOfRange {
                        location: self.of(c),
                        what: format!("repeat count[{i}]"),
                        value: v as f64,
                        expected: "a whole number of at least 1".to_owned(),
                    });
                }
            };
        }
        let step = self.vector(&r.step, "repeat step")?;
        // The grid is linear in the index, so its extreme positions are the
        // first and the last: both must stay inside the world bound.
        for i in 0..3 {
            let last = position[i] + step[i] * (count[i] - 1) as f32;
            if !(last.abs() <= WORLD_BOUND) {
                return Err(SceneFileError::OutOfRange {
                    location: self.of(&r.step.get_ref()[i]),
                    what: format!("the last repeated position[{i}]"),
                    value: f64::from(last),
                    expected: within_world_bound(),
                });
            }
        }
        Ok(Repeat { count, step })
    }

    fn body(&self, raw: &Spanned<RawBody>) -> Result<Entry, SceneFileError> {
        let b = raw.get_ref();
        let shape = self.shape(&b.shape)?;
        let mut desc = match b.kind.unwrap_or(RawKind::Dynamic) {
            RawKind::Dynamic => BodyDesc::dynamic(shape),
            RawKind::Static => BodyDesc::fixed(shape),
        };
        if let Some(p) = &b.position {
            desc.pose.translation.vector = self.position(p, "position")?;
        }
        if let Some(r) = &b.rotation {
            desc.pose.rotation = self.rotation(r)?;
        }
        if let Some(v) = &b.linear_velocity {
            desc.linear_velocity = self.vector(v, "linear_velocity")?;
        }
        if let Some(w) = &b.angular_velocity {
            desc.angular_velocity = self.vector(w, "angular_velocity")?;
        }
        if let Some(d) = &b.density {
            desc.density = self.number_in(d, "density", |v| v > 0.0, "positive")?;
        }
        if let Some(f) = &b.friction {
            desc.friction = self.number_in(f, "friction", |v| v >= 0.0, "zero or positive")?;
        }
        if let Some(e) = &b.restitution {
            desc.restitution =
                self.number_in(e, "restitution", |v| (0.0..=1.0).contains(&v), "in [0, 1]")?;
        }
        let repeat =
            b.repeat.as_ref().map(|r| self.repeat(r, &desc.pose.translation.vector)).transpose()?;
        Ok(Entry { location: self.of(raw), desc, repeat })
    }
}

// ---------------------------------------------------------------------------
// The validated scene.

/// Step settings the file sets; the rest keep their values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SettingsOverrides {
    gravity: Option<Vector3<f32>>,
    substeps: Option<u32>,
    push_iterations: Option<u32>,
    relax_iterations: Option<u32>,
    contact_hertz: Option<f32>,
    contact_recycling: Option<bool>,
    sleep: Option<bool>,
}

/// A grid of copies: `count` along x, y and z, `step` apart.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Repeat {
    count: [u32; 3],
    step: Vector3<f32>,
}

impl Repeat {
    fn len(&self) -> u64 {
        self.count.iter().map(|&c| u64::from(c)).product()
    }
}

/// One validated `[[body]]` entry.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    location: Location,
    desc: BodyDesc,
    repeat: Option<Repeat>,
}

impl Entry {
    fn len(&self) -> u64 {
        self.repeat.map_or(1, |r| r.len())
    }
}

/// A parsed and validated scene file: see the [module](self) for the format.
///
/// Parsing checks everything that can be checked without a world, so
/// [`build`](SceneFile::build) fails only if the world refuses a body (for
/// example a shape so large its mass overflows).
///
/// ```
/// use sandbox::{SceneFile, StepSettings, World};
/// let scene = SceneFile::parse(r#"
/// [settings]
/// sleep = false
///
/// [[body]]
/// shape = { type = "sphere", radius = 0.5 }
/// position = [0.0, 3.0, 0.0]
/// restitution = 0.5
///
/// [[body]]
/// shape = { type = "cuboid", half_extents = [0.5, 0.5, 0.5] }
/// repeat = { count = [3, 1, 1], step = [2.0, 0.0, 0.0] }
/// position = [-2.0, 0.5, 0.0]
/// "#).unwrap();
/// assert_eq!(scene.body_count(), 4);
///
/// let mut world = World::with_settings(scene.step_settings(StepSettings::default()));
/// let bodies = scene.build(&mut world).unwrap();
/// assert_eq!(bodies.len(), 4);
/// assert_eq!(world.body_count(), 5); // and the ground
/// assert!(!world.settings().sleep_enabled);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SceneFile {
    ground: bool,
    settings: SettingsOverrides,
    entries: Vec<Entry>,
}

impl SceneFile {
    /// Parses and validates the TOML text of a scene file.
    ///
    /// # Errors
    /// A [`SceneFileError`] naming the line and column of the first problem:
    /// bad TOML, an unknown or missing key, a value of the wrong type, a
    /// non-finite or out-of-range number, a shape parameter that is missing
    /// or does not apply, a bad rotation, a hull that encloses no volume, or
    /// more than [`MAX_SCENE_FILE_BODIES`] bodies.
    ///
    /// ```
    /// use sandbox::SceneFile;
    /// let text = "[[body]]\nshape = { type = \"sphere\", radius = 0.5 }\nmass = 3\n";
    /// let err = SceneFile::parse(text).unwrap_err();
    /// assert_eq!(err.location().map(|l| (l.line, l.column)), Some((3, 1)));
    /// assert!(err.to_string().starts_with("line 3, column 1: unknown field `mass`"));
    /// ```
    pub fn parse(text: &str) -> Result<Self, SceneFileError> {
        let locator = Locator::new(text);
        let raw: RawFile = toml::from_str(text).map_err(|e| SceneFileError::Syntax {
            location: e.span().map(|s| locator.span(s)).or_else(|| locator.first_spanless_line()),
            message: e.message().trim_end().to_owned(),
        })?;
        let settings =
            raw.settings.as_ref().map(|s| locator.settings(s)).transpose()?.unwrap_or_default();
        let mut entries = Vec::with_capacity(raw.body.len());
        let mut total = 0u64;
        for b in &raw.body {
            let entry = locator.body(b)?;
            total = total.saturating_add(entry.len());
            if total > MAX_SCENE_FILE_BODIES as u64 {
                return Err(SceneFileError::TooManyBodies {
                    location: entry.location,
                    count: total,
                });
            }
            entries.push(entry);
        }
        Ok(Self { ground: raw.ground.unwrap_or(true), settings, entries })
    }

    /// Whether [`build`](SceneFile::build) adds the SCENES.md ground (the
    /// file's `ground` key; true when absent).
    pub fn has_ground(&self) -> bool {
        self.ground
    }

    /// How many bodies [`build`](SceneFile::build) creates, counting repeats
    /// and leaving out the ground.
    pub fn body_count(&self) -> usize {
        // Bounded by MAX_SCENE_FILE_BODIES at parse time.
        self.entries.iter().map(Entry::len).sum::<u64>() as usize
    }

    /// `base` with the file's `[settings]` (gravity, substeps, solver
    /// sweeps, contact frequency, sleep) laid over it.
    ///
    /// ```
    /// use sandbox::{SceneFile, StepSettings};
    /// let scene = SceneFile::parse("[settings]\nsubsteps = 8\n").unwrap();
    /// let settings = scene.step_settings(StepSettings::default());
    /// assert_eq!(settings.substeps, 8);
    /// assert!(settings.sleep_enabled); // not named in the file: kept
    /// ```
    pub fn step_settings(&self, base: StepSettings) -> StepSettings {
        let o = &self.settings;
        StepSettings {
            gravity: o.gravity.unwrap_or(base.gravity),
            substeps: o.substeps.unwrap_or(base.substeps),
            push_iterations: o.push_iterations.unwrap_or(base.push_iterations),
            relax_iterations: o.relax_iterations.unwrap_or(base.relax_iterations),
            contact_hertz: o.contact_hertz.unwrap_or(base.contact_hertz),
            contact_recycling: o.contact_recycling.unwrap_or(base.contact_recycling),
            sleep_enabled: o.sleep.unwrap_or(base.sleep_enabled),
            ..base
        }
    }

    /// The description of every body, in creation order, repeats expanded
    /// (`x` fastest, then `z`, then `y`, so a grid fills layer by layer from
    /// the bottom, as the falling-boxes scene does).
    ///
    /// ```
    /// use sandbox::SceneFile;
    /// let scene = SceneFile::parse(r#"
    /// [[body]]
    /// shape = { type = "sphere", radius = 0.25 }
    /// repeat = { count = [2, 2, 1], step = [1.0, 1.0, 0.0] }
    /// "#).unwrap();
    /// let xy: Vec<_> = scene.bodies().map(|b| (b.pose.translation.x, b.pose.translation.y)).collect();
    /// assert_eq!(xy, [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]);
    /// ```
    pub fn bodies(&self) -> impl Iterator<Item = BodyDesc> + '_ {
        self.entries.iter().flat_map(|e| expand(e).map(|(_, d)| d))
    }

    /// Adds the ground (unless the file turns it off), then every body in
    /// the order of [`bodies`](SceneFile::bodies), and returns the bodies'
    /// handles (not the ground's), static ones included. The world's
    /// settings are left alone: create the world with
    /// [`step_settings`](SceneFile::step_settings) to apply the file's.
    ///
    /// # Errors
    /// [`SceneFileError::World`] at the `[[body]]` entry the world refused.
    /// Bodies added before the refusal stay in the world.
    pub fn build(&self, world: &mut World) -> Result<Vec<BodyId>, SceneFileError> {
        if self.ground {
            // The ground is a fixed static box, which the world accepts; were
            // it refused, the file's start is the best place to point at.
            add_ground(world).map_err(|source| SceneFileError::World {
                location: Location { line: 1, column: 1 },
                source,
            })?;
        }
        let mut ids = Vec::with_capacity(self.body_count());
        for e in &self.entries {
            for (location, desc) in expand(e) {
                ids.push(
                    world
                        .add_body(desc)
                        .map_err(|source| SceneFileError::World { location, source })?,
                );
            }
        }
        Ok(ids)
    }
}

/// The bodies of one entry, with the entry's location.
fn expand(e: &Entry) -> impl Iterator<Item = (Location, BodyDesc)> + '_ {
    let repeat = e.repeat.unwrap_or(Repeat { count: [1, 1, 1], step: Vector3::zeros() });
    let [nx, ny, nz] = repeat.count;
    (0..ny).flat_map(move |j| {
        (0..nz).flat_map(move |k| {
            (0..nx).map(move |i| {
                let mut desc = e.desc.clone();
                if e.repeat.is_some() {
                    let offset = Vector3::new(
                        repeat.step.x * i as f32,
                        repeat.step.y * j as f32,
                        repeat.step.z * k as f32,
                    );
                    desc.pose.translation.vector += offset;
                }
                (e.location, desc)
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locator_counts_lines_and_characters_from_one() {
        let text = "ab\nçd\n\nx";
        let l = Locator::new(text);
        assert_eq!(l.at(0), Location { line: 1, column: 1 });
        assert_eq!(l.at(2), Location { line: 1, column: 3 });
        assert_eq!(l.at(3), Location { line: 2, column: 1 });
        // 'ç' is two bytes: the 'd' after it is the second character.
        assert_eq!(l.at(5), Location { line: 2, column: 2 });
        assert_eq!(l.at(7), Location { line: 3, column: 1 });
        assert_eq!(l.at(8), Location { line: 4, column: 1 });
        assert_eq!(l.at(100), Location { line: 4, column: 2 });
    }
}
