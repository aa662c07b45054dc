"""Notation is read as it is parsed (pathcheck.inputs.logs.iter_notation): a log's lines are
never all held, and the errors are those of a text read whole before it is parsed: the first
of a line refused by the reader (a NUL byte, the size limit: the input ends there), a line not
UTF-8, a line that does not lex, then the first error of the notation."""

from __future__ import annotations

import gc
import io
import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import notation
from pathcheck.errors import RecordError
from pathcheck.inputs import logs as log_input
from pathcheck.inputs.logs import NotationDocument, iter_notation
from pathcheck.reading.text import Line as TextLine
from pathcheck.reading.text import TextError, decode, raw_lines

ROOT = Path(__file__).resolve().parents[1]
GAME = (ROOT / "fixtures" / "dungeon" / "legal-3p-basic.pcn").read_bytes()
BAD_DIE = b"#! memo-dice/1\nplayers: Ann\nround\nAnn x cat/red red\n"
"""A log whose line 4 does not parse ('x': expected a die number)."""


def read(data: bytes) -> list[str]:
    """What iter_notation makes of ``data``: each log's first line, or its error."""
    return [f"log at {item.line}" if isinstance(item, NotationDocument) else str(item)
            for item in iter_notation(io.BytesIO(data), "x.pcn")]


def test_a_later_line_that_does_not_lex_is_the_error_not_the_earlier_move() -> None:
    assert read(BAD_DIE + b"Ann 1 cat\nAnn 2 \"unclosed\n") == [
        "x.pcn:6:7: unclosed quote"]
    assert read(BAD_DIE) == ["x.pcn:4:5: 'x': expected a die number"]


def test_a_later_line_not_utf8_is_the_error_and_the_next_log_is_read() -> None:
    data = BAD_DIE + b"Ann 1 cat # caf\xe9\n" + GAME
    assert read(data) == ["x.pcn:5:16: not UTF-8 text (byte 0xe9)", "log at 6"]


def test_a_line_not_utf8_before_one_that_does_not_lex_is_the_error() -> None:
    data = b"#! memo-dice/1\nplayers: Ann\n# \xff\nround\nAnn 2 \"unclosed\n" + GAME
    assert read(data) == ["x.pcn:3:3: not UTF-8 text (byte 0xff)", "log at 6"]


def test_a_nul_byte_after_an_error_ends_the_input_with_its_error() -> None:
    data = GAME + BAD_DIE + b"Ann 1 \xff\nAnn 2 \0\n" + GAME
    line = GAME.count(b"\n") + 6
    assert read(data) == ["log at 1", f"x.pcn:{line}:7: a NUL byte: binary data, not text "
                          "(the rest of the input is not read)"]


def test_a_log_past_the_limit_is_refused_whatever_went_wrong_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_input, "MAX_RECORD_BYTES", 200)
    data = b"#! solo/1\n" + b"START@N X9\n" + b"# \xff\n" + b"START@N I1@N\n" * 20 + GAME
    (error,) = read(data)
    assert error.startswith("x.pcn:1:1: a log longer than the limit of 200 bytes")
    assert read(b"#! solo/1\n" + b"START@N\n" * 20 + b"#! solo/1\nSTART@N\n") == [
        "log at 1", "log at 22"]


def test_parts_with_nothing_but_comments_are_no_log() -> None:
    assert read(b"# a comment\n\n" + GAME + b"\n# the end\n") == ["log at 3"]
    assert read(b"# caf\xe9\n" + GAME) == ["x.pcn:1:6: not UTF-8 text (byte 0xe9)", "log at 2"]


def long_game(size: int) -> bytes:
    """A game/1 log of about ``size`` bytes: the fixture's explorations over and over."""
    head, _, body = GAME.partition(b"\nexploration ")
    body = b"exploration " + body
    return head + b"\n" + body * (size // len(body) + 1)


def test_reading_holds_a_line_at_a_time_not_the_whole_log() -> None:
    """Peak memory of reading a long log (tracemalloc, no timing): the log it builds, and
    little more. Lexing the whole text first took 55 bytes per byte of input here; the log
    built keeps about 15, and reading it peaks near 20."""
    data = long_game(400_000)
    assert len(list(iter_notation(io.BytesIO(long_game(5_000)), "warm.pcn"))) == 1
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        (log,) = iter_notation(io.BytesIO(data), "big.pcn")
        gc.collect()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(log, NotationDocument) and len(log.value["explorations"]) > 2_000
    peak, kept = peak - before, kept - before
    assert peak <= 32 * len(data), peak / len(data)
    assert peak - kept <= 10 * len(data), (peak - kept) / len(data)


def test_an_error_names_the_line_also_deep_in_a_long_log() -> None:
    data = long_game(100_000)
    line = data.count(b"\n") + 1
    assert read(data + b"Ann R1N\n") == [
        f"x.pcn:{line}:5: 'R1N': expected a tile as ID@DIR, e.g. R4@N"]


def read_whole(data: bytes, limit: int) -> list[str]:
    """The reference: how notation was read before it streamed. Each log's lines all read,
    then all decoded, then all lexed, then parsed (what iter_notation must still say)."""
    out: list[str] = []
    chunks: list[list[tuple[int, bytes]]] = [[]]
    size = 0
    for item in raw_lines(io.BytesIO(data), "x.pcn"):
        if isinstance(item, TextError):
            return [*out, str(item)]
        if item.raw.lstrip().startswith(b"#!") and chunks[-1]:
            out += whole_log(chunks[-1])
            chunks.append([])
            size = 0
        size += len(item.raw) + 1
        if size > limit:
            first = chunks[-1][0][0] if chunks[-1] else item.number
            return [*out, f"x.pcn:{first}:1: a log longer than the limit of {limit} bytes "
                          "(see Limits in docs/cli.md; the rest of the input is not read)"]
        chunks[-1].append((item.number, item.raw))
    return out + whole_log(chunks[-1])


def whole_log(chunk: list[tuple[int, bytes]]) -> list[str]:
    try:
        lines = [(n, decode(TextLine(n, raw), "x.pcn")) for n, raw in chunk]
    except TextError as exc:
        return [str(exc)]
    if not any(text.strip() and (not text.strip().startswith("#")
                                 or text.strip().startswith("#!")) for _, text in lines):
        return []
    try:
        reader = notation.Reader(iter(lines), "x.pcn", lines[0][0])
        list(reader.lines)  # every line lexed before the log is parsed
        log = notation.parse_lines(iter(lines), source="x.pcn", first_line=lines[0][0])[0]
    except RecordError as exc:
        return [str(exc)]
    return [f"log at {lines[0][0]}: {json.dumps(log)}"]


PIECES = [b"#! memo-dice/1\n", b"#! solo/1\n", b"players: Ann Bob\n", b"round\n",
          b"Ann 3 cat/blue red \xc2\xb7 Bob 5 sun/red blue\n", b"Ann 1 cat; Bob 2 -\n",
          b"Ann x cat\n", b"START@N I1@N\n", b"Ann 2 \"open\n", b"# caf\xe9\n", b"\n",
          b"# a comment\n", b"Bob {a note} 1 -\n", b"$[1\n", b"players: Cy\n", b"\0\n",
          b"START@N | I2@E\n", b"Ann 1 \"A\\ud800\"\n"]


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=14), limit=st.integers(20, 200))
def test_reading_as_it_parses_says_what_reading_whole_said(pieces: list[bytes],
                                                           limit: int) -> None:
    data = b"".join(pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(log_input, "MAX_RECORD_BYTES", limit)
        streamed = [f"log at {item.line}: {json.dumps(item.value)}"
                    if isinstance(item, NotationDocument) else str(item)
                    for item in iter_notation(io.BytesIO(data), "x.pcn")]
    assert streamed == read_whole(data, limit)


def peak_reading(path: Path) -> int:
    """Peak traced memory of reading every log of ``path``, each let go when the next comes."""
    gc.collect()
    tracemalloc.start()
    try:
        logs = log_input.iter_source(str(path))
        item = next(logs, None)
        while item is not None:
            item = None
            item = next(logs, None)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_several_logs_are_read_one_at_a_time(tmp_path: Path) -> None:
    """Each layer of the reader lets a log go before the next is read: four logs peak as
    one does (held two at a time, they peaked at twice as much)."""
    one, four = tmp_path / "one.pcn", tmp_path / "four.pcn"
    one.write_bytes(long_game(150_000))
    four.write_bytes(b"\n".join([long_game(150_000)] * 4))
    peak_reading(one)  # the modules loaded
    assert peak_reading(four) <= 1.3 * peak_reading(one)
