//! The `QeGame` handle: a game with its history, in a pooled handle cell (see `handle`).

use qe_core::{Match, Seat, MAX_SEATS};

use crate::handle::{Handle, Kind};

/// The number of event cursors: one per seat, and one for the spectator.
pub(crate) const CURSORS: usize = MAX_SEATS + 1;

/// A game of QE with its history: the command log (for the record), every event, and one "read so
/// far" cursor per seat and for the spectator.
///
/// Create one with `qe_game_new`, `qe_game_from_record` or `qe_game_clone`; free it with
/// `qe_game_free`. Opaque: use it only through pointers.
///
/// Thread safety: a `QeGame` is not synchronized. It may be used from any thread, and moved between
/// threads, but not used by two threads at the same time (guard it with your own lock). Different
/// games are independent and may be used in parallel.
///
/// Lifetime: valid from its creation until `qe_game_free`. Every pointer a function writes into a
/// caller's struct is a copy; nothing returned borrows from the game, so freeing it invalidates
/// nothing else.
///
/// Invalid handles: using a freed handle, freeing it twice, or passing a misaligned pointer or
/// readable memory that is not a handle gives `QE_ERR_INVALID_HANDLE` (handle cells are pooled,
/// never returned to the allocator). Not detected: a stale handle whose cell a newer game reuses
/// (it refers to that game), and pointers to unmapped memory.
pub struct QeGame {
    /// Never made: a `*mut QeGame` is the address of a handle cell (see `handle`).
    _cell: [u8; 0],
}

/// What a live handle holds.
pub(crate) struct GameState {
    pub m: Match,
    /// Per seat (and, last, the spectator): how many events of `m.events()` were already read.
    pub cursors: [usize; CURSORS],
}

impl GameState {
    pub fn new(m: Match) -> GameState {
        GameState {
            m,
            cursors: [0; CURSORS],
        }
    }
}

/// The kind of game handles.
static GAMES: Kind = Kind::new("QeGame", "game", *b"QE_GAME!", *b"QE_FREED");

impl Handle for QeGame {
    type State = GameState;
    fn kind() -> &'static Kind {
        &GAMES
    }
}

/// The index of the event cursor of `viewer` (a seat, or `QE_SPECTATOR`).
pub(crate) fn cursor_index(viewer: Option<Seat>) -> usize {
    viewer.map_or(MAX_SEATS, Seat::index)
}
