//! Scene-file text from hostile hands: property tests that mutate valid
//! files (truncation, byte flips, huge and tiny numbers, deep nesting,
//! duplicated keys and tables, very long arrays) and check that every
//! mutant ends in a clear error (a message, and a rendering that names the
//! file) or a valid scene that builds into a world whose invariants hold,
//! never a panic. The work is bounded by the loader's limits, not by a
//! clock: `MAX_SCENE_FILE_BYTES` (checked before parsing, tested here at the
//! boundary), `MAX_HULL_POINTS` per hull and `MAX_SCENE_BODIES`. The
//! slowest case's time is printed (`--nocapture`) for the record, never
//! asserted: timings on a shared machine are noise.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use sandbox::{
    MAX_HULL_POINTS, MAX_SCENE_BODIES, MAX_SCENE_FILE_BYTES, SceneFile, SceneFileError,
    StepSettings, World,
};

/// Valid files the mutations start from: the shipped examples and one with
/// every key.
const BASES: [&str; 5] = [
    include_str!("../scenes/mixed_small.toml"),
    include_str!("../scenes/stack5.toml"),
    include_str!("../scenes/tower.toml"),
    include_str!("../scenes/new_shapes.toml"),
    r#"ground = true
[settings]
gravity = [0.0, -9.81, 0.0]
substeps = 4
push_iterations = 2
relax_iterations = 1
contact_hertz = 30.0
contact_recycling = false
sleep = true

[[body]]
kind = "dynamic"
shape = { type = "hull", points = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] }
position = [0.0, 2.0, 0.0]
rotation = { euler = [0.1, 0.2, 0.3] }
linear_velocity = [1.0, 0.0, 0.0]
angular_velocity = [0.0, 1.0, 0.0]
density = 500.0
friction = 0.5
restitution = 0.2
repeat = { count = [2, 1, 2], step = [1.5, 0.0, 1.5] }

[[body]]
kind = "fixed"
shape = { type = "capsule", half_height = 0.5, radius = 0.25 }
rotation = { quaternion = [1.0, 0.0, 0.0, 0.0] }
position = [3.0, 1.0, 0.0]
"#,
];

/// Numbers a hostile file may hold, written as TOML would read them.
const HOSTILE_NUMBERS: [&str; 16] = [
    "1e308",
    "-1e308",
    "1e39",
    "3.5e38",
    "1e-320",
    "-0.0",
    "0",
    "nan",
    "-inf",
    "inf",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "0x7fffffff",
    "1e-45",
    "4294967297",
];

/// One change to a file.
#[derive(Clone, Debug)]
enum Mutation {
    /// Keep the first `fraction` of the bytes.
    Truncate(f64),
    /// XOR the byte at each `fraction` of the length with the mask.
    FlipBytes(Vec<(f64, u8)>),
    /// Replace the `k`-th number (counted modulo their count) by a hostile one.
    HostileNumber(usize, usize),
    /// Wrap the `k`-th number in `depth` brackets (or inline tables).
    Nest(usize, usize, bool),
    /// Write the `k`-th line twice.
    DuplicateLine(usize),
    /// Append a body whose hull lists `n` points, or whose position has `n`
    /// components.
    LongArray(usize, bool),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64).prop_map(Mutation::Truncate),
        prop::collection::vec((0.0..1.0f64, 1..=255u8), 1..8).prop_map(Mutation::FlipBytes),
        (0..64usize, 0..HOSTILE_NUMBERS.len()).prop_map(|(k, n)| Mutation::HostileNumber(k, n)),
        (0..64usize, 1..4000usize, any::<bool>()).prop_map(|(k, d, t)| Mutation::Nest(k, d, t)),
        (0..64usize).prop_map(Mutation::DuplicateLine),
        // Long, but short of the hull limit (tested at the limit below): a
        // debug build takes seconds for a hull of thousands of points.
        (0..2000usize, any::<bool>()).prop_map(|(n, hull)| Mutation::LongArray(n, hull)),
    ]
}

/// Byte ranges of the numbers in `text` (a digit run with its sign, point
/// and exponent), found without a TOML parser.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b"._-+".contains(&b[j])) {
                j += 1;
            }
            out.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn apply(text: &str, m: &Mutation) -> String {
    let nth = |k: usize| {
        let found = numbers(text);
        (!found.is_empty()).then(|| found[k % found.len()])
    };
    let splice = |(s, e): (usize, usize), with: &str| format!("{}{with}{}", &text[..s], &text[e..]);
    match m {
        Mutation::Truncate(f) => {
            let mut cut = (text.len() as f64 * f) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_owned()
        }
        Mutation::FlipBytes(flips) => {
            let mut bytes = text.as_bytes().to_vec();
            for &(f, mask) in flips {
                let i = ((bytes.len() as f64 * f) as usize).min(bytes.len().saturating_sub(1));
                if let Some(b) = bytes.get_mut(i) {
                    *b ^= mask;
                }
            }
            // A file that is not UTF-8 is refused on reading; the parser
            // takes text, so the flipped bytes are read lossily.
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Mutation::HostileNumber(k, n) => match nth(*k) {
            Some(range) => splice(range, HOSTILE_NUMBERS[*n]),
            None => text.to_owned(),
        },
        Mutation::Nest(k, depth, table) => match nth(*k) {
            Some(range) => {
                let value = &text[range.0..range.1];
                let (open, close) = if *table { ("{ a = ", " }") } else { ("[", "]") };
                splice(range, &format!("{}{value}{}", open.repeat(*depth), close.repeat(*depth)))
            }
            None => text.to_owned(),
        },
        Mutation::DuplicateLine(k) => {
            let lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return text.to_owned();
            }
            let k = k % lines.len();
            let mut out: Vec<&str> = lines[..=k].to_vec();
            out.extend_from_slice(&lines[k..]);
            out.join("\n")
        }
        Mutation::LongArray(n, hull) => {
            let mut out = text.to_owned();
            if *hull {
                out.push_str("\n[[body]]\nkind = \"fixed\"\nshape = { type = \"hull\", points = [");
                for i in 0..*n {
                    // Points on a helix: most are hull vertices.
                    let t = i as f32 * 0.37;
                    out.push_str(&format!("[{}, {}, {}],", t.cos(), (i as f32) * 1e-3, t.sin()));
                }
                out.push_str("] }\n");
            } else {
                out.push_str("\n[[body]]\nshape = { type = \"sphere\", radius = 1 }\nposition = [");
                out.push_str(&"1.0, ".repeat(*n));
                out.push_str("]\n");
            }
            out
        }
    }
}

/// Parses `text`; an error must explain itself, a scene must build (if
/// small enough to build here) into a valid world. Returns the time taken.
fn check(text: &str) -> Duration {
    let started = Instant::now();
    match SceneFile::parse(text) {
        Err(e) => {
            assert!(!e.to_string().is_empty());
            let shown = e.render("fuzz.toml", text);
            assert!(shown.starts_with("error: ") && shown.contains("fuzz.toml"), "{shown}");
        }
        Ok(scene) => {
            assert!(scene.body_count() as u64 <= MAX_SCENE_BODIES);
            // Building a million bodies proves nothing more about the file.
            if scene.body_count() <= 1000 {
                let mut world =
                    World::with_settings(scene.step_settings(StepSettings::default())).unwrap();
                match scene.build(&mut world) {
                    Ok(bodies) => assert_eq!(bodies.len(), scene.body_count()),
                    Err(e) => assert!(matches!(e, SceneFileError::World { .. }), "{e:?}"),
                }
                world.step(1.0 / 60.0);
                world.validate().unwrap();
            }
        }
    }
    started.elapsed()
}

#[test]
fn mutated_scene_files_give_an_error_or_a_valid_scene() {
    let config = Config {
        cases: 200,
        rng_seed: RngSeed::Fixed(0x5ce4_e0f1),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let slowest = std::cell::Cell::new((Duration::ZERO, 0usize));
    let strategy = (0..BASES.len(), prop::collection::vec(mutation(), 1..4));
    runner
        .run(&strategy, |(base, mutations)| {
            let mut text = BASES[base].to_owned();
            for m in &mutations {
                text = apply(&text, m);
            }
            let took = check(&text);
            if took > slowest.get().0 {
                slowest.set((took, text.len()));
            }
            Ok(())
        })
        .unwrap();
    let (took, bytes) = slowest.get();
    println!("slowest case: {took:?} for {bytes} bytes");
}

#[test]
fn every_base_file_is_valid() {
    for text in BASES {
        SceneFile::parse(text).unwrap();
    }
}

/// Deep nesting is refused by the TOML parser's recursion limit, before it
/// can exhaust the stack, however deep.
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [100, 10_000, 1_000_000] {
        for (open, close) in [("[", "]"), ("{ a = ", " }")] {
            let text = format!(
                "[[body]]\nshape = {{ type = \"sphere\", radius = 1 }}\nposition = {}1{}\n",
                open.repeat(depth),
                close.repeat(depth)
            );
            assert!(SceneFile::parse(&text).is_err(), "depth {depth}");
        }
    }
    let dotted = format!("{} = 1\n", vec!["a"; 100_000].join("."));
    assert!(SceneFile::parse(&dotted).is_err());
}

/// A file one byte over the limit is refused before parsing, naming the
/// limit; one at the limit is parsed (here: a valid file padded with a
/// comment).
#[test]
fn files_longer_than_the_limit_are_refused_before_parsing() {
    let base = BASES[1];
    let pad = |len: usize| format!("{base}\n#{}", "x".repeat(len - base.len() - 2));
    let at_limit = pad(MAX_SCENE_FILE_BYTES);
    assert_eq!(at_limit.len(), MAX_SCENE_FILE_BYTES);
    assert_eq!(SceneFile::parse(&at_limit).unwrap().body_count(), 5);
    let over = pad(MAX_SCENE_FILE_BYTES + 1);
    let e = SceneFile::parse(&over).unwrap_err();
    assert_eq!(e, SceneFileError::FileTooLarge { bytes: MAX_SCENE_FILE_BYTES as u64 + 1 });
    assert!(e.to_string().contains(&MAX_SCENE_FILE_BYTES.to_string()), "{e}");
    // Through the loader, from disk: read no further than the limit.
    let path = std::env::temp_dir().join("sandbox-fuzz-too-large.toml");
    std::fs::write(&path, format!("{over}{}", "y".repeat(MAX_SCENE_FILE_BYTES))).unwrap();
    let loaded = sandbox::tools::SceneSource::File(path.clone()).build(StepSettings::default());
    let _ = std::fs::remove_file(&path);
    match loaded {
        Err(sandbox::tools::LoadError::File { error, .. }) => assert!(
            matches!(*error, SceneFileError::FileTooLarge { bytes } if bytes == MAX_SCENE_FILE_BYTES as u64 + 1),
            "{error:?}"
        ),
        other => panic!("{other:?}"),
    }
}

/// A hull of `MAX_HULL_POINTS` points is read; one more point is an error
/// naming the count and the limit.
#[test]
fn hulls_with_more_points_than_the_limit_are_refused() {
    let hull_file = |n: usize| {
        let points: Vec<String> = (0..n)
            .map(|i| {
                let t = i as f32 * 0.37;
                format!("[{}, {}, {}]", t.cos(), i as f32 * 1e-3, t.sin())
            })
            .collect();
        format!(
            "[[body]]\nkind = \"fixed\"\nshape = {{ type = \"hull\", points = [{}] }}\n",
            points.join(", ")
        )
    };
    assert_eq!(SceneFile::parse(&hull_file(MAX_HULL_POINTS)).unwrap().body_count(), 1);
    let e = SceneFile::parse(&hull_file(MAX_HULL_POINTS + 1)).unwrap_err();
    assert!(
        matches!(e, SceneFileError::TooManyHullPoints { count, .. } if count == MAX_HULL_POINTS + 1),
        "{e:?}"
    );
    assert!(e.to_string().contains(&MAX_HULL_POINTS.to_string()), "{e}");
}

/// Regression (found while measuring the loader on a 4 MiB array): serde
/// reads a fixed-length array from the start of a longer one, so
/// `position = [1, 2, 3, 4]` was taken as `[1, 2, 3]` without a word. Every
/// fixed-length array refuses extra (and missing) elements, at its line.
#[test]
fn arrays_longer_or_shorter_than_their_type_are_refused() {
    let body = "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n";
    let long = format!("position = [{}]", vec!["0.5"; 10_000].join(", "));
    for (line, what) in [
        ("position = [1.0, 2.0, 3.0, 4.0]", "4"),
        ("position = [1.0, 2.0]", "2"),
        (long.as_str(), "10000"),
        ("linear_velocity = [0, 0, 0, 0]", "4"),
        ("rotation = { euler = [0.1, 0.2, 0.3, 0.4] }", "4"),
        ("rotation = { quaternion = [1, 0, 0, 0, 0] }", "5"),
        ("repeat = { count = [1, 2, 3, 4], step = [1, 1, 1] }", "4"),
        ("repeat = { count = [1, 2, 3], step = [1, 1, 1, 1] }", "4"),
    ] {
        let e = SceneFile::parse(&format!("{body}{line}\n")).unwrap_err();
        assert!(matches!(e, SceneFileError::Syntax { .. }), "{line}: {e:?}");
        assert_eq!(e.location().map(|l| l.line), Some(3), "{line}: {e}");
        assert!(e.to_string().contains(&format!("invalid length {what}")), "{line}: {e}");
    }
    let e =
        SceneFile::parse("[[body]]\nshape = { type = \"cuboid\", half_extents = [1, 1, 1, 1] }\n")
            .unwrap_err();
    assert_eq!(e.location().map(|l| l.line), Some(2), "{e}");
}
