//! Replays every committed seed (`fuzz/seeds/<target>/`), crash file (`fuzz/artifacts/<target>/`) and
//! minimised corpus file (`fuzz/corpus/<target>/`) on stable Rust: as the fuzz binary runs it
//! (`Target::fuzz`, the expensive checks on a sample of the steps) and with every check on every
//! step (`Target::check`).

use std::fs;
use std::panic;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use qe_fuzz_check::{Target, TARGETS};

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
    let mut jobs = Vec::new();
    for target in TARGETS {
        for kind in kinds {
            // `leak` reads `engine`'s seeds, replayed once (with the same checks) as `engine`'s.
            if *kind == "seeds" && target.seeds != target.name {
                continue;
            }
            for file in files(&fuzz.join(kind).join(target.name)) {
                jobs.push((target, file));
            }
        }
    }
    let count = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let run = |target: &Target, file: &PathBuf| {
        // A fuzzer growing the corpus meanwhile may have replaced the file.
        let Ok(data) = fs::read(file) else { return };
        count.fetch_add(1, Ordering::Relaxed);
        if panic::catch_unwind(|| (target.fuzz)(&data)).is_err()
            || panic::catch_unwind(|| (target.check)(&data)).is_err()
        {
            failures
                .lock()
                .expect("no panic while locked")
                .push(file.display().to_string());
        }
    };
    // The files are independent and shared out among the cores, except the C ABI's: its handle
    // cells are process-wide, and a freed handle is detected as such only while no other thread
    // reuses its cell, so the `ffi` files run on this thread afterwards.
    let (serial, parallel): (Vec<_>, Vec<_>) = jobs.iter().partition(|(t, _)| t.name == "ffi");
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some((target, file)) = parallel.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    run(target, file);
                }
            });
        }
    });
    for (target, file) in serial {
        run(target, file);
    }
    let mut failures = failures.into_inner().expect("no panic while locked");
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} file(s) fail their target's checks:\n{}",
        failures.len(),
        failures.join("\n")
    );
    count.into_inner()
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
