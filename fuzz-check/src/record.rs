//! The `record` target: arbitrary bytes read as a `qe-record/1` JSON record.
//!
//! Checked: [`Record::from_json`] and [`Record::replay`] never panic; a rejected record gets a
//! non-empty message and a rule; a record that parses has a valid set-up (replay never fails on the
//! set-up, only on a command, with that command's index); a record without malformed commands
//! writes JSON that reads back equal; and a record that replays gives a match whose own record
//! round-trips through JSON, replays to the same game, and whose game passes the engine's state
//! checks.

use qe_core::{Record, ReplayError};

use crate::engine::check_state;

/// Reads `data` as text (lossily when it is not UTF-8) and runs every check.
pub fn check(data: &[u8]) {
    match core::str::from_utf8(data) {
        Ok(text) => check_text(text),
        Err(_) => check_text(&String::from_utf8_lossy(data)),
    }
}

/// Runs every check on one JSON text.
pub fn check_text(text: &str) {
    let record = match Record::from_json(text) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an empty error message");
            assert!(!e.rule().is_empty(), "an error without a rule: {e:?}");
            return;
        }
    };
    if record.commands.iter().all(Result::is_ok) {
        let json = record.to_json();
        let back = Record::from_json(&json)
            .unwrap_or_else(|e| panic!("a record's own JSON is rejected: {e}\n{json}"));
        assert_eq!(back, record, "record → JSON → record changed it");
        let pretty = Record::from_json(&record.to_json_pretty()).expect("pretty JSON reads back");
        assert_eq!(pretty, record);
    }
    match record.replay() {
        Err(ReplayError::Setup(e)) => {
            panic!("from_json accepted a record whose set-up replay rejects: {e}")
        }
        Err(e @ ReplayError::Command { index, .. }) => {
            assert!(index < record.commands.len());
            assert!(!e.to_string().is_empty());
            // Every command before `index` was accepted: the prefix replays.
            let mut prefix = record.clone();
            prefix.commands.truncate(index);
            let m = prefix
                .replay()
                .expect("the prefix before the failing command replays");
            check_state(m.game());
        }
        Ok(m) => {
            assert_eq!(m.commands().len(), record.commands.len());
            check_state(m.game());
            let own = m.record().expect("a replayed match has a record");
            assert_eq!(own.players, record.players);
            assert_eq!(own.expansions, record.expansions);
            assert_eq!(own.industry_tokens, record.industry_tokens);
            assert_eq!(own.deck, record.deck);
            assert_eq!(own.seed, record.seed);
            assert_eq!(
                own.commands, record.commands,
                "the replayed commands differ"
            );
            if record.expansions.contains(qe_core::Expansion::Commodities) {
                assert_eq!(own.piles, record.piles);
            }
            let json = own.to_json();
            let back = Record::from_json(&json)
                .unwrap_or_else(|e| panic!("a replayed record's JSON is rejected: {e}\n{json}"));
            assert_eq!(back, own, "record → JSON → record changed it");
            let again = back.replay().expect("a replayed record replays again");
            assert_eq!(again.game(), m.game());
            assert_eq!(again.game().outcome(), m.game().outcome());
        }
    }
}
