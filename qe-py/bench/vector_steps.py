"""Steps bench.py's line 3 loop a fixed number of times, for instruction counts under callgrind.

Usage: python qe-py/bench/vector_steps.py STEPS [zero-others]

`qe.VectorEnv(64, players=4, seed=0, zero_others=False, num_threads=1)` (one thread, as bench.py's
line 3; with `zero-others`, the default
`zero_others=True`, which zeroes the observation rows of the seats that need not act) stepped
STEPS times with bench.py's multiply-and-argmax random legal policy; prints the seat decisions
applied. Run it twice (say 100
and 600 steps) under `valgrind --tool=callgrind` and divide the difference of the totals by the
difference of the decisions: start-up (interpreter, imports, reset) cancels out.
"""

from __future__ import annotations

import sys

import numpy as np

import qe


def main() -> None:
    steps = int(sys.argv[1])
    if sys.argv[2:] not in ([], ["zero-others"]):
        sys.exit(__doc__)
    env = qe.VectorEnv(
        64, players=4, seed=0, zero_others=sys.argv[2:] == ["zero-others"], num_threads=1
    )
    _, masks = env.reset()
    keys = np.zeros(masks.shape, np.int8)
    rng = np.random.default_rng(0)
    ranks = list((rng.random((64, *masks.shape)).argsort(axis=-1) + 1).astype(np.int8))
    multiply = np.multiply
    d0 = env.decisions
    for k in range(steps):
        multiply(masks, ranks[k & 63], keys)
        _, masks, _, _ = env.step(keys.argmax(-1))
    print(env.decisions - d0)


if __name__ == "__main__":
    main()
