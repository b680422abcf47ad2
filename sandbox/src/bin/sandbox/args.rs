//! Hand-written parsing of `sandbox bench` options: every malformed argument
//! becomes an error naming it, never a panic.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use sandbox::Scene;

pub const BENCH_USAGE: &str = "\
usage: sandbox bench --scene NAME [--size N] [--steps S] [--no-sleep] [--json] [--dump-poses FILE]
       sandbox bench --scene-file PATH [--steps S] [--no-sleep] [--json] [--dump-poses FILE]

  --scene NAME         pyramid | falling-boxes | stack | wall | mixed
  --size N             scene size (default: the scene's own)
  --scene-file PATH    a TOML scene file instead of a named scene (see sandbox/README.md)
  --steps S            steps of 1/60 s to run (default 600)
  --no-sleep           keep every body awake
  --json               print a JSON summary as the last line of stdout
  --dump-poses FILE    write the final poses of the dynamic bodies as CSV";

/// Where the bodies come from: a named scene or a scene file.
#[derive(Debug)]
pub enum SceneSource {
    Named { scene: Scene, size: usize },
    File(PathBuf),
}

/// Options of `sandbox bench`.
#[derive(Debug)]
pub struct BenchOptions {
    pub source: SceneSource,
    pub steps: u64,
    pub sleep: bool,
    pub json: bool,
    pub dump_poses: Option<PathBuf>,
}

/// Largest scene size accepted: beyond this the world would need more memory
/// than a benchmark machine is expected to have.
const MAX_SIZE: usize = 1_000_000;

/// Parses the arguments after `bench`. `Ok(None)` means help was asked for.
pub fn parse_bench(args: &[String]) -> Result<Option<BenchOptions>> {
    let mut scene = None;
    let mut scene_file = None;
    let mut size = None;
    let mut steps = 600u64;
    let mut sleep = true;
    let mut json = false;
    let mut dump_poses = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String> {
            match inline.clone().or_else(|| it.next().cloned()) {
                Some(v) => Ok(v),
                None => bail!("`{name}` needs a value\n\n{BENCH_USAGE}"),
            }
        };
        match flag {
            "--scene" => {
                let v = value("--scene")?;
                scene = Some(v.parse::<Scene>().with_context(|| format!("bad --scene `{v}`"))?);
            }
            "--scene-file" => scene_file = Some(PathBuf::from(value("--scene-file")?)),
            "--size" => {
                let v = value("--size")?;
                let n: usize = v
                    .parse()
                    .with_context(|| format!("--size expects a whole number, got `{v}`"))?;
                if n == 0 || n > MAX_SIZE {
                    bail!("--size must be between 1 and {MAX_SIZE}, got {n}");
                }
                size = Some(n);
            }
            "--steps" => {
                let v = value("--steps")?;
                steps = v
                    .parse()
                    .with_context(|| format!("--steps expects a whole number, got `{v}`"))?;
            }
            "--no-sleep" => sleep = false,
            "--json" => json = true,
            "--dump-poses" => dump_poses = Some(PathBuf::from(value("--dump-poses")?)),
            "--help" | "-h" => return Ok(None),
            other => bail!("unknown option `{other}`\n\n{BENCH_USAGE}"),
        }
        if inline.is_some() && matches!(flag, "--no-sleep" | "--json") {
            bail!("`{flag}` takes no value");
        }
    }
    let source = match (scene, scene_file) {
        (Some(_), Some(_)) => {
            bail!("give either `--scene` or `--scene-file`, not both\n\n{BENCH_USAGE}")
        }
        (None, None) => bail!("`--scene` or `--scene-file` is required\n\n{BENCH_USAGE}"),
        (Some(scene), None) => {
            SceneSource::Named { scene, size: size.unwrap_or(scene.default_size()) }
        }
        (None, Some(path)) => {
            if size.is_some() {
                bail!("`--size` applies only to `--scene`, not to `--scene-file`");
            }
            SceneSource::File(path)
        }
    };
    Ok(Some(BenchOptions { source, steps, sleep, json, dump_poses }))
}
