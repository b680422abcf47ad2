//! Determinism across instruction sets: every SCENES.md scene (at a
//! smaller size, 300 steps) gives the same pose hash whichever
//! `SANDBOX_SIMD` target the solver passes run on, for each target this
//! CPU offers; and a bad value warns and falls back instead of failing.
//! The target is read once per process, so each run is a `sandbox bench`
//! child process.

use std::process::Command;

use sandbox::SimdTarget;
use sandbox::tools::SIMD_ENV_VAR;

/// The scenes and their reduced sizes.
const SCENES: [(&str, &str); 5] = [
    ("pyramid", "20"),
    ("falling-boxes", "200"),
    ("stack", "20"),
    ("wall", "10"),
    ("mixed", "100"),
];

/// Runs `sandbox bench` on `scene` with `SANDBOX_SIMD=value`, returning
/// its JSON summary and stderr.
fn bench(scene: &str, size: &str, value: &str) -> (serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["bench", "--scene", scene, "--size", size, "--steps", "300", "--json"])
        .env(SIMD_ENV_VAR, value)
        .output()
        .expect("runs the binary");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{scene} under {value}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().expect("a JSON line");
    (serde_json::from_str(line).expect("valid JSON"), stderr)
}

#[test]
fn every_scene_hashes_the_same_under_every_supported_target() {
    let targets: Vec<_> = SimdTarget::ALL.into_iter().filter(|t| t.is_supported()).collect();
    assert!(targets.contains(&SimdTarget::Baseline));
    for (scene, size) in SCENES {
        let mut hashes = Vec::new();
        for t in &targets {
            let (report, _) = bench(scene, size, t.name());
            assert_eq!(report["simd"], t.name(), "{scene}: asked for {t}");
            hashes.push((t.name(), report["hash"].as_str().unwrap().to_owned()));
        }
        assert!(hashes.iter().all(|(_, h)| *h == hashes[0].1), "{scene} {size}: {hashes:?}");
    }
}

#[test]
fn unknown_or_unsupported_target_warns_and_runs_on_the_best() {
    let mut bad = vec!["avx1024".to_owned()];
    bad.extend(SimdTarget::ALL.iter().filter(|t| !t.is_supported()).map(|t| t.name().to_owned()));
    for value in bad {
        let (report, stderr) = bench("stack", "3", &value);
        assert!(stderr.contains("warning:") && stderr.contains(&value), "{value}: {stderr}");
        assert_eq!(report["simd"], SimdTarget::best_supported().name(), "{value}");
    }
}
