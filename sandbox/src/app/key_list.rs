//! The list of the app's keys and mouse gestures, written once: the help
//! overlay (F1 or ?) shows it, and the key paragraphs of README.md and
//! sandbox/README.md are its [`markdown`] (a test checks that they match).
//! The bindings themselves are `key_action` in `controller.rs` and
//! `probe_key_action` in `probe/keys.rs`; the tests there press every key
//! this list names.

/// One line of the list: the keys (or gesture) and what they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyHelp {
    /// The keys, as the user presses them ("N or .", "Ctrl+Q").
    pub keys: &'static str,
    /// What they do.
    pub what: &'static str,
}

const fn k(keys: &'static str, what: &'static str) -> KeyHelp {
    KeyHelp { keys, what }
}

/// The keys everywhere in the app (the probe adds [`PROBE_KEYS`]).
pub const APP_KEYS: &[KeyHelp] = &[
    k("left drag", "orbit the camera"),
    k("right or middle drag", "pan"),
    k("wheel", "zoom"),
    k("F", "frame the scene (or the probe) right of the HUD"),
    k("Space", "pause or resume"),
    k("N or .", "one step while paused"),
    k("R", "restart (re-reads a scene file)"),
    k("1-5", "pyramid, falling-boxes, stack, wall, mixed"),
    k("6", "the probe (GJK and EPA between two shapes)"),
    k("B or Shift+click", "shoot a cube from the camera"),
    k("Ctrl+drag", "pull a dynamic body on a spring (a ragdoll's part, a chain link)"),
    k("C, A, I, J", "contact points, AABBs, island colours, joint axes"),
    k("H", "hide or show the HUD"),
    k("F1 or ?", "this help"),
    k("F12", "save a screenshot (the HUD shows where)"),
    k("Esc or Ctrl+Q", "quit"),
    k("drop a .toml file", "load that scene file"),
];

/// The probe's own keys, which come before the app's while it is open.
pub const PROBE_KEYS: &[KeyHelp] = &[
    k("arrows, PageUp, PageDown", "move B (3D: arrows in the ground plane)"),
    k("I/O, K/L, comma/period", "turn B about X, Y, Z"),
    k("left drag on B", "drag B (elsewhere: orbit, in 2D pan)"),
    k("N, B", "next, previous GJK-EPA step"),
    k("Esc or Enter", "back to the final state (Esc again quits)"),
    k("Space", "resolve: push B out every frame"),
    k("Tab", "3D or 2D"),
    k("C", "new random cloud"),
    k("R", "reset B"),
];

/// The list as the READMEs show it: a bullet per line, the probe's keys
/// after a line of their own.
pub fn markdown() -> String {
    let mut out = String::new();
    for line in APP_KEYS {
        out.push_str(&format!("- {}: {}\n", line.keys, line.what));
    }
    out.push_str("\nIn the probe, before the keys above:\n\n");
    for line in PROBE_KEYS {
        out.push_str(&format!("- {}: {}\n", line.keys, line.what));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both READMEs carry the list verbatim, so they cannot drift from
    /// what the help overlay shows.
    #[test]
    fn the_readmes_key_paragraphs_are_the_help_list() {
        let list = markdown();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
        let crate_readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        for path in [root, crate_readme] {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(
                text.contains(&list),
                "{path} does not carry the key list of app/key_list.rs; it should read:\n{list}"
            );
        }
    }
}
