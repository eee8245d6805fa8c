//! `qe._qe`: the PyO3 extension module behind the `qe` Python package.
//!
//! Thin over `qe-core`: [`Game`](PyGame) wraps a [`Match`] (a game with its history), the observation
//! and action masks come from [`qe_core::encoding`], and `VectorEnv` steps many games in one call
//! with the GIL released. The Python facade `qe.Game` (`python/qe/__init__.py`) subclasses this
//! `Game`, so an RL loop's calls (`is_over`, `to_act`, `legal_actions`, `step`...) reach these
//! methods directly; it adds the typed forms (views, events, outcomes) of the `_`-prefixed
//! methods here, which return Python objects built straight from their serde form (`pyser`),
//! never JSON text. `Bot` is a bot of `qe_core::bots` by name. Errors are `qe.QeError(ValueError)`
//! subclasses carrying the rule ID and the stable numeric code of `CommandError::code()` /
//! `SetupError::code()`; integer arguments are read through the `args` module, whose errors name
//! the argument and quote the value given.
// PyO3's generated code and signatures trip a few pedantic lints; allowed for this crate only.
#![allow(
    clippy::needless_pass_by_value,
    clippy::unused_self,
    clippy::large_types_passed_by_value,
    clippy::type_complexity,
    clippy::unnecessary_wraps
)]
// Rewards and scores are f32 by design; short names follow the game's vocabulary (g, p, a, s).
#![allow(clippy::cast_precision_loss, clippy::many_single_char_names)]

mod args;
mod bots;
mod buf;
mod command;
mod observer;
mod pyser;
mod vector;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};
use qe_core::encoding::{
    observe_bounds, write_history, ActionSpace, BidLadder, BLOCKS, BOUNDS_SIZE, HISTORY_SIZE,
    INFO_STATE_SIZE, OBS_SIZE,
};
use qe_core::reward::Reward;
use qe_core::{
    Command, CommandError, Expansion, Expansions, Game, Match, Record, ReplayError, Rules, Seat,
    SetupError, MAX_SEATS,
};

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

pub(crate) fn command_error(py: Python<'_>, e: &CommandError) -> PyErr {
    command_error_about(py, e, "")
}

/// [`command_error`] with `about` (what the caller gave, `": chance action 7"`) after the message.
fn command_error_about(py: Python<'_>, e: &CommandError, about: &str) -> PyErr {
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
fn bid_out_of_range(py: Python<'_>, shown: String, name: &str) -> PyErr {
    command_error_about(
        py,
        &CommandError::BidOutOfRange { text: shown },
        &format!(" ({name})"),
    )
}

pub(crate) fn setup_error(py: Python<'_>, e: &SetupError) -> PyErr {
    qe_err::<SetupError_>(py, format!("{}: {e}", e.rule()), e.rule(), e.code(), None)
}

fn replay_error(py: Python<'_>, e: &ReplayError) -> PyErr {
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

/// The player count `players` as the rules take it: a count past 255 is the same `SetupError`
/// (R-SET-1) as any other count that is not 3 to 5.
pub(crate) fn players_of(py: Python<'_>, players: i128) -> PyResult<u8> {
    u8::try_from(players).map_err(|_| setup_error(py, &SetupError::Players { players }))
}

/// The rules of a new game: `expansions` by name (the names records use), `commodities=True` as a
/// shorthand for `"commodities"` in the set.
pub(crate) fn rules(
    py: Python<'_>,
    players: u8,
    commodities: bool,
    expansions: Option<Vec<String>>,
) -> PyResult<Rules> {
    let named = expansions.unwrap_or_default();
    let set = Expansions::from_names(named.iter().map(String::as_str))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let set = set.set(
        Expansion::Commodities,
        commodities || set.contains(Expansion::Commodities),
    );
    Rules::with_expansions(players, set).map_err(|e| setup_error(py, &e))
}

/// Python objects (dicts, lists, ints, strings, `None`) built straight from `value`'s serde form,
/// the same shapes as its JSON form, without JSON text in between.
pub(crate) fn to_py<'py, T: serde::Serialize>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    pyser::to_python(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The Python list `[lo, ..., hi - 1]` without `skip` (ints below 256): a slice of a list of the
/// ints 0..=255 made once and never handed out, so the items are copied by the interpreter's own
/// slice rather than set one call at a time (`int_range_list` in PERF.md).
pub(crate) fn int_range_list(
    py: Python<'_>,
    lo: usize,
    hi: usize,
    skip: Option<usize>,
) -> PyResult<Bound<'_, PyList>> {
    use pyo3::ffi;
    use pyo3::sync::PyOnceLock;
    static ALL: PyOnceLock<Py<PyList>> = PyOnceLock::new();
    let all = ALL.get_or_init(py, || {
        let ints: Vec<u8> = (0..=255u8).collect();
        int_list(py, &ints).expect("256 small ints").unbind()
    });
    let (lo, hi) = (lo.min(256), hi.min(256));
    // SAFETY: `PyList_GetSlice` returns a new list (or NULL with an error set); the list `ALL` is
    // private to this function and never changed; under the GIL.
    let list = unsafe {
        let list = ffi::PyList_GetSlice(
            all.as_ptr(),
            lo as ffi::Py_ssize_t,
            hi.max(lo) as ffi::Py_ssize_t,
        );
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        Bound::from_owned_ptr(py, list).cast_into_unchecked::<PyList>()
    };
    if let Some(k) = skip.filter(|k| (lo..hi).contains(k)) {
        list.del_item(k - lo)?;
    }
    Ok(list)
}

/// A Python list of small non-negative ints (seats, actions), built directly.
pub(crate) fn int_list<'py>(py: Python<'py>, items: &[u8]) -> PyResult<Bound<'py, PyList>> {
    use pyo3::ffi;
    use pyo3::sync::PyOnceLock;
    // The ints 0..=255, made once and kept: a list item is then a reference count, not a call.
    static INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();
    let ints = INTS.get_or_init(py, || {
        (0..=255u8)
            .map(|v| {
                v.into_pyobject(py)
                    .expect("a small int")
                    .into_any()
                    .unbind()
            })
            .collect()
    });
    // SAFETY: a new list of `items.len()` slots, each set exactly once before the list is handed
    // out (PyList_SetItem steals the reference taken for it); under the GIL.
    unsafe {
        let list = ffi::PyList_New(items.len() as ffi::Py_ssize_t);
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        for (i, &v) in items.iter().enumerate() {
            let item = ints[usize::from(v)].as_ptr();
            ffi::Py_INCREF(item);
            ffi::PyList_SetItem(list, i as ffi::Py_ssize_t, item);
        }
        Ok(Bound::from_owned_ptr(py, list).cast_into_unchecked())
    }
}

/// The most actions of any action space: every rung, the 3 piles and the 16 peeks.
pub(crate) const MAX_ACTIONS: usize =
    qe_core::encoding::MAX_RUNGS + 3 + qe_core::encoding::MAX_TURNS;

/// A random seed when the caller gives none.
pub(crate) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    h.finish()
}

/// The seat `seat` (a Python int) of `game`: `IllegalCommand` (R-AUC-12) naming it if the game has
/// no such seat, a `TypeError` naming it if it is not an int.
pub(crate) fn seat_of(py: Python<'_>, game: &Game, seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
    let seat = args::int_or::<i64>(seat, "seat", |quoted| {
        seat_range_error("seat", game.players(), quoted)
    })?;
    match u8::try_from(seat) {
        Ok(s) if s < game.players() => Ok(Seat(s)),
        _ => Err(command_error(py, &CommandError::SeatOutOfRange { seat })),
    }
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

// ------------------------------------------------------------------------------------------------

/// A bid ladder: the amount of each bid action (`qe_core::encoding::BidLadder`).
#[pyclass(
    module = "qe._qe",
    name = "BidLadder",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyBidLadder(pub BidLadder);

#[pymethods]
impl PyBidLadder {
    /// `BidLadder(amounts)`: a ladder of these bid amounts (an iterable of ints): 2 to 64 of
    /// them, strictly increasing; a `SetupError` says what is wrong otherwise.
    #[new]
    fn new(py: Python<'_>, amounts: &Bound<'_, PyAny>) -> PyResult<Self> {
        use qe_core::encoding::{LadderError, MAX_RUNGS};
        let read = args::int_list::<u64>(amounts, "amounts", MAX_RUNGS + 1)?;
        if read.len() > MAX_RUNGS {
            // Too many: the count the caller gave where it has one (an iterator says only "65").
            let n = amounts.len().unwrap_or(read.len());
            return Err(ladder_error(py, &LadderError::Rungs(n)));
        }
        BidLadder::new(&read)
            .map(PyBidLadder)
            .map_err(|e| ladder_error(py, &e))
    }

    /// `rungs` amounts `0, step, 2*step, ...`.
    #[staticmethod]
    fn linear(py: Python<'_>, step: &Bound<'_, PyAny>, rungs: &Bound<'_, PyAny>) -> PyResult<Self> {
        let step = args::int::<u64>(step, "step")?;
        let rungs = args::int::<usize>(rungs, "rungs")?;
        BidLadder::linear(step, rungs)
            .map(PyBidLadder)
            .map_err(|e| ladder_error(py, &e))
    }

    /// `0`, `first`, then roughly times `ratio` per rung (each at least one more than the last).
    #[staticmethod]
    fn geometric(
        py: Python<'_>,
        first: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::ratio)] ratio: f64,
        rungs: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let first = args::int::<u64>(first, "first")?;
        let rungs = args::int::<usize>(rungs, "rungs")?;
        BidLadder::geometric(first, ratio, rungs)
            .map(PyBidLadder)
            .map_err(|e| ladder_error(py, &e))
    }

    /// The default ladder `0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22`.
    #[staticmethod]
    fn default() -> Self {
        PyBidLadder(BidLadder::default())
    }

    /// The amounts of the rungs, in order (a new list).
    #[getter]
    fn amounts(&self) -> Vec<u64> {
        self.0.amounts().to_vec()
    }

    /// The amount of rung `index`; an `IndexError` outside `0..len(ladder)`.
    fn amount(&self, index: &Bound<'_, PyAny>) -> PyResult<u64> {
        let out_of_range = |got: &dyn core::fmt::Display| {
            PyIndexError::new_err(format!("rung {got} out of range 0..{}", self.0.len()))
        };
        let index = args::int_or::<i128>(index, "index", |q| out_of_range(&q))?;
        let rung = usize::try_from(index).ok();
        rung.and_then(|i| self.0.amount(i))
            .ok_or_else(|| out_of_range(&index))
    }

    /// The rung of `amount`, `None` when no rung bids exactly that.
    fn index_of(&self, amount: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        Ok(self.0.index_of(args::int::<u64>(amount, "amount")?))
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __repr__(&self) -> String {
        format!("BidLadder({:?})", self.0.amounts())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (Vec<u64>,))> {
        Ok((slf.get_type(), (slf.get().0.amounts().to_vec(),)))
    }
}

fn ladder_error(py: Python<'_>, e: &qe_core::encoding::LadderError) -> PyErr {
    qe_err::<SetupError_>(py, e.to_string(), "ENCODING", 299, None)
}

/// A `ladder` argument given by `#[pyo3(from_py_with = ladder_arg)]`: a `BidLadder`, or `None`
/// for the default; anything else is a `TypeError` quoting it.
pub(crate) fn ladder_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<PyBidLadder>> {
    if value.is_none() {
        return Ok(None);
    }
    value.extract::<PyBidLadder>().map(Some).map_err(|_| {
        PyTypeError::new_err(format!(
            "must be a qe.BidLadder or None, got {} {}",
            args::type_name(value),
            args::quote(value)
        ))
    })
}

/// The range of bids a seat may make now (a `qe_core::BidRange`).
#[pyclass(module = "qe._qe", name = "BidRange", frozen, eq, skip_from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyBidRange(qe_core::BidRange);

#[pymethods]
impl PyBidRange {
    /// The smallest bid (1 for the opening bid, else 0).
    #[getter]
    fn min(&self) -> u64 {
        self.0.min
    }
    /// The largest bid (2**64 - 1).
    #[getter]
    fn max(&self) -> u64 {
        self.0.max
    }
    /// The one amount in the range that is not allowed (the auctioneer's bid), if any.
    #[getter]
    fn forbidden(&self) -> Option<u64> {
        self.0.forbidden
    }
    /// Whether `amount` is a legal bid (`qe_core::BidRange::allows`).
    fn allows(&self, amount: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.allows(args::int::<u64>(amount, "amount")?))
    }
    /// Pickled (and copied) as its three numbers, read back by `qe._qe._bid_range`, which
    /// checks them.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (u64, u64, Option<u64>))> {
        let make = py.import("qe._qe")?.getattr("_bid_range")?;
        Ok((make, (self.0.min, self.0.max, self.0.forbidden)))
    }
    fn __repr__(&self) -> String {
        let r = self.0;
        format!(
            "BidRange(min={}, max={}, forbidden={})",
            r.min,
            r.max,
            r.forbidden
                .map_or_else(|| "None".to_string(), |f| f.to_string())
        )
    }
}

/// A `BidRange` from its numbers, as its pickle holds them: a range a game can give (`min` 0 or
/// 1, `max` 2**64 - 1, `forbidden` inside the range), else a `ValueError` naming the number.
#[pyfunction]
#[pyo3(name = "_bid_range")]
pub(crate) fn bid_range(
    min: &Bound<'_, PyAny>,
    max: &Bound<'_, PyAny>,
    forbidden: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyBidRange> {
    let min = args::int::<u64>(min, "min")?;
    let max = args::int::<u64>(max, "max")?;
    let forbidden = args::opt_int::<u64>(forbidden, "forbidden")?;
    if min > 1 {
        return Err(PyValueError::new_err(format!(
            "BidRange min must be 0 or 1, got {min}"
        )));
    }
    if max != u64::MAX {
        return Err(PyValueError::new_err(format!(
            "BidRange max must be {}, got {max}",
            u64::MAX
        )));
    }
    if let Some(f) = forbidden.filter(|&f| f < min) {
        return Err(PyValueError::new_err(format!(
            "BidRange forbidden must be from min ({min}) up, got {f}"
        )));
    }
    Ok(PyBidRange(qe_core::BidRange {
        min,
        max,
        forbidden,
    }))
}

// ------------------------------------------------------------------------------------------------

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

/// One game of QE with its history (a `qe_core::Match`).
#[pyclass(module = "qe._qe", name = "Game", subclass, skip_from_py_object)]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) m: Match,
    pub(crate) space: ActionSpace,
    /// Writes the observations (the same floats as `observe_seat`, faster as the game goes on).
    observer: observer::LazyObserver,
}

impl PyGame {
    pub(crate) fn game(&self) -> &Game {
        self.m.game()
    }

    fn apply_cmd(&mut self, py: Python<'_>, c: Command) -> PyResult<qe_core::Events> {
        self.m.apply(c).map_err(|e| command_error(py, &e))
    }

    /// [`PyGame::apply_cmd`] when the caller does not want the events back (cheaper).
    fn play_cmd(&mut self, py: Python<'_>, c: Command) -> PyResult<()> {
        self.m.play(c).map_err(|e| command_error(py, &e))
    }

    fn state_json(&self) -> String {
        let g = self.game();
        let ladder: Vec<serde_json::Value> = self
            .space
            .ladder()
            .amounts()
            .iter()
            .map(|&a| a.into())
            .collect();
        let mut state = serde_json::json!({
            "v": 1,
            "players": g.players(),
            "commodities": g.rules().has_commodities(),
            "expansions": g.rules().expansions().names().collect::<Vec<_>>(),
            "external": g.is_external_chance(),
            "peeks": self.space.has_peeks(),
            "ladder": ladder,
        });
        if g.is_external_chance() {
            state["commands"] = self
                .m
                .commands()
                .iter()
                .map(|c| command::to_json(c, g.players()))
                .collect::<Vec<_>>()
                .into();
            state["nations"] = (0..g.players())
                .map(|s| serde_json::Value::from(g.nation(Seat(s)).name()))
                .collect::<Vec<_>>()
                .into();
        } else {
            state["record"] = self.m.record().map(|r| r.to_json()).into();
        }
        state.to_string()
    }

    fn from_state(py: Python<'_>, text: &str) -> PyResult<PyGame> {
        let bad = |m: &str| PyValueError::new_err(format!("bad pickled qe.Game state: {m}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        // Every field is checked, none coerced: a tampered state is an error naming the field.
        let field = |k: &str| v.get(k).ok_or_else(|| bad(&format!("missing `{k}`")));
        let flag = |k: &str| {
            let x = field(k)?;
            x.as_bool()
                .ok_or_else(|| bad(&format!("`{k}` must be true or false, got {x}")))
        };
        if field("v")?.as_u64() != Some(1) {
            return Err(bad(&format!("unknown version {}", field("v")?)));
        }
        let ladder_v = field("ladder")?;
        let ladder = ladder_v
            .as_array()
            .ok_or_else(|| bad(&format!("`ladder` must be a list, got {ladder_v}")))?
            .iter()
            .map(|a| {
                a.as_u64()
                    .ok_or_else(|| bad(&format!("`ladder` entries must be whole numbers, got {a}")))
            })
            .collect::<PyResult<Vec<u64>>>()?;
        let ladder = BidLadder::new(&ladder).map_err(|e| ladder_error(py, &e))?;
        let space = ActionSpace::new(ladder, flag("peeks")?);
        let m = if flag("external")? {
            let players_v = field("players")?;
            let players = players_v
                .as_u64()
                .and_then(|p| u8::try_from(p).ok())
                .ok_or_else(|| bad(&format!("`players` must be 3, 4 or 5, got {players_v}")))?;
            // States written before `expansions` existed have only `commodities`.
            let expansions = match v.get("expansions") {
                None => None,
                Some(list) => Some(
                    list.as_array()
                        .ok_or_else(|| bad(&format!("`expansions` must be a list, got {list}")))?
                        .iter()
                        .map(|n| {
                            n.as_str().map(str::to_owned).ok_or_else(|| {
                                bad(&format!("`expansions` entries are names, got {n}"))
                            })
                        })
                        .collect::<PyResult<Vec<String>>>()?,
                ),
            };
            let commodities = flag("commodities")?;
            // The two ways of naming Commodities must agree (the state writes both).
            let listed = expansions.as_ref().map(|names| {
                names
                    .iter()
                    .any(|n| n == qe_core::Expansion::Commodities.name())
            });
            if listed.is_some_and(|listed| listed != commodities) {
                return Err(bad(&format!(
                    "`commodities` is {commodities}, but `expansions` is {}",
                    field("expansions")?
                )));
            }
            let r = rules(py, players, commodities, expansions)?;
            let nations_v = field("nations")?;
            let nations: Vec<qe_core::Nation> = nations_v
                .as_array()
                .ok_or_else(|| bad(&format!("`nations` must be a list, got {nations_v}")))?
                .iter()
                .map(|n| {
                    n.as_str()
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| bad(&format!("unknown nation {n}")))
                })
                .collect::<PyResult<_>>()?;
            let game = Game::external_chance(r, Some(&nations)).map_err(|e| setup_error(py, &e))?;
            let mut m = Match::new(game);
            for c in field("commands")?
                .as_array()
                .ok_or_else(|| bad("`commands` must be a list"))?
            {
                let c = command::from_json(c).map_err(|e| command_error(py, &e))?;
                m.apply(c).map_err(|e| command_error(py, &e))?;
            }
            m
        } else {
            let text = field("record")?
                .as_str()
                .ok_or_else(|| bad("`record` must be a string"))?;
            let rec = Record::from_json(text).map_err(|e| setup_error(py, &e))?;
            let m = rec.replay().map_err(|e| replay_error(py, &e))?;
            // The record decides the game; what the state says of it must agree.
            let rules = m.game().rules();
            let expansions: Vec<&str> = rules.expansions().names().collect();
            for (k, said) in [
                ("players", serde_json::Value::from(rules.players())),
                ("commodities", rules.has_commodities().into()),
                ("expansions", expansions.into()),
            ] {
                match v.get(k) {
                    Some(x) if *x != said => {
                        return Err(bad(&format!(
                            "`{k}` is {x}, but the record's game has {said}"
                        )))
                    }
                    _ => {}
                }
            }
            m
        };
        // The fields `state_json` writes: the common ones, then those of its kind of game.
        let own: &[&str] = if m.game().is_external_chance() {
            &["commands", "nations"]
        } else {
            &["record"]
        };
        let common = [
            "v",
            "players",
            "commodities",
            "expansions",
            "external",
            "peeks",
            "ladder",
        ];
        let known = |k: &str| common.contains(&k) || own.contains(&k);
        if let Some(k) = v.as_object().and_then(|o| o.keys().find(|k| !known(k))) {
            return Err(bad(&format!("unknown field `{}`", qe_core::shown(k))));
        }
        Ok(PyGame {
            m,
            space,
            observer: observer::LazyObserver::default(),
        })
    }

    /// The error for `action` of `seat`, outside the action space.
    fn out_of_range(&self, action: impl core::fmt::Display, seat: Seat) -> PyErr {
        PyValueError::new_err(format!(
            "action {action} out of range 0..{} (seat {})",
            self.space.size(),
            seat.0
        ))
    }

    /// The commands of one action per acting seat (`actions[seat]`), checked all together: an
    /// error (bad entry, action out of range, or the first rule an action breaks) changes nothing.
    fn step_commands(
        &self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
    ) -> PyResult<[Option<Command>; MAX_SEATS]> {
        let g = self.game();
        if let Some(e) = g.idle_error() {
            return Err(command_error(py, &e));
        }
        let acting = g.to_act();
        let seats = usize::from(g.players());
        let ints = buf::seat_ints(actions, seats, acting, |q, s| {
            self.out_of_range(q, Seat(s as u8))
        })?;
        let mut commands = [None; MAX_SEATS];
        let mut ok = true;
        for s in acting.iter() {
            let a = ints[s.index()].ok_or_else(|| {
                PyValueError::new_err(format!(
                    "actions has no entry for seat {}, which must act (one entry per seat)",
                    s.0
                ))
            })?;
            let legal = self.legal_of(s);
            let out_of_range = || self.out_of_range(a, s);
            let a = usize::try_from(a).map_err(|_| out_of_range())?;
            let c = self.space.decode(s, &legal, a).ok_or_else(out_of_range)?;
            ok &= self.space.is_legal(&legal, a);
            commands[s.index()] = Some(c);
        }
        if !ok {
            let mut copy = *g;
            for c in commands.iter().flatten() {
                copy.play(*c).map_err(|e| command_error(py, &e))?;
            }
        }
        Ok(commands)
    }

    /// Plays `seat`'s take (or, with `discard`, discard) from the pile named `pile`.
    fn play_pile(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        pile: &str,
        discard: bool,
    ) -> PyResult<()> {
        let seat = seat_of(py, self.game(), seat)?;
        let c = Command::from_pile_name(seat, pile, discard).map_err(|e| command_error(py, &e))?;
        self.play_cmd(py, c)?;
        Ok(())
    }

    /// What `seat` may do now, as far as this game's action space can express it: in a bidding
    /// phase without peek actions only the bid range counts (the rest of [`Game::legal`], the
    /// peeks, is not computed).
    fn legal_of(&self, seat: Seat) -> qe_core::Legal {
        let g = self.game();
        if !self.space.has_peeks() && is_bidding(g) {
            qe_core::Legal::bid_only(g.bid_range(seat))
        } else {
            g.legal(seat)
        }
    }

    /// Applies commands checked by [`PyGame::step_commands`].
    fn apply_all(
        &mut self,
        py: Python<'_>,
        commands: [Option<Command>; MAX_SEATS],
    ) -> PyResult<()> {
        for c in commands.into_iter().flatten() {
            self.play_cmd(py, c)?;
        }
        Ok(())
    }

    /// Writes the observation and mask rows of every seat (`acting_only`: of the seats that must
    /// act; the others get a zero mask row, and a zero observation row when `zero_others`) into
    /// `obs` / `mask`, validated by [`PyGame::out_buffers`].
    fn write_rows(
        &mut self,
        obs: &mut [f32],
        mask: &mut [i8],
        acting_only: bool,
        zero_others: bool,
    ) {
        let m = &self.m;
        let g = m.game();
        let observer = &mut self.observer;
        let a = self.space.size();
        let acting = g.to_act();
        let rows = obs.chunks_exact_mut(OBS_SIZE).zip(mask.chunks_exact_mut(a));
        for (s, (o, k)) in rows.enumerate() {
            let seat = Seat(s as u8);
            if acting_only && !acting.contains(seat) {
                if zero_others {
                    buf::zero_row(o);
                }
                k.fill(0);
                continue;
            }
            observer.observe(m, seat, o);
            self.space.mask_with(&g.legal(seat), k, 1, 0);
        }
    }

    /// Checks `obs` (float32 `[players, obs_size]`) and `mask` (int8 `[players, num_actions]`).
    fn out_buffers(
        &self,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<(buf::Buffer<f32>, buf::Buffer<i8>)> {
        let p = self.game().players() as usize;
        let obs = buf::Buffer::<f32>::check(obs, &[p, OBS_SIZE], "obs")?;
        let mask = buf::Buffer::<i8>::check(mask, &[p, self.space.size()], "mask")?;
        if !obs.disjoint(&mask) {
            return Err(PyValueError::new_err("obs and mask must not overlap"));
        }
        Ok((obs, mask))
    }

    fn bid_range_of(&self, seat: Seat) -> Option<PyBidRange> {
        self.game().bid_range(seat).map(PyBidRange)
    }
}

/// Whether `g` waits for bids (opening, sealed, rebids): no seat may take or discard then.
fn is_bidding(g: &Game) -> bool {
    matches!(
        g.phase(),
        qe_core::Phase::OpeningBid { .. }
            | qe_core::Phase::Bidding
            | qe_core::Phase::Rebid { .. }
            | qe_core::Phase::AssetRebid { .. }
    )
}

fn events_list(
    py: Python<'_>,
    events: impl Iterator<Item = qe_core::Event>,
) -> PyResult<Bound<'_, PyAny>> {
    let v: Vec<qe_core::Event> = events.collect();
    to_py(py, &v)
}

/// A new instance of `cls` (`Game` or a subclass) holding `game`: made by `cls.__new__(cls)`, which
/// runs `Game`'s constructor with its defaults, then given `game`.
fn instance_of<'py>(cls: &Bound<'py, PyType>, game: PyGame) -> PyResult<Bound<'py, PyAny>> {
    let obj = cls.call_method1(pyo3::intern!(cls.py(), "__new__"), (cls,))?;
    *obj.cast::<PyGame>()?.try_borrow_mut()? = game;
    Ok(obj)
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (players=4, commodities=false, seed=None, *, expansions=None, ladder=None, peeks=false, external_chance=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::players)] players: i128,
        #[pyo3(from_py_with = args::flag)] commodities: bool,
        seed: Option<&Bound<'_, PyAny>>,
        expansions: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = ladder_arg)] ladder: Option<PyBidLadder>,
        #[pyo3(from_py_with = args::flag)] peeks: bool,
        #[pyo3(from_py_with = args::flag)] external_chance: bool,
    ) -> PyResult<Self> {
        let seed = args::opt_int::<u64>(seed, "seed")?;
        let expansions = args::names(expansions, "expansions")?;
        let r = rules(py, players_of(py, players)?, commodities, expansions)?;
        if let (true, Some(seed)) = (external_chance, seed) {
            return Err(PyValueError::new_err(format!(
                "seed {seed} has no use with external_chance=True (the caller supplies every \
                 chance outcome): leave it out"
            )));
        }
        let m = if external_chance {
            Match::new(Game::external_chance(r, None).map_err(|e| setup_error(py, &e))?)
        } else {
            Match::seeded(r, seed.unwrap_or_else(random_seed))
        };
        Ok(PyGame {
            m,
            space: ActionSpace::new(ladder.map_or_else(BidLadder::default, |l| l.0), peeks),
            observer: observer::LazyObserver::default(),
        })
    }

    /// The game of a `qe-record/1` JSON text, replayed, as an instance of the class it is called
    /// on. Raises `SetupError` for a bad record and `IllegalCommand` (with `.index`) for an
    /// illegal command.
    #[classmethod]
    #[pyo3(signature = (record, *, ladder=None, peeks=false))]
    fn from_record<'py>(
        cls: &Bound<'py, PyType>,
        #[pyo3(from_py_with = args::text)] record: String,
        #[pyo3(from_py_with = ladder_arg)] ladder: Option<PyBidLadder>,
        #[pyo3(from_py_with = args::flag)] peeks: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let rec = Record::from_json(&record).map_err(|e| setup_error(py, &e))?;
        let m = rec.replay().map_err(|e| replay_error(py, &e))?;
        let game = PyGame {
            m,
            space: ActionSpace::new(ladder.map_or_else(BidLadder::default, |l| l.0), peeks),
            observer: observer::LazyObserver::default(),
        };
        instance_of(cls, game)
    }

    // ----- state ----------------------------------------------------------------------------------

    /// The number of seats (3-5).
    #[getter]
    fn players(&self) -> u8 {
        self.game().players()
    }
    /// Whether the Commodities expansion is in play.
    #[getter]
    fn commodities(&self) -> bool {
        self.game().rules().has_commodities()
    }
    /// The expansions in play, by name (the names records use).
    #[getter]
    fn expansions(&self) -> Vec<&'static str> {
        self.game().rules().expansions().names().collect()
    }
    /// The set-up seed; `None` when the set-up did not come from a seed (external-chance mode,
    /// or a record without one).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.m.seed()
    }
    /// Whether the caller supplies the chance outcomes.
    #[getter]
    fn external_chance(&self) -> bool {
        self.game().is_external_chance()
    }
    /// The current turn (0-based).
    #[getter]
    fn turn(&self) -> u8 {
        self.game().turn()
    }
    /// The number of turns of the game (R-TRN-1).
    #[getter]
    fn turns(&self) -> u8 {
        self.game().rules().turns()
    }
    /// The auctioneer of the current turn (R-TRN-2), `None` when it has none (R-TRN-3).
    #[getter]
    fn auctioneer(&self) -> Option<u8> {
        self.game().auctioneer().map(|s| s.0)
    }
    /// Whether the game is over (R-TRN-4).
    #[getter]
    fn is_over(&self) -> bool {
        self.game().is_over()
    }
    /// The phase name: `chance`, `opening_bid`, `bidding`, `rebid`, `asset_rebid`, `take_asset`,
    /// `discard_asset` or `game_over`.
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        // Interned once per name: no new string per call, and `==` with a literal is an identity
        // check.
        static NAMES: PyOnceLock<[Py<PyString>; 8]> = PyOnceLock::new();
        let names = NAMES.get_or_init(py, || {
            qe_core::Phase::NAMES.map(|n| PyString::intern(py, n).unbind())
        });
        let name = names[self.game().phase().index()].bind(py);
        name.clone()
    }
    /// The seats that must act now, lowest first.
    #[getter]
    fn to_act<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        let mut seats = [0u8; MAX_SEATS];
        let mut n = 0;
        for s in self.game().to_act().iter() {
            seats[n] = s.0;
            n += 1;
        }
        int_list(py, &seats[..n]).expect("a list of at most 5 ints")
    }
    /// The seats that must act now, as a bit mask (bit `i` is seat `i`).
    #[getter]
    fn to_act_mask(&self) -> u8 {
        self.game().to_act().bits()
    }
    /// The bids `seat` may make now, `None` when it need not bid.
    fn bid_range(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Option<PyBidRange>> {
        let s = seat_of(py, self.game(), seat)?;
        Ok(self.bid_range_of(s))
    }
    /// What `seat` may do now, as a dict (`bid`, `take`, `discard`, `peek`).
    #[pyo3(name = "_legal_dict")]
    fn legal_dict<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = seat_of(py, self.game(), seat)?;
        to_py(py, &self.game().legal(s))
    }

    // ----- commands -------------------------------------------------------------------------------

    /// `seat` bids `amount` (opening bid, secret bid or rebid).
    fn bid(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        amount: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = seat_of(py, self.game(), seat)?;
        let amount = args::int_or::<u64>(amount, "amount", |shown| {
            bid_out_of_range(py, shown, "amount")
        })?;
        self.play_cmd(py, Command::Bid { seat, amount })?;
        Ok(())
    }

    /// One bid for every seat that must bid now: `amounts[seat]` (entries of other seats are
    /// ignored). All or nothing: if one bid is illegal, none is applied.
    fn bid_all(&mut self, py: Python<'_>, amounts: &Bound<'_, PyAny>) -> PyResult<()> {
        let g = self.game();
        if let Some(e) = g.idle_error() {
            return Err(command_error(py, &e));
        }
        let acting = g.to_act();
        let seats = usize::from(g.players());
        let amounts = buf::per_seat(amounts, seats, acting, "amounts", |v, name, i| {
            args::entry_or::<u64>(v, name, i, |shown| {
                bid_out_of_range(py, shown, &format!("{name}[{i}]"))
            })
        })?;
        let mut commands = [None; MAX_SEATS];
        let mut ok = true;
        for s in acting.iter() {
            let amount = amounts[s.index()].ok_or_else(|| {
                PyValueError::new_err(format!(
                    "amounts has no entry for seat {}, which must bid (one entry per seat)",
                    s.0
                ))
            })?;
            ok &= g.bid_range(s).is_some_and(|r| r.allows(amount));
            commands[s.index()] = Some(Command::Bid { seat: s, amount });
        }
        if !ok {
            let mut copy = *g;
            for c in commands.iter().flatten() {
                copy.play(*c).map_err(|e| command_error(py, &e))?;
            }
        }
        self.apply_all(py, commands)
    }

    /// `seat` takes a token from `pile` (`gold`, `oil` or `crypto`; R-COM-5).
    fn take(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::text)] pile: String,
    ) -> PyResult<()> {
        self.play_pile(py, seat, &pile, false)
    }

    /// The auctioneer discards a token from `pile` (R-COM-7).
    fn discard(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::text)] pile: String,
    ) -> PyResult<()> {
        self.play_pile(py, seat, &pile, true)
    }

    /// `seat` peeks at the price of turn `turn` (5 players, once per game; R-VIS-5).
    fn peek(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        turn: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = seat_of(py, self.game(), seat)?;
        // As the record reader reads a turn: past the last is not awarded, negative or past 64
        // bits not a turn number (R-VIS-5).
        let mut quoted = None;
        let read = args::int_or::<u64>(turn, "turn", |q| {
            quoted = Some(q);
            PyValueError::new_err("")
        });
        let turn = match read {
            Ok(t) => Some(t),
            Err(_) if quoted.is_some() => None,
            Err(e) => return Err(e),
        };
        let c = Command::from_peek_turn(seat, turn, || quoted.unwrap_or_default())
            .map_err(|e| command_error(py, &e))?;
        self.play_cmd(py, c)?;
        Ok(())
    }

    /// Applies a command in record form (`{"seat": 0, "bid": 10}`, `{"seat": 2, "take_asset":
    /// "gold"}`, `{"seat": 0, "discard_asset": "oil"}`, `{"seat": 3, "peek": 4}`, or `{"chance":
    /// {"reveal": "US-AGR"}}`) and returns its events, unredacted, as dicts.
    #[pyo3(name = "_apply_dict")]
    fn apply_dict<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
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
        let c = Command::from_json(&text).map_err(|e| command_error(py, &e))?;
        let events = self.apply_cmd(py, c)?;
        events_list(py, events.as_slice().iter().copied())
    }

    /// The commands applied so far, in record form (chance outcomes included).
    fn commands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let players = self.game().players();
        let v: Vec<serde_json::Value> = self
            .m
            .commands()
            .iter()
            .map(|c| command::to_json(c, players))
            .collect();
        to_py(py, &v)
    }

    // ----- actions and encoding ------------------------------------------------------------------

    /// The size of the action space (ladder rungs, 3 piles, 16 peeks with `peeks=True`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.size()
    }
    /// The length of one seat's observation (`OBS_SIZE`).
    #[getter]
    fn obs_size(&self) -> usize {
        OBS_SIZE
    }
    /// The bid ladder of the action space.
    #[getter]
    fn ladder(&self) -> PyBidLadder {
        PyBidLadder(*self.space.ladder())
    }
    /// Whether the action space has the 16 peek actions.
    #[getter]
    fn peeks(&self) -> bool {
        self.space.has_peeks()
    }

    /// The legal action indices of `seat` now (empty when it has nothing to do).
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let s = seat_of(py, self.game(), seat)?;
        let g = self.game();
        if !self.space.has_peeks() && is_bidding(g) {
            // The hot case (sealed bids, rebids, opening bids): the rungs the bid range allows,
            // without the rest of `Game::legal`: a run of rungs less the forbidden amount's.
            let Some(range) = g.bid_range(s) else {
                return int_list(py, &[]);
            };
            let amounts = self.space.ladder().amounts();
            let lo = amounts.partition_point(|&a| a < range.min);
            let hi = amounts.partition_point(|&a| a <= range.max).max(lo);
            let skip = range
                .forbidden
                .and_then(|f| amounts[lo..hi].binary_search(&f).ok())
                .map(|i| lo + i);
            return int_range_list(py, lo, hi, skip);
        }
        let mut legal = [0u8; MAX_ACTIONS];
        let mut count = 0;
        let mut mask = [false; MAX_ACTIONS];
        let n = self.space.size();
        self.space.mask(&g.legal(s), &mut mask[..n]);
        for (a, _) in mask[..n].iter().enumerate().filter(|(_, &m)| m) {
            legal[count] = a as u8;
            count += 1;
        }
        int_list(py, &legal[..count])
    }

    /// Plays action `action` of `seat` (see the action space in the README).
    fn apply_action(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = seat_of(py, self.game(), seat)?;
        let action = args::int_or::<i128>(action, "action", |q| self.out_of_range(q, s))?;
        if self.game().is_over() {
            // R-TRN-4 before the action space: a finished game offers no action at all.
            return Err(command_error_about(
                py,
                &CommandError::GameOver,
                &format!(": action {action}"),
            ));
        }
        let legal = self.game().legal(s);
        let c = usize::try_from(action)
            .ok()
            .and_then(|a| self.space.decode(s, &legal, a))
            .ok_or_else(|| self.out_of_range(action, s))?;
        self.play_cmd(py, c)?;
        Ok(())
    }

    /// One action for every seat that must act now: `actions[seat]` (others ignored). All or
    /// nothing.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let commands = self.step_commands(py, actions)?;
        self.apply_all(py, commands)
    }

    /// `step(actions)` then `observe_into(obs, mask, acting_only=True, zero_others=zero_others)` in
    /// one call: applies one action per seat that must act (all or nothing), writes the
    /// observation and mask rows of the seats that must act next (zero mask rows for the others,
    /// and zero observation rows unless `zero_others=False`, which leaves them as they were and
    /// saves writing them) and returns `is_over`. The buffers are checked before anything is
    /// applied: on any error the game is unchanged.
    #[pyo3(signature = (actions, obs, mask, zero_others=true))]
    fn step_observe(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] zero_others: bool,
    ) -> PyResult<bool> {
        // Reading `actions` may run Python code (`__index__`), so it comes before the buffers.
        let commands = self.step_commands(py, actions)?;
        let (obs, mask) = self.out_buffers(obs, mask)?;
        self.apply_all(py, commands)?;
        // SAFETY: the buffers are disjoint and no Python code runs while the slices live.
        self.write_rows(
            unsafe { obs.slice() },
            unsafe { mask.slice() },
            true,
            zero_others,
        );
        Ok(self.game().is_over())
    }

    /// The observation of `seat` (float32, `obs_size`), from its view only; with `bounds=True`,
    /// followed by the spend-bounds block (`bounds_size` more floats, `qe_core::encoding::observe_bounds`).
    #[pyo3(signature = (seat, bounds=false))]
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] bounds: bool,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let s = seat_of(py, self.game(), seat)?;
        let extra = if bounds { BOUNDS_SIZE } else { 0 };
        let arr = PyArray1::<f32>::zeros(py, OBS_SIZE + extra, false);
        // SAFETY: the array was just created and is not shared.
        let out = unsafe { arr.as_slice_mut() }.expect("contiguous");
        self.observer.observe(&self.m, s, &mut out[..OBS_SIZE]);
        if bounds {
            observe_bounds(
                &self.m.deduce(s),
                self.game().players(),
                &mut out[OBS_SIZE..],
            );
        }
        Ok(arr)
    }

    /// What `seat` can prove about every seat's total spent (`qe_core::deduction`), as dicts with
    /// `lower`, `upper`, `known_prices`, `won`.
    #[pyo3(name = "_spend_bounds_dicts")]
    fn spend_bounds_dicts<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = seat_of(py, self.game(), seat)?;
        let d = self.m.deduce(s);
        to_py(py, &d.seats.in_play(self.game().players()).to_vec())
    }

    /// Writes the observation of `seat` into `out` (float32, contiguous, length `obs_size`).
    fn observation_into(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = seat_of(py, self.game(), seat)?;
        let out = buf::Buffer::<f32>::check(out, &[OBS_SIZE], "out")?;
        // SAFETY: the only slice over `out`, and no Python code runs while it lives.
        self.observer.observe(&self.m, s, unsafe { out.slice() });
        Ok(())
    }

    /// Writes the information-state tensor of `seat` into `out` (float32, contiguous, length
    /// `INFO_STATE_SIZE`): its observation (`OBS_SIZE` floats, the current view), then the
    /// bid-history block (`HISTORY_SIZE` floats: every bid and rebid as the seat saw it, its
    /// own with their amounts, and every opening bid and price it sees, each amount exactly;
    /// `qe_core::encoding::write_history`), so that it recalls everything the seat ever knew.
    fn information_state_into(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = seat_of(py, self.game(), seat)?;
        let out = buf::Buffer::<f32>::check(out, &[INFO_STATE_SIZE], "out")?;
        // SAFETY: the only slice over `out`, and no Python code runs while it lives.
        let out = unsafe { out.slice() };
        let (obs, hist) = out.split_at_mut(OBS_SIZE);
        self.observer.observe(&self.m, s, obs);
        write_history(&self.m, s, hist);
        Ok(())
    }

    /// The action mask of `seat` (int8, `num_actions`): 1 where legal.
    fn action_mask<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let s = seat_of(py, self.game(), seat)?;
        let arr = PyArray1::<i8>::zeros(py, self.space.size(), false);
        // SAFETY: the array was just created and is not shared.
        let out = unsafe { arr.as_slice_mut() }.expect("contiguous");
        self.space.mask_with(&self.game().legal(s), out, 1, 0);
        Ok(arr)
    }

    /// Writes every seat's observation and mask into `obs` (float32 `[players, obs_size]`) and
    /// `mask` (int8 `[players, num_actions]`). With `acting_only`, only the seats that must act
    /// are written; the other seats' mask rows are zeroed, and their observation rows too unless
    /// `zero_others=False` (then they are left as they were).
    #[pyo3(signature = (obs, mask, acting_only=false, zero_others=true))]
    fn observe_into(
        &mut self,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] acting_only: bool,
        #[pyo3(from_py_with = args::flag)] zero_others: bool,
    ) -> PyResult<()> {
        let (obs, mask) = self.out_buffers(obs, mask)?;
        // SAFETY: the buffers are disjoint and no Python code runs while the slices live.
        self.write_rows(
            unsafe { obs.slice() },
            unsafe { mask.slice() },
            acting_only,
            zero_others,
        );
        Ok(())
    }

    // ----- chance (external-chance mode) ---------------------------------------------------------

    /// The pending chance outcomes in record form (`{"reveal": "US-AGR"}`...), each equally likely.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<serde_json::Value> = self
            .game()
            .chance_outcomes()
            .iter()
            .map(|o| {
                command::to_json(&Command::Chance(*o), self.game().players())["chance"].clone()
            })
            .collect();
        to_py(py, &v)
    }

    /// The pending chance outcomes as stable action ids (deal: permutation index; reveal: tile
    /// index; draw: token number - 1), each equally likely.
    fn chance_actions(&self) -> Vec<usize> {
        let outcomes = self.game().chance_outcomes();
        outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| command::chance_id(i, *o))
            .collect()
    }

    /// Applies the chance outcome with this stable id (see `chance_actions`).
    fn apply_chance_action(&mut self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.game().is_over() {
            // As any command once the game is over (R-TRN-4).
            return Err(command_error(py, &CommandError::GameOver));
        }
        let not_pending = |got: &dyn core::fmt::Display| {
            let e = CommandError::InvalidChance {
                reason: "not a pending chance outcome",
            };
            command_error_about(py, &e, &format!(": chance action {got}"))
        };
        let id = args::int_or::<i128>(id, "id", |q| not_pending(&q))?;
        let wanted = usize::try_from(id).ok();
        let outcomes = self.game().chance_outcomes();
        let o = outcomes
            .iter()
            .enumerate()
            .find(|(i, o)| wanted == Some(command::chance_id(*i, **o)))
            .map(|(_, o)| *o)
            .ok_or_else(|| not_pending(&id))?;
        self.play_cmd(py, Command::Chance(o))?;
        Ok(())
    }

    /// Applies a chance outcome in record form (`{"reveal": "US-AGR"}`, `{"draw": "gold3"}`,
    /// `{"deal": ["AGR", ...]}`).
    fn chance<'py>(&mut self, py: Python<'py>, outcome: &Bound<'py, PyAny>) -> PyResult<()> {
        let d = PyDict::new(py);
        d.set_item("chance", outcome)?;
        self.apply_dict(py, d.as_any())?;
        Ok(())
    }

    // ----- views, events, outcome, record --------------------------------------------------------

    /// Everything `seat` may know (R-VIS), as a dict: its view and bid history.
    #[pyo3(name = "_view_dict")]
    fn view_dict<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = seat_of(py, self.game(), seat)?;
        to_py(py, &self.m.view(Some(s)))
    }
    /// Every peek so far as `seat` sees it, as dicts (`qe_core::Match::peek_history`: the seat,
    /// the auction's turn, `at` its place in the seat's event stream).
    #[pyo3(name = "_peek_history_dicts")]
    fn peek_history_dicts<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = seat_of(py, self.game(), seat)?;
        to_py(py, &self.m.peek_history(Some(s)))
    }
    /// The spectator's view (public information only; everything at game end), as a dict.
    #[pyo3(name = "_public_view_dict")]
    fn public_view_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.m.view(None))
    }
    /// The event stream of `seat` as dicts (every event, as that seat may see it); `None`: the
    /// spectator's (public) stream.
    #[pyo3(name = "_events_dicts", signature = (seat=None))]
    fn events_dicts<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match seat.filter(|s| !s.is_none()) {
            Some(seat) => {
                let s = seat_of(py, self.game(), seat)?;
                events_list(py, self.m.events_for(s))
            }
            None => events_list(py, self.m.public_events()),
        }
    }
    /// The outcome once the game is over, as a dict, else `None`.
    #[pyo3(name = "_outcome_dict")]
    fn outcome_dict<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.game().outcome().map(|o| to_py(py, &o)).transpose()
    }
    /// The `qe-record/1` JSON text of the game so far (`None` in external-chance mode before the
    /// deal).
    #[pyo3(name = "_record_json")]
    fn record_json(&self) -> Option<String> {
        self.m.record().map(|r| r.to_json())
    }
    /// Every seat's reward (`qe_core::reward`): `"win"` or `"score"`; zeros before the end.
    #[pyo3(signature = (reward="win".to_owned()), text_signature = "($self, reward='win')")]
    fn returns(&self, #[pyo3(from_py_with = args::text)] reward: String) -> PyResult<Vec<f64>> {
        let reward = reward_of(&reward)?;
        let g = self.game();
        Ok(match g.outcome() {
            None => vec![0.0; g.players() as usize],
            Some(o) => reward.returns(&o).collect(),
        })
    }

    // ----- copy and pickle -----------------------------------------------------------------------

    /// A copy of the game, of the same class (a subclass's instance attributes are its own to
    /// copy).
    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let game = slf.try_borrow()?.clone();
        instance_of(&slf.get_type(), game)
    }
    fn __deepcopy__<'py>(
        slf: &Bound<'py, Self>,
        _memo: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::__copy__(slf)
    }
    fn __getstate__(&self) -> String {
        self.state_json()
    }
    /// Takes what `__getstate__` gives (JSON text); every field is checked, none coerced.
    fn __setstate__(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = state.extract::<String>().map_err(|_| {
            PyValueError::new_err(format!(
                "bad pickled qe.Game state: expected a string, got {}",
                state
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        *self = PyGame::from_state(py, &text)?;
        Ok(())
    }
    /// Pickles as `copyreg.__newobj__(type(self))` (the class's `__new__` with no arguments)
    /// followed by `__setstate__(self.__getstate__())`: a subclass's own state methods are the
    /// ones called.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let newobj = py.import("copyreg")?.getattr("__newobj__")?;
        let state = slf.call_method0(pyo3::intern!(py, "__getstate__"))?;
        PyTuple::new(
            py,
            [
                newobj,
                PyTuple::new(py, [slf.get_type()])?.into_any(),
                state,
            ],
        )
    }
    fn __repr__(&self) -> String {
        let g = self.game();
        format!(
            "Game(players={}, commodities={}, turn={}, phase={:?})",
            g.players(),
            if g.rules().has_commodities() {
                "True"
            } else {
                "False"
            },
            g.turn(),
            g.phase().name()
        )
    }
}

/// Replays a `qe-record/1` JSON text: the outcome as a dict, `None` if the game is not over; raises
/// `SetupError` or `IllegalCommand` (with `.index`).
#[pyfunction]
fn replay_json(
    py: Python<'_>,
    #[pyo3(from_py_with = args::text)] record: String,
) -> PyResult<Option<Bound<'_, PyAny>>> {
    let rec = Record::from_json(&record).map_err(|e| setup_error(py, &e))?;
    let m = rec.replay().map_err(|e| replay_error(py, &e))?;
    m.game().outcome().map(|o| to_py(py, &o)).transpose()
}

/// The reward of this name, or a `ValueError` naming it and the known ones.
pub(crate) fn reward_of(name: &str) -> PyResult<Reward> {
    Reward::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown reward \"{}\": expected one of {}",
            qe_core::shown(name),
            Reward::NAMES.join(", ")
        ))
    })
}

/// The observation blocks: a list of `(name, offset, length)`.
#[pyfunction]
fn observation_blocks() -> Vec<(&'static str, usize, usize)> {
    BLOCKS.iter().map(|b| (b.name, b.offset, b.len)).collect()
}

#[pymodule(gil_used = false)]
fn _qe(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("OBS_SIZE", OBS_SIZE)?;
    m.add("BOUNDS_SIZE", BOUNDS_SIZE)?;
    m.add("HISTORY_SIZE", HISTORY_SIZE)?;
    m.add("INFO_STATE_SIZE", INFO_STATE_SIZE)?;
    // The names the core reads and writes: piles in `AssetKind` order (the bit order of pile
    // masks), tiles in manifest order (the bit order of tile masks).
    let piles: Vec<&str> = qe_core::AssetKind::ALL.iter().map(|k| k.name()).collect();
    m.add("PILES", PyTuple::new(py, piles)?)?;
    let tiles: Vec<String> = qe_core::TileId::ALL
        .iter()
        .map(ToString::to_string)
        .collect();
    m.add("TILES", PyTuple::new(py, tiles)?)?;
    m.add("QeError", py.get_type::<QeError>())?;
    m.add("IllegalCommand", py.get_type::<IllegalCommand>())?;
    let setup = py.get_type::<SetupError_>();
    setup.setattr("__name__", "SetupError")?;
    setup.setattr("__qualname__", "SetupError")?;
    m.add("SetupError", setup)?;
    m.add_class::<PyBidLadder>()?;
    m.add_class::<PyBidRange>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<bots::PyBot>()?;
    m.add_function(wrap_pyfunction!(args::int_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::seat_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::quote_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::seed_arg, m)?)?;
    m.add_function(wrap_pyfunction!(record_text, m)?)?;
    m.add_function(wrap_pyfunction!(bid_range, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(replay_json, m)?)?;
    m.add_function(wrap_pyfunction!(observation_blocks, m)?)?;
    Ok(())
}
