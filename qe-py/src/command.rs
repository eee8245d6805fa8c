//! Commands in record form (`RECORD.md`) as JSON values, both ways, plus chance outcomes
//! (`{"chance": {"reveal": "US-AGR"}}`) and their stable action ids for OpenSpiel.

use qe_core::{AssetKind, ChanceOutcome, Command, CommandError, Industry, Seat, MAX_SEATS};
use serde_json::{json, Value};

fn malformed(reason: impl Into<String>) -> CommandError {
    CommandError::Malformed {
        reason: reason.into(),
        rule: "R-AUC-12",
    }
}

/// A pile by name (`gold`, `oil`, `crypto`).
pub fn pile(name: &str) -> Result<AssetKind, CommandError> {
    name.parse()
        .map_err(|_| malformed(format!("unknown pile {name:?}")))
}

/// A command from its record form.
pub fn from_json(v: &Value) -> Result<Command, CommandError> {
    let obj = v
        .as_object()
        .ok_or_else(|| malformed("a command is a dict"))?;
    if let Some(c) = obj.get("chance") {
        return chance_from_json(c).map(Command::Chance);
    }
    let seat = obj
        .get("seat")
        .and_then(Value::as_u64)
        .ok_or_else(|| malformed("a command names its seat (a whole number)"))?;
    let seat = Seat(u8::try_from(seat).unwrap_or(u8::MAX));
    let actions: Vec<(&String, &Value)> = obj.iter().filter(|(k, _)| *k != "seat").collect();
    let [(name, value)] = actions.as_slice() else {
        return Err(malformed("a command has exactly one action"));
    };
    match name.as_str() {
        "bid" => {
            let amount = value.as_u64().ok_or_else(|| CommandError::BidOutOfRange {
                text: value.to_string(),
            })?;
            Ok(Command::Bid { seat, amount })
        }
        "take_asset" | "discard_asset" => {
            let kind = pile(
                value
                    .as_str()
                    .ok_or_else(|| malformed("a pile is a name"))?,
            )?;
            Ok(if name.as_str() == "take_asset" {
                Command::TakeAsset { seat, kind }
            } else {
                Command::DiscardAsset { seat, kind }
            })
        }
        "peek" => {
            let turn = value
                .as_u64()
                .ok_or_else(|| malformed("a peek names a turn"))?;
            Ok(Command::Peek {
                seat,
                turn: u8::try_from(turn).unwrap_or(u8::MAX),
            })
        }
        other => Err(malformed(format!("unknown action {other:?}"))),
    }
}

fn chance_from_json(v: &Value) -> Result<ChanceOutcome, CommandError> {
    let obj = v
        .as_object()
        .ok_or_else(|| malformed("a chance outcome is a dict"))?;
    let bad = |what: &str| malformed(format!("bad chance outcome: {what}"));
    if let Some(d) = obj.get("deal") {
        let list = d.as_array().ok_or_else(|| bad("deal"))?;
        let mut deal = [Industry::AGR; MAX_SEATS];
        if list.len() > MAX_SEATS {
            return Err(bad("deal"));
        }
        for (i, x) in list.iter().enumerate() {
            deal[i] = x
                .as_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad("deal"))?;
        }
        return Ok(ChanceOutcome::Deal(deal));
    }
    if let Some(t) = obj.get("reveal") {
        let tile = t
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("reveal"))?;
        return Ok(ChanceOutcome::Reveal(tile));
    }
    if let Some(t) = obj.get("draw") {
        let token = t
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("draw"))?;
        return Ok(ChanceOutcome::Draw(token));
    }
    Err(bad("expected deal, reveal or draw"))
}

/// The record form of a command.
pub fn to_json(c: &Command) -> Value {
    match *c {
        Command::Bid { seat, amount } => json!({"seat": seat.0, "bid": amount}),
        Command::TakeAsset { seat, kind } => json!({"seat": seat.0, "take_asset": kind.name()}),
        Command::DiscardAsset { seat, kind } => {
            json!({"seat": seat.0, "discard_asset": kind.name()})
        }
        Command::Peek { seat, turn } => json!({"seat": seat.0, "peek": turn}),
        Command::Chance(o) => {
            let inner = match o {
                ChanceOutcome::Deal(d) => {
                    json!({"deal": d.iter().map(|i| i.name()).collect::<Vec<_>>()})
                }
                ChanceOutcome::Reveal(t) => json!({"reveal": t.to_string()}),
                ChanceOutcome::Draw(t) => json!({"draw": t.to_string()}),
            };
            json!({ "chance": inner })
        }
    }
}

/// The stable id of the `index`-th pending chance outcome: the permutation index for a deal, the
/// tile index for a reveal, the token number − 1 for a draw.
pub fn chance_id(index: usize, o: ChanceOutcome) -> usize {
    match o {
        ChanceOutcome::Deal(_) => index,
        ChanceOutcome::Reveal(t) => t.index(),
        ChanceOutcome::Draw(t) => t.number() as usize - 1,
    }
}
