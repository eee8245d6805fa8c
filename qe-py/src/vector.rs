//! [`VectorEnv`]: many games stepped in one call, with the GIL released.

use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qe_core::bots::{by_name_with, decide, BoxedBot, NAMES};
use qe_core::encoding::{observe_seat, ActionSpace, BidLadder, ObservedGame, OBS_SIZE};
use qe_core::reward::Reward;
use qe_core::{mix_seed, Game, Match, Outcome, Rules, Seat, MAX_SEATS};

use crate::args;
use crate::encoding::PyBidLadder;
use crate::errors::command_error;
use crate::setup::{random_seed, rules};

mod exclusive {
    /// A value reachable only through `&mut` (so sharing `&Exclusive<T>` between threads gives no
    /// access to it): `Sync` whenever `T` is `Send`, as the bots must be for a `pyclass`.
    pub(crate) struct Exclusive<T>(T);

    // SAFETY: the field is private to this module, and nothing here hands out `&T` from
    // `&Exclusive<T>`: it is reached only through `&mut`.
    unsafe impl<T: Send> Sync for Exclusive<T> {}

    impl<T> Exclusive<T> {
        pub(crate) fn new(value: T) -> Self {
            Exclusive(value)
        }
        pub(crate) fn get_mut(&mut self) -> &mut T {
            &mut self.0
        }
    }
}
pub(crate) use exclusive::Exclusive;

/// One env's game: with its history (a `Match`, for opponents that read their bid history,
/// `Bot::uses_history`: the search bots) or without (an `ObservedGame`: the others need only the
/// view). Either owns the writer of its observations, so nothing is kept in step with it.
// Every env of a batch is of the same kind, so the smaller variant wastes nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum EnvGame {
    Plain(ObservedGame),
    History(Match),
}

impl EnvGame {
    /// `game`, with its history when `history`.
    fn new(game: Game, history: bool) -> EnvGame {
        if history {
            EnvGame::History(Match::new(game))
        } else {
            EnvGame::Plain(ObservedGame::new(game))
        }
    }

    /// The game.
    #[inline]
    fn game(&self) -> &Game {
        match self {
            EnvGame::Plain(observed) => observed.game(),
            EnvGame::History(m) => m.game(),
        }
    }

    /// Starts over with `game`, of the same kind.
    fn reset(&mut self, game: Game) {
        match self {
            EnvGame::Plain(observed) => observed.reset(game),
            EnvGame::History(m) => *m = Match::new(game),
        }
    }

    /// Plays `command` (`Game::play`; on error nothing changes).
    #[inline]
    fn play(&mut self, command: qe_core::Command) -> Result<(), qe_core::CommandError> {
        match self {
            EnvGame::Plain(observed) => observed.play(command),
            EnvGame::History(m) => m.play(command),
        }
    }

    /// Writes the observation of `seat` (`observe_seat`'s floats).
    #[inline]
    fn observe(&mut self, seat: Seat, out: &mut [f32]) {
        match self {
            EnvGame::Plain(observed) => observed.observe(seat, out),
            EnvGame::History(m) => m.observe(seat, out),
        }
    }

    /// The match, when the env keeps the history.
    #[cfg(test)]
    fn history(&self) -> Option<&Match> {
        match self {
            EnvGame::Plain(_) => None,
            EnvGame::History(m) => Some(m),
        }
    }
}

/// The state of the batch, separate from the Python buffers so it can run without the GIL.
struct Core {
    rules: Rules,
    space: ActionSpace,
    seed: u64,
    /// The games, each with the writer of its observations (exactly `observe_seat`'s floats,
    /// faster: it keeps the slots of the turns over, PERF.md): one game per env, never two.
    games: Vec<EnvGame>,
    /// How many games each env has started (for seeding).
    started: Vec<u64>,
    /// The last game each env finished since it was made or reset, as it ended.
    finished: Vec<Option<Game>>,
    /// The commands of each env's current game, and of the game in `finished`: what a pickle
    /// of the batch holds, replayed through the core when it is read.
    logs: Vec<Vec<qe_core::Command>>,
    finished_logs: Vec<Vec<qe_core::Command>>,
    /// The name of the bots that play the other seats (`qe_core::bots::by_name`), if any.
    opponents: Option<String>,
    bots: Vec<[Option<Exclusive<BoxedBot>>; MAX_SEATS]>,
    /// The commands of the step being applied, per env and seat (from [`Core::decode`]).
    pending: Vec<[Option<qe_core::Command>; MAX_SEATS]>,
    /// The actions of the step being applied (reused between steps).
    actions: Vec<i64>,
    learner: Seat,
    reward: Reward,
    all_seats: bool,
    /// Whether the observation rows of seats that need not act are zeroed (else left as they were).
    zero_others: bool,
    decisions: u64,
    episodes: u64,
}

/// Output buffers of one step, as plain slices.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    reward: &'a mut [f32],
    done: &'a mut [bool],
}

impl Core {
    /// `num_envs` games, not started yet ([`Core::reset_all`] starts them); `opponents` is
    /// checked by the caller.
    #[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
    fn new(
        rules: Rules,
        space: ActionSpace,
        seed: u64,
        num_envs: usize,
        opponents: Option<String>,
        learner: Seat,
        reward: Reward,
        all_seats: bool,
        zero_others: bool,
    ) -> PyResult<Core> {
        let with_history = opponents.as_deref().is_some_and(|name| {
            by_name_with(name, 0, *rules.manifest()).is_some_and(|bot| bot.uses_history())
        });
        Ok(Core {
            rules,
            space,
            seed,
            games: try_vec(num_envs, EnvGame::new(Game::seeded(rules, 0), with_history))?,
            started: try_vec(num_envs, 0)?,
            finished: try_vec(num_envs, None)?,
            logs: try_vec(num_envs, Vec::new())?,
            finished_logs: try_vec(num_envs, Vec::new())?,
            opponents,
            bots: {
                let mut bots = Vec::new();
                bots.try_reserve_exact(num_envs).map_err(|_| {
                    PyMemoryError::new_err(format!("VectorEnv({num_envs}): out of memory"))
                })?;
                bots.resize_with(num_envs, Default::default);
                bots
            },
            pending: try_vec(num_envs, [None; MAX_SEATS])?,
            actions: Vec::new(),
            learner,
            reward,
            all_seats,
            zero_others,
            decisions: 0,
            episodes: 0,
        })
    }

    fn players(&self) -> usize {
        self.rules.players() as usize
    }

    /// Rows per env in the outputs: 1 with opponents (the learner), else one per seat.
    fn rows(&self) -> usize {
        if self.opponents.is_some() {
            1
        } else {
            self.players()
        }
    }

    /// The seed of the `k`-th game (from 0) of env `e`.
    fn game_seed(&self, e: usize, k: u64) -> u64 {
        mix_seed(self.seed ^ mix_seed(((e as u64) << 32) ^ k))
    }

    /// The seed of the bot at `seat` in the game of `game_seed`.
    fn bot_seed(game_seed: u64, seat: usize) -> u64 {
        mix_seed(game_seed ^ (seat as u64 + 1))
    }

    fn new_game(&mut self, e: usize) {
        let k = self.started[e];
        self.started[e] += 1;
        let game_seed = self.game_seed(e, k);
        self.games[e].reset(Game::seeded(self.rules, game_seed));
        self.logs[e].clear();
        if let Some(name) = &self.opponents {
            let manifest = *self.rules.manifest();
            for s in 0..self.players() {
                self.bots[e][s] = (s != self.learner.index()).then(|| {
                    Exclusive::new(
                        by_name_with(name, Core::bot_seed(game_seed, s), manifest)
                            .expect("checked by new"),
                    )
                });
            }
            self.run_bots(e);
        }
    }

    /// Plays the opponents of env `e` until the learner must act or the game ends.
    fn run_bots(&mut self, e: usize) {
        let learner = self.learner;
        let env = &mut self.games[e];
        while !env.game().is_over() {
            let mut others = env.game().to_act();
            others.remove(learner);
            let Some(seat) = others.first() else { break };
            let bot = self.bots[e][seat.index()]
                .as_mut()
                .expect("every other seat has a bot")
                .get_mut();
            let command = match env {
                EnvGame::History(m) => decide(&mut **bot, m, seat, true),
                EnvGame::Plain(observed) => bot.act(&observed.game().view(seat)),
            }
            .expect("a bot that must act acts");
            env.play(command).expect("bots play legal commands");
            self.logs[e].push(command);
        }
    }

    /// The number of actions: the game's, then the wait action of seats with nothing to do.
    fn actions(&self) -> usize {
        self.space.size() + 1
    }

    fn write(&mut self, e: usize, out: &mut Out<'_>) {
        let a = self.actions();
        let wait = self.space.size();
        let rows = self.rows();
        let observed = &mut self.games[e];
        let acting = observed.game().to_act();
        for r in 0..rows {
            let seat = if self.opponents.is_some() {
                self.learner
            } else {
                Seat(r as u8)
            };
            let i = e * rows + r;
            let o = &mut out.obs[i * OBS_SIZE..(i + 1) * OBS_SIZE];
            let m = &mut out.mask[i * a..(i + 1) * a];
            if !acting.contains(seat) {
                // Nothing to do: the wait action only (ignored by `step`).
                if self.all_seats {
                    observed.observe(seat, o);
                } else if self.zero_others {
                    crate::buf::zero_row(o);
                }
                m.fill(0);
                m[wait] = 1;
                continue;
            }
            observed.observe(seat, o);
            self.space
                .mask_with(&observed.game().legal(seat), &mut m[..wait], 1, 0);
            m[wait] = 0;
        }
    }

    fn rewards(&self, e: usize, outcome: &Outcome, out: &mut Out<'_>) {
        let rows = self.rows();
        if self.opponents.is_some() {
            out.reward[e] = self.reward.of(outcome, self.learner) as f32;
        } else {
            self.reward
                .write(outcome, &mut out.reward[e * rows..(e + 1) * rows]);
        }
    }

    fn reset_all(&mut self, out: &mut Out<'_>) {
        for e in 0..self.games.len() {
            self.new_game(e);
            self.write(e, out);
        }
        out.reward.fill(0.0);
        out.done.fill(false);
        self.finished.fill(None);
    }

    /// The game env `e` played as its `k`-th: from its seed, `commands` replayed through the
    /// core, or why not (a `ValueError` naming the env and the command).
    fn replay(&self, e: usize, k: u64, commands: &[qe_core::Command]) -> PyResult<Match> {
        let mut m = Match::seeded(self.rules, self.game_seed(e, k));
        for (i, c) in commands.iter().enumerate() {
            m.play(*c).map_err(|err| {
                state_error(format!("env {e}, command {i} ({}): {err}", c.to_json()))
            })?;
        }
        Ok(m)
    }

    /// The commands of `self.actions` (`[num_envs, players]`, or `[num_envs]` with opponents) for
    /// the seats that must act, into `self.pending`; on the first illegal one, `(env, seat,
    /// error)` and no game is changed.
    fn decode(&mut self, py: Python<'_>) -> Result<(), (usize, Seat, PyErr)> {
        let per_env = self.rows();
        let single = self.opponents.is_some();
        for (e, (observed, pending)) in self.games.iter().zip(&mut self.pending).enumerate() {
            let game = observed.game();
            *pending = [None; MAX_SEATS];
            for seat in game.to_act().iter() {
                if single && seat != self.learner {
                    continue;
                }
                let raw = self.actions[e * per_env + if single { 0 } else { seat.index() }];
                let legal = game.legal(seat);
                let a = usize::try_from(raw).ok();
                if let Some(a) = a.filter(|&a| self.space.is_legal(&legal, a)) {
                    pending[seat.index()] = self.space.decode(seat, &legal, a);
                    continue;
                }
                let err = match a.and_then(|a| self.space.decode(seat, &legal, a)) {
                    Some(c) => match { *game }.play(c) {
                        Err(ce) => command_error(py, &ce),
                        Ok(()) => PyValueError::new_err(format!(
                            "action {raw} is not offered to seat {} (a peek is offered only \
                             with peeks=True)",
                            seat.0
                        )),
                    },
                    None if a == Some(self.space.size()) => PyValueError::new_err(format!(
                        "action {raw} is the wait action, but seat {} must act",
                        seat.0
                    )),
                    None => PyValueError::new_err(format!(
                        "action {raw} out of range 0..{} (seat {})",
                        self.actions(),
                        seat.0
                    )),
                };
                return Err((e, seat, err));
            }
        }
        Ok(())
    }

    /// Steps every env with the commands of [`Core::decode`].
    fn step(&mut self, out: &mut Out<'_>) {
        out.reward.fill(0.0);
        for e in 0..self.games.len() {
            let game = &mut self.games[e];
            for c in self.pending[e].iter().flatten() {
                game.play(*c).expect("validated");
                self.logs[e].push(*c);
                self.decisions += 1;
            }
            if self.opponents.is_some() {
                self.run_bots(e);
            }
            let outcome = self.games[e].game().outcome();
            out.done[e] = outcome.is_some();
            if let Some(outcome) = outcome {
                self.rewards(e, &outcome, out);
                self.finished[e] = Some(*self.games[e].game());
                core::mem::swap(&mut self.logs[e], &mut self.finished_logs[e]);
                self.episodes += 1;
                self.new_game(e);
            }
            self.write(e, out);
        }
    }
}

/// A `ValueError` about a `VectorEnv` state being read.
fn state_error(what: String) -> PyErr {
    PyValueError::new_err(format!("VectorEnv state: {what}"))
}

/// The `VectorEnv` state `state[key]`, or an error naming the key.
fn state_item<'py>(state: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    state
        .get_item(key)?
        .ok_or_else(|| state_error(format!("missing `{key}`")))
}

/// `value` as a `T` (the field `what` of a state), or an error naming the field and quoting it.
fn state_value<'py, T: pyo3::conversion::FromPyObjectOwned<'py>>(
    value: &Bound<'py, PyAny>,
    what: &str,
    kind: &str,
) -> PyResult<T> {
    value.extract::<T>().map_err(|_| {
        state_error(format!(
            "`{what}` must be {kind}, got {} {}",
            args::type_name(value),
            args::quote(value)
        ))
    })
}

/// A game's commands as JSON text (a list in record form), as a pickle of the batch holds them.
fn commands_text(commands: &[qe_core::Command], players: u8) -> String {
    let list: Vec<serde_json::Value> = commands
        .iter()
        .map(|c| crate::command::to_json(c, players))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The commands of `text` ([`commands_text`]), each read by the core's command reader, or an
/// error naming env `e` and what is wrong.
fn commands_of(text: &str, e: usize) -> PyResult<Vec<qe_core::Command>> {
    let raw: Vec<&serde_json::value::RawValue> = serde_json::from_str(text).map_err(|err| {
        state_error(format!(
            "env {e}: the commands are not a JSON list ({err}): {}",
            qe_core::shown(text)
        ))
    })?;
    raw.iter()
        .enumerate()
        .map(|(i, r)| {
            qe_core::Command::from_json(r.get())
                .map_err(|err| state_error(format!("env {e}, command {i}: {}: {err}", err.rule())))
        })
        .collect()
}

/// Copies `actions` (ints of shape `expected`) into `into`: directly from a C-contiguous int64
/// array, else through `numpy.ascontiguousarray(actions, numpy.int64)` (an unsigned action past
/// 2^63−1, which that would wrap, is an error naming it; `n_actions` is the action space's size).
fn read_actions(
    py: Python<'_>,
    actions: &Bound<'_, PyAny>,
    expected: &[usize],
    n_actions: usize,
    into: &mut Vec<i64>,
) -> PyResult<()> {
    let converted;
    let arr = match actions.cast::<PyArrayDyn<i64>>() {
        Ok(a) if a.is_c_contiguous() => a,
        _ => {
            let np = py.import("numpy")?;
            // Integers only: a float action is an error, never truncated to a rung.
            let given = np.getattr("asarray")?.call1((actions,)).map_err(|e| {
                if e.is_instance_of::<PyValueError>(py) {
                    PyValueError::new_err(format!(
                        "actions must be integers of shape {expected:?}, got {} {}: {}",
                        args::type_name(actions),
                        args::quote(actions),
                        e.value(py)
                    ))
                } else {
                    e
                }
            })?;
            let dtype = given.getattr("dtype")?;
            let kind: String = dtype.getattr("kind")?.extract()?;
            if kind == "O" {
                // Python objects: the first that is not an int64 is named (an int past 64 bits is
                // out of range like any other).
                for item in given.getattr("flat")?.try_iter()? {
                    let item = item?;
                    if item.is_instance_of::<pyo3::types::PyInt>()
                        && !item.is_instance_of::<pyo3::types::PyBool>()
                    {
                        if item.extract::<i64>().is_err() {
                            return Err(PyValueError::new_err(format!(
                                "action {} out of range 0..{n_actions}",
                                args::quote(&item)
                            )));
                        }
                    } else {
                        return Err(PyValueError::new_err(format!(
                            "actions must be integers, got {} {}",
                            args::type_name(&item),
                            args::quote(&item)
                        )));
                    }
                }
            }
            if kind != "i" && kind != "u" {
                return Err(PyValueError::new_err(format!(
                    "actions must be integers, got {} {}",
                    dtype.str()?,
                    args::quote(actions)
                )));
            }
            let shape: Vec<usize> = given.getattr("shape")?.extract()?;
            if shape != expected {
                return Err(PyValueError::new_err(format!(
                    "actions must have shape {expected:?}, not {shape:?}"
                )));
            }
            if kind == "u" && given.getattr("size")?.extract::<usize>()? > 0 {
                let top = given.call_method0("max")?;
                if top.gt(i64::MAX)? {
                    return Err(PyValueError::new_err(format!(
                        "action {top} out of range 0..{n_actions}"
                    )));
                }
            }
            converted = np
                .getattr("ascontiguousarray")?
                .call1((given, np.getattr("int64")?))?;
            converted.cast::<PyArrayDyn<i64>>()?
        }
    };
    if arr.shape() != expected {
        return Err(PyValueError::new_err(format!(
            "actions must have shape {expected:?}, not {:?}",
            arr.shape()
        )));
    }
    let ro = arr
        .try_readonly()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    into.clear();
    into.extend_from_slice(ro.as_slice().expect("contiguous"));
    Ok(())
}

/// One of the VectorEnv's own output arrays (`name`), still of element type `T`: the caller keeps
/// them and may have changed their dtype in place since (a `TypeError` naming it then).
fn own_array<'py, T: numpy::Element>(
    array: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, numpy::PyArrayDyn<T>>> {
    if let Ok(a) = array.cast::<numpy::PyArrayDyn<T>>() {
        return Ok(a.clone());
    }
    let want = T::get_dtype(array.py()).str()?.to_string();
    let now = array.getattr("dtype")?.str()?.to_string();
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "the VectorEnv's {name} array must stay {want}, its dtype is now {now}"
    )))
}

/// Write access to the VectorEnv's output array `name`, or an error naming it (made read-only, or
/// borrowed elsewhere).
fn writable<'py, T: numpy::Element>(
    array: &Bound<'py, numpy::PyArrayDyn<T>>,
    name: &str,
) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
    array
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("the VectorEnv's {name} array: {e}")))
}

/// An output array as a slice of the `len` elements it must have, or why not.
fn output<'a, T, E>(
    slice: Result<&'a mut [T], E>,
    name: &str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    match slice {
        Ok(s) if s.len() == len => Ok(s),
        Ok(s) => Err(PyValueError::new_err(format!(
            "the VectorEnv's {name} array was resized: it has {} elements, not {len}",
            s.len()
        ))),
        Err(_) => Err(PyValueError::new_err(format!(
            "the VectorEnv's {name} array is no longer contiguous"
        ))),
    }
}

/// `n` copies of `value`, or `MemoryError` (never an abort) when they do not fit.
fn try_vec<T: Clone>(n: usize, value: T) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| PyMemoryError::new_err(format!("VectorEnv({n}): out of memory")))?;
    v.resize(n, value);
    Ok(v)
}

/// A numpy array of zeros through `numpy.zeros`, which raises `MemoryError` when it cannot
/// allocate.
fn zeros(py: Python<'_>, shape: &[usize], dtype: &str) -> PyResult<Py<PyAny>> {
    let np = py.import("numpy")?;
    Ok(np
        .getattr("zeros")?
        .call1((shape.to_vec(), np.getattr(dtype)?))?
        .unbind())
}

/// The most games one `VectorEnv` steps (a larger `num_envs` is a `ValueError`): about 35 KB
/// each (observation rows, masks, an observer, the game), so at most about 2.3 GB.
pub const MAX_ENVS: usize = 1 << 16;

/// Many games of QE stepped together (see the README of `qe-py` for the semantics).
#[pyclass(module = "qe._qe", name = "VectorEnv")]
pub struct VectorEnv {
    core: Core,
    obs: Py<PyAny>,
    mask: Py<PyAny>,
    reward: Py<PyAny>,
    done: Py<PyAny>,
}

impl VectorEnv {
    fn with_out<R: Send>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut Core, &mut Out<'_>) -> R + Send,
    ) -> PyResult<R> {
        let obs = own_array::<f32>(self.obs.bind(py), "obs")?;
        let mask = own_array::<i8>(self.mask.bind(py), "mask")?;
        let reward = own_array::<f32>(self.reward.bind(py), "reward")?;
        let done = own_array::<bool>(self.done.bind(py), "done")?;
        let mut obs_rw = writable(&obs, "obs")?;
        let mut mask_rw = writable(&mask, "mask")?;
        let mut reward_rw = writable(&reward, "reward")?;
        let mut done_rw = writable(&done, "done")?;
        // The arrays are the caller's to keep and may have been resized or made non-contiguous
        // since: check them all before any game changes.
        let rows = self.core.games.len() * self.core.rows();
        let mut out = Out {
            obs: output(obs_rw.as_slice_mut(), "obs", rows * OBS_SIZE)?,
            mask: output(mask_rw.as_slice_mut(), "mask", rows * self.core.actions())?,
            reward: output(reward_rw.as_slice_mut(), "reward", rows)?,
            done: output(done_rw.as_slice_mut(), "done", self.core.games.len())?,
        };
        let core = &mut self.core;
        Ok(py.detach(move || f(core, &mut out)))
    }

    fn outputs<'py>(&self, py: Python<'py>) -> (Bound<'py, PyAny>, Bound<'py, PyAny>) {
        (self.obs.bind(py).clone(), self.mask.bind(py).clone())
    }

    /// The last game env `env` (a Python int) finished, if any; an `IndexError` naming `env`
    /// when there is no such env.
    fn finished(&self, env: &Bound<'_, PyAny>) -> PyResult<Option<&Game>> {
        let n = self.core.games.len();
        let out_of_range = |got: &dyn core::fmt::Display| {
            PyIndexError::new_err(format!("env {got} out of range 0..{n}"))
        };
        let e = args::int_or::<i128>(env, "env", |q| out_of_range(&q))?;
        let finished = usize::try_from(e)
            .ok()
            .and_then(|e| self.core.finished.get(e))
            .ok_or_else(|| out_of_range(&e))?;
        Ok(finished.as_ref())
    }
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, players=4, *, expansions=None, commodities=None, ladder=None, seed=None, opponents=None, seat=Ok(0), reward="win".to_owned(), all_seats=false, peeks=false, zero_others=true))]
    #[pyo3(
        text_signature = "(num_envs, players=4, *, expansions=None, commodities=None, ladder=None, seed=None, opponents=None, seat=0, reward='win', all_seats=False, peeks=False, zero_others=True)"
    )]
    // The parameters are the Python keywords, one to one.
    #[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::players)] players: i128,
        expansions: Option<&Bound<'_, PyAny>>,
        commodities: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = crate::encoding::ladder_arg)] ladder: Option<PyBidLadder>,
        seed: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::opt_text)] opponents: Option<String>,
        #[pyo3(from_py_with = args::seat)] seat: Result<i128, String>,
        #[pyo3(from_py_with = args::text)] reward: String,
        #[pyo3(from_py_with = args::flag)] all_seats: bool,
        #[pyo3(from_py_with = args::flag)] peeks: bool,
        #[pyo3(from_py_with = args::flag)] zero_others: bool,
    ) -> PyResult<Self> {
        let bad_count = |got: &dyn core::fmt::Display| {
            PyValueError::new_err(format!("num_envs must be from 1 to {MAX_ENVS}, got {got}"))
        };
        let num_envs = args::int_or::<i128>(num_envs, "num_envs", |q| bad_count(&q))?;
        let seed = args::opt_int::<u64>(seed, "seed")?;
        let expansions = crate::setup::expansions_of(py, expansions, commodities, 1)?;
        let players = crate::setup::players_of(py, players)?;
        let num_envs = usize::try_from(num_envs)
            .ok()
            .filter(|n| (1..=MAX_ENVS).contains(n))
            .ok_or_else(|| bad_count(&num_envs))?;
        let r = rules(py, players, expansions)?;
        if let Some(name) = &opponents {
            if by_name_with(name.as_str(), 0, *r.manifest()).is_none() {
                return Err(PyValueError::new_err(format!(
                    "unknown opponents \"{}\": expected a bot name of qe_core::bots ({})",
                    qe_core::shown(name),
                    NAMES.join(", ")
                )));
            }
        }
        let seat = seat
            .map_err(|quoted| crate::errors::seat_range_error("seat", players, quoted))
            .and_then(|seat| {
                u8::try_from(seat)
                    .ok()
                    .filter(|&s| s < players)
                    .ok_or_else(|| crate::errors::seat_range_error("seat", players, seat))
            })?;
        if opponents.is_none() && seat != 0 {
            // Without opponents every seat is played: a learner's seat would be ignored.
            return Err(PyValueError::new_err(format!(
                "seat {seat} is the learner's seat against opponents, but opponents is None (every \
                 seat is played): give opponents, or leave seat out"
            )));
        }
        let reward = crate::setup::reward_of(&reward)?;
        let space = ActionSpace::new(ladder.map_or_else(BidLadder::default, |l| l.0), peeks);
        let p = players as usize;
        let a = space.size() + 1;
        let (obs, mask, rew) = if opponents.is_some() {
            (
                zeros(py, &[num_envs, OBS_SIZE], "float32")?,
                zeros(py, &[num_envs, a], "int8")?,
                zeros(py, &[num_envs], "float32")?,
            )
        } else {
            (
                zeros(py, &[num_envs, p, OBS_SIZE], "float32")?,
                zeros(py, &[num_envs, p, a], "int8")?,
                zeros(py, &[num_envs, p], "float32")?,
            )
        };
        let done = zeros(py, &[num_envs], "bool_")?;
        let mut env = VectorEnv {
            core: Core::new(
                r,
                space,
                seed.unwrap_or_else(random_seed),
                num_envs,
                opponents,
                Seat(seat),
                reward,
                all_seats,
                zero_others,
            )?,
            obs,
            mask,
            reward: rew,
            done,
        };
        env.with_out(py, Core::reset_all)?;
        Ok(env)
    }

    /// The number of games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.core.games.len()
    }
    /// The number of seats of each game.
    #[getter]
    fn players(&self) -> usize {
        self.core.players()
    }
    /// The number of actions: the game's (`Game.num_actions`), then the wait action.
    #[getter]
    fn num_actions(&self) -> usize {
        self.core.actions()
    }
    /// The wait action (`num_actions - 1`): the only legal action of a seat with nothing to do;
    /// `step` ignores the entries of such seats whatever they are.
    #[getter]
    fn wait_action(&self) -> usize {
        self.core.space.size()
    }
    /// The name of the opponents' bots, if any.
    #[getter]
    fn opponents(&self) -> Option<&str> {
        self.core.opponents.as_deref()
    }
    /// The length of one seat's observation (`OBS_SIZE`).
    #[getter]
    fn obs_size(&self) -> usize {
        OBS_SIZE
    }
    /// The bid ladder of the action space.
    #[getter]
    fn ladder(&self) -> PyBidLadder {
        PyBidLadder(*self.core.space.ladder())
    }
    /// Whether the 16 peek actions (R-VIS-5) follow the pile actions.
    #[getter]
    fn peeks(&self) -> bool {
        self.core.space.has_peeks()
    }
    /// Seat decisions applied so far (learner decisions only, with opponents).
    #[getter]
    fn decisions(&self) -> u64 {
        self.core.decisions
    }
    /// Games finished so far.
    #[getter]
    fn episodes(&self) -> u64 {
        self.core.episodes
    }

    /// Starts a new game in every env (optionally re-seeding); returns `(obs, masks)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        if let Some(s) = args::opt_int::<u64>(seed, "seed")? {
            self.core.seed = s;
            self.core.started.fill(0);
        }
        self.with_out(py, Core::reset_all)?;
        Ok(self.outputs(py))
    }

    /// Every seat's reward (the env's `reward`, as `qe.Game.returns` gives it) in the last game
    /// env `env` finished since the `VectorEnv` was made or reset, that is at the last step whose
    /// `terminated[env]` was true; `None` before one has finished. With opponents, the learner's
    /// is `[seat]` (the step's reward) and the others are the bots'.
    fn last_returns(&self, env: &Bound<'_, PyAny>) -> PyResult<Option<Vec<f64>>> {
        Ok(self.finished(env)?.map(|game| {
            let outcome = game.outcome().expect("a finished game has an outcome");
            self.core.reward.returns(&outcome).collect()
        }))
    }

    /// The observation of the last game env `env` finished (as `last_returns`), as it ended:
    /// the learner's row (`[obs_size]` float32) with opponents, else every seat's (`[players,
    /// obs_size]`); `None` before one has finished. `step` returns the first observation of the
    /// next game in its place.
    fn last_observation<'py>(
        &self,
        py: Python<'py>,
        env: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArrayDyn<f32>>>> {
        let Some(game) = self.finished(env)? else {
            return Ok(None);
        };
        let rows = self.core.rows();
        let shape: &[usize] = if self.core.opponents.is_some() {
            &[OBS_SIZE]
        } else {
            &[rows, OBS_SIZE]
        };
        let arr = PyArrayDyn::<f32>::zeros(py, shape, false);
        {
            let mut rw = arr.readwrite();
            let obs = rw.as_slice_mut().expect("a new array is contiguous");
            for (r, row) in obs.chunks_exact_mut(OBS_SIZE).enumerate() {
                let seat = if self.core.opponents.is_some() {
                    self.core.learner
                } else {
                    Seat(r as u8)
                };
                observe_seat(game, seat, row);
            }
        }
        Ok(Some(arr))
    }

    /// The current `(obs, masks)` (the same arrays `step` returns).
    fn observe<'py>(&self, py: Python<'py>) -> (Bound<'py, PyAny>, Bound<'py, PyAny>) {
        self.outputs(py)
    }

    /// Pickled (and copied) as data: the constructor's arguments (the seed in use), then the
    /// state (`_set_state`): each env's game count and the commands of its current game and of
    /// the last game it finished, where the opponents' random streams are, and the counters. It
    /// is read back by `qe._vector_env`, which makes the env and replays every game through the
    /// core, so a copy steps as the original will.
    fn __reduce__<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>, Bound<'py, PyDict>))> {
        let c = &mut self.core;
        let players = c.rules.players();
        let kwargs = PyDict::new(py);
        kwargs.set_item("num_envs", c.games.len())?;
        kwargs.set_item("players", players)?;
        kwargs.set_item(
            "expansions",
            c.rules.expansions().names().collect::<Vec<_>>(),
        )?;
        kwargs.set_item("ladder", c.space.ladder().amounts().to_vec())?;
        kwargs.set_item("seed", c.seed)?;
        kwargs.set_item("opponents", c.opponents.as_deref())?;
        kwargs.set_item("seat", c.learner.0)?;
        kwargs.set_item("reward", c.reward.name())?;
        kwargs.set_item("all_seats", c.all_seats)?;
        kwargs.set_item("peeks", c.space.has_peeks())?;
        kwargs.set_item("zero_others", c.zero_others)?;
        let state = PyDict::new(py);
        state.set_item("started", c.started.clone())?;
        let games: Vec<String> = c.logs.iter().map(|l| commands_text(l, players)).collect();
        state.set_item("games", games)?;
        let finished: Vec<Option<String>> = c
            .finished
            .iter()
            .zip(&c.finished_logs)
            .map(|(f, l)| f.as_ref().map(|_| commands_text(l, players)))
            .collect();
        state.set_item("finished", finished)?;
        let p = c.players();
        let streams: Vec<Vec<Option<Vec<u128>>>> = c
            .bots
            .iter_mut()
            .map(|env| {
                env[..p]
                    .iter_mut()
                    .map(|b| b.as_mut().map(|b| b.get_mut().streams().to_vec()))
                    .collect()
            })
            .collect();
        state.set_item("streams", streams)?;
        state.set_item("decisions", c.decisions)?;
        state.set_item("episodes", c.episodes)?;
        let make = py.import("qe")?.getattr("_vector_env")?;
        Ok((make, (kwargs, state)))
    }

    /// Restores what `__reduce__` saved into an env made with the same arguments: every game is
    /// replayed through the core from its seed. A state that is not one (a command the game
    /// does not allow, a list of the wrong length) is a `ValueError` naming what is wrong, and
    /// the env is unchanged.
    fn _set_state(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let state = state.cast::<PyDict>().map_err(|_| {
            state_error(format!(
                "must be a dict, got {} {}",
                args::type_name(state),
                args::quote(state)
            ))
        })?;
        let c = &self.core;
        let n = c.games.len();
        let players = c.players();
        let started: Vec<u64> =
            state_value(&state_item(state, "started")?, "started", "a list of ints")?;
        let games: Vec<String> =
            state_value(&state_item(state, "games")?, "games", "a list of str")?;
        let finished: Vec<Option<String>> = state_value(
            &state_item(state, "finished")?,
            "finished",
            "a list of str or None",
        )?;
        let streams: Vec<Vec<Option<Vec<u128>>>> = state_value(
            &state_item(state, "streams")?,
            "streams",
            "a list of lists of None or 2 ints",
        )?;
        let decisions: u64 = state_value(&state_item(state, "decisions")?, "decisions", "an int")?;
        let episodes: u64 = state_value(&state_item(state, "episodes")?, "episodes", "an int")?;
        for (what, len) in [
            ("started", started.len()),
            ("games", games.len()),
            ("finished", finished.len()),
            ("streams", streams.len()),
        ] {
            if len != n {
                return Err(state_error(format!(
                    "`{what}` must have one entry per env ({n}), got {len}"
                )));
            }
        }
        let mut new_games = Vec::with_capacity(n);
        let mut new_logs = Vec::with_capacity(n);
        let mut new_finished = Vec::with_capacity(n);
        let mut new_finished_logs = Vec::with_capacity(n);
        let mut new_bots = Vec::with_capacity(n);
        for e in 0..n {
            let k = started[e].checked_sub(1).ok_or_else(|| {
                state_error(format!("env {e}: `started` must be at least 1, got 0"))
            })?;
            let log = commands_of(&games[e], e)?;
            let m = c.replay(e, k, &log)?;
            if m.game().is_over() {
                return Err(state_error(format!(
                    "env {e}: its current game is over (a finished game is replaced at once)"
                )));
            }
            let mut bots: [Option<Exclusive<BoxedBot>>; MAX_SEATS] = Default::default();
            if let Some(name) = &c.opponents {
                let mut others = m.game().to_act();
                others.remove(c.learner);
                if !others.is_empty() {
                    return Err(state_error(format!(
                        "env {e}: the opponents must act, but the batch waits for the learner"
                    )));
                }
                let seeds = &streams[e];
                if seeds.len() != players {
                    return Err(state_error(format!(
                        "env {e}: `streams` must have one entry per seat ({players}), got {}",
                        seeds.len()
                    )));
                }
                for (s, st) in seeds.iter().enumerate() {
                    let is_bot = s != c.learner.index();
                    match (is_bot, st) {
                        (true, Some(st)) if st.len() == 2 => {
                            let mut bot = by_name_with(
                                name,
                                Core::bot_seed(c.game_seed(e, k), s),
                                *c.rules.manifest(),
                            )
                            .expect("checked by new");
                            bot.set_streams([st[0], st[1]]);
                            bots[s] = Some(Exclusive::new(bot));
                        }
                        (false, None) => {}
                        _ => {
                            return Err(state_error(format!(
                                "env {e}, seat {s}: `streams` must be {}, got {}",
                                if is_bot {
                                    "2 ints (an opponent's)"
                                } else {
                                    "None (the learner's)"
                                },
                                args::quote(
                                    &state_item(state, "streams")?.get_item(e)?.get_item(s)?
                                )
                            )))
                        }
                    }
                }
            }
            let fin = match &finished[e] {
                None => None,
                Some(text) => {
                    let flog = commands_of(text, e)?;
                    let k = k.checked_sub(1).ok_or_else(|| {
                        state_error(format!(
                            "env {e}: a finished game needs `started` of at least 2"
                        ))
                    })?;
                    let fm = c.replay(e, k, &flog)?;
                    if !fm.game().is_over() {
                        return Err(state_error(format!(
                            "env {e}: its finished game is not over"
                        )));
                    }
                    new_finished_logs.push(flog);
                    Some(*fm.game())
                }
            };
            if fin.is_none() {
                new_finished_logs.push(Vec::new());
            }
            new_finished.push(fin);
            new_games.push(if matches!(c.games.first(), Some(EnvGame::History(_))) {
                EnvGame::History(m)
            } else {
                EnvGame::Plain(ObservedGame::new(*m.game()))
            });
            new_logs.push(log);
            new_bots.push(bots);
        }
        let core = &mut self.core;
        core.started = started;
        core.games = new_games;
        core.logs = new_logs;
        core.finished = new_finished;
        core.finished_logs = new_finished_logs;
        core.bots = new_bots;
        core.decisions = decisions;
        core.episodes = episodes;
        self.with_out(py, |core, out| {
            for e in 0..core.games.len() {
                core.write(e, out);
            }
            out.reward.fill(0.0);
            out.done.fill(false);
        })
    }

    /// Steps every env with `actions` (`[num_envs, players]` ints, or `[num_envs]` with
    /// opponents); returns `(obs, masks, rewards, terminated)`. The arrays are reused by the next
    /// call: copy what you keep.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
    )> {
        let n = self.core.games.len();
        let rows = self.core.rows();
        let expected: &[usize] = if self.core.opponents.is_some() {
            &[n]
        } else {
            &[n, rows]
        };
        read_actions(
            py,
            actions,
            expected,
            self.core.actions(),
            &mut self.core.actions,
        )?;
        // Validate everything first: an illegal action changes nothing.
        if let Err((e, seat, err)) = self.core.decode(py) {
            let _ = err.value(py).setattr("env", e);
            let _ = err.value(py).setattr("seat", seat.0);
            return Err(err);
        }
        self.with_out(py, Core::step)?;
        let (o, m) = self.outputs(py);
        Ok((
            o,
            m,
            self.reward.bind(py).clone(),
            self.done.bind(py).clone(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qe_core::bots::MiserBot;

    /// A 3-player batch of `n` envs against `opponents`, the learner at seat 1, started.
    fn started(n: usize, opponents: &str) -> (Core, [Vec<f32>; 2], Vec<i8>, Vec<bool>) {
        let mut core = Core::new(
            Rules::base(3).unwrap(),
            ActionSpace::new(BidLadder::default(), false),
            7,
            n,
            Some(opponents.to_owned()),
            Seat(1),
            Reward::Win,
            false,
            true,
        )
        .unwrap();
        let mut bufs = [vec![0.0; n * OBS_SIZE], vec![0.0; n]];
        let mut mask = vec![0; n * core.actions()];
        let mut done = vec![false; n];
        let [obs, reward] = &mut bufs;
        core.reset_all(&mut Out {
            obs,
            mask: &mut mask,
            reward,
            done: &mut done,
        });
        (core, bufs, mask, done)
    }

    #[test]
    fn search_opponents_decide_with_their_seats_bid_history() {
        let (mut core, mut bufs, mut mask, mut done) = started(2, "search:easy");
        assert!(core.games.iter().all(|g| g.history().is_some()));
        for _ in 0..10 {
            for e in 0..2 {
                let learner = core.learner;
                core.pending[e] = [None; MAX_SEATS];
                core.pending[e][learner.index()] = decide(
                    &mut MiserBot,
                    core.games[e].history().unwrap(),
                    learner,
                    false,
                );
            }
            let [obs, reward] = &mut bufs;
            core.step(&mut Out {
                obs,
                mask: &mut mask,
                reward,
                done: &mut done,
            });
        }
        // Each env's game so far, replayed: every bot command is what a bot of its seat's seed
        // decides with the seat's bid history (the view alone decides otherwise, see qe-core's
        // twin test).
        let mut checked = 0;
        for e in 0..2 {
            let m = core.games[e].history().unwrap();
            let game_seed = core.game_seed(e, core.started[e] - 1);
            let mut replay = Match::seeded(core.rules, game_seed);
            let mut bots: Vec<BoxedBot> = (0..3)
                .map(|s| {
                    by_name_with(
                        "search:easy",
                        Core::bot_seed(game_seed, s),
                        *core.rules.manifest(),
                    )
                    .unwrap()
                })
                .collect();
            for &c in m.commands() {
                let seat = c.seat().unwrap();
                if seat != core.learner {
                    assert_eq!(
                        decide(&mut *bots[seat.index()], &replay, seat, true),
                        Some(c)
                    );
                    checked += 1;
                }
                replay.play(c).unwrap();
            }
        }
        assert!(checked >= 20, "{checked} bot commands checked");
    }

    #[test]
    fn opponents_that_read_the_view_only_keep_no_history() {
        let (core, ..) = started(2, "value");
        assert!(core.games.iter().all(|g| g.history().is_none()));
    }
}
