//! Commands in record form (`RECORD.md`) as JSON values, both ways, plus chance outcomes
//! (`{"chance": {"reveal": "US-AGR"}}`) and their stable action ids for OpenSpiel.

use qe_core::{ChanceOutcome, Command, CommandError};
use serde_json::Value;

/// A command from its record form, read by qe-core's one command reader
/// ([`Command::from_json`]).
pub fn from_json(v: &Value) -> Result<Command, CommandError> {
    Command::from_json(&v.to_string())
}

/// The record form of a command in a game of `players` seats ([`Command::to_json_for`]).
pub fn to_json(c: &Command, players: u8) -> Value {
    serde_json::from_str(&c.to_json_for(players)).expect("a command's JSON is valid")
}

/// The stable id of the `index`-th pending chance outcome: the permutation index for a deal, the
/// tile index for a reveal, the token number − 1 for a draw.
pub fn chance_id(index: usize, o: ChanceOutcome) -> usize {
    match o {
        ChanceOutcome::Deal(_) => index,
        ChanceOutcome::Reveal(t) => t.index(),
        ChanceOutcome::Draw(t) => t.number() as usize - 1,
        // Outcomes a later qe-core may add: their position.
        _ => index,
    }
}
