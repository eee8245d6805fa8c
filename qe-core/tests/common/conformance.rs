//! The cases of `conformance/` (the repository's copy of the shared conformance suite), for every
//! test that replays them: `qe-core`'s own, and, through `#[path]`, the `qe` command's and the C
//! ABI's.

use std::path::{Path, PathBuf};

/// Every case record (`NAME.json`) below `conformance/`, in every subdirectory at any depth,
/// sorted.
///
/// # Panics
/// If the directory cannot be read, if it holds no case, or if a case and its expectation
/// (`NAME.expect.json`) are not in pairs: a case a runner does not find is a case that is never
/// checked.
pub fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance");
    let mut records = Vec::new();
    let mut expectations = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        let entries =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                dirs.push(path);
            } else if let Some(stem) = name.strip_suffix(".expect.json") {
                expectations.push(path.with_file_name(format!("{stem}.json")));
            } else if name.ends_with(".json") {
                records.push(path);
            }
        }
    }
    records.sort();
    expectations.sort();
    assert!(!records.is_empty(), "no case under {}", root.display());
    let unpaired: Vec<_> = records
        .iter()
        .filter(|p| expectations.binary_search(p).is_err())
        .chain(
            expectations
                .iter()
                .filter(|p| records.binary_search(p).is_err()),
        )
        .collect();
    assert!(
        unpaired.is_empty(),
        "every case NAME.json needs its NAME.expect.json, and the other way round; unpaired: \
         {unpaired:?}"
    );
    records
}
