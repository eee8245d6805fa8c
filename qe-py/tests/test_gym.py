"""qe.gym: the single-agent Gymnasium env (check_env) and its vector form over the native VectorEnv."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import qe


@pytest.mark.parametrize(
    "kw",
    [{}, {"players": 5, "seat": 3, "opponents": ["random", "miser", "value", "value"], "commodities": True}],
)
def test_check_env_passes(kw: dict) -> None:
    from gymnasium.utils.env_checker import check_env

    import qe.gym

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(qe.gym.QeEnv(**kw), skip_render_check=True)


def test_single_agent_episode_with_masks() -> None:
    import qe.gym

    env = qe.gym.QeEnv(players=4, seat=1, opponents="value", expansions=("commodities",), reward="score")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    total = 0.0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any() and np.array_equal(mask, info["action_mask"])
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert obs.shape == (qe.OBS_SIZE,) and not trunc and "illegal_action" not in info
        total += r
        steps += 1
        if term:
            break
    assert steps >= 16 and total == env.game.returns("score")[1] > 0
    env.reset(seed=3)
    _, _, _, _, info = env.step(env.action_space.n - 1)  # a masked-out action: nearest legal
    assert info["illegal_action"]
    with pytest.raises(ValueError, match='unknown bot "x"'):
        qe.gym.QeEnv(opponents="x")


def test_same_seed_same_episode() -> None:
    import qe.gym

    a, b = qe.gym.QeEnv(), qe.gym.QeEnv()
    oa, _ = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    assert np.array_equal(oa, ob)
    for _ in range(10):
        act = int(np.flatnonzero(a.action_masks())[0])
        assert np.array_equal(a.step(act)[0], b.step(act)[0])


def test_vector_env_follows_the_gymnasium_vector_api() -> None:
    import gymnasium

    import qe.gym

    env = qe.gym.QeVectorEnv(8, players=4, opponents="random", seed=0)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.single_observation_space.shape == (qe.OBS_SIZE,)
    n = env.single_action_space.n
    assert env.action_space.shape == (8,) and env.observation_space.shape == (8, qe.OBS_SIZE)
    obs, infos = env.reset(seed=5)
    again, _ = qe.gym.QeVectorEnv(8, opponents="random").reset(seed=5)
    assert np.array_equal(obs, again)
    assert obs.shape == (8, qe.OBS_SIZE) and infos["action_mask"].shape == (8, n)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(200):
        masks = env.action_masks()
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terms, truncs, infos = env.step(actions)
        assert rewards.shape == terms.shape == truncs.shape == (8,)
        assert (rewards[~terms] == 0).all() and not truncs.any()
        episodes += int(terms.sum())
    assert episodes > 0


@pytest.mark.parametrize("seat", [4, -1])
def test_single_agent_env_rejects_a_seat_of_no_game(seat: int) -> None:
    import qe.gym

    with pytest.raises(ValueError, match=f"seat must be from 0 to 3, got {seat}"):
        qe.gym.QeEnv(players=4, seat=seat)
    assert qe.gym.QeEnv(players=4, seat=3).reset(seed=1)[0].shape == (qe.OBS_SIZE,)


def test_vector_env_seeds_every_game_from_the_first_of_a_seed_list() -> None:
    """Gymnasium's per-env seed list: the native env takes one seed, the first (documented)."""
    import qe.gym

    listed, _ = qe.gym.QeVectorEnv(2, opponents="random").reset(seed=[3, 4])
    first, _ = qe.gym.QeVectorEnv(2, opponents="random").reset(seed=3)
    last, _ = qe.gym.QeVectorEnv(2, opponents="random").reset(seed=4)
    assert np.array_equal(listed, first) and not np.array_equal(listed, last)
