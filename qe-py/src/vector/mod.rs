//! [`VectorEnv`]: many games stepped in one call, with the GIL released, on several threads
//! (each env on one), synchronously (`step`) or asynchronously (`send` / `recv`).

mod env;
mod input;
mod step;

use std::collections::VecDeque;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};

use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qe_core::bots::{by_name_with, decide, BoxedBot, NAMES};
use qe_core::encoding::{observe_seat, ActionSpace, BidLadder, ObservedGame, OBS_SIZE};
use qe_core::reward::Reward;
use qe_core::{mix_seed, Game, Match, PerSeat, Rules, Seat};

use crate::args;
use crate::encoding::PyBidLadder;
use crate::errors::command_error;
use crate::pool::Pool;
use crate::setup::{random_seed, rules};

pub(crate) use env::Exclusive;
use env::{Config, Env, EnvBuf, EnvGame, EnvOut, Refused};
use input::{
    commands_of, commands_text, count_up_to, default_threads, new_buf, output, output_ro,
    own_array, read_actions, read_env_ids, read_mask, state_error, state_item, state_value,
    try_vec, writable, zeros, MAX_THREADS,
};
#[cfg(test)]
use step::MIN_ENVS_PER_THREAD;
use step::{chunk_len, for_each_env, run_chunks, threads_for, Core, Out, Stage};

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
    /// The arrays `recv` returns (observations, masks, rewards, terminations, env ids), made at
    /// its first call and reused by the next.
    recv_out: Option<[Py<PyAny>; 5]>,
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
        let n = self.core.num_envs();
        let rows = n * self.core.cfg.rows();
        let mut out = Out {
            obs: output(obs_rw.as_slice_mut(), "obs", rows * OBS_SIZE)?,
            mask: output(
                mask_rw.as_slice_mut(),
                "mask",
                rows * self.core.cfg.actions(),
            )?,
            reward: output(reward_rw.as_slice_mut(), "reward", rows)?,
            done: output(done_rw.as_slice_mut(), "done", n)?,
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
        let n = self.core.num_envs();
        let out_of_range = |got: &dyn core::fmt::Display| {
            PyIndexError::new_err(format!("env {got} out of range 0..{n}"))
        };
        let e = args::int_or::<i128>(env, "env", |q| out_of_range(&q))?;
        let e = usize::try_from(e)
            .ok()
            .filter(|&e| e < n)
            .ok_or_else(|| out_of_range(&e))?;
        if self.core.stage[e] == Stage::Stepping {
            return Err(PyRuntimeError::new_err(format!(
                "env {e} is being stepped (sent, not received): recv() it first"
            )));
        }
        Ok(self.core.env(e).finished.as_ref())
    }
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, players=4, *, expansions=None, commodities=None, ladder=None, seed=None, opponents=None, seat=Ok(0), reward="win".to_owned(), all_seats=false, peeks=false, zero_others=true, autoreset=true, num_threads=None, batch_size=None))]
    #[pyo3(
        text_signature = "(num_envs, players=4, *, expansions=None, commodities=None, ladder=None, seed=None, opponents=None, seat=0, reward='win', all_seats=False, peeks=False, zero_others=True, autoreset=True, num_threads=None, batch_size=None)"
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
        #[pyo3(from_py_with = args::flag)] autoreset: bool,
        num_threads: Option<&Bound<'_, PyAny>>,
        batch_size: Option<&Bound<'_, PyAny>>,
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
        let threads = match num_threads {
            None => default_threads(),
            Some(t) => count_up_to(t, "num_threads", MAX_THREADS, &MAX_THREADS.to_string())?,
        };
        let batch_size = match batch_size {
            None => num_envs,
            Some(b) => count_up_to(b, "batch_size", num_envs, &format!("num_envs ({num_envs})"))?,
        };
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
        let with_history = opponents.as_deref().is_some_and(|name| {
            by_name_with(name, 0, *r.manifest()).is_some_and(|bot| bot.uses_history())
        });
        let cfg = Config {
            rules: r,
            space,
            seed: seed.unwrap_or_else(random_seed),
            opponents,
            with_history,
            learner: Seat(seat),
            reward,
            all_seats,
            zero_others,
            autoreset,
        };
        let mut env = VectorEnv {
            core: Core::new(cfg, num_envs, threads, batch_size)?,
            obs,
            mask,
            reward: rew,
            done,
            recv_out: None,
        };
        env.with_out(py, Core::reset_all)?;
        Ok(env)
    }

    /// The number of games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.core.num_envs()
    }
    /// The most threads a step runs on (a batch of fewer than 8 envs a thread runs on fewer).
    #[getter]
    fn num_threads(&self) -> usize {
        self.core.threads
    }
    /// How many envs `recv` returns.
    #[getter]
    fn batch_size(&self) -> usize {
        self.core.batch_size
    }
    /// Whether a finished game is replaced by the env's next game in the step that ends it.
    #[getter]
    fn autoreset(&self) -> bool {
        self.core.cfg.autoreset
    }
    /// The number of seats of each game.
    #[getter]
    fn players(&self) -> usize {
        self.core.cfg.players()
    }
    /// The number of actions: the game's (`Game.num_actions`), then the wait action.
    #[getter]
    fn num_actions(&self) -> usize {
        self.core.cfg.actions()
    }
    /// The wait action (`num_actions - 1`): the only legal action of a seat with nothing to do;
    /// `step` ignores the entries of such seats whatever they are.
    #[getter]
    fn wait_action(&self) -> usize {
        self.core.cfg.space.size()
    }
    /// The name of the opponents' bots, if any.
    #[getter]
    fn opponents(&self) -> Option<&str> {
        self.core.cfg.opponents.as_deref()
    }
    /// The length of one seat's observation (`OBS_SIZE`).
    #[getter]
    fn obs_size(&self) -> usize {
        OBS_SIZE
    }
    /// The bid ladder of the action space.
    #[getter]
    fn ladder(&self) -> PyBidLadder {
        PyBidLadder(*self.core.cfg.space.ladder())
    }
    /// Whether the 16 peek actions (R-VIS-5) follow the pile actions.
    #[getter]
    fn peeks(&self) -> bool {
        self.core.cfg.space.has_peeks()
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

    /// Starts a new game in every env (optionally re-seeding: the games are seeded from `seed`,
    /// the env's index and its game count, which starts over); returns `(obs, masks)`. With
    /// `mask` (`num_envs` bools), only the envs it marks start a new game (their next one: no
    /// `seed` then), and the other envs' rows are left as they were.
    #[pyo3(signature = (seed=None, mask=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        self.core.check_settled("reset()")?;
        let seed = args::opt_int::<u64>(seed, "seed")?;
        if let Some(mask) = mask {
            if let Some(s) = seed {
                return Err(PyValueError::new_err(format!(
                    "reset(seed={s}, mask=...): a seed re-seeds every env, so it cannot go with \
                     a mask"
                )));
            }
            let which = read_mask(py, mask, self.core.num_envs())?;
            self.with_out(py, move |core, out| {
                let cfg = Arc::clone(&core.cfg);
                let (rows, a) = (cfg.rows(), cfg.actions());
                for (e, _) in which.iter().enumerate().filter(|(_, &m)| m) {
                    let env = core.envs[e].as_deref_mut().expect("settled");
                    env.restart(
                        &cfg,
                        &mut EnvOut {
                            obs: &mut out.obs[e * rows * OBS_SIZE..(e + 1) * rows * OBS_SIZE],
                            mask: &mut out.mask[e * rows * a..(e + 1) * rows * a],
                            reward: &mut out.reward[e * rows..(e + 1) * rows],
                            done: &mut out.done[e],
                        },
                    );
                }
            })?;
            return Ok(self.outputs(py));
        }
        if let Some(s) = seed {
            Arc::make_mut(&mut self.core.cfg).seed = s;
            for env in self.core.envs.iter_mut().flatten() {
                env.started = 0;
            }
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
            self.core.cfg.reward.returns(&outcome).collect()
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
        let cfg = &self.core.cfg;
        let shape: &[usize] = if cfg.opponents.is_some() {
            &[OBS_SIZE]
        } else {
            &[cfg.rows(), OBS_SIZE]
        };
        let arr = PyArrayDyn::<f32>::zeros(py, shape, false);
        {
            let mut rw = arr.readwrite();
            let obs = rw.as_slice_mut().expect("a new array is contiguous");
            for (r, row) in obs.chunks_exact_mut(OBS_SIZE).enumerate() {
                observe_seat(game, cfg.seat_of_row(r), row);
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
    /// core, so a copy steps as the original will. Not while envs are sent and not received
    /// (`RuntimeError`).
    fn __reduce__<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>, Bound<'py, PyDict>))> {
        self.core.check_settled("pickling a VectorEnv")?;
        let c = &mut self.core;
        let cfg = Arc::clone(&c.cfg);
        let players = cfg.rules.players();
        let kwargs = PyDict::new(py);
        kwargs.set_item("num_envs", c.num_envs())?;
        kwargs.set_item("players", players)?;
        kwargs.set_item(
            "expansions",
            cfg.rules.expansions().names().collect::<Vec<_>>(),
        )?;
        kwargs.set_item("ladder", cfg.space.ladder().amounts().to_vec())?;
        kwargs.set_item("seed", cfg.seed)?;
        kwargs.set_item("opponents", cfg.opponents.as_deref())?;
        kwargs.set_item("seat", cfg.learner.0)?;
        kwargs.set_item("reward", cfg.reward.name())?;
        kwargs.set_item("all_seats", cfg.all_seats)?;
        kwargs.set_item("peeks", cfg.space.has_peeks())?;
        kwargs.set_item("zero_others", cfg.zero_others)?;
        kwargs.set_item("autoreset", cfg.autoreset)?;
        kwargs.set_item("num_threads", c.threads)?;
        kwargs.set_item("batch_size", c.batch_size)?;
        let envs = || c.envs.iter().map(|e| e.as_deref().expect("settled"));
        let state = PyDict::new(py);
        state.set_item("started", envs().map(|e| e.started).collect::<Vec<_>>())?;
        let games: Vec<String> = envs().map(|e| commands_text(&e.log, players)).collect();
        state.set_item("games", games)?;
        let finished: Vec<Option<String>> = envs()
            .map(|e| {
                e.finished
                    .as_ref()
                    .map(|_| commands_text(&e.finished_log, players))
            })
            .collect();
        state.set_item("finished", finished)?;
        let p = cfg.players();
        let streams: Vec<Vec<Option<Vec<u128>>>> = c
            .envs
            .iter_mut()
            .map(|env| {
                env.as_mut()
                    .expect("settled")
                    .bots
                    .values_mut()
                    .take(p)
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
        self.core.check_settled("_set_state()")?;
        let state = state.cast::<PyDict>().map_err(|_| {
            state_error(format!(
                "must be a dict, got {} {}",
                args::type_name(state),
                args::quote(state)
            ))
        })?;
        let c = &self.core.cfg;
        let n = self.core.num_envs();
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
        let mut new_envs = Vec::with_capacity(n);
        for e in 0..n {
            let mut env = Env::new(e, c);
            env.started = started[e];
            let k = started[e].checked_sub(1).ok_or_else(|| {
                state_error(format!("env {e}: `started` must be at least 1, got 0"))
            })?;
            let log = commands_of(&games[e], e)?;
            let m = c.replay(e, k, &log)?;
            if m.game().is_over() && c.autoreset {
                return Err(state_error(format!(
                    "env {e}: its current game is over (a finished game is replaced at once)"
                )));
            }
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
                                Config::bot_seed(c.game_seed(e, k), s),
                                *c.rules.manifest(),
                            )
                            .expect("checked by new");
                            bot.set_streams([st[0], st[1]]);
                            env.bots[Seat(s as u8)] = Some(Exclusive::new(bot));
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
            if let Some(text) = &finished[e] {
                let flog = commands_of(text, e)?;
                // Without autoreset a finished game may still be the current one.
                let k = if m.game().is_over() && !c.autoreset {
                    k
                } else {
                    k.checked_sub(1).ok_or_else(|| {
                        state_error(format!(
                            "env {e}: a finished game needs `started` of at least 2"
                        ))
                    })?
                };
                let fm = c.replay(e, k, &flog)?;
                if !fm.game().is_over() {
                    return Err(state_error(format!(
                        "env {e}: its finished game is not over"
                    )));
                }
                env.finished_log = flog;
                env.finished = Some(*fm.game());
            }
            env.game = if c.with_history {
                EnvGame::History(m)
            } else {
                EnvGame::Plain(ObservedGame::new(*m.game()))
            };
            env.log = log;
            new_envs.push(Some(Box::new(env)));
        }
        let core = &mut self.core;
        core.envs = new_envs;
        core.decisions = decisions;
        core.episodes = episodes;
        self.with_out(py, |core, out| {
            let cfg = Arc::clone(&core.cfg);
            for_each_env(&mut core.envs, &cfg, out, &core.pool, |env, cfg, o| {
                env.write(cfg, o);
                o.reward.fill(0.0);
                *o.done = false;
                (0, 0)
            });
        })
    }

    /// Steps every env with `actions` (`[num_envs, players]` ints, or `[num_envs]` with
    /// opponents); returns `(obs, masks, rewards, terminated)`. The arrays are reused by the next
    /// call: copy what you keep. The synchronous path: every env, whatever `batch_size`; not
    /// while envs are sent and not received (`RuntimeError`).
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
        self.core.check_settled("step()")?;
        let n = self.core.num_envs();
        let rows = self.core.cfg.rows();
        let expected: &[usize] = if self.core.cfg.opponents.is_some() {
            &[n]
        } else {
            &[n, rows]
        };
        read_actions(
            py,
            actions,
            expected,
            self.core.cfg.actions(),
            &mut self.core.actions,
        )?;
        // Every action is checked before any env changes: an illegal one changes nothing.
        let actions = self.core.cfg.actions();
        self.with_out(py, Core::decode_and_step)?
            .map_err(|r| r.into_err(py, actions))?;
        let (o, m) = self.outputs(py);
        Ok((
            o,
            m,
            self.reward.bind(py).clone(),
            self.done.bind(py).clone(),
        ))
    }

    /// Starts a new game in every env (optionally re-seeding, as `reset`) and makes them all
    /// ready for `recv`, in env order: the asynchronous start (EnvPool's `async_reset`). Not
    /// while envs are sent and not received (`RuntimeError`).
    #[pyo3(signature = (seed=None))]
    fn async_reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.core.check_settled("async_reset()")?;
        self.reset(py, seed, None)?;
        let (obs, mask) = self.outputs(py);
        let obs = own_array::<f32>(&obs, "obs")?;
        let mask = own_array::<i8>(&mask, "mask")?;
        let (obs, mask) = (obs.readonly(), mask.readonly());
        let (obs, mask) = (
            obs.as_slice().expect("checked by reset"),
            mask.as_slice().expect("checked by reset"),
        );
        let core = &mut self.core;
        let (rows, a) = (core.cfg.rows(), core.cfg.actions());
        for e in 0..core.num_envs() {
            let env = core.envs[e].as_deref_mut().expect("settled");
            let buf = env.buf.get_or_insert_with(|| new_buf(rows, a));
            buf.obs
                .copy_from_slice(&obs[e * rows * OBS_SIZE..(e + 1) * rows * OBS_SIZE]);
            buf.mask
                .copy_from_slice(&mask[e * rows * a..(e + 1) * rows * a]);
            buf.reward.fill(0.0);
            buf.done = false;
            core.stage[e] = Stage::Ready;
            core.ready.push_back(e);
        }
        Ok(())
    }

    /// Sends `actions` for the envs `env_ids` (EnvPool's `send`): one row of `actions` per id,
    /// as `step` takes them (`[len(env_ids), players]`, or `[len(env_ids)]` with opponents);
    /// `env_ids` `None` is every env. The actions are checked first, as `step` checks them (an
    /// illegal one raises and nothing is sent); then the envs are stepped on worker threads
    /// while the caller goes on, and `recv` returns them. An env id out of range or given twice
    /// is a `ValueError`, one already sent and not received a `RuntimeError`, each naming it.
    #[pyo3(signature = (actions, env_ids=None))]
    fn send(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        env_ids: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let n = self.core.num_envs();
        let ids = match env_ids {
            None => (0..n).collect(),
            Some(ids) => read_env_ids(py, ids, n)?,
        };
        for &e in &ids {
            if self.core.stage[e] != Stage::Idle {
                return Err(PyRuntimeError::new_err(format!(
                    "env {e} was sent and its result is not received yet (it is {}): recv() it \
                     before sending it again",
                    if self.core.stage[e] == Stage::Ready {
                        "ready"
                    } else {
                        "being stepped"
                    }
                )));
            }
        }
        let cfg = Arc::clone(&self.core.cfg);
        let rows = cfg.rows();
        let expected: &[usize] = if cfg.opponents.is_some() {
            &[ids.len()]
        } else {
            &[ids.len(), rows]
        };
        read_actions(py, actions, expected, cfg.actions(), &mut self.core.actions)?;
        // An env's first send: its outputs start as the batch arrays hold them.
        let a = cfg.actions();
        if ids.iter().any(|&e| self.core.env(e).buf.is_none()) {
            let (obs, mask) = self.outputs(py);
            let obs = own_array::<f32>(&obs, "obs")?;
            let mask = own_array::<i8>(&mask, "mask")?;
            let (obs, mask) = (obs.try_readonly()?, mask.try_readonly()?);
            let obs = output_ro(obs.as_slice(), "obs", n * rows * OBS_SIZE)?;
            let mask = output_ro(mask.as_slice(), "mask", n * rows * a)?;
            for &e in &ids {
                let env = self.core.env_mut(e);
                if env.buf.is_none() {
                    let mut buf = new_buf(rows, a);
                    buf.obs
                        .copy_from_slice(&obs[e * rows * OBS_SIZE..(e + 1) * rows * OBS_SIZE]);
                    buf.mask
                        .copy_from_slice(&mask[e * rows * a..(e + 1) * rows * a]);
                    env.buf = Some(buf);
                }
            }
        }
        // The actions are checked on the threads, the GIL released; on a refusal (the first
        // in the order of `env_ids`) every env goes back as it was.
        let mut taken: Vec<Box<Env>> = ids
            .iter()
            .map(|&e| self.core.envs[e].take().expect("idle"))
            .collect();
        let per_env = if cfg.opponents.is_some() { 1 } else { rows };
        let per = chunk_len(taken.len(), self.core.threads);
        let chunks: Vec<_> = taken
            .chunks_mut(per)
            .zip(self.core.actions.chunks(per * per_env))
            .collect();
        let pool = &self.core.pool;
        let checked = py.detach(|| {
            run_chunks(pool, chunks, |(envs, actions)| {
                envs.iter_mut()
                    .zip(actions.chunks_exact(per_env))
                    .try_for_each(|(env, row)| env.decode(&cfg, row))
            })
        });
        if let Some(Err(r)) = checked.into_iter().find(Result::is_err) {
            for mut env in taken {
                env.clear_pending();
                let e = env.index;
                self.core.envs[e] = Some(env);
            }
            return Err(r.into_err(py, cfg.actions()));
        }
        for &e in &ids {
            self.core.stage[e] = Stage::Stepping;
        }
        self.core.stepping += ids.len();
        let threads = threads_for(taken.len(), self.core.threads);
        let per = taken.len().div_ceil(threads).max(1);
        while !taken.is_empty() {
            let chunk: Vec<Box<Env>> = taken.drain(..per.min(taken.len())).collect();
            let cfg = Arc::clone(&cfg);
            let tx = self.core.returns.clone();
            std::thread::spawn(move || {
                for mut env in chunk {
                    let mut buf = env.buf.take().expect("made by send");
                    let (d, e) = env.step(&cfg, &mut buf.out());
                    env.buf = Some(buf);
                    // The VectorEnv may be gone: then nobody waits for the env.
                    if tx.send((env, d, e)).is_err() {
                        return;
                    }
                }
            });
        }
        Ok(())
    }

    /// Waits for `batch_size` envs sent by `send` (or made ready by `async_reset`) to be ready
    /// and returns them (EnvPool's `recv`): `(obs, masks, rewards, terminated, env_ids)`, arrays
    /// of `batch_size` rows (the first envs to be ready, in that order; `env_ids` int64 gives
    /// each row's env), reused by the next `recv` as `step`'s are by the next `step`. The wait
    /// releases the GIL. With fewer than `batch_size` envs sent and not received, it would wait
    /// forever: a `RuntimeError` naming the counts instead (one of the arrays resized or made
    /// non-contiguous by the caller is a `ValueError`, and no env leaves the ready queue).
    #[allow(clippy::type_complexity)]
    fn recv<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
    )> {
        let core = &mut self.core;
        let b = core.batch_size;
        if core.ready.len() + core.stepping < b {
            return Err(PyRuntimeError::new_err(format!(
                "recv() returns batch_size = {b} envs, but only {} are sent and not received \
                 ({} ready, {} being stepped): send() actions for more envs first",
                core.ready.len() + core.stepping,
                core.ready.len(),
                core.stepping
            )));
        }
        py.detach(|| core.wait_ready(b))
            .map_err(PyRuntimeError::new_err)?;
        let cfg = Arc::clone(&core.cfg);
        let (rows, a) = (cfg.rows(), cfg.actions());
        if self.recv_out.is_none() {
            let single = cfg.opponents.is_some();
            let (obs, mask, row): (&[usize], &[usize], &[usize]) = if single {
                (&[b, OBS_SIZE], &[b, a], &[b])
            } else {
                (&[b, rows, OBS_SIZE], &[b, rows, a], &[b, rows])
            };
            self.recv_out = Some([
                zeros(py, obs, "float32")?,
                zeros(py, mask, "int8")?,
                zeros(py, row, "float32")?,
                zeros(py, &[b], "bool_")?,
                zeros(py, &[b], "int64")?,
            ]);
        }
        let [obs, mask, reward, done, ids] = self
            .recv_out
            .as_ref()
            .expect("made above")
            .each_ref()
            .map(|x| x.bind(py));
        let (obs_a, mask_a, reward_a, done_a, ids_a) = (
            own_array::<f32>(obs, "recv obs")?,
            own_array::<i8>(mask, "recv mask")?,
            own_array::<f32>(reward, "recv reward")?,
            own_array::<bool>(done, "recv done")?,
            own_array::<i64>(ids, "recv env_ids")?,
        );
        let (mut o, mut m, mut r, mut d, mut i) = (
            writable(&obs_a, "recv obs")?,
            writable(&mask_a, "recv mask")?,
            writable(&reward_a, "recv reward")?,
            writable(&done_a, "recv done")?,
            writable(&ids_a, "recv env_ids")?,
        );
        // Checked before any env leaves the ready queue: an error changes nothing.
        let (o, m, r, d, i) = (
            output(o.as_slice_mut(), "recv obs", b * rows * OBS_SIZE)?,
            output(m.as_slice_mut(), "recv mask", b * rows * a)?,
            output(r.as_slice_mut(), "recv reward", b * rows)?,
            output(d.as_slice_mut(), "recv done", b)?,
            output(i.as_slice_mut(), "recv env_ids", b)?,
        );
        let core = &mut self.core;
        let batch: Vec<usize> = (0..b)
            .map(|_| core.ready.pop_front().expect("waited for"))
            .collect();
        for (slot, &e) in i.iter_mut().zip(&batch) {
            core.stage[e] = Stage::Idle;
            *slot = e as i64;
        }
        // The rows are copied on the threads, the GIL released.
        let envs = &core.envs;
        let per = chunk_len(b, core.threads);
        let chunks: Vec<_> = batch
            .chunks(per)
            .zip(o.chunks_mut(per * rows * OBS_SIZE))
            .zip(m.chunks_mut(per * rows * a))
            .zip(r.chunks_mut(per * rows))
            .zip(d.chunks_mut(per))
            .collect();
        let pool = &core.pool;
        py.detach(|| {
            run_chunks(pool, chunks, |((((ids, o), m), r), d)| {
                for (k, &e) in ids.iter().enumerate() {
                    let buf = envs[e]
                        .as_deref()
                        .and_then(|env| env.buf.as_ref())
                        .expect("a ready env has its outputs");
                    o[k * rows * OBS_SIZE..(k + 1) * rows * OBS_SIZE].copy_from_slice(&buf.obs);
                    m[k * rows * a..(k + 1) * rows * a].copy_from_slice(&buf.mask);
                    r[k * rows..(k + 1) * rows].copy_from_slice(&buf.reward);
                    d[k] = buf.done;
                }
            })
        });
        Ok((
            obs.clone(),
            mask.clone(),
            reward.clone(),
            done.clone(),
            ids.clone(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qe_core::bots::MiserBot;

    /// A 3-player batch of `n` envs against `opponents`, the learner at seat 1, started.
    fn started(n: usize, opponents: &str) -> (Core, [Vec<f32>; 2], Vec<i8>, Vec<bool>) {
        let rules = Rules::base(3).unwrap();
        let with_history =
            by_name_with(opponents, 0, *rules.manifest()).is_some_and(|bot| bot.uses_history());
        let cfg = Config {
            rules,
            space: ActionSpace::new(BidLadder::default(), false),
            seed: 7,
            opponents: Some(opponents.to_owned()),
            with_history,
            learner: Seat(1),
            reward: Reward::Win,
            all_seats: false,
            zero_others: true,
            autoreset: true,
        };
        let mut core = Core::new(cfg, n, 2, n).unwrap();
        let mut bufs = [vec![0.0; n * OBS_SIZE], vec![0.0; n]];
        let mut mask = vec![0; n * core.cfg.actions()];
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
        assert!((0..2).all(|e| core.env(e).game.history().is_some()));
        for _ in 0..10 {
            for e in 0..2 {
                let learner = core.cfg.learner;
                let env = core.env_mut(e);
                env.clear_pending();
                env.pending[learner] =
                    decide(&mut MiserBot, env.game.history().unwrap(), learner, false);
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
            let env = core.env(e);
            let m = env.game.history().unwrap();
            let game_seed = core.cfg.game_seed(e, env.started - 1);
            let mut replay = Match::seeded(core.cfg.rules, game_seed);
            let mut bots: Vec<BoxedBot> = (0..3)
                .map(|s| {
                    by_name_with(
                        "search:easy",
                        Config::bot_seed(game_seed, s),
                        *core.cfg.rules.manifest(),
                    )
                    .unwrap()
                })
                .collect();
            for &c in m.commands() {
                let seat = c.seat().unwrap();
                if seat != core.cfg.learner {
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
        assert!((0..2).all(|e| core.env(e).game.history().is_none()));
    }

    #[test]
    fn threads_for_gives_each_thread_enough_envs() {
        assert_eq!(threads_for(1, 4), 1);
        assert_eq!(threads_for(MIN_ENVS_PER_THREAD, 4), 1);
        assert_eq!(threads_for(MIN_ENVS_PER_THREAD + 1, 4), 2);
        assert_eq!(threads_for(1024, 2), 2);
        assert_eq!(threads_for(1024, 1), 1);
    }
}
