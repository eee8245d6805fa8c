//! Times each target over its seeds, as the fuzz binary checks them (`fuzz`) and with every check
//! (`check`): `cargo run --release -p qe-fuzz-check --example timing [DIR]`, where `DIR` (default
//! `fuzz/seeds`) holds a directory per target.
use std::time::Instant;
fn main() {
    let root = std::env::args().nth(1).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds"),
        std::path::PathBuf::from,
    );
    for target in qe_fuzz_check::TARGETS {
        let dir = root.join(target.name);
        let dir = if dir.is_dir() {
            dir
        } else {
            root.join(target.seeds)
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let files: Vec<_> = entries
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect();
        for (what, run) in [("fuzz", target.fuzz), ("check", target.check)] {
            let t = Instant::now();
            for f in &files {
                run(f);
            }
            let dt = t.elapsed().as_secs_f64();
            println!(
                "{} {what}: {} inputs in {dt:.3}s ({:.0}/s)",
                target.name,
                files.len(),
                files.len() as f64 / dt
            );
        }
    }
}
