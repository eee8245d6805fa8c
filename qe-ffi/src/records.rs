//! JSON in and out: records (read and replayed, or written), commands in the record format, and
//! the JSON the library hands to C (views, events, outcomes, chance outcomes), with the errors of
//! text that is not JSON at all.

use std::ffi::CString;

use qe_core::{Command, Match, Record, ReplayError, Seat};

use crate::entry::Out;
use crate::games::GameState;
use crate::status::{Error, QE_ERR_INVALID_JSON, QE_ERR_PANIC};

/// Reads one command in the record format (`{"seat":0,"bid":5}`, `RECORD.md`) with qe-core's own
/// record reader, so that the JSON of a command means exactly what it means in a record. `name`:
/// the argument that holds it, as errors call it.
pub(crate) fn command(text: &str, name: &str) -> Result<Command, Error> {
    Command::from_json(text)
        .map_err(|e| reader_error(text, name, qe_core::MAX_COMMAND_BYTES, e.into()))
}

/// Reads a `qe-record/1` record (the argument `json`) and replays it. When command K of the record
/// is illegal, K is written to `failed` (if given).
pub(crate) fn replay(text: &str, failed: Option<&Out<usize>>) -> Result<Match, Error> {
    let record = Record::from_json(text)
        .map_err(|e| reader_error(text, "json", qe_core::MAX_RECORD_BYTES, e.into()))?;
    record.replay().map_err(|e| {
        if let (ReplayError::Command { index, .. }, Some(f)) = (&e, failed) {
            f.set(*index);
        }
        Error::from(e)
    })
}

/// The record of a game so far; `QE_ERR_INVALID_ARGUMENT` before the deal of a game with external
/// chance, which has none yet.
pub(crate) fn record(state: &GameState) -> Result<CString, Error> {
    let record = state
        .m
        .record()
        .ok_or_else(|| Error::invalid("no record before the deal"))?;
    c_string(record.to_json())
}

/// The view of `viewer` as JSON: the view's fields and `bid_history`, then `spend_bounds`.
pub(crate) fn view(state: &GameState, viewer: Option<Seat>) -> Result<CString, Error> {
    /// The view's fields and `bid_history`, then `spend_bounds`, written straight to text
    /// (totals past 64 bits stay exact).
    #[derive(serde::Serialize)]
    struct ViewJson<'a> {
        #[serde(flatten)]
        view: &'a qe_core::MatchView,
        spend_bounds: &'a [qe_core::SpendBounds],
    }
    let view = state.m.view(viewer);
    let bounds = state.deduction(viewer);
    json(&ViewJson {
        view: &view,
        spend_bounds: bounds.seats.in_play(state.m.game().players()),
    })
}

/// `value` as JSON text for C.
pub(crate) fn json(value: &impl serde::Serialize) -> Result<CString, Error> {
    let text = serde_json::to_string(value)
        .map_err(|e| Error::new(QE_ERR_PANIC, format!("internal error: {e}")))?;
    c_string(text)
}

/// `text` for C (freed by `qe_string_free`).
pub(crate) fn c_string(text: String) -> Result<CString, Error> {
    CString::new(text)
        .map_err(|_| Error::new(QE_ERR_PANIC, "internal error: string with a NUL byte"))
}

/// The error of a qe-core reader that rejected `text`: `QE_ERR_INVALID_JSON` when `text` is not
/// one valid JSON value (checked, without building it, only once the reader has failed; inputs
/// past `limit` bytes were rejected for their size alone), else the reader's own error.
fn reader_error(text: &str, what: &str, limit: usize, error: Error) -> Error {
    if text.len() > limit {
        return error;
    }
    match serde_json::from_str::<&serde_json::value::RawValue>(text) {
        Ok(_) => error,
        // Named as the core's readers and the `qe` command name it, not as a syntax error at
        // line 1, column 1.
        Err(e) => match qe_core::byte_order_mark(text, "text") {
            Some(m) => Error::new(
                QE_ERR_INVALID_JSON,
                format!("`{what}` is not valid JSON: {m}"),
            ),
            None => Error::new(
                QE_ERR_INVALID_JSON,
                format!("`{what}` is not valid JSON: {e}"),
            ),
        },
    }
}
