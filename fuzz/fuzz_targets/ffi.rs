//! Arbitrary call sequences on the C ABI (qe-ffi), the deep checks on a window of the calls: see
//! `qe_fuzz_check::ffi::fuzz`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| qe_fuzz_check::ffi::fuzz(data));
