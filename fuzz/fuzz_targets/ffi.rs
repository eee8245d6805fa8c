//! Arbitrary call sequences on the C ABI (qe-ffi): see `qe_fuzz_check::ffi`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| qe_fuzz_check::ffi::check(data));
