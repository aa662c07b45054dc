"""A Memoarrr! ruling's rounds written as JSON in C are msgspec's encoding of the values.

For ``adjudicate --format json|jsonl`` (no ruling kept), :func:`~pathcheck.games.memoarrr.fast.
fast_ruling` with ``for_json`` holds the rounds as the JSON array
``_speedups.memoarrr_word_json`` writes from the lenient replay's trace (a
:class:`msgspec.Raw`); the ruling's bytes must be those of the value path (the Round, Event
and fact values of ``memoarrr_word``, which tests/games/test_memoarrr_fast.py compares with
the Python replay) on random, mutated, illegal and hostile logs, and with players' names of
any text (quotes, backslashes, control characters, U+2028, non-ASCII, lone surrogates: a
name msgspec cannot write makes the C side decline, and the values then fail as before).
Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.batch.logs import StreamSettings, rule_logs
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.gen import random_game

from .test_memoarrr_fast import built, faulty_log, mutated_log
from .test_memoarrr_plain import _BASE

ODD = ['"', "\\", "\x00", "\x1f", "\x7f", "\n", "\u2028", "\u2029", "é", "日", "😀", "\ud800",
       "\udfff", "/"]
names = st.lists(st.text(st.one_of(st.sampled_from(ODD), st.characters()), min_size=1,
                         max_size=6), min_size=4, max_size=4, unique=True)


def encoded(log: Any, for_json: bool) -> bytes | str | None:
    """The ruling's JSON (None: the C side declined the log), or the error encoding it."""
    try:
        ruling = fast.fast_ruling(log, source="t", for_json=for_json)
        return None if ruling is None else ruling.to_json()
    except (UnicodeEncodeError, msgspec.EncodeError) as exc:
        return type(exc).__name__


def same_bytes(log: Any) -> bytes | str | None:
    """The ruling written as JSON in C, after checking the value path writes the same."""
    written = encoded(log, True)
    assert written == encoded(log, False)
    return written


def written_in_c(log: Any) -> bool:
    trace = fast.lenient_trace(log)
    assert trace is not None
    return fast._word_json is not None and fast._word_json(
        trace[2], tuple(log["players"]), fast._json_kit(log["edition"])) is not None


def renamed(log: dict[str, Any], new_names: list[str]) -> None:
    """The players renamed everywhere in the log."""
    new = dict(zip(log["players"], new_names, strict=False))
    log["players"] = [new[p] for p in log["players"]]
    log["start_player"] = new[log["start_player"]]
    log["peeks"] = {new[p]: side for p, side in log["peeks"].items()}
    for rnd in log["rounds"]:
        for action in rnd["actions"]:
            action["player"] = new[action["player"]]


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from([2018, 2023]), st.booleans(),
       st.booleans(), st.integers(0, 7))
def test_random_logs(seed: int, players: int, edition: int, expert: bool, ordered: bool,
                     keep: int) -> None:
    rng = random.Random(seed)
    log = random_game(rng, players=players, edition=edition, expert=expert,
                      ordered_stack=ordered)
    del log["rounds"][keep:]  # a log that ends early
    if keep and keep < 7:  # and one whose last round stops half way (an unfinished event)
        actions = log["rounds"][-1]["actions"]
        del actions[rng.randrange(len(actions)):]
    assert isinstance(same_bytes(log), bytes)
    assert written_in_c(log)


@built
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_logs(data: st.DataObject) -> None:
    same_bytes(mutated_log(data))


@built
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_faulty_logs(data: st.DataObject) -> None:
    """Illegal logs: the rounds up to where the replay stopped, the violations as values."""
    same_bytes(faulty_log(data))


@built
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), names)
def test_names_of_any_text(data: st.DataObject, new_names: list[str]) -> None:
    log = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    renamed(log, new_names)
    written = same_bytes(log)
    if isinstance(written, bytes):
        assert written_in_c(log)
    else:  # a lone surrogate: msgspec refuses it, and the C side leaves it to the values
        assert any("\ud800" <= c <= "\udfff" for name in log["players"] for c in name)
        assert not written_in_c(log)


@built
def test_through_the_stream(tmp_path: Path) -> None:
    """`adjudicate --format json|jsonl` of a file writes what the value path writes."""
    rng = random.Random(4)
    logs = [random_game(rng, players=rng.randint(2, 4)) for _ in range(6)]
    renamed(logs[2], ['A"b', "c\\d", "\u2028", "日本"])
    path = tmp_path / "logs.jsonl"
    path.write_text("".join(json.dumps(log) + "\n" for log in logs), encoding="utf-8")
    for output in ("json", "jsonl"):
        settings_ = StreamSettings(output=output)
        new = [r.text for r in rule_logs([str(path)], settings_)]
        with mock.patch.object(fast, "_word_json", None):
            assert [r.text for r in rule_logs([str(path)], settings_)] == new


# --- misuse of the C entry point is an error, never a crash --------------------------------

@built
def test_word_json_misuse_is_an_exception() -> None:
    from pathcheck import _speedups

    log = random_game(random.Random(2), players=3, edition=2018)
    trace = fast.lenient_trace(log)
    assert trace is not None
    rounds, players, kit = trace[2], tuple(log["players"]), fast._json_kit(2018)
    assert _speedups.memoarrr_word_json(rounds, players, kit) == msgspec.json.encode(
        fast.fast_ruling(log, source="t").rounds)  # type: ignore[union-attr]
    assert _speedups.memoarrr_word_json(rounds, ("a", "a", "b"), kit) is None  # a name twice
    # titles are written in C: counts with thousands separators, one turn, names to escape
    for crafted, names_ in ((((0, -1, 1234, 1, 1, 2, ()), (1, 1, 1, 0, 0, 1, ())), players),
                            (((2, -1, 12, 31, 2, 4, ()),), ('"q"', "\\", "\u2028"))):
        assert _speedups.memoarrr_word_json(crafted, names_, kit) == msgspec.json.encode(
            fast.word_rounds(crafted, names_, 2018))
    first = rounds[0]
    event = first[6][0] if first[6] else (1, 1, 0, 0, 0, 0, 0)
    bad_rounds: list[Any] = [
        (first[:6],),                                     # not a 7-tuple
        ((9, *first[1:]),),                               # a starter past the players
        ((*first[:2], -1, *first[3:]),),                  # turns below zero
        ((*first[:4], 5, *first[5:]),),                   # a winner past the players
        ((*first[:6], ((7, *event[1:]),)),),              # an event of no kind
        ((*first[:6], ((1, 1, 0, 99, 0, 0, 0),)),),       # a place past the island
        ((*first[:6], ((1, 1, 0, 0, 0, 0, 99),)),),       # a volcano past the table
        ((*first[:6], ((0, 1, 0, 0, 1, 99, 0),)),),       # a swapped card past the deck
        ((*first[:6], ((1, 0, 0, 0, 0, 0, 0),)),),        # a move 0
        ((*first[:6], ((1, 1, 5, 0, 0, 0, 0),)),),        # a seat past the players
        ((*first[:6], ((1, 1, 0, 0, 0, 0, "0"),)),),      # no int
        ((*first[:6], [event]),),                         # a list for a tuple
        (first,) * 8,                                     # past 7 rounds
    ]
    for bad in bad_rounds:
        with pytest.raises((ValueError, TypeError)):
            _speedups.memoarrr_word_json(bad, players, kit)
    for args in ((rounds, (), kit), (rounds, ("a",) * 5, kit), (rounds, players, kit[:-1]),
                 (list(rounds), players, kit), (rounds, (1, 2, 3), kit)):
        with pytest.raises((ValueError, TypeError)):
            _speedups.memoarrr_word_json(*args)
    for k, junk in ((0, []), (2, "cards"), (5, "rule"), (9, None)):
        broken = list(kit)
        broken[k] = junk
        with pytest.raises(TypeError):
            _speedups.memoarrr_word_json(rounds, players, tuple(broken))
    failing = list(kit)
    failing[0], failing[1] = {}, lambda *_: 1 / 0  # a case's filler fails: its error
    with pytest.raises(ZeroDivisionError):
        _speedups.memoarrr_word_json(rounds, players, tuple(failing))
    failing[1] = lambda *_: "no bytes"
    with pytest.raises(TypeError):
        _speedups.memoarrr_word_json(rounds, players, tuple(failing))
    short = list(kit)
    short[2] = kit[2][:3]  # a card table too short: the trace's card is out of it
    log = random_game(random.Random(5), players=2, edition=2018)
    trace = fast.lenient_trace(log)
    assert trace is not None
    with pytest.raises(ValueError):
        _speedups.memoarrr_word_json(trace[2], tuple(log["players"]), tuple(short))
