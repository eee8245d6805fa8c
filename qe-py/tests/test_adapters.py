"""PettingZoo and OpenSpiel peer suites, and qe.VectorEnv semantics."""

from __future__ import annotations

import warnings
from typing import Optional

import numpy as np
import pytest

import qe


# ----- PettingZoo ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"players": 5, "commodities": True},
        {"players": 5, "peeks": True},
        {"players": 3, "reward": "score"},
    ],
)
def test_pettingzoo_api(kw: dict) -> None:
    from pettingzoo.test import api_test, parallel_api_test

    import qe.pettingzoo as qp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(qp.env(**kw), num_cycles=200)
        parallel_api_test(qp.parallel_env(**kw), num_cycles=200)


def test_pettingzoo_seed() -> None:
    from pettingzoo.test import parallel_seed_test, seed_test

    import qe.pettingzoo as qp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(qp.env)
        parallel_seed_test(qp.parallel_env)


def test_pettingzoo_rewards_at_the_end() -> None:
    import qe.pettingzoo as qp

    env = qp.parallel_env(players=4)
    obs, _ = env.reset(seed=3)
    total = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    while env.agents:
        actions = {}
        for a in env.agents:
            legal = np.flatnonzero(obs[a]["action_mask"])
            actions[a] = int(rng.choice(legal)) if len(legal) else 0
        obs, rew, term, _, _ = env.step(actions)
        for a, r in rew.items():
            total[a] += r
    assert sum(total.values()) in (0.0, pytest.approx(1.0))
    with pytest.raises(qe.IllegalCommand):
        e = qp.env(illegal="raise")
        e.reset(seed=1)
        e.step(0)  # the opening bid must be at least 1


def _peek_action(mask: np.ndarray, ladder_len: int) -> Optional[int]:
    """The first legal peek action of a mask row (actions past the ladder and the 3 piles)."""
    peeks = np.flatnonzero(mask[ladder_len + 3 :])
    return ladder_len + 3 + int(peeks[0]) if len(peeks) else None


def test_pettingzoo_peeks_keep_the_seat_to_act() -> None:
    """R-VIS-5 through both adapters: a peek is an action of a seat that must act; it sees the
    price afterwards, everyone sees that it peeked, and it still has to act."""
    import qe.pettingzoo as qp

    assert qp.env(players=5).action_space("seat_0").n == 15
    assert qp.env(players=5, peeks=True).action_space("seat_0").n == 31
    rng = np.random.default_rng(4)
    aec = qp.env(players=5, peeks=True)
    aec.reset(seed=8)
    peeked = False
    while not peeked:
        agent = aec.agent_selection
        seat = aec.possible_agents.index(agent)
        mask = aec.observe(agent)["action_mask"]
        peek = _peek_action(mask, 12)
        if peek is not None:
            aec.step(peek)
            assert aec.agent_selection == agent  # still to act
            assert aec.game.view(seat).seats[seat].peeked == peek - 15
            assert aec.game.view((seat + 1) % 5).seats[seat].peeked == peek - 15
            assert _peek_action(aec.observe(agent)["action_mask"], 12) is None  # once per game
            peeked = True
        else:
            legal = np.flatnonzero(mask[:15])
            aec.step(int(rng.choice(legal)))
    par = qp.parallel_env(players=5, peeks=True)
    obs, _ = par.reset(seed=8)
    peeks = 0
    while par.agents:
        acting = par.game.to_act
        actions = {}
        for a in par.agents:
            mask = obs[a]["action_mask"]
            peek = _peek_action(mask, 12)
            legal = np.flatnonzero(mask[:15])
            actions[a] = peek if peek is not None else (int(rng.choice(legal)) if len(legal) else 0)
        peekers = [s for s in acting if actions[f"seat_{s}"] >= 15]
        obs, _, _, _, _ = par.step(actions)
        peeks += len(peekers)
        for s in peekers:
            if par.agents:
                assert s in par.game.to_act  # still to act after its peek
    assert peeks == 5  # every seat peeked once


# ----- OpenSpiel ----------------------------------------------------------------------------------


def test_openspiel_random_sim() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    for params in (
        {"players": 3, "ladder": "0,1,3"},
        {"players": 4},
        {"players": 5, "commodities": True},
        {"players": 5, "peeks": True},
    ):
        game = pyspiel.load_game("python_qe", params)
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_peeks() -> None:
    """With ``peeks`` (5 players), a peek is a legal action of a seat that must act; after it the
    seat still has to act, and the peeked price shows in its observation."""
    import pyspiel

    import qe.openspiel  # noqa: F401

    assert pyspiel.load_game("python_qe", {"players": 5}).num_distinct_actions() == 16
    game = pyspiel.load_game("python_qe", {"players": 5, "peeks": True})
    assert game.num_distinct_actions() == 32
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        players = range(5) if state.is_simultaneous_node() else [state.current_player()]
        peekers = [p for p in players if any(a >= 15 and a < 31 for a in state.legal_actions(p))]
        if peekers:
            break
        if state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(5)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    p = peekers[0]
    peek = next(a for a in state.legal_actions(p) if a >= 15)
    assert state.action_to_string(p, peek) == f"peek:{peek - 15}"
    before = state.observation_tensor(p)
    if state.is_simultaneous_node():
        acts = [state.legal_actions(q)[0] for q in range(5)]
        acts[p] = peek
        state.apply_actions(acts)
    else:
        state.apply_action(peek)
    assert state.observation_tensor(p) != before
    assert any(a < 15 for a in state.legal_actions(p))  # still to act, no second peek
    assert not any(15 <= a < 31 for a in state.legal_actions(p))


def test_openspiel_tensors_and_chance() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 4, "commodities": True})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 24
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0
    state.apply_action(state.legal_actions(0)[0])
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) == [game.num_distinct_actions() - 1]  # PASS
    obs = state.observation_tensor(1)
    info = state.information_state_tensor(1)
    assert len(obs) == len(info) == qe.OBS_SIZE
    assert game.observation_tensor_shape() == [qe.OBS_SIZE]


def test_openspiel_mcts_on_small_configuration() -> None:
    """MCTS (few simulations) on the turn-based conversion of a 3-player, 3-rung game."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import qe.openspiel  # noqa: F401

    game = pyspiel.convert_to_turn_based(
        pyspiel.load_game("python_qe", {"players": 3, "ladder": "0,1,3"})
    )
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))


# ----- VectorEnv ----------------------------------------------------------------------------------


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.random(masks.shape) + masks  # legal actions score > 1
    return np.argmax(noise, axis=-1)


def test_vector_env_multi_agent() -> None:
    env = qe.VectorEnv(8, players=4, seed=1)
    obs, masks = env.reset()
    assert obs.shape == (8, 4, qe.OBS_SIZE) and masks.shape == (8, 4, env.num_actions)
    rng = np.random.default_rng(0)
    finished = 0
    reward_sum = 0.0
    for _ in range(400):
        obs, masks, rewards, done = env.step(_random_actions(masks, rng))
        finished += int(done.sum())
        reward_sum += float(rewards.sum())
        assert rewards[~done].sum() == 0
        # Auto-reset: every env has a seat to act.
        assert (masks.sum(axis=(1, 2)) > 0).all()
    assert finished == env.episodes > 0
    assert env.decisions > 0
    assert reward_sum <= finished + 1e-4


def test_vector_env_is_deterministic_and_rejects_illegal_actions() -> None:
    a = qe.VectorEnv(4, players=3, seed=9)
    b = qe.VectorEnv(4, players=3, seed=9)
    rng = np.random.default_rng(1)
    for _ in range(50):
        acts = _random_actions(a.observe()[1], rng)
        oa = a.step(acts)[0].copy()
        ob = b.step(acts)[0]
        assert np.array_equal(oa, ob)
    obs_before = a.observe()[0].copy()
    masks_before = a.observe()[1].copy()
    decisions = a.decisions
    bad = np.full((4, 3), 10_000)
    with pytest.raises(ValueError):
        a.step(bad)
    with pytest.raises(ValueError):
        a.step(np.zeros((3, 3)))
    # One illegal action among legal ones: typed error naming the env and seat, nothing applied.
    acts = _random_actions(masks_before, rng)
    e, s = map(int, np.argwhere(masks_before.any(axis=-1))[-1])
    acts[e, s] = int(np.flatnonzero(masks_before[e, s] == 0)[0])
    with pytest.raises(qe.IllegalCommand) as err:
        a.step(acts)
    assert (err.value.env, err.value.seat) == (e, s)  # type: ignore[attr-defined]
    assert np.array_equal(a.observe()[0], obs_before)
    assert np.array_equal(a.observe()[1], masks_before)
    assert a.decisions == decisions
    # `b` went through the same steps: the failed calls changed nothing. Other integer dtypes and
    # nested lists are converted (int64 arrays are read as they are).
    ok = _random_actions(masks_before, rng)
    oa = a.step(ok.astype(np.int32))[0].copy()
    ob = b.step(ok.tolist())[0]
    assert np.array_equal(oa, ob)


def test_vector_env_without_zeroing_writes_only_the_acting_rows() -> None:
    a = qe.VectorEnv(6, players=4, seed=11)
    b = qe.VectorEnv(6, players=4, seed=11, zero_others=False)
    rng = np.random.default_rng(3)
    masks = a.observe()[1]
    for _ in range(120):
        before = b.observe()[0].copy()
        acts = _random_actions(masks, rng)
        oa, masks, ra, da = a.step(acts)
        ob, mb, rb, db = b.step(acts)
        assert np.array_equal(masks, mb) and np.array_equal(ra, rb) and np.array_equal(da, db)
        acting = masks.any(axis=-1)
        assert np.array_equal(oa[acting], ob[acting])
        assert not oa[~acting].any()  # zeroed by default
        assert np.array_equal(ob[~acting], before[~acting])  # left as they were
    assert a.episodes == b.episodes > 0


def test_vector_env_with_peeks() -> None:
    """5 players with the peek actions (R-VIS-5): a peek is a decision that leaves the seat to act."""
    env = qe.VectorEnv(4, players=5, seed=3, peeks=True)
    assert env.peeks and env.num_actions == 12 + 3 + 16
    assert qe.VectorEnv(1, players=5).num_actions == 15
    obs, masks = env.reset()
    rng = np.random.default_rng(5)
    peeks = 0
    for _ in range(300):
        acts = _random_actions(masks, rng)
        # Prefer a legal peek: the first one in each row that has one.
        for e in range(4):
            for s in range(5):
                p = _peek_action(masks[e, s], 12)
                if p is not None:
                    acts[e, s] = p
                    peeks += 1
        before = masks.copy()
        decisions = env.decisions
        obs, masks, rewards, done = env.step(acts)
        assert env.decisions - decisions == int(before.any(axis=-1).sum())  # peeks count too
        for e in range(4):
            for s in range(5):
                if acts[e, s] >= 15 and before[e, s].any() and not done[e]:
                    assert masks[e, s].any()  # the peeker still has to act
    assert peeks > 0 and env.episodes > 0


@pytest.mark.parametrize("opponents", ["random", "miser", "value"])
def test_vector_env_with_opponents(opponents: str) -> None:
    env = qe.VectorEnv(16, players=4, commodities=True, seed=2, opponents=opponents, seat=1)
    obs, masks = env.reset()
    assert obs.shape == (16, qe.OBS_SIZE) and masks.shape == (16, env.num_actions)
    assert (masks.sum(axis=1) > 0).all()
    rng = np.random.default_rng(0)
    for _ in range(300):
        obs, masks, rewards, done = env.step(_random_actions(masks, rng))
        assert rewards.shape == (16,)
        assert (masks.sum(axis=1) > 0).all()
        # the learner's own seat is marked in the observation
        me = dict((n, o) for n, o, _ in qe.observation_blocks())["me"]
        assert (obs[:, me + 1] == 1).all()
    assert env.episodes > 0
    with pytest.raises(ValueError):
        qe.VectorEnv(1, opponents="genius")
