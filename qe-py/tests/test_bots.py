"""qe.bots: the core's bots by name for any seat of a qe.Game, and rewards from the core."""

from __future__ import annotations

import random

import pytest

import qe
import qe.bots


def test_names_come_from_the_core() -> None:
    assert {"random", "miser", "value"} <= set(qe.bots.NAMES)
    with pytest.raises(ValueError, match='unknown bot "oracle": expected a bot name of qe_core::bots'):
        qe.bots.Bot("oracle")


_BASE = ("random", "miser", "value")


@pytest.mark.parametrize("name", _BASE)
def test_every_bot_plays_every_seat_to_the_end(name: str) -> None:
    g = qe.Game(5, 4, expansions=("commodities",), peeks=True)
    bots = [qe.bots.Bot(name, seed=s) for s in range(5)]
    while not g.is_over:
        for s in g.to_act:
            assert bots[s].command(g, s) is not None or not g.legal(s).must_act
            assert bots[s].play(g, s)
    assert g.outcome() is not None and sum(g.returns()) in (0.0, pytest.approx(1.0))
    assert bots[0].command(g, 0) is None and bots[0].action(g, 0) is None


@pytest.mark.parametrize("name", [n for n in qe.bots.NAMES if n not in _BASE] or ["value"])
def test_every_name_of_the_core_makes_a_bot_that_acts(name: str) -> None:
    """Names beyond the baseline ones (search presets) work too; one decision each, as they may
    be slow."""
    g = qe.Game(4, seed=1)
    bot = qe.bots.Bot(name, seed=1)
    a = bot.action(g, 0)
    assert a is not None and a in g.legal_actions(0)
    assert bot.play(g, 0) and g.phase == "bidding"


def test_actions_are_legal_actions_of_the_game() -> None:
    """Off-ladder bids become the nearest legal rung; without peek actions no peek is chosen."""
    for name in _BASE:
        g = qe.Game(5, 9, expansions=("commodities",), ladder=qe.BidLadder([0, 3, 7, 20]))
        bots = [qe.bots.Bot(name, seed=s) for s in range(5)]
        while not g.is_over:
            s = g.to_act[0]
            a = bots[s].action(g, s)
            assert a is not None and a in g.legal_actions(s)
            g.apply_action(s, a)


def test_play_out_and_vector_env_take_the_same_names() -> None:
    g = qe.Game(4, seed=2)
    qe.bots.play_out(g, ["value", "random", "miser", "value"], seed=1)
    assert g.is_over
    h = qe.Game(4, seed=2)
    qe.bots.play_out(h, ["value", "random", "miser", "value"], seed=1)
    assert h.record() == g.record()  # deterministic for its seeds
    for name in _BASE:
        env = qe.VectorEnv(2, opponents=name, seed=1)
        assert env.opponents == name
    with pytest.raises(ValueError, match='unknown opponents "genius"'):
        qe.VectorEnv(1, opponents="genius")


def test_returns_are_the_core_reward() -> None:
    g = qe.Game(3, seed=5)
    assert g.returns() == [0.0, 0.0, 0.0]
    qe.bots.play_out(g, "value")
    out = g.outcome()
    assert out is not None
    k = len(out.winners)
    assert g.returns("win") == [1.0 / k if s.winner else 0.0 for s in out.seats]
    assert g.returns("score") == [s.total / 100 for s in out.seats]
    with pytest.raises(ValueError, match='unknown reward "wins": expected one of win, score'):
        g.returns("wins")


def test_search_takes_the_core_levels() -> None:
    assert qe.bots.LEVELS == ("easy", "medium", "hard", "mixed")
    bot = qe.bots.Search("easy", seed=3)
    assert (bot.name, bot.level, bot.seed) == ("search:easy", "easy", 3)
    assert qe.bots.Search().name == "search:medium"
    with pytest.raises(ValueError, match="level must be one of easy, medium, hard, mixed, got 'expert'"):
        qe.bots.Search("expert")
    with pytest.raises(TypeError, match="level must be one of easy, medium, hard, mixed, got int 2$"):
        qe.bots.Search(2)  # type: ignore[arg-type]


def test_search_plays_a_seat_deterministically() -> None:
    """Same seeds, same game: the search seat's commands are the same; they are legal."""
    records = []
    for _ in range(2):
        g = qe.Game(4, seed=7)
        bots = [qe.bots.Search("easy", seed=1)] + [qe.bots.Bot("value", seed=s) for s in (1, 2, 3)]
        while not g.is_over:
            for s in g.to_act:
                assert bots[s].play(g, s)
        records.append(g.record())
    assert records[0] == records[1]


def test_play_out_gives_seat_s_the_seed_plus_s() -> None:
    """As documented: seat ``s`` is played by ``Bot(name, seed + s)``."""
    g = qe.Game(4, seed=2)
    qe.bots.play_out(g, "random", seed=10)
    h = qe.Game(4, seed=2)
    bots = [qe.bots.Bot("random", 10 + s) for s in range(4)]
    while not h.is_over:
        for s in h.to_act:
            assert bots[s].play(h, s)
    assert g.commands() == h.commands()
    k = qe.Game(4, seed=2)
    qe.bots.play_out(k, "random", seed=11)
    assert k.commands() != g.commands()


def test_an_off_ladder_bid_halfway_between_two_rungs_takes_the_lower() -> None:
    """In this game the value bot opens turn 1 at 3 for seat 1; on the ladder 0, 2, 4, ... both
    2 and 4 are one away, and the tie goes to the lower rung (documented)."""
    ladder = qe.BidLadder.linear(2, 12)
    g = qe.Game(4, seed=0, ladder=ladder)
    while g.turn < 1:
        for s in g.to_act:
            qe.bots.Bot("value", 0).play(g, s)
    assert g.to_act == [1]
    assert qe.bots.Bot("value", 0).command(g, 1) == {"bid": 3, "seat": 1}
    assert {ladder.index_of(2), ladder.index_of(4)} <= set(g.legal_actions(1))
    assert qe.bots.Bot("value", 0).action(g, 1) == ladder.index_of(2)


def test_the_search_bot_reads_its_own_losing_bids_as_in_the_core() -> None:
    """A bot decides from its seat's view and, for the search bots, the seat's bid history, as in
    ``qe simulate`` and the C ABI. Twin games differ only in a losing secret bid of seat 3 in the
    first auction (3 or 50, against a winning 60), which seat 3's view no longer shows: the
    search bot tells them apart, the value bot (view only) cannot."""
    twins = []
    for mine in (3, 50):
        g = qe.Game(4, seed=8)
        auctioneer = g.auctioneer
        winner = next(s for s in range(4) if s not in (auctioneer, 3))
        while g.turn == 0:
            s = g.to_act[0]
            g.bid(s, mine if s == 3 else 60 if s == winner else g.bid_range(s).min)
        twins.append(g)
    a, b = twins
    # The table as seat 3 sees it (its observation) is the same; its bid history is not.
    assert (a.observation(3) == b.observation(3)).all()
    assert a.view(3).bid_history != b.view(3).bid_history
    differ = 0
    for _ in range(6):
        while 3 not in a.to_act:
            s = a.to_act[0]
            c = qe.bots.Bot("miser").command(a, s)
            a.apply(c)
            b.apply(c)
        assert (a.observation(3) == b.observation(3)).all()
        x, y = (qe.bots.Bot("search:easy", seed=1).command(g, 3) for g in (a, b))
        differ += x != y
        assert qe.bots.Bot("value", seed=1).command(a, 3) == qe.bots.Bot("value", seed=1).command(b, 3)
        a.apply(x)
        b.apply(x)
    assert differ > 0, "the search bot decided alike in every twin position"


def test_bot_command_and_play_may_peek_without_peek_actions() -> None:
    """``Bot.command`` and ``Bot.play`` give the bot's own command, a peek too (R-VIS-5), whatever
    the game's action space; only ``Bot.action`` keeps to the space."""
    g = qe.Game(5, seed=0)  # no peek actions in its space
    assert not g.peeks
    rng = random.Random(0)
    peeked = None
    while not g.is_over and peeked is None:
        for s in range(5):
            c = qe.bots.Bot("value", seed=1).command(g, s)
            if c is not None and "peek" in c:
                peeked = (s, c)
                a = qe.bots.Bot("value", seed=1).action(g, s)
                assert a is None or a < g.num_actions
                break
        else:
            g.step([rng.choice(g.legal_actions(s)) if s in g.to_act else 0 for s in range(5)])
    assert peeked is not None
    s, c = peeked
    assert qe.bots.Bot("value", seed=1).play(g, s)
    assert g.commands()[-1] == c


@pytest.mark.parametrize("make", [lambda: qe.bots.Bot("random", 1), lambda: qe.bots.Bot("value", 2),
                                  lambda: qe.bots.Search("easy", seed=5), lambda: qe.bots.Bot("miser", 3)])
def test_copied_and_pickled_bots_decide_as_the_original_will(make) -> None:  # type: ignore[no-untyped-def]
    import copy
    import pickle

    bot = make()
    g = qe.Game(4, seed=3)
    for _ in range(4):  # the original's streams move on
        bot.play(g, g.to_act[0])
    copies = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot), copy.copy(bot)]
    fresh = type(bot).__new__(type(bot))
    fresh._b = qe._qe.Bot(bot.name, bot.seed)  # the same name and seed, streams at the start
    assert all(type(c) is type(bot) and repr(c) == repr(bot) for c in copies)
    differs = False
    for _ in range(8):
        seat = g.to_act[0]
        want = bot.command(g, seat)
        assert [c.command(g, seat) for c in copies] == [want] * 3
        differs |= fresh.command(g, seat) != want
        g.apply(want)
    # A bot with random streams decides otherwise from the start: the copies kept the streams.
    assert differs == (bot.name != "miser")


def test_search_names_itself() -> None:
    assert repr(qe.bots.Search("hard", seed=4)) == "Search('hard', seed=4)"


def test_bid_ranges_pickle_and_a_tampered_one_is_refused() -> None:
    import copy
    import pickle

    g = qe.Game(4, seed=3)
    r = g.bid_range(g.to_act[0])
    assert r is not None and pickle.loads(pickle.dumps(r)) == r and copy.deepcopy(r) == r
    with pytest.raises(ValueError, match=r"^BidRange forbidden must be from min \(1\) up, got 0$"):
        qe._qe._bid_range(1, 2**64 - 1, 0)
    with pytest.raises(ValueError, match=r"^BidRange min must be 0 or 1, got 7$"):
        qe._qe._bid_range(7, 2**64 - 1, None)


def test_a_tampered_bot_state_is_a_value_error_naming_the_field() -> None:
    b = qe._qe.Bot("value", 1)
    for state, message in [
        (5, "must be a dict of manifest and streams, got int 5"),
        ({"manifest": None}, "must have the keys manifest and streams, got ['manifest']"),
        ({"manifest": 3, "streams": [0, 0]}, "`manifest` must be a str or None, got int 3"),
        ({"manifest": None, "streams": [0, -1]}, "`streams` must be 2 ints from 0 to 2**128 - 1, got [0, -1]"),
    ]:
        with pytest.raises(ValueError) as e:
            b.__setstate__(state)
        assert str(e.value) == f"Bot state: {message}"
