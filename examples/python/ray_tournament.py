"""A distributed bot tournament and rollout collection with Ray tasks over qe's bots and VectorEnv.

    python examples/python/ray_tournament.py                    # a local Ray with every core
    python examples/python/ray_tournament.py --num-cpus 2 --games 2000
    python examples/python/ray_tournament.py --address auto     # on a running Ray cluster

* ``tournament`` splits the games into chunks, one Ray task per chunk (``play_games``): each task
  plays its games with ``qe.bots`` (the core's bots, by name) in every seat order of the lineup and
  returns per-bot counts; the driver adds them up. Game seeds are fixed by the chunk, so the result
  does not depend on how many workers there are.
* ``collect_rollouts`` runs one task per worker, each stepping a batched ``qe.VectorEnv`` (one seat
  against bots, the GIL released inside a step) with a uniformly random legal policy, and returns
  the transitions (observations, masks, actions, rewards, episode ends) as numpy arrays, which Ray
  moves through its object store: the shape of a self-play or evaluation data pipeline.

See ``examples/python/README.md`` for running it on a cluster.
"""

from __future__ import annotations

import argparse
import itertools
from typing import Dict, List, Optional, Sequence

import numpy as np
import ray

import qe
import qe.bots


@ray.remote
def play_games(lineup: Sequence[str], first_seed: int, games: int, expansions: Sequence[str]) -> Dict[str, List[float]]:
    """Plays ``games`` games, rotating the lineup's seat order; returns per bot name
    ``[games, wins, total score, eliminations]`` (a shared win counts 1/k)."""
    stats: Dict[str, List[float]] = {name: [0.0, 0.0, 0.0, 0.0] for name in lineup}
    orders = list(itertools.permutations(range(len(lineup))))
    for i in range(games):
        seed = first_seed + i
        order = orders[seed % len(orders)]
        names = [lineup[k] for k in order]
        g = qe.Game(len(lineup), seed=seed, expansions=expansions)
        qe.bots.play_out(g, names, seed=seed)
        outcome = g.outcome()
        assert outcome is not None
        wins = g.returns("win")
        for s, name in enumerate(names):
            st = stats[name]
            st[0] += 1
            st[1] += wins[s]
            st[2] += outcome.seats[s].total
            st[3] += outcome.seats[s].eliminated
    return stats


def tournament(
    lineup: Sequence[str], games: int, chunk: int = 250, expansions: Sequence[str] = ()
) -> Dict[str, Dict[str, float]]:
    """Plays ``games`` games of ``lineup`` (one bot name per seat; a name may repeat) as Ray tasks
    of ``chunk`` games each; returns per bot name its games, win rate, mean score and elimination
    rate."""
    tasks = [
        play_games.remote(list(lineup), start, min(chunk, games - start), list(expansions))
        for start in range(0, games, chunk)
    ]
    total: Dict[str, List[float]] = {}
    for part in ray.get(tasks):
        for name, st in part.items():
            acc = total.setdefault(name, [0.0, 0.0, 0.0, 0.0])
            for k in range(4):
                acc[k] += st[k]
    return {
        name: {
            "games": st[0],
            "win_rate": st[1] / st[0],
            "mean_score": st[2] / st[0],
            "elimination_rate": st[3] / st[0],
        }
        for name, st in total.items()
    }


@ray.remote
def rollout(num_envs: int, steps: int, seed: int, opponents: str, players: int) -> Dict[str, np.ndarray]:
    """``steps`` steps of ``num_envs`` games, seat 0 played by a uniformly random legal policy
    against ``opponents``; returns the transitions as arrays with a leading ``[steps, num_envs]``."""
    env = qe.VectorEnv(num_envs, players=players, seed=seed, opponents=opponents)
    obs, masks = env.reset()
    rng = np.random.default_rng(seed)
    out = {
        "obs": np.zeros((steps, *obs.shape), np.float32),
        "masks": np.zeros((steps, *masks.shape), np.int8),
        "actions": np.zeros((steps, num_envs), np.int64),
        "rewards": np.zeros((steps, num_envs), np.float32),
        "dones": np.zeros((steps, num_envs), bool),
    }
    for t in range(steps):
        out["obs"][t] = obs
        out["masks"][t] = masks
        keys = rng.random(masks.shape) * masks  # legal actions get keys > 0
        actions = keys.argmax(axis=1)
        out["actions"][t] = actions
        obs, masks, rewards, dones = env.step(actions)
        out["rewards"][t] = rewards
        out["dones"][t] = dones
    return out


def collect_rollouts(
    workers: int, num_envs: int = 64, steps: int = 64, opponents: str = "value", players: int = 4, seed: int = 0
) -> Dict[str, np.ndarray]:
    """One ``rollout`` task per worker (seeds ``seed``, ``seed + 1``, ...), concatenated along the
    env axis."""
    parts = ray.get([rollout.remote(num_envs, steps, seed + w, opponents, players) for w in range(workers)])
    return {k: np.concatenate([p[k] for p in parts], axis=1) for k in parts[0]}


def main(argv: Optional[Sequence[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default=None, help="a Ray cluster's address ('auto': the running one); default: a local Ray")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray (default: all)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--lineup", default="value,value,random,miser", help="one bot name per seat")
    p.add_argument("--rollout-steps", type=int, default=64)
    args = p.parse_args(argv)
    ray.init(address=args.address, num_cpus=args.num_cpus if args.address is None else None)
    lineup = args.lineup.split(",")
    results = tournament(lineup, args.games)
    print(f"{'bot':>10} {'games':>7} {'win rate':>9} {'mean score':>11} {'eliminated':>11}")
    for name, r in sorted(results.items(), key=lambda kv: -kv[1]["win_rate"]):
        print(f"{name:>10} {r['games']:>7.0f} {r['win_rate']:>9.3f} {r['mean_score']:>11.1f} {r['elimination_rate']:>11.3f}")
    cpus = int(ray.cluster_resources().get("CPU", 1))
    batch = collect_rollouts(cpus, steps=args.rollout_steps, players=len(lineup))
    print(
        f"rollouts: {batch['actions'].size} decisions from {cpus} tasks, "
        f"{int(batch['dones'].sum())} finished games, mean final reward "
        f"{batch['rewards'][batch['dones']].mean():.3f}"
    )
    ray.shutdown()


if __name__ == "__main__":
    main()
