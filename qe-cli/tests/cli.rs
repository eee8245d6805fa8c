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

#[path = "../../qe-core/tests/common/conformance.rs"]
mod conformance;

use conformance::cases;

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
            // The report is the replayed game's: its turn, tile, phase and seats to act.
            let text = std::fs::read_to_string(path).unwrap();
            let m = Record::from_json(&text).unwrap().replay().unwrap();
            let g = m.game();
            let to_act: Vec<u8> = g.to_act().iter().map(|s| s.0).collect();
            let want = serde_json::json!({
                "turn": g.turn(),
                "tile": g.current_tile().map(|t| t.to_string()),
                "phase": g.phase(),
                "to_act": to_act,
            });
            if got["pending"] != want {
                return Err(format!("pending report {got}, want {want}"));
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

// ----- replay --step ------------------------------------------------------------------------------

/// A finished game between value bots, saved as a record; returns its path and the match.
fn bot_game(rules: Rules, seed: u64, name: &str) -> (PathBuf, qe_core::Match) {
    let mut m = qe_core::Match::seeded(rules, seed);
    let mut bots: Vec<BoxedBot> = (0..rules.players())
        .map(|s| by_name("value", bot_seed(seed, s)).unwrap())
        .collect();
    while !m.game().is_over() {
        let seat = m.game().to_act().first().unwrap();
        let command = bots[seat.index()].act(&m.game().view(seat)).unwrap();
        m.apply(command).unwrap();
    }
    let path = tmp(name);
    std::fs::write(&path, m.record().unwrap().to_json()).unwrap();
    (path, m)
}

/// The lines `qe` tells for the secret bids and rebids of a game, as `viewer` saw them while it ran.
fn bid_lines(m: &qe_core::Match, viewer: Option<Seat>) -> Vec<String> {
    let view = m.game().public_view();
    let name = |s: Seat| format!("seat {} ({})", s.0, view.seats[s].nation.unwrap().name());
    let seen_by = qe_core::visibility::Viewer::new(viewer, m.game().players(), false);
    m.events()
        .iter()
        .filter_map(|e| match e.as_seen(seen_by) {
            qe_core::Event::Bid {
                seat,
                stage,
                amount,
                ..
            } => {
                let what = match stage {
                    qe_core::BidStage::Secret => "bids",
                    qe_core::BidStage::Rebid(_) => "rebids",
                    qe_core::BidStage::AssetRebid(_) => "rebids for the asset",
                    other => panic!("a bid stage this test does not know: {other:?}"),
                };
                Some(match amount {
                    Some(a) => format!("· {} {what} {a}", name(seat)),
                    None => format!("· {} {what}", name(seat)),
                })
            }
            _ => None,
        })
        .collect()
}

#[test]
fn replay_step_shows_each_auction_as_the_seat_saw_it() {
    for (rules, seed) in [
        (Rules::base(4).unwrap(), 5),
        (Rules::commodities(5).unwrap(), 8),
        (Rules::commodities(3).unwrap(), 3),
    ] {
        let (path, m) = bot_game(rules, seed, &format!("step-{seed}.json"));
        let file = path.to_str().unwrap();
        for viewer in [None, Some(Seat(1))] {
            let seat_text = viewer.map(|s| s.0.to_string());
            let mut args = vec!["replay", "--step", file];
            if let Some(s) = &seat_text {
                args.extend(["--seat", s]);
            }
            let o = run(&args, "");
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let out = stdout(&o);
            // Piped: one section per auction, no pause, and the end with everything revealed.
            let turns = usize::from(rules.turns());
            assert_eq!(out.matches("════ auction of turn ").count(), turns, "{out}");
            assert!(!out.contains("Enter: next auction"), "{out}");
            let (during, end) = out.split_once("game over: everything is revealed").unwrap();
            assert!(
                end.contains("winner: ") && end.contains("every bid, revealed"),
                "{end}"
            );
            assert!(out.lines().all(|l| columns(l) <= 100), "{out}");
            // During the game, every bid is told exactly as this viewer saw it (R-VIS-2, R-VIS-3).
            let told: Vec<&str> = during
                .lines()
                .filter(|l| {
                    l.starts_with("· seat ") && (l.contains(") bids") || l.contains(") rebids"))
                })
                .collect();
            assert_eq!(told, bid_lines(&m, viewer), "viewer {viewer:?}");
            if viewer.is_none() {
                assert!(
                    told.iter()
                        .all(|l| !l.ends_with(|c: char| c.is_ascii_digit())),
                    "a spectator sees no secret bid: {told:?}"
                );
            } else {
                assert!(during.contains("you are seat 1"), "{during}");
            }
            // After the end, every price is revealed (R-VIS-7).
            let history: Vec<&str> = end
                .lines()
                .skip_while(|l| !l.starts_with("turn tile"))
                .skip(1)
                .take(turns)
                .collect();
            assert!(history.iter().all(|l| !l.contains(" ? ")), "{history:#?}");
        }
    }
}

#[test]
fn replay_step_pauses_between_auctions_on_a_terminal() {
    let (path, _) = bot_game(Rules::base(4).unwrap(), 6, "step-pause.json");
    let file = path.to_str().unwrap();
    // Bad combinations are usage errors.
    for args in [
        &["replay", "--seat", "1", file][..],
        &["replay", "--step", "--json", file],
        &["replay", "--step", "--seat", "4", file],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "qe {args:?}: {}", stderr(&o));
    }
    // A record that stops before the end is walked to where it stops.
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    record["commands"].as_array_mut().unwrap().truncate(9);
    let o = run(&["replay", "--step", "-"], &record.to_string());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("the record ends here, before the game does: turn "),
        "{}",
        stdout(&o)
    );
    // On a terminal, Enter shows the next auction and q stops.
    let Some(shown) = on_a_terminal_typing(&format!("replay --step --seat 0 '{file}'"), "\nq\n")
    else {
        return;
    };
    assert_eq!(shown.matches("Enter: next auction").count(), 2, "{shown}");
    assert_eq!(shown.matches("════ auction of turn ").count(), 2, "{shown}");
    assert!(!shown.contains("game over"), "{shown}");
}

// ----- play: scripted games through standard input ---------------------------------------------

/// The seed `qe play` gives the bot at `seat` (`play::bot_seed`).
fn bot_seed(game_seed: u64, seat: u8) -> u64 {
    qe_core::mix_seed(game_seed.wrapping_add(u64::from(seat) + 1).rotate_left(17))
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
    let mut m = qe_core::Match::seeded(rules, seed);
    let mut bots: Vec<Option<BoxedBot>> = (0..rules.players())
        .map(|s| (Seat(s) != human).then(|| by_name(bot, bot_seed(seed, s)).unwrap()))
        .collect();
    let mut commands = Vec::new();
    let mut line = 0usize;
    while !m.game().is_over() {
        let to_act = m.game().to_act();
        if let Some(s) = to_act.iter().find(|s| bots[s.index()].is_some()) {
            let bot = bots[s.index()].as_mut().unwrap();
            let c = qe_core::bots::decide(&mut **bot, &m, s, true).unwrap();
            m.play(c).unwrap();
            commands.push(c);
            continue;
        }
        let legal = m.game().legal(human);
        let text = SCRIPT[line % SCRIPT.len()];
        line += 1;
        if let Some(c) = line_command(text, human, &legal) {
            if m.play(c).is_ok() {
                commands.push(c);
            }
        }
    }
    (commands, *m.game())
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
    // Each event is narrated once: every turn's tile is put up for auction in one line.
    for turn in 0..rules.turns() {
        let start = format!("· turn {turn}: ");
        let lines = out
            .lines()
            .filter(|l| l.starts_with(&start) && l.contains("is up for auction"))
            .count();
        assert_eq!(lines, 1, "turn {turn} narrated {lines} times in\n{out}");
    }
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

/// The number of terminal columns a line takes (`·`, `≥`, `─` take one, wide characters two).
fn columns(line: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(line)
}

/// Plays a whole game through `qe play` with `COLUMNS` set (or unset), feeding `script` in a
/// cycle; returns standard output.
fn play_transcript(args: &[&str], script: &[&str], columns_env: Option<&str>) -> String {
    let input: String = script
        .iter()
        .cycle()
        .take(4000)
        .fold(String::new(), |mut s, l| {
            s.push_str(l);
            s.push('\n');
            s
        });
    let mut command = qe();
    command.args(args);
    match columns_env {
        Some(c) => command.env("COLUMNS", c),
        None => command.env_remove("COLUMNS"),
    };
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(0), "qe {args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn play_fits_100_columns_in_every_configuration() {
    // Small bids, and the largest bids there are (R-AUC-4), with assets and peeks in every cycle.
    let huge: &[&str] = &[
        "18446744073709551615",
        "gold",
        "12345678901234567890",
        "oil",
        "peek 0",
        "9999999999999999999",
        "crypto",
        "1",
        "peek 1",
        "0",
    ];
    let mut widest = Vec::new();
    for players in ["3", "4", "5"] {
        for commodities in [false, true] {
            for (seat, seed, bot, script) in [
                ("0", "2", "value", &SCRIPT[..]),
                ("2", "21", "random", &SCRIPT[..]),
                ("1", "5", "random", huge),
            ] {
                let mut args = vec![
                    "play",
                    "--players",
                    players,
                    "--seat",
                    seat,
                    "--seed",
                    seed,
                    "--bots",
                    bot,
                ];
                if commodities {
                    args.push("--commodities");
                }
                let out = play_transcript(&args, script, None);
                assert!(out.contains("winner: "), "{out}");
                let w = out.lines().map(columns).max().unwrap();
                assert!(w <= 100, "qe {args:?}: a line of {w} columns:\n{out}");
                widest.push(w);
                if script.len() == SCRIPT.len() {
                    // With small bids, no spend bound is a meaningless 2^64-sized number.
                    let huge_number = |l: &&str| {
                        l.split(|c: char| !c.is_ascii_digit())
                            .any(|digits| digits.len() >= 19)
                    };
                    let bad: Vec<&str> = out
                        .lines()
                        .filter(|l| !l.starts_with("error: "))
                        .filter(huge_number)
                        .collect();
                    assert!(bad.is_empty(), "qe {args:?}: {bad:?}");
                }
            }
        }
    }
    // The space is used: the longest lines are close to the width.
    assert!(widest.iter().all(|&w| w >= 90), "{widest:?}");
    // Hot-seat too.
    let out = play_transcript(
        &[
            "play",
            "--players",
            "5",
            "--commodities",
            "--humans",
            "0,2",
            "--seed",
            "2",
        ],
        &["", "1", "2", "gold", "peek 0", "oil", "crypto"],
        None,
    );
    assert!(
        out.contains("screen hidden") && out.contains("winner: "),
        "{out}"
    );
    assert!(out.lines().all(|l| columns(l) <= 100), "{out}");
}

#[test]
fn play_adapts_to_the_width_in_columns() {
    let args = [
        "play",
        "--players",
        "5",
        "--commodities",
        "--seat",
        "2",
        "--seed",
        "2",
    ];
    let widest = |c: Option<&str>| {
        play_transcript(&args, &SCRIPT, c)
            .lines()
            .map(columns)
            .max()
            .unwrap()
    };
    let wide = widest(Some("200"));
    assert!(wide > 100 && wide <= 200, "{wide}");
    assert!(widest(Some("72")) <= 72);
    assert!(widest(Some("not a number")) <= 100);
    // On a terminal, its width wins over COLUMNS.
    let keys = "1\n2\ngold\noil\ncrypto\n".repeat(120);
    let command = format!(
        "stty cols 130 rows 40; COLUMNS=77 '{}' {}",
        env!("CARGO_BIN_EXE_qe"),
        args.join(" ")
    );
    if let Some(o) = on_a_terminal_shell(&command, &keys) {
        let shown = stdout(&o).replace('\r', "");
        let wide = shown.lines().map(columns).max().unwrap();
        assert!(wide > 100 && wide <= 130, "{wide}:\n{shown}");
    }
}

#[test]
fn play_shows_only_the_seats_own_view() {
    // Seat 0's screen shows its own industry token, and no other seat's (R-VIS-2, R-VIS-8).
    let o = run(&["play", "--seed", "3"], "");
    let out = stdout(&o);
    let game = Game::seeded(Rules::base(4).unwrap(), 3);
    let own = game.view(Seat(0)).seats[Seat(0)].industry.unwrap();
    assert!(
        out.contains(&format!("seat 0 (US)    industry {:<4}", own.name())),
        "{out}"
    );
    for s in 1..4 {
        let nation = game.view(Seat(0)).seats[Seat(s)].nation.unwrap();
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
    let tok2 = game.view(Seat(2)).seats[Seat(2)].industry.unwrap().name();
    let first_screen: String = out.split("screen hidden").nth(1).unwrap().to_owned();
    assert!(first_screen.contains("you are seat 0 (US)"));
    assert!(
        !first_screen.contains(&format!("seat 2 (CN)    industry {tok2}")),
        "{first_screen}"
    );
}

#[test]
fn hot_seat_end_of_input_saves_the_record() {
    // The input ends while the screen is hidden for the next seat: exit 4, the game so far saved.
    let path = tmp("hot-seat-abandoned.json");
    let o = run(
        &[
            "play",
            "--seed",
            "4",
            "--humans",
            "0,2",
            "--bots",
            "miser",
            "--record",
            path.to_str().unwrap(),
        ],
        "\n5\n",
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let m = record.replay().unwrap();
    assert!(!m.game().is_over() && !m.commands().is_empty());
}

#[test]
fn bots_may_name_one_bot_per_bot_seat() {
    // As many bots as bot seats is allowed (one more is a usage error), and a hot-seat game
    // without bot seats takes the default one.
    let o = run(
        &["play", "--players", "3", "--bots", "value,random"],
        "quit\n",
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stdout(&o).contains("random bot"), "{}", stdout(&o));
    let o = run(
        &["play", "--players", "3", "--bots", "value,random,miser"],
        "quit\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--bots lists 3 bots for 2 bot seats"),
        "{}",
        stderr(&o)
    );
    let o = run(&["play", "--players", "3", "--humans", "0,1,2"], "\nquit\n");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
}

// ----- simulate ----------------------------------------------------------------------------------

/// The row of `agent` in a `qe simulate --json` result.
fn agent_row(result: &Value, agent: &str) -> Value {
    result["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == agent)
        .unwrap_or_else(|| panic!("no row for {agent}: {result}"))
        .clone()
}

/// The `--bots` entry of the Python agent at `path` (relative to this crate).
fn python_agent(path: &str) -> String {
    format!("exec:python3 {}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// An `exec:` agent's row of a `qe simulate --json` result shows no fault of any kind.
fn assert_no_faults(row: &Value, context: &str) {
    for fault in [
        "illegal_answers",
        "timeouts",
        "crashes",
        "fallback_moves",
        "stale_answers",
    ] {
        assert_eq!(row[fault], 0, "{context}: {fault}: {row}");
    }
}

/// `qe simulate --json` of `games` games, one thread, with `agent` against two `value` bots.
fn against_two_value_bots(games: u32, agent: &str) -> Value {
    simulate_json(&[
        "simulate",
        "--games",
        &games.to_string(),
        "--threads",
        "1",
        "--bots",
        &format!("value,value,{agent}"),
        "--json",
    ])
}

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
fn expansions_are_chosen_by_name_and_commodities_stays_a_shorthand() {
    let base = [
        "simulate",
        "--games",
        "20",
        "--players",
        "3",
        "--seed",
        "1",
        "--json",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        simulate_json(&args)
    };
    let named = with(&["--expansion", "commodities"]);
    assert_eq!(named["expansions"], serde_json::json!(["commodities"]));
    assert_eq!(named, with(&["--commodities"]));
    assert_eq!(
        named,
        with(&["--commodities", "--expansion", "commodities"])
    );
    let plain = with(&[]);
    assert_eq!(plain["expansions"], serde_json::json!([]));
    assert_ne!(named["seats"], plain["seats"]);
    let o = run(
        &[
            "simulate",
            "--expansion",
            "commodities",
            "--expansion",
            "commodities",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--expansion: `commodities` listed twice"),
        "{}",
        stderr(&o)
    );
    let o = run(&["simulate", "--expansion", "gold-rush"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown expansion \"gold-rush\" (known: commodities)"),
        "{}",
        stderr(&o)
    );
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
        "score",
        "spent",
        "elim %",
        "ms/dec",
        "games/s",
        "seed ",
        "win % by seat",
        "seats rotated",
        "bootstrap",
    ] {
        assert!(out.contains(needle), "{needle} missing in\n{out}");
    }
    assert_eq!(out.lines().filter(|l| l.starts_with("value ")).count(), 1);
    assert_eq!(out.lines().filter(|l| l.starts_with("random ")).count(), 1);
}

/// The table fits 100 columns whatever the agents' names: a long `exec:` name is shown short in
/// the table and in full below it (and in `--json`).
#[test]
fn simulate_table_fits_100_columns_with_long_agent_names() {
    let agent = format!(
        "{} --id --padding-to-make-the-name-long",
        python_agent("tests/agents/first_legal.py")
    );
    assert!(agent.len() > 60);
    let o = qe()
        .args(["simulate", "--games", "3", "--players", "5"])
        .args(["--bots", &format!("value,{agent},random,miser")])
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for line in out.lines() {
        assert!(columns(line) <= 100, "{} columns: {line}", columns(line));
    }
    assert!(out.lines().any(|l| l.starts_with("exec#1 ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("random ")), "{out}");
    let legend: String = out
        .lines()
        .skip_while(|l| !l.starts_with("exec#1 = "))
        .take(3)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(legend.starts_with(&format!("exec#1 = {agent}")), "{out}");
}

/// The table shows the numbers of the JSON result of the same tournament, each in its column.
#[test]
fn simulate_table_matches_its_json() {
    let args = [
        "simulate",
        "--games",
        "30",
        "--players",
        "5",
        "--commodities",
        "--bots",
        "value,random,miser",
        "--seed",
        "2",
    ];
    let o = run(&args, "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = simulate_json(&with_json);
    let title = out.lines().next().unwrap();
    assert!(
        title.starts_with("qe simulate: 30 games · 5 players · Commodities · "),
        "{title}"
    );
    assert!(out.lines().last().unwrap().starts_with("seed 2 "), "{out}");
    let pct = |x: &Value| format!("{:.1}", x.as_f64().unwrap() * 100.0);
    let fixed = |x: &Value, digits: usize| format!("{:.*}", digits, x.as_f64().unwrap());
    for name in ["value", "random", "miser"] {
        let row = agent_row(&v, name);
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        let cells: Vec<&str> = line.split_whitespace().collect();
        let (ci, rci) = (&row["win_rate_ci95"], &row["rating_ci95"]);
        let want = [
            name.to_string(),
            row["seats_played"].to_string(),
            pct(&row["win_rate"]),
            format!("{}–{}", pct(&ci[0]), pct(&ci[1])),
            fixed(&row["rating"], 0),
            format!("{}–{}", fixed(&rci[0], 0), fixed(&rci[1], 0)),
            fixed(&row["mean_score"], 2),
            fixed(&row["mean_spent"], 2),
            pct(&row["elimination_rate"]),
        ];
        assert_eq!(cells[..9], want, "{line}");
    }
    let seats: Vec<String> = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| pct(&s["win_rate"]))
        .collect();
    assert!(
        out.contains(&format!(
            "win % by seat (all agents): {}\n",
            seats.join(" · ")
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "no winner (all eliminated): {}% of games",
            pct(&v["no_winner_rate"])
        )),
        "{out}"
    );
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

/// With `--duplicate`, the games of a set share their deal and each seat's bot seed: with the same
/// bot at every seat, rotating the lineup changes nothing, so the three games of a set are the
/// same game and every seat's wins come in threes. Without it they do not.
#[test]
fn simulate_duplicate_plays_each_deal_once_per_rotation() {
    for bot in ["random", "value"] {
        let args = |duplicate: bool| {
            let mut a = vec![
                "simulate",
                "--games",
                "90",
                "--bots",
                bot,
                "--players",
                "3",
                "--seed",
                "4",
                "--json",
            ];
            if duplicate {
                a.push("--duplicate");
            }
            simulate_json(&a)
        };
        let wins = |v: &Value| -> Vec<u64> {
            v["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["wins"].as_u64().unwrap())
                .collect()
        };
        let d = args(true);
        assert_eq!(
            (&d["duplicate"], &d["set_size"], &d["sets"]),
            (&Value::from(true), &Value::from(3), &Value::from(30))
        );
        assert!(wins(&d).iter().all(|w| w % 3 == 0), "{bot}: {:?}", wins(&d));
        let plain = args(false);
        assert_eq!(
            (&plain["duplicate"], &plain["set_size"], &plain["sets"]),
            (&Value::from(false), &Value::from(1), &Value::from(90))
        );
        assert!(
            !wins(&plain).iter().all(|w| w % 3 == 0),
            "{bot}: {:?}",
            wins(&plain)
        );
    }
}

/// A duplicate tournament: its intervals are over sets, the table shows them, and the result does
/// not depend on the thread count.
#[test]
fn simulate_duplicate_reports_intervals_over_sets() {
    let args = [
        "simulate",
        "--games",
        "60",
        "--bots",
        "value,random,miser,value",
        "--duplicate",
        "--seed",
        "7",
        "--threads",
        "2",
        "--json",
    ];
    let a = simulate_json(&args);
    assert_eq!(
        (a["games"].as_u64(), a["sets"].as_u64()),
        (Some(60), Some(15))
    );
    let mut one = args.to_vec();
    one[9] = "1";
    let mut b = simulate_json(&one);
    b["threads"] = a["threads"].clone();
    assert_eq!(a, b);
    for row in a["agents"].as_array().unwrap() {
        let rate = row["win_rate"].as_f64().unwrap();
        let ci = &row["win_rate_ci95_over_sets"];
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= rate && rate <= hi, "{row}");
        let score = row["mean_score"].as_f64().unwrap();
        let sc = &row["mean_score_ci95_over_sets"];
        assert!(sc[0].as_f64().unwrap() <= score && score <= sc[1].as_f64().unwrap());
    }
    assert_eq!(a["sprt"], Value::Null);
    let o = run(&args[..args.len() - 1], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with(" · 15 duplicate sets"),
        "{out}"
    );
    let value = agent_row(&a, "value");
    let ci = &value["win_rate_ci95_over_sets"];
    let cell = format!(
        "{:.1}–{:.1}",
        ci[0].as_f64().unwrap() * 100.0,
        ci[1].as_f64().unwrap() * 100.0
    );
    let line = out.lines().find(|l| l.starts_with("value ")).unwrap();
    assert_eq!(line.split_whitespace().nth(3), Some(cell.as_str()), "{out}");
    assert!(
        out.contains("t interval of the means of the 15 duplicate sets"),
        "{out}"
    );
}

#[test]
fn simulate_duplicate_and_sprt_refuse_bad_values() {
    for (args, message) in [
        (
            &["--duplicate", "--games", "10", "--players", "3"][..],
            "--duplicate plays sets of 3 games (one per seat rotation of 3 players): --games 10 \
             is not a multiple of 3; use --games 9 or 12",
        ),
        (
            &["--duplicate", "--games", "2", "--players", "4"][..],
            "--games 2 is not a multiple of 4; use --games 4",
        ),
        (
            &["--sprt", "0,20", "--games", "9"][..],
            "the following required arguments were not provided:\n  --duplicate",
        ),
        (&["--duplicate", "--sprt", "20,0"][..], "got `20,0`"),
        (&["--duplicate", "--sprt", "0"][..], "got `0`"),
        (&["--duplicate", "--sprt", "0,x"][..], "got `0,x`"),
        (
            &["--duplicate", "--sprt", "0,20", "--alpha", "0.7"][..],
            "an error rate is a probability above 0 and below 0.5 (e.g. 0.05), got `0.7`",
        ),
        (
            &["--duplicate", "--sprt", "0,20", "--beta", "0"][..],
            "got `0`",
        ),
        (
            &["--alpha", "0.1", "--games", "9"][..],
            "the following required arguments were not provided:\n  --duplicate\n  --sprt <ELO0,ELO1>",
        ),
        (
            &[
                "--duplicate",
                "--sprt",
                "0,20",
                "--bots",
                "value",
                "--games",
                "8",
            ][..],
            "--sprt tests the first agent of --bots against the others, but `value` holds every \
             seat",
        ),
    ] {
        let mut all = vec!["simulate"];
        all.extend_from_slice(args);
        let o = run(&all, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

/// `--sprt`: a strong first agent is found stronger (H1) and a weak one not (H0), each well before
/// the `--games` cap; the LLR has left its bounds; the same seed gives the same output whatever the
/// thread count; at a small cap the test is left undecided.
#[test]
fn simulate_sprt_stops_when_decided() {
    let sprt = |bots: &str, games: &str, threads: &str| {
        simulate_json(&[
            "simulate",
            "--duplicate",
            "--sprt",
            "0,50",
            "--bots",
            bots,
            "--games",
            games,
            "--seed",
            "11",
            "--threads",
            threads,
            "--json",
        ])
    };
    for (bots, decision) in [("value,random,miser", "H1"), ("miser,value,random", "H0")] {
        let v = sprt(bots, "3000", "2");
        let t = &v["sprt"];
        assert_eq!(t["decision"], decision, "{bots}: {t}");
        let (sets, games) = (v["sets"].as_u64().unwrap(), v["games"].as_u64().unwrap());
        assert!(
            games < 3000 && games == 3 * sets && t["sets"] == sets,
            "{bots}: {v}"
        );
        let llr = t["llr"].as_f64().unwrap();
        let (lower, upper) = (
            t["lower_bound"].as_f64().unwrap(),
            t["upper_bound"].as_f64().unwrap(),
        );
        assert!((lower + 19f64.ln()).abs() < 1e-9 && (upper - 19f64.ln()).abs() < 1e-9);
        assert!(
            if decision == "H1" {
                llr >= upper
            } else {
                llr <= lower
            },
            "{t}"
        );
        assert_eq!(t["agent"], bots.split(',').next().unwrap());
        // Stopped at the first set that decided: the same for a seed, on any number of threads.
        let mut again = sprt(bots, "3000", "1");
        again["threads"] = v["threads"].clone();
        assert_eq!(v, again, "{bots}");
    }
    let capped = sprt("random,value,value", "6", "1");
    assert_eq!(capped["games"], 6);
    assert_eq!(capped["sprt"]["decision"], Value::Null);
    // The table says the same.
    let o = run(
        &[
            "simulate",
            "--duplicate",
            "--sprt",
            "0,50",
            "--bots",
            "value,random,miser",
            "--games",
            "3000",
            "--seed",
            "11",
            "--threads",
            "2",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("SPRT: value (1 seat a game) against the field · H0 elo 0"),
        "{out}"
    );
    assert!(out.contains("H1 accepted"), "{out}");
}

/// The example agent (Python, standard library only) plays whole games through `exec:`.
#[test]
fn simulate_runs_the_python_example_agent() {
    assert!(
        Command::new("python3").arg("--version").output().is_ok(),
        "python3 not found: this test runs the Python example agent and needs python3 on PATH"
    );
    let agent = python_agent("../examples/python/agent_random.py");
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
    let row = agent_row(&v, &agent);
    assert_eq!(row["seats_played"], 12);
    assert_no_faults(&row, "");
}

/// `start` gives the number of turns and the expansions (the view the same set), each `act` carries
/// a spend bound per seat, and each event
/// once, redacted for the seat (R-VIS-8): an agent that checks all of it (and answers illegally
/// when any is broken) gives no illegal answer.
#[test]
fn an_agent_gets_every_seats_bounds_and_each_event_once() {
    let agent = python_agent("tests/agents/strict.py");
    for (lineup, extra) in [
        (format!("value,miser,{agent},value"), None),
        (format!("value,{agent},random"), None),
        (
            format!("value,value,{agent},random,miser"),
            Some("--commodities"),
        ),
    ] {
        let mut args = vec!["simulate", "--games", "5", "--bots", &lineup, "--json"];
        args.extend(extra);
        let v = simulate_json(&args);
        let row = agent_row(&v, &agent);
        assert_eq!(row["seats_played"], 5, "{lineup}: {row}");
        assert_no_faults(&row, &lineup);
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
        // Exits while a child keeps its output open: a crash, not a timeout.
        ("crash_leaving_child.sh", "crashes"),
        // Agents that flood or never read: bounded, and nothing waits on them.
        ("deaf.sh", "timeouts"),
        ("long_line.sh", "illegal_answers"),
        ("not_utf8.sh", "illegal_answers"),
    ] {
        let agent = format!("exec:sh {dir}/{script}");
        // Timeouts come from agents that never answer (or never read), so a short limit cannot
        // catch a slow answer; the other agents get a minute, so that a loaded machine cannot turn
        // their faults into timeouts.
        let timeout = if fault == "timeouts" { "300" } else { "60000" };
        let v = simulate_json(&[
            "simulate",
            "--games",
            "3",
            "--bots",
            &format!("value,value,{agent}"),
            "--agent-timeout",
            timeout,
            "--json",
        ]);
        assert_eq!(v["games"], 3);
        let row = agent_row(&v, &agent);
        assert!(row[fault].as_u64().unwrap() > 0, "{script}: {row}");
        assert!(
            row["fallback_moves"].as_u64().unwrap() > 0,
            "{script}: {row}"
        );
    }
}

/// Every question carries an `id`: an agent that writes each answer twice and echoes the ids has
/// its stray copies dropped and counted as stale, never applied to the next question; without
/// ids, the same stray line is taken as the next answer (a legal one, by luck, or an illegal one).
#[test]
fn a_stray_answer_with_a_stale_id_is_dropped_not_applied() {
    let with_ids = format!(
        "{} --twice --id",
        python_agent("tests/agents/first_legal.py")
    );
    let v = against_two_value_bots(4, &with_ids);
    let row = agent_row(&v, &with_ids);
    for fault in ["illegal_answers", "timeouts", "crashes", "fallback_moves"] {
        assert_eq!(row[fault], 0, "{fault}: {row}");
    }
    // Every seat acts at least once a turn, 16 turns a game: each of its questions but the first
    // finds the previous answer's copy waiting.
    let stale = row["stale_answers"].as_u64().unwrap();
    assert!(stale >= 4 * 16 - 1, "{row}");
    let without = format!("{} --twice", python_agent("tests/agents/first_legal.py"));
    let v = against_two_value_bots(4, &without);
    let row = agent_row(&v, &without);
    assert_eq!(row["stale_answers"], 0, "{row}");
    assert!(row["illegal_answers"].as_u64().unwrap() > 0, "{row}");
}

/// An agent that exits between games (after an `end`) is started again for the next game, which
/// it plays in full: no crash, no move by the value bot.
#[test]
fn an_agent_that_exits_between_games_plays_the_next_one() {
    let agent = format!(
        "{} --one-game --id",
        python_agent("tests/agents/first_legal.py")
    );
    let v = against_two_value_bots(5, &agent);
    assert_eq!(v["games"], 5);
    assert_no_faults(&agent_row(&v, &agent), "exits after each game");
}

/// An agent whose children leave its process group (`setsid`) and hold its pipes open costs no
/// thread once it is stopped: over 20 games of such an agent, `qe` keeps a bounded number of
/// threads (it went from 6 to 44 over 40 games when a reader thread waited on every such pipe).
#[cfg(target_os = "linux")]
#[test]
fn agents_children_that_leave_its_group_leave_no_threads_behind() {
    let counts = tmp("threads.txt");
    let _ = std::fs::remove_file(&counts);
    let agent = format!(
        "exec:sh {}/tests/agents/setsid_child.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = qe()
        .args(["simulate", "--games", "20", "--threads", "1", "--json"])
        .args(["--bots", &format!("value,value,{agent}")])
        .env("QE_TEST_THREADS", &counts)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(agent_row(&v, &agent)["crashes"], 20);
    let counts: Vec<u64> = std::fs::read_to_string(&counts)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    // Started for each game, and once more in it (gone before a word: maybe between games).
    assert_eq!(counts.len(), 40);
    // The main thread, one reader and one writer per live agent, a few stopping ones: 3 to 7 on a
    // quiet machine, up to 15 seen while other builds ran (stopping threads end later there). A
    // leak grows with the games: it reached 44 in 20 games before readers were bounded.
    let most = *counts.iter().max().unwrap();
    assert!(most <= 20, "qe's threads as each agent started: {counts:?}");
}

/// An answer for another seat is illegal even when that seat may act (R-AUC-12): every answer of
/// an agent that always answers for the next seat is replaced by a value-bot move.
#[test]
fn simulate_refuses_an_answer_for_another_seat() {
    let dir = format!("{}/tests/agents", env!("CARGO_MANIFEST_DIR"));
    let agent = format!("exec:sh {dir}/next_seat.sh");
    let o = run(
        &[
            "simulate",
            "--games",
            "3",
            "--bots",
            &format!("value,value,value,value,{agent}"),
            // Every answer must arrive in time to be counted as illegal: the agent runs `sed` for
            // each request, which a loaded machine once took past 300 ms.
            "--agent-timeout",
            "10000",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let row = agent_row(&v, &agent);
    let decisions = v["timing"]["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == agent.as_str())
        .unwrap()["decisions"]
        .as_u64()
        .unwrap();
    assert!(decisions > 0);
    assert_eq!(row["timeouts"], 0, "{row}");
    assert_eq!(row["illegal_answers"].as_u64(), Some(decisions), "{row}");
    assert_eq!(row["fallback_moves"].as_u64(), Some(decisions), "{row}");
}

/// The seeds of game `index` of a tournament seeded `seed`, and of its seats' bots
/// (`simulate::game_seeds`): the first words of stream `index` of ChaCha20 keyed by the seed.
fn game_seeds(seed: u64, index: u64) -> (u64, Vec<u64>) {
    use rand_core::{RngCore, SeedableRng};
    let mut stream = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    stream.set_stream(index);
    let game = stream.next_u64();
    (game, (0..5).map(|_| stream.next_u64()).collect())
}

/// What a spying agent saw of each game: `(game index, players, the tiles revealed in turn
/// order)`, read from the lines it kept (one process, so one game after another).
fn spied_games(path: &Path) -> Vec<(u64, u8, Vec<String>)> {
    let mut games: Vec<(u64, u8, Vec<String>)> = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "start" {
            assert_eq!(v["commodities"], false);
            let players = v["players"].as_u64().unwrap() as u8;
            games.push((v["game"].as_u64().unwrap(), players, Vec::new()));
        }
        let tiles = &mut games.last_mut().expect("start comes first").2;
        for e in v["events"].as_array().into_iter().flatten() {
            if e["event"] == "tile_revealed" {
                tiles.push(e["tile"].as_str().unwrap().to_owned());
            }
        }
    }
    games
}

/// The deck of a base game of `players` seeded `seed`, as tile names.
fn deck(players: u8, seed: u64) -> Vec<String> {
    let rules = Rules::base(players).unwrap();
    let deck = qe_core::Setup::seeded(&rules, seed).deck().to_vec();
    deck.iter().map(ToString::to_string).collect()
}

/// Arena integrity: an agent that knows how games used to be seeded (game `i` from
/// `mix(S ^ mix(i))`, S = 0 by default) and sees its game index predicts no deck when `qe` draws
/// the tournament seed; the seed is printed at the end, and replaying with it reproduces every
/// deck (so the spy's reading of the revealed tiles is right).
#[test]
fn an_agent_cannot_predict_the_games_from_the_seeding() {
    let dir = format!("{}/tests/agents", env!("CARGO_MANIFEST_DIR"));
    let agent = format!("exec:sh {dir}/spy.sh");
    let spy = tmp("spy.jsonl");
    let _ = std::fs::remove_file(&spy);
    let o = qe()
        .args(["simulate", "--games", "12", "--threads", "1", "--json"])
        .args(["--bots", &format!("value,value,{agent}")])
        .env("QE_TEST_SPY", &spy)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let seed = v["seed"].as_u64().expect("the drawn seed is in the result");
    let games = spied_games(&spy);
    assert_eq!(games.len(), 12);
    let old = |s: u64, i: u64| qe_core::mix_seed(s ^ qe_core::mix_seed(i));
    let mut predicted = 0;
    for (i, players, tiles) in &games {
        assert_eq!(tiles.len(), 16, "game {i}: {tiles:?}");
        // The hostile agent's guesses: the old derivation, with the old default seed and with the
        // game index taken as the seed.
        for guess in [old(0, *i), old(*i, 0), *i] {
            predicted += usize::from(deck(*players, guess)[..16] == tiles[..]);
        }
        // With the seed printed at the end, every deck is known.
        let (game, _) = game_seeds(seed, *i);
        assert_eq!(deck(*players, game)[..16], tiles[..], "game {i}");
    }
    assert_eq!(predicted, 0, "decks predicted from the game index");
    // The printed seed reproduces the tournament.
    let again = simulate_json(&[
        "simulate",
        "--games",
        "12",
        "--bots",
        "value,random,miser",
        "--seed",
        "77",
        "--json",
    ]);
    let drawn = simulate_json(&[
        "simulate",
        "--games",
        "12",
        "--bots",
        "value,random,miser",
        "--json",
    ]);
    let replayed = simulate_json(&[
        "simulate",
        "--games",
        "12",
        "--bots",
        "value,random,miser",
        "--seed",
        &drawn["seed"].to_string(),
        "--json",
    ]);
    assert_eq!(drawn, replayed);
    assert_eq!(again["seed"], 77);
    assert_ne!(
        drawn["seed"], again["seed"],
        "a drawn seed is not a fixed default"
    );
}

/// The tournament's sums are those of its games, replayed here: game i seeded from (seed, i),
/// seat s played by lineup entry (s + i) mod players with its bot seeded from (game seed, s);
/// every agent's seats, wins, score, spent and eliminations, each seat's wins, win rate and
/// score, the games without a winner, and the Wilson interval of each agent's wins over the seats
/// it played. Three misers spend alike and are all eliminated (R-SCO-2): no game has a winner.
#[test]
fn simulate_tallies_the_games_it_plays() {
    for lineup in [["value", "miser", "miser"], ["miser", "miser", "miser"]] {
        tally_and_compare(lineup);
    }
}

fn tally_and_compare(lineup: [&str; 3]) {
    let (games, seed) = (8u64, 4u64);
    let v = simulate_json(&[
        "simulate",
        "--games",
        &games.to_string(),
        "--bots",
        &lineup.join(","),
        "--seed",
        &seed.to_string(),
        "--threads",
        "1",
        "--json",
    ]);
    let mut agents: Vec<&str> = Vec::new();
    for name in lineup {
        if !agents.contains(&name) {
            agents.push(name);
        }
    }
    let agent_of = |entry: usize| agents.iter().position(|a| *a == lineup[entry]).unwrap();
    let n_agents = agents.len();
    let (mut played, mut wins, mut score, mut eliminated) = (
        vec![0u64; n_agents],
        vec![0f64; n_agents],
        vec![0u64; n_agents],
        vec![0u64; n_agents],
    );
    let mut spent = vec![0i128; n_agents];
    let (mut seat_wins, mut seat_score) = ([0u64; 3], [0u64; 3]);
    let mut no_winner = 0u64;
    for i in 0..games {
        let (gs, bot_seeds) = game_seeds(seed, i);
        let entry = |s: usize| (s + i as usize) % 3;
        let mut game = Game::seeded(Rules::base(3).unwrap(), gs);
        let mut bots: Vec<BoxedBot> = (0..3)
            .map(|s| by_name(lineup[entry(s)], bot_seeds[s]).unwrap())
            .collect();
        while !game.is_over() {
            let seat = game.to_act().first().unwrap();
            let c = bots[seat.index()].act(&game.view(seat)).unwrap();
            game.apply(c).unwrap();
        }
        let outcome = game.outcome().unwrap();
        no_winner += u64::from(outcome.seats().iter().all(|o| !o.winner));
        let winners = outcome.seats().iter().filter(|o| o.winner).count() as f64;
        for o in outcome.seats() {
            let s = usize::from(o.seat);
            let a = agent_of(entry(s));
            played[a] += 1;
            // A shared win is split among its winners.
            if o.winner {
                wins[a] += 1.0 / winners;
            }
            score[a] += u64::from(o.total);
            spent[a] += o.spent;
            eliminated[a] += u64::from(o.eliminated);
            seat_wins[s] += u64::from(o.winner);
            seat_score[s] += u64::from(o.total);
        }
    }
    // Rotated through the seats, each lineup entry plays one seat of every game.
    for (a, name) in agents.iter().enumerate() {
        let entries = lineup.iter().filter(|n| *n == name).count() as u64;
        assert_eq!(played[a], entries * games, "{name}");
    }
    if lineup == ["miser"; 3] {
        assert_eq!(no_winner, games, "three misers spend alike");
    }
    let close = |got: &Value, want: f64| (got.as_f64().unwrap() - want).abs() < 1e-9;
    assert!(
        close(&v["no_winner_rate"], no_winner as f64 / games as f64),
        "{lineup:?}: {no_winner} of {games} games without a winner: {v}"
    );
    for (a, name) in agents.iter().enumerate() {
        let row = agent_row(&v, name);
        let n = played[a] as f64;
        assert_eq!(row["seats_played"].as_u64(), Some(played[a]), "{row}");
        assert!(close(&row["wins"], wins[a]), "{row}");
        assert!(close(&row["mean_score"], score[a] as f64 / n), "{row}");
        assert!(close(&row["mean_spent"], spent[a] as f64 / n), "{row}");
        assert!(
            close(&row["elimination_rate"], eliminated[a] as f64 / n),
            "{row}"
        );
        // The 95% Wilson score interval of wins[a] in played[a] seats.
        let (z, p) = (1.959_964f64, wins[a] / n);
        let center = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        let ci = &row["win_rate_ci95"];
        assert!(close(&ci[0], (center - half).max(0.0)), "{row}");
        assert!(close(&ci[1], (center + half).min(1.0)), "{row}");
    }
    for (s, seat) in v["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(seat["wins"].as_u64(), Some(seat_wins[s]), "{seat}");
        assert!(
            close(&seat["win_rate"], seat_wins[s] as f64 / games as f64),
            "{seat}"
        );
        assert!(
            close(&seat["mean_score"], seat_score[s] as f64 / games as f64),
            "{seat}"
        );
    }
}

/// A seat's win rate is over all games, those without a winner included: with an agent that
/// spends in odd games only, against two misers, half the games have no winner.
#[test]
fn simulate_rates_seats_over_every_game() {
    let agent = python_agent("tests/agents/spender_in_odd_games.py");
    let v = simulate_json(&[
        "simulate",
        "--games",
        "12",
        "--bots",
        &format!("{agent},miser,miser"),
        "--json",
    ]);
    assert_eq!(v["no_winner_rate"], 0.5, "{v}");
    let mut wins = 0;
    for seat in v["seats"].as_array().unwrap() {
        let w = seat["wins"].as_u64().unwrap();
        assert_eq!(seat["win_rate"].as_f64(), Some(w as f64 / 12.0), "{seat}");
        wins += w;
    }
    // The odd games: both misers win, each half of the game.
    assert_eq!(wins, 12, "{v}");
    assert_eq!(agent_row(&v, "miser")["wins"], 6.0);
    let row = agent_row(&v, &agent);
    assert_no_faults(&row, "");
}

/// A lineup shorter than the seats repeats from its start; more threads than games are not
/// started.
#[test]
fn simulate_repeats_a_short_lineup_and_caps_its_threads() {
    let v = simulate_json(&[
        "simulate",
        "--games",
        "6",
        "--players",
        "5",
        "--bots",
        "value,random",
        "--threads",
        "4",
        "--json",
    ]);
    assert_eq!(
        v["lineup"],
        serde_json::json!(["value", "random", "value", "random", "value"])
    );
    assert_eq!(agent_row(&v, "value")["seats_played"], 18);
    assert_eq!(agent_row(&v, "random")["seats_played"], 12);
    assert_eq!(v["threads"], 4);
    for (games, threads, want) in [("1", "4", 1), ("3", "2", 2)] {
        let v = simulate_json(&["simulate", "--games", games, "--threads", threads, "--json"]);
        assert_eq!(v["threads"], want, "--games {games} --threads {threads}");
    }
    let o = run(&["simulate", "--games", "1", "--threads", "4"], "");
    assert!(stdout(&o).contains("· 1 thread ·"), "{}", stdout(&o));
}

/// The time per decision is an agent's thinking time over its decisions: a single thread's
/// agents cannot think longer, together, than the tournament took.
#[test]
fn simulate_times_each_decision() {
    let o = run(
        &[
            "simulate",
            "--games",
            "4",
            "--bots",
            "search:easy,value,value",
            "--threads",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let timing = &v["timing"];
    let mut thought = 0.0;
    for a in timing["agents"].as_array().unwrap() {
        let decisions = a["decisions"].as_u64().unwrap();
        assert!(decisions > 0, "{a}");
        thought += a["ms_per_decision"].as_f64().unwrap() * decisions as f64 / 1e3;
    }
    let seconds = timing["seconds"].as_f64().unwrap();
    assert!(
        thought > 0.0 && thought <= seconds,
        "{thought} s of thinking in {seconds} s: {timing}"
    );
}

/// The timed search bot is an agent of `qe simulate` by its name `search:ms=MS`.
#[test]
fn simulate_takes_the_timed_search_bot() {
    let o = run(
        &[
            "simulate",
            "--bots",
            "search:ms=2,value",
            "--games",
            "2",
            "--threads",
            "1",
            "--seed",
            "4",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents[0]["agent"], "search:ms=2");
    assert_eq!(agents[0]["seats_played"], 4);
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
            &["simulate", "--bots", "value,search:ms=0"],
            "unknown agent `search:ms=0`",
        ),
        (
            &["play", "--bots", "value,search:ms=60001"],
            "unknown bot `search:ms=60001`",
        ),
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

/// Runs `qe ARGS` with a terminal for its standard streams (util-linux `script`), typing `keys`,
/// and returns what the terminal showed; `None` when `script` is not installed.
fn on_a_terminal_typing(args: &str, keys: &str) -> Option<String> {
    let o = on_a_terminal_shell(&format!("'{}' {args}", env!("CARGO_BIN_EXE_qe")), keys)?;
    assert!(o.status.success(), "{}", stderr(&o));
    Some(stdout(&o).replace('\r', ""))
}

/// Runs the shell command `command` on a terminal (util-linux `script`), typing `keys`; `None`
/// when `script` is not installed.
fn on_a_terminal_shell(command: &str, keys: &str) -> Option<Output> {
    let Ok(mut child) = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("SKIPPED: util-linux `script` is not installed, so this on-a-terminal check did not run");
        return None;
    };
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(keys.as_bytes());
    drop(stdin);
    Some(output_within_a_minute(child))
}

/// [`on_a_terminal_typing`] nothing.
fn on_a_terminal(args: &str) -> Option<String> {
    on_a_terminal_typing(args, "")
}

#[test]
fn simulate_draws_a_progress_bar_only_on_a_terminal() {
    // Piped: nothing on standard error, with or without --json.
    for args in [
        &["simulate", "--games", "40"][..],
        &["simulate", "--games", "40", "--json"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stderr(&o), "", "qe {args:?}");
    }
    // On a terminal: indicatif's bar, with the rate and the time left; never with --json.
    let Some(shown) = on_a_terminal("simulate --games 300 --threads 2") else {
        return;
    };
    for needle in [
        "300/300 games",
        "games/s",
        "ETA",
        "[#####",
        "qe simulate: 300 games",
    ] {
        assert!(shown.contains(needle), "{needle} missing:\n{shown}");
    }
    let json = on_a_terminal("simulate --games 300 --json").unwrap();
    let v: Value = serde_json::from_str(&json).expect("only JSON on the terminal");
    assert_eq!(v["games"], 300);
}

// ----- Ctrl-C -------------------------------------------------------------------------------------

/// Waits until process `pid` handles SIGINT (on Linux, bit 1 of `SigCgt` in `/proc/PID/status`;
/// elsewhere, 2 seconds).
fn wait_for_sigint_handler(pid: u32) {
    let status = format!("/proc/{pid}/status");
    if std::fs::read_to_string(&status).is_err() {
        std::thread::sleep(std::time::Duration::from_secs(2));
        return;
    }
    for _ in 0..600 {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << 1) != 0);
        if caught {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("process {pid} never handled SIGINT");
}

/// Sends `signal` (`-INT`, `-KILL`) to process `pid`.
fn signal(pid: u32, signal: &str) {
    let _ = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status();
}

/// Waits for a child's output, killing it if it is still running after a minute.
fn output_within_a_minute(child: std::process::Child) -> Output {
    let pid = child.id();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let done = std::sync::Arc::clone(&done);
        std::thread::spawn(move || {
            for _ in 0..600 {
                if done.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            signal(pid, "-KILL");
        })
    };
    let o = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    watchdog.join().unwrap();
    o
}

#[test]
fn ctrl_c_stops_simulate_with_the_games_finished_so_far() {
    for json in [false, true] {
        let mut args = vec!["simulate", "--games", "1000000000", "--threads", "1"];
        if json {
            args.push("--json");
        }
        let child = qe()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_sigint_handler(child.id());
        std::thread::sleep(std::time::Duration::from_millis(500));
        signal(child.id(), "-INT");
        let o = output_within_a_minute(child);
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let (out, err) = (stdout(&o), stderr(&o));
        assert!(
            err.contains("interrupted (Ctrl-C or a termination signal) after ")
                && err.contains(" of 1000000000 games"),
            "{err}"
        );
        let games = if json {
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["interrupted"], true);
            v["games"].as_u64().unwrap()
        } else {
            assert!(out.contains("win %") && out.contains("by seat"), "{out}");
            let first = out.lines().next().unwrap();
            first
                .strip_prefix("qe simulate: ")
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap()
        };
        assert!(games > 0 && games < 1_000_000_000, "{games}");
        assert!(err.contains(&format!("after {games} of")), "{err}");
    }
}

/// `qe play --seed 9 --record PATH`, started, its standard streams piped.
fn spawn_play(path: &Path) -> std::process::Child {
    qe().args(["play", "--seed", "9", "--record", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Interrupts `child` (a `qe play` with its standard streams piped) with Ctrl-C once its output
/// so far passes `ready`, having written `input` to it (its input then stays open). Gives its
/// output and exit, and all it printed.
fn interrupt_play(
    mut child: std::process::Child,
    input: &[u8],
    ready: impl Fn(&str) -> bool,
) -> (Output, String) {
    use std::io::Read as _;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    let mut out = child.stdout.take().unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let seen = std::sync::Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                seen.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    wait_for_sigint_handler(child.id());
    for _ in 0..600 {
        if ready(&seen.lock().unwrap()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(ready(&seen.lock().unwrap()), "{}", seen.lock().unwrap());
    signal(child.id(), "-INT");
    let o = output_within_a_minute(child);
    reader.join().unwrap();
    drop(stdin);
    let printed = seen.lock().unwrap().clone();
    (o, printed)
}

#[test]
fn ctrl_c_in_play_saves_the_record_as_a_spoiler() {
    let path = tmp("interrupted.json");
    let _ = std::fs::remove_file(&path);
    // One command, then the input stays open: `qe play` waits at its next prompt.
    let (o, out) = interrupt_play(spawn_play(&path), b"5\n", |seen| {
        seen.matches("\n> ").count() >= 2
    });
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("interrupted (Ctrl-C or a termination signal)"),
        "{}",
        stderr(&o)
    );
    // The record of the unfinished game is saved and announced as a spoiler.
    assert!(
        out.contains("record saved to") && out.contains("SPOILER"),
        "{out}"
    );
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
    // Without --record, Ctrl-C stops the game too (the input stays open: no end of input).
    let mut child = qe()
        .args(["play", "--seed", "9"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    wait_for_sigint_handler(child.id());
    signal(child.id(), "-INT");
    let o = output_within_a_minute(child);
    drop(stdin);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(!stdout(&o).contains("SPOILER"));
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

/// Usage errors name the option and the value given, and say what would be right.
#[test]
fn usage_errors_name_the_option_and_the_value() {
    let (path, _) = bot_game(Rules::base(4).unwrap(), 6, "usage-names.json");
    let file = path.to_str().unwrap();
    for (args, says) in [
        // A negative number is a bad value of its option, not an unknown option `-1`.
        (
            &["simulate", "--games", "-1"][..],
            "invalid value '-1' for '--games <N>'",
        ),
        (
            &["simulate", "--seed", "-1"],
            "invalid value '-1' for '--seed <S>': a seed is a whole number from 0 to \
             18446744073709551615, got `-1`",
        ),
        (
            &["play", "--seed", "18446744073709551616"],
            "a seed is a whole number from 0 to 18446744073709551615, got `18446744073709551616`",
        ),
        (
            &["play", "--seat", "-1"],
            "invalid value '-1' for '--seat <SEAT>'",
        ),
        (
            &["replay", "--step", "--seat", "-1", file],
            "invalid value '-1' for '--seat <N>'",
        ),
        // --seat belongs to --step, with --json too.
        (
            &["replay", "--seat", "1", "--json", file],
            "--seat chooses whose view --step shows",
        ),
        // Standard input and output are play's own; only one input may be standard input.
        (
            &["play", "--manifest", "-"],
            "give --manifest a file, not '-'",
        ),
        (&["play", "--record", "-"], "give --record a file, not '-'"),
        (
            &["replay", "--manifest", "-", "-"],
            "cannot both be read from standard input",
        ),
        // Names are lower case, as records write them.
        (
            &["simulate", "--expansion", "Commodities"],
            "unknown expansion \"Commodities\"",
        ),
        // --manifest is global; completions would ignore it.
        (
            &["--manifest", "m.json", "completions", "bash"],
            "completions takes no --manifest",
        ),
        (
            &["completions", "bash", "--manifest", "m.json"],
            "completions takes no --manifest",
        ),
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "qe {args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "qe {args:?}: {}", stderr(&o));
    }
}

/// A record or manifest that starts with a byte order mark gets a message saying so, not a
/// JSON syntax error at line 1, column 1.
#[test]
fn a_byte_order_mark_is_named() {
    let (path, _) = bot_game(Rules::base(4).unwrap(), 6, "bom.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let o = run(&["replay", "-"], &format!("\u{feff}{text}"));
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard input: the record starts with a byte order mark"),
        "{}",
        stderr(&o)
    );
    assert_eq!(run(&["replay", "-"], &text).status.code(), Some(0));
}

/// `qe play` says when its standard input cannot be read, as `qe replay -` does (exit 3), rather
/// than taking it for the end of the input.
#[cfg(unix)]
#[test]
fn play_says_when_its_input_cannot_be_read() {
    let o = qe()
        .args(["play", "--seed", "1"])
        .stdin(std::fs::File::open(std::env::temp_dir()).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("qe: cannot read standard input: Is a directory"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_input_gets_a_clear_message() {
    // No games to play, or no time for an agent to answer, is a usage error, with a message.
    for (args, says) in [
        (
            &["simulate", "--games", "0"][..],
            "a tournament needs at least 1 game",
        ),
        (&["simulate", "-n0"], "a tournament needs at least 1 game"),
        (
            &["simulate", "--agent-timeout", "0"],
            "invalid value '0' for '--agent-timeout <MS>'",
        ),
        // The range said is the range accepted, with its unit.
        (
            &["simulate", "--agent-timeout", "18446744073709551615"],
            "a whole number of milliseconds from 1 to 86400000 (a day), got `18446744073709551615`",
        ),
        (
            &["simulate", "--agent-timeout", "86400001"],
            "milliseconds from 1 to 86400000",
        ),
        (
            &["simulate", "--agent-timeout", "0"],
            "milliseconds from 1 to 86400000",
        ),
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
    for ms in ["1", "86400000"] {
        let o = run(&["simulate", "--games", "1", "--agent-timeout", ms], "");
        assert_eq!(o.status.code(), Some(0), "{ms}: {}", stderr(&o));
    }
    // In `qe play`: the opening screen points to `help` and `qe rules`; a command without its
    // argument says what is missing; commands are case-insensitive.
    let path = tmp("case.json");
    let o = run(
        &["play", "--seed", "9", "--record", path.to_str().unwrap()],
        "bid\ntake\nPEEK\nBID 5\n",
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    let opening = out.split("──── turn").next().unwrap();
    assert!(
        opening.contains("`help`") && opening.contains("`qe rules`"),
        "{out}"
    );
    assert!(out.contains("error: bid needs an amount: bid 5"), "{out}");
    assert!(out.contains("error: take needs a pile: take gold"), "{out}");
    assert!(out.contains("error: peek needs a turn: peek 3"), "{out}");
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        record.commands[0],
        Ok(qe_core::Command::Bid {
            seat: Seat(0),
            amount: 5
        })
    );
    let o = run(&["play", "--seed", "9"], "Bid 4\nQUIT\n");
    assert!(
        stdout(&o).contains("seat 0 (US) opens at 4"),
        "{}",
        stdout(&o)
    );
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

#[test]
fn help_fits_the_terminal() {
    let help = |columns: &str, args: &[&str]| {
        let o = qe().args(args).env("COLUMNS", columns).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "qe {args:?}");
        stdout(&o)
    };
    let pages: [&[&str]; 9] = [
        &["--help"],
        &["-h"],
        &["play", "--help"],
        &["replay", "--help"],
        &["simulate", "--help"],
        &["rules", "--help"],
        &["completions", "--help"],
        &["help", "play"],
        &["simulate", "-h"],
    ];
    for width in [40, 60, 80, 100, 132] {
        for args in pages {
            let text = help(&width.to_string(), args);
            for line in text.lines() {
                assert!(
                    columns(line) <= width,
                    "qe {args:?} at {width} columns: {line:?}\n{text}"
                );
            }
        }
    }
    // The extra texts are wrapped with hanging indents, and a wide terminal is used.
    let narrow = help("60", &["play", "--help"]);
    assert!(
        narrow.contains("\n                     or asset rebid)"),
        "{narrow}"
    );
    let wide = help("200", &["play", "--help"]);
    assert!(wide.lines().any(|l| columns(l) > 100), "{wide}");
}

#[test]
fn completions_for_every_shell() {
    // Its help does not offer the --manifest it refuses; the other commands' help does.
    assert!(!stdout(&run(&["completions", "--help"], "")).contains("--manifest"));
    assert!(stdout(&run(&["play", "--help"], "")).contains("--manifest"));
    let o = run(&["completions", "bash"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = stdout(&o);
    assert!(
        script.contains("complete -F _qe") || script.contains("-F _qe qe"),
        "{script}"
    );
    for word in [
        "play",
        "replay",
        "simulate",
        "rules",
        "completions",
        "--commodities",
    ] {
        assert!(script.contains(word), "{word} missing");
    }
    // When bash is here, the script loads and registers the completion of `qe`.
    let path = tmp("qe.bash");
    std::fs::write(&path, &script).unwrap();
    if let Ok(o) = Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p qe", path.display()))
        .output()
    {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("_qe qe"), "{}", stdout(&o));
    } else {
        eprintln!("SKIPPED: bash is not installed, so the bash completion script was not loaded");
    }
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let o = run(&["completions", shell], "");
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("simulate"), "{shell}");
    }
    let o = run(&["completions", "tcsh"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// The cases every binding checks (`qe-core/tests/data/bad_commands.json`), as the first command
/// of a record through `qe replay --json`: the JSON's rule, code and message (the message alone,
/// without the `command K: RULE:` of standard error's line).
#[test]
fn replay_names_the_rule_and_code_of_the_shared_bad_commands() {
    let text = include_str!("../../qe-core/tests/data/bad_commands.json");
    let doc: Value = serde_json::from_str(text).unwrap();
    let record = qe_core::Match::seeded(Rules::base(4).unwrap(), 1)
        .record()
        .unwrap()
        .to_json();
    let start = record.find(r#""commands":["#).unwrap();
    for case in doc["cases"].as_array().unwrap() {
        let command = case["command"].as_str().unwrap();
        let text = format!(r#"{}"commands":[{command}]}}"#, &record[..start]);
        let o = run(&["replay", "--json", "-"], &text);
        assert_eq!(o.status.code(), Some(1), "{command}: {}", stderr(&o));
        let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(out["illegal"]["index"], 0, "{command}");
        assert_eq!(out["illegal"]["rule"], case["rule"], "{command}");
        assert_eq!(out["illegal"]["code"], case["code"], "{command}");
        // The message alone: standard error's line is `command K: RULE: MESSAGE`.
        let message = out["illegal"]["message"].as_str().unwrap();
        assert!(!message.starts_with("command "), "{command}: {message}");
        let line = format!("command 0: {}: {message}\n", case["rule"].as_str().unwrap());
        assert_eq!(stderr(&o), line, "{command}");
    }
}

// ----- hostile input and output ------------------------------------------------------------------

/// An agent whose answer never ends (no newline, ever) is read no further than a command's length:
/// under a 400 MB address-space limit the tournament finishes, counting a timeout a game.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_answer_is_read_to_a_bound() {
    let agent = format!(
        "exec:sh {}/tests/agents/endless.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 400000; exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_qe"),
        ])
        .args(["simulate", "--games", "2", "--threads", "1", "--json"])
        .args([
            "--bots",
            &format!("value,value,{agent}"),
            "--agent-timeout",
            "1000",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let row = agent_row(&v, &agent);
    assert_eq!(row["timeouts"], 2, "{row}");
}

/// An answer that passes 4096 bytes is an illegal answer at once (AGENT-PROTOCOL.md), even when
/// its line never ends: the tournament does not wait for the agent's time to run out.
#[cfg(target_os = "linux")]
#[test]
fn an_answer_past_the_limit_is_illegal_before_its_line_ends() {
    let agent = format!(
        "exec:sh {}/tests/agents/endless_answer.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = qe()
        .args(["simulate", "--games", "1", "--threads", "1", "--json"])
        // The first answer must come in well before its limit under any load; the second never
        // comes, and waits the limit out.
        .args([
            "--bots",
            &format!("value,value,{agent}"),
            "--agent-timeout",
            "10000",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let row = agent_row(&v, &agent);
    // The first answer is illegal at once (waited for, it would be a timeout); the next one is
    // still the rest of that line, and times out.
    assert_eq!(row["illegal_answers"], 1, "{row}");
    assert_eq!(row["timeouts"], 1, "{row}");
}

/// Whether process `pid` is gone (no such process, or a zombie about to be reaped).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
    }
}

/// What an agent starts is stopped with it: no process is left behind.
#[cfg(target_os = "linux")]
#[test]
fn simulate_leaves_no_process_of_an_agent_behind() {
    let (mut simulate, pids) = simulate_with_agent("orphan.sh", "2", "1");
    let o = simulate.output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_all_gone(&pids);
}

/// `qe simulate --json` of `games` games on `threads` threads between `value`, `value` and the test
/// agent `script`, which writes process ids to the file returned (made empty first).
fn simulate_with_agent(script: &str, games: &str, threads: &str) -> (Command, PathBuf) {
    let pids = tmp(&format!("{script}-pids.txt"));
    let _ = std::fs::remove_file(&pids);
    let agent = format!(
        "exec:sh {}/tests/agents/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut simulate = qe();
    simulate
        .args(["simulate", "--games", games, "--threads", threads, "--json"])
        .args(["--bots", &format!("value,value,{agent}")])
        .env("QE_TEST_PIDS", &pids);
    (simulate, pids)
}

/// Waits up to 5 seconds for every process listed in the file `pids` (one id a line) to be gone,
/// then fails naming those still alive (after killing them, so that no test leaves them behind).
fn assert_all_gone(pids: &Path) {
    let started: Vec<u32> = std::fs::read_to_string(pids)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert!(!started.is_empty());
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !started.iter().all(|&p| gone(p)) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let alive: Vec<&u32> = started.iter().filter(|&&p| !gone(p)).collect();
    for p in &alive {
        signal(**p, "-KILL");
    }
    assert!(alive.is_empty(), "left behind: {alive:?}");
}

/// A second Ctrl-C, which stops `qe` at once, stops its agents too, even one that ignores the end
/// of its input and every signal but SIGKILL (they run in process groups of their own, which a
/// terminal's Ctrl-C does not reach).
#[cfg(target_os = "linux")]
#[test]
fn a_second_ctrl_c_leaves_no_agent_behind() {
    let (mut simulate, pids) = simulate_with_agent("stubborn.sh", "1000000", "2");
    let child = simulate
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    wait_for_sigint_handler(pid);
    // Both workers' agents have started (each writes its id), however slow the machine.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_to_string(&pids).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            std::time::Instant::now() < until,
            "the agents never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    signal(pid, "-INT"); // the workers stop and wait for their agents to exit ...
    std::thread::sleep(std::time::Duration::from_millis(300));
    signal(pid, "-INT"); // ... which these never do: stop at once
    let o = output_within_a_minute(child);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_all_gone(&pids);
}

/// A record or manifest is read to at most its size limit: an endless input is refused at once.
#[cfg(unix)]
#[test]
fn replay_refuses_an_endless_input() {
    for args in [
        &["replay", "/dev/zero"][..],
        &["replay", "-"],
        &["--manifest", "/dev/zero", "rules"],
    ] {
        let o = qe()
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is at most 1048576 bytes, and this input is longer"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn replay_reads_a_record_of_exactly_the_size_limit() {
    // A record padded with spaces (JSON whitespace) to the limit replays; a byte more is refused.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/named");
    let text = std::fs::read_to_string(root.join("gold-crash.json")).unwrap();
    let max = qe_core::MAX_RECORD_BYTES;
    let mut padded = text.trim_end().to_owned();
    padded.push_str(&" ".repeat(max - padded.len()));
    for (extra, code) in [("", 0), (" ", 3)] {
        let input = format!("{padded}{extra}");
        let o = run(&["replay", "-"], &input);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{} bytes: {}",
            input.len(),
            stderr(&o)
        );
    }
}

/// A line that is too long, or not UTF-8, gets a message and a new prompt; the game goes on.
#[test]
fn play_answers_unreadable_lines_and_plays_on() {
    let path = tmp("unreadable.json");
    let mut input = vec![b'1'; 5000];
    input.extend_from_slice(b"\n\xe9t\xe9\n5\n");
    let mut child = spawn_play(&path);
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("that line is over 1024 bytes"), "{out}");
    assert!(out.contains("that line is not UTF-8 text"), "{out}");
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        record.commands[0],
        Ok(qe_core::Command::Bid {
            seat: Seat(0),
            amount: 5
        })
    );
}

/// `--record` in a directory that does not exist, or naming a directory, fails before the game.
#[test]
fn play_checks_the_record_path_before_the_game() {
    let missing = tmp("no-such-dir").join("r.json");
    let dir = tmp("");
    let file = tmp("a-file.txt");
    std::fs::write(&file, "").unwrap();
    let in_a_file = file.join("r.json");
    for path in [&missing, &dir, &in_a_file] {
        let o = run(
            &["play", "--seed", "9", "--record", path.to_str().unwrap()],
            "5\n",
        );
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write the record"),
            "{}",
            stderr(&o)
        );
        assert!(
            !stdout(&o).contains("──── turn"),
            "the game started: {}",
            stdout(&o)
        );
    }
}

/// An output that cannot be written: a closed pipe stops quietly with 141 (`play` saves its
/// record first), a full disk is exit 3 with a message, and an unwritable standard error never
/// makes `qe` panic.
#[cfg(target_os = "linux")]
#[test]
fn unwritable_output_is_reported_and_loses_no_record() {
    // A closed standard output: the reader is gone before `qe` writes.
    let path = tmp("closed-pipe.json");
    let _ = std::fs::remove_file(&path);
    let mut child = spawn_play(&path);
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(b"5\n");
    drop(input);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(path.exists(), "no record saved: {}", stderr(&o));
    // A full disk.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = qe()
        .args(["simulate", "--games", "3"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("qe: cannot write the output"),
        "{}",
        stderr(&o)
    );
    // Help and version text are output too.
    for args in [&["--help"][..], &["--version"], &["simulate", "--help"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = qe().args(args).stdout(full).output().unwrap();
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("qe: cannot write the output"),
            "{}",
            stderr(&o)
        );
    }
    // An unwritable standard error: the exit code still tells, and no panic.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = qe()
        .args(["replay", "/no/such/record.json"])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
}

// ----- more helpers ---------------------------------------------------------------------

/// Writes a test agent's program to a temporary file and returns its `--bots` entry:
/// `exec:INTERPRETER PATH ARGS…` (the temporary directory has no spaces in its path).
fn temp_agent(name: &str, interpreter: &str, source: &str, args: &[&str]) -> String {
    let path = tmp(name);
    std::fs::write(&path, source).unwrap();
    let mut spec = format!("exec:{interpreter} {}", path.display());
    for a in args {
        spec.push(' ');
        spec.push_str(a);
    }
    spec
}

// ----- agent protocol ---------------------------------------------------------------------------

/// The tournament over, an agent's input is closed and it has 2 seconds to exit: an agent that
/// takes a moment to finish (here 0.1 s, after its last game's `end`) is not killed before.
#[cfg(unix)]
#[test]
fn an_agent_may_finish_after_its_input_ends() {
    let done = tmp("finished.txt");
    let _ = std::fs::remove_file(&done);
    let agent = temp_agent(
        "finisher.sh",
        "sh",
        r#"ended=
while read -r line; do
    case "$line" in
    *'"type":"act"'*) echo 'I bid a lot' ;;
    *'"type":"end"'*) ended=1 ;;
    esac
done
if [ -n "$ended" ]; then
    sleep 0.1
    echo finished > "$1"
fi
"#,
        &[done.to_str().unwrap()],
    );
    let v = against_two_value_bots(1, &agent);
    assert_eq!(v["games"], 1);
    assert!(
        done.exists(),
        "the agent was stopped before it could finish"
    );
}

/// Anything an agent writes on its standard error reaches `qe`'s (AGENT-PROTOCOL.md: "standard
/// error passed through (use it for logs)").
#[test]
fn an_agents_standard_error_is_passed_through() {
    let agent = temp_agent(
        "chatty.sh",
        "sh",
        r#"while read -r line; do
    case "$line" in
    *'"type":"start"'*) echo 'qe-test-agent: a log line' >&2 ;;
    *'"type":"act"'*) echo 'I bid a lot' ;;
    esac
done
"#,
        &[],
    );
    let o = run(
        &[
            "simulate",
            "--games",
            "2",
            "--bots",
            &format!("value,value,{agent}"),
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("qe-test-agent: a log line"),
        "{}",
        stderr(&o)
    );
}

/// `qe simulate --json` of 5 games on one thread between two value bots and an agent that never
/// answers (it has a minute), interrupted by Ctrl-C once the agent has been asked: the output,
/// the time from the Ctrl-C to the exit, and the agent's `--bots` entry. `name` names the
/// temporary files.
#[cfg(target_os = "linux")]
fn interrupted_while_an_agent_thinks(name: &str) -> (Output, std::time::Duration, String) {
    let asked = tmp(&format!("{name}-asked.txt"));
    let _ = std::fs::remove_file(&asked);
    let agent = temp_agent(
        &format!("{name}-thinker.sh"),
        "sh",
        r#"while read -r line; do
    case "$line" in
    *'"type":"act"'*) echo asked >> "$1" ;;
    esac
done
"#,
        &[asked.to_str().unwrap()],
    );
    let child = qe()
        .args(["simulate", "--games", "5", "--threads", "1", "--json"])
        .args(["--agent-timeout", "60000"])
        .args(["--bots", &format!("value,value,{agent}")])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_sigint_handler(child.id());
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !asked.exists() {
        assert!(
            std::time::Instant::now() < until,
            "the agent was never asked"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let interrupted = std::time::Instant::now();
    signal(child.id(), "-INT");
    let o = output_within_a_minute(child);
    (o, interrupted.elapsed(), agent)
}

/// Ctrl-C while an agent thinks stops it at once, not after its time limit; no fault is counted
/// for it (README: "it is stopped (no fault is counted)"); and the game in progress, finished by
/// the value bot in the agent's place, is not tallied: here it is the first, so no game is.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_a_thinking_agent_without_a_fault_or_a_tally() {
    let (o, took, agent) = interrupted_while_an_agent_thinks("thinking");
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(
        took < std::time::Duration::from_secs(15),
        "{took:?} from Ctrl-C to exit"
    );
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["interrupted"], true);
    let row = agent_row(&v, &agent);
    for fault in ["illegal_answers", "timeouts", "crashes"] {
        assert_eq!(row[fault], 0, "{fault}: {row}");
    }
    assert_eq!(v["games"], 0, "{v}");
    assert_eq!(row["seats_played"], 0, "{v}");
    assert!(stderr(&o).contains("after 0 of 5 games"), "{}", stderr(&o));
}

// ----- simulate ----------------------------------------------------------------------------------

/// The table's line of an `exec:` agent's faults gives the counts of its JSON row, each in its
/// place.
#[test]
fn simulate_prints_an_agents_faults_as_its_json_counts_them() {
    let agent = format!(
        "exec:sh {}/tests/agents/crash.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = [
        "simulate",
        "--games",
        "3",
        "--threads",
        "1",
        "--seed",
        "3",
        "--bots",
        &format!("value,value,{agent}"),
    ];
    let o = run(&args, "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = simulate_json(&with_json);
    let row = agent_row(&v, &agent);
    assert!(row["crashes"].as_u64().unwrap() > 0, "{row}");
    // The agent's name is long: the table calls it exec#1 and names it below.
    assert!(
        stdout(&o).contains(&format!("\nexec#1 = {agent}\n")),
        "{}",
        stdout(&o)
    );
    let line = format!(
        "\nexec#1: {} illegal answers, {} timeouts, {} crashes, {} stale answers; {} value-bot \
         moves instead\n",
        row["illegal_answers"],
        row["timeouts"],
        row["crashes"],
        row["stale_answers"],
        row["fallback_moves"]
    );
    assert!(
        stdout(&o).contains(&line),
        "{line:?} not in\n{}",
        stdout(&o)
    );
}

/// Without --threads, a tournament runs on every core (`available_parallelism`), at most one
/// per game. On a one-core machine this cannot tell the difference.
#[test]
fn simulate_uses_every_core_by_default() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let v = simulate_json(&["simulate", "--games", "16", "--json"]);
    assert_eq!(v["threads"], cores.min(16), "{v}");
    let o = run(&["simulate", "--games", "16"], "");
    let threads = cores.min(16);
    let want = format!(
        "· {threads} thread{} ·",
        if threads == 1 { "" } else { "s" }
    );
    assert!(stdout(&o).contains(&want), "{}", stdout(&o));
}

// ----- replay ------------------------------------------------------------------------------------

/// A pending game's text report names the turn as the game counts it, from 0, and its round, as
/// `qe play`'s screen does (`show::turn_text`).
#[test]
fn replay_names_the_pending_turn_from_0() {
    let (path, _) = bot_game(Rules::base(4).unwrap(), 6, "pending-turns.json");
    let full: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for keep in [1, 9] {
        let mut record = full.clone();
        record["commands"].as_array_mut().unwrap().truncate(keep);
        let text = record.to_string();
        let m = Record::from_json(&text).unwrap().replay().unwrap();
        let o = run(&["replay", "-"], &text);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let t = m.game().turn();
        let want = format!(
            "pending after {keep} commands: turn {t} of 0–15 · round {} (turns {}–{}),",
            t / 4,
            t / 4 * 4,
            t / 4 * 4 + 3
        );
        assert!(stdout(&o).starts_with(&want), "{want:?}: {}", stdout(&o));
    }
}

/// The first line of a finished game's text report says whether Commodities was played.
#[test]
fn replay_says_whether_the_game_had_commodities() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/named");
    let with = root.join("gold-crash.json"); // 3 players, Commodities
    let (without, m) = bot_game(Rules::base(4).unwrap(), 6, "title-base.json");
    let o = run(&["replay", with.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let first = stdout(&o).lines().next().unwrap().to_owned();
    assert!(first.ends_with("(3 players, Commodities)"), "{first}");
    let o = run(&["replay", without.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().next().unwrap(),
        format!(
            "game over after {} commands (4 players)",
            m.commands().len()
        )
    );
}

// ----- play --------------------------------------------------------------------------------------

/// In a base game, a pile command is told that the game has no Commodities (R-COM-1).
#[test]
fn play_says_a_base_game_has_no_piles() {
    let o = run(&["play", "--seed", "9"], "take gold\nquit\n");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("error: this game is played without the Commodities expansion")
            && out.contains("(R-COM-1)"),
        "{out}"
    );
}

/// Hot-seat: `quit` typed where the next seat is asked to press Enter quits (it is not Enter).
#[test]
fn hot_seat_quit_at_the_hidden_screen_quits() {
    let o = run(&["play", "--humans", "0,1", "--seed", "9"], "quit\nview\n");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("quit; game abandoned"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(out.contains("Pass the terminal to seat 0 (US)"), "{out}");
    assert!(!out.contains("──── turn"), "the screen was shown:\n{out}");
}

/// `view` shows the screen again (README: "view | show the screen again").
#[test]
fn play_view_shows_the_screen_again() {
    let o = run(&["play", "--seed", "9"], "view\nquit\n");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.matches("──── turn 0 of 0–15 · round 0 (turns 0–3) · ")
            .count(),
        2,
        "{out}"
    );
    assert_eq!(out.matches("up for auction: ").count(), 2, "{out}");
}

/// `qe play --seed 12 --bots miser ARGS` to its end, the human answering 1 and 2 in turn to every
/// prompt, and the game it saved (in the temporary file `record`).
fn play_against_misers(args: &[&str], record: &str) -> (Output, qe_core::Match) {
    let path = tmp(record);
    let input: String = std::iter::repeat_n("1\n2\n", 400).collect();
    let mut all = vec!["play", "--seed", "12", "--bots", "miser"];
    all.extend(args);
    all.extend(["--record", path.to_str().unwrap()]);
    let o = run(&all, &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = Record::from_json(&std::fs::read_to_string(&path).unwrap())
        .unwrap()
        .replay()
        .unwrap();
    (o, m)
}

/// With one human, the last auction is told before the end, as every auction before it: its
/// award is narrated, also when a bot's command ends the game (seat 3 runs the last auction of
/// a 4-player game, R-TRN-2: it opens, and the bots' secret bids end it).
#[test]
fn play_tells_the_last_auction_before_the_end() {
    let (o, m) = play_against_misers(&["--seat", "3"], "last-auction.json");
    let view = m.game().public_view();
    let last = view.auctions().iter().rfind(|a| a.awarded).unwrap();
    assert_ne!(
        m.commands().last().unwrap().seat(),
        Some(Seat(3)),
        "a bot ends the game"
    );
    assert_eq!(last.auctioneer, Some(Seat(3)));
    let tile = last.tile.unwrap().to_string();
    let out = stdout(&o);
    let (during, _) = out.split_once("════ game over").unwrap();
    assert!(
        during
            .lines()
            .any(|l| l.starts_with("· ") && l.contains(&format!("wins {tile}"))),
        "the award of {tile} (turn {}) is not told:\n{during}",
        last.turn
    );
}

/// At the end of a 3-player game the set-aside industry token is revealed (R-VIS-6, R-VIS-7).
#[test]
fn play_reveals_the_set_aside_token_at_the_end() {
    let (o, m) = play_against_misers(&["--players", "3"], "set-aside.json");
    let aside = m.game().public_view().set_aside.unwrap();
    let out = stdout(&o);
    let end = out.find("game over: everything is revealed").unwrap();
    assert!(
        out[end..].contains(&format!("set aside: {}\n", aside.name())),
        "{out}"
    );
}

/// `--humans` with one seat is that seat played as `--seat` plays it: no hidden screen, and the
/// seat is "you".
#[test]
fn one_human_in_humans_is_not_hot_seat() {
    let o = run(&["play", "--seed", "9", "--humans", "1"], "quit\n");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("screen hidden"), "{out}");
    let seat1 = out.lines().find(|l| l.starts_with("  seat 1 ")).unwrap();
    assert!(seat1.ends_with(": you"), "{out}");
    assert!(out.contains("you are seat 1"), "{out}");
}

/// Hot-seat: Ctrl-C while the screen is hidden for the next seat saves the game as it stands then
/// (the first human's bid and the bots' bids after it), not as it stood at the previous prompt.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_while_the_screen_is_hidden_saves_the_game_so_far() {
    let path = tmp("hot-seat-interrupted.json");
    let _ = std::fs::remove_file(&path);
    let child = qe()
        .args(["play", "--seed", "4", "--humans", "0,2", "--bots", "miser"])
        .args(["--record", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Seat 0 presses Enter and opens at 5; the bots bid; the screen is hidden for seat 2, whose
    // Enter never comes.
    let (o, _) = interrupt_play(child, b"\n5\n", |seen| {
        seen.contains("Pass the terminal to seat 2")
    });
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let m = record.replay().unwrap();
    assert_eq!(
        record.commands.first(),
        Some(&Ok(qe_core::Command::Bid {
            seat: Seat(0),
            amount: 5
        })),
        "{:?}",
        record.commands
    );
    // Seat 2 is the one to act: every bot has bid.
    assert_eq!(
        m.game().to_act().iter().collect::<Vec<_>>(),
        vec![Seat(2)],
        "{:?}",
        record.commands
    );
}
