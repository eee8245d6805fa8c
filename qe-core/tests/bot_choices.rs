//! The simple bots' choices where games rarely go (a discard, a take from several piles, a seat
//! that may only peek), the names the bots are asked for by, and the JSON readers' key and
//! whitespace handling.

#[path = "common/play.rs"]
mod play;

use play::{auction, play_until, tie_for_the_asset_three_times};
use qe_core::bots::{by_name, decide, Bot, MiserBot, RandomBot, NAMES};
use qe_core::{AssetKind, Command, Game, Match, Phase, Rules, Seat};

/// A 3-player Commodities game of set-up `seed`: seat 0 takes a gold token on turn 0, then, as
/// auctioneer again on turn 3, wins while seats 1 and 2 tie for the asset three times, so it
/// must discard (R-COM-7).
fn seat_0_holding_gold_discards(seed: u64) -> Game {
    let mut game = Game::seeded(Rules::commodities(3).unwrap(), seed);
    assert_eq!(game.auctioneer(), Some(Seat(0)));
    auction(&mut game, &[(0, 5), (1, 9), (2, 3)]);
    assert_eq!(game.phase(), Phase::TakeAsset { seat: Seat(0) });
    game.apply(Command::TakeAsset {
        seat: Seat(0),
        kind: AssetKind::Gold,
    })
    .unwrap();
    while game.auctioneer() != Some(Seat(0)) {
        let next = game.turn() + 1;
        play_until(&mut game, next);
    }
    tie_for_the_asset_three_times(&mut game);
    game
}

#[test]
fn the_miser_takes_and_discards_from_the_first_legal_pile() {
    let game = seat_0_holding_gold_discards(1);
    let command = MiserBot.act(&game.view(Seat(0)));
    assert_eq!(
        command,
        Some(Command::DiscardAsset {
            seat: Seat(0),
            kind: AssetKind::Gold
        })
    );
    // A take with every pile open: gold, the first.
    let mut game = Game::seeded(Rules::commodities(3).unwrap(), 2);
    auction(&mut game, &[(0, 5), (1, 9), (2, 3)]);
    assert_eq!(game.legal(Seat(0)).take.iter().count(), 3);
    assert_eq!(
        MiserBot.act(&game.view(Seat(0))),
        Some(Command::TakeAsset {
            seat: Seat(0),
            kind: AssetKind::Gold
        })
    );
}

#[test]
fn the_random_bot_discards_from_any_legal_pile() {
    let game = seat_0_holding_gold_discards(3);
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..60 {
        match RandomBot::new(seed).act(&game.view(Seat(0))) {
            Some(Command::DiscardAsset { kind, .. }) => kinds.insert(kind),
            other => panic!("{other:?}"),
        };
    }
    assert_eq!(kinds.len(), game.legal(Seat(0)).discard.iter().count());
}

/// 5 players (R-VIS-5): once a tile has been awarded, a seat with nothing else to do may peek.
#[test]
fn a_seat_that_may_only_peek_is_offered_the_peek_or_not() {
    let mut m = Match::seeded(Rules::base(5).unwrap(), 4);
    while m.game().turn() < 6 {
        let seat = m.game().to_act().first().unwrap();
        let command = decide(&mut *by_name("value", 1).unwrap(), &m, seat, false).unwrap();
        m.play(command).unwrap();
    }
    assert_eq!(m.game().phase().name(), "opening_bid");
    let idle = (0..5u8)
        .map(Seat)
        .find(|&s| !m.game().legal(s).must_act() && m.game().legal(s).peek != 0)
        .expect("an idle seat that may peek");
    let mut peeked = false;
    for seed in 0..40 {
        let mut random = RandomBot::new(seed);
        match decide(&mut random, &m, idle, true) {
            Some(Command::Peek { seat, .. }) => {
                assert_eq!(seat, idle);
                peeked = true;
            }
            None => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(peeked, "the random bot never peeked");
    // Without the offer no bot peeks, those that read their history included.
    for name in NAMES {
        for seat in (0..5u8).map(Seat) {
            let mut bot = by_name(name, 3).unwrap();
            let command = decide(&mut *bot, &m, seat, false);
            assert!(
                !matches!(command, Some(Command::Peek { .. })),
                "{name} at seat {}: {command:?}",
                seat.0
            );
        }
    }
}

#[test]
fn bot_names_are_exact() {
    assert_eq!(
        NAMES,
        [
            "random",
            "miser",
            "value",
            "search",
            "search:easy",
            "search:medium",
            "search:hard",
            "search:mixed"
        ]
    );
    for name in NAMES {
        assert!(by_name(name, 0).is_some(), "{name}");
    }
    for name in [
        "Miser",
        "MISER",
        "Random",
        " value",
        "value ",
        "search::easy",
        "search:easy ",
        "search:Easy",
        "search:",
        "search:extreme",
        "",
    ] {
        assert!(by_name(name, 0).is_none(), "{name:?}");
    }
}

#[cfg(feature = "serde")]
#[test]
fn json_keys_repeated_anywhere_are_refused_and_leading_space_is_allowed() {
    let e = Command::from_json(r#"{"bid":5,"seat":0,"bid":6}"#).unwrap_err();
    assert!(e.to_string().contains("duplicate key `bid`"), "{e}");
    let command = Command::from_json(" \n\t{\"seat\":0,\"bid\":5}").unwrap();
    assert_eq!(
        command,
        Command::Bid {
            seat: Seat(0),
            amount: 5
        }
    );
    let mut m = Match::seeded(Rules::base(4).unwrap(), 7);
    m.play(command).unwrap();
    let text = m.record().unwrap().to_json();
    assert!(qe_core::Record::from_json(&format!("\n  {text}")).is_ok());
    let twice = text.replacen(r#""players":4"#, r#""players":9,"x":0,"players":4"#, 1);
    let twice = twice.replacen(r#","x":0"#, r#","seed":7"#, 1);
    let e = qe_core::Record::from_json(&twice).unwrap_err().to_string();
    assert!(e.contains("duplicate key `players`"), "{e}");
}
