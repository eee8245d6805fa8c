//! [`SearchBot`]: determinized Monte Carlo search over sealed bids.
//!
//! For each decision the bot
//!
//! 1. **samples worlds**: whole games that its seat cannot tell from the real one, built from its
//!    view and its own bid history only (R-VIS-8; see the `world` module below): the other seats'
//!    industry tokens, the deck order, the pile orders and every price it does not see are drawn,
//!    the prices within the bounds the deduction aid proves ([`crate::deduction`]);
//! 2. **models the other seats' sealed bids** in each world with the `value` bot ([`ValueBot`])
//!    reading that seat's view of the world, with fresh noise per world;
//! 3. **chooses candidates**: the smallest bid, the `value` bot's own bid, and bids just above
//!    the modelled highest (and, with Commodities, second-highest) rival bid at several quantiles
//!    over the worlds; or the legal piles for a take or a discard;
//! 4. **plays every candidate out** in the same worlds (common random numbers): the candidate,
//!    the modelled rival bids, then every seat by the `value` bot to the end, and scores the
//!    outcome: 1 for a win, shared wins split, 0 otherwise — so an elimination (R-SCO-2) is a
//!    loss whatever the score;
//! 5. **keeps the best half** of the candidates after each round of worlds (sequential halving)
//!    and plays the best mean.
//!
//! The budget is counted in simulated commands, so a decision is deterministic for a seed (and the
//! same on every platform); [`SearchConfig::budget`] sets it, [`Level`] holds the presets. The 5-player
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
    /// Four times the medium budget: about four times as long a decision.
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
            },
            Level::Medium => SearchConfig {
                budget: 60_000,
                candidates: 7,
                probe_worlds: 24,
            },
            Level::Hard => SearchConfig {
                budget: 240_000,
                candidates: 9,
                probe_worlds: 40,
            },
        }
    }
}

/// How much the [`SearchBot`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// Simulated commands per decision, over every playout (the deterministic budget).
    pub budget: u64,
    /// The most candidate bids compared in one decision (at least 2).
    pub candidates: u8,
    /// The worlds sampled before the candidates are chosen (their modelled rival bids set the
    /// candidates).
    pub probe_worlds: u16,
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
        }
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
        let Some(know) = Knowledge::new(view, history, rules) else {
            self.stats.fallback = true;
            return Some(suggestion.command(me));
        };
        if legal.bid.is_none() && choices.len() < 2 {
            self.stats.fallback = true;
            return Some(suggestion.command(me));
        }
        let mut rng = Mix(self.rng.next());
        let provisional = match suggestion {
            Choice::Bid(b) => b.max(1),
            _ => 1,
        };
        let mut search = Search {
            know: &know,
            rng: &mut rng,
            provisional,
            worlds: Vec::new(),
            stats: &mut self.stats,
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
        let best = search.halving(&candidates, self.config.budget);
        Some(best.unwrap_or(suggestion).command(me))
    }
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
}

impl Search<'_, '_> {
    /// World `i`, sampled on first use; `None` if draws keep failing.
    fn world(&mut self, i: usize) -> Option<&World> {
        while self.worlds.len() <= i {
            let mut tries = 0;
            loop {
                if let Ok(w) = self.know.sample(self.rng, self.provisional) {
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

    /// Sequential halving over `candidates` within `budget` simulated commands; the best
    /// candidate, or `None` if no world could be built.
    fn halving(&mut self, candidates: &[Choice], budget: u64) -> Option<Choice> {
        let know = self.know;
        let view = know.view;
        let c = candidates.len();
        self.stats.candidates = c as u8;
        let left = u64::from(view.turns.saturating_sub(view.turn));
        let per_playout = (left * (u64::from(view.players) + 1)).max(4) as f64;
        let rounds = usize::BITS - (c - 1).leading_zeros();
        // Each round shares its worlds among the candidates still in: worlds per playout.
        let mut share = 0.0;
        let mut alive_count = c;
        for _ in 0..rounds {
            share += 1.0 / (f64::from(rounds) * alive_count as f64);
            alive_count = alive_count.div_ceil(2);
        }
        let world = world_cost(view.turn);
        let budget = budget.saturating_sub(self.worlds.len() as u64 * world) as f64;
        let playouts = ((budget / (per_playout + share * world as f64)) as u64).max(2 * c as u64);
        let mut alive: Vec<usize> = (0..c).collect();
        let mut sum = alloc::vec![0.0f64; c];
        let mut next = 0usize;
        for round in 0..rounds {
            let per = (playouts / (u64::from(rounds) * alive.len() as u64)).max(1);
            for _ in 0..per {
                if self.world(next).is_none() {
                    break;
                }
                let world = &self.worlds[next];
                next += 1;
                for &k in &alive {
                    sum[k] += playout(know, world, candidates[k], self.stats);
                }
            }
            // Ties go to the earlier candidate (the cheaper bid).
            alive.sort_by(|&x, &y| sum[y].total_cmp(&sum[x]).then(x.cmp(&y)));
            if round + 1 < rounds {
                alive.truncate(alive.len().div_ceil(2));
            }
        }
        alive.first().map(|&k| candidates[k])
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
