//! [`Event`]s: what happened, each with the seats that see all of it. The one redaction rule of the
//! crate is [`Event::visible_to`] (R-VIS).

use crate::components::{AssetKind, Industry, TileId, TokenId};
use crate::seat::{Seat, SeatSet};

/// Which bid of an auction a [`Event::Bid`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
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
        /// Whether the winner was decided by the third tie (R-AUC-7).
        third_tie: bool,
        /// Who sees the price.
        seen_by: SeatSet,
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
        /// Whether it was decided by the third tie (R-COM-4).
        third_tie: bool,
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
            | Event::Awarded { seen_by, .. }
            | Event::AssetTaken {
                token_seen_by: seen_by,
                ..
            } => seen_by,
            _ => SeatSet::all(players),
        }
    }

    /// The copy of this event that `seat` may see: hidden fields are `None` unless `seat` is in their
    /// audience (R-VIS-1…5). Every event has a public part, so every seat gets every event.
    #[must_use]
    pub fn visible_to(&self, seat: Seat) -> Event {
        let mut e = *self;
        match &mut e {
            Event::Dealt { seat: s, industry } if *s != seat => *industry = None,
            Event::Peeked { seat: s, price, .. } if *s != seat => *price = None,
            Event::Bid {
                amount, seen_by, ..
            } if !seen_by.contains(seat) => *amount = None,
            Event::Awarded { price, seen_by, .. } if !seen_by.contains(seat) => *price = None,
            Event::AssetTaken {
                token,
                value,
                price,
                token_seen_by,
                price_seen_by,
                ..
            } => {
                if !token_seen_by.contains(seat) {
                    *token = None;
                    *value = None;
                }
                if !price_seen_by.contains(seat) {
                    *price = None;
                }
            }
            _ => {}
        }
        e
    }

    /// The public copy (what a spectator sees).
    #[must_use]
    pub fn public(&self) -> Event {
        self.visible_to(Seat(u8::MAX))
    }

    /// The copy of this event that `viewer` (a seat, or `None` for a spectator) sees once the game
    /// is in the state `game_over`: redacted while the game runs ([`Event::visible_to`],
    /// [`Event::public`]); in full for everyone once it has ended, when every bid, rebid, price and
    /// token is revealed to all (R-VIS-7).
    ///
    /// ```
    /// use qe_core::{BidStage, Event, Seat, SeatSet};
    /// let bid = Event::Bid { turn: 0, seat: Seat(2), stage: BidStage::Secret, amount: Some(7),
    ///                        seen_by: SeatSet::only(Seat(2)) };
    /// assert_eq!(bid.as_seen(Some(Seat(1)), false), bid.visible_to(Seat(1))); // hidden (R-VIS-3)
    /// assert_eq!(bid.as_seen(Some(Seat(1)), true), bid); // revealed at the end (R-VIS-7)
    /// assert_eq!(bid.as_seen(None, true), bid);
    /// ```
    #[must_use]
    pub fn as_seen(&self, viewer: Option<Seat>, game_over: bool) -> Event {
        match (game_over, viewer) {
            (true, _) => *self,
            (false, Some(seat)) => self.visible_to(seat),
            (false, None) => self.public(),
        }
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
