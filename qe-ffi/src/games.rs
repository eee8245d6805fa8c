//! The `QeGame` handle, and the entry points that create, copy and free games and apply commands
//! to them; with the readers of the arguments that name a seat or a viewer of a game.

use std::ffi::c_char;

use qe_core::{
    AssetKind, Command, CommandError, Expansion, Expansions, Game, Match, Rules, Seat, SetupError,
    MAX_SEATS,
};

use crate::entry::{self, flag_arg, no_args, no_more_args, out, str_arg, Out};
use crate::handle::{self, Handle, Kind};
use crate::records;
use crate::status::{Error, QeStatus};
use crate::types::{
    QeCommand, QeGameOptions, QE_COMMAND_BID, QE_COMMAND_DISCARD_ASSET, QE_COMMAND_PEEK,
    QE_COMMAND_TAKE_ASSET, QE_GAME_EXTERNAL_CHANCE, QE_SPECTATOR,
};

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

/// What a live game handle holds.
pub(crate) struct GameState {
    /// The game and its history.
    pub m: Match,
    /// Per seat (and, last, the spectator): how many events of `m.events()` were already read.
    pub cursors: [usize; CURSORS],
}

impl GameState {
    /// A game whose events no one has read yet.
    pub fn new(m: Match) -> GameState {
        GameState {
            m,
            cursors: [0; CURSORS],
        }
    }

    /// What `viewer` can prove about every seat's total spent: for a seat, from its view and its
    /// own bids (`Match::deduce`); for `QE_SPECTATOR`, from the public view.
    pub fn deduction(&self, viewer: Option<Seat>) -> qe_core::Deduction {
        match viewer {
            Some(v) => self.m.deduce(v),
            None => self.m.game().public_view().deduce(),
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

/// The reader of a `viewer` argument: a seat of the game, or `QE_SPECTATOR` (`None`).
pub(crate) fn viewer(viewer: u8) -> impl Fn(&GameState) -> Result<Option<Seat>, Error> {
    move |state| {
        if viewer == QE_SPECTATOR {
            Ok(None)
        } else if viewer < state.m.game().players() {
            Ok(Some(Seat(viewer)))
        } else {
            Err(seat_out_of_range(
                viewer,
                "viewer (a seat, or QE_SPECTATOR)",
            ))
        }
    }
}

/// The reader of a `seat` argument: a seat of the game.
pub(crate) fn seat(seat: u8) -> impl Fn(&GameState) -> Result<Seat, Error> {
    move |state| {
        if seat < state.m.game().players() {
            Ok(Seat(seat))
        } else {
            Err(seat_out_of_range(seat, "seat"))
        }
    }
}

/// The reader of a `viewer` argument then a `seat` argument.
pub(crate) fn viewer_and_seat(
    viewer: u8,
    seat: u8,
) -> impl Fn(&GameState) -> Result<(Option<Seat>, Seat), Error> {
    move |state| Ok((self::viewer(viewer)(state)?, self::seat(seat)(state)?))
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

// ----- creating and freeing games -----------------------------------------------------------------

/// Fills `*out` with the default options of a new game (4 players, base game, seed 0) and
/// `struct_size = sizeof(QeGameOptions)`.
///
/// # Safety
/// `out` must be NULL (an error) or valid for writes of a `QeGameOptions`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_options_init(out: *mut QeGameOptions) -> QeStatus {
    entry::call(no_args, out!(out), |()| {
        Ok(QeGameOptions {
            struct_size: std::mem::size_of::<QeGameOptions>() as u32,
            players: 4,
            ..QeGameOptions::default()
        })
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
    entry::call(no_args, out!(out_game), |()| {
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
        Ok(handle::allocate(GameState::new(m)))
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
/// to `*out_game`; free it with `qe_game_free`. The same as `qe_game_new_with` with these options:
/// a shorthand kept for callers written before it. The expansions are a set, and
/// `QeGameOptions.expansions` (`QE_EXPANSION_*` bits) of `qe_game_new_with` is the way to name
/// them, the only one for an expansion after Commodities.
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
    entry::call(no_args, out!(out_game), |()| {
        let on = flag_arg(commodities, "commodities")?;
        let expansions = Expansions::NONE.set(Expansion::Commodities, on);
        let rules = rules_of(players.into(), expansions)?;
        Ok(handle::allocate(GameState::new(Match::seeded(rules, seed))))
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
    let failed = || {
        if failed_index.is_null() {
            return Ok(None);
        }
        let f = out!(failed_index).check()?;
        f.set(usize::MAX);
        Ok(Some(f))
    };
    entry::call(failed, out!(out_game), |failed: Option<Out<usize>>| {
        // SAFETY: caller contract.
        let text = unsafe { str_arg(json, "json")? };
        let m = records::replay(text, failed.as_ref())?;
        Ok(handle::allocate(GameState::new(m)))
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
    let work = |state: &GameState, ()| {
        Ok(handle::allocate(GameState {
            m: state.m.clone(),
            cursors: state.cursors,
        }))
    };
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, out!(out_game), work) }
}

/// Frees a game. NULL is accepted and ignored. Freeing a freed handle gives
/// `QE_ERR_INVALID_HANDLE` (and does nothing).
///
/// # Safety
/// `game` must be NULL, a handle from this library (live or freed), and not in use by another
/// thread.
#[no_mangle]
pub unsafe extern "C" fn qe_game_free(game: *mut QeGame) -> QeStatus {
    // SAFETY: caller contract.
    unsafe { entry::free(game) }
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
    let work = |state: &mut GameState, ()| {
        state.m.play(command_of(&command)?)?;
        Ok(())
    };
    // SAFETY: caller contract.
    unsafe { entry::update(game, no_more_args, (), work) }
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
    let work = |state: &mut GameState, ()| {
        // SAFETY: caller contract.
        let text = unsafe { str_arg(json, "json")? };
        state.m.play(records::command(text, "json")?)?;
        Ok(())
    };
    // SAFETY: caller contract.
    unsafe { entry::update(game, no_more_args, (), work) }
}

/// Reads a flat command.
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
