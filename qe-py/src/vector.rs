//! [`VectorEnv`]: many games stepped in one call, with the GIL released.

use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use qe_core::bots::{by_name_with, decide, BoxedBot, NAMES};
use qe_core::encoding::{observe_seat, ActionSpace, BidLadder, ObservedGame, OBS_SIZE};
use qe_core::reward::Reward;
use qe_core::{mix_seed, Game, Match, Outcome, Rules, Seat, MAX_SEATS};

use crate::{args, command_error, random_seed, rules, PyBidLadder};

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

/// The state of the batch, separate from the Python buffers so it can run without the GIL.
struct Core {
    rules: Rules,
    space: ActionSpace,
    seed: u64,
    /// The games, each with the writer of its observations (exactly `observe_seat`'s floats,
    /// faster: it keeps the slots of the turns over, PERF.md).
    games: Vec<ObservedGame>,
    /// How many games each env has started (for seeding).
    started: Vec<u64>,
    /// The last game each env finished since it was made or reset, as it ended.
    finished: Vec<Option<Game>>,
    /// The name of the bots that play the other seats (`qe_core::bots::by_name`), if any.
    opponents: Option<String>,
    bots: Vec<[Option<Exclusive<BoxedBot>>; MAX_SEATS]>,
    /// Each env's game again with its history, for opponents that read their bid history
    /// (`Bot::uses_history`: the search bots); empty for the others, which need only the view.
    matches: Vec<Match>,
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
            games: try_vec(num_envs, ObservedGame::new(Game::seeded(rules, 0)))?,
            started: try_vec(num_envs, 0)?,
            finished: try_vec(num_envs, None)?,
            opponents,
            bots: {
                let mut bots = Vec::new();
                bots.try_reserve_exact(num_envs).map_err(|_| {
                    PyMemoryError::new_err(format!("VectorEnv({num_envs}): out of memory"))
                })?;
                bots.resize_with(num_envs, Default::default);
                bots
            },
            matches: if with_history {
                try_vec(num_envs, Match::seeded(rules, 0))?
            } else {
                Vec::new()
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
        if let Some(m) = self.matches.get_mut(e) {
            *m = Match::seeded(self.rules, game_seed);
        }
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
        let observed = &mut self.games[e];
        while !observed.game().is_over() {
            let game = observed.game();
            let mut others = game.to_act();
            others.remove(learner);
            let Some(seat) = others.first() else { break };
            let bot = self.bots[e][seat.index()]
                .as_mut()
                .expect("every other seat has a bot")
                .get_mut();
            let command = match self.matches.get_mut(e) {
                Some(m) => {
                    let c = decide(&mut **bot, m, seat, true);
                    if let Some(c) = c {
                        m.play(c).expect("bots play legal commands");
                    }
                    c
                }
                None => bot.act(&game.view(seat)),
            }
            .expect("a bot that must act acts");
            observed.play(command).expect("bots play legal commands");
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
                if let Some(m) = self.matches.get_mut(e) {
                    m.play(*c).expect("validated");
                }
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
                self.episodes += 1;
                self.new_game(e);
            }
            self.write(e, out);
        }
    }
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
    #[pyo3(signature = (num_envs, players=4, commodities=false, *, expansions=None, ladder=None, seed=None, opponents=None, seat=Ok(0), reward="win".to_owned(), all_seats=false, peeks=false, zero_others=true))]
    #[pyo3(
        text_signature = "(num_envs, players=4, commodities=False, *, expansions=None, ladder=None, seed=None, opponents=None, seat=0, reward='win', all_seats=False, peeks=False, zero_others=True)"
    )]
    // The parameters are the Python keywords, one to one.
    #[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::players)] players: i128,
        #[pyo3(from_py_with = args::flag)] commodities: bool,
        expansions: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = crate::ladder_arg)] ladder: Option<PyBidLadder>,
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
        let expansions = args::names(expansions, "expansions")?;
        let players = crate::players_of(py, players)?;
        let num_envs = usize::try_from(num_envs)
            .ok()
            .filter(|n| (1..=MAX_ENVS).contains(n))
            .ok_or_else(|| bad_count(&num_envs))?;
        let r = rules(py, players, commodities, expansions)?;
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
            .map_err(|quoted| crate::seat_range_error("seat", players, quoted))
            .and_then(|seat| {
                u8::try_from(seat)
                    .ok()
                    .filter(|&s| s < players)
                    .ok_or_else(|| crate::seat_range_error("seat", players, seat))
            })?;
        if opponents.is_none() && seat != 0 {
            // Without opponents every seat is played: a learner's seat would be ignored.
            return Err(PyValueError::new_err(format!(
                "seat {seat} is the learner's seat against opponents, but opponents is None (every \
                 seat is played): give opponents, or leave seat out"
            )));
        }
        let reward = crate::reward_of(&reward)?;
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
        assert_eq!(core.matches.len(), 2);
        for _ in 0..10 {
            for e in 0..2 {
                let learner = core.learner;
                core.pending[e] = [None; MAX_SEATS];
                core.pending[e][learner.index()] =
                    decide(&mut MiserBot, &core.matches[e], learner, false);
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
            let m = &core.matches[e];
            assert_eq!(m.game(), core.games[e].game());
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
        assert!(core.matches.is_empty());
    }
}
