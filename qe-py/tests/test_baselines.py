"""``examples/python/baselines.py`` and ``anchors.py`` play a game or two of every row, so the
scripts cannot rot (their measured tables are in qe-py/README.md and the README). The ISMCTS rows
need OpenSpiel; without it they are skipped, saying so. The PPO rows play the committed policy
file with numpy only (no torch)."""

from __future__ import annotations

import csv
import importlib.util
import sys
import warnings
from pathlib import Path
from typing import Any, Iterator, List

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"
HAS_SPIEL = importlib.util.find_spec("pyspiel") is not None
NO_SPIEL = "OpenSpiel (pyspiel) is not installed: the ISMCTS rows of baselines.py and anchors.py are not tested"


@pytest.fixture()
def examples(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    import baselines

    yield baselines
    for name in ("baselines", "anchors", "npz_policy", "train", "ismcts_strength"):
        sys.modules.pop(name, None)


def read(path: Path) -> List[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_row(row: dict, agent: str, field: str, games: int) -> None:
    assert (row["agent"], row["field"], int(row["games"]), row["seats"]) == (agent, field, games, "rotated")
    wins, lo, hi = float(row["wins"]), float(row["lo95"]), float(row["hi95"])
    assert 0 <= wins <= games and 0 <= lo <= wins / games <= hi <= 1
    assert float(row["mean_score"]) >= 0 and 0 <= float(row["eliminated"]) <= 1


def test_baselines_plays_every_agent_but_ismcts(examples: Any, tmp_path: Path) -> None:
    out = tmp_path / "b.csv"
    agents = [a for a in examples.AGENTS if a != "ismcts"]
    rows = examples.main(["--agents", ",".join(agents), "--games", "2", "--seed", "3", "--out", str(out), "--quiet"])
    assert [r.agent for r in rows] == agents
    for row, agent in zip(read(out), agents):
        check_row(row, agent, "value", 2)
    # The same seeds play the same games.
    again = examples.main(["--agents", "search:easy,ppo", "--games", "2", "--seed", "3", "--out", str(out), "--quiet"])
    assert [(r.wins, r.mean_score) for r in again] == [(r.wins, r.mean_score) for r in rows if r.agent in ("search:easy", "ppo")]


def test_the_policy_file_plays_legal_actions(examples: Any) -> None:
    import qe
    from npz_policy import policy_from_npz

    act = policy_from_npz(examples.DEFAULT_POLICY)
    g = qe.Game(4, 5)
    while not g.is_over:
        for s in g.to_act:
            if g.to_act_mask >> s & 1:
                mask = g.action_mask(s).astype(bool)
                a = act(g.observation(s), mask)
                assert mask[a]
                g.apply_action(s, a)
    with np.load(examples.DEFAULT_POLICY) as f:
        assert str(f["activation"]) == "tanh" and f["w0"].shape == (256, qe.OBS_SIZE)


def test_anchors_ppo_part(examples: Any, tmp_path: Path) -> None:
    import anchors

    out = tmp_path / "a.csv"
    anchors.main(["--part", "ppo", "--games", "2", "--out", str(out), "--quiet"])
    rows = read(out)
    check_row(rows[0], "search:medium", "ppo", 2)
    check_row(rows[1], "ppo", "search:medium", 2)


def test_ismcts_rows(examples: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not HAS_SPIEL:
        # A warning too: pytest -q lists warnings, not the reasons of skips.
        warnings.warn(NO_SPIEL)
        pytest.skip(NO_SPIEL)
    # A few simulations a move keep the test fast; the scripts' rows use 100.
    monkeypatch.setattr(examples, "ISMCTS_SIMULATIONS", 4)
    import anchors

    out = tmp_path / "b.csv"
    examples.main(["--agents", "ismcts", "--ismcts-games", "1", "--out", str(out), "--quiet"])
    check_row(read(out)[0], "ismcts", "value", 1)
    out = tmp_path / "a.csv"
    anchors.main(["--part", "ismcts", "--calibration-games", "1", "--ismcts-games", "1", "--out", str(out), "--quiet"])
    rows = read(out)
    check_row(rows[0], "ismcts", "search:medium", 1)
    ms = max(1, round(float(rows[0]["ms_decision"])))
    check_row(rows[1], "ismcts", f"search:ms={ms}", 1)
