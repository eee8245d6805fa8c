"""qe.gym: the single-agent Gymnasium env (check_env) and its vector form over the native VectorEnv."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import qe


@pytest.mark.parametrize(
    "kw",
    [{}, {"players": 5, "seat": 3, "opponents": ["random", "miser", "value", "value"], "expansions": ("commodities",)}],
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


def test_vector_env_takes_a_seed_tuple_as_a_list() -> None:
    import qe.gym

    tupled, _ = qe.gym.QeVectorEnv(2, opponents="random").reset(seed=(3, 4))
    listed, _ = qe.gym.QeVectorEnv(2, opponents="random").reset(seed=[3, 4])
    assert np.array_equal(tupled, listed)


@pytest.mark.parametrize(
    "make, seed, error, message",
    [
        ("single", -1, OverflowError, "seed must be an int from 0 to 18446744073709551615, got -1"),
        ("single", 1.5, TypeError, "seed must be an int, got float 1.5"),
        ("single", True, TypeError, "seed must be an int, got bool True"),
        ("vector", -1, OverflowError, "seed must be an int from 0 to 18446744073709551615, got -1"),
        ("vector", "x", TypeError, "seed must be an int, got str 'x'"),
        ("vector", (1, 2, 3), ValueError, "seed must be an int, None or a list of 2 seeds (one per env), got a tuple of 3"),
        ("vector", [1, -2], OverflowError, "seed[1] must be an int from 0 to 18446744073709551615, got -2"),
    ],
)
def test_both_envs_read_a_seed_as_qe_does(make: str, seed: object, error: type, message: str) -> None:
    """A wrong seed gets qe's own error for a seed, naming the value (not gymnasium's)."""
    import re

    import qe.gym

    env = qe.gym.QeEnv() if make == "single" else qe.gym.QeVectorEnv(2)
    with pytest.raises(error, match=re.escape(message)):
        env.reset(seed=seed)


def test_a_step_before_the_first_reset_is_refused_and_plays_nothing() -> None:
    import qe.gym

    for env, action in ((qe.gym.QeEnv(), 1), (qe.gym.QeVectorEnv(2), np.ones(2, int))):
        with pytest.raises(RuntimeError, match=r"^step\(\) before reset\(\): call reset\(\) first$"):
            env.step(action)
    vec = qe.gym.QeVectorEnv(2, seed=5)
    with pytest.raises(RuntimeError):
        vec.step(np.ones(2, int))
    assert vec._env.decisions == 0
    obs, _ = vec.reset(seed=5)
    fresh, _ = qe.gym.QeVectorEnv(2).reset(seed=5)
    assert np.array_equal(obs, fresh)


def _game_over(obs: np.ndarray) -> bool:
    """Whether an observation's ``game_over`` block is set."""
    offset, length = next((o, n) for name, o, n in qe.observation_blocks() if name == "game_over")
    return bool(obs[offset : offset + length].any())


def test_single_agent_env_gives_every_seats_returns_at_the_end() -> None:
    import qe.gym

    env = qe.gym.QeEnv(players=3, seat=2, opponents=["value", "random"], reward="score")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while True:
        obs, r, term, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term:
            break
        assert "returns" not in info
    assert info["returns"].tolist() == env.game.returns("score") and r == info["returns"][2]
    assert _game_over(obs) and not info["action_mask"].any()


def test_vector_env_keeps_the_final_observation_and_info_as_gymnasiums_own_vector_envs() -> None:
    """SAME_STEP autoreset as ``SyncVectorEnv`` of ``QeEnv`` does it: the same info keys, masks,
    shapes and dtypes; each finished env's ``final_obs`` is its game's last observation (game
    over) and its ``final_info`` QeEnv's last info, whose returns give the step's reward."""
    import gymnasium

    import qe.gym

    n = 6
    native = qe.gym.QeVectorEnv(n, players=4, seat=1, opponents="random", reward="score", seed=0)
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: qe.gym.QeEnv(players=4, seat=1, opponents="random", reward="score")] * n,
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    assert native.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]

    def layout(infos: dict) -> dict:
        return {
            k: layout(v) if isinstance(v, dict) else (v.shape, v.dtype) for k, v in infos.items()
        }

    rng = np.random.default_rng(7)
    envs = {"native": native, "sync": sync}
    seen: dict = {name: {} for name in envs}
    state = {name: env.reset(seed=2) for name, env in envs.items()}
    finished = 0
    for _ in range(120):
        for name, env in envs.items():
            infos = state[name][1]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
            obs, rewards, terms, _, infos = env.step(actions)
            state[name] = (obs, infos)
            if not terms.any():
                assert "final_obs" not in infos and "final_info" not in infos
                continue
            seen[name] = layout(infos)
            assert np.array_equal(infos["_final_obs"], terms)
            assert np.array_equal(infos["_final_info"], terms)
            final = infos["final_info"]
            for e in np.flatnonzero(terms):
                assert _game_over(infos["final_obs"][e]) and not _game_over(obs[e])
                assert infos["final_obs"][e].dtype == np.float32
                # The native env's rewards are float32 (QeEnv's, float64).
                assert rewards.dtype.type(final["returns"][e][1]) == rewards[e]
                if name == "native":
                    finished += 1
                    assert np.array_equal(infos["final_obs"][e], native._env.last_observation(int(e)))
                    assert final["returns"][e].tolist() == native._env.last_returns(int(e))
            for e in np.flatnonzero(terms):
                # QeEnv's last info: the game is over, nothing is legal.
                assert not final["action_mask"][e].any()
            for e in np.flatnonzero(~terms):
                assert infos["final_obs"][e] is None and (final["returns"][e] == 0).all()
    assert finished >= n and seen["native"] and seen["native"] == seen["sync"]


def test_vector_env_last_observation_is_the_finished_games_for_every_seat() -> None:
    env = qe.VectorEnv(4, players=3, seed=1, all_seats=True)
    assert all(env.last_observation(e) is None for e in range(4))
    with pytest.raises(IndexError, match="env 4 out of range 0..4"):
        env.last_observation(4)
    obs, masks = env.observe()
    rng = np.random.default_rng(0)
    ended = 0
    while ended < 8:
        before = obs.copy()
        actions = np.array([[rng.choice(np.flatnonzero(m)) for m in env_masks] for env_masks in masks])
        obs, masks, _, done = env.step(actions)
        for e in np.flatnonzero(done):
            ended += 1
            last = env.last_observation(int(e))
            assert last.shape == (3, qe.OBS_SIZE) and last.dtype == np.float32
            for s in range(3):
                assert _game_over(last[s]) and not _game_over(before[e, s])
            # Each seat's row is its own view: the seats' rows differ.
            assert not np.array_equal(last[0], last[1])
    env.reset()
    assert env.last_observation(0) is None


def test_vector_env_arrays_are_the_callers_to_keep() -> None:
    """The native env reuses its buffers; the gymnasium form hands out copies, so what a caller
    kept from one call is not changed by the next."""
    import qe.gym

    env = qe.gym.QeVectorEnv(2, players=3, opponents="random", seed=1)
    obs, infos = env.reset(seed=1)
    kept = (obs.copy(), infos["action_mask"].copy())
    rng = np.random.default_rng(0)
    changed = 0
    while changed < 2:  # until a later step's observation and mask both differ from the kept ones
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        later, later_infos = env.step(actions)[::4]
        changed = int(not np.array_equal(later, kept[0])) + int(
            not np.array_equal(later_infos["action_mask"], kept[1])
        )
    assert np.array_equal(obs, kept[0]) and np.array_equal(infos["action_mask"], kept[1])


def test_vector_env_rewards_and_terminations_are_the_callers_to_keep() -> None:
    import qe.gym

    env = qe.gym.QeVectorEnv(4, players=3, opponents="random", seed=1)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        _, rewards, terms, _, _ = env.step(actions)
        if terms.any() and rewards.any():
            break
    else:
        pytest.fail("no game ended with a reward in 10,000 steps")
    kept = (rewards.copy(), terms.copy())
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
    env.step(actions)
    assert np.array_equal(rewards, kept[0]) and np.array_equal(terms, kept[1])


def test_single_agent_env_bots_draw_independently() -> None:
    """Each bot seat has its own seed. In turn 0 every bot that is not the auctioneer faces the
    same choices, so random bots sharing one seed would always bid alike."""
    import qe.gym

    differ = 0
    for seed in range(10):
        env = qe.gym.QeEnv(players=4, seat=0, opponents="random")
        env.reset(seed=seed)
        env.step(int(np.flatnonzero(env.action_masks())[0]))  # seat 0 opens turn 0
        sealed = env.game.commands()[1:4]
        assert [c["seat"] for c in sealed] == [1, 2, 3]
        differ += len({c["bid"] for c in sealed}) > 1
    assert differ >= 3


def test_single_agent_env_gives_each_other_seat_its_listed_bot() -> None:
    """``opponents=[...]`` lists the other seats' bots in seat order: seat 1, the first listed, is
    the miser (which draws nothing at random), checked command by command."""
    import qe.bots
    import qe.gym

    env = qe.gym.QeEnv(players=4, seat=0, opponents=["miser", "value", "random"])
    miser = qe.bots.Bot("miser")
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        over = False
        while not over:
            _, _, over, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        replay = qe.Game(4, seed=env.game.seed)
        checked = 0
        for c in env.game.commands():
            if c["seat"] == 1:
                assert miser.command(replay, 1) == c
                checked += 1
            replay.apply(c)
        assert checked >= 16


def test_single_agent_env_keeps_its_options_across_resets() -> None:
    import qe.gym

    ladder = qe.BidLadder([0, 3, 9, 27])
    env = qe.gym.QeEnv(players=5, seat=4, peeks=True, ladder=ladder, expansions=("commodities",))
    for seed in (0, 1):
        env.reset(seed=seed)
        g = env.game
        assert g.peeks and g.ladder == ladder and list(g.expansions) == ["commodities"]
        assert len(env.action_masks()) == env.action_space.n == g.num_actions


def test_the_learner_is_asked_after_every_bot_that_must_act() -> None:
    """QeEnv and QeVectorEnv alike: when the learner is asked, every other seat that had to act
    has acted, so the learner is the only seat to act (its observation's ``to_act`` block)."""
    import qe.gym

    offset, length = next((o, n) for name, o, n in qe.observation_blocks() if name == "to_act")
    seat = 1
    only_learner = np.zeros(length, np.float32)
    only_learner[seat] = 1
    rng = np.random.default_rng(3)
    single = qe.gym.QeEnv(players=4, seat=seat, opponents="random")
    obs, info = single.reset(seed=5)
    vector = qe.gym.QeVectorEnv(3, players=4, seat=seat, opponents="random", seed=5)
    vobs, vinfos = vector.reset(seed=5)
    for _ in range(60):
        assert np.array_equal(obs[offset : offset + length], only_learner)
        assert single.game.to_act == [seat]
        for row in vobs:
            assert np.array_equal(row[offset : offset + length], only_learner)
        obs, _, term, _, info = single.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term:
            obs, info = single.reset()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vinfos["action_mask"]])
        vobs, _, _, _, vinfos = vector.step(actions)


class _RandomLegal:
    """A policy for the examples' evaluation loops: a random legal action, from a generator seeded
    ``seed``; ``restart`` draws the same choices again."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.restart()

    def restart(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def __call__(self, obs: object, mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


def _returns_again(env: Any, policy: _RandomLegal, games: int, first_seed: int) -> list[float]:
    """Seat 0's ``returns`` of ``games`` games of ``env`` from the seeds ``first_seed``,
    ``first_seed + 1``, ..., played by ``policy`` with its choices drawn again from the start:
    what an example's evaluation of the same games must add up."""
    policy.restart()
    returns = []
    for g in range(games):
        env.reset(seed=first_seed + g)
        done = False
        while not done:
            _, _, done, _, info = env.step(policy(None, env.action_masks()))
        returns.append(info["returns"][0])
    return returns


def test_the_maskable_ppo_example_counts_a_shared_win_as_its_share() -> None:
    """``examples/python/maskable_ppo.py``'s ``win_rate`` (what it prints for the trained and the
    random policy) is the mean of the games' ``"win"`` returns: a win shared by ``k`` seats
    counts ``1/k``. Its training needs torch; this part does not."""
    import importlib.util
    import pathlib

    import qe.gym

    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("maskable_ppo_example", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)

    random_legal = _RandomLegal(0)
    env = qe.gym.QeEnv(players=4, seat=0, opponents="random")
    games = 400
    rate = example.win_rate(env, random_legal, games, 50)
    returns = _returns_again(env, random_legal, games, 50)
    assert rate == pytest.approx(sum(returns) / games) and 0 < rate < 1

    class SharedWins:
        """Every game ends at its first step, won by three seats (shared wins are rare in play)."""

        def reset(self, seed: int) -> tuple:
            return np.zeros(qe.OBS_SIZE, np.float32), {}

        def action_masks(self) -> np.ndarray:
            return np.ones(4, bool)

        def step(self, action: int) -> tuple:
            return np.zeros(qe.OBS_SIZE, np.float32), 1 / 3, True, False, {}

    assert example.win_rate(SharedWins(), random_legal, 9, 0) == pytest.approx(1 / 3)


def _transcripts(mode: str, n: int, steps: int) -> dict:
    """Each env's transcript under autoreset `mode`: (observation, reward, terminated) as the
    policy meets them, with every game's last observation and its first, each env's actions drawn
    from (env, its decision count) only, so every mode plays the same games."""
    from gymnasium.vector import AutoresetMode

    import qe.gym

    env = qe.gym.QeVectorEnv(
        n, players=3, seat=2, opponents="random", seed=4, autoreset_mode=AutoresetMode(mode)
    )
    assert env.metadata["autoreset_mode"] == AutoresetMode(mode)
    assert type(env).metadata["autoreset_mode"] == AutoresetMode.SAME_STEP  # the class's default
    obs, infos = env.reset(seed=9)
    out: dict = {e: [(obs[e].tobytes(), 0.0, False)] for e in range(n)}
    decided = [0] * n
    resetting = np.zeros(n, bool)  # NEXT_STEP: the envs whose next step starts a new game
    for _ in range(steps):
        actions = np.zeros(n, np.int64)
        for e in range(n):
            if resetting[e]:
                actions[e] = 10**6  # ignored: the env starts its next game
                continue
            legal = np.flatnonzero(infos["action_mask"][e])
            actions[e] = np.random.default_rng([e, decided[e]]).choice(legal)
            decided[e] += 1
        obs, rewards, terms, truncs, infos = env.step(actions)
        assert not truncs.any()
        for e in range(n):
            if mode == "SameStep" and terms[e]:
                out[e].append((infos["final_obs"][e].tobytes(), float(rewards[e]), True))
                out[e].append((obs[e].tobytes(), 0.0, False))
            else:
                out[e].append((obs[e].tobytes(), float(rewards[e]), bool(terms[e])))
            if mode != "SameStep" and terms[e]:
                assert _game_over(obs[e]) and not infos["action_mask"][e].any()
                assert infos["_returns"][e] and infos["returns"][e][2] == rewards[e]
        if mode == "NextStep":
            resetting = terms.copy()
        elif mode == "Disabled" and terms.any():
            with pytest.raises(RuntimeError, match=r"env \d+'s game is over and autoreset_mode is DISABLED"):
                env.step(actions)
            obs, infos = env.reset(options={"reset_mask": terms.copy()})
            for e in np.flatnonzero(terms):
                out[e].append((obs[e].tobytes(), 0.0, False))
    return out


def test_vector_env_autoreset_modes_play_the_same_games() -> None:
    """NEXT_STEP, SAME_STEP and DISABLED as gymnasium's vector envs define them: each env's
    games are the same, and the last observation of a game (in the step that ends it for
    NEXT_STEP and DISABLED, in ``final_obs`` for SAME_STEP) is followed by the first of the next
    (NEXT_STEP: at the next step, reward 0 and not terminated, the action ignored; DISABLED:
    from ``reset(options={"reset_mask": ...})``; SAME_STEP: in the same step)."""
    n = 5
    same = _transcripts("SameStep", n, 150)
    assert sum(t[2] for v in same.values() for t in v) >= n  # every mode crosses game ends
    for mode in ("NextStep", "Disabled"):
        other = _transcripts(mode, n, 150)
        for e in range(n):
            k = min(len(same[e]), len(other[e]))
            assert k > 100 and other[e][:k] == same[e][:k], (mode, e)


@pytest.mark.parametrize("mode", ["NextStep", "Disabled"])
def test_vector_env_autoreset_infos_are_gymnasiums(mode: str) -> None:
    """The info keys, masks and dtypes of a step that ends games are those of SyncVectorEnv of
    QeEnv in the same mode."""
    import gymnasium
    from gymnasium.vector import AutoresetMode

    import qe.gym

    n = 4
    kw = dict(players=3, seat=0, opponents="random")
    native = qe.gym.QeVectorEnv(n, seed=0, autoreset_mode=mode, **kw)  # type: ignore[arg-type]
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: qe.gym.QeEnv(**kw)] * n, autoreset_mode=AutoresetMode(mode)  # type: ignore[arg-type]
    )
    assert native.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]

    def layout(infos: dict) -> dict:
        return {k: (v.shape, v.dtype.kind) for k, v in infos.items() if k != "returns"}

    seen = {}
    for name, env in (("native", native), ("sync", sync)):
        _, infos = env.reset(seed=1)
        for _ in range(200):
            actions = np.array([np.flatnonzero(m)[-1] if m.any() else 0 for m in infos["action_mask"]])
            _, _, terms, _, infos = env.step(actions)
            if terms.any():
                seen[name] = layout(infos)
                assert set(infos) >= {"returns", "_returns", "action_mask", "_action_mask"}
                assert np.array_equal(infos["_returns"], terms)
                break
    assert seen["native"] == seen["sync"]


def test_vector_env_reset_mask_is_checked_as_gymnasiums() -> None:
    import qe.gym

    env = qe.gym.QeVectorEnv(3, opponents="random", autoreset_mode="Disabled")
    with pytest.raises(RuntimeError, match=r"before reset\(\)"):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    env.reset(seed=1)
    with pytest.raises(TypeError, match=r"reset_mask'\] must be a numpy array, got list \[True"):
        env.reset(options={"reset_mask": [True, False, False]})
    with pytest.raises(ValueError, match=r"must have shape \(3,\), got \(2,\)"):
        env.reset(options={"reset_mask": np.ones(2, bool)})
    with pytest.raises(TypeError, match=r"must have dtype bool, got int64"):
        env.reset(options={"reset_mask": np.ones(3, np.int64)})
    with pytest.raises(ValueError, match=r"must mark at least one env"):
        env.reset(options={"reset_mask": np.zeros(3, bool)})
    with pytest.raises(ValueError, match=r"a seed re-seeds every env"):
        env.reset(seed=2, options={"reset_mask": np.ones(3, bool)})
    with pytest.raises(ValueError, match=r"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of \['NextStep', 'SameStep', 'Disabled'\], got 'sometimes'"):
        qe.gym.QeVectorEnv(2, autoreset_mode="sometimes")
    # A masked reset in SAME_STEP mode starts those envs' next game too.
    same = qe.gym.QeVectorEnv(3, opponents="random")
    first, _ = same.reset(seed=1)
    first = first.copy()
    again, _ = same.reset(options={"reset_mask": np.array([False, True, False])})
    assert np.array_equal(again[[0, 2]], first[[0, 2]]) and not np.array_equal(again[1], first[1])


def test_vector_env_observations_go_to_dlpack_consumers_without_a_copy() -> None:
    """The README's snippet: ``torch.from_dlpack(obs)`` / ``jax.dlpack.from_dlpack`` read numpy's
    ``__dlpack__``; numpy's own reader shows the memory is shared (no torch needed)."""
    import qe.gym

    env = qe.gym.QeVectorEnv(2, opponents="random")
    obs, _ = env.reset(seed=0)
    view = np.from_dlpack(obs)
    assert np.shares_memory(view, obs) and view.shape == obs.shape and view.dtype == np.float32


def test_the_train_example_counts_wins_and_their_wilson_interval() -> None:
    """``examples/python/train.py``'s evaluation (``play``: the learner's summed ``"win"``
    returns, a shared win counting ``1/k``) and its 95% Wilson interval. Its training needs
    torch; this part does not."""
    import importlib.util
    import pathlib

    import qe.gym

    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "train.py"
    spec = importlib.util.spec_from_file_location("train_example", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)

    lo, hi = example.wilson(50, 100)
    assert (lo, hi) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    lo, hi = example.wilson(0, 200)
    assert lo == 0.0 and hi == pytest.approx(0.0188, abs=1e-4)

    random_legal = _RandomLegal(0)
    env = example.make_env("random", "default", "win")
    games = 100
    wins = example.play(env, random_legal, games, 50)
    returns = _returns_again(env, random_legal, games, 50)
    assert wins == pytest.approx(sum(returns)) and 0 < wins < games
    ladder = example.ladder_of("0,1,2,4,8")
    assert ladder is not None and example.ladder_of("default") is None
