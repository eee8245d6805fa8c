//! The error codes: one declarative table ([`error_codes!`] below) from which the numbers of
//! [`CommandError::code`] and [`SetupError::code`], the table [`ERROR_CODES`] and, through it, the C
//! header's `QE_ERR_*` constants (written by `qe-ffi`'s header generation) all come. A new error is
//! one line here: its number, its name, its variant and what it means.

use crate::error::CommandError;
use crate::setup_error::SetupError;

/// One stable error code: its number, its name (the C ABI's `QE_ERR_<name>`) and its meaning.
/// [`ERROR_CODES`] lists every code [`CommandError::code`] and [`SetupError::code`] return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorCode {
    /// The number: 100–199 for a rejected command, 200–299 for rejected rules, set-up or record.
    pub code: u32,
    /// The name, upper case (`GAME_OVER`); the C ABI calls it `QE_ERR_GAME_OVER`.
    pub name: &'static str,
    /// What it means, with the rule it cites.
    pub meaning: &'static str,
}

/// Counts the entries of the table (the length of [`ERROR_CODES`]).
macro_rules! count {
    () => { 0usize };
    ($head:ident $($tail:ident)*) => { 1usize + count!($($tail)*) };
}

/// Writes, from the table, each enum's `code()` and the list [`ERROR_CODES`]. Each entry is
/// `NUMBER NAME Variant "meaning",`; a variant's fields never matter to its code.
macro_rules! error_codes {
    ($($enum:ident { $($code:literal $name:ident $variant:ident $meaning:literal,)* })*) => {
        $(
            impl $enum {
                /// A stable number for this kind of error, shared by the C ABI and Python: its
                /// entry in [`ERROR_CODES`] (100–199 for a command, 200–299 for rules, set-up or
                /// record).
                pub fn code(&self) -> u32 {
                    match self {
                        $($enum::$variant { .. } => $code,)*
                    }
                }
            }
        )*

        /// Every error code of the rules, in order: the one table the C status codes and the
        /// Python exceptions' `code` come from. Codes never change meaning; new errors get new
        /// numbers.
        ///
        /// ```
        /// use qe_core::{error_code, CommandError};
        /// let e = CommandError::BidEqualsOpening { amount: 3 };
        /// assert_eq!(error_code(e.code()).unwrap().name, "BID_EQUALS_OPENING");
        /// ```
        pub const ERROR_CODES: [ErrorCode; count!($($($name)*)*)] = [
            $($(ErrorCode { code: $code, name: stringify!($name), meaning: $meaning },)*)*
        ];
    };
}

error_codes! {
    CommandError {
        100 GAME_OVER GameOver
            "the game is over; no command is accepted (R-TRN-4).",
        101 SEAT_OUT_OF_RANGE SeatOutOfRange
            "the seat is not a seat of this game (R-AUC-12).",
        102 NOT_AUCTIONEER NotAuctioneer
            "only the auctioneer may bid now (R-AUC-2).",
        103 ALREADY_BID AlreadyBid
            "this seat has already bid (R-AUC-3).",
        104 NOT_REBIDDING NotRebidding
            "only the tied seats rebid (R-AUC-6, R-COM-4).",
        105 OPENING_BID_ZERO OpeningBidZero
            "the opening bid must be at least 1 (R-AUC-2).",
        106 BID_EQUALS_OPENING BidEqualsOpening
            "a bid may not equal the auctioneer's opening bid (R-AUC-3).",
        107 BID_OUT_OF_RANGE BidOutOfRange
            "a bid is a whole number from 0 to 2^64-1 (R-AUC-4).",
        108 NOT_ASSET_TAKER NotAssetTaker
            "this seat is not the asset taker (R-COM-5).",
        109 NOT_DISCARDER NotDiscarder
            "only the auctioneer discards when no one takes the asset (R-COM-7).",
        110 PILE_EMPTY PileEmpty
            "the chosen pile is empty (R-COM-5, R-COM-7).",
        111 WRONG_ACTION WrongAction
            "the command is not the kind of action the game waits for now.",
        112 PEEK_NOT_ALLOWED PeekNotAllowed
            "peeking is allowed only in the 5-player game (R-VIS-5).",
        113 PEEK_TWICE PeekTwice
            "each seat may peek once per game (R-VIS-5).",
        114 PEEK_NOT_AWARDED PeekNotAwarded
            "a peek must name an awarded auction (R-VIS-5).",
        115 PEEK_ALREADY_SEEN PeekAlreadySeen
            "the seat already sees that price (R-VIS-5).",
        116 CHANCE_PENDING ChancePending
            "a chance outcome is pending (R-SET-3).",
        117 INVALID_CHANCE InvalidChance
            "invalid chance outcome (R-SET-3).",
        118 MALFORMED_COMMAND Malformed
            "a malformed command (no action, two actions, unknown pile, ...) (R-AUC-12).",
    }
    SetupError {
        200 UNKNOWN_NAME UnknownName
            "an unknown nation, industry, tile, token or pile name (R-CMP-1, R-CMP-2, R-CMP-3, R-CMP-7).",
        201 VALUE_OUT_OF_RANGE ValueOutOfRange
            "a manifest value above 99 (R-CMP-4).",
        202 TOKEN_COUNT TokenCount
            "a token manifest has 18 tokens (R-CMP-7).",
        203 CRYPTO_EIGHT CryptoEight
            "a token manifest needs exactly one crypto token worth 8 (R-CMP-7).",
        204 TILES_IN_PLAY TilesInPlay
            "the removals leave the wrong number of tiles (R-CMP-5).",
        205 PLAYERS Players
            "a game has 3 to 5 players (R-SET-1).",
        206 COUNT Count
            "a list has the wrong length (R-SET-2).",
        207 ENTRY Entry
            "an entry not in play, or listed twice.",
        208 TABLE Table
            "an invalid scoring table (R-SCO).",
        209 PILES Piles
            "asset piles given without Commodities, or missing with it (R-COM-1).",
        210 RECORD Record
            "a malformed record (RECORD.md).",
    }
}

/// The entry of [`ERROR_CODES`] with this number.
///
/// ```
/// use qe_core::{error_code, CommandError};
/// let err = CommandError::OpeningBidZero;
/// let entry = error_code(err.code()).unwrap();
/// assert_eq!((entry.code, entry.name), (105, "OPENING_BID_ZERO"));
/// // The meaning cites the rule; the error's message is its own text.
/// assert!(entry.meaning.contains(err.rule())); // R-AUC-2
/// assert_eq!(err.to_string(), "the auctioneer's opening bid must be at least 1");
/// assert_eq!(error_code(99), None);
/// ```
pub fn error_code(code: u32) -> Option<&'static ErrorCode> {
    ERROR_CODES.iter().find(|e| e.code == code)
}
