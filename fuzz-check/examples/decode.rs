//! Prints a decoded engine input: `cargo run -p qe-fuzz-check --example decode -- FILE`.
fn main() {
    let file = std::env::args().nth(1).expect("usage: decode FILE");
    let input = qe_fuzz_check::engine::decode(&std::fs::read(file).expect("read"));
    println!(
        "players {} expansions {} custom {:?}",
        input.players, input.expansions, input.custom
    );
    println!("setup {:?}", input.setup);
    println!(
        "viewer {} shift {} shuffle {}",
        input.viewer, input.shift, input.shuffle
    );
    println!("{} ops", input.ops.len());
}
