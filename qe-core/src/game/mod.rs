//! [`Game`]: the state machine (RULES.md sections 3, 4 and 7). Small, `Copy`, no heap.
//!
//! This module holds the state, its queries and the dispatch of a command to the rule it is for;
//! each part of the rules has a room of its own:
//!
//! | module | rules |
//! |---|---|
//! | [`auction`] | the company auction and the turn (R-AUC-1…11, R-TRN-1…4) |
//! | [`bids_step`] | a whole bidding step at once ([`Game::play_bids`]) |
//! | [`contest`] | who wins a round of sealed bids, for the company and the asset (R-AUC-5…7, R-COM-3, R-COM-4) |
//! | [`commodities`] | the asset step of the Commodities expansion (R-COM-3…7a) |
//! | [`peek`] | peeking at a past price (R-VIS-5) |
//! | [`chance`] | the deal, the reveals and the draws as chance events (R-SET-3) |
//! | [`holdings`] | what the seats hold and spent, and the outcome (R-SCO-1, R-COM-8, section 8) |

use crate::command::Command;
use crate::components::{AssetKind, Nation, TileId, TokenId, MAX_TOKENS};
use crate::error::CommandError;
use crate::event::{EventSink, Events};
use crate::ledger::Ledger;
use crate::legal::Legal;
use crate::phase::{Chance, Phase};
use crate::rules::Rules;
use crate::scoring::Tally;
use crate::seat::{PerSeat, Seat, SeatSet};
use crate::setup::Setup;
use crate::setup_error::SetupError;
use crate::turn_log::{TurnLog, EMPTY_LOG};

use auction::FastBid;

mod auction;
mod bids_step;
mod chance;
mod commodities;
pub(crate) mod contest;
mod holdings;
mod peek;
#[cfg(test)]
pub(crate) mod plain;

/// "None" in the compact `u8` fields.
pub(crate) const NONE: u8 = u8::MAX;

/// The state of one game of QE.
///
/// Build one with [`Game::new`] (a [`Setup`]), [`Game::seeded`] or [`Game::external_chance`], then
/// feed it [`Command`]s with [`Game::apply`]. A rejected command leaves the game exactly as it was
/// (R-AUC-12). The game holds no heap memory: `clone()` is a copy, so tree search is cheap.
///
/// ```
/// use qe_core::{Command, Game, Phase, Rules, Seat};
/// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
/// assert_eq!(game.phase(), Phase::OpeningBid { auctioneer: Seat(0) });
/// game.apply(Command::Bid { seat: Seat(0), amount: 5 }).unwrap();
/// assert!(game.apply(Command::Bid { seat: Seat(1), amount: 5 }).is_err()); // R-AUC-3
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    rules: Rules,
    /// The set-up; in external-chance mode, filled in as chance outcomes arrive.
    setup: Setup,
    external: bool,
    dealt: bool,
    turn: u8,
    /// What the game waits for: the one phase enum, stored as the public [`Phase`] (the draw's pile
    /// is in `Chance::Draw`, a rebid's tie count in `Rebid`/`AssetRebid`).
    phase: Phase,
    /// Every seat of the game (`SeatSet::all` of the player count, kept so that the auctions do
    /// not compute it again; PERF.md).
    seats: SeatSet,
    /// Current bids of this auction (replaced by rebids).
    bids: PerSeat<u64>,
    /// The seats still to bid in a bidding step (R-AUC-3, R-AUC-6, R-COM-4), kept with every
    /// change of phase; empty in every other step, so that a seat found here is a pending bidder
    /// ([`Game::is_pending_bidder`]).
    pending: SeatSet,
    /// The one seat that acts in any other step: the auctioneer who opens (R-AUC-2), the seat
    /// choosing a pile (R-COM-5, R-COM-7); empty in a bidding step, at a chance node and at the
    /// end. With `pending`, the seats [`Game::to_act`] gives.
    choosing: SeatSet,
    /// The seats contending in the current asset contest (R-COM-4).
    group: SeatSet,
    /// The seats asked to rebid in the current rebid step (R-AUC-6, R-COM-4): the newest tie.
    rebidders: SeatSet,
    /// Bids set aside by the third company tie (R-AUC-7).
    set_aside: SeatSet,
    /// The seats still in the asset field (R-COM-3).
    field: SeatSet,
    taker: u8,
    /// The auctioneer of the current turn, or [`NONE`] (3-player last turn, game over).
    auct: u8,
    /// The current auction's opening bid (R-AUC-2).
    opening: u64,
    /// Tokens drawn (taken or discarded) from each pile so far.
    drawn: [u8; 3],
    /// In external-chance mode, which tiles have been revealed (bit per [`TileId`] index).
    revealed: u32,
    /// The turn each seat peeked at (R-VIS-5), or [`NONE`].
    peeks: PerSeat<u8>,
    /// Per round, the seats that scored a zero-bid mark in it (R-AUC-11). Marks score only with 4
    /// or 5 players, so there are at most 4 rounds.
    zero_marks: [SeatSet; 4],
    /// What each seat has spent, posted as the game goes (R-SCO-1, R-COM-8): the same totals as
    /// the turn log posted to a ledger ([`Game::keep_award`], PERF.md).
    ledger: Ledger<i128>,
    /// Each seat's tiles and tokens as scoring reads them, totalled as the game goes
    /// ([`Game::keep_award`], [`Game::keep_take`]).
    tallies: PerSeat<Tally>,
    log: [TurnLog; 16],
}

impl Game {
    /// A game of `rules` from `setup`, which must be a set-up of these rules: the same seats, and
    /// the nations, deal, deck and piles that [`Setup::new`] accepts for them (R-SET-1, R-SET-2,
    /// R-CMP-5…7), else the error that names what does not fit.
    pub fn new(rules: Rules, setup: Setup) -> Result<Game, SetupError> {
        if setup.players != rules.players() {
            return Err(SetupError::Count {
                what: "seats in the set-up",
                count: setup.players as usize,
                expected: rules.players() as usize,
            });
        }
        // A set-up made for other rules (another manifest, other expansions) could deal tiles or
        // tokens these rules do not have: it must pass the checks of `Setup::new` for these rules.
        let piles = [AssetKind::Gold, AssetKind::Oil, AssetKind::Crypto].map(|k| setup.pile(k));
        let checked = Setup::new(
            &rules,
            Some(setup.nations()),
            setup.industries(),
            setup.deck(),
            piles,
        )?;
        Ok(Game::dealt(rules, checked))
    }

    /// [`Game::new`] for a set-up already checked for these very rules (made by [`Setup::new`] or
    /// [`Setup::seeded`] with `rules`): the search bot's sampled worlds, which would otherwise pass
    /// the same checks twice.
    pub(crate) fn with_checked_setup(rules: Rules, setup: Setup) -> Game {
        debug_assert_eq!(setup.players, rules.players());
        Game::dealt(rules, setup)
    }

    /// A game whose set-up is drawn from `seed` ([`Setup::seeded`]).
    pub fn seeded(rules: Rules, seed: u64) -> Game {
        // A seeded set-up always matches its rules: no check, and no `Result` to copy the game through.
        Game::dealt(rules, Setup::seeded(&rules, seed))
    }

    /// The game at its first opening bid, from a set-up that matches `rules`.
    #[inline]
    fn dealt(rules: Rules, setup: Setup) -> Game {
        Game::blank(rules, setup, false)
    }

    /// A new game: at its first opening bid (R-AUC-2), or in external-chance mode at the deal
    /// (R-SET-3). One value written where it is returned, not a game changed after and copied
    /// there (PERF.md).
    #[inline]
    fn blank(rules: Rules, setup: Setup, external: bool) -> Game {
        let auct = rules.auctioneer(0).map_or(NONE, |s| s.0);
        let (phase, pending, choosing) = if external {
            (
                Phase::Chance {
                    chance: Chance::Deal,
                },
                SeatSet::EMPTY,
                SeatSet::EMPTY,
            )
        } else {
            Game::opening_step(&rules, auct)
        };
        Game {
            rules,
            setup,
            external,
            dealt: !external,
            turn: 0,
            phase,
            seats: SeatSet::all(rules.players()),
            bids: PerSeat::splat(0),
            pending,
            choosing,
            group: SeatSet::EMPTY,
            rebidders: SeatSet::EMPTY,
            set_aside: SeatSet::EMPTY,
            field: SeatSet::EMPTY,
            taker: NONE,
            auct,
            opening: 0,
            drawn: [0; 3],
            revealed: 0,
            peeks: PerSeat::splat(NONE),
            zero_marks: [SeatSet::EMPTY; 4],
            ledger: Ledger::new(),
            tallies: PerSeat::splat(Tally::default()),
            log: [EMPTY_LOG; 16],
        }
    }

    // ----- queries -------------------------------------------------------------------------------

    /// The rules.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of seats.
    #[inline]
    pub fn players(&self) -> u8 {
        self.rules.players()
    }

    /// Whether the game is in external-chance mode (R-SET-3).
    pub fn is_external_chance(&self) -> bool {
        self.external
    }

    /// The current turn (0-based; equals [`Rules::turns`] once the game is over).
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The current turn as an index of the turn log and the deck: while a turn is in play the turn
    /// is below 16 (R-TRN-1), and taken modulo 16 so that the compiler knows it and indexes without
    /// a bounds check (PERF.md). The opening bid, the award and the asset contest index by it; the
    /// company auction's settling, which writes the log only on a tie, indexes by the turn, which
    /// measured cheaper there. The tests hold it to the turn itself.
    #[inline]
    pub(crate) fn turn_index(&self) -> usize {
        usize::from(self.turn) % 16
    }

    /// The auctioneer of the current turn (R-TRN-2).
    #[inline]
    pub fn auctioneer(&self) -> Option<Seat> {
        (self.auct != NONE).then_some(Seat(self.auct))
    }

    /// Whether the game has ended (R-TRN-4).
    #[inline]
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::GameOver)
    }

    /// What the game waits for.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How many ties the current contest has had: a rebid's count (R-AUC-6, R-COM-4), else 0.
    #[inline]
    fn ties(&self) -> u8 {
        match self.phase {
            Phase::Rebid { tie } | Phase::AssetRebid { tie } => tie,
            _ => 0,
        }
    }

    /// The seats that must act now (several at once for sealed bids; none at a chance node or at the
    /// end). Peeks are optional and never listed.
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat, SeatSet};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// assert_eq!(game.to_act(), SeatSet::only(Seat(0))); // the auctioneer opens (R-AUC-2)
    /// game.apply(Command::Bid { seat: Seat(0), amount: 5 }).unwrap();
    /// // Then the others bid secretly, in any order (R-AUC-3).
    /// assert_eq!(game.to_act().iter().collect::<Vec<_>>(), [Seat(1), Seat(2), Seat(3)]);
    /// game.apply(Command::Bid { seat: Seat(3), amount: 0 }).unwrap();
    /// assert!(!game.to_act().contains(Seat(3)) && game.to_act().contains(Seat(1)));
    /// ```
    #[inline]
    pub fn to_act(&self) -> SeatSet {
        self.acting_kept()
    }

    /// The seats to act as kept in `pending` and `choosing` with each change of phase, instead of
    /// read from the phase with a `match` (a jump table whose target the branch predictor misses
    /// about every other step of a random game; PERF.md). [`Game::acting_by_phase`] is the plain
    /// reading.
    #[inline]
    fn acting_kept(&self) -> SeatSet {
        SeatSet::from_bits(self.pending.bits() | self.choosing.bits())
    }

    /// The seats to act read from the phase: the plain version of [`Game::acting_kept`], which the
    /// tests hold it to.
    #[cfg(test)]
    pub(crate) fn acting_by_phase(&self) -> SeatSet {
        match self.phase {
            Phase::OpeningBid { auctioneer: seat }
            | Phase::DiscardAsset { seat }
            | Phase::TakeAsset { seat } => SeatSet::only(seat),
            Phase::Bidding | Phase::Rebid { .. } | Phase::AssetRebid { .. } => self.pending,
            Phase::Chance { .. } | Phase::GameOver => SeatSet::EMPTY,
        }
    }

    /// Why no seat may act now, when none may: [`CommandError::GameOver`] once the game is over
    /// (R-TRN-4), [`CommandError::ChancePending`] while a chance outcome is awaited (R-SET-3).
    /// `None` while some seat must act. It is the error every seat's command gets then, for a
    /// caller that steps all the seats to act at once and is given none.
    ///
    /// ```
    /// use qe_core::{CommandError, Game, Rules};
    /// let game = Game::seeded(Rules::base(4).unwrap(), 7);
    /// assert_eq!(game.idle_error(), None);
    /// let waiting = Game::external_chance(Rules::base(4).unwrap(), None).unwrap();
    /// assert_eq!(waiting.idle_error(), Some(CommandError::ChancePending));
    /// ```
    pub fn idle_error(&self) -> Option<CommandError> {
        match self.phase {
            Phase::GameOver => Some(CommandError::GameOver),
            Phase::Chance { .. } => Some(CommandError::ChancePending),
            _ => None,
        }
    }

    /// Everything `seat` may do now: its [`BidRange`](crate::BidRange) (as [`Game::bid_range`]), the piles it may
    /// take from (R-COM-5) or discard from (R-COM-7), and the turns it may peek at (R-VIS-5). It
    /// is the same as the seat's [`SeatView::legal`](crate::SeatView::legal).
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// // Only the auctioneer acts first: it opens with at least 1 (R-AUC-2).
    /// assert_eq!(game.legal(Seat(0)).bid.unwrap().min, 1);
    /// assert!(!game.legal(Seat(1)).must_act());
    /// game.apply(Command::Bid { seat: Seat(0), amount: 5 }).unwrap();
    /// // Then the others bid secretly, anything but the opening bid (R-AUC-3).
    /// let legal = game.legal(Seat(1));
    /// assert_eq!(legal.bid.unwrap().forbidden, Some(5));
    /// // No asset step in the base game; no peek with 4 players (R-VIS-5).
    /// assert!(legal.take.is_empty() && legal.discard.is_empty() && legal.peek == 0);
    /// assert_eq!(legal, game.view(Seat(1)).legal);
    /// ```
    pub fn legal(&self, seat: Seat) -> Legal {
        let mut legal = Legal {
            bid: self.bid_range(seat),
            ..Legal::default()
        };
        if seat.0 >= self.players() {
            return Legal::default();
        }
        (legal.take, legal.discard) = self.legal_piles(seat);
        legal.peek = self.legal_peeks(seat);
        legal
    }

    /// How many tiles remain in the deck, the revealed tile excluded (R-VIS-1).
    pub fn deck_remaining(&self) -> usize {
        let shown = if matches!(
            self.phase,
            Phase::Chance {
                chance: Chance::Deal | Chance::Reveal,
            }
        ) {
            self.turn
        } else {
            self.turn + 1
        };
        (self.setup.deck_len as usize).saturating_sub(shown as usize)
    }

    /// The tile up for auction now, if one is revealed.
    pub fn current_tile(&self) -> Option<TileId> {
        match self.phase {
            Phase::Chance {
                chance: Chance::Deal | Chance::Reveal,
            }
            | Phase::GameOver => None,
            _ => Some(self.setup.deck[self.turn as usize]),
        }
    }

    // ----- applying commands ---------------------------------------------------------------------

    /// Applies a command and returns the events it produced. On error the game is unchanged
    /// (R-AUC-12). The events are the god's-eye copy: [`Event::as_seen`](crate::Event::as_seen) redacts one for a viewer.
    ///
    /// ```
    /// use qe_core::{Command, Event, Game, Rules, Seat};
    /// let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    /// let events = game.apply(Command::Bid { seat: Seat(0), amount: 5 }).unwrap();
    /// assert_eq!(events.as_slice(), [Event::OpeningBid { turn: 0, seat: Seat(0), amount: 5 }]);
    /// for seat in 1..3 {
    ///     game.apply(Command::Bid { seat: Seat(seat), amount: 0 }).unwrap();
    /// }
    /// // The last bid settles the auction: the auctioneer's 5 is highest (R-AUC-5).
    /// let events = game.apply(Command::Bid { seat: Seat(3), amount: 2 }).unwrap();
    /// let awarded = events.as_slice().iter().find(|e| matches!(e, Event::Awarded { .. }));
    /// assert!(matches!(awarded, Some(Event::Awarded { winner: Some(Seat(0)), price: Some(5), .. })));
    /// ```
    pub fn apply(&mut self, command: Command) -> Result<Events, CommandError> {
        let mut events = Events::default();
        self.apply_to(command, &mut events)?;
        Ok(events)
    }

    /// Applies a command, dropping its events: the fast path for simulation. The game ends up as
    /// [`Game::apply`] leaves it, and a rejected command is rejected alike (R-AUC-12).
    ///
    /// ```
    /// use qe_core::{Command, Game, Rules, Seat};
    /// let mut applied = Game::seeded(Rules::base(4).unwrap(), 1);
    /// let mut played = applied;
    /// let bid = Command::Bid { seat: Seat(0), amount: 5 };
    /// assert!(!applied.apply(bid).unwrap().is_empty()); // events
    /// assert_eq!(played.play(bid), Ok(())); // none
    /// assert_eq!(applied, played);
    /// let err = played.play(Command::Bid { seat: Seat(1), amount: 5 }).unwrap_err();
    /// assert_eq!(err.rule(), "R-AUC-3");
    /// assert_eq!(applied, played); // unchanged
    /// ```
    #[inline]
    pub fn play(&mut self, command: Command) -> Result<(), CommandError> {
        self.apply_to(command, &mut ())
    }

    /// Applies a command, handing each event to `sink`. On error the game is unchanged and `sink`
    /// received nothing.
    #[inline]
    pub fn apply_to(
        &mut self,
        command: Command,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        if let Command::Bid { seat, amount } = command {
            match self.bid_fast_path(seat, amount) {
                FastBid::Pending => return self.pending_bid(seat, amount, sink),
                FastBid::Opening => {
                    self.opening_bid(seat, amount, sink);
                    return Ok(());
                }
                FastBid::No => return self.apply_other_bid(seat, amount, sink),
            }
        }
        self.apply_other(command, sink)
    }

    /// Any command but a bid: a legal pile choice straight to its draw ([`Game::pile_fast_path`]),
    /// anything else through [`Game::apply_any`]. Out of line, like the general path, so that the
    /// bids' fast path inlined into a caller stays small.
    #[inline(never)]
    fn apply_other(
        &mut self,
        command: Command,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        match command {
            Command::TakeAsset { seat, kind } if self.pile_fast_path(seat, kind, false) => {
                self.draw_or_wait(kind, sink);
                Ok(())
            }
            Command::DiscardAsset { seat, kind } if self.pile_fast_path(seat, kind, true) => {
                self.draw_or_wait(kind, sink);
                Ok(())
            }
            _ => self.apply_any(command, sink),
        }
    }

    /// [`Game::apply_any`] for a bid the fast path does not take, the command built here: so that
    /// the fast path's bids pass in registers and never write a [`Command`] to memory (PERF.md).
    #[cold]
    #[inline(never)]
    fn apply_other_bid(
        &mut self,
        seat: Seat,
        amount: u64,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        self.apply_any(Command::Bid { seat, amount }, sink)
    }

    /// [`Game::apply_to`] for any command, every check in rule order.
    fn apply_any(
        &mut self,
        command: Command,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        if matches!(self.phase, Phase::GameOver) {
            return Err(CommandError::GameOver);
        }
        if let Some(seat) = command.seat() {
            if seat.0 >= self.players() {
                return Err(CommandError::SeatOutOfRange {
                    seat: i64::from(seat.0),
                });
            }
        }
        match command {
            Command::Chance(outcome) => self.chance(outcome, sink),
            Command::Peek { seat, turn } => self.peek(seat, turn, sink),
            _ if matches!(self.phase, Phase::Chance { .. }) => Err(CommandError::ChancePending),
            Command::Bid { seat, amount } => self.bid(seat, amount, sink),
            Command::TakeAsset { seat, kind } => self.choose_pile(seat, kind, false, sink),
            Command::DiscardAsset { seat, kind } => self.choose_pile(seat, kind, true, sink),
        }
    }

    /// The error for a command of the wrong kind for the current step: it names the rule of the
    /// command's own kind when given (taking is R-COM-5, discarding R-COM-7), else the step's rule.
    pub(super) fn wrong_action(&self, seat: Seat, own_rule: Option<&'static str>) -> CommandError {
        let (expected, rule) = match self.phase {
            Phase::OpeningBid { .. } => ("the auctioneer's opening bid", "R-AUC-2"),
            Phase::Bidding => ("secret bids", "R-AUC-3"),
            Phase::Rebid { .. } => ("rebids for the company", "R-AUC-6"),
            Phase::AssetRebid { .. } => ("rebids for the asset", "R-COM-4"),
            Phase::TakeAsset { .. } => ("the asset taker to choose a pile", "R-COM-5"),
            Phase::DiscardAsset { .. } => {
                ("the auctioneer to choose a pile to discard from", "R-COM-7")
            }
            Phase::Chance { .. } => ("a chance outcome", "R-SET-3"),
            Phase::GameOver => ("nothing: the game is over", "R-TRN-4"),
        };
        CommandError::WrongAction {
            seat,
            expected,
            rule: own_rule.unwrap_or(rule),
        }
    }

    // ----- crate-internal access for views, scoring and records ----------------------------------

    pub(crate) fn setup_ref(&self) -> &Setup {
        &self.setup
    }

    pub(crate) fn log(&self, turn: u8) -> &TurnLog {
        &self.log[turn as usize]
    }

    pub(crate) fn current_bids(&self) -> &PerSeat<u64> {
        &self.bids
    }

    pub(crate) fn peek_of(&self, seat: Seat) -> Option<u8> {
        let p = self.peeks[seat];
        (p != NONE).then_some(p)
    }

    pub(crate) fn zero_marks(&self, seat: Seat) -> u8 {
        let mut rounds = 0;
        for (r, marks) in self.zero_marks.iter().enumerate() {
            rounds |= u8::from(marks.contains(seat)) << r;
        }
        rounds
    }

    pub(crate) fn is_dealt(&self) -> bool {
        self.dealt
    }

    /// Seats that have bid in the current bidding step (R-VIS-1: which seats, not the amounts).
    pub(crate) fn has_bid(&self) -> SeatSet {
        match self.phase {
            Phase::Bidding | Phase::Rebid { .. } | Phase::AssetRebid { .. } => {
                let base = if matches!(self.phase, Phase::Bidding) {
                    let mut all = self.seats;
                    if let Some(a) = self.auctioneer() {
                        all.remove(a);
                    }
                    all
                } else {
                    self.rebidders
                };
                SeatSet::from_bits(base.bits() & !self.pending.bits())
            }
            _ => SeatSet::EMPTY,
        }
    }

    /// The turns so far whose tile is revealed: `0..turn`, plus the current one if revealed.
    pub(crate) fn turns_started(&self) -> u8 {
        if matches!(
            self.phase,
            Phase::Chance {
                chance: Chance::Deal | Chance::Reveal,
            }
        ) || matches!(self.phase, Phase::GameOver)
        {
            self.turn
        } else {
            self.turn + 1
        }
    }

    /// The nation of `seat`.
    ///
    /// # Panics
    /// If `seat` is not below [`MAX_SEATS`](crate::MAX_SEATS) (like indexing a slice out of range).
    pub fn nation(&self, seat: Seat) -> Nation {
        self.setup.nations[seat]
    }

    /// The tile revealed on `turn`, if that turn has started.
    pub fn tile_of_turn(&self, turn: u8) -> Option<TileId> {
        (turn < self.turns_started()).then(|| self.setup.deck[turn as usize])
    }
}

// Keep the state small and `Copy`-cheap (PERF.md).
const _: () = {
    assert!(core::mem::size_of::<TokenId>() == 2);
    assert!(MAX_TOKENS == 18);
};
