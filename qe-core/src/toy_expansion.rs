//! A toy expansion, compiled into the crate's own tests only, that proves what adding an
//! expansion takes (ARCHITECTURE.md, "A new expansion touches"): a variant of [`Expansion`] with
//! its name and its place in [`Expansion::ALL`] (`expansion.rs`), and its rules where they apply.
//! Its one rule, R-TOY-1, doubles the least-spent bonus (R-SCO-3), a default of `rules.rs`.
//!
//! Everything else reads the core's list: the names (`Expansions::from_names`), the rules
//! (`Rules::with_expansions`), scoring, records, views and the observation's `expansions` block.

use alloc::vec::Vec;

use crate::bots::{Bot, RandomBot};
use crate::encoding::{observe, BLOCKS, OBS_SIZE};
use crate::expansion::{Expansion, Expansions};
use crate::rules::{Rules, RulesBuilder};
use crate::seat::Seat;
use crate::session::Match;

/// The floats the toy adds to the observation (its place in the `expansions` block): the sizes
/// the crate's tests pin count it.
pub(crate) const OBSERVATION_FLOATS: usize = 1;

fn toy() -> Expansions {
    Expansions::of(Expansion::Toy)
}

/// Plays a game of `rules` to its end with random bots.
fn played(rules: Rules, seed: u64) -> Match {
    let mut m = Match::seeded(rules, seed);
    let mut bots: Vec<RandomBot> = (0..5).map(|i| RandomBot::new(seed ^ i)).collect();
    while !m.game().is_over() {
        let seat = m
            .game()
            .to_act()
            .first()
            .expect("a seat acts until the end");
        let command = bots[seat.index()]
            .act(&m.game().view(seat))
            .expect("a seat to act has a move");
        m.apply(command).expect("the bot's move is legal");
    }
    m
}

#[test]
fn the_toy_is_named_and_read_like_every_expansion() {
    assert_eq!(Expansion::Toy.name(), "toy");
    assert_eq!(Expansions::from_names(["toy"]), Ok(toy()));
    let both = Expansions::from_names(["commodities", "toy"]).unwrap();
    assert_eq!(both.names().collect::<Vec<_>>(), ["commodities", "toy"]);
    assert_eq!(Expansions::from_bits(both.bits()), Some(both));
    assert_eq!(alloc::format!("{both}"), "commodities,toy");
}

/// R-TOY-1: the least-spent bonus is doubled (R-SCO-3), with or without Commodities, unless the
/// host sets it.
#[test]
fn r_toy_1_doubles_the_least_spent_bonus() {
    for players in 3..=5 {
        let base = Rules::base(players).unwrap().least_spent_bonus;
        let with_toy = Rules::with_expansions(players, toy()).unwrap();
        assert_eq!(with_toy.least_spent_bonus, 2 * base);
        let both = Rules::with_expansions(players, toy().with(Expansion::Commodities)).unwrap();
        assert_eq!(both.least_spent_bonus, 2 * base);
        assert_eq!(
            both.zero_bid_vp, 0,
            "Commodities' own default stays (R-COM-2)"
        );
        let set = RulesBuilder::new(players)
            .expansions(toy())
            .least_spent_bonus(1);
        assert_eq!(set.build().unwrap().least_spent_bonus, 1);
    }
    let game = played(Rules::with_expansions(4, toy()).unwrap(), 7);
    let outcome = game.game().outcome().expect("the game is over");
    let least = outcome.seats().iter().map(|s| s.spent).min().unwrap();
    for s in outcome.seats() {
        let bonus = if s.spent == least { 14 } else { 0 };
        assert_eq!(s.least_spent_bonus, bonus, "{s:?}");
    }
}

/// Views, the observation and records carry the toy with no code of its own.
#[test]
fn views_observations_and_records_carry_the_toy() {
    let game = played(Rules::with_expansions(3, toy()).unwrap(), 3);
    let view = game.game().view(Seat(1));
    assert_eq!(view.expansions, toy());
    let mut obs = [0.0f32; OBS_SIZE];
    observe(&view, &mut obs);
    let block = BLOCKS.iter().find(|b| b.name == "expansions").unwrap();
    assert_eq!(&obs[block.offset..block.offset + block.len], [0.0, 1.0]);
    let record = game.record().expect("a seeded game has a record");
    assert_eq!(record.expansions, toy());
    #[cfg(feature = "serde")]
    {
        let json = record.to_json();
        assert!(json.contains(r#""expansions":["toy"]"#), "{json}");
        let read = crate::Record::from_json(&json).unwrap();
        assert_eq!(
            read.replay().unwrap().game().outcome(),
            game.game().outcome()
        );
    }
}
