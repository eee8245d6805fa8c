//! Integration tests of the `qe` binary: every conformance case through `qe replay --json`, scripted
//! `qe play` games fed through standard input, `qe simulate` determinism, `qe rules`, `--manifest`,
//! usage errors and the documented exit codes (0 ok, 1 illegal command, 2 usage, 3 bad input,
//! 4 abandoned play).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use qe_core::bots::{by_name, BoxedBot};
use qe_core::{Game, Legal, Record, Rules, Seat};
use serde_json::Value;

fn qe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_qe"))
}

/// Runs `qe ARGS` with `stdin` as standard input.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = qe()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qe runs");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    // The game may end before all the input is read: ignore a closed pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qe-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

// ----- replay: the conformance suite (RECORD.md "Replaying") ------------------------------------

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance");
    let mut out = Vec::new();
    for dir in ["named", "generated"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("conformance directory") {
            let p = entry.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".json") && !name.ends_with(".expect.json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Numbers compare by their decimal text (`spent` may exceed 2^64 or be negative).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.to_string() == y.to_string(),
        _ => a == b,
    }
}

fn check_case(path: &Path) -> Result<(), String> {
    let expect: Value =
        serde_json::from_str(&std::fs::read_to_string(path.with_extension("expect.json")).unwrap())
            .unwrap();
    let o = run(&["replay", "--json", path.to_str().unwrap()], "");
    let code = o.status.code();
    let (out, err) = (stdout(&o), stderr(&o));
    match expect["kind"].as_str().unwrap() {
        "outcome" => {
            if code != Some(0) {
                return Err(format!("exit {code:?}: {err}"));
            }
            let got: Value = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}"))?;
            let want = expect["outcome"]["seats"].as_array().unwrap();
            let got = got["seats"].as_array().ok_or("no seats")?;
            if want.len() != got.len() {
                return Err(format!("{} seats, want {}", got.len(), want.len()));
            }
            for (i, w) in want.iter().enumerate() {
                for (field, wv) in w.as_object().unwrap() {
                    let gv = &got[i][field];
                    if !same(gv, wv) {
                        return Err(format!("seat {i} field {field}: got {gv}, want {wv}"));
                    }
                }
            }
        }
        "illegal" => {
            let k = expect["index"].as_u64().unwrap();
            if code != Some(1) {
                return Err(format!("exit {code:?}, want 1: {err}"));
            }
            // RECORD.md: `command K: R-…: message`.
            let prefix = format!("command {k}: R-");
            if !err.starts_with(&prefix) {
                return Err(format!("stderr {err:?} does not start with {prefix:?}"));
            }
            let got: Value = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}"))?;
            if got["illegal"]["index"].as_u64() != Some(k) {
                return Err(format!("JSON {got} does not name index {k}"));
            }
        }
        "pending" => {
            if code != Some(0) {
                return Err(format!("exit {code:?}: {err}"));
            }
            let got: Value = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}"))?;
            if got["pending"]["to_act"].as_array().is_none() {
                return Err(format!("not a pending report: {got}"));
            }
        }
        "bad" => {
            if code != Some(3) {
                return Err(format!("exit {code:?}, want 3: {err}"));
            }
            if !err.contains("bad record") || !out.is_empty() {
                return Err(format!("stdout {out:?}, stderr {err:?}"));
            }
        }
        other => return Err(format!("unknown kind {other}")),
    }
    Ok(())
}

#[test]
fn every_conformance_case_through_qe_replay_json() {
    let cases = cases();
    assert!(
        cases.len() >= 100,
        "the suite has only {} cases",
        cases.len()
    );
    // Two workers: the machine has two cores.
    let (a, b): (Vec<_>, Vec<_>) = cases.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let check = |part: Vec<(usize, &PathBuf)>| {
        part.into_iter()
            .filter_map(|(_, p)| check_case(p).err().map(|e| format!("{}: {e}", p.display())))
            .collect::<Vec<_>>()
    };
    let failures = std::thread::scope(|s| {
        let h = s.spawn(|| check(b));
        let mut f = check(a);
        f.extend(h.join().unwrap());
        f
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn replay_prints_a_table_and_the_pending_phase() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/named");
    let o = run(
        &["replay", root.join("gold-crash.json").to_str().unwrap()],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("companies") && out.contains("winner: seat"),
        "{out}"
    );
    // A pending game: the phase and who must act (exit 0).
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("gold-crash.json")).unwrap())
            .unwrap();
    record["commands"].as_array_mut().unwrap().truncate(1);
    let path = tmp("pending.json");
    std::fs::write(&path, record.to_string()).unwrap();
    let o = run(&["replay", path.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("phase: secret bids") && out.contains("to act:"),
        "{out}"
    );
    // From standard input, with `-`.
    let o = run(&["replay", "-"], &record.to_string());
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn replay_rejects_unreadable_and_malformed_records_with_exit_3() {
    let o = run(&["replay", "/nonexistent/record.json"], "");
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("cannot read"));
    let path = tmp("garbage.json");
    std::fs::write(&path, "{not json").unwrap();
    let o = run(&["replay", path.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stderr(&o).contains("bad record: invalid JSON"),
        "{}",
        stderr(&o)
    );
}

// ----- play: scripted games through standard input ---------------------------------------------

/// SplitMix64, as `qe` derives seeds (`simulate::mix`).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed `qe` gives the bot at `seat` (`simulate::bot_seed`).
fn bot_seed(game_seed: u64, seat: u8) -> u64 {
    mix(game_seed.wrapping_add(u64::from(seat) + 1).rotate_left(17))
}

/// The input script: junk lines (errors or no-ops) mixed with moves, so that some line of every
/// cycle is legal at every prompt.
const SCRIPT: [&str; 11] = [
    "fold", "-3", "1", "2", "", "help", "gold", "oil", "crypto", "peek 0", "peek 1",
];

/// What a script line asks for, as `qe play` reads it (None: an error or a no-op).
fn line_command(line: &str, seat: Seat, legal: &Legal) -> Option<qe_core::Command> {
    use qe_core::{AssetKind, Command as C};
    let pile = |kind| {
        if legal.discard.is_empty() {
            C::TakeAsset { seat, kind }
        } else {
            C::DiscardAsset { seat, kind }
        }
    };
    match line {
        "1" => Some(C::Bid { seat, amount: 1 }),
        "2" => Some(C::Bid { seat, amount: 2 }),
        "gold" => Some(pile(AssetKind::Gold)),
        "oil" => Some(pile(AssetKind::Oil)),
        "crypto" => Some(pile(AssetKind::Crypto)),
        "peek 0" => Some(C::Peek { seat, turn: 0 }),
        "peek 1" => Some(C::Peek { seat, turn: 1 }),
        _ => None,
    }
}

/// Drives the same seeded game as `qe play --seed SEED --bots BOT` with the human at `human`
/// consuming the script: returns the commands it must have played and the end state.
fn expected_game(rules: Rules, seed: u64, bot: &str, human: Seat) -> (Vec<qe_core::Command>, Game) {
    let mut game = Game::seeded(rules, seed);
    let mut bots: Vec<Option<BoxedBot>> = (0..rules.players())
        .map(|s| (Seat(s) != human).then(|| by_name(bot, bot_seed(seed, s)).unwrap()))
        .collect();
    let mut commands = Vec::new();
    let mut line = 0usize;
    while !game.is_over() {
        let to_act = game.to_act();
        if let Some(s) = to_act.iter().find(|s| bots[s.index()].is_some()) {
            let c = bots[s.index()]
                .as_mut()
                .unwrap()
                .act(&game.view(s))
                .unwrap();
            game.apply(c).unwrap();
            commands.push(c);
            continue;
        }
        let legal = game.legal(human);
        let text = SCRIPT[line % SCRIPT.len()];
        line += 1;
        if let Some(c) = line_command(text, human, &legal) {
            if game.apply(c).is_ok() {
                commands.push(c);
            }
        }
    }
    (commands, game)
}

/// Plays a scripted game through `qe play`, checks it, and returns the human seat's commands.
fn scripted_play(
    players: u8,
    commodities: bool,
    seed: u64,
    bot: &str,
    seat: u8,
) -> Vec<qe_core::Command> {
    let rules = if commodities {
        Rules::commodities(players).unwrap()
    } else {
        Rules::base(players).unwrap()
    };
    let (want_commands, want_game) = expected_game(rules, seed, bot, Seat(seat));
    let record_path = tmp(&format!("play-{players}-{commodities}-{seed}.json"));
    let input: String = SCRIPT
        .iter()
        .cycle()
        .take(4000)
        .fold(String::new(), |mut s, l| {
            s.push_str(l);
            s.push('\n');
            s
        });
    let seed_text = seed.to_string();
    let players_text = players.to_string();
    let seat_text = seat.to_string();
    let mut args = vec![
        "play",
        "--players",
        &players_text,
        "--seat",
        &seat_text,
        "--seed",
        &seed_text,
        "--bots",
        bot,
        "--record",
        record_path.to_str().unwrap(),
    ];
    if commodities {
        args.push("--commodities");
    }
    let o = run(&args, &input);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stderr(&o), out);
    // Input errors got messages and new prompts, never a crash.
    assert!(out.contains("error: unknown command `fold`"), "{out}");
    assert!(out.contains("error: `-3` is not a bid"), "{out}");
    assert!(out.contains("game over: everything is revealed"), "{out}");
    assert!(out.contains("winner: "), "{out}");
    // The saved record is the game we expect, move for move, with the same outcome.
    let record = Record::from_json(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    let commands: Vec<_> = record
        .commands
        .iter()
        .map(|c| *c.as_ref().unwrap())
        .collect();
    assert_eq!(commands, want_commands);
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.game(), &want_game);
    let outcome = want_game.outcome().unwrap();
    for s in outcome.seats() {
        // Each seat's row of the final table ends with its subtotal, bonus and total.
        let tail = format!(
            "{:>8} {:>5} {:>5}",
            s.subtotal, s.least_spent_bonus, s.total
        );
        assert!(
            out.lines().any(|l| l.ends_with(&tail)),
            "no row ending {tail:?} in\n{out}"
        );
    }
    commands
        .into_iter()
        .filter(|c| c.seat() == Some(Seat(seat)))
        .collect()
}

#[test]
fn scripted_play_base_game_with_invalid_inputs() {
    let human = scripted_play(4, false, 11, "value", 0);
    assert!(human.len() >= 16);
}

#[test]
fn scripted_play_five_players_with_commodities_peeks_and_assets() {
    // This seed has the human peek (R-VIS-5) and take assets (R-COM-5).
    let human = scripted_play(5, true, 2, "value", 2);
    assert!(human
        .iter()
        .any(|c| matches!(c, qe_core::Command::Peek { .. })));
    assert!(human
        .iter()
        .any(|c| matches!(c, qe_core::Command::TakeAsset { .. })));
}

#[test]
fn scripted_play_three_players() {
    // Against misers the asset ties out and the human, as auctioneer, discards (R-COM-7).
    let human = scripted_play(3, true, 21, "miser", 1);
    assert!(human
        .iter()
        .any(|c| matches!(c, qe_core::Command::DiscardAsset { .. })));
}

#[test]
fn play_shows_only_the_seats_own_view() {
    // Seat 0's screen shows its own industry token, and no other seat's (R-VIS-2, R-VIS-8).
    let o = run(&["play", "--seed", "3"], "");
    let out = stdout(&o);
    let game = Game::seeded(Rules::base(4).unwrap(), 3);
    let own = game.view(Seat(0)).seats[0].industry.unwrap();
    assert!(
        out.contains(&format!("seat 0 (US)    industry {:<4}", own.name())),
        "{out}"
    );
    for s in 1..4 {
        let nation = game.view(Seat(0)).seats[s].nation.unwrap();
        assert!(
            out.contains(&format!("seat {s} ({})    industry ?", nation.name())),
            "{out}"
        );
    }
}

#[test]
fn play_end_of_input_exits_4_and_saves_the_record() {
    let path = tmp("abandoned.json");
    let o = run(
        &["play", "--seed", "9", "--record", path.to_str().unwrap()],
        "5\n",
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("game abandoned"), "{}", stderr(&o));
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let m = record.replay().unwrap();
    assert!(!m.game().is_over());
    assert_eq!(
        record.commands[0],
        Ok(qe_core::Command::Bid {
            seat: Seat(0),
            amount: 5
        })
    );
    // `quit` does the same.
    let o = run(&["play", "--seed", "9"], "quit\n");
    assert_eq!(o.status.code(), Some(4));
}

#[test]
fn play_shows_a_seed_it_chose_only_at_the_end_and_marks_an_abandoned_record_a_spoiler() {
    // R-VIS-6, R-VIS-8: the seed decides the deck, the tokens and the bots' choices.
    let path = tmp("spoiler.json");
    let o = run(&["play", "--record", path.to_str().unwrap()], "quit\n");
    assert_eq!(o.status.code(), Some(4));
    let out = stdout(&o);
    assert!(out.contains("seed shown at the end"), "{out}");
    let shows_seed = out
        .match_indices("seed ")
        .any(|(i, _)| out[i + 5..].starts_with(|c: char| c.is_ascii_digit()));
    assert!(!shows_seed, "{out}");
    assert!(out.contains("SPOILER"), "{out}");
    // A full game shows the seed at the end, with how to replay it.
    let input: String = std::iter::repeat_n("1\n2\n", 400).collect();
    let o = run(&["play", "--seed", "12", "--bots", "miser"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let end = out.find("game over").unwrap();
    assert!(
        out[end..].contains("seed 12 (replay this game with --seed 12)"),
        "{out}"
    );
}

/// `qe play --bots search:easy`: the search bot opens before the human is asked.
#[test]
fn play_against_the_search_bot() {
    let o = run(
        &[
            "play",
            "--players",
            "3",
            "--seat",
            "1",
            "--seed",
            "8",
            "--bots",
            "search:easy",
        ],
        "quit\n",
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("search:easy bot"), "{out}");
    assert!(out.contains("your secret bid"), "{out}");
}

#[test]
fn hot_seat_hides_the_screen_between_seats() {
    // Seats 0 and 2 are human; every screen change asks for Enter first.
    let input: String = std::iter::repeat_n("\n1\n2\n", 600).collect();
    let o = run(
        &["play", "--seed", "4", "--humans", "0,2", "--bots", "miser"],
        &input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Pass the terminal to seat 2 (CN)"), "{out}");
    assert!(out.contains("screen hidden"));
    assert!(out.contains("game over"));
    // A screen for one seat never shows the other human's industry token.
    let game = Game::seeded(Rules::base(4).unwrap(), 4);
    let tok2 = game.view(Seat(2)).seats[2].industry.unwrap().name();
    let first_screen: String = out.split("screen hidden").nth(1).unwrap().to_owned();
    assert!(first_screen.contains("you are seat 0 (US)"));
    assert!(
        !first_screen.contains(&format!("seat 2 (CN)    industry {tok2}")),
        "{first_screen}"
    );
}

// ----- simulate ----------------------------------------------------------------------------------

fn simulate_json(args: &[&str]) -> Value {
    let o = run(args, "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    v.as_object_mut().unwrap().remove("timing");
    v
}

#[test]
fn simulate_is_deterministic_for_a_seed() {
    let args = [
        "simulate",
        "--games",
        "120",
        "--bots",
        "value,random,miser,value",
        "--seed",
        "5",
        "--threads",
        "2",
        "--json",
    ];
    let a = simulate_json(&args);
    let b = simulate_json(&args);
    assert_eq!(a, b);
    assert_eq!(a["games"], 120);
    assert_eq!(a["seats"].as_array().unwrap().len(), 4);
    // The games are seeded by index and the sums are exact: the thread count does not matter.
    let mut one = args.to_vec();
    one[8] = "1";
    let mut c = simulate_json(&one);
    c["threads"] = a["threads"].clone();
    assert_eq!(a, c);
    // Another seed, another tournament.
    let mut other = args.to_vec();
    other[6] = "6";
    assert_ne!(a["seats"], simulate_json(&other)["seats"]);
}

#[test]
fn simulate_prints_a_table_per_agent() {
    let o = run(
        &[
            "simulate",
            "--games",
            "30",
            "--players",
            "5",
            "--commodities",
            "--bots",
            "value,random",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "win %",
        "95% CI",
        "rating",
        "mean score",
        "mean spent",
        "elim %",
        "ms/dec",
        "games/s",
        "win % by seat",
        "seats rotated",
        "bootstrap",
    ] {
        assert!(out.contains(needle), "{needle} missing in\n{out}");
    }
    assert_eq!(out.lines().filter(|l| l.starts_with("value ")).count(), 1);
    assert_eq!(out.lines().filter(|l| l.starts_with("random ")).count(), 1);
}

/// Seats rotate: every agent plays every seat; win rates and ratings come with intervals.
#[test]
fn simulate_rotates_seats_and_rates_agents() {
    let v = simulate_json(&[
        "simulate",
        "--games",
        "40",
        "--bots",
        "value,random,miser",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(v["seats_rotated"], true);
    assert_eq!(v["lineup"], serde_json::json!(["value", "random", "miser"]));
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 3);
    for a in agents {
        // 40 games, one seat each.
        assert_eq!(a["seats_played"], 40);
        let rate = a["win_rate"].as_f64().unwrap();
        let ci = a["win_rate_ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
        let rating = a["rating"].as_f64().unwrap();
        let rc = a["rating_ci95"].as_array().unwrap();
        assert!(rc[0].as_f64().unwrap() <= rating && rating <= rc[1].as_f64().unwrap());
    }
    let mean: f64 = agents
        .iter()
        .map(|a| a["rating"].as_f64().unwrap())
        .sum::<f64>()
        / 3.0;
    assert!((mean - 1500.0).abs() < 1e-6);
    let by = |name: &str| agents.iter().find(|a| a["agent"] == name).unwrap().clone();
    assert!(by("value")["rating"].as_f64() > by("random")["rating"].as_f64());
}

/// The example agent (Python, standard library only) plays whole games through `exec:`.
#[test]
fn simulate_runs_the_python_example_agent() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("python3 not found: skipped");
        return;
    }
    let agent = format!(
        "exec:python3 {}/../examples/python/agent_random.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let v = simulate_json(&[
        "simulate",
        "--games",
        "12",
        "--bots",
        &format!("value,{agent},search:easy"),
        "--threads",
        "2",
        "--json",
    ]);
    let row = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == agent.as_str())
        .unwrap()
        .clone();
    assert_eq!(row["seats_played"], 12);
    for fault in ["illegal_answers", "timeouts", "crashes", "fallback_moves"] {
        assert_eq!(row[fault], 0, "{fault}: {row}");
    }
}

/// Illegal answers, silence and crashes are counted and answered by the value bot; the
/// tournament still ends.
#[test]
fn simulate_counts_broken_agents_and_plays_on() {
    let dir = format!("{}/tests/agents", env!("CARGO_MANIFEST_DIR"));
    for (script, fault) in [
        ("garbage.sh", "illegal_answers"),
        ("other_seat.sh", "illegal_answers"),
        ("silent.sh", "timeouts"),
        ("crash.sh", "crashes"),
    ] {
        let agent = format!("exec:sh {dir}/{script}");
        let v = simulate_json(&[
            "simulate",
            "--games",
            "3",
            "--bots",
            &format!("value,value,{agent}"),
            "--agent-timeout",
            "300",
            "--json",
        ]);
        assert_eq!(v["games"], 3);
        let row = v["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["agent"] == agent.as_str())
            .unwrap()
            .clone();
        assert!(row[fault].as_u64().unwrap() > 0, "{script}: {row}");
        assert!(
            row["fallback_moves"].as_u64().unwrap() > 0,
            "{script}: {row}"
        );
    }
}

#[test]
fn simulate_rejects_bad_agents_and_zero_games() {
    for (args, message) in [
        (&["simulate", "--games", "0"][..], "at least 1 game"),
        (
            &["simulate", "--bots", "value,oracle"],
            "unknown agent `oracle`",
        ),
        (&["simulate", "--bots", "value,exec:"], "needs a command"),
        (
            &["simulate", "--bots", "value,value,value,value,value,value"],
            "6 agents for 4",
        ),
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "qe {args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "qe {args:?}: {}", stderr(&o));
    }
    let o = run(
        &[
            "simulate",
            "--bots",
            "value,exec:/no/such/agent",
            "--games",
            "2",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot start agent `exec:/no/such/agent`"));
}

// ----- rules and --manifest ----------------------------------------------------------------------

#[test]
fn rules_prints_the_summary_and_a_loaded_manifest() {
    let o = run(&["rules"], "");
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("R-AUC-6") && out.contains("reconstructed default"),
        "{out}"
    );
    // `rules --json` writes a manifest file that --manifest reads back.
    let o = run(&["rules", "--json"], "");
    let mut manifest: Value = serde_json::from_str(&stdout(&o)).unwrap();
    manifest["tiles"]["US-MAN"] = 3.into();
    let path = tmp("manifest.json");
    std::fs::write(&path, manifest.to_string()).unwrap();
    let o = run(&["rules", "--manifest", path.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains(path.to_str().unwrap()));
    let o = run(
        &["--manifest", path.to_str().unwrap(), "rules", "--json"],
        "",
    );
    let back: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(back, manifest);
    // The printed values are used: a simulate and a play run with them.
    let o = run(
        &[
            "simulate",
            "--games",
            "5",
            "--manifest",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // An invalid manifest is bad input (exit 3).
    manifest["tiles"]["US-MAN"] = 100.into();
    std::fs::write(&path, manifest.to_string()).unwrap();
    let o = run(&["play", "--manifest", path.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("US-MAN"), "{}", stderr(&o));
}

#[test]
fn replay_uses_manifest_only_when_the_record_has_none() {
    // A game recorded with printed values (US-MAN worth 3), saved without... and with its manifest.
    let mut manifest: Value =
        serde_json::from_str(&stdout(&run(&["rules", "--json"], ""))).unwrap();
    manifest["tiles"]["US-MAN"] = 3.into();
    let mpath = tmp("manifest2.json");
    std::fs::write(&mpath, manifest.to_string()).unwrap();
    let rpath = tmp("recorded-with-manifest.json");
    let input: String = std::iter::repeat_n("1\n2\n", 400).collect();
    let o = run(
        &[
            "play",
            "--seed",
            "8",
            "--bots",
            "random",
            "--manifest",
            mpath.to_str().unwrap(),
            "--record",
            rpath.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&rpath).unwrap()).unwrap();
    assert_eq!(record["manifest"]["tiles"]["US-MAN"], 3);
    let with = stdout(&run(&["replay", "--json", rpath.to_str().unwrap()], ""));
    // Without its manifest field, the record replays with the default values ...
    record.as_object_mut().unwrap().remove("manifest");
    let bare = tmp("recorded-bare.json");
    std::fs::write(&bare, record.to_string()).unwrap();
    let default = stdout(&run(&["replay", "--json", bare.to_str().unwrap()], ""));
    // ... or with --manifest's.
    let given = stdout(&run(
        &[
            "replay",
            "--json",
            "--manifest",
            mpath.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
        "",
    ));
    assert_eq!(with, given);
    // A record's own manifest wins over --manifest.
    let default_manifest = tmp("default-manifest.json");
    std::fs::write(&default_manifest, stdout(&run(&["rules", "--json"], ""))).unwrap();
    let own = stdout(&run(
        &[
            "replay",
            "--json",
            "--manifest",
            default_manifest.to_str().unwrap(),
            rpath.to_str().unwrap(),
        ],
        "",
    ));
    assert_eq!(own, with);
    // US-MAN's value matters only if someone won it; the outcomes are at least valid JSON.
    let _: Value = serde_json::from_str(&default).unwrap();
}

// ----- usage -------------------------------------------------------------------------------------

#[test]
fn bad_arguments_are_usage_errors() {
    for args in [
        &["frobnicate"][..],
        &["simulate", "--players", "7"],
        &["simulate", "--games", "x"],
        &["simulate", "--bots", "value,oracle"],
        &["simulate", "--threads", "0"],
        &["play", "--players", "2"],
        &["play", "--humans", "0,0"],
        &["play", "--players", "3", "--seat", "4"],
        &["play", "--bots", "value,value,value,value"],
        &["replay"],
        &["replay", "--bogus", "x.json"],
        &[],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "qe {args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("error"), "qe {args:?}: {}", stderr(&o));
    }
}

#[test]
fn every_command_has_help() {
    for args in [
        &["--help"][..],
        &["play", "--help"],
        &["replay", "--help"],
        &["simulate", "--help"],
        &["rules", "--help"],
        &["help", "simulate"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(0), "qe {args:?}");
        assert!(
            stdout(&o).contains("Usage: qe"),
            "qe {args:?}: {}",
            stdout(&o)
        );
    }
    assert!(stdout(&run(&["--help"], "")).contains("Exit codes"));
}
