"""PettingZoo and OpenSpiel peer suites, and qe.VectorEnv semantics."""

from __future__ import annotations

import json
import re
import warnings
from typing import Any, Dict, Optional, Tuple

import numpy as np
import pytest

import qe


# ----- PettingZoo ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"players": 5, "expansions": ("commodities",)},
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


def test_pettingzoo_every_live_agent_has_a_legal_action_and_idle_ones_wait() -> None:
    """Both envs: each observation of each live agent has at least one legal action; a seat with
    nothing to do has exactly the wait action, which the env ignores; an acting seat never has it."""
    import qe.pettingzoo as qp

    rng = np.random.default_rng(7)
    par = qp.parallel_env(players=5, expansions=("commodities",))
    assert par.expansions == ("commodities",) and par.game.commodities
    obs, _ = par.reset(seed=2)
    wait = par.wait_action
    steps = 0
    while par.agents:
        acting = set(par.game.to_act)
        actions = {}
        for a in par.agents:
            mask = obs[a]["action_mask"]
            assert mask.sum() >= 1
            s = int(a.split("_")[1])
            assert (mask[wait] == 1) == (s not in acting)
            if s not in acting:
                assert mask.sum() == 1
            actions[a] = int(rng.choice(np.flatnonzero(mask)))
        obs, _, _, _, _ = par.step(actions)
        steps += 1
    assert steps > 16
    aec = qp.env(players=4, expansions=("commodities",))
    aec.reset(seed=3)
    for agent in aec.agent_iter():
        ob, _, term, trunc, _ = aec.last()
        for other in aec.agents:
            assert aec.observe(other)["action_mask"].sum() >= 1
        if term or trunc:
            aec.step(None)
            continue
        assert ob["action_mask"][-1] == 0  # the selected agent must act
        aec.step(int(rng.choice(np.flatnonzero(ob["action_mask"]))))


def test_pettingzoo_wrappers_and_state() -> None:
    from pettingzoo.utils import wrappers

    import qe.pettingzoo as qp

    e = qp.env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    with pytest.raises(Exception):
        e.step(0)  # before reset: OrderEnforcingWrapper refuses
    e.reset(seed=1)
    with pytest.raises(AssertionError):
        e.step(99)  # out of the action space
    raw = e.unwrapped
    state = raw.state()
    assert state.shape == raw.state_space.shape == (4 * qe.OBS_SIZE,) and state.dtype == np.float32
    game = raw.game
    for s in range(4):
        assert np.array_equal(state[s * qe.OBS_SIZE : (s + 1) * qe.OBS_SIZE], game.observation(s))
    par = qp.parallel_env(players=3)
    par.reset(seed=1)
    assert par.state().shape == (3 * qe.OBS_SIZE,)
    with pytest.raises(ValueError, match="unknown reward \"wins\""):
        qp.parallel_env(reward="wins")


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


def test_pettingzoo_idle_agents_get_masks_of_their_own() -> None:
    """Each observation's mask is its own array: a caller that edits one in place changes no other
    agent's mask, now or at the next step (the env keeps its wait mask as it was)."""
    import qe.pettingzoo as qp

    env = qp.parallel_env(players=4)
    obs, _ = env.reset(seed=0)
    idle = [a for a in env.agents if obs[a]["action_mask"][env.wait_action] == 1]
    assert len(idle) >= 2
    obs[idle[0]]["action_mask"][:] = 0
    assert obs[idle[1]]["action_mask"][env.wait_action] == 1
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if a not in idle else env.wait_action for a in env.agents}
    obs, _, _, _, _ = env.step(actions)
    assert all(obs[a]["action_mask"].sum() >= 1 for a in env.agents)


@pytest.mark.parametrize("reward", ["win", "score"])
def test_pettingzoo_final_rewards_are_the_games_returns(reward: str) -> None:
    """Both envs pay each agent, at the end, the game's return of its seat for the env's reward."""
    import qe.pettingzoo as qp

    rng = np.random.default_rng(4)
    par = qp.parallel_env(players=3, reward=reward)
    obs, _ = par.reset(seed=1)
    total = {a: 0.0 for a in par.possible_agents}
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, rew, _, _, _ = par.step(actions)
        for a, r in rew.items():
            total[a] += r
    expected = par.game.returns(reward)
    assert [total[f"seat_{s}"] for s in range(3)] == pytest.approx(expected)
    assert expected != par.game.returns("score" if reward == "win" else "win")
    aec = qp.env(players=3, reward=reward)
    aec.reset(seed=1)
    got = {a: 0.0 for a in aec.possible_agents}
    for agent in aec.agent_iter():
        ob, r, term, trunc, _ = aec.last()
        got[agent] += r
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(ob["action_mask"]))))
    assert [got[f"seat_{s}"] for s in range(3)] == pytest.approx(aec.unwrapped.game.returns(reward))


def test_pettingzoo_aec_selects_the_lowest_seat_that_must_act() -> None:
    """As documented: when several seats bid at once, ``agent_selection`` is the lowest of them."""
    import qe.pettingzoo as qp

    e = qp.raw_env(players=4)
    e.reset(seed=0)
    seen = 0
    while not e.game.is_over:
        acting = e.game.to_act
        if len(acting) > 1:
            seen += 1
        assert e.agent_selection == f"seat_{min(acting)}"
        ob = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(ob["action_mask"])[0]))
    assert seen > 10


def _peek_action(mask: np.ndarray, ladder_len: int) -> Optional[int]:
    """The first legal peek action of a mask row (actions past the ladder and the 3 piles)."""
    peeks = np.flatnonzero(mask[ladder_len + 3 :])
    return ladder_len + 3 + int(peeks[0]) if len(peeks) else None


def test_pettingzoo_peeks_keep_the_seat_to_act() -> None:
    """R-VIS-5 through both adapters: a peek is an action of a seat that must act; it sees the
    price afterwards, everyone sees that it peeked, and it still has to act."""
    import qe.pettingzoo as qp

    assert qp.env(players=5).action_space("seat_0").n == 15 + 1  # the wait action last
    assert qp.env(players=5, peeks=True).action_space("seat_0").n == 31 + 1
    rng = np.random.default_rng(4)
    aec = qp.env(players=5, peeks=True)
    aec.reset(seed=8)
    peeked = False
    while not peeked:
        agent = aec.agent_selection
        seat = aec.possible_agents.index(agent)
        mask = aec.observe(agent)["action_mask"][:-1]
        peek = _peek_action(mask, 12)
        if peek is not None:
            aec.step(peek)
            assert aec.agent_selection == agent  # still to act
            game = aec.unwrapped.game
            assert game.view(seat).seats[seat].peeked == peek - 15
            assert game.view((seat + 1) % 5).seats[seat].peeked == peek - 15
            assert _peek_action(aec.observe(agent)["action_mask"][:-1], 12) is None  # once per game
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
            mask = obs[a]["action_mask"][:-1]
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
        {"players": 5, "expansions": "commodities"},
        {"players": 3, "expansions": "commodities", "ladder": "0:2:5"},
        {"players": 5, "peeks": True},
    ):
        game = pyspiel.load_game("python_qe", params)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


_PARAMS = [
    {},
    {"players": 3},
    {"players": 5, "peeks": True},
    {"commodities": True},
    {"expansions": "commodities"},
    {"expansions": ""},
    {"ladder": "0,1,3"},
    {"ladder": "0:1:2:4:8:16"},
    {"players": 5, "commodities": True, "ladder": "0:5:10", "peeks": True, "expansions": "commodities"},
]


@pytest.mark.parametrize("params", _PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_openspiel_game_string_round_trips(params: dict) -> None:
    """``load_game(str(game))`` is the same game for every parameter combination (lists are
    joined by ':', which the game-string parser keeps inside one parameter)."""
    import pyspiel

    import qe.openspiel as qo

    game = pyspiel.load_game("python_qe", params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.get_parameters() == game.get_parameters()
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert again.num_players() == game.num_players()
    a, b = game.new_initial_state(), again.new_initial_state()
    assert isinstance(a, qo.QeOpenSpielState) and isinstance(b, qo.QeOpenSpielState)
    assert a.qe.expansions == b.qe.expansions and a.qe.ladder == b.qe.ladder
    assert a.qe.peeks == b.qe.peeks
    # The string names the expansions by the set: the deprecated commodities flag is written False,
    # so that loading the string again does not warn.
    assert "commodities=False" in str(game)
    assert f"expansions={':'.join(a.qe.expansions)}," in str(game)


def test_openspiel_bad_parameters_name_the_value() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    with pytest.raises(Exception, match="unknown expansion"):
        pyspiel.load_game("python_qe", {"expansions": "gold rush"})
    with pytest.raises(Exception, match="ladder must be whole amounts joined by ':', got '0:x'"):
        pyspiel.load_game("python_qe", {"ladder": "0:x"})


def _play_to_simultaneous_bid(state, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    while not state.is_simultaneous_node():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "ladder, own_bids",
    [
        (None, (1, 2)),
        # Neighbours whose squashed amounts x / (x + 10) round to one float32: the information
        # state holds every amount exactly as well.
        ("0:1:2:40000:40001:50000:60000", (3, 4)),
        ("geometric", (36, 37)),
    ],
)
def test_openspiel_information_state_has_perfect_recall(ladder: Optional[str], own_bids: Tuple[int, int]) -> None:
    """Two histories that differ only in seat 1's own earlier secret bid, which seat 1 no longer
    sees in its view once the auction is over: the same observation, different information
    states. Another seat (not the auctioneer) cannot tell them apart."""
    import pyspiel

    import qe.openspiel  # noqa: F401

    params: Dict[str, Any] = {"players": 4}
    if ladder == "geometric":
        params["ladder"] = ":".join(map(str, qe.BidLadder.geometric(1, 2, 40).amounts))
    elif ladder is not None:
        params["ladder"] = ladder
    game = pyspiel.load_game("python_qe", params)
    states = []
    for own_bid in own_bids:
        rng = np.random.default_rng(0)
        s = game.new_initial_state()
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        s.apply_action(s.legal_actions(0)[-1])  # the auctioneer opens with the top rung
        assert s.is_simultaneous_node()
        # seat 1 bids rung own_bid, seats 2 and 3 rungs 3 and 5: seat 1 loses.
        s.apply_actions([game.num_distinct_actions() - 1, own_bid, 3, 5])
        _play_to_simultaneous_bid(s, rng)
        states.append(s)
    a, b = states
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_tensor(1) != b.information_state_tensor(1)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.information_state_tensor(2) == b.information_state_tensor(2)
    assert a.information_state_string(2) == b.information_state_string(2)
    assert len(a.information_state_tensor(1)) == qe.INFO_STATE_SIZE == qe.OBS_SIZE + qe.HISTORY_SIZE
    assert game.information_state_tensor_shape() == [qe.INFO_STATE_SIZE]
    assert game.observation_tensor_shape() == [qe.OBS_SIZE]


def test_openspiel_information_state_recalls_when_a_seat_peeked() -> None:
    """Seat 1 peeks at turn 0's price during turn 1 in one game, during turn 2 in the other
    (R-VIS-5): by turn 4 its view and observation are the same, but not its information-state
    tensor or string; the others see that it peeked (R-VIS-1), and when."""
    import types

    import qe.openspiel

    def played(peek_in: int) -> qe.Game:
        g = qe.Game(5, seed=2)
        while g.turn < 4:
            seat = g.to_act[0]
            if seat == 1 and g.turn == peek_in and g.view(1).seats[1].peeked is None:
                g.peek(1, 0)
            g.bid(seat, seat + 1 + g.turn)
        return g

    a, b = played(1), played(2)
    recall = qe.openspiel.QeObserver(True, None)
    assert a.observation(1).tolist() == b.observation(1).tolist()
    for seat in range(5):
        x, y = np.zeros(qe.INFO_STATE_SIZE, np.float32), np.zeros(qe.INFO_STATE_SIZE, np.float32)
        a.information_state_into(seat, x)
        b.information_state_into(seat, y)
        assert not np.array_equal(x, y), seat
        sa = recall.string_from(types.SimpleNamespace(qe=a), seat)  # type: ignore[arg-type]
        sb = recall.string_from(types.SimpleNamespace(qe=b), seat)  # type: ignore[arg-type]
        assert sa != sb and json.loads(sa)["peek_history"][0]["seat"] == 1


def test_openspiel_default_observer_is_the_observation() -> None:
    """OpenSpiel's ``make_observation`` without a type gets the current view (the observation
    tensor), not the perfect-recall information state; asking for perfect recall gets that."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe")
    default = make_observation(game)
    assert default.tensor.shape == (qe.OBS_SIZE,)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor.shape == (qe.INFO_STATE_SIZE,)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    default.set_from(state, 1)
    assert list(default.tensor) == state.observation_tensor(1)


def test_openspiel_outcome_sampling_mccfr_runs() -> None:
    """A few iterations of outcome-sampling MCCFR on the turn-based form of the smallest
    configuration (3 players, a 2-rung ladder). Full-tree CFR is out of reach (16 turns)."""
    import pyspiel
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    import qe.openspiel  # noqa: F401

    game = pyspiel.convert_to_turn_based(pyspiel.load_game("python_qe", {"players": 3, "ladder": "0:1"}))
    np.random.seed(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)


def test_openspiel_bots_play_a_game() -> None:
    import pyspiel

    import qe.bots
    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 4, "expansions": "commodities"})
    bots = [qe.bots.spiel_bot(game, p, name, seed=p) for p, name in enumerate(["value", "random", "miser", "value"])]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sum(returns) in (0.0, pytest.approx(1.0))


@pytest.mark.parametrize("players", [3, 5])
def test_openspiel_bots_play_the_turn_based_form(players: int) -> None:
    """On ``pyspiel.convert_to_turn_based`` of the game (the form MCCFR needs), a spiel bot
    decides as the bot of its name and seed on the seat's view at that node, plays PASS where its
    seat has nothing to do, and a whole game ends."""
    import pyspiel

    import qe.bots
    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": players, "expansions": "commodities"})
    tb = pyspiel.convert_to_turn_based(game)
    names = ["value", "random", "miser", "search:easy", "value"][:players]
    bots = [qe.bots.spiel_bot(tb, p, n, seed=p) for p, n in enumerate(names)]
    # The same bots, asked in the same order on the simultaneous game's state.
    twins = [qe.bots.Bot(n, seed=p) for p, n in enumerate(names)]
    state = tb.new_initial_state()
    passes = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        p = state.current_player()
        inner = state.simultaneous_game_state()
        want = twins[p].action(inner.qe, p)
        action = bots[p].step(state)
        if want is None:
            assert p not in inner.qe.to_act and action == game.pass_action
            passes += 1
        else:
            assert action == want
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert passes > 0 and decisions > 30
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))


def test_spiel_bot_checks_its_arguments_when_made() -> None:
    import pyspiel

    import qe.bots
    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 3})
    cases = [
        ((None, 0, "value"), TypeError, "game must be a python_qe game or pyspiel.convert_to_turn_based of one, got NoneType None"),
        ((pyspiel.load_game("goofspiel"), 0, "value"), TypeError, "got pyspiel.Game"),
        ((game, 3, "value"), ValueError, "player must be from 0 to 2, got 3"),
        ((game, -1, "value"), ValueError, "player must be from 0 to 2, got -1"),
        ((game, 2**70, "value"), ValueError, "player must be from 0 to 2, got 1180591620717411303424"),
        ((game, "a", "value"), TypeError, "player must be an int, got str 'a'"),
        ((game, True, "value"), TypeError, "player must be an int, got bool True"),
        ((game, 0, "nope"), ValueError, 'unknown bot "nope"'),
    ]
    for args, kind, message in cases:
        with pytest.raises(kind, match=re.escape(message)):
            qe.bots.spiel_bot(*args)
    tb = pyspiel.convert_to_turn_based(game)
    with pytest.raises(ValueError, match="player must be from 0 to 2, got 5"):
        qe.bots.spiel_bot(tb, 5, "value")
    assert qe.bots.spiel_bot(tb, 2, "value") is not None


def test_the_search_bot_is_a_pyspiel_bot() -> None:
    """``qe.bots.Search(level).spiel_bot(game, player)`` plays a whole OpenSpiel game."""
    import pyspiel

    import qe.bots
    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 3})
    bots = [qe.bots.Search("easy", seed=1).spiel_bot(game, 0)]
    bots += [qe.bots.Bot("value", seed=p).spiel_bot(game, p) for p in (1, 2)]
    assert isinstance(bots[0], pyspiel.Bot)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 4)
    assert sum(returns) in (0.0, pytest.approx(1.0))


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

    game = pyspiel.load_game("python_qe", {"players": 4, "expansions": "commodities"})
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
    assert len(obs) == qe.OBS_SIZE and len(info) == qe.INFO_STATE_SIZE
    assert info[: qe.OBS_SIZE] == obs
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


# Where the observation marks the observing seat (one float a seat).
_ME = dict((n, o) for n, o, _ in qe.observation_blocks())["me"]


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


def test_vector_env_every_game_of_a_batch_is_a_new_one() -> None:
    """Each env's k-th game has its own seed: env 0's second game is not env 1's first."""
    env = qe.VectorEnv(2, seed=5)
    obs, masks = env.observe()
    first_of_env1 = obs[1].copy()
    rng = np.random.default_rng(0)
    while True:
        obs, masks, _, done = env.step(_random_actions(masks, rng))
        if done[0]:
            break
    assert not np.array_equal(obs[0], first_of_env1)


def test_vector_env_all_seats_observes_the_seats_that_need_not_act() -> None:
    """With ``all_seats=True`` every row is its seat's observation, the idle seats' too
    (``zero_others`` left at its default)."""
    env = qe.VectorEnv(3, players=4, seed=2, all_seats=True)
    obs, masks = env.reset()
    rng = np.random.default_rng(0)
    idle_rows = 0
    for _ in range(30):
        for e in range(3):
            for s in range(4):
                assert obs[e, s, _ME + s] == 1, (e, s)
                idle_rows += int(masks[e, s, -1] == 1)
        obs, masks, _, _ = env.step(_random_actions(masks, rng))
    assert idle_rows > 0


def test_vector_env_last_observation_with_opponents_is_the_learners() -> None:
    seat = 1
    env = qe.VectorEnv(4, players=3, seed=1, opponents="random", seat=seat)
    rng = np.random.default_rng(0)
    masks = env.observe()[1]
    ended = 0
    while ended < 4:
        _, masks, _, done = env.step(_random_actions(masks, rng))
        for e in np.flatnonzero(done):
            last = env.last_observation(int(e))
            assert last.shape == (qe.OBS_SIZE,)
            assert last[_ME + seat] == 1 and last[_ME : _ME + 3].sum() == 1
            ended += 1


def test_vector_env_decisions_with_opponents_count_the_learners_only() -> None:
    """One decision an env a step: the bots' moves are not counted."""
    env = qe.VectorEnv(4, players=4, seed=3, opponents="random", seat=2)
    rng = np.random.default_rng(0)
    masks = env.observe()[1]
    assert env.decisions == 0
    for step in range(1, 61):
        _, masks, _, _ = env.step(_random_actions(masks, rng))
        assert env.decisions == 4 * step
    assert env.episodes > 0


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
    e, s = map(int, np.argwhere(masks_before[..., :-1].any(axis=-1))[-1])
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
        acting = masks[..., :-1].any(axis=-1)
        assert np.array_equal(oa[acting], ob[acting])
        assert not oa[~acting].any()  # zeroed by default
        assert np.array_equal(ob[~acting], before[~acting])  # left as they were
    assert a.episodes == b.episodes > 0


def test_vector_env_with_peeks() -> None:
    """5 players with the peek actions (R-VIS-5): a peek is a decision that leaves the seat to act."""
    env = qe.VectorEnv(4, players=5, seed=3, peeks=True)
    assert env.peeks and env.num_actions == 12 + 3 + 16 + 1  # the wait action last
    assert qe.VectorEnv(1, players=5).num_actions == 16
    obs, masks = env.reset()
    rng = np.random.default_rng(5)
    peeks = 0
    for _ in range(300):
        acts = _random_actions(masks, rng)
        # Prefer a legal peek: the first one in each row that has one.
        for e in range(4):
            for s in range(5):
                p = _peek_action(masks[e, s, :-1], 12)
                if p is not None:
                    acts[e, s] = p
                    peeks += 1
        before = masks.copy()
        decisions = env.decisions
        obs, masks, rewards, done = env.step(acts)
        assert env.decisions - decisions == int(before[..., :-1].any(axis=-1).sum())  # peeks count too
        for e in range(4):
            for s in range(5):
                if 15 <= acts[e, s] < 31 and before[e, s, :-1].any() and not done[e]:
                    assert masks[e, s, :-1].any()  # the peeker still has to act
    assert peeks > 0 and env.episodes > 0


def test_vector_env_reset_with_a_seed_starts_the_same_games_again() -> None:
    env = qe.VectorEnv(2, seed=5)
    first = env.observe()[0].copy()
    rng = np.random.default_rng(0)
    for _ in range(40):
        env.step(_random_actions(env.observe()[1], rng))
    assert np.array_equal(env.reset(5)[0], first)
    seven = env.reset(7)[0].copy()
    assert not np.array_equal(seven, first)
    assert np.array_equal(env.reset(7)[0], seven)
    assert not np.array_equal(env.reset()[0], seven)  # no seed: the next games


@pytest.mark.parametrize("seat", [0, 2])
def test_vector_env_with_opponents_rewards_the_learners_seat(seat: int) -> None:
    """The reward of a finished game is ``last_returns(e)[seat]``, the learner's; the bots'
    returns are there too, and differ from it in some games."""
    env = qe.VectorEnv(8, players=3, seed=0, opponents="value", seat=seat, reward="score")
    assert all(env.last_returns(e) is None for e in range(8))
    rng = np.random.default_rng(1)
    masks = env.observe()[1]
    finished = differ = 0
    while finished < 40:
        _, masks, rewards, done = env.step(_random_actions(masks, rng))
        for e in np.flatnonzero(done):
            returns = env.last_returns(int(e))
            assert returns is not None and len(returns) == 3
            assert rewards[e] == np.float32(returns[seat])
            differ += any(r != returns[seat] for r in returns)
            finished += 1
    assert differ > finished // 2
    env.reset()
    assert env.last_returns(0) is None
    for bad in (8, -1, 2**70):
        with pytest.raises(IndexError, match=f"env {bad} out of range 0..8"):
            env.last_returns(bad)


def test_vector_env_last_returns_are_every_seats_reward() -> None:
    env = qe.VectorEnv(4, players=4, seed=3)
    rng = np.random.default_rng(2)
    masks = env.observe()[1]
    finished = 0
    while finished < 10:
        _, masks, rewards, done = env.step(_random_actions(masks, rng))
        for e in np.flatnonzero(done):
            assert list(rewards[e]) == pytest.approx(env.last_returns(int(e)))
            assert sum(env.last_returns(int(e))) == pytest.approx(1.0)
            finished += 1


@pytest.mark.parametrize("opponents", ["random", "miser", "value"])
def test_vector_env_with_opponents(opponents: str) -> None:
    env = qe.VectorEnv(16, players=4, expansions=("commodities",), seed=2, opponents=opponents, seat=1)
    obs, masks = env.reset()
    assert obs.shape == (16, qe.OBS_SIZE) and masks.shape == (16, env.num_actions)
    assert (masks.sum(axis=1) > 0).all()
    rng = np.random.default_rng(0)
    for _ in range(300):
        obs, masks, rewards, done = env.step(_random_actions(masks, rng))
        assert rewards.shape == (16,)
        assert (masks.sum(axis=1) > 0).all()
        # the learner's own seat is marked in the observation
        assert (obs[:, _ME + 1] == 1).all()
    assert env.episodes > 0
    with pytest.raises(ValueError):
        qe.VectorEnv(1, opponents="genius")


_SEARCH_NAMES = [n for n in qe._qe.bot_names() if n not in ("random", "miser", "value")]


def test_the_core_names_search_bots() -> None:
    """The parametrization below has bots to run: the core names its search levels."""
    assert _SEARCH_NAMES, qe._qe.bot_names()


@pytest.mark.parametrize("opponents", _SEARCH_NAMES)
def test_vector_env_takes_every_bot_name_of_the_core(opponents: str) -> None:
    """Every name the core documents works as opponents (a few steps: search bots may be slow)."""
    env = qe.VectorEnv(2, players=3, seed=1, opponents=opponents)
    obs, masks = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, masks, _, _ = env.step(_random_actions(masks, rng))
    assert masks[:, :-1].any(axis=1).all()


def test_vector_env_search_opponents_play_whole_games_with_their_history() -> None:
    """Search opponents read their seats' bid history, kept in step with every command (the
    learner's bids, takes, discards and peeks too): whole 5-player Commodities games end, each
    with its returns."""
    env = qe.VectorEnv(2, players=5, expansions=("commodities",), seed=3, opponents="search:easy", seat=2, peeks=True)
    obs, masks = env.reset()
    rng = np.random.default_rng(5)
    peek = env.num_actions - 1 - 16  # the first peek action
    finished = peeked = 0
    while finished < 2:
        actions = _random_actions(masks, rng)
        for e in range(2):  # peek whenever offered, so peeks are played too
            offered = np.flatnonzero(masks[e, peek : peek + 16])
            if offered.size:
                actions[e] = peek + offered[0]
                peeked += 1
        obs, masks, rewards, done = env.step(actions)
        for e in np.flatnonzero(done):
            finished += 1
            returns = env.last_returns(int(e))
            assert rewards[e] == pytest.approx(returns[2]) and sum(returns) in (0.0, pytest.approx(1.0))
    assert env.episodes == finished and peeked >= 2


def test_pettingzoo_the_wait_action_of_a_seat_that_must_act_is_made_legal() -> None:
    """With ``illegal="nearest"`` (the default) the wait action given to a seat that must act is
    a masked-out action like any other: the nearest legal one is played and only that agent's
    info says so (``"raise"`` makes it an error, tested elsewhere)."""
    import qe.pettingzoo as qp

    aec = qp.env(players=4)
    aec.reset(seed=1)
    raw = aec.unwrapped
    seat = raw.game.to_act[0]
    aec.step(raw.wait_action)
    assert len(raw.game.commands()) == 1 and raw.game.commands()[0]["seat"] == seat
    assert raw.infos[f"seat_{seat}"].get("illegal_action") is True
    par = qp.parallel_env(players=4)
    par.reset(seed=1)
    seat = par.game.to_act[0]
    _, _, _, _, infos = par.step({a: par.wait_action for a in par.agents})
    assert len(par.game.commands()) == 1
    assert {a for a, i in infos.items() if i.get("illegal_action")} == {f"seat_{seat}"}


def test_pettingzoo_seeds_zero_and_none() -> None:
    """``reset(seed=0)`` is a seed like any other (the same game twice); no seed draws a new
    game from the env's own generator, which differs between envs."""
    import qe.pettingzoo as qp

    for make in (qp.env, qp.parallel_env):
        a, b = make(players=3), make(players=3)
        a.reset(seed=0)
        b.reset(seed=0)
        assert a.unwrapped.game.seed == b.unwrapped.game.seed
        a.reset(seed=0)
        assert a.unwrapped.game.seed == b.unwrapped.game.seed
        seeds = set()
        for _ in range(3):
            e = make(players=3)
            e.reset()
            seeds.add(e.unwrapped.game.seed)
        assert len(seeds) == 3


def test_pettingzoo_aec_final_dead_steps_go_in_seat_order() -> None:
    """After the move that ends the game, every agent takes its last step lowest seat first,
    whichever seat moved last."""
    import qe.pettingzoo as qp

    rng = np.random.default_rng(0)
    last_movers = set()
    for seed in range(4):
        e = qp.raw_env(players=4)
        e.reset(seed=seed)
        while not e.game.is_over:
            ob = e.observe(e.agent_selection)
            e.step(int(rng.choice(np.flatnonzero(ob["action_mask"]))))
        last_movers.add(e.game.commands()[-1]["seat"])
        order = []
        for agent in e.agent_iter():
            order.append(agent)
            e.step(None)
        assert order == e.possible_agents, seed
    assert last_movers != {0}  # some game ended on another seat's move


@pytest.mark.parametrize("kind", ["aec", "parallel"])
def test_pettingzoo_reset_without_a_seed_continues_the_seeded_generator(kind: str) -> None:
    """``reset(seed=s)`` seeds the env's generator once; each later ``reset()`` draws a new game
    from it, the same sequence for the same ``s``."""
    import qe.pettingzoo as qp

    make = qp.raw_env if kind == "aec" else qp.parallel_env
    runs = []
    for _ in range(2):
        e = make(players=3)
        e.reset(seed=3)
        seeds = [e.game.seed]
        for _ in range(3):
            e.reset()
            seeds.append(e.game.seed)
        runs.append(seeds)
    assert runs[0] == runs[1]
    assert len(set(runs[0])) == 4


@pytest.mark.parametrize("kind", ["aec", "parallel"])
def test_pettingzoo_keeps_a_custom_ladder_across_resets(kind: str) -> None:
    import qe.pettingzoo as qp

    ladder = qe.BidLadder([0, 3, 9, 27])
    make = qp.raw_env if kind == "aec" else qp.parallel_env
    e = make(players=4, ladder=ladder)
    n = len(ladder) + 3 + 1  # rungs, piles, the wait action
    assert e.action_space("seat_0").n == n
    for seed in (0, 1):
        if kind == "aec":
            e.reset(seed=seed)
            masks = [e.observe(a)["action_mask"] for a in e.possible_agents]
        else:
            obs, _ = e.reset(seed=seed)
            masks = [o["action_mask"] for o in obs.values()]
        assert e.game.ladder == ladder
        assert all(m.shape == (n,) for m in masks)


def test_pettingzoo_api_tests_pass_with_a_custom_ladder() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    import qe.pettingzoo as qp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(qp.env(ladder=qe.BidLadder([0, 3, 9, 27])), num_cycles=50)
        parallel_api_test(qp.parallel_env(ladder=qe.BidLadder([0, 3, 9, 27])), num_cycles=50)


def test_pettingzoo_parallel_flags_the_illegal_action_of_the_seat_that_played_it() -> None:
    """A masked-out action of a seat other than seat 0 (seat 0 opens turn 0, so the first step
    cannot tell): that agent's info says so, and no other's."""
    import qe.pettingzoo as qp

    par = qp.parallel_env(players=4)
    obs, _ = par.reset(seed=1)
    assert par.game.to_act == [0]
    obs, _, _, _, infos = par.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents})
    assert not any(i.get("illegal_action") for i in infos.values())
    assert par.game.to_act == [1, 2, 3]  # the sealed bids
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents}
    actions["seat_2"] = par.wait_action  # masked out for a seat that must act
    _, _, _, _, infos = par.step(actions)
    assert {a for a, i in infos.items() if i.get("illegal_action")} == {"seat_2"}


def test_pettingzoo_games_end_by_termination_never_truncation() -> None:
    import qe.pettingzoo as qp

    rng = np.random.default_rng(1)
    par = qp.parallel_env(players=3)
    obs, _ = par.reset(seed=2)
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, _, terms, truncs, _ = par.step(actions)
        assert not any(truncs.values())
        assert all(terms.values()) == (not par.agents)
    assert all(terms.values()) and len(terms) == 3
    aec = qp.env(players=3)
    aec.reset(seed=2)
    for agent in aec.agent_iter():
        ob, _, term, trunc, _ = aec.last()
        assert not trunc
        if term:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(ob["action_mask"]))))
    # After the end every agent of the game can still be observed (its wait-only mask).
    raw = aec.unwrapped
    for agent in raw.possible_agents:
        assert raw.observe(agent)["action_mask"][raw.wait_action] == 1


@pytest.mark.parametrize("ladder", ["0:5:10", "0,2,7,100"])
def test_openspiel_bid_actions_name_their_amounts(ladder: str) -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 3, "ladder": ladder})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    amounts = [int(x) for x in ladder.replace(":", ",").split(",")]
    for i, amount in enumerate(amounts):
        assert state.action_to_string(0, i) == f"bid:{amount}"


@pytest.mark.parametrize("player", [1, 2])
def test_spiel_bots_decide_as_the_bot_of_their_name_and_seed(player: int) -> None:
    """Both ways of making a ``pyspiel.Bot`` decide exactly as ``qe.bots.Bot(name, seed)``."""
    import pyspiel

    import qe.bots
    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    while player not in state.qe.to_act:
        if state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        elif state.is_simultaneous_node():
            state.apply_actions([state.legal_actions(p)[0] for p in range(3)])
        else:
            state.apply_action(state.legal_actions()[0])
    for seed in range(8):
        want = qe.bots.Bot("random", seed).action(state.qe, player)
        assert qe.bots.spiel_bot(game, player, "random", seed).step(state) == want
        assert qe.bots.Bot("random", seed).spiel_bot(game, player).step(state) == want


def _longest_play(game, seed: int):  # type: ignore[no-untyped-def]
    """A game in which every simultaneous node's bidders bid alike, the highest rung they all
    have, when they can (ties, rebids, asset rebids) and each seat peeks once when it may: about
    as long as a game gets."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    peeked = set()
    wait = game.num_distinct_actions() - 1
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.choice([a for a, _ in s.chance_outcomes()])))
        elif s.is_simultaneous_node():
            acting = s.qe.to_act
            bids = [{a for a in s.legal_actions(p) if a < len(s.qe.ladder)} for p in acting]
            common = sorted(set.intersection(*bids))
            s.apply_actions(
                [
                    (common[-1] if common else s.legal_actions(p)[0]) if p in acting else wait
                    for p in range(s.qe.players)
                ]
            )
        else:
            p = s.current_player()
            legal = s.legal_actions()
            peeks = [a for a in legal if s.action_to_string(p, a).startswith("peek")]
            if peeks and p not in peeked:
                peeked.add(p)
                s.apply_action(peeks[0])
                continue
            s.apply_action(int(rng.choice([a for a in legal if a not in peeks])))
    return s


@pytest.mark.parametrize("params", [{"players": 4, "expansions": "commodities"}, {"players": 5, "expansions": "commodities", "peeks": True}])
def test_openspiel_max_game_length_bounds_the_longest_games(params: dict) -> None:  # type: ignore[type-arg]
    import pyspiel

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", params)
    lengths = [_longest_play(game, seed).move_number() for seed in range(3)]
    assert max(lengths) <= game.max_game_length()
    # The ties make these games longer than random ones.
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert min(lengths) > state.move_number()


def test_openspiel_observers_refuse_parameters() -> None:
    import pyspiel
    from open_spiel.python.observation import make_observation

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe")
    for kind in (None, pyspiel.IIGObservationType(perfect_recall=True)):
        with pytest.raises(ValueError, match="observation parameters not supported"):
            make_observation(game, kind, {"view": "public"})


def test_commodities_is_deprecated_in_every_adapter_for_expansions() -> None:
    """``commodities=True`` still plays Commodities in every adapter, with one
    ``DeprecationWarning`` pointing at the caller's line; ``expansions=("commodities",)`` is the
    one switch and does not warn."""
    import pyspiel

    import qe.gym as qg
    import qe.openspiel  # noqa: F401  (registers python_qe)
    import qe.pettingzoo as qp

    makers = {
        "Game": lambda **kw: qe.Game(4, 1, **kw),
        "VectorEnv": lambda **kw: qe.VectorEnv(2, 4, seed=1, **kw),
        "pettingzoo.env": lambda **kw: qp.env(players=4, **kw),
        "pettingzoo.parallel_env": lambda **kw: qp.parallel_env(players=4, **kw),
        "gym.QeEnv": lambda **kw: qg.QeEnv(players=4, **kw),
        "gym.QeVectorEnv": lambda **kw: qg.QeVectorEnv(2, players=4, **kw),
    }
    for name, make in makers.items():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            make(expansions=("commodities",))
        with pytest.warns(DeprecationWarning, match=r"commodities=True is deprecated: use expansions=\(\"commodities\",\)") as caught:
            made = make(commodities=True)
        assert [w.filename for w in caught] == [__file__], (name, [(w.filename, w.lineno) for w in caught])
        game = getattr(made, "game", None) or getattr(getattr(made, "unwrapped", made), "game", None)
        if isinstance(made, qe.Game):
            game = made
        if game is not None:
            assert game.expansions == ["commodities"], name
    with pytest.warns(DeprecationWarning, match="commodities=True is deprecated"):
        game = pyspiel.load_game("python_qe(commodities=True)")
    assert game.qe_expansions == ("commodities",)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = pyspiel.load_game(str(game))
    assert again.qe_expansions == ("commodities",)
