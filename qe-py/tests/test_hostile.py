"""Hostile input through the documented Python API: typed errors naming what was given, nothing
changed by a rejected call, no PanicException and no abort."""

from __future__ import annotations

import fractions
import json
import pickle
import re
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
    with pytest.raises(TypeError, match="obs must be a numpy array of float32, got str 'x'$"):
        g.observe_into("x", mask)
    with pytest.raises(TypeError, match=r"out must be a numpy array of float32, got list \[1, 2\]$"):
        g.observation_into(0, [1, 2])
    with pytest.raises(qe.IllegalCommand, match="a command is a JSON object, got `3.5`$"):
        g.apply(3.5)  # type: ignore[arg-type]
    with pytest.raises(qe.SetupError, match="a record is a JSON object, got `null`$"):
        qe.Game.from_record(None)  # type: ignore[arg-type]
    # A type named anything: its name is shown short and printable.
    odd = type("Odd" + "x" * 5000 + "\x1b[2J", (), {})()
    with pytest.raises(TypeError) as info:
        g.observe_into(odd, mask)
    message = str(info.value)
    assert message.startswith("obs must be a numpy array of float32, got Oddxxx"), message
    assert len(message) < 400 and "\x1b" not in message, message
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


def _nested(depth: int) -> dict:  # type: ignore[type-arg]
    """A dict nested ``depth`` deep (too deep for ``json.dumps``)."""
    d: dict = {}  # type: ignore[type-arg]
    for _ in range(depth):
        d = {"x": d}
    return d


# Integer arguments out of their type's range or of the wrong type: each message names the
# argument and quotes the value given (PyO3's own conversion names neither for a range error).
BAD_INTS = [
    ("Game(seed=-1)", lambda g: qe.Game(4, -1), OverflowError, "seed must be an int from 0 to 18446744073709551615, got -1"),
    ("Game(seed=2**70)", lambda g: qe.Game(4, 2**70), OverflowError, f"seed must be .*, got {2**70}"),
    ("Game(seed='x')", lambda g: qe.Game(4, "x"), TypeError, "seed must be an int, got str 'x'"),
    ("Game(players='4')", lambda g: qe.Game("4"), TypeError, "argument 'players': must be an int, got str '4'"),
    ("Game(players=None)", lambda g: qe._qe.Game(None), TypeError, "argument 'players': must be an int, got NoneType None"),
    ("Game(players=300)", lambda g: qe.Game(300), qe.SetupError, "R-SET-1: a game has 3 to 5 players, not 300"),
    ("Game(players=-1)", lambda g: qe.Game(-1), qe.SetupError, "R-SET-1: a game has 3 to 5 players, not -1"),
    ("Game(players=2**200)", lambda g: qe.Game(2**200), OverflowError, f"players must be an int from .*, got {str(2**200)[:60]}\\.\\.\\.$"),
    ("Game(players=True)", lambda g: qe.Game(True), TypeError, "must be an int, got bool True"),
    ("Game(commodities=1)", lambda g: qe.Game(4, commodities=1), TypeError, "argument 'commodities': must be True or False, got int 1"),
    ("Game(peeks='yes')", lambda g: qe.Game(4, peeks="yes"), TypeError, "argument 'peeks': must be True or False, got str 'yes'"),
    ("VectorEnv(zero_others=0)", lambda g: qe.VectorEnv(2, zero_others=0), TypeError, "argument 'zero_others': must be True or False, got int 0"),
    ("Game(expansions=str)", lambda g: qe.Game(expansions="commodities"), TypeError, r"expansions must be a list of names such as \["),
    ("Game(expansions=[1])", lambda g: qe.Game(expansions=[1]), TypeError, r"expansions\[0\] must be a name \(str\), got int 1"),
    ("bid True", lambda g: g.bid(0, True), TypeError, "amount must be an int, got bool True"),
    ("bid_all bool entry", lambda g: g.bid_all([True, 0, 0, 0]), TypeError, r"amounts\[0\] must be an int, got bool True"),
    ("step bytes", lambda g: g.step(b"\x01\x01\x01\x01"), TypeError, "actions must be a sequence .*, got bytes"),
    ("step uint64 entry", lambda g: g.step(np.full(4, 2**64 - 1, np.uint64)), ValueError, rf"action .*{2**64 - 1}.* out of range 0\.\.\d+ \(seat 0\)"),
    ("apply_action 2**200", lambda g: g.apply_action(0, 2**200), ValueError, rf"action {str(2**200)[:60]}\.\.\. out of range 0\.\.\d+ \(seat 0\)"),
    ("apply_chance_action 2**200", lambda g: g.apply_chance_action(2**200), qe.IllegalCommand, rf"chance action {str(2**200)[:60]}\.\.\.$"),
    ("BidLadder.amount 2**200", lambda g: qe.BidLadder.default().amount(2**200), IndexError, rf"rung {str(2**200)[:60]}\.\.\. out of range 0\.\.12"),
    ("VectorEnv num_envs 2**200", lambda g: qe.VectorEnv(2**200), ValueError, rf"num_envs must be from 1 to 65536, got {str(2**200)[:60]}\.\.\.$"),
    ("apply unserializable", lambda g: g.apply({"seat": 0, "bid": object()}), TypeError, "command must be JSON text or a dict"),
    ("apply nested too deep", lambda g: g.apply(_nested(100_000)), qe.IllegalCommand, "R-AUC-12: malformed command: a command is at most 4096 bytes of JSON, this one would be more: dict"),
    ("apply nan", lambda g: g.apply({"seat": 0, "bid": float("nan")}), ValueError, "command must be JSON text or a dict .*nan"),
    ("replay nan", lambda g: qe.replay({"players": float("nan")}), ValueError, "record must be JSON text or a dict"),
    ("bid amount", lambda g: g.bid(0, -5), qe.IllegalCommand, r"^R-AUC-4: bid out of range: -5 \(a bid is .*\) \(amount\)$"),
    ("bid amount 2**64", lambda g: g.bid(0, 2**64), qe.IllegalCommand, rf"^R-AUC-4: bid out of range: {2**64} .* \(amount\)$"),
    ("bid_all entry", lambda g: g.bid_all([-1, 0, 0, 0]), qe.IllegalCommand, r"^R-AUC-4: bid out of range: -1 .* \(amounts\[0\]\)$"),
    ("peek turn", lambda g: g.peek(0, 300), qe.IllegalCommand, r"^R-VIS-5: turn 300 is not an awarded auction$"),
    ("apply_action action", lambda g: g.apply_action(0, -1), ValueError, r"action -1 out of range 0\.\.\d+ \(seat 0\)"),
    ("apply_action huge", lambda g: g.apply_action(0, 2**70), ValueError, rf"action {2**70} out of range"),
    ("apply_action range", lambda g: g.apply_action(0, 99), ValueError, r"action 99 out of range 0\.\.\d+ \(seat 0\)"),
    ("apply_chance_action id", lambda g: g.apply_chance_action(-1), qe.IllegalCommand, "R-SET-3: invalid chance outcome: not a pending chance outcome: chance action -1$"),
    ("apply_chance_action huge", lambda g: g.apply_chance_action(2**70), qe.IllegalCommand, rf"chance action {2**70}$"),
    ("apply_chance_action type", lambda g: g.apply_chance_action("a"), TypeError, "id must be an int, got str 'a'"),
    ("legal_actions seat type", lambda g: g.legal_actions("a"), TypeError, "seat must be an int, got str 'a'"),
    ("legal_actions huge seat", lambda g: g.legal_actions(2**70), ValueError, rf"seat must be from 0 to 3, got {2**70}"),
    ("events unprintable seat", lambda g: g.events(Unprintable()), ValueError, rf"seat must be from 0 to 3, got {2**70}$"),  # its int, not its repr
    ("__index__ raising", lambda g: g.legal_actions(Boom()), RuntimeError, "^boom$"),
    ("step not a sequence", lambda g: g.step(5), TypeError, r"actions must be a sequence .*, got int 5"),
    ("step str", lambda g: g.step("abc"), TypeError, "actions must be a sequence .*, got str 'abc'"),
    ("step float entry", lambda g: g.step([1.5, 0, 0, 0]), TypeError, r"actions\[0\] must be an int, got float 1.5"),
    ("step numpy float entry", lambda g: g.step(np.zeros(4)), TypeError, r"actions\[0\] must be an int, got float64"),
    ("step huge entry", lambda g: g.step([2**70, 0, 0, 0]), ValueError, rf"action {2**70} out of range 0\.\.\d+ \(seat 0\)"),
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
    ("VectorEnv seat without opponents", lambda g: qe.VectorEnv(2, seat=2), ValueError, "seat 2 is the learner's seat against opponents, but opponents is None"),
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
    assert qe._qe.Game.__text_signature__.startswith("(players=4, seed=None, *, expansions=None, commodities=None")
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


@pytest.mark.parametrize("game", [5, None, b"{}", ["{}"]])
def test_a_pickled_game_field_that_is_not_text_is_named(game: object) -> None:
    h = qe.Game(players=3, seed=1)
    before = h.record()
    with pytest.raises(ValueError, match=f"'game' must be a string, got {type(game).__name__}"):
        h.__setstate__({"game": game})
    assert h.record() == before


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
    with pytest.raises(ValueError, match="unknown agent 'x': expected one of seat_0, seat_1"):
        par.step({"x": 1, **{a: 0 for a in par.agents}})
    with pytest.raises(ValueError, match="unknown agent 0: expected one of seat_0"):
        par.step({0: 3})
    with pytest.raises(KeyError, match=r"actions has no entry for 'seat_0', which must act \(got 'seat_1'\)"):
        par.step({"seat_1": 1})
    with pytest.raises(TypeError, match=r"action must be an int, got float 2\.5"):
        par.step({a: 2.5 for a in par.agents})
    assert par.game.commands() == before
    aec = qe.pettingzoo.raw_env()
    aec.reset(seed=1)
    with pytest.raises(ValueError, match="unknown agent 'x': expected one of seat_0, seat_1"):
        aec.observe("x")
    with pytest.raises(TypeError, match="seat must be an int, got str 'a'"):
        qe.gym.QeEnv(seat="a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="players.*must be an int, got float 4.0"):
        qe.gym.QeEnv(players=4.0)  # type: ignore[arg-type]


def test_bots_name_a_game_that_is_not_one() -> None:
    import qe.bots

    with pytest.raises(TypeError, match="game must be a qe.Game, got str 'x'$"):
        qe.bots.Bot("value").action("x", 0)  # type: ignore[arg-type]
    native = qe._qe.Game(4, seed=1)
    with pytest.raises(TypeError, match=r"game must be a qe.Game, got qe._qe.Game "):
        qe.bots.play_out(native, "random")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"game must be a qe.Game, got str 'x'$"):
        qe.bots.play_out("x", "random")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "names, error, message",
    [
        (None, TypeError, r"names must be a bot name or a list of them, got NoneType None$"),
        (b"random", TypeError, r"names must be a bot name or a list of them, got bytes b'random'$"),
        (["random", 5, "x", "y"], TypeError, r"names\[1\] must be a bot name, got int 5$"),
        (["random"] * 3, ValueError, r"names must be one bot name or one per seat \(4\), got 3$"),
        ("x" * 1000, ValueError, r"unknown bot"),
    ],
)
def test_bot_names_are_checked_one_by_one(names: object, error: type, message: str) -> None:
    g = qe.Game(4, seed=1)
    with pytest.raises(error, match=message) as e:
        qe.bots.play_out(g, names)
    assert len(str(e.value)) < 400
    assert g.commands() == []


def test_env_arguments_are_read_as_given_not_coerced() -> None:
    import qe.gym
    import qe.pettingzoo

    for make in (qe.pettingzoo.parallel_env, qe.pettingzoo.raw_env, qe.gym.QeEnv):
        with pytest.raises(TypeError, match="peeks.*must be True or False, got str 'no'"):
            make(peeks="no")
        for ladder in ([], 0, ""):
            with pytest.raises(TypeError, match="ladder"):
                make(ladder=ladder)
        assert make(ladder=qe.BidLadder.linear(2, 5)).game.ladder.amounts == [0, 2, 4, 6, 8]
    with pytest.raises(TypeError, match=r"opponents\[1\] must be a bot name, got int 5$"):
        qe.gym.QeEnv(opponents=["value", 5, "value"])
    with pytest.raises(TypeError, match=r"opponents must be a bot name or a list of them, got bytes"):
        qe.gym.QeEnv(opponents=b"value")
    with pytest.raises(ValueError, match=r"seat must be from 0 to 3, got 1180591620717411303424$"):
        qe.gym.QeEnv(seat=2**70)
    for opponents in (None, ["value"] * 3):
        with pytest.raises(TypeError, match="opponents must be one bot name, which every other seat plays, got"):
            qe.gym.QeVectorEnv(2, opponents=opponents)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown render_mode 'x{59}\.\.\.: expected None or 'ansi'$"):
        qe.gym.QeEnv(render_mode="x" * 100_000)


@pytest.mark.parametrize("make", ["env", "parallel_env", "raw_env"])
def test_pettingzoo_names_an_unknown_render_mode(make: str) -> None:
    import qe.pettingzoo as qp

    with pytest.raises(ValueError, match=r"^unknown render_mode 'human': expected None or 'ansi'$"):
        getattr(qp, make)(render_mode="human")


@pytest.mark.parametrize("illegal", ["raise", "nearest"])
def test_an_action_past_64_bits_is_out_of_range_like_any_other(illegal: str) -> None:
    import qe.gym
    import qe.pettingzoo

    env = qe.gym.QeEnv(illegal=illegal)
    env.reset(seed=1)
    aec = qe.pettingzoo.raw_env(illegal=illegal)
    aec.reset(seed=1)
    if illegal == "raise":
        with pytest.raises(ValueError, match=r"action 1180591620717411303424 out of range 0\.\.15 \(seat 0\)"):
            env.step(2**70)
        with pytest.raises(ValueError, match=r"action -1180591620717411303424 out of range"):
            aec.step(-(2**70))
        assert env.game.commands() == [] and aec.game.commands() == []
    else:
        env.step(2**70)
        aec.step(-(2**70))
        # The nearest legal actions: the highest rung, and the lowest (the opening bid is at least 1).
        assert env.game.commands()[0] == {"seat": 0, "bid": 22}
        assert aec.game.commands()[0] == {"seat": 0, "bid": 1}


def test_a_rejected_aec_step_changes_nothing() -> None:
    import qe.pettingzoo

    env = qe.pettingzoo.raw_env(illegal="raise")
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.step(1)
    env.reset(seed=2)
    env.step(3)  # seat 0 opens; the others bid in turn
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    illegal = next(a for a in range(env.game.num_actions) if a not in env.game.legal_actions(seat))
    env._cumulative_rewards[agent] = 0.5  # as a reward the agent has not read yet would be
    env.infos[agent] = {"kept": True}

    def bookkeeping() -> object:
        return (dict(env._cumulative_rewards), {a: dict(i) for a, i in env.infos.items()}, env.agent_selection)

    before = bookkeeping()
    for bad in (illegal, "x"):
        with pytest.raises((qe.IllegalCommand, TypeError)):
            env.step(bad)
        assert bookkeeping() == before
    assert len(env.game.commands()) == 1


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


class Meddler:
    """An action whose ``__index__`` reads ``read(game)`` while the game is being stepped."""

    def __init__(self, game: qe.Game, read: object) -> None:
        self.game, self.read = game, read

    def __index__(self) -> int:
        self.read(self.game)  # type: ignore[operator]
        return 1


@pytest.mark.parametrize(
    "read",
    [
        lambda g: g.is_over,
        lambda g: g.to_act,
        lambda g: g.to_act_mask,
        lambda g: g.phase,
        lambda g: pickle.dumps(g),
    ],
    ids=["is_over", "to_act", "to_act_mask", "phase", "pickle"],
)
def test_reading_a_game_while_it_steps_is_a_runtime_error(read: object) -> None:
    g = qe.Game(4, seed=5)
    before = g.__getstate__()
    with pytest.raises(RuntimeError, match="borrowed"):
        g.step([Meddler(g, read), 1, 1, 1])
    assert g.__getstate__() == before


def test_a_callers_own_error_from_len_or_iter_comes_through() -> None:
    class BadLen:
        def __len__(self) -> int:
            raise RuntimeError("my len")

        def __getitem__(self, i: int) -> int:
            return 1

    class BadIter:
        def __iter__(self) -> object:
            raise RuntimeError("my iter")

    g = qe.Game(4, seed=5)
    with pytest.raises(RuntimeError, match="^my len$"):
        g.step(BadLen())
    with pytest.raises(RuntimeError, match="^my iter$"):
        qe.BidLadder(BadIter())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="^my iter$"):
        qe.Game(expansions=BadIter())  # type: ignore[arg-type]


def test_a_bad_pickled_state_leaves_a_live_game_as_it_was() -> None:
    g = qe.Game(4, seed=5)
    good = qe.Game(4, seed=6).__getstate__()
    before = g.__getstate__()
    step = g.step
    with pytest.raises(ValueError, match="'attrs' must be a dict"):
        g.__setstate__({"game": good["game"], "attrs": 5})
    with pytest.raises(ValueError, match="'attrs' may not set 'step'"):
        g.__setstate__({"game": good["game"], "attrs": {"step": "x"}})
    with pytest.raises(ValueError, match="'attrs' may not set 'bid'"):
        g.__setstate__({"game": good["game"], "attrs": {"bid": "x"}})
    assert g.__getstate__() == before
    assert g.step == step
    # The same rule when pickling: an attribute standing in for a method is refused there.
    h = qe.Game(4, seed=5)
    h.bid = "a note"  # type: ignore[method-assign]
    with pytest.raises(ValueError, match="the attribute 'bid' stands in for qe.Game's own"):
        pickle.dumps(h)


def test_env_arguments_are_checked_before_anything_is_sized_by_them() -> None:
    with pytest.raises(qe.SetupError, match="R-SET-1: a game has 3 to 5 players, not 1000000000"):
        qe.gym.QeEnv(players=10**9)
    with pytest.raises(qe.SetupError, match="R-SET-1: a game has 3 to 5 players, not 100000000"):
        qe.pettingzoo.parallel_env(players=10**8)
    with pytest.raises(TypeError, match="expansions must be a list of names"):
        qe.pettingzoo.parallel_env(expansions="commodities")
    with pytest.raises(TypeError, match="opponents must be a bot name or a list of them, got int 5"):
        qe.gym.QeEnv(opponents=5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a list of 2 seeds .* got a list of 0"):
        qe.gym.QeVectorEnv(2).reset(seed=[])


def test_stepping_before_reset_is_an_error_that_plays_nothing() -> None:
    env = qe.gym.QeEnv()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)
    assert env.game.commands() == []
    par = qe.pettingzoo.parallel_env()
    with pytest.raises(RuntimeError, match="reset"):
        par.step({"seat_0": 1})
    assert par.game.commands() == []


def test_vector_env_arrays_changed_in_place_are_named() -> None:
    env = qe.VectorEnv(2, players=3)
    obs, masks = env.reset(seed=1)
    actions = masks.argmax(-1)
    big = np.full((2, 3), 2**64 - 1, np.uint64)
    with pytest.raises(ValueError, match=f"action {2**64 - 1} out of range 0..{env.num_actions}"):
        env.step(big)
    masks.dtype = np.uint8
    with pytest.raises(TypeError, match="VectorEnv's mask array must stay int8, its dtype is now uint8"):
        env.step(actions)
    masks.dtype = np.int8
    obs.flags.writeable = False
    with pytest.raises(ValueError, match="VectorEnv's obs array"):
        env.step(actions)
    assert env.decisions == 0


def test_commands_and_records_as_dicts_take_numpy_ints_and_name_the_rest() -> None:
    g = qe.Game(4, seed=5)
    g.apply({"seat": np.int64(0), "bid": np.uint8(5)})
    assert g.commands() == [{"seat": 0, "bid": 5}]
    record = g.record_dict()
    assert record is not None
    record["seed"] = np.uint64(record["seed"])
    assert qe.Game.from_record(record).commands() == g.commands()
    with pytest.raises(ValueError, match="record must be JSON text or a dict"):
        qe.replay(_nested(100_000))


def test_play_out_seeds_wrap_at_2_64() -> None:
    g = qe.Game(3, seed=1)
    qe.bots.play_out(g, "random", seed=2**64 - 1)
    assert g.is_over
    h = qe.Game(3, seed=1)
    qe.bots.play_out(h, "random", seed=np.uint64(2**64 - 1))
    assert h.commands() == g.commands()
    with pytest.raises(OverflowError, match="seed must be an int from 0 to 18446744073709551615, got -1"):
        qe.bots.play_out(qe.Game(3, seed=1), "random", seed=-1)


def test_openspiel_states_reject_calls_that_do_not_apply() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401  (registers python_qe)

    game = pyspiel.load_game("python_qe")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()
    with pytest.raises(ValueError, match=r"action -1 out of range"):
        state.action_to_string(0, -1)
    with pytest.raises(ValueError, match=r"action 1000000 out of range"):
        state.action_to_string(0, 10**6)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.is_simultaneous_node():
            state.apply_actions([state.legal_actions(p)[0] for p in range(game.num_players())])
        else:
            state.apply_action(state.legal_actions()[0])
    with pytest.raises(qe.IllegalCommand, match="R-TRN-4: the game is over: action 0$"):
        state.apply_action(0)
    # The action is read (and checked as an int) before the game is found over.
    with pytest.raises(TypeError, match="action must be an int, got str 'x'"):
        state.qe.apply_action(0, "x")
    # Joint actions where the node is not simultaneous: an error, and the history stays as it was.
    for s in (game.new_initial_state(), state):
        history = s.history()
        with pytest.raises(ValueError, match="apply_actions.* not simultaneous"):
            s.apply_actions([0, 0, 0, 0])
        assert s.history() == history


def test_openspiel_joint_actions_only_at_simultaneous_nodes() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401  (registers python_qe)

    state = pyspiel.load_game("python_qe", {"players": 3}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # The auctioneer opens alone: one seat to act.
    assert not state.is_simultaneous_node()
    commands = list(state.qe.commands())
    with pytest.raises(ValueError, match=r"apply_actions\(\[2, 0, 0\]\) at a node that is not simultaneous \(current player 0\)"):
        state.apply_actions([2, 0, 0])
    assert list(state.qe.commands()) == commands
    state.apply_action(state.legal_actions()[0])
    assert state.is_simultaneous_node()
    with pytest.raises(ValueError, match=r"legal_actions\(\) of a simultaneous node needs a player"):
        state.legal_actions()


@pytest.mark.parametrize("step", ["step", "bid_all", "step_observe"])
def test_stepping_all_seats_when_none_may_act_is_the_rules_error(step: str) -> None:
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, qe.Game(4, seed=0).num_actions), np.int8)

    def call(g: qe.Game) -> object:
        args = ([0, 0, 0, 0], obs, mask) if step == "step_observe" else ([0, 0, 0, 0],)
        return getattr(g, step)(*args)

    over = qe.Game(4, seed=3)
    qe.bots.play_out(over, "random", seed=1)
    before = over.__getstate__()
    with pytest.raises(qe.IllegalCommand, match="^R-TRN-4: the game is over$") as e:
        call(over)
    assert e.value.code == 100
    assert over.__getstate__() == before
    waiting = qe.Game(4, external_chance=True)
    assert waiting.to_act == []
    with pytest.raises(qe.IllegalCommand, match="^R-SET-3: a chance outcome is pending") as e:
        call(waiting)
    assert e.value.code == 116
    assert waiting.commands() == []
    with pytest.raises(qe.IllegalCommand, match="^R-TRN-4: the game is over"):
        over.apply_chance_action(0)


def _shared(levels: int) -> list:  # type: ignore[type-arg]
    """A list holding the same list twice, ``levels`` times over: small in memory, but 2**levels
    leaves when written out or printed in full."""
    v: list = [0]  # type: ignore[type-arg]
    for _ in range(levels):
        v = [v, v]
    return v


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda g, v: g.view(v), TypeError, r"seat must be an int, got list \[\[\[\[...\], \[...\]\]"),
        (lambda g, v: g.bid(0, v), TypeError, r"amount must be an int, got list"),
        (lambda g, v: g.step([v, 0, 0, 0]), TypeError, r"actions\[0\] must be an int, got list"),
        (lambda g, v: g.apply({"seat": 0, "bid": v}), qe.IllegalCommand, r"a command is at most 4096 bytes of JSON, this one would be more: dict"),
        (lambda g, v: qe.replay({"format": "qe-record/1", "x": v}), qe.SetupError, r"a record is at most 1048576 bytes, this one would be more: dict"),
        (lambda g, v: qe.BidLadder([0, v]), TypeError, r"list"),
    ],
    ids=["view", "bid", "step", "apply", "replay", "BidLadder"],
)
def test_values_that_are_huge_only_when_written_out_are_refused_at_once(call: object, error: type, message: str) -> None:
    # 60 levels: printing or writing it in full would take 2**60 steps, so passing means the
    # error was built without doing so.
    g = qe.Game(4, seed=1)
    before = g.__getstate__()
    with pytest.raises(error, match=message) as e:
        call(g, _shared(60))  # type: ignore[operator]
    assert len(str(e.value)) < 300
    assert g.__getstate__() == before


def test_ladders_name_the_amounts_that_break_them() -> None:
    with pytest.raises(qe.SetupError, match=r"a linear ladder of 3 rungs 9223372036854775808 apart goes past the largest bid"):
        qe.BidLadder.linear(2**63, 3)
    assert qe.BidLadder.linear(2**62, 4).amounts == [0, 2**62, 2**63, 3 * 2**62]
    with pytest.raises(qe.SetupError, match=r"rung 2 \(3\) is not above rung 1 \(5\)"):
        qe.BidLadder([0, 5, 3])
    with pytest.raises(qe.SetupError, match=r"rung 1 \(0\) is not above rung 0 \(0\)"):
        qe.BidLadder.linear(0, 3)
    with pytest.raises(qe.SetupError, match=r"got first 1 and ratio NaN$"):
        qe.BidLadder.geometric(1, float("nan"), 6)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda g: g.take(0, 5), r"argument 'pile': must be a str, got int 5$"),
        (lambda g: g.discard(0, None), r"argument 'pile': must be a str, got NoneType None$"),
        (lambda g: g.returns(5), r"argument 'reward': must be a str, got int 5$"),
        (lambda g: qe.VectorEnv(2, opponents=5), r"argument 'opponents': must be a str, got int 5$"),
        (lambda g: qe.VectorEnv(2, reward=b"win"), r"argument 'reward': must be a str, got bytes b'win'$"),
        (lambda g: qe.bots.Bot(5), r"argument 'name': must be a str, got int 5$"),
        (lambda g: qe.Game(ladder=[0, 1, 2]), r"argument 'ladder': must be a qe.BidLadder or None, got list \[0, 1, 2\]$"),
        (lambda g: qe.VectorEnv(2, ladder="0:1"), r"argument 'ladder': must be a qe.BidLadder or None, got str '0:1'$"),
    ],
)
def test_text_and_ladder_arguments_quote_what_was_given(call: object, message: str) -> None:
    g = qe.Game(4, seed=1)
    with pytest.raises(TypeError, match=message):
        call(g)  # type: ignore[operator]


def test_an_unknown_pile_is_the_same_error_however_it_is_named() -> None:
    g = qe.Game(4, expansions=("commodities",), seed=1)
    for take in (lambda p: g.take(0, p), lambda p: g.apply({"seat": 0, "take_asset": p})):
        with pytest.raises(qe.IllegalCommand, match=r'^R-COM-5: malformed command: unknown pile "x{59}\.\.\.$') as e:
            take("x" * 1000)
        assert e.value.rule == "R-COM-5"
    with pytest.raises(qe.IllegalCommand, match='^R-COM-7: malformed command: unknown pile "silver"$'):
        g.discard(0, "silver")
    assert g.commands() == []


def test_a_seed_is_refused_where_it_would_be_dropped() -> None:
    with pytest.raises(ValueError, match="seed 5 has no use with external_chance=True"):
        qe.Game(4, seed=5, external_chance=True)
    assert qe.Game(4, external_chance=True).seed is None


@pytest.mark.parametrize(
    "turn, message",
    [
        (300, r"^R-VIS-5: turn 300 is not an awarded auction$"),
        (-1, r"^R-VIS-5: malformed command: peek takes a turn number, not -1$"),
        (2**70, r"^R-VIS-5: malformed command: peek takes a turn number, not 1180591620717411303424$"),
    ],
)
def test_a_peek_turn_is_read_as_the_record_reads_it(turn: int, message: str) -> None:
    g = qe.Game(5, seed=1)
    for peek in (lambda: g.peek(0, turn), lambda: g.apply({"seat": 0, "peek": turn})):
        with pytest.raises(qe.IllegalCommand, match=message):
            peek()
    assert g.commands() == []


def test_a_dict_of_actions_is_not_a_sequence_of_them() -> None:
    g = qe.Game(4, seed=1)
    for actions in ({0: 1, 1: 0, 2: 0, 3: 0}, {"seat_0": 1}):
        with pytest.raises(TypeError, match=r"actions must be a sequence with one entry per seat .*got dict"):
            g.step(actions)
    assert g.commands() == []


def test_openspiel_ladders_are_digits_only() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401  (registers python_qe)

    for ladder in ("0:1:2_0", "0:+1:2", "0:１:2", "0:1.5:2"):
        with pytest.raises(ValueError, match="ladder must be whole amounts joined by ':'"):
            pyspiel.load_game("python_qe", {"ladder": ladder})
    assert pyspiel.load_game("python_qe", {"ladder": "0:1:20"}).num_distinct_actions() > 0


def test_vector_reset_reads_every_seed_of_a_list() -> None:
    import qe.gym

    env = qe.gym.QeVectorEnv(2)
    with pytest.raises(TypeError, match=r"seed\[1\] must be an int, got str 'x'"):
        env.reset(seed=[1, "x"])
    with pytest.raises(TypeError, match=r"seed\[0\] must be an int, got NoneType None"):
        env.reset(seed=[None, None])  # type: ignore[list-item]
    obs, _ = env.reset(seed=[3, 4])
    assert obs.shape[0] == 2
    env.reset(seed=[2**64 - 1, 0])  # every seed qe.Game takes
    with pytest.raises(OverflowError, match=r"seed\[1\] must be an int from 0 to 18446744073709551615, got -1"):
        env.reset(seed=[1, -1])


def test_a_pickled_state_that_contradicts_its_record_is_refused() -> None:
    g = qe.Game(4, seed=2)
    g.bid(0, 3)
    before = g.__getstate__()
    for key, value, message in [
        ("players", 3, r"`players` is 3, but the record's game has 4"),
        ("commodities", True, r"`commodities` is true, but the record's game has false"),
        ("expansions", ["commodities"], r"`expansions` is \[\"commodities\"\], but the record's game has \[\]"),
        ("zzz", 1, r"unknown field `zzz`"),
        ("nations", ["US"], r"unknown field `nations`"),
    ]:
        state = json.loads(qe._qe.Game.__getstate__(g))
        state[key] = value
        with pytest.raises(ValueError, match=message):
            qe._qe.Game.__setstate__(g, json.dumps(state))
        assert g.__getstate__() == before
    for state, message in [
        ({"game": before["game"], "attrs": 0}, r"'attrs' must be a dict, got int 0"),
        ({"game": before["game"], "attrs": ""}, r"'attrs' must be a dict, got str ''"),
        ({"game": before["game"], "extra": 1}, r"unknown key 'extra'"),
    ]:
        with pytest.raises(ValueError, match=message):
            g.__setstate__(state)
        assert g.__getstate__() == before


def test_pettingzoo_seeds_are_read_as_ints() -> None:
    import qe.pettingzoo

    for make in (qe.pettingzoo.parallel_env, qe.pettingzoo.raw_env):
        env = make()
        with pytest.raises(TypeError, match="seed must be an int, got bool True"):
            env.reset(seed=True)
        with pytest.raises(OverflowError, match="seed must be an int from 0 to 18446744073709551615, got -1$"):
            env.reset(seed=-1)
        env.reset(seed=7)
        env.reset(seed=2**64 - 1)


@pytest.mark.parametrize(
    "actions, message",
    [
        (None, r"^actions must be integers, got NoneType None$"),
        ("abc", r"^actions must be integers, got <U3 'abc'$"),
        ([[1, 2], [3]], r"^actions must be integers of shape \[2, 4\], got list \[\[1, 2\], \[3\]\]: "),
        ([[2**70, 0, 0, 0]] * 2, r"^action 1180591620717411303424 out of range 0\.\.16$"),
        ([[1, None, 0, 0]] * 2, r"^actions must be integers, got NoneType None$"),
        (np.int64(0), r"^actions must have shape \[2, 4\], not \[\]$"),
    ],
)
def test_vector_env_actions_name_what_is_wrong(actions: object, message: str) -> None:
    env = qe.VectorEnv(2, players=4, seed=1)
    with pytest.raises(ValueError, match=message):
        env.step(actions)
    assert env.decisions == 0


def test_vector_env_bool_actions_are_not_integers() -> None:
    env = qe.VectorEnv(2, players=4, seed=1)
    with pytest.raises(ValueError, match=r"^actions must be integers, got bool"):
        env.step(np.ones((2, 4), dtype=bool))
    assert env.decisions == 0


def test_vector_env_action_past_the_wait_action_names_the_whole_range() -> None:
    """The range in the message is ``0..num_actions``, the wait action included."""
    env = qe.VectorEnv(1, players=4, seed=1)
    masks = env.observe()[1]
    seat = int(np.flatnonzero(masks[0, :, :-1].any(axis=-1))[0])
    n = env.num_actions
    for bad in (n, -1):
        actions = np.full((1, 4), env.wait_action)
        actions[0, seat] = bad
        with pytest.raises(ValueError, match=rf"^action {bad} out of range 0\.\.{n} \(seat {seat}\)$") as e:
            env.step(actions)
        assert (e.value.env, e.value.seat) == (0, seat)  # type: ignore[attr-defined]
    assert env.decisions == 0


def test_vector_env_seat_must_be_a_seat_of_the_game_without_opponents_too() -> None:
    """A seat of no game is out of range with or without opponents; without opponents, where
    every seat is played, a seat other than the default is refused rather than ignored."""
    for players in (3, 4, 5):
        with pytest.raises(ValueError, match=rf"^seat must be from 0 to {players - 1}, got {players}$"):
            qe.VectorEnv(2, players=players, seat=players)
    with pytest.raises(ValueError, match="^seat 3 is the learner's seat against opponents"):
        qe.VectorEnv(2, players=4, seat=3)
    assert qe.VectorEnv(2, players=4, seat=0).players == 4
    assert qe.VectorEnv(2, players=4, seat=3, opponents="random").observe()[0].shape == (2, qe.OBS_SIZE)


def test_a_record_that_holds_itself_is_refused_at_once() -> None:
    # A list holding itself 1000 times, or a dict holding itself 300 times: each visit of the
    # walk that sizes it could add a thousand more; the walk is charged for what it holds.
    s: list = []  # type: ignore[type-arg]
    s.extend([s] * 1000)
    d: dict = {}  # type: ignore[type-arg]
    for i in range(300):
        d[str(i)] = d
    for record in (s, d):
        with pytest.raises(qe.SetupError, match=r"^RECORD: bad record: a record is at most 1048576 bytes, this one would be more: "):
            qe.replay(record)
        with pytest.raises(qe.SetupError, match=r"^RECORD: bad record: a record is at most 1048576 bytes, this one would be more: "):
            qe.Game.from_record(record)


def test_quotes_are_short_for_every_kind_of_container() -> None:
    import collections

    x: list = [0]  # type: ignore[type-arg]
    for _ in range(60):
        x = [x, x]

    class L(list):  # type: ignore[type-arg]
        pass

    objects = np.empty(2, dtype=object)
    objects[0], objects[1] = x, 0
    q = qe._qe.quote
    for value, shown in [
        ([0, 1, 2], "[0, 1, 2]"),
        ((1,), "(1,)"),
        ({"a": 1, "b": [1, 2]}, "{'a': 1, 'b': [1, 2]}"),
        (set(), "set()"),
        (frozenset({3}), "frozenset({3})"),
        (list(range(20)), "[0, 1, 2, 3, 4, 5, 6, 7, ...]"),
        (L([x]), "L([[[[...], [...]], [[...], [...]]]])"),
        (collections.deque([x]), "deque([[[[...], [...]], [[...], [...]]]])"),
        (collections.OrderedDict(a=x), "OrderedDict({'a': [[[...], [...]], [[...], [...]]]})"),
        (objects, "ndarray([[[[...], [...]], [[...], [...]]], 0])"),
        (np.int64(3), "np.int64(3)"),
    ]:
        assert q(value) == shown
    g = qe.Game(4, seed=1)
    with pytest.raises(TypeError, match=r"seat must be an int, got L L\(\[\[\[\["):
        g.view(L([x]))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda g: qe.VectorEnv(1, opponents="v" * 10**6), ValueError, r'^unknown opponents "v{60}\.\.\."'),
        (lambda g: g.take(0, "\udc80"), TypeError, r"argument 'pile': must be text UTF-8 can hold"),
        (lambda g: qe.bots.Bot("\udc80"), TypeError, r"argument 'name': must be text UTF-8 can hold"),
    ],
)
def test_text_arguments_are_quoted_short_and_read_as_utf8(call: object, error: type, message: str) -> None:
    g = qe.Game(4, seed=1)
    with pytest.raises(error, match=message) as e:
        call(g)  # type: ignore[operator]
    assert len(str(e.value)) < 400


def test_openspiel_joint_actions_are_one_per_player_and_idle_seats_pass_or_peek() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401  (registers python_qe)

    state = pyspiel.load_game("python_qe", {"players": 3}).new_initial_state()
    while not state.is_simultaneous_node():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match=r"apply_action\(0\) at a simultaneous node .*use apply_actions"):
        state.apply_action(0)
    acting = list(state.qe.to_act)
    idle = [p for p in range(3) if p not in acting]
    history = state.history()
    good = [state.legal_actions(p)[0] for p in range(3)]
    with pytest.raises(ValueError, match=r"one action per player \(3\), got 6"):
        state.apply_actions(good + [5, 5, 5])
    if idle:
        bad = list(good)
        bad[idle[0]] = 0
        with pytest.raises(ValueError, match=rf"player {idle[0]} has nothing to do here"):
            state.apply_actions(bad)
    assert state.history() == history
    state.apply_actions(good)
    # 5 players with peeks: a seat with nothing to do may peek at a simultaneous node, and its peek
    # is played (it used to be dropped while the history kept it).
    import random

    rng = random.Random(1)
    game = pyspiel.load_game("python_qe", {"players": 5, "peeks": True})
    who = None
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal() and who is None:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if not state.is_simultaneous_node():
                p = state.current_player()
                state.apply_action(rng.choice([a for a in state.legal_actions() if "peek" not in state.action_to_string(p, a)]))
                continue
            acting = list(state.qe.to_act)
            actions = []
            for p in range(5):
                legal = state.legal_actions(p)
                peeks = [a for a in legal if "peek" in state.action_to_string(p, a)]
                if p not in acting and peeks and who is None:
                    actions.append(peeks[0])
                    who = p
                else:
                    actions.append(rng.choice([a for a in legal if a not in peeks]))
            if who is not None:
                # All or nothing: with a seat that must act given an action out of range, the
                # peek is not played either.
                commands, history = state.qe.commands(), state.history()
                bad = list(actions)
                bad[acting[0]] = game.num_distinct_actions() + 5
                with pytest.raises(ValueError, match="out of range"):
                    state.apply_actions(bad)
                assert state.qe.commands() == commands and state.history() == history
            state.apply_actions(actions)
        if who is not None:
            break
    assert who is not None, "no seat with nothing to do could peek in 30 games"
    assert any(c.get("seat") == who and "peek" in c for c in state.qe.commands())


def test_mappings_and_sets_are_not_sequences() -> None:
    import collections
    import types

    g = qe.Game(4, seed=1)
    for actions in (types.MappingProxyType({0: 1, 1: 0, 2: 0, 3: 0}), collections.UserDict({0: 1})):
        with pytest.raises(TypeError, match="actions must be a sequence with one entry per seat"):
            g.step(actions)
        with pytest.raises(TypeError, match="amounts must be a sequence with one entry per seat"):
            g.bid_all(actions)
    for amounts in ({0: "a", 5: "b"}, {0, 9, 1}):
        with pytest.raises(TypeError, match="must be a sequence of ints, got"):
            qe.BidLadder(amounts)  # type: ignore[arg-type]
    assert g.commands() == []


def test_geometric_ladders_refuse_rungs_past_the_largest_bid_and_read_the_ratio() -> None:
    for first, ratio in [(2**63, 2.0), (1, 1e300), (1, float("inf"))]:
        with pytest.raises(qe.SetupError, match=r"a geometric ladder of 3 rungs from .* goes past the largest bid"):
            qe.BidLadder.geometric(first, ratio, 3)
    assert qe.BidLadder.geometric(2**62, 2.0, 3).amounts == [0, 2**62, 2**63]
    assert qe.BidLadder.geometric(2**53 + 1, 1.5, 2).amounts == [0, 2**53 + 1]
    assert qe.BidLadder.geometric(1, 2, 4).amounts == [0, 1, 2, 4]
    with pytest.raises(TypeError, match=r"argument 'ratio': must be a number, got bool True$"):
        qe.BidLadder.geometric(1, True, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"argument 'ratio': must be a number, got str '2'$"):
        qe.BidLadder.geometric(1, "2", 3)  # type: ignore[arg-type]
    with pytest.raises(OverflowError, match=r"^ratio must be a float, got 1148130695274254524"):
        qe.BidLadder.geometric(1, 2**2000, 3)


def test_geometric_ratio_takes_any_real_number() -> None:
    """A ratio is an int or a float, numpy's too (``numpy.float32`` is no ``float`` subclass), or
    anything with ``__float__``."""
    want = qe.BidLadder.geometric(1, 2.0, 4).amounts
    for ratio in (np.float32(2.0), np.float16(2.0), fractions.Fraction(2, 1)):
        assert qe.BidLadder.geometric(1, ratio, 4).amounts == want, ratio  # type: ignore[arg-type]


def test_flags_take_numpy_bools() -> None:
    with pytest.warns(DeprecationWarning, match=r"commodities=True is deprecated"):
        assert qe.Game(4, commodities=np.True_, seed=1).commodities is True
    assert qe._qe.Game(4, 1, peeks=np.True_).peeks is True
    env = qe.VectorEnv(2, all_seats=np.False_, zero_others=np.True_, peeks=np.False_)
    assert env.peeks is False
    g = qe.Game(4, seed=1)
    assert g.observation(0, bounds=np.True_).shape == (qe.OBS_SIZE + qe.BOUNDS_SIZE,)


def test_more_than_16_expansion_names_are_refused() -> None:
    # 16 names are read (and one named twice is refused), more are not read at all.
    with pytest.raises(ValueError, match=r"^`commodities` listed twice$"):
        qe.Game(expansions=["commodities"] * 16, seed=1)
    for n in (17, 18, 1000):
        with pytest.raises(ValueError, match=r"^expansions has more than 16 names$"):
            qe.Game(expansions=["commodities"] * n, seed=1)
        with pytest.raises(ValueError, match=r"^expansions has more than 16 names$"):
            qe.VectorEnv(1, expansions=["commodities"] * n)


def test_an_int_too_long_to_print_is_quoted_by_its_size() -> None:
    """An int whose repr raises (past Python's int-to-str digit limit, which CPython has had
    since 3.10.7; the test sets it, as ``PYTHONINTMAXSTRDIGITS`` may have turned it off)."""
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("SKIPPED: this Python has no int-to-str digit limit, so every int prints")
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        huge = 10**5000
        with pytest.raises(ValueError):
            repr(huge)
        assert qe._qe.quote(huge) == f"an int of {huge.bit_length()} bits"
        g = qe.Game(4, seed=1)
        with pytest.raises(ValueError, match=rf"^seat must be from 0 to 3, got an int of {huge.bit_length()} bits$"):
            g.view(huge)
    finally:
        sys.set_int_max_str_digits(before)


def test_unaligned_buffers_are_refused() -> None:
    g = qe.Game(4, seed=1)

    def unaligned(shape: tuple, dtype: type) -> np.ndarray:  # type: ignore[type-arg]
        n = int(np.prod(shape)) * np.dtype(dtype).itemsize
        a = np.zeros(n + 1, np.uint8)[1:].view(dtype).reshape(shape)
        assert not a.flags.aligned and a.flags.c_contiguous and a.flags.writeable
        return a

    mask = np.zeros((4, g.num_actions), np.int8)
    with pytest.raises(ValueError, match=r"^obs must be a writeable, aligned, C-contiguous array, got one that is unaligned$"):
        g.observe_into(unaligned((4, qe.OBS_SIZE), np.float32), mask)
    with pytest.raises(ValueError, match=r"^out must be .* got one that is unaligned$"):
        g.observation_into(0, unaligned((qe.OBS_SIZE,), np.float32))
    with pytest.raises(ValueError, match=r"^out must be .* got one that is unaligned$"):
        g.information_state_into(0, unaligned((qe.INFO_STATE_SIZE,), np.float32))


def test_the_wait_action_of_a_seat_that_must_act_is_named() -> None:
    import qe.pettingzoo

    aec = qe.pettingzoo.raw_env(illegal="raise")
    aec.reset(seed=1)
    with pytest.raises(ValueError, match=r"^action 15 is the wait action, but seat 0 must act$"):
        aec.step(aec.wait_action)
    par = qe.pettingzoo.parallel_env(illegal="raise")
    par.reset(seed=1)
    with pytest.raises(ValueError, match=r"^action 15 is the wait action, but seat 0 must act$"):
        par.step({a: par.wait_action for a in par.agents})
    env = qe.VectorEnv(1, seed=1)
    env.reset(1)
    with pytest.raises(ValueError, match=r"action 15 is the wait action, but seat 0 must act"):
        env.step(np.full((1, 4), 15))


def test_vector_env_seats_past_128_bits_are_out_of_range_like_any_other() -> None:
    for seat in (2**127, 2**200, 9):
        with pytest.raises(ValueError, match=r"^seat must be from 0 to 3, got "):
            qe.VectorEnv(2, opponents="value", seat=seat)


def test_an_external_pickled_state_names_commodities_once() -> None:
    g = qe.Game(4, expansions=("commodities",), external_chance=True)
    for commodities, expansions in [(False, ["commodities"]), (True, [])]:
        state = json.loads(qe._qe.Game.__getstate__(g))
        state["commodities"], state["expansions"] = commodities, expansions
        with pytest.raises(ValueError, match=r"`commodities` is (true|false), but `expansions` is"):
            qe._qe.Game.__setstate__(g, json.dumps(state))


def test_a_command_past_the_limit_is_the_same_error_as_text_or_as_a_dict() -> None:
    g = qe.Game(4, expansions=("commodities",), seed=1)
    big = {"seat": 0, "bid": 1, "x": "y" * 5000}
    for command in (big, json.dumps(big)):
        with pytest.raises(qe.IllegalCommand, match=r"^R-AUC-12: malformed command: a command is at most 4096 bytes of JSON") as e:
            g.apply(command)
        assert e.value.code == 118
    # Text that is not ASCII counts its UTF-8 bytes either way, and is quoted as given.
    for take in (lambda p: g.take(0, p), lambda p: g.apply({"seat": 0, "take_asset": p})):
        with pytest.raises(qe.IllegalCommand, match=r'unknown pile "éé'):
            take("é" * 100)
    for bad in ({"seat": 0, "take_asset": "\udc80"}, "\udc80"):
        with pytest.raises(ValueError, match="command holds text UTF-8 cannot hold"):
            g.apply(bad)
    assert g.commands() == []


def test_more_actions_than_seats_is_an_error() -> None:
    g = qe.Game(4, seed=1)
    for actions in ([1, 0, 0, 0, "junk"], (1, 0, 0, 0, 0), np.array([1, 0, 0, 0, 0])):
        with pytest.raises(ValueError, match=r"^actions has 5 entries, one per seat of this 4-player game at most$"):
            g.step(actions)
    with pytest.raises(ValueError, match=r"^amounts has 6 entries"):
        g.bid_all([1] * 6)
    assert g.commands() == []
    g.step([1, 0, 0])  # shorter is fine while it covers the seats that act (here seat 0)
    assert len(g.commands()) == 1


def test_gym_vector_actions_are_read_by_the_native_env() -> None:
    import qe.gym

    env = qe.gym.QeVectorEnv(2)
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"^actions must be integers of shape \[2\], got list \[\[1\], \[1, 2\]\]: "):
        env.step([[1], [1, 2]])
    with pytest.raises(TypeError, match=r"argument 'record': must be a str, got int 5$"):
        qe._qe.Game.from_record(5)


def test_openspiel_masks_of_a_player_at_a_chance_node_do_not_corrupt_memory() -> None:
    """pyspiel's own ``legal_actions_mask(player)`` at a chance node of a Python game writes the
    chance outcomes past the end of a ``num_distinct_actions`` mask (a heap overflow: a crash
    soon after). The state's mask is all zeros there: the player has nothing to do. Run in a
    child process, so a regression is a failure, not a crashed test run."""
    script = """
import pyspiel, qe.openspiel
g = pyspiel.load_game("python_qe", {"players": 5})
s = g.new_initial_state()
assert s.is_chance_node() and len(s.legal_actions(0)) > g.num_distinct_actions()
for _ in range(300):
    m = s.legal_actions_mask(0)
    junk = [list(range(50)) for _ in range(50)]
assert m == [0] * g.num_distinct_actions(), m
assert sum(s.legal_actions_mask(pyspiel.PlayerId.CHANCE)) == len(s.legal_actions())
while s.is_chance_node():
    s.apply_action(s.legal_actions()[0])
p = s.current_player()
assert s.legal_actions_mask(p) == [int(a in s.legal_actions(p)) for a in range(g.num_distinct_actions())]
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])


def _played_spiel_state(params: dict, moves: int, seed: int):  # type: ignore[no-untyped-def]
    import random

    import pyspiel

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return game, state


class _Touch:
    """A pickle that creates a file when loaded."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        import pathlib

        return pathlib.Path.touch, (pathlib.Path(self.path),)


def test_openspiel_states_serialize_as_their_history_and_run_no_code(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A python_qe state is written as its history (the ``__dict__`` part is the empty dict) and
    read back by replaying it through the core; a crafted ``__dict__`` pickle is refused unread."""
    import base64

    import pyspiel

    game, state = _played_spiel_state({"players": 5, "peeks": True}, 40, 3)
    text = pyspiel.serialize_game_and_state(game, state)
    assert text.splitlines()[-1] == "__dict__=" + base64.b64encode(pickle.dumps({})).decode()
    for back in (pyspiel.deserialize_game_and_state(text)[1], game.deserialize_state(state.serialize()),
                 pickle.loads(pickle.dumps(state)), state.clone(), pyspiel.State.clone(state),
                 pyspiel.Game.deserialize_state(game, state.serialize())):
        assert back.history() == state.history() and back.move_number() == state.move_number()
        assert back.qe.commands() == state.qe.commands() and str(back) == str(state)

    marker = tmp_path / "marker"
    payload = base64.b64encode(pickle.dumps({"qe": _Touch(str(marker))})).decode()
    lines = text.splitlines()
    crafted = "\n".join(lines[:-1] + ["__dict__=" + payload])
    msg = r"^a python_qe state is its history: its __dict__ must be the empty dict's, got 'gA"
    with pytest.raises(ValueError, match=msg):
        pyspiel.deserialize_game_and_state(crafted)
    with pytest.raises(ValueError, match=msg):
        game.deserialize_state(crafted.split("[State]\n")[1])
    assert not marker.exists()
    pickle.loads(base64.b64decode(payload))  # the payload is live: loaded, it makes the file
    assert marker.exists()


_LADDER_ATTACK = """
import pyspiel, random, qe.openspiel
game = pyspiel.load_game("python_qe", {"players": 3, "ladder": "0:1:2"})
state = game.new_initial_state()
rng = random.Random(0)
def passed():
    return any(pa.player >= 0 and pa.action == 6 for pa in state.full_history())
def idle():
    return [p for p in range(3) if state.is_simultaneous_node() and state.legal_actions(p)[-1:] == [6]]
while not (passed() and idle()):
    if state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
text = pyspiel.serialize_game_and_state(game, state)
assert "ladder=0:1:2," in text, text
try:
    pyspiel.deserialize_game_and_state(text.replace("ladder=0:1:2", "ladder=0:5"))
except ValueError as e:
    print(e)
else:
    raise SystemExit("the edited game was accepted")
# The place that writes a mask refuses an action outside it, however the state came to hold one.
seat = idle()[0]
state._pass = 9
try:
    state.legal_actions_mask(seat)
except ValueError as e:
    print(e)
else:
    raise SystemExit("an action outside the mask was written")
"""


def test_openspiel_a_state_of_an_edited_game_is_an_error_not_a_crash() -> None:
    """Editing the ladder of a serialized game and state (``ladder=0:1:2`` to ``0:5``) left the
    state's pass action past the new game's mask, and ``legal_actions_mask`` wrote there (a heap
    overflow, an abort). Run in a child process, so a crash is a failure, not a lost test run."""
    r = subprocess.run([sys.executable, "-c", _LADDER_ATTACK], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    edited, outside = r.stdout.strip().splitlines()
    assert edited.startswith("the state does not fit the game python_qe(commodities=False,expansions=,"
                             "ladder=0:5,peeks=False,players=3): history entry ")
    assert "its action is pass (5) or a peek it may take, got 6" in edited
    assert outside.startswith("legal actions [") and outside.endswith("fall outside 0..7")


@pytest.mark.parametrize(
    "state, message",
    [
        ("history=\nmove_number=0", "a python_qe state is the three lines history=, move_number= and __dict__="),
        ("history=0:x\nmove_number=1\n__dict__=gAR9lC4=", "a history entry is player:action, got '0:x'"),
        ("history=-1:0\nmove_number=2\n__dict__=gAR9lC4=", "move_number=2 but its history has 1 moves"),
        ("history=0:0\nmove_number=1\n__dict__=gAR9lC4=", "history entry 0 (0:0): player 0 does not move here (current player -1)"),
        ("history=-1:999\nmove_number=1\n__dict__=gAR9lC4=", "history entry 0 (-1:999): "),
    ],
)
def test_openspiel_malformed_states_are_value_errors(state: str, message: str) -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    game = pyspiel.load_game("python_qe", {"players": 3})
    with pytest.raises(ValueError, match=re.escape(message)):
        game.deserialize_state(state)


def test_records_are_quoted_as_written_and_read_from_bytes() -> None:
    g = qe.Game(3, seed=1)
    text = g.record()
    assert '"players":3' in text
    with pytest.raises(qe.SetupError, match=r"^RECORD: bad record: `players` must be 3, 4 or 5, not -0$"):
        qe.Game.from_record(text.replace('"players":3', '"players":-0'))
    # bytes and bytearray are UTF-8 text; other bytes are a ValueError quoting them.
    for raw in (text.encode(), bytearray(text.encode())):
        assert qe.Game.from_record(raw).record() == text
        assert qe.replay(raw) is None
    with pytest.raises(ValueError, match=r"^record is bytes that is not UTF-8 text \(.*\), got b'\\xff\{'$"):
        qe.Game.from_record(b"\xff{")
    bom = "RECORD: bad record: the record starts with a byte order mark (U+FEFF), which JSON text may not have"
    with pytest.raises(qe.SetupError, match=re.escape(bom)):
        qe.Game.from_record("\ufeff" + text)
    with pytest.raises(qe.SetupError, match=re.escape(bom)):
        qe.Game.from_record(("\ufeff" + text).encode())


def test_an_expansion_named_twice_is_refused_everywhere_with_one_message() -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    twice = "`commodities` listed twice"
    with pytest.raises(ValueError, match=f"^{twice}$"):
        qe.Game(3, expansions=["commodities", "commodities"])
    with pytest.raises(ValueError, match=f"^{twice}$"):
        pyspiel.load_game("python_qe", {"expansions": "commodities:commodities"})
    record = json.loads(qe.Game(3, seed=1, expansions=["commodities"]).record())
    record["expansions"] = ["commodities", "commodities"]
    with pytest.raises(qe.SetupError, match=f"^RECORD: bad record: {twice}$"):
        qe.Game.from_record(record)
    # The shorthand is not a second naming.
    assert qe.Game(3, expansions=["commodities"]).expansions == ["commodities"]


@pytest.mark.parametrize("param, text", [("ladder", "0:1:::2"), ("ladder", "0:1:"), ("expansions", "commodities:")])
def test_openspiel_lists_with_an_empty_entry_are_refused(param: str, text: str) -> None:
    import pyspiel

    import qe.openspiel  # noqa: F401

    with pytest.raises(ValueError, match=f"^{param} has an empty entry: {re.escape(repr(text))}$"):
        pyspiel.load_game("python_qe", {param: text})


class _Huge:
    """An object whose ``__index__`` is 2**200."""

    def __index__(self) -> int:
        return 2**200


def test_an_index_past_every_range_is_quoted_as_its_integer() -> None:
    g = qe.Game(3, seed=1)
    huge = str(2**200)[:60] + "..."
    for call, error, message in [
        (lambda: g.apply_action(0, _Huge()), ValueError, f"action {huge} out of range 0..15 (seat 0)"),
        (lambda: g.step([_Huge()]), ValueError, f"action {huge} out of range 0..15 (seat 0)"),
        (lambda: g.bid(0, _Huge()), qe.IllegalCommand, f"R-AUC-4: bid out of range: {huge} "),
        (lambda: g.legal_actions(_Huge()), ValueError, f"seat must be from 0 to 2, got {huge}"),
        (lambda: qe.Game(3, seed=_Huge()), OverflowError, f"seed must be an int from 0 to {2**64 - 1}, got {huge}"),
        (lambda: qe.BidLadder([_Huge()]), OverflowError, f"amounts[0] must be an int from 0 to {2**64 - 1}, got {huge}"),
    ]:
        with pytest.raises(error, match=f"^{re.escape(message)}"):
            call()


@pytest.mark.parametrize("name", ["env", "raw_env", "parallel_env", "QeAECEnv", "QeParallelEnv"])
def test_pettingzoo_unknown_keywords_name_the_public_function(name: str) -> None:
    import qe.pettingzoo

    with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument 'bogus' \(it takes players, "):
        getattr(qe.pettingzoo, name)(bogus=1)


def test_a_tampered_vector_env_state_is_a_value_error_and_changes_nothing() -> None:
    env = qe.VectorEnv(2, players=3, seed=1, opponents="random")
    for _ in range(5):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.observe()[1]]))
    make, (kwargs, state) = env.__reduce__()
    before = env.observe()[0].copy()
    games = json.loads(state["games"][0])
    assert games, state
    cases = [
        ({"games": "x"}, "`games` must be a list of str, got str 'x'"),
        ({"started": [1]}, "`started` must have one entry per env (2), got 1"),
        ({"started": [0, 1]}, "env 0: `started` must be at least 1, got 0"),
        ({"games": [json.dumps(games + [{"seat": 0, "bid": -1}]), state["games"][1]]}, "env 0, command "),
        ({"games": [json.dumps([{"seat": 9, "bid": 1}]), state["games"][1]]}, "env 0, command 0 "),
        ({"games": ["[", state["games"][1]]}, "env 0: the commands are not a JSON list"),
        ({"streams": [[None, None, None], state["streams"][1]]}, "env 0, seat 1: `streams` must be 2 ints"),
    ]
    for change, message in cases:
        bad = dict(state, **change)
        with pytest.raises(ValueError, match=re.escape(f"VectorEnv state: {message}")):
            env._set_state(bad)
        assert (env.observe()[0] == before).all()
    with pytest.raises(ValueError, match=r"^VectorEnv state: missing `episodes`$"):
        env._set_state({k: v for k, v in state.items() if k != "episodes"})
    env._set_state(state)  # the state as saved is read back
    assert (env.observe()[0] == before).all()


def test_a_whole_ratio_is_quoted_in_all_its_digits() -> None:
    with pytest.raises(qe.SetupError, match=rf"from 1 by {2**64} goes past the largest bid"):
        qe.BidLadder.geometric(1, 2**64, 3)
    with pytest.raises(qe.SetupError, match=r"got first 1 and ratio 0.5$"):
        qe.BidLadder.geometric(1, 0.5, 3)
