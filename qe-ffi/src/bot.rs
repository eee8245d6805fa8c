//! The `QeBot` handle: one of qe-core's bots (`qe_core::bots::NAMES`), kept from decision to
//! decision, in a pooled cell with a magic number like `QeGame` (so freed and foreign handles are
//! detected with defined behaviour).

use std::sync::Mutex;

use qe_core::bots::{by_name_with, BoxedBot};
use qe_core::Manifest;

use crate::status::{Error, QE_ERR_INVALID_HANDLE};

const MAGIC_LIVE: u64 = 0x5145_5f42_4f54_2121; // "QE_BOT!!"
const MAGIC_FREED: u64 = 0x5145_5f42_4f54_5846; // "QE_BOTXF"

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
    magic: u64,
    state: Option<Box<BotState>>,
}

/// What a live bot handle holds.
pub(crate) struct BotState {
    /// The name in `qe_core::bots::NAMES`.
    pub name: String,
    pub seed: u64,
    /// The manifest the bot was built for (the game's, from its first decision on).
    pub manifest: Manifest,
    pub bot: BoxedBot,
}

impl BotState {
    pub fn new(name: &str, seed: u64) -> Option<BotState> {
        let manifest = Manifest::default();
        Some(BotState {
            name: name.to_owned(),
            seed,
            manifest,
            bot: by_name_with(name, seed, manifest)?,
        })
    }

    /// Rebuilds the bot for a game played with another manifest (the values are public, R-VIS-1).
    pub fn use_manifest(&mut self, manifest: Manifest) {
        if manifest != self.manifest {
            if let Some(bot) = by_name_with(&self.name, self.seed, manifest) {
                self.bot = bot;
                self.manifest = manifest;
            }
        }
    }
}

/// Cells of freed bots, reused by the next allocation (addresses, to be `Send`).
static POOL: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// Moves `state` into a live cell and returns the handle.
pub(crate) fn allocate(state: BotState) -> *mut QeBot {
    let reused = POOL.lock().ok().and_then(|mut p| p.pop());
    match reused {
        Some(addr) => {
            let cell = addr as *mut QeBot;
            // SAFETY: pooled addresses come from `Box::into_raw` below and are never deallocated;
            // a pooled cell is owned by the pool alone.
            unsafe {
                (*cell).state = Some(Box::new(state));
                (*cell).magic = MAGIC_LIVE;
            }
            cell
        }
        None => Box::into_raw(Box::new(QeBot {
            magic: MAGIC_LIVE,
            state: Some(Box::new(state)),
        })),
    }
}

fn check(ptr: *const QeBot) -> Result<(), Error> {
    if ptr.is_null() {
        return Err(Error::null("bot"));
    }
    if (ptr as usize) % std::mem::align_of::<QeBot>() != 0 {
        return Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            "invalid handle: misaligned pointer, not a QeBot",
        ));
    }
    // SAFETY: as for `QeGame` handles: cells are never deallocated, so for any pointer this
    // library handed out the read is of live memory.
    let magic = unsafe { std::ptr::read_volatile(std::ptr::addr_of!((*ptr).magic)) };
    match magic {
        MAGIC_LIVE => Ok(()),
        MAGIC_FREED => Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            "invalid handle: this QeBot was already freed",
        )),
        _ => Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            "invalid handle: not a QeBot created by this library",
        )),
    }
}

/// The state behind a bot handle, for use.
///
/// # Safety
/// `ptr` must be NULL, a handle from this library, or point to readable memory at least as large
/// and aligned as a `QeBot`; no other thread may use the handle meanwhile.
pub(crate) unsafe fn get_mut<'a>(ptr: *mut QeBot) -> Result<&'a mut BotState, Error> {
    check(ptr)?;
    // SAFETY: `check` saw the live magic; the caller guarantees exclusive use.
    unsafe { (*ptr).state.as_deref_mut() }
        .ok_or_else(|| Error::new(QE_ERR_INVALID_HANDLE, "invalid handle: empty QeBot"))
}

/// Frees the bot behind a live handle and returns its cell to the pool.
///
/// # Safety
/// As [`get_mut`].
pub(crate) unsafe fn release(ptr: *mut QeBot) -> Result<(), Error> {
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
