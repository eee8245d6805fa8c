//! The `QeBot` handle: one of qe-core's bots (`qe_core::bots::NAMES`), kept from decision to
//! decision, in a pooled handle cell like `QeGame` (see `handle`); and its entry points.

use std::ffi::c_char;

use qe_core::bots::NamedBot;
use qe_core::Seat;

use crate::entry::{self, no_args, out, str_arg};
use crate::games::{self, GameState, QeGame};
use crate::handle::{self, Handle, Kind};
use crate::status::{Error, QeStatus, QE_ERR_NOT_TO_ACT};
use crate::types::{
    QeCommand, QE_BOT_LEVEL_DEFAULT, QE_BOT_LEVEL_EASY, QE_BOT_LEVEL_HARD, QE_BOT_LEVEL_MEDIUM,
};

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
    /// Never made: a `*mut QeBot` is the address of a handle cell (see `handle`).
    _cell: [u8; 0],
}

/// The kind of bot handles.
static BOTS: Kind = Kind::new("QeBot", "bot", *b"QE_BOT!!", *b"QE_BOTXF");

impl Handle for QeBot {
    type State = NamedBot;
    fn kind() -> &'static Kind {
        &BOTS
    }
}

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
    entry::call(no_args, out!(out_bot), |()| {
        // SAFETY: caller contract.
        let kind = unsafe { str_arg(kind, "kind")? };
        let names = qe_core::bots::NAMES.join(", ") + ", " + qe_core::bots::TIMED_NAME;
        if !qe_core::bots::is_name(kind) {
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
        let state = NamedBot::new(&name, seed)
            .ok_or_else(|| Error::invalid(format!("unknown bot `{name}` (bots: {names})")))?;
        Ok(handle::allocate::<QeBot>(state))
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
    let game_and_seat = |_: &NamedBot| {
        // SAFETY: caller contract.
        let state = unsafe { handle::get(game)? };
        Ok((state, games::seat(seat)(state)?))
    };
    let work = |bot: &mut NamedBot, (state, seat): (&GameState, Seat)| {
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
        Ok(QeCommand::from(command))
    };
    // SAFETY: caller contract.
    unsafe { entry::update(bot, game_and_seat, out!(out_command), work) }
}

/// Frees a bot. NULL is accepted and ignored. Freeing a freed bot gives `QE_ERR_INVALID_HANDLE`
/// (and does nothing).
///
/// # Safety
/// `bot` must be NULL, a bot handle from this library (live or freed), and not in use by another
/// thread.
#[no_mangle]
pub unsafe extern "C" fn qe_bot_free(bot: *mut QeBot) -> QeStatus {
    // SAFETY: caller contract.
    unsafe { entry::free(bot) }
}
