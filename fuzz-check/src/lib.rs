//! The checks behind the fuzz targets of `fuzz/` (cargo-fuzz), in a crate of their own so that the
//! stable test suite runs the same checks over every committed corpus and crash file
//! (`tests/corpus.rs`).
//!
//! - [`engine::check`]: arbitrary rules, set-up and command stream applied to `qe-core`.
//! - [`record::check`]: arbitrary bytes read as a `qe-record/1` JSON record.
//! - [`ffi::check`]: arbitrary call sequences on the C ABI (`qe-ffi`), against a shadow game.
//!
//! Each check panics (with a message) when it finds a bug, and returns normally otherwise. The
//! fuzz targets run the same inputs through the same code with the expensive checks on a sample
//! of the steps ([`engine::fuzz`], [`engine::fuzz_leak`], [`ffi::fuzz`]); the regression test and
//! `repro` run every check on every step ([`Target::check`]), so a failure the fuzzer finds
//! fails there too. The input formats are documented in `fuzz/README.md`; [`engine::encode`]
//! writes the engine format, for the seed corpora.

// Test-support code: a few pedantic lints are noise here.
#![allow(
    clippy::single_match_else,
    clippy::large_types_passed_by_value,
    clippy::type_complexity,
    clippy::should_implement_trait
)]

pub mod engine;
pub mod ffi;
pub mod record;

/// A fuzz target of `fuzz/`.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// Its name: the cargo-fuzz binary, and its directories under `fuzz/corpus/` and
    /// `fuzz/artifacts/`.
    pub name: &'static str,
    /// Its seed directory under `fuzz/seeds/`: the name of the target whose input format it reads.
    pub seeds: &'static str,
    /// What the fuzz binary runs on an input (the expensive checks on a sample of the steps).
    pub fuzz: fn(&[u8]),
    /// Every check on every step: what the regression test and `repro` run on the target's files.
    pub check: fn(&[u8]),
}

/// The fuzz targets. `engine` and `leak` read the same input format.
pub const TARGETS: [Target; 4] = [
    Target {
        name: "engine",
        seeds: "engine",
        fuzz: engine::fuzz,
        check: engine::check,
    },
    Target {
        name: "leak",
        seeds: "engine",
        fuzz: engine::fuzz_leak,
        check: engine::check,
    },
    Target {
        name: "record",
        seeds: "record",
        fuzz: record::check,
        check: record::check,
    },
    Target {
        name: "ffi",
        seeds: "ffi",
        fuzz: ffi::fuzz,
        check: ffi::check,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().copied().find(|t| t.name == name)
}

/// Reads an input byte by byte; past the end every read is 0, so any byte string is an input.
#[derive(Debug, Clone)]
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        core::array::from_fn(|_| self.u8())
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.array())
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }

    /// A list: a length byte (taken modulo `max + 1`), then that many bytes.
    pub fn list(&mut self, max: usize) -> Vec<u8> {
        let len = self.u8() as usize % (max + 1);
        (0..len).map(|_| self.u8()).collect()
    }
}

/// splitmix64: the deterministic generator behind the permutations the inputs ask for.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        let z = qe_core::mix_seed(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// A number below `n` (`n ≥ 1`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Shuffles `items` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}
