//! The set-up of a new game from the caller's arguments: the player count, the rules with their
//! expansions, a random seed when none is given, and the reward by name.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qe_core::reward::Reward;
use qe_core::{Expansion, Expansions, Rules, SetupError};

use crate::errors::setup_error;

/// The player count `players` as the rules take it: a count past 255 is the same `SetupError`
/// (R-SET-1) as any other count that is not 3 to 5.
pub(crate) fn players_of(py: Python<'_>, players: i128) -> PyResult<u8> {
    u8::try_from(players).map_err(|_| setup_error(py, &SetupError::Players { players }))
}

/// The rules of a new game of `players` seats with the set `expansions` ([`expansions_of`] reads
/// the caller's keywords), a set-up error as `qe.SetupError`.
pub(crate) fn rules(py: Python<'_>, players: u8, expansions: Expansions) -> PyResult<Rules> {
    Rules::with_expansions(players, expansions).map_err(|e| setup_error(py, &e))
}

/// The expansions in play from the caller's `expansions=` (names, as records give them) and the
/// deprecated `commodities=` flag, which, when given, warns (`DeprecationWarning` at `stacklevel`,
/// 1 being the caller of the function that reads it) and adds or leaves out Commodities. The
/// expansion set is the one switch; the flag is kept, keyword-only, so code written for it runs.
pub(crate) fn expansions_of(
    py: Python<'_>,
    expansions: Option<&Bound<'_, PyAny>>,
    commodities: Option<&Bound<'_, PyAny>>,
    stacklevel: i32,
) -> PyResult<Expansions> {
    let named = crate::args::names(expansions, "expansions")?.unwrap_or_default();
    let set = Expansions::from_names(named.iter().map(String::as_str))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let Some(flag) = commodities.filter(|v| !v.is_none()) else {
        return Ok(set);
    };
    let on = crate::args::flag(flag).map_err(|e| {
        pyo3::exceptions::PyTypeError::new_err(format!("argument 'commodities': {}", e.value(py)))
    })?;
    let message = format!(
        "commodities={} is deprecated: use expansions={}",
        if on { "True" } else { "False" },
        if on { "(\"commodities\",)" } else { "()" }
    );
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
        &std::ffi::CString::new(message).expect("no NUL"),
        stacklevel,
    )?;
    Ok(set.set(
        Expansion::Commodities,
        on || set.contains(Expansion::Commodities),
    ))
}

/// `qe._qe._expansions(expansions, commodities, stacklevel)`: [`expansions_of`] for the Python
/// adapters, which take the same two keywords: the names of the set.
#[pyfunction]
#[pyo3(name = "_expansions", signature = (expansions=None, commodities=None, stacklevel=2))]
pub(crate) fn expansions_arg(
    py: Python<'_>,
    expansions: Option<&Bound<'_, PyAny>>,
    commodities: Option<&Bound<'_, PyAny>>,
    stacklevel: i32,
) -> PyResult<Vec<&'static str>> {
    Ok(expansions_of(py, expansions, commodities, stacklevel)?
        .names()
        .collect())
}

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
