//! The `sandbox bench` command line: bad arguments exit non-zero with a
//! message (never a panic), `--json` ends stdout with the required keys,
//! `--dump-poses` writes one CSV row per dynamic body, and `--trace-every`
//! prints a line every N steps.

use std::process::Command;

fn sandbox(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sandbox")).args(args).output().expect("runs the binary")
}

#[test]
fn bad_arguments_fail_cleanly() {
    for args in [
        &["frobnicate"][..],
        &["bench"],
        &["bench", "--scene"],
        &["bench", "--scene", "tower"],
        &["bench", "--scene", "stack", "--size", "-3"],
        &["bench", "--scene", "stack", "--size", "0"],
        &["bench", "--scene", "stack", "--steps", "many"],
        &["bench", "--scene", "stack", "--wat"],
        &["bench", "--scene", "stack", "--trace-every", "0"],
    ] {
        let out = sandbox(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    }
}

/// A scene-file error is shown as a compiler shows one: the message, the
/// file, line and column, the offending source line and a caret line under
/// the bad value (`-2`, two characters), and only once.
#[test]
fn scene_file_errors_show_the_source_line_with_a_caret() {
    let path = std::env::temp_dir().join("sandbox-cli-test-caret.toml");
    std::fs::write(&path, "[[body]]\nshape = { type = \"sphere\", radius = -2 }\n").unwrap();
    let out = sandbox(&["bench", "--scene-file", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let source =
        lines.iter().position(|l| l.ends_with("shape = { type = \"sphere\", radius = -2 }"));
    let source = source.unwrap_or_else(|| panic!("no source line in:\n{stderr}"));
    let caret_line = lines[source + 1];
    let value_column = lines[source].find("-2").unwrap();
    assert_eq!(caret_line.find('^'), Some(value_column), "caret misplaced:\n{stderr}");
    assert_eq!(caret_line.matches('^').count(), 2, "{stderr}");
    assert_eq!(stderr.matches("must be positive").count(), 1, "said twice:\n{stderr}");
    let _ = std::fs::remove_file(&path);
}

/// Sizes are limited by the bodies a scene would create, checked before
/// anything is allocated: pyramid 1,000,000 would be 5·10^11 bodies. It
/// must fail at once (here: within the test's patience, far less than the
/// minutes an allocation of that size would take) and name both numbers.
#[test]
fn oversized_pyramid_fails_at_once_naming_the_body_count_and_the_limit() {
    let started = std::time::Instant::now();
    let out = sandbox(&["bench", "--scene", "pyramid", "--size", "1000000", "--steps", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("500000500000 bodies"), "{stderr}");
    assert!(stderr.contains(&sandbox::MAX_SCENE_BODIES.to_string()), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "took {:?}", started.elapsed());
    // The count, not the size, is limited: wall rows hold 20 cubes, so
    // 100,001 rows is just over the limit of two million bodies.
    let out = sandbox(&["bench", "--scene", "wall", "--size", "100001", "--steps", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("2000020 bodies"), "{stderr}");
}

#[test]
fn oversized_repeat_in_a_scene_file_fails_naming_the_count() {
    let path = std::env::temp_dir().join("sandbox-cli-test-repeat.toml");
    std::fs::write(
        &path,
        "[[body]]\nshape = { type = \"sphere\", radius = 0.1 }\n\
         repeat = { count = [100000, 100000, 100000], step = [0.0, 0.0, 0.0] }\n",
    )
    .unwrap();
    let out = sandbox(&["bench", "--scene-file", path.to_str().unwrap(), "--steps", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("1000000000000000 bodies"), "{stderr}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn help_lists_the_subcommands_and_bench_flags() {
    let out = sandbox(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for word in ["run", "bench", "screenshot"] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
    let out = sandbox(&["bench", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--scene",
        "--size",
        "--scene-file",
        "--steps",
        "--no-sleep",
        "--json",
        "--dump-poses",
        "--trace-every",
        "--perturb",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

/// With no command and no display, the binary says so in one line, runs
/// the default scene headless, prints the bench summary and exits 0; with
/// a GPU adapter it also saves a screenshot (in its working directory).
/// A build without the `render` feature says that instead of "no display".
#[test]
fn no_command_without_a_display_falls_back_to_a_headless_run() {
    let dir = std::env::temp_dir().join(format!("sandbox-cli-fallback-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .current_dir(&dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("runs the binary");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let reason = if cfg!(feature = "render") {
        "sandbox: no display"
    } else {
        "sandbox: built without the renderer"
    };
    let says: Vec<&str> = stderr.lines().filter(|l| l.starts_with(reason)).collect();
    assert_eq!(says.len(), 1, "{stderr}");
    assert!(says[0].contains("running the scene headless"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("scene            falling-boxes (size 1000)"), "{stdout}");
    assert!(stdout.contains("steps            600 of 1/60 s"), "{stdout}");
    let screenshot = dir.join("sandbox-headless.png");
    if stderr.contains("saved a headless screenshot") {
        let image = image::open(&screenshot).unwrap();
        assert_eq!((image.width(), image.height()), (1280, 720));
    } else {
        assert!(
            !cfg!(feature = "render")
                || std::env::var("SANDBOX_REQUIRE_GPU").map_or(true, |v| v != "1"),
            "SANDBOX_REQUIRE_GPU=1 but no headless screenshot: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_summary_is_the_last_line_with_the_required_keys() {
    let out = sandbox(&["bench", "--scene", "pyramid", "--size", "4", "--steps", "30", "--json"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with('{') && last.ends_with('}'), "{last}");
    for key in ["scene", "bodies", "steps", "ms_per_step", "contacts", "max_penetration", "hash"] {
        assert!(last.contains(&format!("\"{key}\":")), "missing {key} in {last}");
    }
    assert!(last.contains("\"scene\":\"pyramid\""));
    assert!(last.contains("\"bodies\":10,"));
    assert!(last.contains("\"steps\":30,"));
}

#[test]
fn dump_poses_writes_a_row_per_dynamic_body_and_runs_are_reproducible() {
    let dir = std::env::temp_dir();
    let paths = [dir.join("sandbox-cli-test-a.csv"), dir.join("sandbox-cli-test-b.csv")];
    for p in &paths {
        let out = stack_of_five_awake("20", &["--dump-poses", p.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let a = std::fs::read_to_string(&paths[0]).unwrap();
    let b = std::fs::read_to_string(&paths[1]).unwrap();
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines[0], "id,x,y,z,qw,qx,qy,qz");
    assert_eq!(lines.len(), 6);
    // Ids follow creation order, the ground being body 0.
    assert!(lines[1].starts_with("1,") && lines[5].starts_with("5,"));
    assert_eq!(a, b, "two runs dumped different poses");
    for p in &paths {
        let _ = std::fs::remove_file(p);
    }
}

/// `--trace-every 10` over 25 steps prints steps 0, 10, 20 and the last,
/// 24, before the summary; a stack of 5 with sleeping off keeps its 5
/// bodies awake, and by the last step it rests on 5 contact surfaces.
#[test]
fn trace_every_prints_the_awake_bodies_and_points_at_each_multiple_and_the_last_step() {
    let out = stack_of_five_awake("25", &["--trace-every", "10"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let trace: Vec<&str> = stdout.lines().filter(|l| l.starts_with("step ")).collect();
    let steps: Vec<u64> =
        trace.iter().map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(steps, [0, 10, 20, 24], "{stdout}");
    let field = |line: &str, key: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == key).unwrap_or_else(|| panic!("{key}: {line}"));
        words[at + 1].parse().unwrap()
    };
    for line in &trace {
        assert_eq!(field(line, "awake"), 5, "{line}");
    }
    // Five boxes stacked on the ground touch it and each other: at least
    // one point on each of the five surfaces.
    assert!(field(trace[3], "points") >= 5, "{}", trace[3]);
    assert!(trace[3].ends_with(" ms"), "{}", trace[3]);
}

#[test]
fn dump_to_an_unwritable_path_fails_cleanly() {
    let out = sandbox(&[
        "bench",
        "--scene",
        "stack",
        "--size",
        "2",
        "--steps",
        "1",
        "--dump-poses",
        "/nonexistent-dir/x.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error:"));
}

/// `sandbox bench` on a stack of 5 boxes with sleeping off, for `steps`
/// steps, with `extra` arguments.
fn stack_of_five_awake(steps: &str, extra: &[&str]) -> std::process::Output {
    let args = ["bench", "--scene", "stack", "--size", "5", "--steps", steps, "--no-sleep"];
    sandbox(&[&args[..], extra].concat())
}

fn scene_path(name: &str) -> String {
    format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json_line(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    stdout.lines().last().unwrap().to_owned()
}

fn json_value<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("no {key}: {line}"))
        + key.len()
        + 3;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap();
    &rest[..end]
}

#[test]
fn scene_file_gives_the_same_hash_as_the_named_scene_it_copies() {
    let path = scene_path("stack5.toml");
    let from_file =
        json_line(&sandbox(&["bench", "--scene-file", &path, "--steps", "90", "--json"]));
    let named = json_line(&sandbox(&[
        "bench", "--scene", "stack", "--size", "5", "--steps", "90", "--json",
    ]));
    assert_eq!(json_value(&from_file, "scene"), format!("\"{path}\""));
    assert_eq!(json_value(&from_file, "bodies"), "5");
    assert_eq!(json_value(&from_file, "steps"), "90");
    assert_eq!(json_value(&from_file, "hash"), json_value(&named, "hash"));
    assert_eq!(json_value(&from_file, "sleep"), "true");

    let no_sleep = json_line(&sandbox(&[
        "bench",
        "--scene-file",
        &path,
        "--steps",
        "90",
        "--no-sleep",
        "--json",
    ]));
    assert_eq!(json_value(&no_sleep, "sleep"), "false");
}

#[test]
fn scene_file_bodies_count_only_dynamic_bodies_and_dump_follows() {
    // mixed_small.toml: a static ramp and five dynamic bodies.
    let dump = std::env::temp_dir().join("sandbox-cli-test-scene-file.csv");
    let out = sandbox(&[
        "bench",
        "--scene-file",
        &scene_path("mixed_small.toml"),
        "--steps",
        "10",
        "--json",
        "--dump-poses",
        dump.to_str().unwrap(),
    ]);
    let line = json_line(&out);
    assert_eq!(json_value(&line, "bodies"), "5");
    let csv = std::fs::read_to_string(&dump).unwrap();
    let ids: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    // Ground 0, ramp 1, then the dynamic bodies 2..=6.
    assert_eq!(ids, ["2", "3", "4", "5", "6"]);
    let _ = std::fs::remove_file(&dump);
}

#[test]
fn bad_scene_file_arguments_fail_cleanly() {
    let dir = std::env::temp_dir();
    let bad = dir.join("sandbox-cli-test-bad-scene.toml");
    std::fs::write(&bad, "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n\n[[body]]\nshape = { type = \"sphere\", radius = -2 }\n").unwrap();
    let broken = dir.join("sandbox-cli-test-broken-scene.toml");
    std::fs::write(&broken, "[[body]]\nshape = { type = \"sphere\", radius = 1 \n").unwrap();
    let bad = bad.to_str().unwrap();
    let broken = broken.to_str().unwrap();
    let stack5 = scene_path("stack5.toml");
    for (args, needle) in [
        (vec!["bench", "--scene-file"], "a value is required".to_owned()),
        (vec!["bench", "--scene", "stack", "--scene-file", &stack5], "cannot be used".to_owned()),
        (vec!["bench", "--scene-file", &stack5, "--size", "3"], "--size".to_owned()),
        (vec!["bench", "--steps", "3"], "--scene-file".to_owned()),
        (vec!["bench", "--scene-file", "/nonexistent-dir/s.toml"], "reading scene file".to_owned()),
        (vec!["bench", "--scene-file", bad], "sphere radius must be positive, got -2".to_owned()),
        (vec!["bench", "--scene-file", bad], format!("{bad}:5:37")),
        (vec!["bench", "--scene-file", broken], format!("{broken}:2:")),
    ] {
        let out = sandbox(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
        assert!(stderr.contains(&needle), "{args:?}: expected `{needle}` in {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    }
    let _ = std::fs::remove_file(bad);
    let _ = std::fs::remove_file(broken);
}

/// Runs the binary with `args` (split at spaces) and closes our end of its
/// stdout at once, while it is still stepping: it must end quietly, exit 0
/// and no panic.
fn ends_quietly_on_a_closed_stdout(args: &str) {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(args.split_whitespace())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs the binary");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("waits for the binary");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args} panicked: {stderr}");
    assert!(out.status.success(), "{args}: exit {:?}: {stderr}", out.status.code());
}

/// A reader that closes the pipe before the report is written (as
/// `sandbox bench | head -0` does) ends the output quietly: exit 0, no panic.
#[test]
fn closed_stdout_ends_quietly() {
    ends_quietly_on_a_closed_stdout("bench --scene pyramid --size 10 --steps 60 --json");
}

/// The same with `--trace-every`, which writes a line every step while
/// stepping: the first write after the close ends the run quietly (it had
/// panicked in `println!`), and at once: 100,000 steps are not run.
#[test]
fn closed_stdout_ends_a_traced_run_quietly() {
    ends_quietly_on_a_closed_stdout(
        "bench --scene pyramid --size 10 --steps 100000 --trace-every 1",
    );
}

/// `--perturb 0` is the scene as built (the same hash as no flag), and
/// `--perturb 1` moves the bodies by 10 µm, which changes the final poses.
#[test]
fn perturb_moves_the_bodies_only_when_asked() {
    let hash = |extra: &[&str]| {
        let mut args = vec!["bench", "--scene", "falling-boxes", "--size", "30", "--steps", "40"];
        args.extend_from_slice(extra);
        let out = sandbox(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines().find(|l| l.starts_with("hash")).expect("a hash line").to_owned()
    };
    let plain = hash(&[]);
    assert_eq!(plain, hash(&["--perturb", "0"]));
    assert_ne!(plain, hash(&["--perturb", "1"]));
}
