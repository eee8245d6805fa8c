//! Records and commands from untrusted JSON: a key given twice, oversized documents and more
//! commands than a legal game can have are rejected with a clear error, before any command runs;
//! what a record holds (its manifest, its piles, its malformed commands) is read and written back
//! as it was.

use qe_core::{
    Command, CommandError, Manifest, Match, Record, ReplayError, Rules, RulesBuilder, Seat, TileId,
    MAX_RECORD_BYTES,
};

fn record_text(players: u8) -> String {
    let mut m = Match::seeded(Rules::base(players).unwrap(), 7);
    m.apply(Command::Bid {
        seat: Seat(0),
        amount: 3,
    })
    .unwrap();
    m.record().unwrap().to_json()
}

fn with_commands(players: u8, commands: &str) -> String {
    let text = record_text(players);
    let start = text.find(r#""commands":["#).unwrap();
    format!(r#"{}"commands":[{commands}]}}"#, &text[..start])
}

#[test]
fn a_key_given_twice_in_a_record_is_rejected_by_name() {
    let text = record_text(4).replacen(r#""players":4"#, r#""players":9,"players":4"#, 1);
    let e = Record::from_json(&text).unwrap_err();
    assert!(e.to_string().contains("duplicate key `players`"), "{e}");
    // Nested objects too: the piles, the manifest.
    let m = Match::seeded(Rules::commodities(3).unwrap(), 1);
    let text = m
        .record()
        .unwrap()
        .to_json()
        .replacen(r#""gold":"#, r#""gold":[],"gold":"#, 1);
    let e = Record::from_json(&text).unwrap_err();
    assert!(e.to_string().contains("duplicate key `gold`"), "{e}");
}

#[test]
fn a_key_given_twice_in_a_command_is_malformed_at_its_index() {
    let text = with_commands(
        4,
        r#"{"seat":0,"bid":3},{"seat":3,"seat":1,"bid":0,"bid":7}"#,
    );
    let err = Record::from_json(&text).unwrap().replay().unwrap_err();
    let ReplayError::Command { index, error } = err else {
        panic!("{err}")
    };
    assert_eq!(index, 1);
    assert_eq!(error.rule(), "R-AUC-12");
    assert!(
        error.to_string().contains("duplicate key `seat`"),
        "{error}"
    );
    let e = Command::from_json(r#"{"seat":0,"bid":5,"bid":6}"#).unwrap_err();
    assert!(e.to_string().contains("duplicate key `bid`"), "{e}");
}

#[test]
fn the_same_bad_command_names_the_same_rule_alone_and_in_a_record() {
    for (command, rule) in [
        (r#"{"seat":1,"take_asset":"silver"}"#, "R-COM-5"),
        (r#"{"seat":0,"discard_asset":7}"#, "R-COM-7"),
        (r#"{"seat":1,"peek":"two"}"#, "R-VIS-5"),
        (r#"{"seat":1,"bid":-3}"#, "R-AUC-4"),
        (r#"{"seat":1,"bid":2.5}"#, "R-AUC-4"),
        (r#"{"seat":1}"#, "R-AUC-12"),
        (r#"{"seat":1,"bid":5,"x":1}"#, "R-AUC-12"),
        ("[1]", "R-AUC-12"),
    ] {
        let alone = Command::from_json(command).unwrap_err();
        let text = with_commands(4, command);
        let Err(ReplayError::Command { index: 0, error }) =
            Record::from_json(&text).unwrap().replay()
        else {
            panic!("{command} must fail at index 0")
        };
        assert_eq!((alone.rule(), error.rule()), (rule, rule), "{command}");
        assert_eq!(alone, error, "{command}");
    }
    // The message names what was given.
    let e = Command::from_json(r#"{"seat":1,"bid":5,"x":1}"#).unwrap_err();
    assert!(e.to_string().contains("\"x\""), "{e}");
}

#[test]
fn oversized_records_and_commands_are_rejected_before_reading() {
    let big = format!("{}{}", " ".repeat(MAX_RECORD_BYTES), record_text(4));
    let e = Record::from_json(&big).unwrap_err();
    assert!(e.to_string().contains("at most 1048576 bytes"), "{e}");
    let e = Command::from_json(&format!("{}{{}}", " ".repeat(5000))).unwrap_err();
    assert!(matches!(e, CommandError::Malformed { .. }), "{e}");
}

/// The limit is inclusive: a record of exactly [`MAX_RECORD_BYTES`] is read.
#[test]
fn a_record_of_exactly_the_size_limit_is_read() {
    let text = record_text(4);
    let padded = format!("{}{text}", " ".repeat(MAX_RECORD_BYTES - text.len()));
    assert_eq!(padded.len(), MAX_RECORD_BYTES);
    assert!(Record::from_json(&padded).is_ok());
    assert!(Record::from_json(&format!(" {padded}")).is_err());
}

/// A seat past `i64` is reported as `i64::MAX`, never wrapped to a negative seat (R-AUC-12).
#[test]
fn a_seat_past_i64_is_clamped_not_wrapped() {
    for text in ["9223372036854775808", "18446744073709551615"] {
        let e = Command::from_json(&format!(r#"{{"seat":{text},"bid":1}}"#)).unwrap_err();
        assert_eq!(e, CommandError::SeatOutOfRange { seat: i64::MAX }, "{text}");
        assert!(!e.to_string().contains('-'), "{e}");
    }
}

/// A record's commands are the players' (RECORD.md): a chance outcome among them is a malformed
/// command (R-AUC-12), reported at its index, not a chance outcome the game refuses.
#[test]
fn a_chance_outcome_among_a_records_commands_is_malformed() {
    let text = with_commands(4, r#"{"seat":0,"bid":3},{"chance":{"reveal":"US-AGR"}}"#);
    let record = Record::from_json(&text).unwrap();
    assert!(
        matches!(
            &record.commands[1],
            Err(CommandError::Malformed {
                rule: "R-AUC-12",
                ..
            })
        ),
        "{:?}",
        record.commands[1]
    );
    let Err(ReplayError::Command { index, error }) = record.replay() else {
        panic!("the chance outcome must fail")
    };
    assert_eq!((index, error.rule()), (1, "R-AUC-12"));
}

/// A malformed command is written back as what was wrong with it, which reads back as a malformed
/// command with the same text at the same index; written again, the record is the same.
#[test]
fn a_malformed_command_is_written_back_with_its_reason() {
    for (command, rule, says) in [
        (
            r#"{"seat":2}"#,
            "R-AUC-12",
            "a command has exactly one action, found []",
        ),
        (r#"{"seat":2,"bid":-3}"#, "R-AUC-4", "-3"),
        (r#"{"seat":2,"take_asset":"tin"}"#, "R-COM-5", "tin"),
    ] {
        let text = with_commands(4, &format!(r#"{{"seat":0,"bid":3}},{command}"#));
        let read = Record::from_json(&text).unwrap();
        let error = read.commands[1].clone().unwrap_err();
        assert_eq!(error.rule(), rule, "{command}");
        let written = read.to_json();
        let v: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(v["commands"][1].as_object().unwrap().len(), 1, "{written}");
        let reason = v["commands"][1]["malformed"].as_str().unwrap();
        assert!(reason.contains(says), "{written}");
        let again = Record::from_json(&written).unwrap();
        let Err(ReplayError::Command { index: 1, error }) = again.replay() else {
            panic!("{written} must fail at its second command")
        };
        assert_eq!(error.rule(), "R-AUC-12");
        assert!(error.to_string().ends_with(reason), "{error}");
        assert_eq!(again.to_json(), written);
    }
    // Read back, the text has its control characters escaped and is capped; beside a seat, or
    // outside a record, `malformed` is no such form.
    let long = format!(r#"{{"malformed":"\u0007{}"}}"#, "x".repeat(2000));
    let text = with_commands(4, &long);
    let Err(ReplayError::Command { index: 0, error }) = Record::from_json(&text).unwrap().replay()
    else {
        panic!("the long reason must fail at index 0")
    };
    let e = error.to_string();
    assert!(e.contains("\\u{7}xxx") && !e.contains('\u{7}'), "{e}");
    assert!(e.len() < 1100 && e.ends_with("..."), "{e}");
    let text = with_commands(4, r#"{"malformed":"no","seat":1}"#);
    let Err(ReplayError::Command { error, .. }) = Record::from_json(&text).unwrap().replay() else {
        panic!("a malformed action beside a seat must fail")
    };
    assert!(
        error.to_string().contains("unknown action `malformed`"),
        "{error}"
    );
    let e = Command::from_json(r#"{"malformed":"no"}"#).unwrap_err();
    assert!(e.to_string().contains("names its seat"), "{e}");
}

/// A record's own manifest is the one it is read with; the manifest given to
/// `from_json_with_manifest` stands in only for a record without one.
#[test]
fn a_records_own_manifest_wins_over_the_stand_in() {
    let default = Manifest::default();
    let mut tiles = [0u8; 21];
    for t in TileId::ALL {
        tiles[t.index()] = default.tile_value(t);
    }
    let us_hou: TileId = "US-HOU".parse().unwrap();
    tiles[us_hou.index()] = 9;
    let own = Manifest::new(
        tiles,
        [
            &[6, 6, 6, 7, 7, 7],
            &[4, 4, 4, 5, 5, 5],
            &[0, 2, 4, 6, 8, 10],
        ],
    )
    .unwrap();
    let rules = RulesBuilder::new(4).manifest(own).build().unwrap();
    let text = Match::seeded(rules, 3).record().unwrap().to_json();
    let read = Record::from_json_with_manifest(&text, Some(default)).unwrap();
    assert_eq!(read.manifest, Some(own));
    let plain = record_text(4);
    let read = Record::from_json_with_manifest(&plain, Some(own)).unwrap();
    assert_eq!(read.manifest, Some(own));
}

/// A token in another kind's pile is a record error that says so (code 210), not a token "not in
/// play" or a wrong count.
#[test]
fn a_token_in_another_kinds_pile_is_named_as_such() {
    let text = Match::seeded(Rules::commodities(4).unwrap(), 7)
        .record()
        .unwrap()
        .to_json();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let oil = v["piles"]["oil"][0].take();
    let gold = std::mem::replace(&mut v["piles"]["gold"][0], oil);
    v["piles"]["oil"][0] = gold;
    let e = Record::from_json(&v.to_string()).unwrap_err();
    assert_eq!((e.code(), e.rule()), (210, "RECORD"), "{e}");
    assert!(
        e.to_string()
            .contains("the gold pile holds tokens of another kind"),
        "{e}"
    );
}

#[test]
fn more_commands_than_a_legal_game_can_have_are_rejected() {
    for players in 3..=5u8 {
        let cap = Rules::max_commands_of(players);
        let one = r#"{"seat":0,"bid":1}"#;
        let at_cap = with_commands(players, &vec![one; cap].join(","));
        assert_eq!(Record::from_json(&at_cap).unwrap().commands.len(), cap);
        let over = with_commands(players, &vec![one; cap + 1].join(","));
        let e = Record::from_json(&over).unwrap_err();
        assert!(
            e.to_string().contains(&format!("more than {cap} commands")),
            "{e}"
        );
    }
}

#[test]
fn commands_round_trip_through_their_json() {
    use qe_core::{AssetKind, ChanceOutcome, Industry, TileId};
    let commands = [
        Command::Bid {
            seat: Seat(2),
            amount: u64::MAX,
        },
        Command::TakeAsset {
            seat: Seat(1),
            kind: AssetKind::Crypto,
        },
        Command::DiscardAsset {
            seat: Seat(0),
            kind: AssetKind::Oil,
        },
        Command::Peek {
            seat: Seat(4),
            turn: 3,
        },
        Command::Chance(ChanceOutcome::Reveal("US-AGR".parse::<TileId>().unwrap())),
        Command::Chance(ChanceOutcome::Deal([Industry::AGR; 5])),
    ];
    for c in commands {
        assert_eq!(Command::from_json(&c.to_json()), Ok(c), "{}", c.to_json());
    }
}

/// The cases every binding checks (`tests/data/bad_commands.json`): each bad command, as the first
/// command of a seeded 4-player game, is rejected with the same rule and code alone, through a
/// `Match`, and inside a record.
#[test]
fn the_shared_bad_commands_name_their_rule_and_code() {
    let text = include_str!("data/bad_commands.json");
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let command = case["command"].as_str().unwrap();
        let rule = case["rule"].as_str().unwrap();
        let code = case["code"].as_u64().unwrap() as u32;
        let mut m = Match::seeded(Rules::base(4).unwrap(), 1);
        let before = *m.game();
        let error = match Command::from_json(command) {
            Err(e) => e,
            Ok(c) => m.apply(c).unwrap_err(),
        };
        assert_eq!((error.rule(), error.code()), (rule, code), "{command}");
        assert_eq!(*m.game(), before, "{command}");
        let record = Match::seeded(Rules::base(4).unwrap(), 1)
            .record()
            .unwrap()
            .to_json();
        let start = record.find(r#""commands":["#).unwrap();
        let record = format!(r#"{}"commands":[{command}]}}"#, &record[..start]);
        let Err(ReplayError::Command { index: 0, error }) =
            Record::from_json(&record).unwrap().replay()
        else {
            panic!("{command} must fail at index 0")
        };
        assert_eq!(
            (error.rule(), error.code()),
            (rule, code),
            "{command} in a record"
        );
    }
}

/// R-SET-3: a bad chance outcome names what was given.
#[test]
fn a_bad_chance_outcome_is_malformed_and_quotes_the_value() {
    for (command, quoted) in [
        (
            r#"{"chance":{"reveal":"XX-AGR"}}"#,
            r#"reveal takes a tile id, not "XX-AGR""#,
        ),
        (
            r#"{"chance":{"draw":"silver1"}}"#,
            r#"draw takes a token id, not "silver1""#,
        ),
        (
            r#"{"chance":{"deal":"AGR"}}"#,
            r#"deal takes a list of 1 to 5 industries, one per token dealt (4 with 3 players, the last one set aside; 4 with 4; 5 with 5), not "AGR""#,
        ),
        (
            r#"{"chance":{"deal":["AGR","XYZ"]}}"#,
            r#"deal: unknown industry "XYZ""#,
        ),
        (
            r#"{"chance":{"shuffle":1}}"#,
            "expected deal, reveal or draw, not `shuffle`",
        ),
    ] {
        let e = Command::from_json(command).unwrap_err();
        assert_eq!(e.rule(), "R-SET-3", "{command}");
        assert!(e.to_string().contains(quoted), "{command}: {e}");
    }
}

/// R-SET-3: a deal lists exactly the tokens the game deals. A shorter list is rejected, whatever
/// it leaves out (before, a missing AGR was filled in: a 5-player deal without it gave seat 4
/// AGR); `[]` and more than five entries are malformed.
#[test]
fn a_deal_shorter_than_the_game_deals_is_rejected() {
    use qe_core::{Game, Rules};
    for (players, good, short) in [
        (3, r#"["HOU","FIN","MAN","AGR"]"#, r#"["HOU","FIN","MAN"]"#),
        (4, r#"["HOU","FIN","MAN","AGR"]"#, r#"["HOU","FIN","MAN"]"#),
        (
            5,
            r#"["HOU","FIN","MAN","GOV","AGR"]"#,
            r#"["HOU","FIN","MAN","GOV"]"#,
        ),
    ] {
        let mut game = Game::external_chance(Rules::base(players).unwrap(), None).unwrap();
        let deal = |list: &str| Command::from_json(&format!(r#"{{"chance":{{"deal":{list}}}}}"#));
        let before = game;
        let e = game.apply(deal(short).unwrap()).unwrap_err();
        assert_eq!(
            (e.rule(), game),
            ("R-SET-3", before),
            "{players} players, {short}"
        );
        game.apply(deal(good).unwrap()).unwrap();
        assert_eq!(
            game.phase().name(),
            "chance",
            "{players} players: the first reveal is next"
        );
    }
    for list in ["[]", r#"["AGR","HOU","FIN","MAN","GOV","AGR"]"#] {
        let e = Command::from_json(&format!(r#"{{"chance":{{"deal":{list}}}}}"#)).unwrap_err();
        assert_eq!(e.rule(), "R-SET-3", "{list}");
    }
}

/// An error message quotes a caller's value as `qe_core::shown` does: control characters escaped,
/// at most `SHOWN_MAX` characters, so it stays one short line of printable text whatever the
/// input (a record may carry a megabyte in one value).
#[test]
fn errors_quote_values_short_and_printable() {
    let printable_and_short = |m: &str| {
        assert!(
            !m.chars().any(char::is_control),
            "control character in {m:?}"
        );
        assert!(m.len() < 400, "{} bytes: {}...", m.len(), &m[..200]);
    };
    let huge = "x".repeat(1_000_000);
    // A key of the record, of a command, of a manifest, given twice.
    let text = record_text(4).replacen(r#""players""#, r#""\u0000evil\u001b[2J":1,"players""#, 1);
    let e = Record::from_json(&text).unwrap_err().to_string();
    assert!(e.contains(r"unknown field `\u{0}evil\u{1b}[2J`"), "{e}");
    printable_and_short(&e);
    let text = record_text(4).replacen(r#""players""#, &format!(r#""{huge}":1,"players""#), 1);
    let e = Record::from_json(&text).unwrap_err().to_string();
    assert!(
        e.contains(&format!("`{}...`", "x".repeat(qe_core::SHOWN_MAX))),
        "{e}"
    );
    printable_and_short(&e);
    for command in [
        r#"{"seat":0,"\u0000":1,"\u0000":2}"#.to_string(),
        r#"{"seat":0,"\u0007bell":1}"#.to_string(),
        format!(r#"{{"seat":0,"bid":"{huge}"}}"#),
        format!(r#"{{"seat":"{huge}","bid":1}}"#),
        format!(r#"{{"seat":0,"take_asset":"{huge}"}}"#),
        format!(
            r#"{{"seat":0,"peek":{}}}"#,
            "[".repeat(2000) + &"]".repeat(2000)
        ),
        format!(
            "{{\"seat\":0,{}}}",
            (0..5000)
                .map(|i| format!(r#""k{i}":1"#))
                .collect::<Vec<_>>()
                .join(",")
        ),
    ] {
        let e = Record::from_json(&with_commands(4, &command))
            .unwrap()
            .replay()
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("command 0: "), "{e}");
        printable_and_short(&e);
    }
    // Names: a tile, a player count and a seed past 2^64−1, an expansion.
    for (from, to) in [
        (r#""deck":[""#, format!(r#""deck":["{huge}","#)),
        (r#""deck":[""#, "\"deck\":[\"\\u0000\",\"".to_string()),
        (
            r#""players":4"#,
            format!(r#""players":4{}"#, "0".repeat(5000)),
        ),
        (
            r#""players":4"#,
            r#""players":4,"seed":18446744073709551616"#.to_string(),
        ),
        (
            r#""players":4"#,
            format!(r#""players":4,"expansions":["{huge}"]"#),
        ),
    ] {
        let text = record_text(4).replacen(from, &to, 1);
        let e = Record::from_json(&text).unwrap_err().to_string();
        printable_and_short(&e);
    }
    // Any whole player count is R-SET-1's (the same error as 6), however far out of range.
    for players in ["18446744073709551616", "-1", "6"] {
        let e = Record::from_json(&record_text(4).replacen(
            r#""players":4"#,
            &format!(r#""players":{players}"#),
            1,
        ))
        .unwrap_err();
        assert_eq!(e.code(), 205, "{e}");
        assert_eq!(
            e.to_string(),
            format!("a game has 3 to 5 players, not {players}")
        );
    }
    let e = Record::from_json(&record_text(4).replacen(r#""players":4"#, r#""players":4.5"#, 1))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("`players` must be 3, 4 or 5, not 4.5"),
        "{e}"
    );
    // Separators and invisible format characters are escaped too: the message stays one line.
    let text = record_text(4).replacen(r#""players""#, r#""a\u2028b\u202ec":1,"players""#, 1);
    let e = Record::from_json(&text).unwrap_err().to_string();
    assert!(e.contains(r"unknown field `a\u{2028}b\u{202e}c`"), "{e}");
}

/// An object of many keys is read in n log n: a record of 1 MiB of distinct keys is refused
/// (naming the first unknown one) as fast as any record is read; so is a manifest.
#[test]
fn many_keys_are_checked_quickly() {
    let keys = |n: usize| -> String {
        (0..n)
            .map(|i| format!(r#""k{i}":0"#))
            .collect::<Vec<_>>()
            .join(",")
    };
    let n = 90_000;
    let record = format!("{{{}}}", keys(n));
    assert!(record.len() <= MAX_RECORD_BYTES);
    let started = std::time::Instant::now();
    let e = Record::from_json(&record).unwrap_err().to_string();
    assert!(e.contains("unknown field `k0`"), "{e}");
    let manifest = format!(r#"{{"tiles":{{{}}}}}"#, keys(n));
    let e = qe_core::Manifest::from_json(&manifest)
        .unwrap_err()
        .to_string();
    assert!(!e.is_empty());
    // Not a benchmark, a bound far from both sides: in a debug build, checking each key against
    // every earlier one took 120 s here; the set takes under 1 s.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let too_big = format!("{{\"tiles\":\"{}\"}}", "x".repeat(MAX_RECORD_BYTES));
    let e = qe_core::Manifest::from_json(&too_big)
        .unwrap_err()
        .to_string();
    assert!(e.contains("a manifest is at most"), "{e}");
}

/// The members of `m`'s `tiles` and `tokens` objects as JSON text (`"US-AGR":3,...`).
fn manifest_parts(m: &qe_core::Manifest) -> (String, String) {
    let tiles: Vec<String> = qe_core::TileId::ALL
        .iter()
        .map(|t| format!(r#""{t}":{}"#, m.tile_value(*t)))
        .collect();
    let tokens: Vec<String> = m
        .tokens()
        .map(|t| format!(r#""{t}":{}"#, m.token_value(t).unwrap()))
        .collect();
    (tiles.join(","), tokens.join(","))
}

#[test]
fn a_manifest_lists_every_tile_and_token() {
    // RECORD.md: a manifest "must list every tile (and token) ID"; a part left out is not filled
    // from the default.
    let m = qe_core::Manifest::default();
    let (tiles, tokens) = manifest_parts(&m);
    let whole = format!(r#"{{"tiles":{{{tiles}}},"tokens":{{{tokens}}}}}"#);
    assert_eq!(qe_core::Manifest::from_json(&whole), Ok(m));
    for (part, missing) in [
        (format!(r#"{{"tokens":{{{tokens}}}}}"#), "tiles"),
        (format!(r#"{{"tiles":{{{tiles}}}}}"#), "tokens"),
        ("{}".to_string(), "tiles"),
    ] {
        let e = qe_core::Manifest::from_json(&part).unwrap_err().to_string();
        assert!(e.contains(&format!("`{missing}` is missing")), "{e}");
        // The same manifest in a record.
        let record = record_text(4).replacen('{', &format!(r#"{{"manifest":{part},"#), 1);
        let e = Record::from_json(&record).unwrap_err().to_string();
        assert!(e.contains(&format!("`{missing}` is missing")), "{e}");
    }
}

/// A manifest's errors quote what it holds: a value past 99 as given (not capped), a value that
/// is not a whole number with the range it must be in, and an unknown name by what it names and
/// the rule that lists such names (R-CMP-3 tiles, R-CMP-7 tokens).
#[test]
fn a_manifest_error_quotes_the_value_and_names_the_rule() {
    let m = qe_core::Manifest::default();
    let (tiles, tokens) = manifest_parts(&m);
    let whole = format!(r#"{{"tiles":{{{tiles}}},"tokens":{{{tokens}}}}}"#);
    let crypto1 = format!(
        r#""crypto1":{}"#,
        m.token_value("crypto1".parse().unwrap()).unwrap()
    );
    assert!(whole.contains(&crypto1));
    for (edit, rule, says) in [
        (
            (
                crypto1.clone(),
                r#""crypto1":9223372036854775808"#.to_string(),
            ),
            "R-CMP-4",
            "value of crypto1 out of range: 9223372036854775808 (0 to 99)",
        ),
        (
            (
                crypto1.clone(),
                r#""crypto1":18446744073709551616"#.to_string(),
            ),
            "RECORD",
            "the value of crypto1 must be a whole number from 0 to 99, not 18446744073709551616",
        ),
        (
            (crypto1.clone(), r#""silver1":3"#.to_string()),
            "R-CMP-7",
            r#"unknown token: "silver1""#,
        ),
        (
            (r#""US-AGR":"#.to_string(), r#""XX-YYY":"#.to_string()),
            "R-CMP-3",
            r#"unknown tile: "XX-YYY""#,
        ),
    ] {
        let text = whole.replacen(&edit.0, &edit.1, 1);
        assert_ne!(text, whole);
        let e = qe_core::Manifest::from_json(&text).unwrap_err();
        assert_eq!(e.rule(), rule, "{e}");
        assert!(e.to_string().contains(says), "{e}");
    }
    let e = "gld".parse::<qe_core::AssetKind>().unwrap_err();
    assert_eq!(
        (e.rule(), e.to_string().as_str()),
        ("R-CMP-7", r#"unknown pile: "gld""#)
    );
    let e = "fin".parse::<qe_core::Industry>().unwrap_err();
    assert_eq!(
        (e.rule(), e.to_string().as_str()),
        ("R-CMP-2", r#"unknown industry: "fin""#)
    );
    let e = "uk".parse::<qe_core::Nation>().unwrap_err();
    assert_eq!(
        (e.rule(), e.to_string().as_str()),
        ("R-CMP-1", r#"unknown nation: "uk""#)
    );
}

/// RECORD.md gives `piles` to games with the Commodities expansion only: a base game's record
/// with the field, even with empty piles, is refused (R-COM-1), as tokens in its set-up are.
#[test]
fn a_base_game_record_has_no_piles() {
    for piles in [r#"{"gold":[]}"#, "{}", r#"{"gold":["gold1"]}"#] {
        let record = record_text(4).replacen('{', &format!(r#"{{"piles":{piles},"#), 1);
        let e = Record::from_json(&record).unwrap_err();
        assert_eq!(e.rule(), "R-COM-1", "{piles}: {e}");
        assert!(
            e.to_string()
                .contains("asset piles are given but the Commodities expansion is off"),
            "{e}"
        );
    }
    assert!(Record::from_json(&record_text(4)).is_ok());
}

/// A manifest that leaves a tile out names it; a set-up's wrong pile names the pile.
#[test]
fn a_missing_tile_and_a_wrong_pile_are_named() {
    let m = qe_core::Manifest::default();
    let (tiles, tokens) = manifest_parts(&m);
    let us_agr = format!(r#""US-AGR":{},"#, m.tile_value("US-AGR".parse().unwrap()));
    let without = tiles.replacen(&us_agr, "", 1);
    assert_ne!(without, tiles);
    let text = format!(r#"{{"tiles":{{{without}}},"tokens":{{{tokens}}}}}"#);
    let e = qe_core::Manifest::from_json(&text).unwrap_err().to_string();
    assert!(
        e.contains("must list all 21 tiles: US-AGR is missing"),
        "{e}"
    );
    let rules = qe_core::Rules::commodities(4).unwrap();
    let setup = qe_core::Setup::seeded(&rules, 1);
    let mut oil: Vec<qe_core::TokenId> = setup.pile(qe_core::AssetKind::Oil).to_vec();
    oil.pop();
    let e = qe_core::Setup::new(
        &rules,
        Some(setup.nations()),
        setup.industries(),
        setup.deck(),
        [
            setup.pile(qe_core::AssetKind::Gold),
            &oil,
            setup.pile(qe_core::AssetKind::Crypto),
        ],
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("the oil pile has "), "{e}");
}

/// The edges of what a record may hold (RECORD.md, R-CMP-4, R-CMP-7): each limit is accepted at
/// the limit and rejected one past it.
#[test]
fn a_records_limits_hold_exactly_at_the_limit() {
    // A command of exactly MAX_COMMAND_BYTES is read; one byte more is malformed.
    let short = r#"{"seat":0,"bid":5}"#;
    let pad = |n: usize| format!("{short}{}", " ".repeat(n - short.len()));
    assert!(Command::from_json(&pad(qe_core::MAX_COMMAND_BYTES)).is_ok());
    let e = Command::from_json(&pad(qe_core::MAX_COMMAND_BYTES + 1)).unwrap_err();
    assert!(matches!(e, CommandError::Malformed { .. }), "{e}");
    // A manifest value of 99 is allowed, 100 is not (R-CMP-4).
    let m = qe_core::Manifest::default();
    let (tiles, tokens) = manifest_parts(&m);
    let set = |value: u32| {
        let tiles = tiles.replacen(r#""US-MAN":4"#, &format!(r#""US-MAN":{value}"#), 1);
        format!(r#"{{"tiles":{{{tiles}}},"tokens":{{{tokens}}}}}"#)
    };
    let ok = qe_core::Manifest::from_json(&set(99)).unwrap();
    assert_eq!(ok.tile_value("US-MAN".parse().unwrap()), 99);
    let e = qe_core::Manifest::from_json(&set(100)).unwrap_err();
    assert_eq!(e.rule(), "R-CMP-4", "{e}");
}

#[test]
fn a_record_names_each_expansion_once_and_numbers_tokens_without_gaps() {
    let m = Match::seeded(Rules::commodities(4).unwrap(), 3);
    let text = m.record().unwrap().to_json();
    assert!(Record::from_json(&text).is_ok());
    let twice = text.replacen(
        r#""expansions":["commodities"]"#,
        r#""expansions":["commodities","commodities"]"#,
        1,
    );
    assert_ne!(twice, text);
    let e = Record::from_json(&twice).unwrap_err().to_string();
    assert_eq!(e, "bad record: `commodities` listed twice");
    // The same message as every other reader of expansion names (Python, OpenSpiel, the CLI).
    let names = qe_core::Expansions::from_names(["commodities", "commodities"]).unwrap_err();
    assert_eq!(format!("bad record: {names}"), e);
    let unknown = text.replacen(
        r#""expansions":["commodities"]"#,
        r#""expansions":["gold"]"#,
        1,
    );
    let e = Record::from_json(&unknown).unwrap_err().to_string();
    assert_eq!(
        e,
        "bad record: unknown expansion \"gold\" (known: commodities)"
    );
    let number = text.replacen(r#""expansions":["commodities"]"#, r#""expansions":[5]"#, 1);
    let e = Record::from_json(&number).unwrap_err().to_string();
    assert_eq!(e, "bad record: `expansions` entries are names, got 5");
    // R-CMP-7: token IDs are numbered from 1 without gaps.
    let (tiles, tokens) = manifest_parts(&qe_core::Manifest::default());
    let gap = tokens.replacen(r#""gold6""#, r#""gold7""#, 1);
    assert_ne!(gap, tokens);
    let e = qe_core::Manifest::from_json(&format!(r#"{{"tiles":{{{tiles}}},"tokens":{{{gap}}}}}"#))
        .unwrap_err()
        .to_string();
    assert!(e.contains("without gaps"), "{e}");
}

#[test]
fn a_records_seed_must_be_a_64_bit_whole_number() {
    let text = record_text(4);
    assert!(text.contains(r#""seed":7"#), "{text}");
    for bad in ["-1", r#""7""#, "18446744073709551616", "1.5"] {
        let e = Record::from_json(&text.replacen(r#""seed":7"#, &format!(r#""seed":{bad}"#), 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`seed`"), "{bad}: {e}");
    }
    let max = text.replacen(r#""seed":7"#, r#""seed":18446744073709551615"#, 1);
    assert_eq!(Record::from_json(&max).unwrap().seed, Some(u64::MAX));
}

#[test]
fn a_command_or_record_that_is_not_an_object_is_quoted() {
    let huge = format!("\"{}\"", "y".repeat(1_000));
    // (text, as quoted, whether it is JSON at all)
    for (text, shown, json) in [
        ("3.5", "`3.5`".to_string(), true),
        (" [1, 2] ", "`[1, 2]`".to_string(), true),
        ("bid 5", "`bid 5`".to_string(), false),
        ("\"\u{7}\"", r#"`"\u{7}"`"#.to_string(), false),
        (
            huge.as_str(),
            format!("`\"{}...`", "y".repeat(qe_core::SHOWN_MAX - 1)),
            true,
        ),
    ] {
        let e = Command::from_json(text).unwrap_err();
        let message = e.to_string();
        assert!(matches!(e, CommandError::Malformed { .. }), "{message}");
        assert!(
            message.contains(&format!("a command is a JSON object, got {shown}")),
            "{message}"
        );
        if json {
            let e = Record::from_json(text).unwrap_err().to_string();
            assert!(
                e.contains(&format!("a record is a JSON object, got {shown}")),
                "{e}"
            );
        }
    }
}

#[test]
fn a_record_field_of_the_wrong_shape_is_quoted() {
    let text = record_text(4);
    for (from, to, expected) in [
        (
            r#""format":"qe-record/1""#,
            r#""format":"qe-record/2""#,
            r#"`format` must be "qe-record/1", not "qe-record/2""#,
        ),
        (
            r#""commands":[{"seat":0,"bid":3}]"#,
            r#""commands":{"a":1}"#,
            r#"`commands` must be a list, got `{"a":1}`"#,
        ),
        (
            r#""deck":[""#,
            r#""deck":[17,""#,
            "`deck` must be a list of names, got `17` in it",
        ),
        (
            r#""nations":["US","EU","CN","JP"]"#,
            r#""nations":"US""#,
            r#"`nations` must be a list, got `"US"`"#,
        ),
    ] {
        assert!(text.contains(from), "{text}");
        let e = Record::from_json(&text.replacen(from, to, 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains(expected), "{e}");
    }
    let e = qe_core::Manifest::from_json("[1]").unwrap_err().to_string();
    assert!(e.contains("`manifest` must be an object, got `[1]`"), "{e}");
    let e = qe_core::Manifest::from_json("tiles")
        .unwrap_err()
        .to_string();
    assert!(e.contains("invalid JSON, got `tiles`: expected "), "{e}");
    let e = Command::from_json(r#"{"chance":[1]}"#)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a chance outcome is an object, got `[1]`"),
        "{e}"
    );
    // An object with a key given twice is an object: the error names the key, not the text.
    for (e, what) in [
        (
            Command::from_json(r#"{"seat":0,"seat":1}"#)
                .unwrap_err()
                .to_string(),
            "a command is a JSON object: ",
        ),
        (
            Command::from_json(r#"{"chance":{"reveal":"US-AGR","reveal":"US-HOU"}}"#)
                .unwrap_err()
                .to_string(),
            "bad chance outcome: ",
        ),
        (
            Record::from_json(r#"{"format":1,"format":2}"#)
                .unwrap_err()
                .to_string(),
            "invalid JSON: ",
        ),
        (
            qe_core::Manifest::from_json(r#"{"tiles":{},"tiles":{}}"#)
                .unwrap_err()
                .to_string(),
            "`manifest`: ",
        ),
    ] {
        assert!(e.contains(what) && e.contains('`'), "{e}");
        assert!(!e.contains("got"), "{e}");
    }
}

#[test]
fn a_player_count_is_quoted_as_written() {
    let text = record_text(4);
    assert!(text.contains(r#""players":4"#), "{text}");
    for (given, says) in [
        ("-0", "bad record: `players` must be 3, 4 or 5, not -0"),
        ("4.0", "bad record: `players` must be 3, 4 or 5, not 4.0"),
        ("0", "a game has 3 to 5 players, not 0"),
        ("-7", "a game has 3 to 5 players, not -7"),
    ] {
        let e = Record::from_json(&text.replacen(
            r#""players":4"#,
            &format!(r#""players":{given}"#),
            1,
        ))
        .unwrap_err();
        assert_eq!(e.to_string(), says);
    }
}

#[test]
fn a_byte_order_mark_is_named_by_the_readers() {
    let text = record_text(4);
    let e = Record::from_json(&format!("\u{feff}{text}")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad record: the record starts with a byte order mark (U+FEFF), which JSON text may not \
         have: save it as UTF-8 without one"
    );
    let manifest = qe_core::Manifest::default();
    let (tiles, tokens) = manifest_parts(&manifest);
    let json = format!(r#"{{"tiles":{{{tiles}}},"tokens":{{{tokens}}}}}"#);
    assert!(qe_core::Manifest::from_json(&json).is_ok());
    let e = qe_core::Manifest::from_json(&format!("\u{feff}{json}")).unwrap_err();
    assert!(
        e.to_string()
            .contains("the manifest starts with a byte order mark"),
        "{e}"
    );
}
