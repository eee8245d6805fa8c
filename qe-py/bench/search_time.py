"""Time per decision of the search bot asked through Python.

Usage: python qe-py/bench/search_time.py LEVEL GAMES   (pin it: taskset -c 0 ...)

Plays GAMES 4-player base games, seed i, one `qe.bots.Search(LEVEL, seed=i)` at seat i mod 4
against three `qe.bots.Bot("value")`, and prints the median and 99th percentile of the wall-clock
time of the search bot's `play` calls: the same lineup as
`cargo run --release -p qe-core --example search_bench -- GAMES 4 LEVEL`.
"""

from __future__ import annotations

import statistics
import sys
import time

import qe
import qe.bots


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in qe.bots.LEVELS:
        sys.exit(__doc__)
    level, games = sys.argv[1], int(sys.argv[2])
    times = []
    for seed in range(games):
        game = qe.Game(4, seed=seed)
        searcher = seed % 4
        search = qe.bots.Search(level, seed=seed)
        others = [qe.bots.Bot("value", seed=100 + seat) for seat in range(4)]
        while not game.is_over:
            for seat in game.to_act:
                if seat == searcher:
                    start = time.perf_counter()
                    search.play(game, seat)
                    times.append(time.perf_counter() - start)
                else:
                    others[seat].play(game, seat)
    times.sort()
    print(
        f"search:{level} through Python, {games} games, {len(times)} decisions: "
        f"median {1000 * statistics.median(times):.2f} ms, "
        f"99th percentile {1000 * times[int(0.99 * len(times))]:.2f} ms"
    )


if __name__ == "__main__":
    main()
