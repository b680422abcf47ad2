//! The command line, declared with clap's derive API: `run` (the default),
//! `bench` and `screenshot`, and the scene options they share.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use sandbox::Scene;

/// A 3D rigid-body sandbox built on the collide library.
///
/// With no command, runs the default scene (falling-boxes 1000). Logging is
/// controlled by `RUST_LOG` (for example `RUST_LOG=sandbox=info`).
#[derive(Debug, Parser)]
#[command(name = "sandbox", version, about, long_about)]
pub struct Cli {
    /// What to do; `run` when left out.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scene. Without a window in this build, it runs headless for a
    /// few seconds and prints the bench summary.
    Run(RunArgs),
    /// Step a scene headless on one thread; report ms/step per stage and
    /// stability (penetration, drift, a hash of the final poses).
    Bench(BenchArgs),
    /// Render a scene offscreen to a PNG (reserved: not in this build yet).
    Screenshot(SceneArgs),
}

/// Where the bodies come from: a named scene or a scene file.
#[derive(Debug, Clone, Args)]
pub struct SceneArgs {
    /// A scene of shared/SCENES.md.
    #[arg(long, value_parser = parse_scene, conflicts_with = "scene_file")]
    pub scene: Option<Scene>,
    /// The scene's size (default: the scene's own). Only with `--scene`.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub size: Option<u64>,
    /// A TOML scene file (see sandbox/README.md) instead of a named scene.
    #[arg(long, value_name = "PATH")]
    pub scene_file: Option<PathBuf>,
}

/// Options of `sandbox run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The scene (default: falling-boxes 1000).
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Keep every body awake.
    #[arg(long)]
    pub no_sleep: bool,
}

/// Options of `sandbox bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// The scene; one of `--scene` and `--scene-file` is required.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Steps of 1/60 s to run.
    #[arg(long, default_value_t = 600)]
    pub steps: u64,
    /// Keep every body awake.
    #[arg(long)]
    pub no_sleep: bool,
    /// Print a JSON summary as the last line of stdout.
    #[arg(long)]
    pub json: bool,
    /// Write the final poses of the dynamic bodies as CSV.
    #[arg(long, value_name = "FILE")]
    pub dump_poses: Option<PathBuf>,
}

fn parse_scene(s: &str) -> Result<Scene, String> {
    s.parse::<Scene>().map_err(|e| e.to_string())
}
