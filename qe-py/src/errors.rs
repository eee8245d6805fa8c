//! The `qe` exceptions: `QeError` (a `ValueError`) and its subclasses `IllegalCommand` and
//! `SetupError`, each carrying the rule ID (`.rule`) and the stable numeric code (`.code`) of
//! `CommandError::code()` / `SetupError::code()`, and qe-core's errors as them.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qe_core::{CommandError, ReplayError, SetupError};

create_exception!(
    _qe,
    QeError,
    PyValueError,
    "Base class of every qe error: a ValueError with `.rule` (rule ID) and `.code` (stable number)."
);

create_exception!(
    _qe,
    IllegalCommand,
    QeError,
    "A command the rules reject (codes 100-199). The game is unchanged."
);

create_exception!(
    _qe,
    SetupError_,
    QeError,
    "Invalid rules, set-up or record (codes 200-299)."
);

/// Builds an exception of class `T` with `.rule`, `.code` and (for replays) `.index`.
fn qe_err<T: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    rule: &str,
    code: u32,
    index: Option<usize>,
) -> PyErr {
    let err = PyErr::new::<T, _>(message);
    let value = err.value(py);
    let _ = value.setattr("rule", rule);
    let _ = value.setattr("code", code);
    let _ = value.setattr("index", index);
    err
}

/// `e` as an `IllegalCommand`.
pub(crate) fn command_error(py: Python<'_>, e: &CommandError) -> PyErr {
    command_error_about(py, e, "")
}

/// [`command_error`] with `about` (what the caller gave, `": chance action 7"`) after the message.
pub(crate) fn command_error_about(py: Python<'_>, e: &CommandError, about: &str) -> PyErr {
    qe_err::<IllegalCommand>(
        py,
        format!("{}: {e}{about}", e.rule()),
        e.rule(),
        e.code(),
        None,
    )
}

/// A bid amount outside 0..=2^64−1 given as the argument `name`: the rule's own error
/// (`IllegalCommand`, R-AUC-4), as for the same bid given as a command dict.
pub(crate) fn bid_out_of_range(py: Python<'_>, shown: String, name: &str) -> PyErr {
    command_error_about(
        py,
        &CommandError::BidOutOfRange { text: shown },
        &format!(" ({name})"),
    )
}

/// `e` as a `SetupError`.
pub(crate) fn setup_error(py: Python<'_>, e: &SetupError) -> PyErr {
    qe_err::<SetupError_>(py, format!("{}: {e}", e.rule()), e.rule(), e.code(), None)
}

/// `e` as the error of a replay: a `SetupError`, or an `IllegalCommand` with `.index`, the index of
/// the command.
pub(crate) fn replay_error(py: Python<'_>, e: &ReplayError) -> PyErr {
    match e {
        ReplayError::Setup(s) => setup_error(py, s),
        ReplayError::Command { index, error } => qe_err::<IllegalCommand>(
            py,
            format!("command {index}: {}: {error}", error.rule()),
            error.rule(),
            error.code(),
            Some(*index),
        ),
    }
}

/// A bid ladder qe-core rejects, as a `SetupError` (rule `ENCODING`, code 299).
pub(crate) fn ladder_error(py: Python<'_>, e: &qe_core::encoding::LadderError) -> PyErr {
    qe_err::<SetupError_>(py, e.to_string(), "ENCODING", 299, None)
}

/// The `ValueError` for a seat `got` (the argument `name`) outside `0..players`: an int outside
/// the signed 64-bit range, a `VectorEnv` seat, or a seat of the Python side's own arguments
/// (`args::seat_arg`). An int seat of a command that the game lacks is an `IllegalCommand`
/// (R-AUC-12).
pub(crate) fn seat_range_error(name: &str, players: u8, got: impl core::fmt::Display) -> PyErr {
    PyValueError::new_err(format!(
        "{name} must be from 0 to {}, got {got}",
        players.saturating_sub(1)
    ))
}
