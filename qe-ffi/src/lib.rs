//! # qe-ffi — the C ABI of the QE rules engine
//!
//! A thin C ABI over [`qe_core`]: every rule stays in `qe-core`. The header `include/qe.h` is
//! generated from this crate by cbindgen (see `cbindgen.toml`); the doc comments below are its
//! documentation.
//!
//! ## Conventions
//!
//! - Every function returns a [`QeStatus`]: `QE_OK` (0), a rules error (100–199, the numbers of
//!   `CommandError::code()`), a set-up or record error (200–299, `SetupError::code()`), or an ABI
//!   error (900–999). Results come back through out-pointers, written only on success.
//! - On failure, the error's text (with its rule ID, for example
//!   `"R-AUC-3: bid equals the auctioneer's bid (5)"`) is kept as this thread's *last error*; read it
//!   with [`qe_last_error_message`], its code with [`qe_last_error_status`] and its rule ID alone
//!   with [`qe_last_error_rule`]. It stays until the next failing call on the same thread.
//! - Every pointer argument is checked: a NULL where a value is required gives
//!   `QE_ERR_NULL_POINTER`. No panic crosses the boundary: a panic inside the library is caught
//!   and reported as `QE_ERR_PANIC`.
//! - Strings are UTF-8 and NUL-terminated. A `char *` the library returns is owned by the caller and
//!   must be freed with [`qe_string_free`] (not `free`).
//! - Seats are 0-based. A *viewer* is a seat or `QE_SPECTATOR` (public information only). A seat or
//!   viewer the game does not have is `QE_ERR_SEAT_OUT_OF_RANGE` (R-AUC-12) wherever it is passed.
//!
//! ## Handles
//!
//! There are two handle types: [`QeGame`], a game plus its history, and [`QeBot`], a bot that
//! decides for one seat. Neither is synchronized (use one from one thread at a time; different
//! handles are independent). Freed handles are detected: the library keeps handle cells in a pool
//! and never returns them to the allocator, so using a freed handle, or freeing it twice, gives
//! `QE_ERR_INVALID_HANDLE`, and so does a handle of one type passed as the other. Not detected: a
//! stale handle whose cell has been reused by a later handle of its type (it refers to that one),
//! and pointers the library never returned (detected only when they point to readable memory at
//! least as large as a handle that does not hold the handle magic).
#![deny(missing_docs)]
#![allow(unsafe_code)]

mod bot;
mod game;
mod handle;
mod status;
mod types;

use std::ffi::{c_char, CStr, CString};

use qe_core::{
    AssetKind, Command, CommandError, Expansion, Expansions, Game, Industry, Match, Nation, Record,
    Rules, Seat, SetupError, TileId,
};

pub use bot::QeBot;
pub use game::QeGame;
use game::{cursor_index, GameState, CURSORS};
pub use status::*;
pub use types::*;

// ----- helpers ------------------------------------------------------------------------------------

/// Reads a NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` must be NULL or a valid NUL-terminated string.
unsafe fn str_arg<'a>(p: *const c_char, name: &str) -> Result<&'a str, Error> {
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

/// A checked out-pointer (non-null, aligned), written with [`Out::set`] and never read: the
/// caller's memory may be uninitialized.
struct Out<T>(*mut T);

impl<T> Out<T> {
    fn set(&self, value: T) {
        // SAFETY: checked non-null and aligned by `out_arg`; valid for writes by the caller's
        // contract. `write` neither reads nor drops the old contents.
        unsafe { self.0.write(value) }
    }
}

/// Checks an out-pointer.
fn out_arg<T>(p: *mut T, name: &str) -> Result<Out<T>, Error> {
    if p.is_null() {
        return Err(Error::null(name));
    }
    if (p as usize) % std::mem::align_of::<T>() != 0 {
        return Err(Error::invalid(format!("`{name}` is misaligned")));
    }
    Ok(Out(p))
}

/// Hands a string to C (freed by `qe_string_free`).
fn give_string(text: String, out: &Out<*mut c_char>) -> Result<(), Error> {
    let c = CString::new(text)
        .map_err(|_| Error::new(QE_ERR_PANIC, "internal error: string with a NUL byte"))?;
    out.set(c.into_raw());
    Ok(())
}

/// The error of a qe-core reader that rejected `text`: `QE_ERR_INVALID_JSON` when `text` is not
/// one valid JSON value (checked, without building it, only once the reader has failed; inputs
/// past `limit` bytes were rejected for their size alone), else the reader's own error.
fn reader_error(text: &str, what: &str, limit: usize, error: Error) -> Error {
    if text.len() > limit {
        return error;
    }
    match serde_json::from_str::<&serde_json::value::RawValue>(text) {
        Ok(_) => error,
        // Named as the core's readers and the `qe` command name it, not as a syntax error at
        // line 1, column 1.
        Err(e) => match qe_core::byte_order_mark(text, "text") {
            Some(m) => Error::new(
                QE_ERR_INVALID_JSON,
                format!("`{what}` is not valid JSON: {m}"),
            ),
            None => json_error(what, &e),
        },
    }
}

fn json_error(what: &str, e: &serde_json::Error) -> Error {
    Error::new(
        QE_ERR_INVALID_JSON,
        format!("`{what}` is not valid JSON: {e}"),
    )
}

/// The viewer a `uint8_t` names: a seat of the game, or `QE_SPECTATOR` (`None`).
fn viewer_arg(state: &GameState, viewer: u8) -> Result<Option<Seat>, Error> {
    let players = state.m.game().players();
    if viewer == QE_SPECTATOR {
        Ok(None)
    } else if viewer < players {
        Ok(Some(Seat(viewer)))
    } else {
        Err(seat_out_of_range(
            viewer,
            "viewer (a seat, or QE_SPECTATOR)",
        ))
    }
}

fn seat_arg(state: &GameState, seat: u8) -> Result<Seat, Error> {
    let players = state.m.game().players();
    if seat < players {
        Ok(Seat(seat))
    } else {
        Err(seat_out_of_range(seat, "seat"))
    }
}

/// A seat given as `argument` that the game has no seat for: the core's
/// `QE_ERR_SEAT_OUT_OF_RANGE` (R-AUC-12), as the same seat in a command, and as the Python
/// binding reports it; the message names the argument.
fn seat_out_of_range(seat: u8, argument: &str) -> Error {
    let mut e = Error::from(CommandError::SeatOutOfRange {
        seat: i64::from(seat),
    });
    e.message = format!("{} (`{argument}`)", e.message);
    e
}

fn flag_arg(v: u8, name: &str) -> Result<bool, Error> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::invalid(format!("`{name}` must be 0 or 1, not {v}"))),
    }
}

fn command_of(c: &QeCommand) -> Result<Command, Error> {
    if c.reserved != 0 {
        return Err(Error::invalid(format!(
            "QeCommand.reserved must be 0, not {}",
            c.reserved
        )));
    }
    let seat = Seat(c.seat);
    let pile = || {
        AssetKind::from_index(c.pile as usize)
            .ok_or_else(|| Error::invalid(format!("QeCommand.pile {} is not a pile", c.pile)))
    };
    Ok(match c.kind {
        QE_COMMAND_BID => Command::Bid {
            seat,
            amount: c.amount,
        },
        QE_COMMAND_TAKE_ASSET => Command::TakeAsset {
            seat,
            kind: pile()?,
        },
        QE_COMMAND_DISCARD_ASSET => Command::DiscardAsset {
            seat,
            kind: pile()?,
        },
        QE_COMMAND_PEEK => Command::Peek { seat, turn: c.turn },
        k => {
            return Err(Error::invalid(format!(
                "QeCommand.kind {k} is not a command kind"
            )))
        }
    })
}

/// Reads one command in the record format (`{"seat":0,"bid":5}`, `RECORD.md`) with qe-core's own
/// record reader, so that the JSON of a command means exactly what it means in a record. `name`:
/// the argument that holds it, as errors call it.
fn command_of_json(text: &str, name: &str) -> Result<Command, Error> {
    Command::from_json(text)
        .map_err(|e| reader_error(text, name, qe_core::MAX_COMMAND_BYTES, e.into()))
}

// ----- library-wide functions ---------------------------------------------------------------------

/// Writes the ABI version (`QE_ABI_VERSION` of the library actually loaded) to `*out`. Compare it
/// with the `QE_ABI_VERSION` of the header you compiled against.
///
/// # Safety
/// `out` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_abi_version(out: *mut u32) -> QeStatus {
    status::guard(|| {
        out_arg(out, "out")?.set(QE_ABI_VERSION);
        Ok(())
    })
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
    status::guard(|| {
        let (major, minor, patch) = (
            out_arg(out_major, "out_major")?,
            out_arg(out_minor, "out_minor")?,
            out_arg(out_patch, "out_patch")?,
        );
        major.set(QE_VERSION_MAJOR);
        minor.set(QE_VERSION_MINOR);
        patch.set(QE_VERSION_PATCH);
        Ok(())
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
    status::guard(|| {
        // SAFETY: forwarded caller contract.
        unsafe { status::copy_to_buffer(env!("CARGO_PKG_VERSION"), buf, cap, out_len) }
    })
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
    status::reading_last_error(|| {
        let message = status::last_error().message;
        // SAFETY: forwarded caller contract.
        unsafe { status::copy_to_buffer(&message, buf, cap, out_len) }
    })
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
    status::reading_last_error(|| {
        let rule = status::last_error().rule;
        // SAFETY: forwarded caller contract.
        unsafe { status::copy_to_buffer(rule, buf, cap, out_len) }
    })
}

/// Writes this thread's last error status (`QE_OK` if no call has failed yet) to `*out`. Never
/// changes the last error.
///
/// # Safety
/// `out` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_last_error_status(out: *mut QeStatus) -> QeStatus {
    status::reading_last_error(|| {
        let out = out_arg(out, "out")?;
        out.set(status::last_error().status);
        Ok(())
    })
}

/// Frees a string returned by the library (JSON of views, events, outcomes and records). NULL is
/// accepted and ignored.
///
/// # Safety
/// `s` must be NULL or a string returned by a `qe_` function and not yet freed. Freeing any other
/// pointer, or freeing twice, is undefined behaviour (not detected).
#[no_mangle]
pub unsafe extern "C" fn qe_string_free(s: *mut c_char) -> QeStatus {
    status::guard(|| {
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
    status::guard(|| {
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
        let name = name.ok_or_else(|| {
            Error::invalid(format!(
                "index {index} is out of range for name kind {kind}"
            ))
        })?;
        // SAFETY: forwarded caller contract.
        unsafe { status::copy_to_buffer(&name, buf, cap, out_len) }
    })
}

// ----- creating and freeing games -----------------------------------------------------------------

/// Fills `*out` with the default options of a new game (4 players, base game, seed 0) and
/// `struct_size = sizeof(QeGameOptions)`.
///
/// # Safety
/// `out` must be NULL (an error) or valid for writes of a `QeGameOptions`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_options_init(out: *mut QeGameOptions) -> QeStatus {
    status::guard(|| {
        out_arg(out, "out")?.set(QeGameOptions {
            struct_size: std::mem::size_of::<QeGameOptions>() as u32,
            players: 4,
            ..QeGameOptions::default()
        });
        Ok(())
    })
}

/// Creates a seeded game from options (start from `qe_game_options_init`). Writes the new handle
/// to `*out_game`; free it with `qe_game_free`.
///
/// With `QE_GAME_EXTERNAL_CHANCE` in `flags` the game starts at its first chance event (the deal)
/// and the seats have the default nations (R-SET-1).
///
/// Errors: `QE_ERR_INVALID_ARGUMENT` when `struct_size` is not a size this library knows, when an
/// `expansions` or `flags` bit names nothing, or when `reserved` is not all 0; `QE_ERR_PLAYERS`
/// (205) for a bad player count.
///
/// # Safety
/// `options` must be NULL (an error) or valid for reads of `options->struct_size` bytes;
/// `out_game` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_new_with(
    options: *const QeGameOptions,
    out_game: *mut *mut QeGame,
) -> QeStatus {
    status::guard(|| {
        let out = out_arg(out_game, "out_game")?;
        // SAFETY: forwarded caller contract.
        let o = unsafe { options_arg(options) }?;
        let expansions = Expansions::from_bits(o.expansions).ok_or_else(|| {
            Error::invalid(format!(
                "QeGameOptions.expansions {:#x} has a bit that is no QE_EXPANSION_*",
                o.expansions
            ))
        })?;
        if o.flags & !QE_GAME_EXTERNAL_CHANCE != 0 {
            return Err(Error::invalid(format!(
                "QeGameOptions.flags {:#x} has a bit that is no QE_GAME_*",
                o.flags
            )));
        }
        if let Some(i) = o.reserved.iter().position(|&r| r != 0) {
            return Err(Error::invalid(format!(
                "QeGameOptions.reserved must be all 0, but reserved[{i}] is {}",
                o.reserved[i]
            )));
        }
        let rules = rules_of(o.players, expansions)?;
        let m = if o.flags & QE_GAME_EXTERNAL_CHANCE != 0 {
            Match::new(Game::external_chance(rules, None)?)
        } else {
            Match::seeded(rules, o.seed)
        };
        out.set(handle::allocate::<QeGame>(GameState::new(m)));
        Ok(())
    })
}

/// The rules of a new game.
fn rules_of(players: u32, expansions: Expansions) -> Result<Rules, Error> {
    let rules = u8::try_from(players)
        .map_err(|_| SetupError::Players {
            players: i128::from(players),
        })
        .and_then(|p| Rules::with_expansions(p, expansions))?;
    Ok(rules)
}

/// Reads a `QeGameOptions` whose `struct_size` this library knows.
///
/// # Safety
/// `options` must be NULL or valid for reads of `struct_size` bytes.
unsafe fn options_arg(options: *const QeGameOptions) -> Result<QeGameOptions, Error> {
    if options.is_null() {
        return Err(Error::null("options"));
    }
    if !options.is_aligned() {
        return Err(Error::invalid(
            "`options` is not aligned for a QeGameOptions",
        ));
    }
    // SAFETY: non-null and aligned; the caller's struct has at least its first field.
    let size = unsafe { std::ptr::addr_of!((*options).struct_size).read() };
    let ours = std::mem::size_of::<QeGameOptions>() as u32;
    if size != ours {
        return Err(Error::invalid(format!(
            "QeGameOptions.struct_size is {size}; this library knows {ours} (fill the options \
             with qe_game_options_init)"
        )));
    }
    // SAFETY: the caller's struct is as large as ours.
    Ok(unsafe { options.read() })
}

/// Creates a seeded game: `players` 3–5, `commodities` 0 or 1 (the Commodities expansion), and the
/// `seed` of the set-up (same seed, same game, on every platform; R-SET-2). Writes the new handle
/// to `*out_game`; free it with `qe_game_free`. The same as `qe_game_new_with` with these options.
///
/// Errors: `QE_ERR_PLAYERS` (205) for a bad player count, `QE_ERR_INVALID_ARGUMENT` for a
/// `commodities` flag other than 0 or 1.
///
/// # Safety
/// `out_game` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_new(
    players: u8,
    commodities: u8,
    seed: u64,
    out_game: *mut *mut QeGame,
) -> QeStatus {
    status::guard(|| {
        let out = out_arg(out_game, "out_game")?;
        let on = flag_arg(commodities, "commodities")?;
        let expansions = Expansions::NONE.set(Expansion::Commodities, on);
        let rules = rules_of(players.into(), expansions)?;
        out.set(handle::allocate::<QeGame>(GameState::new(Match::seeded(
            rules, seed,
        ))));
        Ok(())
    })
}

/// Creates a game by replaying a `qe-record/1` record (JSON, `RECORD.md`). Writes the new handle
/// to `*out_game` (free it with `qe_game_free`); the game may be finished or not.
///
/// Errors: `QE_ERR_INVALID_UTF8`, `QE_ERR_INVALID_JSON` (not JSON at all), 200–299 for a
/// malformed record (no command has run), or 100–199 when command K of the record is illegal: then
/// `*failed_index` receives K (it receives `SIZE_MAX` on every other outcome), and the message reads
/// `"command K: R-...: ..."`. `failed_index` may be NULL. A record longer than 1,048,576 bytes
/// (`qe_core::MAX_RECORD_BYTES`) is `QE_ERR_RECORD` whatever it holds: it is not parsed.
///
/// # Safety
/// `json` must be NULL (an error) or a NUL-terminated string; `failed_index` must be NULL or valid
/// for writes; `out_game` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_from_record(
    json: *const c_char,
    failed_index: *mut usize,
    out_game: *mut *mut QeGame,
) -> QeStatus {
    status::guard(|| {
        let mut failed = if failed_index.is_null() {
            None
        } else {
            let f = out_arg(failed_index, "failed_index")?;
            f.set(usize::MAX);
            Some(f)
        };
        let out = out_arg(out_game, "out_game")?;
        // SAFETY: caller contract.
        let text = unsafe { str_arg(json, "json")? };
        let record = Record::from_json(text)
            .map_err(|e| reader_error(text, "json", qe_core::MAX_RECORD_BYTES, e.into()))?;
        let m = record.replay().map_err(|e| {
            if let (qe_core::ReplayError::Command { index, .. }, Some(f)) = (&e, failed.as_mut()) {
                f.set(*index);
            }
            Error::from(e)
        })?;
        out.set(handle::allocate::<QeGame>(GameState::new(m)));
        Ok(())
    })
}

/// Creates an independent copy of a game, with its history and event cursors. Writes the new
/// handle to `*out_game`; free it with `qe_game_free`.
///
/// # Safety
/// `game` must be NULL, a live handle or a freed one; `out_game` must be NULL (an error) or valid
/// for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_clone(
    game: *const QeGame,
    out_game: *mut *mut QeGame,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let out = out_arg(out_game, "out_game")?;
        out.set(handle::allocate::<QeGame>(GameState {
            m: state.m.clone(),
            cursors: state.cursors,
        }));
        Ok(())
    })
}

/// Frees a game. NULL is accepted and ignored. Freeing a freed handle gives
/// `QE_ERR_INVALID_HANDLE` (and does nothing).
///
/// # Safety
/// `game` must be NULL, a handle from this library (live or freed), and not in use by another
/// thread.
#[no_mangle]
pub unsafe extern "C" fn qe_game_free(game: *mut QeGame) -> QeStatus {
    status::guard(|| {
        if game.is_null() {
            return Ok(());
        }
        // SAFETY: caller contract.
        unsafe { handle::release(game) }
    })
}

// ----- commands -----------------------------------------------------------------------------------

/// Applies a command (the fast path: no JSON, no allocation beyond the history). On error the game
/// is unchanged (R-AUC-12), and the status is the rules error (100–199) or
/// `QE_ERR_INVALID_ARGUMENT` for a bad `kind`, `pile` or `reserved` field.
///
/// # Safety
/// `game` must be NULL, a live handle or a freed one, not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn qe_game_apply(game: *mut QeGame, command: QeCommand) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get_mut(game)? };
        let command = command_of(&command)?;
        state.m.play(command)?;
        Ok(())
    })
}

/// Applies a command given as JSON in the record format: `{"seat":0,"bid":5}`,
/// `{"seat":1,"take_asset":"gold"}`, `{"seat":0,"discard_asset":"oil"}`, `{"seat":3,"peek":2}`.
/// On error the game is unchanged; a well-formed JSON value that is not a command gives
/// `QE_ERR_MALFORMED_COMMAND` (118) or `QE_ERR_BID_OUT_OF_RANGE` (107), and so does a text longer
/// than 4,096 bytes (`qe_core::MAX_COMMAND_BYTES`), whatever it holds: it is not parsed.
///
/// # Safety
/// `game` as in `qe_game_apply`; `json` must be NULL (an error) or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn qe_game_apply_json(game: *mut QeGame, json: *const c_char) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get_mut(game)? };
        // SAFETY: caller contract.
        let text = unsafe { str_arg(json, "json")? };
        let command = command_of_json(text, "json")?;
        state.m.play(command)?;
        Ok(())
    })
}

// ----- queries ------------------------------------------------------------------------------------

/// Writes the public state of the game (phase, seats to act, turn, ...) to `*out`.
///
/// # Safety
/// `game` must be NULL, a live handle or a freed one; `out` must be NULL (an error) or valid for
/// writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_state(game: *const QeGame, out: *mut QeState) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        out_arg(out, "out")?.set(QeState::of(state.m.game()));
        Ok(())
    })
}

/// Writes the seats that must act now to `*out_mask` (bit i = seat i; 0 at the end). Peeks are
/// optional and never make a seat "to act".
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_to_act(game: *const QeGame, out_mask: *mut u8) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        out_arg(out_mask, "out_mask")?.set(state.m.game().to_act().bits());
        Ok(())
    })
}

/// Writes the bids `seat` may make now to `*out` (`can_bid` = 0 when it may not bid now).
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_bid_range(
    game: *const QeGame,
    seat: u8,
    out: *mut QeBidRange,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let seat = seat_arg(state, seat)?;
        out_arg(out, "out")?.set(state.m.game().bid_range(seat).into());
        Ok(())
    })
}

/// Writes everything `seat` may do now (bid range, piles to take or discard from, peeks) to `*out`.
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_legal(
    game: *const QeGame,
    seat: u8,
    out: *mut QeLegal,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let seat = seat_arg(state, seat)?;
        out_arg(out, "out")?.set(state.m.game().legal(seat).into());
        Ok(())
    })
}

/// Writes what `viewer` (a seat or `QE_SPECTATOR`) knows of `seat` to `*out`: its nation, its
/// industry and total spent when the viewer may know them, its tiles and tokens, its standing bid
/// when visible (R-VIS).
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_seat_info(
    game: *const QeGame,
    viewer: u8,
    seat: u8,
    out: *mut QeSeatInfo,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let seat = seat_arg(state, seat)?;
        let out = out_arg(out, "out")?;
        let view = view_for(state, viewer);
        out.set(QeSeatInfo::of(&view, seat.index()));
        Ok(())
    })
}

/// Writes what `viewer` (a seat or `QE_SPECTATOR`) knows of the auction of `turn` to `*out`.
/// `turn` must be a turn already started (0 ≤ turn ≤ current turn, and < the number of turns).
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_auction(
    game: *const QeGame,
    viewer: u8,
    turn: u8,
    out: *mut QeAuction,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let out = out_arg(out, "out")?;
        let view = view_for(state, viewer);
        let auction = view.auctions().get(turn as usize).ok_or_else(|| {
            Error::invalid(format!(
                "turn {turn} has not started ({} started)",
                view.turns_started
            ))
        })?;
        out.set(auction.into());
        Ok(())
    })
}

/// The view of `viewer`: a seat's, or the spectator's (public) view.
fn view_for(state: &GameState, viewer: Option<Seat>) -> qe_core::SeatView {
    match viewer {
        Some(v) => state.m.game().view(v),
        None => state.m.game().public_view(),
    }
}

/// What `viewer` can prove about every seat's total spent: for a seat, from its view and its own
/// bids (`Match::deduce`); for `QE_SPECTATOR`, from the public view.
fn deduction(state: &GameState, viewer: Option<Seat>) -> qe_core::Deduction {
    match viewer {
        Some(v) => state.m.deduce(v),
        None => state.m.game().public_view().deduce(),
    }
}

/// Writes what `viewer` (a seat or `QE_SPECTATOR`) can prove about the total spent of `seat` to
/// `*out` (the deduction aid: lower and upper bounds, from the viewer's own information only, R-VIS-8).
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_spend_bounds(
    game: *const QeGame,
    viewer: u8,
    seat: u8,
    out: *mut QeSpendBounds,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let seat = seat_arg(state, seat)?;
        let out = out_arg(out, "out")?;
        let d = deduction(state, viewer);
        out.set(QeSpendBounds::of(&d.seats[seat.index()], seat.0));
        Ok(())
    })
}

/// Writes the view of `viewer` (a seat, or `QE_SPECTATOR`) as JSON to `*out_json`: everything it
/// may know and nothing more (R-VIS-1…8), plus `"bid_history"`: every secret bid and rebid so far
/// as the viewer sees it (`turn`, `seat`, `stage`, `amount`, null when hidden; every amount once
/// the game is over, R-VIS-7), and `"spend_bounds"`: per seat, what the viewer can prove about its
/// total spent (`lower`, `upper`, `known_prices`, `won`). Free the string with `qe_string_free`.
///
/// # Safety
/// As `qe_game_state`, with `out_json` NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_view_json(
    game: *const QeGame,
    viewer: u8,
    out_json: *mut *mut c_char,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let out = out_arg(out_json, "out_json")?;
        /// The view's fields and `bid_history`, then `spend_bounds`, written straight to text
        /// (totals past 64 bits stay exact).
        #[derive(serde::Serialize)]
        struct ViewJson<'a> {
            #[serde(flatten)]
            view: &'a qe_core::MatchView,
            spend_bounds: &'a [qe_core::SpendBounds],
        }
        let view = state.m.view(viewer);
        let bounds = deduction(state, viewer);
        let text = serde_json::to_string(&ViewJson {
            view: &view,
            spend_bounds: bounds.seats.in_play(state.m.game().players()),
        })
        .map_err(|e| Error::new(QE_ERR_PANIC, format!("internal error: {e}")))?;
        give_string(text, &out)
    })
}

/// Writes how many events `viewer` (a seat or `QE_SPECTATOR`) has not read yet to `*out_count`.
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_events_pending(
    game: *const QeGame,
    viewer: u8,
    out_count: *mut usize,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let cursor = state.cursors[cursor_index(viewer)];
        out_arg(out_count, "out_count")?.set(state.m.events().len() - cursor);
        Ok(())
    })
}

/// Marks every event unread for `viewer` (a seat or `QE_SPECTATOR`): the next `qe_game_events` or
/// `qe_game_events_json` starts again from the set-up. Once the game is over every event is given
/// in full to every viewer (R-VIS-7), so rewinding then shows each bid and rebid of the game, the
/// ones that were hidden while it ran included.
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_events_rewind(game: *mut QeGame, viewer: u8) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get_mut(game)? };
        let viewer = viewer_arg(state, viewer)?;
        state.cursors[cursor_index(viewer)] = 0;
        Ok(())
    })
}

/// Copies up to `cap` of the events `viewer` has not read yet, as it may see them (R-VIS-8; in full
/// once the game is over, R-VIS-7), into
/// `buf`, writes how many were copied to `*out_count`, and marks them read. The first call returns
/// the events of the set-up (deal, first reveal). Each viewer (every seat and the spectator) has its
/// own cursor, shared with `qe_game_events_json`. Call again while `*out_count` == `cap` to drain.
///
/// # Safety
/// As `qe_game_state`; `buf` must be valid for `cap` `QeEvent`s of writes (NULL only if `cap` is 0).
#[no_mangle]
pub unsafe extern "C" fn qe_game_events(
    game: *mut QeGame,
    viewer: u8,
    buf: *mut QeEvent,
    cap: usize,
    out_count: *mut usize,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get_mut(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let count = out_arg(out_count, "out_count")?;
        if buf.is_null() && cap != 0 {
            return Err(Error::null("buf"));
        }
        if !buf.is_null() && (buf as usize) % std::mem::align_of::<QeEvent>() != 0 {
            return Err(Error::invalid("`buf` is misaligned"));
        }
        let i = cursor_index(viewer);
        let cursor = state.cursors[i];
        let new = &state.m.events()[cursor..];
        let n = new.len().min(cap);
        let seen_by = state.m.viewer(viewer);
        for (k, e) in new[..n].iter().enumerate() {
            // SAFETY: `buf` is valid for `cap` > `k` events.
            unsafe { buf.add(k).write(QeEvent::from(&e.as_seen(seen_by))) };
        }
        state.cursors[i] = cursor + n;
        count.set(n);
        Ok(())
    })
}

/// Writes the events `viewer` has not read yet, as it may see them (in full once the game is over,
/// R-VIS-7), as a JSON array to
/// `*out_json`, and marks them read (same cursor as `qe_game_events`). Free the string with
/// `qe_string_free`.
///
/// # Safety
/// As `qe_game_state`, with `out_json` NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_events_json(
    game: *mut QeGame,
    viewer: u8,
    out_json: *mut *mut c_char,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get_mut(game)? };
        let viewer = viewer_arg(state, viewer)?;
        let out = out_arg(out_json, "out_json")?;
        let i = cursor_index(viewer);
        let events: Vec<qe_core::Event> = state
            .m
            .events_as_seen(viewer)
            .skip(state.cursors[i])
            .collect();
        let text = serde_json::to_string(&events)
            .map_err(|e| Error::new(QE_ERR_PANIC, format!("internal error: {e}")))?;
        give_string(text, &out)?;
        state.cursors[i] = state.m.events().len();
        Ok(())
    })
}

/// Writes the final result of `seat` to `*out`. `QE_ERR_NOT_OVER` while the game is running.
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_outcome(
    game: *const QeGame,
    seat: u8,
    out: *mut QeSeatOutcome,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let seat = seat_arg(state, seat)?;
        let out = out_arg(out, "out")?;
        let outcome =
            state.m.game().outcome().ok_or_else(|| {
                Error::new(QE_ERR_NOT_OVER, "the game is not over: no outcome yet")
            })?;
        out.set(outcome.seat(seat).into());
        Ok(())
    })
}

/// Writes the outcome as JSON (`{"seats":[...]}`, the fields of RECORD.md "Outcome") to
/// `*out_json`. `QE_ERR_NOT_OVER` while the game is running. Free the string with
/// `qe_string_free`.
///
/// # Safety
/// As `qe_game_state`, with `out_json` NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_outcome_json(
    game: *const QeGame,
    out_json: *mut *mut c_char,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let out = out_arg(out_json, "out_json")?;
        let outcome =
            state.m.game().outcome().ok_or_else(|| {
                Error::new(QE_ERR_NOT_OVER, "the game is not over: no outcome yet")
            })?;
        let text = serde_json::to_string(&outcome)
            .map_err(|e| Error::new(QE_ERR_PANIC, format!("internal error: {e}")))?;
        give_string(text, &out)
    })
}

/// Writes the game record (`qe-record/1` JSON, finished or not) to `*out_json`; replaying it with
/// `qe_game_from_record` gives the same game so far. Free the string with `qe_string_free`. A
/// record lists the whole deck and piles: for a game with external chance, the tiles and tokens
/// not yet revealed are written in an order of the record's own, so its replay has that future
/// and no external chance (keep the commands, `qe_game_chance_json` outcomes included, to restore
/// such a game). A game with external chance has no record before its deal:
/// `QE_ERR_INVALID_ARGUMENT`, and nothing is written (Python's `Game.record()` gives `None` there).
///
/// # Safety
/// As `qe_game_state`, with `out_json` NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_record_json(
    game: *const QeGame,
    out_json: *mut *mut c_char,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let out = out_arg(out_json, "out_json")?;
        let record = state
            .m
            .record()
            .ok_or_else(|| Error::invalid("no record before the deal"))?;
        give_string(record.to_json(), &out)
    })
}

// ----- external chance (R-SET-3) -----------------------------------------------------------------

/// Writes to `*out_count` how many outcomes the pending chance event has, each equally likely
/// (R-SET-3): the deals, the tiles left, or the tokens left in the pile drawn from; 0 when no
/// chance event is pending (only games created with `QE_GAME_EXTERNAL_CHANCE` have any).
///
/// # Safety
/// `game` as in `qe_game_state`; `out_count` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_chance_count(
    game: *const QeGame,
    out_count: *mut usize,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let out = out_arg(out_count, "out_count")?;
        out.set(state.m.game().chance_outcomes().len());
        Ok(())
    })
}

/// The chance outcome `index` (below `qe_game_chance_count`) as a command in the record format,
/// for example `{"chance":{"reveal":"US-AGR"}}`; `qe_game_apply_json` accepts it. Free the string
/// with `qe_string_free`.
///
/// Errors: `QE_ERR_INVALID_ARGUMENT` for an index past the outcomes.
///
/// # Safety
/// `game` as in `qe_game_state`; `out_json` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_chance_json(
    game: *const QeGame,
    index: usize,
    out_json: *mut *mut c_char,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let out = out_arg(out_json, "out_json")?;
        let outcome = chance_outcome(state.m.game(), index)?;
        let players = state.m.game().players();
        give_string(Command::Chance(outcome).to_json_for(players), &out)
    })
}

/// Applies the chance outcome `index` (below `qe_game_chance_count`): a game server deals, reveals
/// and draws by picking uniformly among the outcomes, or replays the ones it recorded.
///
/// Errors: `QE_ERR_INVALID_ARGUMENT` for an index past the outcomes (nothing changes).
///
/// # Safety
/// `game` as in `qe_game_apply`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_apply_chance(game: *mut QeGame, index: usize) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get_mut(game)? };
        let outcome = chance_outcome(state.m.game(), index)?;
        state.m.play(Command::Chance(outcome))?;
        Ok(())
    })
}

/// Outcome `index` of the pending chance event.
fn chance_outcome(game: &Game, index: usize) -> Result<qe_core::ChanceOutcome, Error> {
    let outcomes = game.chance_outcomes();
    outcomes.get(index).copied().ok_or_else(|| {
        Error::invalid(if outcomes.is_empty() {
            format!("chance outcome {index}: no chance event is pending")
        } else {
            format!(
                "chance outcome {index} is out of range: the pending chance event has {}",
                outcomes.len()
            )
        })
    })
}

// ----- bots ---------------------------------------------------------------------------------------

/// Creates a bot. `kind` is a bot name of qe-core's list (`qe_core::bots::NAMES`): `"random"`,
/// `"miser"`, `"value"`, `"search"`, or a search level written out (`"search:easy"`,
/// `"search:medium"`, `"search:hard"`). `level` is `QE_BOT_LEVEL_DEFAULT` (the bot as named;
/// `"search"` is medium), or `QE_BOT_LEVEL_EASY`, `QE_BOT_LEVEL_MEDIUM`, `QE_BOT_LEVEL_HARD` for
/// `"search"`. `seed` makes it deterministic: the same seed and the same game give the same
/// decisions. Writes the new handle to `*out_bot`; free it with `qe_bot_free`.
///
/// Errors: `QE_ERR_INVALID_ARGUMENT` for an unknown name (the message lists the names), a level
/// for a bot without levels, a level given twice (`"search:hard"` with `QE_BOT_LEVEL_EASY`) or a
/// level past `QE_BOT_LEVEL_HARD`; `QE_ERR_INVALID_UTF8`, `QE_ERR_NULL_POINTER`.
///
/// # Safety
/// `kind` must be NULL (an error) or a NUL-terminated string; `out_bot` must be NULL (an error) or
/// valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_bot_new(
    kind: *const c_char,
    level: u32,
    seed: u64,
    out_bot: *mut *mut QeBot,
) -> QeStatus {
    status::guard(|| {
        let out = out_arg(out_bot, "out_bot")?;
        // SAFETY: caller contract.
        let kind = unsafe { str_arg(kind, "kind")? };
        let names = qe_core::bots::NAMES.join(", ");
        if !qe_core::bots::NAMES.contains(&kind) {
            return Err(Error::invalid(format!(
                "unknown bot `{}` (bots: {names})",
                qe_core::shown(kind)
            )));
        }
        let name = match level {
            QE_BOT_LEVEL_DEFAULT => kind.to_owned(),
            QE_BOT_LEVEL_EASY | QE_BOT_LEVEL_MEDIUM | QE_BOT_LEVEL_HARD => {
                if kind != "search" {
                    return Err(Error::invalid(format!(
                        "bot `{kind}` takes no level (only `search` does, or QE_BOT_LEVEL_DEFAULT)"
                    )));
                }
                let level = qe_core::bots::Level::ALL[(level - QE_BOT_LEVEL_EASY) as usize];
                format!("search:{}", level.name())
            }
            _ => {
                return Err(Error::invalid(format!(
                    "level {level} is not a QE_BOT_LEVEL_* (0 to 3)"
                )))
            }
        };
        let state = qe_core::bots::NamedBot::new(&name, seed)
            .ok_or_else(|| Error::invalid(format!("unknown bot `{name}` (bots: {names})")))?;
        out.set(handle::allocate::<QeBot>(state));
        Ok(())
    })
}

/// Asks `bot` for the command of `seat` in `game` now and writes it to `*out_command`; the game is
/// not changed (apply the command with `qe_game_apply`). The bot decides from what the seat may
/// see only: its view and its bid history (R-VIS-8). The command may be a peek (5 players,
/// R-VIS-5): apply it and ask again, the seat still has to act. A game played with another manifest
/// than the bot's (a record's own values) rebuilds the bot for that manifest, with the same seed.
///
/// Errors: `QE_ERR_NOT_TO_ACT` when the seat is not among the seats to act (`QeState.to_act`);
/// `QE_ERR_SEAT_OUT_OF_RANGE` for a seat that is not a seat of the game; `QE_ERR_NULL_POINTER`,
/// `QE_ERR_INVALID_HANDLE` for either handle.
///
/// # Safety
/// `bot` and `game` must each be NULL, a live handle of their type or a freed one, not in use by
/// another thread; `out_command` must be NULL (an error) or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn qe_bot_decide(
    bot: *mut QeBot,
    game: *const QeGame,
    seat: u8,
    out_command: *mut QeCommand,
) -> QeStatus {
    status::guard(|| {
        // SAFETY: caller contract.
        let bot = unsafe { handle::get_mut(bot)? };
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        let seat = seat_arg(state, seat)?;
        let out = out_arg(out_command, "out_command")?;
        let m = &state.m;
        let not_to_act = || {
            Error::new(
                QE_ERR_NOT_TO_ACT,
                format!("seat {} has nothing to do now (it is not to act)", seat.0),
            )
        };
        if !m.game().to_act().contains(seat) {
            return Err(not_to_act());
        }
        let command = bot.decide(m, seat, true).ok_or_else(not_to_act)?;
        out.set(QeCommand::from(command));
        Ok(())
    })
}

/// Frees a bot. NULL is accepted and ignored. Freeing a freed bot gives `QE_ERR_INVALID_HANDLE`
/// (and does nothing).
///
/// # Safety
/// `bot` must be NULL, a bot handle from this library (live or freed), and not in use by another
/// thread.
#[no_mangle]
pub unsafe extern "C" fn qe_bot_free(bot: *mut QeBot) -> QeStatus {
    status::guard(|| {
        if bot.is_null() {
            return Ok(());
        }
        // SAFETY: caller contract.
        unsafe { handle::release(bot) }
    })
}

/// For tests of the panic boundary only (not part of the C ABI): runs a panicking closure behind
/// the same guard as every entry point. Its payload is a `&'static str`, or with `number` a
/// `String` (a message formatted with that number).
#[doc(hidden)]
pub fn __test_panic_boundary(number: Option<u32>) -> QeStatus {
    status::guard(|| match number {
        None => panic!("deliberate test panic"),
        Some(n) => panic!("deliberate test panic number {n}"),
    })
}

const _: () = assert!(CURSORS == qe_core::MAX_SEATS + 1);
