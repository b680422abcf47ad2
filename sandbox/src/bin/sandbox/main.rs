//! The `sandbox` command line: `sandbox bench ...` runs a scene headless and
//! reports timing and stability. Subcommands are dispatched from here so that
//! others (a renderer's `screenshot`, an interactive viewer) slot in beside
//! `bench` without touching it.

mod args;
mod bench;
mod logger;

use std::process::ExitCode;

use anyhow::{Context, Result, bail};

const USAGE: &str = "\
usage: sandbox [<command> [options]]

With no command, runs the default scene (falling-boxes 1000) headless.

commands:
  bench    run a scene headless on one thread and report ms/step and stability
  help     print this message

run `sandbox bench --help` for the bench options";

fn main() -> ExitCode {
    logger::install();
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<()> {
    let mut argv = std::env::args().skip(1);
    let Some(command) = argv.next() else {
        // No command: run the app's default scene. There is no window in
        // this build yet, so it runs headless, as it would on a machine
        // without a display or GPU, and says so.
        eprintln!(
            "sandbox: no window in this build; running the default scene headless \
             (`sandbox bench --scene falling-boxes`). `sandbox help` lists the commands."
        );
        let default: Vec<String> = ["--scene", "falling-boxes"].map(String::from).to_vec();
        let options =
            args::parse_bench(&default)?.context("the default scene's arguments are valid")?;
        return bench::run(&options).context("bench failed");
    };
    let rest: Vec<String> = argv.collect();
    match command.as_str() {
        "bench" => {
            let Some(options) = args::parse_bench(&rest)? else {
                return print_stdout(&format!("{}\n", args::BENCH_USAGE));
            };
            bench::run(&options).context("bench failed")
        }
        "help" | "--help" | "-h" => print_stdout(&format!("{USAGE}\n")),
        other => bail!("unknown command `{other}`\n\n{USAGE}"),
    }
}

/// Writes `text` to standard output. A reader that closed the pipe early
/// (`sandbox bench | head`) ends the output quietly, as Unix tools do; any
/// other write error is reported.
fn print_stdout(text: &str) -> Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("writing to standard output")
        }
        _ => Ok(()),
    }
}
