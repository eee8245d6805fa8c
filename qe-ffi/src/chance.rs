//! The entry points of external chance (R-SET-3): a game created with `QE_GAME_EXTERNAL_CHANCE`
//! waits at each deal, reveal and draw for its outcome, given by the caller.

use std::ffi::c_char;

use qe_core::{ChanceOutcome, Command, Game};

use crate::entry::{self, no_more_args, out, text};
use crate::games::{GameState, QeGame};
use crate::records;
use crate::status::{Error, QeStatus};

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
    let work = |state: &GameState, ()| Ok(state.m.game().chance_outcomes().len());
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, out!(out_count), work) }
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
    let work = |state: &GameState, ()| {
        let outcome = chance_outcome(state.m.game(), index)?;
        let players = state.m.game().players();
        records::c_string(Command::Chance(outcome).to_json_for(players))
    };
    // SAFETY: caller contract.
    unsafe { entry::query(game, no_more_args, text!(out_json), work) }
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
    let work = |state: &mut GameState, ()| {
        let outcome = chance_outcome(state.m.game(), index)?;
        state.m.play(Command::Chance(outcome))?;
        Ok(())
    };
    // SAFETY: caller contract.
    unsafe { entry::update(game, no_more_args, (), work) }
}

/// Outcome `index` of the pending chance event.
fn chance_outcome(game: &Game, index: usize) -> Result<ChanceOutcome, Error> {
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
