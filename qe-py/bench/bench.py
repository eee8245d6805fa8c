"""Benchmarks of the qe Python package. Usage: python qe-py/bench/bench.py [seconds-per-bench]

Each line runs for the given time on whatever core it gets (pin it: `taskset -c 0 python ...`).

1. Python loop over qe.Game, random legal bids: full 4-player base games per second. Each game is
   `qe.Game(4, False, seed)`; while `to_act_mask` is non-zero, `bid_all` one bid per seat. The
   auctioneer opens with a random odd amount and every other seat bids a random even amount, so
   every bid is legal (a secret bid may not equal the opening bid, R-AUC-3) without a check. No
   observations. The random amounts are drawn beforehand (4096 lists of each, cycled).
2. The same Python loop with numpy observations and action masks: full games per second. Each game
   is `qe.Game(4, False, seed)`, then `observe_into(obs, mask, acting_only=True)` into
   preallocated float32 [4, 954] / int8 [4, A] arrays, then repeatedly
   `over = step_observe(actions, obs, mask, zero_others=False)` (apply one action per acting seat,
   write the observation and mask rows of the seats that act next, zero mask rows for the others,
   whose observation rows are left as they were) until the game is over. The policy is (1)'s, as
   actions on the default ladder: a random odd rung for the opening bid, random even rungs
   otherwise (4096 of each, drawn beforehand, cycled), so every action is legal without a check.
2b. The same with a numpy policy that draws from the masks it is given: `keys = mask * ranks` (one
   numpy multiply into a preallocated int8 buffer, where each row of `ranks` is a random
   permutation of 1..A), then `keys.argmax(axis=1)`. Illegal actions get key 0 and every legal one a
   distinct positive key, so the highest is a uniformly random legal action; rows without a legal
   action give 0, which step_observe ignores for seats that need not act. The permutations are
   drawn beforehand (4096 of them, cycled). The two numpy calls cost about as much per step as
   step_observe itself.
3. qe.VectorEnv(64, players=4, zero_others=False) on one core: seat decisions (actions applied)
   per second. Each `env.step(actions)` applies the actions of every acting seat in 64 games
   (auto-reset) and returns the observations and masks of the seats that act next (the other
   seats' mask rows are zero, their observation rows left as they were, as in 2); the actions
   come from the returned masks with the multiply-and-argmax random legal policy of 2b, over the
   whole [64, 4, A] batch at once.
R. The reference the targets were set against, when OpenSpiel is installed: goofspiel (16 cards, 4
   players, imp_info) in a Python loop with a random legal action per player from
   `legal_actions`, without and then with, for every player at every step, its observation
   tensor (OpenSpiel's numpy observer, `make_observation(game).set_from(state, p)`) and its
   action mask (`np.asarray(legal_actions_mask(p), np.int8)`). The machine's load varies, so the
   ratios to these lines, run in the same minute, say more than the absolute numbers.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

import qe


def bench_games(seconds: float) -> float:
    rng = random.Random(0)
    odd = [[rng.randrange(1, 40, 2)] * 4 for _ in range(4096)]
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
                bid_all(odd[i] if g.phase == "opening_bid" else even[i])
            games += 1
    return games / (time.perf_counter() - start)


def _ranks(rng: np.random.Generator, shape: tuple) -> list:
    """Random permutations of 1..shape[-1] along the last axis (int8), one array per step."""
    keys = rng.random(shape).argsort(axis=-1) + 1
    return list(keys.astype(np.int8))


def bench_obs(seconds: float) -> float:
    g0 = qe.Game(4, False, 0)
    rungs = g0.ladder.amounts
    odd_rungs = [i for i, a in enumerate(rungs) if a % 2 == 1]
    even_rungs = [i for i, a in enumerate(rungs) if a % 2 == 0]
    rng = random.Random(0)
    odd = [[rng.choice(odd_rungs)] * 4 for _ in range(4096)]
    even = [[rng.choice(even_rungs) for _ in range(4)] for _ in range(4096)]
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, g0.num_actions), np.int8)
    Game = qe.Game
    games = 0
    i = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            g = Game(4, False, games)
            g.observe_into(obs, mask, True)
            step = g.step_observe
            over = False
            while not over:
                i = (i + 1) & 4095
                actions = odd[i] if g.phase == "opening_bid" else even[i]
                over = step(actions, obs, mask, False)
            games += 1
    return games / (time.perf_counter() - start)


def bench_obs_numpy(seconds: float) -> float:
    g0 = qe.Game(4, False, 0)
    n_actions = g0.num_actions
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, n_actions), np.int8)
    keys = np.zeros((4, n_actions), np.int8)
    ranks = _ranks(np.random.default_rng(0), (4096, 4, n_actions))
    multiply = np.multiply
    Game = qe.Game
    games = 0
    i = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            g = Game(4, False, games)
            g.observe_into(obs, mask, True)
            step = g.step_observe
            over = False
            while not over:
                i = (i + 1) & 4095
                multiply(mask, ranks[i], keys)
                over = step(keys.argmax(1), obs, mask, False)
            games += 1
    return games / (time.perf_counter() - start)


def bench_vector(seconds: float) -> float:
    env = qe.VectorEnv(64, players=4, seed=0, zero_others=False)
    _, masks = env.reset()
    keys = np.zeros(masks.shape, np.int8)
    ranks = _ranks(np.random.default_rng(0), (64, *masks.shape))
    multiply = np.multiply
    start = time.perf_counter()
    d0 = env.decisions
    i = 0
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            i = (i + 1) & 63
            multiply(masks, ranks[i], keys)
            _, masks, _, _ = env.step(keys.argmax(-1))
    return (env.decisions - d0) / (time.perf_counter() - start)


def bench_goofspiel(seconds: float, observe: bool) -> float:
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("goofspiel", {"num_cards": 16, "players": 4, "imp_info": True})
    observer = make_observation(game)
    rng = random.Random(0)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            actions = []
            for p in range(4):
                if observe:
                    observer.set_from(state, p)
                    np.asarray(state.legal_actions_mask(p), np.int8)
                legal = state.legal_actions(p)
                actions.append(legal[rng.randrange(len(legal))])
            state.apply_actions(actions)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"qe {qe.__version__}, obs_size {qe.OBS_SIZE}")
    print(f"python loop, random legal bids:        {bench_games(seconds):>12,.0f} games/s (target 30,000)")
    print(f"python loop, + observations and masks: {bench_obs(seconds):>12,.0f} games/s (target 18,000)")
    print(f"  the same, numpy policy from the masks: {bench_obs_numpy(seconds):>12,.0f} games/s")
    print(f"VectorEnv(64) one core:                {bench_vector(seconds):>12,.0f} seat-decisions/s (target 1,000,000)")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("reference (OpenSpiel goofspiel) SKIPPED: open_spiel is not installed")
        return
    print(f"reference: goofspiel 16 cards 4p loop: {bench_goofspiel(seconds, False):>12,.0f} games/s (10,300 when the targets were set)")
    print(f"  + observations and masks:            {bench_goofspiel(seconds, True):>12,.0f} games/s (6,000 when the targets were set)")


if __name__ == "__main__":
    main()
