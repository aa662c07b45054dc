"""Hostile input, round three (issue 31, points 1-7): symbolic link loops, ``-o`` naming the
file on standard input, long strings in arrays, ``$`` values past the depth limit, one output
contract for every command, names in charts and tables, errors that name their cause.

Each case goes through every command that reads that kind of input (census files:
tests/test_census_files.py); none may give a traceback or exit 70.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.cli import cli
from pathcheck.games.dungeon.frames import DRAWN_TURNS
from pathcheck.reading import bounded
from pathcheck.render.chart import PNG_SIDE, fit_for_png

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "fixtures" / "dungeon" / "legal-3p-basic.json"
GAME_PCN = ROOT / "fixtures" / "dungeon" / "legal-3p-basic.pcn"
DGN = ROOT / "fixtures" / "dungeons" / "examples.dgn"
SOLO = ROOT / "fixtures" / "dungeon" / "legal-solo-perfect-rules-2-3-4.json"
MEMOARRR = ROOT / "fixtures" / "memoarrr" / "illegal-ability-compulsory.json"
TILESET = ROOT / "tiles" / "standard.toml"
CODE = "1303N-QK8NC"


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=stdin)


def one_error_line(err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err


# --- 1. a symbolic link loop is a file that cannot be read, in its turn --------------------


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    link = tmp_path / "loop.json"
    link.symlink_to("loop.json")
    return link


@pytest.mark.parametrize(("command", "good", "said"), [
    ("adjudicate", GAME, '"outcome"'),
    ("analyse", GAME, '"players"'),
    ("verify", DGN, 'examples.dgn'),
])
def test_a_symlink_loop_is_exit_4_and_the_next_file_is_read(
        command: str, good: Path, said: str, loop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for python, jobs in ((False, 1), (False, 2), (True, 1)):
        with monkeypatch.context() as patch:
            if python:
                patch.setattr(speedups, "_speedups", None)
            done = run(command, "-j", str(jobs), str(loop), str(good), "--format", "jsonl")
        assert done.exit_code == 4, done.output
        one_error_line(done.stderr)
        assert "loop.json: cannot read: Too many levels of symbolic links" in done.stderr
        lines = done.stdout.splitlines()
        assert said in lines[-1]  # the file after the loop was read
        if command != "verify":
            assert json.loads(lines[0])["kind"] == "unreadable"


def test_solo_check_of_a_symlink_loop_is_exit_4(loop: Path) -> None:
    done = run("solo", "check", CODE, str(loop))
    assert done.exit_code == 4 and "Too many levels of symbolic links" in done.stderr
    one_error_line(done.stderr)


# --- 2. -o naming the file on standard input ------------------------------------------------


@pytest.mark.parametrize(("command", "source"), [
    ("adjudicate", GAME), ("analyse", GAME), ("verify", DGN)])
def test_output_naming_the_file_on_stdin_is_refused(command: str, source: Path,
                                                    tmp_path: Path) -> None:
    log = tmp_path / source.name
    log.write_bytes(source.read_bytes())
    before = log.read_bytes()
    with log.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "pathcheck", command, "-", "-o", str(log)],
                              stdin=stdin, capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert "is the file on standard input" in done.stderr
    assert log.read_bytes() == before


def test_output_beside_a_pipe_on_stdin_is_written(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("old\n")
    done = subprocess.run([sys.executable, "-m", "pathcheck", "adjudicate", "-", "-o", str(out),
                           "--format", "json"], input=GAME.read_text(), capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())[0]["outcome"] == "legal"


# --- 3. bounded work for one record: strings in arrays --------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\/\n\u202e{}[],:'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(alphabet='k"\\,]', max_size=3), inner, max_size=3),
    max_leaves=10)


@given(values=st.lists(JSON, max_size=5), block=st.integers(1, 9), spaced=st.booleans())
def test_array_elements_split_as_json_reads_them(values: list[Any], block: int,
                                                 spaced: bool) -> None:
    text = json.dumps(values, indent=1 if spaced else None).encode()
    original = bounded.BLOCK_SIZE
    bounded.BLOCK_SIZE = block  # every string, escape and token across block ends
    try:
        elements = list(bounded.array_elements(io.BytesIO(text)))
    finally:
        bounded.BLOCK_SIZE = original
    assert all(e.error is None for e in elements), elements
    assert [json.loads(e.data) for e in elements] == values


def test_a_string_of_escapes_past_the_limit_is_one_error() -> None:
    data = b'[{"note": "' + b'\\"' * 3000 + b'"}, 1]'
    (element,) = bounded.array_elements(io.BytesIO(data), limit=1000)
    assert element.error is not None and "longer than the limit" in element.error


def test_a_long_string_in_an_array_reads_as_one_record(tmp_path: Path) -> None:
    record = {"format": "dungeon/1", "tiles": [{"tile": "START", "dir": "N"}],
              "note": "\\\"" * (1 << 20)}
    path = tmp_path / "long.json"
    path.write_text(json.dumps([record, record]))
    done = run("verify", str(path), "--format", "jsonl")
    assert done.exit_code == 0, done.output
    assert len(done.stdout.splitlines()) == 2


# --- 3. bounded work for one record: the replay page of a long exploration -----------------


def long_game(turns: int) -> str:
    head = ("#! game/1\nplayers: Ann Bob\nmode: basic\nrules: none\nexploration Ann\n"
            "hand Ann I1 I4 R6\nhand Bob I2 R4 R1\ndeck I3 I5 I6 I7 I8 I9 L1 L2 L3 L4 L5 L6 "
            "L7 L8 L9 R7 R8 R9 X1 X2 BR1 BR2 BL1 BL2 R3 R5 R2\n")
    return head + "Ann I1@N · Bob I2@N\n" * (turns // 2)


def test_a_page_draws_the_first_turns_of_a_long_exploration(tmp_path: Path) -> None:
    log = tmp_path / "long.pcn"
    log.write_text(long_game(3 * DRAWN_TURNS))
    page = tmp_path / "long.html"
    done = run("adjudicate", str(log), "--html", str(page))
    assert done.exit_code == 1, done.output  # the straight path breaks rules, it is drawn
    html = page.read_text()
    assert f'"k":"1.{DRAWN_TURNS}"' in html and f'"k":"1.{DRAWN_TURNS + 1}"' not in html
    assert f"turns {DRAWN_TURNS + 1}-{3 * DRAWN_TURNS} (301 tiles in all) are not drawn" in html
    assert f'"k":"1.{3 * DRAWN_TURNS}"' in html  # the one moment standing for the rest


def test_a_short_exploration_is_drawn_whole(tmp_path: Path) -> None:
    log = tmp_path / "short.pcn"
    log.write_text(long_game(DRAWN_TURNS))
    page = tmp_path / "short.html"
    run("adjudicate", str(log), "--html", str(page))
    html = page.read_text()
    assert f'"k":"1.{DRAWN_TURNS}"' in html and "are not drawn" not in html


# --- 4. notation: a $ value nested past the limit -------------------------------------------


@pytest.mark.parametrize("command", ["adjudicate", "analyse", "convert"])
def test_a_header_value_nested_past_the_limit_is_invalid(command: str, tmp_path: Path) -> None:
    deep = "[" * (bounded.MAX_DEPTH + 1) + "]" * (bounded.MAX_DEPTH + 1)
    log = tmp_path / "deep.pcn"
    log.write_text(GAME_PCN.read_text().replace("note: ", f"note: ${deep} ", 1).replace(
        f"${deep} A short", f"${deep}\n#", 1))
    done = run(command, str(log))
    assert done.exit_code == 3, done.output
    assert "nested deeper than the limit of 64" in done.stderr and "note" in done.stderr
    one_error_line(done.stderr)


# --- 5. one output contract -----------------------------------------------------------------


def test_analyse_writes_an_unreadable_entry_as_adjudicate_does(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    for command in ("adjudicate", "analyse"):
        done = run(command, str(MEMOARRR), missing, str(MEMOARRR), "--format", "jsonl")
        assert done.exit_code == 4
        lines = [json.loads(x) for x in done.stdout.splitlines()]
        assert len(lines) == 3 and lines[1]["kind"] == "unreadable", command
        assert lines[1]["source"] == missing
        done = run(command, str(MEMOARRR), missing, "--format", "json")
        assert [x.get("kind") for x in json.loads(done.stdout)] == [None, "unreadable"]


@pytest.mark.parametrize(("name", "text"), [
    ("e.jsonl", ""), ("e.dgn", ""), ("a.json", "[]"), ("c.dgn", "# only a comment\n\n"),
    ("-", "")])
def test_solo_check_of_no_record_is_exit_3(name: str, text: str, tmp_path: Path) -> None:
    if name == "-":
        done = run("solo", "check", CODE, "-", stdin=text)
    else:
        (tmp_path / name).write_text(text)
        done = run("solo", "check", CODE, str(tmp_path / name))
    assert done.exit_code == 3
    assert "no record in it" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_analyse_calls_an_unreadable_seed_code_invalid_as_adjudicate(suffix: str,
                                                                     tmp_path: Path) -> None:
    record = json.loads(SOLO.read_text())
    record["seed"] = "I2"
    path = tmp_path / f"seed{suffix}"
    path.write_text(json.dumps(record) + "\n")
    for command in ("adjudicate", "analyse"):
        done = run(command, str(path))
        assert done.exit_code == 3, (command, done.output)
        assert "/seed: seed code 'I2'" in done.stderr


def test_analyse_position_reads_a_tileset_named_on_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "x.toml").write_text(TILESET.read_text())
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    done = run("analyse", "--position", "START@N R1@N", "--tileset", "../x.toml")
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("Position: START@N R1@N")
    assert run("verify", "--tileset", "../x.toml", str(DGN)).exit_code == 0


# --- 6. names in every output ---------------------------------------------------------------

HOSTILE = "Ann\x1b]0;owned\x07\u202e\x00<b>"


def hostile_memoarrr(tmp_path: Path) -> Path:
    path = tmp_path / "names.json"
    path.write_text(MEMOARRR.read_text().replace('"Ann"', json.dumps(HOSTILE)))
    return path


def test_the_accuracy_chart_is_well_formed_with_control_characters(tmp_path: Path) -> None:
    chart = tmp_path / "acc.svg"
    done = run("analyse", str(hostile_memoarrr(tmp_path)), "--by-player", "--chart", str(chart))
    assert done.exit_code == 0, done.output
    root = ET.fromstring(chart.read_text())  # well-formed XML
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Ann\\x1b]0;owned\\x07\\u202e\\x00<b>" in texts


@pytest.fixture
def fake_rsvg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An rsvg-convert that keeps the SVG it is given, and fails as the real one does when
    the image is larger than a PNG can be."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "rsvg-convert"
    script.write_text(f"""#!{sys.executable}
import re, sys
svg = sys.stdin.read()
open({str(tmp_path / "seen.svg")!r}, "w").write(svg)
height = float(re.search(r"height='([0-9.]+)'", svg).group(1))
if height > {PNG_SIDE}:
    sys.stderr.write("Error rendering SVG:\\nimage larger than 32767 pixels\\nsecond line\\n")
    sys.exit(1)
sys.stdout.write("PNG")
""")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return tmp_path / "seen.svg"


def test_a_png_of_a_huge_table_is_drawn_scaled(fake_rsvg: Path, tmp_path: Path) -> None:
    from pathcheck.analysis.chart import accuracy_chart_svg
    from pathcheck.analysis.table import PlayerRow
    from pathcheck.cli.options import write_svg_chart

    rows = [PlayerRow(f"P{i}", 1, 1, 5, 40, 4, 3, 33, 89.2, 2.0) for i in range(2000)]
    svg = accuracy_chart_svg(rows)
    target = tmp_path / "big.png"
    write_svg_chart(svg, target)
    assert target.read_text() == "PNG"
    drawn = fake_rsvg.read_text()
    assert "viewBox='0 0 900 56130'" in drawn and "height='32767'" in drawn
    assert ET.fromstring(drawn) is not None


def test_a_failing_rsvg_convert_is_one_line_and_exit_4(fake_rsvg: Path,
                                                       tmp_path: Path) -> None:
    from pathcheck.cli.options import write_svg_chart
    from pathcheck.errors import IOFailure

    with pytest.raises(IOFailure) as caught:
        write_svg_chart("<svg xmlns='http://www.w3.org/2000/svg' height='40000'/>",
                        tmp_path / "x.png")
    assert "\n" not in str(caught.value) and "rsvg-convert failed" in str(caught.value)
    assert not (tmp_path / "x.png").exists()


def test_fit_for_png_keeps_a_small_chart_as_it_is() -> None:
    svg = "<svg xmlns='x' width='900' height='400' viewBox='0 0 900 400'>"
    assert fit_for_png(svg) == (svg, 1.0)


def test_tile_ids_are_escaped_in_tiles_and_positions(tmp_path: Path) -> None:
    odd = "I\u202e4"
    toml = tmp_path / "odd.toml"
    toml.write_text(TILESET.read_text().replace('id = "I4"', f'id = "{odd}"'))
    tiles = run("tiles", "--tileset", str(toml))
    position = run("analyse", "--position", f"START@N {odd}@N", "--hand", "I1",
                   "--tileset", str(toml))
    for done in (tiles, position):
        assert done.exit_code == 0, done.output
        assert "\u202e" not in done.stdout and "I\\u202e4" in done.stdout


# --- 7. errors that name the cause ----------------------------------------------------------


def test_resume_of_a_file_of_two_logs_says_so(tmp_path: Path) -> None:
    two = tmp_path / "two.pcn"
    text = GAME_PCN.read_text()
    two.write_text(text + text)
    done = run("record", "--resume", str(two))
    assert done.exit_code == 3
    second = text.count("\n") + 1
    assert f"two.pcn:{second}:1: the file holds 2 logs" in done.stderr


def test_a_refused_position_quotes_a_tile_id_escaped(tmp_path: Path) -> None:
    odd = "I\u202e4"
    toml = tmp_path / "odd.toml"
    toml.write_text(TILESET.read_text().replace('id = "I4"', f'id = "{odd}"'))
    done = run("analyse", "--position", f"START@N {odd}@N", "--hand", odd, "--tileset", str(toml))
    assert done.exit_code == 2
    assert "\u202e" not in done.stderr and "I\\u202e4 is given twice" in done.stderr


def test_output_to_the_device_on_stdin_is_not_refused() -> None:
    with open(os.devnull, "rb") as stdin:  # nothing to replace: /dev/null read and written
        done = subprocess.run([sys.executable, "-m", "pathcheck", "adjudicate", "-", "-o",
                               os.devnull], stdin=stdin, capture_output=True, text=True,
                              check=False)
    assert done.returncode == 3 and "no log in it" in done.stderr, done.stderr


def test_a_page_draws_at_least_as_many_turns_as_the_tile_set_has_tiles(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathcheck.games.dungeon import frames

    monkeypatch.setattr(frames, "DRAWN_TURNS", 10)
    log = tmp_path / "long.pcn"
    log.write_text(long_game(60))
    page = tmp_path / "long.html"
    run("adjudicate", str(log), "--html", str(page))
    html = page.read_text()  # the standard set: 38 tiles, so 38 turns drawn, not 10
    assert '"k":"1.38"' in html and '"k":"1.39"' not in html
    assert "turns 39-60 (61 tiles in all) are not drawn" in html
