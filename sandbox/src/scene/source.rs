//! Where a world's bodies come from, for the command line and the app: a
//! named scene of `sandbox/SCENES.md` at a size, or a scene file on disk
//! (re-read each time the world is built, so that editing the file and
//! building again is the loop).

use core::fmt;
use std::path::{Path, PathBuf};

use crate::body::{BodyId, BodyKind};
use crate::error::WorldError;
use crate::scene::builtin::{Scene, SceneError, build_scene_with_driver};
use crate::scene::driver::SceneDriver;
use crate::scene::file::{MAX_SCENE_FILE_BYTES, SceneFile, SceneFileError};
use crate::settings::StepSettings;
use crate::world::World;

/// A named scene at a size, or a scene file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SceneSource {
    /// One of the built-in scenes.
    Named {
        /// Which scene.
        scene: Scene,
        /// Its size (see [`Scene::default_size`]).
        size: usize,
    },
    /// A TOML scene file (see [`crate::scene_file`]).
    File(PathBuf),
}

impl SceneSource {
    /// A built-in scene at its default size.
    pub fn named(scene: Scene) -> Self {
        Self::Named { scene, size: scene.default_size() }
    }

    /// A short name for reports and the HUD: the scene's name, or the
    /// file's path.
    pub fn name(&self) -> String {
        match self {
            Self::Named { scene, .. } => scene.to_string(),
            Self::File(path) => path.display().to_string(),
        }
    }

    /// Builds a new world from this source with `settings` (a scene file's
    /// own `[settings]` laid over them; `sleep_enabled: false` in
    /// `settings` keeps every body awake whatever the file says).
    ///
    /// # Errors
    /// [`LoadError`] if the file cannot be read or is invalid, or the scene
    /// is too large.
    pub fn build(&self, settings: StepSettings) -> Result<LoadedScene, LoadError> {
        match self {
            Self::Named { scene, size } => {
                let mut world = World::with_settings(settings).map_err(LoadError::Settings)?;
                let (bodies, driver) =
                    build_scene_with_driver(&mut world, *scene, *size).map_err(LoadError::Scene)?;
                Ok(LoadedScene { world, bodies, size: *size, driver })
            }
            Self::File(path) => {
                let text = read_limited(path)?;
                let invalid = |error: SceneFileError| LoadError::File {
                    path: path.clone(),
                    text: text.clone(),
                    error: Box::new(error),
                };
                let file = SceneFile::parse(&text).map_err(invalid)?;
                let mut file_settings = file.step_settings(settings);
                file_settings.sleep_enabled &= settings.sleep_enabled;
                let mut world = World::with_settings(file_settings).map_err(LoadError::Settings)?;
                let all = file.build(&mut world).map_err(invalid)?;
                let bodies =
                    all.into_iter().filter(|&b| world.kind(b) == Some(BodyKind::Dynamic)).collect();
                let driver = SceneDriver::nothing();
                Ok(LoadedScene { world, bodies, size: file.body_count(), driver })
            }
        }
    }
}

/// A world built from a [`SceneSource`].
#[derive(Debug)]
pub struct LoadedScene {
    /// The world, with the ground and the scene's bodies.
    pub world: World,
    /// The dynamic bodies, in creation order.
    pub bodies: Vec<BodyId>,
    /// The scene's size (a file's body count).
    pub size: usize,
    /// What the scene does before each step (nothing, for a file).
    pub driver: SceneDriver,
}

/// Why a scene could not be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The scene file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The scene file is invalid (or the world refused one of its bodies).
    File {
        /// The file.
        path: PathBuf,
        /// Its text, to show the offending line.
        text: String,
        /// What is wrong, and where (boxed: it is large, and rare).
        error: Box<SceneFileError>,
    },
    /// A built-in scene could not be built (too large, for instance).
    Scene(SceneError),
    /// The world refused the step settings (see
    /// [`StepSettings::validate`](crate::StepSettings::validate)).
    Settings(WorldError),
}

impl LoadError {
    /// The error as a compiler would show it: for an invalid file, the
    /// message, the path, line and column, and the offending line with the
    /// value underlined (see [`SceneFileError::render`]); otherwise the
    /// message and its causes on one line. Starts with `error: `.
    pub fn render(&self) -> String {
        match self {
            Self::File { path, text, error } => error.render(&path_name(path), text),
            _ => {
                let mut out = format!("error: {self}");
                let mut cause = std::error::Error::source(self);
                while let Some(c) = cause {
                    out.push_str(&format!(": {c}"));
                    cause = c.source();
                }
                out
            }
        }
    }
}

fn path_name(path: &Path) -> String {
    path.display().to_string()
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, .. } => write!(f, "reading scene file {}", path.display()),
            Self::File { path, error, .. } => write!(f, "{}", error.in_file(&path_name(path))),
            Self::Scene(_) => f.write_str("building the scene"),
            Self::Settings(_) => f.write_str("creating the world"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } => Some(source),
            // The one-line message already carries the file error's causes.
            Self::File { .. } => None,
            Self::Scene(e) => Some(e),
            Self::Settings(e) => Some(e),
        }
    }
}

/// The text of the scene file at `path`, reading no more than one byte past
/// [`MAX_SCENE_FILE_BYTES`]: a longer file is
/// [`SceneFileError::FileTooLarge`] without being read whole.
fn read_limited(path: &Path) -> Result<String, LoadError> {
    use std::io::Read as _;
    let read_error = |source| LoadError::Read { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    file.take(MAX_SCENE_FILE_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(read_error)?;
    if bytes.len() > MAX_SCENE_FILE_BYTES {
        return Err(LoadError::File {
            path: path.to_path_buf(),
            text: String::new(),
            error: Box::new(SceneFileError::FileTooLarge { bytes: bytes.len() as u64 }),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        read_error(std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
    })
}
