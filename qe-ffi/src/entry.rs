//! The one shape of every entry point, and the readers of its arguments.
//!
//! Every `extern "C"` function of the crate is a call of [`call`] (or of [`query`], [`update`],
//! [`free`] or [`reading_last_error`], built on it): behind the panic boundary
//! ([`status::guard`]), it
//!
//! 1. reads the arguments in their order, handles first (a NULL handle is `QE_ERR_NULL_POINTER`,
//!    a freed or foreign one `QE_ERR_INVALID_HANDLE`);
//! 2. checks where the result goes (a [`Sink`]: an out-pointer, NULL or misaligned is an error);
//! 3. does the work, which gives the result;
//! 4. writes the result, so an out-pointer is written only when the call succeeds.
//!
//! The first failure is the status returned and this thread's last error; a panic is
//! `QE_ERR_PANIC`.

use std::ffi::{c_char, CStr, CString};
use std::marker::PhantomData;

use crate::handle::{self, Handle};
use crate::status::{self, Error, QeStatus, QE_ERR_INVALID_UTF8};

/// Runs an entry point: `args` reads the arguments, `sink` is checked, `work` computes the result
/// from the arguments and `sink` receives it, in that order and behind the panic boundary. The
/// status is `QE_OK` or the first failure's, which becomes this thread's last error.
pub(crate) fn call<A, S: Sink>(
    args: impl FnOnce() -> Result<A, Error>,
    sink: S,
    work: impl FnOnce(A) -> Result<S::Value, Error>,
) -> QeStatus {
    status::guard(|| run(args, sink, work))
}

/// [`call`] on the handle `handle`, for reading: `args` reads the other arguments against what is
/// behind it (a seat against the game's players), and `work` gets it too.
///
/// # Safety
/// `handle` as in [`handle::get`].
pub(crate) unsafe fn query<H: Handle, A, S: Sink>(
    handle: *const H,
    args: impl FnOnce(&H::State) -> Result<A, Error>,
    sink: S,
    work: impl FnOnce(&H::State, A) -> Result<S::Value, Error>,
) -> QeStatus {
    call(
        || {
            // SAFETY: the caller's contract.
            let state = unsafe { handle::get(handle)? };
            Ok((state, args(state)?))
        },
        sink,
        |(state, args)| work(state, args),
    )
}

/// [`query`] for writing: `work` may change what is behind the handle.
///
/// # Safety
/// `handle` as in [`handle::get_mut`].
pub(crate) unsafe fn update<H: Handle, A, S: Sink>(
    handle: *mut H,
    args: impl FnOnce(&H::State) -> Result<A, Error>,
    sink: S,
    work: impl FnOnce(&mut H::State, A) -> Result<S::Value, Error>,
) -> QeStatus {
    call(
        || {
            // SAFETY: the caller's contract.
            let state = unsafe { handle::get_mut(handle)? };
            let args = args(state)?;
            Ok((state, args))
        },
        sink,
        |(state, args)| work(state, args),
    )
}

/// Frees a handle; NULL is accepted and ignored, a freed or foreign handle is
/// `QE_ERR_INVALID_HANDLE`.
///
/// # Safety
/// `handle` as in [`handle::release`].
pub(crate) unsafe fn free<H: Handle>(handle: *mut H) -> QeStatus {
    call(no_args, (), |()| {
        if handle.is_null() {
            return Ok(());
        }
        // SAFETY: the caller's contract.
        unsafe { handle::release(handle) }
    })
}

/// [`call`] for a reader of this thread's last error: without arguments, and it leaves the last
/// error as it is (its own failure is only returned; see [`status::reading_last_error`]).
pub(crate) fn reading_last_error<S: Sink>(
    sink: S,
    work: impl FnOnce() -> Result<S::Value, Error>,
) -> QeStatus {
    status::reading_last_error(|| run(no_args, sink, |()| work()))
}

/// The steps of an entry point, in their order (see the module's documentation). Inlined into
/// the panic boundary's closure, so that an entry point costs what its steps written out would:
/// left to itself the compiler calls it, which costs some 27 instructions a call.
#[allow(clippy::inline_always)]
#[inline(always)]
fn run<A, S: Sink>(
    args: impl FnOnce() -> Result<A, Error>,
    sink: S,
    work: impl FnOnce(A) -> Result<S::Value, Error>,
) -> Result<(), Error> {
    let args = args()?;
    let to = sink.check()?;
    let value = work(args)?;
    S::put(to, value)
}

/// The arguments of an entry point that has none to read before its sink.
#[allow(
    clippy::unnecessary_wraps,
    reason = "the type of the arguments `call` takes"
)]
pub(crate) fn no_args() -> Result<(), Error> {
    Ok(())
}

/// The arguments, none, of an entry point on a handle that reads nothing else before its sink.
#[allow(
    clippy::unnecessary_wraps,
    reason = "the type of the arguments `query` takes"
)]
pub(crate) fn no_more_args<T: ?Sized>(_: &T) -> Result<(), Error> {
    Ok(())
}

/// For tests of the panic boundary only (not part of the C ABI): runs a panicking closure behind
/// the same guard as every entry point. Its payload is a `&'static str`, or with `number` a
/// `String` (a message formatted with that number).
#[doc(hidden)]
pub fn __test_panic_boundary(number: Option<u32>) -> QeStatus {
    call(no_args, (), |()| match number {
        None => panic!("deliberate test panic"),
        Some(n) => panic!("deliberate test panic number {n}"),
    })
}

// ----- sinks -------------------------------------------------------------------------------------

/// Where an entry point's result goes: checked before the work is done, written only after it
/// succeeded.
pub(crate) trait Sink {
    /// The result the work gives.
    type Value;
    /// The destination once checked.
    type Checked;
    /// Checks the destination: a NULL or misaligned out-pointer is an error.
    fn check(self) -> Result<Self::Checked, Error>;
    /// Writes the result to the checked destination.
    fn put(to: Self::Checked, value: Self::Value) -> Result<(), Error>;
}

/// No result: the entry point only acts.
impl Sink for () {
    type Value = ();
    type Checked = ();
    fn check(self) -> Result<(), Error> {
        Ok(())
    }
    fn put((): (), (): ()) -> Result<(), Error> {
        Ok(())
    }
}

/// A required out-pointer argument and its name (in errors), not checked yet: the result is a
/// `T`, written there.
pub(crate) struct OutArg<T> {
    ptr: *mut T,
    name: &'static str,
}

/// The out-pointer `ptr`, the argument `name`.
pub(crate) fn out_arg<T>(ptr: *mut T, name: &'static str) -> OutArg<T> {
    OutArg { ptr, name }
}

/// The out-pointer argument `$ptr` ([`OutArg`]), named in errors as in the header.
macro_rules! out {
    ($ptr:ident) => {
        $crate::entry::out_arg($ptr, stringify!($ptr))
    };
}
pub(crate) use out;

impl<T> OutArg<T> {
    /// Checks it: not NULL, aligned.
    pub(crate) fn check(self) -> Result<Out<T>, Error> {
        if self.ptr.is_null() {
            return Err(Error::null(self.name));
        }
        if !self.ptr.is_aligned() {
            return Err(Error::invalid(format!("`{}` is misaligned", self.name)));
        }
        Ok(Out(self.ptr))
    }
}

impl<T> Sink for OutArg<T> {
    type Value = T;
    type Checked = Out<T>;
    fn check(self) -> Result<Out<T>, Error> {
        OutArg::check(self)
    }
    fn put(to: Out<T>, value: T) -> Result<(), Error> {
        to.set(value);
        Ok(())
    }
}

/// A checked out-pointer (non-null, aligned), written with [`Out::set`] and never read: the
/// caller's memory may be uninitialized.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Writes `value` there.
    pub(crate) fn set(&self, value: T) {
        // SAFETY: checked non-null and aligned by `OutArg::check`; valid for writes by the
        // caller's contract. `write` neither reads nor drops the old contents.
        unsafe { self.0.write(value) }
    }
}

/// A string out-pointer (`char **`): the result is a [`CString`], handed to C there (freed by
/// `qe_string_free`).
pub(crate) struct TextOut(OutArg<*mut c_char>);

/// The string out-pointer `ptr`, the argument `name`.
pub(crate) fn text_arg(ptr: *mut *mut c_char, name: &'static str) -> TextOut {
    TextOut(out_arg(ptr, name))
}

/// The string out-pointer argument `$ptr` ([`TextOut`]), named in errors as in the header.
macro_rules! text {
    ($ptr:ident) => {
        $crate::entry::text_arg($ptr, stringify!($ptr))
    };
}
pub(crate) use text;

impl Sink for TextOut {
    type Value = CString;
    type Checked = Out<*mut c_char>;
    fn check(self) -> Result<Out<*mut c_char>, Error> {
        self.0.check()
    }
    fn put(to: Out<*mut c_char>, value: CString) -> Result<(), Error> {
        to.set(value.into_raw());
        Ok(())
    }
}

/// A caller's buffer for text: `cap` bytes at `buf`, and the text's length to `out_len`
/// (optional). Checked as it is written ([`status::copy_to_buffer`]): the length is written on
/// `QE_ERR_BUFFER_TOO_SMALL` too.
pub(crate) struct Buffer<V> {
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    text: PhantomData<V>,
}

/// The buffer `buf` of `cap` bytes, with `out_len` for the length.
///
/// # Safety
/// `buf` must be NULL or valid for `cap` bytes of writes; `out_len` must be NULL or valid for
/// writes.
pub(crate) unsafe fn buffer<V>(buf: *mut c_char, cap: usize, out_len: *mut usize) -> Buffer<V> {
    Buffer {
        buf,
        cap,
        out_len,
        text: PhantomData,
    }
}

impl<V: AsRef<str>> Sink for Buffer<V> {
    type Value = V;
    type Checked = Self;
    fn check(self) -> Result<Self, Error> {
        Ok(self)
    }
    fn put(to: Self, value: V) -> Result<(), Error> {
        // SAFETY: the contract of `buffer`, which made it.
        unsafe { status::copy_to_buffer(value.as_ref(), to.buf, to.cap, to.out_len) }
    }
}

/// Three results, each to its own sink, checked in their order.
impl<A: Sink, B: Sink, C: Sink> Sink for (A, B, C) {
    type Value = (A::Value, B::Value, C::Value);
    type Checked = (A::Checked, B::Checked, C::Checked);
    fn check(self) -> Result<Self::Checked, Error> {
        Ok((self.0.check()?, self.1.check()?, self.2.check()?))
    }
    fn put(to: Self::Checked, value: Self::Value) -> Result<(), Error> {
        A::put(to.0, value.0)?;
        B::put(to.1, value.1)?;
        C::put(to.2, value.2)
    }
}

// ----- arguments ---------------------------------------------------------------------------------

/// Reads a NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` must be NULL or a valid NUL-terminated string.
pub(crate) unsafe fn str_arg<'a>(p: *const c_char, name: &str) -> Result<&'a str, Error> {
    if p.is_null() {
        return Err(Error::null(name));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let bytes = unsafe { CStr::from_ptr(p) };
    bytes.to_str().map_err(|e| {
        Error::new(
            QE_ERR_INVALID_UTF8,
            format!("`{name}` is not valid UTF-8: {e}"),
        )
    })
}

/// Reads a `uint8_t` flag argument: 0 or 1.
pub(crate) fn flag_arg(v: u8, name: &str) -> Result<bool, Error> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::invalid(format!("`{name}` must be 0 or 1, not {v}"))),
    }
}
