//! [`Command`]s: what a seat (or, in external-chance mode, the caller) does (R-AUC, R-COM, R-VIS-5,
//! R-SET-3).

use alloc::string::String;

use crate::components::{AssetKind, Industry, TileId, TokenId};
use crate::error::CommandError;
use crate::seat::{Seat, MAX_SEATS};

#[cfg(feature = "serde")]
pub(crate) mod json;
#[cfg(feature = "serde")]
pub use json::MAX_COMMAND_BYTES;

/// One step of the game, as applied by [`Game::apply`](crate::Game::apply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Command {
    /// An opening bid, secret bid, rebid or asset rebid (R-AUC-2…9, R-COM-4).
    Bid {
        /// The bidding seat.
        seat: Seat,
        /// The amount (R-AUC-4).
        amount: u64,
    },
    /// The asset taker picks the pile it takes from (R-COM-5).
    TakeAsset {
        /// The taker.
        seat: Seat,
        /// The pile.
        kind: AssetKind,
    },
    /// The auctioneer picks the pile whose top token is discarded (R-COM-7).
    DiscardAsset {
        /// The auctioneer.
        seat: Seat,
        /// The pile.
        kind: AssetKind,
    },
    /// The 5-player peek at the price of an awarded auction (R-VIS-5).
    Peek {
        /// The peeking seat.
        seat: Seat,
        /// The 0-based turn of the auction.
        turn: u8,
    },
    /// A chance outcome, in external-chance mode (R-SET-3).
    Chance(ChanceOutcome),
}

impl Command {
    /// The acting seat, or `None` for a chance outcome.
    pub fn seat(&self) -> Option<Seat> {
        match *self {
            Command::Bid { seat, .. }
            | Command::TakeAsset { seat, .. }
            | Command::DiscardAsset { seat, .. }
            | Command::Peek { seat, .. } => Some(seat),
            Command::Chance(_) => None,
        }
    }

    /// The command of `seat` taking from (R-COM-5) or, with `discard`, discarding from (R-COM-7)
    /// the pile named `pile` (`gold`, `oil` or `crypto`, as records name them). An unknown name
    /// is the malformed command the record reader makes of it, citing the same rule and quoting
    /// the name (cut by [`crate::shown`]).
    ///
    /// ```
    /// use qe_core::{AssetKind, Command, Seat};
    /// let take = Command::from_pile_name(Seat(1), "oil", false).unwrap();
    /// assert_eq!(take, Command::TakeAsset { seat: Seat(1), kind: AssetKind::Oil });
    /// let e = Command::from_pile_name(Seat(1), "silver", true).unwrap_err();
    /// assert_eq!((e.rule(), e.to_string().as_str()), ("R-COM-7", "malformed command: unknown pile \"silver\""));
    /// ```
    pub fn from_pile_name(seat: Seat, pile: &str, discard: bool) -> Result<Command, CommandError> {
        Command::with_pile(seat, pile.parse().ok(), discard, || {
            crate::shown(&alloc::format!("{pile:?}"))
        })
    }

    /// The peek of `seat` at turn `turn` (R-VIS-5), as a command names it: `turn` is the whole
    /// number given, `None` when what was given is not one (negative, fractional, not a number);
    /// `shown()` quotes it then. A turn past the last is [`CommandError::PeekNotAwarded`], as any
    /// turn not yet awarded; no whole number is [`CommandError::Malformed`] under R-VIS-5.
    ///
    /// ```
    /// use qe_core::{Command, CommandError, Seat};
    /// assert_eq!(Command::from_peek_turn(Seat(4), Some(3), String::new), Ok(Command::Peek { seat: Seat(4), turn: 3 }));
    /// assert_eq!(Command::from_peek_turn(Seat(4), Some(300), String::new), Err(CommandError::PeekNotAwarded { turn: 300 }));
    /// let e = Command::from_peek_turn(Seat(4), None, || "-1".into()).unwrap_err();
    /// assert_eq!((e.rule(), e.to_string().as_str()), ("R-VIS-5", "malformed command: peek takes a turn number, not -1"));
    /// ```
    pub fn from_peek_turn(
        seat: Seat,
        turn: Option<u64>,
        shown: impl FnOnce() -> String,
    ) -> Result<Command, CommandError> {
        match turn {
            Some(turn) => Ok(Command::Peek {
                seat,
                turn: u8::try_from(turn).map_err(|_| CommandError::PeekNotAwarded { turn })?,
            }),
            None => Err(CommandError::Malformed {
                reason: alloc::format!("peek takes a turn number, not {}", shown()),
                rule: "R-VIS-5",
            }),
        }
    }

    /// The take or discard command of `seat` for the pile `kind` read from a command; `None`
    /// (an unknown pile) is [`CommandError::Malformed`] quoting `shown()`, the text the command
    /// gave, under the rule of the command.
    pub(crate) fn with_pile(
        seat: Seat,
        kind: Option<AssetKind>,
        discard: bool,
        shown: impl FnOnce() -> String,
    ) -> Result<Command, CommandError> {
        let rule = if discard { "R-COM-7" } else { "R-COM-5" };
        let kind = kind.ok_or_else(|| CommandError::Malformed {
            reason: alloc::format!("unknown pile {}", shown()),
            rule,
        })?;
        Ok(if discard {
            Command::DiscardAsset { seat, kind }
        } else {
            Command::TakeAsset { seat, kind }
        })
    }
}

/// The outcome of a chance event in external-chance mode (R-SET-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChanceOutcome {
    /// The industry deal: a permutation of the dealt tokens (R-CMP-6); seat `i` gets entry `i`, and
    /// with 3 players entry 3 is the token set aside. Entries past the token count are ignored;
    /// [`ChanceOutcome::deal`] builds one from a list.
    Deal([Industry; MAX_SEATS]),
    /// The tile revealed at the start of a turn (R-AUC-1).
    Reveal(TileId),
    /// The token that comes off a pile when an asset is taken or discarded (R-COM-5, R-COM-7).
    Draw(TokenId),
}

impl ChanceOutcome {
    /// The deal of these tokens, seat by seat (with 3 players the fourth is the one set aside):
    /// the one way a deal is built from a list. The array's entries past the list repeat its first
    /// entry, so a list shorter than the game deals never is a permutation of its tokens, and the
    /// game rejects it (R-SET-3). `None` for an empty list or one longer than [`MAX_SEATS`].
    ///
    /// ```
    /// use qe_core::{ChanceOutcome, Industry};
    /// let [a, h, f, m] = [Industry::AGR, Industry::HOU, Industry::FIN, Industry::MAN];
    /// assert_eq!(ChanceOutcome::deal(&[h, a, m, f]), Some(ChanceOutcome::Deal([h, a, m, f, h])));
    /// assert_eq!(ChanceOutcome::deal(&[]), None);
    /// assert_eq!(ChanceOutcome::deal(&[h, a, m, f, h, a]), None); // six tokens: more than MAX_SEATS
    /// ```
    pub fn deal(tokens: &[Industry]) -> Option<ChanceOutcome> {
        let first = *tokens.first()?;
        let mut deal = [first; MAX_SEATS];
        deal.get_mut(..tokens.len())?.copy_from_slice(tokens);
        Some(ChanceOutcome::Deal(deal))
    }

    /// The entries of a deal that a game of `players` seats deals ([`crate::deal_tokens`]: 4 for
    /// 3 or 4 players, 5 for 5, R-CMP-6); the rest of the array is ignored. `None` for an outcome
    /// that is not a deal.
    ///
    /// ```
    /// use qe_core::{ChanceOutcome, Industry};
    /// let [a, h, f, m] = [Industry::AGR, Industry::HOU, Industry::FIN, Industry::MAN];
    /// assert_eq!(ChanceOutcome::Deal([h, a, m, f, a]).dealt(4), Some(&[h, a, m, f][..]));
    /// ```
    pub fn dealt(&self, players: u8) -> Option<&[Industry]> {
        match self {
            ChanceOutcome::Deal(deal) => {
                Some(&deal[..crate::setup::deal_tokens(players).len().min(MAX_SEATS)])
            }
            _ => None,
        }
    }
}
