#!/usr/bin/env python3
"""Exact exploitability on a reduced QE (the last auctions of a real game), solved by OpenSpiel.

    .venv/bin/python examples/python/reduced_cfr.py --auctions 2 --ladder 0:1:2:4 --deals 1,2,3,4

Full QE is far too large for full-tree CFR or exact best responses (``qe.openspiel``'s docs), and
the rules fix 16 tiles for 3-4 players (R-CMP-5). So the game is reduced without changing a rule:
it is the **end of a real game**. A 3-player game on a small bid ladder (``--ladder``) is dealt
and played by the core's ``value`` bots (``--prefix-bot``) from a seed (``--deals``: the deal, the
tile reveals and the bots' seeds come from it) up to the start of turn ``16 - K`` (``--auctions
K``). The reduced game is the genuine QE continuation from there: the last K reveals are chance
nodes (each tile left equally likely), every opening bid, sealed bid and rebid is a decision on
the ladder, scoring is the core's (``"win"`` returns: 1/k to each of k winners, R-SCO-11).

It is the OpenSpiel game ``python_qe_endgame``, registered here (parameters ``players``,
``ladder``, ``auctions``, ``seed``, ``prefix_bot``): ``python_qe`` whose initial state is the
prefix (``QeOpenSpielGame._new_qe`` returns the prefix's game), so chance, legal actions, returns
and information state strings (the seat's view and its bid history, from the engine) are
``python_qe``'s. The sealed bids are simultaneous moves; the solvers work on
``pyspiel.convert_to_turn_based`` of it, where a seat acting later at a rolled-out node does not
see what the earlier seats chose there (its information state is the engine's view plus the
wrapper's "current player"; the tests check it).

OpenSpiel's CFR and best responses over the Python game call back into Python at every node
(about 0.6 s per CFR iteration on a tree of 1,207 histories), so the turn-based tree is walked
once and written as a Gambit EFG tree (each information state string becomes an information set;
``build``), which ``pyspiel.load_efg_game`` loads as a C++ game: OpenSpiel's C++ ``CFRPlusSolver``
(``--solver cfr`` for vanilla CFR) and ``nash_conv`` run on it. NashConv on the export equals
NashConv on the Python game (checked in the tests for the uniform policy and the ``value`` bot).

The prefix is the only root: what it hid from a seat (the others' industry tokens, the set-aside
token, the prices of auctions the seat neither ran nor won) is the same in every history, so the
game's information sets do not separate states by it and a best responder, or CFR, in effect
knows it. The core's bots do not: they decide from the seat's view and bid history, as a player
would (R-VIS-8). Their exploitability here includes what that ignorance costs.

For each deal it prints the game's size, then NashConv (the sum over the players of what a best
response gains against the others' policies) and each seat's expected return of:

* ``uniform``: every legal action equally likely;
* a core bot (``--bots``: ``value``, ``search:easy``, ``search:medium``...) as a tabular policy:
  at every information state with a choice, the bot (a fresh ``Bot(name, seed)`` per decision)
  decides at one state of it (the bots read only the seat's view and bid history, the same at
  every state of it) with ``--bot-seeds M`` seeds, and the policy is the empirical distribution of
  the M actions, also of the first 1 and 4 seeds (a deterministic bot gives one action; the
  search bots' bids depend on the worlds they sample, hence on the seed); ``--seed-sets``
  disjoint sets of M seeds (0.., 1000.., ...);
* CFR+'s average policy after ``--iterations`` iterations, with NashConv at ``--checkpoints``.

``--csv`` appends the rows (sizes, policy, seeds, NashConv, expected returns, CFR iterations, CPU
seconds) to a CSV file, deal by deal.
"""

from __future__ import annotations

import argparse
import copy
import csv
import os
import random
import time
from collections import Counter
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import pyspiel

import qe
import qe.openspiel as qo
from qe.bots import Bot

__all__ = [
    "ENDGAME_TYPE",
    "EndgameGame",
    "Infoset",
    "Reduced",
    "bot_actions",
    "build",
    "efg_policy",
    "empirical",
    "load",
    "on_policy",
    "play_prefix",
    "solve",
    "uniform",
]

_DEFAULT_LADDER = "0:1:2:4"

# The fields of pyspiel.GameType's constructor (older OpenSpiel releases have fewer of them).
_GAME_TYPE_FIELDS = (
    "short_name",
    "long_name",
    "dynamics",
    "chance_mode",
    "information",
    "utility",
    "reward_model",
    "max_num_players",
    "min_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
    "parameter_specification",
    "default_loadable",
    "provides_factored_observation_string",
    "action_structs_only",
)


def _game_type_like(base: Any, **changes: Any) -> Any:
    """A ``pyspiel.GameType`` with every field of ``base`` but ``changes``."""
    fields = {f: getattr(base, f) for f in _GAME_TYPE_FIELDS if hasattr(base, f)}
    return pyspiel.GameType(**{**fields, **changes})


# python_qe's type but for its name, 3-4 players and the endgame's parameters.
ENDGAME_TYPE = _game_type_like(
    qo.GAME_TYPE,
    short_name="python_qe_endgame",
    long_name="Python QE, the last auctions of a game played from a seed",
    max_num_players=4,
    min_num_players=3,
    parameter_specification={
        "players": 3,
        "ladder": _DEFAULT_LADDER,
        "auctions": 1,
        "seed": 1,
        "prefix_bot": "value",
    },
)


def play_prefix(players: int, ladder: qe.BidLadder, auctions: int, seed: int, bot: str) -> qe.Game:
    """A game in external-chance mode (R-SET-3) played from ``seed`` up to the start of turn
    ``turns - auctions`` (before its reveal): the deal and reveals drawn by ``random.Random(seed)``,
    every decision by the core's ``bot`` (seat ``s`` seeded ``seed * 100 + s``) as an action of
    the ladder's action space."""
    g = qe.Game(players, None, ladder=ladder, external_chance=True)
    if not 1 <= auctions < g.turns:
        raise ValueError(f"auctions must be 1..{g.turns - 1}, got {auctions}")
    rng = random.Random(seed)
    bots = [Bot(bot, seed * 100 + s) for s in range(players)]
    stop = g.turns - auctions
    while not (g.turn == stop and g.phase == "chance"):
        if g.phase == "chance":
            g.apply_chance_action(rng.choice(g.chance_actions()))
            continue
        acting = list(g.to_act)
        actions = {s: bots[s].action(g, s) for s in acting}  # all decided before any is applied
        for s in acting:
            a = actions[s]
            if a is None:
                raise ValueError(f"prefix bot {bot} has nothing to do for seat {s}, which must act")
            g.apply_action(s, a)
    return g


class EndgameGame(qo.QeOpenSpielGame):
    """``python_qe_endgame``: ``python_qe`` from the state :func:`play_prefix` reaches (see the
    module docs)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = {**ENDGAME_TYPE.parameter_specification, **dict(params or {})}
        self.qe_players = int(params["players"])
        self.qe_expansions = ()
        self.qe_commodities = False
        self.qe_peeks = False
        self.qe_ladder = qo._ladder(params["ladder"])
        params["ladder"] = ":".join(str(a) for a in self.qe_ladder.amounts)
        self.auctions = int(params["auctions"])
        self.seed = int(params["seed"])
        self.prefix_bot = str(params["prefix_bot"])
        self.prefix = play_prefix(self.qe_players, self.qe_ladder, self.auctions, self.seed, self.prefix_bot)
        self.pass_action = self.prefix.num_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=self.pass_action + 1,
            max_chance_outcomes=qo._MAX_CHANCE_OUTCOMES,
            num_players=self.qe_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.auctions * 12,
        )
        pyspiel.Game.__init__(self, ENDGAME_TYPE, info, params)

    def _new_qe(self, seed: Optional[int] = None) -> qe.Game:
        # A state's game is the prefix's (its history is what follows); `seed` is python_qe's
        # probe of the rules, not used here.
        return copy.copy(self.prefix)


pyspiel.register_game(ENDGAME_TYPE, EndgameGame)


def load(auctions: int, ladder: str = _DEFAULT_LADDER, seed: int = 1, players: int = 3,
         prefix_bot: str = "value") -> Tuple[Any, Any]:
    """The game and its turn-based form (what the solvers run on)."""
    game = pyspiel.load_game(
        "python_qe_endgame",
        {"players": players, "ladder": ladder, "auctions": auctions, "seed": seed, "prefix_bot": prefix_bot},
    )
    return game, pyspiel.convert_to_turn_based(game)


class Infoset(NamedTuple):
    """An information state of the turn-based game: its number in the EFG export (from 1, per
    player), its legal actions, and the core game at one state of it (where a bot decides)."""

    number: int
    legal: Tuple[int, ...]
    game: qe.Game


class _Names:
    """Action ids as OpenSpiel's EFG reader gives them: names numbered in the order it first reads
    them. It sorts each node's ids but keeps its children in file order, so a node's actions are
    written in increasing id order: the names it has seen first, then the new ones."""

    def __init__(self) -> None:
        self.ids: Dict[str, int] = {}

    def order(self, names: List[str]) -> List[str]:
        known = sorted((n for n in names if n in self.ids), key=self.ids.__getitem__)
        new = [n for n in names if n not in self.ids]
        for n in new:
            self.ids[n] = len(self.ids)
        return known + new


class Reduced(NamedTuple):
    """The turn-based game's tree, walked once: its Gambit EFG text (what
    ``pyspiel.load_efg_game`` reads; a node's information set is its information state string),
    the information states per player, the EFG id of each action, and the counts."""

    efg: str
    infosets: List[Dict[str, Infoset]]
    action_ids: Dict[int, int]
    size: Dict[str, Any]


def build(tb: Any) -> Reduced:
    """Walks every history of ``tb`` (the turn-based game) and writes it as an EFG tree."""
    n = tb.num_players()
    lines = [f'EFG 2 R "{tb}" {{ ' + " ".join(f'"seat {p}"' for p in range(n)) + " }"]
    infosets: List[Dict[str, Infoset]] = [{} for _ in range(n)]
    actions, outcomes = _Names(), _Names()
    payoffs: Dict[Tuple[float, ...], int] = {}
    counts: Counter = Counter()

    def walk(s: Any, depth: int) -> None:
        counts["histories"] += 1
        pad = " " * depth
        if s.is_terminal():
            counts["terminals"] += 1
            r = tuple(s.returns())
            k = payoffs.setdefault(r, len(payoffs) + 1)
            lines.append(f'{pad}t "" {k} "" {{ ' + " ".join(repr(float(x)) for x in r) + " }")
            return
        if s.is_chance_node():
            counts["chance"] += 1
            probs = dict(s.chance_outcomes())
            names = outcomes.order([str(a) for a in probs])
            body = " ".join(f'"{a}" {probs[int(a)]!r}' for a in names)
            lines.append(f'{pad}c "" {counts["chance"]} "" {{ {body} }} 0')
            for a in names:
                walk(s.child(int(a)), depth + 1)
            return
        counts["decisions"] += 1
        p = s.current_player()
        key = s.information_state_string(p)
        legal = tuple(s.legal_actions())
        info = infosets[p].get(key)
        if info is None:
            info = Infoset(len(infosets[p]) + 1, legal, copy.copy(s.simultaneous_game_state().qe))
            infosets[p][key] = info
        elif info.legal != legal:
            raise ValueError(f"information state {key!r} has legal actions {info.legal} and {legal}")
        names = actions.order([str(a) for a in legal])
        body = " ".join(f'"{a}"' for a in names)
        lines.append(f'{pad}p "" {p + 1} {info.number} "" {{ {body} }} 0')
        for a in names:
            walk(s.child(int(a)), depth + 1)

    walk(tb.new_initial_state(), 0)
    size = {
        **counts,
        "infostates": [len(i) for i in infosets],
        "infostates_choice": [sum(1 for x in i.values() if len(x.legal) > 1) for i in infosets],
    }
    return Reduced("\n".join(lines) + "\n", infosets,
                   {int(a): i for a, i in actions.ids.items()}, size)


def efg_policy(red: Reduced, probs: Callable[[int, str, Infoset], Dict[int, float]]) -> Any:
    """A ``pyspiel.TabularPolicy`` of the EFG game: at each information state, ``probs(player,
    key, infoset)`` (a distribution over the turn-based game's actions)."""
    table = {}
    for p, infos in enumerate(red.infosets):
        for key, info in infos.items():
            dist = probs(p, key, info)
            if set(dist) - set(info.legal) or abs(sum(dist.values()) - 1.0) > 1e-9:
                raise ValueError(f"not a distribution over {info.legal}: {dist}")
            # Every legal action, with 0 for those the policy never plays (a missing one is an error
            # to OpenSpiel's best response).
            table[f"{p}-{p}-{info.number}-"] = [(red.action_ids[a], float(dist.get(a, 0.0))) for a in info.legal]
    return pyspiel.TabularPolicy(table)


def uniform(p: int, key: str, info: Infoset) -> Dict[int, float]:
    return {a: 1.0 / len(info.legal) for a in info.legal}


def bot_actions(red: Reduced, name: str, seeds: Sequence[int]) -> List[Dict[str, List[int]]]:
    """The core's bot ``name`` at every information state with a choice: its action with each of
    ``seeds`` (a fresh ``Bot(name, seed)`` per decision, at the state the walk met first; the
    bots decide from the seat's view and bid history, the same at every state of it)."""
    out: List[Dict[str, List[int]]] = []
    for p, infos in enumerate(red.infosets):
        mine: Dict[str, List[int]] = {}
        for key, info in infos.items():
            if len(info.legal) == 1:
                continue
            acts = [Bot(name, seed).action(info.game, p) for seed in seeds]
            if not set(acts) <= set(info.legal):
                raise ValueError(f"bot {name} chose {acts}, not all of them in {info.legal}")
            mine[key] = [int(a) for a in acts if a is not None]
        out.append(mine)
    return out


def empirical(actions: List[Dict[str, List[int]]], m: Optional[int] = None
              ) -> Callable[[int, str, Infoset], Dict[int, float]]:
    """The policy of :func:`bot_actions`' samples (the first ``m`` of each): at an information
    state, the empirical distribution of the bot's actions; a seat with one legal action (``PASS``)
    plays it."""

    def probs(p: int, key: str, info: Infoset) -> Dict[int, float]:
        if len(info.legal) == 1:
            return {info.legal[0]: 1.0}
        acts = actions[p][key][:m]
        return {a: c / len(acts) for a, c in Counter(acts).items()}

    return probs


def on_policy(efg: Any, pol: Any) -> List[float]:
    """Each player's expected return when every player follows ``pol``."""
    return list(pyspiel.expected_returns(efg.new_initial_state(), pol, -1, True))


def solve(efg: Any, iterations: int, checkpoints: Sequence[int] = (), plus: bool = True
          ) -> Tuple[Any, List[Tuple[int, float, float]]]:
    """OpenSpiel's CFR+ (``plus``) or CFR on the EFG game for ``iterations`` iterations; at each
    of ``checkpoints`` (and the last) NashConv of the average policy. Returns the solver and rows
    (iterations, NashConv, CPU seconds of solving so far, NashConv's evaluation excluded)."""
    solver = pyspiel.CFRPlusSolver(efg) if plus else pyspiel.CFRSolver(efg)
    curve = []
    spent = 0.0
    done = 0
    for mark in sorted({c for c in checkpoints if 0 < c < iterations} | {iterations}):
        t = time.process_time()
        for _ in range(mark - done):
            solver.evaluate_and_update_policy()
        spent += time.process_time() - t
        done = mark
        curve.append((mark, pyspiel.nash_conv(efg, solver.average_policy()), spent))
    return solver, curve


_FIELDS = ["players", "auctions", "ladder", "deal_seed", "histories", "terminals", "chance_nodes",
           "decision_nodes", "infostates", "infostates_with_choice", "policy", "bot_seeds",
           "nash_conv", "expected_returns", "cfr_iterations", "cpu_seconds"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--auctions", type=int, default=2, help="K: the auctions left to play")
    ap.add_argument("--ladder", default=_DEFAULT_LADDER, help="the bid amounts, joined by ':'")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", default="1", help="the deal seeds (the prefix), joined by ','")
    ap.add_argument("--prefix-bot", default="value")
    ap.add_argument("--bots", default="value,search:easy,search:medium")
    ap.add_argument("--bot-seeds", type=int, default=16, help="M: seeds per information state")
    ap.add_argument("--seed-sets", type=int, default=2, help="disjoint sets of M seeds per bot")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--checkpoints", default="1,10,30,100,300")
    ap.add_argument("--solver", choices=("cfr+", "cfr"), default="cfr+")
    ap.add_argument("--csv", help="append the rows to this CSV file")
    args = ap.parse_args()

    for deal in [int(x) for x in args.deals.split(",")]:
        rows: List[Dict[str, Any]] = []
        t0 = time.process_time()
        _, tb = load(args.auctions, args.ladder, deal, args.players, args.prefix_bot)
        red = build(tb)
        efg = pyspiel.load_efg_game(red.efg)
        built = time.process_time() - t0
        size = red.size
        print(
            f"\n{args.players} players, last {args.auctions} auctions, ladder {args.ladder}, deal "
            f"{deal}: {size['histories']:,} histories ({size['terminals']:,} terminal, "
            f"{size['chance']:,} chance, {size['decisions']:,} decision nodes), information "
            f"states per player {size['infostates']} (with a choice {size['infostates_choice']}); "
            f"walked and loaded as EFG in {built:.1f} s CPU"
        )
        base = {
            "players": args.players, "auctions": args.auctions, "ladder": args.ladder,
            "deal_seed": deal, "histories": size["histories"], "terminals": size["terminals"],
            "chance_nodes": size["chance"], "decision_nodes": size["decisions"],
            "infostates": "/".join(map(str, size["infostates"])),
            "infostates_with_choice": "/".join(map(str, size["infostates_choice"])),
        }

        def row(policy: str, pol: Any, seeds: str = "", iterations: Any = "", cpu: float = 0.0) -> None:
            nc = pyspiel.nash_conv(efg, pol)
            ret = on_policy(efg, pol)
            rows.append({**base, "policy": policy, "bot_seeds": seeds, "nash_conv": f"{nc:.6f}",
                         "expected_returns": "/".join(f"{x:.4f}" for x in ret),
                         "cfr_iterations": iterations, "cpu_seconds": f"{cpu:.1f}"})
            extra = f"  ({cpu:.1f} s CPU)" if cpu else ""
            print(f"  {policy:<28} {seeds:<14} NashConv {nc:8.5f}   returns "
                  f"{' '.join(f'{x:.3f}' for x in ret)}{extra}")

        row("uniform", efg_policy(red, uniform))
        for name in [b for b in args.bots.split(",") if b]:
            for k in range(args.seed_sets):
                seeds = list(range(k * 1000, k * 1000 + args.bot_seeds))
                t = time.process_time()
                acts = bot_actions(red, name, seeds)
                cpu = time.process_time() - t
                ms = sorted({1, 4, args.bot_seeds} & set(range(1, args.bot_seeds + 1)))
                for m in ms:
                    label = f"M={m} from {seeds[0]}"
                    row(name, efg_policy(red, empirical(acts, m)), label, cpu=cpu if m == args.bot_seeds else 0.0)
        checkpoints = [int(x) for x in args.checkpoints.split(",") if x]
        solver, curve = solve(efg, args.iterations, checkpoints, plus=args.solver == "cfr+")
        final = on_policy(efg, solver.average_policy())
        for it, nc, cpu in curve:
            ret = final if it == curve[-1][0] else None
            shown = f"   returns {' '.join(f'{x:.3f}' for x in ret)}" if ret else ""
            print(f"  {args.solver + ' average':<28} {it:>6} iterations NashConv {nc:8.5f}{shown}   ({cpu:.1f} s CPU)")
            rows.append({**base, "policy": f"{args.solver} average", "bot_seeds": "",
                         "nash_conv": f"{nc:.6f}",
                         "expected_returns": "/".join(f"{x:.4f}" for x in ret) if ret else "",
                         "cfr_iterations": it, "cpu_seconds": f"{cpu:.1f}"})
        if args.csv:  # deal by deal, so that a long run keeps what it finished
            new = not os.path.exists(args.csv) or os.path.getsize(args.csv) == 0
            with open(args.csv, "a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=_FIELDS)
                if new:
                    w.writeheader()
                w.writerows(rows)


if __name__ == "__main__":
    main()
