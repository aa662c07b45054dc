"""Replay pages (``--html``) without a browser: structure, self-containment, the CLI."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli, main
from pathcheck.games.dungeon.frames import verdict_page
from pathcheck.inputs.records import DungeonRecord, iter_records, parse_dgn_line
from pathcheck.render.html import Frame, Page, frames_data, render_page
from pathcheck.ruling import Ruling
from pathcheck.verify import DungeonVerdict, verify_record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "fixtures" / "dungeons" / "examples.dgn"


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.data = ""
        self._in_data = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_data = tag == "script" and dict(attrs).get("id") == "pc-data"

    def handle_data(self, data: str) -> None:
        if self._in_data:
            self.data += data

    def handle_endtag(self, tag: str) -> None:
        self._in_data = False


def parse_page(text: str) -> tuple[_Collect, dict[str, Any]]:
    """Parse a page; check that it is self-contained; return its tags and frame data."""
    parser = _Collect()
    parser.feed(text)
    parser.close()
    for tag, attrs in parser.tags:
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
        assert "src" not in attrs, attrs
        if tag == "a":
            assert not str(attrs.get("href", "")).startswith(("http:", "https:", "//"))
    assert not re.search(r"url\((?!#)|@import|https?://(?!www\.w3\.org/2000/svg)", text)
    return parser, json.loads(parser.data)


def check_page(text: str) -> dict[str, Any]:
    """A page parses, carries its frames and shows a picture or a text in each."""
    _, data = parse_page(text)
    assert data["frames"], "no frame"
    keys = [f["k"] for f in data["frames"]]
    assert len(set(keys)) == len(keys), "two frames share a key"
    for frame in data["frames"]:
        assert "p" in frame or "t" in frame, frame
        for ident in data["pictures"][frame["p"]] if "p" in frame else ():
            assert 0 <= ident < len(data["lines"])
    return data


def test_every_example_record_has_a_page() -> None:
    records = list(iter_records(str(EXAMPLES)))
    assert len(records) == 10
    for record in records:
        assert isinstance(record, DungeonRecord)
        verdict = verify_record(record)
        page = verdict_page(verdict)
        data = check_page(render_page(page))
        # every event is a moment: a tile laid, each LOST card, each player's check
        assert [f["e"] for f in data["frames"]] == list(range(len(page.events)))
        assert isinstance(verdict, DungeonVerdict)
        checked = len(verdict.check.outcomes) if verdict.check is not None else 0
        assert len(data["frames"]) == len(record.tiles) + len(record.lost) + checked


def test_frames_share_their_unchanged_lines() -> None:
    record = parse_dgn_line("START@N I4@N I5@N I6@N I7@N I8@N", source="-", line=1)
    assert record is not None
    page = verdict_page(verify_record(record))
    data = frames_data(page)
    total = sum(len(f.picture.splitlines()) for f in page.frames)
    assert len(data["lines"]) < total / 2


def test_script_cannot_be_closed_by_data() -> None:
    page = Page("</script><b>x", [Frame("1", "<!-- <script></script>",
                                       picture="<svg>\n</svg>")])
    text = render_page(page)
    assert text.count("</script>") == 2  # the data and the program, nothing else
    assert "<!--" not in text
    assert "&lt;/script&gt;&lt;b&gt;x" in text
    assert check_page(text)["frames"][0]["c"] == "<!-- <script></script>"


def test_verify_html_file_and_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    one = tmp_path / "one.html"
    result = runner.invoke(cli, ["verify", str(EXAMPLES), "-q", "--html", str(one)])
    assert result.exit_code == 0
    assert "9 more records not drawn" in result.output
    check_page(one.read_text())
    folder = tmp_path / "pages"
    assert main(["verify", str(EXAMPLES), "-q", "--html", str(folder)]) == 0
    pages = sorted(p.name for p in folder.iterdir())
    assert len(pages) == 11 and "index.html" in pages
    parser, _ = _parse_index((folder / "index.html").read_text())
    assert sorted(parser) == sorted(p for p in pages if p != "index.html")


def _parse_index(text: str) -> tuple[list[str], None]:
    """The index's links as file names (a link is ``./`` + the percent-encoded name, and the
    fragment of the page's first violation)."""
    from urllib.parse import unquote

    parser = _Collect()
    parser.feed(text)
    hrefs = [str(a["href"]) for t, a in parser.tags if t == "a"]
    assert all(h.startswith("./") for h in hrefs), hrefs
    return [unquote(h[2:].partition("#")[0]) for h in hrefs], None


def test_verify_html_refuses_stdin(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", "-", "--html", str(tmp_path / "x.html")],
                                input="START@N L4@E\n")
    assert result.exit_code == 2 and "stdin" in result.output


def test_solo_key_html_needs_reveal(tmp_path: Path) -> None:
    target = tmp_path / "key.html"
    result = CliRunner().invoke(cli, ["solo", "key", "1303N-QK8NC", "--html", str(target)])
    assert result.exit_code == 2 and "--reveal" in result.output and not target.exists()
    assert main(["solo", "key", "1303N-QK8NC", "--reveal", "--html", str(target)]) == 0
    data = check_page(target.read_text())
    assert data["frames"][-1]["s"] == [["solo", 46]]


@pytest.mark.parametrize("command", [["--help"], ["verify", "--help"]])
def test_help_does_not_load_the_page_renderer(command: list[str]) -> None:
    import subprocess
    import sys

    code = (f"import sys; from pathcheck.cli import main; main({command!r}); "
            "print('pathcheck.render.html' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().endswith("False")


GAME_FIXTURES = sorted(
    p for folder in ("dungeon", "memoarrr", "memo-dice", "robot-memory")
    for p in (ROOT / "fixtures" / folder).glob("*.json"))


@pytest.mark.parametrize("path", GAME_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_game_fixture_has_a_page(path: Path, tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    code = main(["adjudicate", str(path), "--format", "json", "-o", str(tmp_path / "r.json"),
                 "--html", str(target)])
    if path.name.startswith("malformed"):
        assert code == 3 and not target.exists()
        return
    assert code in (0, 1)
    ruling = json.loads((tmp_path / "r.json").read_text())[0]
    data = check_page(target.read_text())
    frames = data["frames"]
    assert frames[-1]["k"] == "end"
    assert dict(frames[-1]["s"]) == ruling["final_scores"]
    shown = json.dumps(data, ensure_ascii=False) + target.read_text()
    for isolate in ("<bdi>", "</bdi>", "\u2068", "\u2069"):  # players' names are isolated
        shown = shown.replace(isolate, "")
    for violation in ruling["violations"]:  # each violation is shown, with its rule
        assert json.dumps(violation["message"], ensure_ascii=False)[1:-1] in shown
        assert violation["rule"]["section"] in shown


def test_batch_writes_an_index(tmp_path: Path) -> None:
    lines = [json.dumps(json.loads(p.read_text())) for p in GAME_FIXTURES
             if p.parent.name == "memo-dice" and not p.name.startswith("malformed")]
    batch = tmp_path / "many.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    folder = tmp_path / "pages"
    assert main(["adjudicate", str(batch), "--html", str(folder) + "/", "-o",
                 str(tmp_path / "out.txt")]) == 1
    links, _ = _parse_index((folder / "index.html").read_text())
    assert len(links) == len(lines) and all((folder / link).exists() for link in links)
    index = (folder / "index.html").read_text()
    assert "first violation" in index and "illegal" in index and "legal" in index


def ten_exploration_game(seed: int, players: list[str]) -> dict[str, Any]:
    """A legal game of exactly 10 explorations: random explorations (perfect placement, so
    the dungeons grow long) kept only while nobody reaches 3 points before the tenth."""
    import random

    from pathcheck.games.dungeon.gen import random_exploration
    from pathcheck.tracer.tileset import load_tileset

    rng, tileset = random.Random(seed), load_tileset()
    scores, start = dict.fromkeys(players, 0), players[0]
    explorations: list[dict[str, Any]] = []
    while len(explorations) < 10:
        log, points, last = random_exploration(rng, players, start, advanced=False,
                                               rules=frozenset(), tileset=tileset, accuracy=1.0)
        after = {p: scores[p] + points.get(p, 0) for p in players}
        if (max(after.values()) >= 3) != (len(explorations) == 9):
            continue
        explorations.append(log)
        scores, start = after, last
    return {"format": "game/1", "players": players, "advanced": False, "rules": [],
            "explorations": explorations}


def test_a_ten_exploration_game_page_stays_under_a_megabyte(tmp_path: Path) -> None:
    log = tmp_path / "long.json"
    log.write_text(json.dumps(ten_exploration_game(1, ["Ann", "Bob"])))
    target = tmp_path / "long.html"
    assert main(["adjudicate", str(log), "-o", str(tmp_path / "out.txt"), "--html",
                 str(target)]) == 0
    data = check_page(target.read_text())
    assert sum(1 for f in data["frames"] if f["k"].endswith(".check")) == 10
    assert len(data["frames"]) > 200
    assert target.stat().st_size < 1_000_000


def random_pages() -> Iterator[tuple[str, Ruling, Callable[[], Page]]]:
    """Three random games of every game: (game, its ruling, what makes its page's values)."""
    import random

    from pathcheck import games
    from pathcheck.games.pages import page_for

    for name in sorted(games.available()):
        adjudicator = games.load(name)
        assert isinstance(adjudicator, games.GameAdjudicator)
        for seed in range(3):
            log = adjudicator.random_game(random.Random(seed))
            ruling = adjudicator.adjudicate(log, source="random",
                                            options=games.AdjudicateOptions())
            yield name, ruling, functools.partial(page_for, adjudicator, log, ruling)


def test_random_games_of_every_game_have_pages() -> None:
    for name, ruling, make_page in random_pages():
        data = check_page(render_page(make_page()))
        assert dict(data["frames"][-1]["s"]) == dict(ruling.final_scores), name


def test_pages_never_replace_a_users_file(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    mine = folder / "index.html"
    mine.write_text("<p>my own index</p>")
    result = CliRunner().invoke(cli, ["verify", str(EXAMPLES), "-q", "--html", str(folder)])
    assert result.exit_code == 4 and "not a page written by pathcheck" in result.output
    assert mine.read_text() == "<p>my own index</p>" and len(list(folder.iterdir())) == 1
    mine.unlink()
    assert main(["verify", str(EXAMPLES), "-q", "--html", str(folder)]) == 0
    assert main(["verify", str(EXAMPLES), "-q", "--html", str(folder)]) == 0  # ours: replaced


def test_verify_draws_a_solo_record_dungeon_by_dungeon(tmp_path: Path) -> None:
    target = tmp_path / "solo.html"
    source = ROOT / "fixtures" / "dungeon" / "illegal-solo-premature.json"
    assert main(["verify", str(source), "-q", "--html", str(target)]) == 0
    data = check_page(target.read_text())
    keys = [f["k"] for f in data["frames"]]
    assert keys[0] == "1.1" and "2.1" in keys and keys[-1] == "score"
    failing = data["frames"][keys.index("2.1")]
    assert any(note[0] == "violation" and "premature" in note[1] for note in failing["n"])
    assert data["frames"][-1]["s"] == [["solo", 5]]


def test_making_a_page_leaves_no_reference_cycle() -> None:
    """Batches of pages run with the garbage collector off (cli/pages.py collects the young
    objects only now and then): the pages of every game must be freed by reference counts."""
    import gc

    for name, _, make_page in random_pages():
        render_page(make_page())  # fills the caches
        gc.collect()
        gc.disable()
        try:
            render_page(make_page())
            assert gc.collect() == 0, name
        finally:
            gc.enable()


def test_a_batch_syncs_its_pages_once_before_naming_them(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """No fsync a page: one flush of every temporary page (syncfs, or an fsync each where
    there is none), then the renames; a page is never renamed into place unsynced."""
    import os

    from pathcheck import output

    events: list[str] = []
    real_replace, real_fsync = os.replace, os.fsync
    monkeypatch.setattr(output, "_syncfs", lambda folder: False)  # the portable way

    def fsync(fd: int) -> None:
        events.append("fsync")
        real_fsync(fd)

    def rename(src: str, dst: Any) -> None:
        events.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", rename)
    folder = tmp_path / "pages"
    assert main(["verify", str(EXAMPLES), "-q", "--html", str(folder)]) == 0
    pages = [p for p in folder.iterdir() if p.name != "index.html"]
    assert len(pages) > 1 and not [p for p in folder.iterdir() if p.name.startswith(".")]
    first_rename = events.index("rename")
    assert events[:first_rename] == ["fsync"] * len(pages)  # each synced, none renamed yet
    assert events[first_rename:first_rename + len(pages)] == ["rename"] * len(pages)
