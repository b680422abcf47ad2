//! The command line, declared with clap's derive API: `run` (the default),
//! `bench`, `screenshot`, `record` and `soak`, and the scene options they
//! share.

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
    /// Run a scene in a window (the default). Without a display or a GPU
    /// adapter it says so in one line, runs the scene headless for a few
    /// seconds and prints the bench summary.
    Run(RunArgs),
    /// Step a scene headless (on one thread unless `--threads`); report ms/step per stage and
    /// stability (penetration, drift, a hash of the final poses).
    Bench(BenchArgs),
    /// Render a scene offscreen to a PNG, with no window.
    Screenshot(ScreenshotArgs),
    /// Render a scene offscreen while it runs, to an animated GIF.
    Record(RecordArgs),
    /// Drive a world with random input (bodies added, removed, pushed,
    /// teleported, thrown at up to 500 m/s; sleeping and substeps switched)
    /// and check it after every step. Exits non-zero on any failure.
    Soak(SoakArgs),
}

/// Options of `sandbox soak`.
#[derive(Debug, Clone, Args)]
pub struct SoakArgs {
    /// Wall-clock seconds to run for.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Stop after this many steps even if time is left (a run of a fixed
    /// length, the same on any machine).
    #[arg(long, value_name = "N")]
    pub steps: Option<u64>,
    /// The seed of every random choice: a seed replays the same run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most bodies alive at once.
    #[arg(long, default_value_t = sandbox::tools::soak::DEFAULT_MAX_BODIES as u64,
          value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub max_bodies: u64,
}

/// A `--scene` name: a scene of sandbox/SCENES.md, or the probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneName {
    /// A physics scene.
    Physics(Scene),
    /// The probe: GJK and EPA between two shapes (`run` and `screenshot`).
    Probe,
}

/// Where the bodies come from: a named scene or a scene file.
#[derive(Debug, Clone, Default, Args)]
pub struct SceneArgs {
    /// A scene of sandbox/SCENES.md, or `probe` (GJK and EPA between two
    /// shapes; `run` and `screenshot` only).
    #[arg(long, value_parser = parse_scene, conflicts_with = "scene_file")]
    pub scene: Option<SceneName>,
    /// The scene's size (default: the scene's own). Only with `--scene`.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub size: Option<u64>,
    /// A TOML scene file (see sandbox/README.md) instead of a named scene.
    #[arg(long, value_name = "PATH")]
    pub scene_file: Option<PathBuf>,
}

/// The probe's options (with `--scene probe`).
#[derive(Debug, Clone, Default, Args)]
pub struct ProbeArgs {
    /// The probe in 3D (the default) or 2D.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3), value_name = "2|3")]
    pub dim: Option<u8>,
    /// Shape A: sphere, cuboid, capsule, cloud or icosahedron (3D); circle,
    /// rectangle or polygon (2D).
    #[arg(long, value_name = "SHAPE")]
    pub shape_a: Option<String>,
    /// Shape B, as `--shape-a`.
    #[arg(long, value_name = "SHAPE")]
    pub shape_b: Option<String>,
    /// B's centre relative to A's, metres (2D: X,Y).
    #[arg(long, value_name = "X,Y[,Z]", value_delimiter = ',', allow_negative_numbers = true)]
    pub b_offset: Option<Vec<f32>>,
    /// B's rotation as roll, pitch, yaw in degrees (2D: one angle).
    #[arg(
        long,
        value_name = "DEG[,DEG,DEG]",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub b_angles: Option<Vec<f32>>,
    /// Show recorded step K (from 1: GJK's iterations, then EPA's) instead
    /// of the final state.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub step: Option<u64>,
    /// Push B out by the penetration vector before the picture.
    #[arg(long)]
    pub resolve: bool,
}

/// Options of `sandbox run`.
#[derive(Debug, Clone, Default, Args)]
pub struct RunArgs {
    /// The scene (default: falling-boxes 1000).
    #[command(flatten)]
    pub scene: SceneArgs,
    /// The probe's shapes and pose, with `--scene probe`.
    #[command(flatten)]
    pub probe: ProbeArgs,
    /// Keep every body awake.
    #[arg(long)]
    pub no_sleep: bool,
    /// Threads the physics step runs on (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=sandbox::MAX_THREADS as i64))]
    pub threads: Option<u16>,
    /// Start paused (Space resumes). With `--exit-after-frames`, the frame
    /// time printed at exit is then drawing alone, without physics.
    #[arg(long)]
    pub paused: bool,
    /// Exit after this many frames (for tests); prints the mean frame time.
    #[arg(long, value_name = "K")]
    pub exit_after_frames: Option<u64>,
    /// Save the last frame as a PNG before exiting.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot_at_exit: Option<PathBuf>,
    /// Window width in logical pixels.
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Window height in logical pixels.
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// Test hook: after this frame, ask for the `--resize-to` size.
    #[arg(long, hide = true, value_name = "K", requires = "resize_to")]
    pub resize_at_frame: Option<u64>,
    /// Test hook: the inner size in physical pixels, as WIDTHxHEIGHT.
    #[arg(long, hide = true, value_name = "WxH", value_parser = parse_size, requires = "resize_at_frame")]
    pub resize_to: Option<(u32, u32)>,
    /// Test hook: keys the window presses after given frames, as
    /// FRAME:KEY,... with winit's key names (`2:Digit6,3:Tab`).
    #[arg(long, hide = true, value_name = "K:KEY,...")]
    pub press_keys: Option<String>,
}

/// `WIDTHxHEIGHT`, both positive.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let parsed = text.split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
    match parsed {
        Some((w, h)) if w > 0 && h > 0 => Ok((w, h)),
        _ => Err(format!("expected WIDTHxHEIGHT with both positive, got `{text}`")),
    }
}

/// Options of `sandbox screenshot`.
#[derive(Debug, Clone, Args)]
pub struct ScreenshotArgs {
    /// The scene; one of `--scene` and `--scene-file` is required.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Steps of 1/60 s to run before the picture.
    #[arg(long, default_value_t = 120)]
    pub steps: u64,
    /// The PNG to write.
    #[arg(long, value_name = "FILE.png")]
    pub out: PathBuf,
    /// Image width in pixels.
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(1..=8192))]
    pub width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(1..=8192))]
    pub height: u32,
    /// Keep every body awake.
    #[arg(long)]
    pub no_sleep: bool,
    /// Draw contact points and normals.
    #[arg(long)]
    pub contacts: bool,
    /// Draw each joint's axes (its anchors are always drawn).
    #[arg(long)]
    pub joints: bool,
    /// Camera yaw about the vertical, degrees (0: looking along -Z).
    #[arg(long, allow_negative_numbers = true)]
    pub yaw: Option<f32>,
    /// Camera pitch above the horizon, degrees.
    #[arg(long, allow_negative_numbers = true)]
    pub pitch: Option<f32>,
    /// Render this many frames and report the median time per frame (a
    /// frame benchmark; the last frame is saved).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub bench_frames: u32,
    /// With `--bench-frames`: redraw the shadow map every frame, as when
    /// bodies move (a still scene reuses it)
    #[arg(long)]
    pub redraw_shadows: bool,
    /// The probe's shapes and pose, with `--scene probe`.
    #[command(flatten)]
    pub probe: ProbeArgs,
}

/// Options of `sandbox record`.
#[derive(Debug, Clone, Args)]
pub struct RecordArgs {
    /// The scene; one of `--scene` and `--scene-file` is required.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Seconds of simulated time to record.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f32,
    /// The GIF to write.
    #[arg(long, value_name = "FILE.gif")]
    pub out: PathBuf,
    /// Frames per second of the GIF (the physics runs at 60 Hz regardless).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub fps: u32,
    /// Frame width in pixels.
    #[arg(long, default_value_t = 480, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub width: u32,
    /// Frame height in pixels.
    #[arg(long, default_value_t = 270, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub height: u32,
}

/// Options of `sandbox bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// The scene; one of `--scene` and `--scene-file` is required.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Steps of 1/60 s to run [default: 600; for box3d's scenes, box3d's
    /// own count: large-pyramid 200, many-pyramids 100, convex-pile 500].
    #[arg(long)]
    pub steps: Option<u64>,
    /// Keep every body awake.
    #[arg(long)]
    pub no_sleep: bool,
    /// Threads the physics step runs on; the poses and hash are the same
    /// for any count.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=sandbox::MAX_THREADS as i64))]
    pub threads: u16,
    /// Print a JSON summary as the last line of stdout.
    #[arg(long)]
    pub json: bool,
    /// Write the final poses of the dynamic bodies as CSV.
    #[arg(long, value_name = "FILE")]
    pub dump_poses: Option<PathBuf>,
    /// Print a line every N steps (and after the last): the step, the
    /// awake dynamic bodies, the contact points and that step's time, to
    /// follow a scene settling (as box3d's counters do).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub trace_every: Option<u64>,
    /// Move every dynamic body sideways by K × 10 µm before the first step
    /// (body n along the horizontal direction n golden angles round), to
    /// sample runs beside the scene's own: in a chaotic scene such as
    /// `trees` the deepest penetration and the bodies still awake at the
    /// end are one draw from a spread, and changes are compared over many
    /// K [default: 0, the scene as built].
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub perturb: u32,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        Ok(_) => Err("must be a finite, non-negative number of seconds".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

fn parse_scene(s: &str) -> Result<SceneName, String> {
    if s == "probe" {
        return Ok(SceneName::Probe);
    }
    s.parse::<Scene>().map(SceneName::Physics).map_err(|e| format!("{e}, or probe"))
}
