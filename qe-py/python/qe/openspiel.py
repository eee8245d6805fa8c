"""OpenSpiel adapter: importing this module registers the game ``python_qe`` with ``pyspiel``.

``pyspiel.load_game("python_qe", {"players": 4, "commodities": False, "ladder": "0,1,2,4,8"})``

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
  node repeats for it).
* **Parameters**: ``players`` (3-5, default 4), ``commodities`` (default ``False``), ``ladder`` (comma
  separated strictly increasing amounts; default ``0,1,2,3,4,5,6,8,10,13,17,22``), ``peeks`` (default
  ``False``: the peek actions are left out, as in :class:`qe.Game`'s action space).
* **Returns** at the end: ``1/k`` to each of ``k`` winners, 0 to the others (general-sum: all 0 when
  every seat is eliminated).
* **Observation and information-state tensors**: the seat-view encoding of ``qe_core::encoding``
  (``qe.OBS_SIZE`` floats in named blocks, see ``qe.observation_blocks()``), built from the seat's
  view only. The view holds the whole public history and the seat's private knowledge, so both
  tensors are the same encoding; it is not a perfect-recall record of the seat's own past bid
  amounts (only those still visible in the view).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel

from . import OBS_SIZE, BidLadder, Game, observation_blocks

__all__ = ["QeOpenSpielGame", "QeOpenSpielState", "GAME_TYPE"]

_DEFAULT_LADDER = ",".join(str(a) for a in BidLadder.default().amounts)
_MAX_CHANCE_OUTCOMES = 120  # 5! deals

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
        "ladder": _DEFAULT_LADDER,
        "peeks": False,
    },
)


def _ladder(text: str) -> BidLadder:
    return BidLadder([int(x) for x in text.split(",") if x.strip()])


class QeOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_qe`` (see the module docs)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.qe_players = int(params.get("players", 4))
        self.qe_commodities = bool(params.get("commodities", False))
        self.qe_ladder = _ladder(str(params.get("ladder", _DEFAULT_LADDER)))
        self.qe_peeks = bool(params.get("peeks", False))
        probe = Game(
            self.qe_players, self.qe_commodities, 0, ladder=self.qe_ladder, peeks=self.qe_peeks
        )
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

    def new_initial_state(self) -> "QeOpenSpielState":
        return QeOpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[Dict[str, Any]] = None
    ) -> "QeObserver":
        return QeObserver(iig_obs_type, params)


class QeOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_qe``: wraps a :class:`qe.Game` in external-chance mode."""

    def __init__(self, game: QeOpenSpielGame) -> None:
        super().__init__(game)
        self.qe = Game(
            game.qe_players,
            game.qe_commodities,
            ladder=game.qe_ladder,
            peeks=game.qe_peeks,
            external_chance=True,
        )
        self._pass = game.pass_action

    def current_player(self) -> int:
        g = self.qe
        if g.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        acting = g.to_act
        if not acting:
            return int(pyspiel.PlayerId.CHANCE)
        if len(acting) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return acting[0]

    def _legal_actions(self, player: int) -> List[int]:
        if self.qe.to_act_mask >> player & 1:
            return self.qe.legal_actions(player)
        if self.is_simultaneous_node():
            return [self._pass]
        return []

    def chance_outcomes(self) -> List[Any]:
        ids = self.qe.chance_actions()
        p = 1.0 / len(ids)
        return [(i, p) for i in ids]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.qe.apply_chance_action(action)
        else:
            self.qe.apply_action(self.current_player(), action)

    def _apply_actions(self, actions: List[int]) -> None:
        self.qe.step(list(actions))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        if action == self._pass:
            return "pass"
        ladder = self.qe.ladder
        if action < len(ladder):
            return f"bid:{ladder.amount(action)}"
        if action < len(ladder) + 3:
            return "pile:" + ("gold", "oil", "crypto")[action - len(ladder)]
        return f"peek:{action - len(ladder) - 3}"

    def is_terminal(self) -> bool:
        return bool(self.qe.is_over)

    def returns(self) -> List[float]:
        return self.qe.returns("win")

    def __str__(self) -> str:
        return json.dumps(self.qe.public_view_dict(), sort_keys=True)


class QeObserver:
    """Observation and information-state tensors (and strings) from one seat's view."""

    def __init__(self, iig_obs_type: Any, params: Optional[Dict[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {
            name: self.tensor[offset : offset + length]
            for name, offset, length in observation_blocks()
        }

    def set_from(self, state: QeOpenSpielState, player: int) -> None:
        state.qe.observation_into(player, self.tensor)

    def string_from(self, state: QeOpenSpielState, player: int) -> str:
        return json.dumps(state.qe.view_dict(player), sort_keys=True)


pyspiel.register_game(GAME_TYPE, QeOpenSpielGame)
