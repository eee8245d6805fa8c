//! Python lists of small ints (seats, actions, turns), built directly from ints made once.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;
use qe_core::{SeatSet, MAX_SEATS};

/// The Python list `[lo, ..., hi - 1]` without `skip` (ints below 256): a slice of a list of the
/// ints 0..=255 made once and never handed out, so the items are copied by the interpreter's own
/// slice rather than set one call at a time (`int_range_list` in PERF.md).
// Inlined into `Game.legal_actions`, the hot path of L1 (PERF.md), from this other module.
#[inline]
pub(crate) fn int_range_list(
    py: Python<'_>,
    lo: usize,
    hi: usize,
    skip: Option<usize>,
) -> PyResult<Bound<'_, PyList>> {
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

/// A set of seats as the list of its seats, lowest first.
pub(crate) fn seat_list(py: Python<'_>, set: SeatSet) -> PyResult<Bound<'_, PyList>> {
    let mut seats = [0u8; MAX_SEATS];
    let mut n = 0;
    for s in set.iter() {
        seats[n] = s.0;
        n += 1;
    }
    int_list(py, &seats[..n])
}
