//! The [`SearchBot`]: its state from decision to decision, and the decision itself (the steps of
//! the [module docs](super)).

use alloc::vec::Vec;

use super::candidates::{bid_candidates, Choice};
use super::clock::{Clock, Deadline};
use super::decision::{world_cost, Search};
use super::mix::Mix;
use super::peek::peek_choice;
use super::regret::draw;
use super::world::Knowledge;
use super::{Level, SearchConfig};
use crate::bots::{Bot, ValueBot};
use crate::command::Command;
use crate::components::Manifest;
use crate::phase::Phase;
use crate::seat::PerSeat;
use crate::seen::SeenBid;
use crate::session::MatchView;
use crate::setup::mix_seed;
use crate::view::SeatView;

/// What the last decision of a [`SearchBot`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchStats {
    /// Worlds sampled.
    pub worlds: u32,
    /// Draws that could not be realized and were drawn again.
    pub rejected: u32,
    /// Playouts run.
    pub playouts: u32,
    /// Commands simulated in the playouts.
    pub commands: u64,
    /// Candidates compared.
    pub candidates: u8,
    /// The decision fell back to the `value` bot (no world could be built, or only one choice).
    pub fallback: bool,
    /// A timed decision ([`SearchConfig::millis`]) stopped at its deadline.
    pub timed_out: bool,
}

/// The search bot: determinized Monte Carlo search (see the [module docs](super)).
///
/// Deterministic for a seed: the same views and histories in the same order give the same
/// commands. It never reads a [`Game`](crate::Game); its input is the seat's [`MatchView`].
#[derive(Clone, Debug)]
pub struct SearchBot {
    config: SearchConfig,
    rng: Mix,
    /// Suggests a candidate and decides when the search cannot.
    value: ValueBot,
    stats: SearchStats,
    /// Timed decisions: simulated commands per millisecond measured so far (0: none yet).
    rate: f64,
    clock: Clock,
    /// The mixed strategy of the last decision, if it drew its bid.
    strategy: Vec<(u64, f64)>,
}

impl SearchBot {
    /// A search bot at a preset level, with the default manifest.
    pub fn new(level: Level, seed: u64) -> SearchBot {
        SearchBot::with_config(level.config(), seed, Manifest::default())
    }

    /// A search bot with its own configuration, for a game played with `manifest`.
    pub fn with_config(config: SearchConfig, seed: u64, manifest: Manifest) -> SearchBot {
        SearchBot {
            config,
            rng: Mix(mix_seed(seed ^ 0x5EA7_C4B0_75EA_7C4B)),
            value: ValueBot::with_manifest(mix_seed(seed), manifest),
            stats: SearchStats::default(),
            rate: 0.0,
            clock: Clock::Wall,
            strategy: Vec::new(),
        }
    }

    /// This bot with its timed decisions ([`SearchConfig::millis`]) timed by a simulated clock
    /// that advances `step_us` microseconds at each reading (once per sampled world played, and
    /// once at the end) instead of the wall clock: a timed bot that decides alike on every
    /// machine, whatever the load, and needs no clock (for tests and reproducible experiments).
    #[must_use]
    pub fn with_simulated_clock(mut self, step_us: u64) -> SearchBot {
        self.clock = Clock::Simulated(step_us.max(1));
        self
    }

    /// The mixed strategy the last decision drew its bid from ([`SearchConfig::mixed`]): each
    /// candidate bid with its probability, ascending; empty if the last decision drew nothing.
    pub fn last_strategy(&self) -> &[(u64, f64)] {
        &self.strategy
    }

    /// The configuration.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// What the last decision did.
    pub fn last_stats(&self) -> SearchStats {
        self.stats
    }

    /// The command this seat plays now, from its view and bid history ([`crate::Match::view`]);
    /// `None` when it has nothing to do.
    pub fn decide(&mut self, view: &MatchView) -> Option<Command> {
        self.decide_with(&view.view, &view.bid_history)
    }

    /// As [`SearchBot::decide`], from the parts: the seat's view and its bid history as that seat
    /// sees it ([`crate::Match::bid_history`]; an empty history is allowed and only loses what
    /// the seat's own past bids prove).
    pub fn decide_with(&mut self, view: &SeatView, history: &[SeenBid]) -> Option<Command> {
        self.stats = SearchStats::default();
        self.strategy.clear();
        if !view.is_well_formed() {
            return None;
        }
        let me = view.seat?;
        let legal = view.legal;
        // The value bot caches the viewed game's rules, with this bot's manifest.
        let rules = self.value.rules(view);
        if let Some(turn) = peek_choice(view, &rules) {
            return Some(Command::Peek { seat: me, turn });
        }
        if !legal.must_act() {
            return None;
        }
        // The value bot's choice: a candidate, and the fallback.
        let (suggestion, choices) = if let Some(range) = legal.bid {
            let s = Choice::Bid(self.value.bid(view, me, range));
            (s, Vec::new())
        } else {
            let fallback = match self.value.pile(view, me, &legal)? {
                Command::TakeAsset { kind, .. } => Choice::Take(kind),
                Command::DiscardAsset { kind, .. } => Choice::Discard(kind),
                _ => return None,
            };
            let mut piles: Vec<Choice> = legal.take.iter().map(Choice::Take).collect();
            piles.extend(legal.discard.iter().map(Choice::Discard));
            (fallback, piles)
        };
        let Some(mut know) = Knowledge::new(view, history, rules) else {
            self.stats.fallback = true;
            return Some(suggestion.command(me));
        };
        know.sharp = self.config.sharp_rivals;
        if legal.bid.is_none() && choices.len() < 2 {
            self.stats.fallback = true;
            return Some(suggestion.command(me));
        }
        let mut rng = Mix(self.rng.next());
        let provisional = match suggestion {
            Choice::Bid(b) => b.max(1),
            _ => 1,
        };
        let config = self.config;
        let deadline = if config.millis > 0 {
            Deadline::start(self.clock, config.millis)
        } else {
            None
        };
        let budget = match deadline {
            // Aim at 85% of the time from the speed measured so far; the deadline stops the rest.
            Some(_) if self.rate > 0.0 => (self.rate * f64::from(config.millis) * 0.85) as u64,
            _ => config.budget,
        };
        let mut search = Search {
            know: &know,
            rng: &mut rng,
            provisional,
            worlds: Vec::new(),
            stats: &mut self.stats,
            deadline,
            playouts_per_world: config.playouts_per_world.max(1),
            shifts: PerSeat::new(core::array::from_fn(|_| Vec::new())),
        };
        // The probe worlds: the model's rival bids set the candidate bids.
        let probe = usize::from(self.config.probe_worlds.max(1));
        for i in 0..probe {
            if search.world(i).is_none() {
                break;
            }
        }
        if search.worlds.is_empty() {
            self.stats.fallback = true;
            return Some(suggestion.command(me));
        }
        if config.rival_search > 0 && view.phase == Phase::Bidding {
            search.model_rivals(config.rival_search, config.rival_worlds);
        }
        let candidates = match legal.bid {
            Some(range) => bid_candidates(
                &search.worlds,
                me,
                range,
                suggestion,
                usize::from(self.config.candidates.max(2)),
                rules.contests_assets(),
            ),
            None => choices,
        };
        if candidates.len() == 1 {
            return Some(candidates[0].command(me));
        }
        // A secret bidding step is a simultaneous game (R-AUC-3); an opening bid is public (R-AUC-2).
        let sealed = !matches!(view.phase, Phase::OpeningBid { .. });
        let mixed = if config.mixed && legal.bid.is_some() && sealed {
            search.joint_regret_matching(
                &candidates,
                budget,
                config.model_share,
                config.min_mixed_rounds,
            )
        } else {
            None
        };
        let best = match mixed {
            Some(p) => {
                for (c, &q) in candidates.iter().zip(&p) {
                    if let Choice::Bid(amount) = *c {
                        self.strategy.push((amount, q));
                    }
                }
                Some(candidates[draw(&p, self.rng.unit())])
            }
            None => search.halving(&candidates, budget),
        };
        if let Some(mut d) = search.deadline {
            let ms = d.elapsed_ms();
            let done = self.stats.commands + u64::from(self.stats.worlds) * world_cost(view.turn);
            if ms > 0.05 {
                let measured = done as f64 / ms;
                self.rate = if self.rate > 0.0 {
                    0.7 * self.rate + 0.3 * measured
                } else {
                    measured
                };
            }
        }
        Some(best.unwrap_or(suggestion).command(me))
    }
}

impl Bot for SearchBot {
    /// Its value bot's stream, then its own.
    fn streams(&self) -> crate::bots::Streams {
        [self.value.streams()[0], u128::from(self.rng.0)]
    }

    fn set_streams(&mut self, streams: crate::bots::Streams) {
        self.value.set_streams([streams[0], 0]);
        // The own stream is a 64-bit state: the high bits of a foreign number are dropped.
        self.rng = Mix(streams[1] as u64);
    }

    /// Decides from the view alone (an empty bid history; see [`SearchBot::decide_with`]).
    fn act(&mut self, view: &SeatView) -> Option<Command> {
        self.decide_with(view, &[])
    }

    fn act_with_history(&mut self, view: &MatchView) -> Option<Command> {
        self.decide(view)
    }

    fn uses_history(&self) -> bool {
        true
    }
}
