//! `include/qe.h` is what cbindgen generates from this crate with `cbindgen.toml`, byte for byte.
//!
//! With `QE_REGEN_HEADER=1` the test rewrites the header instead of checking it (after an ABI
//! change: `QE_REGEN_HEADER=1 cargo test -p qe-ffi --test header`, then commit `include/qe.h`).
//! `QE_HEADER=FILE` checks another file instead (the test command shows with it that the check
//! fails on a header one byte off).

use std::fmt::Write;
use std::path::Path;

/// The header cbindgen generates for this crate now.
fn generated() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    config.after_includes = Some(rules_codes());
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_crate(dir)
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("a UTF-8 header")
}

/// The rules' error codes as C constants, one for each entry of `qe_core::ERROR_CODES` (the one
/// table they are declared in): its meaning as the doc comment, `QE_ERR_<name>` as the name.
fn rules_codes() -> String {
    let mut out = String::from(
        "\n/* The rules' error codes (100-299), from qe-core's ERROR_CODES: a command rejected by the\n \
         * rules (100-199), rules, a set-up or a record rejected (200-299). */\n",
    );
    for e in &qe_core::ERROR_CODES {
        writeln!(
            out,
            "\n/**\n * {}: {}\n */\n#define QE_ERR_{} {}",
            e.code, e.meaning, e.name, e.code
        )
        .expect("writing to a String");
    }
    out
}

#[test]
fn include_qe_h_is_the_generated_header() {
    let path = std::env::var_os("QE_HEADER").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../include/qe.h"),
        Into::into,
    );
    let want = generated();
    if std::env::var_os("QE_REGEN_HEADER").is_some_and(|v| v != "0") {
        std::fs::write(&path, &want).expect("write include/qe.h");
        return;
    }
    let have = std::fs::read_to_string(&path).expect("include/qe.h");
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
        panic!(
            "include/qe.h differs from what cbindgen generates (first at line {}): \
             run QE_REGEN_HEADER=1 cargo test -p qe-ffi --test header and commit it",
            line + 1
        );
    }
}
