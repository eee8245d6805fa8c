//! The library-wide entry points: the version, this thread's last error, freeing the strings the
//! library returns, and the names of components.

use std::ffi::{c_char, CString};

use qe_core::{AssetKind, Expansion, Industry, Nation, TileId};

use crate::entry::{self, buffer, no_args, out};
use crate::status::{self, Error, QeStatus};
use crate::types::{
    phase_name, QE_ABI_VERSION, QE_NAME_EXPANSION, QE_NAME_INDUSTRY, QE_NAME_NATION, QE_NAME_PHASE,
    QE_NAME_PILE, QE_NAME_TILE, QE_VERSION_MAJOR, QE_VERSION_MINOR, QE_VERSION_PATCH,
};

/// Writes the ABI version (`QE_ABI_VERSION` of the library actually loaded) to `*out`. Compare it
/// with the `QE_ABI_VERSION` of the header you compiled against.
///
/// # Safety
/// `out` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_abi_version(out: *mut u32) -> QeStatus {
    entry::call(no_args, out!(out), |()| Ok(QE_ABI_VERSION))
}

/// Writes the version of the library actually loaded (`QE_VERSION_MAJOR`, `_MINOR`, `_PATCH` of
/// the header it was built with) to the three out-pointers.
///
/// # Safety
/// Each pointer must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_version(
    out_major: *mut u32,
    out_minor: *mut u32,
    out_patch: *mut u32,
) -> QeStatus {
    let outs = (out!(out_major), out!(out_minor), out!(out_patch));
    entry::call(no_args, outs, |()| {
        Ok((QE_VERSION_MAJOR, QE_VERSION_MINOR, QE_VERSION_PATCH))
    })
}

/// Copies the library's version as text (`"0.1.0"`) into `buf` (`cap` bytes, NUL-terminated) and
/// its length to `*out_len` (optional), as `qe_name` does.
///
/// # Safety
/// `buf` must be valid for `cap` bytes of writes; `out_len` must be NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_version_string(
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> QeStatus {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { buffer(buf, cap, out_len) };
    entry::call(no_args, buf, |()| Ok(env!("CARGO_PKG_VERSION")))
}

/// Copies the message of this thread's last error into `buf` (`cap` bytes, NUL-terminated; empty
/// if no call has failed yet on this thread) and writes its full length in bytes, without the NUL,
/// to `*out_len` if `out_len` is not NULL.
///
/// The message starts with the rule ID for rules errors (`"R-AUC-3: ..."`), or `"command K: R-..."`
/// when a record's command K was rejected. If the buffer is too small the message is truncated (at a
/// UTF-8 boundary) and `QE_ERR_BUFFER_TOO_SMALL` is returned; `buf` = NULL with `cap` = 0 and a
/// non-NULL `out_len` queries the length. This function never changes the last error.
///
/// Thread safety: the last error is per thread; call this on the thread whose call failed.
///
/// # Safety
/// `buf` must be NULL or valid for `cap` bytes of writes; `out_len` must be NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_last_error_message(
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> QeStatus {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { buffer(buf, cap, out_len) };
    entry::reading_last_error(buf, || Ok(status::last_error().message))
}

/// Copies the rule ID of this thread's last error into `buf` (`cap` bytes, NUL-terminated) and
/// writes its length in bytes, without the NUL, to `*out_len` if `out_len` is not NULL.
///
/// The ID is the one the message starts with: `"R-AUC-3"` for a command the rules reject,
/// `"RECORD"` for a record that breaks RECORD.md; it is empty when the last error is not a rules,
/// set-up or record error (status 900 and up, or no error yet). A record's rejected command K
/// gives the rule its command broke (its message reads `"command K: R-..."`). The buffer
/// contract is `qe_last_error_message`'s: `QE_ERR_BUFFER_TOO_SMALL` if it does not fit (an ID is
/// at most 15 bytes). This function never changes the last error.
///
/// Thread safety: the last error is per thread; call this on the thread whose call failed.
///
/// # Safety
/// `buf` must be NULL or valid for `cap` bytes of writes; `out_len` must be NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_last_error_rule(
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> QeStatus {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { buffer(buf, cap, out_len) };
    entry::reading_last_error(buf, || Ok(status::last_error().rule))
}

/// Writes this thread's last error status (`QE_OK` if no call has failed yet) to `*out`. Never
/// changes the last error.
///
/// # Safety
/// `out` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_last_error_status(out: *mut QeStatus) -> QeStatus {
    entry::reading_last_error(out!(out), || Ok(status::last_error().status))
}

/// Frees a string returned by the library (JSON of views, events, outcomes and records). NULL is
/// accepted and ignored.
///
/// # Safety
/// `s` must be NULL or a string returned by a `qe_` function and not yet freed. Freeing any other
/// pointer, or freeing twice, is undefined behaviour (not detected).
#[no_mangle]
pub unsafe extern "C" fn qe_string_free(s: *mut c_char) -> QeStatus {
    entry::call(no_args, (), |()| {
        if !s.is_null() {
            // SAFETY: the caller passes a pointer from `CString::into_raw`, freed once.
            drop(unsafe { CString::from_raw(s) });
        }
        Ok(())
    })
}

/// Copies the name of a component into `buf` (`cap` bytes, NUL-terminated) and its length in
/// bytes, without the NUL, to `*out_len` (optional; also on `QE_ERR_BUFFER_TOO_SMALL`): `kind` is `QE_NAME_NATION` ("US"), `QE_NAME_INDUSTRY` ("AGR"),
/// `QE_NAME_TILE` ("US-AGR"), `QE_NAME_PILE` ("gold"), `QE_NAME_PHASE` ("bidding") or
/// `QE_NAME_EXPANSION` ("commodities"), and `index` the number the flat structs use (for an
/// expansion, the bit position of its `QE_EXPANSION_*`). 16 bytes always suffice.
///
/// # Safety
/// `buf` must be valid for `cap` bytes of writes; `out_len` must be NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_name(
    kind: u32,
    index: u32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> QeStatus {
    // SAFETY: forwarded caller contract.
    let buf = unsafe { buffer(buf, cap, out_len) };
    entry::call(no_args, buf, |()| {
        let i = index as usize;
        let name: Option<String> = match kind {
            QE_NAME_NATION => Nation::from_index(i).map(|n| n.name().to_owned()),
            QE_NAME_INDUSTRY => Industry::from_index(i).map(|n| n.name().to_owned()),
            QE_NAME_TILE => TileId::from_index(i).map(|t| t.to_string()),
            QE_NAME_PILE => AssetKind::from_index(i).map(|k| k.name().to_owned()),
            QE_NAME_PHASE => phase_name(index).map(str::to_owned),
            QE_NAME_EXPANSION => Expansion::from_index(i).map(|e| e.name().to_owned()),
            _ => {
                return Err(Error::invalid(format!(
                    "name kind {kind} is not a QE_NAME_*"
                )))
            }
        };
        name.ok_or_else(|| {
            Error::invalid(format!(
                "index {index} is out of range for name kind {kind}"
            ))
        })
    })
}
