//! The error paths of every function: null pointers, freed and foreign handles, bad UTF-8, bad JSON,
//! illegal commands (status, message with the rule ID, game unchanged), small buffers, panics.
#![allow(unsafe_code, clippy::borrow_as_ptr, clippy::many_single_char_names)]

mod common;

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use common::*;
use qe_ffi::*;

const NUL: *mut c_char = ptr::null_mut();

/// Every entry point that takes a game handle, called with `g`; returns the statuses.
fn every_game_function(g: *mut QeGame) -> Vec<(&'static str, QeStatus)> {
    let mut s = QeState::default();
    let mut m = 0u8;
    let mut r = QeBidRange::default();
    let mut l = QeLegal::default();
    let mut si = QeSeatInfo::default();
    let mut a = QeAuction::default();
    let mut n = 0usize;
    let mut ev = [QeEvent::default(); 4];
    let mut o = QeSeatOutcome::default();
    let mut text: *mut c_char = NUL;
    let mut g2: *mut QeGame = ptr::null_mut();
    let json = c"{\"seat\":0,\"bid\":3}";
    unsafe {
        vec![
            ("qe_game_apply", qe_game_apply(g, bid(0, 3))),
            ("qe_game_apply_json", qe_game_apply_json(g, json.as_ptr())),
            ("qe_game_state", qe_game_state(g, &mut s)),
            ("qe_game_to_act", qe_game_to_act(g, &mut m)),
            ("qe_game_bid_range", qe_game_bid_range(g, 0, &mut r)),
            ("qe_game_legal", qe_game_legal(g, 0, &mut l)),
            ("qe_game_seat_info", qe_game_seat_info(g, 0, 0, &mut si)),
            ("qe_game_auction", qe_game_auction(g, 0, 0, &mut a)),
            ("qe_game_view_json", qe_game_view_json(g, 0, &mut text)),
            (
                "qe_game_events_pending",
                qe_game_events_pending(g, 0, &mut n),
            ),
            (
                "qe_game_events",
                qe_game_events(g, 0, ev.as_mut_ptr(), ev.len(), &mut n),
            ),
            ("qe_game_events_json", qe_game_events_json(g, 0, &mut text)),
            ("qe_game_events_rewind", qe_game_events_rewind(g, 0)),
            ("qe_game_outcome", qe_game_outcome(g, 0, &mut o)),
            ("qe_game_outcome_json", qe_game_outcome_json(g, &mut text)),
            ("qe_game_record_json", qe_game_record_json(g, &mut text)),
            ("qe_game_clone", qe_game_clone(g, &mut g2)),
            ("qe_game_chance_count", qe_game_chance_count(g, &mut n)),
            ("qe_game_chance_json", qe_game_chance_json(g, 0, &mut text)),
            ("qe_game_apply_chance", qe_game_apply_chance(g, 0)),
        ]
    }
}

#[test]
fn null_game_handle_everywhere() {
    let _pool = pool_shared();
    for (name, st) in every_game_function(ptr::null_mut()) {
        assert_eq!(st, QE_ERR_NULL_POINTER, "{name}");
        assert!(last_message().contains("null pointer"), "{name}");
    }
    // Freeing NULL is a no-op, like free(NULL).
    assert_eq!(unsafe { qe_game_free(ptr::null_mut()) }, QE_OK);
    assert_eq!(unsafe { qe_string_free(ptr::null_mut()) }, QE_OK);
}

#[test]
fn freed_handle_everywhere_and_double_free() {
    let _pool = pool_exclusive();
    let g = new_game(4, false, 1);
    free(g);
    for (name, st) in every_game_function(g) {
        assert_eq!(st, QE_ERR_INVALID_HANDLE, "{name}");
        assert!(
            last_message().contains("already freed"),
            "{name}: {}",
            last_message()
        );
    }
    assert_eq!(unsafe { qe_game_free(g) }, QE_ERR_INVALID_HANDLE);
    // The freed cell is reused by the next game, which works normally.
    let g2 = new_game(3, false, 2);
    assert_eq!(state(g2).players, 3);
    free(g2);
}

#[test]
fn foreign_and_misaligned_handles() {
    let _pool = pool_shared();
    // Readable memory that is not a game.
    let fake = [0u64; 16];
    let g = fake.as_ptr() as *mut QeGame;
    for (name, st) in every_game_function(g) {
        assert_eq!(st, QE_ERR_INVALID_HANDLE, "{name}");
        assert!(last_message().contains("not a QeGame"), "{name}");
    }
    assert_eq!(unsafe { qe_game_free(g) }, QE_ERR_INVALID_HANDLE);
    let odd = (fake.as_ptr() as usize + 1) as *mut QeGame;
    let mut s = QeState::default();
    assert_eq!(unsafe { qe_game_state(odd, &mut s) }, QE_ERR_INVALID_HANDLE);
    assert!(last_message().contains("misaligned"));
}

#[test]
fn null_out_pointers_everywhere() {
    let _pool = pool_shared();
    let g = new_game(4, false, 3);
    unsafe {
        let checks: Vec<(&str, QeStatus)> = vec![
            ("qe_abi_version", qe_abi_version(ptr::null_mut())),
            (
                "qe_last_error_status",
                qe_last_error_status(ptr::null_mut()),
            ),
            ("qe_game_new", qe_game_new(4, 0, 1, ptr::null_mut())),
            (
                "qe_game_options_init",
                qe_game_options_init(ptr::null_mut()),
            ),
            (
                "qe_game_new_with options",
                qe_game_new_with(ptr::null(), &mut ptr::null_mut()),
            ),
            (
                "qe_game_new_with out",
                qe_game_new_with(&options(4, 0, 1), ptr::null_mut()),
            ),
            (
                "qe_game_from_record json",
                qe_game_from_record(ptr::null(), ptr::null_mut(), &mut ptr::null_mut()),
            ),
            (
                "qe_game_from_record out",
                qe_game_from_record(c"{}".as_ptr(), ptr::null_mut(), ptr::null_mut()),
            ),
            ("qe_game_clone", qe_game_clone(g, ptr::null_mut())),
            (
                "qe_game_chance_count",
                qe_game_chance_count(g, ptr::null_mut()),
            ),
            (
                "qe_game_chance_json",
                qe_game_chance_json(g, 0, ptr::null_mut()),
            ),
            ("qe_game_apply_json", qe_game_apply_json(g, ptr::null())),
            ("qe_game_state", qe_game_state(g, ptr::null_mut())),
            ("qe_game_to_act", qe_game_to_act(g, ptr::null_mut())),
            (
                "qe_game_bid_range",
                qe_game_bid_range(g, 0, ptr::null_mut()),
            ),
            ("qe_game_legal", qe_game_legal(g, 0, ptr::null_mut())),
            (
                "qe_game_seat_info",
                qe_game_seat_info(g, 0, 0, ptr::null_mut()),
            ),
            ("qe_game_auction", qe_game_auction(g, 0, 0, ptr::null_mut())),
            (
                "qe_game_view_json",
                qe_game_view_json(g, 0, ptr::null_mut()),
            ),
            (
                "qe_game_events_pending",
                qe_game_events_pending(g, 0, ptr::null_mut()),
            ),
            (
                "qe_game_events out_count",
                qe_game_events(g, 0, ptr::null_mut(), 0, ptr::null_mut()),
            ),
            (
                "qe_game_events buf",
                qe_game_events(g, 0, ptr::null_mut(), 4, &mut 0),
            ),
            (
                "qe_game_events_json",
                qe_game_events_json(g, 0, ptr::null_mut()),
            ),
            ("qe_game_outcome", qe_game_outcome(g, 0, ptr::null_mut())),
            (
                "qe_game_outcome_json",
                qe_game_outcome_json(g, ptr::null_mut()),
            ),
            (
                "qe_game_record_json",
                qe_game_record_json(g, ptr::null_mut()),
            ),
            (
                "qe_name",
                qe_name(QE_NAME_NATION, 0, ptr::null_mut(), 8, ptr::null_mut()),
            ),
            (
                "qe_last_error_message",
                qe_last_error_message(ptr::null_mut(), 8, ptr::null_mut()),
            ),
            (
                "qe_last_error_rule",
                qe_last_error_rule(ptr::null_mut(), 8, ptr::null_mut()),
            ),
        ];
        for (name, st) in checks {
            assert_eq!(st, QE_ERR_NULL_POINTER, "{name}");
        }
    }
    // Nothing of the above touched the game (the events cursor included).
    let mut n = 0;
    assert_eq!(unsafe { qe_game_events_pending(g, 0, &mut n) }, QE_OK);
    assert!(n > 0);
    free(g);
}

#[test]
fn invalid_utf8_and_invalid_json() {
    let _pool = pool_shared();
    let g = new_game(4, false, 4);
    let before = record(g);
    let bad_utf8: &[u8] = b"{\"seat\":0,\"bid\":\xff}\0";
    let p = bad_utf8.as_ptr().cast::<c_char>();
    assert_eq!(unsafe { qe_game_apply_json(g, p) }, QE_ERR_INVALID_UTF8);
    assert!(last_message().contains("UTF-8"));
    let (st, idx, out) = {
        let mut idx = 0;
        let mut out = ptr::null_mut();
        (
            unsafe { qe_game_from_record(p, &mut idx, &mut out) },
            idx,
            out,
        )
    };
    assert_eq!((st, idx), (QE_ERR_INVALID_UTF8, usize::MAX));
    assert!(out.is_null());
    for text in ["", "{", "nope", "{\"seat\":0,}"] {
        assert_eq!(apply_json(g, text), QE_ERR_INVALID_JSON, "{text:?}");
        assert!(last_message().contains("not valid JSON"));
        let (st, _, out) = from_record(text);
        assert_eq!(st, QE_ERR_INVALID_JSON, "{text:?}");
        assert!(out.is_null());
    }
    // A key given twice is rejected by name, in a command and in a record; so is a record past
    // qe-core's size limit (before it is parsed).
    assert_eq!(
        apply_json(g, r#"{"seat":3,"seat":0,"bid":0,"bid":9}"#),
        code("MALFORMED_COMMAND")
    );
    assert!(
        last_message().contains("duplicate key `seat`"),
        "{}",
        last_message()
    );
    let dup = record(g).replacen(r#""players":4"#, r#""players":9,"players":4"#, 1);
    let (st, _, out) = from_record(&dup);
    assert_eq!(st, code("RECORD"));
    assert!(out.is_null());
    assert!(
        last_message().contains("duplicate key `players`"),
        "{}",
        last_message()
    );
    // Past the size limits the size is the error, whatever the text holds (JSON or not): it is
    // not parsed.
    let huge_json = format!("[{}0]", "0,".repeat(qe_core::MAX_RECORD_BYTES / 2));
    let huge_text = "x".repeat(qe_core::MAX_RECORD_BYTES + 1);
    for huge in [huge_json, huge_text] {
        let (st, _, out) = from_record(&huge);
        assert_eq!(st, code("RECORD"));
        assert!(out.is_null());
        assert!(
            last_message().contains("at most 1048576 bytes"),
            "{}",
            last_message()
        );
    }
    let long_json = format!(
        r#"{{"seat":0,"bid":5,"x":"{}"}}"#,
        "y".repeat(qe_core::MAX_COMMAND_BYTES)
    );
    let long_text = "x".repeat(qe_core::MAX_COMMAND_BYTES + 1);
    for long in [long_json, long_text] {
        assert_eq!(apply_json(g, &long), code("MALFORMED_COMMAND"));
        assert!(
            last_message().contains("at most 4096 bytes"),
            "{}",
            last_message()
        );
    }
    assert_eq!(record(g), before, "the game is unchanged");
    free(g);
}

#[test]
fn illegal_commands_name_their_rule_and_change_nothing() {
    let _pool = pool_shared();
    let g = new_game(4, false, 5);
    // Seat 1 may not open: R-AUC-2.
    let snapshot = |g| (record(g), view(g, 0), view(g, 1), view(g, QE_SPECTATOR));
    let before = snapshot(g);
    assert_eq!(
        unsafe { qe_game_apply(g, bid(1, 4)) },
        code("NOT_AUCTIONEER")
    );
    assert!(
        last_message().starts_with("R-AUC-2: "),
        "{}",
        last_message()
    );
    assert_eq!(
        unsafe { qe_game_apply(g, bid(0, 0)) },
        code("OPENING_BID_ZERO")
    );
    assert!(last_message().starts_with("R-AUC-2: "));
    assert_eq!(
        unsafe { qe_game_apply(g, bid(9, 4)) },
        code("SEAT_OUT_OF_RANGE")
    );
    assert!(last_message().starts_with("R-AUC-12: "));
    assert_eq!(snapshot(g), before);

    assert_eq!(unsafe { qe_game_apply(g, bid(0, 5)) }, QE_OK);
    let before = snapshot(g);
    // The brief's example: a bid equal to the auctioneer's bid (R-AUC-3).
    assert_eq!(
        unsafe { qe_game_apply(g, bid(2, 5)) },
        code("BID_EQUALS_OPENING")
    );
    assert_eq!(
        last_message(),
        "R-AUC-3: bid equals the auctioneer's bid (5)"
    );
    let mut st = 0;
    assert_eq!(unsafe { qe_last_error_status(&mut st) }, QE_OK);
    assert_eq!(st, code("BID_EQUALS_OPENING"));
    assert_eq!(
        apply_json(g, r#"{"seat":2,"bid":5}"#),
        code("BID_EQUALS_OPENING")
    );
    assert_eq!(
        last_message(),
        "R-AUC-3: bid equals the auctioneer's bid (5)"
    );
    assert_eq!(unsafe { qe_game_apply(g, bid(0, 7)) }, code("ALREADY_BID"));
    assert!(last_message().starts_with("R-AUC-3: "));
    // Not a pile step: R-COM-5 / wrong action.
    let take = QeCommand {
        kind: QE_COMMAND_TAKE_ASSET,
        seat: 1,
        pile: QE_PILE_GOLD,
        ..QeCommand::default()
    };
    let st = unsafe { qe_game_apply(g, take) };
    assert!((100..200).contains(&st), "{st}");
    assert!(last_message().starts_with("R-"), "{}", last_message());
    // Peeks exist only with 5 players.
    assert_eq!(
        apply_json(g, r#"{"seat":1,"peek":0}"#),
        code("PEEK_NOT_ALLOWED")
    );
    assert!(last_message().starts_with("R-VIS-5: "));
    // Malformed JSON commands (valid JSON, not a command).
    for (text, code) in [
        (r#"{"seat":1}"#, code("MALFORMED_COMMAND")),
        (r#"{"seat":1,"bid":3,"peek":0}"#, code("MALFORMED_COMMAND")),
        (r#"{"seat":1,"jump":3}"#, code("MALFORMED_COMMAND")),
        ("[1,2]", code("MALFORMED_COMMAND")),
        (r#"{"seat":"one","bid":3}"#, code("MALFORMED_COMMAND")),
        (r#"{"seat":1,"bid":-3}"#, code("BID_OUT_OF_RANGE")),
        (
            r#"{"seat":1,"bid":18446744073709551616}"#,
            code("BID_OUT_OF_RANGE"),
        ),
        (
            r#"{"seat":1,"take_asset":"silver"}"#,
            code("MALFORMED_COMMAND"),
        ),
    ] {
        assert_eq!(apply_json(g, text), code, "{text}");
        assert!(
            last_message().starts_with("R-"),
            "{text}: {}",
            last_message()
        );
    }
    // Bad flat commands.
    for c in [
        QeCommand {
            kind: 42,
            ..bid(1, 3)
        },
        QeCommand {
            reserved: 1,
            ..bid(1, 3)
        },
    ]
    .into_iter()
    .chain(
        // No pile past the three (QE_PILE_*), for either kind that names one.
        [QE_COMMAND_TAKE_ASSET, QE_COMMAND_DISCARD_ASSET]
            .into_iter()
            .flat_map(|kind| {
                [3, 4, 7, 255].map(|pile| QeCommand {
                    kind,
                    pile,
                    ..bid(1, 0)
                })
            }),
    ) {
        assert_eq!(
            unsafe { qe_game_apply(g, c) },
            QE_ERR_INVALID_ARGUMENT,
            "{c:?}"
        );
    }
    assert_eq!(snapshot(g), before, "no rejected command changed anything");
    free(g);
}

#[test]
fn game_over_rejects_commands() {
    let _pool = pool_shared();
    let mut rng = Lcg(7);
    let g = new_game(3, false, 8);
    let mut o = QeSeatOutcome::default();
    assert_eq!(unsafe { qe_game_outcome(g, 0, &mut o) }, QE_ERR_NOT_OVER);
    let mut s = NUL;
    assert_eq!(unsafe { qe_game_outcome_json(g, &mut s) }, QE_ERR_NOT_OVER);
    assert!(s.is_null());
    while state(g).game_over == 0 {
        let seat = state(g).to_act.trailing_zeros() as u8;
        let c = policy(&legal(g, seat), seat, &mut rng).unwrap();
        assert_eq!(unsafe { qe_game_apply(g, c) }, QE_OK, "{}", last_message());
    }
    let before = record(g);
    assert_eq!(unsafe { qe_game_apply(g, bid(0, 1)) }, code("GAME_OVER"));
    assert!(last_message().starts_with("R-TRN-4: "));
    assert_eq!(record(g), before);
    free(g);
}

#[test]
fn bad_arguments() {
    let _pool = pool_shared();
    let g = new_game(4, false, 9);
    let mut out = ptr::null_mut();
    assert_eq!(unsafe { qe_game_new(2, 0, 1, &mut out) }, code("PLAYERS"));
    assert!(last_message().starts_with("R-SET-1: "));
    assert_eq!(unsafe { qe_game_new(6, 1, 1, &mut out) }, code("PLAYERS"));
    assert_eq!(
        unsafe { qe_game_new(4, 2, 1, &mut out) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert!(out.is_null());
    // A seat or viewer the game lacks is the same error as in a command (R-AUC-12).
    let mut r = QeBidRange::default();
    assert_eq!(
        unsafe { qe_game_bid_range(g, 4, &mut r) },
        code("SEAT_OUT_OF_RANGE")
    );
    assert_eq!(
        last_message(),
        "R-AUC-12: seat 4 is not a seat of this game (`seat`)"
    );
    let mut si = QeSeatInfo::default();
    assert_eq!(
        unsafe { qe_game_seat_info(g, 7, 0, &mut si) },
        code("SEAT_OUT_OF_RANGE")
    );
    assert_eq!(
        last_message(),
        "R-AUC-12: seat 7 is not a seat of this game (`viewer (a seat, or QE_SPECTATOR)`)"
    );
    // The first viewer past the last seat (a 4-player game: viewer 4) is one the game lacks.
    assert_eq!(
        unsafe { qe_game_seat_info(g, 4, 0, &mut si) },
        code("SEAT_OUT_OF_RANGE")
    );
    assert_eq!(
        unsafe { qe_game_seat_info(g, 0, 4, &mut si) },
        code("SEAT_OUT_OF_RANGE")
    );
    assert_eq!(
        last_message(),
        "R-AUC-12: seat 4 is not a seat of this game (`seat`)"
    );
    let bid = QeCommand {
        kind: QE_COMMAND_BID,
        seat: 4,
        ..QeCommand::default()
    };
    assert_eq!(unsafe { qe_game_apply(g, bid) }, code("SEAT_OUT_OF_RANGE"));
    assert_eq!(
        last_message(),
        "R-AUC-12: seat 4 is not a seat of this game"
    );
    let mut a = QeAuction::default();
    assert_eq!(
        unsafe { qe_game_auction(g, 0, 1, &mut a) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert!(last_message().contains("has not started"));
    let mut buf = [0 as c_char; 16];
    assert_eq!(
        unsafe { qe_name(99, 0, buf.as_mut_ptr(), 16, ptr::null_mut()) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { qe_name(QE_NAME_TILE, 21, buf.as_mut_ptr(), 16, ptr::null_mut()) },
        QE_ERR_INVALID_ARGUMENT
    );
    let mut ev = QeEvent::default();
    let misaligned = (ptr::addr_of_mut!(ev) as usize + 1) as *mut QeEvent;
    assert_eq!(
        unsafe { qe_game_events(g, 0, misaligned, 1, &mut 0) },
        QE_ERR_INVALID_ARGUMENT
    );
    free(g);
}

#[test]
fn bad_records_and_illegal_records() {
    let _pool = pool_shared();
    let (st, idx, g) = from_record(r#"{"format":"qe-record/2"}"#);
    assert_eq!((st, idx), (code("RECORD"), usize::MAX));
    assert!(g.is_null());
    assert!(last_message().starts_with("RECORD: "), "{}", last_message());
    assert_eq!(last_rule(), "RECORD");
    // A byte order mark is named, as the `qe` command and Python name it.
    let g = new_game(4, false, 10);
    let (st, idx, g2) = from_record(&format!("\u{feff}{}", record(g)));
    assert_eq!((st, idx), (QE_ERR_INVALID_JSON, usize::MAX));
    assert!(g2.is_null());
    assert_eq!(
        last_message(),
        "`json` is not valid JSON: the text starts with a byte order mark (U+FEFF), which JSON \
         text may not have: save it as UTF-8 without one"
    );
    let (st, _, g3) = from_record(&record(g));
    assert_eq!(st, QE_OK);
    free(g3);
    free(g);
    // A legal record, then one illegal command appended: index and rule.
    let g = new_game(4, false, 10);
    assert_eq!(unsafe { qe_game_apply(g, bid(0, 2)) }, QE_OK);
    let mut v: serde_json::Value = serde_json::from_str(&record(g)).unwrap();
    v["commands"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"seat": 1, "bid": 2}));
    let (st, idx, g2) = from_record(&v.to_string());
    assert_eq!((st, idx), (code("BID_EQUALS_OPENING"), 1));
    assert!(g2.is_null());
    assert_eq!(
        last_message(),
        "command 1: R-AUC-3: bid equals the auctioneer's bid (2)"
    );
    assert_eq!(last_rule(), "R-AUC-3");
    // failed_index may be NULL.
    let c = std::ffi::CString::new(v.to_string()).unwrap();
    let mut g3 = ptr::null_mut();
    assert_eq!(
        unsafe { qe_game_from_record(c.as_ptr(), ptr::null_mut(), &mut g3) },
        code("BID_EQUALS_OPENING")
    );
    free(g);
}

#[test]
fn message_buffer_sizes() {
    let _pool = pool_shared();
    let g = new_game(4, false, 11);
    assert_eq!(
        unsafe { qe_game_apply(g, bid(0, 0)) },
        code("OPENING_BID_ZERO")
    );
    let full = last_message();
    let mut len = 0usize;
    // Too small: truncated, NUL-terminated, 904, full length reported; the last error is kept.
    let mut buf = [0x7f as c_char; 8];
    assert_eq!(
        unsafe { qe_last_error_message(buf.as_mut_ptr(), buf.len(), &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(len, full.len());
    let got = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert_eq!(got, &full[..7]);
    assert_eq!(
        last_message(),
        full,
        "reading the message does not change it"
    );
    // A zero-capacity non-NULL buffer cannot even hold the NUL.
    assert_eq!(
        unsafe { qe_last_error_message(buf.as_mut_ptr(), 0, ptr::null_mut()) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    // One byte short (room for the text but not its NUL): truncated by one, NUL-terminated.
    let mut short = vec![0x7f as c_char; full.len()];
    assert_eq!(
        unsafe { qe_last_error_message(short.as_mut_ptr(), short.len(), ptr::null_mut()) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    let got = unsafe { CStr::from_ptr(short.as_ptr()) }.to_str().unwrap();
    assert_eq!(got, &full[..full.len() - 1]);
    // Exactly enough.
    let mut exact = vec![0 as c_char; full.len() + 1];
    assert_eq!(
        unsafe { qe_last_error_message(exact.as_mut_ptr(), exact.len(), ptr::null_mut()) },
        QE_OK
    );
    // Names.
    let mut name = [0 as c_char; 16];
    for (kind, index, want) in [
        (QE_NAME_NATION, 4, "UK"),
        (QE_NAME_INDUSTRY, 0, "AGR"),
        (QE_NAME_TILE, 0, "US-AGR"),
        (QE_NAME_PILE, 2, "crypto"),
        (QE_NAME_PHASE, QE_PHASE_BIDDING, "bidding"),
    ] {
        assert_eq!(
            unsafe { qe_name(kind, index, name.as_mut_ptr(), name.len(), &mut len) },
            QE_OK
        );
        assert_eq!(
            unsafe { CStr::from_ptr(name.as_ptr()) }.to_str().unwrap(),
            want
        );
        assert_eq!(len, want.len());
    }
    assert_eq!(
        unsafe { qe_name(QE_NAME_TILE, 0, name.as_mut_ptr(), 3, &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    let mut v = 0;
    assert_eq!(unsafe { qe_abi_version(&mut v) }, QE_OK);
    assert_eq!(v, QE_ABI_VERSION);
    free(g);
}

#[test]
fn the_last_errors_rule_is_read_on_its_own() {
    let _pool = pool_shared();
    let g = new_game(4, false, 13);
    assert_eq!(
        unsafe { qe_game_apply(g, bid(1, 3)) },
        code("NOT_AUCTIONEER")
    );
    assert_eq!(last_rule(), "R-AUC-2");
    // Too small: truncated, NUL-terminated, 904, the length reported; the last error is kept.
    let mut buf = [0x7f as c_char; 4];
    let mut len = 0usize;
    assert_eq!(
        unsafe { qe_last_error_rule(buf.as_mut_ptr(), buf.len(), &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(len, "R-AUC-2".len());
    assert_eq!(
        unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap(),
        "R-A"
    );
    assert_eq!(
        last_rule(),
        "R-AUC-2",
        "reading the rule does not change it"
    );
    assert!(last_message().starts_with("R-AUC-2: "));
    // A set-up error.
    let mut g2 = ptr::null_mut();
    assert_eq!(unsafe { qe_game_new(7, 0, 1, &mut g2) }, code("PLAYERS"));
    assert_eq!(last_rule(), "R-SET-1");
    // An error of the ABI has no rule.
    assert_eq!(
        unsafe { qe_game_apply(ptr::null_mut(), bid(0, 3)) },
        QE_ERR_NULL_POINTER
    );
    assert_eq!(last_rule(), "");
    // A thread with no error yet has none.
    std::thread::spawn(|| assert_eq!(last_rule(), ""))
        .join()
        .unwrap();
    free(g);
}

/// A message cut short ends at a character boundary: `unknown bot `é`` cut at 15 bytes keeps the
/// 13 before `é` (2 bytes), never half of it.
#[test]
fn a_truncated_message_is_valid_utf8() {
    let _pool = pool_shared();
    let kind = CString::new("é").unwrap();
    let mut b = ptr::null_mut();
    assert_eq!(
        unsafe { qe_bot_new(kind.as_ptr(), 0, 0, &mut b) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert!(
        last_message().starts_with("unknown bot `é`"),
        "{}",
        last_message()
    );
    let mut buf = [0x7f as c_char; 15];
    let mut len = 0usize;
    assert_eq!(
        unsafe { qe_last_error_message(buf.as_mut_ptr(), buf.len(), &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(len, last_message().len());
    let cut = unsafe { CStr::from_ptr(buf.as_ptr()) };
    assert_eq!(cut.to_str(), Ok("unknown bot `"));
}

/// A clone keeps each viewer's events cursor (`qe_game_clone`: "history and cursors included").
#[test]
fn a_clone_keeps_every_viewers_events_cursor() {
    let _pool = pool_shared();
    let g = new_game(4, false, 21);
    assert_eq!(unsafe { qe_game_apply(g, bid(0, 3)) }, QE_OK);
    let pending = |g: *mut QeGame, viewer: u8| {
        let mut n = 0usize;
        assert_eq!(unsafe { qe_game_events_pending(g, viewer, &mut n) }, QE_OK);
        n
    };
    // Viewer 0 reads everything; viewer 1 nothing.
    let mut buf = vec![QeEvent::default(); 64];
    let mut n = 0usize;
    assert_eq!(
        unsafe { qe_game_events(g, 0, buf.as_mut_ptr(), buf.len(), &mut n) },
        QE_OK
    );
    assert!(n > 0);
    assert_eq!(pending(g, 0), 0);
    assert!(pending(g, 1) > 0);
    let mut copy = ptr::null_mut();
    assert_eq!(unsafe { qe_game_clone(g, &mut copy) }, QE_OK);
    assert_eq!(pending(copy, 0), 0);
    assert_eq!(pending(copy, 1), pending(g, 1));
    free(copy);
    free(g);
}

#[test]
fn last_error_is_per_thread() {
    let _pool = pool_shared();
    let g = new_game(4, false, 12);
    assert_eq!(
        unsafe { qe_game_apply(g, bid(1, 3)) },
        code("NOT_AUCTIONEER")
    );
    std::thread::spawn(|| {
        let mut st = 1;
        assert_eq!(unsafe { qe_last_error_status(&mut st) }, QE_OK);
        assert_eq!(st, QE_OK);
        assert_eq!(last_message(), "");
    })
    .join()
    .unwrap();
    assert!(last_message().starts_with("R-AUC-2"));
    free(g);
}

#[test]
fn panics_are_caught_at_the_boundary() {
    let _pool = pool_shared();
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let literal = qe_ffi::__test_panic_boundary(None);
    let literal_message = last_message();
    let formatted = qe_ffi::__test_panic_boundary(Some(42));
    let formatted_message = last_message();
    std::panic::set_hook(prev);
    // The message says what the panic said, whether its payload was a literal or formatted.
    assert_eq!((literal, formatted), (QE_ERR_PANIC, QE_ERR_PANIC));
    assert!(
        literal_message.contains("deliberate test panic"),
        "{literal_message}"
    );
    assert!(
        formatted_message.contains("deliberate test panic number 42"),
        "{formatted_message}"
    );
}

/// Every `#define NAME VALUE` of the committed header whose name starts with `prefix`.
fn header_defines(prefix: &str) -> Vec<(String, u32)> {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../include/qe.h"))
        .expect("include/qe.h");
    header
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .filter_map(|l| {
            let (name, value) = l.split_once(' ')?;
            let name = name.strip_prefix(prefix)?;
            Some((name.to_owned(), value.trim().parse().ok()?))
        })
        .collect()
}

/// The text of the one-line doc comment just above `#define NAME` in the committed header.
fn header_doc(name: &str) -> String {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../include/qe.h"))
        .expect("include/qe.h");
    let lines: Vec<&str> = header.lines().collect();
    let define = format!("#define {name} ");
    let at = lines
        .iter()
        .position(|l| l.starts_with(&define))
        .unwrap_or_else(|| panic!("{name} is not in include/qe.h"));
    assert!(
        at >= 3 && lines[at - 1] == " */" && lines[at - 3] == "/**",
        "{name}: no doc comment"
    );
    lines[at - 2].trim_start_matches(" * ").to_owned()
}

/// Every rules error code of the C ABI is an entry of qe-core's one table, and back.
#[test]
fn status_codes_match_qe_core() {
    let _pool = pool_shared();
    let rules_codes: Vec<(String, u32)> = header_defines("QE_ERR_")
        .into_iter()
        .filter(|(_, v)| (100..300).contains(v))
        .collect();
    let table: Vec<(String, u32)> = qe_core::ERROR_CODES
        .iter()
        .map(|e| (e.name.to_owned(), e.code))
        .collect();
    assert_eq!(rules_codes, table);
    // Each one's doc text in the header is the table's meaning, so the two cannot drift apart.
    for e in &qe_core::ERROR_CODES {
        assert_eq!(
            header_doc(&format!("QE_ERR_{}", e.name)),
            format!("{}: {}", e.code, e.meaning),
            "the doc comment of QE_ERR_{} in the header is not qe-core's meaning",
            e.name
        );
    }
    // The ABI's own errors (900–999) stay out of the rules' ranges.
    assert!(header_defines("QE_ERR_")
        .iter()
        .all(|(_, v)| (100..300).contains(v) || (900..1000).contains(v)));
}

/// The phase constants are the positions of qe-core's phase names, and `qe_name` spells them so.
#[test]
fn phase_constants_and_names_come_from_qe_core() {
    let _pool = pool_shared();
    let phases = header_defines("QE_PHASE_");
    assert_eq!(phases.len(), qe_core::Phase::NAMES.len());
    for (name, code) in phases {
        let core_name = qe_core::Phase::NAMES[code as usize];
        assert_eq!(name.to_lowercase(), core_name);
        let mut buf = [0 as c_char; 16];
        let st = unsafe { qe_name(QE_NAME_PHASE, code, buf.as_mut_ptr(), 16, ptr::null_mut()) };
        assert_eq!(st, QE_OK);
        assert_eq!(
            unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str(),
            Ok(core_name)
        );
    }
}

fn options(players: u32, expansions: u32, seed: u64) -> QeGameOptions {
    let mut o = QeGameOptions::default();
    assert_eq!(unsafe { qe_game_options_init(&mut o) }, QE_OK);
    assert_eq!((o.players, o.expansions, o.seed), (4, 0, 0));
    QeGameOptions {
        players,
        expansions,
        seed,
        ..o
    }
}

#[test]
fn game_options_choose_the_expansions_and_keep_qe_game_new_as_a_shorthand() {
    let _pool = pool_shared();
    for (players, commodities, seed) in [(3, false, 1), (4, true, 2), (5, true, 3)] {
        let bits = if commodities {
            QE_EXPANSION_COMMODITIES
        } else {
            0
        };
        let mut g = ptr::null_mut();
        let st = unsafe { qe_game_new_with(&options(players, bits, seed), &mut g) };
        assert_eq!(st, QE_OK, "{}", last_message());
        let old = new_game(players as u8, commodities, seed);
        assert_eq!(record(g), record(old));
        assert_eq!(state(g).commodities, u8::from(commodities));
        // The state names the set, as the options did; the old flag agrees with it.
        assert_eq!(u32::from(state(g).expansions), bits);
        assert_eq!(state(old).expansions, state(g).expansions);
        free(g);
        free(old);
    }
    // The bit and the name come from qe-core's one list of expansions.
    let all: Vec<qe_core::Expansion> = qe_core::Expansion::ALL.to_vec();
    assert_eq!(
        qe_core::Expansions::of(qe_core::Expansion::Commodities).bits(),
        QE_EXPANSION_COMMODITIES
    );
    for e in &all {
        let mut buf = [0 as c_char; 16];
        let st = unsafe {
            qe_name(
                QE_NAME_EXPANSION,
                e.index() as u32,
                buf.as_mut_ptr(),
                16,
                ptr::null_mut(),
            )
        };
        assert_eq!(st, QE_OK);
        assert_eq!(
            unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }.to_str(),
            Ok(e.name())
        );
    }
    let mut buf = [0 as c_char; 16];
    let st = unsafe {
        qe_name(
            QE_NAME_EXPANSION,
            all.len() as u32,
            buf.as_mut_ptr(),
            16,
            ptr::null_mut(),
        )
    };
    assert_eq!(st, QE_ERR_INVALID_ARGUMENT);
}

#[test]
fn bad_game_options_are_errors_that_create_nothing() {
    let _pool = pool_shared();
    let cases: Vec<(QeGameOptions, QeStatus, &str)> = vec![
        (options(2, 0, 1), code("PLAYERS"), "R-SET-1"),
        (options(259, 0, 1), code("PLAYERS"), "259"),
        (options(4, 1 << 5, 1), QE_ERR_INVALID_ARGUMENT, "0x20"),
        (
            QeGameOptions {
                struct_size: 8,
                ..options(4, 0, 1)
            },
            QE_ERR_INVALID_ARGUMENT,
            "struct_size is 8",
        ),
        (
            QeGameOptions {
                flags: 2,
                ..options(4, 0, 1)
            },
            QE_ERR_INVALID_ARGUMENT,
            "flags 0x2",
        ),
    ];
    // Every reserved field must be 0.
    let mut cases = cases;
    for i in 0..4 {
        let mut reserved = [0; 4];
        reserved[i] = 7;
        cases.push((
            QeGameOptions {
                reserved,
                ..options(4, 0, 1)
            },
            QE_ERR_INVALID_ARGUMENT,
            "reserved",
        ));
    }
    for (o, code, needle) in cases {
        let mut g = ptr::null_mut();
        assert_eq!(unsafe { qe_game_new_with(&o, &mut g) }, code, "{o:?}");
        assert!(g.is_null());
        assert!(last_message().contains(needle), "{}", last_message());
    }
    // A larger struct (a later version's) is not one this library knows either.
    #[repr(C)]
    struct Larger {
        options: QeGameOptions,
        extra: u64,
    }
    let larger = Larger {
        options: QeGameOptions {
            struct_size: std::mem::size_of::<Larger>() as u32,
            ..options(4, 0, 1)
        },
        extra: 0,
    };
    let mut g = ptr::null_mut();
    assert_eq!(
        unsafe { qe_game_new_with(&larger.options, &mut g) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert!(g.is_null() && last_message().contains("struct_size"));
    let words = [0u64; 8];
    let misaligned = (words.as_ptr() as usize + 4) as *const QeGameOptions;
    let mut g = ptr::null_mut();
    assert_eq!(
        unsafe { qe_game_new_with(misaligned, &mut g) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert!(g.is_null());
}

/// The struct sizes the C example, the C++ example and the C# binding (`Qe.cs`) also check.
#[test]
fn struct_layouts_are_stable() {
    let _pool = pool_shared();
    use std::mem::size_of;
    assert_eq!(size_of::<QeCommand>(), 16);
    assert_eq!(size_of::<QeState>(), 20);
    assert_eq!(size_of::<QeBidRange>(), 32);
    assert_eq!(size_of::<QeLegal>(), 40);
    assert_eq!(size_of::<QeI128>(), 16);
    assert_eq!(size_of::<QeSeatInfo>(), 48);
    assert_eq!(size_of::<QeAuction>(), 48);
    assert_eq!(size_of::<QeEvent>(), 32);
    assert_eq!(size_of::<QeSeatOutcome>(), 72);
    assert_eq!(size_of::<QeGameOptions>(), 56);
}

#[test]
fn a_misaligned_out_len_is_an_error_and_nothing_is_written() {
    let _pool = pool_shared();
    let mut words = [0usize; 3];
    // One byte into the array: never aligned for a usize (the point of the test).
    #[allow(clippy::cast_ptr_alignment)]
    let misaligned = unsafe { words.as_mut_ptr().cast::<u8>().add(1).cast::<usize>() };
    let mut buf = [0 as c_char; 16];
    let st = unsafe { qe_name(QE_NAME_NATION, 0, buf.as_mut_ptr(), buf.len(), misaligned) };
    assert_eq!(st, QE_ERR_INVALID_ARGUMENT);
    assert!(
        last_message().contains("`out_len` is misaligned"),
        "{}",
        last_message()
    );
    assert_eq!(words, [0; 3]);
    assert_eq!(buf[0], 0);
    let before = last_message();
    let st = unsafe { qe_last_error_message(buf.as_mut_ptr(), buf.len(), misaligned) };
    assert_eq!(st, QE_ERR_INVALID_ARGUMENT);
    assert_eq!(words, [0; 3]);
    assert_eq!(last_message(), before, "the last error is unchanged");
}

/// The cases every binding checks (`qe-core/tests/data/bad_commands.json`): through
/// `qe_game_apply_json` each bad command gets the rule and code qe-core gives it, and changes
/// nothing.
#[test]
fn the_shared_bad_commands_name_their_rule_and_code() {
    let _pool = pool_shared();
    let text = include_str!("../../qe-core/tests/data/bad_commands.json");
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    for case in doc["cases"].as_array().unwrap() {
        let command = case["command"].as_str().unwrap();
        let g = new_game(4, false, 1);
        let before = record(g);
        let c = std::ffi::CString::new(command).unwrap();
        let st = unsafe { qe_game_apply_json(g, c.as_ptr()) };
        assert_eq!(u64::from(st), case["code"].as_u64().unwrap(), "{command}");
        let message = last_message();
        let rule = case["rule"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{rule}: ")),
            "{command}: {message}"
        );
        assert_eq!(last_rule(), rule, "{command}");
        assert_eq!(record(g), before, "{command}");
        free(g);
    }
}

/// The version macros, `qe_version` and `qe_version_string` all give the crate's version.
#[test]
fn the_library_version_is_the_crate_version() {
    let _pool = pool_shared();
    let (mut major, mut minor, mut patch) = (9, 9, 9);
    assert_eq!(
        unsafe { qe_version(&mut major, &mut minor, &mut patch) },
        QE_OK
    );
    assert_eq!(
        (major, minor, patch),
        (QE_VERSION_MAJOR, QE_VERSION_MINOR, QE_VERSION_PATCH)
    );
    let text = format!("{major}.{minor}.{patch}");
    assert_eq!(text, env!("CARGO_PKG_VERSION"));
    let mut buf = [0 as c_char; 16];
    let mut len = 0usize;
    assert_eq!(
        unsafe { qe_version_string(buf.as_mut_ptr(), 16, &mut len) },
        QE_OK
    );
    assert_eq!(
        unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str(),
        Ok(text.as_str())
    );
    assert_eq!(len, text.len());
    assert_eq!(
        unsafe { qe_version(ptr::null_mut(), &mut minor, &mut patch) },
        QE_ERR_NULL_POINTER
    );
}

/// A NULL `buf` with a capacity is `QE_ERR_NULL_POINTER`, and `out_len` is not written then: an
/// out-pointer is written on success, and `out_len` also on `QE_ERR_BUFFER_TOO_SMALL` only.
#[test]
fn a_null_buffer_with_a_capacity_writes_nothing() {
    let _pool = pool_shared();
    let mut len = 12345usize;
    assert_eq!(
        unsafe { qe_version_string(ptr::null_mut(), 5, &mut len) },
        QE_ERR_NULL_POINTER
    );
    assert_eq!(len, 12345);
    assert_eq!(
        unsafe { qe_name(QE_NAME_NATION, 0, ptr::null_mut(), 5, &mut len) },
        QE_ERR_NULL_POINTER
    );
    assert_eq!(len, 12345);
    // The length query (`buf` NULL, `cap` 0) still reports the length.
    assert_eq!(
        unsafe { qe_name(QE_NAME_NATION, 4, ptr::null_mut(), 0, &mut len) },
        QE_OK
    );
    assert_eq!(len, 2);
}

/// The last error quotes a caller's value escaped and short (`qe_core::shown`): no NUL inside the
/// message (its `strlen` is its reported length), no raw control byte, however long the value.
#[test]
fn error_messages_are_short_printable_text() {
    let _pool = pool_shared();
    let g = new_game(4, false, 13);
    let huge = format!(r#"{{"seat":0,"bid":"{}"}}"#, "x".repeat(3000));
    for json in [
        r#"{"seat":0,"\u0000":1,"\u0000":2}"#.to_string(),
        r#"{"seat":0,"\u001b[2J":1}"#.to_string(),
        huge,
    ] {
        let c = std::ffi::CString::new(json.clone()).unwrap();
        let st = unsafe { qe_game_apply_json(g, c.as_ptr()) };
        assert_ne!(st, QE_OK, "{json}");
        let mut len = 0usize;
        let mut buf = vec![0 as c_char; 1024];
        assert_eq!(
            unsafe { qe_last_error_message(buf.as_mut_ptr(), buf.len(), &mut len) },
            QE_OK
        );
        let text = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
        assert_eq!(text.len(), len, "a NUL inside {text:?}");
        assert!(!text.chars().any(char::is_control), "{text:?}");
        assert!(len < 300, "{len} bytes: {text}");
    }
    free(g);
}

/// Messages name the value given: a reserved field's value and place, the capacity that was too
/// small, the chance event that is pending when another kind is given.
#[test]
fn messages_name_the_field_and_value_given() {
    let _pool = pool_shared();
    let g = new_game(4, false, 3);
    let bad = QeCommand {
        kind: QE_COMMAND_BID,
        amount: 1,
        reserved: 7,
        ..QeCommand::default()
    };
    assert_eq!(unsafe { qe_game_apply(g, bad) }, QE_ERR_INVALID_ARGUMENT);
    assert_eq!(last_message(), "QeCommand.reserved must be 0, not 7");
    let mut o = options(4, 0, 1);
    o.reserved[2] = 42;
    let mut out = ptr::null_mut();
    assert_eq!(
        unsafe { qe_game_new_with(&o, &mut out) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(
        last_message(),
        "QeGameOptions.reserved must be all 0, but reserved[2] is 42"
    );
    let mut buf = [0 as c_char; 3];
    assert_eq!(
        unsafe { qe_name(QE_NAME_TILE, 0, buf.as_mut_ptr(), 3, ptr::null_mut()) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(
        last_message(),
        "buffer too small: 7 bytes needed, `cap` is 3"
    );
    free(g);
    // External chance: the deal is pending, a reveal is given.
    let mut o = options(4, 0, 1);
    o.flags = QE_GAME_EXTERNAL_CHANCE;
    let mut e = ptr::null_mut();
    assert_eq!(unsafe { qe_game_new_with(&o, &mut e) }, QE_OK);
    let text = CString::new(r#"{"chance":{"reveal":"US-AGR"}}"#).unwrap();
    assert_eq!(
        unsafe { qe_game_apply_json(e, text.as_ptr()) },
        code("INVALID_CHANCE")
    );
    assert_eq!(
        last_message(),
        "R-SET-3: invalid chance outcome: the chance event pending is the deal"
    );
    free(e);
}

/// A non-NULL buffer of capacity 0 cannot hold even the NUL, so it is `QE_ERR_BUFFER_TOO_SMALL`
/// (with the length reported), also when `out_len` is given; only `buf` NULL with `cap` 0 is the
/// length query.
#[test]
fn a_zero_capacity_buffer_is_too_small_even_with_out_len() {
    let _pool = pool_shared();
    let mut buf = [0x7f as c_char; 4];
    let mut len = 0usize;
    assert_eq!(
        unsafe { qe_name(QE_NAME_NATION, 4, buf.as_mut_ptr(), 0, &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(len, 2, "the length is reported on QE_ERR_BUFFER_TOO_SMALL");
    assert_eq!(
        buf[0], 0x7f,
        "nothing is written into a zero-capacity buffer"
    );
    assert_eq!(
        unsafe { qe_version_string(buf.as_mut_ptr(), 0, &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(len, env!("CARGO_PKG_VERSION").len());
    let g = new_game(4, false, 31);
    assert_eq!(
        unsafe { qe_game_apply(g, bid(1, 3)) },
        code("NOT_AUCTIONEER")
    );
    let full = last_message();
    assert_eq!(
        unsafe { qe_last_error_message(buf.as_mut_ptr(), 0, &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!(len, full.len());
    assert_eq!(buf[0], 0x7f);
    free(g);
}

/// An empty text (the rule of an ABI error) asked for with `buf` NULL, `cap` 0 and no `out_len`
/// needs nothing: `QE_OK`. Into a non-NULL buffer of capacity 0 it does not fit (no room for the
/// NUL): `QE_ERR_BUFFER_TOO_SMALL`, length 0.
#[test]
fn an_empty_text_needs_no_buffer_but_a_zero_capacity_one_is_too_small() {
    let _pool = pool_shared();
    assert_eq!(
        unsafe { qe_game_apply(ptr::null_mut(), bid(0, 3)) },
        QE_ERR_NULL_POINTER
    );
    assert_eq!(
        unsafe { qe_last_error_rule(ptr::null_mut(), 0, ptr::null_mut()) },
        QE_OK
    );
    let mut buf = [0x7f as c_char; 4];
    let mut len = 99usize;
    assert_eq!(
        unsafe { qe_last_error_rule(buf.as_mut_ptr(), 0, &mut len) },
        QE_ERR_BUFFER_TOO_SMALL
    );
    assert_eq!((len, buf[0]), (0, 0x7f));
    assert_eq!(
        unsafe { qe_last_error_rule(buf.as_mut_ptr(), 1, &mut len) },
        QE_OK
    );
    assert_eq!((len, buf[0]), (0, 0));
}

/// `qe_last_error_status` never changes the last error, also when it fails itself (NULL or
/// misaligned `out`).
#[test]
fn a_failing_last_error_status_keeps_the_last_error() {
    let _pool = pool_shared();
    let g = new_game(4, false, 32);
    assert_eq!(
        unsafe { qe_game_apply(g, bid(1, 3)) },
        code("NOT_AUCTIONEER")
    );
    let before = last_message();
    assert_eq!(
        unsafe { qe_last_error_status(ptr::null_mut()) },
        QE_ERR_NULL_POINTER
    );
    let mut words = [0u32; 2];
    // One byte in: never aligned for a u32.
    #[allow(clippy::cast_ptr_alignment)]
    let misaligned = unsafe { words.as_mut_ptr().cast::<u8>().add(1).cast::<QeStatus>() };
    assert_eq!(
        unsafe { qe_last_error_status(misaligned) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(words, [0; 2]);
    let mut st = QE_OK;
    assert_eq!(unsafe { qe_last_error_status(&mut st) }, QE_OK);
    assert_eq!(st, code("NOT_AUCTIONEER"), "the status of the rules error");
    assert_eq!(last_message(), before);
    assert_eq!(last_rule(), "R-AUC-2");
    free(g);
}

/// `buf` may be NULL when `cap` is 0 (qe.h): `QE_OK`, no event copied, none marked read.
#[test]
fn events_into_a_null_zero_capacity_buffer_copy_nothing() {
    let _pool = pool_shared();
    let g = new_game(4, false, 33);
    let pending = |g: *mut QeGame| {
        let mut n = 0usize;
        assert_eq!(unsafe { qe_game_events_pending(g, 0, &mut n) }, QE_OK);
        n
    };
    let before = pending(g);
    assert!(before > 0);
    let mut n = 99usize;
    assert_eq!(
        unsafe { qe_game_events(g, 0, ptr::null_mut(), 0, &mut n) },
        QE_OK,
        "{}",
        last_message()
    );
    assert_eq!(n, 0);
    assert_eq!(pending(g), before, "no event was marked read");
    free(g);
}

/// A text of exactly the size limit is within it and is parsed, so one that is not JSON is
/// `QE_ERR_INVALID_JSON`; the size error starts one byte past.
#[test]
fn a_text_of_exactly_the_size_limit_is_parsed() {
    let _pool = pool_shared();
    let (st, idx, out) = from_record(&"x".repeat(qe_core::MAX_RECORD_BYTES));
    assert_eq!(
        (st, idx),
        (QE_ERR_INVALID_JSON, usize::MAX),
        "{}",
        last_message()
    );
    assert!(out.is_null());
    let (st, _, out) = from_record(&"x".repeat(qe_core::MAX_RECORD_BYTES + 1));
    assert_eq!(st, code("RECORD"));
    assert!(out.is_null());
    let g = new_game(4, false, 34);
    let before = record(g);
    assert_eq!(
        apply_json(g, &"x".repeat(qe_core::MAX_COMMAND_BYTES)),
        QE_ERR_INVALID_JSON,
        "{}",
        last_message()
    );
    assert_eq!(
        apply_json(g, &"x".repeat(qe_core::MAX_COMMAND_BYTES + 1)),
        code("MALFORMED_COMMAND")
    );
    assert_eq!(record(g), before);
    free(g);
}

/// A chance index past the outcomes is named in the message, with the number of outcomes; nothing
/// is written or changed.
#[test]
fn a_chance_index_out_of_range_is_named() {
    let _pool = pool_shared();
    let mut o = options(4, 0, 1);
    o.flags = QE_GAME_EXTERNAL_CHANCE;
    let mut g = ptr::null_mut();
    assert_eq!(unsafe { qe_game_new_with(&o, &mut g) }, QE_OK);
    let mut n = 0usize;
    assert_eq!(unsafe { qe_game_chance_count(g, &mut n) }, QE_OK);
    assert!(n > 0);
    let want = format!(
        "chance outcome {} is out of range: the pending chance event has {n}",
        n + 5
    );
    assert_eq!(
        unsafe { qe_game_apply_chance(g, n + 5) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(last_message(), want);
    let mut text = NUL;
    assert_eq!(
        unsafe { qe_game_chance_json(g, n + 5, &mut text) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(last_message(), want);
    assert!(text.is_null());
    assert_eq!(state(g).phase, QE_PHASE_CHANCE);
    free(g);
}

/// An index out of range names the index and the kind given, each in its place.
#[test]
fn a_name_index_out_of_range_names_the_index_and_the_kind() {
    let _pool = pool_shared();
    let mut buf = [0 as c_char; 16];
    assert_eq!(
        unsafe { qe_name(QE_NAME_TILE, 21, buf.as_mut_ptr(), 16, ptr::null_mut()) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(last_message(), "index 21 is out of range for name kind 2");
    assert_eq!(
        unsafe { qe_name(99, 0, buf.as_mut_ptr(), 16, ptr::null_mut()) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(last_message(), "name kind 99 is not a QE_NAME_*");
}

/// A turn not started yet is named in the message, with the number of turns started (they differ
/// here, unlike `bad_arguments`' turn 1).
#[test]
fn an_auction_not_started_names_the_turn_given() {
    let _pool = pool_shared();
    let g = new_game(4, false, 35);
    let mut a = QeAuction::default();
    assert_eq!(
        unsafe { qe_game_auction(g, QE_SPECTATOR, 5, &mut a) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(last_message(), "turn 5 has not started (1 started)");
    assert_eq!(a, QeAuction::default(), "nothing written");
    free(g);
}

/// `*failed_index` receives SIZE_MAX on every outcome but a rejected command (qe.h), a NULL
/// `out_game` included.
#[test]
fn failed_index_is_written_when_out_game_is_null() {
    let _pool = pool_shared();
    let mut idx = 7usize;
    assert_eq!(
        unsafe { qe_game_from_record(c"{}".as_ptr(), &mut idx, ptr::null_mut()) },
        QE_ERR_NULL_POINTER
    );
    assert!(last_message().contains("out_game"), "{}", last_message());
    assert_eq!(idx, usize::MAX);
}

/// A misaligned `options` is an error even when the bytes there are valid options: no game is
/// created (a misaligned read would be undefined behaviour).
#[test]
#[allow(clippy::cast_ptr_alignment)]
fn misaligned_options_are_refused_whatever_they_hold() {
    let _pool = pool_shared();
    let valid = options(4, 0, 1);
    const _: () = assert!(size_of::<QeGameOptions>() + 4 <= size_of::<[u64; 9]>());
    let mut words = [0u64; 9];
    // SAFETY: the options' bytes, 4 bytes into the array (in bounds: 56 + 4 < 72).
    let misaligned = unsafe {
        let p = words
            .as_mut_ptr()
            .cast::<u8>()
            .add(4)
            .cast::<QeGameOptions>();
        p.write_unaligned(valid);
        p.cast_const()
    };
    let mut g = ptr::null_mut();
    assert_eq!(
        unsafe { qe_game_new_with(misaligned, &mut g) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert!(g.is_null());
    assert!(last_message().contains("not aligned"), "{}", last_message());
}

/// A misaligned out-pointer is `QE_ERR_INVALID_ARGUMENT` naming it, and nothing is written
/// (`copy_to_buffer`'s "checked as every out-pointer is").
#[test]
#[allow(clippy::cast_ptr_alignment)]
fn misaligned_out_pointers_are_errors_and_nothing_is_written() {
    let _pool = pool_shared();
    let g = new_game(4, false, 36);
    let mut words = [0u64; 8];
    let base = words.as_mut_ptr().cast::<u8>();
    // Each pointer is 1, 2 or 4 bytes past an 8-aligned address: never aligned for its type.
    unsafe {
        assert_eq!(
            qe_abi_version(base.add(1).cast::<u32>()),
            QE_ERR_INVALID_ARGUMENT
        );
        assert_eq!(last_message(), "`out` is misaligned");
        assert_eq!(
            qe_game_state(g, base.add(2).cast::<QeState>()),
            QE_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            qe_game_events_pending(g, 0, base.add(4).cast::<usize>()),
            QE_ERR_INVALID_ARGUMENT
        );
        assert_eq!(last_message(), "`out_count` is misaligned");
        assert_eq!(
            qe_game_record_json(g, base.add(4).cast::<*mut c_char>()),
            QE_ERR_INVALID_ARGUMENT
        );
        assert_eq!(last_message(), "`out_json` is misaligned");
        assert_eq!(
            qe_game_new(4, 0, 1, base.add(4).cast::<*mut QeGame>()),
            QE_ERR_INVALID_ARGUMENT
        );
        assert_eq!(last_message(), "`out_game` is misaligned");
    }
    assert_eq!(words, [0; 8], "nothing was written");
    free(g);
}

/// A game with external chance has no record before its deal: `QE_ERR_INVALID_ARGUMENT` (not a
/// caught panic), and nothing is written.
#[test]
fn no_record_before_the_deal_is_an_invalid_argument() {
    let _pool = pool_shared();
    let mut o = options(5, QE_EXPANSION_COMMODITIES, 1);
    o.flags = QE_GAME_EXTERNAL_CHANCE;
    let mut g = ptr::null_mut();
    assert_eq!(unsafe { qe_game_new_with(&o, &mut g) }, QE_OK);
    let mut text = NUL;
    assert_eq!(
        unsafe { qe_game_record_json(g, &mut text) },
        QE_ERR_INVALID_ARGUMENT
    );
    assert_eq!(last_message(), "no record before the deal");
    assert!(text.is_null());
    // After the deal there is one.
    assert_eq!(unsafe { qe_game_apply_chance(g, 0) }, QE_OK);
    assert!(record(g).contains("qe-record/1"));
    free(g);
}
