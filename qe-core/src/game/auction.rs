//! The company auction (RULES.md section 4): the opening bid, secret bids and rebids, the award,
//! the zero-bid marks, and the passage from one turn to the next (R-TRN-1…4). Ties are settled by
//! the contest kernel ([`super::contest`]).

use super::contest::{self, Round};
use super::{Game, NONE};
use crate::error::CommandError;
use crate::event::{BidStage, Event, EventSink};
use crate::legal::BidRange;
use crate::phase::{Chance, Phase};
use crate::rules::Rules;
use crate::seat::{PerSeat, Seat, SeatSet};
use crate::visibility;

/// A bid the fast path takes ([`Game::bid_fast_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FastBid {
    /// A secret bid or rebid by a seat that must still bid.
    Pending,
    /// The auctioneer's legal opening bid.
    Opening,
    /// Any other bid.
    No,
}

/// The range of the auctioneer's opening bid: at least 1 (R-AUC-2), at most 2^64−1 (R-AUC-4).
pub(super) const OPENING_RANGE: BidRange = BidRange {
    min: 1,
    max: u64::MAX,
    forbidden: None,
};

impl Game {
    /// The range of a secret bid or rebid now: anything from 0 to 2^64−1 (R-AUC-4) but the
    /// auctioneer's opening bid (R-AUC-3); no restriction without an auctioneer (R-AUC-9).
    #[inline]
    pub(super) fn secret_range(&self) -> BidRange {
        BidRange {
            min: 0,
            max: u64::MAX,
            forbidden: (self.auct != NONE).then_some(self.opening),
        }
    }

    /// The bids `seat` may make now, if it must bid.
    ///
    /// The auctioneer opens with at least 1 (R-AUC-2); then every other seat may bid anything from
    /// 0 to 2^64−1 but the opening bid (R-AUC-3, R-AUC-4). On the last turn of a 3-player game
    /// there is no auctioneer: every seat bids secretly, from 0, nothing forbidden (R-AUC-9). Seats
    /// that tie for the highest bid rebid (R-AUC-6).
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// let opening = game.bid_range(Seat(0)).unwrap();
    /// assert!(!opening.allows(0) && opening.allows(1)); // R-AUC-2
    /// assert_eq!(game.bid_range(Seat(1)), None); // not its turn yet
    /// game.apply(Command::Bid { seat: Seat(0), amount: 7 }).unwrap();
    /// let secret = game.bid_range(Seat(1)).unwrap();
    /// assert!(secret.allows(0) && !secret.allows(7) && secret.allows(u64::MAX));
    /// assert_eq!(secret.forbidden, Some(7));
    /// assert_eq!(game.bid_range(Seat(0)), None); // the auctioneer has bid
    /// ```
    #[inline]
    pub fn bid_range(&self, seat: Seat) -> Option<BidRange> {
        if self.is_pending_bidder(seat) {
            Some(self.secret_range())
        } else if matches!(self.phase, Phase::OpeningBid { .. }) && self.auct == seat.0 {
            Some(OPENING_RANGE)
        } else {
            None
        }
    }

    /// The seats that must bid now and the bids they may make, together: every seat of a bidding
    /// step may bid in the same range, so one answer serves the whole step. `None` when no seat
    /// bids now (a pile to choose, a chance outcome, the end). The same as [`Game::to_act`] with
    /// [`Game::bid_range`] of its first seat, read once from the seats kept with the phase
    /// (`Game::bidders_at_once`, PERF.md). A simulator that plays each bidding step's seats in
    /// turn reads the step once; the random-play benchmarks and the search bot's playouts do.
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat, SeatSet};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// let (seats, range) = game.bidders().unwrap();
    /// assert_eq!(seats, SeatSet::only(Seat(0))); // the auctioneer opens (R-AUC-2)
    /// assert_eq!(Some(range), game.bid_range(Seat(0)));
    /// game.apply(Command::Bid { seat: Seat(0), amount: 7 }).unwrap();
    /// let (seats, range) = game.bidders().unwrap();
    /// assert_eq!(seats.len(), 3);
    /// assert_eq!(range.forbidden, Some(7)); // R-AUC-3
    /// ```
    #[inline]
    pub fn bidders(&self) -> Option<(SeatSet, BidRange)> {
        self.bidders_at_once()
    }

    /// [`Game::bidders`] read from the kept seats once: the pending bidders and the step's range,
    /// or the auctioneer who opens. The plain version, [`Game::bidders_by_seat`], asks
    /// [`Game::to_act`] and then [`Game::bid_range`] of its first seat, which looks at the phase
    /// and the seat again.
    #[inline]
    fn bidders_at_once(&self) -> Option<(SeatSet, BidRange)> {
        if !self.pending.is_empty() {
            return Some((self.pending, self.secret_range()));
        }
        if !matches!(self.phase, Phase::OpeningBid { .. }) {
            return None;
        }
        Some((self.choosing, OPENING_RANGE))
    }

    /// The plain version of [`Game::bidders_at_once`], which the tests hold it to.
    #[cfg(test)]
    pub(crate) fn bidders_by_seat(&self) -> Option<(SeatSet, BidRange)> {
        let acting = self.to_act();
        let range = self.bid_range(acting.first()?)?;
        Some((acting, range))
    }

    /// Which common bid this is, so that it skips the general path's dispatch (PERF.md): a bid by
    /// a seat that must still bid (the pending seats are in range and only bidding steps have
    /// any), or the auctioneer's legal opening bid (R-AUC-2). Any other bid takes the general
    /// path ([`Game::bid`]), with every check in rule order.
    #[inline]
    pub(super) fn bid_fast_path(&self, seat: Seat, amount: u64) -> FastBid {
        if self.is_pending_bidder(seat) {
            FastBid::Pending
        } else if matches!(self.phase, Phase::OpeningBid { .. })
            && seat.0 == self.auct
            && amount != 0
        {
            FastBid::Opening
        } else {
            FastBid::No
        }
    }

    /// Whether `seat` must still bid in this bidding step (R-AUC-3, R-AUC-6, R-COM-4): one look at
    /// `pending`, which only a bidding step fills (the one seat of an opening bid or a pile choice
    /// is kept apart, in `choosing`), instead of a look at the phase as well (PERF.md).
    /// [`Game::is_pending_bidder_by_phase`] is the plain version.
    #[inline]
    pub(super) fn is_pending_bidder(&self, seat: Seat) -> bool {
        self.pending.contains(seat)
    }

    /// The plain version of [`Game::is_pending_bidder`], which the tests hold it to: a bidding
    /// step, and `seat` among the seats to act.
    #[cfg(test)]
    pub(crate) fn is_pending_bidder_by_phase(&self, seat: Seat) -> bool {
        self.is_bidding() && self.to_act().contains(seat)
    }

    /// Whether the step takes secret bids or rebids (R-AUC-3, R-AUC-6, R-COM-4).
    #[inline]
    pub(super) fn is_bidding(&self) -> bool {
        matches!(
            self.phase,
            Phase::Bidding | Phase::Rebid { .. } | Phase::AssetRebid { .. }
        )
    }

    /// A bid of any stage: the opening bid, or a bid by a seat that must still bid; the errors
    /// and the settling live in their own functions.
    pub(super) fn bid(
        &mut self,
        seat: Seat,
        amount: u64,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        if !self.is_bidding() {
            return if matches!(self.phase, Phase::OpeningBid { .. }) {
                self.open(seat, amount, sink)
            } else {
                Err(self.wrong_action(seat, None))
            };
        }
        if !self.pending.contains(seat) {
            return Err(self.not_pending(seat));
        }
        self.pending_bid(seat, amount, sink)
    }

    /// A secret bid or rebid by `seat`, which must still bid in this bidding step.
    #[inline]
    pub(super) fn pending_bid(
        &mut self,
        seat: Seat,
        amount: u64,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        // R-AUC-3: never the auctioneer's bid (no restriction without an auctioneer, R-AUC-9). The
        // amount is compared first: it rarely equals the opening bid, so the common bid makes one
        // test, not two (PERF.md).
        if amount == self.opening && self.auct != NONE {
            return Err(CommandError::BidEqualsOpening { amount });
        }
        self.bids[seat] = amount;
        self.pending.remove(seat);
        let stage = match self.phase {
            Phase::Rebid { tie } => BidStage::Rebid(tie),
            Phase::AssetRebid { tie } => BidStage::AssetRebid(tie),
            _ => BidStage::Secret,
        };
        sink.event(Event::Bid {
            turn: self.turn,
            seat,
            stage,
            amount: Some(amount),
            seen_by: visibility::bid_seen_by(seat, self.auctioneer()),
        });
        if self.pending.is_empty() {
            self.settle(sink);
        }
        Ok(())
    }

    /// R-AUC-2: the auctioneer's public opening bid, at least 1.
    fn open(
        &mut self,
        seat: Seat,
        amount: u64,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        if self.auct != seat.0 {
            return Err(CommandError::NotAuctioneer { seat: seat.0 });
        }
        if amount == 0 {
            return Err(CommandError::OpeningBidZero);
        }
        self.opening_bid(seat, amount, sink);
        Ok(())
    }

    /// [`Game::open`] once the checks have passed: records the opening bid and asks the others.
    #[inline]
    pub(super) fn opening_bid(&mut self, seat: Seat, amount: u64, sink: &mut impl EventSink) {
        // The other bids are still 0 from `start_turn`.
        self.bids[seat] = amount;
        self.opening = amount;
        self.log[self.turn_index()].opening = amount;
        let mut others = self.seats;
        others.remove(seat);
        self.pending = others;
        self.choosing = SeatSet::EMPTY;
        self.phase = Phase::Bidding;
        sink.event(Event::OpeningBid {
            turn: self.turn,
            seat,
            amount,
        });
    }

    /// The error for a bid by a seat that is not among the pending bidders.
    #[cold]
    fn not_pending(&self, seat: Seat) -> CommandError {
        match self.phase {
            Phase::Rebid { .. } if !self.rebidders.contains(seat) => CommandError::NotRebidding {
                seat: seat.0,
                rule: "R-AUC-6",
            },
            Phase::AssetRebid { .. } if !self.rebidders.contains(seat) => {
                CommandError::NotRebidding {
                    seat: seat.0,
                    rule: "R-COM-4",
                }
            }
            _ => CommandError::AlreadyBid { seat: seat.0 },
        }
    }

    /// Every pending bid is in: evaluate the company or the asset contest.
    #[inline(never)]
    pub(super) fn settle(&mut self, sink: &mut impl EventSink) {
        if matches!(self.phase, Phase::AssetRebid { .. }) {
            self.settle_asset(sink);
        } else {
            self.settle_company(sink);
        }
    }

    /// Evaluates the company auction after all pending bids are in (R-AUC-5…7, R-AUC-9): every
    /// bidder's current bid counts (the untied seats' bids stand through the rebids).
    fn settle_company(&mut self, sink: &mut impl EventSink) {
        let t = self.turn as usize;
        let all = self.seats;
        let ties = self.ties();
        match contest::round_of_all(&self.bids, all, ties) {
            Round::Won(winner) => self.award(Some(winner), false, sink),
            Round::Tie(holders) if self.auctioneer().is_none() => {
                // R-AUC-9: a tie on the 3-player last tile discards it; no rebid, no asset
                // (R-COM-7a).
                self.log[t].set_tie(0, holders);
                self.award(None, false, sink);
            }
            Round::Tie(holders) => {
                self.log[t].set_tie(ties, holders);
                // R-AUC-6: exactly the tied seats rebid.
                self.ask_rebid(holders, ties + 1, false, sink);
            }
            Round::ThirdTie { tied, winner } => {
                self.log[t].set_tie(ties, tied);
                // R-AUC-7; the auctioneer's bid is never tied, so there is a winner (with an
                // auctioneer, and the third tie needs one).
                self.set_aside = contest::set_aside(&self.bids, all, winner);
                self.award(winner, true, sink);
            }
            Round::Empty => unreachable!("every seat bids in the company auction"),
        }
    }

    /// Asks the tied seats `holders` to rebid after the contest's `tie`-th tie: for the company
    /// (R-AUC-6) or, with `asset`, for the asset (R-COM-4).
    pub(super) fn ask_rebid(
        &mut self,
        holders: SeatSet,
        tie: u8,
        asset: bool,
        sink: &mut impl EventSink,
    ) {
        self.pending = holders;
        self.rebidders = holders;
        self.phase = if asset {
            Phase::AssetRebid { tie }
        } else {
            Phase::Rebid { tie }
        };
        sink.event(Event::RebidRequired {
            turn: self.turn,
            seats: holders,
            tie,
            asset,
        });
    }

    /// Settles the company auction: awards the tile (R-AUC-10), reveals the zero bids (R-AUC-11),
    /// then starts the asset contest (R-COM-3) or the next turn. The turn is read once and handed
    /// down (`Game::award_at`, PERF.md).
    fn award(&mut self, winner: Option<Seat>, third_tie: bool, sink: &mut impl EventSink) {
        self.award_at(self.turn_index(), winner, third_tie, sink);
    }

    /// [`Game::award`] of turn `t`, the current one ([`Game::turn_index`]): read once, so that the
    /// turn log and the deck are indexed by one value the compiler knows is in bounds, not
    /// reloaded after every store.
    #[inline]
    fn award_at(
        &mut self,
        t: usize,
        winner: Option<Seat>,
        third_tie: bool,
        sink: &mut impl EventSink,
    ) {
        self.award_tile(t, winner, third_tie, sink);
        if self.rules.reveals_zero_bids() {
            self.reveal_zero_bids(t, sink);
        }
        match winner {
            Some(w) if self.rules.contests_assets() => self.start_asset_contest(w, sink),
            _ => self.next_turn(sink),
        }
    }

    /// R-AUC-10: the winner takes the tile of turn `t` and pays its bid; the price is seen as
    /// R-VIS-2…4 say.
    fn award_tile(
        &mut self,
        t: usize,
        winner: Option<Seat>,
        third_tie: bool,
        sink: &mut impl EventSink,
    ) {
        let tile = self.setup.deck[t];
        let log = &mut self.log[t];
        log.set_awarded(third_tie);
        if let Some(w) = winner {
            log.set_winner(w);
            log.price = self.bids[w];
        }
        let second_tie = log.ties()[1];
        if let Some(w) = winner {
            self.keep_award(w, tile);
        }
        sink.event(Event::Awarded {
            turn: self.turn,
            tile,
            winner,
            price: winner.map(|w| self.bids[w]),
            third_tie: Some(third_tie),
            seen_by: visibility::price_seen_by(winner, self.auctioneer(), self.players()),
            third_tie_seen_by: visibility::third_tie_seen_by(
                self.auctioneer(),
                second_tie,
                self.players(),
            ),
        });
    }

    /// R-AUC-11 (4–5 players): the seats whose final bid was 0 in turn `t` are revealed, and each
    /// gets a zero-bid mark at most once per round; no marks with Commodities (R-COM-2).
    fn reveal_zero_bids(&mut self, t: usize, sink: &mut impl EventSink) {
        let zero = self.zero_bidders_branch_free();
        let mut marked = SeatSet::EMPTY;
        if self.rules.zero_bid_vp > 0 {
            let marks = &mut self.zero_marks[self.rules.round(self.turn) as usize];
            marked = SeatSet::from_bits(zero.bits() & !marks.bits());
            *marks = SeatSet::from_bits(marks.bits() | marked.bits());
        }
        self.log[t].zero = zero;
        sink.event(Event::ZeroBids {
            turn: self.turn,
            seats: zero,
            marked,
        });
    }

    /// The seats whose current bid is 0, computed without a branch per seat (PERF.md); the bids
    /// of seats past the player count are masked out.
    #[inline]
    fn zero_bidders_branch_free(&self) -> SeatSet {
        let mut zero_bits = 0u8;
        for (i, &b) in self.bids.values().enumerate() {
            zero_bits |= u8::from(b == 0) << i;
        }
        SeatSet::from_bits(zero_bits & self.seats.bits())
    }

    pub(super) fn next_turn(&mut self, sink: &mut impl EventSink) {
        self.turn += 1;
        self.auct = self.rules.auctioneer(self.turn).map_or(NONE, |s| s.0);
        if self.turn >= self.rules.turns() {
            self.auct = NONE;
            self.phase = Phase::GameOver;
            self.pending = SeatSet::EMPTY;
            self.choosing = SeatSet::EMPTY;
            sink.event(Event::GameOver);
            return;
        }
        if self.external {
            self.phase = Phase::Chance {
                chance: Chance::Reveal,
            };
            self.pending = SeatSet::EMPTY;
            self.choosing = SeatSet::EMPTY;
        } else {
            self.start_turn();
            sink.event(self.reveal_event(self.turn));
        }
    }

    /// Starts the auction of the current turn's (revealed) tile.
    pub(super) fn start_turn(&mut self) {
        self.group = SeatSet::EMPTY;
        self.rebidders = SeatSet::EMPTY;
        self.set_aside = SeatSet::EMPTY;
        self.field = SeatSet::EMPTY;
        self.taker = NONE;
        self.bids = PerSeat::splat(0);
        (self.phase, self.pending, self.choosing) = Game::opening_step(&self.rules, self.auct);
    }

    /// The first step of a turn whose auctioneer is `auct` ([`NONE`] for none), and the seats that
    /// act in it (the pending bidders, the seat choosing): the auctioneer's opening bid (R-AUC-2),
    /// or without an auctioneer every seat's secret bid (R-AUC-9).
    #[inline]
    pub(super) fn opening_step(rules: &Rules, auct: u8) -> (Phase, SeatSet, SeatSet) {
        if auct == NONE {
            // R-AUC-9: everyone bids secretly, no opening bid.
            (
                Phase::Bidding,
                SeatSet::all(rules.players()),
                SeatSet::EMPTY,
            )
        } else {
            let auctioneer = Seat(auct);
            (
                Phase::OpeningBid { auctioneer },
                SeatSet::EMPTY,
                SeatSet::only(auctioneer),
            )
        }
    }
}
