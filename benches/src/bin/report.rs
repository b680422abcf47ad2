//! `cargo run -p benches --release --bin report`: turns criterion's results
//! into `benches/REPORT.md` (tables, ratios against parry3d, the issue's
//! targets) and `benches/plots/*.svg` (nanoseconds per support call against
//! vertex count, one line per strategy).
//!
//! Run the suites first: `cargo bench -p benches`. The report reads
//! `target/criterion/**/new/{benchmark,estimates}.json` and labels itself
//! with this machine's CPU.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::prelude::*;

/// The report is a binary: a message and a non-zero exit are all an error needs.
type Result<T> = std::result::Result<T, String>;

/// One criterion measurement: mean time per iteration, in nanoseconds.
#[derive(Clone, Debug)]
struct Measurement {
    group: String,
    function: String,
    parameter: Option<String>,
    mean_ns: f64,
}

fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every `new/benchmark.json` under `dir`, with its estimates.
fn collect(dir: &Path, out: &mut Vec<Measurement>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            let bench = path.join("benchmark.json");
            let est = path.join("estimates.json");
            if bench.exists() && est.exists() {
                let b = read_json(&bench)?;
                let e = read_json(&est)?;
                let s = |k: &str| b.get(k).and_then(|v| v.as_str()).map(str::to_string);
                let mean = e.pointer("/mean/point_estimate").and_then(|v| v.as_f64());
                // `BenchmarkId::from_parameter` ids have no function name.
                if let (Some(group), Some(mean_ns)) = (s("group_id"), mean) {
                    let function = s("function_id").unwrap_or_default();
                    out.push(Measurement { group, function, parameter: s("value_str"), mean_ns });
                }
            }
        } else {
            collect(&path, out)?;
        }
    }
    Ok(())
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock (the civil
/// calendar from a day count, after Howard Hinnant's `civil_from_days`).
fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
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

/// The 1, 5 and 15 minute load averages, as `/proc/loadavg` gives them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// `support` results: group -> strategy -> size -> ns.
type SupportTable = BTreeMap<String, BTreeMap<String, BTreeMap<usize, f64>>>;

fn support_table(ms: &[Measurement]) -> SupportTable {
    let mut t = SupportTable::new();
    for m in ms.iter().filter(|m| m.group.starts_with("support/")) {
        if let Some(size) = m.parameter.as_deref().and_then(|p| p.parse().ok()) {
            t.entry(m.group.clone())
                .or_default()
                .entry(m.function.clone())
                .or_default()
                .insert(size, m.mean_ns);
        }
    }
    t
}

/// `queries` results: group ("{query}/{pair}") -> engine -> ns.
fn query_table(ms: &[Measurement]) -> BTreeMap<String, BTreeMap<String, f64>> {
    let mut t: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for m in ms.iter().filter(|m| !m.group.starts_with("support/") && !is_bvh(&m.group)) {
        let engine = m.parameter.clone().unwrap_or_else(|| m.function.clone());
        t.entry(m.group.clone()).or_default().insert(engine, m.mean_ns);
    }
    t
}

/// Whether a group is one of the `bvh` suite's (ids `{group}/{engine}/{boxes}`).
fn is_bvh(group: &str) -> bool {
    group.starts_with("bvh_")
}

/// `bvh` results: (group, boxes) -> engine -> ns.
fn bvh_table(ms: &[Measurement]) -> BTreeMap<(String, String), BTreeMap<String, f64>> {
    let mut t: BTreeMap<(String, String), BTreeMap<String, f64>> = BTreeMap::new();
    for m in ms.iter().filter(|m| is_bvh(&m.group)) {
        let boxes = m.parameter.clone().unwrap_or_default();
        t.entry((m.group.clone(), boxes)).or_default().insert(m.function.clone(), m.mean_ns);
    }
    t
}

const STRATEGY_ORDER: [&str; 6] =
    ["brute_force", "simd", "hill_climb", "warm_started", "cube_map", "auto"];

fn plot(group: &str, rows: &BTreeMap<String, BTreeMap<usize, f64>>, path: &Path) -> Result<()> {
    let (mut lo, mut hi) = (f64::MAX, 0.0f64);
    let mut max_size = 8usize;
    for row in rows.values() {
        for (&n, &ns) in row {
            lo = lo.min(ns);
            hi = hi.max(ns);
            max_size = max_size.max(n);
        }
    }
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{group}: ns per support call"), ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((8f64..max_size as f64).log_scale(), (lo * 0.8..hi * 1.25).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("hull vertices")
        .y_desc("ns / call")
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, name) in STRATEGY_ORDER.iter().enumerate() {
        let Some(row) = rows.get(*name) else { continue };
        let colour = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, f64)> = row.iter().map(|(&n, &ns)| (n as f64, ns)).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

/// Every `queries` row's collide / parry3d ratio, sorted, one point each
/// (issue 37's rows in a second colour), with the goal of 0.5 as a line.
fn plot_ratios(rows: &[(String, f64)], path: &Path) -> Result<()> {
    let mut sorted: Vec<&(String, f64)> = rows.iter().collect();
    sorted.sort_by(|x, y| x.1.total_cmp(&y.1));
    let hi = sorted.last().map_or(1.0, |r| r.1).max(1.0) * 1.3;
    let lo = sorted.first().map_or(0.01, |r| r.1).min(0.5) * 0.7;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption("queries: collide / parry3d time per row, sorted", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..sorted.len() as f64, (lo..hi).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("row (sorted by ratio)")
        .y_desc("collide / parry3d")
        .draw()
        .map_err(|e| e.to_string())?;
    let goal = RED.mix(0.8);
    chart
        .draw_series(LineSeries::new(vec![(0.0, 0.5), (sorted.len() as f64, 0.5)], goal))
        .map_err(|e| e.to_string())?
        .label("goal 0.5")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], goal));
    for (issue_37, name, colour) in
        [(false, "earlier rows", BLUE.to_rgba()), (true, "rows issue 37 added", GREEN.to_rgba())]
    {
        let points: Vec<(f64, f64)> = sorted
            .iter()
            .enumerate()
            .filter(|(_, (g, _))| is_issue_37_row(g) == issue_37)
            .map(|(i, (_, r))| (i as f64 + 0.5, *r))
            .collect();
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| e.to_string())?
            .label(name)
            .legend(move |(x, y)| Circle::new((x + 9, y), 3, colour.filled()));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "–".into(),
    }
}

/// Whether a `queries` group is one of the rows issue 37 added: a pair
/// with a cylinder, cone or rounded cuboid, a ray or shape cast, a point
/// projection or a contact manifold.
fn is_issue_37_row(group: &str) -> bool {
    let (query, pair) = group.split_once('/').unwrap_or((group, ""));
    matches!(query, "cast_ray" | "shape_cast" | "project_point" | "contact_manifold")
        || ["cylinder", "cone", "rounded"].iter().any(|k| pair.contains(k))
}

fn run() -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../target"));
    let criterion = target.join("criterion");
    if !criterion.exists() {
        return Err(format!(
            "no criterion results at {}: run `cargo bench -p benches` first",
            criterion.display()
        ));
    }
    let mut ms = Vec::new();
    collect(&criterion, &mut ms)?;
    if ms.is_empty() {
        return Err(format!("no results under {}", criterion.display()));
    }
    let plots = root.join("plots");
    std::fs::create_dir_all(&plots).map_err(|e| e.to_string())?;

    let mut md = String::new();
    let cpu = cpu_name();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    writeln!(md, "# Benchmark report\n").ok();
    writeln!(
        md,
        "Machine: **{cpu}**, {cores} logical cores (shared, noisy: compare ratios from one run, not absolute numbers across runs).\n\
         Date: {date} (UTC). Load average (1, 5, 15 min) when the report was written, just after the run: {load}{during}.\n\
         Generated by `cargo run -p benches --release --bin report` from `cargo bench -p benches`{run}.\n\
         Times are criterion's mean per call, in nanoseconds.\n",
        date = utc_date(),
        load = load_average(),
        during = std::env::var("BENCH_LOAD_AT_START")
            .map(|l| format!("; at the start of the run: {l}"))
            .unwrap_or_default(),
        run = std::env::var("BENCH_RUN").map(|r| format!(" ({r})")).unwrap_or_default(),
    )
    .ok();

    let support = support_table(&ms);
    let queries = query_table(&ms);

    // The issue's targets first.
    writeln!(md, "## Targets\n\n| target | measured | goal |\n|---|---|---|").ok();
    let s = |group: &str, strat: &str, n: usize| {
        support.get(group).and_then(|g| g.get(strat)).and_then(|r| r.get(&n)).copied()
    };
    writeln!(
        md,
        "| warm-started climb vs scalar brute force, 4096 vertices, turning directions (sphere) | {}× faster | ≥ 20× |",
        ratio(s("support/sphere-turning", "brute_force", 4096), s("support/sphere-turning", "warm_started", 4096))
    )
    .ok();
    let mut simd_min: Option<(String, usize, f64)> = None;
    for (g, rows) in &support {
        if let (Some(scalar), Some(simd)) = (rows.get("brute_force"), rows.get("simd")) {
            for (n, t) in scalar.range(64..) {
                if let Some(v) = simd.get(n) {
                    let r = t / v;
                    if simd_min.as_ref().is_none_or(|m| r < m.2) {
                        simd_min = Some((g.clone(), *n, r));
                    }
                }
            }
        }
    }
    if let Some((g, n, r)) = simd_min {
        writeln!(md, "| SIMD vs scalar brute force, ≥ 64 vertices (worst case: {g}, {n}) | {r:.2}× faster | ≥ 3× |").ok();
    }
    let q = |group: &str, engine: &str| queries.get(group).and_then(|g| g.get(engine)).copied();
    for placement in ["overlapping", "separated"] {
        let g = format!("intersects/hull64-hull64-{placement}");
        writeln!(md, "| GJK intersects hull(64)–hull(64), {placement}: collide / parry3d time | {} | ≤ 0.5 |", ratio(q(&g, "collide"), q(&g, "parry3d"))).ok();
    }
    for pair in ["cuboid-cuboid", "hull32-hull32", "hull64-hull64", "hull1024-hull1024"] {
        let g = format!("penetration/{pair}-overlapping");
        writeln!(
            md,
            "| penetration {pair}, overlapping: collide / parry3d time | {} | ≤ 1 |",
            ratio(q(&g, "collide"), q(&g, "parry3d"))
        )
        .ok();
    }

    // The issue's goal: every queries row at most half of parry3d's time.
    let rows: Vec<(String, f64)> = queries
        .iter()
        .filter_map(|(g, e)| Some((g.clone(), e.get("collide")? / e.get("parry3d")?)))
        .collect();
    if let Some((worst, r)) = rows.iter().max_by(|x, y| x.1.total_cmp(&y.1)) {
        let over = rows.iter().filter(|(_, r)| *r > 0.5).count();
        writeln!(
            md,
            "| every `queries` row, collide / parry3d time (worst: {worst}; {over} of {} rows above 0.5) | {r:.2} | ≤ 0.5 |",
            rows.len()
        )
        .ok();
    }

    // Issue 37's goal: the rows of the kinds and queries it added, each
    // also at most half of parry3d's time.
    let new_rows: Vec<&(String, f64)> = rows.iter().filter(|(g, _)| is_issue_37_row(g)).collect();
    if let Some((worst, r)) = new_rows.iter().max_by(|x, y| x.1.total_cmp(&y.1)) {
        let over = new_rows.iter().filter(|(_, r)| *r > 0.5).count();
        writeln!(
            md,
            "| of those, the rows issue 37 added (new kinds, casts, point projection, manifolds; worst: {worst}; {over} of {} rows above 0.5) | {r:.2} | ≤ 0.5 |",
            new_rows.len()
        )
        .ok();
    }

    // Issue 41's goal: on the mixed-pair rows, each query at most half of
    // parry3d's time.
    let mixed: Vec<String> = ["intersects", "closest_points", "penetration"]
        .iter()
        .map(|query| {
            let g = format!("{query}/mixed");
            format!("{query} {}", ratio(q(&g, "collide"), q(&g, "parry3d")))
        })
        .collect();
    writeln!(
        md,
        "| mixed pairs (issue 41: every kind, 0.1–10 m, random poses, half overlapping), collide / parry3d time | {} | each ≤ 0.5 |",
        mixed.join(", ")
    )
    .ok();

    writeln!(md, "\n## Support strategies (ns per call)\n").ok();
    for (group, rows) in &support {
        let sizes: Vec<usize> = rows
            .values()
            .flat_map(|r| r.keys().copied())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        writeln!(md, "### {group}\n").ok();
        write!(md, "| strategy |").ok();
        for n in &sizes {
            write!(md, " {n} |").ok();
        }
        write!(md, "\n|---|").ok();
        for _ in &sizes {
            write!(md, "---:|").ok();
        }
        writeln!(md).ok();
        for name in STRATEGY_ORDER {
            let Some(row) = rows.get(name) else { continue };
            write!(md, "| {name} |").ok();
            for n in &sizes {
                match row.get(n) {
                    Some(ns) => write!(md, " {ns:.1} |").ok(),
                    None => write!(md, " – |").ok(),
                };
            }
            writeln!(md).ok();
        }
        let file = format!("{}.svg", group.replace('/', "-"));
        plot(group, rows, &plots.join(&file))?;
        writeln!(md, "\n![{group}](plots/{file})\n").ok();
    }

    writeln!(
        md,
        "## Queries (ns per call; ratio = collide / parry3d, below 1 means collide is faster)\n"
    )
    .ok();
    if !rows.is_empty() {
        plot_ratios(&rows, &plots.join("queries-ratios.svg"))?;
        writeln!(md, "![queries ratios](plots/queries-ratios.svg)\n").ok();
    }
    writeln!(md, "| query | pair | collide | parry3d | ratio | hull strategies (ns) |\n|---|---|---:|---:|---:|---|").ok();
    for (group, engines) in &queries {
        let (query, pair) = group.split_once('/').unwrap_or((group, ""));
        let others: Vec<String> = engines
            .iter()
            .filter(|(e, _)| e.starts_with("collide-"))
            .map(|(e, ns)| format!("{} {ns:.0}", e.trim_start_matches("collide-")))
            .collect();
        let c = engines.get("collide").copied();
        let p = engines.get("parry3d").copied();
        writeln!(
            md,
            "| {query} | {pair} | {} | {} | {} | {} |",
            c.map_or("–".into(), |v| format!("{v:.1}")),
            p.map_or("–".into(), |v| format!("{v:.1}")),
            ratio(c, p),
            others.join(", ")
        )
        .ok();
    }

    let bvh = bvh_table(&ms);
    if !bvh.is_empty() {
        writeln!(
            md,
            "\n## Bounding-volume hierarchies (ns per query; ratio = collide / parry3d)\n\n\
             | query | boxes | collide-static | collide-dynamic | parry3d | brute-force | static ratio | dynamic ratio |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|"
        )
        .ok();
        for ((group, boxes), engines) in &bvh {
            let e = |name: &str| engines.get(name).copied();
            let ns = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.1}"));
            writeln!(
                md,
                "| {group} | {boxes} | {} | {} | {} | {} | {} | {} |",
                ns(e("collide-static")),
                ns(e("collide-dynamic")),
                ns(e("parry3d")),
                ns(e("brute-force")),
                ratio(e("collide-static"), e("parry3d")),
                ratio(e("collide-dynamic"), e("parry3d")),
            )
            .ok();
        }
    }

    let out = root.join("REPORT.md");
    std::fs::write(&out, md).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {} and {} plots in {}", out.display(), support.len(), plots.display());
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("report: {e}");
        std::process::exit(1);
    }
}
