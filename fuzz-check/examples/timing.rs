//! Times each target's check over the seeds: `cargo run --release -p qe-fuzz-check --example timing`.
use std::time::Instant;
fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds");
    for (target, check) in qe_fuzz_check::TARGETS {
        let files: Vec<_> = std::fs::read_dir(root.join(target))
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect();
        let t = Instant::now();
        for f in &files {
            check(f);
        }
        let dt = t.elapsed();
        println!(
            "{target}: {} inputs in {:.3}s ({:.0}/s)",
            files.len(),
            dt.as_secs_f64(),
            files.len() as f64 / dt.as_secs_f64()
        );
    }
}
