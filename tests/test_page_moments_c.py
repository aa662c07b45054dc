"""A ``game/1`` page's explorations made in one C call (``game_moments``,
``speedups/c/page_moments.c``, issue #33 point 4) give the page the Python path gives, byte for
byte.

Each page is made with the C call and with it switched off (``page_c._USE_C``: the turn loop
of ``game_page`` and ``Builder.dungeon`` in Python, the reference and the path without the
extension), and the plain page (``Moments``, no lean builder) made too: random logs, mutated
and deal-less ones, illegal ones (an exploration with a violation stays in Python, the others
of the same log do not), and logs whose players have hostile names (quotes, ``<``, ``&``,
control characters, line boundaries, U+2028, non-ASCII, right-to-left, lone surrogates). Also
under the sanitizers (.ci/sanitize), with the arguments of the wrong shape the C side refuses.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.errors import PathcheckError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.dungeon import page_c
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.pages import page_for
from pathcheck.render.html import _KIND, Note, NoteKind, PageEvent, render_page_bytes
from pathcheck.render.lean import _RULE_HTML, LeanMoments
from pathcheck.render.site import href
from pathcheck.tracer.dungeon import TraceResult
from tests.fuzz import examples, json_values, mutate

speedups = pytest.importorskip("pathcheck._speedups")
HOSTILE = ["Ann", 'A"nn', "B'ob", "<i>", "a&b", "x</script>", "C\x00", "D\x07", "E\u2028F",
           "G\x85", "Zoë", "李雷", "עדי", "42", "\u2068H", "~~", "m-1", " ", "Ann Ann", "😀",
           "K\ud800", "\udfffL", "M\r\nN", "%s%U", "{0}"]
WORDS = ["Ann", "Bob", "R1", "L4", "START", "N", "E", "x</script>", "a\u2028b", "", "I2"]
KEYS = ["player", "tile", "dir", "lost", "turns", "hands", "deck", "start_player", "rules",
        "players", "explorations"]


def _made(make: Callable[[], bytes]) -> tuple[str, Any]:
    """The page's bytes, or the error making them raised (a name no UTF-8 can write)."""
    try:
        return "page", make()
    except (UnicodeEncodeError, ValueError) as exc:
        return "error", (type(exc).__name__, str(exc))


def same_page(log: dict[str, Any]) -> bool:
    """The lean page with and without ``game_moments``, and the plain page, are the same."""
    adjudicator = games.for_format("game/1")
    try:
        ruling = adjudicator.adjudicate(log, source="l.jsonl", options=AdjudicateOptions())
    except PathcheckError:
        return True

    def make(lean: bool = True) -> bytes:
        page = page_for(adjudicator, log, ruling, lean=lean)
        return render_page_bytes(replace(page, back=href("index.html")))

    with_c = _made(make)
    page_c._USE_C = False
    try:
        without = _made(make)
    finally:
        page_c._USE_C = True
    assert with_c == without
    plain = _made(lambda: make(lean=False))
    if with_c[0] == "error":  # a name no UTF-8 writes: the same error, found further on
        assert plain[0] == "error" and plain[1][0] == with_c[1][0]
    else:
        assert plain == with_c
    return True


def _log(seed: int, players: int) -> dict[str, Any]:
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(
        random_game(random.Random(seed), players=players)))
    return decoded


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


@pytest.mark.parametrize("seed", range(12))
def test_random_game_logs(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    made = page_c._C
    assert made is not None

    def counted(*args: Any) -> None:
        calls.append(args[10])
        made(*args)

    monkeypatch.setattr(page_c, "_C", counted)
    log = _log(seed, 3 + seed % 3)
    assert same_page(log)
    assert calls == list(range(1, len(log["explorations"]) + 1))  # every exploration in C


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
def test_mutated_illegal_and_deal_less_logs(seed: int, data: st.DataObject) -> None:
    log = _log(seed, data.draw(st.integers(2, 5)))
    if data.draw(st.booleans()):
        for exploration in log["explorations"]:
            exploration.pop("hands", None)
            exploration.pop("deck", None)
    if data.draw(st.booleans()):
        mutate(data, log, json_values(WORDS, KEYS), renames=KEYS)
    assert same_page(log)


def _arguments() -> list[Any]:
    moments = LeanMoments(["Ann"])
    full = TraceResult(None, None, ())
    return [moments, moments._state, _KIND, _RULE_HTML,
            lambda *a: moments.add(a[0], a[1], a[2], picture=a[3], notes=a[4], scores=a[5]),
            lambda result, height, count: [], object.__new__, PageEvent, Note, NoteKind.INFO,
            1, "Ann starts", (("Ann", ()),), ("START@N", "R1@N"), ["Hands: -", "Hands: -"],
            [("", full), ("", full)], 0, True, {"Ann": 0}]


def test_game_moments_makes_the_moments() -> None:
    args = _arguments()
    speedups.game_moments(*args)
    moments = args[0]
    assert [frame["k"] for frame in moments._frames] == ["1.0", "1.1"]
    assert moments._frames[1]["c"] == "Exploration 1, turn 1: R1@N (2 tiles)"
    assert moments._events[1].endswith("Ann places R1@N (stack tile 2)</a></li>")


@pytest.mark.parametrize(("at", "bad"), [
    (10, "1"), (11, 5), (12, [("Ann", ())]), (12, (("Ann",),)), (12, ((5, ()),)),
    (12, (("Ann", ("Bob", 3)),)), (13, ("START@N",)), (13, ("START@N", 7)), (14, ("a", "b")),
    (15, [("", None), ("", None)]), (15, [(), ()]), (16, "x"), (5, lambda *a: None),
    (5, lambda *a: (1, 2)), (14, ["Hands", 3]),
])
def test_arguments_of_the_wrong_shape_raise(at: int, bad: Any) -> None:
    args = _arguments()
    args[at] = bad
    with pytest.raises((TypeError, AttributeError, ValueError)):
        speedups.game_moments(*args)


def test_a_wrong_count_of_arguments_raises() -> None:
    with pytest.raises(TypeError):
        speedups.game_moments(*_arguments()[:-1])
