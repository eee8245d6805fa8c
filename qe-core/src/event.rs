//! [`Event`]s: what happened, each with the seats that see all of it ([`crate::visibility`] decides
//! them); [`Event::as_seen`] is the copy a viewer gets (R-VIS).

use crate::components::{AssetKind, Industry, TileId, TokenId};
use crate::seat::{Seat, SeatSet};
use crate::visibility::{self, Viewer};

/// Which bid of an auction a [`Event::Bid`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum BidStage {
    /// A secret bid (R-AUC-3, R-AUC-9).
    Secret,
    /// A rebid after the `n`-th tie for the company (R-AUC-6).
    Rebid(u8),
    /// A rebid after the `n`-th tie for the asset (R-COM-4).
    AssetRebid(u8),
}

/// Something that happened in the game.
///
/// Fields that not every seat may see are `Option`s, filled only in the copy given to the seats in the
/// event's audience (see [`Event::visible_to`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "event", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Event {
    /// A seat received its industry token; only that seat sees which (R-VIS-2).
    Dealt {
        /// The seat.
        seat: Seat,
        /// Its token (hidden from the others).
        industry: Option<Industry>,
    },
    /// A tile was revealed and a turn began (R-AUC-1, R-TRN-2).
    TileRevealed {
        /// The turn.
        turn: u8,
        /// The tile.
        tile: TileId,
        /// The auctioneer (`None` on the 3-player last turn, R-TRN-3).
        auctioneer: Option<Seat>,
    },
    /// The auctioneer's public opening bid (R-AUC-2).
    OpeningBid {
        /// The turn.
        turn: u8,
        /// The auctioneer.
        seat: Seat,
        /// The bid.
        amount: u64,
    },
    /// A seat bid; the amount is seen by the bidder and the auctioneer (R-VIS-1…3).
    Bid {
        /// The turn.
        turn: u8,
        /// The bidder.
        seat: Seat,
        /// Which bid this is.
        stage: BidStage,
        /// The amount (hidden from the others).
        amount: Option<u64>,
        /// Who sees the amount.
        seen_by: SeatSet,
    },
    /// The highest bids (or, for the asset, the second-highest) tied: these seats rebid (R-AUC-6,
    /// R-COM-4).
    RebidRequired {
        /// The turn.
        turn: u8,
        /// The tied seats.
        seats: SeatSet,
        /// Which tie in a row this is (1 or 2).
        tie: u8,
        /// `true` for the asset (R-COM-4), `false` for the company.
        asset: bool,
    },
    /// The auction was settled (R-AUC-5, R-AUC-7, R-AUC-9, R-AUC-10). The price is seen by the winner
    /// and the auctioneer, and by all when the auctioneer won (R-VIS-4).
    Awarded {
        /// The turn.
        turn: u8,
        /// The tile.
        tile: TileId,
        /// The winner; `None` when the 3-player last tile is discarded (R-AUC-9).
        winner: Option<Seat>,
        /// The price (hidden from the others).
        price: Option<u64>,
        /// Whether the winner was decided by the third tie (R-AUC-7); hidden from the others.
        third_tie: Option<bool>,
        /// Who sees the price.
        seen_by: SeatSet,
        /// Who sees `third_tie` ([`visibility::third_tie_seen_by`]).
        third_tie_seen_by: SeatSet,
    },
    /// The seats whose final bid was 0 (R-AUC-11; 4–5 players).
    ZeroBids {
        /// The turn.
        turn: u8,
        /// The seats.
        seats: SeatSet,
        /// The seats that scored a zero-bid mark for this round by it (R-SCO-5).
        marked: SeatSet,
    },
    /// This seat takes the asset and must choose a pile (R-COM-3, R-COM-4).
    AssetTaker {
        /// The turn.
        turn: u8,
        /// The taker.
        seat: Seat,
        /// Whether it was decided by the third tie (R-COM-4); hidden from the others.
        third_tie: Option<bool>,
        /// Who sees `third_tie` ([`visibility::third_tie_seen_by`]).
        third_tie_seen_by: SeatSet,
    },
    /// The taker took the top token of a pile (R-COM-5, R-COM-6). The token is seen by the taker; the
    /// price by the taker and the auctioneer (credit), and by all when the auctioneer took it.
    AssetTaken {
        /// The turn.
        turn: u8,
        /// The taker.
        seat: Seat,
        /// The pile.
        kind: AssetKind,
        /// The token (hidden from the others).
        token: Option<TokenId>,
        /// Its VP value (hidden from the others).
        value: Option<u8>,
        /// Its price (hidden from the others).
        price: Option<u64>,
        /// Who sees the token and value.
        token_seen_by: SeatSet,
        /// Who sees the price.
        price_seen_by: SeatSet,
    },
    /// No one takes the asset (R-COM-7); the auctioneer must choose a pile to discard from.
    NoTaker {
        /// The turn.
        turn: u8,
    },
    /// The auctioneer discarded the top token of a pile, unseen (R-COM-7).
    AssetDiscarded {
        /// The turn.
        turn: u8,
        /// The auctioneer.
        seat: Seat,
        /// The pile.
        kind: AssetKind,
    },
    /// A seat peeked at the price of an auction (R-VIS-5); only it sees the price.
    Peeked {
        /// The peeking seat.
        seat: Seat,
        /// The auction's turn.
        turn: u8,
        /// The price (hidden from the others).
        price: Option<u64>,
    },
    /// The game ended (R-TRN-4); everything is now revealed (R-VIS-7).
    GameOver,
}

impl Event {
    /// The seats that see this event in full; the others get a redacted copy.
    pub fn audience(&self, players: u8) -> SeatSet {
        match *self {
            Event::Dealt { seat, .. } | Event::Peeked { seat, .. } => SeatSet::only(seat),
            Event::Bid { seen_by, .. }
            | Event::AssetTaker {
                third_tie_seen_by: seen_by,
                ..
            }
            | Event::AssetTaken {
                token_seen_by: seen_by,
                ..
            } => seen_by,
            Event::Awarded {
                seen_by,
                third_tie_seen_by,
                ..
            } => SeatSet::from_bits(seen_by.bits() & third_tie_seen_by.bits()),
            _ => SeatSet::all(players),
        }
    }

    /// The copy of this event that `viewer` sees: each hidden field is `None` unless the viewer
    /// sees it ([`Viewer::sees`]: its audience while the game runs, everything once it is over,
    /// R-VIS-1…7). Every event has a public part, so every viewer gets every event.
    ///
    /// ```
    /// use qe_core::visibility::Viewer;
    /// use qe_core::{BidStage, Event, Seat, SeatSet};
    /// let bid = Event::Bid { turn: 0, seat: Seat(2), stage: BidStage::Secret, amount: Some(7),
    ///                        seen_by: SeatSet::only(Seat(2)) };
    /// let hidden = bid.as_seen(Viewer::seat(Seat(1), false));
    /// assert!(matches!(hidden, Event::Bid { amount: None, .. })); // R-VIS-3
    /// assert_eq!(bid.as_seen(Viewer::seat(Seat(1), true)), bid); // revealed at the end (R-VIS-7)
    /// assert_eq!(bid.as_seen(Viewer::spectator(4, true)), bid);
    /// ```
    #[must_use]
    pub fn as_seen(&self, viewer: Viewer) -> Event {
        let mut e = *self;
        match &mut e {
            Event::Dealt { seat, industry }
                if !viewer.sees(visibility::industry_seen_by(*seat)) =>
            {
                *industry = None;
            }
            Event::Peeked { seat, price, .. } if !viewer.sees(visibility::peek_seen_by(*seat)) => {
                *price = None;
            }
            Event::Bid {
                amount, seen_by, ..
            } if !viewer.sees(*seen_by) => *amount = None,
            Event::Awarded {
                price,
                seen_by,
                third_tie,
                third_tie_seen_by,
                ..
            } => {
                if !viewer.sees(*seen_by) {
                    *price = None;
                }
                if !viewer.sees(*third_tie_seen_by) {
                    *third_tie = None;
                }
            }
            Event::AssetTaker {
                third_tie,
                third_tie_seen_by,
                ..
            } if !viewer.sees(*third_tie_seen_by) => *third_tie = None,
            Event::AssetTaken {
                token,
                value,
                price,
                token_seen_by,
                price_seen_by,
                ..
            } => {
                if !viewer.sees(*token_seen_by) {
                    *token = None;
                    *value = None;
                }
                if !viewer.sees(*price_seen_by) {
                    *price = None;
                }
            }
            _ => {}
        }
        e
    }

    /// The copy of this event that `seat` sees while the game runs ([`Event::as_seen`]).
    #[must_use]
    pub fn visible_to(&self, seat: Seat) -> Event {
        self.as_seen(Viewer::seat(seat, false))
    }

    /// The copy a spectator of a game of `players` seats sees while the game runs: the public
    /// part ([`Event::as_seen`]).
    #[must_use]
    pub fn public(&self, players: u8) -> Event {
        self.as_seen(Viewer::spectator(players, false))
    }
}

/// The events of one command, in order, in fixed storage (no heap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Events {
    len: u8,
    items: [Event; Events::CAPACITY],
}

impl Default for Events {
    fn default() -> Self {
        Events {
            len: 0,
            items: [Event::GameOver; Events::CAPACITY],
        }
    }
}

impl Events {
    /// The most events one command can produce.
    pub const CAPACITY: usize = 12;

    pub(crate) fn push(&mut self, e: Event) {
        self.items[self.len as usize] = e;
        self.len += 1;
    }

    /// The events, in order.
    pub fn as_slice(&self) -> &[Event] {
        &self.items[..self.len as usize]
    }

    /// How many events there are.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The events as `seat` may see them (R-VIS-8).
    pub fn visible_to(&self, seat: Seat) -> impl Iterator<Item = Event> + '_ {
        self.as_slice().iter().map(move |e| e.visible_to(seat))
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = core::slice::Iter<'a, Event>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Receives events as the game produces them. Implemented by [`Events`] and by `()` (which drops
/// them, for fast simulation).
pub trait EventSink {
    /// Takes one event.
    fn event(&mut self, e: Event);
}

impl EventSink for Events {
    #[inline]
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}

impl EventSink for () {
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl EventSink for alloc::vec::Vec<Event> {
    #[inline]
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}
