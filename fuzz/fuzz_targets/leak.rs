//! The engine target's inputs through the no-leak check (R-VIS-8): see
//! `qe_fuzz_check::engine::fuzz_leak`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| qe_fuzz_check::engine::fuzz_leak(data));
