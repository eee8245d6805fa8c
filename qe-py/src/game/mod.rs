//! `Game`: one game of QE with its history (a `qe_core::Match`), the class the facade `qe.Game`
//! extends. Its methods are the whole game API: state, commands, actions and observations, chance,
//! views, events and outcome (built as the facade's dataclasses by [`crate::views`]), copying and
//! pickling; [`actions`] holds the action-space helpers and [`state`] the pickled state.

mod actions;
mod state;

use actions::no_entry;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};
use qe_core::encoding::{
    observe_bounds, ActionSpace, BidLadder, BOUNDS_SIZE, INFO_STATE_SIZE, OBS_SIZE,
};
use qe_core::{Command, CommandError, Game, Match, PerSeat};

use crate::args::{self, seat_of};
use crate::encoding::{ladder_arg, PyBidLadder, PyBidRange};
use crate::errors::{bid_out_of_range, command_error, command_error_about, setup_error};
use crate::lists::seat_list;
use crate::setup::{players_of, random_seed, reward_of, rules};
use crate::{buf, command, records, views};

/// One game of QE with its history (a `qe_core::Match`).
#[pyclass(module = "qe._qe", name = "Game", subclass, skip_from_py_object)]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) m: Match,
    pub(crate) space: ActionSpace,
}

impl PyGame {
    /// A game of `m` with the action space `space`.
    fn with(m: Match, space: ActionSpace) -> PyGame {
        PyGame { m, space }
    }

    /// The game as it stands.
    pub(crate) fn game(&self) -> &Game {
        self.m.game()
    }

    /// Applies `c`, returning its events.
    fn apply_cmd(&mut self, py: Python<'_>, c: Command) -> PyResult<qe_core::Events> {
        self.m.apply(c).map_err(|e| command_error(py, &e))
    }

    /// [`PyGame::apply_cmd`] when the caller does not want the events back (cheaper).
    fn play_cmd(&mut self, py: Python<'_>, c: Command) -> PyResult<()> {
        self.m.play(c).map_err(|e| command_error(py, &e))
    }

    /// Plays `seat`'s take (or, with `discard`, discard) from the pile named `pile`.
    fn play_pile(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        pile: &str,
        discard: bool,
    ) -> PyResult<()> {
        let seat = seat_of(py, self.game(), seat)?;
        let c = Command::from_pile_name(seat, pile, discard).map_err(|e| command_error(py, &e))?;
        self.play_cmd(py, c)
    }
}

/// `e`, a resample's failure, as the Python error: `IllegalCommand` for a seat the game lacks
/// (R-AUC-12) or a pending chance outcome (R-SET-3), `RuntimeError` when no draw fits.
fn resample_error(py: Python<'_>, e: &qe_core::bots::search::ResampleError) -> PyErr {
    use qe_core::bots::search::ResampleError as E;
    match e {
        E::NoSuchSeat { seat, .. } => command_error(
            py,
            &CommandError::SeatOutOfRange {
                seat: i64::from(*seat),
            },
        ),
        E::ChancePending => command_error(py, &CommandError::ChancePending),
        other => pyo3::exceptions::PyRuntimeError::new_err(other.to_string()),
    }
}

/// The action space of `ladder` (the default ladder for `None`), with the peek actions or not.
fn space_of(ladder: Option<PyBidLadder>, peeks: bool) -> ActionSpace {
    ActionSpace::new(ladder.map_or_else(BidLadder::default, |l| l.0), peeks)
}

/// A new instance of `cls` (`Game` or a subclass) holding `game`: made by `cls.__new__(cls)`, which
/// runs `Game`'s constructor with its defaults, then given `game`.
fn instance_of<'py>(cls: &Bound<'py, PyType>, game: PyGame) -> PyResult<Bound<'py, PyAny>> {
    let obj = cls.call_method1(pyo3::intern!(cls.py(), "__new__"), (cls,))?;
    *obj.cast::<PyGame>()?.try_borrow_mut()? = game;
    Ok(obj)
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (players=4, seed=None, *, expansions=None, commodities=None, ladder=None, peeks=false, external_chance=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::players)] players: i128,
        seed: Option<&Bound<'_, PyAny>>,
        expansions: Option<&Bound<'_, PyAny>>,
        commodities: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = ladder_arg)] ladder: Option<PyBidLadder>,
        #[pyo3(from_py_with = args::flag)] peeks: bool,
        #[pyo3(from_py_with = args::flag)] external_chance: bool,
    ) -> PyResult<Self> {
        if let Some(flag) = seed.filter(|s| s.is_instance_of::<pyo3::types::PyBool>()) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "seed must be an int, got bool {}: the second positional argument is the seed \
                 (commodities is keyword-only and deprecated: expansions=(\"commodities\",))",
                args::quote(flag)
            )));
        }
        let seed = args::opt_int::<u64>(seed, "seed")?;
        let expansions = crate::setup::expansions_of(py, expansions, commodities, 1)?;
        let r = rules(py, players_of(py, players)?, expansions)?;
        if let (true, Some(seed)) = (external_chance, seed) {
            return Err(PyValueError::new_err(format!(
                "seed {seed} has no use with external_chance=True (the caller supplies every \
                 chance outcome): leave it out"
            )));
        }
        let m = if external_chance {
            Match::new(Game::external_chance(r, None).map_err(|e| setup_error(py, &e))?)
        } else {
            Match::seeded(r, seed.unwrap_or_else(random_seed))
        };
        Ok(PyGame::with(m, space_of(ladder, peeks)))
    }

    /// The game of a `qe-record/1` JSON text, replayed, as an instance of the class it is called
    /// on. Raises `SetupError` for a bad record and `IllegalCommand` (with `.index`) for an
    /// illegal command.
    #[classmethod]
    #[pyo3(signature = (record, *, ladder=None, peeks=false))]
    fn from_record<'py>(
        cls: &Bound<'py, PyType>,
        #[pyo3(from_py_with = args::text)] record: String,
        #[pyo3(from_py_with = ladder_arg)] ladder: Option<PyBidLadder>,
        #[pyo3(from_py_with = args::flag)] peeks: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let m = records::replay(cls.py(), &record)?;
        instance_of(cls, PyGame::with(m, space_of(ladder, peeks)))
    }

    // ----- state ----------------------------------------------------------------------------------

    /// The number of seats (3-5).
    #[getter]
    fn players(&self) -> u8 {
        self.game().players()
    }
    /// Whether the Commodities expansion is in play.
    #[getter]
    fn commodities(&self) -> bool {
        self.game().rules().has_commodities()
    }
    /// The expansions in play, by name (the names records use).
    #[getter]
    fn expansions(&self) -> Vec<&'static str> {
        self.game().rules().expansions().names().collect()
    }
    /// The set-up seed; `None` when the set-up did not come from a seed (external-chance mode,
    /// or a record without one).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.m.seed()
    }
    /// Whether the caller supplies the chance outcomes.
    #[getter]
    fn external_chance(&self) -> bool {
        self.game().is_external_chance()
    }
    /// The current turn (0-based).
    #[getter]
    fn turn(&self) -> u8 {
        self.game().turn()
    }
    /// The number of turns of the game (R-TRN-1).
    #[getter]
    fn turns(&self) -> u8 {
        self.game().rules().turns()
    }
    /// The auctioneer of the current turn (R-TRN-2), `None` when it has none (R-TRN-3).
    #[getter]
    fn auctioneer(&self) -> Option<u8> {
        self.game().auctioneer().map(|s| s.0)
    }
    /// Whether the game is over (R-TRN-4).
    #[getter]
    fn is_over(&self) -> bool {
        self.game().is_over()
    }
    /// The phase name: `chance`, `opening_bid`, `bidding`, `rebid`, `asset_rebid`, `take_asset`,
    /// `discard_asset` or `game_over`.
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        // Interned once per name: no new string per call, and `==` with a literal is an identity
        // check.
        views::phase_name(py, self.game().phase())
    }
    /// The seats that must act now, lowest first.
    #[getter]
    fn to_act<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        seat_list(py, self.game().to_act()).expect("a list of at most 5 ints")
    }
    /// The seats that must act now, as a bit mask (bit `i` is seat `i`).
    #[getter]
    fn to_act_mask(&self) -> u8 {
        self.game().to_act().bits()
    }
    /// The bids `seat` may make now, `None` when it need not bid.
    fn bid_range(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Option<PyBidRange>> {
        let s = seat_of(py, self.game(), seat)?;
        Ok(self.game().bid_range(s).map(PyBidRange))
    }
    /// What `seat` may do now, as a `qe.Legal`.
    fn legal<'py>(&self, py: Python<'py>, seat: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let s = seat_of(py, self.game(), seat)?;
        views::legal(py, &self.game().legal(s))
    }

    // ----- commands -------------------------------------------------------------------------------

    /// `seat` bids `amount` (opening bid, secret bid or rebid).
    fn bid(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        amount: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = seat_of(py, self.game(), seat)?;
        let amount = args::int_or::<u64>(amount, "amount", |shown| {
            bid_out_of_range(py, shown, "amount")
        })?;
        self.play_cmd(py, Command::Bid { seat, amount })?;
        Ok(())
    }

    /// One bid for every seat that must bid now: `amounts[seat]` (entries of other seats are
    /// ignored). All or nothing: if one bid is illegal, none is applied.
    fn bid_all(&mut self, py: Python<'_>, amounts: &Bound<'_, PyAny>) -> PyResult<()> {
        let (acting, seats) = self.acting(py)?;
        let amounts = buf::per_seat(amounts, seats, acting, "amounts", |v, name, i| {
            args::entry_or::<u64>(v, name, i, |shown| {
                bid_out_of_range(py, shown, &format!("{name}[{i}]"))
            })
        })?;
        let g = self.game();
        let mut commands = PerSeat::splat(None);
        let mut ok = true;
        for seat in acting.iter() {
            let amount = amounts[seat].ok_or_else(|| no_entry("amounts", seat, "bid"))?;
            ok &= g.bid_range(seat).is_some_and(|r| r.allows(amount));
            commands[seat] = Some(Command::Bid { seat, amount });
        }
        if !ok {
            self.first_error(py, &commands)?;
        }
        self.apply_all(py, commands)
    }

    /// `seat` takes a token from `pile` (`gold`, `oil` or `crypto`; R-COM-5).
    fn take(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::text)] pile: String,
    ) -> PyResult<()> {
        self.play_pile(py, seat, &pile, false)
    }

    /// The auctioneer discards a token from `pile` (R-COM-7).
    fn discard(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::text)] pile: String,
    ) -> PyResult<()> {
        self.play_pile(py, seat, &pile, true)
    }

    /// `seat` peeks at the price of turn `turn` (5 players, once per game; R-VIS-5).
    fn peek(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        turn: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = seat_of(py, self.game(), seat)?;
        // As the record reader reads a turn: past the last is not awarded, negative or past 64
        // bits not a turn number (R-VIS-5).
        let mut quoted = None;
        let read = args::int_or::<u64>(turn, "turn", |q| {
            quoted = Some(q);
            PyValueError::new_err("")
        });
        let turn = match read {
            Ok(t) => Some(t),
            Err(_) if quoted.is_some() => None,
            Err(e) => return Err(e),
        };
        let c = Command::from_peek_turn(seat, turn, || quoted.unwrap_or_default())
            .map_err(|e| command_error(py, &e))?;
        self.play_cmd(py, c)?;
        Ok(())
    }

    /// Applies a command in record form, e.g. `{"seat": 0, "bid": 10}`, `{"seat": 2, "take_asset":
    /// "gold"}`, `{"seat": 0, "discard_asset": "oil"}`, `{"seat": 3, "peek": 4}` or `{"chance":
    /// {"reveal": "US-AGR"}}` (a dict or JSON text); returns its events as `qe.Event`s
    /// (unredacted: the caller drives the game).
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let c = records::command_of(py, command)?;
        let events = self.apply_cmd(py, c)?;
        views::events(py, events.as_slice().iter().copied())
    }

    /// The commands applied so far, in record form (chance outcomes included).
    fn commands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let players = self.game().players();
        let commands = self.m.commands().iter();
        let items = commands
            .map(|c| command::to_python(py, &command::to_json(c, players)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    // ----- actions and encoding ------------------------------------------------------------------

    /// The size of the action space (ladder rungs, 3 piles, 16 peeks with `peeks=True`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.size()
    }
    /// The length of one seat's observation (`OBS_SIZE`).
    #[getter]
    fn obs_size(&self) -> usize {
        OBS_SIZE
    }
    /// The bid ladder of the action space.
    #[getter]
    fn ladder(&self) -> PyBidLadder {
        PyBidLadder(*self.space.ladder())
    }
    /// Whether the action space has the 16 peek actions.
    #[getter]
    fn peeks(&self) -> bool {
        self.space.has_peeks()
    }

    /// The legal action indices of `seat` now (empty when it has nothing to do).
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let s = seat_of(py, self.game(), seat)?;
        self.legal_actions_of(py, s)
    }

    /// Plays action `action` of `seat` (see the action space in the README).
    fn apply_action(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = seat_of(py, self.game(), seat)?;
        let action = args::int_or::<i128>(action, "action", |q| self.out_of_range(q, s))?;
        if self.game().is_over() {
            // R-TRN-4 before the action space: a finished game offers no action at all.
            return Err(command_error_about(
                py,
                &CommandError::GameOver,
                &format!(": action {action}"),
            ));
        }
        let legal = self.game().legal(s);
        let c = usize::try_from(action)
            .ok()
            .and_then(|a| self.space.decode(s, &legal, a))
            .ok_or_else(|| self.out_of_range(action, s))?;
        self.play_cmd(py, c)?;
        Ok(())
    }

    /// One action for every seat that must act now: `actions[seat]` (others ignored). All or
    /// nothing.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let commands = self.step_commands(py, actions)?;
        self.apply_all(py, commands)
    }

    /// `step(actions)` then `observe_into(obs, mask, acting_only=True, zero_others=zero_others)` in
    /// one call: applies one action per seat that must act (all or nothing), writes the
    /// observation and mask rows of the seats that must act next (zero mask rows for the others,
    /// and zero observation rows unless `zero_others=False`, which leaves them as they were and
    /// saves writing them) and returns `is_over`. The buffers are checked before anything is
    /// applied: on any error the game is unchanged.
    #[pyo3(signature = (actions, obs, mask, zero_others=true))]
    fn step_observe(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] zero_others: bool,
    ) -> PyResult<bool> {
        // Reading `actions` may run Python code (`__index__`), so it comes before the buffers.
        let commands = self.step_commands(py, actions)?;
        let (obs, mask) = self.out_buffers(obs, mask)?;
        self.apply_all(py, commands)?;
        // SAFETY: the buffers are disjoint and no Python code runs while the slices live.
        self.write_rows(
            unsafe { obs.slice() },
            unsafe { mask.slice() },
            true,
            zero_others,
        );
        Ok(self.game().is_over())
    }

    /// The observation of `seat` (float32, `obs_size`), from its view only; with `bounds=True`,
    /// followed by the spend-bounds block (`bounds_size` more floats, `qe_core::encoding::observe_bounds`).
    #[pyo3(signature = (seat, bounds=false))]
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] bounds: bool,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let s = seat_of(py, self.game(), seat)?;
        let extra = if bounds { BOUNDS_SIZE } else { 0 };
        let arr = PyArray1::<f32>::zeros(py, OBS_SIZE + extra, false);
        // SAFETY: the array was just created and is not shared.
        let out = unsafe { arr.as_slice_mut() }.expect("contiguous");
        self.m.observe(s, &mut out[..OBS_SIZE]);
        if bounds {
            observe_bounds(
                &self.m.deduce(s),
                self.game().players(),
                &mut out[OBS_SIZE..],
            );
        }
        Ok(arr)
    }

    /// What `seat` can prove about every seat's total spent, from its own information only (its
    /// view and its own bids; R-VIS-8), as a list of `qe.SpendBounds`, one per seat (its own entry
    /// is exact).
    fn spend_bounds<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let s = seat_of(py, self.game(), seat)?;
        let d = self.m.deduce(s);
        views::spend_bounds(py, d.seats.in_play(self.game().players()))
    }

    /// Writes the observation of `seat` into `out` (float32, contiguous, length `obs_size`).
    fn observation_into(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = seat_of(py, self.game(), seat)?;
        let out = buf::Buffer::<f32>::check(out, &[OBS_SIZE], "out")?;
        // SAFETY: the only slice over `out`, and no Python code runs while it lives.
        self.m.observe(s, unsafe { out.slice() });
        Ok(())
    }

    /// Writes the information-state tensor of `seat` into `out` (float32, contiguous, length
    /// `INFO_STATE_SIZE`): its observation (`OBS_SIZE` floats, the current view), then the
    /// bid-history block (`HISTORY_SIZE` floats: every bid and rebid as the seat saw it, its
    /// own with their amounts, and every opening bid and price it sees, each amount exactly;
    /// `qe_core::Match::write_history`), so that it recalls everything the seat ever knew.
    fn information_state_into(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let s = seat_of(py, self.game(), seat)?;
        let out = buf::Buffer::<f32>::check(out, &[INFO_STATE_SIZE], "out")?;
        // SAFETY: the only slice over `out`, and no Python code runs while it lives.
        let out = unsafe { out.slice() };
        let (obs, hist) = out.split_at_mut(OBS_SIZE);
        self.m.observe(s, obs);
        self.m.write_history(s, hist);
        Ok(())
    }

    /// The action mask of `seat` (int8, `num_actions`): 1 where legal.
    fn action_mask<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let s = seat_of(py, self.game(), seat)?;
        let arr = PyArray1::<i8>::zeros(py, self.space.size(), false);
        // SAFETY: the array was just created and is not shared.
        let out = unsafe { arr.as_slice_mut() }.expect("contiguous");
        self.space.mask_with(&self.game().legal(s), out, 1, 0);
        Ok(arr)
    }

    /// Writes every seat's observation and mask into `obs` (float32 `[players, obs_size]`) and
    /// `mask` (int8 `[players, num_actions]`). With `acting_only`, only the seats that must act
    /// are written; the other seats' mask rows are zeroed, and their observation rows too unless
    /// `zero_others=False` (then they are left as they were).
    #[pyo3(signature = (obs, mask, acting_only=false, zero_others=true))]
    fn observe_into(
        &mut self,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] acting_only: bool,
        #[pyo3(from_py_with = args::flag)] zero_others: bool,
    ) -> PyResult<()> {
        let (obs, mask) = self.out_buffers(obs, mask)?;
        // SAFETY: the buffers are disjoint and no Python code runs while the slices live.
        self.write_rows(
            unsafe { obs.slice() },
            unsafe { mask.slice() },
            acting_only,
            zero_others,
        );
        Ok(())
    }

    // ----- chance (external-chance mode) ---------------------------------------------------------

    /// The pending chance outcomes in record form (`{"reveal": "US-AGR"}`...), each equally likely.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let g = self.game();
        let outcomes = g.chance_outcomes();
        let items = outcomes
            .iter()
            .map(|o| {
                let c = command::to_json(&Command::Chance(*o), g.players());
                command::to_python(py, &c["chance"])
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The pending chance outcomes as stable action ids (deal: permutation index; reveal: tile
    /// index; draw: token number - 1), each equally likely.
    fn chance_actions(&self) -> Vec<usize> {
        let outcomes = self.game().chance_outcomes();
        outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| command::chance_id(i, *o))
            .collect()
    }

    /// Applies the chance outcome with this stable id (see `chance_actions`).
    fn apply_chance_action(&mut self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.game().is_over() {
            // As any command once the game is over (R-TRN-4).
            return Err(command_error(py, &CommandError::GameOver));
        }
        let not_pending = |got: &dyn core::fmt::Display| {
            let e = CommandError::InvalidChance {
                reason: "not a pending chance outcome",
            };
            command_error_about(py, &e, &format!(": chance action {got}"))
        };
        let id = args::int_or::<i128>(id, "id", |q| not_pending(&q))?;
        let wanted = usize::try_from(id).ok();
        let outcomes = self.game().chance_outcomes();
        let o = outcomes
            .iter()
            .enumerate()
            .find(|(i, o)| wanted == Some(command::chance_id(*i, **o)))
            .map(|(_, o)| *o)
            .ok_or_else(|| not_pending(&id))?;
        self.play_cmd(py, Command::Chance(o))?;
        Ok(())
    }

    /// Applies a chance outcome in record form (`{"reveal": "US-AGR"}`, `{"draw": "gold3"}`,
    /// `{"deal": ["AGR", ...]}`).
    fn chance<'py>(&mut self, py: Python<'py>, outcome: &Bound<'py, PyAny>) -> PyResult<()> {
        let d = PyDict::new(py);
        d.set_item("chance", outcome)?;
        let c = records::command_of(py, d.as_any())?;
        self.play_cmd(py, c)
    }

    // ----- views, events, outcome, record --------------------------------------------------------

    /// Everything `seat` may know (R-VIS), as a `qe.View`: the table as it stands and its bid
    /// history.
    fn view<'py>(&self, py: Python<'py>, seat: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let s = seat_of(py, self.game(), seat)?;
        views::view(py, &self.m.view(Some(s)))
    }
    /// The spectator's view: public information only (everything at game end), as a `qe.View`.
    fn public_view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        views::view(py, &self.m.view(None))
    }
    /// The view of `seat` as JSON text in its serde form (qe-core's `MatchView`, as the agent
    /// protocol sends it), for `qe.openspiel`'s observation strings: with `recall`, its bid
    /// history and its peek history (`qe_core::Match::peek_history`: the seat, the auction's turn,
    /// `at` its place in the seat's event stream); without, neither.
    #[pyo3(name = "_view_json")]
    fn view_json(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::flag)] recall: bool,
    ) -> PyResult<String> {
        let s = seat_of(py, self.game(), seat)?;
        let view = self.m.view(Some(s));
        let json = |e: serde_json::Error| PyValueError::new_err(e.to_string());
        if !recall {
            return serde_json::to_string(&view.view).map_err(json);
        }
        // The view's object with one more member: its text less the closing brace, then the
        // member (a struct always serializes as an object).
        let mut text = serde_json::to_string(&view).map_err(json)?;
        text.pop();
        text.push_str(",\"peek_history\":");
        text.push_str(&serde_json::to_string(&self.m.peek_history(Some(s))).map_err(json)?);
        text.push('}');
        Ok(text)
    }
    /// The event stream of `seat` (every event, as that seat may see it) as `qe.Event`s; `None`:
    /// the spectator's (public) stream. Once the game is over every event is in full for every
    /// viewer, each bid and rebid included (R-VIS-7).
    #[pyo3(signature = (seat=None))]
    fn events<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let viewer = match seat.filter(|s| !s.is_none()) {
            Some(seat) => Some(seat_of(py, self.game(), seat)?),
            None => None,
        };
        views::events(py, self.m.events_as_seen(viewer))
    }
    /// The outcome once the game is over, as a `qe.Outcome`, else `None`.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.game()
            .outcome()
            .map(|o| views::outcome(py, &o))
            .transpose()
    }
    /// The `qe-record/1` JSON text of the game so far (`None` in external-chance mode before the
    /// deal). A record lists the whole deck and piles: with external chance, the tiles and tokens
    /// not yet revealed are written in an order of their own, so its replay has that future and no
    /// external chance (pickling keeps such a game as it is).
    fn record(&self) -> Option<String> {
        self.m.record().map(|r| r.to_json())
    }
    /// Every seat's reward (`qe_core::reward`): `"win"` or `"score"`; zeros before the end.
    #[pyo3(signature = (reward="win".to_owned()), text_signature = "($self, reward='win')")]
    fn returns(&self, #[pyo3(from_py_with = args::text)] reward: String) -> PyResult<Vec<f64>> {
        let reward = reward_of(&reward)?;
        let g = self.game();
        Ok(match g.outcome() {
            None => vec![0.0; g.players() as usize],
            Some(o) => reward.returns(&o).collect(),
        })
    }

    /// A game drawn from `seed` that `seat` cannot tell from this one (`qe_core::Match::resample`,
    /// R-VIS-8): its view, bid history and peek history are this game's; the others' industry
    /// tokens, the deck and pile orders and every bid and price hidden from it are drawn, the
    /// current step's bids already made included. Of the same class, with the same action space;
    /// the same seed gives the same game. Raises `IllegalCommand` for a seat the game lacks or
    /// while a chance outcome is pending (R-SET-3), `TypeError`/`ValueError` naming `seed` for a
    /// seed that is not an int from 0 to 2^64 - 1, and `RuntimeError` in the rare case that no
    /// draw within the bound reproduces the seat's information state.
    fn resample<'py>(
        slf: &Bound<'py, Self>,
        seat: &Bound<'py, PyAny>,
        seed: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let game = {
            let this = slf.try_borrow()?;
            let s = seat_of(py, this.game(), seat)?;
            let seed = args::int::<u64>(seed, "seed")?;
            let m = this
                .m
                .resample(s, seed)
                .map_err(|e| resample_error(py, &e))?;
            PyGame::with(m, this.space)
        };
        instance_of(&slf.get_type(), game)
    }

    // ----- copy and pickle -----------------------------------------------------------------------

    /// A copy of the game, of the same class (a subclass's instance attributes are its own to
    /// copy).
    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let game = slf.try_borrow()?.clone();
        instance_of(&slf.get_type(), game)
    }
    fn __deepcopy__<'py>(
        slf: &Bound<'py, Self>,
        _memo: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::__copy__(slf)
    }
    fn __getstate__(&self) -> String {
        self.state_json()
    }
    /// Takes what `__getstate__` gives (JSON text); every field is checked, none coerced.
    fn __setstate__(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = state.extract::<String>().map_err(|_| {
            PyValueError::new_err(format!(
                "bad pickled qe.Game state: expected a string, got {}",
                state
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        *self = PyGame::from_state(py, &text)?;
        Ok(())
    }
    /// Pickles as `copyreg.__newobj__(type(self))` (the class's `__new__` with no arguments)
    /// followed by `__setstate__(self.__getstate__())`: a subclass's own state methods are the
    /// ones called.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let newobj = py.import("copyreg")?.getattr("__newobj__")?;
        let state = slf.call_method0(pyo3::intern!(py, "__getstate__"))?;
        PyTuple::new(
            py,
            [
                newobj,
                PyTuple::new(py, [slf.get_type()])?.into_any(),
                state,
            ],
        )
    }
    fn __repr__(&self) -> String {
        let g = self.game();
        format!(
            "Game(players={}, expansions=[{}], turn={}, phase={:?})",
            g.players(),
            g.rules()
                .expansions()
                .names()
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", "),
            g.turn(),
            g.phase().name()
        )
    }
}
