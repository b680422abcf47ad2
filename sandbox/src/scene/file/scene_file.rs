//! A parsed and validated scene file, and how it builds into a world.

use collide::nalgebra::Vector3;

use crate::body::{BodyDesc, BodyId};
use crate::scene::builtin::{MAX_SCENE_BODIES, add_ground};
use crate::scene::file::error::SceneFileError;
use crate::scene::file::joint::JointEntry;
use crate::scene::file::location::{Location, Locator};
use crate::scene::file::raw::RawFile;
use crate::scene::file::validate::{Entry, Repeat, SettingsOverrides, Validator};
use crate::settings::StepSettings;
use crate::world::World;

/// The largest scene file read, in bytes (1 MiB): room for some 10,000
/// bodies written out one by one (any number made by `repeat`) or for ten
/// hulls of [`MAX_HULL_POINTS`](super::MAX_HULL_POINTS) points, while the
/// parser's memory and time stay bounded: its tree of spanned values takes
/// up to about 80 bytes per byte of text (a file of one long array of
/// `0,`), so under 100 MB. Checked before parsing.
pub const MAX_SCENE_FILE_BYTES: usize = 1 << 20;

/// A parsed and validated scene file: see the [module](crate::scene_file)
/// for the format.
///
/// Parsing checks everything that can be checked without a world, so
/// [`build`](SceneFile::build) fails only if the world refuses a body (for
/// example a shape so large its mass overflows) or a joint (one between
/// two fixed bodies).
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
/// let mut world = World::with_settings(scene.step_settings(StepSettings::default())).unwrap();
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
    joints: Vec<JointEntry>,
}

impl SceneFile {
    /// Parses and validates the TOML text of a scene file.
    ///
    /// # Errors
    /// A [`SceneFileError`] naming the line and column of the first problem:
    /// bad TOML, an unknown or missing key, a value of the wrong type, a
    /// non-finite or out-of-range number, a shape parameter that is missing
    /// or does not apply, a bad rotation, a hull that encloses no volume or
    /// lists more than [`MAX_HULL_POINTS`](super::MAX_HULL_POINTS) points,
    /// more than [`MAX_SCENE_BODIES`] bodies, or a text longer than
    /// [`MAX_SCENE_FILE_BYTES`] (checked first).
    ///
    /// ```
    /// use sandbox::SceneFile;
    /// let text = "[[body]]\nshape = { type = \"sphere\", radius = 0.5 }\nmass = 3\n";
    /// let err = SceneFile::parse(text).unwrap_err();
    /// assert_eq!(err.location().map(|l| (l.line, l.column)), Some((3, 1)));
    /// assert!(err.to_string().starts_with("line 3, column 1: unknown field `mass`"));
    /// ```
    pub fn parse(text: &str) -> Result<Self, SceneFileError> {
        if text.len() > MAX_SCENE_FILE_BYTES {
            return Err(SceneFileError::FileTooLarge { bytes: text.len() as u64 });
        }
        let locator = Locator::new(text);
        let raw: RawFile = toml::from_str(text).map_err(|e| SceneFileError::Syntax {
            location: e.span().map(|s| locator.span(s)).or_else(|| locator.first_spanless_line()),
            message: e.message().trim_end().to_owned(),
        })?;
        let validator = Validator { locator };
        let settings =
            raw.settings.as_ref().map(|s| validator.settings(s)).transpose()?.unwrap_or_default();
        let mut entries = Vec::with_capacity(raw.body.len());
        let mut total = 0u64;
        for b in &raw.body {
            let entry = validator.body(b)?;
            total = total.saturating_add(entry.len());
            if total > MAX_SCENE_BODIES {
                return Err(SceneFileError::TooManyBodies {
                    location: entry.location,
                    count: total,
                });
            }
            entries.push(entry);
        }
        let ground = raw.ground.unwrap_or(true);
        // Bounded by MAX_SCENE_BODIES above.
        let indexed = total as usize + usize::from(ground);
        let joints =
            raw.joint.iter().map(|j| validator.joint(j, indexed)).collect::<Result<Vec<_>, _>>()?;
        Ok(Self { ground, settings, entries, joints })
    }

    /// Whether [`build`](SceneFile::build) adds the SCENES.md ground (the
    /// file's `ground` key; true when absent).
    pub fn has_ground(&self) -> bool {
        self.ground
    }

    /// How many joints [`build`](SceneFile::build) creates (one per
    /// `[[joint]]` entry).
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// How many bodies [`build`](SceneFile::build) creates, counting repeats
    /// and leaving out the ground.
    pub fn body_count(&self) -> usize {
        // Bounded by MAX_SCENE_BODIES at parse time.
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
    /// the order of [`bodies`](SceneFile::bodies), then every joint, and
    /// returns the bodies' handles (not the ground's), static ones
    /// included. The world's
    /// settings are left alone: create the world with
    /// [`step_settings`](SceneFile::step_settings) to apply the file's.
    ///
    /// # Errors
    /// [`SceneFileError::World`] at the `[[body]]` entry the world refused,
    /// [`SceneFileError::JointRefused`] at the `[[joint]]` entry it refused
    /// (two fixed bodies, for instance, or limits past the API's range).
    /// Bodies and joints added before the refusal stay in the world.
    pub fn build(&self, world: &mut World) -> Result<Vec<BodyId>, SceneFileError> {
        let ground = if self.ground {
            // The ground is a fixed static box, which the world accepts; were
            // it refused, the file's start is the best place to point at.
            Some(add_ground(world).map_err(|source| SceneFileError::World {
                location: Location { line: 1, column: 1, offset: 0, len: 0 },
                source,
            })?)
        } else {
            None
        };
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
        // Joints name bodies by creation order, the ground first.
        let ground = ground.into_iter();
        let indexed: Vec<BodyId> = ground.chain(ids.iter().copied()).collect();
        for j in &self.joints {
            // Indices checked against the body count at parse time.
            let (a, b) = (indexed[j.bodies[0]], indexed[j.bodies[1]]);
            world
                .create_joint(j.desc(a, b))
                .map_err(|source| SceneFileError::JointRefused { location: j.location, source })?;
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
