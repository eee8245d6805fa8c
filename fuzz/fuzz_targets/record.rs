//! Arbitrary bytes as a `qe-record/1` JSON record: see `qe_fuzz_check::record`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| qe_fuzz_check::record::check(data));
