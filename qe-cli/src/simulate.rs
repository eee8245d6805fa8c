//! `qe simulate`: a tournament (arena) between agents — built-in bots and `exec:` programs that
//! speak `qe-agent/1` — over many seeded games, on every core.
//!
//! Game `i` is seeded from `(seed, i)`, its seats rotated by `i` (seat `s` plays the lineup's entry
//! `(s + i) mod players`, so no agent keeps a seat), and each built-in bot seeded from `(game seed,
//! seat)`. The statistics are integer sums and the ratings are fitted from the games in index
//! order, so with built-in bots the result is the same for a given seed whatever the thread count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;
use qe_core::bots::{by_name_with, BoxedBot, ValueBot, NAMES};
use qe_core::{mix_seed, Manifest, Match, Outcome, Rules, Seat, MAX_SEATS};
use serde_json::json;

use crate::agent::{self, ExecSeat, Faults};
use crate::arena::{self, Finishes, Ranked};
use crate::progress::Progress;
use crate::{manifest, Common, Failure};

/// Extra `--help` text.
pub const HELP: &str = "\
Agents: the built-in bots value (bids a tile's marginal VP for its seat, scaled by the prices it
has seen), random (uniform over a small bid ladder), miser (bids zero or the minimum), search
(= search:medium), search:easy, search:medium, search:hard (Monte Carlo search over sampled games),
and exec:COMMAND, a program in any language speaking the line-based JSON protocol qe-agent/1
(spec/AGENT-PROTOCOL.md; COMMAND is split on spaces, e.g. `exec:python3 agent.py`, so quote the
list for the shell: --bots 'value,exec:python3 agent.py').
--bots lists the lineup, one agent per seat; a shorter list repeats (`--bots value` puts value bots at
every seat). Without --players, a list of 3 to 5 entries sets the player count, else 4. Seats rotate
from game to game: in game i seat s plays entry (s + i) mod players, so no agent keeps a seat.
Each game is seeded from (--seed, game index), so with built-in bots the same seed gives the same
result whatever the thread count. Per agent: win rate with its 95% interval (Wilson; a shared win
counts as a win for each winner), a rating with its 95% interval (Bradley-Terry on every pair of
seats of every game, ranked by the final order: not eliminated first, then total, then least spent;
Elo scale, mean 1500; interval from 200 bootstrap resamples of the games, seeded by --seed), mean
score, mean spent, elimination rate and time per decision; for exec agents also their illegal
answers, timeouts and crashes, each answered by a value-bot move. A progress bar is drawn on stderr
while it runs, when stderr is a terminal.";

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
        } else if NAMES.contains(&name) {
            out.push(AgentSpec::Bot(name.to_owned()));
        } else {
            return Err(format!(
                "unknown agent `{name}` (agents: {}, or exec:COMMAND)",
                NAMES.join(", ")
            ));
        }
    }
    Ok(AgentList(out))
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
    /// Tournament seed
    #[arg(long, default_value_t = 0, value_name = "S", value_parser = crate::parse_seed)]
    pub seed: u64,
    /// Worker threads (default: all cores)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024), value_name = "T")]
    pub threads: Option<u64>,
    /// Milliseconds an exec agent has to answer, after which its seat is played by the value bot
    /// for the rest of the game
    #[arg(long, default_value_t = 10_000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub agent_timeout: u64,
    /// Print the results as JSON
    #[arg(long)]
    pub json: bool,
}

/// The seed of game `index` of a tournament seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix_seed(seed ^ mix_seed(index))
}

/// The seed of the bot at `seat` in a game seeded with `game_seed`.
pub fn bot_seed(game_seed: u64, seat: u8) -> u64 {
    mix_seed(game_seed.wrapping_add(u64::from(seat) + 1).rotate_left(17))
}

/// Sums over games, per agent and per seat (exact integers: merging is order-independent).
#[derive(Clone, Debug, Default)]
struct Stats {
    games: u64,
    no_winner: u64,
    seat_wins: [u64; MAX_SEATS],
    seat_score: [u64; MAX_SEATS],
    /// Per agent: seats played, wins, score, spent, eliminations.
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

    fn add(&mut self, outcome: &Outcome, agent: [u8; MAX_SEATS]) {
        self.games += 1;
        if outcome.winners().next().is_none() {
            self.no_winner += 1;
        }
        for s in outcome.seats() {
            let i = s.seat as usize;
            let a = agent[i] as usize;
            self.seat_wins[i] += u64::from(s.winner);
            self.seat_score[i] += u64::from(s.total);
            self.played[a] += 1;
            self.wins[a] += u64::from(s.winner);
            self.score[a] += u64::from(s.total);
            self.spent[a] += s.spent;
            self.eliminated[a] += u64::from(s.eliminated);
        }
        self.finishes.add(Ranked::of(outcome, agent));
    }

    fn merge(&mut self, other: Stats) {
        self.games += other.games;
        self.no_winner += other.no_winner;
        for i in 0..MAX_SEATS {
            self.seat_wins[i] += other.seat_wins[i];
            self.seat_score[i] += other.seat_score[i];
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

/// The tournament: the lineup, its distinct agents, the rules.
struct Tournament<'a> {
    lineup: Vec<AgentSpec>,
    /// The distinct agent (index into `agents`) of each lineup entry.
    agent_of: Vec<u8>,
    agents: Vec<String>,
    rules: Rules,
    manifest: Manifest,
    args: &'a SimulateArgs,
}

/// A seat's player in one game.
enum Player<'w> {
    Bot(BoxedBot),
    Exec(&'w mut ExecSeat, Box<ValueBot>),
}

impl Tournament<'_> {
    /// Plays game `index`; `exec` holds the worker's `exec:` seats by lineup entry.
    /// Plays game `index` and tallies it in `stats`, unless Ctrl-C (or a termination signal)
    /// came while it was played: then its last moves were made by stand-ins (a stopped agent's
    /// fallback), so it is not tallied. Returns whether it was.
    fn play(&self, index: u64, exec: &mut [Option<ExecSeat>], stats: &mut Stats) -> bool {
        let players = self.rules.players() as usize;
        let seed = game_seed(self.args.seed, index);
        let mut m = Match::seeded(self.rules, seed);
        // Seat s plays lineup entry (s + index) mod players.
        let entry = |s: usize| (s + (index % players as u64) as usize) % players;
        let mut agent = [0u8; MAX_SEATS];
        for (s, a) in agent.iter_mut().enumerate().take(players) {
            *a = self.agent_of[entry(s)];
        }
        // The exec seats, borrowed one per seat (each lineup entry is one seat of a game).
        let mut slots: Vec<Option<&mut ExecSeat>> = exec.iter_mut().map(Option::as_mut).collect();
        let mut seats: Vec<Player> = Vec::with_capacity(players);
        for s in 0..players {
            let seat_seed = bot_seed(seed, s as u8);
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
            let a = agent[seat.index()] as usize;
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
    let threads = threads.min(args.games);
    let tournament = Tournament {
        lineup,
        agent_of,
        agents: agents.clone(),
        rules,
        manifest,
        args,
    };
    let timeout = Duration::from_millis(args.agent_timeout);

    const CHUNK: u64 = 8;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let progress = Progress::new(args.games, !args.json);
    crate::interrupt::install(|| {}); // the workers stop starting games
    let started = Instant::now();
    let total = Mutex::new(Stats::new(agents.len()));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut stats = Stats::new(agents.len());
                    let mut exec: Vec<Option<ExecSeat>> = tournament
                        .lineup
                        .iter()
                        .map(|spec| match spec {
                            AgentSpec::Exec { argv, .. } => {
                                Some(ExecSeat::new(argv.clone(), timeout))
                            }
                            AgentSpec::Bot(_) => None,
                        })
                        .collect();
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= args.games || crate::interrupt::requested() {
                            break;
                        }
                        let end = (start + CHUNK).min(args.games);
                        for i in start..end {
                            if crate::interrupt::requested() {
                                break;
                            }
                            if tournament.play(i, &mut exec, &mut stats) {
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                    for (k, e) in exec.iter().enumerate() {
                        if let Some(e) = e {
                            let a = tournament.agent_of[k] as usize;
                            stats.faults[a].merge(&e.faults);
                        }
                    }
                    total
                        .lock()
                        .expect("no worker panicked holding the lock")
                        .merge(stats);
                })
            })
            .collect();
        if progress.is_drawn() {
            while workers.iter().any(|w| !w.is_finished()) {
                progress.set(done.load(Ordering::Relaxed));
                std::thread::sleep(Duration::from_millis(100));
            }
            progress.set(done.load(Ordering::Relaxed));
            progress.finish();
        }
        for w in workers {
            w.join().expect("a simulation thread panicked");
        }
    });
    let total = total.into_inner().expect("the workers are done");
    let elapsed = started.elapsed().as_secs_f64();
    let per_s = total.games as f64 / elapsed.max(1e-9);
    let ratings = arena::ratings(&total.finishes, agents.len(), RESAMPLES, args.seed);
    report(
        args,
        players,
        threads,
        &tournament,
        &total,
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

/// Prints the table or the JSON.
#[allow(clippy::too_many_arguments)]
fn report(
    args: &SimulateArgs,
    players: u8,
    threads: u64,
    t: &Tournament,
    total: &Stats,
    ratings: &arena::Ratings,
    elapsed: f64,
    per_s: f64,
) {
    let g = total.games;
    let exec_agent = |a: usize| {
        t.lineup
            .iter()
            .any(|s| s.label() == t.agents[a] && matches!(s, AgentSpec::Exec { .. }))
    };
    let agent_rows: Vec<serde_json::Value> = (0..t.agents.len())
        .map(|a| {
            let n = total.played[a];
            let (lo, hi) = arena::wilson(total.wins[a] as f64, n as f64);
            let mut row = json!({
                "agent": t.agents[a],
                "seats_played": n,
                "wins": total.wins[a],
                "win_rate": ratio(total.wins[a] as f64, n),
                "win_rate_ci95": [lo, hi],
                "rating": ratings.rating[a],
                "rating_ci95": [ratings.low[a], ratings.high[a]],
                "mean_score": ratio(total.score[a] as f64, n),
                "mean_spent": ratio(total.spent[a] as f64, n),
                "elimination_rate": ratio(total.eliminated[a] as f64, n),
            });
            if exec_agent(a) {
                let f = total.faults[a];
                row["illegal_answers"] = json!(f.illegal);
                row["timeouts"] = json!(f.timeouts);
                row["crashes"] = json!(f.crashes);
                row["fallback_moves"] = json!(f.fallback_moves);
            }
            row
        })
        .collect();
    let seat_rows: Vec<serde_json::Value> = (0..players as usize)
        .map(|i| {
            json!({
                "seat": i,
                "wins": total.seat_wins[i],
                "win_rate": ratio(total.seat_wins[i] as f64, g),
                "mean_score": ratio(total.seat_score[i] as f64, g),
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
            "seed": args.seed,
            "threads": threads,
            "interrupted": crate::interrupt::requested(),
            "lineup": lineup,
            "seats_rotated": true,
            "no_winner_rate": ratio(total.no_winner as f64, g),
            "rating_method": format!(
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
    println!(
        "qe simulate: {g} games · {players} players{} · seed {} · {threads} thread{} · seats rotated",
        manifest::title(t.rules.expansions(), " · base game"),
        args.seed,
        if threads == 1 { "" } else { "s" }
    );
    let width = t.agents.iter().map(String::len).max().unwrap_or(5).max(5);
    println!(
        "{:<width$}  {:>7}  {:>6}  {:>13}  {:>6}  {:>11}  {:>10}  {:>10}  {:>6}  {:>8}",
        "agent",
        "seats",
        "win %",
        "95% CI",
        "rating",
        "95% CI",
        "mean score",
        "mean spent",
        "elim %",
        "ms/dec"
    );
    for (a, r) in agent_rows.iter().enumerate() {
        let f = |k: &str| r[k].as_f64().unwrap_or(0.0);
        let ci = &r["win_rate_ci95"];
        let rc = &r["rating_ci95"];
        println!(
            "{:<width$}  {:>7}  {:>6.1}  {:>13}  {:>6.0}  {:>11}  {:>10.2}  {:>10.2}  {:>6.1}  {:>8.3}",
            t.agents[a],
            total.played[a],
            f("win_rate") * 100.0,
            format!(
                "{:.1}–{:.1}",
                ci[0].as_f64().unwrap_or(0.0) * 100.0,
                ci[1].as_f64().unwrap_or(0.0) * 100.0
            ),
            f("rating"),
            format!(
                "{:.0}–{:.0}",
                rc[0].as_f64().unwrap_or(0.0),
                rc[1].as_f64().unwrap_or(0.0)
            ),
            f("mean_score"),
            f("mean_spent"),
            f("elimination_rate") * 100.0,
            ms_per_decision[a],
        );
    }
    let seats: Vec<String> = seat_rows
        .iter()
        .map(|r| format!("{:.1}", r["win_rate"].as_f64().unwrap_or(0.0) * 100.0))
        .collect();
    println!("win % by seat (all agents): {}", seats.join(" · "));
    for (a, r) in agent_rows.iter().enumerate() {
        if exec_agent(a) {
            println!(
                "{}: {} illegal answers, {} timeouts, {} crashes; {} moves by the value bot instead",
                t.agents[a],
                r["illegal_answers"],
                r["timeouts"],
                r["crashes"],
                r["fallback_moves"]
            );
        }
    }
    println!(
        "no winner (all eliminated): {:.1}% of games",
        ratio(total.no_winner as f64, g) * 100.0
    );
    let about = format!(
        "ratings: Bradley-Terry on pairwise finishing orders, Elo scale (mean 1500), 95% interval \
         from {} bootstrap resamples",
        ratings.resamples
    );
    println!("{}", crate::layout::fit(&about, crate::layout::width()));
    println!("{g} games in {elapsed:.2} s: {per_s:.0} games/s");
}
