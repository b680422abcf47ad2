//! Turns the command line's scene options into a [`SceneSource`] and builds
//! it, showing scene-file errors as a compiler does.

use core::fmt;

use anyhow::{Result, bail};
use sandbox::StepSettings;
use sandbox::tools::{LoadedScene, SceneSource};

use crate::cli::{SceneArgs, SceneName};

/// An error already laid out for the terminal (a scene-file error with its
/// source line), printed as it is.
#[derive(Debug)]
pub struct ShownError(pub String);

impl fmt::Display for ShownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShownError {}

/// The source `args` name, or `default` when they name none.
pub fn source(args: &SceneArgs, default: Option<SceneSource>) -> Result<SceneSource> {
    match (&args.scene, &args.scene_file) {
        (Some(SceneName::Probe), _) => {
            bail!("the probe is interactive: use it with `run` or `screenshot`")
        }
        (Some(SceneName::Physics(scene)), None) => {
            let size = match args.size {
                // A size past usize is past MAX_SCENE_BODIES too: saturate
                // and let the build name the limit.
                Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
                None => scene.default_size(),
            };
            Ok(SceneSource::Named { scene: *scene, size })
        }
        (None, Some(_)) if args.size.is_some() => {
            bail!("`--size` applies only to `--scene`, not to `--scene-file`")
        }
        (None, Some(path)) => Ok(SceneSource::File(path.clone())),
        _ => match default {
            Some(source) => Ok(source),
            None => bail!("give `--scene NAME` or `--scene-file PATH`"),
        },
    }
}

/// Builds `source` to step on `threads` threads; `sleep: false` keeps
/// every body awake.
pub fn build(source: &SceneSource, sleep: bool, threads: usize) -> Result<LoadedScene> {
    let settings = StepSettings { sleep_enabled: sleep, threads, ..StepSettings::default() };
    source.build(settings).map_err(|e| ShownError(e.render()).into())
}

/// Scene options naming `source` again (for a command run on behalf of
/// another, as the fallback's bench).
pub fn args_for(source: &SceneSource) -> SceneArgs {
    match source {
        SceneSource::Named { scene, size } => SceneArgs {
            scene: Some(SceneName::Physics(*scene)),
            size: Some(*size as u64),
            scene_file: None,
        },
        SceneSource::File(path) => {
            SceneArgs { scene: None, size: None, scene_file: Some(path.clone()) }
        }
    }
}
