//! The scene files the app's picker lists beside the built-in scenes: the
//! TOML examples in the crate's `scenes/` folder (`sandbox/scenes/*.toml`),
//! found once, in name order. A build run from elsewhere, where that
//! folder is gone, lists none; any file can still be dropped on the window.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folder of the example scene files, as the crate was built from.
pub const SCENE_FILE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");

/// The `*.toml` files of `dir`, sorted by path; none if it cannot be read.
pub fn scene_files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// The example scene files of [`SCENE_FILE_DIR`], read on the first call.
pub fn example_scene_files() -> &'static [PathBuf] {
    static FILES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FILES.get_or_init(|| scene_files_in(Path::new(SCENE_FILE_DIR)))
}
