"""RLlib multi-agent PPO: one policy shared by every seat, trained by self-play for a few iterations.

    ./scripts/build-wheel                         # qe-engine is not on the package index yet
    pip install "$(ls target/wheels/qe_engine-*.whl)[pettingzoo]" "ray[rllib]" torch
    python examples/python/rllib_ppo.py --iterations 3

The env is RLlib's ``ParallelPettingZooEnv`` over ``qe.pettingzoo.parallel_env``; every agent maps
to the policy ``shared``. Observations are dicts (``observation``, ``action_mask``), flattened by
RLlib's ``FlattenObservations`` connector; the policy does not mask its logits, so the env's
``illegal="nearest"`` replaces a masked-out action by the nearest legal one (and idle seats' actions
are ignored). For masked logits, plug in an action-masking RLModule.
"""

from __future__ import annotations

import argparse
from typing import Any, Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> list:  # type: ignore[type-arg]
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.connectors.env_to_module import FlattenObservations
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
    from ray.tune.registry import register_env

    import qe.pettingzoo as qp

    p = argparse.ArgumentParser()
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--num-cpus", type=int, default=2)
    args = p.parse_args(argv)
    ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    register_env("qe", lambda cfg: ParallelPettingZooEnv(qp.parallel_env(players=cfg["players"])))
    config = (
        PPOConfig()
        .environment("qe", env_config={"players": args.players})
        .env_runners(
            num_env_runners=1,
            env_to_module_connector=lambda *a, **k: FlattenObservations(multi_agent=True),
        )
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
        .training(train_batch_size_per_learner=1024, minibatch_size=256, num_epochs=2)
    )
    algo = config.build_algo()
    history: Any = []
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        line = {
            "iteration": i + 1,
            "env_steps": runners.get("num_env_steps_sampled_lifetime"),
            "episodes": runners.get("num_episodes_lifetime"),
            "episode_return_mean": runners.get("episode_return_mean"),
        }
        history.append(line)
        print(line)
    algo.stop()
    ray.shutdown()
    return history  # type: ignore[no-any-return]


if __name__ == "__main__":
    main()
