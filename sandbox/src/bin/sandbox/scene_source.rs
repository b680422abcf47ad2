//! Builds the world a command asked for, from a named scene or a scene
//! file, with the step settings it implies.

use core::fmt;

use anyhow::{Context, Result, bail};
use sandbox::{BodyId, BodyKind, SceneFile, StepSettings, World, build_scene};

use crate::cli::SceneArgs;

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

/// A built world, its dynamic bodies in creation order, the scene's name
/// for the report (a file's path) and its size (for a file, its body count).
pub struct Built {
    pub world: World,
    pub bodies: Vec<BodyId>,
    pub name: String,
    pub size: u64,
}

/// Builds the scene `args` names; `sleep: false` keeps every body awake
/// (overriding a scene file's `sleep`).
pub fn build(args: &SceneArgs, sleep: bool) -> Result<Built> {
    match (&args.scene, &args.scene_file) {
        (Some(scene), None) => {
            let size = args.size.unwrap_or(scene.default_size() as u64);
            let settings = StepSettings { sleep_enabled: sleep, ..StepSettings::default() };
            let mut world = World::with_settings(settings);
            // A size past usize is past MAX_SCENE_BODIES too: saturate and
            // let build_scene name the limit.
            let size_arg = usize::try_from(size).unwrap_or(usize::MAX);
            let bodies = build_scene(&mut world, *scene, size_arg).context("building the scene")?;
            Ok(Built { world, bodies, name: scene.to_string(), size })
        }
        (None, Some(_)) if args.size.is_some() => {
            bail!("`--size` applies only to `--scene`, not to `--scene-file`")
        }
        (None, Some(path)) => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading scene file {name}"))?;
            let file = SceneFile::parse(&text).map_err(|e| ShownError(e.render(&name, &text)))?;
            let mut settings = file.step_settings(StepSettings::default());
            settings.sleep_enabled &= sleep;
            let mut world = World::with_settings(settings);
            let all = file.build(&mut world).map_err(|e| ShownError(e.render(&name, &text)))?;
            let bodies =
                all.into_iter().filter(|&b| world.kind(b) == Some(BodyKind::Dynamic)).collect();
            Ok(Built { world, bodies, name, size: file.body_count() as u64 })
        }
        _ => bail!("give `--scene NAME` or `--scene-file PATH`"),
    }
}
