//! [`SearchBot`]: determinized Monte Carlo search over sealed bids.
//!
//! For each decision the bot
//!
//! 1. **samples worlds**: whole games that its seat cannot tell from the real one, built from its
//!    view and its own bid history only (R-VIS-8; see the `world` module below): the other seats'
//!    industry tokens, the deck order, the pile orders and every price it does not see are drawn,
//!    the prices within the bounds the deduction aid proves ([`crate::deduction`]);
//! 2. **models the other seats' sealed bids** in each world with the `value` bot ([`ValueBot`])
//!    reading that seat's view of the world, with fresh noise per world; with a rival search
//!    ([`SearchConfig::rival_search`], `search:hard`), one level deeper: a small search from each
//!    other seat's view of a few worlds says how a searcher in its place would bid, and every
//!    world's modelled bid of that seat is moved by the difference;
//! 3. **chooses candidates**: the smallest bid, the `value` bot's own bid, and bids just above
//!    the modelled highest (and, with Commodities, second-highest) rival bid at several quantiles
//!    over the worlds; or the legal piles for a take or a discard;
//! 4. **plays every candidate out** in the same worlds (common random numbers): the candidate,
//!    the modelled rival bids, then every seat by the `value` bot to the end, and scores the
//!    outcome: 1 for a win, shared wins split, 0 otherwise — so an elimination (R-SCO-2) is a
//!    loss whatever the score;
//! 5. **keeps the best half** of the candidates after each round of worlds (sequential halving)
//!    and plays the best mean; or, with [`SearchConfig::mixed`], plays every candidate bid in
//!    every world, runs regret matching over the worlds as rounds and draws the sealed bid from
//!    its final strategy (`qe-core/src/bots/README.md` gives the measurements behind both).
//!
//! The budget is counted in simulated commands, so a decision is deterministic for a seed (and the
//! same on every platform); [`SearchConfig::budget`] sets it, [`Level`] holds the presets; the timed
//! bot ([`SearchConfig::millis`], `search:ms=MS`) trades that for a wall-clock budget. The 5-player
//! peek (R-VIS-5) is taken once a third of the game has passed, at the auction whose hidden price
//! says most about the biggest spender.
//!
//! The input is structural: [`SearchBot::decide`] takes a [`MatchView`] (the seat's [`SeatView`]
//! and its bid history as [`crate::Match::view`] gives them), never a [`Game`].
//!
//! ```
//! use qe_core::bots::{Level, SearchBot};
//! use qe_core::{Match, Rules, Seat};
//! let mut m = Match::seeded(Rules::base(4).unwrap(), 3);
//! let mut bot = SearchBot::new(Level::Easy, 7);
//! let command = bot.decide(&m.view(Some(Seat(0)))).unwrap(); // seat 0 opens the first auction
//! m.apply(command).unwrap();
//! ```

mod playout;
mod world;

use alloc::vec::Vec;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{nearest_legal, Bot, ValueBot};
use crate::command::Command;
use crate::components::{AssetKind, Manifest};
use crate::game::Game;
use crate::phase::Phase;
use crate::rules::Rules;
use crate::seat::{PerSeat, Seat, MAX_SEATS};
use crate::seen::SeenBid;
use crate::session::MatchView;
use crate::setup::mix_seed;
use crate::view::SeatView;
pub use world::resample::{resample, ResampleError, RESAMPLE_ATTEMPTS};
use world::{Knowledge, World};

/// A preset strength of the [`SearchBot`] (the `search:easy`, `search:medium` and `search:hard`
/// bots of [`super::by_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A fifth of the medium budget: faster and weaker (time per decision of each level:
    /// PERF.md, "The search bot").
    Easy,
    /// The default (`search`): a few milliseconds a decision on one core, release build, short
    /// enough for a frame budget (PERF.md).
    Medium,
    /// About four times as long a decision as medium, spent partly on a deeper model of the
    /// other seats: a small search from each one's view of eight sampled worlds
    /// ([`SearchConfig::rival_search`]); then its own search of 160,000 commands.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The level's name: `easy`, `medium` or `hard`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The level of a name (`easy`, `medium`, `hard`).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The preset configuration.
    pub const fn config(self) -> SearchConfig {
        match self {
            Level::Easy => SearchConfig {
                budget: 12_000,
                candidates: 5,
                probe_worlds: 12,
                playouts_per_world: 1,
                mixed: false,
                sharp_rivals: false,
                rival_search: 0,
                rival_worlds: 0,
                millis: 0,
            },
            Level::Medium => SearchConfig {
                budget: 60_000,
                candidates: 7,
                probe_worlds: 24,
                playouts_per_world: 1,
                mixed: false,
                sharp_rivals: false,
                rival_search: 0,
                rival_worlds: 0,
                millis: 0,
            },
            Level::Hard => SearchConfig {
                budget: 160_000,
                candidates: 9,
                probe_worlds: 40,
                playouts_per_world: 1,
                mixed: false,
                sharp_rivals: false,
                rival_search: 4_000,
                rival_worlds: 8,
                millis: 0,
            },
        }
    }
}

/// How much the [`SearchBot`] searches, and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// Simulated commands per decision, over every playout (the deterministic budget). With
    /// [`SearchConfig::millis`] set, the first decision's budget; later ones are sized from the
    /// commands per millisecond measured so far.
    pub budget: u64,
    /// The most candidate bids compared in one decision (at least 2).
    pub candidates: u8,
    /// The worlds sampled before the candidates are chosen (their modelled rival bids set the
    /// candidates).
    pub probe_worlds: u16,
    /// Playouts of each candidate in each sampled world, each with fresh model noise (at least 1).
    pub playouts_per_world: u8,
    /// Sealed bids drawn from a mixed strategy: regret matching over the candidate bids across
    /// the sampled worlds (every candidate played in every world), the bid drawn from the
    /// final strategy (the positive regrets) with the bot's seeded generator. Otherwise the bid with the best mean
    /// after sequential halving. Asset piles are chosen by sequential halving either way.
    pub mixed: bool,
    /// The other seats' sealed bids of the current auction modelled as a searcher's (all or
    /// nothing: often the smallest bid, else above the `value` bot's amount) instead of the
    /// `value` bot's.
    pub sharp_rivals: bool,
    /// Rival search: the budget (simulated commands) of a small search run for each other seat
    /// from its own view of a few sampled worlds (0: none). The other seats' sealed bids are
    /// then modelled as that search bids: in those worlds its bid, in the others the `value`
    /// bot's bid moved by the difference the search made (one level deeper than modelling them
    /// by the `value` bot, which is what the searcher itself answers).
    pub rival_search: u32,
    /// The worlds in which each other seat's search is run (with [`SearchConfig::rival_search`]).
    pub rival_worlds: u8,
    /// A wall-clock budget per decision in milliseconds (0: none, the budget is counted in
    /// commands only). Not deterministic: the decision depends on the machine's speed and load.
    /// Only where a clock is available ([`SearchConfig::timed`]); elsewhere it is ignored.
    pub millis: u32,
}

impl SearchConfig {
    /// The configuration of `search:ms=MS`: the hard preset's search shape, as many playouts as
    /// fit in `millis` milliseconds a decision (measured by the wall clock: not deterministic).
    /// `None` without a clock (without the `std` feature, or on `wasm32-unknown-unknown`) or for
    /// 0 ms.
    pub fn timed(millis: u32) -> Option<SearchConfig> {
        (clock::AVAILABLE && millis > 0).then(|| SearchConfig {
            budget: 4_000 * u64::from(millis),
            millis,
            ..Level::Hard.config()
        })
    }
}

/// The wall clock of `search:ms=MS` (std, not on `wasm32-unknown-unknown`, where
/// `std::time::Instant` panics).
#[cfg(all(
    feature = "std",
    not(all(target_arch = "wasm32", target_os = "unknown"))
))]
mod clock {
    pub const AVAILABLE: bool = true;
    pub type Instant = std::time::Instant;
    #[allow(clippy::unnecessary_wraps)] // `None` where there is no clock
    pub fn now() -> Option<Instant> {
        Some(Instant::now())
    }
    pub fn elapsed_ms(start: Instant) -> f64 {
        start.elapsed().as_secs_f64() * 1e3
    }
}

/// No clock: `search:ms=MS` is not available.
#[cfg(not(all(
    feature = "std",
    not(all(target_arch = "wasm32", target_os = "unknown"))
)))]
mod clock {
    pub const AVAILABLE: bool = false;
    #[derive(Clone, Copy)]
    pub struct Instant;
    pub fn now() -> Option<Instant> {
        None
    }
    pub fn elapsed_ms(_: Instant) -> f64 {
        0.0
    }
}

/// The clock that times a decision with [`SearchConfig::millis`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clock {
    /// The wall clock, where there is one.
    Wall,
    /// Advances this many microseconds at each reading.
    Simulated(u64),
}

/// The time of a timed decision.
#[derive(Clone, Copy)]
struct Deadline {
    start: Option<clock::Instant>,
    readings: u64,
    step_us: u64,
    millis: f64,
}

impl Deadline {
    /// The deadline of a decision of `millis` ms starting now; `None` without a clock.
    fn start(clock: Clock, millis: u32) -> Option<Deadline> {
        let (start, step_us) = match clock {
            Clock::Wall => (Some(clock::now()?), 0),
            Clock::Simulated(step) => (None, step),
        };
        Some(Deadline {
            start,
            readings: 0,
            step_us,
            millis: f64::from(millis),
        })
    }

    /// Milliseconds since the start (a reading: it advances a simulated clock).
    fn elapsed_ms(&mut self) -> f64 {
        if let Some(start) = self.start {
            clock::elapsed_ms(start)
        } else {
            self.readings += 1;
            (self.readings * self.step_us) as f64 / 1e3
        }
    }

    fn passed(&mut self) -> bool {
        self.elapsed_ms() >= self.millis
    }
}

impl Default for SearchConfig {
    /// The `search:medium` preset.
    fn default() -> SearchConfig {
        Level::Medium.config()
    }
}

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

/// The search bot: determinized Monte Carlo search (see the [module docs](self)).
///
/// Deterministic for a seed: the same views and histories in the same order give the same
/// commands. It never reads a [`Game`]; its input is the seat's [`MatchView`].
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

/// One choice of the searching seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Bid(u64),
    Take(AssetKind),
    Discard(AssetKind),
}

impl Choice {
    fn command(self, seat: Seat) -> Command {
        match self {
            Choice::Bid(amount) => Command::Bid { seat, amount },
            Choice::Take(kind) => Command::TakeAsset { seat, kind },
            Choice::Discard(kind) => Command::DiscardAsset { seat, kind },
        }
    }
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
                rules.has_commodities(),
            ),
            None => choices,
        };
        if candidates.len() == 1 {
            return Some(candidates[0].command(me));
        }
        let best = if config.mixed && legal.bid.is_some() {
            search.regret_matching(&candidates, budget).map(|p| {
                for (c, &q) in candidates.iter().zip(&p) {
                    if let Choice::Bid(amount) = *c {
                        self.strategy.push((amount, q));
                    }
                }
                candidates[draw(&p, self.rng.unit())]
            })
        } else {
            search.halving(&candidates, budget)
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

/// The index drawn from the distribution `p` (summing to about 1) by `u` in `[0, 1)`.
fn draw(p: &[f64], u: f64) -> usize {
    let total: f64 = p.iter().sum();
    let mut left = u * total;
    for (i, &x) in p.iter().enumerate() {
        if left < x {
            return i;
        }
        left -= x;
    }
    p.iter()
        .rposition(|&x| x > 0.0)
        .unwrap_or(p.len().saturating_sub(1))
}

impl Bot for SearchBot {
    /// Its value bot's stream, then its own.
    fn streams(&self) -> super::Streams {
        [self.value.streams()[0], u128::from(self.rng.0)]
    }

    fn set_streams(&mut self, streams: super::Streams) {
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

/// What sampling a world costs, in simulated commands, at the start of turn `turn`: sampling
/// replays every finished auction, so a world costs more as the game goes on (fitted to the
/// decision times on one core: a playout command about 0.16 µs, a world about 0.8 µs per finished
/// turn plus a fixed part).
fn world_cost(turn: u8) -> u64 {
    20 + 5 * u64::from(turn)
}

/// One decision's search state.
struct Search<'k, 'r> {
    know: &'k Knowledge<'k>,
    rng: &'r mut Mix,
    provisional: u64,
    worlds: Vec<World>,
    stats: &'r mut SearchStats,
    deadline: Option<Deadline>,
    playouts_per_world: u8,
    /// Per other seat, how much its modelled search bid differed from its `value` bid in the
    /// worlds where its search was run ([`SearchConfig::rival_search`]); applied to every world.
    shifts: PerSeat<Vec<i64>>,
}

impl Search<'_, '_> {
    /// World `i`, sampled on first use; `None` if draws keep failing.
    fn world(&mut self, i: usize) -> Option<&World> {
        while self.worlds.len() <= i {
            let mut tries = 0;
            loop {
                if let Ok(mut w) = self.know.sample(self.rng, self.provisional) {
                    let i = self.worlds.len();
                    shift(&mut w, &self.shifts, i);
                    self.worlds.push(w);
                    self.stats.worlds += 1;
                    break;
                }
                self.stats.rejected += 1;
                tries += 1;
                if tries >= 8 {
                    return None;
                }
            }
        }
        self.worlds.get(i)
    }

    /// Runs a small search (`budget` simulated commands) for each other seat that has a sealed
    /// bid pending, from its own view of each of the first `worlds` sampled worlds (a view of a
    /// world built from this seat's knowledge only), records how far its bid is from the
    /// `value` bot's there, and moves every world's modelled bids by those differences.
    fn model_rivals(&mut self, budget: u32, worlds: u8) {
        let me = self.know.me;
        let rules = self.know.rules;
        let inner = SearchConfig {
            budget: u64::from(budget),
            candidates: 5,
            probe_worlds: 8,
            ..Level::Easy.config()
        };
        let k = usize::from(worlds.max(1)).min(self.worlds.len());
        for i in 0..k {
            let w = self.worlds[i];
            for (s, pending) in w.pending.seats() {
                let Some(v) = *pending else { continue };
                if s == me {
                    continue;
                }
                let view = w.game.view(s);
                if view.legal.bid.is_none() {
                    continue;
                }
                let mut bot = SearchBot::with_config(inner, self.rng.next(), *rules.manifest());
                if let Some(Command::Bid { amount, .. }) = bot.decide_with(&view, &[]) {
                    self.shifts[s].push(signed(amount).saturating_sub(signed(v)));
                }
                self.stats.commands += bot.stats.commands;
                self.stats.playouts += bot.stats.playouts;
            }
        }
        for (i, w) in self.worlds.iter_mut().enumerate() {
            shift(w, &self.shifts, i);
        }
    }

    /// Whether a timed decision must stop now (and record that it did).
    fn out_of_time(&mut self) -> bool {
        let passed = self.deadline.as_mut().is_some_and(Deadline::passed);
        self.stats.timed_out |= passed;
        passed
    }

    /// The simulated commands one playout costs from here, and the cost of a world.
    fn costs(&self) -> (f64, u64) {
        let view = self.know.view;
        let left = u64::from(view.turns.saturating_sub(view.turn));
        let per_playout = (left * (u64::from(view.players) + 1)).max(4) as f64;
        (per_playout, world_cost(view.turn))
    }

    /// The mean outcome of `choice` over the playouts of world `i` (one per
    /// `playouts_per_world`, each with its own model noise, the same for every choice).
    fn value(&mut self, i: usize, choice: Choice) -> f64 {
        let world = &self.worlds[i];
        let n = self.playouts_per_world;
        if n <= 1 {
            return playout(self.know, world, choice, self.stats);
        }
        let mut sum = 0.0;
        for j in 0..n {
            let mut w = *world;
            if j > 0 {
                w.sim = w.sim.reseeded(mix_seed(i as u64 ^ (u64::from(j) << 32)));
            }
            sum += playout(self.know, &w, choice, self.stats);
        }
        sum / f64::from(n)
    }

    /// Sequential halving over `candidates` within `budget` simulated commands; the best
    /// candidate, or `None` if no world could be built.
    fn halving(&mut self, candidates: &[Choice], budget: u64) -> Option<Choice> {
        let c = candidates.len();
        self.stats.candidates = c as u8;
        let (per_playout, world) = self.costs();
        let ppw = u64::from(self.playouts_per_world);
        let rounds = usize::BITS - (c - 1).leading_zeros();
        // Each round shares its worlds among the candidates still in: worlds per playout.
        let mut share = 0.0;
        let mut alive_count = c;
        for _ in 0..rounds {
            share += 1.0 / (f64::from(rounds) * alive_count as f64);
            alive_count = alive_count.div_ceil(2);
        }
        let budget = budget.saturating_sub(self.worlds.len() as u64 * world) as f64;
        let playouts = ((budget / (per_playout + share * world as f64 / ppw as f64)) as u64)
            .max(2 * c as u64 * ppw)
            / ppw;
        let mut alive: Vec<usize> = (0..c).collect();
        let mut sum = alloc::vec![0.0f64; c];
        let mut count = alloc::vec![0u32; c];
        let mut next = 0usize;
        'rounds: for round in 0..rounds {
            let per = (playouts / (u64::from(rounds) * alive.len() as u64)).max(1);
            for _ in 0..per {
                if self.out_of_time() {
                    break 'rounds;
                }
                if self.world(next).is_none() {
                    break;
                }
                for &k in &alive {
                    sum[k] += self.value(next, candidates[k]);
                    count[k] += 1;
                }
                next += 1;
            }
            if round + 1 < rounds {
                // Ties go to the earlier candidate (the cheaper bid).
                alive.sort_by(|&x, &y| sum[y].total_cmp(&sum[x]).then(x.cmp(&y)));
                alive.truncate(alive.len().div_ceil(2));
            }
        }
        // The best mean (the candidates still in have played the same worlds, unless the clock
        // stopped a round); ties to the earlier candidate.
        let mean = |k: usize| sum[k] / f64::from(count[k].max(1));
        alive.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
        alive.first().map(|&k| candidates[k])
    }

    /// Regret matching over `candidates` across the sampled worlds, within `budget` simulated
    /// commands: every candidate is played in every world (full information), each world is a
    /// round, and the strategy of a round puts weight on each candidate in proportion to its
    /// positive regret so far (uniform when none is positive). The strategy after the last
    /// round, or `None` if no world could be built.
    fn regret_matching(&mut self, candidates: &[Choice], budget: u64) -> Option<Vec<f64>> {
        let c = candidates.len();
        self.stats.candidates = c as u8;
        let (per_playout, world) = self.costs();
        let ppw = f64::from(self.playouts_per_world);
        let budget = budget.saturating_sub(self.worlds.len() as u64 * world) as f64;
        let rounds = ((budget / (c as f64 * ppw * per_playout + world as f64)) as usize).max(2);
        let mut regret = alloc::vec![0.0f64; c];
        let mut strategy = alloc::vec![1.0 / c as f64; c];
        let mut u = alloc::vec![0.0f64; c];
        let mut played = 0;
        for t in 0..rounds {
            if self.out_of_time() || self.world(t).is_none() {
                break;
            }
            let positive: f64 = regret.iter().map(|r| r.max(0.0)).sum();
            for (s, r) in strategy.iter_mut().zip(&regret) {
                *s = if positive > 0.0 {
                    r.max(0.0) / positive
                } else {
                    1.0 / c as f64
                };
            }
            for (k, &choice) in candidates.iter().enumerate() {
                u[k] = self.value(t, choice);
            }
            let expected: f64 = strategy.iter().zip(&u).map(|(s, x)| s * x).sum();
            for k in 0..c {
                regret[k] += u[k] - expected;
            }
            played += 1;
        }
        // The final strategy: the average one keeps the first rounds' weight on candidates the
        // later worlds show to be worse, and that cost much strength (qe-core/src/bots/README.md).
        let positive: f64 = regret.iter().map(|r| r.max(0.0)).sum();
        (played > 0).then(|| {
            regret
                .iter()
                .map(|r| {
                    if positive > 0.0 {
                        r.max(0.0) / positive
                    } else {
                        1.0 / c as f64
                    }
                })
                .collect()
        })
    }
}

/// A money amount as a signed number (saturating).
fn signed(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// World `i`'s modelled sealed bids moved by the other seats' search differences (`shifts`,
/// taken in turn), within what each seat may bid.
fn shift(w: &mut World, shifts: &PerSeat<Vec<i64>>, i: usize) {
    for (s, d) in shifts.seats() {
        if d.is_empty() {
            continue;
        }
        if let (Some(v), Some(range)) = (w.pending[s], w.game.bid_range(s)) {
            let moved = signed(v).saturating_add(d[i % d.len()]).max(0) as u64;
            let moved = nearest_legal(&range, moved);
            w.pending[s] = Some(moved);
            w.standing[s] = Some(moved);
        }
    }
}

/// Plays `choice` out in `world`: the choice, the other seats' pending bids, then the model for
/// every seat to the end. 1 for a win (shared wins split), else 0.
fn playout(know: &Knowledge, world: &World, choice: Choice, stats: &mut SearchStats) -> f64 {
    {
        let me = know.me;
        let mut g: Game = world.game;
        let mut sim = world.sim;
        if g.apply_to(choice.command(me), &mut sim).is_err() {
            return -1.0;
        }
        for (seat, pending) in world.pending.seats() {
            if let (Some(v), Some(range)) = (pending, g.bid_range(seat)) {
                let _ = g.apply_to(
                    Command::Bid {
                        seat,
                        amount: nearest_legal(&range, *v),
                    },
                    &mut sim,
                );
            }
        }
        let mut steps = 0u64;
        while !g.is_over() && steps < 4_000 {
            let Some(seat) = g.to_act().first() else {
                break;
            };
            let command = sim.decide(&g, seat);
            if g.apply_to(command, &mut sim).is_err() {
                break;
            }
            steps += 1;
        }
        stats.playouts += 1;
        stats.commands += steps;
        match g.outcome() {
            Some(outcome) if outcome.seat(me).winner => {
                1.0 / outcome.winners().count().max(1) as f64
            }
            _ => 0.0,
        }
    }
}

/// The candidate bids: the smallest, the value bot's, and one above the modelled highest (and
/// second-highest, with Commodities) rival amount at several quantiles over the worlds; at most
/// `max`, ascending.
fn bid_candidates(
    worlds: &[World],
    me: Seat,
    range: crate::legal::BidRange,
    suggestion: Choice,
    max: usize,
    commodities: bool,
) -> Vec<Choice> {
    let mut firsts = Vec::with_capacity(worlds.len());
    let mut seconds = Vec::with_capacity(worlds.len());
    for w in worlds {
        let (mut a, mut b) = (None::<u64>, None::<u64>);
        for (s, v) in w.standing.seats() {
            if s == me {
                continue;
            }
            if let Some(v) = *v {
                if a.is_none_or(|x| v > x) {
                    b = a;
                    a = Some(v);
                } else if b.is_none_or(|x| v > x) {
                    b = Some(v);
                }
            }
        }
        firsts.push(a.unwrap_or(0));
        seconds.push(b.unwrap_or(0));
    }
    firsts.sort_unstable();
    seconds.sort_unstable();
    let quantile = |xs: &[u64], q: f64| -> u64 {
        let i = ((xs.len() as f64 - 1.0) * q + 0.5) as usize;
        xs[i.min(xs.len() - 1)]
    };
    let mut out: Vec<u64> = Vec::new();
    out.push(nearest_legal(&range, range.min));
    if let Choice::Bid(b) = suggestion {
        out.push(nearest_legal(&range, b));
    }
    for (i, q) in [0.1, 0.3, 0.5, 0.7, 0.9, 0.2, 0.8, 0.4, 0.6]
        .into_iter()
        .enumerate()
    {
        out.push(nearest_legal(
            &range,
            quantile(&firsts, q).saturating_add(1),
        ));
        if commodities && (i == 1 || i == 3) {
            out.push(nearest_legal(
                &range,
                quantile(&seconds, q).saturating_add(1),
            ));
        }
    }
    // Keep the first `max` distinct amounts (the order above is the priority), then sort.
    let mut kept: Vec<u64> = Vec::new();
    for v in out {
        if !kept.contains(&v) && kept.len() < max {
            kept.push(v);
        }
    }
    kept.sort_unstable();
    kept.into_iter().map(Choice::Bid).collect()
}

/// The 5-player peek (R-VIS-5): once a third of the game has passed, at the auction whose price
/// it does not see won by the seat with the most hidden prices (the likeliest surprise among the
/// spenders), the highest opening bid first.
fn peek_choice(view: &SeatView, rules: &Rules) -> Option<u8> {
    let legal = view.legal;
    if legal.peek == 0 || u32::from(view.turn) * 3 < u32::from(view.turns) {
        return None;
    }
    let mut hidden = PerSeat::new([0u32; MAX_SEATS]);
    for a in view.auctions() {
        if let (Some(w), None) = (a.winner, a.price) {
            hidden[w] += 1;
        }
    }
    view.auctions()
        .iter()
        .filter(|a| legal.peek & (1 << a.turn) != 0)
        .max_by_key(|a| {
            (
                a.winner.map_or(0, |w| hidden[w]),
                a.opening.unwrap_or(0),
                a.tile.map_or(0, |t| rules.manifest().tile_value(t)),
            )
        })
        .map(|a| a.turn)
}

/// The model of a seat in a world seeded with `seed`: a value bot with its own noise.
pub(super) fn model(rules: &Rules, seed: u64, seat: Seat) -> ValueBot {
    ValueBot {
        rng: ChaCha8Rng::seed_from_u64(mix_seed(
            seed ^ (u64::from(seat.0) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        )),
        manifest: *rules.manifest(),
        rules: Some(*rules),
    }
}

/// A small, fast, portable generator (SplitMix64) for sampling worlds.
#[derive(Clone, Copy, Debug)]
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        let z = mix_seed(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// A uniform integer in `0..n` (`n ≥ 1`).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n.max(1))) >> 64) as u64
    }

    /// A uniform float in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}
