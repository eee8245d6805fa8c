//! Arbitrary rules + set-up + command stream applied to qe-core: see `qe_fuzz_check::engine`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| qe_fuzz_check::engine::check(data));
