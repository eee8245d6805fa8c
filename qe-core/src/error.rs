//! [`CommandError`]: why a command was rejected ([`SetupError`](crate::SetupError) is in its own
//! module, beneath the components, which report names they do not know with it).
//!
//! Every variant names the rule it enforces ([`CommandError::rule`]) and has a stable numeric
//! [`code`](CommandError::code) that the C ABI and the Python binding reuse (the table in
//! `error_codes`). Codes never change meaning; new variants get new numbers.

use alloc::string::String;

use crate::components::AssetKind;
use crate::seat::Seat;

/// Why a command was rejected. A rejected command leaves the game exactly as it was (R-AUC-12).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// The game has ended; no command is accepted (R-TRN-4).
    #[error("the game is over")]
    GameOver,
    /// The seat number is not a seat of this game (R-AUC-12).
    #[error("seat {seat} is not a seat of this game")]
    SeatOutOfRange {
        /// The seat named by the command, as given (a binding may pass any integer).
        seat: i64,
    },
    /// Only the auctioneer may bid now: it opens the auction (R-AUC-2).
    #[error("seat {seat} may not bid now: the auctioneer opens the auction")]
    NotAuctioneer {
        /// The seat that tried to bid.
        seat: u8,
    },
    /// This seat has already bid in this round of bidding (R-AUC-3).
    #[error("seat {seat} has already bid")]
    AlreadyBid {
        /// The seat that tried to bid again.
        seat: u8,
    },
    /// Only the tied seats rebid (R-AUC-6, R-COM-4).
    #[error("seat {seat} is not one of the seats that must rebid")]
    NotRebidding {
        /// The seat that tried to rebid.
        seat: u8,
        /// `R-AUC-6` for the company, `R-COM-4` for the asset.
        rule: &'static str,
    },
    /// The opening bid must be at least 1 (R-AUC-2).
    #[error("the auctioneer's opening bid must be at least 1")]
    OpeningBidZero,
    /// A bid may not equal the auctioneer's opening bid (R-AUC-3).
    #[error("bid equals the auctioneer's bid ({amount})")]
    BidEqualsOpening {
        /// The forbidden amount.
        amount: u64,
    },
    /// A bid must be a whole number from 0 to 2^64−1 (R-AUC-4).
    #[error("bid out of range: {text} (a bid is a whole number from 0 to 18446744073709551615)")]
    BidOutOfRange {
        /// The amount as it was given ([`shown`](crate::shown)).
        text: String,
    },
    /// It is not this seat's turn to take an asset (R-COM-5).
    #[error("seat {seat} is not the asset taker")]
    NotAssetTaker {
        /// The seat that tried to take.
        seat: u8,
    },
    /// It is not this seat's turn to discard an asset (R-COM-7).
    #[error(
        "seat {seat} may not discard: only the auctioneer discards when no one takes the asset"
    )]
    NotDiscarder {
        /// The seat that tried to discard.
        seat: u8,
    },
    /// The chosen pile has no token left (R-COM-5, R-COM-7).
    #[error("the {kind} pile is empty")]
    PileEmpty {
        /// The empty pile.
        kind: AssetKind,
        /// `R-COM-5` (take) or `R-COM-7` (discard).
        rule: &'static str,
    },
    /// The command is not the kind of action the game waits for now.
    #[error("{seat} cannot do that now: the game waits for {expected}")]
    WrongAction {
        /// The acting seat.
        seat: Seat,
        /// What the game waits for, in words.
        expected: &'static str,
        /// The rule of the pending step.
        rule: &'static str,
    },
    /// Peeks exist only in the 5-player game (R-VIS-5).
    #[error("peeking is allowed only in the 5-player game")]
    PeekNotAllowed,
    /// Each seat may peek once per game (R-VIS-5).
    #[error("seat {seat} has already peeked")]
    PeekTwice {
        /// The seat that peeked before.
        seat: u8,
    },
    /// A peek must name an auction already awarded (R-VIS-5).
    #[error("turn {turn} is not an awarded auction")]
    PeekNotAwarded {
        /// The turn named by the peek.
        turn: u64,
    },
    /// A peek at a price the seat already sees is not allowed (R-VIS-5).
    #[error("seat {seat} already sees the price of turn {turn}")]
    PeekAlreadySeen {
        /// The peeking seat.
        seat: u8,
        /// The turn named by the peek.
        turn: u8,
    },
    /// A chance outcome must be supplied first (R-SET-3).
    #[error("a chance outcome is pending: supply it first")]
    ChancePending,
    /// No chance outcome is pending, or this outcome is not one of the possible ones (R-SET-3).
    #[error("invalid chance outcome: {reason}")]
    InvalidChance {
        /// What is wrong.
        reason: &'static str,
    },
    /// A recorded command that is not well formed (no action, two actions, unknown pile…) (R-AUC-12).
    #[error("malformed command: {reason}")]
    Malformed {
        /// What is wrong.
        reason: String,
        /// The rule the malformed part breaks.
        rule: &'static str,
    },
}

impl CommandError {
    /// The ID of the rule that rejects the command (for example `"R-AUC-3"`). The message
    /// (`Display`) does not repeat it: a caller that shows both joins them.
    ///
    /// ```
    /// use qe_core::{Command, CommandError, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// game.apply(Command::Bid { seat: Seat(0), amount: 5 }).unwrap();
    /// let err = game.apply(Command::Bid { seat: Seat(1), amount: 5 }).unwrap_err();
    /// assert_eq!(err, CommandError::BidEqualsOpening { amount: 5 });
    /// assert_eq!(err.to_string(), "bid equals the auctioneer's bid (5)");
    /// assert_eq!(err.rule(), "R-AUC-3");
    /// assert_eq!(format!("{}: {err}", err.rule()), "R-AUC-3: bid equals the auctioneer's bid (5)");
    /// ```
    pub fn rule(&self) -> &'static str {
        match self {
            CommandError::GameOver => "R-TRN-4",
            CommandError::SeatOutOfRange { .. } => "R-AUC-12",
            CommandError::NotAuctioneer { .. } | CommandError::OpeningBidZero => "R-AUC-2",
            CommandError::AlreadyBid { .. } | CommandError::BidEqualsOpening { .. } => "R-AUC-3",
            CommandError::NotRebidding { rule, .. }
            | CommandError::PileEmpty { rule, .. }
            | CommandError::WrongAction { rule, .. }
            | CommandError::Malformed { rule, .. } => rule,
            CommandError::BidOutOfRange { .. } => "R-AUC-4",
            CommandError::NotAssetTaker { .. } => "R-COM-5",
            CommandError::NotDiscarder { .. } => "R-COM-7",
            CommandError::PeekNotAllowed
            | CommandError::PeekTwice { .. }
            | CommandError::PeekNotAwarded { .. }
            | CommandError::PeekAlreadySeen { .. } => "R-VIS-5",
            CommandError::ChancePending | CommandError::InvalidChance { .. } => "R-SET-3",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::AssetKind;
    use crate::error_codes::{error_code, ERROR_CODES};
    use crate::seat::Seat;
    use crate::setup_error::SetupError;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// One error of every kind.
    fn every_kind() -> (Vec<CommandError>, Vec<SetupError>) {
        let commands = alloc::vec![
            CommandError::GameOver,
            CommandError::SeatOutOfRange { seat: 7 },
            CommandError::NotAuctioneer { seat: 1 },
            CommandError::AlreadyBid { seat: 1 },
            CommandError::NotRebidding {
                seat: 1,
                rule: "R-AUC-6",
            },
            CommandError::OpeningBidZero,
            CommandError::BidEqualsOpening { amount: 1 },
            CommandError::BidOutOfRange {
                text: String::from("-1"),
            },
            CommandError::NotAssetTaker { seat: 1 },
            CommandError::NotDiscarder { seat: 1 },
            CommandError::PileEmpty {
                kind: AssetKind::Gold,
                rule: "R-COM-5",
            },
            CommandError::WrongAction {
                seat: Seat(1),
                expected: "secret bids",
                rule: "R-AUC-3",
            },
            CommandError::PeekNotAllowed,
            CommandError::PeekTwice { seat: 1 },
            CommandError::PeekNotAwarded { turn: 3 },
            CommandError::PeekAlreadySeen { seat: 1, turn: 2 },
            CommandError::ChancePending,
            CommandError::InvalidChance { reason: "x" },
            CommandError::Malformed {
                reason: String::new(),
                rule: "R-AUC-12",
            },
        ];
        let setups = alloc::vec![
            SetupError::UnknownName {
                what: "nation",
                name: String::new(),
                rule: "R-CMP-1",
            },
            SetupError::ValueOutOfRange {
                id: String::new(),
                value: 100,
            },
            SetupError::TokenCount { count: 3 },
            SetupError::CryptoEight { count: 0 },
            SetupError::TilesInPlay {
                players: 3,
                count: 1,
                expected: 15,
            },
            SetupError::Players { players: 2 },
            SetupError::Count {
                what: "deck",
                count: 1,
                expected: 2,
            },
            SetupError::Entry {
                what: "deck",
                name: String::new(),
                problem: "twice",
                rule: "R-SET-2",
            },
            SetupError::Table {
                table: "t",
                reason: "r",
            },
            SetupError::Piles(""),
            SetupError::Record(String::new()),
        ];
        (commands, setups)
    }

    #[test]
    fn the_table_lists_exactly_the_codes_the_errors_return() {
        let (commands, setups) = every_kind();
        let mut returned: Vec<u32> = commands.iter().map(CommandError::code).collect();
        returned.extend(setups.iter().map(SetupError::code));
        let listed: Vec<u32> = ERROR_CODES.iter().map(|e| e.code).collect();
        assert_eq!(returned, listed);
        for e in &commands {
            assert!((100..200).contains(&e.code()));
            assert!(!error_code(e.code()).unwrap().meaning.is_empty());
        }
        for e in &setups {
            assert!((200..300).contains(&e.code()));
        }
        let mut names: Vec<&str> = ERROR_CODES.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ERROR_CODES.len());
        // Numbers are unique and in order (the table's order is the header's).
        assert!(ERROR_CODES.windows(2).all(|w| w[0].code < w[1].code));
        assert!(error_code(99).is_none());
    }
}
