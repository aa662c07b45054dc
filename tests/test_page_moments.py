"""Replay pages: every event a moment, every violation at its move, every move said, a
violation listed once, honest illegal results; the pages' folder: names, links, FIFOs."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.cli import cli
from pathcheck.games.dungeon.frames import SOLO_WORDS
from pathcheck.games.pages import page_for
from pathcheck.render.html import Page
from pathcheck.render.ruling_page import DUNGEON_WORDS, GAME_WORDS
from pathcheck.ruling import Ruling, render_text

ROOT = Path(__file__).resolve().parents[1]
PLAYABLE = sorted(p for folder in ("dungeon", "memoarrr", "memo-dice", "robot-memory")
                  for p in (ROOT / "fixtures" / folder).glob("*.json")
                  if not p.name.startswith("malformed"))
ILLEGAL = [p for p in PLAYABLE if p.name.startswith("illegal")]


def page_of(path: Path) -> tuple[Page, Ruling]:
    log: dict[str, Any] = json.loads(path.read_text())
    adjudicator = games.for_format(str(log["format"]))
    ruling = adjudicator.adjudicate(log, source=path.name, options=games.AdjudicateOptions())
    return page_for(adjudicator, log, ruling), ruling


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", PLAYABLE, ids=_ids)
def test_every_event_is_a_moment_in_order(path: Path) -> None:
    page, _ = page_of(path)
    assert [f.event for f in page.frames] == list(range(len(page.events)))
    keys = [f.key for f in page.frames]
    assert len(set(keys)) == len(keys) and keys[-1] == "end"
    texts = [(e.where, e.text) for e in page.events if e.violation]
    assert len(set(texts)) == len(texts), "a violation listed twice"
    for event in page.events:  # a violation is listed once: no event repeats one
        assert not event.text.startswith("ILLEGAL:"), event


@pytest.mark.parametrize("path", ILLEGAL, ids=_ids)
def test_every_violation_is_shown_at_its_move(path: Path) -> None:
    page, ruling = page_of(path)
    words = SOLO_WORDS if ruling.format == "solo/1" else DUNGEON_WORDS \
        if path.parent.name == "dungeon" else GAME_WORDS
    shown: dict[tuple[str, str], str] = {}
    for frame in page.frames:
        event = page.events[frame.event] if frame.event is not None else None
        if event is not None and event.violation:
            shown.setdefault((event.where, event.text), frame.key)
    assert ruling.violations
    for violation in ruling.violations:
        key = shown.get((words.where(violation.move), violation.message))
        assert key is not None, f"{violation.message} has no moment"
        move = violation.move
        if move.round is None:
            assert key.startswith(("setup", "log-end")), (key, violation)
        elif ruling.format == "solo/1" and move.index is not None:  # dungeon D, its tile T
            base = key.rstrip("bcdefghijklmnopqrstuvwxyz")
            assert base == f"{move.round}.{move.index}" or key.startswith("log-end"), key
        elif move.index is not None:
            base = key.rstrip("bcdefghijklmnopqrstuvwxyz")
            assert base == f"{move.round}.{move.index}", (key, violation)
        else:
            assert key.startswith(f"{move.round}."), (key, violation)
    assert page.illegal and page.summary[0].startswith("Verdict: ILLEGAL")
    assert not any(line.startswith("Winner") for line in page.summary)
    if ruling.format != "solo/1":
        assert any("as played" in line for line in page.summary)
    listed = sorted(e.text for e in page.events if e.violation)  # the ruling's, no other
    assert listed == sorted(v.message for v in ruling.violations), listed
    text = render_text(ruling)  # the text report of an illegal log names no winner either
    assert "Winner" not in text and "Ahead as played (not a result): " in text


def test_the_first_divergence_is_said_and_is_no_violation() -> None:
    page, ruling = page_of(ROOT / "fixtures" / "dungeon" / "illegal-solo-late.json")
    diverged = [e for e in page.events if e.text.startswith("first divergence")]
    assert len(diverged) == 1 and not diverged[0].violation
    assert sum(e.violation for e in page.events) == len(ruling.violations)


def test_a_game_played_on_after_its_end_says_where_it_should_have_ended() -> None:
    page, _ = page_of(ROOT / "fixtures" / "dungeon" / "illegal-after-game-end.json")
    assert "The game should have ended after exploration 3: Ann 0, Bob 2, Cy 3" in page.summary
    assert "exploration 4" in page.summary[0] and "round" not in page.summary[0]
    page, _ = page_of(ROOT / "fixtures" / "memo-dice" / "illegal-game-end.json")
    assert any(f.key == "7.1" for f in page.frames)


def test_every_memoarrr_move_says_who_did_what() -> None:
    page, _ = page_of(ROOT / "fixtures" / "memoarrr" / "legal-expert-3p-2023.json")
    moves = [f for f in page.frames if f.key.split(".")[-1].isdigit() and
             not f.key.endswith(".0")]
    assert len(moves) > 50
    for frame in moves:
        assert " reveals " in frame.caption or " takes a volcano" in frame.caption, frame.caption
        assert "after move" not in frame.caption
        event = page.events[frame.event] if frame.event is not None else None
        assert event is not None and event.text in frame.caption


def test_same_named_logs_get_a_page_each(tmp_path: Path) -> None:
    log = (ROOT / "fixtures" / "memo-dice" / "legal-2p.json").read_text()
    illegal = (ROOT / "fixtures" / "memo-dice" / "illegal-cup-colour.json").read_text()
    for name, text in (("x/a.json", log), ("y/a.json", illegal), ("a-2.json", log),
                       ("javascript:alert(document.domain).json", log),
                       ("h#1?q%2.json", log)):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    inputs = [str(tmp_path / n) for n in ("x/a.json", "y/a.json", "a-2.json",
                                          "javascript:alert(document.domain).json",
                                          "h#1?q%2.json")]
    folder = tmp_path / "pages"
    result = CliRunner().invoke(cli, ["adjudicate", *inputs, "-o", str(tmp_path / "r.txt"),
                                      "--html", str(folder)])
    assert result.exit_code == 1, result.output
    assert "wrote 5 pages" in result.output
    from tests.test_html_pages import _parse_index

    index = (folder / "index.html").read_text()
    links, _ = _parse_index(index)
    assert len(set(links)) == 5 and all((folder / link).is_file() for link in links)
    assert 'href="javascript' not in index and 'href="./javascript%3A' in index
    assert "./h%231%3Fq%252.html" in index
    assert "./a-3.html#1." in index  # y/a.json: its own page, opened at its violation
    titles = {link: (folder / link).read_text().split("<title>")[1].split("</title>")[0]
              for link in links}
    assert len(set(titles.values())) == 5


def test_verify_pages_of_same_named_records(tmp_path: Path) -> None:
    for name in ("x/e.dgn", "y/e.dgn", "e-1.dgn"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("START@N R1@N L4@E\n")
    folder = tmp_path / "pages"
    result = CliRunner().invoke(cli, ["verify", "-q", *(str(tmp_path / n) for n in (
        "x/e.dgn", "y/e.dgn", "e-1.dgn")), "--html", str(folder)])
    assert result.exit_code == 0, result.output
    assert "wrote 3 pages" in result.output
    assert len(list(folder.iterdir())) == 4


def test_a_fifo_named_like_a_page_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    os.mkfifo(folder / "legal-2p.html")
    log = ROOT / "fixtures" / "memo-dice" / "legal-2p.json"
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(CliRunner().invoke(
        cli, ["adjudicate", str(log), "-o", str(tmp_path / "r.txt"), "--html",
              str(folder)])), daemon=True)
    worker.start()
    worker.join(20)
    assert outcome, "the run hangs on a FIFO in the pages folder"
    assert outcome[0].exit_code == 4 and "not a page written by pathcheck" in outcome[0].output


@pytest.mark.parametrize("path", PLAYABLE, ids=_ids)
def test_every_page_has_a_legend_of_the_rules_in_play(path: Path) -> None:
    page, _ = page_of(path)
    assert page.legend
    log = json.loads(path.read_text())
    if path.parent.name == "memoarrr":
        assert ("walrus" in page.legend) == bool(log.get("variants", {}).get("expert"))
    if path.parent.name == "dungeon":
        assert ("9x9 bound" in page.legend) == (2 in log.get("rules", []))


@st.composite
def _played_logs(draw: st.DrawFn) -> dict[str, Any]:
    """A random game log, now and then broken: tiles swapped, out of hand, of another set,
    turns by the wrong player, dropped or repeated."""
    import copy
    import random

    from pathcheck.games.dungeon.gen import random_game

    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    log = copy.deepcopy(random_game(rng, players=draw(st.integers(2, 5))))
    for exp in log["explorations"]:
        turns = exp["turns"]
        for _ in range(draw(st.integers(0, 3))):
            if not turns:
                break
            i, j = rng.randrange(len(turns)), rng.randrange(len(turns))
            what = draw(st.sampled_from(["swap", "tile", "player", "drop", "repeat"]))
            if what == "swap":
                turns[i]["tile"], turns[j]["tile"] = turns[j]["tile"], turns[i]["tile"]
            elif what == "tile":
                turns[i]["tile"] = draw(st.sampled_from(["START", "R1", "L4", "I2", "Q9"]))
            elif what == "player":
                turns[i]["player"] = rng.choice(log["players"])
            elif what == "drop":
                del turns[i]
            else:
                turns.insert(i, dict(turns[j]))
    return log


@given(_played_logs())
@settings(deadline=None)
def test_a_pages_stacks_are_the_replays(log: dict[str, Any]) -> None:
    """The game page lays each exploration's tiles without replaying the game
    (frames.game_stacks): the same stacks as the replay's, whatever the log breaks."""
    from pathcheck.errors import PathcheckError
    from pathcheck.games.dungeon.frames import game_stacks
    from pathcheck.games.dungeon.log import read_game_log
    from pathcheck.games.dungeon.state import Replay

    try:
        game = read_game_log(log, source="x")
    except PathcheckError:
        return
    replay = Replay(game)
    replay.run()
    assert game_stacks(game) == replay.stacks
