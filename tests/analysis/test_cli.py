"""``pathcheck analyse`` through click's CliRunner: every fixture, the output formats, bad
input, the tournament table, positions, --help."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli
from pathcheck.games.memo_dice.gen import random_game as dice_game
from pathcheck.games.memoarrr.gen import random_game as memoarrr_game

FIXTURES = Path(__file__).parents[2] / "fixtures"
PLAYED = sorted([*FIXTURES.glob("*/legal-*.json"), *FIXTURES.glob("*/illegal-*.json"),
                 *FIXTURES.glob("*/legal-*.pcn")])
MALFORMED = sorted(FIXTURES.glob("*/malformed-*.json"))


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["analyse", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_played_fixture_is_analysed(path: Path) -> None:
    code, out, err = run(str(path), "--format", "json")
    assert (code, err) == (0, "")
    [analysis] = json.loads(out)
    assert analysis["source"] == str(path)
    assert {s["player"] for s in analysis["summaries"]} == set(analysis["players"])
    for s in analysis["summaries"]:
        assert s["moves"] == s["slips"] + s["guesses"] + s["sound"] + s["harmless"]


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_malformed_log_is_one_line_with_its_pointer(path: Path) -> None:
    code, out, err = run(str(path))
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"pathcheck: invalid: {path}")


def test_text_names_slips_with_what_was_known() -> None:
    code, out, _ = run(str(FIXTURES / "memoarrr/legal-3p-2023.json"))
    assert code == 0
    assert ("Ann: 17 moves, 5 slips, 3 guesses, 8 sound, 1 harmless, accuracy 61.5%, memory "
            "score 70.6 (lost 4.41 of 15 at stake; 6 points, won)") in out
    assert "1.3 Ben: reveals C4 (turtle/desert): SLIP (blunder, costs 0.7 of 1)" in out
    # the costliest moves lead, before the list of every slip and guess
    assert out.index("Costliest moves") < out.index("Slips and guesses")
    assert "perfect memory: reveal a card seen that connects: B1 (turtle/water)" in out


def test_dungeon_text_reports_each_exploration() -> None:
    code, out, _ = run(str(FIXTURES / "dungeon/legal-3p-basic.json"))
    assert code == 0
    assert "Exploration 1: Lost at tile 8 (turn 7, laid by Ann): dead-end" in out
    assert "Bob: late, announced in turn 2, 1 point; perfect memory: turn 1" in out


def test_jsonl_stream_in_order_with_bad_lines_reported(tmp_path: Path) -> None:
    logs = [json.dumps(memoarrr_game(random.Random(1), players=2)), "{not json",
            json.dumps({"format": "chess/1"}), json.dumps(dice_game(random.Random(2)))]
    path = tmp_path / "logs.jsonl"
    path.write_text("\n".join(logs) + "\n")
    code, out, err = run(str(path), "--format", "jsonl")
    assert code == 3
    entries = [json.loads(line) for line in out.splitlines()]  # output line N is input log N
    assert [e["line"] for e in entries] == [1, 2, 3, 4]
    assert [e.get("format", e.get("kind")) for e in entries] == [
        "memoarrr/1", "invalid", "invalid", "memo-dice/1"]
    assert entries[2]["pointer"] == "/format"
    lines = err.splitlines()
    assert len(lines) == 2 and f"{path}:2" in lines[0] and f"{path}:3: /format" in lines[1]
    code2, out2, _ = run(str(path), "--format", "jsonl", "--jobs", "2")
    assert (code2, out2) == (code, out)


def test_by_player_table_csv_and_chart(tmp_path: Path) -> None:
    path = tmp_path / "logs.jsonl"
    path.write_text("".join(json.dumps(dice_game(random.Random(s), players=3)) + "\n"
                            for s in range(3)))
    chart = tmp_path / "acc.svg"
    code, out, _ = run(str(path), "--by-player", "--format", "csv", "--chart", str(chart))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["games"] for r in rows] == ["3", "3", "3"]
    assert sum(int(r["wins"]) for r in rows) >= 3
    for r in rows:
        assert int(r["moves"]) == int(r["slips"]) + int(r["guesses"]) + int(r["sound"])
        assert float(r["slips_per_game"]) == round(int(r["slips"]) / 3, 2)
    scores = [float(r["memory_score"]) for r in rows]
    assert scores == sorted(scores, reverse=True)  # best memory score first
    for r in rows:  # the score is the points kept of those at stake
        assert float(r["memory_score"]) == pytest.approx(
            max(0.0, 100 * (1 - float(r["lost"]) / float(r["at_stake"]))), abs=0.051)
    svg = chart.read_text()
    assert svg.startswith("<svg") and all(r["player"] in svg for r in rows)
    assert "Memory span" in svg  # Memo Dice moves have an age: the span is drawn
    code, text, _ = run(str(path), "--by-player")
    assert code == 0 and text.splitlines()[0].split()[:3] == ["player", "games", "wins"]
    code, jsonl, _ = run(str(path), "--by-player", "--format", "jsonl")
    assert [json.loads(line)["player"] for line in jsonl.splitlines()] == [
        r["player"] for r in rows]


def test_csv_quotes_a_name_a_spreadsheet_would_run() -> None:
    log = dice_game(random.Random(4), players=2)
    old = log["players"][0]
    text = json.dumps(log).replace(f'"{old}"', '"=HYPERLINK(1)"')
    code, out, _ = run("-", "--by-player", "--format", "csv", stdin=text)
    assert code == 0 and "'=HYPERLINK(1)" in out


def test_position_and_at() -> None:
    code, out, _ = run("--position", "START@N R1@N R2@E R3@S I4@W R4@W R5@N",
                       "--hand", "R6,L1")
    assert code == 0
    assert "R6@E: Lost at tile 8 by dead-end" in out and "L1@E: the path goes on" in out
    code, out, _ = run(str(FIXTURES / "dungeon/legal-3p-basic.json"), "--at", "1.5",
                       "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["player"] == "Cy" and [h["tile"] for h in result["hand"]] == ["R5", "I2", "I6"]


@pytest.mark.parametrize("args,message", [
    (("--position", "START@N R1@N", "--hand", "R1"), "R1 is given twice"),
    (("--position", "START@N R1@Q"), "R1@Q"),
    ((str(FIXTURES / "dungeon/legal-3p-basic.json"), "--at", "9.1"), "exploration"),
    ((str(FIXTURES / "memoarrr/legal-3p-2023.json"), "--at", "1.1"), "game/1"),
])
def test_position_errors_are_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert code in (2, 3) and out == "" and message in err


def test_usage_errors() -> None:
    assert run()[0] == 2
    assert run(str(FIXTURES / "memo-dice/legal-2p.json"), "--format", "csv")[0] == 2
    assert run("--hand", "R1", str(FIXTURES / "memo-dice/legal-2p.json"))[0] == 2


def test_missing_file_exit_4_and_help() -> None:
    code, _, err = run("/nonexistent/log.json")
    assert code == 4 and err.count("\n") == 1
    code, out, _ = run("--help")
    assert code == 0 and "perfect memory" in out and "--by-player" in out


@pytest.mark.parametrize("name", ["memoarrr/legal-3p-2023.json", "dungeon/legal-3p-basic.json",
                                  "memo-dice/legal-2p.json", "robot-memory/legal-solo.json"])
def test_html_page_carries_the_marks(tmp_path: Path, name: str) -> None:
    page = tmp_path / "game.html"
    code, _, err = run(str(FIXTURES / name), "--html", str(page))
    assert (code, err) == (0, "")
    html = page.read_text()
    analysis = json.loads(run(str(FIXTURES / name), "--format", "jsonl")[1])
    assert "Memory accuracy: " in html
    assert html.count('class="mark-') == len(analysis["moves"])  # one square a move
    slips = sum(m["mark"] == "slip" for m in analysis["moves"])
    assert html.count('class="mark-slip"') == slips
    assert '"slip",' in html or slips == 0  # the slips' notes are in the frames
    costly = sum(m["cost"] > 0 for m in analysis["moves"])
    assert ('id="pc-costly"' in html) == (costly > 0)  # the filter to the costly moves
    assert html.count(" costly\"") <= costly


def test_html_draws_one_log() -> None:
    code, _, err = run(str(FIXTURES / "memo-dice/legal-2p.json"),
                       str(FIXTURES / "memo-dice/legal-3p.json"), "--html", "x.html")
    assert code == 2 and "one LOG" in err


def test_a_named_game_reads_only_its_formats() -> None:
    code, out, err = run("memoarrr", str(FIXTURES / "memo-dice/legal-2p.json"))
    assert (code, out) == (3, "")
    assert "legal-2p.json:1: /format: format 'memo-dice/1' is not the named game's" in err
    assert run("memo-dice", str(FIXTURES / "memo-dice/legal-2p.json"))[0] == 0


def test_nothing_read_leaves_every_named_file_as_it_was(tmp_path: Path) -> None:
    table, chart, page = (tmp_path / name for name in ("t.jsonl", "c.svg", "p.html"))
    for path in (table, chart):
        path.write_text("precious\n")
    missing = str(tmp_path / "typo.jsonl")
    code, _, err = run(missing, "--format", "jsonl", "-o", str(table))
    assert code == 4 and table.read_text() == "precious\n"
    assert f"{table} is left as it was" in err
    code, _, err = run(missing, "--by-player", "-o", str(table), "--chart", str(chart))
    assert code == 4 and table.read_text() == chart.read_text() == "precious\n"
    code, _, _ = run(missing, "--html", str(page))
    assert code == 4 and not page.exists()


def test_a_mistyped_game_and_position_with_page_options_are_usage_errors(tmp_path: Path) -> None:
    kept = tmp_path / "k.txt"
    kept.write_text("precious\n")
    code, _, err = run("memoarr", str(FIXTURES / "memoarrr/legal-2p-2018.json"),
                         "-o", str(kept))
    assert code == 2 and "unknown game 'memoarr' (did you mean memoarrr?)" in err
    assert kept.read_text() == "precious\n"
    code, _, err = run("--position", "START@N R1@N", "--hand", "I4", "--chart",
                       str(tmp_path / "c.svg"))
    assert code == 2 and "--position and --at analyse one position" in err
    assert not (tmp_path / "c.svg").exists()


def test_chart_is_svg_or_png_by_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = str(FIXTURES / "memo-dice" / "legal-2p.json")
    code, _, err = run(log, "--by-player", "--chart", str(tmp_path / "acc.gif"))
    assert code == 2 and "name a .svg or .png file" in err
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no rsvg-convert: refused before work
    code, _, err = run(log, "--by-player", "--chart", str(tmp_path / "acc.png"))
    assert code == 2 and "needs rsvg-convert" in err and not (tmp_path / "acc.png").exists()
    fake = tmp_path / "bin" / "rsvg-convert"  # a converter that shows what it was given
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nprintf 'PNG:'; head -c 4\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    code, _, err = run(log, "--by-player", "--chart", str(tmp_path / "acc.PNG"))
    assert (code, err) == (0, "")
    assert (tmp_path / "acc.PNG").read_bytes() == b"PNG:<svg"
