"""Unit tests of the qe.Game API, exceptions, views, records, pickling and conformance."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Optional

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qe
import qe.bots

CONFORMANCE = Path(__file__).resolve().parents[2] / "conformance"


def test_version_and_exports() -> None:
    assert isinstance(qe.__version__, str) and qe.__version__
    assert issubclass(qe.QeError, ValueError)
    assert issubclass(qe.IllegalCommand, qe.QeError)
    assert issubclass(qe.SetupError, qe.QeError)
    assert qe.OBS_SIZE == sum(n for _, _, n in qe.observation_blocks())


def test_new_game_state() -> None:
    g = qe.Game(players=4, seed=42)
    assert (g.players, g.commodities, g.seed, g.turn, g.turns) == (4, False, 42, 0, 16)
    assert g.phase == "opening_bid" and g.to_act == [0] and g.to_act_mask == 1
    r = g.bid_range(0)
    assert r is not None and (r.min, r.forbidden) == (1, None) and r.max == 2**64 - 1
    assert g.bid_range(1) is None
    g.bid(0, 10)
    assert g.phase == "bidding" and g.to_act == [1, 2, 3]
    r = g.bid_range(2)
    assert r is not None and r.forbidden == 10 and not r.allows(10) and r.allows(0)
    legal = g.legal(2)
    assert legal.must_act and legal.bid is not None and legal.take == []


def test_illegal_command_names_rule_and_code_and_changes_nothing() -> None:
    g = qe.Game(seed=1)
    before = g.record()
    with pytest.raises(qe.IllegalCommand) as e:
        g.bid(1, 5)
    assert e.value.rule == "R-AUC-2" and e.value.code == 102
    g.bid(0, 5)
    with pytest.raises(qe.IllegalCommand) as e:
        g.bid(2, 5)
    assert (e.value.rule, e.value.code) == ("R-AUC-3", 106)
    assert isinstance(e.value, ValueError)
    with pytest.raises(qe.IllegalCommand) as e:
        g.bid(9, 1)
    assert e.value.code == 101
    with pytest.raises(qe.IllegalCommand) as e:
        g.apply({"seat": 1, "fly": 3})
    assert e.value.code == 118
    # bid_all is all or nothing
    rec = g.record()
    with pytest.raises(qe.IllegalCommand):
        g.bid_all([0, 1, 5, 2])
    assert g.record() == rec
    assert before != rec


def test_setup_errors() -> None:
    with pytest.raises(qe.SetupError) as e:
        qe.Game(players=7)
    assert (e.value.rule, e.value.code) == ("R-SET-1", 205)
    with pytest.raises(qe.SetupError) as e:
        qe.Game.from_record("{not json")
    assert e.value.code == 210
    with pytest.raises(qe.SetupError):
        qe.BidLadder([3, 1])


def test_apply_dict_and_events() -> None:
    g = qe.Game(seed=3)
    events = g.apply({"seat": 0, "bid": 4})
    assert events[0].event == "opening_bid" and events[0].amount == 4
    g.apply('{"seat": 1, "bid": 7}')
    own = g.events(1)[-1]
    other = g.events(2)[-1]
    assert own.event == other.event == "bid"
    assert own.amount == 7 and other.amount is None
    assert g.events(0)[-1].amount == 7  # the auctioneer sees bids (R-VIS-3)
    assert g.events()[-1].amount is None  # spectators do not
    assert other.to_dict()["event"] == "bid"


def _random_game(players: int, commodities: bool, seed: int, peeks: bool = False):  # type: ignore[no-untyped-def]
    """A game played with random legal commands through ``apply``, yielding it after each one."""
    rng = random.Random(seed)
    g = qe.Game(players, seed=seed, expansions=("commodities",) if commodities else ())
    while not g.is_over:
        s = g.to_act[0]
        legal = g.legal(s)
        if peeks and legal.peek and rng.random() < 0.5:
            g.apply({"seat": s, "peek": rng.choice(legal.peek)})
        if legal.bid is not None:
            amount = rng.choice([0, 1, 2, 3, 5, 2**64 - 1])
            if not g.bid_range(s).allows(amount):
                amount = 4
            g.apply({"seat": s, "bid": amount})
        elif legal.take:
            g.apply({"seat": s, "take_asset": rng.choice(legal.take)})
        else:
            g.apply({"seat": s, "discard_asset": rng.choice(legal.discard)})
        yield g


def test_views_the_extension_builds_are_their_serde_forms_read_by_from_dict() -> None:
    """``Game.view`` builds the dataclasses in Rust; ``View.from_dict`` reads the serde (JSON) form
    of the same view (as the agent protocol sends it): the two agree field for field, types too."""
    checked = 0
    for players, commodities in ((3, False), (4, True), (5, True)):
        for i, g in enumerate(_random_game(players, commodities, seed=players, peeks=True)):
            if i % 9 and not g.is_over:
                continue
            for s in range(players):
                view = g.view(s)
                read = qe.View.from_dict(json.loads(g._view_json(s, True)))
                assert read == view and repr(read) == repr(view)
                checked += 1
    assert checked > 100


def test_event_data_holds_the_fields_of_the_record_form() -> None:
    """Every event kind's ``data`` holds the fields the agent protocol lists for it, in its order."""
    spec = (Path(__file__).resolve().parents[2] / "spec" / "AGENT-PROTOCOL.md").read_text()
    table = spec[spec.index("| `event` | fields |") :].split("\n\n")[0].splitlines()[2:]
    fields = {}
    for row in table:
        kind, names = (c.strip() for c in row.strip().strip("|").split("|"))
        fields[kind.strip("`")] = [n.split("`")[1] for n in names.split(", ") if "`" in n]
    assert len(fields) == 13
    seen = set()
    for players, commodities in ((3, False), (5, True)):
        *_, g = _random_game(players, commodities, seed=11, peeks=True)
        for viewer in (*range(players), None):
            for e in g.events(viewer):
                assert list(e.data) == fields[e.event], e
                seen.add(e.event)
    assert len(seen) >= 11, seen


def test_every_bid_is_revealed_in_every_stream_at_game_end() -> None:
    """R-VIS-7: while the game runs other seats' losing and last-tile bids are hidden; once it is
    over every seat's stream, and the spectator's, holds every bid in full."""
    g = qe.Game(players=3, seed=1)
    for t in range(15):
        for k, amount in enumerate((1, 2, 0)):
            g.bid((t + k) % 3, amount)
    for seat, amount in ((0, 5), (1, 3), (2, 4)):
        assert any(e.event == "bid" and e.amount is None for e in g.events(1))
        g.bid(seat, amount)
    assert g.is_over
    for viewer in (0, 1, 2, None):
        bids = [e for e in g.events(viewer) if e.event == "bid"]
        assert len(bids) == 15 * 2 + 3
        assert all(e.amount is not None for e in bids), viewer
    last = [(e.seat, e.amount) for e in g.events(1) if e.event == "bid" and e.turn == 15]
    assert sorted(last) == [(0, 5), (1, 3), (2, 4)]
    # The views hold the same history, every amount given.
    for view in (g.view(0), g.view(1), g.view(2), g.public_view()):
        assert len(view.bid_history) == 15 * 2 + 3
        assert all(b.amount is not None for b in view.bid_history)
        assert all(b.stage == "secret" and b.tie == 0 for b in view.bid_history)
        assert [(b.seat, b.amount) for b in view.bid_history if b.turn == 15] == [(0, 5), (1, 3), (2, 4)]


def test_bid_history_shows_what_the_viewer_may_see() -> None:
    """R-VIS-2/3: a seat sees its own bids and every bid of an auction it runs, others' as None."""
    g = qe.Game(players=4, seed=4)
    g.bid(0, 5)
    g.bid(1, 7)
    g.bid(2, 7)
    g.bid(3, 1)
    assert g.phase == "rebid"
    g.bid(1, 8)

    def seen(v: int) -> list[tuple[int, str, int, int | None]]:
        return [(b.seat, b.stage, b.tie, b.amount) for b in g.view(v).bid_history]
    assert seen(0) == [(1, "secret", 0, 7), (2, "secret", 0, 7), (3, "secret", 0, 1), (1, "rebid", 1, 8)]
    assert seen(3) == [(1, "secret", 0, None), (2, "secret", 0, None), (3, "secret", 0, 1), (1, "rebid", 1, None)]
    assert [b.amount for b in g.public_view().bid_history] == [None] * 4


def test_view_is_typed_and_does_not_leak() -> None:
    g = qe.Game(seed=5)
    g.bid(0, 3)
    g.bid(1, 9)
    v = g.view(2)
    assert isinstance(v, qe.View) and v.seat == 2
    assert v.seats[2].industry is not None and v.seats[1].industry is None
    assert v.bids[1] is None and v.bids[2] is None and v.has_bid == [1]
    assert v.seats[1].spent is None and v.seats[2].spent == 0
    assert "9" not in json.dumps(v.to_dict()["bids"])
    # Hidden information differs between games only where the seat may not see it.
    h = qe.Game(seed=5)
    h.bid(0, 3)
    h.bid(1, 11)
    assert g.view(2).to_dict() == h.view(2).to_dict()
    assert np.array_equal(g.observation(2), h.observation(2))
    assert not np.array_equal(g.observation(1), h.observation(1))
    assert g.view(0).bids[1] == 9


def test_play_to_the_end_outcome_and_record() -> None:
    g = qe.Game(players=3, expansions=("commodities",), seed=11)
    rng = random.Random(0)
    while not g.is_over:
        seat = g.to_act[0]
        g.apply_action(seat, rng.choice(g.legal_actions(seat)))
    out = g.outcome()
    assert isinstance(out, qe.Outcome) and len(out.seats) == 3
    assert out.winners == [s.seat for s in out.seats if s.winner]
    rec = g.record()
    assert rec is not None and json.loads(rec)["format"] == "qe-record/1"
    assert g.record_dict() == json.loads(rec)
    assert qe.replay(rec) == out
    assert qe.replay(g.record_dict()) == out  # type: ignore[arg-type]
    assert qe.Game.from_record(rec).outcome() == out
    assert sum(g.returns()) in (0.0, pytest.approx(1.0))
    with pytest.raises(qe.IllegalCommand) as e:
        g.bid(0, 1)
    assert e.value.code == 100


def test_replay_reports_the_index() -> None:
    g = qe.Game(seed=2)
    g.bid(0, 2)
    d = g.record_dict()
    assert d is not None
    d["commands"].append({"seat": 1, "bid": 2})
    with pytest.raises(qe.IllegalCommand) as e:
        qe.replay(d)
    assert e.value.index == 1 and e.value.rule == "R-AUC-3"
    assert qe.replay(g.record() or "") is None  # a pending game


def test_copy_deepcopy_pickle() -> None:
    g = qe.Game(players=5, expansions=("commodities",), seed=8, ladder=qe.BidLadder.linear(2, 5))
    g.bid(0, 4)
    for h in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert type(h) is qe.Game
        assert h.record() == g.record() and h.ladder == g.ladder
        h.bid(1, 6)
        assert h.record() != g.record()
    x = qe.Game(external_chance=True)
    x.apply_chance_action(x.chance_actions()[3])
    x.apply_chance_action(x.chance_actions()[0])
    y = pickle.loads(pickle.dumps(x))
    assert y.commands() == x.commands() and y.external_chance
    assert pickle.loads(pickle.dumps(qe.BidLadder.default())) == qe.BidLadder.default()


def test_deepcopy_keeps_references_to_the_game_itself() -> None:
    g = qe.Game(3, seed=1)
    g.me = g  # type: ignore[attr-defined]
    g.log = [g]  # type: ignore[attr-defined]
    h = copy.deepcopy(g)
    assert h is not g and h.me is h and h.log[0] is h  # type: ignore[attr-defined]


def test_external_chance() -> None:
    g = qe.Game(players=3, external_chance=True)
    assert g.phase == "chance" and g.to_act == [] and g.record() is None
    assert len(g.chance_actions()) == 24
    g.chance(g.chance_outcomes()[0])
    assert g.phase == "chance"
    g.chance({"reveal": "US-AGR"})
    assert g.phase == "opening_bid" and g.view(0).tile == "US-AGR"
    with pytest.raises(qe.IllegalCommand) as e:
        g.apply_chance_action(0)
    assert e.value.rule == "R-SET-3"


def test_draw_chance_actions_are_the_token_number_less_one() -> None:
    g = qe.Game(3, expansions=("commodities",), external_chance=True)
    rng = random.Random(0)
    draws = 0
    while not g.is_over:
        if g.phase == "chance":
            outcomes, ids = g.chance_outcomes(), g.chance_actions()
            for o, i in zip(outcomes, ids):
                if "draw" in o:
                    number = int("".join(c for c in o["draw"] if c.isdigit()))
                    assert i == number - 1, (o, i)
                    draws += 1
            g.apply_chance_action(rng.choice(ids))
        else:
            g.step([rng.choice(g.legal_actions(s)) if s in g.to_act else 0 for s in range(3)])
    assert draws > 0


@pytest.mark.parametrize("players,tokens", [(3, 4), (4, 4), (5, 5)])
def test_a_deal_lists_the_tokens_dealt(players: int, tokens: int) -> None:
    """A deal outcome and the command it becomes list exactly the tokens the game deals (R-CMP-6:
    3 seats and the one set aside, 4, or 5), never the padding of a fixed-size array."""
    g = qe.Game(players=players, external_chance=True)
    deals = g.chance_outcomes()
    assert deals and all(len(d["deal"]) == tokens for d in deals)
    g.chance(deals[-1])
    assert g.commands() == [{"chance": deals[-1]}]


def test_a_pickle_with_a_padded_deal_still_loads() -> None:
    """Earlier versions wrote a 4-player deal with a fifth, padding entry; such a pickle loads, and
    the game lists the deal as the tokens dealt."""
    g = qe.Game(4, external_chance=True)
    g.chance({"deal": ["AGR", "MAN", "FIN", "HOU"]})
    state = json.loads(qe._qe.Game.__getstate__(g))
    state["commands"] = [{"chance": {"deal": ["AGR", "MAN", "FIN", "HOU", "AGR"]}}]
    old = qe.Game.__new__(qe.Game)
    old.__setstate__({"game": json.dumps(state), "attrs": {}})
    assert old.commands() == g.commands() == [{"chance": {"deal": ["AGR", "MAN", "FIN", "HOU"]}}]
    with pytest.raises(qe.IllegalCommand, match="permutation"):
        qe.Game(5, external_chance=True).chance({"deal": ["HOU", "FIN", "MAN", "GOV"]})


def test_ladders_masks_and_observations() -> None:
    assert qe.BidLadder.linear(5, 4).amounts == [0, 5, 10, 15]
    assert qe.BidLadder.geometric(1, 2.0, 5).amounts == [0, 1, 2, 4, 8]
    ladder = qe.BidLadder([0, 1, 3])
    assert len(ladder) == 3 and ladder.index_of(3) == 2 and ladder.amount(1) == 1
    g = qe.Game(seed=1, ladder=ladder)
    assert g.num_actions == 6
    assert g.action_mask(0).tolist() == [0, 1, 1, 0, 0, 0]
    assert g.legal_actions(0) == [1, 2]
    g.apply_action(0, 2)  # opening bid 3
    assert g.action_mask(1).tolist() == [1, 1, 0, 0, 0, 0]
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, 6), np.int8)
    g.observe_into(obs, mask)
    assert np.array_equal(obs[1], g.observation(1)) and mask[0].sum() == 0
    out = np.zeros(qe.OBS_SIZE, np.float32)
    g.observation_into(3, out)
    assert np.array_equal(out, obs[3])
    assert obs.dtype == np.float32 and np.all(np.abs(obs) <= 1)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 5),
    commodities=st.booleans(),
    choices=st.randoms(use_true_random=False),
)
def test_random_play_matches_replay_of_its_record(
    seed: int, players: int, commodities: bool, choices: random.Random
) -> None:
    g = qe.Game(players, seed, expansions=("commodities",) if commodities else (), peeks=True)
    snapshots = []
    while not g.is_over:
        seat = choices.choice(g.to_act)
        actions = g.legal_actions(seat)
        g.apply_action(seat, choices.choice(actions))
        if choices.random() < 0.1:
            snapshots.append((g.record(), [g.view(s).to_dict() for s in range(players)]))
    r = qe.Game.from_record(g.record() or "")
    assert r.outcome() == g.outcome()
    for s in range(players):
        assert r.view(s) == g.view(s)
        assert r.events(s) == g.events(s)
    for rec, views in snapshots:
        h = qe.Game.from_record(rec or "")
        assert [h.view(s).to_dict() for s in range(players)] == views


def _cases() -> list:
    return sorted(
        p
        for p in CONFORMANCE.rglob("*.json")
        if not p.name.endswith(".expect.json")
    )


def test_conformance_suite_is_present() -> None:
    assert len(_cases()) >= 100


@pytest.mark.parametrize("path", _cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_conformance(path: Path) -> None:
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text())
    text = path.read_text()
    kind = expect["kind"]
    if kind == "bad":
        with pytest.raises(qe.SetupError):
            qe.replay(text)
    elif kind == "illegal":
        with pytest.raises(qe.IllegalCommand) as e:
            qe.replay(text)
        assert e.value.index == expect["index"]
    elif kind == "pending":
        assert qe.replay(text) is None
    else:
        out = qe.replay(text)
        assert out is not None
        got = out.to_dict()["seats"]
        assert len(got) == len(expect["outcome"]["seats"])
        for want, have in zip(expect["outcome"]["seats"], got):
            for k, v in want.items():
                assert have[k] == v, (k, have, want)


def test_spend_bounds_and_bounds_observation() -> None:
    """The deduction aid: what a seat can prove about others' spending, from its own information only."""
    g = qe.Game(players=4, seed=3)
    for seat, amount in [(0, 5), (1, 9), (2, 7), (3, 0)]:
        g.apply({"seat": seat, "bid": amount})
    b = g.spend_bounds(2)
    assert b[2].exact and b[2].lower == 0
    assert b[1].lower == 8  # seat 1 beat seat 2's 7 (R-AUC-5)
    assert not b[1].exact
    assert g.spend_bounds(0)[1].exact  # the auctioneer saw the price (R-VIS-3)
    obs = g.observation(2, bounds=True)
    assert obs.shape == (qe.OBS_SIZE + qe.BOUNDS_SIZE,)
    assert obs[qe.OBS_SIZE + 3 * 2 + 2] == 1.0  # own total exact
    assert (g.observation(2)[: qe.OBS_SIZE] == obs[: qe.OBS_SIZE]).all()


def test_bounds_observation_is_the_seats_own_deduction() -> None:
    """Each seat's bounds block says what that seat can prove: its exact flags are its own
    ``spend_bounds``'."""
    g = qe.Game(players=4, seed=3)
    for seat, amount in [(0, 5), (1, 9), (2, 7), (3, 0)]:
        g.apply({"seat": seat, "bid": amount})
    differ = False
    for s in range(4):
        block = g.observation(s, bounds=True)[qe.OBS_SIZE :]
        exact = [b.exact for b in g.spend_bounds(s)]
        assert [bool(block[3 * i + 2]) for i in range(4)] == exact, s
        differ |= exact != [b.exact for b in g.spend_bounds(0)]
    assert differ  # some seat knows less than seat 0 here


def test_from_record_keeps_the_peek_actions() -> None:
    g = qe.Game(5, seed=1, peeks=True)
    assert g.num_actions == 12 + 3 + 16
    r = qe.Game.from_record(g.record() or "", peeks=True)
    assert r.peeks and r.num_actions == g.num_actions
    assert not qe.Game.from_record(g.record() or "").peeks


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> list:
    """One uniformly random legal action per row of `mask` (0 for rows without one)."""
    return [int(rng.choice(np.flatnonzero(row))) if row.any() else 0 for row in mask]


@pytest.mark.parametrize("players,commodities", [(4, False), (3, True), (5, True)])
def test_observations_of_a_game_observed_all_along_equal_a_fresh_copys(
    players: int, commodities: bool
) -> None:
    # A game observed again and again writes through its kept observer; a copy starts without one
    # (its first observation is plain observe_seat). Both must give the same floats every time.
    g = qe.Game(players, 8, expansions=("commodities",) if commodities else ())
    into = np.zeros(qe.OBS_SIZE, np.float32)
    rng = np.random.default_rng(players)
    steps = 0
    while not g.is_over:
        for s in range(players):
            kept = g.observation(s)
            g.observation_into(s, into)
            fresh = copy.copy(g).observation(s)
            assert np.array_equal(kept, fresh) and np.array_equal(into, fresh)
        mask = np.stack([g.action_mask(s) for s in range(players)])
        g.step(_random_legal(mask, rng))
        steps += 1
    assert steps > 16
    for s in range(players):
        assert np.array_equal(g.observation(s), copy.copy(g).observation(s))


@pytest.mark.parametrize("seed", range(6))
def test_observations_looked_at_now_and_then_equal_a_fresh_copys(seed: int) -> None:
    # The kept observer follows the game's commands between looks (several turns may end, seats
    # peek, R-VIS-5): its floats are still a fresh copy's (plain observe_seat).
    players = 5 if seed % 2 else 4
    g = qe.Game(players, seed, expansions=("commodities",) if seed % 3 == 0 else (), peeks=players == 5)
    rng = np.random.default_rng(seed)
    steps = 0
    while not g.is_over:
        if steps % (seed + 2) == 0:
            for s in range(players):
                assert np.array_equal(g.observation(s), copy.copy(g).observation(s))
        mask = np.stack([g.action_mask(s) for s in range(players)])
        g.step(_random_legal(mask, rng))
        steps += 1
    for s in range(players):
        assert np.array_equal(g.observation(s), copy.copy(g).observation(s))


@pytest.mark.parametrize("players,commodities,peeks", [(4, False, False), (3, True, False), (5, True, True)])
def test_step_observe_agrees_with_step_and_observe_into(
    players: int, commodities: bool, peeks: bool
) -> None:
    a = qe.Game(players, 21, expansions=("commodities",) if commodities else (), peeks=peeks)
    b = qe.Game(players, 21, expansions=("commodities",) if commodities else (), peeks=peeks)
    n = a.num_actions
    obs_a = np.full((players, qe.OBS_SIZE), 7.0, np.float32)  # stale values must be overwritten
    mask_a = np.full((players, n), 7, np.int8)
    obs_b = np.zeros_like(obs_a)
    mask_b = np.zeros_like(mask_a)
    a.observe_into(obs_a, mask_a, True)
    b.observe_into(obs_b, mask_b, True)
    rng = np.random.default_rng(players)
    steps = 0
    over = False
    while not over:
        actions = _random_legal(mask_a, rng)
        as_array = steps % 2 == 1  # lists and int64 arrays are both accepted
        over = a.step_observe(np.array(actions) if as_array else actions, obs_a, mask_a)
        b.step(actions)
        b.observe_into(obs_b, mask_b, True)
        assert over == b.is_over
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask_a, mask_b)
        acting = set(b.to_act)
        for s in range(players):
            assert mask_a[s].any() == (s in acting)
            if s not in acting:
                assert not obs_a[s].any()
        steps += 1
    assert a.record() == b.record() and steps > 16
    assert not obs_a.any() and not mask_a.any()  # nobody acts once the game is over


@pytest.mark.parametrize("players,commodities", [(4, False), (5, True)])
def test_step_observe_without_zeroing_writes_only_the_acting_rows(
    players: int, commodities: bool
) -> None:
    a = qe.Game(players, 5, expansions=("commodities",) if commodities else ())
    b = qe.Game(players, 5, expansions=("commodities",) if commodities else ())
    n = a.num_actions
    obs_a = np.full((players, qe.OBS_SIZE), 7.0, np.float32)
    mask_a = np.full((players, n), 7, np.int8)
    obs_b = np.zeros_like(obs_a)
    mask_b = np.zeros_like(mask_a)
    a.observe_into(obs_a, mask_a, True, zero_others=False)
    b.observe_into(obs_b, mask_b, True)
    rng = np.random.default_rng(players)
    over = False
    while not over:
        before = obs_a.copy()
        actions = _random_legal(mask_b, rng)
        over = a.step_observe(actions, obs_a, mask_a, zero_others=False)
        b.step_observe(actions, obs_b, mask_b)
        assert np.array_equal(mask_a, mask_b)  # the others' mask rows are zero all the same
        for s in range(players):
            if s in b.to_act:
                assert np.array_equal(obs_a[s], obs_b[s])
            else:  # left exactly as it was (stale: 7.0 at first, then an earlier observation)
                assert np.array_equal(obs_a[s], before[s])
    assert a.record() == b.record()


def test_step_observe_rejects_bad_input_and_changes_nothing() -> None:
    g = qe.Game(4, 5)
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, g.num_actions), np.int8)
    g.observe_into(obs, mask, True)
    g.step_observe([3, 0, 0, 0], obs, mask)  # opening bid 3 by seat 0
    before = (g.record(), obs.copy(), mask.copy())

    def unchanged() -> None:
        assert g.record() == before[0]
        assert np.array_equal(obs, before[1]) and np.array_equal(mask, before[2])

    ok = [0, 1, 1, 1]  # seat 0 does not act now; the others bid 1
    bad_buffers = [
        (TypeError, np.zeros((4, qe.OBS_SIZE), np.float64), mask),
        (TypeError, obs, np.zeros((4, g.num_actions), np.int32)),
        (TypeError, obs.tolist(), mask),
        (ValueError, np.zeros((3, qe.OBS_SIZE), np.float32), mask),
        (ValueError, obs, np.zeros((4, g.num_actions + 1), np.int8)),
        (ValueError, np.zeros((qe.OBS_SIZE, 4), np.float32).T, mask),  # not C-contiguous
        (ValueError, obs, np.zeros((4, 2 * g.num_actions), np.int8)[:, ::2]),
    ]
    readonly = obs.copy()
    readonly.flags.writeable = False
    bad_buffers.append((ValueError, readonly, mask))
    shared = np.zeros(4 * qe.OBS_SIZE * 4, np.uint8)  # obs and mask overlapping in one buffer
    bad_buffers.append(
        (ValueError, shared.view(np.float32).reshape(4, qe.OBS_SIZE), shared[: 4 * g.num_actions].view(np.int8).reshape(4, -1))
    )
    for exc, o, m in bad_buffers:
        with pytest.raises(exc):
            g.step_observe(ok, o, m)
        unchanged()
    with pytest.raises(qe.IllegalCommand) as e:  # seat 2 bids the opening amount (R-AUC-3)
        g.step_observe([0, 1, 3, 1], obs, mask)
    assert e.value.rule == "R-AUC-3"
    unchanged()
    for bad_actions in ([0, 1, 99, 1], [0, 1, -1, 1], [0, 1], [0, 1, "x", 1], np.array([0.0, 1, 1, 1])):
        with pytest.raises((ValueError, TypeError)):
            g.step_observe(bad_actions, obs, mask)  # type: ignore[arg-type]
        unchanged()
    with pytest.raises(ValueError):
        g.step([0, 1])  # too short for the acting seats
    assert g.record() == before[0]
    assert g.step_observe((0, 1, 1, 1), obs, mask) is False  # a tuple works too
    assert g.record() != before[0]


class _Sub(np.ndarray):
    """An ndarray subclass: not recognised by the fast check, still accepted."""


def test_output_buffers_are_checked_whatever_their_type_dtype_object_or_history() -> None:
    g = qe.Game(4, 2)
    want = np.zeros((4, qe.OBS_SIZE), np.float32)
    want_mask = np.zeros((4, g.num_actions), np.int8)
    g.observe_into(want, want_mask)
    # A subclass, and a dtype object that is not numpy's own float32 (an equal one), are accepted.
    sub = np.zeros((4, qe.OBS_SIZE), np.float32).view(_Sub)
    other = np.zeros((4, qe.OBS_SIZE), np.dtype("=f4").newbyteorder("="))
    for obs in (sub, other):
        g.observe_into(obs, want_mask.copy())
        assert np.array_equal(np.asarray(obs), want)
    # Non-native byte order, other dtypes and non-arrays are refused (TypeError).
    for bad in (
        np.zeros((4, qe.OBS_SIZE), np.dtype(">f4" if np.little_endian else "<f4")),
        np.zeros((4, qe.OBS_SIZE), np.float16),
        [[0.0] * qe.OBS_SIZE] * 4,
    ):
        with pytest.raises(TypeError):
            g.observe_into(bad, want_mask)
    # An array changed in place after a successful call is checked again.
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    g.observe_into(obs, want_mask)
    obs.shape = (2, 2 * qe.OBS_SIZE)
    with pytest.raises(ValueError, match="shape"):
        g.observe_into(obs, want_mask)
    obs.shape = (4, qe.OBS_SIZE)
    obs.dtype = np.int32  # same size, reinterpreted in place
    with pytest.raises(TypeError):
        g.observe_into(obs, want_mask)
    obs.dtype = np.float32
    obs.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        g.observe_into(obs, want_mask)
    obs.flags.writeable = True
    g.observe_into(obs, want_mask)
    assert np.array_equal(obs, want)
    with pytest.raises(ValueError, match="C-contiguous"):
        g.observe_into(np.zeros((qe.OBS_SIZE, 4), np.float32).T, want_mask)


def test_observe_into_checks_buffers_and_phase_is_interned() -> None:
    g = qe.Game(4, 2)
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, g.num_actions), np.int8)
    with pytest.raises(TypeError):
        g.observe_into(obs.astype(np.float64), mask)
    with pytest.raises(ValueError):
        g.observe_into(obs[:3], mask)
    out = np.zeros(qe.OBS_SIZE, np.float32)
    with pytest.raises(ValueError):
        g.observation_into(0, np.zeros(qe.OBS_SIZE + 1, np.float32))
    out.flags.writeable = False
    with pytest.raises(ValueError):
        g.observation_into(0, out)
    assert g.phase == "opening_bid" and g.phase is g.phase
    g.bid_all((4, 0, 0, 0))  # tuples and lists both work
    assert g.phase == "bidding"


def test_step_reads_a_strided_int64_array_by_its_strides() -> None:
    """A non-contiguous int64 view is read entry by entry as numpy sees it, by ``step`` and
    ``step_observe`` alike."""
    for method in ("step", "step_observe"):
        g = qe.Game(4, seed=1)
        g.apply_action(g.to_act[0], g.legal_actions(g.to_act[0])[3])  # the opening bid
        h = qe.Game.from_record(g.record() or "")
        acting = g.to_act
        assert len(acting) == 3
        wanted = [0, 0, 0, 0]
        for s in acting:
            wanted[s] = g.legal_actions(s)[-1 - s]
        backing = np.full(8, 10_000, dtype=np.int64)  # the gaps: out of range if read
        backing[::2] = wanted
        view = backing[::2]
        assert view.dtype == np.int64 and not view.flags.c_contiguous
        if method == "step":
            g.step(view)
        else:
            obs = np.zeros((4, qe.OBS_SIZE), np.float32)
            mask = np.zeros((4, g.num_actions), np.int8)
            g.step_observe(view, obs, mask)
        h.step(wanted)
        assert g.commands() == h.commands()


def test_buffers_of_the_wrong_number_of_dimensions_are_refused() -> None:
    """An extra axis of length 1 is a wrong shape, even with the right number of elements."""
    g = qe.Game(4, seed=1)
    obs = np.zeros((4, qe.OBS_SIZE), np.float32)
    mask = np.zeros((4, g.num_actions), np.int8)
    n, a = qe.OBS_SIZE, g.num_actions
    with pytest.raises(ValueError, match=rf"^obs must have shape \[4, {n}\], not \[4, {n}, 1\]$"):
        g.observe_into(obs.reshape(4, n, 1), mask)
    with pytest.raises(ValueError, match=rf"^mask must have shape \[4, {a}\], not \[4, {a}, 1\]$"):
        g.observe_into(obs, mask.reshape(4, a, 1))
    with pytest.raises(ValueError, match=rf"^out must have shape \[{n}\], not \[1, {n}\]$"):
        g.observation_into(0, np.zeros((1, n), np.float32))


def test_buffers_that_touch_without_overlapping_are_accepted() -> None:
    """``obs`` and ``mask`` side by side in one byte buffer share no byte: both are written (an
    overlap is refused, see above)."""
    g = qe.Game(4, seed=1)
    n = 4 * qe.OBS_SIZE * 4
    for mask_first in (False, True):
        buf = np.zeros(n + 4 * g.num_actions, np.uint8)
        if mask_first:
            mask = buf[: 4 * g.num_actions].view(np.int8).reshape(4, g.num_actions)
            obs = buf[4 * g.num_actions :].view(np.float32).reshape(4, qe.OBS_SIZE)
        else:
            obs = buf[:n].view(np.float32).reshape(4, qe.OBS_SIZE)
            mask = buf[n:].view(np.int8).reshape(4, g.num_actions)
        g.observe_into(obs, mask)
        assert np.array_equal(obs[0], g.observation(0)) and np.array_equal(mask[0], g.action_mask(0))


def test_a_ladder_topped_by_the_largest_bid_offers_it() -> None:
    """A rung of 2**64 - 1, the largest bid, is legal when any bid from it up is: the list of legal
    actions and the mask agree on it."""
    g = qe.Game(4, seed=1, ladder=qe.BidLadder([0, 2**64 - 1]))
    s = g.to_act[0]
    assert g.legal_actions(s) == [1] == list(np.flatnonzero(g.action_mask(s)))
    g.apply_action(s, 1)
    for s in g.to_act:  # the opening amount is forbidden to the others (R-AUC-3)
        assert g.legal_actions(s) == [0] == list(np.flatnonzero(g.action_mask(s)))


def test_a_key_given_twice_is_rejected_by_name() -> None:
    """Records and commands with a repeated key are rejected (another reader could keep the other
    value); the game is unchanged."""
    g = qe.Game(players=4, seed=1)
    with pytest.raises(qe.IllegalCommand, match="duplicate key `seat`") as e:
        g.apply('{"seat": 3, "seat": 0, "bid": 5}')
    assert e.value.rule == "R-AUC-12"
    assert g.phase == "opening_bid" and g.record() == qe.Game(players=4, seed=1).record()
    text = g.record()
    assert text is not None
    dup = text.replace('"players":4', '"players":9,"players":4', 1)
    with pytest.raises(qe.SetupError, match="duplicate key `players`"):
        qe.Game.from_record(dup)


def test_the_same_bad_command_names_the_same_rule_as_in_a_record() -> None:
    """qe-core's one command reader: a bad pile is R-COM-5 / R-COM-7, a bad peek turn R-VIS-5."""
    for command, rule in [
        ({"seat": 1, "take_asset": "silver"}, "R-COM-5"),
        ({"seat": 0, "discard_asset": 7}, "R-COM-7"),
        ({"seat": 1, "peek": "two"}, "R-VIS-5"),
        ({"seat": 1, "bid": 2.9}, "R-AUC-4"),
        ({"seat": 1, "bid": 5, "x": 1}, "R-AUC-12"),
    ]:
        g = qe.Game(players=5, expansions=("commodities",), seed=2)
        with pytest.raises(qe.IllegalCommand) as e:
            g.apply(command)
        assert e.value.rule == rule, command
    g = qe.Game(players=4, seed=2)
    with pytest.raises(qe.IllegalCommand, match='"x"'):
        g.apply({"seat": 1, "bid": 5, "x": 1})


def test_expansions_by_name_and_the_commodities_shorthand() -> None:
    named = qe.Game(5, seed=3, expansions=("commodities",))
    assert named.expansions == ["commodities"] and named.commodities
    assert named.record() == qe.Game(5, 3, expansions=("commodities",)).record()
    assert named.record() == qe.Game(5, 3, expansions=["commodities"]).record()
    assert qe.Game(4, seed=1).expansions == []
    assert json.loads(named.record() or "{}")["expansions"] == ["commodities"]
    with pytest.raises(ValueError, match="unknown expansion \"gold rush\" \\(known: commodities\\)"):
        qe.Game(4, expansions=("gold rush",))
    env = qe.VectorEnv(2, 3, expansions=("commodities",), seed=1)
    assert env.num_envs == 2
    with pytest.raises(ValueError, match="unknown expansion"):
        qe.VectorEnv(2, 3, expansions=("x",))
    external = qe.Game(3, expansions=("commodities",), external_chance=True)
    assert pickle.loads(pickle.dumps(external)).expansions == ["commodities"]


def test_the_shared_bad_commands_name_their_rule_and_code() -> None:
    """The cases every binding checks (``qe-core/tests/data/bad_commands.json``)."""
    path = Path(__file__).resolve().parents[2] / "qe-core" / "tests" / "data" / "bad_commands.json"
    cases = json.loads(path.read_text())["cases"]
    assert len(cases) >= 10
    for case in cases:
        g = qe.Game(4, seed=1)
        before = g.record()
        with pytest.raises(qe.QeError) as info:
            g.apply(case["command"])
        assert (info.value.rule, info.value.code) == (case["rule"], case["code"]), case
        assert g.record() == before


def test_views_number_their_seats_and_show_each_started_auction() -> None:
    """``view.seats[i]`` is seat ``i``, for a seat's view and the spectator's; while the game runs
    ``view.auctions`` holds every auction started, the current one last."""
    g = qe.Game(4, seed=1)
    bots = [qe.bots.Bot("value", seed=s) for s in range(4)]
    while not g.is_over:
        for viewer in (0, 3, None):
            v = g.public_view() if viewer is None else g.view(viewer)
            assert [s.seat for s in v.seats] == [0, 1, 2, 3]
            assert len(v.auctions) == g.turn + 1 and v.auctions[-1].tile == v.tile
        s = g.to_act[0]
        bots[s].play(g, s)
    assert len(g.public_view().auctions) == g.public_view().turns


def test_a_seat_must_act_exactly_when_it_is_to_act() -> None:
    """``Legal.must_act`` (a bid, a take or a discard) agrees with ``to_act`` at every step of
    Commodities games, discards included."""
    discards = 0
    for seed in range(6):
        g = qe.Game(4, seed, expansions=("commodities",))
        bots = [qe.bots.Bot("value", seed=s) for s in range(4)]
        while not g.is_over:
            for s in range(4):
                legal = g.legal(s)
                assert legal.must_act == (s in g.to_act)
                discards += bool(legal.discard)
            s = g.to_act[0]
            bots[s].play(g, s)
    assert discards > 0


def test_deepcopy_copies_a_subclass_s_own_attributes() -> None:
    class Noted(qe.Game):
        pass

    g = Noted(3, seed=1)
    g.notes = ["a"]
    h = copy.deepcopy(g)
    h.notes.append("b")
    assert g.notes == ["a"] and h.notes == ["a", "b"] and type(h) is Noted


_CALLS: list = []


class _Logged(qe.Game):
    """A subclass with its own ``bid_all`` (module level, so it pickles)."""

    def bid_all(self, amounts):  # type: ignore[no-untyped-def]
        _CALLS.append(list(amounts))
        return super().bid_all(amounts)


class _Named(qe.Game):
    """A subclass whose constructor takes other arguments: it overrides ``__new__`` too."""

    def __new__(cls, name: str = "", players: int = 4):  # type: ignore[no-untyped-def]
        return super().__new__(cls, players, seed=7)

    def __init__(self, name: str = "", players: int = 4) -> None:
        self.name = name


def test_a_subclass_with_its_own_constructor_arguments() -> None:
    """The README's pattern: ``__new__`` takes the subclass's arguments and makes the game; copies
    and pickles call ``cls.__new__(cls)`` and then restore the game and the attributes."""
    g = _Named("north", 3)
    assert (g.players, g.seed, g.name) == (3, 7, "north")
    g.bid_all([1 if s in g.to_act else 0 for s in range(3)])
    for h in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert type(h) is _Named and h.name == "north" and h.commands() == g.commands()

    class _Plain(qe.Game):
        def __init__(self, name: str) -> None:
            self.name = name

    class _Passing(qe.Game):
        def __init__(self, players: int = 4, seed: Optional[int] = None) -> None:
            super().__init__(players, seed=seed)
            self.tag = "t"

    p = _Passing(3, seed=2)
    assert (p.players, p.seed, p.tag) == (3, 2, "t")
    # Without its own __new__, the arguments are the game's, and read as such.
    with pytest.raises(TypeError, match=r"argument 'players': must be an int, got str 'x'"):
        _Plain("x")


def test_a_subclass_s_own_methods_are_called() -> None:
    """qe.Game extends the extension's game, and a subclass of qe.Game overrides either: a fresh,
    copied or unpickled instance is of the subclass and calls the override; its instance
    attributes hold only what the caller set."""
    g = _Logged(3, seed=1)
    g.note = "mine"
    for h in (g, copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        _CALLS.clear()
        amounts = [1 if s in h.to_act else 0 for s in range(3)]
        h.bid_all(amounts)
        assert _CALLS == [amounts] and h.turn == 0 and len(h.commands()) == 1
        assert type(h) is _Logged and vars(h) == {"note": "mine"}
    assert isinstance(g, qe._qe.Game) and vars(qe.Game(3, seed=1)) == {}
    # An RL loop's calls are the extension's own, with no Python frame in between.
    hot = ("is_over", "to_act", "to_act_mask", "phase", "legal_actions", "step", "step_observe",
           "observe_into", "apply_action", "bid_all")
    assert [n for n in hot if n in vars(qe.Game)] == []
    r = _Logged.from_record(qe.Game(3, seed=4).record() or "")
    assert type(r) is _Logged and r.seed == 4
    # A method patched onto the class after its first instance is called on it and on later ones.
    calls = []
    _Logged.step = lambda self, actions: calls.append(actions)  # type: ignore[method-assign]
    try:
        g.step([1, 0, 0])
        _Logged(3, seed=2).step([0, 1, 0])
        assert calls == [[1, 0, 0], [0, 1, 0]]
    finally:
        del _Logged.step


@pytest.mark.parametrize(
    "kw", [dict(players=4), dict(players=5, opponents="value", seat=2, peeks=True), dict(players=3, opponents="search:easy")]
)
def test_copied_and_pickled_vector_envs_step_as_the_original_will(kw: dict) -> None:  # type: ignore[type-arg]
    import copy
    import pickle

    env = qe.VectorEnv(3, seed=7, **kw)
    rng = np.random.default_rng(0)

    def act(masks: np.ndarray) -> np.ndarray:
        rows = masks.reshape(-1, masks.shape[-1])
        return np.array([rng.choice(np.flatnonzero(r)) for r in rows]).reshape(masks.shape[:-1])

    obs, masks = env.observe()
    for _ in range(60):
        obs, masks, _, _ = env.step(act(masks))
    assert env.episodes > 0 and env.last_returns(0) is not None
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env), copy.copy(env)]
    fresh = qe.VectorEnv(3, seed=7, **kw)  # the same arguments, none of the games played
    for c in copies:
        o, m = c.observe()
        assert c is not env and (o == obs).all() and (m == masks).all()
        assert (c.decisions, c.episodes) == (env.decisions, env.episodes)
    for _ in range(80):
        a = act(masks)
        want = env.step(a)
        for c in copies:
            got = c.step(a)
            assert all((w == g).all() for w, g in zip(want, got))
        obs, masks = want[0], want[1]
    assert not (fresh.observe()[0] == obs).all()
    for e in range(3):
        for c in copies:
            assert c.last_returns(e) == env.last_returns(e)
            last, got = env.last_observation(e), c.last_observation(e)
            assert (last is None and got is None) or (last == got).all()


def test_the_second_positional_argument_is_the_seed_and_commodities_is_keyword_only() -> None:
    """``Game(players, seed)``: ``commodities`` is keyword-only and deprecated; the expansions in
    play are the set ``expansions=``. A bool where the seed goes (code written for
    ``Game(4, True, 7)``) is a TypeError that says so, never a game seeded 1."""
    assert qe.Game(4, 7).record() == qe.Game(players=4, seed=7).record()
    with pytest.raises(TypeError, match=r"seed must be an int, got bool True: .*keyword-only"):
        qe.Game(4, True)
    with pytest.raises(TypeError):
        qe.Game(4, True, 7)
    with pytest.warns(DeprecationWarning, match=r"commodities=False is deprecated: use expansions=\(\)"):
        plain = qe.Game(4, 7, commodities=False)
    assert plain.expansions == [] and not plain.commodities
    with pytest.warns(DeprecationWarning):
        both = qe.Game(4, 7, commodities=False, expansions=("commodities",))
    assert both.commodities  # the set says Commodities; the flag only adds it
    assert repr(both).startswith("Game(players=4, expansions=['commodities'], turn=0,")
    assert repr(plain).startswith("Game(players=4, expansions=[], turn=0,")
    # A view names the set too; its `commodities` is read from it.
    for game, names in [(plain, []), (both, ["commodities"])]:
        for seat in (0, 2, None):
            v = game.view(seat) if seat is not None else game.public_view()
            assert v.expansions == names and v.commodities == bool(names)
            assert v.to_dict()["expansions"] == names
