//! The library stays light: without default features, `cargo tree` of
//! the sandbox's normal dependencies lists none of the crates only the
//! command line uses (they sit behind the `cli` feature). The same query
//! with default features must list them, which shows the check can see
//! them when they are there.

use std::collections::BTreeSet;
use std::process::Command;

/// The crates only the `sandbox` binary uses.
const CLI_ONLY: [&str; 5] = ["clap", "indicatif", "env_logger", "anyhow", "serde_json"];

/// The names of the packages `cargo tree -p sandbox -e normal` lists, with
/// `features` added to the command line. Offline first (every package is
/// already on disk after the build that runs this test); if cargo cannot
/// answer offline, once more with the network.
fn normal_dependencies(features: &[&str]) -> BTreeSet<String> {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let run = |offline: bool| {
        let mut command = Command::new(env!("CARGO"));
        command
            .args(["tree", "--manifest-path", manifest, "-p", "sandbox", "-e", "normal"])
            .args(["--prefix", "none", "--charset", "ascii"])
            .args(features);
        if offline {
            command.arg("--offline");
        }
        command.output().expect("runs cargo")
    };
    let mut out = run(true);
    if !out.status.success() {
        out = run(false);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo tree {features:?} failed: {stderr}");
    let names: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    // A tree without the library's own dependencies is no tree at all.
    for expected in ["sandbox", "convex-collide", "nalgebra"] {
        assert!(names.contains(expected), "no {expected} in cargo tree {features:?}: {names:?}");
    }
    names
}

#[test]
fn the_library_without_default_features_has_none_of_the_cli_crates() {
    let names = normal_dependencies(&["--no-default-features"]);
    let found: Vec<_> = CLI_ONLY.iter().filter(|c| names.contains(**c)).collect();
    assert!(found.is_empty(), "the headless library depends on {found:?}");
}

#[test]
fn the_cli_feature_brings_the_cli_crates() {
    let names = normal_dependencies(&["--no-default-features", "--features", "cli"]);
    let missing: Vec<_> = CLI_ONLY.iter().filter(|c| !names.contains(**c)).collect();
    assert!(missing.is_empty(), "`cli` does not bring {missing:?}");
}
