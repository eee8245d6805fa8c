//! [`Ledger`]: how money is totalled, once (R-SCO-1, R-COM-6, R-COM-8). A seat's total spent is the
//! company prices it paid, plus the asset prices it paid, minus the asset prices it recorded as a
//! credit when another seat took the asset of its auction.
//!
//! The game's own ledger (kept as it goes: [`crate::Game::spent`], [`crate::Game::outcome`]), the
//! holdings rebuilt from the turn log ([`crate::Game::holdings`]), views, the
//! deduction aid (which totals intervals instead of amounts) and the search bot's playouts (which
//! total floats) all post to a ledger.

use core::ops::{AddAssign, SubAssign};

use crate::seat::{PerSeat, Seat};

/// Per-seat totals of an amount type: exact money (`i128`) or, for the deduction aid, intervals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Ledger<T> {
    spent: PerSeat<T>,
}

impl<T: Copy + Default + AddAssign + SubAssign> Ledger<T> {
    /// Nothing spent.
    pub(crate) fn new() -> Ledger<T> {
        Ledger {
            spent: PerSeat::default(),
        }
    }

    /// The winner of an auction pays its price (R-AUC-10, R-SCO-1).
    #[inline]
    pub(crate) fn company(&mut self, winner: Seat, price: T) {
        self.spent[winner] += price;
    }

    /// The taker pays the asset price (R-COM-5); the auctioneer, when it is another seat, records
    /// the same amount as a credit (R-COM-6). Nothing is credited without an auctioneer (R-COM-7a).
    #[inline]
    pub(crate) fn asset(&mut self, taker: Seat, auctioneer: Option<Seat>, price: T) {
        self.spent[taker] += price;
        if let Some(a) = auctioneer.filter(|&a| a != taker) {
            self.spent[a] -= price;
        }
    }

    /// Carries `total` over as what `seat` had spent before the first posting (a search playout
    /// starts from each seat's total as its view shows it).
    #[inline]
    pub(crate) fn carry(&mut self, seat: Seat, total: T) {
        self.spent[seat] += total;
    }

    /// The total spent by `seat` (R-SCO-1, R-COM-8).
    #[inline]
    pub(crate) fn spent(&self, seat: Seat) -> T {
        self.spent.get(seat).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_com_6_the_auctioneer_is_credited_the_asset_price_of_another_seat() {
        let mut l = Ledger::<i128>::new();
        l.company(Seat(1), 9);
        l.asset(Seat(2), Some(Seat(0)), 4);
        l.asset(Seat(0), Some(Seat(0)), 3); // its own auction: no credit
        l.asset(Seat(1), None, 2); // no auctioneer (R-COM-7a)
        assert_eq!(
            [0, 1, 2, 3].map(|s| l.spent(Seat(s))),
            [-4 + 3, 9 + 2, 4, 0]
        );
        assert_eq!(l.spent(Seat(7)), 0);
    }

    /// A carried total (a search playout's start) adds to what is posted after it, a net credit
    /// (R-COM-8) too.
    #[test]
    fn a_carried_total_adds_to_what_is_posted_after_it() {
        let mut l = Ledger::<i128>::new();
        l.carry(Seat(0), 10);
        l.carry(Seat(1), -3);
        l.company(Seat(0), 2);
        l.asset(Seat(2), Some(Seat(1)), 4);
        assert_eq!([0, 1, 2].map(|s| l.spent(Seat(s))), [12, -3 - 4, 4]);
    }
}
