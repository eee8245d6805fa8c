"""Ray: RLlib's PettingZoo wrappers over both qe envs, and the Ray tasks example on a local Ray.

Run by scripts/test-python in its own venv (requirements-ray.txt: Ray with RLlib, no torch)."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from typing import Any, Iterator

import numpy as np
import pytest

import qe
import qe.pettingzoo as qp

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "ray_tournament.py"


def test_rllib_aec_wrapper_plays_whole_episodes_with_masks() -> None:
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env = PettingZooEnv(qp.env(players=4, expansions=("commodities",)))
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        totals = {a: 0.0 for a in env.possible_agents}
        steps = 0
        while True:
            assert len(obs) == 1
            (agent, ob), = obs.items()
            mask = ob["action_mask"]
            assert mask.any() and mask[-1] == 0  # the agent to act has a legal move, not wait
            obs, rew, term, trunc, _ = env.step({agent: int(rng.choice(np.flatnonzero(mask)))})
            for a, r in rew.items():
                totals[a] += r
            steps += 1
            if term["__all__"]:
                break
            assert not trunc["__all__"]
        assert steps > 16
        assert sum(totals.values()) in (0.0, pytest.approx(1.0))


def test_rllib_parallel_wrapper_plays_whole_episodes_with_masks() -> None:
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv

    env = ParallelPettingZooEnv(qp.parallel_env(players=5, peeks=True))
    rng = np.random.default_rng(1)
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        total = 0.0
        while True:
            actions = {}
            for agent, ob in obs.items():
                mask = ob["action_mask"]
                assert mask.any()  # every live agent has a legal action (wait when idle)
                actions[agent] = int(rng.choice(np.flatnonzero(mask)))
            obs, rew, term, trunc, _ = env.step(actions)
            total += sum(rew.values())
            if term["__all__"]:
                assert all(term.values())
                break
            assert not trunc["__all__"]
        assert total in (0.0, pytest.approx(1.0))


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("ray_tournament", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ray_tournament"] = module
    spec.loader.exec_module(module)
    return module


def test_tournament_as_ray_tasks_matches_a_local_run(local_ray: Any) -> None:
    ex = _example()
    lineup = ["value", "random", "miser", "value"]
    results = ex.tournament(lineup, games=60, chunk=16)
    assert results["value"]["games"] == 120 and results["random"]["games"] == 60
    assert sum(r["win_rate"] * r["games"] for r in results.values()) <= 60 + 1e-9
    # The same 60 games (seeds 0..59, the seat order rotating through the lineup's orders),
    # counted here without Ray: every field of every bot agrees.
    import itertools

    import qe.bots

    orders = list(itertools.permutations(range(4)))
    want = {n: [0.0, 0.0, 0.0, 0.0] for n in lineup}
    for seed in range(60):
        names = [lineup[k] for k in orders[seed % len(orders)]]
        g = qe.Game(4, seed=seed)
        qe.bots.play_out(g, names, seed=seed)
        outcome = g.outcome()
        assert outcome is not None
        for s, name in enumerate(names):
            w = want[name]
            w[0] += 1
            w[1] += g.returns("win")[s]
            w[2] += outcome.seats[s].total
            w[3] += outcome.seats[s].eliminated
    for name, (games, wins, score, eliminated) in want.items():
        r = results[name]
        assert r["games"] == games
        assert r["win_rate"] == pytest.approx(wins / games)
        assert r["mean_score"] == pytest.approx(score / games)
        assert r["elimination_rate"] == pytest.approx(eliminated / games)
    assert want["miser"][1] < want["value"][1] and want["random"][3] > 0  # the bots differ
    # The same games played in this process give the same counts (seeds fixed by chunk).
    local = local_ray.get(ex.play_games.remote(lineup, 0, 16, []))
    again = local_ray.get(ex.play_games.remote(lineup, 0, 16, []))
    assert local == again


def test_rollouts_as_ray_tasks(local_ray: Any) -> None:
    ex = _example()
    batch = ex.collect_rollouts(2, num_envs=8, steps=40, opponents="random")
    assert batch["obs"].shape == (40, 16, qe.OBS_SIZE)
    assert batch["actions"].shape == batch["rewards"].shape == batch["dones"].shape == (40, 16)
    t, e = np.nonzero(batch["masks"][..., :-1].any(axis=-1) == 0)
    assert len(t) == 0  # the learner always has a legal move
    chosen = np.take_along_axis(batch["masks"], batch["actions"][..., None], axis=-1)
    assert (chosen == 1).all()
    assert batch["dones"].sum() > 0
    # Each worker's transitions, replayed on a VectorEnv of its seed with the recorded actions:
    # every observation and mask is the one its action was chosen from, every reward and end the
    # one that action led to.
    for w in range(2):
        env = qe.VectorEnv(8, players=4, seed=w, opponents="random")
        obs, masks = env.reset()
        part = slice(8 * w, 8 * (w + 1))
        for t in range(40):
            assert np.array_equal(batch["obs"][t, part], obs) and np.array_equal(batch["masks"][t, part], masks)
            obs, masks, rewards, dones = env.step(batch["actions"][t, part])
            assert np.array_equal(batch["rewards"][t, part], rewards)
            assert np.array_equal(batch["dones"][t, part], dones)


def test_example_main_runs(local_ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    ex = _example()
    local_ray.shutdown()
    ex.main(["--num-cpus", "2", "--games", "40", "--rollout-steps", "20"])
    out = capsys.readouterr().out
    assert "win rate" in out and "rollouts:" in out
    # The summary line is the rollouts' own: the mean reward of the steps that ended a game.
    local_ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    batch = ex.collect_rollouts(2, steps=20, players=4)
    final = batch["rewards"][batch["dones"]]
    assert f"{int(batch['dones'].sum())} finished games, mean final reward {final.mean():.3f}" in out
    assert final.mean() != pytest.approx(batch["rewards"].mean())
    local_ray.shutdown()
    local_ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
