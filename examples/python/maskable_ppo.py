"""MaskablePPO (sb3-contrib) learning one seat of QE against bots, with the legal-action masks.

    ./scripts/build-wheel                         # qe-engine is not on the package index yet
    pip install "$(ls target/wheels/qe_engine-*.whl)[gym]" sb3-contrib   # brings torch
    python examples/python/maskable_ppo.py --steps 4096

``qe.gym.QeEnv`` has ``action_masks()``, which MaskablePPO reads at every step, so the policy only
ever samples legal actions. The script evaluates the trained policy (masked, deterministic) and a
uniformly random legal policy over the same seeds and prints both win rates; a few thousand steps
are a smoke run, not a strong player.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, Optional, Sequence

import numpy as np

import qe.gym


def win_rate(env: qe.gym.QeEnv, act: Callable[[np.ndarray, np.ndarray], int], games: int, seed: int) -> float:
    wins = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            obs, reward, done, _, _ = env.step(act(obs, env.action_masks()))
        wins += reward
    return wins / games


def main(argv: Optional[Sequence[str]] = None) -> dict:  # type: ignore[type-arg]
    from sb3_contrib import MaskablePPO

    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=4096)
    p.add_argument("--opponents", default="random")
    p.add_argument("--eval-games", type=int, default=200)
    args = p.parse_args(argv)
    env = qe.gym.QeEnv(players=4, seat=0, opponents=args.opponents)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=4, seed=0, verbose=0)
    model.learn(total_timesteps=args.steps)
    rng = np.random.default_rng(0)

    def trained(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def random_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    eval_env = qe.gym.QeEnv(players=4, seat=0, opponents=args.opponents)
    result: Any = {
        "steps": args.steps,
        "trained_win_rate": win_rate(eval_env, trained, args.eval_games, 10_000),
        "random_win_rate": win_rate(eval_env, random_legal, args.eval_games, 10_000),
    }
    print(
        f"MaskablePPO, {args.steps} steps vs {args.opponents}: win rate {result['trained_win_rate']:.3f} "
        f"(uniformly random legal policy: {result['random_win_rate']:.3f}) over {args.eval_games} games"
    )
    return result  # type: ignore[no-any-return]


if __name__ == "__main__":
    main()
