//! Integer arguments read from Python, with errors that name the argument and the value the caller
//! gave: `TypeError: seed must be an int, got str 'x'`, `OverflowError: seed must be an int from 0
//! to 18446744073709551615, got -1`. PyO3's own conversion names neither when the int is out of
//! range ("can't convert negative int to unsigned").

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// The longest a value is quoted in an error message (a `repr` cut short, with `...`).
const QUOTE_MAX: usize = 60;

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
/// (nor has `__index__`), an `OverflowError` with `T`'s range if it is out of it.
pub(crate) fn int<T: IntArg>(value: &Bound<'_, PyAny>, name: &str) -> PyResult<T> {
    T::extract(value).map_err(|e| int_error::<T>(value, name, &e))
}

/// [`int`] for entry `index` of the sequence `name` (named `name[index]` in errors; the name is
/// only built for an error).
pub(crate) fn entry<T: IntArg>(value: &Bound<'_, PyAny>, name: &str, index: usize) -> PyResult<T> {
    T::extract(value).map_err(|e| int_error::<T>(value, &format!("{name}[{index}]"), &e))
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

/// [`int`] for an argument with a default (`None`, or left out, gives `default`).
pub(crate) fn int_or<T: IntArg>(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    default: T,
) -> PyResult<T> {
    Ok(opt_int(value, name)?.unwrap_or(default))
}

/// The error for `value`, which did not convert to a `T` (with error `e`).
pub(crate) fn int_error<T: IntArg>(value: &Bound<'_, PyAny>, name: &str, e: &PyErr) -> PyErr {
    let py = value.py();
    let is_int = value.is_instance_of::<PyInt>() || value.hasattr("__index__").unwrap_or(false);
    if is_int && !e.is_instance_of::<PyTypeError>(py) {
        PyOverflowError::new_err(format!(
            "{name} must be an int from {} to {}, got {}",
            T::MIN,
            T::MAX,
            quote(value)
        ))
    } else {
        PyTypeError::new_err(format!(
            "{name} must be an int, got {} {}",
            type_name(value),
            quote(value)
        ))
    }
}

/// The name of `value`'s type (`str`, `numpy.float64`...).
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |n| n.to_string())
}

/// `value`'s `repr`, at most [`QUOTE_MAX`] characters (then `...`); for an int too long for
/// Python to print, its size in bits; `<unprintable>` if `repr` fails otherwise.
pub(crate) fn quote(value: &Bound<'_, PyAny>) -> String {
    let Ok(text) = value.repr() else {
        return match value.call_method0("bit_length") {
            Ok(bits) => format!("an int of {bits} bits"),
            Err(_) => "<unprintable>".to_string(),
        };
    };
    let text = text.to_string_lossy();
    match text.char_indices().nth(QUOTE_MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.into_owned(),
    }
}

/// The first `max` (at most) ints of type `T` of the iterable `value`: reading stops there, so
/// memory stays bounded for any iterable. Errors name `name` and the entry (`amounts[3]`).
pub(crate) fn int_list<T: IntArg>(
    value: &Bound<'_, PyAny>,
    name: &str,
    max: usize,
) -> PyResult<Vec<T>> {
    let not_ints = || {
        PyTypeError::new_err(format!(
            "{name} must be a sequence of ints, got {} {}",
            type_name(value),
            quote(value)
        ))
    };
    if value.is_instance_of::<PyString>() {
        return Err(not_ints());
    }
    let mut out = Vec::new();
    for (i, item) in value.try_iter().map_err(|_| not_ints())?.enumerate() {
        if i == max {
            break;
        }
        out.push(entry(&item?, name, i)?);
    }
    Ok(out)
}
