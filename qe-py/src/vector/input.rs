//! Reading what Python hands a [`super::VectorEnv`] (actions, env ids, masks, pickled state) and
//! the numpy arrays it hands back.

use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::{args, EnvBuf, PyArrayDyn, PyDict, PyMemoryError, PyValueError, OBS_SIZE};

/// A `ValueError` about a `VectorEnv` state being read.
pub(super) fn state_error(what: String) -> PyErr {
    PyValueError::new_err(format!("VectorEnv state: {what}"))
}

/// The `VectorEnv` state `state[key]`, or an error naming the key.
pub(super) fn state_item<'py>(
    state: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<Bound<'py, PyAny>> {
    state
        .get_item(key)?
        .ok_or_else(|| state_error(format!("missing `{key}`")))
}

/// `value` as a `T` (the field `what` of a state), or an error naming the field and quoting it.
pub(super) fn state_value<'py, T: pyo3::conversion::FromPyObjectOwned<'py>>(
    value: &Bound<'py, PyAny>,
    what: &str,
    kind: &str,
) -> PyResult<T> {
    value.extract::<T>().map_err(|_| {
        state_error(format!(
            "`{what}` must be {kind}, got {} {}",
            args::type_name(value),
            args::quote(value)
        ))
    })
}

/// A game's commands as JSON text (a list in record form), as a pickle of the batch holds them.
pub(super) fn commands_text(commands: &[qe_core::Command], players: u8) -> String {
    let list: Vec<serde_json::Value> = commands
        .iter()
        .map(|c| crate::command::to_json(c, players))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The commands of `text` ([`commands_text`]), each read by the core's command reader, or an
/// error naming env `e` and what is wrong.
pub(super) fn commands_of(text: &str, e: usize) -> PyResult<Vec<qe_core::Command>> {
    let raw: Vec<&serde_json::value::RawValue> = serde_json::from_str(text).map_err(|err| {
        state_error(format!(
            "env {e}: the commands are not a JSON list ({err}): {}",
            qe_core::shown(text)
        ))
    })?;
    raw.iter()
        .enumerate()
        .map(|(i, r)| {
            qe_core::Command::from_json(r.get())
                .map_err(|err| state_error(format!("env {e}, command {i}: {}: {err}", err.rule())))
        })
        .collect()
}

/// Copies `actions` (ints of shape `expected`) into `into`: directly from a C-contiguous int64
/// array, else through `numpy.ascontiguousarray(actions, numpy.int64)` (an unsigned action past
/// 2^63−1, which that would wrap, is an error naming it; `n_actions` is the action space's size).
pub(super) fn read_actions(
    py: Python<'_>,
    actions: &Bound<'_, PyAny>,
    expected: &[usize],
    n_actions: usize,
    into: &mut Vec<i64>,
) -> PyResult<()> {
    let converted;
    let arr = match actions.cast::<PyArrayDyn<i64>>() {
        Ok(a) if a.is_c_contiguous() => a,
        _ => {
            let np = py.import("numpy")?;
            // Integers only: a float action is an error, never truncated to a rung.
            let given = np.getattr("asarray")?.call1((actions,)).map_err(|e| {
                if e.is_instance_of::<PyValueError>(py) {
                    PyValueError::new_err(format!(
                        "actions must be integers of shape {expected:?}, got {} {}: {}",
                        args::type_name(actions),
                        args::quote(actions),
                        e.value(py)
                    ))
                } else {
                    e
                }
            })?;
            let dtype = given.getattr("dtype")?;
            let kind: String = dtype.getattr("kind")?.extract()?;
            if kind == "O" {
                // Python objects: the first that is not an int64 is named (an int past 64 bits is
                // out of range like any other).
                for item in given.getattr("flat")?.try_iter()? {
                    let item = item?;
                    if item.is_instance_of::<pyo3::types::PyInt>()
                        && !item.is_instance_of::<pyo3::types::PyBool>()
                    {
                        if item.extract::<i64>().is_err() {
                            return Err(PyValueError::new_err(format!(
                                "action {} out of range 0..{n_actions}",
                                args::quote(&item)
                            )));
                        }
                    } else {
                        return Err(PyValueError::new_err(format!(
                            "actions must be integers, got {} {}",
                            args::type_name(&item),
                            args::quote(&item)
                        )));
                    }
                }
            }
            if kind != "i" && kind != "u" {
                return Err(PyValueError::new_err(format!(
                    "actions must be integers, got {} {}",
                    dtype.str()?,
                    args::quote(actions)
                )));
            }
            let shape: Vec<usize> = given.getattr("shape")?.extract()?;
            if shape != expected {
                return Err(PyValueError::new_err(format!(
                    "actions must have shape {expected:?}, not {shape:?}"
                )));
            }
            if kind == "u" && given.getattr("size")?.extract::<usize>()? > 0 {
                let top = given.call_method0("max")?;
                if top.gt(i64::MAX)? {
                    return Err(PyValueError::new_err(format!(
                        "action {top} out of range 0..{n_actions}"
                    )));
                }
            }
            converted = np
                .getattr("ascontiguousarray")?
                .call1((given, np.getattr("int64")?))?;
            converted.cast::<PyArrayDyn<i64>>()?
        }
    };
    if arr.shape() != expected {
        return Err(PyValueError::new_err(format!(
            "actions must have shape {expected:?}, not {:?}",
            arr.shape()
        )));
    }
    let ro = arr
        .try_readonly()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    into.clear();
    into.extend_from_slice(ro.as_slice().expect("contiguous"));
    Ok(())
}

/// One of the VectorEnv's own output arrays (`name`), still of element type `T`: the caller keeps
/// them and may have changed their dtype in place since (a `TypeError` naming it then).
pub(super) fn own_array<'py, T: numpy::Element>(
    array: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, numpy::PyArrayDyn<T>>> {
    if let Ok(a) = array.cast::<numpy::PyArrayDyn<T>>() {
        return Ok(a.clone());
    }
    let want = T::get_dtype(array.py()).str()?.to_string();
    let now = array.getattr("dtype")?.str()?.to_string();
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "the VectorEnv's {name} array must stay {want}, its dtype is now {now}"
    )))
}

/// Write access to the VectorEnv's output array `name`, or an error naming it (made read-only, or
/// borrowed elsewhere).
pub(super) fn writable<'py, T: numpy::Element>(
    array: &Bound<'py, numpy::PyArrayDyn<T>>,
    name: &str,
) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
    array
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("the VectorEnv's {name} array: {e}")))
}

/// An output array as a slice of the `len` elements it must have, or why not.
pub(super) fn output<'a, T, E>(
    slice: Result<&'a mut [T], E>,
    name: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    sized(slice, |s: &&mut [T]| s.len(), name, len)
}

/// `n` copies of `value`, or `MemoryError` (never an abort) when they do not fit.
pub(super) fn try_vec<T: Clone>(n: usize, value: T) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| PyMemoryError::new_err(format!("VectorEnv({n}): out of memory")))?;
    v.resize(n, value);
    Ok(v)
}

/// A numpy array of zeros through `numpy.zeros`, which raises `MemoryError` when it cannot
/// allocate.
pub(super) fn zeros(py: Python<'_>, shape: &[usize], dtype: &str) -> PyResult<Py<PyAny>> {
    let np = py.import("numpy")?;
    Ok(np
        .getattr("zeros")?
        .call1((shape.to_vec(), np.getattr(dtype)?))?
        .unbind())
}

/// The outputs of one env for `send`, zeroed.
pub(super) fn new_buf(rows: usize, actions: usize) -> EnvBuf {
    EnvBuf {
        obs: vec![0.0; rows * OBS_SIZE],
        mask: vec![0; rows * actions],
        reward: vec![0.0; rows],
        done: false,
    }
}

/// The number of threads a `VectorEnv` steps on by default: the machine's
/// (`std::thread::available_parallelism`), 1 when it cannot be known.
pub(super) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `value` as a whole number from 1 to `max`, else a `ValueError` saying "`name` must be from 1
/// to `shown_max`, got ..." with the value as given.
pub(super) fn count_up_to(
    value: &Bound<'_, PyAny>,
    name: &str,
    max: usize,
    shown_max: &str,
) -> PyResult<usize> {
    let bad = |got: &dyn core::fmt::Display| {
        PyValueError::new_err(format!("{name} must be from 1 to {shown_max}, got {got}"))
    };
    let n = args::int_or::<i128>(value, name, |q| bad(&q))?;
    usize::try_from(n)
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| bad(&n))
}

/// The most threads a `VectorEnv` takes (`num_threads`).
pub const MAX_THREADS: usize = 1024;

/// `env_ids` as env indices: a 1-D sequence or array of ints, each in `0..n` and given once,
/// else a `ValueError` (`TypeError` for what is not integers) naming the value.
pub(super) fn read_env_ids(
    py: Python<'_>,
    ids: &Bound<'_, PyAny>,
    n: usize,
) -> PyResult<Vec<usize>> {
    let np = py.import("numpy")?;
    let arr = np.getattr("asarray")?.call1((ids,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    let size: usize = arr.getattr("size")?.extract()?;
    if ndim != 1 || !(kind == "i" || kind == "u" || size == 0) {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "env_ids must be a 1-D sequence of ints, got {} {}",
            args::type_name(ids),
            args::quote(ids)
        )));
    }
    // Read through numpy as int64 (an unsigned id past 2^63 - 1, which that would wrap, is out of
    // range like any other: its maximum is checked first).
    if kind == "u" && size > 0 && arr.call_method0("max")?.gt(i64::MAX)? {
        let top = arr.call_method0("max")?;
        return Err(PyValueError::new_err(format!(
            "env_ids: {top} out of range 0..{n}"
        )));
    }
    let arr = np
        .getattr("ascontiguousarray")?
        .call1((arr, np.getattr("int64")?))?;
    let arr = arr.cast::<PyArrayDyn<i64>>()?;
    let list = arr.readonly().as_slice().expect("contiguous").to_vec();
    let mut seen = vec![false; n];
    list.iter()
        .enumerate()
        .map(|(k, &e)| {
            let i = usize::try_from(e).ok().filter(|&i| i < n).ok_or_else(|| {
                PyValueError::new_err(format!("env_ids[{k}] = {e} out of range 0..{n}"))
            })?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(PyValueError::new_err(format!(
                    "env_ids[{k}] = {e} is given twice"
                )));
            }
            Ok(i)
        })
        .collect()
}

/// `mask` as `n` bools (a bool array or sequence of `n` entries), else a `ValueError`
/// (`TypeError` for what is not bools) naming it.
pub(super) fn read_mask(py: Python<'_>, mask: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<bool>> {
    let np = py.import("numpy")?;
    let arr = np.getattr("asarray")?.call1((mask,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "b" {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "mask must be {n} bools (one per env), got {} {}",
            args::type_name(mask),
            args::quote(mask)
        )));
    }
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if shape != [n] {
        return Err(PyValueError::new_err(format!(
            "mask must have shape [{n}] (one bool per env), not {shape:?}"
        )));
    }
    arr.call_method0("tolist")?.extract()
}

/// A read-only output array as a slice of the `len` elements it must have, or why not.
pub(super) fn output_ro<'a, T, E>(
    slice: Result<&'a [T], E>,
    name: &str,
    len: usize,
) -> PyResult<&'a [T]> {
    sized(slice, |s: &&[T]| s.len(), name, len)
}

/// `slice` when it has `len` elements (`len_of`), or the error naming the array `name`.
fn sized<S, E>(
    slice: Result<S, E>,
    len_of: impl Fn(&S) -> usize,
    name: &str,
    len: usize,
) -> PyResult<S> {
    match slice {
        Ok(s) if len_of(&s) == len => Ok(s),
        Ok(s) => Err(PyValueError::new_err(format!(
            "the VectorEnv's {name} array was resized: it has {} elements, not {len}",
            len_of(&s)
        ))),
        Err(_) => Err(PyValueError::new_err(format!(
            "the VectorEnv's {name} array is no longer contiguous"
        ))),
    }
}
