"""External anchors for the core's search bot: OpenSpiel's ISMCTS at equal time per move, and the
trained PPO policy, each against ``search`` bots; 4 players, base game, default ladder, seats
rotated, fixed seeds, win rates with 95% Wilson intervals (``baselines.py``'s games and table).

    .venv/bin/python examples/python/anchors.py --out examples/python/results/anchors.csv

``--part ismcts`` (a): ISMCTS as ``baselines.py`` plays it (100 simulations a move, a ``value``
playout at each leaf) first plays ``--calibration-games`` games against three ``search:medium``
bots; its mean wall-clock time per decision there, rounded to the millisecond, is ``T`` (or
``--ms T``). Then it plays ``--ismcts-games`` games against three ``search:ms=T`` bots, which
search about ``T`` ms of wall clock a decision: the same time per move (``search:ms`` reads the
wall clock, so on a loaded machine both get less CPU than ``T``, alike).

``--part ppo`` (b): the PPO policy (``--policy``, the ``.npz`` of ``npz_policy.py``, played from
the seat's own observation and mask) against ``search:medium``: one ``search:medium`` seat against
three PPO seats, and one PPO seat against three ``search:medium`` seats, ``--games`` games each.

``--part all`` (the default) runs part (b), the quick one, first. Every row is the first-named agent's seat (rotated game by game); the CSV has ``baselines.py``'s
columns.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, List, Optional, Sequence

from baselines import DEFAULT_POLICY, HERE, Agents, Row, describe, run_row, write_csv


def main(argv: Optional[Sequence[str]] = None) -> List[Row]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=("ismcts", "ppo", "all"), default="all")
    ap.add_argument("--calibration-games", type=int, default=8, help="ISMCTS vs 3 search:medium, to time it")
    ap.add_argument("--ms", type=int, default=0, help="T without calibrating (0: calibrate)")
    ap.add_argument("--ismcts-games", type=int, default=60, help="ISMCTS vs 3 search:ms=T")
    ap.add_argument("--search", default="search:medium", help="the search bot of part (b) and of the calibration")
    ap.add_argument("--games", type=int, default=400, help="games per row of part (b)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", type=Path, default=DEFAULT_POLICY)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "anchors.csv")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    say: Callable[[str], None] = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    agents = Agents(args.policy)
    rows: List[Row] = []

    def add(row: Row) -> Row:
        rows.append(row)
        print(describe(row), flush=True)
        write_csv(args.out, rows)
        return row

    if args.part in ("ppo", "all"):
        add(run_row(agents, args.search, "ppo", args.games, args.seed, progress=say))
        add(run_row(agents, "ppo", args.search, args.games, args.seed, progress=say))
    if args.part in ("ismcts", "all"):
        ms = args.ms
        if not ms:
            cal = add(run_row(agents, "ismcts", args.search, args.calibration_games, args.seed, progress=say))
            ms = max(1, round(cal.ms_decision))
            print(f"ISMCTS: {cal.ms_decision:.1f} ms a decision (wall clock): T = {ms}", flush=True)
        add(run_row(agents, "ismcts", f"search:ms={ms}", args.ismcts_games, args.seed, progress=say))
    return rows


if __name__ == "__main__":
    main()
