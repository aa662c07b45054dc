"""The Memoarrr! analysis marked by the C replay is the plain one, byte for byte.

:func:`pathcheck.analysis.memoarrr.analyse` takes the marks of a clean log from the C replay
(pathcheck/speedups/c/memoarrr_know.c) and words its moves in C (memoarrr_marks.c; the
Python wording, :func:`~pathcheck.analysis.memoarrr.marked`, is compared); without the
extension, or for a log the C side
declines, :func:`~pathcheck.analysis.memoarrr.analyse_replayed` walks it with the plain
:class:`~pathcheck.analysis.memoarrr_island.Island`. Both must write the same bytes on random logs
of every kind (either edition, the variants, perfect and careless players, unfinished logs,
cards nobody named), on illegal ones (the C replay marks them through their faults:
``memoarrr_lenient``) and on hostile ones. Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import copy
import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.analysis import memoarrr
from pathcheck.errors import RecordError
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.games.memoarrr.rules import POSITIONS

from ..games.test_memoarrr_fast import built, faulty_log, mutated_log
from ..games.test_memoarrr_plain import _BASE


def outcome(log: Any) -> bytes | str:
    """The analysis as JSON, or the error that stopped it."""
    try:
        return memoarrr.analyse(log, source="t").to_json()
    except RecordError as exc:
        return f"RecordError: {exc}"


def same_both_ways(log: Any) -> bytes | str:
    """The analysis with the C marks, after checking that the plain walk writes the same."""
    with_c = outcome(log)
    with mock.patch.object(fast, "_replay", None):
        assert outcome(log) == with_c
    with mock.patch.object(memoarrr, "_marks", None):  # the C replay, the moves in Python
        assert outcome(log) == with_c
    return with_c


def marked_by_c(log: Any) -> bool:
    return fast.trace(log, memoarrr.TEXTS) is not None


def unnamed(log: dict[str, Any], rng: random.Random, count: int) -> None:
    """Up to ``count`` cards of the island that no reveal names left out of the log (cards
    nobody saw: a side or a peek may still show their place)."""
    revealed = {a.get("reveal") for rnd in log["rounds"] for a in rnd["actions"]}
    hidden = [p for p in POSITIONS if str(p) not in revealed]
    for pos in rng.sample(hidden, min(count, len(hidden))):
        log["island"][pos.row][pos.col] = None


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from([2018, 2023]), st.booleans(),
       st.booleans(), st.floats(0, 1), st.integers(0, 7), st.integers(0, 4))
def test_random_logs(seed: int, players: int, edition: int, expert: bool, ordered: bool,
                     skill: float, keep: int, blanks: int) -> None:
    rng = random.Random(seed)
    log = random_game(rng, players=players, edition=edition, expert=expert,
                      ordered_stack=ordered, skill=skill)
    del log["rounds"][keep:]  # a log that ends early
    if keep and keep < 7:  # and one whose last round stops half way
        actions = log["rounds"][-1]["actions"]
        del actions[rng.randrange(len(actions)):]
    unnamed(log, rng, blanks)
    same_both_ways(log)
    if not blanks:
        assert marked_by_c(log)


@built
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hostile_logs(data: st.DataObject) -> None:
    """Moves changed (the C side declines at the first fault) and values replaced anywhere."""
    same_both_ways(mutated_log(data))


def renamed(log: dict[str, Any], names: list[str]) -> None:
    """The players renamed everywhere in the log."""
    new = dict(zip(log["players"], names, strict=False))
    log["players"] = [new[p] for p in log["players"]]
    log["start_player"] = new[log["start_player"]]
    log["peeks"] = {new[p]: side for p, side in log["peeks"].items()}
    for rnd in log["rounds"]:
        for action in rnd["actions"]:
            action["player"] = new[action["player"]]


@built
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_odd_logs_the_c_side_takes(data: st.DataObject) -> None:
    """Names of any text, other sides peeked at, the cards no reveal names shuffled or left
    out: what a peek, a side or a swap shows then differs from what the log was played with
    (the C side marks what it takes, and declines at a fault)."""
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    log = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    names = data.draw(st.lists(st.text(min_size=1, max_size=6), min_size=4, max_size=4,
                               unique=True))
    renamed(log, names)
    sides = data.draw(st.permutations(["north", "east", "south", "west"]))
    log["peeks"] = dict(zip(log["players"], sides, strict=False))
    revealed = {a.get("reveal") for rnd in log["rounds"] for a in rnd["actions"]}
    hidden = [p for p in POSITIONS if str(p) not in revealed]
    cards = [log["island"][p.row][p.col] for p in hidden]
    rng.shuffle(cards)
    for pos, card in zip(hidden, cards, strict=True):
        log["island"][pos.row][pos.col] = card
    unnamed(log, rng, data.draw(st.integers(0, 3)))
    same_both_ways(log)


@built
def test_the_bases_are_marked_by_c() -> None:
    """An unfinished log, a card nobody named, comments: marked in C, as the plain walk."""
    for log in _BASE:
        assert marked_by_c(log)
        same_both_ways(log)


@built
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.booleans(), st.floats(0, 1))
def test_the_c_replay_gives_each_move_its_age(seed: int, players: int, expert: bool,
                                             skill: float) -> None:
    """An age where memory decides (a card seen connects, or one seen not to is revealed):
    at least 2 reveals, a card revealed this round being face up; none for a guess or when
    nothing could connect (docs/analysis.md, "Memory span")."""
    log = random_game(random.Random(seed), players=players, expert=expert, skill=skill)
    assert marked_by_c(log)
    moves = same_both_ways(log)
    analysis = memoarrr.analyse(log, source="t")
    assert analysis.to_json() == moves
    for move in analysis.moves:
        if move.why == "nothing could connect" or move.chance is not None:
            assert move.age is None
        elif move.why != "every card not seen connects":
            assert move.age is not None and move.age >= 2, move


@built
def test_the_marks_leave_the_trace_as_it_was() -> None:
    for log in _BASE:
        plain, marked = fast.trace(log), fast.trace(log, memoarrr.TEXTS)
        assert plain is not None and marked is not None
        assert marked[:3] == plain
        assert len(marked[3]) == 7 * len(memoarrr.analyse(log, source="t").moves)


# --- the C entry point checks the texts (misuse is an error, never a crash) ---------------

_GOOD = memoarrr.TEXTS


class _Text(str):
    pass


@built
@pytest.mark.parametrize("texts", [
    (),
    (_GOOD[0],),
    (*_GOOD, _GOOD[0]),
    (_GOOD[0][:-1], _GOOD[1]),
    (_GOOD[0], (*_GOOD[1], "x")),
    (_GOOD[0], (*_GOOD[1][:-1], 5)),
    (_GOOD[0], (_Text("x"), *_GOOD[1][1:])),
    (list(_GOOD[0]), _GOOD[1]),
])
def test_replay_refuses_bad_texts(texts: tuple[Any, ...]) -> None:
    from pathcheck import _speedups

    with pytest.raises(ValueError):
        _speedups.memoarrr_replay(copy.deepcopy(_BASE[1]), fast.CARD_NUMBERS, texts)


@built
@pytest.mark.parametrize("texts", [[*_GOOD], None, "texts"])
def test_replay_wants_a_tuple_of_texts(texts: Any) -> None:
    from pathcheck import _speedups

    with pytest.raises(TypeError):
        _speedups.memoarrr_replay(copy.deepcopy(_BASE[1]), fast.CARD_NUMBERS, texts)


@built
@pytest.mark.parametrize("seed", [7, 52, 69, 87])
def test_the_age_when_every_card_not_seen_connects(seed: int) -> None:
    """The rare verdict's age (the oldest card seen it could reveal, or none) in C as in the
    plain walk (tests/analysis/test_differential.py checks these logs against the plain
    model)."""
    log = random_game(random.Random(seed), players=2, skill=0.9)
    assert marked_by_c(log)
    same_both_ways(log)
    ages = [m.age for m in memoarrr.analyse(log, source="t").moves
            if m.why == "every card not seen connects"]
    assert ages


@built
def test_marks_misuse_is_an_exception() -> None:
    """memoarrr_marks on what the C replay never hands over: an exception, never a crash
    (also under the sanitizers)."""
    call = memoarrr._marks
    assert call is not None
    log = random_game(random.Random(3), players=3)
    trace = fast.trace(log, memoarrr.TEXTS)
    assert trace is not None
    judged, players = trace[3], tuple(log["players"])
    rule, kit = object(), memoarrr._kit()
    moves, counts = call(judged, players, rule, kit)
    assert len(moves) == len(judged) // 7 and len(counts) == len(players)
    assert sum(sum(c[:4]) for c in counts) == len(moves)
    one = judged[:7]
    bad_moves: list[list[Any]] = [
        [*one[:2], 7, *one[3:]],                  # a seat past the players
        [*one[:3], 10**6, *one[4:]],              # no such reveal
        [*one[:3], -1, *one[4:]],
        [*one[:4], -5, *one[5:]],                 # a knew below zero
        [*one[:4], 2**62, *one[5:]],              # past the tables
        [*one[:5], 1.5, one[6]],                  # a best move of no kind
        [*one[:6], 2**40],                        # a verdict past the ages
        [*one[:6], "3"],
        [0, *one[1:]],                            # round 0
        [*one[:4], 31 << 15, *one[5:]],           # a card to connect to past the deck
        one[:6],                                  # not seven items
    ]
    for bad in bad_moves:
        with pytest.raises((ValueError, TypeError)):
            call(bad, players, rule, kit)
    for args in ((judged, (), rule, kit), (judged, players, rule, kit[:-1]),
                 (judged, ("a",) * 9, rule, kit), (tuple(judged), players, rule, kit)):
        with pytest.raises((ValueError, TypeError)):
            call(*args)
    failing = list(kit)
    failing[10] = lambda *_: 1 / 0  # a filler that fails: its error comes through
    memoarrr._MARKED.clear()
    with pytest.raises(ZeroDivisionError):
        call(judged, players, rule, tuple(failing))
    failing[10] = lambda *_: "no tuple"
    with pytest.raises(ValueError):
        call(judged, players, rule, tuple(failing))
    assert call([], players, rule, kit) == ([], tuple((0, 0, 0, 0, 0.0, 0.0) for _ in players))


@built
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_faulty_logs(data: st.DataObject) -> None:
    """Illegal logs (moves changed, rounds repeated or cut, a side peeked twice, a stack out
    of order) are marked by the C replay through their faults, as the plain walk marks them
    (reveals the rules bar left out, the analysis stopped where the replay must)."""
    log = faulty_log(data)
    written = same_both_ways(log)
    assert isinstance(written, str) or fast.lenient_trace(log, memoarrr.TEXTS) is not None


@built
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_faulty_hostile_logs(data: st.DataObject) -> None:
    log = faulty_log(data)
    holder: Any = log
    for _ in range(data.draw(st.integers(0, 2))):  # down to a round, a move or a value
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        if not keys:
            break
        child = holder[data.draw(st.sampled_from(keys))]
        if not isinstance(child, dict | list):
            break
        holder = child
    keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
    if keys:
        holder[data.draw(st.sampled_from(keys))] = data.draw(
            st.sampled_from([None, 0, 1, True, "", "A1", "C3", "dark", [], {}]))
    same_both_ways(log)
