"""Gymnasium environments: one seat of QE against the core's bots.

* :class:`QeEnv` (``gymnasium.Env``): one game, the learner at seat ``seat``, every other seat
  played by a bot of ``qe_core::bots`` (:mod:`qe.bots`, by name: ``opponents="value"`` for all,
  or one name per other seat), which act before the learner is asked (so it is then the only seat
  to act; their sealed bids stay hidden from it). Observations are the seat's float32 view encoding
  (``qe.OBS_SIZE``); actions are ``Discrete(num_actions)`` of :class:`qe.Game`'s action space (the
  learner always has something to do when it is asked, so there is no wait action);
  :meth:`QeEnv.action_masks` gives the legal actions (the method sb3-contrib's ``MaskablePPO``
  reads), also in ``info["action_mask"]``. Rewards come at the end, by ``qe_core::reward``
  (``"win"`` or ``"score"``); the last step's ``info["returns"]`` holds every seat's (the bots'
  too). A masked-out action, or an int outside the action space, is replaced by the nearest
  legal one (the lowest legal action above it, else the highest) and ``info["illegal_action"]``
  is set; with ``illegal="raise"`` a masked-out action raises :class:`qe.IllegalCommand` (one
  outside the space a ``ValueError``). An action that is not an int (numpy integers are) is a
  ``TypeError`` naming it, never truncated. :class:`QeVectorEnv` refuses any illegal action.
* :class:`QeVectorEnv` (``gymnasium.vector.VectorEnv``): ``num_envs`` such games stepped in one
  native call (:class:`qe.VectorEnv` with ``opponents``, the GIL released). ``reset(seed=)``
  returns ``(obs, infos)``, ``step(actions)`` returns ``(obs, rewards, terminations,
  truncations, infos)``; ``single_observation_space`` / ``single_action_space`` are the per-env
  spaces and ``infos["action_mask"]`` (also :meth:`QeVectorEnv.action_masks`) the ``[num_envs,
  num_actions]`` masks. ``autoreset_mode`` (``metadata["autoreset_mode"]``) is one of
  gymnasium's three, as its own vector envs define them:

  - ``SAME_STEP`` (the default): an env whose game ends is reset in the same step, the
    observation returned for it is the first of its next game, and ``infos["final_obs"]`` /
    ``infos["final_info"]`` (with their ``_final_obs`` / ``_final_info`` masks) hold the finished
    game's last observation and :class:`QeEnv`'s last info, whose ``"returns"`` are every seat's
    rewards.
  - ``NEXT_STEP``: the step that ends a game returns its last observation (and
    ``infos["returns"]``); the env's next step ignores its action and starts its next game
    (reward 0, not terminated).
  - ``DISABLED``: the step that ends a game returns its last observation (and
    ``infos["returns"]``); ``reset(options={"reset_mask": mask})`` starts the next game of the
    envs marked, and stepping an env whose game is over before that is a ``RuntimeError``
    naming it.

  Each env plays the same sequence of games whatever the mode.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from . import OBS_SIZE, BidLadder, Game, _qe
from ._env import as_seat, as_seed, check_illegal, expansions_of, legalize
from .bots import Bot, bot_names

__all__ = ["QeEnv", "QeVectorEnv"]

Opponents = Union[str, Sequence[str]]


class QeEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of QE against bots (see the module docs)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: Opponents = "value",
        *,
        expansions: Optional[Sequence[str]] = None,
        commodities: Optional[bool] = None,
        ladder: Optional[BidLadder] = None,
        peeks: bool = False,
        reward: str = "win",
        illegal: str = "nearest",
        render_mode: Optional[str] = None,
    ) -> None:
        # The game first: it checks the player count (R-SET-1), the ladder and the flags before
        # anything is sized by them; later games are made with what it took.
        # commodities= is deprecated (a warning at the caller's line): the set is the one switch.
        expansions = expansions_of(expansions, commodities)
        self.game = Game(players, 0, expansions=expansions, ladder=ladder, peeks=peeks)
        self._kw: Dict[str, Any] = dict(
            expansions=expansions, ladder=self.game.ladder, peeks=self.game.peeks
        )
        players = self.game.players
        seat = as_seat(seat, players, "seat")
        check_illegal(illegal)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"unknown render_mode {_qe.quote(render_mode)}: expected None or 'ansi'")
        names = bot_names(opponents, players - 1, "opponents", "other seat")
        for n in names:
            Bot(n)  # an unknown name is a ValueError naming it
        self.opponents: List[str] = names
        self.players = players
        self.seat = seat
        self.reward = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.game.returns(reward)  # an unknown reward name is a ValueError naming it
        self.observation_space = spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._bots: List[Optional[Bot]] = []

    def _run_bots(self) -> None:
        # Every bot that must act acts before the learner is asked (its sealed bid hidden from
        # the learner, R-AUC-3), as in the native VectorEnv: the learner is then the only seat
        # to act.
        g = self.game
        while not g.is_over:
            others = g.to_act_mask & ~(1 << self.seat)
            if not others:
                break
            s = (others & -others).bit_length() - 1
            bot = self._bots[s]
            assert bot is not None
            bot.play(g, s)

    def _obs(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        return self.game.observation(self.seat), {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (bool, ``num_actions``)."""
        return self.game.action_mask(self.seat).astype(bool)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        # Read as qe reads a seed, so a wrong one gets the same error as everywhere in qe.
        super().reset(seed=None if seed is None else as_seed(seed, "seed"))
        game_seed, *bot_seeds = (int(x) for x in self.np_random.integers(0, 2**63, self.players + 1))
        self.game = Game(self.players, game_seed, **self._kw)
        others = iter(self.opponents)
        self._bots = [
            None if s == self.seat else Bot(next(others), bot_seeds[s]) for s in range(self.players)
        ]
        self._run_bots()
        return self._obs()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        g = self.game
        if not self._bots:
            raise RuntimeError(_NOT_RESET)
        if g.is_over:
            raise RuntimeError("the game is over: call reset()")
        extra: Dict[str, Any] = {}
        a = legalize(g, self.seat, action, self.illegal, extra)
        g.apply_action(self.seat, a)  # illegal="raise": IllegalCommand, or ValueError off the space
        self._run_bots()
        over = g.is_over
        obs, info = self._obs()
        info.update(extra)
        reward = 0.0
        if over:
            returns = np.asarray(g.returns(self.reward))
            info["returns"] = returns  # every seat's, the bots' too
            reward = float(returns[self.seat])
        return obs, reward, over, False, info

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        v = self.game.public_view()
        return f"turn {v.turn}/{v.turns} phase {self.game.phase} tile {v.tile} to act {v.to_act}"


_NOT_RESET = "step() before reset(): call reset() first"
"""What :class:`QeEnv` and :class:`QeVectorEnv` raise (``RuntimeError``) for a step before the
first reset."""


class QeVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """``num_envs`` games of one seat against bots, stepped natively (see the module docs)."""

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        seat: int = 0,
        opponents: str = "value",
        *,
        expansions: Optional[Sequence[str]] = None,
        commodities: Optional[bool] = None,
        ladder: Optional[BidLadder] = None,
        peeks: bool = False,
        reward: str = "win",
        seed: Optional[int] = None,
        autoreset_mode: Union[AutoresetMode, str] = AutoresetMode.SAME_STEP,
        num_threads: Optional[int] = None,
    ) -> None:
        if not isinstance(autoreset_mode, AutoresetMode):
            try:
                autoreset_mode = AutoresetMode(autoreset_mode)
            except ValueError:
                raise ValueError(
                    f"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of "
                    f"{[m.value for m in AutoresetMode]}, got {_qe.quote(autoreset_mode)}"
                ) from None
        self.autoreset_mode = autoreset_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": autoreset_mode}
        if not isinstance(opponents, str):
            # The learner plays one seat, the same bot every other (qe.VectorEnv's opponents).
            raise TypeError(
                "opponents must be one bot name, which every other seat plays, got "
                f"{type(opponents).__name__} {_qe.quote(opponents)}"
            )
        self._env = _qe.VectorEnv(
            num_envs,
            players,
            expansions=expansions_of(expansions, commodities),
            ladder=ladder,
            seed=seed,
            opponents=opponents,
            seat=seat,
            reward=reward,
            peeks=peeks,
            autoreset=autoreset_mode == AutoresetMode.SAME_STEP,
            num_threads=num_threads,
        )
        self.num_envs = num_envs
        n = self._env.num_actions - 1  # the learner always acts: no wait action
        self.single_observation_space = spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = spaces.Box(-1.0, 1.0, (num_envs, OBS_SIZE), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n))
        self._masks = np.zeros((num_envs, n), bool)
        self._every = np.ones(num_envs, bool)
        # The envs whose game ended at the last step and is not reset yet (NEXT_STEP, DISABLED).
        self._autoreset = np.zeros(num_envs, bool)
        self._started = False

    def _out(self, obs: np.ndarray, masks: np.ndarray) -> Tuple[np.ndarray, Dict[str, Any]]:
        np.not_equal(masks[:, :-1], 0, out=self._masks)
        # Every env has a mask: gymnasium's "_key" flags of which envs hold "key".
        return obs.copy(), {"action_mask": self._masks.copy(), "_action_mask": self._every.copy()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env now (bool, ``[num_envs, num_actions]``)."""
        return self._masks.copy()

    def reset(
        self,
        *,
        seed: Optional[Union[int, List[int]]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        if isinstance(seed, (list, tuple)):
            # Gymnasium's per-env seeds: the games are seeded from the first (qe.VectorEnv).
            if len(seed) != self.num_envs:
                raise ValueError(
                    f"seed must be an int, None or a list of {self.num_envs} seeds (one per env), "
                    f"got a {type(seed).__name__} of {len(seed)}"
                )
            # Each is read as a seed is (a wrong one is an error, not ignored).
            seed = [as_seed(x, f"seed[{i}]") for i, x in enumerate(seed)][0]
        elif seed is not None:
            seed = as_seed(seed, "seed")
        if options is not None and "reset_mask" in options:
            mask = self._reset_mask(options["reset_mask"])
            if seed is not None:
                raise ValueError(
                    f"reset(seed={seed}, options={{'reset_mask': ...}}): a seed re-seeds every "
                    "env, so it cannot go with a reset_mask"
                )
            if not self._started:
                raise RuntimeError("reset(options={'reset_mask': ...}) before reset(): call reset() first")
            obs, masks = self._env.reset(None, mask)
            self._autoreset[mask] = False
            return self._out(obs, masks)
        obs, masks = self._env.reset(seed)
        self._autoreset[:] = False
        self._started = True
        return self._out(obs, masks)

    def _reset_mask(self, mask: Any) -> np.ndarray:
        # Checked as gymnasium's SyncVectorEnv checks it, with the value named.
        if not isinstance(mask, np.ndarray):
            raise TypeError(
                f"options['reset_mask'] must be a numpy array, got {type(mask).__name__} "
                f"{_qe.quote(mask)}"
            )
        if mask.shape != (self.num_envs,):
            raise ValueError(
                f"options['reset_mask'] must have shape ({self.num_envs},), got {mask.shape}"
            )
        if mask.dtype != np.bool_:
            raise TypeError(f"options['reset_mask'] must have dtype bool, got {mask.dtype}")
        if not mask.any():
            raise ValueError(
                f"options['reset_mask'] must mark at least one env, got {_qe.quote(mask)}"
            )
        return mask

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        if not self._started:
            raise RuntimeError(_NOT_RESET)
        mode = self.autoreset_mode
        if mode == AutoresetMode.DISABLED and self._autoreset.any():
            e = int(np.flatnonzero(self._autoreset)[0])
            raise RuntimeError(
                f"env {e}'s game is over and autoreset_mode is DISABLED: reset it with "
                "reset(options={'reset_mask': mask}) first"
            )
        # The native env reads any integer sequence or array, and names what is wrong with one.
        # (A game over, kept for NEXT_STEP, ignores its action and stays as it is.)
        obs, masks, rewards, done = self._env.step(actions)
        if mode != AutoresetMode.SAME_STEP:
            if mode == AutoresetMode.NEXT_STEP and self._autoreset.any():
                # The envs whose game ended at the last step start their next one (reward 0,
                # not terminated: the native reset writes both).
                obs, masks = self._env.reset(None, self._autoreset)
            self._autoreset = done.copy()
            out, info = self._out(obs, masks)
            for e in np.flatnonzero(done).tolist():
                info = self._add_info(info, {"returns": np.asarray(self._env.last_returns(e))}, e)
            return out, rewards.copy(), done.copy(), np.zeros(self.num_envs, bool), info
        out, info = self._out(obs, masks)
        if done.any():
            # As gymnasium's own vector envs do in SAME_STEP mode: each finished env's last
            # observation and info (QeEnv's at the end) under "final_obs" and "final_info".
            for e in np.flatnonzero(done).tolist():
                returns = self._env.last_returns(e)
                final = {
                    "final_obs": self._env.last_observation(e),
                    "final_info": {
                        "action_mask": np.zeros(self._masks.shape[1], np.bool_),
                        "returns": np.asarray(returns),
                    },
                }
                info = self._add_info(info, final, e)
        return out, rewards.copy(), done.copy(), np.zeros(self.num_envs, bool), info

    def close_extras(self, **kwargs: Any) -> None:
        pass
