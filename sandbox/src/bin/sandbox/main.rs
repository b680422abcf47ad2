//! The `sandbox` command line: `sandbox run` (the default), `sandbox bench`,
//! `sandbox screenshot`, `sandbox record` and `sandbox soak`, parsed by clap (see `cli.rs`);
//! logging through `env_logger`, controlled by `RUST_LOG`.

mod bench;
mod cli;
#[cfg(feature = "render")]
mod heap_tuning;
#[cfg(feature = "render")]
mod offscreen;
#[cfg(feature = "render")]
mod probe;
mod scene_source;
mod soak;

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser as _;

use crate::cli::{BenchArgs, Cli, Command, RunArgs};
use crate::scene_source::ShownError;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    #[cfg(feature = "render")]
    heap_tuning::keep_freed_memory();
    let cli = Cli::parse();
    match run(cli.command.unwrap_or(Command::Run(RunArgs {
        width: 1280,
        height: 720,
        ..RunArgs::default()
    }))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            match e.downcast_ref::<ShownError>() {
                // Already laid out as a compiler would (scene-file errors).
                Some(shown) => eprintln!("{shown}"),
                None => eprintln!("error: {e:#}"),
            }
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Run(args) => run_app(args),
        Command::Bench(args) => bench::run(&args),
        Command::Soak(args) => soak::run(&args),
        #[cfg(feature = "render")]
        Command::Screenshot(args) => offscreen::screenshot(&args),
        #[cfg(feature = "render")]
        Command::Record(args) => offscreen::record(&args),
        #[cfg(not(feature = "render"))]
        Command::Screenshot(_) | Command::Record(_) => {
            anyhow::bail!("this build has no renderer (built without the `render` feature)")
        }
    }
}

/// Steps of the headless fallback: 10 s of simulated time, a few seconds
/// of wall time for the default scene.
const FALLBACK_STEPS: u64 = 600;

/// `sandbox run`: the window, or, with no display or no GPU adapter, one
/// line saying so and a headless run of the scene with the bench summary
/// (plus a screenshot when an adapter exists but no display).
fn run_app(args: RunArgs) -> Result<()> {
    let default = Some(sandbox::tools::SceneSource::named(sandbox::Scene::FallingBoxes));
    let probe = args.scene.scene == Some(cli::SceneName::Probe);
    #[cfg(not(feature = "render"))]
    if probe {
        anyhow::bail!("the probe needs the renderer (built without the `render` feature)");
    }
    // The probe keeps the default scene loaded (paused) behind it, for the
    // scene picker.
    let scene_args = if probe { cli::SceneArgs::default() } else { args.scene.clone() };
    let source = scene_source::source(&scene_args, default)?;
    #[cfg(feature = "render")]
    {
        use sandbox::app::{Controller, Simulation, WindowError, WindowOptions, run_window};
        let settings = sandbox::StepSettings {
            sleep_enabled: !args.no_sleep,
            threads: args.threads.map_or_else(machine_cores, usize::from),
            ..Default::default()
        };
        let sim = Simulation::load(source.clone(), settings).map_err(|e| ShownError(e.render()))?;
        let mut controller = Controller::new(sim, (args.width as f32, args.height as f32));
        controller.sim.paused = args.paused;
        if probe {
            controller.open_probe(probe::session(&args.probe)?);
        }
        let options = WindowOptions {
            exit_after_frames: args.exit_after_frames,
            screenshot_at_exit: args.screenshot_at_exit.clone(),
            size: (args.width, args.height),
            resize_at_frame: args.resize_at_frame.zip(args.resize_to),
            press_keys: args
                .press_keys
                .as_deref()
                .unwrap_or("")
                .parse()
                .map_err(anyhow::Error::msg)?,
        };
        match run_window(controller, options) {
            Ok(()) => return Ok(()),
            Err(WindowError::NoDisplay(why)) => {
                eprintln!("sandbox: no display ({why}); running the scene headless instead.");
                offscreen::fallback_screenshot(&source, !args.no_sleep);
            }
            Err(WindowError::NoAdapter(why)) => {
                eprintln!("sandbox: no GPU adapter ({why}); running the scene headless instead.");
            }
            Err(e) => return Err(e.into()),
        }
    }
    #[cfg(not(feature = "render"))]
    eprintln!("sandbox: built without the renderer; running the scene headless.");
    let bench = BenchArgs {
        scene: scene_source::args_for(&source),
        steps: Some(FALLBACK_STEPS),
        no_sleep: args.no_sleep,
        threads: args.threads.unwrap_or(1),
        json: false,
        dump_poses: None,
        trace_every: None,
        perturb: 0,
    };
    bench::run(&bench)
}

/// The machine's logical cores (1 if unknown), at most
/// [`sandbox::MAX_THREADS`]: the app's default threads.
#[cfg(feature = "render")]
fn machine_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(sandbox::MAX_THREADS)
}

/// Writes `text` to standard output. A reader that closed the pipe early
/// (`sandbox bench | head`) ends the output quietly, as Unix tools do; any
/// other write error is reported.
fn print_stdout(text: &str) -> Result<()> {
    use anyhow::Context as _;
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("writing to standard output")
        }
        _ => Ok(()),
    }
}
