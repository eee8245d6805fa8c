//! `qe simulate`: a tournament (arena) between agents — built-in bots and `exec:` programs that
//! speak `qe-agent/1` — over many seeded games, on every core.
//!
//! Game `i` and its built-in bots are seeded from stream `i` of ChaCha20 keyed by the tournament
//! seed ([`game_seeds`]), which is drawn from the operating system unless `--seed` gives it and
//! is told no one before the tournament is over; its seats are rotated by `i` (seat `s` plays the
//! lineup's entry `(s + i) mod players`, so no agent keeps a seat). The statistics are integer sums
//! and the ratings are fitted from the number of games of each finishing pattern, so with built-in
//! bots the result is the same for a given seed whatever the thread count.
//!
//! With `--duplicate`, the games come in sets of as many games as seats: set `k` is games
//! `k·n .. (k+1)·n`, all dealt from stream `k` (every random element of a game is dealt at set-up,
//! R-SET-2, so they play the same deal), each with the lineup rotated one seat further, and seat
//! `s`'s built-in bot seeded alike in every game of the set. Without it every game is a set of
//! one. The intervals over sets ([`SetSums`]) treat the sets, not the games, as the independent
//! observations, and `--sprt` ([`crate::sprt`]) counts one observation per set, in set order, so
//! that where it stops does not depend on the thread count either.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;
use qe_core::bots::{by_name_with, is_name, BoxedBot, ValueBot, NAMES, TIMED_NAME};
use qe_core::{Manifest, Match, Outcome, PerSeat, Rules, Seat};
use serde_json::json;

use crate::agent::{self, ExecSeat, Faults};
use crate::arena::{self, Finishes, Ranked};
use crate::progress::Progress;
use crate::sprt::{Decision, Sprt};
use crate::{manifest, Common, Failure};

/// Extra `--help` text.
pub const HELP: &str = "\
Agents: the built-in bots value (bids a tile's marginal VP for its seat, scaled by the prices it
has seen), random (uniform over a small bid ladder), miser (bids zero or the minimum), search
(= search:medium), search:easy, search:medium, search:hard (Monte Carlo search over sampled games;
search:mixed is search:medium drawing its secret bids of the last auctions from a mixed strategy,
regret matching for every bidder at once;
search:ms=MS searches about MS milliseconds a decision, 1 to 60000: not reproducible by --seed),
and exec:COMMAND, a program in any language speaking the line-based JSON protocol qe-agent/1
(spec/AGENT-PROTOCOL.md; COMMAND is split on spaces, e.g. `exec:python3 agent.py`, so quote the
list for the shell: --bots 'value,exec:python3 agent.py').
--bots lists the lineup, one agent per seat; a shorter list repeats (`--bots value` puts value bots at
every seat). Without --players, a list of 3 to 5 entries sets the player count, else 4. Seats rotate
from game to game: in game i seat s plays entry (s + i) mod players, so no agent keeps a seat.
Each game and its bots are seeded from the tournament seed and the game index by ChaCha20 keyed by
the seed, which qe draws from the operating system unless --seed gives it; it is printed when the
tournament is over, and --seed with it gives the same result with built-in bots, whatever the
thread count. An agent that can read qe's command line knows a --seed given there, and with it
every game's secrets: a rated tournament lets qe draw the seed and runs agents as another user.
Per agent: win rate with its 95% interval (Wilson; a win shared by k seats counts 1/k to each),
a rating with its 95% interval (who wins: a seat of agent a wins with probability s_a / sum of s
over the game's seats, Plackett-Luce; Elo scale, mean 1500; interval from 200 bootstrap resamples
of the games; with seats rotated, ratings are in the order of the win rates; --json adds the
order rating, Bradley-Terry on every pair of seats ranked by the final order), mean score, mean spent, elimination rate and time per decision; for exec agents also their illegal
answers, timeouts and crashes, each answered by a value-bot move, and their stale answers (an answer
with the id of another question is dropped). A progress bar is drawn on stderr
while it runs, when stderr is a terminal.
--duplicate plays each deal once per seat rotation: with n seats, a duplicate set is n games on
the same deal (deck order, industry tokens, asset piles: every random element of the game is dealt
at set-up) with the lineup rotated one seat each game, and each seat's bot seeded alike in every
game of the set, so every agent plays the deal from every seat. --games must then be a multiple
of n. The per-agent table then gives the win % interval over sets: the 95% t interval of the
sets' means (the games of a set share a deal, so they are not independent; the sets are); --json
also gives it without --duplicate, each game a set of one. An exec agent that remembers a game knows the
deal of the rest of its set: a duplicate tournament rates exec agents only when they are trusted
not to carry what they saw from game to game (built-in bots start every game afresh).
--sprt ELO0,ELO1 (with --duplicate) is a sequential probability ratio test of the first agent of
--bots (all its seats) against the field (every other seat, taken as equally strong): an agent d
Elo above the field with k of n seats expects a share k*10^(d/400) / (k*10^(d/400) + n - k) of a
game's win (the rating's model; 2 seats: the chess Elo curve). Each duplicate set is one
observation, the agent's share of the set's wins (a shared win split, a game without a winner
split among all); H0: its mean is that of ELO0, H1: that of ELO1. The log-likelihood ratio is
the generalized one of chess-engine testing (fishtest's GSPRT: the distribution of a set's score
is not assumed, each hypothesis takes the likeliest one with its mean). The tournament stops when
the LLR leaves (ln(beta/(1-alpha)), ln((1-beta)/alpha)), accepting H0 below and H1 above, or at
--games; it prints the LLR, the bounds and the decision. --alpha and --beta (default 0.05) are
the largest chances of accepting H1 when H0 holds and of accepting H0 when H1 holds.";

/// One entry of the lineup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// A built-in bot, by its name in `qe_core::bots::NAMES`.
    Bot(String),
    /// `exec:COMMAND`: the command line, split.
    Exec { spec: String, argv: Vec<String> },
}

impl AgentSpec {
    /// The agent's name as given (`value`, `exec:./my_agent`).
    pub fn label(&self) -> &str {
        match self {
            AgentSpec::Bot(name) => name,
            AgentSpec::Exec { spec, .. } => spec,
        }
    }
}

/// A comma-separated lineup.
#[derive(Clone, Debug)]
pub struct AgentList(pub Vec<AgentSpec>);

/// Parses `--bots`: built-in names and `exec:COMMAND` entries.
fn parse_agent_list(text: &str) -> Result<AgentList, String> {
    let mut out = Vec::new();
    for raw in text.split(',') {
        let name = raw.trim();
        if let Some(command) = name.strip_prefix("exec:") {
            out.push(AgentSpec::Exec {
                spec: name.to_owned(),
                argv: agent::parse_exec(command)?,
            });
        } else if is_name(name) {
            out.push(AgentSpec::Bot(name.to_owned()));
        } else {
            return Err(format!(
                "unknown agent `{name}` (agents: {}, {TIMED_NAME}, or exec:COMMAND)",
                NAMES.join(", ")
            ));
        }
    }
    Ok(AgentList(out))
}

/// Parses `--sprt`: two Elo differences `ELO0,ELO1`, finite, `ELO0 < ELO1`.
fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bad = || {
        format!(
            "--sprt takes two Elo differences ELO0,ELO1 with ELO0 < ELO1 (e.g. --sprt 0,20), got \
             `{text}`"
        )
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let elo = |t: &str| t.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    match (elo(a), elo(b)) {
        (Some(e0), Some(e1)) if e0 < e1 && e0.abs() <= 4000.0 && e1.abs() <= 4000.0 => Ok((e0, e1)),
        _ => Err(bad()),
    }
}

/// Parses `--alpha` and `--beta`: a probability above 0 and below 0.5.
fn parse_error_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        _ => Err(format!(
            "an error rate is a probability above 0 and below 0.5 (e.g. 0.05), got `{text}`"
        )),
    }
}

/// Parses `--games`: a whole number, at least 1.
fn parse_games(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("a tournament needs at least 1 game (e.g. --games 1000)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "`{text}` is not a number of games (e.g. --games 1000)"
        )),
    }
}

/// The longest `--agent-timeout`, in milliseconds: a day.
pub const MAX_AGENT_TIMEOUT_MS: u64 = 86_400_000;

/// Parses `--agent-timeout`: whole milliseconds, 1 to [`MAX_AGENT_TIMEOUT_MS`].
fn parse_agent_timeout(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(ms @ 1..=MAX_AGENT_TIMEOUT_MS) => Ok(ms),
        _ => Err(format!(
            "the time an agent has to answer is a whole number of milliseconds from 1 to \
             {MAX_AGENT_TIMEOUT_MS} (a day), got `{text}`"
        )),
    }
}

/// `qe simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games (at least 1)
    #[arg(long, short = 'n', default_value_t = 1000, value_name = "N", value_parser = parse_games)]
    pub games: u64,
    /// Number of players, 3 to 5 (default: the length of --bots if 3 to 5, else 4)
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=5), value_name = "K")]
    pub players: Option<u8>,
    #[command(flatten)]
    pub expansions: crate::manifest::ExpansionArgs,
    /// The lineup, comma-separated: value, random, miser, search[:easy|:medium|:hard], exec:COMMAND
    #[arg(long, value_parser = parse_agent_list, default_value = "value", value_name = "LIST")]
    pub bots: AgentList,
    /// Tournament seed (default: drawn from the operating system's randomness, printed when the
    /// tournament is over)
    #[arg(long, value_name = "S", value_parser = crate::parse_seed)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024), value_name = "T")]
    pub threads: Option<u64>,
    /// Milliseconds an exec agent has to answer (1 to 86400000, a day), after which its seat is
    /// played by the value bot for the rest of the game
    #[arg(long, default_value_t = 10_000, value_name = "MS", value_parser = parse_agent_timeout)]
    pub agent_timeout: u64,
    /// Duplicate sets: each deal played once per seat rotation (as many games as seats, the
    /// lineup rotated one seat each game); --games must be a multiple of the number of seats
    #[arg(long)]
    pub duplicate: bool,
    /// Sequential test of the first agent of --bots against the field, one observation per
    /// duplicate set: H0 it is ELO0 above the field, H1 ELO1; stops when decided or at --games
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, requires = "duplicate")]
    pub sprt: Option<(f64, f64)>,
    /// The --sprt test's largest chance of accepting H1 when H0 holds (default 0.05)
    #[arg(long, value_name = "P", value_parser = parse_error_rate, requires = "sprt")]
    pub alpha: Option<f64>,
    /// The --sprt test's largest chance of accepting H0 when H1 holds (default 0.05)
    #[arg(long, value_name = "P", value_parser = parse_error_rate, requires = "sprt")]
    pub beta: Option<f64>,
    /// Print the results as JSON
    #[arg(long)]
    pub json: bool,
}

/// The seeds of game (or duplicate set) `index` of a tournament seeded with `seed`: the game's
/// (deck, industry tokens, piles) and each seat's built-in bot's.
///
/// They are the first words of stream `index` of ChaCha20 keyed by the tournament seed: without
/// the seed, neither the game index nor one game's seeds tell anything of another game's, nor a
/// game's seed of its bots' (an agent that sees its game index learns nothing it may not see).
pub fn game_seeds(seed: u64, index: u64) -> (u64, PerSeat<u64>) {
    use rand_core::{RngCore, SeedableRng};
    let mut stream = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    stream.set_stream(index);
    let game = stream.next_u64();
    (
        game,
        PerSeat::new(std::array::from_fn(|_| stream.next_u64())),
    )
}

/// A tournament seed drawn from the operating system's randomness.
fn os_seed() -> Result<u64, Failure> {
    use rand_core::TryRngCore;
    rand_core::OsRng.try_next_u64().map_err(|e| {
        Failure::BadInput(format!(
            "cannot draw a tournament seed from the operating system ({e}): give one with --seed"
        ))
    })
}

/// The unit of an agent's wins: a game won alone is this many; a win shared by `k` seats (2 to 5)
/// is split exactly among them.
const WIN_SHARE: u64 = 60;

/// Sums over games, per agent and per seat (exact integers: merging is order-independent).
#[derive(Clone, Debug, Default)]
struct Stats {
    games: u64,
    no_winner: u64,
    seat_wins: PerSeat<u64>,
    seat_score: PerSeat<u64>,
    /// Per agent: seats played, wins (in [`WIN_SHARE`]s: a win shared by `k` seats is split
    /// among them), score, spent, eliminations.
    played: Vec<u64>,
    wins: Vec<u64>,
    score: Vec<u64>,
    spent: Vec<i128>,
    eliminated: Vec<u64>,
    /// Per agent: decisions and the time they took.
    decisions: Vec<u64>,
    think: Vec<Duration>,
    faults: Vec<Faults>,
    finishes: Finishes,
}

impl Stats {
    fn new(agents: usize) -> Stats {
        Stats {
            played: vec![0; agents],
            wins: vec![0; agents],
            score: vec![0; agents],
            spent: vec![0; agents],
            eliminated: vec![0; agents],
            decisions: vec![0; agents],
            think: vec![Duration::ZERO; agents],
            faults: vec![Faults::default(); agents],
            ..Stats::default()
        }
    }

    fn add(&mut self, outcome: &Outcome, agent: PerSeat<u8>) {
        self.games += 1;
        let winners = outcome.winners().count() as u64;
        if winners == 0 {
            self.no_winner += 1;
        }
        for s in outcome.seats() {
            let seat = Seat(s.seat);
            let a = usize::from(agent[seat]);
            self.seat_wins[seat] += u64::from(s.winner);
            self.seat_score[seat] += u64::from(s.total);
            self.played[a] += 1;
            if s.winner {
                self.wins[a] += WIN_SHARE / winners;
            }
            self.score[a] += u64::from(s.total);
            self.spent[a] += s.spent;
            self.eliminated[a] += u64::from(s.eliminated);
        }
        self.finishes.add(Ranked::of(outcome, agent));
    }

    fn merge(&mut self, other: Stats) {
        self.games += other.games;
        self.no_winner += other.no_winner;
        for (seat, wins) in self.seat_wins.seats_mut() {
            *wins += other.seat_wins[seat];
        }
        for (seat, score) in self.seat_score.seats_mut() {
            *score += other.seat_score[seat];
        }
        for a in 0..self.played.len() {
            self.played[a] += other.played[a];
            self.wins[a] += other.wins[a];
            self.score[a] += other.score[a];
            self.spent[a] += other.spent[a];
            self.eliminated[a] += other.eliminated[a];
            self.decisions[a] += other.decisions[a];
            self.think[a] += other.think[a];
            self.faults[a].merge(&other.faults[a]);
        }
        self.finishes.merge(other.finishes);
    }
}

/// Per agent, sums over sets of the agent's wins (in [`WIN_SHARE`]s) and score in a set, and of
/// their squares: exact integers, so the intervals over sets do not depend on the order the sets
/// were counted in.
#[derive(Clone, Debug, Default)]
pub struct SetSums {
    /// The sets counted.
    pub sets: u64,
    wins: Vec<u128>,
    wins_sq: Vec<u128>,
    score: Vec<u128>,
    score_sq: Vec<u128>,
}

impl SetSums {
    fn new(agents: usize) -> SetSums {
        SetSums {
            sets: 0,
            wins: vec![0; agents],
            wins_sq: vec![0; agents],
            score: vec![0; agents],
            score_sq: vec![0; agents],
        }
    }

    /// Counts the set whose sums are `set`.
    fn add(&mut self, set: &Stats) {
        self.sets += 1;
        for a in 0..self.wins.len() {
            let (w, sc) = (u128::from(set.wins[a]), u128::from(set.score[a]));
            self.wins[a] += w;
            self.wins_sq[a] += w * w;
            self.score[a] += sc;
            self.score_sq[a] += sc * sc;
        }
    }

    /// The 95% t intervals over sets of agent `a`'s win rate and mean score, its seats in a set
    /// `seats` (the same in every set).
    fn intervals(&self, a: usize, seats: u64) -> [Option<(f64, f64)>; 2] {
        let seats = seats as f64;
        [
            arena::mean_interval(
                self.sets,
                self.wins[a],
                self.wins_sq[a],
                seats * WIN_SHARE as f64,
            ),
            arena::mean_interval(self.sets, self.score[a], self.score_sq[a], seats),
        ]
    }
}

/// The tested agent of `--sprt` (agent 0, the first of `--bots`): its seats in a game, and the
/// game's seats.
#[derive(Clone, Copy, Debug)]
struct Tested {
    seats: u64,
    players: u64,
}

/// The sums of the sets played so far, counted in set order, with the test's progress.
struct Ledger {
    total: Stats,
    sums: SetSums,
    sprt: Option<(Sprt, Tested)>,
    /// The next set to count; sets finished before it wait in `pending`.
    next: u64,
    pending: BTreeMap<u64, Stats>,
    /// The test's decision, once made: no set after it is counted.
    decision: Option<Decision>,
    /// The test's LLR after the sets counted.
    llr: f64,
}

impl Ledger {
    /// Takes set `set`'s sums, and counts the sets now next in order: whether the test is decided.
    fn finished(&mut self, set: u64, stats: Stats) -> bool {
        self.pending.insert(set, stats);
        while self.decision.is_none() {
            let Some(stats) = self.pending.remove(&self.next) else {
                break;
            };
            self.count(stats);
            self.next += 1;
        }
        self.decision.is_some()
    }

    /// Counts a set.
    fn count(&mut self, set: Stats) {
        self.sums.add(&set);
        if let Some((sprt, tested)) = &mut self.sprt {
            // A game without a winner is a win shared by every seat.
            let shared = set.no_winner * WIN_SHARE * tested.seats / tested.players;
            sprt.add(set.wins[0] + shared);
            self.llr = sprt.llr();
            self.decision = sprt.decide(self.llr);
        }
        self.total.merge(set);
    }

    /// Counts the sets left waiting after a gap (a set cut short by Ctrl-C), unless a test is
    /// run: it counts sets in order only.
    fn close(&mut self) {
        if self.sprt.is_none() {
            for (_, stats) in std::mem::take(&mut self.pending) {
                self.count(stats);
            }
        }
    }
}

/// The tournament: the lineup, its distinct agents, the rules.
struct Tournament {
    lineup: Vec<AgentSpec>,
    /// The distinct agent (index into `agents`) of each lineup entry.
    agent_of: Vec<u8>,
    agents: Vec<String>,
    rules: Rules,
    manifest: Manifest,
    /// The tournament seed: `--seed`, else drawn from the operating system.
    seed: u64,
    /// The games of a set: the number of seats with `--duplicate` (every game of a set is dealt
    /// alike), else 1.
    set_size: u64,
}

/// A seat's player in one game.
enum Player<'w> {
    Bot(BoxedBot),
    Exec(&'w mut ExecSeat, Box<ValueBot>),
}

impl Tournament {
    /// Plays game `index`; `exec` holds the worker's `exec:` seats by lineup entry.
    /// Plays game `index` and tallies it in `stats`, unless Ctrl-C (or a termination signal)
    /// came while it was played: then its last moves were made by stand-ins (a stopped agent's
    /// fallback), so it is not tallied. Returns whether it was.
    fn play(&self, index: u64, exec: &mut [Option<ExecSeat>], stats: &mut Stats) -> bool {
        let players = self.rules.players() as usize;
        // The games of a duplicate set share their deal and their seats' bot seeds.
        let (seed, bot_seeds) = game_seeds(self.seed, index / self.set_size);
        let mut m = Match::seeded(self.rules, seed);
        // Seat s plays lineup entry (s + index) mod players.
        let entry = |s: usize| (s + (index % players as u64) as usize) % players;
        let mut agent = PerSeat::splat(0u8);
        for (s, a) in agent.in_play_mut(players as u8).iter_mut().enumerate() {
            *a = self.agent_of[entry(s)];
        }
        // The exec seats, borrowed one per seat (each lineup entry is one seat of a game).
        let mut slots: Vec<Option<&mut ExecSeat>> = exec.iter_mut().map(Option::as_mut).collect();
        let mut seats: Vec<Player> = Vec::with_capacity(players);
        for s in 0..players {
            let seat_seed = bot_seeds[Seat(s as u8)];
            seats.push(match &self.lineup[entry(s)] {
                AgentSpec::Bot(name) => {
                    Player::Bot(by_name_with(name, seat_seed, self.manifest).expect("a known bot"))
                }
                AgentSpec::Exec { .. } => {
                    let e = slots[entry(s)].take().expect("an exec seat per entry");
                    e.start(&m, index, Seat(s as u8), &self.manifest);
                    Player::Exec(
                        e,
                        Box::new(ValueBot::with_manifest(seat_seed, self.manifest)),
                    )
                }
            });
        }
        while !m.game().is_over() {
            let seat = m.game().to_act().first().expect("someone must act");
            let started = Instant::now();
            let command = match &mut seats[seat.index()] {
                Player::Bot(bot) => qe_core::bots::decide(&mut **bot, &m, seat, true)
                    .expect("a bot acts when it must"),
                Player::Exec(e, fallback) => e.decide(&m, index, seat, fallback),
            };
            let a = usize::from(agent[seat]);
            stats.decisions[a] += 1;
            stats.think[a] += started.elapsed();
            if let Err(e) = m.play(command) {
                panic!(
                    "agent {} played an illegal command {command:?}: {}: {e}",
                    self.agents[a],
                    e.rule()
                );
            }
        }
        for (s, p) in seats.iter_mut().enumerate() {
            if let Player::Exec(e, _) = p {
                e.end(&m, index, Seat(s as u8));
            }
        }
        if crate::interrupt::requested() {
            return false;
        }
        stats.add(&m.game().outcome().expect("the game is over"), agent);
        true
    }
}

fn ratio(num: f64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        num / den as f64
    }
}

/// How many bootstrap resamples the rating intervals use.
const RESAMPLES: usize = 200;

/// Runs `qe simulate`.
pub fn run(common: &Common, args: &SimulateArgs) -> Result<(), Failure> {
    let names = &args.bots.0;
    let players = args.players.unwrap_or(match names.len() {
        n @ 3..=5 => n as u8,
        _ => 4,
    });
    if names.len() > players as usize {
        return Err(Failure::Usage(format!(
            "--bots lists {} agents for {players} players",
            names.len()
        )));
    }
    let lineup: Vec<AgentSpec> = (0..players as usize)
        .map(|s| names[s % names.len()].clone())
        .collect();
    let mut agents: Vec<String> = Vec::new();
    let mut agent_of = Vec::new();
    for spec in &lineup {
        let label = spec.label().to_owned();
        let i = agents.iter().position(|a| *a == label).unwrap_or_else(|| {
            agents.push(label);
            agents.len() - 1
        });
        agent_of.push(i as u8);
    }
    for spec in &lineup {
        if let AgentSpec::Exec { spec, argv } = spec {
            agent::check_starts(argv)
                .map_err(|e| Failure::BadInput(format!("cannot start agent `{spec}`: {e}")))?;
        }
    }
    let manifest = manifest::load(common)?.map_or_else(Manifest::default, |l| l.manifest);
    let rules = manifest::rules(players, args.expansions.set()?, manifest)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    let set_size = if args.duplicate {
        u64::from(players)
    } else {
        1
    };
    if args.games % set_size != 0 {
        let (down, up) = (
            args.games / set_size * set_size,
            args.games.div_ceil(set_size) * set_size,
        );
        let instead = if down == 0 {
            format!("--games {up}")
        } else {
            format!("--games {down} or {up}")
        };
        return Err(Failure::Usage(format!(
            "--duplicate plays sets of {set_size} games (one per seat rotation of {players} \
             players): --games {} is not a multiple of {set_size}; use {instead}",
            args.games
        )));
    }
    let sets = args.games / set_size;
    let sprt = match args.sprt {
        None => None,
        Some(elos) => {
            let seats = agent_of.iter().filter(|&&a| a == 0).count() as u64;
            if seats == u64::from(players) {
                return Err(Failure::Usage(format!(
                    "--sprt tests the first agent of --bots against the others, but `{}` holds \
                     every seat: list the field after it (e.g. --bots {},value)",
                    agents[0], agents[0]
                )));
            }
            let errors = (args.alpha.unwrap_or(0.05), args.beta.unwrap_or(0.05));
            let tested = Tested {
                seats,
                players: u64::from(players),
            };
            let scale = WIN_SHARE * set_size;
            let test = Sprt::new(elos, errors, (seats as u32, u32::from(players)), scale);
            Some((test, tested))
        }
    };
    let threads = threads.min(sets);
    // Drawn, the seed is told no one until the tournament is over: it decides every game.
    let seed = match args.seed {
        Some(seed) => seed,
        None => os_seed()?,
    };
    let tournament = Tournament {
        lineup,
        agent_of,
        agents: agents.clone(),
        rules,
        manifest,
        seed,
        set_size,
    };
    let timeout = Duration::from_millis(args.agent_timeout);

    let progress = Progress::new(args.games, !args.json);
    crate::interrupt::install(|| {}); // the workers stop starting games
    let started = Instant::now();
    let (ledger, threads) = play_games(&tournament, sets, sprt, threads, timeout, &progress);
    let total = &ledger.total;
    let elapsed = started.elapsed().as_secs_f64();
    let per_s = total.games as f64 / elapsed.max(1e-9);
    let ratings = arena::ratings(&total.finishes, agents.len(), RESAMPLES, seed);
    report(
        args,
        players,
        threads,
        &tournament,
        &ledger,
        &ratings,
        elapsed,
        per_s,
    );
    // After Ctrl-C: the games finished so far were reported; exit 130.
    if crate::interrupt::requested() {
        return Err(Failure::Interrupted(format!(
            "interrupted (Ctrl-C or a termination signal) after {} of {} games",
            total.games, args.games
        )));
    }
    Ok(())
}

/// Plays the `sets` sets of `tournament` (its `set_size` games each) on up to `threads` worker
/// threads (fewer if some cannot be started; none: on this one), each with its own `exec:`
/// processes, until `sprt` (if any) is decided: the sums of the sets counted, and the number of
/// threads used.
fn play_games(
    tournament: &Tournament,
    sets: u64,
    sprt: Option<(Sprt, Tested)>,
    threads: u64,
    timeout: Duration,
    progress: &Progress,
) -> (Ledger, u64) {
    let agents = tournament.agents.len();
    let size = tournament.set_size;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let decided = AtomicBool::new(false);
    let ledger = Mutex::new(Ledger {
        total: Stats::new(agents),
        sums: SetSums::new(agents),
        sprt,
        next: 0,
        pending: BTreeMap::new(),
        decision: None,
        llr: 0.0,
    });
    let lock = || ledger.lock().expect("no worker panicked holding the lock");
    // One worker: its own exec processes, a set at a time, each set's sums handed to the ledger.
    let work = || {
        let mut exec: Vec<Option<ExecSeat>> = tournament
            .lineup
            .iter()
            .map(|spec| match spec {
                AgentSpec::Exec { argv, .. } => Some(ExecSeat::new(argv.clone(), timeout)),
                AgentSpec::Bot(_) => None,
            })
            .collect();
        'sets: loop {
            if decided.load(Ordering::Relaxed) || crate::interrupt::requested() {
                break;
            }
            let set = next.fetch_add(1, Ordering::Relaxed);
            if set >= sets {
                break;
            }
            let mut stats = Stats::new(agents);
            for i in set * size..(set + 1) * size {
                // A set cut short is not counted.
                if crate::interrupt::requested() || !tournament.play(i, &mut exec, &mut stats) {
                    break 'sets;
                }
                done.fetch_add(1, Ordering::Relaxed);
            }
            if lock().finished(set, stats) {
                decided.store(true, Ordering::Relaxed);
            }
        }
        let mut ledger = lock();
        for (k, e) in exec.iter().enumerate() {
            if let Some(e) = e {
                let a = tournament.agent_of[k] as usize;
                ledger.total.faults[a].merge(&e.faults);
            }
        }
    };
    let threads = std::thread::scope(|scope| {
        let workers = start_workers(threads, || {
            #[cfg(test)]
            if tests::WORKERS_THAT_START.with(|n| n.replace(n.get().saturating_sub(1))) == 0 {
                return Err(std::io::Error::other("no thread may be started (a test)"));
            }
            std::thread::Builder::new().spawn_scoped(scope, work)
        });
        if workers.len() < threads as usize {
            eprintln!(
                "qe: only {} of {threads} worker threads could be started",
                workers.len()
            );
        }
        if workers.is_empty() {
            work();
            return 1;
        }
        if progress.is_drawn() {
            // The games done, and the test's LLR as it goes.
            let show = || {
                progress.set(done.load(Ordering::Relaxed));
                let status = {
                    let l = lock();
                    l.sprt.as_ref().map(|(t, _)| (l.llr, t.bounds(), t.sets()))
                };
                if let Some((llr, (lower, upper), sets)) = status {
                    progress.message(format!(
                        " · LLR {llr:.2} ({lower:.2}, {upper:.2}) after {sets} sets"
                    ));
                }
            };
            while workers.iter().any(|w| !w.is_finished()) {
                show();
                std::thread::sleep(Duration::from_millis(100));
            }
            show();
            progress.finish();
        }
        let n = workers.len() as u64;
        for w in workers {
            w.join().expect("a simulation thread panicked");
        }
        n
    });
    let mut ledger = ledger.into_inner().expect("the workers are done");
    ledger.close();
    (ledger, threads)
}

/// Starts up to `n` workers with `spawn`, fewer if one cannot be started (the system is out of
/// threads or memory): the ones started play every game. None started: the caller plays them.
fn start_workers<W>(n: u64, mut spawn: impl FnMut() -> std::io::Result<W>) -> Vec<W> {
    let mut workers = Vec::new();
    for _ in 0..n {
        match spawn() {
            Ok(w) => workers.push(w),
            Err(_) => break,
        }
    }
    workers
}

/// Prints the table or the JSON.
#[allow(clippy::too_many_arguments)]
fn report(
    args: &SimulateArgs,
    players: u8,
    threads: u64,
    t: &Tournament,
    ledger: &Ledger,
    ratings: &arena::Ratings,
    elapsed: f64,
    per_s: f64,
) {
    let total = &ledger.total;
    let g = total.games;
    let pair = |x: Option<(f64, f64)>| x.map(|(lo, hi)| json!([lo, hi]));
    let exec_agent = |a: usize| {
        t.lineup
            .iter()
            .any(|s| s.label() == t.agents[a] && matches!(s, AgentSpec::Exec { .. }))
    };
    let agent_rows: Vec<serde_json::Value> = (0..t.agents.len())
        .map(|a| {
            let n = total.played[a];
            let wins = total.wins[a] as f64 / WIN_SHARE as f64;
            let (lo, hi) = arena::wilson(wins, n as f64);
            let (w, o) = (&ratings.wins, &ratings.order);
            let entries = t.agent_of.iter().filter(|&&e| e as usize == a).count() as u64;
            let [set_wins, set_score] = ledger.sums.intervals(a, entries * t.set_size);
            let mut row = json!({
                "agent": t.agents[a],
                "seats_played": n,
                "wins": wins,
                "win_rate": ratio(wins, n),
                "win_rate_ci95": [lo, hi],
                "rating": w.rating[a],
                "rating_ci95": [w.low[a], w.high[a]],
                "order_rating": o.rating[a],
                "order_rating_ci95": [o.low[a], o.high[a]],
                "win_rate_ci95_over_sets": pair(set_wins),
                "mean_score": ratio(total.score[a] as f64, n),
                "mean_score_ci95_over_sets": pair(set_score),
                "mean_spent": ratio(total.spent[a] as f64, n),
                "elimination_rate": ratio(total.eliminated[a] as f64, n),
            });
            if exec_agent(a) {
                let f = total.faults[a];
                row["illegal_answers"] = json!(f.illegal);
                row["timeouts"] = json!(f.timeouts);
                row["crashes"] = json!(f.crashes);
                row["stale_answers"] = json!(f.stale);
                row["fallback_moves"] = json!(f.fallback_moves);
            }
            row
        })
        .collect();
    let seat_rows: Vec<serde_json::Value> = (0..players)
        .map(|i| {
            let seat = Seat(i);
            json!({
                "seat": i,
                "wins": total.seat_wins[seat],
                "win_rate": ratio(total.seat_wins[seat] as f64, g),
                "mean_score": ratio(total.seat_score[seat] as f64, g),
            })
        })
        .collect();
    let ms_per_decision: Vec<f64> = (0..t.agents.len())
        .map(|a| 1e3 * ratio(total.think[a].as_secs_f64(), total.decisions[a]))
        .collect();
    if args.json {
        let lineup: Vec<&str> = t.lineup.iter().map(AgentSpec::label).collect();
        let decisions: Vec<serde_json::Value> = (0..t.agents.len())
            .map(|a| {
                json!({
                    "agent": t.agents[a],
                    "decisions": total.decisions[a],
                    "ms_per_decision": ms_per_decision[a],
                })
            })
            .collect();
        let out = json!({
            "games": g,
            "players": players,
            "expansions": t.rules.expansions().names().collect::<Vec<_>>(),
            "commodities": t.rules.has_commodities(),
            "seed": t.seed,
            "threads": threads,
            "interrupted": crate::interrupt::requested(),
            "lineup": lineup,
            "seats_rotated": true,
            "duplicate": args.duplicate,
            "set_size": t.set_size,
            "sets": ledger.sums.sets,
            "interval_over_sets_method": "95% t interval of the per-set means (a set: the games \
                 of one deal, one per seat rotation, with --duplicate; else one game); the games \
                 of a set are not independent, the sets are",
            "sprt": sprt_json(ledger, &t.agents[0]),
            "no_winner_rate": ratio(total.no_winner as f64, g),
            "rating_method": format!(
                "who wins: P(a seat wins) = s / sum of s over the game's seats (Plackett-Luce \
                 winner, a shared win split), Elo scale (mean 1500), 95% interval from {} \
                 bootstrap resamples of the games",
                ratings.resamples
            ),
            "order_rating_method": format!(
                "Bradley-Terry on pairwise finishing orders, Elo scale (mean 1500), 95% interval \
                 from {} bootstrap resamples of the games",
                ratings.resamples
            ),
            "agents": agent_rows,
            "seats": seat_rows,
            "timing": {
                "seconds": elapsed,
                "games_per_second": per_s,
                "agents": decisions,
            },
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("JSON"));
        return;
    }
    let width = crate::layout::width();
    let say = |text: &str| println!("{}", crate::layout::fit(text, width));
    let sets = if args.duplicate {
        format!(" · {} duplicate sets", ledger.sums.sets)
    } else {
        String::new()
    };
    say(&format!(
        "qe simulate: {g} games · {players} players{} · {threads} thread{} · seats rotated{sets}",
        manifest::title(t.rules.expansions(), " · base game"),
        if threads == 1 { "" } else { "s" }
    ));
    // With duplicate sets, the win % interval is the one over sets.
    let win_ci = if args.duplicate {
        "win_rate_ci95_over_sets"
    } else {
        "win_rate_ci95"
    };
    let shown = table_names(&t.agents);
    let w = shown.iter().map(String::len).max().unwrap_or(5).max(5);
    println!(
        "{:<w$}  {:>7}  {:>5}  {:>11}  {:>6}  {:>9}  {:>6}  {:>7}  {:>6}  {:>7}",
        "agent",
        "seats",
        "win %",
        "95% CI",
        "rating",
        "95% CI",
        "score",
        "spent",
        "elim %",
        "ms/dec"
    );
    for (a, r) in agent_rows.iter().enumerate() {
        let f = |k: &str| r[k].as_f64().unwrap_or(0.0);
        let pair = |k: &str, i: usize| r[k][i].as_f64().unwrap_or(0.0);
        println!(
            "{:<w$}  {:>7}  {:>5.1}  {:>11}  {:>6.0}  {:>9}  {:>6.2}  {:>7.2}  {:>6.1}  {:>7.3}",
            shown[a],
            total.played[a],
            f("win_rate") * 100.0,
            if r[win_ci].is_null() {
                "—".to_owned()
            } else {
                format!(
                    "{:.1}–{:.1}",
                    pair(win_ci, 0) * 100.0,
                    pair(win_ci, 1) * 100.0
                )
            },
            f("rating"),
            format!(
                "{:.0}–{:.0}",
                pair("rating_ci95", 0),
                pair("rating_ci95", 1)
            ),
            f("mean_score"),
            f("mean_spent"),
            f("elimination_rate") * 100.0,
            ms_per_decision[a],
        );
    }
    for (a, name) in shown.iter().enumerate() {
        if *name != t.agents[a] {
            say(&format!("{name} = {}", t.agents[a]));
        }
    }
    let seats: Vec<String> = seat_rows
        .iter()
        .map(|r| format!("{:.1}", r["win_rate"].as_f64().unwrap_or(0.0) * 100.0))
        .collect();
    say(&format!(
        "win % by seat (all agents): {}",
        seats.join(" · ")
    ));
    for (a, r) in agent_rows.iter().enumerate() {
        if exec_agent(a) {
            say(&format!(
                "{}: {} illegal answers, {} timeouts, {} crashes, {} stale answers; {} value-bot \
                 moves instead",
                shown[a],
                r["illegal_answers"],
                r["timeouts"],
                r["crashes"],
                r["stale_answers"],
                r["fallback_moves"]
            ));
        }
    }
    say(&format!(
        "no winner (all eliminated): {:.1}% of games",
        ratio(total.no_winner as f64, g) * 100.0
    ));
    say("win %: a shared win is split among its winners · score, spent: means per seat");
    if args.duplicate {
        say(&format!(
            "win % 95% CI: t interval of the means of the {} duplicate sets (a set's {} games \
             share a deal, so the sets, not the games, are independent)",
            ledger.sums.sets, t.set_size
        ));
    }
    say(&format!(
        "rating: who wins, P(a seat wins) = s / Σ s over its game's seats (Plackett–Luce), Elo \
         scale with mean 1500, 95% interval from {} bootstrap resamples; --json adds the order \
         rating (Bradley–Terry on pairwise finishing orders)",
        ratings.resamples
    ));
    for line in sprt_lines(ledger, &t.agents[0]) {
        say(&line);
    }
    say(&format!("{g} games in {elapsed:.2} s: {per_s:.0} games/s"));
    say(&format!(
        "seed {} (--seed {} plays this tournament again)",
        t.seed, t.seed
    ));
}

/// The `sprt` object of `--json`: the test, its LLR and bounds, the decision; null without
/// `--sprt`.
fn sprt_json(ledger: &Ledger, agent: &str) -> serde_json::Value {
    let Some((test, tested)) = &ledger.sprt else {
        return serde_json::Value::Null;
    };
    let (lower, upper) = test.bounds();
    let (s0, s1) = test.expected();
    let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    json!({
        "agent": agent,
        "agent_seats": tested.seats,
        "elo0": test.elo0,
        "elo1": test.elo1,
        "alpha": test.alpha,
        "beta": test.beta,
        "expected_score0": s0,
        "expected_score1": s1,
        "sets": test.sets(),
        "score": test.mean(),
        "elo": finite(test.elo_estimate()),
        "llr": ledger.llr,
        "lower_bound": lower,
        "upper_bound": upper,
        "decision": match ledger.decision {
            Some(Decision::H0) => json!("H0"),
            Some(Decision::H1) => json!("H1"),
            None => json!(null),
        },
        "method": "the first agent of --bots against the field, one observation per duplicate \
                   set (its share of the set's wins); H0/H1: expected share \
                   k*10^(elo/400) / (k*10^(elo/400) + n - k) at elo0/elo1; generalized \
                   log-likelihood ratio (GSPRT), Wald bounds",
    })
}

/// The `--sprt` lines of the table, if there is a test.
fn sprt_lines(ledger: &Ledger, agent: &str) -> Vec<String> {
    let Some((test, tested)) = &ledger.sprt else {
        return Vec::new();
    };
    let (lower, upper) = test.bounds();
    let (s0, s1) = test.expected();
    let outcome = match ledger.decision {
        Some(Decision::H0) => "H0 accepted",
        Some(Decision::H1) => "H1 accepted",
        None => "undecided at --games",
    };
    let elo = test.elo_estimate();
    let elo = if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    };
    vec![
        format!(
            "SPRT: {agent} ({} seat{} a game) against the field · H0 elo {} (win share {:.4}) · \
             H1 elo {} (win share {:.4}) · alpha {} · beta {}",
            tested.seats,
            if tested.seats == 1 { "" } else { "s" },
            test.elo0,
            s0,
            test.elo1,
            s1,
            test.alpha,
            test.beta,
        ),
        format!(
            "SPRT: LLR {:.3} (bounds {:.3} and {:.3}) after {} sets: {outcome} · win share {:.4}, \
             elo {elo} against the field",
            ledger.llr,
            lower,
            upper,
            test.sets(),
            test.mean(),
        ),
    ]
}

/// The longest agent name shown in the table: longer ones are shown as `exec#1`, `exec#2`, ...
/// (or `agent#N`), named in full below the table and in `--json`, so that the table fits 100
/// columns.
const TABLE_NAME: usize = 18;

/// The agents' names as the table shows them.
fn table_names(agents: &[String]) -> Vec<String> {
    let mut k = 0;
    agents
        .iter()
        .map(|name| {
            if name.chars().count() <= TABLE_NAME {
                name.clone()
            } else {
                k += 1;
                let kind = if name.starts_with("exec:") {
                    "exec"
                } else {
                    "agent"
                };
                format!("{kind}#{k}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    thread_local! {
        /// How many more worker threads `play_games` may start (the test's own thread).
        pub static WORKERS_THAT_START: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
    }

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: SimulateArgs,
    }

    /// A tournament of `games` games of value, random and miser bots, seeded.
    fn tournament(games: u64) -> (Tournament, SimulateArgs) {
        let games = games.to_string();
        let cli = Cli::try_parse_from([
            "simulate",
            "--games",
            &games,
            "--bots",
            "value,random,miser",
        ])
        .unwrap();
        let rules = Rules::base(3).unwrap();
        let lineup = cli.args.bots.0.clone();
        let t = Tournament {
            agents: lineup.iter().map(|a| a.label().to_owned()).collect(),
            agent_of: vec![0, 1, 2],
            lineup,
            rules,
            manifest: Manifest::default(),
            seed: 9,
            set_size: 1,
        };
        (t, cli.args)
    }

    #[test]
    fn workers_that_cannot_be_started_leave_the_games_to_the_others() {
        let (t, _) = tournament(20);
        let timeout = Duration::from_secs(60);
        let (all, used) = play_games(&t, 20, None, 4, timeout, &Progress::new(20, false));
        let all = all.total;
        assert_eq!((all.games, used), (20, 4));
        for (start, want) in [(2, 2), (0, 1)] {
            WORKERS_THAT_START.with(|n| n.set(start));
            let (some, used) = play_games(&t, 20, None, 4, timeout, &Progress::new(20, false));
            let some = some.total;
            WORKERS_THAT_START.with(|n| n.set(u64::MAX));
            assert_eq!(used, want, "{start} threads start");
            assert_eq!(some.games, 20);
            assert_eq!(some.wins, all.wins);
            assert_eq!(some.finishes, all.finishes);
        }
    }

    /// A ledger of two agents with a test of agent 0 (one seat of two) at 0 against 200 Elo, and a
    /// set of one game won by agent 0 (`won`) or agent 1.
    fn ledger(test: bool) -> Ledger {
        let sprt = Sprt::new((0.0, 200.0), (0.05, 0.05), (1, 2), WIN_SHARE);
        Ledger {
            total: Stats::new(2),
            sums: SetSums::new(2),
            sprt: test.then_some((
                sprt,
                Tested {
                    seats: 1,
                    players: 2,
                },
            )),
            next: 0,
            pending: BTreeMap::new(),
            decision: None,
            llr: 0.0,
        }
    }

    fn set(won: bool) -> Stats {
        let mut s = Stats::new(2);
        s.games = 1;
        s.played = vec![1, 1];
        s.wins = if won {
            vec![WIN_SHARE, 0]
        } else {
            vec![0, WIN_SHARE]
        };
        s
    }

    /// The sets are counted in set order, whatever order they finish in, and none after the one
    /// that decides the test: the same decision at the same set.
    #[test]
    fn the_ledger_counts_sets_in_order_and_stops_at_the_decision() {
        // Agent 0 wins every set but one in ten: H1 (a share of 0.76) is accepted after some sets.
        let won = |k: u64| k % 10 != 3;
        let mut in_order = ledger(true);
        let mut decided_at = None;
        for k in 0..200 {
            if in_order.finished(k, set(won(k))) {
                decided_at = Some(k);
                break;
            }
        }
        let decided_at = decided_at.expect("decided within 200 sets");
        assert_eq!(in_order.decision, Some(Decision::H1));
        // The same sets, finished in another order (pairs swapped) and a few beyond the decision.
        let mut shuffled = ledger(true);
        let mut order: Vec<u64> = (0..decided_at + 6).collect();
        for pair in order.chunks_mut(2) {
            pair.reverse();
        }
        for &k in &order {
            shuffled.finished(k, set(won(k)));
        }
        shuffled.close();
        assert_eq!(shuffled.decision, Some(Decision::H1));
        assert_eq!(shuffled.sums.sets, decided_at + 1);
        assert_eq!(shuffled.total.games, decided_at + 1);
        assert_eq!(shuffled.total.wins, in_order.total.wins);
        assert!((shuffled.llr - in_order.llr).abs() < 1e-12);
        // Without a test, a set after a gap (one cut short) is counted at the close.
        let mut plain = ledger(false);
        for k in [0, 1, 3] {
            assert!(!plain.finished(k, set(true)));
        }
        assert_eq!(plain.sums.sets, 2);
        plain.close();
        assert_eq!((plain.sums.sets, plain.total.games), (3, 3));
        // With one, it is not: the test counts sets in order only.
        let mut tested = ledger(true);
        for k in [0, 1, 3] {
            tested.finished(k, set(true));
        }
        tested.close();
        assert_eq!(tested.sums.sets, 2);
    }

    #[test]
    fn start_workers_stops_at_the_first_that_fails() {
        let mut k = 0;
        let got = start_workers(5, || {
            k += 1;
            if k == 3 {
                Err(std::io::Error::other("out of threads"))
            } else {
                Ok(k)
            }
        });
        assert_eq!(got, vec![1, 2]);
        assert!(start_workers(3, || Err::<u8, _>(std::io::Error::other("none"))).is_empty());
    }
}
