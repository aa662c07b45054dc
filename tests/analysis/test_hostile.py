"""Hostile input through ``pathcheck analyse``: bytes that are not UTF-8, nesting past the
limit, a FIFO, a symlink, names that would drive a terminal."""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli
from pathcheck.games.memo_dice.gen import random_game
from tests.test_hostile_cli import GAME_FIXTURES, HOSTILE, assert_escaped, renamed


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["analyse", *args])
    return result.exit_code, result.stdout, result.stderr


def test_bad_bytes_and_deep_nesting_are_one_line_each(tmp_path: Path) -> None:
    good = json.dumps(random_game(random.Random(1))).encode()
    path = tmp_path / "logs.jsonl"
    path.write_bytes(b"\n".join([good, b'{"format": "memo-dice/1", "players": ["\xff\xfe"]}',
                                 b"[" * 5000 + b"]" * 5000, b'{"format": 1e999999}', good])
                     + b"\n")
    code, out, err = run(str(path), "--format", "jsonl")
    assert code == 3
    entries = [json.loads(line) for line in out.splitlines()]  # each bad log in its place
    assert [e.get("kind", "analysis") for e in entries] == [
        "analysis", "invalid", "invalid", "invalid", "analysis"]
    lines = err.splitlines()
    assert len(lines) == 3
    assert [f"{path}:{n}" in line for n, line in zip((2, 3, 4), lines, strict=True)] == [
        True, True, True]


def test_a_fifo_and_a_symlink_are_read(tmp_path: Path) -> None:
    log = json.dumps(random_game(random.Random(2)))
    target = tmp_path / "real.json"
    target.write_text(log)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert run(str(link))[0] == 0
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as f:
            f.write(log)

    writer = threading.Thread(target=feed)
    writer.start()
    code, out, _ = run(str(fifo), "--format", "jsonl")
    writer.join()
    assert code == 0 and json.loads(out)["format"] == "memo-dice/1"


@pytest.mark.parametrize("game", sorted(GAME_FIXTURES))
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_escaped(tmp_path: Path, game: str, name: str) -> None:
    doc = json.loads(GAME_FIXTURES[game].read_text())
    old = doc["players"][0]
    old = old if isinstance(old, str) else old["name"]
    log = tmp_path / "log.json"
    log.write_text(json.dumps(renamed(doc, old, name)))
    code, out, err = run(str(log))
    assert code == 0, err
    assert_escaped(out, name)
    code, out, _ = run(str(log), "--by-player")
    assert code == 0
    assert_escaped(out, name)
    code, out, _ = run(str(log), "--format", "jsonl")
    assert code == 0 and name in json.loads(out)["players"]


@pytest.mark.parametrize("game", sorted(GAME_FIXTURES))
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_escaped_in_the_table_and_chart(tmp_path: Path, game: str,
                                                          name: str) -> None:
    """The CSV table (memory score and span columns) and the chart (bars and span lines):
    no control character reaches either raw."""
    import csv
    import io

    doc = json.loads(GAME_FIXTURES[game].read_text())
    old = doc["players"][0]
    old = old if isinstance(old, str) else old["name"]
    log = tmp_path / "log.json"
    log.write_text(json.dumps(renamed(doc, old, name)))
    chart = tmp_path / "chart.svg"
    code, out, _ = run(str(log), "--by-player", "--format", "csv", "--chart", str(chart))
    assert code == 0
    assert not any(raw in out for raw in ("\x1b", "\x00", "\u202e"))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"memory_score", "span", "span_low", "span_high"} <= set(rows[0])
    svg = chart.read_text()
    assert_escaped(svg.replace("&#x27;", "'"), name)
    code, text, _ = run(str(log), "--by-player")
    assert code == 0
    assert_escaped(text, name)
