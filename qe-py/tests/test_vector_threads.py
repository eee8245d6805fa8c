"""qe.VectorEnv on several threads (`num_threads`) and asynchronously (`send` / `recv`): the same
seeds give the same games, bit for bit, whatever the threads and whatever order the envs are
stepped in."""

from __future__ import annotations

import copy
import os
import pickle
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

import qe


def _policy(env: int, k: int, masks: np.ndarray) -> np.ndarray:
    """A random legal action per row of `masks` (one env's), drawn from (env, k) only, so an env
    gets the same actions whatever order the envs are stepped in."""
    rng = np.random.default_rng([env, k])
    keys = (masks != 0) * (rng.random(masks.shape) + 0.5)
    return np.asarray(keys.argmax(-1), np.int64)


def _batch_actions(masks: np.ndarray, k: int, ids: Optional[List[int]] = None) -> np.ndarray:
    """`_policy` for each env of `masks` (env `ids[row]` for each row, by default the row)."""
    ids = list(range(masks.shape[0])) if ids is None else ids
    return np.stack([_policy(e, k, masks[row]) for row, e in enumerate(ids)])


def _run(
    threads: int, steps: int, n: int = 37, **kw: object
) -> List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    env = qe.VectorEnv(n, seed=5, num_threads=threads, **kw)
    assert env.num_threads == threads
    obs, masks = env.reset()
    out = [(obs.copy(), masks.copy(), np.zeros(0), np.zeros(0))]
    for k in range(steps):
        obs, masks, rewards, done = env.step(_batch_actions(masks, k))
        out.append((obs.copy(), masks.copy(), rewards.copy(), done.copy()))
    return out


@pytest.mark.parametrize(
    "kw",
    [
        {"players": 4},
        {"players": 5, "peeks": True, "zero_others": False},
        {"players": 3, "opponents": "value", "seat": 2},
    ],
    ids=["4p", "5p-peeks", "opponents"],
)
def test_threads_give_the_same_games_bit_for_bit(kw: Dict[str, object]) -> None:
    # 37 envs: 1, 2 and 3 threads split them unevenly (19 + 18, 13 + 13 + 11).
    one = _run(1, 120, **kw)
    finished = sum(int(d.sum()) for *_, d in one[1:])
    assert finished >= 10, finished  # the steps cross game ends (and autoresets)
    for threads in (2, 3):
        other = _run(threads, 120, **kw)
        for step, (a, b) in enumerate(zip(one, other)):
            for x, y in zip(a, b):
                assert x.dtype == y.dtype and np.array_equal(x, y), (threads, step)


def test_num_threads_and_batch_size_are_checked() -> None:
    default = qe.VectorEnv(2)
    assert 1 <= default.num_threads <= (os.cpu_count() or 1)
    assert default.batch_size == 2
    with pytest.raises(ValueError, match=r"num_threads must be from 1 to 1024, got 0"):
        qe.VectorEnv(2, num_threads=0)
    with pytest.raises(ValueError, match=r"num_threads must be from 1 to 1024, got 5000"):
        qe.VectorEnv(2, num_threads=5000)
    with pytest.raises(TypeError, match=r"num_threads must be an int, got str '2'"):
        qe.VectorEnv(2, num_threads="2")
    with pytest.raises(ValueError, match=r"batch_size must be from 1 to num_envs \(4\), got 5"):
        qe.VectorEnv(4, batch_size=5)
    with pytest.raises(ValueError, match=r"batch_size must be from 1 to num_envs \(4\), got 0"):
        qe.VectorEnv(4, batch_size=0)


def test_pickle_keeps_threads_and_batch_size() -> None:
    env = qe.VectorEnv(9, seed=1, num_threads=3, batch_size=4)
    twin = pickle.loads(pickle.dumps(env))
    assert (twin.num_threads, twin.batch_size) == (3, 4)


def _async_transcripts(
    n: int, batch: int, want: int, threads: int, **kw: object
) -> Dict[int, List[Tuple[bytes, bytes, bytes, bool]]]:
    """Every env driven through send/recv by `_policy`, until each has `want` results."""
    env = qe.VectorEnv(n, seed=11, num_threads=threads, batch_size=batch, **kw)
    env.async_reset()
    seen: Dict[int, List[Tuple[bytes, bytes, bytes, bool]]] = {e: [] for e in range(n)}
    while min(len(v) for v in seen.values()) < want:
        obs, masks, rewards, done, ids = env.recv()
        assert ids.dtype == np.int64 and ids.shape == (batch,)
        assert len(set(ids.tolist())) == batch
        actions = []
        for row, e in enumerate(ids.tolist()):
            seen[e].append((obs[row].tobytes(), masks[row].tobytes(), rewards[row].tobytes(), bool(done[row])))
            actions.append(_policy(e, len(seen[e]) - 1, masks[row]))
        env.send(np.stack(actions), ids)
    return seen


def _sync_transcripts(
    n: int, want: int, **kw: object
) -> Dict[int, List[Tuple[bytes, bytes, bytes, bool]]]:
    env = qe.VectorEnv(n, seed=11, num_threads=1, **kw)
    obs, masks = env.reset()
    rewards = np.zeros(masks.shape[:-1], np.float32)
    done = np.zeros(n, bool)
    seen: Dict[int, List[Tuple[bytes, bytes, bytes, bool]]] = {e: [] for e in range(n)}
    for k in range(want):
        for e in range(n):
            seen[e].append((obs[e].tobytes(), masks[e].tobytes(), rewards[e].tobytes(), bool(done[e])))
        obs, masks, rewards, done = env.step(_batch_actions(masks, k))
    return seen


@pytest.mark.parametrize(
    "kw",
    [{"players": 4}, {"players": 3, "opponents": "value", "seat": 1}],
    ids=["4p", "opponents"],
)
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_send_recv_matches_step(kw: Dict[str, object], threads: int) -> None:
    # 20 envs, batches of 6: the envs drift apart, each stepped when its batch comes back.
    want = 60
    sync = _sync_transcripts(20, want, **kw)
    assert sum(t[3] for v in sync.values() for t in v) >= 5  # game ends are crossed
    got = _async_transcripts(20, 6, want, threads, **kw)
    for e in range(20):
        assert got[e][:want] == sync[e], e


def test_every_env_is_stepped_once_per_send() -> None:
    env = qe.VectorEnv(8, seed=2, num_threads=2, batch_size=3)
    twin = qe.VectorEnv(8, seed=2, num_threads=1)
    masks = twin.observe()[1].copy()  # the first games (a reset() would start the second)
    ids = np.array([6, 1, 4])
    acting = int((masks[ids][..., -1] == 0).sum())  # seats that must act in those envs
    env.send(_batch_actions(masks[ids], 0, ids.tolist()), ids)
    assert env.decisions == 0  # counted when received
    obs, got_masks, _, _, got = env.recv()
    assert sorted(got.tolist()) == [1, 4, 6]
    assert env.decisions == acting
    # Each returned env is one step on: the twin, stepped once with the same actions.
    actions = _batch_actions(masks, 0)
    twin_obs, twin_masks, _, _ = twin.step(actions)
    for row, e in enumerate(got.tolist()):
        assert np.array_equal(obs[row], twin_obs[e]) and np.array_equal(got_masks[row], twin_masks[e])
    # The envs not sent did not move: sending them now gives the twin's first step too.
    rest = np.array([0, 2, 3])
    env.send(_batch_actions(masks[rest], 0, rest.tolist()), rest)
    obs, _, _, _, got = env.recv()
    for row, e in enumerate(got.tolist()):
        assert np.array_equal(obs[row], twin_obs[e])


def test_send_recv_misuse_is_a_typed_error_naming_the_value() -> None:
    env = qe.VectorEnv(6, seed=3, num_threads=2, batch_size=2)
    _, masks = env.reset()
    with pytest.raises(RuntimeError, match=r"recv\(\) returns batch_size = 2 envs, but only 0 are sent"):
        env.recv()
    env.send(_batch_actions(masks[[2]], 0), [2])
    with pytest.raises(RuntimeError, match=r"only 1 are sent and not received \(0 ready, 1 being stepped\)|only 1 are sent and not received \(1 ready, 0 being stepped\)"):
        env.recv()
    with pytest.raises(RuntimeError, match=r"env 2 was sent and its result is not received yet"):
        env.send(_batch_actions(masks[[2]], 0), [2])
    with pytest.raises(ValueError, match=r"env_ids\[1\] = 6 out of range 0\.\.6"):
        env.send(_batch_actions(masks[[0, 1]], 0), [0, 6])
    with pytest.raises(ValueError, match=r"env_ids\[1\] = 0 is given twice"):
        env.send(_batch_actions(masks[[0, 0]], 0), [0, 0])
    with pytest.raises(TypeError, match=r"env_ids must be a 1-D sequence of ints, got list \[0\.5\]"):
        env.send(_batch_actions(masks[[0]], 0), [0.5])
    with pytest.raises(ValueError, match=r"actions must have shape \[2, 4\], not \[1, 4\]"):
        env.send(_batch_actions(masks[[0]], 0), [0, 1])
    # Calls that read or change every env wait for the envs sent to be received.
    for call in (
        lambda: env.step(_batch_actions(masks, 0)),
        env.reset,
        env.async_reset,
        lambda: pickle.dumps(env),
        lambda: copy.deepcopy(env),
    ):
        with pytest.raises(RuntimeError, match=r"with 1 env\(s\) sent and not received \(2\): recv\(\) them first"):
            call()
    # An illegal action is refused before anything is sent, naming the env (not the row).
    bad = _batch_actions(masks[[0, 5]], 0)
    bad[1, masks[5, :, -1].argmin()] = masks.shape[-1] - 1  # the wait action, for a seat that must act
    with pytest.raises(ValueError, match=r"is the wait action, but seat \d must act") as info:
        env.send(bad, [0, 5])
    assert info.value.env == 5  # type: ignore[attr-defined]
    env.send(_batch_actions(masks[[0, 5]], 0), [0, 5])  # nothing of the refused send stayed
    _, _, _, _, first = env.recv()
    assert len(set(first.tolist())) == 2 and set(first.tolist()) <= {0, 2, 5}
    with pytest.raises(RuntimeError, match=r"only 1 are sent and not received"):
        env.recv()


def test_dropping_an_env_with_envs_sent_is_fine() -> None:
    env = qe.VectorEnv(64, seed=3, num_threads=2, batch_size=8)
    _, masks = env.reset()
    env.send(_batch_actions(masks, 0))
    del env


def test_async_reset_makes_every_env_ready_in_order() -> None:
    env = qe.VectorEnv(5, seed=4, num_threads=2, batch_size=2)
    obs, masks = env.observe()
    obs, masks = obs.copy(), masks.copy()
    env.async_reset(seed=4)  # the same seed: the same first games again
    got: List[int] = []
    for _ in range(2):
        o, m, r, d, ids = env.recv()
        assert not d.any() and not r.any()
        for row, e in enumerate(ids.tolist()):
            assert np.array_equal(o[row], obs[e]) and np.array_equal(m[row], masks[e])
        got += ids.tolist()
    assert got == [0, 1, 2, 3]
    with pytest.raises(RuntimeError, match=r"only 1 are sent and not received \(1 ready, 0 being stepped\)"):
        env.recv()


def test_without_autoreset_a_finished_game_stays_over_until_reset() -> None:
    env = qe.VectorEnv(6, players=3, seed=8, autoreset=False, num_threads=2)
    twin = qe.VectorEnv(6, players=3, seed=8, num_threads=2)
    assert not env.autoreset and twin.autoreset
    _, masks = env.reset()
    _, twin_masks = twin.reset()
    wait = env.wait_action
    k = 0
    ended: Optional[int] = None
    while ended is None:
        obs, masks, rewards, done = env.step(_batch_actions(masks, k))
        twin_obs, twin_masks, twin_rewards, twin_done = twin.step(_batch_actions(twin_masks, k))
        k += 1
        assert np.array_equal(done, twin_done) and np.array_equal(rewards, twin_rewards)
        if done.any():
            ended = int(np.flatnonzero(done)[0])
    # Its rows are the game's last observation; every seat waits; the next steps change nothing.
    last = env.last_observation(ended)
    assert last is not None and np.array_equal(obs[ended], last)
    assert (masks[ended, :, wait] == 1).all() and masks[ended, :, :wait].sum() == 0
    decisions = env.decisions
    acting = int((masks[..., wait] == 0).sum())
    actions = _batch_actions(masks, k)
    actions[ended] = 10**9  # ignored: no seat of a finished game acts
    obs2, masks2, rewards2, done2 = env.step(actions)
    assert np.array_equal(obs2[ended], last) and not done2[ended] and not rewards2[ended].any()
    assert env.decisions - decisions == acting
    # A masked reset starts that env's next game (the twin's, which autoreset it), and only it.
    before = obs2.copy()
    mask = np.zeros(6, bool)
    mask[ended] = True
    obs3, _ = env.reset(mask=mask)
    assert np.array_equal(obs3[ended], twin_obs[ended])
    others = ~mask
    assert np.array_equal(obs3[others], before[others])
    with pytest.raises(ValueError, match=r"mask must have shape \[6\] \(one bool per env\), not \[5\]"):
        env.reset(mask=np.zeros(5, bool))
    with pytest.raises(TypeError, match=r"mask must be 6 bools \(one per env\), got list \[1, 0"):
        env.reset(mask=[1, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"reset\(seed=3, mask=\.\.\.\)"):
        env.reset(3, mask)
    # The pickle of an env with a game kept over replays it.
    twin2 = pickle.loads(pickle.dumps(env))
    assert np.array_equal(twin2.observe()[0], env.observe()[0])


def test_observations_go_to_dlpack_consumers_without_a_copy() -> None:
    env = qe.VectorEnv(3, seed=0)
    obs, masks = env.reset()
    shared = np.from_dlpack(obs)
    assert np.shares_memory(shared, obs) and shared.dtype == np.float32
    assert np.shares_memory(np.from_dlpack(masks), masks)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_an_illegal_action_changes_no_env_whatever_the_threads(threads: int) -> None:
    """The lowest env refused is named, whichever thread checks it, and no env moves (the envs
    before it, checked and legal, included)."""
    env = qe.VectorEnv(40, seed=6, num_threads=threads)
    obs, masks = env.observe()
    obs, masks = obs.copy(), masks.copy()
    actions = _batch_actions(masks, 0)
    wait = env.wait_action
    for e in (33, 17):  # the wait action for a seat that must act
        actions[e, int(np.flatnonzero(masks[e, :, wait] == 0)[0])] = wait
    with pytest.raises(ValueError, match=r"is the wait action, but seat \d must act") as info:
        env.step(actions)
    assert info.value.env == 17  # type: ignore[attr-defined]
    assert env.decisions == 0
    now, now_masks = env.observe()
    assert np.array_equal(now, obs) and np.array_equal(now_masks, masks)
    # And the same actions made legal step every env as a fresh twin does.
    actions = _batch_actions(masks, 0)
    got = [a.copy() for a in env.step(actions)]
    twin = qe.VectorEnv(40, seed=6, num_threads=1)
    want = twin.step(actions)
    assert all(np.array_equal(g, w) for g, w in zip(got, want))


def test_recv_reuses_its_arrays_and_checks_them() -> None:
    env = qe.VectorEnv(4, seed=1, num_threads=2, batch_size=2)
    env.async_reset()
    first = env.recv()
    env.send(_batch_actions(first[1], 0, first[4].tolist()), first[4])
    second = env.recv()
    assert all(a is b for a, b in zip(first, second))
    assert sorted(second[4].tolist()) == [2, 3]  # the envs still ready come first
    env.send(_batch_actions(second[1], 0, second[4].tolist()), second[4].copy())
    second[0].resize((1, 4, qe.OBS_SIZE), refcheck=False)
    with pytest.raises(ValueError, match=r"the VectorEnv's recv obs array was resized"):
        env.recv()
