"""qe: the exact rules engine for the sealed-bid auction board game QE (Quantitative Easing).

A thin facade over the Rust extension ``qe._qe`` (built from ``qe-core``):

* :class:`Game` -- one game: phase, seats to act, legal bids, commands, per-seat views and event
  streams as typed dataclasses, outcome, ``qe-record/1`` records, copy/deepcopy/pickle.
* :func:`replay` -- replay a record to its outcome (or raise).
* :class:`BidLadder`, observations and action masks -- the encoding of ``qe_core::encoding``.
* :class:`VectorEnv` -- many games stepped in one call with the GIL released.
* :mod:`qe.pettingzoo`, :mod:`qe.gym` and :mod:`qe.openspiel` -- adapters, and :mod:`qe.bots` --
  the core's bots for any seat (import them explicitly).

Errors are :class:`QeError` (a :class:`ValueError`) with the subclasses :class:`IllegalCommand` and
:class:`SetupError`; each carries ``.rule`` (a rule ID such as ``"R-AUC-3"``) and ``.code`` (the
stable number shared with the C ABI).
"""

from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

import numpy as np

from . import _qe
from ._qe import (
    BOUNDS_SIZE,
    HISTORY_SIZE,
    INFO_STATE_SIZE,
    OBS_SIZE,
    BidLadder,
    BidRange,
    IllegalCommand,
    QeError,
    SetupError,
    VectorEnv,
    observation_blocks,
)

__version__: str = _qe.__version__

__all__ = [
    "BOUNDS_SIZE",
    "HISTORY_SIZE",
    "INFO_STATE_SIZE",
    "OBS_SIZE",
    "AssetInfo",
    "Auction",
    "BidLadder",
    "BidRange",
    "Event",
    "Game",
    "IllegalCommand",
    "Legal",
    "Outcome",
    "QeError",
    "SeatInfo",
    "SeatOutcome",
    "SeenBid",
    "SetupError",
    "SpendBounds",
    "VectorEnv",
    "View",
    "__version__",
    "observation_blocks",
    "replay",
]

PILES: Tuple[str, ...] = _qe.PILES
"""The asset piles, in the order of pile masks and of the pile actions (R-COM-5)."""

_T = TypeVar("_T")


_new = object.__new__
_set = object.__setattr__


def _fast(cls: Type[_T], fields: Dict[str, Any]) -> _T:
    """An instance of the frozen dataclass ``cls`` whose ``__dict__`` is ``fields`` (a fresh dict
    holding exactly its fields), without running ``__init__``: the ``from_dict`` readers of the
    serde (JSON) forms make them as the extension does (``qe-py/src/views.rs``)."""
    obj = _new(cls)
    _set(obj, "__dict__", fields)
    return obj  # type: ignore[no-any-return]


def _to_dict(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if hasattr(obj, "to_dict"):
            return obj.to_dict()
    if isinstance(obj, list):
        return [_to_dict(x) for x in obj]
    if isinstance(obj, tuple):
        return [_to_dict(x) for x in obj]
    return obj


class _DictMixin:
    def to_dict(self) -> Dict[str, Any]:
        """The object as plain Python data (JSON-compatible)."""
        return {f.name: _to_dict(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]


def _tiles(mask: int) -> List[str]:
    return [TILES[i] for i in range(len(TILES)) if mask >> i & 1]


TILES: Tuple[str, ...] = _qe.TILES
"""Every company tile, in manifest order (the bit order of tile masks and of the ``tile`` block)."""


@dataclass(frozen=True)
class Legal(_DictMixin):
    """What one seat may do now (``Game.legal``)."""

    bid: Optional[Dict[str, Any]]
    """``{"min", "max", "forbidden"}`` when the seat must bid, else ``None``."""
    take: List[str]
    """Piles it may take from (R-COM-5)."""
    discard: List[str]
    """Piles it may discard from (R-COM-7)."""
    peek: List[int]
    """Turns it may peek at (R-VIS-5, optional)."""

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Legal":
        take, discard, peek = d["take"], d["discard"], d["peek"]
        d["take"] = [PILES[k] for k in range(3) if take >> k & 1] if take else []
        d["discard"] = [PILES[k] for k in range(3) if discard >> k & 1] if discard else []
        d["peek"] = [t for t in range(16) if peek >> t & 1] if peek else []
        return _fast(cls, d)

    @property
    def must_act(self) -> bool:
        """Whether the seat must act now (bid, take or discard)."""
        return self.bid is not None or bool(self.take) or bool(self.discard)


@dataclass(frozen=True)
class SeenBid(_DictMixin):
    """One secret bid or rebid as the viewer sees it (``View.bid_history``): ``amount`` is
    ``None`` when hidden (R-VIS-2, R-VIS-3) and always given once the game is over (R-VIS-7)."""

    turn: int
    seat: int
    stage: str
    """``"secret"``, ``"rebid"`` (company, R-AUC-6) or ``"asset_rebid"`` (R-COM-4)."""
    tie: int
    """Which tie in a row the rebid answers (1 or 2); 0 for a secret bid."""
    amount: Optional[int]

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "SeenBid":
        stage = d["stage"]
        name, tie = (stage, 0) if stage.__class__ is str else next(iter(stage.items()))
        return _fast(
            cls, {"turn": d["turn"], "seat": d["seat"], "stage": name, "tie": tie, "amount": d["amount"]}
        )


@dataclass(frozen=True)
class SeatInfo(_DictMixin):
    """What the viewer knows of one seat."""

    seat: int
    nation: Optional[str]
    industry: Optional[str]
    """Own token only; everyone's at game end (R-VIS-2, R-VIS-7)."""
    tiles: List[str]
    zero_marks: int
    """Bit ``r`` set when round ``r`` gave it a zero-bid mark."""
    assets: List[int]
    """Tokens taken per pile (gold, oil, crypto)."""
    peeked: Optional[int]
    spent: Optional[int]
    """Total spent, when the viewer knows it (own; everyone's at game end)."""

    @classmethod
    def from_dict(cls, seat: int, d: Dict[str, Any]) -> "SeatInfo":
        return _fast(cls, {"seat": seat, **d, "tiles": _tiles(d["tiles"])})


@dataclass(frozen=True)
class AssetInfo(_DictMixin):
    """What the viewer knows of the asset step of one auction (Commodities)."""

    taken: bool
    discarded: bool
    seat: Optional[int]
    kind: Optional[str]
    token: Optional[str]
    value: Optional[int]
    price: Optional[int]
    ties: List[List[int]]
    """The seats tied for the asset per tie in a row; the third only when ``third_tie`` is seen."""
    third_tie: Optional[bool]
    """Whether a third tie decided the asset (its taker, or that no one takes it); ``None`` unless
    the viewer ran the auction or there was no second tie (R-VIS-1, R-VIS-3), or the game is over
    (R-VIS-7)."""


@dataclass(frozen=True)
class Auction(_DictMixin):
    """What the viewer knows of one auction (one turn)."""

    turn: int
    tile: Optional[str]
    auctioneer: Optional[int]
    opening: Optional[int]
    awarded: bool
    winner: Optional[int]
    price: Optional[int]
    """The price, when the viewer sees it (R-VIS-2..5, R-VIS-7)."""
    ties: List[List[int]]
    """The seats tied at the top per tie in a row; the third only when ``third_tie`` is seen."""
    third_tie: Optional[bool]
    """Whether a third tie decided the winner (R-AUC-7); ``None`` unless the viewer ran the auction
    or there was no second tie (R-VIS-1, R-VIS-3), or the game is over (R-VIS-7)."""
    zero_bids: List[int]
    asset: AssetInfo

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Auction":
        d["asset"] = _fast(AssetInfo, d["asset"])
        return _fast(cls, d)


@dataclass(frozen=True)
class View(_DictMixin):
    """Everything one seat may know, and nothing more (R-VIS); ``seat`` is ``None`` for a spectator."""

    seat: Optional[int]
    players: int
    expansions: List[str]
    """The expansions in play, as records name them (``["commodities"]``)."""
    commodities: bool
    """Whether Commodities is in ``expansions`` (kept for code written before ``expansions``)."""
    turns: int
    turn: int
    phase: Dict[str, Any]
    to_act: List[int]
    legal: Legal
    auctioneer: Optional[int]
    tile: Optional[str]
    deck_remaining: int
    piles_remaining: List[int]
    has_bid: List[int]
    bids: List[Optional[int]]
    """Standing bids the viewer sees, by seat."""
    seats: List[SeatInfo]
    auctions: List[Auction]
    set_aside: Optional[str]
    game_over: bool
    bid_history: List[SeenBid]
    """Every secret bid and rebid so far, in order, as the viewer sees it (every amount once the
    game is over, R-VIS-7); opening bids are in ``auctions``."""

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "View":
        n = d["players"]
        seat_info, auction, seen = SeatInfo.from_dict, Auction.from_dict, SeenBid.from_dict
        return _fast(
            cls,
            {
                "seat": d["seat"],
                "players": n,
                "expansions": d["expansions"],
                "commodities": "commodities" in d["expansions"],
                "turns": d["turns"],
                "turn": d["turn"],
                "phase": d["phase"],
                "to_act": d["to_act"],
                "legal": Legal.from_dict(d["legal"]),
                "auctioneer": d["auctioneer"],
                "tile": d["tile"],
                "deck_remaining": d["deck_remaining"],
                "piles_remaining": d["piles_remaining"],
                "has_bid": d["has_bid"],
                "bids": d["bids"][:n],
                "seats": [seat_info(i, s) for i, s in enumerate(d["seats"][:n])],
                "auctions": [auction(a) for a in d["auctions"][: d["turns_started"]]],
                "set_aside": d["set_aside"],
                "game_over": d["game_over"],
                "bid_history": [seen(b) for b in d["bid_history"]],
            },
        )


@dataclass(frozen=True)
class SpendBounds(_DictMixin):
    """What the viewer can prove about one seat's total spent (``qe_core::deduction``): the total is
    within ``[lower, upper]`` (``upper`` is at least 2**64-1 per price it cannot bound); ``won`` and
    ``known_prices`` are bit masks over turns (tiles it won; of those, prices the viewer knows)."""

    seat: int
    lower: int
    upper: int
    known_prices: int
    won: int

    @property
    def exact(self) -> bool:
        """Whether the viewer knows the total exactly."""
        return self.lower == self.upper


@dataclass(frozen=True)
class Event(_DictMixin):
    """One event as a seat sees it. ``event`` is its kind (``dealt``, ``tile_revealed``,
    ``opening_bid``, ``bid``, ``rebid_required``, ``awarded``, ``zero_bids``, ``asset_taker``,
    ``asset_taken``, ``no_taker``, ``asset_discarded``, ``peeked``, ``game_over``); ``data`` holds
    its other fields exactly as in the record format (hidden ones are ``None``)."""

    event: str
    data: Dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Event":
        """The event of a dict in record form (the dict is taken over: ``event`` is removed from
        it and the rest becomes ``data``)."""
        return _fast(cls, {"event": d.pop("event"), "data": d})

    def to_dict(self) -> Dict[str, Any]:
        return {"event": self.event, **self.data}


@dataclass(frozen=True)
class SeatOutcome(_DictMixin):
    """One seat's result (RULES.md section 8)."""

    seat: int
    nation: Optional[str]
    industry: Optional[str]
    spent: int
    eliminated: bool
    winner: bool
    companies: int
    zero_bids: int
    nationalization: int
    monopolization: int
    diversification: int
    commodities: int
    subtotal: int
    least_spent_bonus: int
    total: int


@dataclass(frozen=True)
class Outcome(_DictMixin):
    """The outcome of a finished game."""

    seats: List[SeatOutcome]

    @property
    def winners(self) -> List[int]:
        """The winning seats (several share a win; none when all are eliminated)."""
        return [s.seat for s in self.seats if s.winner]

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Outcome":
        return _fast(cls, {"seats": [_fast(SeatOutcome, s) for s in d["seats"]]})


RecordLike = Union[str, bytes, bytearray, Mapping[str, Any]]
"""A ``qe-record/1`` record: JSON text or the parsed dict."""


def _record_text(record: RecordLike) -> str:
    """A record as JSON text (``_qe.record_text``, as commands are written)."""
    return _qe.record_text(record)


_G = TypeVar("_G", bound="Game")


def _shadowing(attrs: Mapping[Any, Any]) -> List[Any]:
    """The keys of ``attrs`` that no instance attribute of a game may have: not a string, or a name
    of :class:`Game` itself (its methods and properties, the extension's included)."""
    return [k for k in attrs if not isinstance(k, str) or hasattr(Game, k)]


class Game(_qe.Game):
    """One game of QE with its history.

    ``Game(players=4, seed=None, *, expansions=None, ladder=None, peeks=False,
    external_chance=False)``: a seeded game (a random seed when ``seed`` is ``None``), or, with
    ``external_chance=True``, a game whose deal, tile reveals and token draws are supplied by the
    caller (``chance_outcomes``/``chance``, or ``chance_actions``/``apply_chance_action``).

    ``expansions`` names the expansions in play, as records name them (``("commodities",)``): the
    one switch. ``commodities=`` (keyword-only) is deprecated: it still adds or leaves out
    Commodities, with a ``DeprecationWarning``.

    A rejected command raises :class:`IllegalCommand` and leaves the game unchanged. The class
    extends the extension's game (``qe._qe.Game``): the state, commands, actions, observations,
    chance methods, views, events and outcome are the extension's own (no Python frame in a call),
    which hands out this module's dataclasses (:class:`View`, :class:`Event`, :class:`Outcome`...)
    directly; this class adds records given as dicts, copying and pickling with the instance's own
    attributes.
    """

    def __init__(
        self,
        players: int = 4,
        seed: Optional[int] = None,
        *,
        expansions: Optional[Sequence[str]] = None,
        commodities: Optional[bool] = None,
        ladder: Optional[BidLadder] = None,
        peeks: bool = False,
        external_chance: bool = False,
    ) -> None:
        """Does nothing: the extension's ``__new__`` made the game from these arguments, which it
        has already read. It takes them so that a subclass's ``__init__`` may pass them on with
        ``super().__init__(...)``."""

    @classmethod
    def from_record(
        cls: Type[_G],
        record: RecordLike,
        *,
        ladder: Optional[BidLadder] = None,
        peeks: bool = False,
    ) -> _G:
        """The game of a ``qe-record/1`` record (JSON text or dict), replayed. Raises
        :class:`SetupError` for a bad record and :class:`IllegalCommand` (with ``.index``) for an
        illegal command."""
        return super().from_record(_record_text(record), ladder=ladder, peeks=peeks)

    # ----- actions and encoding ------------------------------------------------------------------

    def state_tensor(self) -> np.ndarray:
        """A full-information tensor for centralized critics (never part of an observation):
        every seat's observation, seat by seat (float32, ``players * OBS_SIZE``). Together they
        hold everything any seat knows (every bid, industry and token); nothing that no seat knows
        (the order of the deck and the piles) is in it."""
        obs = np.zeros((self.players, OBS_SIZE), np.float32)
        mask = np.zeros((self.players, self.num_actions), np.int8)
        self.observe_into(obs, mask)
        return obs.reshape(-1)

    # ----- record ---------------------------------------------------------------------------------

    def record_dict(self) -> Optional[Dict[str, Any]]:
        """The record as a dict."""
        text = self.record()
        return None if text is None else json.loads(text)  # type: ignore[no-any-return]

    # ----- copy and pickle -----------------------------------------------------------------------

    def _attrs(self) -> Dict[str, Any]:
        """The instance attributes. One that stands in for a name of the game (``g.bid = ...``) is
        a ``ValueError``: its pickle could not be loaded (:func:`_shadowing`)."""
        attrs = dict(self.__dict__)
        clash = _shadowing(attrs)
        if clash:
            raise ValueError(
                f"the attribute {_qe.quote(clash[0])} stands in for qe.Game's own; it cannot be copied or pickled"
            )
        return attrs

    def __copy__(self: _G) -> _G:
        attrs = self._attrs()
        obj = super().__copy__()
        obj.__dict__.update(attrs)
        return obj

    def __deepcopy__(self: _G, memo: Dict[int, Any]) -> _G:
        attrs = self._attrs()
        obj = super().__copy__()
        memo[id(self)] = obj
        obj.__dict__.update(copy.deepcopy(attrs, memo))
        return obj

    def __getstate__(self) -> Dict[str, Any]:  # type: ignore[override]
        return {"game": super().__getstate__(), "attrs": self._attrs()}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        if not isinstance(state, Mapping) or "game" not in state:
            raise ValueError(
                f"bad pickled qe.Game state: expected a dict with 'game', got {type(state).__name__}"
            )
        # Everything is checked before anything is set: a bad state leaves this game as it was.
        attrs = state.get("attrs", {})
        if not isinstance(attrs, Mapping):
            raise ValueError(
                f"bad pickled qe.Game state: 'attrs' must be a dict, got {type(attrs).__name__} "
                f"{_qe.quote(attrs)}"
            )
        if not isinstance(state["game"], str):
            raise ValueError(
                f"bad pickled qe.Game state: 'game' must be a string, got "
                f"{type(state['game']).__name__} {_qe.quote(state['game'])}"
            )
        unknown = [k for k in state if k not in ("game", "attrs")]
        if unknown:
            raise ValueError(f"bad pickled qe.Game state: unknown key {_qe.quote(unknown[0])}")
        clash = _shadowing(attrs)
        if clash:
            raise ValueError(f"bad pickled qe.Game state: 'attrs' may not set {_qe.quote(clash[0])}")
        super().__setstate__(state["game"])
        self.__dict__.update(attrs)


def _vector_env(kwargs: Dict[str, Any], state: Dict[str, Any]) -> VectorEnv:
    """A pickled :class:`VectorEnv` read back: made with its arguments, then its state replayed
    through the core (``VectorEnv.__reduce__``)."""
    kwargs = dict(kwargs)
    kwargs["ladder"] = BidLadder(kwargs["ladder"])
    env = VectorEnv(**kwargs)
    env._set_state(state)
    return env


def replay(record: RecordLike) -> Optional[Outcome]:
    """Replays a ``qe-record/1`` record (JSON text or dict). Returns the outcome, ``None`` when the
    game has not ended; raises :class:`SetupError` for a malformed record and
    :class:`IllegalCommand` (with ``.index``, the command's 0-based index) for an illegal command."""
    return _qe.replay_json(_record_text(record))
