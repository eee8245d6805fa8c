"""qe.VectorEnv on 1 and 2 threads, and where the time of a step goes. Usage:
python qe-py/bench/vector_threads.py [seconds-per-run] [num_envs] [pairs]

bench.py's line 3/4 loop (the multiply-and-argmax random legal policy over the whole batch, then
`env.step`) over `qe.VectorEnv(num_envs, players=4, zero_others=False)` (default 1024 envs),
with `num_threads=1` and `num_threads=2` in interleaved pairs (default 5, each run
`seconds-per-run`, default 2 s); for each run the seat decisions per second and the wall time a
step spends in the policy (numpy, on the calling thread with the GIL) and in `env.step` (the
actions read, then checked and applied on the threads with the GIL released). Prints the median
of each and, from the median speedup S of 2 threads, the serial share s = 2/S - 1 (Amdahl's law:
S = 1 / (s + (1 - s) / 2)) and the speedups Amdahl's law gives for 16 and 64 threads from it.
Then the same policy through `send`/`recv` on 2 threads with `batch_size` half of `num_envs` (the
policy of one half runs while the other half steps), the median of `pairs` runs; then `step` and
`send`/`recv` with a policy that costs a fraction of a step (a third here): a linear layer over the
first 128 floats of every observation row (a float32 matmul by a [128, A] matrix, numpy on the
calling thread) and the masked argmax of its logits: on 2 threads with `step`, and through
`send`/`recv` (`batch_size` half of `num_envs`) with 1 and with 2 worker threads. Run it with
OPENBLAS_NUM_THREADS=1 (or the BLAS's own setting) so the matmul stays on the calling thread.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple

import numpy as np

import qe


def linear_policy(weights: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A linear layer over the first 128 floats of each observation row, then the argmax of the
    logits the mask allows."""

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = obs[..., :128] @ weights
        logits[masks == 0] = -np.inf
        return logits.argmax(-1)

    return act


def run_policy(seconds: float, num_envs: int, threads: int, batch: int) -> float:
    """Seat decisions/s of the linear policy: through step (batch == num_envs) or send/recv."""
    env = qe.VectorEnv(
        num_envs, players=4, seed=0, zero_others=False, num_threads=threads, batch_size=batch
    )
    obs, masks = env.reset()
    act = linear_policy(np.random.default_rng(0).standard_normal((128, masks.shape[-1]), np.float32))
    clock = time.perf_counter
    if batch < num_envs:
        env.async_reset()
    d0 = env.decisions
    start = clock()
    while clock() - start < seconds:
        if batch < num_envs:
            obs, masks, _, _, ids = env.recv()
            env.send(act(obs, masks), ids)
        else:
            obs, masks, _, _ = env.step(act(obs, masks))
    return (env.decisions - d0) / (clock() - start)


def run(seconds: float, num_envs: int, threads: int) -> Tuple[float, float, float]:
    """(seat decisions/s, policy µs a step, env.step µs a step) of one run."""
    env = qe.VectorEnv(num_envs, players=4, seed=0, zero_others=False, num_threads=threads)
    _, masks = env.reset()
    keys = np.zeros(masks.shape, np.int8)
    rng = np.random.default_rng(0)
    ranks = list((rng.random((64, *masks.shape)).argsort(axis=-1) + 1).astype(np.int8))
    multiply = np.multiply
    clock = time.perf_counter
    policy = stepping = 0.0
    steps = 0
    d0 = env.decisions
    start = clock()
    while clock() - start < seconds:
        a = clock()
        multiply(masks, ranks[steps & 63], keys)
        actions = keys.argmax(-1)
        b = clock()
        _, masks, _, _ = env.step(actions)
        c = clock()
        policy += b - a
        stepping += c - b
        steps += 1
    elapsed = clock() - start
    return (env.decisions - d0) / elapsed, policy / steps * 1e6, stepping / steps * 1e6


def run_async(seconds: float, num_envs: int, threads: int) -> float:
    """Seat decisions/s of the policy through send/recv, batch_size num_envs // 2."""
    batch = num_envs // 2
    env = qe.VectorEnv(
        num_envs, players=4, seed=0, zero_others=False, num_threads=threads, batch_size=batch
    )
    _, masks = env.reset()
    keys = np.zeros((batch, *masks.shape[1:]), np.int8)
    rng = np.random.default_rng(0)
    ranks = list((rng.random((64, *keys.shape)).argsort(axis=-1) + 1).astype(np.int8))
    multiply = np.multiply
    clock = time.perf_counter
    env.async_reset()
    steps = 0
    d0 = env.decisions
    start = clock()
    while clock() - start < seconds:
        _, masks, _, _, ids = env.recv()
        multiply(masks, ranks[steps & 63], keys)
        env.send(keys.argmax(-1), ids)
        steps += 1
    elapsed = clock() - start
    return (env.decisions - d0) / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    num_envs = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    runs: Dict[int, List[Tuple[float, float, float]]] = {1: [], 2: []}
    for _ in range(pairs):
        for threads in (1, 2):
            runs[threads].append(run(seconds, num_envs, threads))
    med = {t: [statistics.median(x[i] for x in r) for i in range(3)] for t, r in runs.items()}
    for t in (1, 2):
        rate, policy, step = med[t]
        print(
            f"VectorEnv({num_envs}) {t} thread{'s' if t > 1 else ' '}: {rate:>12,.0f} seat-decisions/s"
            f"  (a step: policy {policy:,.0f} us, env.step {step:,.0f} us; median of {pairs})"
        )
    speedup = med[2][0] / med[1][0]
    pairwise = sorted(b[0] / a[0] for a, b in zip(runs[1], runs[2]))
    serial = max(0.0, 2 / speedup - 1)
    print(f"2 threads / 1 thread: {speedup:.2f}x (pairwise {', '.join(f'{x:.2f}' for x in pairwise)})")
    print(f"serial share (Amdahl, from 2 threads): {serial:.3f}")
    for n in (16, 64):
        print(f"Amdahl's law for {n} threads: {1 / (serial + (1 - serial) / n):.1f}x")
    rate = statistics.median(run_async(seconds, num_envs, 2) for _ in range(pairs))
    print(
        f"send/recv, batch_size {num_envs // 2}, 2 threads: {rate:>12,.0f} seat-decisions/s"
        f" (median of {pairs})"
    )
    # The linear-layer policy: step on 2 threads; send/recv with 1 and with 2 worker threads
    # (the calling thread runs the policy meanwhile).
    cases = [("step, 2 threads", num_envs, 2)] + [
        (f"send/recv, batch_size {num_envs // 2}, {t} thread{'s' if t > 1 else ''}", num_envs // 2, t)
        for t in (1, 2)
    ]
    runs_l: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
    for _ in range(pairs):
        for name, batch, t in cases:
            runs_l[name].append(run_policy(seconds, num_envs, t, batch))
    base = statistics.median(runs_l[cases[0][0]])
    for name, _, _ in cases:
        rate = statistics.median(runs_l[name])
        print(f"linear-layer policy, {name}: {rate:>12,.0f} seat-decisions/s ({rate / base:.2f}x)")

if __name__ == "__main__":
    main()
