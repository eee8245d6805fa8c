//! The `QeBot` handle: one of qe-core's bots (`qe_core::bots::NAMES`), kept from decision to
//! decision, in a pooled handle cell like `QeGame` (see `handle`).

use qe_core::bots::NamedBot;

use crate::handle::{Handle, Kind};

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
    /// Never made: a `*mut QeBot` is the address of a handle cell (see `handle`).
    _cell: [u8; 0],
}

/// The kind of bot handles.
static BOTS: Kind = Kind::new("QeBot", "bot", *b"QE_BOT!!", *b"QE_BOTXF");

impl Handle for QeBot {
    type State = NamedBot;
    fn kind() -> &'static Kind {
        &BOTS
    }
}
