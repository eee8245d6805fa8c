//! Replays every case of `conformance/` (a copy of the project's shared conformance suite) and checks
//! each expectation: outcome field by field, illegal at the right index, pending, or bad.

use std::path::Path;

#[path = "common/conformance.rs"]
mod conformance;

use conformance::cases;

use qe_core::{Record, ReplayError, SeatOutcome};
use serde_json::Value;

/// Checks one case; returns an error message on disagreement, and whether the rule named matched.
fn check(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let expect_path = path.with_extension("expect.json");
    let expect_text = std::fs::read_to_string(expect_path).unwrap();
    let expect: Value = serde_json::from_str(&expect_text).unwrap();
    let kind = expect["kind"].as_str().unwrap();
    let record = Record::from_json(&text);
    if kind == "bad" {
        return match record {
            Err(_) => Ok(None),
            Ok(r) => match r.replay() {
                Err(ReplayError::Setup(_)) => Ok(None),
                other => Err(format!("expected a bad record, got {other:?}")),
            },
        };
    }
    let record = record.map_err(|e| format!("record rejected: {e}"))?;
    let replay = record.replay();
    match kind {
        "illegal" => {
            let index = expect["index"].as_u64().unwrap() as usize;
            let rule = expect["rule"].as_str().unwrap();
            match replay {
                Err(ReplayError::Command { index: i, error }) if i == index => Ok((error.rule()
                    != rule)
                    .then(|| format!("want {rule}, engine names {}: {error}", error.rule()))),
                other => Err(format!(
                    "expected illegal command {index} ({rule}), got {other:?}"
                )),
            }
        }
        "pending" => match replay {
            Ok(m) if !m.game().is_over() => Ok(None),
            other => Err(format!("expected a pending game, got {other:?}")),
        },
        "outcome" => {
            let m = replay.map_err(|e| format!("replay failed: {e}"))?;
            let outcome = m.game().outcome().ok_or("game not over")?;
            // Read typed, so totals past 64 bits are compared exactly.
            #[derive(serde::Deserialize)]
            struct Expected {
                outcome: Seats,
            }
            #[derive(serde::Deserialize)]
            struct Seats {
                seats: Vec<SeatOutcome>,
            }
            let want: Expected = serde_json::from_str(&expect_text).unwrap();
            for (i, (g, w)) in outcome.seats().iter().zip(&want.outcome.seats).enumerate() {
                if g != w {
                    return Err(format!("seat {i}: got {g:?}, want {w:?}"));
                }
            }
            if outcome.seats().len() != want.outcome.seats.len() {
                return Err("a different number of seats".into());
            }
            Ok(None)
        }
        other => Err(format!("unknown expectation kind {other}")),
    }
}

#[test]
fn every_conformance_case_agrees() {
    let cases = cases();
    assert!(
        cases.len() >= 200,
        "expected the whole suite, found {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    let mut rule_differs = Vec::new();
    for p in &cases {
        match check(p) {
            Ok(None) => {}
            Ok(Some(why)) => rule_differs.push(format!(
                "{}: {why}",
                p.file_name().unwrap().to_string_lossy()
            )),
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    if !rule_differs.is_empty() {
        eprintln!(
            "note: {} illegal cases name a different (also violated) rule:\n  {}",
            rule_differs.len(),
            rule_differs.join("\n  ")
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases disagree:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
