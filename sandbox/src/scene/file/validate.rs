//! Validation of a scene file's raw values: finite numbers that fit an
//! `f32`, positive sizes, positions inside the world bound, a rotation that
//! is a rotation, a hull that encloses volume, settings within their
//! limits. Numbers are read as `f64` and narrowed to `f32` only after
//! checking that they fit, so `1e300` is reported as out of range rather
//! than silently becoming infinity.

use core::ops::Range;

use collide::nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use collide::{Capsule, ConvexHull, Cuboid, Shape, Sphere};
use toml::Spanned;

use crate::body::BodyDesc;
use crate::scene::file::error::SceneFileError;
use crate::scene::file::location::{Location, Locator};
use crate::scene::file::raw::{
    RawBody, RawKind, RawNumber, RawRepeat, RawRotation, RawSettings, RawShape, RawShapeKind,
    RawVec3,
};
use crate::world::WORLD_BOUND;

/// Most substeps a scene file may ask for: eight times the default (see
/// [`StepSettings::default`](crate::StepSettings::default)); past that, more only hides a badly scaled
/// scene.
pub const MAX_SUBSTEPS: u32 = 64;

/// Most push or relax sweeps per substep a scene file may ask for (the
/// defaults are in [`StepSettings::default`](crate::StepSettings::default)); past 16 a scene wants more
/// substeps instead.
pub const MAX_ITERATIONS: u32 = 16;

/// Highest contact frequency a scene file may ask for (Hz). The solver caps
/// it at a quarter of the substep rate anyway (60 Hz at 4 substeps, 960 Hz
/// at 64); this only rejects values no substep count could honour.
pub const MAX_CONTACT_HERTZ: f32 = 1000.0;

/// The most points one hull of a scene file may list. Far more than a
/// hand-written or exported convex piece needs (a hull of 10,000 points on
/// a sphere keeps most of them as vertices), and it bounds the work of
/// building each hull; with [`MAX_SCENE_FILE_BYTES`](super::MAX_SCENE_FILE_BYTES)
/// it bounds the hull work of a whole file.
pub const MAX_HULL_POINTS: usize = 10_000;

/// A quaternion shorter than this cannot be normalised reliably in f32 (its
/// direction is lost to rounding), so it names no rotation. The written
/// quaternions this guards against are all-zero or nearly so; any
/// deliberately written rotation has a norm of order one.
const MIN_QUATERNION_NORM: f64 = 1e-6;

fn within_world_bound() -> String {
    format!("within the world bound (|x| <= {WORLD_BOUND} m)")
}

/// Checks the raw values and turns them into the scene's types, naming the
/// location of the first bad one.
pub(super) struct Validator<'a> {
    /// Where each raw value sits in the text.
    pub locator: Locator<'a>,
}

impl Validator<'_> {
    /// A finite number that fits an f32.
    fn number(&self, n: &RawNumber, what: &str) -> Result<f32, SceneFileError> {
        let v = *n.get_ref();
        // Written so that NaN fails: `!(|v| <= MAX)`.
        if !(v.abs() <= f64::from(f32::MAX)) {
            return Err(SceneFileError::NonFinite {
                location: self.locator.of(n),
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
                location: self.locator.of(n),
                what: what.to_owned(),
                value: *n.get_ref(),
                expected: expected.to_owned(),
            })
        }
    }

    fn vector(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = &v.get_ref().0;
        Ok(Vector3::new(
            self.number(x, &format!("{what}[0]"))?,
            self.number(y, &format!("{what}[1]"))?,
            self.number(z, &format!("{what}[2]"))?,
        ))
    }

    fn positive_vector(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = &v.get_ref().0;
        let mut out = Vector3::zeros();
        for (i, n) in [x, y, z].into_iter().enumerate() {
            out[i] = self.number_in(n, &format!("{what}[{i}]"), |v| v > 0.0, "positive")?;
        }
        Ok(out)
    }

    /// A position: finite and inside the world's bound.
    fn position(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = &v.get_ref().0;
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

    pub fn settings(&self, raw: &RawSettings) -> Result<SettingsOverrides, SceneFileError> {
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
                location: self.locator.of(s),
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
                    location: self.locator.span(span.clone()),
                    message: format!("`{key}` does not apply to a {name}"),
                });
            }
        }
        let missing = |key: &str| SceneFileError::Shape {
            location: self.locator.of(raw),
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
                if points.get_ref().len() > MAX_HULL_POINTS {
                    return Err(SceneFileError::TooManyHullPoints {
                        location: self.locator.of(points),
                        count: points.get_ref().len(),
                    });
                }
                let mut cloud = Vec::with_capacity(points.get_ref().len());
                for (i, p) in points.get_ref().iter().enumerate() {
                    cloud.push(Point3::from(self.vector(p, &format!("hull points[{i}]"))?));
                }
                ConvexHull::new(&cloud)
                    .map_err(|source| SceneFileError::Hull {
                        location: self.locator.of(points),
                        source,
                    })?
                    .into()
            }
        })
    }

    fn rotation(&self, raw: &Spanned<RawRotation>) -> Result<UnitQuaternion<f32>, SceneFileError> {
        let r = raw.get_ref();
        match (&r.euler, &r.quaternion) {
            (Some(e), None) => {
                let [roll, pitch, yaw] = &e.get_ref().0;
                Ok(UnitQuaternion::from_euler_angles(
                    self.number(roll, "euler roll")?,
                    self.number(pitch, "euler pitch")?,
                    self.number(yaw, "euler yaw")?,
                ))
            }
            (None, Some(q)) => {
                let [w, x, y, z] = &q.get_ref().0;
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
                        location: self.locator.of(q),
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
                location: self.locator.of(raw),
                message: "a rotation takes `euler` or `quaternion`, not both".to_owned(),
            }),
            (None, None) => Err(SceneFileError::Rotation {
                location: self.locator.of(raw),
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
        for (i, c) in r.count.get_ref().0.iter().enumerate() {
            let v = *c.get_ref();
            count[i] = match u32::try_from(v) {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(SceneFileError::OutOfRange {
                        location: self.locator.of(c),
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
                    location: self.locator.of(&r.step.get_ref().0[i]),
                    what: format!("the last repeated position[{i}]"),
                    value: f64::from(last),
                    expected: within_world_bound(),
                });
            }
        }
        Ok(Repeat { count, step })
    }

    pub fn body(&self, raw: &Spanned<RawBody>) -> Result<Entry, SceneFileError> {
        let b = raw.get_ref();
        let shape = self.shape(&b.shape)?;
        let kind = b.kind.unwrap_or(RawKind::Dynamic);
        if let (RawKind::Dynamic, Shape::ConvexHull(hull)) = (kind, &shape)
            && hull.is_flat()
        {
            // A flat hull is a valid shape, but it has no volume, so no mass.
            let at = b
                .shape
                .get_ref()
                .points
                .as_ref()
                .map_or(self.locator.of(&b.shape), |p| self.locator.of(p));
            return Err(SceneFileError::Shape {
                location: at,
                message: "these hull points are coplanar: a flat hull has no volume, so it \
                          cannot be dynamic (make the body `kind = \"fixed\"`)"
                    .to_owned(),
            });
        }
        let mut desc = match kind {
            RawKind::Dynamic => BodyDesc::dynamic(shape),
            RawKind::Fixed => BodyDesc::fixed(shape),
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
        Ok(Entry { location: self.locator.of(raw), desc, repeat })
    }
}

/// Step settings the file sets; the rest keep their values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct SettingsOverrides {
    pub(super) gravity: Option<Vector3<f32>>,
    pub(super) substeps: Option<u32>,
    pub(super) push_iterations: Option<u32>,
    pub(super) relax_iterations: Option<u32>,
    pub(super) contact_hertz: Option<f32>,
    pub(super) contact_recycling: Option<bool>,
    pub(super) sleep: Option<bool>,
}

/// A grid of copies: `count` along x, y and z, `step` apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Repeat {
    pub(super) count: [u32; 3],
    pub(super) step: Vector3<f32>,
}

impl Repeat {
    pub fn len(&self) -> u64 {
        self.count.iter().map(|&c| u64::from(c)).product()
    }
}

/// One validated `[[body]]` entry.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Entry {
    pub(super) location: Location,
    pub(super) desc: BodyDesc,
    pub(super) repeat: Option<Repeat>,
}

impl Entry {
    pub fn len(&self) -> u64 {
        self.repeat.map_or(1, |r| r.len())
    }
}
