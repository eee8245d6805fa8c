//! Status codes, the thread-local last error, and the panic boundary around every entry point.

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use qe_core::{CommandError, ReplayError, SetupError};

/// The result of every `qe_` function: `QE_OK` (0) or an error code.
///
/// - 100–199: the command was rejected by the rules; the same numbers as `CommandError::code()` in
///   `qe-core` (for example 106, `QE_ERR_BID_EQUALS_OPENING`, rule R-AUC-3).
/// - 200–299: the rules, set-up or record were rejected; the same numbers as `SetupError::code()`.
/// - 900–999: errors of the ABI itself (null pointer, invalid handle, invalid UTF-8, ...).
///
/// Codes never change meaning; new errors get new numbers, so treat unknown codes in a range as
/// "some error of that range". `qe_last_error_message` gives the text, with its rule ID.
pub type QeStatus = u32;

/// Success.
pub const QE_OK: QeStatus = 0;

// The rules' codes (100–299), `QE_ERR_<name>` for each entry of `qe_core::ERROR_CODES`, are
// written into the header from that table by the header's generation (tests/header.rs), so they
// are declared once, in qe-core.

/// 900: a required pointer argument is NULL.
pub const QE_ERR_NULL_POINTER: QeStatus = 900;
/// 901: the handle is not a live handle of its type (`QeGame`, `QeBot`): freed, or never created by
/// this library.
pub const QE_ERR_INVALID_HANDLE: QeStatus = 901;
/// 902: a string argument is not valid UTF-8.
pub const QE_ERR_INVALID_UTF8: QeStatus = 902;
/// 903: a string argument is not valid JSON.
pub const QE_ERR_INVALID_JSON: QeStatus = 903;
/// 904: the caller's buffer is too small; the text was truncated (still NUL-terminated).
pub const QE_ERR_BUFFER_TOO_SMALL: QeStatus = 904;
/// 905: the library panicked (a bug in qe); the panic was caught at the boundary.
pub const QE_ERR_PANIC: QeStatus = 905;
/// 906: an argument is out of range (turn, kind, flag, index ...); a seat the game lacks is
/// `QE_ERR_SEAT_OUT_OF_RANGE`.
pub const QE_ERR_INVALID_ARGUMENT: QeStatus = 906;
/// 907: the game is not over, so there is no outcome yet.
pub const QE_ERR_NOT_OVER: QeStatus = 907;
/// 908: the seat has nothing to do now (it is not among the seats to act), so a bot cannot decide.
pub const QE_ERR_NOT_TO_ACT: QeStatus = 908;

/// An error on its way to the caller: a status code, the rule it breaks (rules, set-up and record
/// errors; `""` for the others) and its message.
#[derive(Clone, Debug)]
pub(crate) struct Error {
    pub status: QeStatus,
    pub rule: &'static str,
    pub message: String,
}

impl Error {
    pub fn new(status: QeStatus, message: impl Into<String>) -> Error {
        Error {
            status,
            rule: "",
            message: message.into(),
        }
    }

    /// An error of the rules: `status` and `message` with `rule`, the rule ID, in front.
    fn of_rule(status: QeStatus, rule: &'static str, message: String) -> Error {
        Error {
            status,
            rule,
            message,
        }
    }
    pub fn null(arg: &str) -> Error {
        Error::new(QE_ERR_NULL_POINTER, format!("null pointer: `{arg}`"))
    }
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(QE_ERR_INVALID_ARGUMENT, message)
    }
}

impl From<CommandError> for Error {
    fn from(e: CommandError) -> Error {
        Error::of_rule(e.code(), e.rule(), format!("{}: {e}", e.rule()))
    }
}

impl From<SetupError> for Error {
    fn from(e: SetupError) -> Error {
        Error::of_rule(e.code(), e.rule(), format!("{}: {e}", e.rule()))
    }
}

impl From<ReplayError> for Error {
    fn from(e: ReplayError) -> Error {
        match e {
            ReplayError::Setup(e) => e.into(),
            ReplayError::Command { index, error } => Error::of_rule(
                error.code(),
                error.rule(),
                format!("command {index}: {}: {error}", error.rule()),
            ),
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<Error> = const {
        RefCell::new(Error { status: QE_OK, rule: "", message: String::new() })
    };
}

fn set_last_error(error: Error) {
    // `try_with`: during thread teardown the slot may be gone; the status code is still returned.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = error;
        }
    });
}

/// This thread's last error: status `QE_OK`, no rule and an empty message if no call has failed on
/// it.
pub(crate) fn last_error() -> Error {
    LAST_ERROR
        .try_with(|slot| slot.borrow().clone())
        .unwrap_or_else(|_| Error::new(QE_OK, String::new()))
}

/// Runs `f` behind the panic boundary: its error (or a caught panic) becomes the status code and
/// this thread's last error. Every `extern "C"` function of the crate goes through here.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), Error>) -> QeStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => QE_OK,
        Ok(Err(e)) => {
            let status = e.status;
            set_last_error(e);
            status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic payload".to_owned());
            set_last_error(Error::new(
                QE_ERR_PANIC,
                format!("internal error (panic caught): {what}"),
            ));
            QE_ERR_PANIC
        }
    }
}

/// Runs `f`, a reader of this thread's last error, behind the panic boundary like [`guard`],
/// but leaves the last error as it is: `f`'s own failure (a NULL or misaligned pointer, a buffer
/// too small) is only returned.
pub(crate) fn reading_last_error(f: impl FnOnce() -> Result<(), Error>) -> QeStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => QE_OK,
        Ok(Err(e)) => e.status,
        Err(_) => QE_ERR_PANIC,
    }
}

/// Copies `text` into the caller's buffer `buf` of `cap` bytes, NUL-terminated, truncating at a
/// UTF-8 character boundary when it does not fit. `out_len` (optional) receives the full length in
/// bytes without the NUL, on success and on `QE_ERR_BUFFER_TOO_SMALL` (so the caller learns the size
/// to allocate); after any other error nothing is written.
///
/// # Safety
/// `buf` must be NULL or valid for `cap` bytes of writes; `out_len` must be NULL or valid.
pub(crate) unsafe fn copy_to_buffer(
    text: &str,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> Result<(), Error> {
    if !out_len.is_null() {
        // Checked as every out-pointer is: a misaligned one is an error, and nothing is written.
        if (out_len as usize) % std::mem::align_of::<usize>() != 0 {
            return Err(Error::invalid("`out_len` is misaligned"));
        }
    }
    if cap > 0 && buf.is_null() {
        return Err(Error::null("buf"));
    }
    if !out_len.is_null() {
        // SAFETY: the caller guarantees a non-null `out_len` is valid for writes; it is aligned.
        unsafe { out_len.write(text.len()) };
    }
    if cap == 0 {
        return if text.is_empty() && buf.is_null() {
            Ok(())
        } else if buf.is_null() && !out_len.is_null() {
            // A length query: `buf` NULL, `cap` 0, `out_len` set.
            Ok(())
        } else {
            Err(Error::new(
                QE_ERR_BUFFER_TOO_SMALL,
                format!(
                    "buffer too small: {} bytes needed, `cap` is {cap}",
                    text.len() + 1
                ),
            ))
        };
    }
    let mut n = text.len().min(cap - 1);
    while !text.is_char_boundary(n) {
        n -= 1;
    }
    // SAFETY: `buf` is valid for `cap` bytes and `n + 1 <= cap`.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
        buf.add(n).write(0);
    }
    if n < text.len() {
        return Err(Error::new(
            QE_ERR_BUFFER_TOO_SMALL,
            format!(
                "buffer too small: {} bytes needed, `cap` is {cap}",
                text.len() + 1
            ),
        ));
    }
    Ok(())
}
