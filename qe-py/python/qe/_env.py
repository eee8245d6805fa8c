"""What the environments (:mod:`qe.gym`, :mod:`qe.pettingzoo`) share: how they read an int
argument or an agent's action, and what they play for an illegal action."""

from __future__ import annotations

import operator
import os
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

from . import _qe

if TYPE_CHECKING:
    from . import Game


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def expansions_of(expansions: Optional[Sequence[str]], commodities: Optional[bool]) -> List[str]:
    """The expansions of an adapter's ``expansions=`` and deprecated ``commodities=`` keywords
    (``qe._qe._expansions``), the ``DeprecationWarning`` pointed at the first line outside this
    package: the user's, whatever adapter and wrapper made the env."""
    # Level 1 is this function (the caller of the extension function), 2 its caller, and so on.
    frame, level = sys._getframe(1), 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return _qe._expansions(expansions, commodities, level)


def as_int(value: Any, name: str) -> int:
    """``value`` as an int: an int, a numpy integer or a 0-d integer array. Anything else (a
    float, a string...) is a ``TypeError`` naming ``name`` and quoting the value, never truncated
    to an int; an int outside 64 bits an ``OverflowError``. The extension reads it, so the
    messages are those of its own arguments."""
    return _qe.int_arg(value, name)


def as_seed(value: Any, name: str) -> int:
    """``value`` as a seed, an int from 0 to 2**64 - 1, read as :class:`qe.Game` reads its seed:
    a ``TypeError`` or an ``OverflowError`` naming ``name`` and quoting the value otherwise."""
    return _qe.seed_arg(value, name)


def type_of(value: Any) -> str:
    """The name of ``value``'s type for an error message: qualified by its module outside
    ``builtins`` (the extension's own game is also called ``Game``)."""
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def as_seat(value: Any, players: int, name: str) -> int:
    """``value`` (the argument ``name``) as a seat of a ``players``-seat game: a ``TypeError`` as
    for :func:`as_int`, a ``ValueError`` with the range for an int that is no seat (past 64 bits
    too). The extension reads it, so the messages are those of its own seat arguments."""
    return _qe.seat_arg(value, players, name)


ILLEGAL = ("nearest", "raise")
"""The ways an environment may treat an illegal action (its ``illegal`` argument)."""


def check_illegal(illegal: str) -> str:
    """``illegal`` itself when it is one of :data:`ILLEGAL`, else a ``ValueError`` naming it."""
    if illegal not in ILLEGAL:
        expected = " or ".join(repr(m) for m in ILLEGAL)
        raise ValueError(f"unknown illegal {_qe.quote(illegal)}: expected {expected}")
    return illegal


def legalize(
    game: "Game",
    seat: int,
    action: Any,
    illegal: str,
    info: Dict[str, Any],
    wait: Optional[int] = None,
) -> int:
    """The action to play for ``seat``'s ``action``: the action itself when it is legal, or with
    ``illegal="raise"`` (playing it then raises :class:`qe.IllegalCommand` naming it; the env's
    ``wait`` action, which the game does not have, is a ``ValueError`` saying so, as
    ``qe.VectorEnv`` says it); otherwise the lowest legal action above it, else the highest, with
    ``info["illegal_action"] = True``."""
    try:
        a = as_int(action, "action")
    except OverflowError:
        # An int past 64 bits is out of range like any other: the nearest legal action, or with
        # "raise" the game's own error for it.
        a = operator.index(action)
    if a == wait and illegal == "raise":
        raise ValueError(f"action {a} is the wait action, but seat {seat} must act")
    legal = game.legal_actions(seat)
    if a in legal or illegal == "raise":
        return a
    info["illegal_action"] = True
    above = [x for x in legal if x > a]
    return above[0] if above else legal[-1]
