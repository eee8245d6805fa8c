//! Golden playthroughs: a few fixed games played to the end, with everything each seat and the
//! spectator is shown after every step written to `tests/golden/*.txt`, and compared line for line
//! with what the engine produces now.
//!
//! Each file is one game (its rules, seed and bots are in its first lines). For every step (the
//! start, then after each command) and every viewer (each seat, then the spectator) it holds:
//!
//! - `event …`: each new event of the viewer's stream ([`Match::events_as_seen`]), as JSON;
//! - `view …`: the viewer's [`qe_core::MatchView`] as JSON: whole the first time, then only the
//!   leaves that changed (`path = value`, `path` removed) — a leaf's path joins its keys and array
//!   indices with dots;
//! - `legal …`: the seat's legal moves ([`Game::legal`]) as JSON and the legal action indices of an
//!   [`ActionSpace`] over the default [`BidLadder`] (with peeks in the 5-player Commodities game);
//! - `obs …`: the observation ([`qe_core::encoding::observe`]): the non-zero floats the first time,
//!   then the floats that changed, each as `index name = value`, where `name` is the float's
//!   place in the layout ([`qe_core::encoding::place`]: `block[slot].field[i]`) and `value` is
//!   printed exactly (the shortest text that reads back as the same `f32`). Both the index and the
//!   name are pinned: a field that moves changes every line that shows it.
//!
//! After the last step, `outcome …` lines give the final outcome ([`qe_core::SeatOutcome`]), one
//! seat a line, every field.
//!
//! The test also checks that [`observe_seat`] and an [`Observer`] write the same floats as
//! [`qe_core::encoding::observe`] at every step.
//!
//! A mismatch names the file, the line, the step and the viewer. When a change is meant, rewrite
//! the files with `scripts/golden` (which runs this test with `QE_GOLDEN_BLESS=1`) and review the
//! diff.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use qe_core::bots::{by_name, BoxedBot};
use qe_core::encoding::{observe, observe_seat, place, ActionSpace, BidLadder, Observer, OBS_SIZE};
use qe_core::{Command, Game, Match, Rules, Seat};
use serde_json::Value;

/// One golden game.
struct Config {
    /// The file name, without `.txt`.
    name: &'static str,
    players: u8,
    commodities: bool,
    seed: u64,
    /// One bot per seat (`qe_core::bots::by_name`), seeded `seed * 10 + seat`.
    bots: &'static [&'static str],
    /// Whether the action space has the peek actions; then every fifth step, the first seat that
    /// may peek peeks at the first turn it may (R-VIS-5), before the bots act.
    peeks: bool,
    /// External-chance mode (R-SET-3): the deal, each reveal and each draw are picked from
    /// `Game::chance_outcomes` by a fixed sequence of numbers.
    external: bool,
}

const CONFIGS: [Config; 5] = [
    Config {
        name: "base3",
        players: 3,
        commodities: false,
        seed: 11,
        bots: &["value", "random", "value"],
        peeks: false,
        external: false,
    },
    Config {
        name: "base4",
        players: 4,
        commodities: false,
        seed: 22,
        bots: &["random", "value", "value", "random"],
        peeks: false,
        external: false,
    },
    Config {
        name: "base5",
        players: 5,
        commodities: false,
        seed: 55,
        bots: &["random", "value", "random", "value", "value"],
        peeks: false,
        external: false,
    },
    Config {
        name: "commodities5_peeks",
        players: 5,
        commodities: true,
        seed: 33,
        bots: &["value", "random", "value", "random", "value"],
        peeks: true,
        external: false,
    },
    Config {
        name: "commodities4_external",
        players: 4,
        commodities: true,
        seed: 44,
        bots: &["value", "value", "random", "random"],
        peeks: false,
        external: true,
    },
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The name of observation float `i` in the layout (`qe_core::encoding::place`): `block`,
/// `block[i]`, `block.field`, `block.field[i]` or `block[slot].field[i]`.
fn float_name(i: usize) -> String {
    place(i).expect("inside the observation").to_string()
}

/// Flattens a JSON value into its leaves, by dotted path.
fn leaves(prefix: &str, value: &Value, out: &mut BTreeMap<String, String>) {
    let join = |key: &str| {
        if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                leaves(&join(k), v, out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (k, v) in items.iter().enumerate() {
                leaves(&join(&k.to_string()), v, out);
            }
        }
        leaf => {
            out.insert(prefix.to_string(), leaf.to_string());
        }
    }
}

/// What one viewer was last shown.
struct Seen {
    events: usize,
    view: Option<BTreeMap<String, String>>,
    obs: Option<Vec<f32>>,
}

/// A small fixed generator for the chance outcomes of the external-chance game.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        let z = qe_core::mix_seed(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }
}

/// Plays the game of `config` and returns its golden text.
fn playthrough(config: &Config) -> String {
    let rules = if config.commodities {
        Rules::commodities(config.players)
    } else {
        Rules::base(config.players)
    }
    .unwrap();
    let mut m = if config.external {
        Match::new(Game::external_chance(rules, None).unwrap())
    } else {
        Match::seeded(rules, config.seed)
    };
    let mut bots: Vec<BoxedBot> = config
        .bots
        .iter()
        .enumerate()
        .map(|(s, name)| by_name(name, config.seed * 10 + s as u64).unwrap())
        .collect();
    assert_eq!(bots.len(), usize::from(config.players));
    let space = ActionSpace::new(BidLadder::default(), config.peeks);
    let mut chance = SplitMix(config.seed);
    let mut observer = Box::new(Observer::new());

    let mut text = String::new();
    writeln!(
        text,
        "# qe-core golden playthrough {}: {} players, {}, {}, bots {}; action space: default \
         ladder{}",
        config.name,
        config.players,
        if config.commodities {
            "commodities"
        } else {
            "base"
        },
        if config.external {
            format!("external chance (outcomes picked by seed {})", config.seed)
        } else {
            format!("seed {}", config.seed)
        },
        config.bots.join(","),
        if config.peeks {
            ", peeks (every fifth step the first seat that may peek does)"
        } else {
            ""
        },
    )
    .unwrap();
    text.push_str("# regenerate with scripts/golden; see qe-core/tests/golden.rs\n");

    let viewers: Vec<Option<Seat>> = (0..config.players)
        .map(|s| Some(Seat(s)))
        .chain([None])
        .collect();
    let mut seen: Vec<Seen> = viewers
        .iter()
        .map(|_| Seen {
            events: 0,
            view: None,
            obs: None,
        })
        .collect();
    let mut step = 0usize;
    let mut peeks = 0;
    let mut command: Option<Command> = None;
    let mut mask = vec![false; space.size()];
    loop {
        match command {
            None => writeln!(text, "step {step} start").unwrap(),
            Some(c) => writeln!(text, "step {step} {}", c.to_json_for(m.game().players())).unwrap(),
        }
        let game = *m.game();
        for (viewer, seen) in viewers.iter().zip(&mut seen) {
            match viewer {
                Some(s) => writeln!(text, " seat {}", s.0).unwrap(),
                None => text.push_str(" spectator\n"),
            }
            let events: Vec<_> = m.events_as_seen(*viewer).collect();
            for e in &events[seen.events..] {
                writeln!(text, "  event {}", serde_json::to_string(e).unwrap()).unwrap();
            }
            seen.events = events.len();

            let match_view = m.view(*viewer);
            let mut now = BTreeMap::new();
            leaves("", &serde_json::to_value(&match_view).unwrap(), &mut now);
            match &seen.view {
                // In the order of the struct's fields, whatever serde_json's features.
                None => writeln!(
                    text,
                    "  view {}",
                    serde_json::to_string(&match_view).unwrap()
                )
                .unwrap(),
                Some(before) => {
                    for (path, value) in &now {
                        if before.get(path) != Some(value) {
                            writeln!(text, "  view {path} = {value}").unwrap();
                        }
                    }
                    for path in before.keys().filter(|p| !now.contains_key(*p)) {
                        writeln!(text, "  view {path} removed").unwrap();
                    }
                }
            }
            seen.view = Some(now);

            let seat = viewer.unwrap_or(Seat(config.players));
            let view = game.view(seat);
            if let Some(s) = viewer {
                let legal = game.legal(*s);
                assert_eq!(legal, view.legal);
                if legal != qe_core::Legal::default() {
                    space.mask(&legal, &mut mask);
                    let actions: Vec<String> = (0..mask.len())
                        .filter(|&a| mask[a])
                        .map(|a| a.to_string())
                        .collect();
                    writeln!(
                        text,
                        "  legal {} actions {}",
                        serde_json::to_string(&legal).unwrap(),
                        if actions.is_empty() {
                            "none".to_string()
                        } else {
                            actions.join(" ")
                        }
                    )
                    .unwrap();
                }
            }

            let mut obs = vec![0.0f32; OBS_SIZE];
            observe(&view, &mut obs);
            let mut other = vec![0.0f32; OBS_SIZE];
            observe_seat(&game, seat, &mut other);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&obs), bits(&other), "observe_seat, step {step}");
            observer.observe(&game, seat, &mut other);
            assert_eq!(bits(&obs), bits(&other), "Observer, step {step}");
            let before = seen.obs.take().unwrap_or_else(|| vec![0.0; OBS_SIZE]);
            for (i, (&x, &b)) in obs.iter().zip(&before).enumerate() {
                if x.to_bits() != b.to_bits() {
                    writeln!(text, "  obs {i} {} = {x:?}", float_name(i)).unwrap();
                }
            }
            seen.obs = Some(obs);
        }
        if game.is_over() {
            break;
        }
        step += 1;
        assert!(step < 2000, "the game does not end");
        let outcomes = game.chance_outcomes();
        let next = if !outcomes.is_empty() {
            assert!(config.external);
            Command::Chance(outcomes[(chance.next() % outcomes.len() as u64) as usize])
        } else if let Some((seat, turn)) = (config.peeks && step % 5 == 0)
            .then(|| {
                (0..config.players).find_map(|s| {
                    let p = game.legal(Seat(s)).peek;
                    (p != 0).then(|| (Seat(s), p.trailing_zeros() as u8))
                })
            })
            .flatten()
        {
            peeks += 1;
            Command::Peek { seat, turn }
        } else {
            let seat = game.to_act().first().expect("someone must act");
            bots[seat.index()]
                .act(&game.view(seat))
                .expect("the bot acts")
        };
        m.play(next).unwrap();
        command = Some(next);
    }
    if config.peeks {
        assert!(peeks >= 2, "the game played only {peeks} forced peeks");
    }
    // The final outcome (RULES.md section 8), seat by seat, every field.
    for seat in m.game().outcome().expect("the game is over").seats() {
        writeln!(text, "outcome {seat:?}").unwrap();
    }
    text
}

/// Where line `n` (0-based) of `text` is: its step and viewer.
fn where_in(text: &str, n: usize) -> String {
    let (mut step, mut viewer) = ("?".to_string(), String::new());
    for line in text.lines().take(n + 1) {
        if let Some(rest) = line.strip_prefix("step ") {
            step = rest.split(' ').next().unwrap_or("?").to_string();
            viewer.clear();
        } else if line.starts_with(" seat ") || line == " spectator" {
            viewer = line.trim().to_string();
        }
    }
    if viewer.is_empty() {
        format!("step {step}")
    } else {
        format!("step {step}, {viewer}")
    }
}

#[test]
fn golden_playthroughs() {
    let bless = std::env::var_os("QE_GOLDEN_BLESS").is_some_and(|v| v != "0" && !v.is_empty());
    let dir = golden_dir();
    let mut failures = Vec::new();
    for config in &CONFIGS {
        let text = playthrough(config);
        let path = dir.join(format!("{}.txt", config.name));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            let old = std::fs::read_to_string(&path).unwrap_or_default();
            if old != text {
                std::fs::write(&path, &text).unwrap();
                println!("rewrote {}", path.display());
            }
            continue;
        }
        let Ok(expected) = std::fs::read_to_string(&path) else {
            failures.push(format!(
                "{} is missing: run scripts/golden to write it",
                path.display()
            ));
            continue;
        };
        if expected == text {
            continue;
        }
        let (mut e, mut a) = (expected.lines(), text.lines());
        let mut n = 0;
        loop {
            match (e.next(), a.next()) {
                (Some(x), Some(y)) if x == y => n += 1,
                (x, y) => {
                    failures.push(format!(
                        "{}:{}: first difference at {}\n  expected: {}\n  actual:   {}",
                        path.display(),
                        n + 1,
                        where_in(&text, n),
                        x.unwrap_or("(end of file)"),
                        y.unwrap_or("(end of output)"),
                    ));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "golden playthroughs differ (if the change is meant, run scripts/golden and review the \
         diff):\n{}",
        failures.join("\n")
    );
}
