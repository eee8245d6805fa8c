"""``examples/python/reduced_cfr.py``: exact exploitability on the end of a real game (the last
auctions of a 3-player game played from a seed), solved by OpenSpiel. These tests build the
smallest reduced games, check their size and that the turn-based form hides the other seats'
sealed bids, check the EFG export against the game itself, and run a few CFR+ iterations, so
that the example's numbers (qe-py/README.md, qe-core/src/bots/README.md) can be reproduced."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings
from typing import Any

import pytest

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    _WHY = "pyspiel (open_spiel) is not installed: the reduced-QE CFR example is not tested"
    warnings.warn(_WHY)
    pytest.skip(_WHY, allow_module_level=True)

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402


def _example() -> Any:
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "reduced_cfr.py"
    spec = importlib.util.spec_from_file_location("reduced_cfr_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rc() -> Any:
    return _example()


def test_the_last_auction_is_one_sealed_bid_per_seat(rc: Any) -> None:
    """K = 1 (turn 15, no auctioneer, R-AUC-9): one reveal (the last tile), then the three seats
    bid at once; in the turn-based form each seat has a single information state, so no seat
    sees a bid placed before it at that node."""
    game, tb = rc.load(1, "0:1:2", seed=1)
    assert game.num_players() == 3 and game.get_type().short_name == "python_qe_endgame"
    first = game.new_initial_state()
    assert first.qe.turn == 15 and first.is_chance_node() and len(first.chance_outcomes()) == 1
    red = rc.build(tb)
    assert red.size["histories"] == 1 + 1 + 3 + 9 + 27
    assert red.size["terminals"] == 27
    assert red.size["infostates"] == [1, 1, 1]


def test_two_auctions_size_and_hidden_bids(rc: Any) -> None:
    """K = 2 on the ladder 0:1:2: the size the README gives; a non-auctioneer's information state
    on the last turn does not tell the other non-auctioneer's turn-14 bid apart when the result of
    the auction is the same (it sees only the opening bid, its own bid and the winner)."""
    _, tb = rc.load(2, "0:1:2", seed=1)
    red = rc.build(tb)
    assert red.size["histories"] == 1207
    assert red.size["infostates"] == [32, 32, 38]
    assert red.size["infostates_choice"] == [32, 32, 30]
    # Turn 14: seat 2 opens at 2 (the top rung); seats 0 and 1 bid 0 or 1 (not 2): seat 2 wins
    # whatever they bid, and seat 0's view of turn 15 must not depend on seat 1's bid.
    s = tb.new_initial_state()
    s.apply_action(s.chance_outcomes()[0][0])
    s.apply_action(2)  # seat 2's opening bid: the rung 2
    keys = set()
    for b1 in (0, 1):
        t = s.clone()
        t.apply_action(0)  # seat 0 bids 0
        t.apply_action(b1)  # seat 1 bids 0 or 1
        while t.is_chance_node() or t.current_player() != 0:
            t.apply_action(t.chance_outcomes()[0][0] if t.is_chance_node() else t.legal_actions()[0])
        keys.add(t.information_state_string(0))
    assert len(keys) == 1


def test_efg_export_is_the_same_game(rc: Any) -> None:
    """NashConv on the EFG export (OpenSpiel's C++) equals NashConv on the turn-based game itself
    (OpenSpiel's Python best responses over the engine), for the uniform policy and the value bot."""
    _, tb = rc.load(2, "0:1:2", seed=1)
    red = rc.build(tb)
    efg = pyspiel.load_efg_game(red.efg)
    assert efg.num_players() == 3
    assert pyspiel.nash_conv(efg, rc.efg_policy(red, rc.uniform)) == pytest.approx(
        exploitability.nash_conv(tb, policy_lib.UniformRandomPolicy(tb)), abs=1e-9
    )
    acts = rc.bot_actions(red, "value", [0, 1])
    tabular = policy_lib.TabularPolicy(tb)
    probs = rc.empirical(acts)
    for p, infos in enumerate(red.infosets):
        for key, info in infos.items():
            row = tabular.policy_for_key(key)
            row[:] = 0.0
            for a, q in probs(p, key, info).items():
                row[a] = q
    assert pyspiel.nash_conv(efg, rc.efg_policy(red, probs)) == pytest.approx(
        exploitability.nash_conv(tb, tabular), abs=1e-9
    )


def test_cfr_plus_nash_conv_decreases(rc: Any) -> None:
    """CFR+ on the K = 2 game: NashConv of the average policy falls from the uniform policy's
    (its first average) below 0.01 within 100 iterations."""
    _, tb = rc.load(2, "0:1:2", seed=1)
    red = rc.build(tb)
    efg = pyspiel.load_efg_game(red.efg)
    _, curve = rc.solve(efg, 100, (1, 10, 30))
    values = [nc for _, nc, _ in curve]
    assert values[0] == pytest.approx(pyspiel.nash_conv(efg, rc.efg_policy(red, rc.uniform)))
    assert all(b < a for a, b in zip(values, values[1:]))
    assert values[-1] < 0.01
