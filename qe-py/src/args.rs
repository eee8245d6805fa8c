//! Integer arguments read from Python, with errors that name the argument and the value the caller
//! gave: `TypeError: seed must be an int, got str 'x'`, `OverflowError: seed must be an int from 0
//! to 18446744073709551615, got -1`. PyO3's own conversion names neither when the int is out of
//! range ("can't convert negative int to unsigned").

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};
use qe_core::{CommandError, Game, Seat};

use crate::errors::{command_error, seat_range_error};

/// An integer type an argument may be read as.
pub(crate) trait IntArg: Sized + Copy + core::fmt::Display {
    /// The smallest value.
    const MIN: Self;
    /// The largest value.
    const MAX: Self;
    /// The value of `value`, by PyO3's conversion (`__index__`).
    fn extract(value: &Bound<'_, PyAny>) -> PyResult<Self>;
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl IntArg for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            fn extract(value: &Bound<'_, PyAny>) -> PyResult<Self> {
                value.extract()
            }
        }
    )*};
}
int_arg!(u8, u64, usize, i64, i128);

/// `value` as a `T`, or an error naming `name` and the value: a `TypeError` if it is not an int
/// (nor has `__index__`) or is a `bool`, an `OverflowError` with `T`'s range if it is out of it.
/// Any other error (one raised by the caller's own `__index__`) comes through unchanged.
pub(crate) fn int<T: IntArg>(value: &Bound<'_, PyAny>, name: &str) -> PyResult<T> {
    read(value, || name.to_owned(), None::<fn(String) -> PyErr>)
}

/// The same as [`int`], with an int outside `T`'s range reported by `out_of_range` (given the
/// value as quoted): for an argument whose own range is narrower (an action, an index), whose
/// error then names that range rather than `T`'s.
pub(crate) fn int_or<T: IntArg>(
    value: &Bound<'_, PyAny>,
    name: &str,
    out_of_range: impl FnOnce(String) -> PyErr,
) -> PyResult<T> {
    read(value, || name.to_owned(), Some(out_of_range))
}

/// [`int`] for entry `index` of the sequence `name` (named `name[index]` in errors; the name is
/// only built for an error).
pub(crate) fn entry<T: IntArg>(value: &Bound<'_, PyAny>, name: &str, index: usize) -> PyResult<T> {
    read(
        value,
        || format!("{name}[{index}]"),
        None::<fn(String) -> PyErr>,
    )
}

/// [`entry`], with an int outside `T`'s range reported by `out_of_range` (as [`int_or`]).
pub(crate) fn entry_or<T: IntArg>(
    value: &Bound<'_, PyAny>,
    name: &str,
    index: usize,
    out_of_range: impl FnOnce(String) -> PyErr,
) -> PyResult<T> {
    read(value, || format!("{name}[{index}]"), Some(out_of_range))
}

/// How every int argument is read: a `bool` is refused (Python's `True` is an int 1, but a bid,
/// seat or action of `True` is surely a mistake), then `T`'s conversion. `name()` names the
/// argument, built only for an error; an int outside `T`'s range is `out_of_range(value as
/// quoted)` when given, else the `OverflowError` of [`int`].
fn read<T: IntArg>(
    value: &Bound<'_, PyAny>,
    name: impl Fn() -> String,
    out_of_range: Option<impl FnOnce(String) -> PyErr>,
) -> PyResult<T> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{} must be an int, got bool {}",
            name(),
            quote(value)
        )));
    }
    if let Ok(v) = T::extract(value) {
        return Ok(v);
    }
    let value = &by_index(value)?;
    let e = match T::extract(value) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    Err(match out_of_range {
        Some(out_of_range) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            out_of_range(quote(value))
        }
        _ => int_error::<T>(value, &name(), e, false),
    })
}

/// `value` when it is an int or has no `__index__`, else the int its `__index__` gives: an error
/// quotes the number (`2**200`), not the object's `repr`. An error raised by the caller's own
/// `__index__` comes through unchanged. Asked only once a value did not convert, so the ints of
/// the hot path (numpy's among them) pay nothing for it.
fn by_index<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if value.is_instance_of::<PyInt>() || !value.get_type().hasattr("__index__")? {
        return Ok(value.clone());
    }
    value
        .py()
        .import("operator")?
        .getattr("index")?
        .call1((value,))
}

/// [`int`] for an optional argument (`None` stays `None`).
pub(crate) fn opt_int<T: IntArg>(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Option<T>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| int(v, name))
        .transpose()
}

/// The error for `value`, which did not convert to a `T` with error `e`.
fn int_error<T: IntArg>(
    value: &Bound<'_, PyAny>,
    name: &str,
    e: PyErr,
    named_by_pyo3: bool,
) -> PyErr {
    let py = value.py();
    if e.is_instance_of::<PyOverflowError>(py) {
        PyOverflowError::new_err(format!(
            "{name} must be an int from {} to {}, got {}",
            T::MIN,
            T::MAX,
            quote(value)
        ))
    } else if e.is_instance_of::<PyTypeError>(py) {
        let what = format!("must be an int, got {} {}", type_name(value), quote(value));
        // PyO3 itself puts "argument 'name': " before a `from_py_with` reader's TypeError.
        PyTypeError::new_err(if named_by_pyo3 {
            what
        } else {
            format!("{name} {what}")
        })
    } else {
        e
    }
}

/// The argument `name` given a default by `#[pyo3(from_py_with = ...)]`: left out, it takes the
/// signature's default; given, it must be an int (`None` is a `TypeError`, not the default).
macro_rules! defaulted {
    ($($(#[$doc:meta])* $f:ident: $t:ty;)*) => {$(
        $(#[$doc])*
        pub(crate) fn $f(value: &Bound<'_, PyAny>) -> PyResult<$t> {
            if value.is_instance_of::<PyBool>() {
                return Err(PyTypeError::new_err(format!("must be an int, got bool {}", quote(value))));
            }
            if let Ok(v) = <$t as IntArg>::extract(value) {
                return Ok(v);
            }
            let value = &by_index(value)?;
            let e = match <$t as IntArg>::extract(value) {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            Err(int_error::<$t>(value, stringify!($f), e, true))
        }
    )*};
}
defaulted! {
    /// `players` (a count, negative ones too: [`crate::setup::players_of`] checks it is 3 to 5).
    players: i128;
    /// `seed` of `Bot`.
    seed: u64;
}

/// `seat` of `VectorEnv`, given by `#[pyo3(from_py_with = args::seat)]`: an int, else a
/// `TypeError` as for any int argument. An int past 128 bits is `Err` with the value quoted, for
/// `VectorEnv` to report as any seat out of range (it knows the players).
pub(crate) fn seat(value: &Bound<'_, PyAny>) -> PyResult<Result<i128, String>> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "must be an int, got bool {}",
            quote(value)
        )));
    }
    if let Ok(s) = <i128 as IntArg>::extract(value) {
        return Ok(Ok(s));
    }
    let value = &by_index(value)?;
    let e = match <i128 as IntArg>::extract(value) {
        Ok(s) => return Ok(Ok(s)),
        Err(e) => e,
    };
    if e.is_instance_of::<PyOverflowError>(value.py()) {
        Ok(Err(quote(value)))
    } else {
        Err(int_error::<i128>(value, "seat", e, true))
    }
}

/// The seat `seat` (a Python int) of `game`: `IllegalCommand` (R-AUC-12) naming it if the game has
/// no such seat, a `TypeError` naming it if it is not an int.
// Inlined into its callers in other modules: every method of a seat reads one (L1 in PERF.md).
#[inline]
pub(crate) fn seat_of(py: Python<'_>, game: &Game, seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
    let seat = int_or::<i64>(seat, "seat", |quoted| {
        seat_range_error("seat", game.players(), quoted)
    })?;
    match u8::try_from(seat) {
        Ok(s) if s < game.players() => Ok(Seat(s)),
        _ => Err(command_error(py, &CommandError::SeatOutOfRange { seat })),
    }
}

/// A flag argument given by `#[pyo3(from_py_with = args::flag)]`: `True` or `False` (or a numpy
/// bool); anything else is a `TypeError` quoting it (PyO3's own says only the type).
pub(crate) fn flag(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(b.is_true());
    }
    value.extract::<bool>().map_err(|_| {
        PyTypeError::new_err(format!(
            "must be True or False, got {} {}",
            type_name(value),
            quote(value)
        ))
    })
}

/// A text argument given by `#[pyo3(from_py_with = args::text)]`: a `str`; anything else is a
/// `TypeError` quoting it (PyO3's own names only the type).
pub(crate) fn text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    match value.cast::<PyString>() {
        // A lone surrogate ('\udc80') has no UTF-8 form.
        Ok(s) => s.to_str().map(str::to_owned).map_err(|_| {
            PyTypeError::new_err(format!(
                "must be text UTF-8 can hold (no lone surrogates), got str {}",
                quote(value)
            ))
        }),
        Err(_) => Err(PyTypeError::new_err(format!(
            "must be a str, got {} {}",
            type_name(value),
            quote(value)
        ))),
    }
}

/// The `ratio` of a geometric ladder, given by `#[pyo3(from_py_with = args::ratio)]`: an int or a
/// float (numpy's too), not a `bool`; anything else is a `TypeError` quoting it, an int too large
/// for a float an `OverflowError` naming it.
pub(crate) fn ratio(value: &Bound<'_, PyAny>) -> PyResult<f64> {
    let number = !value.is_instance_of::<PyBool>()
        && (value.is_instance_of::<PyInt>()
            || value.is_instance_of::<pyo3::types::PyFloat>()
            || value.hasattr("__float__").unwrap_or(false) && !is_text(value));
    if !number {
        return Err(PyTypeError::new_err(format!(
            "must be a number, got {} {}",
            type_name(value),
            quote(value)
        )));
    }
    value.extract::<f64>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(value.py()) {
            PyOverflowError::new_err(format!("ratio must be a float, got {}", quote(value)))
        } else {
            e
        }
    })
}

/// [`text`] for an argument that may be `None`.
pub(crate) fn opt_text(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_none() {
        Ok(None)
    } else {
        text(value).map(Some)
    }
}

/// The name of `value`'s type (`str`, `float64`...), as errors show it (`qe_core::shown`: a
/// class may be named anything, of any length).
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |n| qe_core::shown(&n.to_string()))
}

/// `value`'s `repr`, as errors quote a caller's value (`qe_core::shown`: at most
/// `qe_core::SHOWN_MAX` characters, then `...`); for an int too long for Python to print, its
/// size in bits; `<unprintable>` if `repr` fails otherwise. Containers are written by
/// [`write_short`], whose time is bounded however large, deep or shared their contents.
pub(crate) fn quote(value: &Bound<'_, PyAny>) -> String {
    let mut out = String::new();
    write_short(value, 0, &mut out);
    qe_core::shown(&out)
}

/// How much [`write_short`] writes at most before it stops (well past what `shown` keeps).
const SHORT_CAP: usize = 256;
/// How many entries of a container, and how many levels of containers, [`write_short`] shows.
const SHORT_ITEMS: usize = 8;
const SHORT_DEPTH: usize = 3;

/// Writes `value` as `repr` would, but a container (a list, tuple, dict, set or frozenset, their
/// subclasses, a `deque`, a numpy array of objects) only to [`SHORT_DEPTH`] levels and
/// [`SHORT_ITEMS`] entries each, `...` for the rest, and nothing past [`SHORT_CAP`] bytes: a list
/// holding one list twice, 30 times over, is written in a few hundred steps, not billions.
fn write_short(value: &Bound<'_, PyAny>, depth: usize, out: &mut String) {
    if out.len() >= SHORT_CAP {
        out.push_str("...");
        return;
    }
    let named = |exact: bool| (!exact).then(|| type_name(value));
    let (open, close, named, items): (&str, &str, Option<String>, Option<Vec<_>>) =
        if let Ok(d) = value.cast::<PyDict>() {
            let pairs = d.iter().take(SHORT_ITEMS + 1).map(|(k, v)| (k, Some(v)));
            let named = named(value.is_exact_instance_of::<PyDict>());
            ("{", "}", named, Some(pairs.collect()))
        } else if let Ok(l) = value.cast::<PyList>() {
            let named = named(value.is_exact_instance_of::<PyList>());
            ("[", "]", named, Some(first_entries(l.iter())))
        } else if let Ok(t) = value.cast::<PyTuple>() {
            let named = named(value.is_exact_instance_of::<PyTuple>());
            ("(", ")", named, Some(first_entries(t.iter())))
        } else if let Ok(set) = value.cast::<PySet>() {
            let named = named(value.is_exact_instance_of::<PySet>());
            ("{", "}", named, Some(first_entries(set.iter())))
        } else if let Ok(set) = value.cast::<PyFrozenSet>() {
            (
                "{",
                "}",
                Some(type_name(value)),
                Some(first_entries(set.iter())),
            )
        } else if let Some(entries) = short_entries(value) {
            // A deque, or a numpy array of objects: its first entries, read without its repr.
            ("[", "]", Some(type_name(value)), Some(entries))
        } else {
            ("", "", None, None)
        };
    let Some(items) = items else {
        out.push_str(&scalar_repr(value));
        return;
    };
    if value.is_exact_instance_of::<PySet>() && items.is_empty() {
        out.push_str("set()");
        return;
    }
    if let Some(name) = &named {
        out.push_str(name);
        out.push('(');
    }
    out.push_str(open);
    if depth >= SHORT_DEPTH && !items.is_empty() {
        out.push_str("...");
    } else {
        for (i, (x, v)) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if i == SHORT_ITEMS {
                out.push_str("...");
                break;
            }
            write_short(x, depth + 1, out);
            if let Some(v) = v {
                out.push_str(": ");
                write_short(v, depth + 1, out);
            }
            if out.len() >= SHORT_CAP {
                break;
            }
        }
        if items.len() == 1 && open == "(" && named.is_none() {
            out.push(',');
        }
    }
    out.push_str(close);
    if named.is_some() {
        out.push(')');
    }
}

/// The first [`SHORT_ITEMS`] + 1 entries of `entries`, as [`write_short`] shows a container's.
fn first_entries<'py>(
    entries: impl Iterator<Item = Bound<'py, PyAny>>,
) -> Vec<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
    entries.take(SHORT_ITEMS + 1).map(|x| (x, None)).collect()
}

/// The first entries of a `collections.deque` or of a numpy array of Python objects (whose
/// `repr` would print every object in full), `None` for anything else.
fn short_entries<'py>(
    value: &Bound<'py, PyAny>,
) -> Option<Vec<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)>> {
    let py = value.py();
    let deque = py
        .import("collections")
        .and_then(|c| c.getattr("deque"))
        .is_ok_and(|d| value.is_instance(&d).unwrap_or(false));
    let objects = !deque
        && value.hasattr("dtype").unwrap_or(false)
        && value.hasattr("flat").unwrap_or(false)
        && value
            .getattr("dtype")
            .and_then(|d| d.getattr("kind"))
            .and_then(|k| k.extract::<String>())
            .is_ok_and(|k| k == "O");
    let iterable = if deque {
        value.try_iter().ok()?
    } else if objects {
        value.getattr("flat").ok()?.try_iter().ok()?
    } else {
        return None;
    };
    Some(first_entries(iterable.filter_map(Result::ok)))
}

/// The `repr` of a value that is not a container [`write_short`] walks; an int too long for
/// Python to print is shown by its size in bits.
fn scalar_repr(value: &Bound<'_, PyAny>) -> String {
    match value.repr() {
        Ok(text) => text.to_string_lossy().into_owned(),
        Err(_) => value
            .cast::<PyInt>()
            .ok()
            .and_then(|i| i.call_method0("bit_length").ok())
            .map_or_else(
                || "<unprintable>".to_string(),
                |b| format!("an int of {b} bits"),
            ),
    }
}

/// The items of `value`, which the argument `name` takes as `what` (`"a sequence of ints"`): text
/// (`str`, `bytes`) or a value that cannot be iterated is a `TypeError` saying so; an error raised
/// by the caller's own `__iter__` comes through as it is.
fn items<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
    let wrong = || {
        PyTypeError::new_err(format!(
            "{name} must be {what}, got {} {}",
            type_name(value),
            quote(value)
        ))
    };
    // Text would be read letter by letter, a mapping by its keys, a set in no set order.
    let unordered = value.is_instance_of::<PySet>() || value.is_instance_of::<PyFrozenSet>();
    if is_text(value) || is_mapping(value) || unordered {
        return Err(wrong());
    }
    value
        .try_iter()
        .map_err(|e| type_error_or(value.py(), e, wrong))
}

/// The first `max` (at most) ints of type `T` of the iterable `value`: reading stops there, so
/// memory stays bounded for any iterable. Errors name `name` and the entry (`amounts[3]`).
pub(crate) fn int_list<T: IntArg>(
    value: &Bound<'_, PyAny>,
    name: &str,
    max: usize,
) -> PyResult<Vec<T>> {
    let mut out = Vec::new();
    for (i, item) in items(value, name, "a sequence of ints")?.enumerate() {
        if i == max {
            break;
        }
        out.push(entry(&item?, name, i)?);
    }
    Ok(out)
}

/// The most names a list of names ([`names`]) is read to: more than there are expansions.
const MAX_NAMES: usize = 16;

/// The names of the optional list `value` (`expansions=["commodities"]`), read to at most a few
/// more than any list of names needs. A string is a `TypeError` (it is not a list of names, and
/// reading it letter by letter would name letters), as is a non-string entry (`name[i]`).
pub(crate) fn names(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<Vec<String>>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    let what = "a list of names such as [\"commodities\"]";
    for (i, item) in items(value, name, what)?.enumerate() {
        let item = item?;
        if i == MAX_NAMES {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{name} has more than {MAX_NAMES} names"
            )));
        }
        let text = item.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{name}[{i}] must be a name (str), got {} {}",
                type_name(&item),
                quote(&item)
            ))
        })?;
        out.push(text.to_str()?.to_owned());
    }
    Ok(Some(out))
}

/// Whether `value` is a mapping (a `dict`, or any `collections.abc.Mapping`): iterable and
/// indexable, but by keys, never a sequence of entries.
pub(crate) fn is_mapping(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyDict>()
        || value
            .py()
            .import("collections.abc")
            .and_then(|m| m.getattr("Mapping"))
            .is_ok_and(|m| value.is_instance(&m).unwrap_or(false))
}

/// Whether `value` is text (`str`, `bytes`, `bytearray`): iterable, but never a list of ints or
/// names.
pub(crate) fn is_text(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyBytes>()
        || value.is_instance_of::<PyByteArray>()
}

/// `mine()` in place of `e` when `e` is a `TypeError` (the value is not what the argument takes);
/// any other error (raised by the caller's own `__len__`, `__iter__`...) comes through as it is.
pub(crate) fn type_error_or(py: Python<'_>, e: PyErr, mine: impl FnOnce() -> PyErr) -> PyErr {
    if e.is_instance_of::<PyTypeError>(py) {
        mine()
    } else {
        e
    }
}

/// `value` as an int (64-bit), or the error [`int`] gives, naming `name`: how the Python side of
/// the package (`qe.gym`, `qe.pettingzoo`) reads an action or a seat, with the same messages.
#[pyfunction]
pub(crate) fn int_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<i64> {
    int(value, name)
}

/// `value` as a seat of a `players`-seat game, or an error naming `name`: a `TypeError` as for
/// any int argument, a `ValueError` with the range for an int that is no seat (past 64 bits too):
/// how the Python side of the package reads a seat or player argument (`qe.gym`, `qe.bots`).
#[pyfunction]
pub(crate) fn seat_arg(value: &Bound<'_, PyAny>, players: u8, name: &str) -> PyResult<u8> {
    let seat = int_or::<i128>(value, name, |q| seat_range_error(name, players, q))?;
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < players)
        .ok_or_else(|| seat_range_error(name, players, seat))
}

/// `value` as a seed (an int from 0 to 2^64 - 1), or the error [`int`] gives, naming `name`: how the
/// Python side of the package reads a seed, with the messages of `qe.Game`'s.
#[pyfunction]
pub(crate) fn seed_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    int(value, name)
}

/// `value` quoted as every error of the package quotes a caller's value ([`quote`]): the
/// Python side of the package (`qe.gym`, `qe.pettingzoo`, `qe.bots`, `qe.openspiel`) quotes
/// through it, so its messages cut long values the same way.
#[pyfunction(name = "quote")]
pub(crate) fn quote_arg(value: &Bound<'_, PyAny>) -> String {
    quote(value)
}
