//! The `sandbox` command line: `sandbox run` (the default), `sandbox bench`
//! and `sandbox screenshot`, parsed by clap (see `cli.rs`); logging through
//! `env_logger`, controlled by `RUST_LOG`.

mod bench;
mod cli;
mod scene_source;

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Parser as _;

use crate::cli::{BenchArgs, Cli, Command, RunArgs, SceneArgs};
use crate::scene_source::ShownError;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match run(cli.command.unwrap_or(Command::Run(RunArgs {
        scene: SceneArgs { scene: None, size: None, scene_file: None },
        no_sleep: false,
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
        Command::Run(args) => {
            // There is no window in this build yet, so `run` runs headless,
            // as it would on a machine without a display or GPU, and says so.
            eprintln!(
                "sandbox: no window in this build; running the scene headless \
                 (as `sandbox bench`). `sandbox --help` lists the commands."
            );
            let mut scene = args.scene;
            if scene.scene.is_none() && scene.scene_file.is_none() {
                scene.scene = Some(sandbox::Scene::FallingBoxes);
            }
            let bench = BenchArgs {
                scene,
                steps: 600,
                no_sleep: args.no_sleep,
                json: false,
                dump_poses: None,
            };
            bench::run(&bench)
        }
        Command::Bench(args) => bench::run(&args),
        Command::Screenshot(_) => {
            bail!("`sandbox screenshot` is not in this build yet: it comes with the renderer")
        }
    }
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
