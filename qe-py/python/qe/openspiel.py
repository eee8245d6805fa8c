"""OpenSpiel adapter: importing this module registers the game ``python_qe`` with ``pyspiel``.

``pyspiel.load_game("python_qe", {"players": 4, "expansions": "commodities", "ladder": "0:1:2:4:8"})``
or, the same game, ``pyspiel.load_game("python_qe(expansions=commodities,ladder=0:1:2:4:8,players=4)")``.

* **Parameters** (scalars, so that ``pyspiel.load_game(str(game))`` gives the same game for every
  combination): ``players`` (3-5, default 4); ``expansions`` (the expansions in play by the names
  records use, joined by ``:``; default ``""``, none); ``commodities`` (default ``False``; ``True``
  is a shorthand for ``"commodities"`` in ``expansions``); ``ladder`` (the bid amounts, strictly
  increasing, joined by ``:``; default ``0:1:2:3:4:5:6:8:10:13:17:22``); ``peeks`` (default
  ``False``: the peek actions are left out, as in :class:`qe.Game`'s action space). A list given
  with commas (``"0,1,3"``), as earlier versions took it, is accepted and stored with ``:``: a comma
  would end the parameter in the game's string. An empty entry (``0:1::2``) is a ``ValueError``.
* **Dynamics**: simultaneous. A node where several seats must bid (the sealed bids, rebids) is a
  simultaneous node; seats with nothing to do there have the single action ``PASS``
  (``num_distinct_actions - 1``). A node where exactly one seat must act (the opening bid, choosing a
  pile) is an ordinary node of that player.
* **Chance**: explicit, from ``qe-core``'s external-chance mode (R-SET-3): the industry deal (action
  id = index of the permutation), each tile reveal (id = tile index in :data:`qe.TILES` order) and,
  with Commodities, each token drawn (id = token number - 1). Every outcome is equally likely.
* **Actions**: ``0..L`` bid the ladder rung, ``L..L+3`` choose the gold/oil/crypto pile, with
  ``peeks`` 16 more ``L+3+t`` that peek at the price of turn ``t`` (R-VIS-5: 5 players, once per
  game), then ``PASS``. A seat may peek at a node where it must act; it then still has to act (the
  node repeats for it). At a simultaneous node a seat with nothing to do plays ``PASS`` or a peek
  it may take (applied with the others' actions, all or nothing); ``apply_actions`` takes one
  action per player and ``apply_action`` is for nodes where one seat acts.
* **Serialization**: a state is its history (``history=``, ``move_number=``; the ``__dict__=`` part
  is always the empty dict). This module replaces ``pyspiel.deserialize_game_and_state`` with
  :func:`deserialize_game_and_state`, which reads a ``python_qe`` state as data, replaying its
  history through the core (pyspiel's own reader unpickles the ``__dict__`` part, running any code
  a crafted string holds): a state that does not fit its game is a ``ValueError``.
* **Returns** at the end, by ``qe_core::reward`` (``"win"``): ``1/k`` to each of ``k`` winners, 0 to
  the others (general-sum: all 0 when every seat is eliminated).
* **Observation** (``perfect_recall=False``): the seat's current view. The tensor is the seat-view
  encoding of ``qe_core::encoding`` (``qe.OBS_SIZE`` floats in named blocks, see
  ``qe.observation_blocks()``, exposed through the observer's ``dict``); the string is the view as
  JSON.
* **Information state** (``perfect_recall=True``): perfect recall for the seat. The tensor
  (``qe.INFO_STATE_SIZE`` floats) is the observation followed by the ``bid_history`` block
  (``qe.HISTORY_SIZE`` floats): per turn, its opening bid, price and asset price as the seat sees
  them, then every secret bid and rebid as the seat saw it, its own with their amounts, every
  amount exactly (four 16-bit parts) as well as squashed; see ``qe.Game.information_state_into``
  and the README; then when each seat peeked (its place in the seat's event stream), which the
  view does not keep. Pile choices stay in the view (public). The string is the view with the
  whole ``bid_history`` and ``peek_history`` as JSON.
* **Solvers**: the game tree is far too large for full-tree CFR or exact best responses (16 turns
  of sealed bids by 3-5 seats over a ladder of a dozen rungs, plus chance): use sampling methods
  (outcome-sampling MCCFR runs on ``pyspiel.convert_to_turn_based`` of the game; the test suite
  runs a few iterations on the smallest configuration), MCTS, or learning.
* **Bots**: :func:`qe.bots.spiel_bot` gives the core's bots as ``pyspiel.Bot``, for the game or
  its turn-based form.
* **Resampling**: ``state.resample_from_infostate(player, sampler)`` draws a state with the same
  information state for ``player``, everything hidden from it drawn by the core
  (:meth:`qe.Game.resample`, R-VIS-8): a determinization for search, which plays on but keeps no
  history of its own (it cannot be serialized). OpenSpiel's ``ISMCTSBot`` needs sequential moves:
  run it on ``pyspiel.convert_to_turn_based`` of the game with ``bot.set_resampler(
  ismcts_resampler(seed))`` (:func:`resample_turn_based`: the turn-based wrapper has no resampling
  of its own, and the actions it buffers at a rolled-out simultaneous node are hidden from the
  later players, so they are drawn too). ``examples/python/ismcts_strength.py`` measures it.
"""

from __future__ import annotations

import base64
import copy
import json
import pickle
import random
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import pyspiel

from . import INFO_STATE_SIZE, OBS_SIZE, PILES, BidLadder, Game, _qe, observation_blocks
from ._env import as_seat, expansions_of, type_of
from .bots import Bot

__all__ = [
    "GAME_TYPE",
    "QeObserver",
    "QeOpenSpielGame",
    "QeOpenSpielState",
    "QeSpielBot",
    "deserialize_game_and_state",
    "ismcts_resampler",
    "resample_turn_based",
]

_SEP = ":"
_DEFAULT_LADDER = _SEP.join(str(a) for a in BidLadder.default().amounts)
_MAX_CHANCE_OUTCOMES = 120  # 5! deals
# The empty dict as pyspiel writes a state's __dict__ (a base64 pickle), in every protocol: a
# python_qe state keeps nothing there, and its readers compare these strings, never unpickle.
_EMPTY_DICTS = frozenset(
    base64.b64encode(pickle.dumps({}, protocol=p)).decode()
    for p in range(pickle.HIGHEST_PROTOCOL + 1)
)

GAME_TYPE = pyspiel.GameType(
    short_name="python_qe",
    long_name="Python QE (Quantitative Easing)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={
        "players": 4,
        "commodities": False,
        "expansions": "",
        "ladder": _DEFAULT_LADDER,
        "peeks": False,
    },
)


def _split(text: str, what: str) -> List[str]:
    """The items of a list parameter joined by ``:`` (or, as given in a dict, by commas)."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a string of items joined by ':', got {_qe.quote(text)}")
    if not text.strip():
        return []
    items = [x.strip() for x in text.replace(",", _SEP).split(_SEP)]
    if not all(items):
        raise ValueError(f"{what} has an empty entry: {_qe.quote(text)}")
    return items


def _ladder(text: str) -> BidLadder:
    items = _split(text, "ladder")
    # Digits only: int() would also take "+2", "2_0" and other scripts' digits.
    if not all(x.isascii() and x.isdigit() for x in items):
        raise ValueError(f"ladder must be whole amounts joined by ':', got {_qe.quote(text)}")
    return BidLadder([int(x) for x in items])


def _current_player(g: Game) -> int:
    """OpenSpiel's current player of a node where ``g`` is."""
    if g.is_over:
        return int(pyspiel.PlayerId.TERMINAL)
    acting = g.to_act
    if not acting:
        return int(pyspiel.PlayerId.CHANCE)
    if len(acting) > 1:
        return int(pyspiel.PlayerId.SIMULTANEOUS)
    return int(acting[0])


def _play(g: Game, pass_action: int, move: List[Tuple[int, int]]) -> Game:
    """The game after one move, ``(player, action)`` as OpenSpiel's history holds it: the chance
    player's outcome, one seat's action, or at a simultaneous node one action per player in
    order; all or nothing (``g`` itself may be the one returned, changed)."""
    player = _current_player(g)
    if player == pyspiel.PlayerId.CHANCE:
        g.apply_chance_action(move[0][1])
        return g
    if player != pyspiel.PlayerId.SIMULTANEOUS:
        # At the end of the game IllegalCommand R-TRN-4 names it.
        g.apply_action(max(player, 0), move[0][1])
        return g
    actions = [a for _, a in move]
    players = g.players
    if len(actions) != players:
        raise ValueError(
            f"apply_actions takes one action per player ({players}), got {len(actions)}: "
            f"{_qe.quote(actions)}"
        )
    acting = g.to_act
    peeks = []
    for p, a in enumerate(actions):
        if p in acting or a == pass_action:
            continue
        if a not in g.legal_actions(p):
            raise ValueError(
                f"player {p} has nothing to do here: its action is pass ({pass_action}) or a "
                f"peek it may take, got {_qe.quote(a)}"
            )
        peeks.append((p, a))
    if not peeks:
        g.step(actions)
        return g
    # All or nothing, as step is: the peeks of the seats that need not act, then the rest.
    after = copy.copy(g)
    for p, a in peeks:
        after.apply_action(p, a)
    after.step(actions)
    return after


def _move_size(g: Game, entries: List[Tuple[int, int]], i: int) -> int:
    """How many entries of a history, from entry ``i``, make the next move of ``g``: one, or at
    a simultaneous node one per player (0, 1, ... in order); a ``ValueError`` names an entry
    that does not fit."""
    player = _current_player(g)
    if player != pyspiel.PlayerId.SIMULTANEOUS:
        if entries[i][0] != player:
            raise ValueError(
                f"history entry {i} ({entries[i][0]}:{entries[i][1]}): player {entries[i][0]} "
                f"does not move here (current player {player})"
            )
        return 1
    size = g.players
    got = [p for p, _ in entries[i : i + size]]
    if got != list(range(size)):
        raise ValueError(
            f"history entry {i}: a simultaneous move is one action per player 0 to {size - 1} in "
            f"order, got players {got}"
        )
    return size


class QeOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_qe`` (see the module docs)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.qe_players = int(params.get("players", 4))
        # commodities=true is deprecated for expansions=commodities (a warning at the caller's
        # line); the set is the one switch.
        # OpenSpiel hands every parameter over, its default too, so only commodities=true is a
        # use of the deprecated flag.
        self.qe_expansions = tuple(
            expansions_of(
                _split(params.get("expansions", ""), "expansions"),
                True if params.get("commodities") else None,
            )
        )
        self.qe_ladder = _ladder(params.get("ladder", _DEFAULT_LADDER))
        self.qe_peeks = bool(params.get("peeks", False))
        # Lists are stored joined by ':' so that str(game) parses back to the same game.
        if "ladder" in params:
            params["ladder"] = _SEP.join(str(a) for a in self.qe_ladder.amounts)
        probe = self._new_qe(seed=0)
        # Both as the game has them, so that neither these attributes nor str(game) say
        # commodities=False of a game with the expansion given as expansions=commodities, or the
        # other way round.
        self.qe_commodities = probe.commodities
        self.qe_expansions = tuple(probe.expansions)
        if "expansions" in params or "commodities" in params:
            # The game's string names the expansions by the set only (commodities=False), so that
            # loading it again does not warn.
            params["commodities"] = False
            params["expansions"] = _SEP.join(probe.expansions)
        self.pass_action = probe.num_actions
        turns = probe.turns
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions + 1,
            max_chance_outcomes=_MAX_CHANCE_OUTCOMES,
            num_players=self.qe_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            # Per turn at most: reveal, opening, bids, 2 rebids, 2 asset rebids, pile, draw; and
            # with peeks, one peek per seat.
            max_game_length=1 + turns * 12 + (self.qe_players if self.qe_peeks else 0),
        )
        super().__init__(GAME_TYPE, info, params)

    def _new_qe(self, seed: Optional[int] = None) -> Game:
        return Game(
            self.qe_players,
            seed,
            expansions=self.qe_expansions,
            ladder=self.qe_ladder,
            peeks=self.qe_peeks,
            external_chance=seed is None,
        )

    def new_initial_state(self) -> "QeOpenSpielState":
        return QeOpenSpielState(self)

    def deserialize_state(self, text: str) -> "QeOpenSpielState":
        """The state ``serialize()`` wrote (``history=``, ``move_number=`` and an empty
        ``__dict__=``), replayed through the core from the initial state of this game: a string
        that is not one, or whose history does not fit this game (its players, expansions,
        ladder and actions), is a ``ValueError`` naming what is wrong. The ``__dict__`` part is
        compared with the empty dict's encodings, never unpickled."""
        if not isinstance(text, str):
            raise TypeError(f"state must be a str, got {type_of(text)} {_qe.quote(text)}")
        lines = text.split("\n")
        tags = ("history=", "move_number=", "__dict__=")
        if len(lines) != 3 or not all(x.startswith(t) for x, t in zip(lines, tags)):
            raise ValueError(
                "a python_qe state is the three lines history=, move_number= and __dict__=, got "
                + _qe.quote(text)
            )
        history, moves, attrs = (x[len(t) :] for x, t in zip(lines, tags))
        if attrs not in _EMPTY_DICTS:
            raise ValueError(
                "a python_qe state is its history: its __dict__ must be the empty dict's, got "
                + _qe.quote(attrs)
            )
        entries = [_history_entry(h) for h in history.split(",")] if history else []
        if not (moves.isascii() and moves.isdigit()):
            raise ValueError(f"move_number must be a whole number, got {_qe.quote(moves)}")
        state = self.new_initial_state()
        i = 0
        while i < len(entries):
            try:
                size = _move_size(state.qe, entries, i)
                if size == 1:
                    state.apply_action(entries[i][1])
                else:
                    state.apply_actions([a for _, a in entries[i : i + size]])
            except (ValueError, pyspiel.SpielError) as e:  # IllegalCommand is a ValueError
                raise ValueError(
                    f"the state does not fit the game {self}: history entry {i} "
                    f"({entries[i][0]}:{entries[i][1]}): {e}"
                ) from None
            i += size
        if int(moves) != state.move_number():
            raise ValueError(
                f"the state does not fit the game {self}: move_number={moves} but its history "
                f"has {state.move_number()} moves"
            )
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[Dict[str, Any]] = None
    ) -> "QeObserver":
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return QeObserver(perfect_recall, params)


def _history_entry(text: str) -> Tuple[int, int]:
    """``player:action`` of a serialized history, as pyspiel writes it."""
    parts = text.split(":")
    if len(parts) != 2 or not all(_is_int(x) for x in parts):
        raise ValueError(f"a history entry is player:action, got {_qe.quote(text)}")
    return int(parts[0]), int(parts[1])


def _is_int(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit()


_NOT_A_HISTORY = (
    "a resampled python_qe state is a determinization for search: it has no history of its own "
    "to serialize or pickle"
)


class _Resample(NamedTuple):
    """What a resampled state drew: the game at the point of the draw (never changed), where that
    point is in the state's history (entries, moves), and the drawn actions that replace those
    the turn-based form buffered for the players before its current one."""

    game: Game
    entries: int
    moves: int
    pending: Tuple[int, ...]

    def joint(self, actions: List[int]) -> List[int]:
        """The joint action to apply at the point of the draw: the buffered actions replaced."""
        return list(self.pending) + actions[len(self.pending) :]


def _seed_of(probability_sampler: Optional[Callable[[], float]]) -> int:
    """A 64-bit seed from a sampler of floats in [0, 1) (two draws of 32 bits), or from Python's
    ``random`` without one."""
    if probability_sampler is None:
        return random.getrandbits(64)
    if not callable(probability_sampler):
        raise TypeError(
            "probability_sampler must be a callable giving floats in [0, 1), got "
            f"{type_of(probability_sampler)} {_qe.quote(probability_sampler)}"
        )
    bits = 0
    for _ in range(2):
        u = float(probability_sampler())
        if not 0.0 <= u < 1.0:
            raise ValueError(f"probability_sampler gave {u!r}, not a float in [0, 1)")
        bits = (bits << 32) | int(u * 2**32)
    return bits


class QeOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_qe``: wraps a :class:`qe.Game` in external-chance mode (``.qe``).

    The state is its history, as OpenSpiel's C++ games are: the game lives in slots, not in
    ``__dict__``, so the ``__dict__=`` part of ``serialize()`` is always the empty dict, and a
    state OpenSpiel's C++ side rebuilt from a string (``random_sim_test``, its own
    ``Game.deserialize_state``) or cloned replays its history through the core on first use."""

    # "__dict__" holds only a resampled state's draw (`_resample`), which pyspiel's clone copies.
    __slots__ = ("_qe", "_moves", "_pass", "_game_actions", "__dict__")

    def __init__(self, game: QeOpenSpielGame) -> None:
        super().__init__(game)
        self._qe = game._new_qe()
        self._moves = 0  # the moves applied to self._qe: move_number() once they are all in
        self._pass = game.pass_action
        self._game_actions = game.num_distinct_actions()

    @property
    def qe(self) -> Game:
        """The :class:`qe.Game` of this state (do not change it: apply actions to the state)."""
        if self._moves != self.move_number():
            self._replay_history()
        return self._qe

    def _replay_history(self) -> None:
        entries = [(pa.player, pa.action) for pa in self.full_history()]
        drawn: Optional[_Resample] = self.__dict__.get("_resample")
        if drawn is None:
            g = self.get_game()._new_qe()
            moves = i = 0
        else:
            # A resampled state: the drawn game, then the moves made in it since.
            g = copy.copy(drawn.game)
            moves, i = drawn.moves, drawn.entries
        while i < len(entries):
            size = _move_size(g, entries, i)
            move = entries[i : i + size]
            if drawn is not None and moves == drawn.moves and size > 1:
                move = list(enumerate(drawn.joint([a for _, a in move])))
            g = _play(g, self._pass, move)
            moves, i = moves + 1, i + size
        if moves != self.move_number():
            raise ValueError(f"move_number={self.move_number()} but the history has {moves} moves")
        self._qe, self._moves = g, moves

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        # pyspiel's own pickle of a state makes a second Python object beside the one the game
        # made; this one reads the serialized state back as deserialize_game_and_state does.
        if "_resample" in self.__dict__:
            raise ValueError(_NOT_A_HISTORY)
        return _state_of, (pyspiel.serialize_game_and_state(self.get_game(), self),)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Optional[Callable[[], float]] = None
    ) -> "QeOpenSpielState":
        """A state that ``player_id`` cannot tell from this one: the same information state
        (string and tensor), everything hidden from the seat drawn by the core
        (:meth:`qe.Game.resample`: the others' industry tokens, the deck and pile orders, the
        bids and prices it does not see, R-VIS-8). The seed comes from ``probability_sampler``
        (OpenSpiel passes a callable giving floats in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler(0., 1.)``), or from Python's ``random`` without one.

        The drawn state plays on as any state (the hidden future, tiles and tokens, is part of
        the draw: it has no chance nodes), and its clones are drawn states too. It is a
        determinization for search, not a history: its ``history()`` is this state's, so it
        cannot be serialized or pickled (a ``ValueError``). The hidden bids it draws are amounts
        of the core's rules, not only the ladder's rungs (the information state is the same)."""
        player = as_seat(player_id, self.get_game().num_players(), "player_id")
        drawn = self.qe.resample(player, _seed_of(probability_sampler))
        return self._with_draw(drawn, ())

    def _with_draw(self, drawn: Game, pending: Tuple[int, ...]) -> "QeOpenSpielState":
        """A clone of this state holding ``drawn`` in place of its game from here on; ``pending``:
        the actions of the first joint move to come for the players before the turn-based form's
        current one (drawn, in place of those it buffered)."""
        c = super().clone()
        entries, moves = len(c.full_history()), c.move_number()
        c.__dict__["_resample"] = _Resample(copy.copy(drawn), entries, moves, pending)
        c._qe, c._moves = drawn, moves
        return c

    def clone(self) -> "QeOpenSpielState":
        c = super().clone()
        c._qe, c._moves = copy.copy(self.qe), self._moves
        return c

    def current_player(self) -> int:
        return _current_player(self.qe)

    def legal_actions_mask(self, player: Optional[int] = None) -> List[int]:
        """As ``pyspiel.State.legal_actions_mask``, written here: for a player at a chance node
        all zeros (the player has nothing to do), where pyspiel's own writes the chance outcomes
        (``legal_actions(player)`` of a Python game there) past the end of its mask and corrupts
        the heap; and an action outside the mask is a ``ValueError``, never written."""
        if player is None:
            player = self.current_player()
        chance = player == pyspiel.PlayerId.CHANCE
        size = self.get_game().max_chance_outcomes() if chance else self._game_actions
        mask = [0] * size
        if player >= 0 and self.is_chance_node():
            return mask
        for a in self.legal_actions(player):
            if not 0 <= a < size:
                raise ValueError(f"legal action {a} of player {player} is outside the mask 0..{size}")
            mask[a] = 1
        return mask

    def _legal_actions(self, player: int) -> List[int]:
        if player < 0 and self.is_simultaneous_node():
            # `legal_actions()` with no player at a simultaneous node (OpenSpiel's C++ games
            # answer with joint actions, which this game does not number).
            raise ValueError(
                "legal_actions() of a simultaneous node needs a player: legal_actions(player)"
            )
        # Empty exactly when the seat need not act (and cannot peek); IllegalCommand names a seat
        # the game lacks.
        legal = self.qe.legal_actions(player)
        if self.is_simultaneous_node() and player not in self.qe.to_act:
            # A seat with nothing to do at a simultaneous node passes, or peeks if it may.
            legal = legal + [self._pass]
        # pyspiel's legal_actions_mask writes every action given here into a mask of
        # num_distinct_actions entries: none may fall outside it.
        if legal and not 0 <= min(legal) <= max(legal) < self._game_actions:
            raise ValueError(
                f"legal actions {legal} of player {player} fall outside 0..{self._game_actions}"
            )
        return legal

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        ids = self.qe.chance_actions()
        if not ids:
            raise ValueError(
                f"chance_outcomes() of a state that is not a chance node (phase {self.qe.phase})"
            )
        p = 1.0 / len(ids)
        return [(i, p) for i in ids]

    def _apply_action(self, action: int) -> None:
        g = self.qe
        if self.is_simultaneous_node():
            raise ValueError(
                f"apply_action({_qe.quote(action)}) at a simultaneous node (seats "
                f"{list(g.to_act)} act together): use apply_actions, one action per player"
            )
        self._qe = _play(g, self._pass, [(self.current_player(), action)])
        self._moves += 1

    def _apply_actions(self, actions: List[int]) -> None:
        # Joint actions belong to simultaneous nodes: elsewhere pyspiel would record every entry
        # in the history while the game applies at most one.
        if not self.is_simultaneous_node():
            raise ValueError(
                f"apply_actions({_qe.quote(actions)}) at a node that is not simultaneous "
                f"(current player {self.current_player()}): use apply_action"
            )
        g = self.qe
        drawn: Optional[_Resample] = self.__dict__.get("_resample")
        if drawn is not None and self._moves == drawn.moves:
            actions = drawn.joint(list(actions))
        self._qe = _play(g, self._pass, list(enumerate(actions)))
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        if action == self._pass:
            return "pass"
        if not 0 <= action < self._pass:
            raise ValueError(f"action {action} out of range 0..{self._pass + 1}")
        ladder = self.qe.ladder
        if action < len(ladder):
            return f"bid:{ladder.amount(action)}"
        if action < len(ladder) + len(PILES):
            return "pile:" + PILES[action - len(ladder)]
        return f"peek:{action - len(ladder) - len(PILES)}"

    def is_terminal(self) -> bool:
        return bool(self.qe.is_over)

    def returns(self) -> List[float]:
        return self.qe.returns("win")

    def __str__(self) -> str:
        return json.dumps(self.qe.public_view().to_dict(), sort_keys=True)


class QeObserver:
    """Observation (``perfect_recall=False``) or information-state (``True``) tensors and strings
    of one seat; see the module docs."""

    def __init__(self, perfect_recall: bool, params: Optional[Dict[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(INFO_STATE_SIZE if perfect_recall else OBS_SIZE, np.float32)
        self.dict = {
            name: self.tensor[offset : offset + length]
            for name, offset, length in observation_blocks()
        }
        if perfect_recall:
            self.dict["bid_history"] = self.tensor[OBS_SIZE:]

    def set_from(self, state: QeOpenSpielState, player: int) -> None:
        if self.perfect_recall:
            state.qe.information_state_into(player, self.tensor)
        else:
            state.qe.observation_into(player, self.tensor)

    def string_from(self, state: QeOpenSpielState, player: int) -> str:
        # The view's JSON form (with the bid and peek histories for perfect recall), keys sorted.
        view = json.loads(state.qe._view_json(player, self.perfect_recall))
        return json.dumps(view, sort_keys=True)


def _qe_game_of(game: Any) -> Any:
    """``game`` when it is a ``python_qe`` game or ``pyspiel.convert_to_turn_based`` of one, else
    a ``TypeError`` naming what was given."""
    if isinstance(game, QeOpenSpielGame):
        return game
    if isinstance(game, pyspiel.Game) and game.get_type().short_name == "turn_based_simultaneous_game":
        inner = game.get_parameters().get("game", {})
        if isinstance(inner, dict) and inner.get("name") == GAME_TYPE.short_name:
            return game
    raise TypeError(
        f"game must be a {GAME_TYPE.short_name} game or pyspiel.convert_to_turn_based of one, got "
        f"{type_of(game)} {_qe.quote(game)}"
    )


class QeSpielBot(pyspiel.Bot):  # type: ignore[misc]
    """A bot of ``qe_core::bots`` (any name :class:`qe.bots.Bot` takes) as a ``pyspiel.Bot`` for
    one player of ``python_qe``, or of ``pyspiel.convert_to_turn_based`` of it: it decides from
    what that seat may know only (its view and, for the search bots, its bid history); a bid off
    the ladder becomes the nearest legal rung. Where its seat has nothing to do at a simultaneous
    node (in the turn-based form too) it plays ``PASS``. The game, the player and the name are
    checked when it is made."""

    def __init__(self, game: QeOpenSpielGame, player: int, name: str, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self._game = _qe_game_of(game)
        self._player = as_seat(player, self._game.num_players(), "player")
        self._bot = Bot(name, seed)

    def restart_at(self, state: QeOpenSpielState) -> None:
        pass

    def inform_action(self, state: QeOpenSpielState, player_id: int, action: int) -> None:
        pass

    def inform_actions(self, state: QeOpenSpielState, actions: List[int]) -> None:
        pass

    def step(self, state: QeOpenSpielState) -> int:
        # The turn-based form rolls a simultaneous node out seat by seat over the same state, so
        # each seat decides on what it would see at that node.
        inner = state.simultaneous_game_state() if hasattr(state, "simultaneous_game_state") else state
        action = self._bot.action(inner.qe, self._player)
        if action is None:
            if inner.is_simultaneous_node():
                return int(inner._pass)
            raise ValueError(f"player {self._player} has nothing to do in this state")
        return action


def resample_turn_based(
    state: Any,
    player_id: int,
    probability_sampler: Optional[Callable[[], float]] = None,
    model: str = "value",
) -> Any:
    """:meth:`QeOpenSpielState.resample_from_infostate` for a state of
    ``pyspiel.convert_to_turn_based`` of ``python_qe`` (whose C++ wrapper has no resampling),
    for its current player ``player_id``: a state of the turn-based game with the same
    information state for that player, everything hidden from it drawn. Where the turn-based
    form rolls a simultaneous node out seat by seat, the actions the players before ``player_id``
    chose there are hidden from it: they are drawn too, by the core's ``model`` bot deciding from
    each seat's view of the drawn game (``PASS`` for a seat with nothing to do). This is the
    resampler of OpenSpiel's ``ISMCTSBot`` for QE (:func:`ismcts_resampler`)."""
    if not hasattr(state, "simultaneous_game_state"):
        raise TypeError(
            f"state must be a state of pyspiel.convert_to_turn_based of {GAME_TYPE.short_name}, "
            f"got {type_of(state)}"
        )
    inner = state.simultaneous_game_state()
    if not isinstance(inner, QeOpenSpielState):
        raise TypeError(f"state is not a turn-based {GAME_TYPE.short_name} state")
    player = as_seat(player_id, inner.get_game().num_players(), "player_id")
    if state.current_player() != player:
        raise ValueError(
            f"player_id {player} is not the current player ({state.current_player()}): the "
            "turn-based form is resampled for the player to move"
        )
    seed = _seed_of(probability_sampler)
    drawn = inner.qe.resample(player, seed)
    pending: List[int] = []
    if inner.is_simultaneous_node():
        acting = drawn.to_act
        for s in range(player):
            a = Bot(model, seed + 1 + s).action(drawn, s) if s in acting else None
            pending.append(inner._pass if a is None else int(a))
    c = state.clone()
    mine = c.simultaneous_game_state()
    sampled = inner._with_draw(drawn, tuple(pending))
    mine.__dict__["_resample"] = sampled.__dict__["_resample"]
    mine._qe, mine._moves = copy.copy(drawn), mine.move_number()
    return c


def ismcts_resampler(
    seed: Optional[int] = None, model: str = "value"
) -> Callable[[Any, int], Any]:
    """The resampler of OpenSpiel's ``ISMCTSBot`` (``bot.set_resampler(...)``) for
    ``pyspiel.convert_to_turn_based`` of ``python_qe``: :func:`resample_turn_based` with seeds
    from its own generator (``seed``; a random one for ``None``)."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return resample_turn_based(state, player, rng.random, model)

    return resample


_SECTIONS = ("[Meta]", "[Game]", "[State]")
_pyspiel_deserialize_game_and_state = pyspiel.deserialize_game_and_state


def deserialize_game_and_state(text: str) -> Tuple[Any, Any]:
    """``pyspiel.deserialize_game_and_state``, which this module replaces: a ``python_qe``
    state is read by :meth:`QeOpenSpielGame.deserialize_state` (data only, checked against the
    game), where pyspiel's own reader would unpickle the state's ``__dict__`` part, running any
    code a crafted string holds. Other games go to pyspiel's reader."""
    if not isinstance(text, str):
        raise TypeError(f"the serialized game and state must be a str, got {type_of(text)}")
    parts: List[List[str]] = [[], [], []]
    section = -1
    # As pyspiel reads it: comments and blank lines skipped, the sections in order.
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if line in _SECTIONS:
            if _SECTIONS.index(line) != section + 1:
                raise ValueError(f"the section {line} is out of order in {_qe.quote(text)}")
            section += 1
        elif section < 0:
            raise ValueError(f"text before the [Meta] section: {_qe.quote(line)}")
        else:
            parts[section].append(line)
    game = pyspiel.deserialize_game("\n".join(parts[1]))
    if not isinstance(game, QeOpenSpielGame):
        return _pyspiel_deserialize_game_and_state(text)  # type: ignore[no-any-return]
    return game, game.deserialize_state("\n".join(parts[2]))


def _state_of(text: str) -> QeOpenSpielState:
    return deserialize_game_and_state(text)[1]  # type: ignore[no-any-return]


pyspiel.register_game(GAME_TYPE, QeOpenSpielGame)
pyspiel.deserialize_game_and_state = deserialize_game_and_state
