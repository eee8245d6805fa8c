//! A whole bidding step played at once ([`Game::play_bids`]): every seat that must bid now bids,
//! in seat order, with the checks of the bid commands it stands for (R-AUC-2, R-AUC-3, R-AUC-6,
//! R-COM-4) made once for the step where they are the same for every seat.

use super::auction::OPENING_RANGE;
use super::Game;
use crate::error::CommandError;
use crate::legal::BidRange;
use crate::phase::Phase;
use crate::seat::{Seat, SeatSet};

impl Game {
    /// Plays the current bidding step whole: asks `amount` for the bid of each seat that must bid
    /// now, lowest seat first, and plays it. The same as playing a [`Command::Bid`](crate::Command)
    /// of each of those seats with [`Game::play`] in seat order, which is what the tests hold it to;
    /// only faster, for a simulator that has every seat's bid at hand (PERF.md).
    ///
    /// `amount` is given the seat and the step's [`BidRange`] (every seat of a step has the same,
    /// as [`Game::bidders`] says). Returns the seats that bid: the auctioneer alone for an opening
    /// bid (R-AUC-2), the pending bidders for secret bids and rebids (R-AUC-3, R-AUC-6, R-COM-4),
    /// none when no seat bids now (a pile to choose, a chance outcome, the end), and then `amount`
    /// is not called. The last bid of a step settles it, as the last bid command does.
    ///
    /// A bid the rules reject stops the step there: the seats before it have bid, the game is as
    /// the commands up to it would leave it, and the error names the seat and why, as
    /// [`Game::play`] would have (R-AUC-12).
    ///
    /// Like [`Game::play`], it produces no events: a caller that wants each bid's events plays
    /// the bids as commands ([`Game::apply`], [`Game::apply_to`]).
    ///
    /// If `amount` panics, the bids it gave before are stored but their seats are still listed as
    /// pending until the step's end, which never comes: a game the commands do not reach (its
    /// seats may still bid, each bid replacing the one stored). Drop it, or replay its record.
    ///
    /// ```
    /// use qe_core::{CommandError, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// // The auctioneer opens (R-AUC-2).
    /// let opened = game.play_bids(|_, range| range.min + 4).unwrap();
    /// assert_eq!(opened.iter().collect::<Vec<_>>(), [Seat(0)]);
    /// // Then the three others bid at once; a bid of the opening 5 is refused (R-AUC-3).
    /// let err = game.play_bids(|seat, _| 5 + u64::from(seat.0 == 1)).unwrap_err();
    /// assert_eq!(err, (Seat(2), CommandError::BidEqualsOpening { amount: 5 }));
    /// assert_eq!(game.to_act().iter().collect::<Vec<_>>(), [Seat(2), Seat(3)]);
    /// game.play_bids(|_, _| 0).unwrap(); // seat 1's 6 wins (R-AUC-5)
    /// assert_eq!(game.spent(Seat(1)), 6);
    /// ```
    #[inline]
    pub fn play_bids(
        &mut self,
        mut amount: impl FnMut(Seat, &BidRange) -> u64,
    ) -> Result<SeatSet, (Seat, CommandError)> {
        let bidders = self.pending;
        if bidders.is_empty() {
            if !matches!(self.phase, Phase::OpeningBid { .. }) {
                return Ok(SeatSet::EMPTY);
            }
            let seat = Seat(self.auct);
            let bid = amount(seat, &OPENING_RANGE);
            // R-AUC-2: at least 1 (the auctioneer is the seat, as `Game::open` checks).
            if bid == 0 {
                return Err((seat, CommandError::OpeningBidZero));
            }
            self.opening_bid(seat, bid, &mut ());
            return Ok(SeatSet::only(seat));
        }
        // R-AUC-3: never the auctioneer's bid; no auctioneer, no restriction (R-AUC-9).
        let range = self.secret_range();
        let forbidden = range.forbidden;
        for (seat, slot) in self.bids.seats_mut() {
            if !bidders.contains(seat) {
                continue;
            }
            let bid = amount(seat, &range);
            if Some(bid) == forbidden {
                // The seats from this one on have not bid.
                self.pending = SeatSet::from_bits(bidders.bits() & (u8::MAX << seat.0));
                return Err((seat, CommandError::BidEqualsOpening { amount: bid }));
            }
            *slot = bid;
        }
        self.pending = SeatSet::EMPTY;
        self.settle(&mut ());
        Ok(bidders)
    }
}
