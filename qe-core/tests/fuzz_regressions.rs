//! Regression tests for the bugs the fuzz targets found (`fuzz/README.md`), each named for the rule
//! (or the record format section) it concerns. The inputs that found them are kept under
//! `fuzz/artifacts/` and replayed by `qe-fuzz-check`'s corpus test.

use qe_core::{Command, Match, Record, Rules, RulesBuilder, Seat, Table};

/// RECORD.md ("Replaying"), R-SCO-6: a record holds the player count, the expansion and the
/// manifest, not scoring tables. A match under custom tables used to write a record that replayed to
/// a different game (different rules, different outcome); now it has no record.
#[test]
fn record_r_sco_6_custom_tables_are_not_recorded() {
    let table = Table::new("nationalization", &[0, 2, 5, 9]).unwrap();
    let rules = RulesBuilder::new(4).nationalization(table).build().unwrap();
    let mut m = Match::seeded(rules, 3);
    m.apply(Command::Bid {
        seat: Seat(0),
        amount: 2,
    })
    .unwrap();
    assert_eq!(m.record(), None);
    // Rules a record can hold still give one, and it replays to the same game.
    let mut m = Match::seeded(Rules::commodities(5).unwrap(), 3);
    m.apply(Command::Bid {
        seat: Seat(0),
        amount: 2,
    })
    .unwrap();
    let record = m.record().unwrap();
    assert_eq!(record.replay().unwrap().game(), m.game());
    let bonus = RulesBuilder::new(3).least_spent_bonus(1).build().unwrap();
    assert!(Record::of(&qe_core::Game::seeded(bonus, 1), &[], None).is_none());
}

/// R-SET-3 with R-VIS-5: in external-chance mode a peek used to be accepted while a chance outcome
/// was pending. After the last take of a 5-player Commodities game that is a moment the game
/// without external chance never has (its draw and the game end are immediate), so the match's
/// record ended with a peek that replay rejects (R-TRN-4). Now every seat command, peeks included,
/// waits for the pending chance outcome (`ChancePending`).
#[test]
fn r_set_3_no_peek_while_a_chance_outcome_is_pending() {
    use qe_core::{CommandError, Game, Phase};
    let rules = Rules::commodities(5).unwrap();
    let mut m = Match::new(Game::external_chance(rules, None).unwrap());
    let mut refused = 0;
    while !m.game().is_over() {
        let mut game = *m.game();
        if let Phase::Chance { .. } = game.phase() {
            // No seat may peek now, even at an auction whose price it does not see.
            for seat in 0..5 {
                assert_eq!(game.legal(Seat(seat)).peek, 0, "a peek at a chance node");
                for turn in 0..game.turn() {
                    let before = game;
                    let err = game
                        .apply(Command::Peek {
                            seat: Seat(seat),
                            turn,
                        })
                        .unwrap_err();
                    refused += usize::from(err == CommandError::ChancePending);
                    assert_eq!(game, before);
                }
            }
            let outcome = game.chance_outcomes()[0];
            m.apply(Command::Chance(outcome)).unwrap();
            continue;
        }
        let seat = game.to_act().first().unwrap();
        let legal = game.legal(seat);
        let c = match legal.bid {
            Some(r) if r.allows(u64::from(seat.0) + 1) => Command::Bid {
                seat,
                amount: u64::from(seat.0) + 1,
            },
            Some(_) => Command::Bid { seat, amount: 9 },
            None if !legal.take.is_empty() => Command::TakeAsset {
                seat,
                kind: legal.take.iter().next().unwrap(),
            },
            None => Command::DiscardAsset {
                seat,
                kind: legal.discard.iter().next().unwrap(),
            },
        };
        m.apply(c).unwrap();
    }
    assert!(refused > 0);
    // After the last take, the game waited for the last draw: a peek there is refused, and the
    // record of the match replays to the same outcome.
    let record = m.record().unwrap();
    assert_eq!(
        record.replay().unwrap().game().outcome(),
        m.game().outcome()
    );
}
