#!/usr/bin/env python3
"""The strength of OpenSpiel's ISMCTS on QE: one ISMCTS seat against the core's bots.

    .venv/bin/python examples/python/ismcts_strength.py --opponent value --cpu-minutes 7.5

OpenSpiel's ``ISMCTSBot`` needs sequential moves, so it plays ``pyspiel.convert_to_turn_based``
of ``python_qe`` (default ladder, no peek actions), with ``qe.openspiel.ismcts_resampler`` drawing
each simulation's world from its information state (``qe.Game.resample``: the others' tokens, the
deck and pile orders, every hidden bid). Its leaves are evaluated by one playout of the core's
``value`` bot for every seat (``--evaluator value``, the default) or by OpenSpiel's uniformly random
rollout (``--evaluator random``). The other seats are the core's bots (``--opponent``: ``value``,
``search:medium``, ...) through ``qe.openspiel.QeSpielBot``. The ISMCTS seat rotates game by game
(seat ``g mod players``); games are played until ``--games`` or until the process has used
``--cpu-minutes`` of CPU time, whichever comes first.

It prints the games played, the mean return of the ISMCTS seat (a win is 1, a win shared by k
seats 1/k, R-SCO-11; 1/players is what an equal seat gets on average) with its 95% interval
(normal approximation), and the CPU time per game.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import qe
import qe.openspiel as qo


class ValuePlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Leaf values from one playout by the core's ``value`` bot for every seat: it finishes the
    turn-based form's rolled-out simultaneous node (the actions it buffered are in the joint
    action), then plays the drawn game to the end in the core. Uniform priors."""

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._count = 0

    def evaluate(self, state: Any) -> np.ndarray:
        self._count += 1
        s = state.clone()
        players = s.get_game().num_players()
        bots = [qe.bots.Bot("value", self._seed * 1_000_003 + self._count * 7 + p) for p in range(players)]
        # Finish the node the turn-based form is rolling out, through the wrapper.
        while not s.is_terminal() and not s.is_chance_node():
            inner = s.simultaneous_game_state()
            if not inner.is_simultaneous_node():
                break
            p = s.current_player()
            a = bots[p].action(inner.qe, p)
            s.apply_action(inner._pass if a is None else a)
        if s.is_terminal():
            return np.array(s.returns())
        g = s.simultaneous_game_state().qe.__copy__()
        while not g.is_over:
            if g.phase == "chance":
                g.apply_chance_action(int(np.random.default_rng(self._count).choice(g.chance_actions())))
                continue
            for p in g.to_act:
                bots[p].play(g, p)
        return np.array(g.returns("win"))

    def prior(self, state: Any) -> List[Tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


@dataclass
class GameResult:
    """One game of :func:`play`: every seat's return, every seat's score (the outcome's totals),
    which seats were eliminated, and each seat's wall-clock seconds per decision (a call of its bot's ``step`` with more than
    one legal action; with one, ISMCTS does not search)."""

    returns: List[float]
    scores: List[int]
    eliminated: List[bool]
    decision_s: Dict[int, List[float]] = field(default_factory=dict)


def play(
    tb: Any, seat: int, opponent: str, simulations: int, evaluator: str, seed: int, uct_c: float
) -> GameResult:
    """One game: ISMCTS at ``seat``, ``opponent`` bots elsewhere."""
    players = tb.num_players()
    rs = np.random.RandomState(seed)
    ev = ValuePlayoutEvaluator(seed) if evaluator == "value" else mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(tb, ev, uct_c, simulations, random_state=rs)
    bot.set_resampler(qo.ismcts_resampler(seed))
    others = {p: qo.QeSpielBot(tb, p, opponent, seed * 10 + p) for p in range(players) if p != seat}
    times: Dict[int, List[float]] = {p: [] for p in range(players)}
    state = tb.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rs.randint(len(outcomes))])
            continue
        p = state.current_player()
        choices = len(state.legal_actions(p))
        t = time.perf_counter()
        action = bot.step(state) if p == seat else others[p].step(state)
        if choices > 1:
            times[p].append(time.perf_counter() - t)
        state.apply_action(action)
    outcome = state.simultaneous_game_state().qe.outcome()
    return GameResult(
        returns=[float(r) for r in state.returns()],
        scores=[s.total for s in outcome.seats],
        eliminated=[s.eliminated for s in outcome.seats],
        decision_s=times,
    )


def play_game(
    tb: Any, seat: int, opponent: str, simulations: int, evaluator: str, seed: int, uct_c: float
) -> float:
    """One game: ISMCTS at ``seat``, ``opponent`` bots elsewhere; the ISMCTS seat's return."""
    return play(tb, seat, opponent, simulations, evaluator, seed, uct_c).returns[seat]


def interval(xs: Sequence[float]) -> Tuple[float, float, float]:
    """Mean and 95% interval (normal approximation) of ``xs``."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opponent", default="value", help="the core's bot for the other seats")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--expansions", default="", help="e.g. commodities")
    ap.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per move")
    ap.add_argument("--evaluator", choices=("value", "random"), default="value")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--cpu-minutes", type=float, default=7.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    game = pyspiel.load_game("python_qe", {"players": args.players, "expansions": args.expansions})
    tb = pyspiel.convert_to_turn_based(game)
    results: List[float] = []
    start = time.process_time()
    for g in range(args.games):
        if time.process_time() - start > args.cpu_minutes * 60:
            break
        seat = g % args.players
        results.append(
            play_game(tb, seat, args.opponent, args.simulations, args.evaluator, args.seed * 100_000 + g, args.uct_c)
        )
    cpu = time.process_time() - start
    mean, lo, hi = interval(results)
    print(
        f"ISMCTS ({args.simulations} simulations/move, {args.evaluator} evaluator) vs {args.players - 1}x {args.opponent}, "
        f"{args.players} players{', ' + args.expansions if args.expansions else ''}: "
        f"{len(results)} games, mean return {mean:.3f} (95% interval {lo:.3f}-{hi:.3f}; "
        f"an equal seat: {1 / args.players:.3f}), wins {sum(1 for r in results if r > 0)}, "
        f"CPU {cpu:.0f} s ({cpu / len(results):.1f} s/game)"
    )


if __name__ == "__main__":
    main()
