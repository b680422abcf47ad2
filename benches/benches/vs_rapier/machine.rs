//! The labels every committed benchmark result carries: the machine (CPU
//! model and logical cores from `/proc/cpuinfo`), the date, the load average
//! and the rapier3d version in `Cargo.lock`; and the one way the benchmarks
//! pick rows from an environment variable. Shared by `vs_rapier`, `scaling`
//! and `threads`.

use std::time::{SystemTime, UNIX_EPOCH};

/// The 1-, 5- and 15-minute load averages, from `/proc/loadavg`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The CPU model (from `/proc/cpuinfo`) and the number of logical cores.
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map_or("unknown CPU".to_owned(), |m| m.trim().to_owned());
    let cores = info.lines().filter(|l| l.starts_with("processor")).count();
    format!("{model}, {cores} logical cores")
}

/// The version of rapier3d in the workspace's `Cargo.lock`.
pub fn rapier_version() -> String {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock"))
        .unwrap_or_default();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"rapier3d\""
            && let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = "))
        {
            return v.trim_matches('"').to_owned();
        }
    }
    "0.36".into()
}

/// Today's date (UTC) as `YYYY-MM-DD`, by the civil-from-days conversion of
/// Howard Hinnant's date algorithms.
pub fn today() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The machine and date lines that open every report (Markdown list items).
pub fn machine_and_date() -> String {
    format!("- Machine: {}\n- Date: {} (UTC)\n", cpu_model(), today())
}

/// The rows of `cases` that the comma-separated `list` names by label, in
/// its order; an unknown label is an error naming `var` and the labels.
pub fn select<C: Copy>(
    cases: &[C],
    label: fn(&C) -> &str,
    var: &str,
    list: &str,
) -> Result<Vec<C>, String> {
    let pick = |l: &str| {
        cases.iter().find(|c| label(c) == l).copied().ok_or_else(|| {
            let known: Vec<_> = cases.iter().map(label).collect();
            format!("unknown case `{l}` in {var}; known: {}", known.join(","))
        })
    };
    list.split(',').map(str::trim).filter(|l| !l.is_empty()).map(pick).collect()
}
