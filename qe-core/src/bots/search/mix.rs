//! The search bot's random numbers.

use crate::setup::mix_seed;

/// A small, fast, portable generator (SplitMix64) for sampling worlds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mix(pub(super) u64);

impl Mix {
    /// The next 64 random bits.
    pub(super) fn next(&mut self) -> u64 {
        let z = mix_seed(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// A uniform integer in `0..n` (`n ≥ 1`).
    pub(super) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n.max(1))) >> 64) as u64
    }

    /// A uniform float in `[0, 1)`.
    pub(super) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates.
    pub(super) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}
