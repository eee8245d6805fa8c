"""Exports the actor network of a saved MaskablePPO model (sb3-contrib, ``MlpPolicy``) to an
``.npz`` file that ``npz_policy.policy_from_npz`` plays without torch, and checks that it picks
the model's actions.

    .venv-torch/bin/python examples/python/export_policy.py ppo_random.zip \\
        examples/python/results/ppo_random_policy.npz --check 50

The weights are stored as float32, or as float16 (``--float16``, or by itself when float32 would
take more than ``--max-bytes``). With ``--check N`` the model plays ``N`` games on fixed seeds
(``--check-seed``, ...) at seat 0 of ``qe.gym.QeEnv`` against each of ``--check-opponents``
(``random,value``); at every step the action of ``model.predict(obs, action_masks=mask,
deterministic=True)`` is compared with the file's policy (as read back from the file), and the
agreement is printed; the exit code is 1 when one step differs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Optional, Sequence, Tuple

import numpy as np

import qe.gym
from npz_policy import arrays_of_model, policy_from_npz, save_npz


def check(model: Any, path: Path, opponents: str, games: int, seed: int) -> Tuple[int, int, int, float]:
    """``(steps, agreeing steps, games, win share)`` of ``games`` games at seat 0 against three
    ``opponents`` bots, the model's deterministic action played."""
    act = policy_from_npz(path)
    env = qe.gym.QeEnv(players=4, seat=0, opponents=opponents)
    steps = same = 0
    wins = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            mask = env.action_masks()
            a, _ = model.predict(obs, action_masks=mask, deterministic=True)
            steps += 1
            same += int(a) == act(obs, mask)
            obs, _, done, _, _ = env.step(int(a))
        wins += float(env.game.returns("win")[0])
    return steps, same, games, wins


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", help="a MaskablePPO zip (model.save)")
    ap.add_argument("out", help="the .npz to write")
    ap.add_argument("--float16", action="store_true", help="store the weights as float16")
    ap.add_argument("--max-bytes", type=int, default=1_500_000, help="float16 when float32 is larger")
    ap.add_argument("--check", type=int, default=0, metavar="N", help="games per opponent to compare on")
    ap.add_argument("--check-opponents", default="random,value")
    ap.add_argument("--check-seed", type=int, default=10_000)
    args = ap.parse_args(argv)

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(args.model, device="cpu")
    arrays = arrays_of_model(model)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    float32_bytes = sum(v.nbytes for v in arrays.values() if v.dtype.kind == "f")
    half = args.float16 or float32_bytes > args.max_bytes
    save_npz(out, arrays, np.float16 if half else np.float32)
    shapes = ", ".join(f"{k} {tuple(v.shape)}" for k, v in arrays.items() if v.dtype.kind == "f")
    print(
        f"wrote {out} ({os.path.getsize(out):,} bytes, {'float16' if half else 'float32'}; "
        f"float32 weights {float32_bytes:,} bytes; activation {arrays['activation']}): {shapes}"
    )
    ok = True
    for opponents in [o for o in args.check_opponents.split(",") if o] if args.check else []:
        steps, same, games, wins = check(model, out, opponents, args.check, args.check_seed)
        ok &= same == steps
        print(
            f"vs 3 {opponents}: {games} games (seeds {args.check_seed}-{args.check_seed + games - 1}), "
            f"{steps} steps, the file's policy picked the model's action at {same} "
            f"({same / steps:.2%}); the model's win share {wins / games:.3f}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
