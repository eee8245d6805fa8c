//! Resampling an information state (`qe_core::bots::search::resample`, R-VIS-8): over random
//! games (3, 4 and 5 players, with and without Commodities, with ties, third ties, asset rebids
//! and 5-player peeks), a match drawn for a seat gives it exactly the view, bid history and peek
//! history of the real one, holds the bids the others already made in the current step (R-VIS-1:
//! `has_bid`), is the same for the same seed, and differs from the real game in what the seat
//! cannot see (R-VIS-2, R-VIS-6).

mod common;

use common::twins::{random_command_of, rules_of, Rng};
use proptest::prelude::*;
use qe_core::bots::search::{resample, ResampleError};
use qe_core::bots::{Bot, ValueBot};
use qe_core::{Command, Game, Match, Rules, Seat};

/// One command of a random game: mostly small random bids (ties, third ties and zero bids are
/// frequent), sometimes the `value` bot's, sometimes a peek (R-VIS-5).
fn next_command(m: &Match, rng: &mut Rng, bots: &mut [ValueBot]) -> Command {
    let game = m.game();
    if game.players() == 5 && rng.below(12) == 0 {
        let peeker = Seat(rng.below(5) as u8);
        let peek = game.legal(peeker).peek;
        if peek != 0 {
            let turn = (0..16u8).find(|t| peek & (1 << t) != 0).unwrap();
            return Command::Peek { seat: peeker, turn };
        }
    }
    let acting = game.to_act();
    let seat = acting
        .iter()
        .nth(rng.below(acting.len() as u64) as usize)
        .unwrap();
    if rng.below(3) == 0 {
        if let Some(c) = bots[seat.index()].act(&game.view(seat)) {
            return c;
        }
    }
    random_command_of(game, seat, rng, Seat(u8::MAX))
}

/// Checks resamples of `m` for every seat; returns (states checked, states whose draws all
/// equalled the real game).
fn check_all_seats(m: &Match, seed: u64) -> (usize, usize) {
    let rules = *m.game().rules();
    let mut fixed = 0;
    for s in 0..m.game().players() {
        let seat = Seat(s);
        let mv = m.view(Some(seat));
        let peeks = m.peek_history(Some(seat));
        let mut differs = false;
        for k in 0..3 {
            let drawn = resample(&rules, &mv, &peeks, seed.wrapping_mul(7).wrapping_add(k))
                .unwrap_or_else(|e| {
                    panic!(
                        "no resample for {seat:?} at {:?} after {} commands: {e}",
                        mv.view.phase,
                        m.commands().len()
                    )
                });
            assert_eq!(
                drawn.view(Some(seat)),
                mv,
                "view and bid history of {seat:?}"
            );
            assert_eq!(drawn.peek_history(Some(seat)), peeks, "peeks of {seat:?}");
            assert_eq!(drawn.game().to_act(), m.game().to_act());
            differs |= drawn.game() != m.game();
            if k == 0 {
                let again = resample(&rules, &mv, &peeks, seed.wrapping_mul(7)).unwrap();
                assert_eq!(again.commands(), drawn.commands(), "same seed, same match");
                assert_eq!(again.game(), drawn.game());
            }
        }
        if !differs {
            fixed += 1;
        }
    }
    (m.game().players() as usize, fixed)
}

/// Plays a random game, checking resamples at every `every`-th command and at the end.
fn play_and_check(players: u8, commodities: bool, seed: u64, every: usize) -> (usize, usize) {
    let rules = rules_of(players, commodities);
    let mut m = Match::seeded(rules, seed);
    let mut rng = Rng(seed ^ 0xABCD);
    let mut bots: Vec<ValueBot> = (0..5)
        .map(|s| ValueBot::new(seed.wrapping_mul(10).wrapping_add(s)))
        .collect();
    let (mut checked, mut fixed) = (0, 0);
    let mut n = 0;
    while !m.game().is_over() {
        if n % every == every - 1 {
            let (c, f) = check_all_seats(&m, seed.wrapping_add(n as u64));
            checked += c;
            fixed += f;
        }
        let c = next_command(&m, &mut rng, &mut bots);
        m.apply(c).unwrap();
        n += 1;
    }
    // At the end everything is revealed (R-VIS-7): the resample is the real game's outcome.
    for s in 0..players {
        let drawn = m.resample(Seat(s), seed).unwrap();
        assert_eq!(drawn.view(Some(Seat(s))), m.view(Some(Seat(s))));
        assert_eq!(drawn.game().outcome(), m.game().outcome());
    }
    (checked, fixed)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every seat, every few commands, in every configuration: the same information state,
    /// the hidden rest drawn (R-VIS-8).
    #[test]
    fn resamples_keep_the_information_state(
        players in 3u8..=5,
        commodities in any::<bool>(),
        seed in any::<u64>(),
        every in 3usize..9,
    ) {
        let (checked, fixed) = play_and_check(players, commodities, seed, every);
        prop_assert!(checked > 0);
        // The others' tokens and the deck are hidden until the end (R-VIS-2, R-VIS-6): three
        // draws almost never all give the real game back.
        prop_assert!(fixed * 10 <= checked, "{fixed} of {checked} states never varied");
    }
}

/// A fixed sweep over every configuration (the proptest above draws them at random), with peeks
/// in the 5-player games (R-VIS-5).
#[test]
fn resamples_in_every_configuration() {
    let mut total = 0;
    let mut peeked = 0;
    for players in 3..=5u8 {
        for commodities in [false, true] {
            for seed in 0..6u64 {
                let (checked, fixed) = play_and_check(players, commodities, seed, 2);
                assert!(fixed * 10 <= checked, "{players} {commodities} {seed}");
                total += checked;
                if players == 5 {
                    peeked += usize::from(peeks_in(commodities, seed) > 0);
                }
            }
        }
    }
    assert!(total > 2000, "{total}");
    assert!(
        peeked >= 6,
        "only {peeked} of the 5-player games had a peek"
    );
}

/// A company tie drawn above the winner's price when the seat knows that price from a peek
/// (R-VIS-5, R-AUC-5, R-AUC-6): seat 0 peeks at turn 2, whose first stage tied two seats above
/// seat 1's bid, and seat 1 won after the tied seats rebid 0. Drawn below that price, no tie ever
/// ended that stage and every resample failed (a case the proptest above found).
#[test]
fn resamples_a_tie_above_a_peeked_price() {
    let (checked, fixed) = play_and_check(5, true, 17_566_860_958_373_640_054, 3);
    assert!(checked > 0 && fixed * 10 <= checked, "{fixed} of {checked}");
}

/// A third tie the asset shows (R-AUC-7, R-COM-3): seat 1 rebids 5 in turn 3's second rebid and
/// the auctioneer takes the asset with its opening bid of 1, so seat 1 was set aside by a third
/// tie, and the winner's hidden price lies below the tied bids. Drawn without both, a resample of
/// seat 1 failed about every other seed (a case the proptest above found).
#[test]
fn resamples_a_third_tie_the_asset_shows() {
    let (checked, fixed) = play_and_check(5, true, 15_583_920_286_824_798_037, 3);
    assert!(checked > 0 && fixed * 10 <= checked, "{fixed} of {checked}");
}

/// A bid set aside by a third tie stands above the price (R-AUC-7): in turn 0 the auctioneer wins
/// its own auction with 2 after seats 2 and 4 tie at 3 in the second rebid, and seats 1 and 3,
/// with their zero bids, are the whole asset field (R-COM-3, R-AUC-11). Seat 4's bid, made in the
/// first rebid, was always drawn below the price, so no draw set it aside and every resample
/// failed (a case the proptest above found).
#[test]
fn resamples_a_set_aside_bid_above_the_price() {
    let (checked, fixed) = play_and_check(5, true, 16_904_657_733_389_381_951, 3);
    assert!(checked > 0 && fixed * 10 <= checked, "{fixed} of {checked}");
}

/// How many peeks the 5-player game `play_and_check` plays from `seed` has.
fn peeks_in(commodities: bool, seed: u64) -> usize {
    let mut m = Match::seeded(rules_of(5, commodities), seed);
    let mut rng = Rng(seed ^ 0xABCD);
    let mut bots: Vec<ValueBot> = (0..5)
        .map(|s| ValueBot::new(seed.wrapping_mul(10).wrapping_add(s)))
        .collect();
    while !m.game().is_over() {
        let c = next_command(&m, &mut rng, &mut bots);
        m.apply(c).unwrap();
    }
    m.peek_history(None).len()
}

/// The current step's bids already made are in the resample, drawn (R-VIS-1: who has bid is
/// public, not the amount), and the hidden amounts vary with the seed (R-VIS-2); bids not yet made
/// are not in it.
#[test]
fn current_bids_already_made_are_drawn() {
    let rules = Rules::base(4).unwrap();
    let mut m = Match::seeded(rules, 5);
    for (seat, amount) in [(0, 3), (2, 7), (3, 1)] {
        m.apply(Command::Bid {
            seat: Seat(seat),
            amount,
        })
        .unwrap();
    }
    let me = Seat(1);
    let mut amounts = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let drawn = m.resample(me, seed).unwrap();
        assert_eq!(drawn.view(Some(me)), m.view(Some(me)));
        assert_eq!(drawn.commands().len(), 3);
        assert!(drawn.game().to_act() == qe_core::SeatSet::only(me));
        let history = drawn.bid_history(Some(Seat(0))); // the auctioneer sees them (R-VIS-3)
        amounts.insert((history[0].amount, history[1].amount));
        assert_ne!(
            history[0].amount,
            Some(3),
            "no bid equals the opening bid (R-AUC-3)"
        );
    }
    assert!(amounts.len() > 5, "{amounts:?}");
}

/// Bad input gives typed errors: a spectator's view, a seat not in the game, other rules.
#[test]
fn bad_input_gives_typed_errors() {
    let rules = Rules::base(4).unwrap();
    let m = Match::seeded(rules, 1);
    assert_eq!(
        resample(&rules, &m.view(None), &[], 0).unwrap_err(),
        ResampleError::Spectator
    );
    assert_eq!(
        m.resample(Seat(4), 0).unwrap_err(),
        ResampleError::NoSuchSeat {
            seat: 4,
            players: 4
        }
    );
    let other = Rules::commodities(4).unwrap();
    assert_eq!(
        resample(&other, &m.view(Some(Seat(0))), &[], 0).unwrap_err(),
        ResampleError::RulesMismatch
    );
    let chance = Match::new(Game::external_chance(rules, None).unwrap());
    assert_eq!(
        chance.resample(Seat(0), 0).unwrap_err(),
        ResampleError::ChancePending
    );
}
