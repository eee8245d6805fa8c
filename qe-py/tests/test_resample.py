"""Resampling an information state (R-VIS-8): ``qe.Game.resample``, the OpenSpiel state's
``resample_from_infostate`` (simultaneous and turn-based forms) and OpenSpiel's ISMCTS on QE."""

from __future__ import annotations

import pickle
import random
import re
from typing import Any, List

import numpy as np
import pytest

import qe


def _random_actions(g: qe.Game, rng: random.Random) -> None:
    """One step of a random game: every seat to act picks a legal action."""
    if g.phase == "chance":
        g.apply_chance_action(rng.choice(g.chance_actions()))
        return
    g.step([rng.choice(g.legal_actions(p)) if p in g.to_act else 0 for p in range(g.players)])


@pytest.mark.parametrize(
    "players,expansions,peeks", [(3, (), False), (4, ("commodities",), False), (5, (), True)]
)
def test_game_resample_keeps_every_seats_information_state(
    players: int, expansions: tuple, peeks: bool
) -> None:
    """The drawn game gives the seat the same view, bid and peek history and information-state
    tensor (R-VIS-8), the same seed gives the same game, and what the seat cannot see varies
    (R-VIS-2, R-VIS-6: another seat's view differs in some draw)."""
    rng = random.Random(players)
    info = np.zeros(qe.INFO_STATE_SIZE, np.float32)
    drawn_info = np.zeros(qe.INFO_STATE_SIZE, np.float32)
    checked = varied = 0
    for seed in range(3):
        g = qe.Game(players, seed, expansions=expansions, peeks=peeks)
        while not g.is_over:
            for s in range(players):
                drawn = [g.resample(s, k) for k in range(3)]
                for d in drawn:
                    assert type(d) is qe.Game and d.num_actions == g.num_actions
                    assert d.view(s) == g.view(s)
                    assert d._view_json(s, True) == g._view_json(s, True)
                    g.information_state_into(s, info)
                    d.information_state_into(s, drawn_info)
                    assert np.array_equal(info, drawn_info)
                assert g.resample(s, 1).record() == drawn[1].record()
                other = (s + 1) % players
                varied += any(d.view(other) != g.view(other) for d in drawn)
                checked += 1
            _random_actions(g, rng)
    assert checked > 100 and varied > checked * 0.9, (checked, varied)


def test_game_resample_errors_name_the_argument() -> None:
    g = qe.Game(4, 1)
    with pytest.raises(qe.IllegalCommand, match="R-AUC-12"):
        g.resample(4, 0)
    with pytest.raises(TypeError, match="seat must be an int"):
        g.resample("a", 0)  # type: ignore[arg-type]
    with pytest.raises(OverflowError, match="seed must be an int from 0 to"):
        g.resample(0, -1)
    with pytest.raises(OverflowError, match="seed must be an int from 0 to"):
        g.resample(0, 2**64)
    with pytest.raises(TypeError, match="seed"):
        g.resample(0, "1")  # type: ignore[arg-type]
    chance = qe.Game(4, external_chance=True)
    with pytest.raises(qe.IllegalCommand, match="R-SET-3"):
        chance.resample(0, 0)


def _play_spiel(state: Any, rng: random.Random) -> None:
    """One random move of a python_qe state (either form)."""
    if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    elif state.is_simultaneous_node():
        n = state.get_game().num_players()
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n)])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "params", [{"players": 3}, {"players": 4, "expansions": "commodities"}, {"players": 3, "expansions": "commodities"}]
)
def test_openspiel_resample_keeps_the_information_state(params: dict) -> None:
    """Over random games, every seat: the resampled state's information-state string and tensor
    for that seat are the original's; the drawn state plays on to the end, and its clones keep
    the draw."""
    import pyspiel

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", params)
    n = game.num_players()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and state.qe.phase != "chance":
                for p in range(n):
                    r = state.resample_from_infostate(p, sampler)
                    assert r.information_state_string(p) == state.information_state_string(p)
                    assert r.information_state_tensor(p) == state.information_state_tensor(p)
                    assert r.observation_string(p) == state.observation_string(p)
                    checked += 1
            _play_spiel(state, rng)
    assert checked > 200
    # A drawn state plays on to the end, and so do its clones, with the draw.
    rng = random.Random(9)
    state = game.new_initial_state()
    for _ in range(12):
        _play_spiel(state, rng)
    drawn = state.resample_from_infostate(1, sampler)
    twin = drawn.clone()
    assert twin.qe.record() == drawn.qe.record()
    while not drawn.is_terminal():
        _play_spiel(drawn, rng)
    assert sum(drawn.returns()) in (0.0, pytest.approx(1.0))
    with pytest.raises(ValueError, match="resampled"):
        pickle.dumps(twin)


def test_openspiel_resample_checks_its_arguments() -> None:
    import pyspiel

    import qe.openspiel as qo

    game = pyspiel.load_game("python_qe", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="player_id must be from 0 to 2, got 3"):
        state.resample_from_infostate(3, None)
    with pytest.raises(TypeError, match="probability_sampler must be a callable"):
        state.resample_from_infostate(0, 0.5)
    with pytest.raises(ValueError, match=re.escape("probability_sampler gave 1.5")):
        state.resample_from_infostate(0, lambda: 1.5)
    with pytest.raises(TypeError, match="convert_to_turn_based"):
        qo.resample_turn_based(state, 0)
    tb = pyspiel.convert_to_turn_based(game).new_initial_state()
    while tb.is_chance_node():
        tb.apply_action(tb.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not the current player"):
        qo.resample_turn_based(tb, (tb.current_player() + 1) % 3)


@pytest.mark.parametrize("params", [{"players": 4}, {"players": 3, "expansions": "commodities"}])
def test_openspiel_turn_based_resample(params: dict) -> None:
    """On the turn-based form, the resampled state's information state for the player to move
    is the original's; the actions the players before it chose at a rolled-out simultaneous node
    are hidden from it and drawn, not kept (drawn by the random bot here, seat 0's bid varies
    across draws while its real one is fixed)."""
    import pyspiel

    import qe.openspiel as qo

    game = pyspiel.load_game("python_qe", params)
    tb = pyspiel.convert_to_turn_based(game)
    rng = random.Random(3)
    state = tb.new_initial_state()
    checked = 0
    seat0_bids: List[Any] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        p = state.current_player()
        drawn = qo.resample_turn_based(state, p, rng.random)
        assert drawn.information_state_string(p) == state.information_state_string(p)
        assert drawn.information_state_tensor(p) == state.information_state_tensor(p)
        checked += 1
        inner = state.simultaneous_game_state()
        if inner.is_simultaneous_node() and p == 1 and 0 in inner.qe.to_act and not seat0_bids:
            # Seat 0 has bid (buffered in the turn-based form); finish the node in several draws
            # and read its bid there.
            for k in range(12):
                d = qo.resample_turn_based(state, p, random.Random(k).random, model="random")
                for _ in range(p, tb.num_players()):
                    d.apply_action(d.legal_actions()[0])
                before = len(inner.qe.view(0).bid_history)
                seen = d.simultaneous_game_state().qe.view(0).bid_history[before:]
                seat0_bids.append(next(b.amount for b in seen if b.seat == 0))
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50
    assert len(set(seat0_bids)) > 1


def test_openspiel_ismcts_plays_a_game() -> None:
    """OpenSpiel's ISMCTSBot (sequential games only) plays a whole game of the turn-based form
    against the core's value bots, with the QE resampler."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import qe.openspiel as qo

    game = pyspiel.load_game("python_qe", {"players": 3, "expansions": "commodities"})
    tb = pyspiel.convert_to_turn_based(game)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(tb, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    bot.set_resampler(qo.ismcts_resampler(seed=0))
    others = [qo.QeSpielBot(tb, p, "value", p) for p in range(3)]
    state = tb.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rs.choice([a for a, _ in state.chance_outcomes()]))
            continue
        p = state.current_player()
        if p == 0:
            action = bot.step(state)
            searched += 1
        else:
            action = others[p].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert searched >= 16
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))
