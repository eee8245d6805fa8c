//! # qe-core — the exact rules engine for QE
//!
//! QE (Quantitative Easing) is a sealed-bid auction board game for 3–5 players: each turn a company
//! tile is auctioned, anyone may bid any amount, and at the end the seat that spent the most is
//! eliminated. This crate implements every rule of the project's normative `RULES.md` (rule IDs such
//! as `R-AUC-6` are cited throughout), the Commodities expansion, per-seat views that never leak
//! hidden information, scoring, and `qe-record/1` game records.
//!
//! It is `no_std` (with `alloc`), and the [`Game`] state holds no heap memory: cloning it is a copy.
//!
//! ## Quick start
//!
//! ```
//! use qe_core::{Command, Game, Phase, Rules, Seat};
//!
//! // A seeded 4-player base game: same seed, same game, on every platform (R-SET-2).
//! let mut game = Game::seeded(Rules::base(4).unwrap(), 42);
//!
//! // Turn 0: seat 0 is the auctioneer and opens publicly (R-AUC-2) ...
//! assert_eq!(game.phase(), Phase::OpeningBid { auctioneer: Seat(0) });
//! game.apply(Command::Bid { seat: Seat(0), amount: 10 }).unwrap();
//! // ... then the others bid secretly, in any order (R-AUC-3).
//! for (seat, amount) in [(3, 0), (1, 12), (2, 7)] {
//!     game.apply(Command::Bid { seat: Seat(seat), amount }).unwrap();
//! }
//! // Seat 1 won at 12 (R-AUC-5). Seat 2 knows who won, but not the price (R-VIS-1).
//! let view = game.view(Seat(2));
//! assert_eq!(view.auctions()[0].winner, Some(Seat(1)));
//! assert_eq!(view.auctions()[0].price, None);
//! // A bad command is rejected, names its rule, and changes nothing (R-AUC-12).
//! let before = game;
//! let err = game.apply(Command::Bid { seat: Seat(2), amount: 1 }).unwrap_err();
//! assert_eq!(err.rule(), "R-AUC-2");
//! assert_eq!(game, before);
//!
//! // Play the rest: everyone bids the smallest legal amount.
//! while !game.is_over() {
//!     let seat = game.to_act().first().unwrap();
//!     let range = game.bid_range(seat).unwrap();
//!     let amount = if range.allows(range.min) { range.min } else { range.min + 1 };
//!     game.play(Command::Bid { seat, amount }).unwrap();
//! }
//! let outcome = game.outcome().unwrap();
//! assert_eq!(outcome.seats().len(), 4);
//! assert!(outcome.seats()[1].spent >= 12);
//! ```
//!
//! ## The pieces
//!
//! | type | what it is |
//! |---|---|
//! | [`Rules`], [`RulesBuilder`], [`Manifest`], [`Expansions`] | player count, expansions, tile/token values and scoring tables, as data |
//! | [`Setup`] | deck order, industry deal, asset piles: seeded or explicit |
//! | [`Game`] | the state machine: [`Game::phase`], [`Game::to_act`], [`Game::legal`], [`Game::apply`] |
//! | [`Command`], [`Event`] | what goes in, what comes out; [`Event::as_seen`] is the copy a viewer gets |
//! | [`visibility`] | who sees each hidden fact (R-VIS-1…7): the one place that decides it |
//! | [`SeatView`] | what one seat may know ([`Game::view`]), or a spectator ([`Game::public_view`]) |
//! | [`Outcome`] | final scoring with the per-seat breakdown ([`Game::outcome`]) |
//! | [`Match`], [`Record`] | a game with its history; `qe-record/1` records and replay |
//! | [`Deduction`] | what a seat can prove about every seat's total spent ([`Match::deduce`], [`SeatView::deduce`]) |
//! | [`encoding`] | bid ladders, action spaces and masks, fixed-size observations written from a [`SeatView`] (for learning agents) |
//! | [`bots`] | policies that decide from a [`SeatView`] (the search bot also from its seat's bid history, a [`MatchView`]): the baselines `random`, `miser`, `value`, and the search bot `search:easy|medium|hard` ([`bots::SearchBot`]); [`bots::search::resample`] ([`Match::resample`]) draws a whole match one seat cannot tell from the real one, for search over information sets |
//!
//! External-chance mode ([`Game::external_chance`], R-SET-3) leaves the deal, each reveal and each
//! token drawn to the caller, for tree search with explicit chance nodes.
//!
//! ## Feature flags
//!
//! - `std` (default): `std::error::Error` support through `core::error::Error` and std-backed
//!   dependencies. Without it the crate is `no_std` + `alloc`.
//! - `serde`: `Serialize`/`Deserialize` for the public data types, and JSON records
//!   (`Record::from_json`, `Record::to_json`) and commands (`Command::from_json`,
//!   `Command::to_json`) through `serde_json`, with its `alloc` and `raw_value` features only:
//!   none changes how JSON is read, so the rest of a program's JSON reads as it would without qe.
//!
//! ## Untrusted JSON
//!
//! Records and commands are read strictly and lazily, never as a whole-document tree: a key given
//! twice is an error naming it; a record over [`MAX_RECORD_BYTES`] or with more commands than a
//! legal game can have ([`Rules::max_commands`]) is rejected before its commands are read; numbers
//! are read from their exact text (a bid past 2^64−1 is reported as written, R-AUC-4).
//!
//! ## Numbers
//!
//! Bids are `u64` (R-AUC-4). Totals spent are `i128`: exact, never wrapping, and negative only with
//! the Commodities expansion's credits (R-COM-8).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod bots;
mod command;
mod components;
pub mod deduction;
pub mod encoding;
mod error;
mod error_codes;
mod event;
mod expansion;
mod game;
#[cfg(feature = "serde")]
mod json;
mod ledger;
mod legal;
mod phase;
mod record;
pub mod reward;
mod rules;
pub mod scoring;
mod seat;
mod seen;
mod session;
mod setup;
mod setup_error;
mod shown;
#[cfg(test)]
mod toy_expansion;
mod turn_log;
mod view;
pub mod visibility;

#[cfg(feature = "serde")]
pub use command::MAX_COMMAND_BYTES;
pub use command::{ChanceOutcome, Command};
pub use components::{
    AssetKind, Industry, Manifest, Nation, TileId, TileList, TokenId, MAX_TOKENS, MAX_VALUE,
};
pub use deduction::{Deduction, SpendBounds};
pub use error::CommandError;
pub use error_codes::{error_code, ErrorCode, ERROR_CODES};
pub use event::{BidStage, Event, EventSink, Events};
pub use expansion::{Expansion, Expansions, NamesError};
pub use game::Game;
pub use legal::{BidRange, Legal, PileSet};
pub use phase::{Chance, Phase};
pub use record::{byte_order_mark, Record, ReplayError, FORMAT, MAX_RECORD_BYTES};
pub use rules::{Rules, RulesBuilder, Table};
pub use scoring::{Outcome, SeatOutcome};
pub use seat::{PerSeat, Seat, SeatSet, MAX_SEATS};
pub use seen::{SeenBid, SeenPeek};
pub use session::{Match, MatchView};
pub use setup::{deal_tokens, mix_seed, nations_in_play, Setup};
pub use setup_error::SetupError;
pub use shown::{shown, SHOWN_MAX};
pub use view::{AssetView, AuctionView, SeatInfo, SeatView};

/// The crate README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
