"""A lean page's moments made in C (``speedups/c/lean_add.c``, issue #33 point 4) are those of
:meth:`pathcheck.render.lean.LeanMoments.add` in Python, byte for byte.

Each page is made twice, with the extension's ``lean_add`` and with it taken out (the Python
``add`` alone, the reference and the fallback without the extension), and the two pages'
bytes compared: random ``game/1`` logs, mutated ones, deal-less ones (no hands, no deck), and
logs whose players have hostile names (quotes, ``<``, ``&``, control characters, line
boundaries, non-ASCII, right-to-left); and moments collected straight from hostile texts,
notes, rules and scores. Also under the sanitizers (.ci/sanitize). Lean pages against plain
ones: tests/test_lean_pages.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.errors import PathcheckError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.pages import page_for
from pathcheck.render import growing_c, lean
from pathcheck.render.html import _KIND, Note, NoteKind, PageEvent, render_page_bytes
from pathcheck.render.lean import LeanMoments, Lines
from pathcheck.render.site import href
from pathcheck.ruling import Rule
from tests.fuzz import examples, json_values, mutate

speedups = pytest.importorskip("pathcheck._speedups")
HOSTILE = ["Ann", 'A"nn', "B'ob", "<i>", "a&b", "x</script>", "C\x00", "D\x07", "E\u2028F",
           "G\x85", "Zoë", "李雷", "עדי", "42", "\u2068H", "~~", "m-1", " ", "Ann Ann", "😀"]
WORDS = ["Ann", "Bob", "R1", "L4", "START", "N", "E", "x</script>", "a\u2028b", "", "I2"]
KEYS = ["player", "tile", "dir", "lost", "turns", "hands", "deck", "start_player", "rules",
        "players", "explorations"]


@contextmanager
def python_add(pictures: bool = False) -> Iterator[None]:
    """The Python ``add`` alone (as without the extension); with ``pictures`` the pictures
    drawn in Python too (``Growing``)."""
    kept, drawn = lean._lean_add, growing_c._C
    lean._lean_add = None
    if pictures:
        growing_c._C = None
    try:
        yield
    finally:
        lean._lean_add, growing_c._C = kept, drawn


def _both(make: Callable[[], Any]) -> tuple[Any, Any]:
    with_c = make()
    with python_add():
        without = make()
    with python_add(pictures=True):
        assert make() == without  # neither C part: the whole Python path
    return with_c, without


def same_page(log: dict[str, Any]) -> bool:
    adjudicator = games.for_format("game/1")
    try:
        ruling = adjudicator.adjudicate(log, source="l.jsonl", options=AdjudicateOptions())
    except PathcheckError:
        return True

    def make() -> bytes:
        page = page_for(adjudicator, log, ruling, lean=True)
        return render_page_bytes(replace(page, back=href("index.html")))

    with_c, without = _both(make)
    assert with_c == without
    return True


def _log(seed: int, players: int) -> dict[str, Any]:
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(
        random_game(random.Random(seed), players=players)))
    return decoded


@pytest.mark.parametrize("seed", range(12))
def test_random_game_logs(seed: int) -> None:
    assert same_page(_log(seed, 3 + seed % 3))


def _rename(log: dict[str, Any], names: dict[str, str]) -> Any:
    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {names.get(k, k) if k not in KEYS else k: walk(v) for k, v in value.items()}
        return value
    return walk(log)


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_hostile_names(seed: int, data: st.DataObject) -> None:
    log = _log(seed, data.draw(st.integers(2, 5)))
    players = log["players"]
    new = data.draw(st.lists(st.sampled_from(HOSTILE) | st.text(min_size=1, max_size=4),
                             min_size=len(players), max_size=len(players), unique=True))
    assert same_page(_rename(log, dict(zip(players, new, strict=True))))


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_mutated_and_deal_less_logs(seed: int, data: st.DataObject) -> None:
    log = _log(seed, data.draw(st.integers(2, 5)))
    if data.draw(st.booleans()):
        for exploration in log["explorations"]:
            exploration.pop("hands", None)
            exploration.pop("deck", None)
    if data.draw(st.booleans()):
        mutate(data, log, json_values(WORDS, KEYS), renames=KEYS)
    assert same_page(log)


TEXTS = st.sampled_from([*HOSTILE, "exploration 1, turn 2 (Ann)", "", "Ann places R1@N"]) \
    | st.text(max_size=8)
RULES = [Rule("a", "1.2", "a quote"), Rule("b", "4.", "It’s <Lost> & \"gone\""), Rule("c", "x", "")]


@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), names=st.lists(st.sampled_from(HOSTILE), max_size=3, unique=True))
def test_moments_from_hostile_texts(data: st.DataObject, names: list[str]) -> None:
    """Moments of random texts, events, notes (some said again), rules, scores and
    pictures (some numbered, some not), with the C side and without."""
    notes = [Note(data.draw(TEXTS), data.draw(st.sampled_from(list(NoteKind))),
                  data.draw(st.sampled_from([None, *RULES]))) for _ in range(3)]
    pictures: list[str | Lines] = [Lines(("<svg>", data.draw(TEXTS), "</svg>")),
                                   "<svg>\n</svg>\n", ""]
    calls = []
    for _ in range(data.draw(st.integers(1, 12))):
        event = None if data.draw(st.booleans()) else PageEvent(
            data.draw(TEXTS), data.draw(TEXTS), data.draw(st.sampled_from([None, *RULES])),
            data.draw(st.booleans()), data.draw(st.booleans()),
            data.draw(st.sampled_from(["", "", "slip", "guess 35%"])))
        calls.append((data.draw(st.sampled_from(["1.0", "1.1", "end", "a b", "~"])),
                      data.draw(TEXTS), event, data.draw(st.sampled_from(range(3))),
                      data.draw(st.sampled_from(["", "", " ", "Ann 3"])),
                      data.draw(st.lists(st.sampled_from(range(3)), max_size=3)),
                      data.draw(st.sampled_from([None, {}, {"Ann": 1}, {"Ann": 2, "<b>": 0},
                                                 dict.fromkeys(names, 1)]))))

    def make() -> bytes:
        moments = LeanMoments(names)
        for base, caption, event, picture, text, said, scores in calls:
            moments.add(base, caption, event, picture=pictures[picture], text=text,
                        notes=[notes[i] for i in said], scores=scores)
        return render_page_bytes(moments.page("t", ["v"], names=names))

    with_c, without = _both(make)
    assert with_c == without


def _c(moments: Any, *rest: Any) -> Any:
    return speedups.lean_add(moments, moments._state, *rest)


def test_lean_add_refuses_what_it_does_not_make() -> None:
    """The C side changes nothing where it gives the moment back to Python, and raises on
    arguments of the wrong type."""
    moments = LeanMoments(["Ann"])
    state = repr(vars(moments))
    kinds, said = _KIND, lean._RULE_HTML
    for event in (PageEvent("Zoë"), PageEvent("x", mark="slip"), PageEvent("x", "wé"),
                  PageEvent("x", rule=Rule("n", "never", "said"))):
        assert not _c(moments, "1.0", "c", event, "", (), None, kinds, said)
    assert not _c(moments, "a b", "c", PageEvent("x"), "", (), None, kinds, said)
    assert not _c(moments, "1", "é", None, "", (), None, kinds, {})
    assert not _c(moments, "1", "c", None, Lines(("x",)), (), None, kinds, {})
    assert not _c(moments, "1", "c", None, "", (Note("é"),), None, kinds, {})
    assert not _c(moments, "1", "c", None, "", (), [("Ann", 1)], kinds, {})
    assert not _c(moments, "1", "c", None, "", (Note("x"),), None, {}, {})
    assert repr(vars(moments)) == state
    with pytest.raises(AttributeError):
        speedups.lean_add(object(), moments._state, "1", "c", None, "", (), None, {}, {})
    with pytest.raises(TypeError):
        _c(moments, 1, "c", None, "", (), None, {}, {})
    with pytest.raises(TypeError):
        _c(moments, "1", "c", None, "", 3, None, {}, {})
    with pytest.raises(TypeError):
        speedups.lean_add(moments, (), "1", "c", None, "", (), None, {}, {})
    with pytest.raises(TypeError):
        _c(moments, "1", "c", None, "", ())
    with pytest.raises(AttributeError):
        _c(moments, "1", "c", object(), "", (), None, {}, {})
    assert _c(moments, "1", "c", PageEvent("a<b", "w"), "", (Note("n"),), {"Ann": 2}, kinds, {})
    assert moments._events[-1] == ('<li id="m-1" class="ev"><a class="go" href="#m-1">'
                                   '<span class="where">w:</span> a&lt;b</a></li>')
