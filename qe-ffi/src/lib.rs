//! # qe-ffi — the C ABI of the QE rules engine
//!
//! A thin C ABI over [`qe_core`]: every rule stays in `qe-core`. The header `include/qe.h` is
//! generated from this crate by cbindgen (see `cbindgen.toml`); the doc comments below are its
//! documentation.
//!
//! ## Conventions
//!
//! - Every function returns a [`QeStatus`]: `QE_OK` (0), a rules error (100–199, the numbers of
//!   `CommandError::code()`), a set-up or record error (200–299, `SetupError::code()`), or an ABI
//!   error (900–999). Results come back through out-pointers, written only on success.
//! - On failure, the error's text (with its rule ID, for example
//!   `"R-AUC-3: bid equals the auctioneer's bid (5)"`) is kept as this thread's *last error*; read it
//!   with [`qe_last_error_message`], its code with [`qe_last_error_status`] and its rule ID alone
//!   with [`qe_last_error_rule`]. It stays until the next failing call on the same thread.
//! - Every pointer argument is checked: a NULL where a value is required gives
//!   `QE_ERR_NULL_POINTER`. No panic crosses the boundary: a panic inside the library is caught
//!   and reported as `QE_ERR_PANIC`.
//! - Strings are UTF-8 and NUL-terminated. A `char *` the library returns is owned by the caller and
//!   must be freed with [`qe_string_free`] (not `free`).
//! - Seats are 0-based. A *viewer* is a seat or `QE_SPECTATOR` (public information only). A seat or
//!   viewer the game does not have is `QE_ERR_SEAT_OUT_OF_RANGE` (R-AUC-12) wherever it is passed.
//!
//! ## Handles
//!
//! There are two handle types: [`QeGame`], a game plus its history, and [`QeBot`], a bot that
//! decides for one seat. Neither is synchronized (use one from one thread at a time; different
//! handles are independent). Freed handles are detected: the library keeps handle cells in a pool
//! and never returns them to the allocator, so using a freed handle, or freeing it twice, gives
//! `QE_ERR_INVALID_HANDLE`, and so does a handle of one type passed as the other. Not detected: a
//! stale handle whose cell has been reused by a later handle of its type (it refers to that one),
//! and pointers the library never returned (detected only when they point to readable memory at
//! least as large as a handle that does not hold the handle magic).
#![deny(missing_docs)]
#![allow(unsafe_code)]

// The entry points, by domain. cbindgen writes the functions of `include/qe.h` in the order it
// reads them, module by module in the order declared here (one comment each, so that rustfmt
// keeps it): the header's order.

// The version, the last error, freeing strings, the names of components.
mod strings;
// Creating, copying and freeing games; applying commands.
mod games;
// Reading a game: state, legal moves, views, events, outcome, record.
mod views;
// External chance: the outcomes of a pending chance event, applying one.
mod chance;
// Bots.
mod bots;

// What the entry points share.
mod entry;
mod handle;
mod records;
mod status;
mod types;

pub use bots::*;
pub use chance::*;
pub use entry::__test_panic_boundary;
pub use games::*;
pub use status::*;
pub use strings::*;
pub use types::*;
pub use views::*;
