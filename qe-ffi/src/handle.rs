//! The `QeGame` handle: a pooled cell with a magic number, so that freed and foreign handles are
//! detected with defined behaviour.
//!
//! A handle points to a small cell that the library never gives back to the allocator: `qe_game_free`
//! drops the game inside, marks the cell freed and keeps it in a pool for the next `qe_game_new`.
//! So reading the magic of a freed handle reads live memory, and a use after free or a double free
//! is reported as `QE_ERR_INVALID_HANDLE` instead of corrupting the heap. A stale handle whose cell
//! has since been reused by a new game refers to that new game (not detected).

use std::sync::Mutex;

use qe_core::{Match, Seat, MAX_SEATS};

use crate::status::{Error, QE_ERR_INVALID_HANDLE};

const MAGIC_LIVE: u64 = 0x5145_5f47_414d_4521; // "QE_GAME!"
const MAGIC_FREED: u64 = 0x5145_5f46_5245_4544; // "QE_FREED"

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
    magic: u64,
    state: Option<Box<GameState>>,
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

/// Cells of freed games, reused by the next allocation (addresses, to be `Send`).
static POOL: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// Moves `state` into a live cell and returns the handle.
pub(crate) fn allocate(state: GameState) -> *mut QeGame {
    let reused = POOL.lock().ok().and_then(|mut p| p.pop());
    match reused {
        Some(addr) => {
            let cell = addr as *mut QeGame;
            // SAFETY: pooled addresses come from `Box::into_raw` below and are never deallocated;
            // a pooled cell is owned by the pool alone.
            unsafe {
                (*cell).state = Some(Box::new(state));
                (*cell).magic = MAGIC_LIVE;
            }
            cell
        }
        None => Box::into_raw(Box::new(QeGame {
            magic: MAGIC_LIVE,
            state: Some(Box::new(state)),
        })),
    }
}

fn check(ptr: *const QeGame) -> Result<(), Error> {
    if ptr.is_null() {
        return Err(Error::null("game"));
    }
    if (ptr as usize) % std::mem::align_of::<QeGame>() != 0 {
        return Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            "invalid handle: misaligned pointer, not a QeGame",
        ));
    }
    // SAFETY: the caller passes a handle; cells are never deallocated, so for any pointer this
    // library handed out the read is of live memory (see the module docs for foreign pointers).
    let magic = unsafe { std::ptr::read_volatile(std::ptr::addr_of!((*ptr).magic)) };
    match magic {
        MAGIC_LIVE => Ok(()),
        MAGIC_FREED => Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            "invalid handle: this QeGame was already freed",
        )),
        _ => Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            "invalid handle: not a QeGame created by this library",
        )),
    }
}

/// The state behind a handle, for reading.
///
/// # Safety
/// `ptr` must be NULL, a handle from this library, or point to readable memory at least as large
/// and aligned as a `QeGame`; no other thread may use the handle meanwhile.
pub(crate) unsafe fn get<'a>(ptr: *const QeGame) -> Result<&'a GameState, Error> {
    check(ptr)?;
    // SAFETY: `check` saw the live magic.
    unsafe { (*ptr).state.as_deref() }
        .ok_or_else(|| Error::new(QE_ERR_INVALID_HANDLE, "invalid handle: empty QeGame"))
}

/// The state behind a handle, for writing.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn get_mut<'a>(ptr: *mut QeGame) -> Result<&'a mut GameState, Error> {
    check(ptr)?;
    // SAFETY: `check` saw the live magic; the caller guarantees exclusive use.
    unsafe { (*ptr).state.as_deref_mut() }
        .ok_or_else(|| Error::new(QE_ERR_INVALID_HANDLE, "invalid handle: empty QeGame"))
}

/// Frees the game behind a live handle and returns its cell to the pool.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn release(ptr: *mut QeGame) -> Result<(), Error> {
    check(ptr)?;
    // SAFETY: `check` saw the live magic; the caller guarantees exclusive use.
    let state = unsafe {
        (*ptr).magic = MAGIC_FREED;
        (*ptr).state.take()
    };
    drop(state);
    if let Ok(mut pool) = POOL.lock() {
        pool.push(ptr as usize);
    }
    Ok(())
}

/// The index of the event cursor of `viewer` (a seat, or `QE_SPECTATOR`).
pub(crate) fn cursor_index(viewer: Option<Seat>) -> usize {
    viewer.map_or(MAX_SEATS, Seat::index)
}
