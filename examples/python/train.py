"""Train one seat of QE with MaskablePPO (sb3-contrib) against three bots, within a wall-time budget,
evaluating as it goes; writes a CSV learning curve with 95% Wilson intervals and a PNG of it.

    ./scripts/build-wheel
    python3 -m venv .venv-torch
    .venv-torch/bin/pip install sb3-contrib matplotlib target/wheels/qe_engine-*.whl   # brings torch
    .venv-torch/bin/python examples/python/train.py --minutes 30 --out examples/python/results/train

4 players, base game, the learner at seat 0 of ``qe.gym.QeEnv`` against three ``--opponents`` bots
(``random`` by default), CPU only. Training runs ``--envs`` copies of the env (sb3's
``DummyVecEnv``, or ``SubprocVecEnv`` with ``--subproc``) and stops at ``--steps`` or when
``--minutes`` of wall time (evaluations included) are spent, whichever comes first.

Every ``--eval-every`` steps the policy plays ``--eval-games`` games on fixed seeds
(``--eval-seed``, ``--eval-seed + 1``, ...) against the training opponents, masked and
deterministic (the most probable legal action; ``--stochastic-eval`` samples from the masked
policy instead). A win counts 1, a win shared by ``k`` seats ``1/k`` (the ``win`` reward), and the
95% interval is Wilson's on that count. Before training a uniformly random legal policy plays the
same seeds (the baseline rows, ``steps`` 0, ``policy`` ``random_legal``); after training the final
policy and the baseline also play ``--final-opponents`` (``value`` by default) on the same seeds.

Outputs: ``OUT.csv`` (``steps, wall_s, policy, opponents, games, wins, win_rate, lo95, hi95``),
``OUT.png`` (the learning curve, matplotlib), with ``--save`` the model, and with ``--export-npz
PATH`` the policy's actor weights for ``npz_policy.policy_from_npz``, which plays the model's
deterministic masked action with numpy only (``export_policy.py`` exports a saved model and checks
the file's actions against the model's).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

import qe
import qe.gym

Policy = Callable[[np.ndarray, np.ndarray], int]


def wilson(wins: float, n: int, z: float = 1.96) -> "tuple[float, float]":
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def ladder_of(spec: str) -> Optional[qe.BidLadder]:
    """``default`` (None: the game's default ladder) or comma-separated rungs, e.g. ``0,1,2,4,8``."""
    if spec == "default":
        return None
    return qe.BidLadder([int(x) for x in spec.split(",")])


def make_env(opponents: str, ladder: str, reward: str) -> qe.gym.QeEnv:
    return qe.gym.QeEnv(players=4, seat=0, opponents=opponents, ladder=ladder_of(ladder), reward=reward)


def play(env: qe.gym.QeEnv, act: Policy, games: int, seed: int) -> float:
    """The learner's summed ``win`` reward over ``games`` games on seeds ``seed..seed+games``."""
    wins = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(act(obs, env.action_masks()))
        wins += float(env.game.returns("win")[env.seat])
    return wins


def main(argv: Optional[Sequence[str]] = None) -> List[Dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--opponents", default="random", help="the training bots (every other seat)")
    p.add_argument("--final-opponents", default="value", help="also evaluated against at the end ('' for none)")
    p.add_argument("--steps", type=int, default=10_000_000, help="learner steps at most")
    p.add_argument("--minutes", type=float, default=30.0, help="wall-time budget, evaluations included")
    p.add_argument("--envs", type=int, default=8)
    p.add_argument("--subproc", action="store_true", help="SubprocVecEnv instead of DummyVecEnv")
    p.add_argument("--reward", default="win", choices=["win", "score"])
    p.add_argument("--ladder", default="default", help="'default' or comma-separated rungs")
    p.add_argument("--normalize", action="store_true", help="VecNormalize the observations")
    p.add_argument("--net", default="256,256", help="hidden layers of the policy and value nets")
    p.add_argument("--n-steps", type=int, default=256, help="steps per env per rollout")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--eval-every", type=int, default=50_000)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-seed", type=int, default=10_000)
    p.add_argument("--stochastic-eval", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="examples/python/results/train", help="OUT.csv and OUT.png")
    p.add_argument("--save", default="", help="save the trained model here (zip)")
    p.add_argument("--export-npz", default="", metavar="PATH", help="write the policy's weights here (npz_policy.py)")
    args = p.parse_args(argv)
    if args.export_npz and args.normalize:
        p.error("--export-npz writes the policy network only, not VecNormalize's statistics: drop --normalize")

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecNormalize

    torch.set_num_threads(args.threads)
    start = time.monotonic()
    budget = args.minutes * 60.0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: List[Dict[str, Any]] = []
    rng = np.random.default_rng(args.seed)

    def random_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    def record(steps: int, policy: str, opponents: str, wins: float) -> Dict[str, Any]:
        n = args.eval_games
        lo, hi = wilson(wins, n)
        row = dict(
            steps=steps, wall_s=round(time.monotonic() - start, 1), policy=policy, opponents=opponents,
            games=n, wins=round(wins, 3), win_rate=round(wins / n, 4), lo95=round(lo, 4), hi95=round(hi, 4),
        )
        rows.append(row)
        print(
            f"[{row['wall_s']:7.1f}s] {steps:>9} steps {policy:>12} vs {opponents}: "
            f"{row['win_rate']:.3f} [{row['lo95']:.3f}, {row['hi95']:.3f}] over {n} games",
            flush=True,
        )
        write_csv()
        return row

    def write_csv() -> None:
        with open(f"{out}.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)

    eval_env = make_env(args.opponents, args.ladder, "win")
    record(0, "random_legal", args.opponents, play(eval_env, random_legal, args.eval_games, args.eval_seed))

    def thunk() -> qe.gym.QeEnv:
        return make_env(args.opponents, args.ladder, args.reward)

    venv: Any = (SubprocVecEnv if args.subproc else DummyVecEnv)([thunk] * args.envs)
    venv.seed(args.seed)
    if args.normalize:
        venv = VecNormalize(venv, norm_obs=True, norm_reward=False, gamma=args.gamma)
    net = [int(x) for x in args.net.split(",")]
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=args.n_steps, batch_size=args.batch, n_epochs=args.epochs,
        learning_rate=args.lr, ent_coef=args.ent, gamma=args.gamma, seed=args.seed, verbose=0,
        policy_kwargs=dict(net_arch=dict(pi=net, vf=net)), device="cpu",
    )

    def trained(obs: np.ndarray, mask: np.ndarray) -> int:
        if args.normalize:
            obs = venv.normalize_obs(obs)
        action, _ = model.predict(obs, action_masks=mask, deterministic=not args.stochastic_eval)
        return int(action)

    label = "ppo_stochastic" if args.stochastic_eval else "ppo"

    class Evaluate(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = args.eval_every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_eval:
                self.next_eval += args.eval_every
                record(self.num_timesteps, label, args.opponents, play(eval_env, trained, args.eval_games, args.eval_seed))
            return time.monotonic() - start < budget

    model.learn(total_timesteps=args.steps, callback=Evaluate())
    steps = int(model.num_timesteps)
    if not rows or rows[-1]["steps"] != steps:
        record(steps, label, args.opponents, play(eval_env, trained, args.eval_games, args.eval_seed))
    train_s = time.monotonic() - start
    print(f"trained {steps} steps in {train_s:.0f} s ({steps / train_s:.0f} steps/s, evaluations included)", flush=True)
    if args.final_opponents:
        final_env = make_env(args.final_opponents, args.ladder, "win")
        record(steps, label, args.final_opponents, play(final_env, trained, args.eval_games, args.eval_seed))
        record(0, "random_legal", args.final_opponents, play(final_env, random_legal, args.eval_games, args.eval_seed))
    if args.save:
        model.save(args.save)
    if args.export_npz:
        from npz_policy import arrays_of_model, save_npz

        save_npz(args.export_npz, arrays_of_model(model))
    venv.close()
    plot(rows, args, out)
    return rows


def plot(rows: List[Dict[str, Any]], args: argparse.Namespace, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = [r for r in rows if r["policy"] != "random_legal" and r["opponents"] == args.opponents]
    base = [r for r in rows if r["policy"] == "random_legal" and r["opponents"] == args.opponents]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    x = [r["steps"] for r in curve]
    ax.plot(x, [r["win_rate"] for r in curve], marker="o", ms=3, label=f"MaskablePPO vs 3 {args.opponents}")
    ax.fill_between(x, [r["lo95"] for r in curve], [r["hi95"] for r in curve], alpha=0.25, label="95% Wilson")
    if base:
        ax.axhline(base[0]["win_rate"], color="grey", ls="--", label="random legal policy")
    ax.axhline(0.5, color="green", ls=":", label="2x fair share (0.5)")
    ax.set_xlabel("learner steps")
    ax.set_ylabel(f"win rate over {args.eval_games} seeded games")
    ax.set_ylim(0, 1)
    ax.set_title("QE, 4 players, base game: one seat vs three bots")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{out}.png")
    plt.close(fig)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
