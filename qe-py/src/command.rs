//! Commands in record form (`RECORD.md`) as JSON values, both ways, and as Python objects, plus
//! chance outcomes (`{"chance": {"reveal": "US-AGR"}}`) and their stable action ids for OpenSpiel.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};
use qe_core::{ChanceOutcome, Command, CommandError};
use serde_json::Value;

/// A command from its record form, read by qe-core's one command reader
/// ([`Command::from_json`]).
pub fn from_json(v: &Value) -> Result<Command, CommandError> {
    Command::from_json(&v.to_string())
}

/// The record form of a command in a game of `players` seats ([`Command::to_json_for`]).
pub fn to_json(c: &Command, players: u8) -> Value {
    serde_json::from_str(&c.to_json_for(players)).expect("a command's JSON is valid")
}

/// The stable id of the `index`-th pending chance outcome: the permutation index for a deal, the
/// tile index for a reveal, the token number − 1 for a draw.
pub fn chance_id(index: usize, o: ChanceOutcome) -> usize {
    match o {
        ChanceOutcome::Deal(_) => index,
        ChanceOutcome::Reveal(t) => t.index(),
        ChanceOutcome::Draw(t) => t.number() as usize - 1,
        // Outcomes a later qe-core may add: their position.
        _ => index,
    }
}

/// A JSON value (a command or a chance outcome in record form) as Python objects: dicts (in the
/// value's key order), lists, ints, floats, strings, `True`/`False` and `None`.
pub fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            (None, None) => PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|x| to_python(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(members) => {
            let d = PyDict::new(py);
            for (k, x) in members {
                d.set_item(k, to_python(py, x)?)?;
            }
            d.into_any()
        }
    })
}
