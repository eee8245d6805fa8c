"""Plays bench.py's like-for-like loops L1/L2 for a fixed number of games, for instruction counts
under callgrind.

Usage: python qe-py/bench/like_steps.py {qe,goofspiel} {plain,observed} GAMES

The loops are bench.py's (`like_qe`, `like_goofspiel`), seeds 0..GAMES. Run it twice (say 20 and
120 games) under `valgrind --tool=callgrind` and divide the difference of the totals by the
difference of the games: start-up (interpreter, imports) cancels out.
"""

from __future__ import annotations

import random
import sys

import numpy as np

import qe


def main() -> None:
    side, mode, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(0)
    randrange = rng.randrange
    flatnonzero = np.flatnonzero
    if side == "qe":
        obs = np.zeros((4, qe.OBS_SIZE), np.float32)
        mask = np.zeros((4, qe.Game(4, False, 0).num_actions), np.int8)
        for seed in range(games):
            g = qe.Game(4, False, seed)
            actions = [0, 0, 0, 0]
            while not g.is_over:
                if mode == "observed":
                    g.observe_into(obs, mask, True)
                    for s in g.to_act:
                        legal = flatnonzero(mask[s])
                        actions[s] = legal[randrange(len(legal))]
                else:
                    for s in g.to_act:
                        legal = g.legal_actions(s)
                        actions[s] = legal[randrange(len(legal))]
                g.step(actions)
        return
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("goofspiel", {"num_cards": 16, "players": 4, "imp_info": True})
    observer = make_observation(game)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
                continue
            actions = []
            for p in range(4):
                if mode == "observed":
                    observer.set_from(state, p)
                    legal = flatnonzero(np.asarray(state.legal_actions_mask(p), np.int8))
                    actions.append(int(legal[randrange(len(legal))]))
                else:
                    legal = state.legal_actions(p)
                    actions.append(legal[randrange(len(legal))])
            state.apply_actions(actions)


if __name__ == "__main__":
    main()
