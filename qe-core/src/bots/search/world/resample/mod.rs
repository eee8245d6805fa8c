//! Resampling an information state: a whole [`Match`] drawn among those one seat cannot tell from
//! the real one (R-VIS-8), for tree search over information sets (ISMCTS and the like).
//!
//! The search bot's worlds ([`super::Knowledge::sample`]) stop at the seat's decision and keep only
//! what the rest of the game depends on: they realize each hidden auction with bids of their own
//! choosing and hold the current step's other bids back as pending actions, applied after the
//! seat's own. A resample must be the state itself: the same view and the same bid history for the
//! seat, so every bid is replayed as the history lists it (who, in which order, at which stage:
//! secret bid, company rebid or asset rebid, R-VIS-1), and the current step's bids already made
//! (the view's `has_bid`) are in it, drawn. The set-up comes from the same sampler as the worlds
//! (the other seats' tokens, the deck and the pile orders, R-VIS-6); each auction is then replayed
//! stage by stage, the hidden amounts of a stage drawn so that the stage ends as the history shows
//! it ends (the next stage's tied seats, or the winner, the asset's taker and the zero bids,
//! R-AUC-5…7, R-AUC-11, R-COM-3…7), and the contest is decided by the game itself, never here. A
//! draw whose auction does not end as the view shows is drawn again; the whole match is checked
//! against the seat's view, bid history and peek history before it is handed out.

mod draw;

use draw::Draw;

use alloc::vec::Vec;

use super::super::Mix;
use super::{model_bid, to_amount, Knowledge};
use crate::command::Command;
use crate::components::Industry;
use crate::event::BidStage;
use crate::game::Game;
use crate::phase::Phase;
use crate::rules::Rules;
use crate::seat::{PerSeat, Seat, SeatSet, MAX_SEATS};
use crate::seen::{SeenBid, SeenPeek};
use crate::session::{Match, MatchView};
use crate::setup::mix_seed;
use crate::view::{AuctionView, SeatView};

/// Whole draws (set-up and every auction) before [`resample`] gives up.
pub const RESAMPLE_ATTEMPTS: u32 = 16;
/// Draws of one auction's hidden bids within a whole draw.
const AUCTION_TRIES: usize = 200;

/// Why [`resample`] drew no state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResampleError {
    /// The view is a spectator's: a resample keeps one seat's information state.
    #[error("a spectator's view has no information state to resample: pass a seat's view")]
    Spectator,
    /// The seat is not in the game.
    #[error("seat {seat} is not in a game of {players} players")]
    NoSuchSeat {
        /// The seat asked for.
        seat: u8,
        /// The number of seats.
        players: u8,
    },
    /// The rules are not those of the viewed game (player count or expansions).
    #[error("the rules do not match the view (player count or expansions)")]
    RulesMismatch,
    /// The game waits for an external chance outcome (R-SET-3) or has not been dealt.
    #[error("the game waits for a chance outcome (R-SET-3): resample after it is supplied")]
    ChancePending,
    /// A bid of the history belongs to no started auction or to no seat of the game.
    #[error("bid {index} of the history does not fit the view")]
    BadHistory {
        /// Its index in the history.
        index: usize,
    },
    /// No draw reproduced the information state within the bound.
    #[error("no consistent state found in {attempts} draws")]
    NoConsistentState {
        /// The whole draws made.
        attempts: u32,
    },
}

/// Draws, from `seed`, a whole match that gives the viewing seat of `view` exactly its view, its
/// bid history and its peek history, everything hidden from it drawn (R-VIS-8): the other seats'
/// industry tokens, the deck and pile orders (R-VIS-6), every bid and price it does not see, and
/// the current step's bids the others already made (the view's `has_bid`, R-VIS-1); bids not yet
/// made are not in it. `view` is what [`Match::view`] gives the seat and `peeks` what
/// [`Match::peek_history`] gives it (the view says which auction a seat peeked at, not when; the
/// history places it, R-VIS-5). [`Match::resample`] gathers both from a match.
///
/// The same arguments and seed give the same match. The hidden bids are drawn to end each
/// auction as the view shows; a draw that does not is drawn again, at most
/// [`RESAMPLE_ATTEMPTS`] times, then [`ResampleError::NoConsistentState`]. The drawn amounts are
/// plausible, not a posterior: prices near the level the seat has seen, the current step's bids
/// from the `value` bot's model, as the search bot's worlds draw them.
///
/// ```
/// use qe_core::bots::search::resample;
/// use qe_core::{Command, Match, Rules, Seat};
/// let rules = Rules::base(4).unwrap();
/// let mut m = Match::seeded(rules, 5);
/// for (seat, amount) in [(0, 3), (2, 7)] {
///     m.apply(Command::Bid { seat: Seat(seat), amount }).unwrap();
/// }
/// let me = Seat(1);
/// let drawn = resample(&rules, &m.view(Some(me)), &m.peek_history(Some(me)), 11).unwrap();
/// assert_eq!(drawn.view(Some(me)), m.view(Some(me))); // the same information state
/// assert_eq!(drawn.game().view(me).has_bid, m.game().view(me).has_bid); // seat 2's bid is in it
/// ```
pub fn resample(
    rules: &Rules,
    view: &MatchView,
    peeks: &[SeenPeek],
    seed: u64,
) -> Result<Match, ResampleError> {
    let v = &view.view;
    let me = v.seat.ok_or(ResampleError::Spectator)?;
    if me.0 >= v.players {
        return Err(ResampleError::NoSuchSeat {
            seat: me.0,
            players: v.players,
        });
    }
    if rules.players() != v.players || rules.expansions() != v.expansions {
        return Err(ResampleError::RulesMismatch);
    }
    if matches!(v.phase, Phase::Chance { .. }) || v.seats[me].industry.is_none() {
        return Err(ResampleError::ChancePending);
    }
    let plan = Plan::new(v, &view.bid_history)?;
    let know = Knowledge::new(v, &view.bid_history, *rules).ok_or(ResampleError::Spectator)?;
    let mut rng = Mix(mix_seed(seed ^ 0x7E5A_4D1E_0F1E_57A7));
    for _ in 0..RESAMPLE_ATTEMPTS {
        if let Some(m) = attempt(&know, &plan, view, peeks, &mut rng) {
            return Ok(m);
        }
    }
    Err(ResampleError::NoConsistentState {
        attempts: RESAMPLE_ATTEMPTS,
    })
}

impl Match {
    /// A match drawn from `seed` that `seat` cannot tell from this one: its view, bid history and
    /// peek history are this match's, everything hidden from it is drawn ([`resample`], R-VIS-8).
    ///
    /// ```
    /// use qe_core::{Command, Match, Rules, Seat};
    /// let mut m = Match::seeded(Rules::commodities(3).unwrap(), 2);
    /// m.apply(Command::Bid { seat: Seat(0), amount: 4 }).unwrap();
    /// let drawn = m.resample(Seat(2), 9).unwrap();
    /// assert_eq!(drawn.view(Some(Seat(2))), m.view(Some(Seat(2))));
    /// assert!(m.resample(Seat(3), 9).is_err()); // no such seat
    /// ```
    pub fn resample(&self, seat: Seat, seed: u64) -> Result<Match, ResampleError> {
        let players = self.game().players();
        if seat.0 >= players {
            return Err(ResampleError::NoSuchSeat {
                seat: seat.0,
                players,
            });
        }
        resample(
            self.game().rules(),
            &self.view(Some(seat)),
            &self.peek_history(Some(seat)),
            seed,
        )
    }
}

/// One stage of an auction: the bids of one evaluation, as the history lists them.
struct Stage {
    kind: BidStage,
    /// The bids in order, with the amount where the seat sees it.
    bids: Vec<(Seat, Option<u64>)>,
    /// Every seat of the stage, those still to bid included.
    seats: SeatSet,
    /// Whether every seat of the stage has bid.
    complete: bool,
}

/// The stages of every started auction.
struct Plan {
    turns: Vec<Vec<Stage>>,
}

impl Plan {
    fn new(view: &SeatView, history: &[SeenBid]) -> Result<Plan, ResampleError> {
        let started = view.turns_started as usize;
        let mut turns: Vec<Vec<Stage>> = (0..started).map(|_| Vec::new()).collect();
        for (index, b) in history.iter().enumerate() {
            let stages = turns
                .get_mut(b.turn as usize)
                .filter(|_| b.seat.0 < view.players)
                .ok_or(ResampleError::BadHistory { index })?;
            if stages.last().is_none_or(|s| s.kind != b.stage) {
                stages.push(Stage {
                    kind: b.stage,
                    bids: Vec::new(),
                    seats: SeatSet::EMPTY,
                    complete: true,
                });
            }
            let last = stages
                .last_mut()
                .ok_or(ResampleError::BadHistory { index })?;
            last.bids.push((b.seat, b.amount));
            last.seats.insert(b.seat);
        }
        let current = match view.phase {
            Phase::Bidding => Some(BidStage::Secret),
            Phase::Rebid { tie } => Some(BidStage::Rebid(tie)),
            Phase::AssetRebid { tie } => Some(BidStage::AssetRebid(tie)),
            _ => None,
        };
        if let (Some(stage), Some(stages)) = (current, turns.get_mut(view.turn as usize)) {
            if stages.last().is_none_or(|s| s.kind != stage) {
                stages.push(Stage {
                    kind: stage,
                    bids: Vec::new(),
                    seats: SeatSet::EMPTY,
                    complete: true,
                });
            }
            if let Some(last) = stages.last_mut() {
                last.seats = SeatSet::from_bits(view.has_bid.bits() | view.to_act.bits());
                last.complete = false;
            }
        }
        Ok(Plan { turns })
    }
}

/// What a stage's evaluation must give.
#[derive(Clone, Copy)]
enum Target {
    /// The company ties again: exactly these seats rebid (R-AUC-6).
    CompanyTie(SeatSet),
    /// The company is decided here; the asset then ties: exactly these seats rebid (R-COM-4).
    AssetTieAfterCompany(SeatSet),
    /// The asset ties again (R-COM-4).
    AssetTie(SeatSet),
    /// The auction is decided here (the company if still open, and the asset).
    Decided,
    /// The stage is still open: any legal bids.
    Open,
}

/// One whole draw: a set-up, then every auction, with the peeks where the seat saw them.
fn attempt(
    know: &Knowledge<'_>,
    plan: &Plan,
    target: &MatchView,
    peeks: &[SeenPeek],
    rng: &mut Mix,
) -> Option<Match> {
    let setup = know.sample_setup(rng)?;
    let industries = setup.seat_industries();
    let mut m = Match::with_setup(know.rules, setup).ok()?;
    let mut peeks = peeks.iter().peekable();
    let mut play_peeks = |m: &mut Match| -> Option<()> {
        while let Some(p) = peeks.peek() {
            if p.at > m.events().len() {
                break;
            }
            if p.at < m.events().len() {
                return None;
            }
            m.play(Command::Peek {
                seat: p.seat,
                turn: p.turn,
            })
            .ok()?;
            peeks.next();
        }
        Some(())
    };
    for (turn, stages) in plan.turns.iter().enumerate() {
        let commands = auction(know, m.game(), turn as u8, stages, industries, rng)?;
        for c in commands {
            play_peeks(&mut m)?;
            m.play(c).ok()?;
        }
    }
    play_peeks(&mut m)?;
    let me = know.me;
    let done = m.view(Some(me)) == *target && peeks.next().is_none();
    done.then_some(m)
}

/// The commands of one auction (its opening bid, its bids, its take or discard), drawn until the
/// auction ends as the view shows.
fn auction(
    know: &Knowledge<'_>,
    game: &Game,
    turn: u8,
    stages: &[Stage],
    industries: PerSeat<Industry>,
    rng: &mut Mix,
) -> Option<Vec<Command>> {
    let hidden = stages
        .iter()
        .any(|s| !s.complete || s.bids.iter().any(|b| b.1.is_none()));
    let tries = if hidden { AUCTION_TRIES } else { 1 };
    let mut out = Vec::new();
    for attempt in 0..tries {
        out.clear();
        let mut g = *game;
        let wild = attempt >= AUCTION_TRIES / 2 && rng.unit() < 0.3;
        let draw = Draw {
            know,
            turn,
            industries,
            wild,
        };
        if draw.run(&mut g, stages, &mut out, rng).is_some() {
            return Some(out);
        }
    }
    None
}
