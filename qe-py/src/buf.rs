//! Cheap access to caller-provided numpy buffers and action sequences on the hot paths.
//!
//! rust-numpy's `PyReadwriteArray` tracks every borrow in a process-wide table so that two Rust
//! borrows of one array cannot overlap. That bookkeeping (and the argument extraction around it)
//! costs about a microsecond per call, more than writing an acting seat's mask. The functions here
//! check what the writes need themselves (dtype, exact shape, C-contiguity, alignment, the
//! writeable flag, and that two output buffers do not overlap) and then hand out a slice over the
//! array's data. An exact `numpy.ndarray` whose dtype object is numpy's own `float32` or `int8`
//! (the usual case) is recognised by two pointer comparisons, without calling into numpy.

use std::any::TypeId;

use numpy::npyffi::{flags, NpyTypes, PyArrayObject, PY_ARRAY_API};
use numpy::{Element, PyArray1, PyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};
use qe_core::{PerSeat, Seat, SeatSet};

use crate::args;

/// A checked numpy buffer: `len` elements of `T` from `data`, contiguous, aligned and writeable.
pub(crate) struct Buffer<T> {
    data: *mut T,
    len: usize,
}

/// The objects an output buffer is usually recognised by: the `numpy.ndarray` type and numpy's
/// `float32` and `int8` dtypes. The dtypes are kept alive for good, so their addresses stay theirs.
struct Known {
    ndarray: usize,
    f32: usize,
    i8: usize,
}

fn known(py: Python<'_>) -> &'static Known {
    static KNOWN: PyOnceLock<Known> = PyOnceLock::new();
    KNOWN.get_or_init(py, || {
        let keep = |d: Bound<'_, numpy::PyArrayDescr>| d.into_ptr() as usize; // never released
        Known {
            // SAFETY: the API table is numpy's, loaded under the GIL.
            ndarray: unsafe { PY_ARRAY_API.get_type_object(py, NpyTypes::PyArray_Type) } as usize,
            f32: keep(f32::get_dtype(py)),
            i8: keep(i8::get_dtype(py)),
        }
    })
}

impl<T: Element + 'static> Buffer<T> {
    /// Checks that `arr` is a numpy array of `T` with exactly `shape`, C-contiguous, aligned and
    /// writeable. Raises `TypeError` for something that is not such an array and `ValueError`
    /// for a wrong shape or a read-only or non-contiguous array; `name` names the argument.
    pub(crate) fn check(arr: &Bound<'_, PyAny>, shape: &[usize], name: &str) -> PyResult<Self> {
        let k = known(arr.py());
        let want = if TypeId::of::<T>() == TypeId::of::<f32>() {
            k.f32
        } else if TypeId::of::<T>() == TypeId::of::<i8>() {
            k.i8
        } else {
            0
        };
        let ptr = arr.as_ptr();
        // SAFETY: `ptr` is a live object; its header (and, for an ndarray, the array header) is
        // readable under the GIL.
        let usual = want != 0
            && unsafe {
                pyo3::ffi::Py_TYPE(ptr) as usize == k.ndarray
                    && (*ptr.cast::<PyArrayObject>()).descr as usize == want
            };
        if !usual {
            // Anything else (a subclass, another dtype object, not an array) the long way:
            // `TypeError` unless it is an array of `T`.
            if arr.cast::<PyArrayDyn<T>>().is_err() {
                let want = T::get_dtype(arr.py());
                let got = match arr.getattr("dtype") {
                    Ok(d) if arr.cast::<numpy::PyUntypedArray>().is_ok() => d.str()?.to_string(),
                    _ => format!("{} {}", args::type_name(arr), args::quote(arr)),
                };
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "{name} must be a numpy array of {}, got {got}",
                    want.str()?
                )));
            }
        }
        // SAFETY: `arr` is a live numpy array (checked above), so its header is readable.
        let (dims, flags, data) = unsafe {
            let raw = &*ptr.cast::<PyArrayObject>();
            let dims: &[numpy::npyffi::npy_intp] = if raw.nd == 0 {
                &[]
            } else {
                std::slice::from_raw_parts(raw.dimensions, raw.nd as usize)
            };
            (dims, raw.flags, raw.data)
        };
        let same =
            dims.len() == shape.len() && dims.iter().zip(shape).all(|(&d, &s)| d as usize == s);
        if !same {
            return Err(PyValueError::new_err(format!(
                "{name} must have shape {shape:?}, not {:?}",
                dims.iter().map(|&d| d as usize).collect::<Vec<_>>()
            )));
        }
        let need =
            flags::NPY_ARRAY_C_CONTIGUOUS | flags::NPY_ARRAY_ALIGNED | flags::NPY_ARRAY_WRITEABLE;
        if flags & need != need {
            let lacks: Vec<&str> = [
                (flags::NPY_ARRAY_WRITEABLE, "read-only"),
                (flags::NPY_ARRAY_ALIGNED, "unaligned"),
                (flags::NPY_ARRAY_C_CONTIGUOUS, "not C-contiguous"),
            ]
            .into_iter()
            .filter(|&(flag, _)| flags & flag == 0)
            .map(|(_, what)| what)
            .collect();
            return Err(PyValueError::new_err(format!(
                "{name} must be a writeable, aligned, C-contiguous array, got one that is {}",
                lacks.join(" and ")
            )));
        }
        Ok(Buffer {
            data: data.cast::<T>(),
            len: shape.iter().product(),
        })
    }

    /// Whether the two buffers share no memory (they may be views of one array).
    pub(crate) fn disjoint<U>(&self, other: &Buffer<U>) -> bool {
        let a0 = self.data as usize;
        let a1 = a0 + self.len * std::mem::size_of::<T>();
        let b0 = other.data as usize;
        let b1 = b0 + other.len * std::mem::size_of::<U>();
        a1 <= b0 || b1 <= a0
    }

    /// The buffer as a slice.
    ///
    /// # Safety
    ///
    /// The array must stay alive and unresized while the slice lives: the caller keeps the GIL
    /// and runs no Python code meanwhile. No other slice over the same memory may live at the
    /// same time (see [`Buffer::disjoint`]).
    pub(crate) unsafe fn slice<'a>(self) -> &'a mut [T] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: `len` elements of `T` (dtype and shape checked), contiguous from `data` and
        // aligned for `T` (flags checked), writeable; liveness and exclusivity are the caller's.
        unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
    }
}

/// One entry per seat read from `actions`: a list, a tuple, a 1-D int64 numpy array, or any other
/// sequence of ints. Only the entries of the seats in `wanted` are read (`None` if the sequence is
/// too short for that seat); entries of other seats may be anything, but there are at most `seats`
/// entries. Errors name `actions` (and the entry: `actions[2] must be an int, got str 'x'`); an
/// int past 64 bits is `out_of_range(value as quoted, seat index)`, the caller's own range error.
pub(crate) fn seat_ints(
    actions: &Bound<'_, PyAny>,
    seats: usize,
    wanted: SeatSet,
    out_of_range: impl Fn(String, usize) -> PyErr,
) -> PyResult<PerSeat<Option<i64>>> {
    let entry = |item: &Bound<'_, PyAny>, name: &str, i: usize| {
        args::entry_or::<i64>(item, name, i, |q| out_of_range(q, i))
    };
    // Lists and tuples first: they are not arrays, and telling so costs a call into numpy.
    if actions.is_exact_instance_of::<PyList>() || actions.is_exact_instance_of::<PyTuple>() {
        return per_seat(actions, seats, wanted, "actions", entry);
    }
    let Ok(arr) = actions.cast::<PyArray1<i64>>() else {
        return per_seat(actions, seats, wanted, "actions", entry);
    };
    let mut out = PerSeat::splat(None);
    let n = arr.len();
    if n > seats {
        return Err(too_many("actions", n, seats));
    }
    // SAFETY: a live 1-D numpy array (checked by the cast): its header is readable.
    let (data, stride) = unsafe {
        let raw = &*arr.as_array_ptr();
        (raw.data, *raw.strides)
    };
    for s in wanted.iter() {
        let i = s.index();
        if i < n {
            // SAFETY: `i < len`, so `data + i * stride` lies inside the array and holds an i64
            // (dtype checked by the cast); the read needs no alignment and happens under the GIL.
            out[s] = Some(unsafe {
                data.offset(i as isize * stride)
                    .cast::<i64>()
                    .read_unaligned()
            });
        }
    }
    Ok(out)
}

/// Like [`seat_ints`] for any element type, without the numpy fast path: entry `i` of `values`
/// (named `name` in errors) read by `extract(item, name, i)`.
pub(crate) fn per_seat<T: Copy>(
    values: &Bound<'_, PyAny>,
    seats: usize,
    wanted: SeatSet,
    name: &str,
    extract: impl Fn(&Bound<'_, PyAny>, &str, usize) -> PyResult<T>,
) -> PyResult<PerSeat<Option<T>>> {
    let mut out = PerSeat::splat(None);
    let entry = |s: Seat, item: PyResult<Bound<'_, PyAny>>| -> PyResult<T> {
        extract(&item?, name, s.index())
    };
    if let Ok(list) = values.cast::<PyList>() {
        let n = list.len();
        if n > seats {
            return Err(too_many(name, n, seats));
        }
        for s in wanted.iter().filter(|s| s.index() < n) {
            out[s] = Some(entry(s, list.get_item(s.index()))?);
        }
    } else if let Ok(tuple) = values.cast::<PyTuple>() {
        let n = tuple.len();
        if n > seats {
            return Err(too_many(name, n, seats));
        }
        for s in wanted.iter().filter(|s| s.index() < n) {
            out[s] = Some(entry(s, tuple.get_item(s.index()))?);
        }
    } else {
        let not_sequence = || {
            PyTypeError::new_err(format!(
                "{name} must be a sequence with one entry per seat (a list, a tuple or a 1-D \
                 numpy array), got {} {}",
                args::type_name(values),
                args::quote(values)
            ))
        };
        // Text, and a mapping (keyed by agent names, say, or read by seat only by accident).
        if args::is_text(values) || args::is_mapping(values) {
            return Err(not_sequence());
        }
        let n = values
            .len()
            .map_err(|e| args::type_error_or(values.py(), e, not_sequence))?;
        if n > seats {
            return Err(too_many(name, n, seats));
        }
        for s in wanted.iter().filter(|s| s.index() < n) {
            out[s] = Some(entry(s, values.get_item(s.index()))?);
        }
    }
    Ok(out)
}

/// The error of a per-seat sequence `name` with `n` entries, more than the `seats` of the game.
fn too_many(name: &str, n: usize, seats: usize) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!(
        "{name} has {n} entries, one per seat of this {seats}-player game at most"
    ))
}

/// Sets `row` to +0.0 everywhere, skipping the write when it already is (rows of seats that did
/// not act are usually zero already; its measured effect is in PERF.md).
pub(crate) fn zero_row(row: &mut [f32]) {
    // Chunked so that each OR-reduction vectorises and a non-zero row stops early.
    let zero = row
        .chunks(64)
        .all(|c| c.iter().fold(0u32, |acc, x| acc | x.to_bits()) == 0);
    if !zero {
        row.fill(0.0);
    }
}
