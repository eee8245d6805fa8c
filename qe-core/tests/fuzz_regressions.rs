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
