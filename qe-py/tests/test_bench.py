"""The benchmark script runs (a smoke test: a few hundredths of a second per line)."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench" / "bench.py"


def test_bench_script_runs_every_line() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "0.02"], check=True, capture_output=True, text=True
    ).stdout
    rates = {}
    for line in out.splitlines():
        found = re.search(r"([\d,]+) (games|seat-decisions)/s", line)
        if found:
            rates[line.split(":")[0].strip()] = float(found[1].replace(",", ""))
    for name in (
        "python loop, random legal bids",
        "python loop, + observations and masks",
        "the same, numpy policy from the masks",
        "VectorEnv(64) one core",
        "VectorEnv(1024) 1 thread",
        "VectorEnv(1024) 2 threads",
    ):
        assert rates[name] > 0, out
    # The like-for-like pairs and the reference: OpenSpiel is a test dependency, so they must run.
    assert "SKIPPED" not in out, out
    for name in (
        "L1 plain loop, qe",
        "L1 plain loop, goofspiel",
        "L2 + observations and masks, qe",
        "L2 + observations and masks, goofspiel",
        "L1 plain loop, qe choices alone",
        "L2 + observations and masks, qe choices alone",
    ):
        assert rates[name] > 0, out
    assert out.count("(qe/goofspiel") == 2, out
    assert out.count("so qe/goofspiel <") == 2, out
    assert "reference: goofspiel" in out, out


LIKE_STEPS = BENCH.parent / "like_steps.py"


def test_like_steps_plays_bench_loops() -> None:
    """like_steps.py (the callgrind driver) imports bench.py's like-for-like games and plays them;
    goofspiel's side too (OpenSpiel is a test dependency)."""
    import pyspiel  # noqa: F401  (a test dependency: goofspiel's side must run)

    for side in ("qe", "goofspiel"):
        for mode in ("plain", "observed"):
            subprocess.run([sys.executable, str(LIKE_STEPS), side, mode, "2"], check=True)
    for mode in ("plain-choices", "observed-choices"):
        subprocess.run([sys.executable, str(LIKE_STEPS), "qe", mode, "2"], check=True)
    bad = subprocess.run(
        [sys.executable, str(LIKE_STEPS), "chess", "plain", "2"], capture_output=True, text=True
    )
    assert bad.returncode != 0 and "Usage" in bad.stderr, bad
    # The choices alone are qe's only.
    bad = subprocess.run(
        [sys.executable, str(LIKE_STEPS), "goofspiel", "plain-choices", "2"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode != 0 and "Usage" in bad.stderr, bad


def test_choices_alone_replay_the_game_choices() -> None:
    """The recorded choices are those of the game: the plain and observed loops of one seed draw
    the same sizes (the same legal actions, the same random draws), and replaying them draws
    those sizes again, in order."""
    sys.path.insert(0, str(BENCH.parent))
    try:
        import bench
    finally:
        sys.path.pop(0)
    plain = bench.recorded_choices(5, False)
    observed = bench.recorded_choices(5, True)
    sizes = [len(legal) for _, legal in plain]
    assert len(sizes) > 16 and min(sizes) >= 1, sizes
    assert [int(row.sum()) for _, row in observed] == sizes
    for play, choices in ((bench.qe_choices_plain, plain), (bench.qe_choices_observed, observed)):
        drawn: list = []

        def randrange(n: int) -> int:
            drawn.append(n)
            return n - 1

        play(choices, randrange)
        assert drawn == sizes


def test_vector_threads_prints_both_rates_and_the_projection() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH.parent / "vector_threads.py"), "0.05", "64", "1"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rates = re.findall(r"VectorEnv\(64\) ([12]) threads? *: +([\d,]+) seat-decisions/s", out)
    assert [t for t, _ in rates] == ["1", "2"] and all(float(r.replace(",", "")) > 0 for _, r in rates), out
    assert re.search(r"serial share \(Amdahl, from 2 threads\): \d+\.\d{3}", out), out
    assert re.search(r"Amdahl.s law for 64 threads: \d+\.\dx", out), out
    assert out.count("linear-layer policy, ") == 3, out
