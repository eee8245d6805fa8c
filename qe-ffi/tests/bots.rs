//! The bot handle (`qe_bot_new`, `qe_bot_decide`, `qe_bot_free`): every name of qe-core's list plays
//! whole games through the ABI, with legal commands only and the same commands as the Rust bots;
//! levels; and the error paths (names, levels, seats, null, freed and foreign handles).
#![allow(unsafe_code, clippy::borrow_as_ptr)]

mod common;

use std::ffi::CString;
use std::ptr;

use common::*;
use qe_ffi::*;

fn new_bot(kind: &str, level: u32, seed: u64) -> Result<*mut QeBot, QeStatus> {
    let kind = CString::new(kind).unwrap();
    let mut b = ptr::null_mut();
    match unsafe { qe_bot_new(kind.as_ptr(), level, seed, &mut b) } {
        QE_OK => {
            assert!(!b.is_null());
            Ok(b)
        }
        st => {
            assert!(b.is_null());
            Err(st)
        }
    }
}

fn decide(b: *mut QeBot, g: *const QeGame, seat: u8) -> Result<QeCommand, QeStatus> {
    let mut c = QeCommand::default();
    match unsafe { qe_bot_decide(b, g, seat, &mut c) } {
        QE_OK => Ok(c),
        st => Err(st),
    }
}

fn free_bot(b: *mut QeBot) {
    assert_eq!(unsafe { qe_bot_free(b) }, QE_OK);
}

/// Plays a whole game with `names[seat]` at each seat through the ABI; returns the record.
fn play(players: u8, commodities: bool, seed: u64, names: &[(&str, u32)]) -> String {
    let g = new_game(players, commodities, seed);
    let bots: Vec<*mut QeBot> = (0..players)
        .map(|s| {
            let (name, level) = names[s as usize % names.len()];
            new_bot(name, level, seed + u64::from(s)).unwrap()
        })
        .collect();
    let mut steps = 0;
    loop {
        let s = state(g);
        if s.game_over == 1 {
            break;
        }
        let seat = (0..players).find(|i| s.to_act & (1 << i) != 0).unwrap();
        // Seats that do not act get QE_ERR_NOT_TO_ACT.
        if let Some(idle) = (0..players).find(|i| s.to_act & (1 << i) == 0) {
            assert_eq!(decide(bots[idle as usize], g, idle), Err(QE_ERR_NOT_TO_ACT));
        }
        let c = decide(bots[seat as usize], g, seat).unwrap();
        assert_eq!(c.seat, seat);
        assert_eq!(c.reserved, 0);
        assert_eq!(
            unsafe { qe_game_apply(g, c) },
            QE_OK,
            "{c:?}: {}",
            last_message()
        );
        steps += 1;
        assert!(steps < 2000);
    }
    for b in bots {
        free_bot(b);
    }
    let r = record(g);
    free(g);
    r
}

#[test]
fn every_bot_plays_whole_games_through_the_abi() {
    let _pool = pool_shared();
    for players in 3..=5u8 {
        for commodities in [false, true] {
            let seed = u64::from(players) * 7 + u64::from(commodities);
            play(
                players,
                commodities,
                seed,
                &[
                    ("value", 0),
                    ("random", 0),
                    ("search:easy", 0),
                    ("miser", 0),
                ],
            );
        }
    }
}

/// The handle gives the Rust bots' decisions: the same seed, the same commands.
#[test]
fn decisions_match_the_rust_bots_and_are_deterministic() {
    let _pool = pool_shared();
    let names = [("search", QE_BOT_LEVEL_EASY), ("value", 0), ("value", 0)];
    let a = play(3, true, 4, &names);
    assert_eq!(a, play(3, true, 4, &names));
    // `search` at QE_BOT_LEVEL_EASY is `search:easy`.
    assert_eq!(
        a,
        play(
            3,
            true,
            4,
            &[("search:easy", 0), ("value", 0), ("value", 0)]
        )
    );
    // The same game with qe-core's bots directly.
    let rules = qe_core::Rules::commodities(3).unwrap();
    let mut m = qe_core::Match::seeded(rules, 4);
    let mut bots: Vec<qe_core::bots::BoxedBot> = ["search:easy", "value", "value"]
        .iter()
        .enumerate()
        .map(|(s, n)| qe_core::bots::by_name(n, 4 + s as u64).unwrap())
        .collect();
    while !m.game().is_over() {
        let seat = m.game().to_act().first().unwrap();
        let bot = &mut bots[seat.index()];
        let c = bot.act_with_history(&m.view(Some(seat))).unwrap();
        m.apply(c).unwrap();
    }
    assert_eq!(a, m.record().unwrap().to_json());
}

/// At every decision of several games, a new bot of each kind decides through the handle what
/// qe-core's bot of that name and seed decides from the seat's view and bid history (R-VIS-8),
/// for the game's manifest: also in a game whose manifest is not the default one.
#[test]
fn every_decision_is_qe_cores_for_the_games_manifest() {
    let _pool = pool_shared();
    let tiles =
        qe_core::Manifest::default()
            .tile_values()
            .map(|v| if v <= 1 { v } else { (v * 7).min(99) });
    let custom =
        qe_core::Manifest::new(tiles, [&[6; 4], &[4; 4], &[0, 1, 2, 3, 8, 9, 9, 9, 9, 9]]).unwrap();
    let with_custom = qe_core::RulesBuilder::new(4)
        .expansions(qe_core::Rules::commodities(4).unwrap().expansions())
        .manifest(custom)
        .build()
        .unwrap();
    let mut compared = 0;
    for (rules, seed) in [
        (with_custom, 1),
        (qe_core::Rules::base(4).unwrap(), 1),
        (qe_core::Rules::base(5).unwrap(), 2),
        (qe_core::Rules::commodities(3).unwrap(), 3),
    ] {
        let start = qe_core::Match::seeded(rules, seed)
            .record()
            .unwrap()
            .to_json();
        let (st, _, g) = from_record(&start);
        assert_eq!(st, QE_OK, "{}", last_message());
        let mut rng = Lcg(seed);
        loop {
            let m = qe_core::Record::from_json(&record(g))
                .unwrap()
                .replay()
                .unwrap();
            let Some(seat) = m.game().to_act().first() else {
                break;
            };
            for name in ["search:easy", "value", "miser", "random"] {
                let mut core = qe_core::bots::by_name_with(name, seed, *rules.manifest()).unwrap();
                let want = core.act_with_history(&m.view(Some(seat))).unwrap();
                let b = new_bot(name, 0, seed).unwrap();
                let got = decide(b, g, seat.0);
                free_bot(b);
                assert_eq!(
                    got,
                    Ok(QeCommand::from(want)),
                    "{name}, {} players, seed {seed}, turn {}",
                    rules.players(),
                    m.game().turn()
                );
                compared += 1;
            }
            // The game goes on by the test policy, so the bids differ from the bots' own.
            let c = policy(&legal(g, seat.0), seat.0, &mut rng).unwrap();
            assert_eq!(unsafe { qe_game_apply(g, c) }, QE_OK, "{}", last_message());
        }
        free(g);
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn bot_names_and_levels() {
    let _pool = pool_shared();
    for name in qe_core::bots::NAMES {
        free_bot(new_bot(name, QE_BOT_LEVEL_DEFAULT, 1).unwrap());
    }
    for level in [QE_BOT_LEVEL_EASY, QE_BOT_LEVEL_MEDIUM, QE_BOT_LEVEL_HARD] {
        free_bot(new_bot("search", level, 1).unwrap());
    }
    for (kind, level, needle) in [
        ("oracle", QE_BOT_LEVEL_DEFAULT, "unknown bot `oracle`"),
        ("Value", QE_BOT_LEVEL_DEFAULT, "unknown bot"),
        ("", QE_BOT_LEVEL_DEFAULT, "unknown bot"),
        ("value", QE_BOT_LEVEL_EASY, "takes no level"),
        ("search:hard", QE_BOT_LEVEL_EASY, "takes no level"),
        ("search", 4, "not a QE_BOT_LEVEL_"),
    ] {
        assert_eq!(
            new_bot(kind, level, 1),
            Err(QE_ERR_INVALID_ARGUMENT),
            "{kind}"
        );
        assert!(
            last_message().contains(needle),
            "{kind}: {}",
            last_message()
        );
    }
    assert!(last_message_names_every_bot());
    let mut b = ptr::null_mut();
    assert_eq!(
        unsafe { qe_bot_new(ptr::null(), 0, 1, &mut b) },
        QE_ERR_NULL_POINTER
    );
    let bad = [0xffu8 as std::ffi::c_char, 0];
    assert_eq!(
        unsafe { qe_bot_new(bad.as_ptr(), 0, 1, &mut b) },
        QE_ERR_INVALID_UTF8
    );
    let value = c"value";
    assert_eq!(
        unsafe { qe_bot_new(value.as_ptr(), 0, 1, ptr::null_mut()) },
        QE_ERR_NULL_POINTER
    );
}

fn last_message_names_every_bot() -> bool {
    assert_eq!(new_bot("nope", 0, 1), Err(QE_ERR_INVALID_ARGUMENT));
    let m = last_message();
    qe_core::bots::NAMES.iter().all(|n| m.contains(n))
}

#[test]
fn decide_checks_its_arguments() {
    let _pool = pool_shared();
    let g = new_game(4, false, 2);
    let b = new_bot("value", 0, 1).unwrap();
    let mut c = QeCommand::default();
    assert_eq!(decide(b, g, 4), Err(code("SEAT_OUT_OF_RANGE")));
    assert!(last_message().contains("seat 4"), "{}", last_message());
    assert_eq!(decide(b, g, 1), Err(QE_ERR_NOT_TO_ACT));
    assert!(last_message().contains("nothing to do"));
    assert_eq!(
        unsafe { qe_bot_decide(ptr::null_mut(), g, 0, &mut c) },
        QE_ERR_NULL_POINTER
    );
    assert_eq!(
        unsafe { qe_bot_decide(b, ptr::null(), 0, &mut c) },
        QE_ERR_NULL_POINTER
    );
    assert_eq!(
        unsafe { qe_bot_decide(b, g, 0, ptr::null_mut()) },
        QE_ERR_NULL_POINTER
    );
    // A game handle is not a bot, and a bot is not a game.
    assert_eq!(
        unsafe { qe_bot_decide(g.cast(), g, 0, &mut c) },
        QE_ERR_INVALID_HANDLE
    );
    assert!(last_message().contains("not a QeBot"));
    assert_eq!(
        unsafe { qe_bot_decide(b, b.cast(), 0, &mut c) },
        QE_ERR_INVALID_HANDLE
    );
    // Readable memory that is not a bot.
    let fake = [0u64; 8];
    assert_eq!(
        unsafe { qe_bot_decide(fake.as_ptr() as *mut QeBot, g, 0, &mut c) },
        QE_ERR_INVALID_HANDLE
    );
    let opening = decide(b, g, 0).unwrap();
    assert_eq!(opening.kind, QE_COMMAND_BID);
    assert!(opening.amount >= 1);
    free_bot(b);
    free(g);
    assert_eq!(unsafe { qe_bot_free(ptr::null_mut()) }, QE_OK);
}

#[test]
fn freed_bots_are_detected() {
    let _pool = pool_exclusive();
    let g = new_game(3, false, 1);
    let b = new_bot("search", QE_BOT_LEVEL_EASY, 1).unwrap();
    free_bot(b);
    assert_eq!(decide(b, g, 0), Err(QE_ERR_INVALID_HANDLE));
    assert!(last_message().contains("already freed"));
    assert_eq!(unsafe { qe_bot_free(b) }, QE_ERR_INVALID_HANDLE);
    // The freed cell serves the next bot, which works.
    let b2 = new_bot("value", 0, 1).unwrap();
    assert!(decide(b2, g, 0).is_ok());
    free_bot(b2);
    free(g);
}

/// Each `QE_BOT_LEVEL_*` of `search` is the search bot of that name (`QE_BOT_LEVEL_DEFAULT` is
/// medium). Easy and medium, and medium and hard, each decide differently somewhere here, so the
/// comparison can tell the levels apart.
#[test]
fn each_search_level_is_the_search_bot_of_that_name() {
    let _pool = pool_shared();
    let g = new_game(3, false, 1);
    let mut rng = Lcg(1);
    let (mut compared, mut easy_medium, mut medium_hard) = (0, 0, 0);
    while state(g).game_over == 0 && (compared < 2 || easy_medium == 0 || medium_hard == 0) {
        assert!(compared < 16, "easy, medium and hard never all differed");
        let seat = state(g).to_act.trailing_zeros() as u8;
        let mut by_level = Vec::new();
        for (level, name) in [
            (QE_BOT_LEVEL_EASY, "search:easy"),
            (QE_BOT_LEVEL_MEDIUM, "search:medium"),
            (QE_BOT_LEVEL_HARD, "search:hard"),
            (QE_BOT_LEVEL_DEFAULT, "search:medium"),
        ] {
            let by_number = new_bot("search", level, 9).unwrap();
            let by_name = new_bot(name, 0, 9).unwrap();
            let got = decide(by_number, g, seat);
            assert_eq!(got, decide(by_name, g, seat), "level {level} is {name}");
            free_bot(by_number);
            free_bot(by_name);
            by_level.push(got);
        }
        easy_medium += u32::from(by_level[0] != by_level[1]);
        medium_hard += u32::from(by_level[1] != by_level[2]);
        compared += 1;
        let c = policy(&legal(g, seat), seat, &mut rng).unwrap();
        assert_eq!(unsafe { qe_game_apply(g, c) }, QE_OK, "{}", last_message());
    }
    assert!(easy_medium > 0 && medium_hard > 0);
    free(g);
}

/// Each handle type has its own freed magic, so a freed game passed as a bot is "not a QeBot" (not
/// "already freed"), and a freed bot passed as a game "not a QeGame".
#[test]
fn a_freed_handle_of_one_type_is_not_a_handle_of_the_other() {
    let _pool = pool_exclusive();
    let g = new_game(3, false, 1);
    let b = new_bot("value", 0, 1).unwrap();
    let freed_game = new_game(3, false, 2);
    free(freed_game);
    let freed_bot = new_bot("value", 0, 2).unwrap();
    free_bot(freed_bot);
    let mut c = QeCommand::default();
    assert_eq!(
        unsafe { qe_bot_decide(freed_game.cast(), g, 0, &mut c) },
        QE_ERR_INVALID_HANDLE
    );
    assert!(last_message().contains("not a QeBot"), "{}", last_message());
    assert_eq!(
        unsafe { qe_bot_free(freed_game.cast()) },
        QE_ERR_INVALID_HANDLE
    );
    assert!(last_message().contains("not a QeBot"), "{}", last_message());
    assert_eq!(
        unsafe { qe_bot_decide(b, freed_bot.cast(), 0, &mut c) },
        QE_ERR_INVALID_HANDLE
    );
    assert!(
        last_message().contains("not a QeGame"),
        "{}",
        last_message()
    );
    assert_eq!(
        unsafe { qe_game_free(freed_bot.cast()) },
        QE_ERR_INVALID_HANDLE
    );
    assert!(
        last_message().contains("not a QeGame"),
        "{}",
        last_message()
    );
    free_bot(b);
    free(g);
}
