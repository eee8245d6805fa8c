"""Hostile input through the documented Python API: typed errors naming what was given, nothing
changed by a rejected call, no PanicException and no abort."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import qe


class Tagged(qe.Game):
    """A subclass with an instance attribute, as users write them."""


def test_vector_env_sizes_are_capped() -> None:
    for n in (0, 2**16 + 1, 2**64 - 1):
        with pytest.raises(ValueError, match=f"got {n}"):
            qe.VectorEnv(n)


def test_vector_env_allocation_failure_is_memory_error() -> None:
    """Under an address-space limit, a large VectorEnv raises MemoryError; the interpreter lives."""
    code = textwrap.dedent(
        """
        import resource
        import qe
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        try:
            qe.VectorEnv(2**16, players=5)
        except MemoryError as e:
            print("MemoryError", e)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("MemoryError"), (out.stdout, out.stderr)


def test_a_resized_output_array_is_an_error_before_any_step() -> None:
    env = qe.VectorEnv(2, players=4, seed=1)
    obs, _ = env.reset()
    np.ndarray.resize(obs, (1,), refcheck=False)
    with pytest.raises(ValueError, match="obs array was resized"):
        env.step(np.ones((2, 4), dtype=np.int64))
    assert env.decisions == 0


def test_float_actions_are_rejected_everywhere() -> None:
    env = qe.VectorEnv(2, players=4, seed=1)
    with pytest.raises(ValueError, match="actions must be integers, got float64"):
        env.step(np.full((2, 4), 2.9))
    assert env.decisions == 0
    g = qe.Game(players=4, seed=1)
    with pytest.raises((TypeError, ValueError)):
        g.step([2.9, 0, 0, 0])
    assert g.turn == 0 and g.phase == "opening_bid"


def test_messages_name_the_value_given() -> None:
    g = qe.Game(players=4, seed=1)
    for seat in (-1, 256, 4):
        with pytest.raises(qe.IllegalCommand, match=f"seat {seat} is not a seat"):
            g.view(seat)
    with pytest.raises(ValueError, match="action -1 out of range"):
        g.step([-1, 0, 0, 0])
    obs = np.zeros((4, qe.OBS_SIZE), dtype=np.float64)
    mask = np.zeros((4, g.num_actions), dtype=np.int8)
    with pytest.raises(TypeError, match="obs must be a numpy array of float32, got float64"):
        g.observe_into(obs, mask)
    strided = np.zeros((4, 2 * qe.OBS_SIZE), dtype=np.float32)[:, ::2]
    with pytest.raises(ValueError, match="obs must be .* C-contiguous array, got one that is not C-contiguous$"):
        g.observe_into(strided, mask)
    frozen = np.zeros((4, qe.OBS_SIZE), dtype=np.float32)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="got one that is read-only$"):
        g.observe_into(frozen, mask)
    frozen_strided = np.zeros((4, 2 * qe.OBS_SIZE), dtype=np.float32)[:, ::2]
    frozen_strided.setflags(write=False)
    with pytest.raises(ValueError, match="got one that is read-only and not C-contiguous$"):
        g.observe_into(frozen_strided, mask)


class Unprintable:
    """An int (by ``__index__``) past 64 bits whose ``repr`` fails."""

    def __index__(self) -> int:
        return 2**70

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class Boom:
    """An object whose ``__index__`` raises: its own error comes through unchanged."""

    def __index__(self) -> int:
        raise RuntimeError("boom")


# Integer arguments out of their type's range or of the wrong type: each message names the
# argument and quotes the value given (PyO3's own conversion names neither for a range error).
BAD_INTS = [
    ("Game(seed=-1)", lambda g: qe.Game(4, False, -1), OverflowError, "seed must be an int from 0 to 18446744073709551615, got -1"),
    ("Game(seed=2**70)", lambda g: qe.Game(4, False, 2**70), OverflowError, f"seed must be .*, got {2**70}"),
    ("Game(seed='x')", lambda g: qe.Game(4, False, "x"), TypeError, "seed must be an int, got str 'x'"),
    ("Game(players='4')", lambda g: qe.Game("4"), TypeError, "argument 'players': must be an int, got str '4'"),
    ("Game(players=None)", lambda g: qe._qe.Game(None), TypeError, "argument 'players': must be an int, got NoneType None"),
    ("Game(players=300)", lambda g: qe.Game(300), qe.SetupError, "R-SET-1: a game has 3 to 5 players, not 300"),
    ("Game(players=-1)", lambda g: qe.Game(-1), OverflowError, "players must be an int from 0 to 18446744073709551615, got -1"),
    ("bid amount", lambda g: g.bid(0, -5), OverflowError, "amount must be .*, got -5"),
    ("bid_all entry", lambda g: g.bid_all([-1, 0, 0, 0]), OverflowError, r"amounts\[0\] must be .*, got -1"),
    ("peek turn", lambda g: g.peek(0, 300), OverflowError, "turn must be an int from 0 to 255, got 300"),
    ("apply_action action", lambda g: g.apply_action(0, -1), ValueError, r"action -1 out of range 0\.\.\d+ \(seat 0\)"),
    ("apply_action huge", lambda g: g.apply_action(0, 2**70), ValueError, rf"action {2**70} out of range"),
    ("apply_action range", lambda g: g.apply_action(0, 99), ValueError, r"action 99 out of range 0\.\.\d+ \(seat 0\)"),
    ("apply_chance_action id", lambda g: g.apply_chance_action(-1), qe.IllegalCommand, "R-SET-3: invalid chance outcome: not a pending chance outcome: chance action -1$"),
    ("apply_chance_action huge", lambda g: g.apply_chance_action(2**70), qe.IllegalCommand, rf"chance action {2**70}$"),
    ("apply_chance_action type", lambda g: g.apply_chance_action("a"), TypeError, "id must be an int, got str 'a'"),
    ("legal_actions seat type", lambda g: g.legal_actions("a"), TypeError, "seat must be an int, got str 'a'"),
    ("legal_actions huge seat", lambda g: g.legal_actions(2**70), ValueError, rf"seat must be from 0 to 3, got {2**70}"),
    ("events unprintable seat", lambda g: g.events(Unprintable()), ValueError, "seat must be from 0 to 3, got <unprintable>$"),
    ("__index__ raising", lambda g: g.legal_actions(Boom()), RuntimeError, "^boom$"),
    ("step not a sequence", lambda g: g.step(5), TypeError, r"actions must be a sequence .*, got int 5"),
    ("step str", lambda g: g.step("abc"), TypeError, "actions must be a sequence .*, got str 'abc'"),
    ("step float entry", lambda g: g.step([1.5, 0, 0, 0]), TypeError, r"actions\[0\] must be an int, got float 1.5"),
    ("step numpy float entry", lambda g: g.step(np.zeros(4)), TypeError, r"actions\[0\] must be an int, got float64"),
    ("step huge entry", lambda g: g.step([2**70, 0, 0, 0]), OverflowError, rf"actions\[0\] must be .*, got {2**70}"),
    ("BidLadder entry", lambda g: qe.BidLadder([0, "a"]), TypeError, r"amounts\[1\] must be an int, got str 'a'"),
    ("BidLadder str", lambda g: qe.BidLadder("abc"), TypeError, "amounts must be a sequence of ints, got str 'abc'"),
    ("BidLadder too long", lambda g: qe.BidLadder(list(range(1000))), qe.SetupError, "not 1000"),
    ("BidLadder endless", lambda g: qe.BidLadder(iter(int, 1)), qe.SetupError, "not 65"),
    ("BidLadder.linear step", lambda g: qe.BidLadder.linear(-1, 4), OverflowError, "step must be .*, got -1"),
    ("BidLadder.amount", lambda g: qe.BidLadder.default().amount(99), IndexError, r"rung 99 out of range 0\.\.12"),
    ("BidLadder.amount negative", lambda g: qe.BidLadder.default().amount(-1), IndexError, r"rung -1 out of range 0\.\.12"),
    ("BidRange.allows", lambda g: g.bid_range(0).allows(-1), OverflowError, "amount must be .*, got -1"),
    ("VectorEnv num_envs", lambda g: qe.VectorEnv(-1), ValueError, "num_envs must be from 1 to 65536, got -1"),
    ("VectorEnv players", lambda g: qe.VectorEnv(2, players=300), qe.SetupError, "not 300"),
    ("VectorEnv seat None", lambda g: qe.VectorEnv(2, seat=None), TypeError, "argument 'seat': must be an int, got NoneType None"),
    ("VectorEnv seat", lambda g: qe.VectorEnv(2, seat=-1), ValueError, "seat must be from 0 to 3, got -1"),
    ("VectorEnv.reset seed", lambda g: qe.VectorEnv(2).reset(seed=-3), OverflowError, "seed must be .*, got -3"),
    ("Bot seed", lambda g: qe._qe.Bot("value", -1), OverflowError, "seed must be .*, got -1"),
    ("Bot seed None", lambda g: qe._qe.Bot("value", None), TypeError, "argument 'seed': must be an int, got NoneType None"),
]


@pytest.mark.parametrize("call, error, message", [b[1:] for b in BAD_INTS], ids=[b[0] for b in BAD_INTS])
def test_bad_ints_name_the_argument_and_the_value(call: object, error: type, message: str) -> None:
    g = qe.Game(players=4, seed=1)
    before = g.__getstate__()
    with pytest.raises(error, match=message):
        call(g)  # type: ignore[operator]
    assert g.__getstate__() == before


def test_int_argument_defaults_are_those_shown() -> None:
    """The defaults the signatures show (players=4, seat=0, Bot seed=0) are the ones applied."""
    assert qe._qe.Game().players == 4
    assert qe._qe.Game.__text_signature__.startswith("(players=4, commodities=False, seed=None")
    assert qe._qe.Bot("value").seed == 0 and qe._qe.Bot.__text_signature__ == "(name, seed=0)"
    env = qe.VectorEnv(2)
    assert env.players == 4
    assert "players=4" in qe.VectorEnv.__text_signature__ and "seat=0" in qe.VectorEnv.__text_signature__


def _state(g: qe.Game) -> dict:  # type: ignore[type-arg]
    return json.loads(g.__getstate__()["game"])  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("players", 260, "players"),
        ("ladder", [0, 1, "2"], "ladder"),
        ("peeks", "yes", "peeks"),
        ("external", 1, "external"),
        ("v", 2, "version"),
    ],
)
def test_tampered_pickle_state_is_rejected_not_coerced(field: str, value: object, message: str) -> None:
    g = qe.Game(players=4, external_chance=True)
    state = _state(g)
    state[field] = value
    h = qe.Game(players=3, seed=1)
    with pytest.raises(ValueError, match=message):
        h.__setstate__({"game": json.dumps(state)})


def test_pickle_keeps_instance_attributes() -> None:
    t = Tagged(players=3, seed=2)
    t.label = "table 7"  # type: ignore[attr-defined]
    t.bid(0, 3)
    u = pickle.loads(pickle.dumps(t))
    assert type(u) is Tagged and u.label == "table 7"  # type: ignore[attr-defined]
    assert u.record() == t.record()


def test_environments_name_a_bad_action_and_play_nothing() -> None:
    """The Gymnasium and PettingZoo envs read an action as an int (numpy integers too) and never
    truncate a float; a bad action or a missing agent is an error naming it, with the game
    unchanged."""
    import qe.gym
    import qe.pettingzoo

    env = qe.gym.QeEnv()
    env.reset(seed=1)
    before = env.game.commands()
    for bad, message in ((1.5, "action must be an int, got float 1.5"), ("a", "action must be an int, got str 'a'")):
        with pytest.raises(TypeError, match=message):
            env.step(bad)
        assert env.game.commands() == before
    env.step(np.int64(env.game.legal_actions(env.seat)[0]))
    assert len(env.game.commands()) > len(before)

    par = qe.pettingzoo.parallel_env()
    par.reset(seed=1)
    before = par.game.commands()
    with pytest.raises(TypeError, match="actions must be a dict of agent to action, got list"):
        par.step([1])
    with pytest.raises(KeyError, match="actions has no entry for 'seat_0', which must act"):
        par.step({"x": 1})
    with pytest.raises(TypeError, match=r"action must be an int, got float 2\.5"):
        par.step({a: 2.5 for a in par.agents})
    assert par.game.commands() == before
    aec = qe.pettingzoo.raw_env()
    aec.reset(seed=1)
    with pytest.raises(ValueError, match="unknown agent 'x': expected one of seat_0, seat_1"):
        aec.observe("x")
    with pytest.raises(TypeError, match="seat must be an int, got str 'a'"):
        qe.gym.QeEnv(seat="a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="players must be an int, got float 4.0"):
        qe.gym.QeEnv(players=4.0)  # type: ignore[arg-type]


def test_bots_name_a_game_that_is_not_one() -> None:
    import qe.bots

    with pytest.raises(TypeError, match="game must be a qe.Game, got str"):
        qe.bots.Bot("value").action("x", 0)  # type: ignore[arg-type]


def test_openspiel_legal_actions_of_a_player_the_game_lacks() -> None:
    """At a simultaneous node an idle seat gets the pass action; a player the game does not have
    is an IllegalCommand naming it (it got the pass action too)."""
    import pyspiel

    import qe.openspiel

    game = pyspiel.load_game("python_qe")
    state = game.new_initial_state()
    while not state.is_simultaneous_node():
        legal = state.legal_actions()
        state.apply_action(legal[0] if state.is_chance_node() else legal[1])
    idle = [p for p in range(4) if state.legal_actions(p) == [game.pass_action]]
    assert len(idle) == 1, [state.legal_actions(p) for p in range(4)]
    with pytest.raises(qe.IllegalCommand, match="seat 9 is not a seat of this game"):
        state.legal_actions(9)


def test_envs_name_an_unknown_illegal_mode() -> None:
    """Both environments check ``illegal`` the same way, naming the value given."""
    import qe.gym
    import qe.pettingzoo

    for make in (
        lambda: qe.gym.QeEnv(illegal="clip"),
        lambda: qe.pettingzoo.parallel_env(illegal="clip"),
        lambda: qe.pettingzoo.raw_env(illegal="clip"),
    ):
        with pytest.raises(ValueError, match="unknown illegal 'clip': expected 'nearest' or 'raise'"):
            make()
