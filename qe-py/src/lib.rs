//! `qe._qe`: the PyO3 extension module behind the `qe` Python package.
//!
//! Thin over `qe-core`: `Game` (`game::PyGame`) wraps a `Match` (a game with its history), the
//! observation and action masks come from [`qe_core::encoding`], and `VectorEnv` steps many games
//! in one call with the GIL released. The Python facade `qe.Game` (`python/qe/__init__.py`)
//! subclasses this `Game`, so every call of a game (`is_over`, `to_act`, `legal_actions`,
//! `step`, `view`, `events`...) reaches these methods directly; views, events, outcomes, legal
//! moves and spend bounds come back as the facade's own dataclasses, built here by `views`. `Bot`
//! is a bot of `qe_core::bots` by name. Errors are `qe.QeError(ValueError)` subclasses carrying the
//! rule ID and the stable numeric code of `CommandError::code()` / `SetupError::code()`
//! (`errors`); integer arguments are read through the `args` module, whose errors name the
//! argument and quote the value given.
//!
//! The modules by domain: `game` (the `Game` class and its commands), `views` (views, events
//! and outcomes as dataclasses), `records` (records and commands as JSON text, replays),
//! `setup` (rules and set-up from the caller's arguments), `encoding` (`BidLadder`,
//! `BidRange`, observation blocks), `vector` (`VectorEnv`), `bots` (`Bot`); this file
//! registers them as the module `qe._qe`.
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
mod encoding;
mod errors;
mod game;
mod lists;
mod pool;
mod records;
mod setup;
mod vector;
mod views;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use qe_core::encoding::{BOUNDS_SIZE, HISTORY_SIZE, INFO_STATE_SIZE, OBS_SIZE};

use errors::{IllegalCommand, QeError, SetupError_};

/// The module `qe._qe`: its constants, exceptions, classes and functions.
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
    m.add_class::<encoding::PyBidLadder>()?;
    m.add_class::<encoding::PyBidRange>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<bots::PyBot>()?;
    m.add_function(wrap_pyfunction!(setup::expansions_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::int_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::seat_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::quote_arg, m)?)?;
    m.add_function(wrap_pyfunction!(args::seed_arg, m)?)?;
    m.add_function(wrap_pyfunction!(records::record_text, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::bid_range, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(records::replay_json, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::observation_blocks, m)?)?;
    Ok(())
}
