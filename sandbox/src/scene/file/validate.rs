//! Validation of a scene file's raw values: finite numbers that fit an
//! `f32`, positive sizes, positions inside the world bound, a rotation that
//! is a rotation, a hull that encloses volume, settings within their
//! limits. Numbers are read as `f64` and narrowed to `f32` only after
//! checking that they fit, so `1e300` is reported as out of range rather
//! than silently becoming infinity. Each value is held to the same rule as
//! in the API ([`BodyField::rule`], [`Setting::rule`]), so a file and
//! [`World::add_body`](crate::World::add_body) accept the same bodies.

use core::ops::Range;

use collide::nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use collide::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Shape, Sphere, Triangle};
use toml::Spanned;

use crate::body::{BodyDesc, BodyShape, Filter};
use crate::error::{BodyField, Rule, Setting};
use crate::scene::file::error::SceneFileError;
use crate::scene::file::location::{Location, Locator};
use crate::scene::file::raw::{
    RawBody, RawBodyShape, RawFilter, RawKind, RawNumber, RawRepeat, RawRotation, RawSettings,
    RawShape, RawShapeKind, RawVec3,
};
use crate::world::WORLD_BOUND;

pub use crate::settings::{MAX_CONTACT_HERTZ, MAX_ITERATIONS, MAX_SUBSTEPS};

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
    Rule::WithinWorldBound.to_string()
}

/// Checks the raw values and turns them into the scene's types, naming the
/// location of the first bad one.
pub(super) struct Validator<'a> {
    /// Where each raw value sits in the text.
    pub locator: Locator<'a>,
}

impl Validator<'_> {
    /// A finite number that fits an f32.
    pub(super) fn number(&self, n: &RawNumber, what: &str) -> Result<f32, SceneFileError> {
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

    /// A finite number that follows `rule` (the API's rule for the same
    /// value, so files and the API accept the same numbers).
    pub(super) fn number_in(
        &self,
        n: &RawNumber,
        what: &str,
        rule: Rule,
    ) -> Result<f32, SceneFileError> {
        let v = self.number(n, what)?;
        if rule.admits(f64::from(v)) {
            Ok(v)
        } else {
            Err(SceneFileError::OutOfRange {
                location: self.locator.of(n),
                what: what.to_owned(),
                value: *n.get_ref(),
                expected: rule.to_string(),
            })
        }
    }

    pub(super) fn vector(&self, v: &RawVec3, what: &str) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = &v.get_ref().0;
        Ok(Vector3::new(
            self.number(x, &format!("{what}[0]"))?,
            self.number(y, &format!("{what}[1]"))?,
            self.number(z, &format!("{what}[2]"))?,
        ))
    }

    /// A vector whose every component follows `rule`.
    pub(super) fn vector_in(
        &self,
        v: &RawVec3,
        what: &str,
        rule: Rule,
    ) -> Result<Vector3<f32>, SceneFileError> {
        let [x, y, z] = &v.get_ref().0;
        let mut out = Vector3::zeros();
        for (i, n) in [x, y, z].into_iter().enumerate() {
            out[i] = self.number_in(n, &format!("{what}[{i}]"), rule)?;
        }
        Ok(out)
    }

    pub fn settings(&self, raw: &RawSettings) -> Result<SettingsOverrides, SceneFileError> {
        let gravity = raw
            .gravity
            .as_ref()
            .map(|g| self.vector_in(g, "gravity", Setting::Gravity.rule()))
            .transpose()?;
        let count = |raw: &Option<Spanned<i64>>, setting: Setting| {
            raw.as_ref().map(|s| self.whole_number(s, setting)).transpose()
        };
        let substeps = count(&raw.substeps, Setting::Substeps)?;
        let push_iterations = count(&raw.push_iterations, Setting::PushIterations)?;
        let relax_iterations = count(&raw.relax_iterations, Setting::RelaxIterations)?;
        let contact_hertz = raw
            .contact_hertz
            .as_ref()
            .map(|n| self.number_in(n, "contact_hertz", Setting::ContactHertz.rule()))
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

    /// A whole number that follows `setting`'s rule.
    fn whole_number(&self, s: &Spanned<i64>, setting: Setting) -> Result<u32, SceneFileError> {
        let v = *s.get_ref();
        let rule = setting.rule();
        // Written so that a value past u32 fails before the rule is asked.
        match u32::try_from(v) {
            Ok(n) if rule.admits(f64::from(n)) => Ok(n),
            _ => Err(SceneFileError::OutOfRange {
                location: self.locator.of(s),
                what: setting.name().to_owned(),
                value: v as f64,
                expected: rule.to_string(),
            }),
        }
    }

    pub(super) fn shape(&self, raw: &Spanned<RawShape>) -> Result<Shape, SceneFileError> {
        let s = raw.get_ref();
        let kind = *s.kind.get_ref();
        let name = kind.name();
        // Which parameters each type takes; anything else is a mistake.
        let given: [(&str, Option<Range<usize>>); 10] = [
            ("radius", s.radius.as_ref().map(Spanned::span)),
            ("half_extents", s.half_extents.as_ref().map(Spanned::span)),
            ("half_height", s.half_height.as_ref().map(Spanned::span)),
            ("points", s.points.as_ref().map(Spanned::span)),
            ("shape", s.shape.as_ref().map(|inner| inner.span())),
            ("vertices", s.vertices.as_ref().map(Spanned::span)),
            ("triangles", s.triangles.as_ref().map(Spanned::span)),
            ("heights", s.heights.as_ref().map(Spanned::span)),
            ("cell", s.cell.as_ref().map(Spanned::span)),
            ("parts", s.parts.as_ref().map(Spanned::span)),
        ];
        let takes: &[&str] = match kind {
            RawShapeKind::Sphere => &["radius"],
            RawShapeKind::Cuboid => &["half_extents"],
            RawShapeKind::Capsule | RawShapeKind::Cylinder | RawShapeKind::Cone => {
                &["half_height", "radius"]
            }
            RawShapeKind::Hull | RawShapeKind::Triangle => &["points"],
            RawShapeKind::Rounded => &["radius", "shape"],
            RawShapeKind::Mesh => &["vertices", "triangles"],
            RawShapeKind::Heightfield => &["heights", "cell"],
            RawShapeKind::Compound => &["parts"],
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
            RawShapeKind::Mesh => self.mesh(raw)?,
            RawShapeKind::Heightfield => self.heightfield(raw)?,
            RawShapeKind::Compound => self.compound(raw)?,
            RawShapeKind::Sphere => {
                let r = s.radius.as_ref().ok_or_else(|| missing("radius"))?;
                let field = BodyField::SphereRadius;
                Sphere::new(self.number_in(r, field.name(), field.rule())?).into()
            }
            RawShapeKind::Cuboid => {
                let h = s.half_extents.as_ref().ok_or_else(|| missing("half_extents"))?;
                let field = BodyField::CuboidHalfExtents;
                Cuboid::new(self.vector_in(h, field.name(), field.rule())?).into()
            }
            RawShapeKind::Capsule => {
                let hh = s.half_height.as_ref().ok_or_else(|| missing("half_height"))?;
                let r = s.radius.as_ref().ok_or_else(|| missing("radius"))?;
                let (hh_field, r_field) = (BodyField::CapsuleHalfHeight, BodyField::CapsuleRadius);
                let hh = self.number_in(hh, hh_field.name(), hh_field.rule())?;
                let r = self.number_in(r, r_field.name(), r_field.rule())?;
                Capsule::new(hh, r).into()
            }
            RawShapeKind::Cylinder | RawShapeKind::Cone => {
                let hh = s.half_height.as_ref().ok_or_else(|| missing("half_height"))?;
                let r = s.radius.as_ref().ok_or_else(|| missing("radius"))?;
                let (hh_field, r_field) = if kind == RawShapeKind::Cylinder {
                    (BodyField::CylinderHalfHeight, BodyField::CylinderRadius)
                } else {
                    (BodyField::ConeHalfHeight, BodyField::ConeRadius)
                };
                let hh = self.number_in(hh, hh_field.name(), hh_field.rule())?;
                let r = self.number_in(r, r_field.name(), r_field.rule())?;
                if kind == RawShapeKind::Cylinder {
                    Cylinder::new(hh, r).into()
                } else {
                    Cone::new(hh, r).into()
                }
            }
            RawShapeKind::Triangle => {
                let points = s.points.as_ref().ok_or_else(|| missing("points"))?;
                let [a, b, c] = points.get_ref().as_slice() else {
                    return Err(SceneFileError::Shape {
                        location: self.locator.of(points),
                        message: format!(
                            "a triangle needs exactly 3 points, got {}",
                            points.get_ref().len()
                        ),
                    });
                };
                let field = BodyField::TrianglePoints;
                let mut corners = [Point3::origin(); 3];
                for (i, p) in [a, b, c].into_iter().enumerate() {
                    let what = format!("{}[{i}]", field.name());
                    corners[i] = Point3::from(self.vector_in(p, &what, field.rule())?);
                }
                let [a, b, c] = corners;
                Triangle::try_new(a, b, c)
                    .map_err(|e| SceneFileError::Shape {
                        location: self.locator.of(points),
                        message: e.to_string(),
                    })?
                    .into()
            }
            RawShapeKind::Rounded => {
                let r = s.radius.as_ref().ok_or_else(|| missing("radius"))?;
                let inner = s.shape.as_ref().ok_or_else(|| missing("shape"))?;
                let field = BodyField::RoundedRadius;
                let r = self.number_in(r, field.name(), field.rule())?;
                // One level of rounding: a rounded rounded shape is the inner
                // shape rounded by the sum, and refusing it bounds the
                // recursion.
                let inner_kind = *inner.get_ref().kind.get_ref();
                if inner_kind.is_composite() {
                    return Err(SceneFileError::Shape {
                        location: self.locator.of(&inner.get_ref().kind),
                        message: format!(
                            "a rounded shape rounds a convex shape, not a {}",
                            inner_kind.name()
                        ),
                    });
                }
                if inner_kind == RawShapeKind::Rounded {
                    return Err(SceneFileError::Shape {
                        location: self.locator.of(&inner.get_ref().kind),
                        message: "a rounded shape cannot round another rounded shape (round \
                                  the inner shape once, by the sum of the radii)"
                            .to_owned(),
                    });
                }
                Rounded::new(self.shape(inner)?, r).into()
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

    pub(super) fn rotation(
        &self,
        raw: &Spanned<RawRotation>,
    ) -> Result<UnitQuaternion<f32>, SceneFileError> {
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

    /// A shape a body of `kind` can have: a dynamic body's shapes need a
    /// volume (so a mass).
    fn body_shape(&self, kind: RawKind, raw: &Spanned<RawShape>) -> Result<Shape, SceneFileError> {
        let shape = self.shape(raw)?;
        if let (RawKind::Dynamic, Shape::ConvexHull(hull)) = (kind, &shape)
            && hull.is_flat()
        {
            // A flat hull is a valid shape, but it has no volume, so no mass.
            let at =
                raw.get_ref().points.as_ref().map_or(self.locator.of(raw), |p| self.locator.of(p));
            return Err(SceneFileError::Shape {
                location: at,
                message: "these hull points are coplanar: a flat hull has no volume, so it \
                          cannot be dynamic (make the body `kind = \"fixed\"`)"
                    .to_owned(),
            });
        }
        if let (RawKind::Dynamic, Shape::TriMesh(_) | Shape::HeightField(_)) = (kind, &shape) {
            // A surface: no volume, so no mass.
            return Err(SceneFileError::Shape {
                location: self.locator.of(raw),
                message: format!(
                    "a {} has no volume, so it cannot be dynamic (make the body `kind = \"fixed\"` \
                     or `kind = \"kinematic\"`)",
                    shape.kind_name()
                ),
            });
        }
        if let (RawKind::Dynamic, false) = (kind, shape.is_solid()) {
            // A triangle is a valid shape, but it has no volume, so no mass.
            return Err(SceneFileError::Shape {
                location: self.locator.of(raw),
                message: format!(
                    "a {} has no volume, so it cannot be dynamic (make the body \
                     `kind = \"fixed\"`, or give it a volume with `type = \"rounded\"`)",
                    shape.kind_name()
                ),
            });
        }
        Ok(shape)
    }

    /// A whole number of `raw` that fits `rule` (for the filter's bits
    /// and group), named `what`.
    fn whole_in(
        &self,
        raw: &Spanned<i64>,
        what: &str,
        min: i64,
        max: i64,
    ) -> Result<i64, SceneFileError> {
        let v = *raw.get_ref();
        if (min..=max).contains(&v) {
            Ok(v)
        } else {
            Err(SceneFileError::OutOfRange {
                location: self.locator.of(raw),
                what: what.to_owned(),
                value: v as f64,
                expected: format!("a whole number from {min} to {max}"),
            })
        }
    }

    /// A filter: each field as written, or `base`'s.
    fn filter(&self, raw: &Spanned<RawFilter>, base: Filter) -> Result<Filter, SceneFileError> {
        let f = raw.get_ref();
        let bits = |b: &Option<Spanned<i64>>, what: &str, default: u32| {
            b.as_ref()
                .map(|b| self.whole_in(b, what, 0, i64::from(u32::MAX)).map(|v| v as u32))
                .unwrap_or(Ok(default))
        };
        let group = f
            .group
            .as_ref()
            .map(|g| self.whole_in(g, "filter group", i64::from(i32::MIN), i64::from(i32::MAX)))
            .transpose()?
            .map_or(base.group, |g| g as i32);
        Ok(Filter {
            category: bits(&f.category, "filter category", base.category)?,
            mask: bits(&f.mask, "filter mask", base.mask)?,
            group,
        })
    }

    /// The material, filter and sensor flag given at `raw`'s level over
    /// `base`'s (a body's over the defaults, a shape's over its body's).
    fn shape_settings(
        &self,
        base: &BodyShape,
        material: RawMaterial<'_>,
        sensor: Option<bool>,
        filter: &Option<Spanned<RawFilter>>,
    ) -> Result<BodyShape, SceneFileError> {
        let mut out = base.clone();
        let RawMaterial { density, friction, restitution, rolling_resistance } = material;
        let material = [
            (density, BodyField::Density, &mut out.density),
            (friction, BodyField::Friction, &mut out.friction),
            (restitution, BodyField::Restitution, &mut out.restitution),
            (rolling_resistance, BodyField::RollingResistance, &mut out.rolling_resistance),
        ];
        for (raw, field, value) in material {
            if let Some(n) = raw {
                *value = self.number_in(n, field.name(), field.rule())?;
            }
        }
        out.sensor = sensor.unwrap_or(base.sensor);
        if let Some(f) = filter {
            out.filter = self.filter(f, base.filter)?;
        }
        Ok(out)
    }

    /// One entry of a body's `shapes`, over the body's defaults.
    fn shapes_entry(
        &self,
        kind: RawKind,
        raw: &Spanned<RawBodyShape>,
        base: &BodyShape,
    ) -> Result<BodyShape, SceneFileError> {
        let e = raw.get_ref();
        let material = RawMaterial {
            density: &e.density,
            friction: &e.friction,
            restitution: &e.restitution,
            rolling_resistance: &e.rolling_resistance,
        };
        let mut out = self.shape_settings(base, material, e.sensor, &e.filter)?;
        out.shape = self.body_shape(kind, &e.shape)?;
        if let Some(p) = &e.position {
            let field = BodyField::ShapePosition;
            out.local_pose.translation.vector = self.vector_in(p, field.name(), field.rule())?;
        }
        if let Some(r) = &e.rotation {
            out.local_pose.rotation = self.rotation(r)?;
        }
        Ok(out)
    }

    pub fn body(&self, raw: &Spanned<RawBody>) -> Result<Entry, SceneFileError> {
        let b = raw.get_ref();
        let kind = b.kind.unwrap_or(RawKind::Dynamic);
        // The body's defaults for its shapes; the shape is filled in below.
        let placeholder = BodyShape::new(Sphere::new(1.0).into());
        let material = RawMaterial {
            density: &b.density,
            friction: &b.friction,
            restitution: &b.restitution,
            rolling_resistance: &b.rolling_resistance,
        };
        let base = self.shape_settings(&placeholder, material, b.sensor, &b.filter)?;
        let shapes = match (&b.shape, &b.shapes) {
            (Some(shape), None) => vec![BodyShape { shape: self.body_shape(kind, shape)?, ..base }],
            (None, Some(list)) => {
                let rule = BodyField::ShapeCount.rule();
                let count = list.get_ref().len();
                if !rule.admits(count as f64) {
                    return Err(SceneFileError::OutOfRange {
                        location: self.locator.of(list),
                        what: "number of shapes".to_owned(),
                        value: count as f64,
                        expected: rule.to_string(),
                    });
                }
                let entries = list.get_ref().iter();
                entries.map(|e| self.shapes_entry(kind, e, &base)).collect::<Result<Vec<_>, _>>()?
            }
            (Some(_), Some(list)) => {
                return Err(SceneFileError::Shape {
                    location: self.locator.of(list),
                    message: "a body takes `shape` or `shapes`, not both".to_owned(),
                });
            }
            (None, None) => {
                return Err(SceneFileError::Shape {
                    location: self.locator.of(raw),
                    message: "a body needs `shape = {...}` or `shapes = [{ shape = {...} }, ...]`"
                        .to_owned(),
                });
            }
        };
        let mut desc = match kind {
            RawKind::Dynamic => BodyDesc::dynamic_shapes(shapes),
            RawKind::Fixed => BodyDesc::fixed_shapes(shapes),
            RawKind::Kinematic => BodyDesc::kinematic_shapes(shapes),
        };
        if let Some(p) = &b.position {
            let field = BodyField::Position;
            desc.pose.translation.vector = self.vector_in(p, field.name(), field.rule())?;
        }
        if let Some(r) = &b.rotation {
            desc.pose.rotation = self.rotation(r)?;
        }
        if let Some(v) = &b.linear_velocity {
            let field = BodyField::LinearVelocity;
            desc.linear_velocity = self.vector_in(v, field.name(), field.rule())?;
        }
        if let Some(w) = &b.angular_velocity {
            let field = BodyField::AngularVelocity;
            desc.angular_velocity = self.vector_in(w, field.name(), field.rule())?;
        }
        if let Some(n) = &b.sleep_threshold {
            let field = BodyField::SleepThreshold;
            desc.sleep_threshold = Some(self.number_in(n, field.name(), field.rule())?);
        }
        let repeat =
            b.repeat.as_ref().map(|r| self.repeat(r, &desc.pose.translation.vector)).transpose()?;
        Ok(Entry { location: self.locator.of(raw), desc, repeat })
    }
}

/// The material keys of a body or of one of its shapes, as written.
#[derive(Clone, Copy)]
struct RawMaterial<'a> {
    density: &'a Option<RawNumber>,
    friction: &'a Option<RawNumber>,
    restitution: &'a Option<RawNumber>,
    rolling_resistance: &'a Option<RawNumber>,
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
