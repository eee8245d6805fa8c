//! Baseline policies that decide from a [`SeatView`] only (never the full game), deterministic for a
//! given seed.
//!
//! ```
//! use qe_core::bots::{Bot, RandomBot};
//! use qe_core::{Game, Rules};
//! let mut game = Game::seeded(Rules::commodities(5).unwrap(), 1);
//! let mut bots: Vec<RandomBot> = (0..5).map(|s| RandomBot::new(100 + s)).collect();
//! while !game.is_over() {
//!     let seat = game.to_act().first().unwrap();
//!     let command = bots[seat.index()].act(&game.view(seat)).unwrap();
//!     game.apply(command).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::command::Command;
use crate::game::{BidRange, Legal};
use crate::view::SeatView;

/// A policy for one seat.
pub trait Bot {
    /// The command this seat plays now, given its view; `None` when it has nothing to do.
    fn act(&mut self, view: &SeatView) -> Option<Command>;
}

/// The default bid ladder of the random bot: small amounts, then roughly doubling.
pub const LADDER: [u64; 12] = [0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22];

/// The legal amount nearest `amount` from above (the forbidden value is skipped upward; an amount
/// below the minimum becomes the minimum).
pub fn nearest_legal(range: &BidRange, amount: u64) -> u64 {
    let a = amount.max(range.min);
    if Some(a) == range.forbidden {
        a.checked_add(1).unwrap_or(a - 1)
    } else {
        a
    }
}

/// Picks the pile command (take or discard) from the legal piles, by `pick` among them.
fn pile_command(view: &SeatView, legal: &Legal, pick: u32) -> Option<Command> {
    let seat = view.seat?;
    if !legal.take.is_empty() {
        let n = legal.take.iter().count() as u32;
        let kind = legal.take.iter().nth((pick % n) as usize)?;
        return Some(Command::TakeAsset { seat, kind });
    }
    if !legal.discard.is_empty() {
        let n = legal.discard.iter().count() as u32;
        let kind = legal.discard.iter().nth((pick % n) as usize)?;
        return Some(Command::DiscardAsset { seat, kind });
    }
    None
}

/// Bids a uniformly random rung of [`LADDER`] (moved to the nearest legal amount), picks piles at
/// random, and (5 players) sometimes peeks at a random legal auction.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn act(&mut self, view: &SeatView) -> Option<Command> {
        let seat = view.seat?;
        let legal = view.legal;
        if legal.peek != 0 && self.rng.next_u32() % 8 == 0 {
            let turns: u32 = legal.peek.count_ones();
            let k = self.rng.next_u32() % turns;
            let turn = (0..16u8)
                .filter(|t| legal.peek & (1 << t) != 0)
                .nth(k as usize)?;
            return Some(Command::Peek { seat, turn });
        }
        if let Some(range) = legal.bid {
            let rung = LADDER[(self.rng.next_u32() as usize) % LADDER.len()];
            return Some(Command::Bid {
                seat,
                amount: nearest_legal(&range, rung),
            });
        }
        let pick = self.rng.next_u32();
        pile_command(view, &legal, pick)
    }
}

/// Bids zero (or the minimum) whenever allowed; takes or discards from the first legal pile.
#[derive(Clone, Debug, Default)]
pub struct MiserBot;

impl Bot for MiserBot {
    fn act(&mut self, view: &SeatView) -> Option<Command> {
        let seat = view.seat?;
        let legal = view.legal;
        if let Some(range) = legal.bid {
            return Some(Command::Bid {
                seat,
                amount: nearest_legal(&range, range.min),
            });
        }
        pile_command(view, &legal, 0)
    }
}
