//! Replays every case of `conformance/` (a copy of the project's shared conformance suite) and checks
//! each expectation: outcome field by field, illegal at the right index, pending, or bad.

use std::path::Path;

#[path = "common/conformance.rs"]
mod conformance;

use conformance::cases;

use qe_core::{Record, ReplayError, SeatOutcome};
use serde_json::Value;

/// Checks one case; returns an error message on disagreement, or for an illegal command that breaks
/// another rule than the case's: the case's rule, the engine's and a description.
fn check(path: &Path) -> Result<Option<(String, &'static str, String)>, String> {
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
                Err(ReplayError::Command { index: i, error }) if i == index => {
                    Ok((error.rule() != rule).then(|| {
                        let why = format!("want {rule}, engine names {}: {error}", error.rule());
                        (rule.to_owned(), error.rule(), why)
                    }))
                }
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

/// The illegal cases whose command breaks two rules, where the engine names the other one:
/// (case, the rule the case was built to break, the rule the engine names). The suite's README
/// allows this; any other difference fails, so a new one is looked at before it is added here.
const OTHER_RULE: &[(&str, &str, &str)] = &[
    // A take or discard in a game without Commodities: it breaks R-COM-5 or R-COM-7 (not the
    // seat's step) and, first, R-COM-1 (the expansion is not in play).
    ("case0000.json", "R-COM-5", "R-COM-1"),
    ("case0016.json", "R-COM-7", "R-COM-1"),
    ("case0135.json", "R-COM-7", "R-COM-1"),
    ("case0137.json", "R-COM-7", "R-COM-1"),
    ("case0145.json", "R-COM-7", "R-COM-1"),
    // A bid while the asset taker must choose a pile: the seat may not act (R-AUC-12), because
    // the step is the taker's (R-COM-5).
    ("case0036.json", "R-AUC-12", "R-COM-5"),
    // A bid past 2^64 - 1 or below 0 from a seat that may not bid: the amount breaks R-AUC-4
    // before the seat is looked at.
    ("case0049.json", "R-AUC-12", "R-AUC-4"),
    ("case0067.json", "R-AUC-12", "R-AUC-4"),
    ("case0081.json", "R-AUC-12", "R-AUC-4"),
    ("case0090.json", "R-AUC-12", "R-AUC-4"),
    ("case0100.json", "R-AUC-12", "R-AUC-4"),
    // The auctioneer opens at 0: below R-AUC-2's opening minimum of 1.
    ("illegal-auctioneer-bids-zero.json", "R-AUC-4", "R-AUC-2"),
    // A seat outside the tie rebids: R-AUC-6 names the seats that rebid.
    ("illegal-untied-seat-rebids.json", "R-AUC-3", "R-AUC-6"),
];

#[test]
fn every_conformance_case_agrees() {
    let cases = cases();
    assert!(
        cases.len() >= 200,
        "expected the whole suite, found {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    let mut allowed = 0;
    for p in &cases {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        match check(p) {
            Ok(None) => {}
            Ok(Some((want, named, why))) => {
                if OTHER_RULE.contains(&(name.as_str(), want.as_str(), named)) {
                    allowed += 1;
                } else {
                    failures.push(format!(
                        "{name}: names a rule other than the case's, and not one listed in \
                         OTHER_RULE: {why}"
                    ));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases disagree:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    // Every listed difference still happens: a fixed one is taken off the list.
    assert_eq!(
        allowed,
        OTHER_RULE.len(),
        "OTHER_RULE lists a case that now names its own rule"
    );
}
