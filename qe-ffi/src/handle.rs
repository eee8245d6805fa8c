//! Handles: pooled cells with a magic number, so that freed and foreign handles are detected with
//! defined behaviour. One implementation for every handle type ([`QeGame`](crate::QeGame),
//! [`QeBot`](crate::QeBot)): a type says only what its handles hold and its [`Kind`] (its names,
//! its magic numbers and its pool).
//!
//! A handle points to a small cell that the library never gives back to the allocator: freeing a
//! handle drops what is inside, marks the cell freed and keeps it in its type's pool for the next
//! handle of that type. So reading the magic of a freed handle reads live memory, and a use after
//! free or a double free is reported as `QE_ERR_INVALID_HANDLE` instead of corrupting the heap. A
//! stale handle whose cell has since been reused by a newer handle refers to that newer handle
//! (not detected). Each type has its own magic numbers, so a handle of one type passed as another
//! is reported too.

use std::sync::Mutex;

use crate::status::{Error, QE_ERR_INVALID_HANDLE};

/// What a handle points to: the magic number (live or freed), then what is behind a live handle.
/// `repr(C)`: the magic comes first in the cell of every handle type, so a handle of one type
/// passed as another has its own type's magic read, which is not the other's.
#[repr(C)]
struct Cell<T> {
    magic: u64,
    state: Option<Box<T>>,
}

/// What tells the handles of one type apart, and the pool of its freed cells. Each handle type
/// has one, in a `static`.
pub(crate) struct Kind {
    /// The type's name in error messages (`QeGame`).
    name: &'static str,
    /// The argument's name in the NULL-pointer error (`game`).
    argument: &'static str,
    /// The magic of a live handle of this type.
    live: u64,
    /// The magic of a freed handle of this type.
    freed: u64,
    /// The cells of this type's freed handles, reused by the next allocation (addresses, to be
    /// `Send`).
    pool: Mutex<Vec<usize>>,
}

impl Kind {
    /// A handle type named `name` in errors, passed as the argument `argument`, with the magic
    /// numbers `live` and `freed` (eight ASCII bytes each, distinct from every other type's), and
    /// an empty pool.
    pub(crate) const fn new(
        name: &'static str,
        argument: &'static str,
        live: [u8; 8],
        freed: [u8; 8],
    ) -> Kind {
        Kind {
            name,
            argument,
            live: u64::from_be_bytes(live),
            freed: u64::from_be_bytes(freed),
            pool: Mutex::new(Vec::new()),
        }
    }

    /// The error for a pointer that is not a live handle of this type: `what` it is instead
    /// (`{}` stands for the type's name).
    fn invalid(&self, what: &str) -> Error {
        let what = what.replace("{}", self.name);
        Error::new(QE_ERR_INVALID_HANDLE, format!("invalid handle: {what}"))
    }
}

/// A handle type: an opaque struct that C code only points to. A pointer to it is the address of
/// a cell holding a `State`.
pub(crate) trait Handle {
    /// What a live handle holds.
    type State;
    /// The type's [`Kind`].
    fn kind() -> &'static Kind;
}

/// Moves `state` into a live cell of type `H` (a pooled one if any) and returns the handle.
pub(crate) fn allocate<H: Handle>(state: H::State) -> *mut H {
    let kind = H::kind();
    let cell = Cell {
        magic: kind.live,
        state: Some(Box::new(state)),
    };
    let reused = kind.pool.lock().ok().and_then(|mut p| p.pop());
    match reused {
        Some(addr) => {
            let ptr = addr as *mut Cell<H::State>;
            // SAFETY: pooled addresses come from `Box::into_raw` below, for this type, and are
            // never deallocated; a pooled cell is owned by the pool alone, and holds nothing to
            // drop (its state was taken when it was freed).
            unsafe { ptr.write(cell) };
            ptr.cast()
        }
        None => Box::into_raw(Box::new(cell)).cast(),
    }
}

/// The cell of a live handle of type `H`, or the error that says why `ptr` is not one.
///
/// # Safety
/// As [`get`].
unsafe fn live<H: Handle>(ptr: *const H) -> Result<*mut Cell<H::State>, Error> {
    let kind = H::kind();
    if ptr.is_null() {
        return Err(Error::null(kind.argument));
    }
    let cell = ptr.cast::<Cell<H::State>>().cast_mut();
    if !cell.is_aligned() {
        return Err(kind.invalid("misaligned pointer, not a {}"));
    }
    // SAFETY: aligned, and the caller passes a handle or readable memory as large as one; cells
    // are never deallocated, so for any pointer this library handed out the read is of live
    // memory.
    let magic = unsafe { std::ptr::read_volatile(&raw const (*cell).magic) };
    if magic == kind.live {
        Ok(cell)
    } else if magic == kind.freed {
        Err(kind.invalid("this {} was already freed"))
    } else {
        Err(kind.invalid("not a {} created by this library"))
    }
}

/// What is behind a handle, for reading.
///
/// # Safety
/// `ptr` must be NULL, a handle from this library, or point to readable memory at least as large
/// and aligned as a handle cell; no other thread may use the handle meanwhile.
pub(crate) unsafe fn get<'a, H: Handle>(ptr: *const H) -> Result<&'a H::State, Error> {
    // SAFETY: the caller's contract; `live` saw the live magic.
    unsafe { (*live(ptr)?).state.as_deref() }.ok_or_else(empty::<H>)
}

/// What is behind a handle, for writing.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn get_mut<'a, H: Handle>(ptr: *mut H) -> Result<&'a mut H::State, Error> {
    // SAFETY: the caller's contract (exclusive use); `live` saw the live magic.
    unsafe { (*live(ptr)?).state.as_deref_mut() }.ok_or_else(empty::<H>)
}

/// The error for a live cell with nothing inside (never made by this library).
fn empty<H: Handle>() -> Error {
    H::kind().invalid("empty {}")
}

/// Frees what is behind a live handle and returns its cell to the pool.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn release<H: Handle>(ptr: *mut H) -> Result<(), Error> {
    let kind = H::kind();
    // SAFETY: the caller's contract (exclusive use); `live` saw the live magic.
    let state = unsafe {
        let cell = live(ptr)?;
        (*cell).magic = kind.freed;
        (*cell).state.take()
    };
    drop(state);
    if let Ok(mut pool) = kind.pool.lock() {
        pool.push(ptr as usize);
    }
    Ok(())
}
