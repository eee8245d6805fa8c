//! Replays every committed seed (`fuzz/seeds/<target>/`), crash file (`fuzz/artifacts/<target>/`) and
//! minimised corpus file (`fuzz/corpus/<target>/`) on stable Rust: as the fuzz binary runs it
//! (`Target::fuzz`, the expensive checks on a sample of the steps) and with every check on every
//! step (`Target::check`).

use std::fs;
use std::panic;
use std::path::{Path, PathBuf};

use qe_fuzz_check::TARGETS;

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| {
            p.is_file()
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    out.sort();
    out
}

fn replay(kinds: &[&str]) -> usize {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut failures = Vec::new();
    let mut count = 0;
    for target in TARGETS {
        for kind in kinds {
            // `leak` reads `engine`'s seeds, replayed once (with the same checks) as `engine`'s.
            if *kind == "seeds" && target.seeds != target.name {
                continue;
            }
            for file in files(&fuzz.join(kind).join(target.name)) {
                // A fuzzer growing the corpus meanwhile may have replaced the file.
                let Ok(data) = fs::read(&file) else { continue };
                count += 1;
                if panic::catch_unwind(|| (target.fuzz)(&data)).is_err()
                    || panic::catch_unwind(|| (target.check)(&data)).is_err()
                {
                    failures.push(file.display().to_string());
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} file(s) fail their target's checks:\n{}",
        failures.len(),
        failures.join("\n")
    );
    count
}

#[test]
fn seeds_corpus_and_crash_files_pass_the_checks() {
    let count = replay(&["seeds", "corpus", "artifacts"]);
    assert!(
        count >= 100,
        "only {count} corpus files: run `scripts/fuzz seeds`"
    );
}

#[test]
fn every_target_has_seeds() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    for target in TARGETS {
        assert!(
            !files(&fuzz.join("seeds").join(target.seeds)).is_empty(),
            "no seeds for {}",
            target.name
        );
    }
}
