//! [`SetupError`]: why rules, a manifest, a set-up or a record were rejected. Every variant names
//! the rule it enforces ([`SetupError::rule`]) and has a stable numeric code (`code()`, from the
//! table in `error_codes`).

use alloc::string::String;

/// Why rules, a manifest, a set-up or a record were rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A name that is not a nation, industry, tile, token or pile.
    #[error("unknown {what}: \"{name}\"")]
    UnknownName {
        /// What kind of name was expected (`nation`, `industry`, `tile`, `token`, `pile`).
        what: &'static str,
        /// The name given ([`shown`](crate::shown)).
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
