//! Random legal play for the benchmark and the `playouts` profiling harness (shared with
//! `#[path]`), so both measure exactly the same driver.

use qe_core::{AssetKind, Command, Game, Phase, Seat};

/// A tiny xorshift generator: the harnesses measure the engine, not the RNG.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal command for the first seat to act: a bid of 0..8 above the minimum (stepping over
/// the forbidden value) or a random non-empty pile.
#[inline]
pub fn random_command(game: &Game, rng: &mut Rng) -> Command {
    let seat = game.to_act().first().unwrap_or(Seat(0));
    let r = rng.next();
    if let Some(range) = game.bid_range(seat) {
        let mut amount = range.min + (r & 7);
        if Some(amount) == range.forbidden {
            amount += 1;
        }
        return Command::Bid { seat, amount };
    }
    let mut kind = AssetKind::ALL[(r % 3) as usize];
    while game.pile_remaining(kind) == 0 {
        kind = AssetKind::ALL[(kind.index() + 1) % 3];
    }
    if matches!(game.phase(), Phase::DiscardAsset { .. }) {
        Command::DiscardAsset { seat, kind }
    } else {
        Command::TakeAsset { seat, kind }
    }
}
