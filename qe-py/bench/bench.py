"""Benchmarks of the qe Python package. Usage: python qe-py/bench/bench.py [seconds-per-bench]

1. A Python loop over qe.Game with random legal bids: full 4-player base games per second. The
   auctioneer opens with a random odd amount and every other seat bids a random even amount, so
   every bid is legal (a secret bid may not equal the opening bid, R-AUC-3) without a check.
2. The same loop with numpy observations and action masks for the seats that must act, written
   into preallocated arrays (Game.observe_into), and random legal actions from the masks.
3. qe.VectorEnv (64 envs, 4 players) on one core: seat decisions per second, random legal actions.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

import qe


def bench_games(seconds: float) -> float:
    rng = random.Random(0)
    odd = [rng.randrange(1, 40, 2) for _ in range(4096)]
    even = [[rng.randrange(0, 40, 2) for _ in range(4)] for _ in range(4096)]
    Game = qe.Game
    games = 0
    i = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            g = Game(4, False, games)
            bid_all = g.bid_all
            while True:
                m = g.to_act_mask
                if m == 0:
                    break
                i = (i + 1) & 4095
                if g.phase == "opening_bid":
                    bid_all([odd[i]] * 4)
                else:
                    bid_all(even[i])
            games += 1
    return games / (time.perf_counter() - start)


def bench_obs(seconds: float) -> float:
    g0 = qe.Game(4, False, 0)
    n_actions = g0.num_actions
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, n_actions), np.int8)
    rng = np.random.default_rng(0)
    noise = rng.random((4096, 4, n_actions))
    games = 0
    i = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            g = qe.Game(4, False, games)
            while not g.is_over:
                g.observe_into(obs, mask, True)
                i = (i + 1) & 4095
                actions = np.argmax(noise[i] + mask, axis=1).tolist()
                g.step(actions)
            games += 1
    return games / (time.perf_counter() - start)


def bench_vector(seconds: float) -> float:
    env = qe.VectorEnv(64, players=4, seed=0)
    _, masks = env.reset()
    rng = np.random.default_rng(0)
    noise = rng.random((64, *masks.shape))
    start = time.perf_counter()
    d0 = env.decisions
    i = 0
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            i = (i + 1) & 63
            actions = np.argmax(noise[i] + masks, axis=-1)
            _, masks, _, _ = env.step(actions)
    return (env.decisions - d0) / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"qe {qe.__version__}, obs_size {qe.OBS_SIZE}")
    print(f"python loop, random legal bids:        {bench_games(seconds):>12,.0f} games/s (target 30,000)")
    print(f"python loop, + observations and masks: {bench_obs(seconds):>12,.0f} games/s (target 18,000)")
    print(f"VectorEnv(64) one core:                {bench_vector(seconds):>12,.0f} seat-decisions/s (target 1,000,000)")


if __name__ == "__main__":
    main()
