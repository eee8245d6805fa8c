//! Records and commands as JSON text: a record or command given as text, bytes or a dict becomes
//! the text qe-core's readers take (checked for size before it is written), and a record replays
//! to its outcome.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use qe_core::{Command, CommandError, Match, Record, SetupError};

use crate::errors::{command_error, replay_error, setup_error};
use crate::{args, views};

/// A record (JSON text or a dict) as JSON text: [`json_text`] with the record's size limit.
#[pyfunction]
pub(crate) fn record_text(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<String> {
    json_text(py, record, "record", qe_core::MAX_RECORD_BYTES, |got| {
        setup_error(
            py,
            &SetupError::Record(format!(
                "a record is at most {} bytes, this one would be more: {got}",
                qe_core::MAX_RECORD_BYTES
            )),
        )
    })
}

/// A command in record form (JSON text or a dict, `{"seat": 0, "bid": 10}`) read by qe-core's
/// command reader: [`json_text`] with the command's size limit, whose error is the reader's own
/// (`IllegalCommand`, R-AUC-12).
pub(crate) fn command_of(py: Python<'_>, command: &Bound<'_, PyAny>) -> PyResult<Command> {
    let text = json_text(py, command, "command", qe_core::MAX_COMMAND_BYTES, |got| {
        command_error(
            py,
            &CommandError::Malformed {
                reason: format!(
                    "a command is at most {} bytes of JSON, this one would be more: {got}",
                    qe_core::MAX_COMMAND_BYTES
                ),
                rule: "R-AUC-12",
            },
        )
    })?;
    Command::from_json(&text).map_err(|e| command_error(py, &e))
}

/// `value` as JSON text for qe-core's readers (records, commands): a `str` as given (so a key
/// given twice is caught there, and the reader checks its size), `bytes` and `bytearray` read as
/// UTF-8 text (else a `ValueError` quoting them), anything else written by
/// `json.dumps`, numpy integers as the ints they are. A value JSON cannot hold (an object, NaN,
/// nesting too deep) is a `TypeError` or `ValueError` naming `what` and quoting the value; the
/// caller's own errors come through. A value that would be more than `limit` bytes of JSON is
/// found before it is written ([`json_within`]), so a list holding the same list many times over
/// costs no more than `limit` steps: it is the error `oversized` makes of its description, the one
/// the reader gives text past the limit.
pub(crate) fn json_text(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    limit: usize,
    oversized: impl FnOnce(String) -> PyErr,
) -> PyResult<String> {
    let no_utf8 = || {
        PyValueError::new_err(format!(
            "{what} holds text UTF-8 cannot hold (a lone surrogate), got {} {}",
            args::type_name(value),
            args::quote(value)
        ))
    };
    if let Ok(text) = value.cast::<PyString>() {
        return text.to_str().map(str::to_owned).map_err(|_| no_utf8());
    }
    // `bytes` and `bytearray` are UTF-8 text, as a file read in binary mode holds it.
    let bytes = if let Ok(b) = value.cast::<pyo3::types::PyBytes>() {
        Some(b.as_bytes().to_vec())
    } else if let Ok(b) = value.cast::<pyo3::types::PyByteArray>() {
        Some(b.to_vec())
    } else {
        None
    };
    if let Some(bytes) = bytes {
        return String::from_utf8(bytes).map_err(|e| {
            PyValueError::new_err(format!(
                "{what} is {} that is not UTF-8 text ({e}), got {}",
                args::type_name(value),
                args::quote(value)
            ))
        });
    }
    if !json_within(value, limit)? {
        // The error the reader gives text past the limit (a malformed command, a bad record).
        return Err(oversized(format!(
            "{} {}",
            args::type_name(value),
            args::quote(value)
        )));
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("default", py.import("operator")?.getattr("index")?)?;
    kwargs.set_item("allow_nan", false)?;
    // Text as given (UTF-8, as a `str` command would be), not `\u` escapes.
    kwargs.set_item("ensure_ascii", false)?;
    let written = py
        .import("json")?
        .getattr("dumps")?
        .call((value,), Some(&kwargs))
        .map_err(|e| {
            let message = format!(
                "{what} must be JSON text or a dict of JSON values, got {} {}: {}",
                args::type_name(value),
                args::quote(value),
                qe_core::shown(&e.value(py).to_string())
            );
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
                pyo3::exceptions::PyTypeError::new_err(message)
            } else if e.is_instance_of::<PyValueError>(py)
                || e.is_instance_of::<pyo3::exceptions::PyRecursionError>(py)
            {
                PyValueError::new_err(message)
            } else {
                e
            }
        })?;
    written
        .cast::<PyString>()
        .ok()
        .and_then(|t| t.to_str().ok().map(str::to_owned))
        .ok_or_else(no_utf8)
}

/// Whether `value` could be at most `limit` bytes of JSON: every value inside it, counted once
/// wherever it is held (a dict's keys too), is at least one byte, and a string at least its
/// length. A container's entries are charged when they are put on the walk's stack, so the walk
/// holds and visits at most `limit` values: a value held many times (or inside itself) ends it
/// rather than making it long or large.
fn json_within(value: &Bound<'_, PyAny>, limit: usize) -> PyResult<bool> {
    let Some(mut budget) = limit.checked_sub(1) else {
        return Ok(false);
    };
    let mut stack = vec![value.clone()];
    while let Some(v) = stack.pop() {
        // What `v` costs beyond the one byte it was charged when it was put on the stack.
        let more = if let Ok(text) = v.cast::<PyString>() {
            text.len()?.saturating_sub(1)
        } else if let Ok(d) = v.cast::<PyDict>() {
            let n = d.len().saturating_mul(2);
            if n > budget {
                return Ok(false);
            }
            for (k, x) in d.iter() {
                stack.push(k);
                stack.push(x);
            }
            n
        } else if let Ok(l) = v.cast::<PyList>() {
            if l.len() > budget {
                return Ok(false);
            }
            stack.extend(l.iter());
            l.len()
        } else if let Ok(t) = v.cast::<PyTuple>() {
            if t.len() > budget {
                return Ok(false);
            }
            stack.extend(t.iter());
            t.len()
        } else {
            0
        };
        match budget.checked_sub(more) {
            Some(left) => budget = left,
            None => return Ok(false),
        }
    }
    Ok(true)
}

/// The match of a `qe-record/1` JSON text, replayed: a `SetupError` for a bad record, an
/// `IllegalCommand` (with `.index`) for an illegal command.
pub(crate) fn replay(py: Python<'_>, record: &str) -> PyResult<Match> {
    let rec = Record::from_json(record).map_err(|e| setup_error(py, &e))?;
    rec.replay().map_err(|e| replay_error(py, &e))
}

/// Replays a `qe-record/1` JSON text: the outcome (a `qe.Outcome`), `None` if the game is not
/// over; raises `SetupError` or `IllegalCommand` (with `.index`).
#[pyfunction]
pub(crate) fn replay_json(
    py: Python<'_>,
    #[pyo3(from_py_with = args::text)] record: String,
) -> PyResult<Option<Bound<'_, PyAny>>> {
    let m = replay(py, &record)?;
    m.game()
        .outcome()
        .map(|o| views::outcome(py, &o))
        .transpose()
}
