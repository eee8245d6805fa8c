//! [`SearchBot`]: determinized Monte Carlo search over sealed bids.
//!
//! For each decision the bot
//!
//! 1. **samples worlds**: whole games that its seat cannot tell from the real one, built from its
//!    view and its own bid history only (R-VIS-8; see the `world` module below): the other seats'
//!    industry tokens, the deck order, the pile orders and every price it does not see are drawn,
//!    the prices within the bounds the deduction aid proves ([`crate::deduction`]);
//! 2. **models the other seats' sealed bids** in each world with the `value` bot ([`ValueBot`])
//!    reading that seat's view of the world, with fresh noise per world; with a rival search
//!    ([`SearchConfig::rival_search`], `search:hard`), one level deeper: a small search from each
//!    other seat's view of a few worlds says how a searcher in its place would bid, and every
//!    world's modelled bid of that seat is moved by the difference;
//! 3. **chooses candidates**: the smallest bid, the `value` bot's own bid, and bids just above
//!    the modelled highest (and, with Commodities, second-highest) rival bid at several quantiles
//!    over the worlds; or the legal piles for a take or a discard;
//! 4. **plays every candidate out** in the same worlds (common random numbers): the candidate,
//!    the modelled rival bids, then every seat by the `value` bot to the end, and scores the
//!    outcome: 1 for a win, shared wins split, 0 otherwise — so an elimination (R-SCO-2) is a
//!    loss whatever the score;
//! 5. **keeps the best half** of the candidates after each round of worlds (sequential halving)
//!    and plays the best mean; or, with [`SearchConfig::mixed`] at a sealed bidding step, runs
//!    regret matching for every bidder of the step at once (each world a round, each bidder's
//!    bid drawn from its current strategy, each of its actions played out against the others'
//!    draws) and draws the sealed bid from its own average strategy (`qe-core/src/bots/README.md`
//!    gives the measurements behind both).
//!
//! The budget is counted in simulated commands, so a decision is deterministic for a seed (and the
//! same on every platform); [`SearchConfig::budget`] sets it, [`Level`] holds the presets; the timed
//! bot ([`SearchConfig::millis`], `search:ms=MS`) trades that for a wall-clock budget. The 5-player
//! peek (R-VIS-5) is taken once a third of the game has passed, at the auction whose hidden price
//! says most about the biggest spender.
//!
//! The input is structural: [`SearchBot::decide`] takes a [`MatchView`](crate::MatchView) (the
//! seat's [`SeatView`](crate::SeatView) and its bid history as [`crate::Match::view`] gives them),
//! never a [`Game`](crate::Game).
//!
//! ```
//! use qe_core::bots::{Level, SearchBot};
//! use qe_core::{Match, Rules, Seat};
//! let mut m = Match::seeded(Rules::base(4).unwrap(), 3);
//! let mut bot = SearchBot::new(Level::Easy, 7);
//! let command = bot.decide(&m.view(Some(Seat(0)))).unwrap(); // seat 0 opens the first auction
//! m.apply(command).unwrap();
//! ```
//!
//! The parts: `config` holds the settings and the presets, `bot` the bot and its decision,
//! `candidates` what it chooses among, `peek` its 5-player peek, `decision` one decision's
//! sampled worlds and playouts, `halving` and `regret` the two ways to choose, `rivals` the rival
//! search, `playout` the fast model of every seat in a playout, `world` the sampled worlds, `mix`
//! the generator they are drawn with.

mod bot;
mod candidates;
mod clock;
mod config;
mod decision;
mod halving;
mod mix;
mod peek;
mod playout;
mod regret;
mod rivals;
mod world;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::ValueBot;
use crate::rules::Rules;
use crate::seat::Seat;
use crate::setup::mix_seed;
pub use bot::{SearchBot, SearchStats};
pub use config::{Level, SearchConfig};
use mix::Mix;
pub use world::resample::{resample, ResampleError, RESAMPLE_ATTEMPTS};

/// The model of a seat in a world seeded with `seed`: a value bot with its own noise.
pub(super) fn model(rules: &Rules, seed: u64, seat: Seat) -> ValueBot {
    ValueBot {
        rng: ChaCha8Rng::seed_from_u64(mix_seed(
            seed ^ (u64::from(seat.0) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        )),
        manifest: *rules.manifest(),
        rules: Some(*rules),
    }
}
