//! Runs one target's check on files: `cargo run -p qe-fuzz-check --example repro -- TARGET FILE...`
//! (a stable-Rust way to reproduce a fuzz finding, with the full panic message).
fn main() {
    let mut args = std::env::args().skip(1);
    let target = args.next().expect("usage: repro TARGET FILE...");
    let check = qe_fuzz_check::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, f)| *f)
        .expect("unknown target");
    for file in args {
        println!("== {file}");
        check(&std::fs::read(&file).expect("read the file"));
        println!("ok");
    }
}
