"""One table of every kind of agent against the same field: each agent plays one seat of 4-player
base QE (default ladder) against three ``value`` bots, seats rotated, on fixed seeds; win rate
with its 95% Wilson interval, mean score, time per decision.

    .venv/bin/python examples/python/baselines.py --out examples/python/results/baselines.csv

Agents (``--agents``, comma-separated; all by default): the core's bots ``random``, ``miser``,
``value``, ``search:easy``, ``search:medium``, ``search:hard`` (any name ``qe.bots.Bot`` takes,
``search:ms=MS`` too), ``ismcts`` (OpenSpiel's ``ISMCTSBot`` as ``ismcts_strength.py`` plays it:
100 simulations a move, UCT c = 2, each leaf valued by a ``value`` playout, on the turn-based form
of ``python_qe``; needs OpenSpiel) and ``ppo`` (the trained MaskablePPO policy exported to
``--policy``, played by ``npz_policy.policy_from_npz`` with numpy only: its most probable legal
action for the seat's ``qe.Game.observation`` and ``action_mask``, what ``qe.gym.QeEnv`` gives a
learner).

Game ``g`` (``0 .. games-1``) of a row has the agent at seat ``g mod 4`` (``--seats 0``: always
seat 0), the deal of seed ``seed * 100000 + g`` and each seat's bot seeded from it, so every row
but ``ismcts`` plays the same deals and the same field. ``ismcts`` plays through OpenSpiel, whose
chance nodes it samples itself (seeded the same way, as ``ismcts_strength.py`` does), so its deals
are others. A win counts 1, a win shared by ``k`` seats ``1/k``; the interval is Wilson's on that
count (``train.py``'s ``wilson``). Mean score is the seat's final total as the outcome gives it
(an eliminated seat's too), ``eliminated`` the share of games the seat was eliminated in. ``ms_decision`` is the agent's mean wall-clock time per
decision (a turn where its seat had more than one legal action), ``field_ms_decision`` the
others'. CPU and wall seconds are per row, the whole process.
"""

from __future__ import annotations

import argparse
import csv
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

import qe
import qe.bots
from npz_policy import Policy, policy_from_npz
from train import wilson

HERE = Path(__file__).resolve().parent
DEFAULT_POLICY = HERE / "results" / "ppo_random_policy.npz"
AGENTS = ("random", "miser", "value", "search:easy", "search:medium", "search:hard", "ismcts", "ppo")
PLAYERS = 4
ISMCTS_SIMULATIONS = 100
ISMCTS_UCT_C = 2.0


class BotSeat:
    """A seat played by a bot of the core."""

    def __init__(self, name: str, seed: int) -> None:
        self.bot = qe.bots.Bot(name, seed)

    def play(self, game: qe.Game, seat: int) -> None:
        self.bot.play(game, seat)


class PolicySeat:
    """A seat played by a policy over the seat's observation and mask (as ``qe.gym.QeEnv`` builds
    them for its learner: ``game.observation(seat)``, ``game.action_mask(seat)`` as bool)."""

    def __init__(self, act: Policy) -> None:
        self.act = act

    def play(self, game: qe.Game, seat: int) -> None:
        game.apply_action(seat, self.act(game.observation(seat), game.action_mask(seat).astype(bool)))


@dataclass
class Row:
    agent: str
    field: str
    players: int
    seats: str
    games: int
    seed: int
    wins: float
    win_rate: float
    lo95: float
    hi95: float
    mean_score: float
    eliminated: float
    ms_decision: float
    field_ms_decision: float
    cpu_s: float
    wall_s: float


def bot_seed(game_seed: int, seat: int) -> int:
    return (game_seed * 8 + seat) % 2**64


class Agents:
    """Makes the seat players by name; loads the policy file once, when ``ppo`` is first asked."""

    def __init__(self, policy: Path = DEFAULT_POLICY) -> None:
        self.policy_path = policy
        self._policy: Optional[Policy] = None

    def seat(self, name: str, game_seed: int, seat: int) -> Any:
        if name == "ppo":
            if self._policy is None:
                self._policy = policy_from_npz(self.policy_path)
            return PolicySeat(self._policy)
        if name == "ismcts":
            raise ValueError("ismcts plays through OpenSpiel: only as the agent against a field of bots")
        return BotSeat(name, bot_seed(game_seed, seat))


@dataclass
class Game:
    """One game's result for the agent's seat, and the decision times of its seats."""

    win: float
    score: int
    eliminated: bool
    agent_s: List[float]
    field_s: List[float]


def play_game(agents: Agents, lineup: Sequence[str], game_seed: int, seat: int) -> Game:
    """One game of ``qe.Game(len(lineup), game_seed)``, seat ``s`` played by ``lineup[s]``."""
    g = qe.Game(len(lineup), game_seed)
    players = [agents.seat(name, game_seed, s) for s, name in enumerate(lineup)]
    times: List[List[float]] = [[] for _ in lineup]
    while not g.is_over:
        for s in g.to_act:
            if not g.to_act_mask >> s & 1:
                continue
            choices = int(np.count_nonzero(g.action_mask(s)))
            t = time.perf_counter()
            players[s].play(g, s)
            if choices > 1:
                times[s].append(time.perf_counter() - t)
    outcome = g.outcome()
    return Game(
        win=float(g.returns("win")[seat]),
        score=outcome.seats[seat].total,
        eliminated=outcome.seats[seat].eliminated,
        agent_s=times[seat],
        field_s=[t for s, ts in enumerate(times) if s != seat for t in ts],
    )


def play_ismcts_game(field: str, game_seed: int, seat: int, simulations: Optional[int] = None) -> Game:
    """One game of ``ismcts_strength.play``: ISMCTS at ``seat`` (``simulations`` a move, by default
    ``ISMCTS_SIMULATIONS``), ``field`` bots elsewhere."""
    import ismcts_strength
    import pyspiel

    tb = pyspiel.convert_to_turn_based(pyspiel.load_game("python_qe", {"players": PLAYERS, "expansions": ""}))
    n = ISMCTS_SIMULATIONS if simulations is None else simulations
    r = ismcts_strength.play(tb, seat, field, n, "value", game_seed, ISMCTS_UCT_C)
    return Game(
        win=r.returns[seat],
        score=r.scores[seat],
        eliminated=r.eliminated[seat],
        agent_s=r.decision_s[seat],
        field_s=[t for s, ts in r.decision_s.items() if s != seat for t in ts],
    )


def mean_ms(xs: List[float]) -> float:
    return round(1000 * sum(xs) / len(xs), 3) if xs else float("nan")


def run_row(
    agents: Agents,
    agent: str,
    field: str,
    games: int,
    seed: int,
    rotate: bool = True,
    progress: Optional[Callable[[str], None]] = None,
) -> Row:
    """``games`` games of ``agent`` at one seat (rotated, or seat 0) against ``field`` at the others."""
    cpu, wall = time.process_time(), time.perf_counter()
    wins = 0.0
    scores: List[int] = []
    eliminated = 0
    agent_s: List[float] = []
    field_s: List[float] = []
    for g in range(games):
        seat = g % PLAYERS if rotate else 0
        game_seed = seed * 100_000 + g
        if agent == "ismcts":
            r = play_ismcts_game(field, game_seed, seat)
        else:
            lineup = [field] * PLAYERS
            lineup[seat] = agent
            r = play_game(agents, lineup, game_seed, seat)
        wins += r.win
        scores.append(r.score)
        eliminated += r.eliminated
        agent_s += r.agent_s
        field_s += r.field_s
        if progress and (g + 1) % max(1, games // 10) == 0:
            progress(f"  {agent} vs {field}: {g + 1}/{games} games, win rate {wins / (g + 1):.3f}")
    lo, hi = wilson(wins, games)
    return Row(
        agent=agent, field=field, players=PLAYERS, seats="rotated" if rotate else "0", games=games, seed=seed,
        wins=round(wins, 3), win_rate=round(wins / games, 4), lo95=round(lo, 4), hi95=round(hi, 4),
        mean_score=round(sum(scores) / games, 2),
        eliminated=round(eliminated / games, 4), ms_decision=mean_ms(agent_s), field_ms_decision=mean_ms(field_s),
        cpu_s=round(time.process_time() - cpu, 1), wall_s=round(time.perf_counter() - wall, 1),
    )


def write_csv(path: Path, rows: Sequence[Row]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(asdict(rows[0])))
        w.writeheader()
        w.writerows(asdict(r) for r in rows)


def describe(r: Row) -> str:
    return (
        f"{r.agent:>14} vs 3x {r.field}: {r.games} games, win rate {r.win_rate:.3f} "
        f"({r.lo95:.3f}-{r.hi95:.3f}), mean score {r.mean_score:.2f}, eliminated {r.eliminated:.1%}, {r.ms_decision:.1f} ms a decision, "
        f"CPU {r.cpu_s:.0f} s, wall {r.wall_s:.0f} s"
    )


def main(argv: Optional[Sequence[str]] = None) -> List[Row]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default=",".join(AGENTS), help="comma-separated agents (default: all)")
    ap.add_argument("--field", default="value", help="the bot at the other three seats")
    ap.add_argument("--games", type=int, default=500, help="games per agent")
    ap.add_argument("--ismcts-games", type=int, default=200, help="games of the ismcts row")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seats", choices=("rotate", "0"), default="rotate", help="rotate the agent's seat, or seat 0")
    ap.add_argument("--policy", type=Path, default=DEFAULT_POLICY, help="the ppo agent's .npz")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "baselines.csv")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    names = [a for a in args.agents.split(",") if a]
    agents = Agents(args.policy)
    for name in names:  # an unknown name fails before any game is played
        if name not in ("ismcts", "ppo"):
            qe.bots.Bot(name)
    say: Callable[[str], None] = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    rows: List[Row] = []
    for name in names:
        games = args.ismcts_games if name == "ismcts" else args.games
        row = run_row(agents, name, args.field, games, args.seed, args.seats == "rotate", say)
        rows.append(row)
        print(describe(row), flush=True)
        write_csv(args.out, rows)
    return rows


if __name__ == "__main__":
    main()
