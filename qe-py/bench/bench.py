"""Benchmarks of the qe Python package. Usage: python qe-py/bench/bench.py [seconds-per-bench]

Each line runs for the given time on whatever core it gets (pin it: `taskset -c 0 python ...`).

Like for like (first, when OpenSpiel is installed): the plain loop a user writes, against the same
loop over OpenSpiel's goofspiel (16 cards, 4 players, imp_info), run one after the other in the
same run, with the ratio printed. Both draw each random choice the same way,
`legal[rng.randrange(len(legal))]` with one `random.Random`, so the choices cost the same.

L1. qe: `g = qe.Game(4, seed)`; while not `g.is_over`: for each seat `s` of `g.to_act`,
    `legal = g.legal_actions(s)` and a random choice into a 4-entry list indexed by seat, then
    `g.step(actions)`. goofspiel: while not terminal: at a chance node a random outcome of
    `chance_outcomes()`, else for each player `legal_actions(p)` and a random choice, then
    `apply_actions(actions)`.
L2. The same with observations and masks. qe: before each step `g.observe_into(obs, mask,
    acting_only=True)` into preallocated float32 [4, 954] / int8 [4, A] arrays, each acting seat's
    choice from `np.flatnonzero(mask[s])`. goofspiel: for each player `Observation.set_from(state,
    p)` (OpenSpiel's numpy observer of `make_observation(game)`) and `legal_actions_mask(p)` as an
    int8 array, the choice from `np.flatnonzero(mask)`.
Choices alone: qe's loop with every engine call taken out, only its random choices (for L2 with
    `np.flatnonzero` of each mask row), recorded from real games (seeds 0..19) and replayed. A qe
    whose every call cost nothing would run at this rate, so goofspiel's rate gives the most
    qe/goofspiel could reach on that loop ("so qe/goofspiel < ...").

Tuned (the loops below are written for speed; they are not the loop above):

1. Python loop over qe.Game, random legal bids: full 4-player base games per second. Each game is
   `qe.Game(4, seed)`; while `to_act_mask` is non-zero, `bid_all` one bid per seat. The
   auctioneer opens with a random odd amount and every other seat bids a random even amount, so
   every bid is legal (a secret bid may not equal the opening bid, R-AUC-3) without a check. No
   observations. The random amounts are drawn beforehand (4096 lists of each, cycled).
2. The same Python loop with numpy observations and action masks: full games per second. Each game
   is `qe.Game(4, seed)`, then `observe_into(obs, mask, acting_only=True)` into
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
   whole [64, 4, A] batch at once. `num_threads=1`: the engine steps on the calling thread.
4. The same loop over qe.VectorEnv(1024, players=4, zero_others=False) with `num_threads=1`, then
   with `num_threads=2` (the envs split in two halves, each stepped on its own thread with the GIL
   released, as are the checks of the actions; the policy and the reading of the actions stay
   on the calling thread), 3 interleaved pairs of a third of the time each, with the median of
   each and their ratio.
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
from typing import Any, Callable, List, Tuple

import numpy as np

import qe


def _games_per_second(seconds: float, play: Callable[[int, int], int]) -> float:
    """Plays games with seeds 0, 1, 2, ... (50 between two looks at the clock) for `seconds`;
    `play(seed, i)` plays one whole game and returns `i`, the index into the pre-drawn random
    choices, carried from one game to the next. One Python call a game, none a step."""
    games = 0
    i = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            i = play(games, i)
            games += 1
    return games / (time.perf_counter() - start)


def bench_games(seconds: float) -> float:
    rng = random.Random(0)
    odd = [[rng.randrange(1, 40, 2)] * 4 for _ in range(4096)]
    even = [[rng.randrange(0, 40, 2) for _ in range(4)] for _ in range(4096)]

    # The defaults make every name the loop uses a local variable.
    def play(seed: int, i: int, Game: type = qe.Game, odd: list = odd, even: list = even) -> int:
        g = Game(4, seed)
        bid_all = g.bid_all
        while g.to_act_mask:
            i = (i + 1) & 4095
            bid_all(odd[i] if g.phase == "opening_bid" else even[i])
        return i

    return _games_per_second(seconds, play)


def _ranks(rng: np.random.Generator, shape: tuple) -> list:
    """Random permutations of 1..shape[-1] along the last axis (int8), one array per step."""
    keys = rng.random(shape).argsort(axis=-1) + 1
    return list(keys.astype(np.int8))


def buffers() -> Tuple[np.ndarray, np.ndarray]:
    """Preallocated observation and mask rows of a 4-player game on the default ladder."""
    n_actions = qe.Game(4, 0).num_actions
    return np.zeros((4, qe.OBS_SIZE), np.float32), np.zeros((4, n_actions), np.int8)


def bench_obs(seconds: float) -> float:
    rungs = qe.BidLadder.default().amounts
    odd_rungs = [i for i, a in enumerate(rungs) if a % 2 == 1]
    even_rungs = [i for i, a in enumerate(rungs) if a % 2 == 0]
    rng = random.Random(0)
    odd = [[rng.choice(odd_rungs)] * 4 for _ in range(4096)]
    even = [[rng.choice(even_rungs) for _ in range(4)] for _ in range(4096)]
    obs, mask = buffers()

    def play(
        seed: int,
        i: int,
        Game: type = qe.Game,
        odd: list = odd,
        even: list = even,
        obs: np.ndarray = obs,
        mask: np.ndarray = mask,
    ) -> int:
        g = Game(4, seed)
        g.observe_into(obs, mask, True)
        step = g.step_observe
        over = False
        while not over:
            i = (i + 1) & 4095
            over = step(odd[i] if g.phase == "opening_bid" else even[i], obs, mask, False)
        return i

    return _games_per_second(seconds, play)


def bench_obs_numpy(seconds: float) -> float:
    obs, mask = buffers()
    keys = np.zeros_like(mask)
    ranks = _ranks(np.random.default_rng(0), (4096, *mask.shape))

    def play(
        seed: int,
        i: int,
        Game: type = qe.Game,
        multiply: Any = np.multiply,
        ranks: list = ranks,
        keys: np.ndarray = keys,
        obs: np.ndarray = obs,
        mask: np.ndarray = mask,
    ) -> int:
        g = Game(4, seed)
        g.observe_into(obs, mask, True)
        step = g.step_observe
        over = False
        while not over:
            i = (i + 1) & 4095
            multiply(mask, ranks[i], keys)
            over = step(keys.argmax(1), obs, mask, False)
        return i

    return _games_per_second(seconds, play)


def bench_vector(seconds: float, num_envs: int = 64, threads: int = 1) -> float:
    env = qe.VectorEnv(num_envs, players=4, seed=0, zero_others=False, num_threads=threads)
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
    game, observer = reference_goofspiel()
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


def _like_rate(seconds: float, play: Callable[[int], None]) -> float:
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            play(games)
            games += 1
    return games / (time.perf_counter() - start)


# The like-for-like games, one whole game a call: L1 (`plain`) and L2 (`observed`) on each side.
# like_steps.py plays the same functions under callgrind. `randrange` is the one random source of
# a run (a bound `random.Random(0).randrange`); `flatnonzero` is bound as a default on both sides.


def qe_plain(seed: int, randrange: Callable[[int], int]) -> None:
    """L1 on qe: one game of `qe.Game(4, seed)`."""
    g = qe.Game(4, seed)
    actions = [0, 0, 0, 0]
    while not g.is_over:
        for s in g.to_act:
            legal = g.legal_actions(s)
            actions[s] = legal[randrange(len(legal))]
        g.step(actions)


def qe_observed(
    seed: int,
    randrange: Callable[[int], int],
    obs: np.ndarray,
    mask: np.ndarray,
    flatnonzero: Any = np.flatnonzero,
) -> None:
    """L2 on qe: one game, observing into `obs` and `mask` (as `buffers()` makes them)."""
    g = qe.Game(4, seed)
    actions = [0, 0, 0, 0]
    while not g.is_over:
        g.observe_into(obs, mask, True)
        for s in g.to_act:
            legal = flatnonzero(mask[s])
            actions[s] = legal[randrange(len(legal))]
        g.step(actions)


def goofspiel_plain(game: Any, randrange: Callable[[int], int]) -> None:
    """L1 on goofspiel: one game of `game` (`reference_goofspiel()`)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[randrange(len(outcomes))][0])
            continue
        actions = []
        for p in range(4):
            legal = state.legal_actions(p)
            actions.append(legal[randrange(len(legal))])
        state.apply_actions(actions)


def goofspiel_observed(
    game: Any,
    observer: Any,
    randrange: Callable[[int], int],
    flatnonzero: Any = np.flatnonzero,
) -> None:
    """L2 on goofspiel: one game of `game`, with `observer = make_observation(game)`."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[randrange(len(outcomes))][0])
            continue
        actions = []
        for p in range(4):
            observer.set_from(state, p)
            legal = flatnonzero(np.asarray(state.legal_actions_mask(p), np.int8))
            actions.append(int(legal[randrange(len(legal))]))
        state.apply_actions(actions)


# qe's random choices alone: what L1 and L2 spend on choosing, with no engine call. Goofspiel's whole
# game over this is the most qe/goofspiel could reach if every qe call cost nothing.


def recorded_choices(seed: int, observe: bool) -> List[Tuple[int, Any]]:
    """The choices of one L1 (or, with `observe`, L2) qe game as `(seat index, legal)` pairs in
    order, for `qe_choices_plain` (`legal` a list of as many ints as the game's legal list had)
    or `qe_choices_observed` (`legal` an int8 mask row as long as the game's, with as many ones).
    The seat index only gives the replay a store by seat, as the loop has: it cycles 0..3 and is
    not the seat that chose (which does not change what the store costs)."""
    sizes: List[int] = []
    draw = random.Random(seed).randrange

    def randrange(n: int) -> int:
        sizes.append(n)
        return draw(n)

    obs, mask = buffers()
    if observe:
        qe_observed(seed, randrange, obs, mask)
    else:
        qe_plain(seed, randrange)
    choices: List[Tuple[int, Any]] = []
    for i, n in enumerate(sizes):
        if observe:
            row = np.zeros(mask.shape[1], np.int8)
            row[:n] = 1
            choices.append((i & 3, row))
        else:
            choices.append((i & 3, list(range(n))))
    return choices


def qe_choices_plain(choices: List[Tuple[int, Any]], randrange: Callable[[int], int]) -> None:
    """L1's choices of one game (`recorded_choices`) without the game: for each,
    `legal[randrange(len(legal))]` into a 4-entry list indexed by seat."""
    actions = [0, 0, 0, 0]
    for s, legal in choices:
        actions[s] = legal[randrange(len(legal))]


def qe_choices_observed(
    choices: List[Tuple[int, Any]],
    randrange: Callable[[int], int],
    flatnonzero: Any = np.flatnonzero,
) -> None:
    """L2's choices of one game (`recorded_choices`) without the game: for each, the legal
    actions by `flatnonzero` of the mask row, then L1's choice."""
    actions = [0, 0, 0, 0]
    for s, row in choices:
        legal = flatnonzero(row)
        actions[s] = legal[randrange(len(legal))]


def reference_goofspiel() -> Tuple[Any, Any]:
    """The reference game (goofspiel, 16 cards, 4 players, imp_info) and its numpy observer."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("goofspiel", {"num_cards": 16, "players": 4, "imp_info": True})
    return game, make_observation(game)


def like_qe(seconds: float, observe: bool) -> float:
    randrange = random.Random(0).randrange
    if observe:
        obs, mask = buffers()
        return _like_rate(seconds, lambda seed: qe_observed(seed, randrange, obs, mask))
    return _like_rate(seconds, lambda seed: qe_plain(seed, randrange))


def like_choices(seconds: float, observe: bool) -> float:
    """Games/s of qe's L1 (L2) choices alone: the choices of seeds 0..19, recorded, then replayed."""
    randrange = random.Random(0).randrange
    recorded = [recorded_choices(seed, observe) for seed in range(20)]
    if observe:
        return _like_rate(seconds, lambda i: qe_choices_observed(recorded[i % 20], randrange))
    return _like_rate(seconds, lambda i: qe_choices_plain(recorded[i % 20], randrange))


def like_goofspiel(seconds: float, observe: bool) -> float:
    game, observer = reference_goofspiel()
    randrange = random.Random(0).randrange
    if observe:
        return _like_rate(seconds, lambda _: goofspiel_observed(game, observer, randrange))
    return _like_rate(seconds, lambda _: goofspiel_plain(game, randrange))


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"qe {qe.__version__}, obs_size {qe.OBS_SIZE}")
    try:
        import pyspiel  # noqa: F401

        have_spiel = True
    except ImportError:
        have_spiel = False
        print("like for like (OpenSpiel goofspiel) SKIPPED: open_spiel is not installed")
    if have_spiel:
        for observe, label in ((False, "L1 plain loop"), (True, "L2 + observations and masks")):
            q = like_qe(seconds, observe)
            o = like_goofspiel(seconds, observe)
            print(f"{label + ', qe:':48s}{q:>12,.0f} games/s")
            print(f"{label + ', goofspiel:':48s}{o:>12,.0f} games/s  (qe/goofspiel {q / o:.2f}x, target 3x)")
            c = like_choices(seconds, observe)
            print(f"{label + ', qe choices alone:':48s}{c:>12,.0f} games/s  (so qe/goofspiel < {c / o:.2f}x)")
    print("tuned loops:")
    print(f"python loop, random legal bids:        {bench_games(seconds):>12,.0f} games/s (target 30,000)")
    print(f"python loop, + observations and masks: {bench_obs(seconds):>12,.0f} games/s (target 18,000)")
    print(f"  the same, numpy policy from the masks: {bench_obs_numpy(seconds):>12,.0f} games/s")
    print(f"VectorEnv(64) one core:                {bench_vector(seconds):>12,.0f} seat-decisions/s (target 1,000,000)")
    # Interleaved pairs (the machine's load varies): the median of each.
    pairs = [(bench_vector(seconds / 3, 1024, 1), bench_vector(seconds / 3, 1024, 2)) for _ in range(3)]
    one = sorted(p[0] for p in pairs)[1]
    two = sorted(p[1] for p in pairs)[1]
    print(f"VectorEnv(1024) 1 thread:              {one:>12,.0f} seat-decisions/s")
    print(f"VectorEnv(1024) 2 threads:             {two:>12,.0f} seat-decisions/s  ({two / one:.2f}x, target 1.6x)")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("reference (OpenSpiel goofspiel) SKIPPED: open_spiel is not installed")
        return
    print(f"reference: goofspiel 16 cards 4p loop: {bench_goofspiel(seconds, False):>12,.0f} games/s (10,300 when the targets were set)")
    print(f"  + observations and masks:            {bench_goofspiel(seconds, True):>12,.0f} games/s (6,000 when the targets were set)")


if __name__ == "__main__":
    main()
