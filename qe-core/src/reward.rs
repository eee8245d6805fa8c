//! Rewards for learning agents: one number per seat from a finished game's [`Outcome`], defined
//! once here for every binding (the Python package's `Game.returns`, `VectorEnv`, PettingZoo,
//! Gymnasium and OpenSpiel adapters).
//!
//! ```
//! use qe_core::reward::Reward;
//! use qe_core::{Game, Rules, Seat};
//! let mut game = Game::seeded(Rules::base(3).unwrap(), 1);
//! while !game.is_over() {
//!     let seat = game.to_act().first().unwrap();
//!     let range = game.bid_range(seat).unwrap();
//!     let amount = if range.allows(range.min) { range.min } else { range.min + 1 };
//!     game.play(qe_core::Command::Bid { seat, amount }).unwrap();
//! }
//! let outcome = game.outcome().unwrap();
//! let win: f64 = (0..3).map(|s| Reward::Win.of(&outcome, Seat(s))).sum();
//! assert!(win == 0.0 || (win - 1.0).abs() < 1e-6);
//! assert_eq!(Reward::from_name("score"), Some(Reward::Score));
//! ```

use crate::scoring::Outcome;
use crate::seat::Seat;

/// How a finished game is turned into one reward per seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reward {
    /// `win`: each of the `k` winners gets `1/k`, every other seat 0 (all 0 when every seat is
    /// eliminated, R-SCO-2; shared wins, R-SCO-11). The rewards of a game sum to 1 or 0.
    #[default]
    Win,
    /// `score`: each seat's grand total VP / 100 (R-SCO-10), eliminated or not.
    Score,
}

impl Reward {
    /// Every reward, in the order of [`Reward::NAMES`].
    pub const ALL: [Reward; 2] = [Reward::Win, Reward::Score];
    /// The names [`Reward::from_name`] accepts.
    pub const NAMES: [&'static str; 2] = ["win", "score"];

    /// The reward of this name (`win` or `score`), `None` for any other.
    pub fn from_name(name: &str) -> Option<Reward> {
        Reward::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Reward::ALL[i])
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Reward::NAMES[self as usize]
    }

    /// The reward of `seat` in `outcome`.
    ///
    /// # Panics
    ///
    /// If `seat` is not a seat of the game ([`Outcome::seat`]).
    pub fn of(self, outcome: &Outcome, seat: Seat) -> f64 {
        let s = outcome.seat(seat);
        match self {
            Reward::Win if s.winner => 1.0 / outcome.winners().count() as f64,
            Reward::Win => 0.0,
            Reward::Score => f64::from(s.total) / 100.0,
        }
    }

    /// Every seat's reward in `outcome`, by seat ([`Reward::of`] of each).
    ///
    /// ```
    /// # use qe_core::reward::Reward;
    /// # use qe_core::{Command, Game, Rules};
    /// # let mut game = Game::seeded(Rules::base(4).unwrap(), 3);
    /// # while !game.is_over() {
    /// #     let seat = game.to_act().first().unwrap();
    /// #     let range = game.bid_range(seat).unwrap();
    /// #     let amount = if range.allows(range.min) { range.min } else { range.min + 1 };
    /// #     game.play(Command::Bid { seat, amount }).unwrap();
    /// # }
    /// let outcome = game.outcome().unwrap();
    /// let scores: Vec<f64> = Reward::Score.returns(&outcome).collect();
    /// assert_eq!(scores.len(), 4);
    /// assert_eq!(scores[2], f64::from(outcome.seats()[2].total) / 100.0);
    /// ```
    pub fn returns(self, outcome: &Outcome) -> impl ExactSizeIterator<Item = f64> + '_ {
        (0..outcome.seats().len()).map(move |s| self.of(outcome, Seat(s as u8)))
    }

    /// The rewards of every seat in `outcome` ([`Reward::returns`]) as `f32`, written into `out`
    /// (one per seat of the game; extra entries are left as they were).
    pub fn write(self, outcome: &Outcome, out: &mut [f32]) {
        for (r, value) in out.iter_mut().zip(self.returns(outcome)) {
            *r = value as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Command, Game, Rules};

    #[test]
    fn win_rewards_sum_to_one_or_zero_and_names_round_trip() {
        for seed in 0..50 {
            let mut game = Game::seeded(Rules::base(4).unwrap(), seed);
            while !game.is_over() {
                let seat = game.to_act().first().unwrap();
                let range = game.bid_range(seat).unwrap();
                let amount = seed % 3 + u64::from(seat.0);
                let amount = if range.allows(amount.max(range.min)) {
                    amount.max(range.min)
                } else {
                    amount.max(range.min) + 1
                };
                game.play(Command::Bid { seat, amount }).unwrap();
            }
            let outcome = game.outcome().unwrap();
            let mut out = [9.0f32; 5];
            Reward::Win.write(&outcome, &mut out);
            let sum: f32 = out[..4].iter().sum();
            assert!(sum == 0.0 || (sum - 1.0).abs() < 1e-6);
            assert!(out[4].to_bits() == 9.0f32.to_bits()); // left as it was
            Reward::Score.write(&outcome, &mut out);
            for (s, o) in outcome.seats().iter().enumerate() {
                assert!((out[s] - o.total as f32 / 100.0).abs() < 1e-6);
            }
        }
        for r in Reward::ALL {
            assert_eq!(Reward::from_name(r.name()), Some(r));
        }
        for other in ["wins", "WIN", " score", "Rank", "win ", ""] {
            assert_eq!(Reward::from_name(other), None, "{other:?}");
        }
    }
}
