"""Hostile text (issue 20, points 1-4, 7, 10-12): game notation, ``.dgn`` and the recorder's
``--resume`` read through the one text reader (:mod:`pathcheck.reading.text`), through every command
that reads them.

Each bad input must be one line naming the file, line and column, exit code 3 (4 for a file
that cannot be read), never 70; the logs and files after it are still ruled.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pathcheck import speedups
from pathcheck.cli import cli
from pathcheck.reading.bounded import MAX_DIGITS

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "fixtures" / "memo-dice" / "legal-short-game.pcn").read_text(encoding="utf-8")
"""A legal log: put after a bad one in the same file, it must still be ruled."""

HOSTILE_NUMBERS = {
    "superscript": "²",
    "arabic-indic": "٣",
    "digit-then-superscript": "1²",
    "long": "9" * 5000,
    "one-digit-too-many": "1" * (MAX_DIGITS + 1),
    "fullwidth": "３",
}

NUMBER_SPOTS = {
    "memo-dice die": "#! memo-dice/1\nplayers: Ann Bob\nround\nAnn @ cat/blue blue\n",
    "memo-dice cup": ("#! memo-dice/1\nplayers: Ann Bob\nround\nAnn 3 cat/blue blue\n"
                      "Ann @ cat\n"),
    "memoarrr edition": "#! memoarrr/1\nedition: @\nplayers: Ann Ben\nstart: Ann\n"
                        "treasures: 1 2\nround 7\nAnn A1 crab/lava\n",
    "memoarrr treasures": "#! memoarrr/1\nedition: 2018\nplayers: Ann Ben\nstart: Ann\n"
                          "treasures: 1 @\nround 7\nAnn A1 crab/lava\n",
    "robot-memory size": "#! robot-memory/1\nvariant: custom\nplayers: Ann Ben\n"
                         "round @x2 first Ann\n",
    "robot-memory position": "#! robot-memory/1\nvariant: custom\nplayers: Ann Ben\n"
                             "round 2x2 first Ann\nrow bulb/red/3 short-circuit\n"
                             "row gear/blue/1 tool/yellow/2\nBen Ann r@c2 short-circuit =0\n",
    "robot-memory points": "#! robot-memory/1\nvariant: custom\nplayers: Ann Ben\n"
                           "round 2x2 first Ann\nrow bulb/red/3 short-circuit\n"
                           "row gear/blue/1 tool/yellow/2\nBen Ann r1c2 short-circuit =@\n",
    "dungeon rules": "#! game/1\nplayers: Ann Bob\nrules: @\nexploration Ann\n",
}


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert "internal error" not in result.stderr, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


def where(text: str, marker: str = "@") -> tuple[int, int]:
    """Line and column (from 1), as an editor counts them, of the token holding ``marker``."""
    before = text[:text.index(marker)]
    line = before.rsplit("\n", 1)[-1]
    return before.count("\n") + 1, len(line) - len(line.split(" ")[-1]) + 1


def ruled(out: str) -> list[dict[str, object]]:
    """The rulings of ``adjudicate --format jsonl`` output (not the lines of invalid logs)."""
    return [r for r in map(json.loads, out.splitlines()) if r.get("kind") != "invalid"]


def write(tmp_path: Path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return str(path)


def verify_every_path(monkeypatch: pytest.MonkeyPatch,
                      path: str) -> list[tuple[int, list[dict[str, Any]], str]]:
    """``verify --format jsonl PATH`` through the C scanners and the Python path, on one
    process and on two: each run's exit code, output lines and stderr, in that order."""
    runs = []
    for python in (False, True):
        with monkeypatch.context() as patch:
            if python:
                patch.setattr(speedups, "_speedups", None)
            for jobs in ("1", "2"):
                code, out, err = run("verify", "-j", jobs, "--format", "jsonl", path)
                runs.append((code, [json.loads(x) for x in out.splitlines()], err))
    return runs


# --- 1. numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize("spot", NUMBER_SPOTS)
@pytest.mark.parametrize("digits", HOSTILE_NUMBERS, ids=list(HOSTILE_NUMBERS))
def test_a_number_that_is_not_ascii_digits_is_an_error_and_the_next_log_is_ruled(
        tmp_path: Path, spot: str, digits: str) -> None:
    template = NUMBER_SPOTS[spot]
    line, column = where(template)
    bad = write(tmp_path, "bad.pcn", template.replace("@", HOSTILE_NUMBERS[digits]) + GOOD)
    later = write(tmp_path, "later.pcn", GOOD)
    code, out, err = run("adjudicate", "--format", "jsonl", bad, later)
    assert code == 3, err
    first = err.splitlines()[0]
    assert first.startswith(f"pathcheck: invalid: {bad}:{line}:"), first
    assert len(first) < 400  # the 5,000 digits are cut in the message
    if spot != "memo-dice cup":  # there the turn as a whole is wrong: its first token
        assert first.startswith(f"pathcheck: invalid: {bad}:{line}:{column}:"), first
    rulings = ruled(out)
    assert [r["source"] for r in rulings] == [bad, later]  # the same file's next log too
    code, _, err = run("convert", bad)
    assert code == 3 and f"{bad}:{line}:" in err
    code, _, err = run("adjudicate", "--html", str(tmp_path / "pages"), bad, later)
    assert code == 3 and f"{bad}:{line}:" in err


@pytest.mark.parametrize("digits", HOSTILE_NUMBERS, ids=list(HOSTILE_NUMBERS))
def test_a_volcano_that_is_not_a_number_is_the_logs_error(tmp_path: Path, digits: str) -> None:
    text = ("#! memoarrr/1\nedition: 2018\nplayers: Ann Ben\nstart: Ann\ntreasures: 1 2\n"
            f"round {HOSTILE_NUMBERS[digits]}\nAnn A1 crab/lava\n")
    code, _, err = run("adjudicate", write(tmp_path, "v.pcn", text))
    assert code == 3, err


@pytest.mark.parametrize("digits", HOSTILE_NUMBERS, ids=list(HOSTILE_NUMBERS))
def test_dgn_rules_in_digits_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  digits: str) -> None:
    dgn = write(tmp_path, "r.dgn", f"#! rules={HOSTILE_NUMBERS[digits]}\nSTART@N\n"
                                   "#! rules=2\nSTART@N I4@N\n")
    for code, lines, _ in verify_every_path(monkeypatch, dgn):
        assert code == 3
        assert [(r["line"], r["kind"]) for r in lines] == [
            (1, "invalid"), (2, "invalid"), (4, "dungeon")]
        assert "expected rules=N,N" in lines[0]["error"]
    solo = write(tmp_path, "s.dgn", f"#! rules={HOSTILE_NUMBERS[digits]}\nSTART@N | START@N\n")
    code, _, err = run("solo", "check", "10000-0000T", solo)
    assert code == 3 and f"{solo}:1:" in err


def test_at_takes_ascii_digits_only(tmp_path: Path) -> None:
    log = write(tmp_path, "g.pcn", GOOD)
    for moment in ("٣.1", "1.²", "9" * 5000 + ".1"):
        code, _, err = run("adjudicate", "--at", moment, log)
        assert code == 2 and "expected ROUND.TURN" in err  # a usage error


# --- 2. strings -------------------------------------------------------------------------------


def test_a_lone_surrogate_in_a_quoted_name_is_invalid_as_in_json(tmp_path: Path) -> None:
    text = '#! memo-dice/1\nplayers: "\\ud800" Bob\nround\n'
    bad = write(tmp_path, "s.pcn", text)
    for args in (["adjudicate", bad], ["convert", bad],
                 ["adjudicate", "--html", str(tmp_path / "p"), bad]):
        code, _, err = run(*args)
        assert code == 3, err
        assert f"{bad}:2:10: " in err and "a lone surrogate" in err
    json_log = write(tmp_path, "s.json", '{"format": "memo-dice/1", "players": ["\\ud800"]}')
    assert run("adjudicate", json_log)[0] == 3  # what JSON says of the same


def test_an_unclosed_quote_on_a_long_line_is_one_quick_error(tmp_path: Path) -> None:
    # A quoted name that never closes, on a line of 100,000 characters: the string pattern
    # once took exponential time to fail here (a hang at a few dozen characters).
    bad = write(tmp_path, "q.pcn", '#! memo-dice/1\nplayers: "' + "a" * 100_000 + "\n")
    for args in (["adjudicate", bad], ["convert", bad]):
        code, _, err = run(*args)
        assert code == 3, err
        assert f"{bad}:2:10: " in err and "unclosed quote" in err


def test_invalid_utf8_is_an_error_at_its_column_never_a_replacement(tmp_path: Path) -> None:
    names = [b"A\xff", b"A\xfe", b"A\xc3"]  # one player each, if read with U+FFFD
    for raw in names:
        text = b"#! memo-dice/1\nplayers: " + raw + b" Bob\nround\n" + raw + b" 3 cat/blue blue\n"
        bad = write(tmp_path, "u.pcn", text + GOOD.encode())
        code, out, err = run("adjudicate", "--format", "jsonl", bad)
        assert code == 3
        assert err.startswith(f"pathcheck: invalid: {bad}:2:11: not UTF-8 text (byte 0x"), err
        assert len(ruled(out)) == 1  # the next log of the file is ruled


# --- 3. lines ---------------------------------------------------------------------------------

ODD_BREAKS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("char", ODD_BREAKS, ids=[f"U+{ord(c):04X}" for c in ODD_BREAKS])
def test_only_newlines_end_a_line(tmp_path: Path, char: str) -> None:
    hidden = ("#! memo-dice/1\nplayers: Ann Bob\nround\nAnn 3 cat/blue blue\n"
              f"# a comment{char}Bob 5 sun/red red\nBob x y\n")
    log = write(tmp_path, "h.pcn", hidden)
    code, _, err = run("adjudicate", log)
    assert code == 3
    assert f"{log}:6:5: 'x'" in err  # the comment hid nothing; line 6 as wc -l counts
    code, out, _ = run("convert", write(tmp_path, "c.pcn", hidden.replace("Bob x y\n", "")))
    assert code == 0 and len(json.loads(out)["rounds"][0]["covering"]) == 1


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_lf_crlf_and_cr_end_lines(tmp_path: Path, end: str) -> None:
    log = write(tmp_path, "e.pcn", GOOD.replace("\n", end) + end.join(["", "Linda x y", ""]))
    code, _, err = run("adjudicate", log)
    assert code == 3 and f"{log}:{GOOD.count(chr(10)) + 2}:7: 'x'" in err  # after a blank line


@pytest.mark.parametrize(("key", "game"), [("note", "game/1"), ("comment", "memo-dice/1"),
                                           ("event", "robot-memory/1")])
@pytest.mark.parametrize("value", ['"', "{", 'a "quote', "{not a note", "#3 \\u0041"])
def test_free_text_values_are_taken_as_written(tmp_path: Path, key: str, game: str,
                                               value: str) -> None:
    head = {"game/1": "players: Ann Bob\n", "memo-dice/1": "players: Ann Bob\n",
            "robot-memory/1": "variant: custom\nplayers: Ann Ben\n"}[game]
    code, out, err = run("convert", write(tmp_path, "f.pcn", f"#! {game}\n{head}{key}: {value}\n"))
    assert code == 0, err
    assert json.loads(out)[key] == value


def test_a_lone_cr_inside_a_dgn_line_is_an_error_on_every_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dgn = write(tmp_path, "cr.dgn", "START@N # c\rSTART@N R1@N\n#! rules=2\rx\nSTART@N\n"
                                    "#! rules=2\nSTART@N\r\n")
    seen = [(code, [(r["line"], r["kind"]) for r in lines])
            for code, lines, _ in verify_every_path(monkeypatch, dgn)]
    # line 3 is not ruled: the #! line before it could not be read
    assert seen == [(3, [(1, "invalid"), (2, "invalid"), (3, "invalid"), (5, "dungeon")])] * 4


# --- 4. size and streams ----------------------------------------------------------------------


def test_dev_zero_is_an_error_everywhere(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Named /dev/zero, or a link to it named like each format: one error, the input ends."""
    names = ["/dev/zero"]
    for suffix in (".pcn", ".json", ".jsonl", ".dgn", ".txt"):
        (tmp_path / f"zero{suffix}").symlink_to("/dev/zero")
        names.append(str(tmp_path / f"zero{suffix}"))
    for name in names:
        for args in (["adjudicate", name], ["convert", name], ["solo", "check", "10000-0000T",
                                                                name]):
            code, _, err = run(*args)
            assert code == 3 and err.count("pathcheck:") == 1, (args, err)
        for code, lines, err in verify_every_path(monkeypatch, name):
            assert code == 3 and len(lines) == 1, (name, err)


def test_a_binary_file_named_pcn_stops_at_its_nul_byte(tmp_path: Path) -> None:
    log = write(tmp_path, "b.pcn", GOOD.encode() + b"#! memo-dice/1\nplay\0ers\n" + b"\0" * 100)
    code, out, err = run("adjudicate", "--format", "jsonl", log)
    assert code == 3 and f"{log}:{GOOD.count(chr(10)) + 2}:5: a NUL byte" in err
    assert len(ruled(out)) == 1  # the log before it was ruled


def test_a_log_past_the_limit_is_an_error_read_in_bounded_memory(tmp_path: Path) -> None:
    from pathcheck.reading.bounded import MAX_RECORD_BYTES

    line = "Linda 9 sun\n"
    big = tmp_path / "big.pcn"
    with big.open("w", encoding="utf-8") as out:
        out.write(GOOD)
        for _ in range(MAX_RECORD_BYTES // len(line) + 1):
            out.write(line)
    code, _, err = run("adjudicate", str(big))
    assert code == 3 and "a log longer than the limit of 16777216 bytes" in err
    assert f"{big}:1:1:" in err  # the log's first line


def test_names_of_any_kind_are_read_as_text(tmp_path: Path) -> None:
    txt = write(tmp_path, "log.txt", "# a log\n" + GOOD)
    assert run("adjudicate", txt)[0] == 0
    assert run("convert", txt)[0] == 0
    assert run("adjudicate", "-", stdin=GOOD)[0] == 0
    read, write_end = os.pipe()  # a /dev/fd/N name, read as it comes
    os.write(write_end, GOOD.encode())
    os.close(write_end)
    try:
        assert run("adjudicate", f"/dev/fd/{read}")[0] == 0
    finally:
        os.close(read)


# --- 7. record --resume -----------------------------------------------------------------------


def test_resume_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.pcn"
    os.mkfifo(fifo)
    cases = {
        str(fifo): (4, "not a regular file"),
        "/dev/zero": (4, "not a regular file"),
        write(tmp_path, "u.pcn", b"#! memo-dice/1\nplayers: \xff\n"): (3, ":2:10: not UTF-8"),
        write(tmp_path, "b.pcn", b"\x7fELF\x02\x01\0\0\0"): (3, ":1:7: a NUL byte"),
        write(tmp_path, "n.pcn", "#! memo-dice/1\nplayers: Ann Bob\nround\nAnn ² x y\n"):
            (3, ":4:5: '²': expected"),
    }
    for path, (expected, message) in cases.items():
        code, _, err = run("record", "--resume", path)
        assert code == expected, (path, err)
        assert message in err and err.count("\n") == 1


def test_resume_reads_a_byte_order_mark_and_any_line_end_as_adjudicate(tmp_path: Path) -> None:
    from tests.test_record import run_keys

    text = "#! memo-dice/1\r\nplayers: Ann Bob\r\nround\r\nAnn 3 cat/blue blue # a\u2028b\r\n"
    path = tmp_path / "bom.pcn"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert run("adjudicate", str(path))[0] == 1  # readable (the game is not over)
    code, said = run_keys(":done\n", None, path, resume=True)
    assert code == 0, said
    assert "2 move lines so far" in " ".join(said.split())  # (wrapped to the terminal)
    saved = path.read_text(encoding="utf-8")
    assert saved.startswith("#! memo-dice/1\n") and "# a\u2028b\n" in saved


# --- 10. convert: names and shapes ------------------------------------------------------------


@pytest.mark.parametrize("name", ["evil\u202egol.pcn", "x\nVerdict: legal.pcn"])
def test_convert_escapes_the_file_name(tmp_path: Path, name: str) -> None:
    bad = write(tmp_path, name, "#! memo-dice/1\nplayers: Ann Bob\nround\nAnn x\n")
    code, _, err = run("convert", bad)
    assert code == 3
    assert err.count("\n") == 1 and "\u202e" not in err
    assert "\\u202e" in err or "\\nVerdict" in err


@pytest.mark.parametrize("island", ['"x"', "[1]", '[["a"]]', "7", "null"])
def test_convert_writes_a_log_of_the_wrong_shape_exactly(tmp_path: Path, island: str) -> None:
    """Never an internal error: a malformed log converts to notation and back exactly (the
    notation writers carry it whole), and adjudicate names the field."""
    fixture = ROOT / "fixtures" / "memoarrr" / "legal-2p-2018.json"
    log = json.loads(fixture.read_text(encoding="utf-8"))
    log["island"] = json.loads(island)
    source = write(tmp_path, "i.json", json.dumps(log))
    back = str(tmp_path / "i.pcn")
    code, _, err = run("convert", source, "-o", back)
    assert code == 0, err
    code, out, err = run("convert", back)
    assert code == 0 and json.loads(out) == log, err
    code, _, err = run("adjudicate", source)
    assert code == 3 and re.search(r": /island[/0-9]*: ", err), err


# --- 11, 12. JSON arrays nested too deep; output files kept -----------------------------------


def test_an_element_nested_too_deep_is_its_own_error(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    deep = "[" * 70 + "]" * 70
    text = f'[1,\n{deep},\n{{"x": 1}},\n3]'
    log = write(tmp_path, "deep.json", text)
    code, _, err = run("adjudicate", log)
    assert code == 3
    assert [line.split(": ")[2] for line in err.splitlines()] == [
        f"{log}:1", f"{log}:2", f"{log}:3", f"{log}:4"]
    assert "nested deeper" in err.splitlines()[1]
    for jobs in ("1", "2"):
        code, out, _ = run("verify", "-j", jobs, "--format", "jsonl", log)
        assert [(r["line"], r["pointer"]) for r in map(json.loads, out.splitlines())] == [
            (1, "/0"), (2, "/1"), (3, "/2/x"), (4, "/3")]


@pytest.mark.parametrize("command", ["adjudicate", "verify"])
@pytest.mark.parametrize("fmt", ["text", "json", "jsonl"])
def test_nothing_read_leaves_the_output_file_as_it_was(tmp_path: Path, command: str,
                                                       fmt: str) -> None:
    out = tmp_path / "rulings.out"
    out.write_text("70 kB of rulings\n")
    code, _, err = run(command, "--format", fmt, str(tmp_path / "typo.jsonl"), "-o", str(out))
    assert code == 4
    assert out.read_text() == "70 kB of rulings\n"
    assert "left as it was" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rulings.out"]  # no temporary
    good = write(tmp_path, "g.pcn" if command == "adjudicate" else "g.dgn",
                 GOOD if command == "adjudicate" else "START@N\n")
    code, _, _ = run(command, "--format", fmt, str(tmp_path / "typo.jsonl"), good, "-o", str(out))
    assert code == 4 and out.read_text() != "70 kB of rulings\n"  # something was read: written


@pytest.mark.parametrize("digits", HOSTILE_NUMBERS, ids=list(HOSTILE_NUMBERS))
def test_solo_rules_in_ascii_digits_only(digits: str) -> None:
    code, _, err = run("solo", "new", "--rules", HOSTILE_NUMBERS[digits], "-n", "1")
    assert code == 2 and "is not a rule number" in err


def test_dgn_text_is_strict_utf8_with_columns_on_every_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three players whose names differ only in bytes that are not UTF-8 are never one."""
    dgn = write(tmp_path, "u.dgn", b"#! players=A\xff,A\xfe\nSTART@N R1@N !A\xff\n"
                                   b"#! players=Ann\nSTART@N R1@N !Ann # \xc3\n"
                                   b"START@N R1@N !An\xffn\nSTART@N\n")
    seen = []
    for code, lines, err in verify_every_path(monkeypatch, dgn):
        seen.append((code, [(r["line"], r["kind"]) for r in lines]))
        assert f"{dgn}:1:13: not UTF-8 text (byte 0xff)" in err
        assert f"{dgn}:4:21: not UTF-8 text (byte 0xc3)" in err
        assert f"{dgn}:5:17: not UTF-8 text (byte 0xff)" in err
    assert seen == [(3, [(1, "invalid"), (2, "invalid"), (4, "invalid"), (5, "invalid"),
                         (6, "dungeon")])] * 4
    solo = write(tmp_path, "s.dgn", b"START@N | START@N \xff\n")
    code, _, err = run("solo", "check", "10000-0000T", solo)
    assert code == 3 and f"{solo}:1:19: not UTF-8 text" in err


@pytest.mark.parametrize("command", [["trace", "START@N"], ["verify", "IN"]])
def test_a_tileset_named_on_the_command_line_is_read_as_text(tmp_path: Path,
                                                             command: list[str]) -> None:
    """``--tileset FILE`` through the text reader: /dev/zero, bad UTF-8 are one error."""
    dgn = write(tmp_path, "g.dgn", "START@N\n")
    args = [dgn if arg == "IN" else arg for arg in command]
    bad = write(tmp_path, "bad.toml", b'name = "x"\n[[tile]]\nid = "\xff"\n')
    for tiles, expected in (("/dev/zero", "/dev/zero:1:1: a NUL byte"),
                            (bad, f"{bad}:3:7: not UTF-8 text (byte 0xff)")):
        code, _, err = run(args[0], "--tileset", tiles, *args[1:])
        assert code == 3 and expected in err, err
