//! A game's actions (`qe_core::encoding::ActionSpace`): the legal actions of a seat, the
//! commands of one action (or bid) per acting seat checked all together, and the observation and
//! mask rows written into the caller's buffers.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use qe_core::encoding::OBS_SIZE;
use qe_core::{Command, Game, PerSeat, Seat, SeatSet};

use super::PyGame;
use crate::buf;
use crate::encoding::MAX_ACTIONS;
use crate::errors::command_error;
use crate::lists::{int_list, int_range_list};

impl PyGame {
    /// The error for `action` of `seat`, outside the action space.
    pub(super) fn out_of_range(&self, action: impl core::fmt::Display, seat: Seat) -> PyErr {
        PyValueError::new_err(format!(
            "action {action} out of range 0..{} (seat {})",
            self.space.size(),
            seat.0
        ))
    }

    /// The seats that must act now and the number of seats, or the error of any command when
    /// none may act (R-TRN-4 once the game is over, R-SET-3 while a chance outcome is pending).
    #[inline]
    pub(super) fn acting(&self, py: Python<'_>) -> PyResult<(SeatSet, usize)> {
        let g = self.game();
        match g.idle_error() {
            Some(e) => Err(command_error(py, &e)),
            None => Ok((g.to_act(), usize::from(g.players()))),
        }
    }

    /// The first rule the commands of the acting seats break, played in turn on a copy of the
    /// game: for commands checked together when one of them may be illegal.
    pub(super) fn first_error(
        &self,
        py: Python<'_>,
        commands: &PerSeat<Option<Command>>,
    ) -> PyResult<()> {
        let mut copy = *self.game();
        for c in commands.values().flatten() {
            copy.play(*c).map_err(|e| command_error(py, &e))?;
        }
        Ok(())
    }

    /// The commands of one action per acting seat (`actions[seat]`), checked all together: an
    /// error (bad entry, action out of range, or the first rule an action breaks) changes nothing.
    pub(super) fn step_commands(
        &self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
    ) -> PyResult<PerSeat<Option<Command>>> {
        let (acting, seats) = self.acting(py)?;
        let ints = buf::seat_ints(actions, seats, acting, |q, s| {
            self.out_of_range(q, Seat(s as u8))
        })?;
        let mut commands = PerSeat::splat(None);
        let mut ok = true;
        for s in acting.iter() {
            let a = ints[s].ok_or_else(|| no_entry("actions", s, "act"))?;
            let legal = self.legal_of(s);
            let out_of_range = || self.out_of_range(a, s);
            let a = usize::try_from(a).map_err(|_| out_of_range())?;
            let c = self.space.decode(s, &legal, a).ok_or_else(out_of_range)?;
            ok &= self.space.is_legal(&legal, a);
            commands[s] = Some(c);
        }
        if !ok {
            self.first_error(py, &commands)?;
        }
        Ok(commands)
    }

    /// What `seat` may do now, as far as this game's action space can express it: in a bidding
    /// phase without peek actions only the bid range counts (the rest of [`Game::legal`], the
    /// peeks, is not computed).
    pub(super) fn legal_of(&self, seat: Seat) -> qe_core::Legal {
        let g = self.game();
        if !self.space.has_peeks() && is_bidding(g) {
            qe_core::Legal::bid_only(g.bid_range(seat))
        } else {
            g.legal(seat)
        }
    }

    /// The legal action indices of `seat` now, lowest first.
    pub(super) fn legal_actions_of<'py>(
        &self,
        py: Python<'py>,
        s: Seat,
    ) -> PyResult<Bound<'py, PyList>> {
        let g = self.game();
        if !self.space.has_peeks() && is_bidding(g) {
            // The hot case (sealed bids, rebids, opening bids): the rungs the bid range allows,
            // without the rest of `Game::legal`: a run of rungs less the forbidden amount's.
            let Some(range) = g.bid_range(s) else {
                return int_list(py, &[]);
            };
            let amounts = self.space.ladder().amounts();
            let lo = amounts.partition_point(|&a| a < range.min);
            let hi = amounts.partition_point(|&a| a <= range.max).max(lo);
            let skip = range
                .forbidden
                .and_then(|f| amounts[lo..hi].binary_search(&f).ok())
                .map(|i| lo + i);
            return int_range_list(py, lo, hi, skip);
        }
        let mut legal = [0u8; MAX_ACTIONS];
        let mut count = 0;
        let mut mask = [false; MAX_ACTIONS];
        let n = self.space.size();
        self.space.mask(&g.legal(s), &mut mask[..n]);
        for (a, _) in mask[..n].iter().enumerate().filter(|(_, &m)| m) {
            legal[count] = a as u8;
            count += 1;
        }
        int_list(py, &legal[..count])
    }

    /// Applies commands checked by [`PyGame::step_commands`].
    pub(super) fn apply_all(
        &mut self,
        py: Python<'_>,
        commands: PerSeat<Option<Command>>,
    ) -> PyResult<()> {
        for c in commands.into_array().into_iter().flatten() {
            self.play_cmd(py, c)?;
        }
        Ok(())
    }

    /// Writes the observation and mask rows of every seat (`acting_only`: of the seats that must
    /// act; the others get a zero mask row, and a zero observation row when `zero_others`) into
    /// `obs` / `mask`, validated by [`PyGame::out_buffers`].
    pub(super) fn write_rows(
        &mut self,
        obs: &mut [f32],
        mask: &mut [i8],
        acting_only: bool,
        zero_others: bool,
    ) {
        let a = self.space.size();
        let acting = self.m.game().to_act();
        let rows = obs.chunks_exact_mut(OBS_SIZE).zip(mask.chunks_exact_mut(a));
        for (s, (o, k)) in rows.enumerate() {
            let seat = Seat(s as u8);
            if acting_only && !acting.contains(seat) {
                if zero_others {
                    buf::zero_row(o);
                }
                k.fill(0);
                continue;
            }
            self.m.observe(seat, o);
            self.space.mask_with(&self.m.game().legal(seat), k, 1, 0);
        }
    }

    /// Checks `obs` (float32 `[players, obs_size]`) and `mask` (int8 `[players, num_actions]`).
    pub(super) fn out_buffers(
        &self,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<(buf::Buffer<f32>, buf::Buffer<i8>)> {
        let p = self.game().players() as usize;
        let obs = buf::Buffer::<f32>::check(obs, &[p, OBS_SIZE], "obs")?;
        let mask = buf::Buffer::<i8>::check(mask, &[p, self.space.size()], "mask")?;
        if !obs.disjoint(&mask) {
            return Err(PyValueError::new_err("obs and mask must not overlap"));
        }
        Ok((obs, mask))
    }
}

/// Whether `g` waits for bids (opening, sealed, rebids): no seat may take or discard then.
fn is_bidding(g: &Game) -> bool {
    matches!(
        g.phase(),
        qe_core::Phase::OpeningBid { .. }
            | qe_core::Phase::Bidding
            | qe_core::Phase::Rebid { .. }
            | qe_core::Phase::AssetRebid { .. }
    )
}

/// The error of a per-seat sequence `name` without an entry for `seat`, which must `verb` now.
pub(super) fn no_entry(name: &str, seat: Seat, verb: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{name} has no entry for seat {}, which must {verb} (one entry per seat)",
        seat.0
    ))
}
