//! Who sees what (R-VIS-1…7): one pure function per kind of hidden fact, answering with the set
//! of seats that see it while the game runs. Everything else is public (R-VIS-1), and once the game
//! is over every seat and the spectator see everything (R-VIS-7): [`Viewer::sees`].
//!
//! This is the only place that decides visibility. The game asks it for the audiences it writes
//! into events ([`crate::Event`]), [`crate::Game::view`] asks it for every field of a view, peeks
//! ask it which prices a seat already sees, and everything downstream of views (observations,
//! the deduction aid, bots, the bindings) reads only what a view holds.
//!
//! ```
//! use qe_core::visibility::{bid_seen_by, price_seen_by, Viewer};
//! use qe_core::{Seat, SeatSet};
//! // Seat 2 bids in seat 0's auction: seat 2 and the auctioneer see the amount (R-VIS-2, R-VIS-3).
//! let audience = bid_seen_by(Seat(2), Some(Seat(0)));
//! assert!(Viewer::seat(Seat(0), false).sees(audience));
//! assert!(!Viewer::seat(Seat(1), false).sees(audience));
//! assert!(Viewer::seat(Seat(1), true).sees(audience)); // R-VIS-7
//! // The auctioneer won its own auction: the price is public (R-VIS-4), spectators included.
//! let audience = price_seen_by(Some(Seat(0)), Some(Seat(0)), 4);
//! assert_eq!(audience, SeatSet::all(4));
//! assert!(Viewer::spectator(4, false).sees(audience));
//! ```

use crate::seat::{Seat, SeatSet};

/// Who is looking: a seat or a spectator of a game of `players` seats, at a moment when the game
/// is over or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Viewer {
    /// The seat, or `None` for a spectator (public information only).
    pub seat: Option<Seat>,
    /// The number of seats of the game (a fact every seat sees is public).
    pub players: u8,
    /// Whether the game is over: then everything is revealed (R-VIS-7).
    pub game_over: bool,
}

impl Viewer {
    /// A seat looking (a seat sees what every seat sees, so the player count does not matter).
    pub const fn seat(seat: Seat, game_over: bool) -> Viewer {
        Viewer {
            seat: Some(seat),
            players: crate::seat::MAX_SEATS as u8,
            game_over,
        }
    }

    /// A spectator of a game of `players` seats looking.
    pub const fn spectator(players: u8, game_over: bool) -> Viewer {
        Viewer {
            seat: None,
            players,
            game_over,
        }
    }

    /// `seat`, or a spectator for `None`, of a game of `players` seats.
    pub const fn new(seat: Option<Seat>, players: u8, game_over: bool) -> Viewer {
        Viewer {
            seat,
            players,
            game_over,
        }
    }

    /// Whether this viewer sees a fact whose audience while the game runs is `audience`: a seat in
    /// it; a spectator when every seat is in it, since what every seat sees is public (R-VIS-1);
    /// anyone once the game is over (R-VIS-7).
    #[inline]
    pub const fn sees(&self, audience: SeatSet) -> bool {
        self.game_over
            || match self.seat {
                Some(s) => audience.contains(s),
                None => audience.bits() == SeatSet::all(self.players).bits(),
            }
    }

    /// Whether the viewer is this seat.
    #[inline]
    pub fn is(&self, seat: Seat) -> bool {
        self.seat == Some(seat)
    }
}

/// The amount of a secret bid or rebid (company or asset), and a seat's current standing bid: the
/// bidder and the auctioneer (R-VIS-2, R-VIS-3); only the bidder on the 3-player last turn, which
/// has no auctioneer (R-AUC-9). The opening bid is public (R-VIS-1).
#[inline]
pub const fn bid_seen_by(bidder: Seat, auctioneer: Option<Seat>) -> SeatSet {
    let own = SeatSet::only(bidder);
    match auctioneer {
        Some(a) => SeatSet::from_bits(own.bits() | SeatSet::only(a).bits()),
        None => own,
    }
}

/// The price paid by `buyer` in an auction: the buyer and the auctioneer; every seat when the
/// auctioneer is the buyer (R-VIS-2…4). For the company price the buyer is the winner (`None`:
/// no winner, nothing paid); for the asset price it is the taker, and the auctioneer sees it as
/// its credit (R-COM-6).
#[inline]
pub const fn price_seen_by(buyer: Option<Seat>, auctioneer: Option<Seat>, players: u8) -> SeatSet {
    let Some(b) = buyer else {
        return SeatSet::EMPTY;
    };
    match auctioneer {
        Some(a) if a.0 == b.0 => SeatSet::all(players),
        Some(a) => SeatSet::from_bits(SeatSet::only(b).bits() | SeatSet::only(a).bits()),
        None => SeatSet::only(b),
    }
}

/// Whether `seat` sees the company price of an awarded auction without peeking (R-VIS-2…4); the
/// peek (R-VIS-5) is allowed exactly when it does not.
#[inline]
pub const fn sees_price(
    seat: Seat,
    winner: Option<Seat>,
    auctioneer: Option<Seat>,
    players: u8,
) -> bool {
    price_seen_by(winner, auctioneer, players).contains(seat)
}

/// The asset token taken and its value: the taker only (R-COM-5).
#[inline]
pub const fn token_seen_by(taker: Seat) -> SeatSet {
    SeatSet::only(taker)
}

/// A seat's industry token: its holder only (R-VIS-2).
#[inline]
pub const fn industry_seen_by(holder: Seat) -> SeatSet {
    SeatSet::only(holder)
}

/// A seat's total spent: the seat itself (R-VIS-2). Others may bound it from what they see
/// ([`crate::deduction`]).
#[inline]
pub const fn spent_seen_by(seat: Seat) -> SeatSet {
    SeatSet::only(seat)
}

/// Whether the winner of an auction, or the taker of its asset, was decided by a third tie in a
/// row, and which seats that tie held (R-AUC-7, R-COM-4), given the seats of the second tie before
/// it. No rebid follows a third tie, so unlike the first two ("which seats must rebid", R-VIS-1) it
/// is not public: the auctioneer sees it, as it sees every bid and rebid of its auction (R-VIS-3);
/// on the 3-player last turn, which has no auctioneer, no seat does. Without a second tie there
/// can be no third, and every seat knows that.
#[inline]
pub const fn third_tie_seen_by(
    auctioneer: Option<Seat>,
    second_tie: SeatSet,
    players: u8,
) -> SeatSet {
    if second_tie.bits() == 0 {
        return SeatSet::all(players);
    }
    match auctioneer {
        Some(a) => SeatSet::only(a),
        None => SeatSet::EMPTY,
    }
}

/// The price a seat peeked at: the peeker only (R-VIS-5).
#[inline]
pub const fn peek_seen_by(peeker: Seat) -> SeatSet {
    SeatSet::only(peeker)
}

/// The order of the unrevealed deck, the order of the asset piles, the tokens discarded unseen
/// and the industry token set aside with 3 players: no seat while the game runs (R-VIS-6,
/// R-COM-7; revealed at the end, R-VIS-7).
pub const HIDDEN: SeatSet = SeatSet::EMPTY;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_vis_2_and_3_bids_are_seen_by_the_bidder_and_the_auctioneer() {
        let set = bid_seen_by(Seat(3), Some(Seat(1)));
        assert_eq!(set, [Seat(1), Seat(3)].into_iter().collect());
        assert_eq!(bid_seen_by(Seat(1), Some(Seat(1))), SeatSet::only(Seat(1)));
        assert_eq!(bid_seen_by(Seat(2), None), SeatSet::only(Seat(2)));
    }

    #[test]
    fn r_vis_4_a_price_paid_to_oneself_is_public() {
        assert_eq!(
            price_seen_by(Some(Seat(2)), Some(Seat(2)), 5),
            SeatSet::all(5)
        );
        assert_eq!(
            price_seen_by(Some(Seat(2)), Some(Seat(0)), 5),
            [Seat(0), Seat(2)].into_iter().collect()
        );
        assert_eq!(price_seen_by(None, Some(Seat(0)), 5), SeatSet::EMPTY);
        assert_eq!(
            price_seen_by(Some(Seat(1)), None, 3),
            SeatSet::only(Seat(1))
        );
        assert!(sees_price(Seat(4), Some(Seat(2)), Some(Seat(2)), 5));
        assert!(!sees_price(Seat(4), Some(Seat(2)), Some(Seat(0)), 5));
    }

    #[test]
    fn r_vis_1_and_3_a_third_tie_is_seen_by_the_auctioneer_only() {
        let second = [Seat(1), Seat(2)].into_iter().collect();
        assert_eq!(
            third_tie_seen_by(Some(Seat(0)), second, 4),
            SeatSet::only(Seat(0))
        );
        assert_eq!(third_tie_seen_by(None, second, 3), SeatSet::EMPTY);
        // No second tie: no third tie, publicly.
        assert_eq!(
            third_tie_seen_by(Some(Seat(0)), SeatSet::EMPTY, 4),
            SeatSet::all(4)
        );
        assert_eq!(third_tie_seen_by(None, SeatSet::EMPTY, 3), SeatSet::all(3));
    }

    #[test]
    fn r_vis_7_everything_is_seen_at_the_end() {
        for viewer in [Viewer::seat(Seat(4), true), Viewer::spectator(5, true)] {
            assert!(viewer.sees(HIDDEN));
            assert!(viewer.sees(token_seen_by(Seat(0))));
        }
        assert!(Viewer::spectator(5, false).sees(SeatSet::all(5)));
        assert!(!Viewer::spectator(5, false).sees(SeatSet::all(4)));
        assert!(!Viewer::spectator(3, false).sees(HIDDEN));
        assert!(!Viewer::seat(Seat(1), false).sees(HIDDEN));
        assert!(Viewer::seat(Seat(1), false).sees(industry_seen_by(Seat(1))));
        assert!(!Viewer::seat(Seat(1), false).sees(spent_seen_by(Seat(2))));
        assert!(Viewer::seat(Seat(1), false).sees(peek_seen_by(Seat(1))));
    }
}
