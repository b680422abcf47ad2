//! The `sandbox bench` command line: bad arguments exit non-zero with a
//! message (never a panic), `--json` ends stdout with the required keys,
//! and `--dump-poses` writes one CSV row per dynamic body.

use std::process::Command;

fn sandbox(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sandbox")).args(args).output().expect("runs the binary")
}

#[test]
fn bad_arguments_fail_cleanly() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["bench"],
        &["bench", "--scene"],
        &["bench", "--scene", "tower"],
        &["bench", "--scene", "stack", "--size", "-3"],
        &["bench", "--scene", "stack", "--size", "0"],
        &["bench", "--scene", "stack", "--steps", "many"],
        &["bench", "--scene", "stack", "--wat"],
    ] {
        let out = sandbox(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    }
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
        let out = sandbox(&[
            "bench",
            "--scene",
            "stack",
            "--size",
            "5",
            "--steps",
            "20",
            "--no-sleep",
            "--dump-poses",
            p.to_str().unwrap(),
        ]);
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
