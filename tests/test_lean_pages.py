"""The lean page builder makes the same bytes as the plain one (issue #33 point 4).

``adjudicate --html DIR/`` builds each page with :class:`pathcheck.render.lean.LeanMoments`
(the page's data made as the moments come, pictures kept as lines); the plain builder,
:class:`pathcheck.render.html.Moments` with a :class:`~pathcheck.render.html.Frame` per
moment, stays the reference (``page_for`` without ``lean``). Both pages are rendered as the
batch writes them (with the link back to the index, a title naming the log's line) and
compared byte for byte on random, mutated and illegal logs of every game.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.errors import PathcheckError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.pages import page_for
from pathcheck.render.html import Page, PageEvent, render_page, render_page_bytes
from pathcheck.render.lean import LeanMoments, Lines
from pathcheck.render.site import href
from tests.fuzz import examples, json_values, mutate

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(games.available())
FIXTURES = sorted(p for p in (ROOT / "fixtures").glob("*/*.json")
                  if p.parent.name in ("dungeon", "memoarrr", "memo-dice", "robot-memory")
                  and not p.name.startswith("malformed"))
WORDS = ["Ann", "Bob", "עדי", "R1", "L4", "START", "N", "E", "x</script>", "a\u2028b", "",
         "game/1", "I2", "T3"]
KEYS = ["player", "tile", "dir", "lost", "turns", "hands", "deck", "start_player", "rules",
        "players", "explorations", "moves", "rounds"]


def _bytes(page: Page, title: str = "") -> tuple[bytes, str | None]:
    page = replace(page, back=href("index.html"), title=title or page.title)
    return render_page_bytes(page), page.first_violation()


def same_page(log: dict[str, Any], name: str | None = None) -> bool:
    """Whether the lean and the plain page of ``log`` are the same bytes (True also when the
    log cannot be ruled: then neither has a page)."""
    adjudicator = games.load(name) if name else games.for_format(str(log.get("format")))
    try:
        ruling = adjudicator.adjudicate(log, source="logs.jsonl", options=AdjudicateOptions())
    except PathcheckError:
        return True
    plain = page_for(adjudicator, log, ruling)
    lean = page_for(adjudicator, log, ruling, lean=True)
    title = plain.title.replace("logs.jsonl", "logs.jsonl:7 /3", 1)
    assert _bytes(plain, title) == _bytes(lean, title), log
    assert render_page(lean).encode("utf-8") == render_page_bytes(lean)
    return True


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_page_is_the_same(path: Path) -> None:
    assert same_page(msgspec.json.decode(path.read_bytes()))


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_random_logs_of_every_game(name: str, seed: int) -> None:
    log = games.load(name).random_game(random.Random(seed))
    assert same_page(msgspec.json.decode(msgspec.json.encode(log)), name)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_mutated_logs_of_every_game(data: st.DataObject, name: str, seed: int) -> None:
    """Any value replaced, deleted or moved (most such logs are refused: no page either)."""
    log = msgspec.json.decode(msgspec.json.encode(
        games.load(name).random_game(random.Random(seed))))
    mutate(data, log, json_values(WORDS, KEYS), renames=KEYS)
    assert same_page(log, name)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, (*path, i))]
    return [(path, value)]


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_shuffled_values_of_every_game(data: st.DataObject, name: str, seed: int) -> None:
    """Values swapped with others of the same type from the same log, or list items dropped:
    logs of the right shape that break the rules (most are ruled, and so paged)."""
    log = msgspec.json.decode(msgspec.json.encode(
        games.load(name).random_game(random.Random(seed))))
    for _ in range(data.draw(st.integers(1, 4))):
        leaves = _leaves(log)
        path, value = data.draw(st.sampled_from(leaves))
        *parents, last = path
        holder = log
        for step in parents:
            holder = holder[step]
        if isinstance(holder, list) and data.draw(st.booleans()):
            del holder[last]
            continue
        same = [v for _, v in leaves if type(v) is type(value)]
        holder[last] = data.draw(st.sampled_from(same))
    assert same_page(log, name)


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_illegal_game_logs(data: st.DataObject, seed: int) -> None:
    """``game/1`` logs broken where a page places violations: a turn played by the wrong
    player, a tile not in the hand, a LOST card announced by anyone, a turn dropped."""
    from pathcheck.games.dungeon.gen import random_game

    log: dict[str, Any] = copy.deepcopy(msgspec.json.decode(msgspec.json.encode(
        random_game(random.Random(seed), players=data.draw(st.integers(2, 5))))))
    players = log["players"]
    tiles = sorted({turn["tile"] for e in log["explorations"] for turn in e["turns"]})
    for exploration in log["explorations"]:
        for turn in exploration["turns"]:
            change = data.draw(st.sampled_from(["none", "none", "player", "tile", "lost",
                                                "drop"]))
            if change == "player":
                turn["player"] = data.draw(st.sampled_from(players))
            elif change == "tile":
                turn["tile"] = data.draw(st.sampled_from(tiles))
            elif change == "lost":
                turn["lost"] = data.draw(st.lists(st.sampled_from(players), max_size=2))
            elif change == "drop":
                exploration["turns"].remove(turn)
                break
    assert same_page(log, "dungeon")


def test_lean_moments_names_and_lines() -> None:
    """A right-to-left name is isolated as the plain page does; a picture given as lines is
    the picture of its text; the names must be those the moments were collected with."""
    from pathcheck.render.html import Moments

    def build(moments: Moments | LeanMoments) -> Page:
        picture = Lines(("<svg>", "<text>עדי</text>", "</svg>"))
        moments.add("1.0", "עדי starts", PageEvent("עדי starts", "round 1"), picture=picture)
        moments.add("1.0", "Ann: 3", PageEvent("x</script>", violation=True),
                    picture=moments.picture, scores={"עדי": 1, "Ann": 3})
        moments.add("end", "end", None, text="עדי 1, Ann 3", scores={"עדי": 1, "Ann": 3})
        return moments.page("t", ["Verdict"], names=["עדי", "Ann"], illegal=True)

    assert _bytes(build(LeanMoments(["עדי", "Ann"]))) == _bytes(build(Moments()))
    lean = LeanMoments(["Ann"])
    with pytest.raises(ValueError, match="at least one frame"):
        lean.page("t", names=["Ann"])
    lean.add("1.0", "Ann starts", PageEvent("Ann starts"))
    with pytest.raises(ValueError, match="names"):
        lean.page("t", names=["Bob"])
