//! The action space's and the observation's types: `BidLadder` (the amount of each bid action),
//! `BidRange` (the bids a seat may make now) and the observation's named blocks.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use qe_core::encoding::{BidLadder, BLOCKS};

use crate::args;
use crate::errors::ladder_error;

/// The most actions of any action space: every rung, the 3 piles and the 16 peeks.
pub(crate) const MAX_ACTIONS: usize =
    qe_core::encoding::MAX_RUNGS + 3 + qe_core::encoding::MAX_TURNS;

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
pub struct PyBidRange(pub(crate) qe_core::BidRange);

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

/// The observation blocks: a list of `(name, offset, length)`.
#[pyfunction]
pub(crate) fn observation_blocks() -> Vec<(&'static str, usize, usize)> {
    BLOCKS.iter().map(|b| (b.name, b.offset, b.len)).collect()
}
