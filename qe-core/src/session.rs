//! [`Match`]: a [`Game`] with its history: every command and every event, the per-seat event
//! streams (R-VIS-8), and the game record.

use alloc::vec::Vec;

use crate::command::Command;
use crate::encoding::MatchObserver;
use crate::error::CommandError;
use crate::event::{Event, Events};
use crate::game::Game;
use crate::record::{Record, ReplayError};
use crate::rules::Rules;
use crate::seat::Seat;
use crate::seen::{SeenBid, SeenPeek};
use crate::setup::Setup;
use crate::setup_error::SetupError;
use crate::view::SeatView;
use crate::visibility::Viewer;

/// A viewer's view of a match: the table as it stands ([`SeatView`]) and the history of every
/// bid and rebid as the viewer sees it ([`Match::bid_history`]). This is what the bindings hand
/// out as "the view".
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct MatchView {
    /// The table as it stands.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub view: SeatView,
    /// Every secret bid and rebid so far, in order, as the viewer sees it.
    pub bid_history: Vec<SeenBid>,
}

/// A game plus its history. Use [`Game`] alone in hot loops; use a `Match` when you need the record
/// or the event streams.
///
/// ```
/// use qe_core::{Command, Match, Rules, Seat};
/// let mut m = Match::seeded(Rules::base(3).unwrap(), 9);
/// m.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
/// // Seat 1 sees the public opening bid; the deal of seat 2 is hidden from it.
/// assert!(m.events_for(Seat(1)).count() >= 5);
/// let record = m.record().unwrap();
/// assert_eq!(record.replay().unwrap().game(), m.game());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    game: Game,
    commands: Vec<Command>,
    events: Vec<Event>,
    seed: Option<u64>,
    /// The observation writer, following `game` (which only `apply` and `play` move, forward).
    observer: MatchObserver,
}

impl Match {
    /// A match around a new game.
    pub fn new(game: Game) -> Match {
        let events = game.opening_events().as_slice().to_vec();
        Match {
            game,
            commands: Vec::new(),
            events,
            seed: None,
            observer: MatchObserver::default(),
        }
    }

    /// A match from a seed ([`Game::seeded`]); the seed is kept in the record as provenance.
    pub fn seeded(rules: Rules, seed: u64) -> Match {
        let mut m = Match::new(Game::seeded(rules, seed));
        m.seed = Some(seed);
        m
    }

    /// A match from an explicit set-up.
    pub fn with_setup(rules: Rules, setup: Setup) -> Result<Match, SetupError> {
        Ok(Match::new(Game::new(rules, setup)?))
    }

    pub(crate) fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }

    /// The seed the set-up came from, if any.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The commands applied so far.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// Every event so far, unredacted (the god's-eye log).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The event stream of `seat`: every event, as that seat may see it (R-VIS-8). Once the game
    /// has ended every event is in full, every other seat's bids and rebids included (R-VIS-7).
    pub fn events_for(&self, seat: Seat) -> impl Iterator<Item = Event> + '_ {
        self.events_as_seen(Some(seat))
    }

    /// The spectator's event stream: the public part of every event while the game runs, every
    /// event in full once it has ended (R-VIS-1, R-VIS-7).
    pub fn public_events(&self) -> impl Iterator<Item = Event> + '_ {
        self.events_as_seen(None)
    }

    /// The event stream of `viewer` (a seat, or `None` for a spectator); see [`Event::as_seen`].
    pub fn events_as_seen(&self, viewer: Option<Seat>) -> impl Iterator<Item = Event> + '_ {
        let viewer = self.viewer(viewer);
        self.events.iter().map(move |e| e.as_seen(viewer))
    }

    /// `viewer` (a seat, or `None` for a spectator) of this match as it stands.
    pub fn viewer(&self, viewer: Option<Seat>) -> Viewer {
        Viewer::new(viewer, self.game.players(), self.game.is_over())
    }

    /// Every secret bid and rebid so far, in order, as `viewer` (a seat, or `None` for a
    /// spectator) sees it: from its event stream, so every amount once the game is over (R-VIS-7).
    ///
    /// ```
    /// use qe_core::{Command, Match, Rules, Seat};
    /// let mut m = Match::seeded(Rules::base(4).unwrap(), 1);
    /// m.apply(Command::Bid { seat: Seat(0), amount: 3 }).unwrap();
    /// m.apply(Command::Bid { seat: Seat(1), amount: 5 }).unwrap();
    /// assert_eq!(m.bid_history(Some(Seat(1)))[0].amount, Some(5)); // its own (R-VIS-2)
    /// assert_eq!(m.bid_history(Some(Seat(2)))[0].amount, None);
    /// ```
    pub fn bid_history(&self, viewer: Option<Seat>) -> Vec<SeenBid> {
        self.events_as_seen(viewer)
            .filter_map(|e| match e {
                Event::Bid {
                    turn,
                    seat,
                    stage,
                    amount,
                    ..
                } => Some(SeenBid {
                    turn,
                    seat,
                    stage,
                    amount,
                }),
                _ => None,
            })
            .collect()
    }

    /// Every peek so far, in order, as `viewer` (a seat, or `None` for a spectator) sees it,
    /// with its place in the viewer's event stream ([`SeenPeek`]).
    ///
    /// ```
    /// use qe_core::{Command, Match, Rules, Seat};
    /// let mut m = Match::seeded(Rules::base(5).unwrap(), 1);
    /// // Turn 0: bids 1, 2, 3, 4, 5 in turn, so the last bidder wins.
    /// for amount in 1.. {
    ///     if m.game().turn() > 0 {
    ///         break;
    ///     }
    ///     let seat = m.game().to_act().iter().next().unwrap();
    ///     m.apply(Command::Bid { seat, amount }).unwrap();
    /// }
    /// // Turn 1's auctioneer neither ran nor won turn 0: it may peek at its price (R-VIS-5).
    /// let seat = m.game().to_act().iter().next().unwrap();
    /// m.apply(Command::Peek { seat, turn: 0 }).unwrap();
    /// let peeks = m.peek_history(Some(Seat((seat.0 + 1) % 5)));
    /// assert_eq!((peeks[0].seat, peeks[0].turn), (seat, 0));
    /// assert_eq!(peeks[0].at, m.events().len() - 1); // the last event so far
    /// ```
    pub fn peek_history(&self, viewer: Option<Seat>) -> Vec<SeenPeek> {
        self.events_as_seen(viewer)
            .enumerate()
            .filter_map(|(at, e)| match e {
                Event::Peeked { seat, turn, .. } => Some(SeenPeek { seat, turn, at }),
                _ => None,
            })
            .collect()
    }

    /// The view of `viewer` (a seat, or `None` for a spectator) with its bid history.
    pub fn view(&self, viewer: Option<Seat>) -> MatchView {
        MatchView {
            view: match viewer {
                Some(s) => self.game.view(s),
                None => self.game.public_view(),
            },
            bid_history: self.bid_history(viewer),
        }
    }

    /// What `seat` can prove about every seat's total spent, from its view and its own bids
    /// (R-VIS-8: nothing else). See [`crate::deduction`].
    pub fn deduce(&self, seat: Seat) -> crate::Deduction {
        let own = crate::deduction::own_bids(seat, self.events_for(seat));
        crate::Deduction::new(&self.game.view(seat), &own)
    }

    /// Applies a command; on error nothing changes.
    pub fn apply(&mut self, command: Command) -> Result<Events, CommandError> {
        let events = self.game.apply(command)?;
        self.commands.push(command);
        self.events.extend_from_slice(events.as_slice());
        Ok(events)
    }

    /// Like [`Match::apply`] without handing the command's events back: they go straight into the
    /// history (cheaper in loops that read views, not events). On error nothing changes.
    ///
    /// ```
    /// use qe_core::{Command, Match, Rules, Seat};
    /// let mut m = Match::seeded(Rules::base(4).unwrap(), 2);
    /// let before = m.events().len();
    /// m.play(Command::Bid { seat: Seat(0), amount: 4 }).unwrap();
    /// assert!(m.events().len() > before);
    /// assert!(m.play(Command::Bid { seat: Seat(1), amount: 4 }).is_err()); // R-AUC-3
    /// assert_eq!(m.commands().len(), 1);
    /// ```
    pub fn play(&mut self, command: Command) -> Result<(), CommandError> {
        // A rejected command hands the sink nothing (Game::apply_to), so the history stays whole.
        self.game.apply_to(command, &mut self.events)?;
        self.commands.push(command);
        Ok(())
    }

    /// Writes the observation of `seat` into `out` (length
    /// [`OBS_SIZE`](crate::encoding::OBS_SIZE)): exactly the floats of
    /// [`observe_seat`](crate::encoding::observe_seat)`(self.game(), seat, out)`. The match owns
    /// the writer: from its second observation on, it keeps the slots of the turns over and copies
    /// them (PERF.md), so a binding observes a match without a second game kept in step.
    ///
    /// # Panics
    /// If `out.len()` is not `OBS_SIZE`.
    ///
    /// ```
    /// use qe_core::encoding::{observe_seat, OBS_SIZE};
    /// use qe_core::{Command, Match, Rules, Seat};
    /// let mut m = Match::seeded(Rules::base(4).unwrap(), 3);
    /// let (mut owned, mut plain) = (vec![0.0f32; OBS_SIZE], vec![0.0f32; OBS_SIZE]);
    /// for amount in [4, 0, 1, 2] {
    ///     let seat = m.game().to_act().first().unwrap();
    ///     m.play(Command::Bid { seat, amount }).unwrap();
    ///     m.observe(Seat(1), &mut owned);
    ///     observe_seat(m.game(), Seat(1), &mut plain);
    ///     assert_eq!(owned, plain);
    /// }
    /// ```
    pub fn observe(&mut self, seat: Seat, out: &mut [f32]) {
        self.observer.observe(&self.game, seat, out);
    }

    /// Writes the bid-history block of the information state of `seat` into `out` (length
    /// [`HISTORY_SIZE`](crate::encoding::HISTORY_SIZE); layout at
    /// [`encoding::write_history`](crate::encoding::write_history)). A seat the game lacks gets
    /// the spectator's block (as [`observe_seat`](crate::encoding::observe_seat) gives it the
    /// spectator's observation).
    ///
    /// # Panics
    /// If `out.len()` is not `HISTORY_SIZE`.
    pub fn write_history(&self, seat: Seat, out: &mut [f32]) {
        let viewer = (seat.0 < self.game.players()).then_some(seat);
        crate::encoding::write_history(
            &self.game,
            viewer,
            &self.bid_history(viewer),
            &self.peek_history(viewer),
            out,
        );
    }

    /// The game record (`qe-record/1`) of the match so far, finished or not (in external-chance
    /// mode its future, the tiles and tokens not yet revealed, is an order of its own, see
    /// [`Record::of`]). `None` in external-chance mode before the deal, and for rules a record
    /// cannot hold (custom scoring tables or bonuses).
    pub fn record(&self) -> Option<Record> {
        Record::of(&self.game, &self.commands, self.seed)
    }
}

/// Records replay into a [`Match`]: the record is plain data beneath the session.
impl Record {
    /// Replays the record (`RECORD.md`, "Replaying"): a malformed record fails before any command;
    /// an illegal command stops the replay with its index and rule.
    ///
    /// ```
    /// use qe_core::{Command, Match, Rules, Seat};
    /// let mut m = Match::seeded(Rules::base(4).unwrap(), 5);
    /// m.apply(Command::Bid { seat: Seat(0), amount: 2 }).unwrap();
    /// let mut record = m.record().unwrap();
    /// record.commands.push(Ok(Command::Bid { seat: Seat(1), amount: 2 }));
    /// let err = record.replay().unwrap_err();
    /// assert_eq!(err.to_string(), "command 1: R-AUC-3: bid equals the auctioneer's bid (2)");
    /// ```
    pub fn replay(&self) -> Result<Match, ReplayError> {
        let rules = self.rules()?;
        let setup = self.setup(&rules)?;
        let mut m = Match::with_setup(rules, setup)?;
        m.set_seed(self.seed);
        for (index, c) in self.commands.iter().enumerate() {
            let command = c
                .clone()
                .map_err(|error| ReplayError::Command { index, error })?;
            m.apply(command)
                .map_err(|error| ReplayError::Command { index, error })?;
        }
        Ok(m)
    }
}
