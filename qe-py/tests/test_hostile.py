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
