//! Runs one target on files: `cargo run -p qe-fuzz-check --example repro -- TARGET FILE...`
//! (a stable-Rust way to reproduce a fuzz finding, with the full panic message): first what the
//! fuzz binary runs (`Target::fuzz`), then every check on every step (`Target::check`).
fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().expect("usage: repro TARGET FILE...");
    let target = qe_fuzz_check::target(&name).expect("unknown target");
    for file in args {
        println!("== {file}");
        let data = std::fs::read(&file).expect("read the file");
        (target.fuzz)(&data);
        (target.check)(&data);
        println!("ok");
    }
}
