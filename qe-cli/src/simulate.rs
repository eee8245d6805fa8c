//! `qe simulate`: a bot tournament over many seeded games, on every core.
//!
//! Game `i` is seeded from `(seed, i)` and each bot from `(game seed, seat)`; the statistics are
//! integer sums, so the result is the same for a given seed whatever the thread count and order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use qe_core::bots::{by_name_with, BoxedBot};
use qe_core::{Game, Manifest, Outcome, Rules, MAX_SEATS};
use serde_json::json;

use crate::progress::Progress;
use crate::{manifest, Common, Failure};

/// Extra `--help` text.
pub const HELP: &str = "\
Bots: value (bids a tile's marginal VP for its seat, scaled by the prices it has seen), random
(uniform over a small bid ladder), miser (bids zero or the minimum). --bots lists one bot per seat;
a shorter list repeats (`--bots value` puts value bots at every seat). Without --players, a list of
3 to 5 names sets the player count, else 4.
Each game is seeded from (--seed, game index), so the same seed gives the same result whatever the
thread count. A shared win counts as a win for each winner. A progress bar is drawn on stderr
while it runs, when stderr is a terminal.";

/// A comma-separated list of bot names.
#[derive(Clone, Debug)]
pub struct BotList(pub Vec<String>);

fn parse_bot_list(text: &str) -> Result<BotList, String> {
    crate::parse_bots(text).map(BotList)
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
    /// Bots by seat, comma-separated: value, random, miser
    #[arg(long, value_parser = parse_bot_list, default_value = "value", value_name = "LIST")]
    pub bots: BotList,
    /// Tournament seed
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Worker threads (default: all cores)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024), value_name = "T")]
    pub threads: Option<u64>,
    /// Print the results as JSON
    #[arg(long)]
    pub json: bool,
}

/// SplitMix64: a strong, portable mixer for deriving seeds.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a tournament seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}

/// The seed of the bot at `seat` in a game seeded with `game_seed`.
pub fn bot_seed(game_seed: u64, seat: u8) -> u64 {
    mix(game_seed.wrapping_add(u64::from(seat) + 1).rotate_left(17))
}

/// Sums over games, per seat (exact integers: merging is order-independent).
#[derive(Clone, Copy, Debug, Default)]
struct Stats {
    games: u64,
    no_winner: u64,
    wins: [u64; MAX_SEATS],
    score: [u64; MAX_SEATS],
    spent: [i128; MAX_SEATS],
    eliminated: [u64; MAX_SEATS],
}

impl Stats {
    fn add(&mut self, outcome: &Outcome) {
        self.games += 1;
        if outcome.winners().next().is_none() {
            self.no_winner += 1;
        }
        for s in outcome.seats() {
            let i = s.seat as usize;
            self.wins[i] += u64::from(s.winner);
            self.score[i] += u64::from(s.total);
            self.spent[i] += s.spent;
            self.eliminated[i] += u64::from(s.eliminated);
        }
    }

    fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.no_winner += other.no_winner;
        for i in 0..MAX_SEATS {
            self.wins[i] += other.wins[i];
            self.score[i] += other.score[i];
            self.spent[i] += other.spent[i];
            self.eliminated[i] += other.eliminated[i];
        }
    }
}

/// Plays one game between the named bots; returns its outcome.
pub fn play_game(rules: &Rules, names: &[String], manifest: Manifest, seed: u64) -> Outcome {
    let mut game = Game::seeded(*rules, seed);
    let mut bots: Vec<BoxedBot> = names
        .iter()
        .enumerate()
        .map(|(s, n)| by_name_with(n, bot_seed(seed, s as u8), manifest).expect("known bot"))
        .collect();
    while !game.is_over() {
        let seat = game.to_act().first().expect("someone must act");
        let view = game.view(seat);
        let command = bots[seat.index()]
            .act(&view)
            .expect("a bot acts when it must");
        if let Err(e) = game.play(command) {
            panic!(
                "bot {} played an illegal command {command:?}: {}: {e}",
                names[seat.index()],
                e.rule()
            );
        }
    }
    game.outcome().expect("the game is over")
}

fn ratio(num: f64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        #[allow(clippy::cast_precision_loss)]
        let d = den as f64;
        num / d
    }
}

/// Runs `qe simulate`.
#[allow(clippy::cast_precision_loss)]
pub fn run(common: &Common, args: &SimulateArgs) -> Result<(), Failure> {
    let names = &args.bots.0;
    let players = args.players.unwrap_or(match names.len() {
        n @ 3..=5 => n as u8,
        _ => 4,
    });
    if names.len() > players as usize {
        return Err(Failure::Usage(format!(
            "--bots lists {} bots for {players} players",
            names.len()
        )));
    }
    let seat_bots: Vec<String> = (0..players as usize)
        .map(|s| names[s % names.len()].clone())
        .collect();
    let manifest = manifest::load(common)?.map_or_else(Manifest::default, |l| l.manifest);
    let rules = manifest::rules(players, args.expansions.set(), manifest)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    let threads = threads.min(args.games.max(1));

    const CHUNK: u64 = 32;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let progress = Progress::new(args.games, !args.json);
    crate::interrupt::install(|| {}); // the workers stop starting games
    let started = Instant::now();
    let total = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut stats = Stats::default();
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
                            let outcome =
                                play_game(&rules, &seat_bots, manifest, game_seed(args.seed, i));
                            stats.add(&outcome);
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    stats
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
        let mut total = Stats::default();
        for w in workers {
            total.merge(&w.join().expect("a simulation thread panicked"));
        }
        total
    });
    let elapsed = started.elapsed().as_secs_f64();
    let per_s = total.games as f64 / elapsed.max(1e-9);
    // After Ctrl-C: the games finished so far, then exit 130.
    let end = || {
        if crate::interrupt::requested() {
            return Err(Failure::Interrupted(format!(
                "interrupted (Ctrl-C) after {} of {} games",
                total.games, args.games
            )));
        }
        Ok(())
    };

    // Per seat, and per bot name (seats pooled).
    let g = total.games;
    let seat_rows: Vec<serde_json::Value> = (0..players as usize)
        .map(|i| {
            json!({
                "seat": i,
                "bot": seat_bots[i],
                "wins": total.wins[i],
                "win_rate": ratio(total.wins[i] as f64, g),
                "mean_score": ratio(total.score[i] as f64, g),
                "mean_spent": ratio(total.spent[i] as f64, g),
                "elimination_rate": ratio(total.eliminated[i] as f64, g),
            })
        })
        .collect();
    let mut bot_names: Vec<&String> = seat_bots.iter().collect();
    bot_names.sort();
    bot_names.dedup();
    let bot_rows: Vec<serde_json::Value> = bot_names
        .iter()
        .map(|name| {
            let seats: Vec<usize> = (0..players as usize)
                .filter(|&i| &seat_bots[i] == *name)
                .collect();
            let n = g * seats.len() as u64;
            let sum = |f: &dyn Fn(usize) -> f64| seats.iter().map(|&i| f(i)).sum::<f64>();
            json!({
                "bot": name,
                "seats": seats,
                "win_rate": ratio(sum(&|i| total.wins[i] as f64), n),
                "mean_score": ratio(sum(&|i| total.score[i] as f64), n),
                "mean_spent": ratio(sum(&|i| total.spent[i] as f64), n),
                "elimination_rate": ratio(sum(&|i| total.eliminated[i] as f64), n),
            })
        })
        .collect();

    if args.json {
        let out = json!({
            "games": g,
            "players": players,
            "expansions": rules.expansions().names().collect::<Vec<_>>(),
            "commodities": rules.has_commodities(),
            "seed": args.seed,
            "threads": threads,
            "interrupted": crate::interrupt::requested(),
            "no_winner_rate": ratio(total.no_winner as f64, g),
            "seats": seat_rows,
            "bots": bot_rows,
            "timing": { "seconds": elapsed, "games_per_second": per_s },
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("JSON"));
        return end();
    }
    println!(
        "qe simulate: {g} games · {players} players{} · seed {} · {threads} thread{}",
        manifest::title(rules.expansions(), " · base game"),
        args.seed,
        if threads == 1 { "" } else { "s" }
    );
    let row = |label: &str, r: &serde_json::Value| {
        println!(
            "{label:<14} {:>7.1} {:>11.2} {:>11.2} {:>7.1}",
            r["win_rate"].as_f64().unwrap_or(0.0) * 100.0,
            r["mean_score"].as_f64().unwrap_or(0.0),
            r["mean_spent"].as_f64().unwrap_or(0.0),
            r["elimination_rate"].as_f64().unwrap_or(0.0) * 100.0
        );
    };
    println!("seat  bot         win %  mean score  mean spent  elim %");
    for (i, r) in seat_rows.iter().enumerate() {
        row(&format!("{i:>4}  {}", seat_bots[i]), r);
    }
    println!("by bot (seats pooled):");
    for r in &bot_rows {
        row(&format!("      {}", r["bot"].as_str().unwrap_or("?")), r);
    }
    println!(
        "no winner (all eliminated): {:.1}% of games",
        ratio(total.no_winner as f64, g) * 100.0
    );
    println!("{g} games in {elapsed:.2} s: {per_s:.0} games/s");
    end()
}
