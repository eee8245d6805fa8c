//! The `QeBot` handle: one of qe-core's bots (`qe_core::bots::NAMES`), kept from decision to
//! decision, in a pooled handle cell like `QeGame` (see `handle`).

use std::sync::Mutex;

use qe_core::bots::NamedBot;

use crate::handle::{Cell, Handle};

/// A bot that decides for a seat of a game: `random`, `miser`, `value`, or the search bot at a
/// level (`search` easy, medium or hard), deterministic for its seed.
///
/// Create one with `qe_bot_new`, ask it with `qe_bot_decide`, free it with `qe_bot_free`. Opaque:
/// use it only through pointers. It keeps its own state between decisions (its random generator),
/// so one bot should play one seat of one game, asked at every decision of that seat.
///
/// Thread safety, lifetime and invalid handles: as for `QeGame` (not synchronized; one thread at a
/// time; a freed handle, a double free, or a `QeGame` passed as a `QeBot` gives
/// `QE_ERR_INVALID_HANDLE`).
pub struct QeBot {
    cell: Cell<NamedBot>,
}

/// Cells of freed bots.
static POOL: Mutex<Vec<usize>> = Mutex::new(Vec::new());

impl Handle for QeBot {
    type State = NamedBot;
    const NAME: &'static str = "QeBot";
    const ARGUMENT: &'static str = "bot";
    const MAGIC_LIVE: u64 = 0x5145_5f42_4f54_2121; // "QE_BOT!!"
    const MAGIC_FREED: u64 = 0x5145_5f42_4f54_5846; // "QE_BOTXF"

    fn pool() -> &'static Mutex<Vec<usize>> {
        &POOL
    }

    fn wrap(cell: Cell<NamedBot>) -> QeBot {
        QeBot { cell }
    }

    unsafe fn cell(ptr: *mut QeBot) -> *mut Cell<NamedBot> {
        // SAFETY: the caller's contract (aligned, as large as a `QeBot`); no read.
        unsafe { &raw mut (*ptr).cell }
    }
}
