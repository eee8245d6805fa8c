//! What a viewer saw of the bids and peeks of a match, in order: [`SeenBid`] and [`SeenPeek`]
//! (made by [`Match::bid_history`](crate::Match::bid_history) and
//! [`Match::peek_history`](crate::Match::peek_history) from the match's events).

use crate::event::BidStage;
use crate::seat::Seat;

/// One secret bid or rebid as a viewer sees it: the amount when the viewer may see it (its own,
/// every bid of an auction it runs, R-VIS-2, R-VIS-3), every amount once the game is over
/// (R-VIS-7), `None` otherwise. Opening bids are public and in the view's auctions (R-VIS-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SeenBid {
    /// The auction's turn.
    pub turn: u8,
    /// The bidder.
    pub seat: Seat,
    /// Which bid of the auction it is.
    pub stage: BidStage,
    /// The amount, when the viewer sees it.
    pub amount: Option<u64>,
}

/// A 5-player peek as a viewer sees it (R-VIS-5; who peeked at which auction is public, R-VIS-1):
/// the peeking seat, the auction it peeked at, and `at`, the number of events of the viewer's
/// stream before it ([`Match::events_as_seen`](crate::Match::events_as_seen)), which places it among everything the viewer saw.
/// The view says which auction a seat peeked at, not when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SeenPeek {
    /// The peeking seat.
    pub seat: Seat,
    /// The auction's turn.
    pub turn: u8,
    /// Its place in the viewer's event stream.
    pub at: usize,
}
