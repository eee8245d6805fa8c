"""Plays bench.py's like-for-like loops L1/L2 for a fixed number of games, for instruction counts
under callgrind.

Usage: python qe-py/bench/like_steps.py {qe,goofspiel} {plain,observed} GAMES
       python qe-py/bench/like_steps.py qe {plain-choices,observed-choices} GAMES

The loops are bench.py's own functions (`qe_plain`, `qe_observed`, `goofspiel_plain`,
`goofspiel_observed`), seeds 0..GAMES. The `-choices` modes play only qe's random choices of the
loop (`qe_choices_plain`, `qe_choices_observed`: the choices of seeds 0..19, recorded before, in
turn), with no engine call: goofspiel's count over theirs is the ratio qe could not pass.

Run it twice (20 and 1020 games) under `PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind
--tool=callgrind` and divide the difference of the totals by the difference of the games: start-up
(interpreter, imports) cancels out. The total of the same run moves by up to about 3.4M
instructions from one run to the next, so a difference of 1000 games keeps that within about 1% of
a game's count (a difference of 100 games did not). `OPENBLAS_NUM_THREADS=1` keeps numpy's BLAS
threads, which wait spinning and are counted with the rest, out of the count. Build the extension
first (`maturin develop --release`): a stale build measures old code.
"""

from __future__ import annotations

import random
import sys

from bench import (
    buffers,
    qe_choices_observed,
    qe_choices_plain,
    recorded_choices,
    goofspiel_observed,
    goofspiel_plain,
    qe_observed,
    qe_plain,
    reference_goofspiel,
)


def main() -> None:
    side, mode, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
    choices = side == "qe" and mode in ("plain-choices", "observed-choices")
    if side not in ("qe", "goofspiel") or mode not in ("plain", "observed") and not choices:
        sys.exit(__doc__)
    randrange = random.Random(0).randrange
    if choices:
        observe = mode == "observed-choices"
        recorded = [recorded_choices(seed, observe) for seed in range(20)]
        play = qe_choices_observed if observe else qe_choices_plain
        for i in range(games):
            play(recorded[i % 20], randrange)
        return
    if side == "qe":
        obs, mask = buffers()
        for seed in range(games):
            if mode == "observed":
                qe_observed(seed, randrange, obs, mask)
            else:
                qe_plain(seed, randrange)
        return
    game, observer = reference_goofspiel()
    for _ in range(games):
        if mode == "observed":
            goofspiel_observed(game, observer, randrange)
        else:
            goofspiel_plain(game, randrange)


if __name__ == "__main__":
    main()
