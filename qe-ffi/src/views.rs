//! The entry points that read a game: its state, what a seat may do, what a viewer knows (flat
//! structs and JSON), the events, the outcome and the record.

use std::ffi::c_char;

use qe_core::Seat;

use crate::entry::{self, no_more_args, out, text};
use crate::games::{self, cursor_index, GameState, QeGame};
use crate::records;
use crate::status::{Error, QeStatus, QE_ERR_NOT_OVER};
use crate::types::{
    QeAuction, QeBidRange, QeEvent, QeLegal, QeSeatInfo, QeSeatOutcome, QeSpendBounds, QeState,
};

/// Writes the public state of the game (phase, seats to act, turn, ...) to `*out`.
///
/// # Safety
/// `game` must be NULL, a live handle or a freed one; `out` must be NULL (an error) or valid for
/// writes.
#[no_mangle]
pub unsafe extern "C" fn qe_game_state(game: *const QeGame, out: *mut QeState) -> QeStatus {
    let work = |state: &GameState, ()| Ok(QeState::of(state.m.game()));
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, out!(out), work) }
}

/// Writes the seats that must act now to `*out_mask` (bit i = seat i; 0 at the end). Peeks are
/// optional and never make a seat "to act".
///
/// # Safety
/// As `qe_game_state`.
#[no_mangle]
pub unsafe extern "C" fn qe_game_to_act(game: *const QeGame, out_mask: *mut u8) -> QeStatus {
    let work = |state: &GameState, ()| Ok(state.m.game().to_act().bits());
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, out!(out_mask), work) }
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
    let work = |state: &GameState, seat| Ok(state.m.game().bid_range(seat).into());
    // SAFETY: caller contract.
    unsafe { entry::query(game, games::seat(seat), out!(out), work) }
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
    let work = |state: &GameState, seat| Ok(state.m.game().legal(seat).into());
    // SAFETY: caller contract.
    unsafe { entry::query(game, games::seat(seat), out!(out), work) }
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
    let args = games::viewer_and_seat(viewer, seat);
    let work = |state: &GameState, (viewer, seat): (_, Seat)| {
        Ok(QeSeatInfo::of(&view_for(state, viewer), seat))
    };
    // SAFETY: caller contract.
    unsafe { entry::query(game, args, out!(out), work) }
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
    let work = |state: &GameState, viewer| {
        let view = view_for(state, viewer);
        let auction = view.auctions().get(turn as usize).ok_or_else(|| {
            Error::invalid(format!(
                "turn {turn} has not started ({} started)",
                view.turns_started
            ))
        })?;
        Ok(auction.into())
    };
    // SAFETY: caller contract.
    unsafe { entry::query(game, games::viewer(viewer), out!(out), work) }
}

/// The view of `viewer`: a seat's, or the spectator's (public) view.
fn view_for(state: &GameState, viewer: Option<Seat>) -> qe_core::SeatView {
    match viewer {
        Some(v) => state.m.game().view(v),
        None => state.m.game().public_view(),
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
    let args = games::viewer_and_seat(viewer, seat);
    let work = |state: &GameState, (viewer, seat): (_, Seat)| {
        let d = state.deduction(viewer);
        Ok(QeSpendBounds::of(&d.seats[seat], seat.0))
    };
    // SAFETY: caller contract.
    unsafe { entry::query(game, args, out!(out), work) }
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
    // SAFETY: caller contract.
    unsafe { entry::query(game, games::viewer(viewer), text!(out_json), records::view) }
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
    let work = |state: &GameState, viewer| {
        Ok(state.m.events().len() - state.cursors[cursor_index(viewer)])
    };
    // SAFETY: caller contract.
    unsafe { entry::query(game, games::viewer(viewer), out!(out_count), work) }
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
    let work = |state: &mut GameState, viewer| {
        state.cursors[cursor_index(viewer)] = 0;
        Ok(())
    };
    // SAFETY: caller contract.
    unsafe { entry::update(game, games::viewer(viewer), (), work) }
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
    let work = |state: &mut GameState, viewer| {
        if buf.is_null() && cap != 0 {
            return Err(Error::null("buf"));
        }
        if !buf.is_null() && !buf.is_aligned() {
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
        Ok(n)
    };
    // SAFETY: caller contract.
    unsafe { entry::update(game, games::viewer(viewer), out!(out_count), work) }
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
    let work = |state: &mut GameState, viewer| {
        let i = cursor_index(viewer);
        let events: Vec<qe_core::Event> = state
            .m
            .events_as_seen(viewer)
            .skip(state.cursors[i])
            .collect();
        let text = records::json(&events)?;
        state.cursors[i] = state.m.events().len();
        Ok(text)
    };
    // SAFETY: caller contract.
    unsafe { entry::update(game, games::viewer(viewer), text!(out_json), work) }
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
    let work = |state: &GameState, seat| Ok(outcome(state)?.seat(seat).into());
    // SAFETY: caller contract.
    unsafe { entry::query(game, games::seat(seat), out!(out), work) }
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
    let work = |state: &GameState, ()| records::json(&outcome(state)?);
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, text!(out_json), work) }
}

/// The outcome of a finished game; `QE_ERR_NOT_OVER` while it runs.
fn outcome(state: &GameState) -> Result<qe_core::Outcome, Error> {
    state
        .m
        .game()
        .outcome()
        .ok_or_else(|| Error::new(QE_ERR_NOT_OVER, "the game is not over: no outcome yet"))
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
    let work = |state: &GameState, ()| records::record(state);
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, text!(out_json), work) }
}
