//! [`Pool`]: threads kept for the life of a `VectorEnv`, which help the calling thread run the
//! chunks of a step.
//!
//! The calling thread takes part: it publishes the job, wakes the workers and takes chunks
//! itself, so a job never waits for a worker to start. A worker the machine has not scheduled
//! yet (other processes keep the cores busy) finds the job done and goes back to sleep; the
//! caller waits only for the chunks a worker has taken. With `std::thread::scope` each step
//! would instead start its threads and wait for every one of them to run, which on a loaded
//! machine costs a scheduler slice a step.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// A job: `run(i)` for every `i` in `0..n`, each taken once by whichever thread comes first.
struct Job<'a> {
    run: &'a (dyn Fn(usize) + Sync),
    n: usize,
    next: AtomicUsize,
}

impl Job<'_> {
    /// Runs the chunks not taken yet, one by one, until none is left.
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.n {
                return;
            }
            (self.run)(i);
        }
    }
}

/// A job published to the workers, its lifetime erased: [`Pool::run`] keeps it alive until
/// every worker that took it has let it go.
#[derive(Clone, Copy)]
struct Published(*const Job<'static>);

// SAFETY: a `Job` is `Sync` (its closure is, its counter is atomic), and the pointer is read
// only while the job lives (see `Pool::run`).
unsafe impl Send for Published {}

struct State {
    /// The job being run, if any.
    job: Option<Published>,
    /// Counts the jobs published, so a worker takes each at most once.
    epoch: u64,
    /// Workers that took the job and have not let it go.
    active: usize,
    /// A panic of a worker's chunk, raised again by the caller.
    panic: Option<Box<dyn std::any::Any + Send>>,
    shutdown: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Signals a new job (or the shutdown) to the workers.
    wake: Condvar,
    /// Signals the caller that the last active worker let the job go.
    idle: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Chunks run outside the lock, so a panic never poisons it; be safe anyway.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// `threads - 1` worker threads, which with the calling thread run the chunks of a job.
pub(crate) struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool for `threads` threads in all (the caller's and `threads - 1` workers).
    pub(crate) fn new(threads: usize) -> Pool {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                job: None,
                epoch: 0,
                active: 0,
                panic: None,
                shutdown: false,
            }),
            wake: Condvar::new(),
            idle: Condvar::new(),
        });
        let workers = (1..threads)
            .map(|_| {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || worker(&shared))
            })
            .collect();
        Pool { shared, workers }
    }

    /// The threads that run a job: the caller's and the workers.
    pub(crate) fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Runs `run(i)` for every `i` in `0..n`, on the calling thread and whichever workers
    /// come to help; returns when every `run(i)` has returned. A panic of one is raised again
    /// here, after the others have finished.
    pub(crate) fn run(&self, n: usize, run: &(dyn Fn(usize) + Sync)) {
        if self.workers.is_empty() || n <= 1 {
            (0..n).for_each(run);
            return;
        }
        let job = Job {
            run,
            n,
            next: AtomicUsize::new(0),
        };
        /// Withdraws the job and waits for the workers that took it, even when the caller's
        /// own chunk panics: the job lives on this stack frame.
        struct Withdraw<'p>(&'p Shared);
        impl Drop for Withdraw<'_> {
            fn drop(&mut self) {
                let mut state = self.0.lock();
                state.job = None;
                while state.active > 0 {
                    state = self
                        .0
                        .idle
                        .wait(state)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            }
        }
        {
            let mut state = self.shared.lock();
            // Only the lifetime is erased: `Withdraw` (below) withdraws the job and waits until no
            // worker holds it before this frame, and so `job`, goes away.
            state.job = Some(Published((&raw const job).cast::<Job<'static>>()));
            state.epoch += 1;
        }
        let withdraw = Withdraw(&self.shared);
        self.shared.wake.notify_all();
        job.work();
        drop(withdraw);
        if let Some(panic) = self.shared.lock().panic.take() {
            resume_unwind(panic);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.wake.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// A worker: waits for a job it has not taken yet, runs chunks of it until none is left, lets
/// it go; until the pool is dropped.
fn worker(shared: &Shared) {
    let mut seen = 0;
    loop {
        let job = {
            let mut state = shared.lock();
            loop {
                if state.shutdown {
                    return;
                }
                if let Some(job) = state.job.filter(|_| state.epoch != seen) {
                    seen = state.epoch;
                    state.active += 1;
                    break job;
                }
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        // SAFETY: the job is published only while `Pool::run` keeps it alive, and it waits
        // for `active` to come back to 0 before it returns.
        let ran = catch_unwind(AssertUnwindSafe(|| unsafe { &*job.0 }.work()));
        let mut state = shared.lock();
        if let Err(panic) = ran {
            state.panic.get_or_insert(panic);
        }
        state.active -= 1;
        if state.active == 0 {
            shared.idle.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chunk_runs_once_whatever_the_threads() {
        for threads in 1..=4 {
            let pool = Pool::new(threads);
            for n in [0, 1, 2, 7, 100] {
                let counts: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
                pool.run(n, &|i| {
                    counts[i].fetch_add(1, Ordering::Relaxed);
                });
                assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
            }
        }
    }

    #[test]
    fn a_panicking_chunk_is_raised_and_the_pool_still_works() {
        let pool = Pool::new(3);
        let ran = AtomicUsize::new(0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.run(50, &|i| {
                ran.fetch_add(1, Ordering::Relaxed);
                assert!(i != 17, "chunk 17");
            });
        }));
        assert!(result.is_err());
        // The pool still works.
        let counts: Vec<AtomicUsize> = (0..10).map(|_| AtomicUsize::new(0)).collect();
        pool.run(10, &|i| {
            counts[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
    }
}
