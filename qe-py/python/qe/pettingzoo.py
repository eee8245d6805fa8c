"""PettingZoo adapters for QE: ``env(**kw)`` (AEC) and ``parallel_env(**kw)`` (Parallel).

Agents are ``"seat_0"`` ... ``"seat_{n-1}"``. Keyword arguments: ``players`` (3-5, default 4),
``expansions`` (the expansions in play by name, e.g. ``("commodities",)``; default none),
``commodities`` (default ``False``; ``True`` is a shorthand for ``expansions=("commodities",)``),
``ladder`` (a :class:`qe.BidLadder`, default ``BidLadder.default()``), ``reward`` (``"win"`` or
``"score"``, by ``qe_core::reward``), ``render_mode`` (``None`` or ``"ansi"``), ``illegal``
(``"nearest"`` or ``"raise"``), ``peeks`` (default ``False``).

* **Observations** are dicts ``{"observation": float32[OBS_SIZE], "action_mask": int8[A]}``
  built from the seat's own view only (``qe_core::encoding``).
* **Actions** are ``Discrete(A)``: ``0..L`` bid the ladder's rung, ``L..L+3`` choose the
  gold/oil/crypto pile (take, or discard as the auctioneer), with ``peeks=True`` 16 more actions
  ``L+3+t`` that peek at the price of turn ``t`` (R-VIS-5: 5 players, once per game, an awarded
  auction whose price the seat does not see; a seat may peek whenever it must act, and still has
  to act afterwards: in AEC the same agent stays selected, in Parallel it acts again next step),
  and last the **wait** action ``A - 1`` (:attr:`wait_action`). Every live agent's mask has at
  least one legal action: a seat with nothing to do has exactly one, wait, which the env ignores;
  a seat that must act never has wait.
* **Rewards** are 0 until the game ends; then, with ``reward="win"`` (default) each of the ``k``
  winners gets ``1/k`` and everyone else 0 (all 0 when every seat is eliminated); with
  ``reward="score"`` each seat gets its total VP / 100 (``qe_core::reward``).
* **Illegal actions** (masked out, or an int outside the action space): with
  ``illegal="nearest"`` (default) the action is replaced by the nearest legal one (the lowest
  legal index above it, else the highest legal index) and the agent's info gets
  ``"illegal_action": True``; with ``illegal="raise"`` a masked-out action raises
  :class:`qe.IllegalCommand` (one outside the space a ``ValueError``) and the game is unchanged.
  An action that is not an int (numpy integers are) is a ``TypeError`` naming it, never
  truncated. :func:`env` is wrapped as PettingZoo's own envs are, so there an action outside the
  action space (a non-int included) is first refused by ``AssertOutOfBoundsWrapper`` with an
  ``AssertionError``; a Parallel ``step`` whose dict has
  no entry for an agent that must act is a ``KeyError`` naming the agent, and ``observe`` of an
  agent the env does not have a ``ValueError`` naming it.
* **AEC**: ``agent_selection`` is the lowest seat that must act (sealed bids are collected one seat
  at a time; no seat sees another's amount). **Parallel**: every live agent passes an action each
  step; only the actions of seats that must act are used.
* **state()** (both): a full-information float32 vector for centralized critics, never part of an
  observation: every seat's observation, seat by seat (``players * OBS_SIZE``, ``state_space``),
  i.e. everything any seat knows; nothing no seat knows (deck and pile order) is in it.
* ``env()`` is wrapped like PettingZoo's own environments (``AssertOutOfBoundsWrapper`` inside
  ``OrderEnforcingWrapper``); ``raw_env()`` is the bare environment. The underlying
  :class:`qe.Game` is ``env.unwrapped.game``.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from . import OBS_SIZE, BidLadder, Game, _qe
from ._env import as_seed, check_illegal, expansions_of, legalize

__all__ = ["QeAECEnv", "QeParallelEnv", "env", "parallel_env", "raw_env"]


def _agent(seat: int) -> str:
    return f"seat_{seat}"


def _check_keywords(where: str, kwargs: Mapping[str, Any]) -> None:
    """A ``TypeError`` naming the public function or class ``where`` for a keyword the
    environments do not take (the keywords are ``_Common._setup``'s)."""
    known = [p for p in inspect.signature(_Common._setup).parameters if p != "self"]
    for name in kwargs:
        if name not in known:
            raise TypeError(
                f"{where}() got an unexpected keyword argument {name!r} (it takes "
                f"{', '.join(known)})"
            )


class _Common:
    metadata: Dict[str, Any] = {"name": "qe_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def _setup(
        self,
        players: int = 4,
        commodities: Optional[bool] = None,
        ladder: Optional[BidLadder] = None,
        reward: str = "win",
        render_mode: Optional[str] = None,
        illegal: str = "nearest",
        peeks: bool = False,
        expansions: Optional[Sequence[str]] = None,
    ) -> None:
        check_illegal(illegal)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"unknown render_mode {_qe.quote(render_mode)}: expected None or 'ansi'")
        self.illegal = illegal
        self.players = players
        self.reward_mode = reward
        self.render_mode = render_mode
        # The game first: it checks the arguments (R-SET-1 for the player count, the ladder, the
        # flags) before anything is sized by them.
        # commodities= is deprecated (a warning at the line that made the env); the expansion set
        # is the one switch.
        expansions = expansions_of(expansions, commodities)
        self.game = Game(players, 0, expansions=expansions, ladder=ladder, peeks=peeks)
        self.commodities = self.game.commodities
        self.peeks = self.game.peeks
        self.ladder = self.game.ladder
        self.players = players = self.game.players
        self.expansions: Tuple[str, ...] = tuple(self.game.expansions)
        self.possible_agents: List[str] = [_agent(s) for s in range(players)]
        self.game.returns(reward)  # an unknown reward name is a ValueError naming it
        n = self.game.num_actions
        self.wait_action = n
        """The action of a seat with nothing to do (the last one)."""
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (n + 1,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(n + 1)
        self.state_space = spaces.Box(-1.0, 1.0, (players * OBS_SIZE,), np.float32)
        self._wait_mask = np.zeros(n + 1, np.int8)
        self._wait_mask[n] = 1
        self._rng = np.random.default_rng()

    def _make_game(self, seed: int) -> Game:
        return Game(
            self.players,
            seed,
            expansions=self.expansions,
            ladder=self.ladder,
            peeks=self.peeks,
        )

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._act_space

    def _new_game(self, seed: Optional[int]) -> None:
        if seed is not None:
            # Read as qe.Game reads its seed (a bool, a float or a str is a TypeError naming it).
            self._rng = np.random.default_rng(as_seed(seed, "seed"))
        self.game = self._make_game(int(self._rng.integers(0, 2**63)))

    def _seat(self, agent: Any) -> int:
        """The seat of ``agent``; a ``ValueError`` naming it when it is not an agent of this env."""
        if agent not in self.possible_agents:
            raise ValueError(
                f"unknown agent {_qe.quote(agent)}: expected one of {', '.join(self.possible_agents)}"
            )
        return self.possible_agents.index(agent)

    def _observe(self, seat: int) -> Dict[str, np.ndarray]:
        g = self.game
        if g.to_act_mask >> seat & 1:
            mask = np.zeros(self.wait_action + 1, np.int8)
            mask[: self.wait_action] = g.action_mask(seat)
        else:
            mask = self._wait_mask.copy()
        return {"observation": g.observation(seat), "action_mask": mask}

    def _legalize(self, seat: int, action: Any, info: Dict[str, Any]) -> int:
        return legalize(self.game, seat, action, self.illegal, info, wait=self.wait_action)

    def _final_rewards(self) -> List[float]:
        return self.game.returns(self.reward_mode)

    def state(self) -> np.ndarray:
        """The full-information tensor (see the module docs)."""
        return self.game.state_tensor()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        v = self.game.public_view()
        return f"turn {v.turn}/{v.turns} phase {self.game.phase} tile {v.tile} to act {v.to_act}"

    def close(self) -> None:
        pass


class QeAECEnv(_Common, AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docs)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        _check_keywords(type(self).__name__, kwargs)
        self._setup(**kwargs)
        self.agents: List[str] = []

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:  # type: ignore[type-arg]
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = _agent(self.game.to_act[0])

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        return self._observe(self._seat(agent))

    def step(self, action: Any) -> None:
        if not self.agents:
            raise RuntimeError("step() without a game in play: call reset() first")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(self.agent_selection)
        info: Dict[str, Any] = {}
        action = self._legalize(seat, action, info)
        # Played before any bookkeeping changes: a rejected action leaves the env as it was.
        self.game.apply_action(seat, action)
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._clear_rewards()
        self.infos[self.agent_selection] = info
        if self.game.is_over:
            for a, r in zip(self.possible_agents, self._final_rewards()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            # Every agent gets its final observation and reward through a dead step.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = _agent(self.game.to_act[0])
        if self.render_mode == "ansi":
            self.render()


class QeParallelEnv(_Common, ParallelEnv):  # type: ignore[misc]
    """The Parallel environment (see the module docs)."""

    def __init__(self, **kwargs: Any) -> None:
        _check_keywords(type(self).__name__, kwargs)
        self._setup(**kwargs)
        self.agents: List[str] = []

    def reset(
        self, seed: Optional[int] = None, options: Optional[dict] = None  # type: ignore[type-arg]
    ) -> "tuple[Dict[str, Dict[str, np.ndarray]], Dict[str, Dict[str, Any]]]":
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        obs = {a: self._observe(s) for s, a in enumerate(self.possible_agents)}
        return obs, {a: {} for a in self.agents}

    def step(self, actions: Dict[str, Any]) -> Any:
        if not self.agents:
            raise RuntimeError("step() without a game in play: call reset() first")
        acting = self.game.to_act
        per_seat = [0] * self.players
        infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        if not isinstance(actions, Mapping):
            raise TypeError(
                f"actions must be a dict of agent to action, got {type(actions).__name__}"
            )
        for agent in actions:
            self._seat(agent)  # an entry for no agent is an error, not ignored
        for s in acting:
            agent = _agent(s)
            if agent not in actions:
                raise KeyError(
                    f"actions has no entry for {_qe.quote(agent)}, which must act "
                    f"(got {', '.join(sorted(map(_qe.quote, actions))[:8]) or 'none'})"
                )
            per_seat[s] = self._legalize(s, actions[agent], infos[agent])
        self.game.step(per_seat)
        over = self.game.is_over
        rewards = dict(zip(self.possible_agents, self._final_rewards())) if over else {}
        obs = {a: self._observe(self.possible_agents.index(a)) for a in self.agents}
        rew = {a: float(rewards.get(a, 0.0)) for a in self.agents}
        term = {a: over for a in self.agents}
        trunc = {a: False for a in self.agents}
        if over:
            self.agents = []
        if self.render_mode == "ansi":
            self.render()
        return obs, rew, term, trunc, infos


def raw_env(**kwargs: Any) -> QeAECEnv:
    """The AEC environment without wrappers."""
    _check_keywords("raw_env", kwargs)
    return QeAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment (see the module docs for the keyword arguments), wrapped like
    PettingZoo's own: ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(raw_env(**kwargs)))``."""
    _check_keywords("env", kwargs)
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def parallel_env(**kwargs: Any) -> QeParallelEnv:
    """The Parallel environment (see the module docs for the keyword arguments)."""
    _check_keywords("parallel_env", kwargs)
    return QeParallelEnv(**kwargs)
