//! Errors: [`SetupError`] for rules, manifests, set-ups and records; [`CommandError`] for commands.
//!
//! Every variant names the rule it enforces ([`CommandError::rule`], [`SetupError::rule`]) and has a
//! stable numeric [`code`](CommandError::code) that the C ABI and the Python binding reuse. Codes never
//! change meaning; new variants get new numbers.

use alloc::string::String;

use crate::components::AssetKind;
use crate::seat::Seat;

/// The most characters of a caller's value that an error message quotes ([`shown`]).
pub const SHOWN_MAX: usize = 60;

/// A value the caller gave (a name, a key, a number's text), as an error message quotes it: control
/// characters, line and paragraph separators and the invisible format characters (bidirectional
/// overrides, zero-width spaces, the byte-order mark) escaped (`\u{0}`, `\n`, `\u{202e}`), and at
/// most [`SHOWN_MAX`] characters, then `...`. A message then stays one short line of printable
/// text, whatever the input.
///
/// ```
/// assert_eq!(qe_core::shown("gold"), "gold");
/// assert_eq!(qe_core::shown("a\0b"), "a\\u{0}b");
/// assert_eq!(qe_core::shown(&"x".repeat(1000)), format!("{}...", "x".repeat(60)));
/// ```
pub fn shown(text: &str) -> String {
    shown_at_most(text, SHOWN_MAX)
}

/// As [`shown`], with at most `max` characters before the `...`.
pub(crate) fn shown_at_most(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c.is_control() || is_invisible(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `c` is a line or paragraph separator (Zl, Zp) or one of the format characters (Cf) that
/// change how text around them shows: the soft hyphen, the zero-width and bidirectional marks and
/// overrides, the invisible operators, the byte-order mark.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    )
}

/// The keys `keys` as an error message lists them (`["bid", "peek"]`): each [`shown`], at most
/// eight, then `...`.
#[cfg(feature = "serde")]
pub(crate) fn shown_keys<'a>(keys: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("[");
    for (i, k) in keys.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if i == 8 {
            out.push_str("...");
            break;
        }
        out.push('"');
        out.push_str(&shown(k));
        out.push('"');
    }
    out.push(']');
    out
}

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
        /// The amount as it was given ([`shown`]).
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

/// Why rules, a manifest, a set-up or a record were rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A name that is not a nation, industry, tile, token or pile.
    #[error("unknown {what}: \"{name}\"")]
    UnknownName {
        /// What kind of name was expected (`nation`, `industry`, `tile`, `token`, `pile`).
        what: &'static str,
        /// The name given ([`shown`]).
        name: String,
        /// The rule that lists the names (R-CMP-1, R-CMP-2, R-CMP-3, R-CMP-7).
        rule: &'static str,
    },
    /// A manifest value above 99 (R-CMP-4).
    #[error("value of {id} out of range: {value} (0 to 99)")]
    ValueOutOfRange {
        /// The tile or token.
        id: String,
        /// The value given.
        value: u64,
    },
    /// A token manifest must have 18 tokens (R-CMP-7).
    #[error("a token manifest has 18 tokens, not {count}")]
    TokenCount {
        /// The number given.
        count: usize,
    },
    /// A token manifest must have exactly one crypto token worth 8 (R-CMP-7).
    #[error("a token manifest needs exactly one crypto token worth 8, found {count}")]
    CryptoEight {
        /// How many there are.
        count: usize,
    },
    /// The removals of R-CMP-5 must leave 16 tiles (3–4 players) or 15 (5 players).
    #[error("the {players}-player removals leave {count} tiles, not {expected}")]
    TilesInPlay {
        /// The player count.
        players: u8,
        /// Tiles left.
        count: usize,
        /// Tiles required.
        expected: usize,
    },
    /// A game has 3, 4 or 5 players (R-SET-1).
    #[error("a game has 3 to 5 players, not {players}")]
    Players {
        /// The number given (a binding may pass any integer, negative ones too).
        players: i128,
    },
    /// A list has the wrong length (nations, industry tokens, deck, pile).
    #[error("{what} has {count} entries, expected {expected}")]
    Count {
        /// Which list.
        what: &'static str,
        /// Entries given.
        count: usize,
        /// Entries required.
        expected: usize,
    },
    /// An entry that is not allowed for this player count, or appears twice.
    #[error("{what}: {name} {problem}")]
    Entry {
        /// Which list.
        what: &'static str,
        /// The entry.
        name: String,
        /// `"is not in play"` or `"appears twice"`.
        problem: &'static str,
        /// The rule that decides.
        rule: &'static str,
    },
    /// A custom scoring table is invalid.
    #[error("invalid scoring table {table}: {reason}")]
    Table {
        /// Which table.
        table: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// Asset piles were given without the Commodities expansion, or missing with it (R-COM-1).
    #[error("{0}")]
    Piles(&'static str),
    /// The record is not `qe-record/1`, or is not valid JSON, or has an unknown field value.
    #[error("bad record: {0}")]
    Record(String),
}

impl SetupError {
    /// The ID of the rule (or `"RECORD"` for the record format) the input breaks.
    pub fn rule(&self) -> &'static str {
        match self {
            SetupError::UnknownName { rule, .. } => rule,
            SetupError::ValueOutOfRange { .. } => "R-CMP-4",
            SetupError::TokenCount { .. } | SetupError::CryptoEight { .. } => "R-CMP-7",
            SetupError::TilesInPlay { .. } => "R-CMP-5",
            SetupError::Players { .. } => "R-SET-1",
            SetupError::Count { .. } => "R-SET-2",
            SetupError::Entry { rule, .. } => rule,
            // The rule of the table it replaces; a table of another name, the scoring rules.
            SetupError::Table { table, .. } => match *table {
                "nationalization" => "R-SCO-6",
                "monopolization" => "R-SCO-7",
                "diversification" => "R-SCO-8",
                _ => "R-SCO",
            },
            SetupError::Piles(_) => "R-COM-1",
            SetupError::Record(_) => "RECORD",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::AssetKind;
    use crate::error_codes::{error_code, ERROR_CODES};
    use crate::seat::Seat;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Every invisible character [`shown`] names is escaped, each range from its first to its
    /// last character.
    #[test]
    fn shown_escapes_every_invisible_character() {
        let ranges = [
            ('\u{ad}', '\u{ad}'),
            ('\u{61c}', '\u{61c}'),
            ('\u{180e}', '\u{180e}'),
            ('\u{200b}', '\u{200f}'),
            ('\u{2028}', '\u{202e}'),
            ('\u{2060}', '\u{206f}'),
            ('\u{feff}', '\u{feff}'),
            ('\u{fff9}', '\u{fffb}'),
        ];
        for (first, last) in ranges {
            for c in first..=last {
                let want: String = c.escape_default().collect();
                assert_eq!(shown(&alloc::format!("a{c}b")), alloc::format!("a{want}b"));
            }
        }
        // Their neighbours show as they are.
        for c in [
            '\u{ac}', '\u{ae}', '\u{200a}', '\u{2027}', '\u{2070}', '\u{fffc}',
        ] {
            assert_eq!(shown(&alloc::format!("{c}")), alloc::format!("{c}"));
        }
    }

    /// At most eight keys, then `...`.
    #[cfg(feature = "serde")]
    #[test]
    fn shown_keys_lists_eight_keys_at_most() {
        let keys: Vec<String> = (0..10).map(|i| alloc::format!("k{i}")).collect();
        let eight = shown_keys(keys.iter().take(8).map(String::as_str));
        assert_eq!(eight, r#"["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]"#);
        let ten = shown_keys(keys.iter().map(String::as_str));
        assert_eq!(
            ten,
            r#"["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", ...]"#
        );
    }

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
