//! Observations of rare positions, read field by field by name (`encoding::place`): a discard, a
//! second tie, a third tie the viewer may not see, a 3-player last tile nobody wins, and the
//! action space's edges. The golden games hold none of these, and the other observation tests
//! compare the ways of observing with each other, which share one writer.

// Flags and one-hots are exactly 0.0 or 1.0.
#![allow(clippy::float_cmp)]

#[path = "common/play.rs"]
mod play;

use play::{auction, first_pile, play_until, play_until_with, tie_for_the_asset_three_times};
use qe_core::encoding::{observe_seat, place, ActionSpace, BidLadder, OBS_SIZE};
use qe_core::{Command, Game, Match, Phase, Rules, Seat};

/// The observation of `seat`, readable by field name (`"phase[6]"`, `"auctions[0].price"`).
struct Seen(Vec<f32>);

impl Seen {
    fn of(game: &Game, seat: u8) -> Seen {
        let mut out = vec![0.0; OBS_SIZE];
        observe_seat(game, Seat(seat), &mut out);
        Seen(out)
    }

    fn get(&self, name: &str) -> f32 {
        let i = (0..OBS_SIZE)
            .find(|&i| place(i).is_some_and(|p| p.to_string() == name))
            .unwrap_or_else(|| panic!("no field {name}"));
        self.0[i]
    }
}

/// A 3-player Commodities game at its first auction's discard (R-COM-7).
fn at_a_discard() -> Game {
    let mut game = Game::seeded(Rules::commodities(3).unwrap(), 1);
    tie_for_the_asset_three_times(&mut game);
    game
}

#[test]
fn the_discard_phase_is_its_own_phase_and_the_discard_is_public() {
    let mut game = at_a_discard();
    for seat in 0..3 {
        let seen = Seen::of(&game, seat);
        assert_eq!(seen.get("phase[6]"), 1.0, "seat {seat}");
        assert_eq!(seen.get("phase[5]"), 0.0, "seat {seat}");
    }
    let kind = first_pile(&game);
    game.apply(Command::DiscardAsset {
        seat: Seat(0),
        kind,
    })
    .unwrap();
    // Who discarded from which pile is public (R-VIS-1); the token is not (R-COM-7).
    for seat in 0..3 {
        let seen = Seen::of(&game, seat);
        assert_eq!(seen.get("auctions[0].asset_discarded"), 1.0);
        assert_eq!(seen.get("auctions[0].asset_seat[0]"), 1.0, "seat {seat}");
        let pile = format!("auctions[0].asset_pile[{}]", kind.index());
        assert_eq!(seen.get(&pile), 1.0, "seat {seat}");
        assert_eq!(
            seen.get("auctions[0].asset_value_known"),
            0.0,
            "seat {seat}"
        );
    }
    // At the end every token is revealed, the discarded one too (R-VIS-7).
    play_until(&mut game, 16);
    for seat in 0..3 {
        let seen = Seen::of(&game, seat);
        assert_eq!(
            seen.get("auctions[0].asset_value_known"),
            1.0,
            "seat {seat}"
        );
    }
}

#[test]
fn a_second_tie_is_tie_two() {
    // The company (R-AUC-6): seats 1 and 2 tie at 6, then at 5.
    let mut game = Game::seeded(Rules::base(4).unwrap(), 1);
    auction(&mut game, &[(0, 3), (1, 6), (2, 6), (3, 1)]);
    assert_eq!(game.phase(), Phase::Rebid { tie: 1 });
    let seen = Seen::of(&game, 3);
    assert_eq!((seen.get("tie[0]"), seen.get("tie[1]")), (1.0, 0.0));
    auction(&mut game, &[(1, 5), (2, 5)]);
    assert_eq!(game.phase(), Phase::Rebid { tie: 2 });
    let seen = Seen::of(&game, 3);
    assert_eq!((seen.get("tie[0]"), seen.get("tie[1]")), (0.0, 1.0));
    // The asset (R-COM-4): seats 2 and 3 tie for second at 3, then at 1.
    let mut game = Game::seeded(Rules::commodities(4).unwrap(), 1);
    auction(&mut game, &[(0, 2), (1, 9), (2, 3), (3, 3)]);
    auction(&mut game, &[(2, 1), (3, 1)]);
    assert_eq!(game.phase(), Phase::AssetRebid { tie: 2 });
    let seen = Seen::of(&game, 1);
    assert_eq!(seen.get("phase[4]"), 1.0);
    assert_eq!((seen.get("tie[0]"), seen.get("tie[1]")), (0.0, 1.0));
}

#[test]
fn a_third_tie_shows_only_to_those_who_see_it() {
    // Seats 1, 2 and 3 tie twice; then seats 2 and 3 tie a third time at 4, or do not at 1. The
    // auctioneer wins at 3 either way. Seat 1 cannot tell (R-VIS-8); the auctioneer can (R-VIS-3).
    let play = |last: u64| {
        let mut m = Match::new(Game::seeded(Rules::base(4).unwrap(), 1));
        let all = [(0, 3), (1, 6), (2, 6), (3, 6), (1, 5), (2, 5), (3, 5)];
        for (seat, amount) in all.into_iter().chain([(1, 1), (2, last), (3, last)]) {
            m.apply(Command::Bid {
                seat: Seat(seat),
                amount,
            })
            .unwrap();
        }
        *m.game()
    };
    let (tied, untied) = (play(4), play(1));
    assert_eq!(tied.view(Seat(1)).auctions()[0].third_tie, None);
    for game in [&tied, &untied] {
        assert_eq!(Seen::of(game, 1).get("auctions[0].third_tie"), 0.0);
    }
    assert_eq!(Seen::of(&tied, 0).get("auctions[0].third_tie"), 1.0);
    assert_eq!(Seen::of(&untied, 0).get("auctions[0].third_tie"), 0.0);
}

#[test]
fn a_three_player_last_tile_nobody_wins_has_no_price() {
    // Every secret bid is 0: on turn 15 the three tie and the tile is not awarded (R-AUC-9), so
    // there is no price to reveal at the end (R-VIS-7).
    let mut game = Game::seeded(Rules::base(3).unwrap(), 1);
    play_until_with(&mut game, 16, first_pile, |_| 0);
    let last = game.view(Seat(1)).auctions()[15];
    assert_eq!((last.winner, last.price), (None, None));
    for seat in 0..3 {
        let seen = Seen::of(&game, seat);
        assert_eq!(seen.get("auctions[15].price_known"), 0.0, "seat {seat}");
        assert_eq!(seen.get("auctions[15].awarded"), 1.0, "seat {seat}");
        for s in 0..5 {
            assert_eq!(seen.get(&format!("auctions[15].winner[{s}]")), 0.0);
        }
        // An earlier auction's price is revealed.
        assert_eq!(seen.get("auctions[14].price_known"), 1.0, "seat {seat}");
    }
}

#[test]
fn the_action_space_keeps_to_its_edges() {
    let space = ActionSpace::new(BidLadder::default(), true);
    // A pile action decodes to a take unless only discards are legal, so the game names the rule
    // it breaks: here, during an opening bid, no pile is legal.
    let game = Game::seeded(Rules::commodities(4).unwrap(), 1);
    let legal = game.legal(Seat(1));
    assert!(legal.take.is_empty() && legal.discard.is_empty());
    let command = space.decode(Seat(1), &legal, space.pile_offset()).unwrap();
    assert!(matches!(command, Command::TakeAsset { .. }), "{command:?}");
    // A peek at a turn the game does not have has no action.
    let peek = |turn| Command::Peek {
        seat: Seat(0),
        turn,
    };
    assert!(space.encode(&peek(15)).is_some_and(|a| a < space.size()));
    assert_eq!(space.encode(&peek(16)), None);
    assert_eq!(space.encode(&peek(255)), None);
}
