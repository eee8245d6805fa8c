//! The public API used against its grain: values the engine never makes itself (a set-up of other
//! rules, public fields set out of range, a view or an outcome read from elsewhere) get an error,
//! a refusal or a clamped answer, never a panic or a game that cannot go on.

use qe_core::bots::{by_name, NAMES};
use qe_core::scoring::{score, Holdings};
use qe_core::{Game, Manifest, Match, Rules, Seat, Setup};

/// A set-up made for other rules is refused by `Game::new` (R-SET-2): before, a base set-up in a
/// Commodities game left the take-asset phase with no legal move.
#[test]
fn a_set_up_of_other_rules_is_refused() {
    let base = Rules::base(4).unwrap();
    let commodities = Rules::commodities(4).unwrap();
    assert!(Game::new(commodities, Setup::seeded(&base, 1)).is_err());
    assert!(Match::with_setup(commodities, Setup::seeded(&base, 1)).is_err());
    // A manifest that takes a tile out of play at 5 players, and a set-up that deals it.
    let standard = Manifest::default();
    let mut tiles = standard.tile_values();
    tiles[0] = 2;
    tiles[1] = 1;
    let tokens = [
        qe_core::AssetKind::Gold,
        qe_core::AssetKind::Oil,
        qe_core::AssetKind::Crypto,
    ]
    .map(|k| standard.token_values(k));
    let manifest = Manifest::new(tiles, tokens).unwrap();
    let custom = qe_core::RulesBuilder::new(5)
        .manifest(manifest)
        .build()
        .unwrap();
    let e = Game::new(custom, Setup::seeded(&Rules::base(5).unwrap(), 3)).unwrap_err();
    assert!(e.to_string().contains("not in play"), "{e}");
    // Its own set-up is accepted, as before.
    assert!(Game::new(custom, Setup::seeded(&custom, 3)).is_ok());
}

#[test]
fn counts_out_of_range_are_clamped_not_panics() {
    // No seats: 16 turns of an opening bid and a take, nothing else.
    assert_eq!(Rules::max_commands_of(0), 32);
    let rules = Rules::commodities(4).unwrap();
    let h = Holdings {
        token_count: 200,
        ..Holdings::default()
    };
    assert_eq!(h.tokens().count(), 0, "16 empty slots");
    let _ = score(&rules, &[h; 4], false);
}

/// A view whose counts no game has: the bots decline it, and what is read from it stays in range.
#[test]
fn a_malformed_view_is_declined_by_the_bots() {
    let m = Match::seeded(Rules::base(4).unwrap(), 5);
    let good = m.game().view(Seat(0));
    assert!(good.is_well_formed());
    let mut wide = good;
    wide.turns_started = 200;
    assert_eq!(wide.auctions().len(), 16);
    let mut many = good;
    many.players = 99;
    let mut none = good;
    none.players = 0;
    // Auctions numbered by another turn, or run by a seat the game lacks.
    let mut played = Match::seeded(Rules::base(4).unwrap(), 5);
    let mut bots: Vec<_> = (0..4).map(|s| by_name("value", s).unwrap()).collect();
    while played.game().turn() < 3 {
        let seat = played.game().to_act().first().unwrap();
        let c = bots[seat.index()].act(&played.game().view(seat)).unwrap();
        played.play(c).unwrap();
    }
    let later = played.game().view(Seat(0));
    assert!(later.is_well_formed());
    let mut renumbered = later;
    renumbered.auctions[1].turn = 200;
    let mut foreign = later;
    foreign.auctions[0].auctioneer = Some(Seat(9));
    for bad in [wide, many, none, renumbered, foreign] {
        assert!(!bad.is_well_formed());
        let _ = bad.deduce();
        for name in NAMES {
            let decided = by_name(name, 1).unwrap().act(&bad);
            // The bots that read the counts decline; `random` and `miser` read only `legal`.
            if name.starts_with("value") || name.starts_with("search") {
                assert_eq!(decided, None, "{name}");
            }
        }
    }
}

/// An outcome read from JSON must number its seats in order: a seat 200 would be a seat no game
/// has.
#[cfg(feature = "serde")]
#[test]
fn an_outcome_with_misnumbered_seats_is_refused() {
    let mut m = Match::seeded(Rules::base(3).unwrap(), 2);
    let mut bots: Vec<_> = (0..3).map(|s| by_name("random", s).unwrap()).collect();
    while !m.game().is_over() {
        let seat = m.game().to_act().first().unwrap();
        let c = bots[seat.index()].act(&m.game().view(seat)).unwrap();
        m.play(c).unwrap();
    }
    let outcome = m.game().outcome().unwrap();
    let mut v = serde_json::to_value(outcome).unwrap();
    assert_eq!(
        serde_json::from_value::<qe_core::Outcome>(v.clone()).unwrap(),
        outcome
    );
    v["seats"][1]["seat"] = 200.into();
    let e = serde_json::from_value::<qe_core::Outcome>(v)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("seat 1 of an outcome says it is seat 200"),
        "{e}"
    );
}

/// An outcome read from JSON has 3 to 5 seats (R-SET-1): fewer or more is refused.
#[cfg(feature = "serde")]
#[test]
fn an_outcome_of_other_than_three_to_five_seats_is_refused() {
    let seat = |i: u8| {
        let mut s = serde_json::to_value(qe_core::SeatOutcome::default()).unwrap();
        s["seat"] = i.into();
        s
    };
    let outcome = |n: u8| serde_json::json!({ "seats": (0..n).map(seat).collect::<Vec<_>>() });
    for n in [0u8, 1, 2, 6] {
        assert!(
            serde_json::from_value::<qe_core::Outcome>(outcome(n)).is_err(),
            "{n} seats"
        );
    }
    for n in 3..=5u8 {
        let o: qe_core::Outcome = serde_json::from_value(outcome(n)).unwrap();
        assert_eq!(o.seats().len(), usize::from(n));
    }
}

/// A seat number past the game's seats has nothing to do (R-AUC-12), in every player count.
#[test]
fn a_seat_past_the_last_has_nothing_to_do() {
    for players in 3..=5u8 {
        for rules in [
            Rules::base(players).unwrap(),
            Rules::commodities(players).unwrap(),
        ] {
            let game = Game::seeded(rules, 1);
            for seat in [players, 5, 255] {
                let legal = game.legal(Seat(seat));
                assert_eq!(
                    legal,
                    qe_core::Legal::default(),
                    "{players} players, seat {seat}"
                );
                assert!(!legal.must_act());
                assert!(game.bid_range(Seat(seat)).is_none());
            }
        }
    }
}

/// `score` called directly with totals no game makes (all below zero): the highest is still
/// eliminated (R-SCO-2).
#[test]
fn the_highest_total_is_eliminated_even_below_zero() {
    let rules = Rules::base(3).unwrap();
    let seat = |spent| Holdings {
        spent,
        ..Holdings::default()
    };
    let outcome = score(&rules, &[seat(-5), seat(-1), seat(-3)], false);
    let eliminated: Vec<bool> = outcome.seats().iter().map(|s| s.eliminated).collect();
    assert_eq!(eliminated, [false, true, false]);
}
