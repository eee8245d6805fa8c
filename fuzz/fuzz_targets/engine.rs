//! Arbitrary rules + set-up + command stream applied to qe-core, the state checks on a sample of
//! the commands: see `qe_fuzz_check::engine::fuzz`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| qe_fuzz_check::engine::fuzz(data));
