//! [`Game`]: the state machine (RULES.md sections 3, 4 and 7). Small, `Copy`, no heap.

use crate::command::{ChanceOutcome, Command};
use crate::components::{AssetKind, Industry, Nation, TileId, TokenId, MAX_TOKENS};
use crate::error::{CommandError, SetupError};
use crate::event::{BidStage, Event, EventSink, Events};
use crate::ledger::Ledger;
use crate::legal::{BidRange, Legal, PileSet};
use crate::phase::{Chance, Phase};
use crate::rules::Rules;
use crate::seat::{PerSeat, Seat, SeatSet, MAX_SEATS};
use crate::setup::{deal_tokens, Setup};
use crate::turn_log::{AssetFate, TurnLog, EMPTY_LOG};
use crate::visibility;

/// "None" in the compact `u8` fields.
pub(crate) const NONE: u8 = u8::MAX;

/// The internal step, with [`Phase`] derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    Deal,
    Reveal,
    Opening,
    Bidding,
    Rebid,
    AssetRebid,
    Take,
    Discard,
    /// Drawing from `draw_kind` for the taker (`taker != NONE`) or a discard.
    Draw,
    Over,
}

/// A bid the fast path takes ([`Game::bid_fast_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FastBid {
    /// A secret bid or rebid by a seat that must still bid.
    Pending,
    /// The auctioneer's legal opening bid.
    Opening,
    /// Any other bid.
    No,
}

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
    step: Step,
    /// Current bids of this auction (replaced by rebids).
    bids: PerSeat<u64>,
    /// Seats that must still act in the current bidding step.
    pending: SeatSet,
    /// The seats contending in the current asset contest (R-COM-4).
    group: SeatSet,
    /// The seats asked to rebid in the current rebid step (R-AUC-6, R-COM-4): the newest tie.
    rebidders: SeatSet,
    /// Bids set aside by the third company tie (R-AUC-7).
    set_aside: SeatSet,
    /// The seats still in the asset field (R-COM-3).
    field: SeatSet,
    ties: u8,
    taker: u8,
    /// The auctioneer of the current turn, or [`NONE`] (3-player last turn, game over).
    auct: u8,
    /// The current auction's opening bid (R-AUC-2).
    opening: u64,
    draw_kind: AssetKind,
    /// Tokens drawn (taken or discarded) from each pile so far.
    drawn: [u8; 3],
    /// In external-chance mode, which tiles have been revealed (bit per [`TileId`] index).
    revealed: u32,
    /// The turn each seat peeked at (R-VIS-5), or [`NONE`].
    peeks: PerSeat<u8>,
    /// Per round, the seats that scored a zero-bid mark in it (R-AUC-11). Marks score only with 4
    /// or 5 players, so there are at most 4 rounds.
    zero_marks: [SeatSet; 4],
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
        let mut game = Game::blank(rules, setup, false);
        game.dealt = true;
        game.start_turn();
        game
    }

    /// A game in external-chance mode (R-SET-3): the deal, each reveal and each token drawn are
    /// supplied by the caller with [`Command::Chance`] when [`Game::phase`] asks for them.
    /// `nations` are the seats' nations (`None`: the default, R-SET-1).
    pub fn external_chance(rules: Rules, nations: Option<&[Nation]>) -> Result<Game, SetupError> {
        let n = rules.players() as usize;
        let default_setup = Setup::seeded(&rules, 0);
        let nations_list: &[Nation] = match nations {
            Some(list) => list,
            None => &Nation::ALL[..n],
        };
        // Validate the nations through the explicit set-up path.
        let mut setup = Setup::new(
            &rules,
            Some(nations_list),
            &deal_tokens(rules.players())[..n],
            default_setup.deck(),
            [
                default_setup.pile(AssetKind::Gold),
                default_setup.pile(AssetKind::Oil),
                default_setup.pile(AssetKind::Crypto),
            ],
        )?;
        setup.deal = [Industry::AGR; MAX_SEATS];
        let mut game = Game::blank(rules, setup, true);
        game.step = Step::Deal;
        Ok(game)
    }

    #[inline]
    fn blank(rules: Rules, setup: Setup, external: bool) -> Game {
        Game {
            rules,
            setup,
            external,
            dealt: false,
            turn: 0,
            step: Step::Reveal,
            bids: PerSeat::splat(0),
            pending: SeatSet::EMPTY,
            group: SeatSet::EMPTY,
            rebidders: SeatSet::EMPTY,
            set_aside: SeatSet::EMPTY,
            field: SeatSet::EMPTY,
            ties: 0,
            taker: NONE,
            auct: rules.auctioneer(0).map_or(NONE, |s| s.0),
            opening: 0,
            draw_kind: AssetKind::Gold,
            drawn: [0; 3],
            revealed: 0,
            peeks: PerSeat::splat(NONE),
            zero_marks: [SeatSet::EMPTY; 4],
            log: [EMPTY_LOG; 16],
        }
    }

    /// The events a new game has already produced: each seat's deal and the first reveal (empty in
    /// external-chance mode, where these come from chance commands).
    pub fn opening_events(&self) -> Events {
        let mut ev = Events::default();
        if !self.external {
            self.deal_events(&mut ev);
            ev.push(self.reveal_event(0));
        }
        ev
    }

    fn deal_events(&self, sink: &mut impl EventSink) {
        for s in 0..self.rules.players() {
            sink.event(Event::Dealt {
                seat: Seat(s),
                industry: Some(self.setup.deal[s as usize]),
            });
        }
    }

    fn reveal_event(&self, turn: u8) -> Event {
        Event::TileRevealed {
            turn,
            tile: self.setup.deck[turn as usize],
            auctioneer: self.rules.auctioneer(turn),
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

    /// The auctioneer of the current turn (R-TRN-2).
    #[inline]
    pub fn auctioneer(&self) -> Option<Seat> {
        (self.auct != NONE).then_some(Seat(self.auct))
    }

    /// Whether the game has ended (R-TRN-4).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.step == Step::Over
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        match self.step {
            Step::Deal => Phase::Chance {
                chance: Chance::Deal,
            },
            Step::Reveal => Phase::Chance {
                chance: Chance::Reveal,
            },
            Step::Draw => Phase::Chance {
                chance: Chance::Draw(self.draw_kind),
            },
            Step::Opening => Phase::OpeningBid {
                auctioneer: self.auctioneer().expect("opening has an auctioneer"),
            },
            Step::Bidding => Phase::Bidding,
            Step::Rebid => Phase::Rebid { tie: self.ties },
            Step::AssetRebid => Phase::AssetRebid { tie: self.ties },
            Step::Take => Phase::TakeAsset {
                seat: Seat(self.taker),
            },
            Step::Discard => Phase::DiscardAsset {
                seat: self.auctioneer().expect("discard has an auctioneer"),
            },
            Step::Over => Phase::GameOver,
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
        // The bidding steps first, with one comparison rather than a jump table.
        if self.is_bidding() {
            return self.pending;
        }
        match self.step {
            Step::Opening | Step::Discard => {
                SeatSet::only(self.auctioneer().expect("step has an auctioneer"))
            }
            Step::Bidding | Step::Rebid | Step::AssetRebid => self.pending,
            Step::Take => SeatSet::only(Seat(self.taker)),
            Step::Deal | Step::Reveal | Step::Draw | Step::Over => SeatSet::EMPTY,
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
        match self.step {
            Step::Over => Some(CommandError::GameOver),
            Step::Deal | Step::Reveal | Step::Draw => Some(CommandError::ChancePending),
            _ => None,
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
        if self.is_bidding() {
            self.pending.contains(seat).then(|| BidRange {
                min: 0,
                max: u64::MAX,
                forbidden: self.auctioneer().map(|_| self.opening),
            })
        } else if self.step == Step::Opening && self.auct == seat.0 {
            Some(BidRange {
                min: 1,
                max: u64::MAX,
                forbidden: None,
            })
        } else {
            None
        }
    }

    /// Everything `seat` may do now: its [`BidRange`] (as [`Game::bid_range`]), the piles it may
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
        let nonempty = self.nonempty_piles();
        match self.step {
            Step::Take if self.taker == seat.0 => legal.take = nonempty,
            Step::Discard if self.auctioneer() == Some(seat) => legal.discard = nonempty,
            _ => {}
        }
        legal.peek = self.legal_peeks(seat);
        legal
    }

    /// The turns `seat` may peek at now (R-VIS-5): [`Game::check_peek`] for each turn, after its
    /// checks that do not depend on the turn are made once (a game of 3 or 4 players, or a seat
    /// that has peeked, skips the 16 calls; PERF.md).
    fn legal_peeks(&self, seat: Seat) -> u16 {
        if self.players() != 5
            || matches!(
                self.step,
                Step::Over | Step::Deal | Step::Reveal | Step::Draw
            )
            || self.peeks[seat] != NONE
        {
            return 0;
        }
        let mut peek = 0;
        for t in 0..self.rules.turns() {
            if self.check_peek(seat, t).is_ok() {
                peek |= 1 << t;
            }
        }
        peek
    }

    fn nonempty_piles(&self) -> PileSet {
        let mut set = 0;
        for k in AssetKind::ALL {
            if self.pile_remaining(*k) > 0 {
                set |= 1 << k.index();
            }
        }
        PileSet(set)
    }

    /// How many tokens remain in a pile (R-VIS-1).
    pub fn pile_remaining(&self, kind: AssetKind) -> usize {
        (self.setup.pile_len[kind.index()] - self.drawn[kind.index()]) as usize
    }

    /// How many tiles remain in the deck, the revealed tile excluded (R-VIS-1).
    pub fn deck_remaining(&self) -> usize {
        let shown = if matches!(self.step, Step::Deal | Step::Reveal) {
            self.turn
        } else {
            self.turn + 1
        };
        (self.setup.deck_len as usize).saturating_sub(shown as usize)
    }

    /// The tile up for auction now, if one is revealed.
    pub fn current_tile(&self) -> Option<TileId> {
        match self.step {
            Step::Deal | Step::Reveal | Step::Over => None,
            _ => Some(self.setup.deck[self.turn as usize]),
        }
    }

    // ----- applying commands ---------------------------------------------------------------------

    /// Applies a command and returns the events it produced. On error the game is unchanged
    /// (R-AUC-12). The events are the god's-eye copy: [`Event::as_seen`] redacts one for a viewer.
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
                FastBid::No => {}
            }
        }
        self.apply_any(command, sink)
    }

    /// Which common bid this is, so that it skips the general path's dispatch (PERF.md): a bid by
    /// a seat that must still bid (the pending seats are in range and only bidding steps have
    /// any), or the auctioneer's legal opening bid (R-AUC-2). Any other bid takes the general
    /// path ([`Game::bid`]), with every check in rule order.
    #[inline]
    fn bid_fast_path(&self, seat: Seat, amount: u64) -> FastBid {
        if self.pending.contains(seat) && self.is_bidding() {
            FastBid::Pending
        } else if self.step == Step::Opening && seat.0 == self.auct && amount != 0 {
            FastBid::Opening
        } else {
            FastBid::No
        }
    }

    /// Whether the step takes secret bids or rebids (R-AUC-3, R-AUC-6, R-COM-4).
    #[inline]
    fn is_bidding(&self) -> bool {
        matches!(self.step, Step::Bidding | Step::Rebid | Step::AssetRebid)
    }

    /// [`Game::apply_to`] for any command, every check in rule order.
    fn apply_any(
        &mut self,
        command: Command,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        if self.step == Step::Over {
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
            Command::Peek { seat, turn } => {
                self.check_peek(seat, turn)?;
                self.peeks[seat] = turn;
                sink.event(Event::Peeked {
                    seat,
                    turn,
                    price: Some(self.log[turn as usize].price),
                });
                Ok(())
            }
            _ if matches!(self.step, Step::Deal | Step::Reveal | Step::Draw) => {
                Err(CommandError::ChancePending)
            }
            Command::Bid { seat, amount } => self.bid(seat, amount, sink),
            Command::TakeAsset { seat, kind } => {
                if self.step != Step::Take {
                    return Err(self.wrong_action(seat, Some(self.pile_rule("R-COM-5"))));
                }
                if self.taker != seat.0 {
                    return Err(CommandError::NotAssetTaker { seat: seat.0 });
                }
                if self.pile_remaining(kind) == 0 {
                    return Err(CommandError::PileEmpty {
                        kind,
                        rule: "R-COM-5",
                    });
                }
                self.draw_kind = kind;
                self.draw_or_wait(sink);
                Ok(())
            }
            Command::DiscardAsset { seat, kind } => {
                if self.step != Step::Discard {
                    return Err(self.wrong_action(seat, Some(self.pile_rule("R-COM-7"))));
                }
                if self.auctioneer() != Some(seat) {
                    return Err(CommandError::NotDiscarder { seat: seat.0 });
                }
                if self.pile_remaining(kind) == 0 {
                    return Err(CommandError::PileEmpty {
                        kind,
                        rule: "R-COM-7",
                    });
                }
                self.draw_kind = kind;
                self.draw_or_wait(sink);
                Ok(())
            }
        }
    }

    /// The error for a command of the wrong kind for the current step: it names the rule of the
    /// command's own kind when given (taking is R-COM-5, discarding R-COM-7), else the step's rule.
    fn wrong_action(&self, seat: Seat, own_rule: Option<&'static str>) -> CommandError {
        let (expected, rule) = match self.step {
            Step::Opening => ("the auctioneer's opening bid", "R-AUC-2"),
            Step::Bidding => ("secret bids", "R-AUC-3"),
            Step::Rebid => ("rebids for the company", "R-AUC-6"),
            Step::AssetRebid => ("rebids for the asset", "R-COM-4"),
            Step::Take => ("the asset taker to choose a pile", "R-COM-5"),
            Step::Discard => ("the auctioneer to choose a pile to discard from", "R-COM-7"),
            Step::Deal | Step::Reveal | Step::Draw => ("a chance outcome", "R-SET-3"),
            Step::Over => ("nothing: the game is over", "R-TRN-4"),
        };
        CommandError::WrongAction {
            seat,
            expected,
            rule: own_rule.unwrap_or(rule),
        }
    }

    /// The rule a take or discard out of turn breaks: its own (`rule`) with Commodities; in a game
    /// without, R-COM-1, which gives piles to the expansion only.
    fn pile_rule(&self, rule: &'static str) -> &'static str {
        if self.rules.has_commodities() {
            rule
        } else {
            "R-COM-1"
        }
    }

    /// R-VIS-5: may `seat` peek at `turn` now?
    fn check_peek(&self, seat: Seat, turn: u8) -> Result<(), CommandError> {
        if self.players() != 5 {
            return Err(CommandError::PeekNotAllowed);
        }
        if self.step == Step::Over {
            return Err(CommandError::GameOver);
        }
        // R-SET-3: a pending chance outcome is part of the step that needs it (a reveal, a draw);
        // no seat acts in between, so peeks wait too (else the last draw would leave a moment the
        // game without external chance never has, and its record would not replay).
        if matches!(self.step, Step::Deal | Step::Reveal | Step::Draw) {
            return Err(CommandError::ChancePending);
        }
        if self.peeks[seat] != NONE {
            return Err(CommandError::PeekTwice { seat: seat.0 });
        }
        let log = self.log.get(turn as usize);
        let Some(log) = log.filter(|l| l.awarded() && turn <= self.turn) else {
            return Err(CommandError::PeekNotAwarded { turn: turn as u64 });
        };
        let winner = (log.winner() != NONE).then_some(Seat(log.winner()));
        if visibility::sees_price(seat, winner, self.rules.auctioneer(turn), self.players()) {
            return Err(CommandError::PeekAlreadySeen { seat: seat.0, turn });
        }
        Ok(())
    }

    /// A bid of any stage: the opening bid, or a bid by a seat that must still bid; the errors
    /// and the settling live in their own functions.
    fn bid(
        &mut self,
        seat: Seat,
        amount: u64,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        if !self.is_bidding() {
            return if self.step == Step::Opening {
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
    fn pending_bid(
        &mut self,
        seat: Seat,
        amount: u64,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        // R-AUC-3: never the auctioneer's bid (no restriction without an auctioneer, R-AUC-9).
        if self.auct != NONE && amount == self.opening {
            return Err(CommandError::BidEqualsOpening { amount });
        }
        self.bids[seat] = amount;
        self.pending.remove(seat);
        let stage = match self.step {
            Step::Bidding => BidStage::Secret,
            Step::Rebid => BidStage::Rebid(self.ties),
            _ => BidStage::AssetRebid(self.ties),
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
    fn opening_bid(&mut self, seat: Seat, amount: u64, sink: &mut impl EventSink) {
        // The other bids are still 0 from `start_turn`.
        self.bids[seat] = amount;
        self.opening = amount;
        self.log[self.turn as usize].opening = amount;
        let mut others = SeatSet::all(self.players());
        others.remove(seat);
        self.pending = others;
        self.step = Step::Bidding;
        sink.event(Event::OpeningBid {
            turn: self.turn,
            seat,
            amount,
        });
    }

    /// The error for a bid by a seat that is not among the pending bidders.
    #[cold]
    fn not_pending(&self, seat: Seat) -> CommandError {
        match self.step {
            Step::Rebid if !self.rebidders.contains(seat) => CommandError::NotRebidding {
                seat: seat.0,
                rule: "R-AUC-6",
            },
            Step::AssetRebid if !self.rebidders.contains(seat) => CommandError::NotRebidding {
                seat: seat.0,
                rule: "R-COM-4",
            },
            _ => CommandError::AlreadyBid { seat: seat.0 },
        }
    }

    /// Every pending bid is in: evaluate the company or the asset contest.
    #[inline(never)]
    fn settle(&mut self, sink: &mut impl EventSink) {
        if self.step == Step::AssetRebid {
            self.settle_asset(sink);
        } else {
            self.settle_company(sink);
        }
    }

    /// The seats of `among` holding the highest bid, and that bid, computed without data-dependent
    /// branches (PERF.md).
    #[inline]
    fn top_bids_branch_free(&self, among: SeatSet) -> (u64, SeatSet) {
        // The bids are what a branch predictor cannot guess: a seat
        // outside `among` counts as bidding 0 but is never a holder. Bids are at least 0, so
        // starting from 0 with no holder gives the first seat of `among` its place.
        let mut best = 0;
        let mut holders = 0u8;
        for (i, &bid) in self.bids.iter().enumerate() {
            let member = (among.bits() >> i) & 1;
            let b = bid * u64::from(member);
            let above = u8::from(b > best) & member;
            let level = u8::from(b == best) & member;
            best = if above == 1 { b } else { best };
            // Above the best: this seat alone; level with it: one more holder.
            holders = (holders & above.wrapping_sub(1)) | (((above | level) & 1) << i);
        }
        (best, SeatSet::from_bits(holders))
    }

    /// The seat of `among` holding the highest bid value that exactly one seat of `among` holds
    /// (R-AUC-7, R-COM-4).
    fn highest_unique(&self, among: SeatSet) -> Option<Seat> {
        let mut best: Option<Seat> = None;
        for s in among.iter() {
            let b = self.bids[s];
            let dup = among.iter().any(|o| o != s && self.bids[o] == b);
            if !dup && best.is_none_or(|w| b > self.bids[w]) {
                best = Some(s);
            }
        }
        best
    }

    /// The seats of `among` whose bids are above `value`: after the third company tie, exactly
    /// the bids set aside (R-AUC-7; each of them is tied, and equal bids below the winner's stay
    /// in the asset field, R-COM-3).
    fn bids_above(&self, among: SeatSet, value: u64) -> SeatSet {
        let mut above = SeatSet::EMPTY;
        for s in among.iter() {
            if self.bids[s] > value {
                above.insert(s);
            }
        }
        above
    }

    /// Evaluates the company auction after all pending bids are in (R-AUC-5…7, R-AUC-9).
    fn settle_company(&mut self, sink: &mut impl EventSink) {
        let t = self.turn as usize;
        let all = SeatSet::all(self.players());
        let (_, holders) = self.top_bids_branch_free(all);
        if holders.len() == 1 {
            self.award(holders.first(), false, sink);
            return;
        }
        if self.auctioneer().is_none() {
            // R-AUC-9: a tie on the 3-player last tile discards it; no rebid, no asset (R-COM-7a).
            self.log[t].set_tie(0, holders);
            self.award(None, false, sink);
            return;
        }
        self.ties += 1;
        self.log[t].set_tie(self.ties - 1, holders);
        if self.ties == 3 {
            // R-AUC-7: the highest bid value that exactly one seat holds wins.
            // The auctioneer's bid is never tied, so there is a winner (with an auctioneer).
            let winner = self.highest_unique(all);
            self.set_aside = winner.map_or(all, |w| self.bids_above(all, self.bids[w]));
            self.award(winner, true, sink);
        } else {
            // R-AUC-6: exactly the tied seats rebid.
            self.pending = holders;
            self.rebidders = holders;
            self.step = Step::Rebid;
            sink.event(Event::RebidRequired {
                turn: self.turn,
                seats: holders,
                tie: self.ties,
                asset: false,
            });
        }
    }

    /// Settles the company auction: awards the tile (R-AUC-10), reveals the zero bids (R-AUC-11),
    /// then starts the asset contest (R-COM-3) or the next turn.
    fn award(&mut self, winner: Option<Seat>, third_tie: bool, sink: &mut impl EventSink) {
        self.award_tile(winner, third_tie, sink);
        if self.rules.reveals_zero_bids() {
            self.reveal_zero_bids(sink);
        }
        match winner {
            Some(w) if self.rules.has_commodities() => self.start_asset_contest(w, sink),
            _ => self.next_turn(sink),
        }
    }

    /// R-AUC-10: the winner takes the tile and pays its bid; the price is seen as R-VIS-2…4 say.
    fn award_tile(&mut self, winner: Option<Seat>, third_tie: bool, sink: &mut impl EventSink) {
        let log = &mut self.log[self.turn as usize];
        log.set_awarded(third_tie);
        if let Some(w) = winner {
            log.set_winner(w);
            log.price = self.bids[w];
        }
        let second_tie = log.ties()[1];
        sink.event(Event::Awarded {
            turn: self.turn,
            tile: self.setup.deck[self.turn as usize],
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

    /// R-AUC-11 (4–5 players): the seats whose final bid was 0 are revealed, and each gets a
    /// zero-bid mark at most once per round; no marks with Commodities (R-COM-2).
    fn reveal_zero_bids(&mut self, sink: &mut impl EventSink) {
        let zero = self.zero_bidders_branch_free();
        let mut marked = SeatSet::EMPTY;
        if self.rules.zero_bid_vp > 0 {
            let marks = &mut self.zero_marks[self.rules.round(self.turn) as usize];
            marked = SeatSet::from_bits(zero.bits() & !marks.bits());
            *marks = SeatSet::from_bits(marks.bits() | marked.bits());
        }
        self.log[self.turn as usize].zero = zero;
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
        for (i, &b) in self.bids.iter().enumerate() {
            zero_bits |= u8::from(b == 0) << i;
        }
        SeatSet::from_bits(zero_bits & SeatSet::all(self.players()).bits())
    }

    /// R-COM-3: the asset field is every seat but the winner and the bids set aside (R-AUC-7); its
    /// unique highest bid takes the asset, a tie rebids (R-COM-4: the tie for second counts as the
    /// first tie), and an empty field leaves the asset to no one (R-COM-7).
    fn start_asset_contest(&mut self, winner: Seat, sink: &mut impl EventSink) {
        let mut field = SeatSet::all(self.players());
        field.remove(winner);
        self.field = SeatSet::from_bits(field.bits() & !self.set_aside.bits());
        self.ties = 0;
        let (_, holders) = self.top_bids_branch_free(self.field);
        match holders.len() {
            0 => self.no_taker(sink),
            1 => self.set_taker(holders.first().expect("one holder"), false, sink),
            _ => {
                self.ties = 1;
                self.log[self.turn as usize].set_asset_tie(0, holders);
                self.group = holders;
                self.rebidders = holders;
                self.pending = holders;
                self.step = Step::AssetRebid;
                sink.event(Event::RebidRequired {
                    turn: self.turn,
                    seats: holders,
                    tie: 1,
                    asset: true,
                });
            }
        }
    }

    /// Evaluates the asset contest after the tied seats rebid (R-COM-4).
    fn settle_asset(&mut self, sink: &mut impl EventSink) {
        let t = self.turn as usize;
        let (_, holders) = self.top_bids_branch_free(self.group);
        if holders.len() == 1 {
            self.set_taker(holders.first().expect("one holder"), false, sink);
            return;
        }
        self.ties += 1;
        self.log[t].set_asset_tie(self.ties - 1, holders);
        if self.ties == 3 {
            // The tied bids are ignored; the highest value held by exactly one seat of the field.
            let taker = self.highest_unique(self.field);
            if let Some(s) = taker {
                self.set_taker(s, true, sink);
            } else {
                // The third tie decided the asset too: no one takes it (R-COM-7).
                self.log[t].set_asset_third_tie(true);
                self.no_taker(sink);
            }
        } else {
            // Only the newly tied seats rebid; the others' rebids stand (R-COM-4).
            self.pending = holders;
            self.rebidders = holders;
            self.step = Step::AssetRebid;
            sink.event(Event::RebidRequired {
                turn: self.turn,
                seats: holders,
                tie: self.ties,
                asset: true,
            });
        }
    }

    fn set_taker(&mut self, seat: Seat, third_tie: bool, sink: &mut impl EventSink) {
        self.taker = seat.0;
        let log = &mut self.log[self.turn as usize];
        log.set_asset_third_tie(third_tie);
        let second_tie = log.asset_ties()[1];
        self.step = Step::Take;
        sink.event(Event::AssetTaker {
            turn: self.turn,
            seat,
            third_tie: Some(third_tie),
            third_tie_seen_by: visibility::third_tie_seen_by(
                self.auctioneer(),
                second_tie,
                self.players(),
            ),
        });
    }

    /// R-COM-7 / R-COM-7a: no taker; the auctioneer discards, or nothing happens without one.
    fn no_taker(&mut self, sink: &mut impl EventSink) {
        self.taker = NONE;
        sink.event(Event::NoTaker { turn: self.turn });
        if self.auctioneer().is_some() {
            self.step = Step::Discard;
        } else {
            self.next_turn(sink);
        }
    }

    /// After a pile is chosen: draw its top token now, or wait for the chance outcome.
    fn draw_or_wait(&mut self, sink: &mut impl EventSink) {
        if self.external {
            self.step = Step::Draw;
        } else {
            let k = self.draw_kind;
            let token = self.setup.pile(k)[self.drawn[k.index()] as usize];
            self.finish_draw(token, sink);
        }
    }

    /// The token `token` came off the pile `draw_kind`: give it to the taker or discard it.
    fn finish_draw(&mut self, token: TokenId, sink: &mut impl EventSink) {
        let t = self.turn as usize;
        let k = self.draw_kind;
        self.drawn[k.index()] += 1;
        let auctioneer = self.auctioneer();
        let log = &mut self.log[t];
        if self.taker == NONE {
            let seat = auctioneer.expect("discard has an auctioneer");
            log.set_asset(AssetFate::Discarded, seat, token);
            sink.event(Event::AssetDiscarded {
                turn: self.turn,
                seat,
                kind: k,
            });
        } else {
            let seat = Seat(self.taker);
            let price = self.bids[seat];
            log.set_asset(AssetFate::Taken, seat, token);
            log.asset_price = price;
            sink.event(Event::AssetTaken {
                turn: self.turn,
                seat,
                kind: k,
                token: Some(token),
                value: self.rules.manifest().token_value(token),
                price: Some(price),
                token_seen_by: visibility::token_seen_by(seat),
                price_seen_by: visibility::price_seen_by(Some(seat), auctioneer, self.players()),
            });
        }
        self.next_turn(sink);
    }

    fn next_turn(&mut self, sink: &mut impl EventSink) {
        self.turn += 1;
        self.auct = self.rules.auctioneer(self.turn).map_or(NONE, |s| s.0);
        if self.turn >= self.rules.turns() {
            self.auct = NONE;
            self.step = Step::Over;
            sink.event(Event::GameOver);
            return;
        }
        if self.external {
            self.step = Step::Reveal;
        } else {
            self.start_turn();
            sink.event(self.reveal_event(self.turn));
        }
    }

    /// Starts the auction of the current turn's (revealed) tile.
    fn start_turn(&mut self) {
        self.ties = 0;
        self.pending = SeatSet::EMPTY;
        self.group = SeatSet::EMPTY;
        self.rebidders = SeatSet::EMPTY;
        self.set_aside = SeatSet::EMPTY;
        self.field = SeatSet::EMPTY;
        self.taker = NONE;
        self.bids = PerSeat::splat(0);
        if self.auctioneer().is_some() {
            self.step = Step::Opening;
        } else {
            // R-AUC-9: everyone bids secretly, no opening bid.
            self.step = Step::Bidding;
            self.pending = SeatSet::all(self.players());
        }
    }

    // ----- external chance (R-SET-3) -------------------------------------------------------------

    /// The possible outcomes of the pending chance event, each equally likely (R-SET-3); empty when
    /// none is pending.
    pub fn chance_outcomes(&self) -> alloc::vec::Vec<ChanceOutcome> {
        let mut out = alloc::vec::Vec::new();
        match self.step {
            Step::Deal => {
                let tokens = deal_tokens(self.players());
                let mut perm = [Industry::AGR; MAX_SEATS];
                permutations(tokens, &mut perm, 0, 0, &mut |p| {
                    out.extend(ChanceOutcome::deal(&p[..tokens.len()]));
                });
            }
            Step::Reveal => {
                for tile in self.rules.manifest().tiles_in_play(self.players()).iter() {
                    if self.revealed & (1 << tile.index()) == 0 {
                        out.push(ChanceOutcome::Reveal(tile));
                    }
                }
            }
            Step::Draw => {
                let k = self.draw_kind;
                let drawn = &self.setup.pile(k)[..self.drawn[k.index()] as usize];
                for token in self.rules.manifest().tokens_in_play(self.players()) {
                    if token.kind() == k && !drawn.contains(&token) {
                        out.push(ChanceOutcome::Draw(token));
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn chance(
        &mut self,
        outcome: ChanceOutcome,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        match (self.step, outcome) {
            (Step::Deal, ChanceOutcome::Deal(_)) => {
                let tokens = deal_tokens(self.players());
                let dealt = outcome.dealt(self.players()).unwrap_or_default();
                let n = dealt.len();
                let ok = tokens.iter().all(|t| dealt.contains(t))
                    && (0..n).all(|i| !dealt[..i].contains(&dealt[i]));
                if !ok {
                    return Err(CommandError::InvalidChance {
                        reason: "a deal is a permutation of the dealt industry tokens",
                    });
                }
                self.setup.deal[..n].copy_from_slice(dealt);
                self.dealt = true;
                self.step = Step::Reveal;
                self.deal_events(sink);
                Ok(())
            }
            (Step::Reveal, ChanceOutcome::Reveal(tile)) => {
                let in_play = self.rules.manifest().tiles_in_play(self.players());
                if !in_play.contains(tile) || self.revealed & (1 << tile.index()) != 0 {
                    return Err(CommandError::InvalidChance {
                        reason: "the tile is not in the deck",
                    });
                }
                self.revealed |= 1 << tile.index();
                self.place_revealed(tile);
                self.start_turn();
                sink.event(self.reveal_event(self.turn));
                Ok(())
            }
            (Step::Draw, ChanceOutcome::Draw(token)) => {
                let k = self.draw_kind;
                let possible = token.kind() == k
                    && self
                        .rules
                        .manifest()
                        .tokens_in_play(self.players())
                        .any(|t| t == token)
                    && !self.setup.pile(k)[..self.drawn[k.index()] as usize].contains(&token);
                if !possible {
                    return Err(CommandError::InvalidChance {
                        reason: "the token is not in that pile",
                    });
                }
                self.place_drawn(token);
                self.finish_draw(token, sink);
                Ok(())
            }
            // An outcome of another kind than the one pending: say which one is.
            _ => Err(CommandError::InvalidChance {
                reason: match self.step {
                    Step::Deal => "the chance event pending is the deal",
                    Step::Reveal => "the chance event pending is a tile reveal",
                    Step::Draw => "the chance event pending is a token draw",
                    _ => "no chance event is pending",
                },
            }),
        }
    }

    /// Keeps the set-up's deck consistent in external-chance mode: the revealed tile moves to the
    /// current position (the rest keep their relative order).
    fn place_revealed(&mut self, tile: TileId) {
        let t = self.turn as usize;
        let deck = &mut self.setup.deck[..self.setup.deck_len as usize];
        if let Some(p) = deck.iter().position(|&x| x == tile) {
            deck[t..=p].rotate_right(1);
        }
    }

    /// Like [`Self::place_revealed`], for the pile being drawn from.
    fn place_drawn(&mut self, token: TokenId) {
        let k = self.draw_kind.index();
        let start: usize = self.setup.pile_len[..k].iter().map(|&l| l as usize).sum();
        let len = self.setup.pile_len[k] as usize;
        let d = self.drawn[k] as usize;
        let pile = &mut self.setup.piles[start..start + len];
        if let Some(p) = pile.iter().position(|&x| x == token) {
            pile[d..=p].rotate_right(1);
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
        match self.step {
            Step::Bidding | Step::Rebid | Step::AssetRebid => {
                let base = if self.step == Step::Bidding {
                    let mut all = SeatSet::all(self.players());
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
        if matches!(self.step, Step::Deal | Step::Reveal) || self.step == Step::Over {
            self.turn
        } else {
            self.turn + 1
        }
    }

    /// The total spent by `seat` so far (R-SCO-1, R-COM-8): company prices + asset prices − credits.
    pub fn spent(&self, seat: Seat) -> i128 {
        self.ledger().spent(seat)
    }

    /// Every turn so far, posted to a ledger.
    pub(crate) fn ledger(&self) -> Ledger<i128> {
        let mut ledger = Ledger::new();
        for turn in 0..self.turns_started() {
            self.post_turn(turn, &mut ledger);
        }
        ledger
    }

    /// Posts what `turn` cost to `ledger`: the company price its winner paid (R-AUC-10) and the asset
    /// price its taker paid, with the auctioneer's credit (R-COM-5, R-COM-6).
    #[inline]
    pub(crate) fn post_turn(&self, turn: u8, ledger: &mut Ledger<i128>) {
        let log = &self.log[turn as usize];
        if log.winner() != NONE {
            ledger.company(Seat(log.winner()), i128::from(log.price));
        }
        if log.asset_fate() == AssetFate::Taken {
            let auctioneer = self.rules.auctioneer(turn);
            ledger.asset(
                Seat(log.asset_seat()),
                auctioneer,
                i128::from(log.asset_price),
            );
        }
    }

    /// The nation of `seat`.
    ///
    /// # Panics
    /// If `seat` is not below [`MAX_SEATS`] (like indexing a slice out of range).
    pub fn nation(&self, seat: Seat) -> Nation {
        self.setup.nations[seat.index()]
    }

    /// The tile revealed on `turn`, if that turn has started.
    pub fn tile_of_turn(&self, turn: u8) -> Option<TileId> {
        (turn < self.turns_started()).then(|| self.setup.deck[turn as usize])
    }
}

/// Visits every permutation of `items` (Heap-free simple recursion; at most 5! = 120).
fn permutations(
    items: &[Industry],
    perm: &mut [Industry; MAX_SEATS],
    used: u8,
    depth: usize,
    visit: &mut impl FnMut(&[Industry; MAX_SEATS]),
) {
    if depth == items.len() {
        visit(perm);
        return;
    }
    for (i, &item) in items.iter().enumerate() {
        if used & (1 << i) == 0 {
            perm[depth] = item;
            permutations(items, perm, used | (1 << i), depth + 1, visit);
        }
    }
}

// Keep the state small and `Copy`-cheap (PERF.md).
const _: () = {
    assert!(core::mem::size_of::<TokenId>() == 2);
    assert!(MAX_TOKENS == 18);
};

impl Game {
    /// What `seat` holds now: the input of [`scoring::score`](crate::scoring::score).
    ///
    /// # Panics
    /// If `seat` is not below [`MAX_SEATS`] (like indexing a slice out of range).
    pub fn holdings(&self, seat: Seat) -> crate::scoring::Holdings {
        self.all_holdings()[seat]
    }

    /// What every seat holds now, in one pass over the turns, with its total from the ledger
    /// (R-SCO-1, R-COM-8).
    pub(crate) fn all_holdings(&self) -> PerSeat<crate::scoring::Holdings> {
        let n = self.players() as usize;
        let mut holdings = PerSeat([crate::scoring::Holdings::default(); MAX_SEATS]);
        for (i, h) in holdings.iter_mut().enumerate().take(n) {
            h.nation = Some(self.setup.nations[i]);
            h.industry = self.dealt.then_some(self.setup.deal[i]);
            h.zero_rounds = self.zero_marks(Seat(i as u8)).count_ones() as u8;
        }
        let mut ledger = Ledger::new();
        for turn in 0..self.turns_started() {
            let log = &self.log[turn as usize];
            if log.winner() != NONE {
                let w = Seat(log.winner());
                holdings[w].tiles |= 1 << self.setup.deck[turn as usize].index();
                ledger.company(w, i128::from(log.price));
            }
            if log.asset_fate() == AssetFate::Taken {
                let taker = Seat(log.asset_seat());
                let h = &mut holdings[taker];
                h.tokens[h.token_count as usize] = Some(log.asset_token());
                h.token_count += 1;
                let auctioneer = self.rules.auctioneer(turn);
                ledger.asset(taker, auctioneer, i128::from(log.asset_price));
            }
        }
        for (i, h) in holdings.iter_mut().enumerate() {
            h.spent = ledger.spent(Seat(i as u8));
        }
        holdings
    }

    /// The outcome (RULES.md section 8), once the game is over.
    pub fn outcome(&self) -> Option<crate::scoring::Outcome> {
        if !self.is_over() {
            return None;
        }
        let holdings = self.all_holdings();
        let gold_empty = self.pile_remaining(AssetKind::Gold) == 0;
        Some(crate::scoring::score(
            &self.rules,
            holdings.in_play(self.players()),
            gold_empty,
        ))
    }
}
