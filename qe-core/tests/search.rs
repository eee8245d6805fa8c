//! The search bot (`qe_core::bots::SearchBot`): no cheating, legal play, determinism.
//!
//! - No cheat (R-VIS-8): for every preset, in twin games that differ only in what its seat may not
//!   see (the construction of the no-leak test, `common/twins.rs`), the bot makes exactly the same
//!   decisions, with its state carried from decision to decision.
//!   The options alike: mixed bids, sharp rivals, rival search, several playouts a world, and the timed bot
//!   of `search:ms=MS` (its clock simulated, so that it is reproducible).
//! - It plays only legal commands, in every configuration (3, 4, 5 players, with and without
//!   Commodities), and is deterministic for a seed.

mod common;

use common::twins::{random_command_of, rules_of, twin_commands, twin_setup, Rng};
use qe_core::bots::{by_name, Level, SearchBot, SearchConfig, NAMES};
use qe_core::{Command, Manifest, Match, Seat, Setup};

/// Plays game A (seat `s` by the search bot `make(seed)`, named `level` in messages; the others at
/// random, as the no-leak test plays), builds its twin B, and checks that a second bot with the
/// same seed, fed B's views, decides exactly what the first decided in A. Returns the number of
/// decisions compared.
fn twin_check_with(
    level: &str,
    make: impl Fn(u64) -> SearchBot,
    players: u8,
    commodities: bool,
    seed: u64,
    cut: usize,
) -> usize {
    let rules = rules_of(players, commodities);
    let s = Seat((seed % u64::from(players)) as u8);
    let mut a = Match::seeded(rules, seed);
    let mut bot_a = make(seed ^ 0xB07);
    let mut rng = Rng(seed.wrapping_mul(31));
    // Which commands of A were the bot's.
    let mut by_bot = Vec::new();
    while !a.game().is_over() && a.commands().len() < cut {
        let acting = a.game().to_act();
        let seat = acting
            .iter()
            .nth(rng.below(acting.len() as u64) as usize)
            .unwrap();
        let c = if seat == s {
            bot_a
                .decide(&a.view(Some(s)))
                .expect("the bot acts when it must")
        } else {
            random_command_of(a.game(), seat, &mut rng, s)
        };
        by_bot.push(c.seat() == Some(s));
        a.apply(c)
            .unwrap_or_else(|e| panic!("{level} played an illegal {c:?}: {e}"));
    }
    let setup_b = twin_setup(&a, rules, seed, s, seed ^ 0x5EED);
    let commands_b = twin_commands(&a, rules, seed, s);
    // The twin is another game: what `s` may not see differs.
    assert!(
        setup_b != Setup::seeded(&rules, seed) || commands_b.as_slice() != a.commands(),
        "seed {seed}: the twin game is the same game"
    );
    let mut b = Match::with_setup(rules, setup_b).unwrap();
    let mut replay = Match::seeded(rules, seed);
    let mut bot_b = make(seed ^ 0xB07);
    let mut compared = 0;
    for (i, (&ca, &cb)) in a.commands().iter().zip(&commands_b).enumerate() {
        let over = replay.game().is_over();
        if !over {
            // The twins look the same to `s` (the no-leak property) ...
            assert_eq!(replay.view(Some(s)), b.view(Some(s)), "view differs at {i}");
        }
        if by_bot[i] {
            // ... and so the bot decides the same in both.
            let decided = bot_b.decide(&b.view(Some(s))).unwrap();
            assert_eq!(
                decided, ca,
                "R-VIS-8, {level}, {players} players, commodities {commodities}, seed {seed}: decision {i} differs in the twin game"
            );
            compared += 1;
        }
        replay.apply(ca).unwrap();
        b.apply(cb)
            .unwrap_or_else(|e| panic!("command {i} {cb:?} illegal in the twin game: {e}"));
    }
    compared
}

/// [`twin_check_with`] for the bot `make` (named `name` in messages) in one game of each
/// `(players, commodities)` of `games`, seeded `first_seed`, `first_seed + 1`, …, each cut after
/// `cut` commands; at least `at_least` decisions must be compared in all.
fn twin_games(
    name: &str,
    make: impl Fn(u64) -> SearchBot,
    games: &[(u8, bool)],
    first_seed: u64,
    cut: usize,
    at_least: usize,
) {
    let compared: usize = (first_seed..)
        .zip(games)
        .map(|(seed, &(players, commodities))| {
            twin_check_with(name, &make, players, commodities, seed, cut)
        })
        .sum();
    assert!(
        compared >= at_least,
        "R-VIS-8, {name}: {compared} decisions compared in twin games, fewer than {at_least}"
    );
}

/// The search bot of a preset level.
fn preset(level: Level) -> impl Fn(u64) -> SearchBot {
    move |seed| SearchBot::new(level, seed)
}

#[test]
fn easy_decides_the_same_in_twin_games() {
    let games = [(3, false), (4, true), (5, true), (5, false)];
    twin_games("easy", preset(Level::Easy), &games, 100, 160, 30);
}

#[test]
fn medium_decides_the_same_in_twin_games() {
    let games = [(4, false), (3, true)];
    twin_games("medium", preset(Level::Medium), &games, 200, 28, 4);
}

#[test]
fn hard_decides_the_same_in_twin_games() {
    twin_games("hard", preset(Level::Hard), &[(4, true)], 300, 10, 2);
}

/// `search:mixed`, the named bot that draws its bids (medium's search with mixed bids).
#[test]
fn the_mixed_preset_decides_the_same_in_twin_games() {
    let config = qe_core::bots::search_config("search:mixed").expect("a bot name");
    assert_eq!(
        config,
        SearchConfig {
            mixed: true,
            ..Level::Medium.config()
        }
    );
    let make = move |seed| SearchBot::with_config(config, seed, Manifest::default());
    twin_games("search:mixed", make, &[(4, false)], 600, 28, 2);
}

/// A bot of `config`, its timed decisions timed by a simulated clock (so they are reproducible).
fn configured(config: SearchConfig) -> impl Fn(u64) -> SearchBot {
    move |seed| SearchBot::with_config(config, seed, Manifest::default()).with_simulated_clock(40)
}

/// Mixed bids at every secret bid (the fewest rounds 2), each other bidder held to its modelled
/// bid in half the rounds (both kinds of rival round).
#[test]
fn mixed_bids_decide_the_same_in_twin_games() {
    let config = SearchConfig {
        mixed: true,
        min_mixed_rounds: 2,
        model_share: 50,
        ..Level::Easy.config()
    };
    let games = [(4, false), (5, true)];
    twin_games("mixed", configured(config), &games, 400, 120, 20);
}

#[test]
fn sharp_rivals_and_several_playouts_a_world_decide_the_same_in_twin_games() {
    let config = SearchConfig {
        sharp_rivals: true,
        playouts_per_world: 2,
        ..Level::Easy.config()
    };
    let games = [(3, true), (4, false)];
    twin_games("sharp", configured(config), &games, 500, 120, 20);
}

/// The rival search of `search:hard` (a small search from each other seat's view of sampled
/// worlds), on a small scale, over whole games.
#[test]
fn rival_search_decides_the_same_in_twin_games() {
    let config = SearchConfig {
        rival_search: 1_000,
        rival_worlds: 2,
        ..Level::Easy.config()
    };
    let games = [(4, false), (5, true)];
    twin_games("rival search", configured(config), &games, 700, 80, 12);
}

/// `search:ms=MS`'s configuration, its clock simulated: the time budget, the deadline and the
/// speed it learns from decision to decision read nothing hidden.
#[test]
fn timed_decisions_decide_the_same_in_twin_games() {
    let config = qe_core::bots::search_config("search:ms=3").expect("a clock in tests");
    assert_eq!(config.millis, 3);
    let games = [(4, true), (3, false)];
    twin_games("search:ms=3", configured(config), &games, 600, 60, 10);
}

/// A timed bot stops at its deadline: with a simulated clock of 1 ms a reading, a 2 ms budget
/// plays at most two worlds' playouts, and says so.
#[test]
fn a_timed_decision_stops_at_its_deadline() {
    let config = SearchConfig::timed(2).expect("a clock in tests");
    let m = Match::seeded(rules_of(4, false), 3);
    let seat = m.game().to_act().first().unwrap();
    let mut bot = SearchBot::with_config(config, 1, Manifest::default()).with_simulated_clock(1000);
    let c = bot.decide(&m.view(Some(seat))).unwrap();
    assert!(m.game().legal(seat).bid.unwrap().allows(match c {
        Command::Bid { amount, .. } => amount,
        _ => panic!("{c:?}"),
    }));
    let stats = bot.last_stats();
    assert!(stats.timed_out, "{stats:?}");
    assert!(
        u64::from(stats.playouts) <= 2 * u64::from(stats.candidates),
        "{stats:?}"
    );
    // Without the clock's pressure the same bot plays its whole budget.
    let mut untimed = SearchBot::new(Level::Hard, 1);
    untimed.decide(&m.view(Some(seat))).unwrap();
    assert!(!untimed.last_stats().timed_out);
    assert!(untimed.last_stats().playouts > 10 * stats.playouts);
}

/// The names of the timed bot: `search:ms=` and a whole number of milliseconds from 1 to a
/// minute, written plainly.
#[test]
fn timed_names_are_exact() {
    use qe_core::bots::{is_name, search_config};
    for (name, ms) in [
        ("search:ms=1", 1),
        ("search:ms=50", 50),
        ("search:ms=60000", 60_000),
    ] {
        assert!(is_name(name), "{name}");
        assert!(by_name(name, 1).is_some(), "{name}");
        assert_eq!(search_config(name).map(|c| c.millis), Some(ms), "{name}");
    }
    for name in [
        "search:ms=",
        "search:ms=0",
        "search:ms=050",
        "search:ms=+5",
        "search:ms=-5",
        "search:ms=5 ",
        "search:ms=60001",
        "search:ms=99999999999",
        "search:ms=5.0",
        "search:MS=5",
        "search:ms5",
        "search::ms=5",
    ] {
        assert!(!is_name(name), "{name:?}");
        assert!(by_name(name, 1).is_none(), "{name:?}");
    }
    for name in NAMES {
        assert!(is_name(name), "{name}");
    }
    assert!(!is_name("oracle"));
}

/// A mixed bot draws its sealed bids from a distribution over its candidates: along a game, each
/// drawn bid is in the distribution's support, the probabilities sum to 1, some decisions mix
/// (two bids of at least 5% each), and the draws are fixed by the seed. Open (opening) bids are
/// not drawn (R-AUC-2: the others bid after seeing it), nor are bids where the budget affords
/// fewer rounds than [`SearchConfig::min_mixed_rounds`]. A pure bot draws nothing.
#[test]
fn a_mixed_bot_draws_its_bids_from_the_strategy_it_computed() {
    let config = SearchConfig {
        mixed: true,
        min_mixed_rounds: 2,
        ..Level::Easy.config()
    };
    let play = |mixed: bool, min_mixed_rounds: u16| {
        let c = SearchConfig {
            mixed,
            min_mixed_rounds,
            ..config
        };
        let mut m = Match::seeded(rules_of(4, false), 21);
        let mut bots: Vec<SearchBot> = (0..4)
            .map(|s| SearchBot::with_config(c, 30 + s, Manifest::default()))
            .collect();
        let (mut mixing, mut drawn, mut first_drawn) = (0, 0, None);
        while !m.game().is_over() {
            let seat = m.game().to_act().first().unwrap();
            let bot = &mut bots[seat.index()];
            let opening = matches!(m.game().phase(), qe_core::Phase::OpeningBid { .. });
            let command = bot.decide(&m.view(Some(seat))).unwrap();
            let strategy = bot.last_strategy();
            // An opening bid is seen before the others bid: not a simultaneous move.
            assert!(!opening || strategy.is_empty(), "{strategy:?}");
            if !strategy.is_empty() {
                drawn += 1;
                first_drawn.get_or_insert(m.game().turn());
                let total: f64 = strategy.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "{strategy:?}");
                let Command::Bid { amount, .. } = command else {
                    panic!("{command:?} drawn from {strategy:?}")
                };
                assert!(
                    strategy.iter().any(|&(b, p)| b == amount && p > 0.0),
                    "{amount} from {strategy:?}"
                );
                mixing += usize::from(strategy.iter().filter(|(_, p)| *p >= 0.05).count() >= 2);
            }
            m.apply(command).unwrap();
        }
        (m.commands().to_vec(), mixing, drawn, first_drawn)
    };
    let (first, mixing, drawn, _) = play(true, 2);
    assert!(drawn > 20 && mixing > 5, "{mixing} of {drawn}");
    assert_eq!(play(true, 2).0, first);
    assert_eq!(play(false, 2).2, 0);
    // Where the budget cannot afford the rounds asked for (early, when playouts are long), the
    // bid is the pure one; late in the game it is drawn.
    let (_, _, late, from_turn) = play(true, 30);
    assert!(late > 0 && late < drawn, "{late} of {drawn}");
    assert!(from_turn.is_some_and(|t| t >= 8), "{from_turn:?}");
}

/// Every preset name builds a search bot; `search` is `search:medium`.
#[test]
fn search_names_build_search_bots() {
    for name in NAMES.iter().filter(|n| n.starts_with("search")) {
        assert!(by_name(name, 1).is_some(), "{name}");
    }
    assert!(by_name("search:", 1).is_none());
    assert!(by_name("search:extreme", 1).is_none());
    assert!(by_name("searching", 1).is_none());
    let mut m = Match::seeded(rules_of(4, false), 5);
    let a = by_name("search", 9)
        .unwrap()
        .act_with_history(&m.view(Some(Seat(0))))
        .unwrap();
    let b = by_name("search:medium", 9)
        .unwrap()
        .act_with_history(&m.view(Some(Seat(0))))
        .unwrap();
    assert_eq!(a, b);
    m.apply(a).unwrap();
}

/// Legal in every configuration, against every other bot, and deterministic for a seed.
#[test]
fn plays_legal_commands_everywhere_and_is_deterministic() {
    for players in 3..=5u8 {
        for commodities in [false, true] {
            let seed = u64::from(players) * 10 + u64::from(commodities);
            let play = || {
                let mut m = Match::seeded(rules_of(players, commodities), seed);
                let names = ["value", "search:easy", "random", "miser", "value"];
                let mut bots: Vec<_> = (0..players)
                    .map(|s| by_name(names[s as usize], seed + u64::from(s)).unwrap())
                    .collect();
                while !m.game().is_over() {
                    let seat = m.game().to_act().first().unwrap();
                    let bot = &mut bots[seat.index()];
                    let c = bot.act_with_history(&m.view(Some(seat))).unwrap();
                    m.apply(c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
                }
                m.commands().to_vec()
            };
            let first: Vec<Command> = play();
            assert_eq!(
                first,
                play(),
                "{players} players, commodities {commodities}"
            );
        }
    }
}

/// The search bot's 5-player peek (R-VIS-5) waits until a third of the game has passed (its
/// documented policy), then is used: along games of value bots, at every decision of a seat that
/// may peek, the bot peeks only from then on, and does peek there.
#[test]
fn the_search_bot_peeks_only_once_a_third_of_the_game_has_passed() {
    let (mut early, mut late_peeks) = (0, 0);
    for seed in 1..4u64 {
        let mut m = Match::seeded(qe_core::Rules::base(5).unwrap(), seed);
        let mut bots: Vec<_> = (0..5)
            .map(|s| by_name("value", seed + s).unwrap())
            .collect();
        while !m.game().is_over() && m.game().turn() < 8 {
            let seat = m.game().to_act().first().unwrap();
            let view = m.view(Some(seat));
            if view.view.legal.peek != 0 {
                let choice = SearchBot::new(Level::Easy, seed).decide(&view);
                let peeks = matches!(choice, Some(Command::Peek { .. }));
                if u32::from(view.view.turn) * 3 < u32::from(view.view.turns) {
                    assert!(!peeks, "seed {seed}, turn {}: {choice:?}", view.view.turn);
                    early += 1;
                } else {
                    late_peeks += u32::from(peeks);
                }
            }
            let command = bots[seat.index()].act(&m.game().view(seat)).unwrap();
            m.apply(command).unwrap();
        }
    }
    assert!(early > 10 && late_peeks > 0, "{early} {late_peeks}");
}
