//! Stepping the envs: chunks of envs on the pool's threads with the GIL released, the
//! synchronous step and the queue of the asynchronous `send` / `recv`.

use pyo3::prelude::*;

use super::{
    channel, try_vec, Arc, Config, Env, EnvOut, Exclusive, Mutex, Pool, PyMemoryError,
    PyRuntimeError, Receiver, RecvTimeoutError, Refused, Sender, VecDeque, OBS_SIZE,
};

/// Output buffers of the whole batch, as plain slices.
pub(super) struct Out<'a> {
    pub(super) obs: &'a mut [f32],
    pub(super) mask: &'a mut [i8],
    pub(super) reward: &'a mut [f32],
    pub(super) done: &'a mut [bool],
}

/// The fewest envs a thread is given: a smaller batch runs on fewer threads than asked (a
/// thread's start costs about as much as stepping a few envs).
pub(super) const MIN_ENVS_PER_THREAD: usize = 8;

/// How many threads step `n` envs when `threads` are allowed.
pub(super) fn threads_for(n: usize, threads: usize) -> usize {
    threads.min(n.div_ceil(MIN_ENVS_PER_THREAD)).max(1)
}

/// Runs `work` on each of `chunks` on the threads of `pool` (the calling thread and the workers
/// that come to help take the next chunk not taken yet until none is left, so a thread the
/// machine slows down takes fewer chunks and the others more). Returns what `work` returned for
/// each chunk, in the order of `chunks`.
pub(super) fn run_chunks<C: Send, R: Send>(
    pool: &Pool,
    chunks: Vec<C>,
    work: impl Fn(C) -> R + Sync,
) -> Vec<R> {
    let slots: Vec<Mutex<Option<C>>> = chunks.into_iter().map(|c| Mutex::new(Some(c))).collect();
    let results: Vec<Mutex<Option<R>>> = slots.iter().map(|_| Mutex::new(None)).collect();
    pool.run(slots.len(), &|i| {
        let chunk = slots[i]
            .lock()
            .expect("a chunk")
            .take()
            .expect("taken once");
        let r = work(chunk);
        *results[i].lock().expect("a result") = Some(r);
    });
    results
        .into_iter()
        .map(|r| r.into_inner().expect("a result").expect("every chunk ran"))
        .collect()
}

/// How many envs a chunk of [`run_chunks`] holds: about 8 chunks a thread (so the threads end
/// together), never fewer than [`MIN_ENVS_PER_THREAD`] envs.
pub(super) fn chunk_len(n: usize, threads: usize) -> usize {
    n.div_ceil(threads_for(n, threads) * 8)
        .max(MIN_ENVS_PER_THREAD)
}

/// Runs `f` on every env with its rows of `out`, on the threads of `pool` ([`run_chunks`] over
/// consecutive chunks of the envs and of each output); the sum of what `f` returns.
pub(super) fn for_each_env(
    envs: &mut [Option<Box<Env>>],
    cfg: &Config,
    out: &mut Out<'_>,
    pool: &Pool,
    f: impl Fn(&mut Env, &Config, &mut EnvOut<'_>) -> (u64, u64) + Sync,
) -> (u64, u64) {
    let rows = cfg.rows();
    let a = cfg.actions();
    let per = chunk_len(envs.len(), pool.threads());
    let chunks: Vec<_> = envs
        .chunks_mut(per)
        .zip(out.obs.chunks_mut(per * rows * OBS_SIZE))
        .zip(out.mask.chunks_mut(per * rows * a))
        .zip(out.reward.chunks_mut(per * rows))
        .zip(out.done.chunks_mut(per))
        .collect();
    let sums = run_chunks(pool, chunks, |((((envs, obs), mask), reward), done)| {
        each_env(envs, obs, mask, reward, done, cfg, &f)
    });
    sums.into_iter()
        .fold((0, 0), |s, (d, e)| (s.0 + d, s.1 + e))
}

/// One chunk of [`decode_and_step`]: consecutive envs, their actions and their output rows.
pub(super) type Chunk<'a> = (
    &'a mut [Option<Box<Env>>],
    &'a [i64],
    &'a mut [f32],
    &'a mut [i8],
    &'a mut [f32],
    &'a mut [bool],
);

/// Runs `f` on each env of a chunk with its rows of the chunk's outputs; the sum of what it
/// returns.
fn each_env(
    envs: &mut [Option<Box<Env>>],
    obs: &mut [f32],
    mask: &mut [i8],
    reward: &mut [f32],
    done: &mut [bool],
    cfg: &Config,
    f: &(impl Fn(&mut Env, &Config, &mut EnvOut<'_>) -> (u64, u64) + ?Sized),
) -> (u64, u64) {
    let (rows, a) = (cfg.rows(), cfg.actions());
    let mut sum = (0, 0);
    for ((((env, obs), mask), reward), done) in envs
        .iter_mut()
        .zip(obs.chunks_exact_mut(rows * OBS_SIZE))
        .zip(mask.chunks_exact_mut(rows * a))
        .zip(reward.chunks_exact_mut(rows))
        .zip(done.iter_mut())
    {
        let env = env.as_mut().expect("no env is away while the batch steps");
        let (d, e) = f(
            env,
            cfg,
            &mut EnvOut {
                obs,
                mask,
                reward,
                done,
            },
        );
        sum = (sum.0 + d, sum.1 + e);
    }
    sum
}

/// [`Env::decode`] of every env's row of `actions`, then, when no action is refused,
/// [`Env::step`] of every env, each on the threads of `pool` over the same chunks of envs. The
/// decisions and games finished, or the refusal of the lowest env refused (then no env is
/// changed).
pub(super) fn decode_and_step(
    envs: &mut [Option<Box<Env>>],
    cfg: &Config,
    actions: &[i64],
    out: &mut Out<'_>,
    pool: &Pool,
) -> Result<(u64, u64), Refused> {
    let (rows, a) = (cfg.rows(), cfg.actions());
    let per_env = if cfg.opponents.is_some() { 1 } else { rows };
    let n = envs.len();
    let per = chunk_len(n, pool.threads());
    let chunks: Vec<Mutex<Chunk<'_>>> = envs
        .chunks_mut(per)
        .zip(actions.chunks(per * per_env))
        .zip(out.obs.chunks_mut(per * rows * OBS_SIZE))
        .zip(out.mask.chunks_mut(per * rows * a))
        .zip(out.reward.chunks_mut(per * rows))
        .zip(out.done.chunks_mut(per))
        .map(|(((((e, act), o), m), r), d)| Mutex::new((e, act, o, m, r, d)))
        .collect();
    let refused: Vec<Mutex<Option<Refused>>> = chunks.iter().map(|_| Mutex::new(None)).collect();
    let decode = |i: usize| {
        let mut chunk = chunks[i].lock().expect("a chunk");
        let (envs, actions, ..) = &mut *chunk;
        for (env, row) in envs.iter_mut().zip(actions.chunks_exact(per_env)) {
            let env = env.as_mut().expect("no env is away while the batch steps");
            if let Err(r) = env.decode(cfg, row) {
                *refused[i].lock().expect("a refusal") = Some(r);
                return;
            }
        }
    };
    let step = |i: usize| {
        let mut chunk = chunks[i].lock().expect("a chunk");
        let (envs, _, obs, mask, reward, done) = &mut *chunk;
        each_env(envs, obs, mask, reward, done, cfg, &Env::step)
    };
    pool.run(chunks.len(), &decode);
    if let Some(r) = refused
        .iter()
        .find_map(|r| r.lock().expect("a refusal").take())
    {
        return Err(r);
    }
    let sums: Vec<Mutex<(u64, u64)>> = chunks.iter().map(|_| Mutex::new((0, 0))).collect();
    pool.run(chunks.len(), &|i| *sums[i].lock().expect("a sum") = step(i));
    Ok(sums
        .into_iter()
        .map(|s| s.into_inner().expect("a sum"))
        .fold((0, 0), |s, (d, e)| (s.0 + d, s.1 + e)))
}

/// An env's part in the `send`/`recv` cycle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stage {
    /// Neither sent nor waiting to be received: `send` may step it.
    Idle,
    /// Sent and being stepped on a worker thread (away from `Core::envs`).
    Stepping,
    /// Stepped, its outputs waiting for `recv`.
    Ready,
}

/// What a worker thread sends back: the env it stepped, with its decisions and games finished.
pub(super) type Stepped = (Box<Env>, u64, u64);

/// The state of the batch, separate from the Python buffers so it can run without the GIL.
pub(super) struct Core {
    pub(super) cfg: Arc<Config>,
    /// One env per slot; `None` while the env is away on a worker thread (`send`).
    pub(super) envs: Vec<Option<Box<Env>>>,
    /// The actions of the step being applied (reused between steps).
    pub(super) actions: Vec<i64>,
    /// The most threads a step runs on.
    pub(super) threads: usize,
    /// The threads that help the calling one step the envs (`threads - 1` of them).
    pub(super) pool: Pool,
    /// How many envs `recv` returns.
    pub(super) batch_size: usize,
    pub(super) stage: Vec<Stage>,
    /// The envs stepped by `send` and not received yet, in the order they became ready.
    pub(super) ready: VecDeque<usize>,
    /// How many envs are [`Stage::Stepping`].
    pub(super) stepping: usize,
    /// The channel the worker threads of `send` return the envs on.
    pub(super) returns: Sender<Stepped>,
    pub(super) from_workers: Exclusive<Receiver<Stepped>>,
    pub(super) decisions: u64,
    pub(super) episodes: u64,
}

impl Core {
    /// `num_envs` games, not started yet ([`Core::reset_all`] starts them); `opponents` is
    /// checked by the caller.
    pub(super) fn new(
        cfg: Config,
        num_envs: usize,
        threads: usize,
        batch_size: usize,
    ) -> PyResult<Core> {
        let mut envs = Vec::new();
        envs.try_reserve_exact(num_envs)
            .map_err(|_| PyMemoryError::new_err(format!("VectorEnv({num_envs}): out of memory")))?;
        envs.extend((0..num_envs).map(|e| Some(Box::new(Env::new(e, &cfg)))));
        let (returns, from_workers) = channel();
        Ok(Core {
            cfg: Arc::new(cfg),
            envs,
            actions: Vec::new(),
            threads,
            pool: Pool::new(threads),
            batch_size,
            stage: try_vec(num_envs, Stage::Idle)?,
            ready: VecDeque::new(),
            stepping: 0,
            returns,
            from_workers: Exclusive::new(from_workers),
            decisions: 0,
            episodes: 0,
        })
    }

    pub(super) fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// Env `e` (not away on a worker: the callers check [`Core::check_settled`]).
    pub(super) fn env(&self, e: usize) -> &Env {
        self.envs[e].as_deref().expect("the env is not away")
    }

    pub(super) fn env_mut(&mut self, e: usize) -> &mut Env {
        self.envs[e].as_deref_mut().expect("the env is not away")
    }

    /// A `RuntimeError` naming the envs sent and not received, if any: what `what` (a call
    /// that reads or changes every env) cannot run with.
    pub(super) fn check_settled(&self, what: &str) -> PyResult<()> {
        let away: Vec<usize> = (0..self.num_envs())
            .filter(|&e| self.stage[e] != Stage::Idle)
            .collect();
        if away.is_empty() {
            return Ok(());
        }
        let shown: Vec<String> = away.iter().take(8).map(ToString::to_string).collect();
        Err(PyRuntimeError::new_err(format!(
            "{what} with {} env(s) sent and not received ({}{}): recv() them first",
            away.len(),
            shown.join(", "),
            if away.len() > 8 { ", ..." } else { "" }
        )))
    }

    pub(super) fn reset_all(&mut self, out: &mut Out<'_>) {
        let cfg = Arc::clone(&self.cfg);
        for_each_env(&mut self.envs, &cfg, out, &self.pool, |env, cfg, o| {
            env.finished = None;
            env.restart(cfg, o);
            (0, 0)
        });
    }

    /// Checks `self.actions` and, when every action is legal, steps every env with them
    /// ([`decode_and_step`]); else the lowest env's refusal, and no env is changed.
    pub(super) fn decode_and_step(&mut self, out: &mut Out<'_>) -> Result<(), Refused> {
        let cfg = Arc::clone(&self.cfg);
        let (d, e) = decode_and_step(&mut self.envs, &cfg, &self.actions, out, &self.pool)?;
        self.decisions += d;
        self.episodes += e;
        Ok(())
    }

    /// Steps every env with the commands of [`Env::decode`] (already in each env's `pending`).
    #[cfg(test)]
    pub(super) fn step(&mut self, out: &mut Out<'_>) {
        let cfg = Arc::clone(&self.cfg);
        let (d, e) = for_each_env(&mut self.envs, &cfg, out, &self.pool, Env::step);
        self.decisions += d;
        self.episodes += e;
    }

    /// Takes back the envs the workers return until `want` are ready (run with the GIL
    /// released); an error if the workers ended without returning them all (one panicked).
    pub(super) fn wait_ready(&mut self, want: usize) -> Result<(), &'static str> {
        while self.ready.len() < want {
            let rx = self.from_workers.get_mut();
            let (env, d, e) = match rx.recv_timeout(std::time::Duration::from_millis(200)) {
                Ok(stepped) => stepped,
                Err(RecvTimeoutError::Timeout) => {
                    // Each worker holds the config until it ends: when none does, whatever they
                    // sent is in the channel already.
                    if Arc::strong_count(&self.cfg) > 1 {
                        continue;
                    }
                    rx.try_recv()
                        .map_err(|_| "a worker thread ended without returning its envs")?
                }
                Err(RecvTimeoutError::Disconnected) => return Err("the worker channel closed"),
            };
            let i = env.index;
            self.envs[i] = Some(env);
            self.stage[i] = Stage::Ready;
            self.stepping -= 1;
            self.ready.push_back(i);
            self.decisions += d;
            self.episodes += e;
        }
        Ok(())
    }
}
