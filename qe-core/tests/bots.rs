//! Property tests of the baseline bots (`qe_core::bots`): over thousands of random games of every
//! variant (3, 4 and 5 players, with and without the Commodities expansion) and every mix of bots,
//! each bot only ever issues legal commands (R-AUC-12), always acts when it must, and is deterministic
//! given its seed. (The search bots, too slow for thousands of games, have their own tests in
//! `search.rs`.)

use proptest::prelude::*;
use qe_core::bots::{by_name, BoxedBot, NAMES as ALL_NAMES};
use qe_core::{Command, Game, Rules, Seat};

/// The baseline bots.
const NAMES: [&str; 3] = ["random", "miser", "value"];

fn rules(players: u8, commodities: bool) -> Rules {
    if commodities {
        Rules::commodities(players).unwrap()
    } else {
        Rules::base(players).unwrap()
    }
}

/// Plays one game to the end; panics on any illegal or missing command. Returns the commands.
fn play(players: u8, commodities: bool, seed: u64, mix: &[usize; 5]) -> Vec<Command> {
    play_with_bot_seed(players, commodities, seed, seed, mix)
}

/// [`play`] with the bots seeded from `bot_seed`, the game from `seed`.
fn play_with_bot_seed(
    players: u8,
    commodities: bool,
    seed: u64,
    bot_seed: u64,
    mix: &[usize; 5],
) -> Vec<Command> {
    let mut game = Game::seeded(rules(players, commodities), seed);
    let mut bots: Vec<BoxedBot> = (0..players)
        .map(|s| by_name(NAMES[mix[s as usize]], bot_seed ^ (u64::from(s) << 32)).unwrap())
        .collect();
    let mut commands = Vec::new();
    while !game.is_over() {
        assert!(commands.len() < 1000, "game does not end");
        // Every seat that must act does (sealed bids: several at once, in any order).
        let seat: Seat = game.to_act().first().expect("someone must act");
        let view = game.view(seat);
        let command = bots[seat.index()].act(&view).unwrap_or_else(|| {
            panic!(
                "{} did not act in {:?}",
                NAMES[mix[seat.index()]],
                view.phase
            )
        });
        assert_eq!(command.seat(), Some(seat));
        // The command is one the view offers (R-AUC-12) ...
        match command {
            Command::Bid { amount, .. } => {
                assert!(
                    view.legal.bid.is_some_and(|r| r.allows(amount)),
                    "{command:?}"
                );
            }
            Command::TakeAsset { kind, .. } => assert!(view.legal.take.contains(kind)),
            Command::DiscardAsset { kind, .. } => assert!(view.legal.discard.contains(kind)),
            Command::Peek { turn, .. } => assert!(view.legal.peek & (1 << turn) != 0),
            other => panic!("bots play seat commands, not {other:?}"),
        }
        // ... and the engine accepts it.
        if let Err(e) = game.apply(command) {
            panic!(
                "{} played {command:?}: {}: {e}",
                NAMES[mix[seat.index()]],
                e.rule()
            );
        }
        commands.push(command);
    }
    assert!(game.outcome().is_some());
    commands
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// R-AUC-12: bots only issue legal commands, in every variant and every mix of bots.
    #[test]
    fn bots_play_only_legal_commands(
        players in 3u8..=5,
        commodities in any::<bool>(),
        seed in any::<u64>(),
        mix in proptest::array::uniform5(0usize..NAMES.len()),
    ) {
        play(players, commodities, seed, &mix);
    }
}

#[test]
fn every_variant_with_each_bot_alone() {
    // Each bot against copies of itself, in all six variants: the same-bot games stress ties.
    for players in 3..=5u8 {
        for commodities in [false, true] {
            for bot in 0..NAMES.len() {
                for seed in 0..40 {
                    play(players, commodities, seed, &[bot; 5]);
                }
            }
        }
    }
}

#[test]
fn bots_are_deterministic_given_their_seed() {
    for players in 3..=5u8 {
        for commodities in [false, true] {
            let mix = [2, 0, 1, 2, 0];
            assert_eq!(
                play(players, commodities, 99, &mix),
                play(players, commodities, 99, &mix)
            );
            // ... and their seed matters: in the same game, other bot seeds give other moves.
            assert_ne!(
                play(players, commodities, 99, &mix),
                play_with_bot_seed(players, commodities, 99, 100, &mix)
            );
        }
    }
}

#[test]
fn by_name_knows_every_name() {
    for name in NAMES {
        assert!(ALL_NAMES.contains(&name), "{name}");
    }
    for name in ALL_NAMES {
        assert!(by_name(name, 1).is_some(), "{name}");
    }
    assert!(by_name("Value", 1).is_none());
    assert!(by_name("", 1).is_none());
}

/// `nearest_legal` returns an amount the range allows, the forbidden amount skipped upward, or
/// downward at the top of the range.
#[test]
fn the_nearest_legal_amount_is_legal() {
    use qe_core::bots::nearest_legal;
    use qe_core::BidRange;
    let top = BidRange {
        min: 0,
        max: u64::MAX,
        forbidden: Some(u64::MAX),
    };
    assert_eq!(nearest_legal(&top, u64::MAX), u64::MAX - 1);
    let low = BidRange {
        min: 1,
        max: u64::MAX,
        forbidden: Some(5),
    };
    assert_eq!(nearest_legal(&low, 0), 1);
    assert_eq!(nearest_legal(&low, 5), 6);
    assert_eq!(nearest_legal(&low, 9), 9);
    for (range, amount) in [(top, u64::MAX), (low, 0), (low, 5), (low, 9)] {
        assert!(
            range.allows(nearest_legal(&range, amount)),
            "{range:?} {amount}"
        );
    }
}
