//! Deduction aid: what a seat can prove about every other seat's total spent (R-SCO-1, R-COM-8),
//! from its own information only.
//!
//! [`Deduction::from_view`] works from a [`SeatView`] alone; [`Deduction::new`] also uses the seat's
//! own final company bids of past auctions (which a view does not keep; [`Match::deduce`](crate::Match::deduce)
//! reads them from the seat's event stream). Either way the input is only what R-VIS lets the seat
//! see, so the bounds cannot leak (R-VIS-8).
//!
//! ## The reasoning, per auction, for another seat `o`
//!
//! A total is a sum of terms: company prices `o` paid, asset prices `o` paid, minus the credits `o`
//! recorded as auctioneer (R-COM-6, R-COM-8). Each term gets an interval `[lo, hi]`:
//!
//! - **Known price** (the viewer won it, ran the auction — R-VIS-3 —, the auctioneer won it — R-VIS-4 —,
//!   it peeked — R-VIS-5 —, or the game is over — R-VIS-7): exact.
//! - **Company price, hidden** (`o` won an auction the viewer did not run): the winner's bid is the
//!   highest bid, or after a third tie the highest bid value that exactly one seat holds (R-AUC-7). The
//!   auctioneer's bid is always unique, so either way the winner bid **more than the opening bid**
//!   (R-AUC-2, R-AUC-3: it cannot equal it): `lo = opening + 1`. If the viewer bid in that auction, lost,
//!   and it sees that there was no third tie, the winner also beat the viewer's final bid (R-AUC-5, R-AUC-8):
//!   `lo = max(lo, my_bid + 1)`. (After a third tie the winner may have bid *less* than the viewer, whose
//!   bid can have been set aside, R-AUC-7.) On the 3-player last turn there is no opening bid; `lo = 0`
//!   (R-AUC-9). Bids are at most 2^64−1 (R-AUC-4): `hi = 2^64−1`.
//! - **Asset price, hidden** (R-COM-3…5): without asset rebids, the taker paid its final company bid,
//!   the unique highest of the field: everyone but the winner and the bids set aside by a third company
//!   tie, which are exactly the bids above the winner's (R-AUC-7). Every bid in the field is therefore
//!   below the company price `p`, third tie or not. So: if the taker's final bid was revealed as 0
//!   (R-AUC-11), the price is exactly 0; if the auctioneer neither won nor took, the taker bid more than
//!   the opening bid; if the viewer's own bid was in the field (it lost the company and sees there was
//!   no third tie, or bid less than a `p` it knows) and the viewer did not take the asset, the taker bid more
//!   than the viewer; and if `p` is known, the taker bid less than `p`. With asset rebids (R-COM-4) a
//!   rebid may be anything (even above the company price): `[0, 2^64−1]`, except the zero-bid fact,
//!   which no longer applies.
//! - **Credit** recorded by `o` (it ran the auction, another seat took the asset): the taker's asset
//!   price, with the interval above; subtracted, so it lowers `lo` by its `hi` and `hi` by its `lo`.
//!
//! Bounds are exact whenever every term is known. [`SpendBounds::exact`] says so.

use core::ops::{AddAssign, SubAssign};

use crate::event::{BidStage, Event};
use crate::game::contest;
use crate::ledger::Ledger;
use crate::seat::{PerSeat, Seat};
use crate::view::{AuctionView, SeatView};

/// What a seat can prove about one seat's total spent.
///
/// ```
/// use qe_core::{Command, Match, Rules, Seat};
/// let mut m = Match::seeded(Rules::base(4).unwrap(), 42);
/// for (seat, amount) in [(0, 10), (1, 13), (2, 11), (3, 0)] {
///     m.apply(Command::Bid { seat: Seat(seat), amount }).unwrap();
/// }
/// // Seat 1 won turn 0 at 13, a price seat 2 does not see (R-VIS-1) ...
/// let bounds = m.deduce(Seat(2)).seats[Seat(1)];
/// assert_eq!((bounds.won, bounds.known_prices), (1 << 0, 0));
/// // ... but seat 1 beat seat 2's own bid of 11 (R-AUC-5): at least 12.
/// assert_eq!((bounds.lower, bounds.upper), (12, i128::from(u64::MAX)));
/// assert!(bounds.contains(13) && !bounds.contains(11) && !bounds.exact());
/// assert!(m.deduce(Seat(2)).seats[Seat(2)].exact()); // its own total (R-VIS-2)
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SpendBounds {
    /// The total is at least this.
    pub lower: i128,
    /// The total is at most this.
    pub upper: i128,
    /// Bit `t` set: the price of the tile this seat won on turn `t` is known to the viewer.
    pub known_prices: u16,
    /// Bit `t` set: this seat won the tile of turn `t`.
    pub won: u16,
}

impl SpendBounds {
    /// Whether the viewer knows the total exactly.
    pub fn exact(&self) -> bool {
        self.lower == self.upper
    }

    /// Whether `spent` lies within the bounds.
    pub fn contains(&self, spent: i128) -> bool {
        self.lower <= spent && spent <= self.upper
    }
}

/// Every seat's [`SpendBounds`] as one seat can prove them.
///
/// ```
/// use qe_core::{Command, Match, Rules, Seat};
/// let mut m = Match::seeded(Rules::base(4).unwrap(), 42);
/// for (seat, amount) in [(0, 10), (1, 13), (2, 11), (3, 0)] {
///     m.apply(Command::Bid { seat: Seat(seat), amount }).unwrap();
/// }
/// // Seat 1 won at 13. The auctioneer saw every bid (R-VIS-3): it knows the total exactly.
/// assert!(m.deduce(Seat(0)).seats[Seat(1)].exact());
/// assert_eq!(m.deduce(Seat(0)).seats[Seat(1)].lower, 13);
/// // Seat 3 bid 0: it knows only that seat 1 beat the opening bid of 10 (R-AUC-3, R-AUC-5).
/// assert_eq!(m.deduce(Seat(3)).seats[Seat(1)].lower, 11);
/// // Seat 2 also knows seat 1 beat its own bid of 11, which its view alone does not keep.
/// assert_eq!(m.deduce(Seat(2)).seats[Seat(1)].lower, 12);
/// assert_eq!(m.game().view(Seat(2)).deduce().seats[Seat(1)].lower, 11);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Deduction {
    /// Per seat (`seats[..players]`); the viewer's own entry is exact.
    pub seats: PerSeat<SpendBounds>,
}

/// The viewer's own final company bid per turn (R-AUC-8), where it bid.
pub type OwnBids = [Option<u64>; 16];

const MAX: i128 = u64::MAX as i128;

/// An interval of money. Intervals add term by term, and subtracting one takes its bounds the
/// other way round, so a [`Ledger`] totals them exactly as it totals amounts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    lo: i128,
    hi: i128,
}

impl AddAssign for Span {
    fn add_assign(&mut self, other: Span) {
        self.lo += other.lo;
        self.hi += other.hi;
    }
}

impl SubAssign for Span {
    fn sub_assign(&mut self, other: Span) {
        self.lo -= other.hi;
        self.hi -= other.lo;
    }
}

impl Span {
    fn exact(v: u64) -> Span {
        Span {
            lo: v as i128,
            hi: v as i128,
        }
    }
}

impl Deduction {
    /// Bounds from a view alone.
    pub fn from_view(view: &SeatView) -> Deduction {
        Deduction::new(view, &[None; 16])
    }

    /// Bounds from a view and the viewer's own final company bids of past auctions. A view no game
    /// could make ([`SeatView::is_well_formed`]) proves nothing: every bound is the widest.
    pub fn new(view: &SeatView, own_bids: &OwnBids) -> Deduction {
        let mut d = Deduction::default();
        if !view.is_well_formed() {
            for s in d.seats.values_mut() {
                (s.lower, s.upper) = (i128::MIN, i128::MAX);
            }
            return d;
        }
        let players = usize::from(view.players);
        let mut ledger = Ledger::<Span>::new();
        for a in view.auctions() {
            let my_bid = own_bids.get(a.turn as usize).copied().flatten();
            if let Some(w) = a.winner {
                ledger.company(w, company_span(view, a, my_bid));
                let bit = 1u16 << a.turn;
                d.seats[w].won |= bit;
                if a.price.is_some() {
                    d.seats[w].known_prices |= bit;
                }
            }
            if a.asset.taken {
                let taker = a.asset.seat.expect("a taken asset has a taker");
                ledger.asset(taker, a.auctioneer, asset_span(view, a, my_bid));
            }
        }
        for i in 0..players {
            let seat = Seat(i as u8);
            let b = &mut d.seats[seat];
            (b.lower, b.upper) = match view.seats[seat].spent {
                Some(s) => (s, s),
                None => (ledger.spent(seat).lo, ledger.spent(seat).hi),
            };
        }
        d
    }
}

/// The interval of the company price of auction `a` (won by someone).
fn company_span(view: &SeatView, a: &AuctionView, my_bid: Option<u64>) -> Span {
    if let Some(p) = a.price {
        return Span::exact(p);
    }
    let viewer_lost = view.seat.is_some() && view.seat != a.winner;
    let lo = contest::winning_bid_floor(a.opening, my_bid.filter(|_| viewer_lost), a.third_tie);
    Span { lo, hi: MAX }
}

/// The interval of the asset price of auction `a` (an asset was taken).
fn asset_span(view: &SeatView, a: &AuctionView, my_bid: Option<u64>) -> Span {
    if let Some(p) = a.asset.price {
        return Span::exact(p);
    }
    let taker = a.asset.seat.expect("a taken asset has a taker");
    let rebid = !a.asset.ties[0].is_empty();
    if rebid {
        return Span { lo: 0, hi: MAX };
    }
    // The taker paid its final company bid, the unique highest of the field (R-COM-3).
    if a.zero_bids.contains(taker) {
        return Span::exact(0);
    }
    let mut lo: i128 = 0;
    let mut hi: i128 = MAX;
    if let (Some(_), Some(o)) = (a.auctioneer, a.opening) {
        if a.auctioneer != a.winner && a.auctioneer != Some(taker) {
            // The auctioneer's unique bid is in the field and lost to the taker.
            lo = lo.max(contest::taking_bid_floor(o));
        }
    }
    if let (Some(me), Some(b)) = (view.seat, my_bid) {
        // The viewer's bid was in the field unless a third tie set it aside, which happens exactly
        // when it was above the winner's (R-AUC-7); a third tie the viewer may not see may have.
        if Some(me) != a.winner && me != taker && contest::stays_in_field(b, a.price, a.third_tie) {
            lo = lo.max(contest::taking_bid_floor(b));
        }
    }
    if let Some(p) = a.price {
        // Every bid left in the field is below the company price (R-COM-3, R-AUC-7).
        hi = hi.min(contest::field_bid_ceiling(p));
    }
    Span { lo, hi }
}

/// The viewer's own final company bid per turn (R-AUC-8), from its event stream: its opening bid, or
/// its last secret bid or company rebid of each auction.
pub fn own_bids(seat: Seat, events: impl IntoIterator<Item = Event>) -> OwnBids {
    let mut bids = [None; 16];
    for e in events {
        match e {
            Event::OpeningBid {
                turn,
                seat: s,
                amount,
            } if s == seat => bids[turn as usize] = Some(amount),
            Event::Bid {
                turn,
                seat: s,
                stage: BidStage::Secret | BidStage::Rebid(_),
                amount: Some(amount),
                ..
            } if s == seat => bids[turn as usize] = Some(amount),
            _ => {}
        }
    }
    bids
}

impl SeatView {
    /// What this viewer can prove about every seat's total spent, from the view alone (without its
    /// own past bids; [`crate::Match::deduce`] also uses those).
    pub fn deduce(&self) -> Deduction {
        Deduction::from_view(self)
    }
}
