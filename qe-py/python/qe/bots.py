"""The baseline bots of ``qe_core::bots`` for any seat of a :class:`qe.Game`, and as OpenSpiel bots.

Bots are built by name through the core (``qe_core::bots::NamedBot``), so every name the core
knows works here, and each decides as in ``qe simulate --bots``, the C ABI and
``VectorEnv(opponents=...)``; the documented names are :data:`NAMES`. A bot decides from what
its seat may know only (never hidden information): its view, and for the search bots the seat's
bid history (its own past bids, which the view forgets). It follows the game's manifest and is
deterministic for its seed.

```python
import qe, qe.bots

g = qe.Game(4, seed=1)
bots = [qe.bots.Bot("value", seed=s) for s in range(4)]
while not g.is_over:
    for s in g.to_act:
        bots[s].play(g, s)          # its exact command (any amount)
```

``Bot.action(game, seat)`` gives the decision as an action of the game's action space instead
(a bid between rungs becomes the nearest legal rung), ``Bot.command(game, seat)`` in record form;
:func:`spiel_bot` wraps a bot as a ``pyspiel.Bot`` for ``python_qe`` (:mod:`qe.openspiel`).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import _qe
from ._env import type_of

if TYPE_CHECKING:
    from . import Game
    from .openspiel import QeOpenSpielGame, QeSpielBot

__all__ = ["LEVELS", "NAMES", "Bot", "Search", "play_out", "spiel_bot"]

NAMES: Tuple[str, ...] = tuple(_qe.bot_names())
"""The documented bot names of ``qe_core::bots`` (``Bot`` takes any name the core knows)."""

LEVELS: Tuple[str, ...] = tuple(n.split(":", 1)[1] for n in NAMES if n.startswith("search:"))
"""The search bot's presets (``easy``, ``medium``, ``hard``, and ``mixed``: ``medium`` drawing its
secret bids of the last auctions from the mixed strategy of its joint regret matching), read from :data:`NAMES`."""


def _checked_game(game: "Game") -> Any:
    """``game`` when it is a game (:class:`qe.Game` extends the extension's ``_qe.Game``), or a
    ``TypeError`` naming what was given instead (the extension's own game too: a bot plays a
    :class:`qe.Game`)."""
    from . import Game

    if not isinstance(game, Game):
        raise TypeError(f"game must be a qe.Game, got {type_of(game)} {_qe.quote(game)}")
    return game


def bot_names(names: Any, count: int, what: str, per: str) -> List[str]:
    """``names`` as ``count`` bot names: one name for all, or a sequence of ``count`` names (the
    argument ``what``, one name ``per`` seat, as its errors say). A name that is not a ``str`` is
    a ``TypeError`` naming its place; whether the core knows a name, ``Bot`` checks."""
    if isinstance(names, str):
        return [names] * count
    if not isinstance(names, Sequence) or isinstance(names, (bytes, bytearray)):
        raise TypeError(
            f"{what} must be a bot name or a list of them, got {type(names).__name__} "
            f"{_qe.quote(names)}"
        )
    listed = list(names)
    if len(listed) != count:
        raise ValueError(f"{what} must be one bot name or one per {per} ({count}), got {len(listed)}")
    for i, n in enumerate(listed):
        if not isinstance(n, str):
            raise TypeError(f"{what}[{i}] must be a bot name, got {type(n).__name__} {_qe.quote(n)}")
    return listed


class Bot:
    """A bot of ``qe_core::bots`` by ``name`` (see :data:`NAMES`) with its own ``seed``; one bot
    per seat (it keeps its random state between decisions)."""

    __slots__ = ("_b",)

    def __init__(self, name: str, seed: int = 0) -> None:
        self._b = _qe.Bot(name, seed)

    @property
    def name(self) -> str:
        return self._b.name

    @property
    def seed(self) -> int:
        return self._b.seed

    def command(self, game: "Game", seat: int) -> Optional[Dict[str, Any]]:
        """Its command for ``seat`` now in record form, ``None`` when the seat has nothing to do;
        the game is unchanged."""
        return self._b.command(_checked_game(game), seat)

    def action(self, game: "Game", seat: int) -> Optional[int]:
        """Its decision for ``seat`` as an action of ``game``'s action space (a bid between two
        rungs becomes the nearest legal rung, the lower on a tie; no peek unless the game has the
        peek actions), ``None`` when the seat has nothing to do; the game is unchanged."""
        return self._b.action(_checked_game(game), seat)

    def play(self, game: "Game", seat: int) -> bool:
        """Plays its command for ``seat``; returns whether the seat had something to do."""
        return self._b.play(_checked_game(game), seat)

    def spiel_bot(self, game: "QeOpenSpielGame", player: int) -> "QeSpielBot":
        """This bot's kind and seed as a ``pyspiel.Bot`` for ``player`` of a ``python_qe`` game or
        of its turn-based form (:func:`spiel_bot`)."""
        return spiel_bot(game, player, self.name, self.seed)

    def __repr__(self) -> str:
        return repr(self._b)

    # Pickled as data (the extension's bot saves its name, seed, manifest and where its random
    # streams are); a copy, shallow or deep, is a bot of its own that decides as this one will.
    def __copy__(self) -> "Bot":
        new = type(self).__new__(type(self))
        new._b = copy.copy(self._b)
        return new

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Bot":
        return self.__copy__()


class Search(Bot):
    """The core's search bot (``qe_core::bots::SearchBot``) at a preset ``level`` of
    :data:`LEVELS`: determinized Monte Carlo search over what its seat may see, deterministic for
    a ``seed``. ``Search("medium")`` is ``Bot("search:medium")``; ``.spiel_bot(game, player)``
    makes it a ``pyspiel.Bot``."""

    __slots__ = ()

    def __init__(self, level: str = "medium", seed: int = 0) -> None:
        if not isinstance(level, str):
            raise TypeError(
                f"level must be one of {', '.join(LEVELS)}, got {type(level).__name__} "
                f"{_qe.quote(level)}"
            )
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {_qe.quote(level)}")
        super().__init__(f"search:{level}", seed)

    @property
    def level(self) -> str:
        """The preset level."""
        return self.name.split(":", 1)[1]

    def __repr__(self) -> str:
        return f"Search({self.level!r}, seed={self.seed})"


def play_out(game: "Game", names: Any, seed: int = 0) -> None:
    """Plays ``game`` to the end with one bot per seat: ``names`` is one name for every seat or a
    sequence of one name per seat; seat ``s`` gets seed ``seed + s`` (modulo 2**64)."""
    names = bot_names(names, _checked_game(game).players, "names", "seat")
    # Seat 0's bot first: it checks `seed` (an int from 0 to 2**64 - 1, numpy's too) and names it
    # if not; the others' seeds follow from the int it read.
    first = Bot(names[0], seed)
    bots = [first] + [Bot(n, (first.seed + s) % 2**64) for s, n in enumerate(names) if s > 0]
    while not game.is_over:
        acting = game.to_act
        if not acting:
            raise ValueError("the game waits for a chance outcome (external_chance=True)")
        for s in acting:
            bots[s].play(game, s)


def spiel_bot(game: "QeOpenSpielGame", player: int, name: str, seed: int = 0) -> "QeSpielBot":
    """The bot ``name`` as a ``pyspiel.Bot`` for ``player`` of a ``python_qe`` game or of
    ``pyspiel.convert_to_turn_based`` of one; the arguments are checked here (imports
    :mod:`qe.openspiel`, so OpenSpiel must be installed)."""
    from .openspiel import QeSpielBot

    return QeSpielBot(game, player, name, seed)
