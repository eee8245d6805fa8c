//! Handles: pooled cells with a magic number, so that freed and foreign handles are detected with
//! defined behaviour. One implementation for every handle type ([`QeGame`](crate::QeGame),
//! [`QeBot`](crate::QeBot)); each type says only its name, its magic numbers and its pool
//! ([`Handle`]).
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

/// What every handle type holds: the magic number (live or freed), then what is behind a live
/// handle.
pub(crate) struct Cell<T> {
    magic: u64,
    state: Option<Box<T>>,
}

/// A handle type: an opaque struct holding one [`Cell`].
pub(crate) trait Handle: Sized {
    /// What a live handle holds.
    type State;
    /// The type's name in error messages (`QeGame`).
    const NAME: &'static str;
    /// The argument's name in the NULL-pointer error (`game`).
    const ARGUMENT: &'static str;
    /// The magic of a live handle of this type.
    const MAGIC_LIVE: u64;
    /// The magic of a freed handle of this type.
    const MAGIC_FREED: u64;
    /// The cells of this type's freed handles, reused by the next allocation (addresses, to be
    /// `Send`).
    fn pool() -> &'static Mutex<Vec<usize>>;
    /// A new handle around `cell`.
    fn wrap(cell: Cell<Self::State>) -> Self;
    /// The cell of the handle at `ptr`.
    ///
    /// # Safety
    /// `ptr` must be aligned for `Self` and point to memory at least as large as a `Self`.
    unsafe fn cell(ptr: *mut Self) -> *mut Cell<Self::State>;
}

/// Moves `state` into a live cell of type `H` (a pooled one if any) and returns the handle.
pub(crate) fn allocate<H: Handle>(state: H::State) -> *mut H {
    let reused = H::pool().lock().ok().and_then(|mut p| p.pop());
    match reused {
        Some(addr) => {
            let ptr = addr as *mut H;
            // SAFETY: pooled addresses come from `Box::into_raw` below and are never deallocated;
            // a pooled cell is owned by the pool alone.
            unsafe {
                let cell = H::cell(ptr);
                (*cell).state = Some(Box::new(state));
                (*cell).magic = H::MAGIC_LIVE;
            }
            ptr
        }
        None => Box::into_raw(Box::new(H::wrap(Cell {
            magic: H::MAGIC_LIVE,
            state: Some(Box::new(state)),
        }))),
    }
}

/// The cell of a live handle of type `H`, or the error that says why `ptr` is not one.
///
/// # Safety
/// As [`get`].
unsafe fn live<H: Handle>(ptr: *const H) -> Result<*mut Cell<H::State>, Error> {
    if ptr.is_null() {
        return Err(Error::null(H::ARGUMENT));
    }
    let name = H::NAME;
    if (ptr as usize) % std::mem::align_of::<H>() != 0 {
        return Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            format!("invalid handle: misaligned pointer, not a {name}"),
        ));
    }
    // SAFETY: aligned, and the caller passes a handle or readable memory as large as one; cells
    // are never deallocated, so for any pointer this library handed out the read is of live
    // memory.
    let cell = unsafe { H::cell(ptr.cast_mut()) };
    // SAFETY: as above.
    let magic = unsafe { std::ptr::read_volatile(&raw const (*cell).magic) };
    if magic == H::MAGIC_LIVE {
        Ok(cell)
    } else if magic == H::MAGIC_FREED {
        Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            format!("invalid handle: this {name} was already freed"),
        ))
    } else {
        Err(Error::new(
            QE_ERR_INVALID_HANDLE,
            format!("invalid handle: not a {name} created by this library"),
        ))
    }
}

fn empty<H: Handle>() -> Error {
    Error::new(
        QE_ERR_INVALID_HANDLE,
        format!("invalid handle: empty {}", H::NAME),
    )
}

/// What is behind a handle, for reading.
///
/// # Safety
/// `ptr` must be NULL, a handle from this library, or point to readable memory at least as large
/// and aligned as an `H`; no other thread may use the handle meanwhile.
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

/// Frees what is behind a live handle and returns its cell to the pool.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn release<H: Handle>(ptr: *mut H) -> Result<(), Error> {
    // SAFETY: the caller's contract (exclusive use); `live` saw the live magic.
    let state = unsafe {
        let cell = live(ptr)?;
        (*cell).magic = H::MAGIC_FREED;
        (*cell).state.take()
    };
    drop(state);
    if let Ok(mut pool) = H::pool().lock() {
        pool.push(ptr as usize);
    }
    Ok(())
}
