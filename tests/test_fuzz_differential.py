"""Differential fuzzing with hostile bytes: the C fast path and the pure-Python path give the
same results, summary and exit on any input, and no input makes any adjudicator fail.

Records are mutated at the byte level (bytes flipped, inserted and cut, non-UTF-8, deep
nesting, duplicate keys, huge numbers, lines over the record limit) and read in blocks cut at
every boundary. A few hundred examples run with the suite; ``pytest
tests/test_fuzz_differential.py --hypothesis-profile fuzz`` runs a long search (see
tests/conftest.py), and ``.ci/sanitize`` runs these tests against the extension built with
AddressSanitizer and UBSan.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.batch import Block, RunSummary, Settings, run
from pathcheck.cli import cli
from pathcheck.inputs.records import Overrides
from pathcheck.reading import bounded
from tests.fuzz import examples
from tests.test_speedups import json_text, line_of, records

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SPICE = [b"\x00", b"\x80", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x0c", b"\x0b",
         b"\r", b"\t", b" ", b'"', b"\\", b"\\u", b"\\ud800", b"\\u00e9", b"{", b"}", b"[",
         b"]", b",", b":", b"0", b"-", b"1e400", b"1e", b".5", b"true", b"nul", b"tru", b"fals",
         b'"rules":[2],', b'"tiles":[],', b'"tileset":"x.toml",', b'"note":']
LIMIT = 400  # the record limit while fuzzing, so oversized lines are cheap


@contextmanager
def python_only() -> Iterator[None]:
    with mock.patch.object(speedups, "_speedups", None):
        yield


@st.composite
def hostile_line(draw: st.DrawFn) -> bytes:
    record = draw(records)
    data = bytearray(draw(json_text(record)).encode() if draw(st.booleans())
                     else line_of(record))
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["flip", "insert", "cut", "nest", "oversize", "splice"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and data:
            at = min(at, len(data) - 1)
            data[at:at + 1] = draw(st.sampled_from(SPICE) | st.binary(min_size=1, max_size=1))
        elif op == "insert":
            data[at:at] = draw(st.sampled_from(SPICE) | st.binary(max_size=6))
        elif op == "cut":
            del data[at:]
        elif op == "nest":
            depth = draw(st.sampled_from([2, 63, 64, 65, 200, 1200]))
            data[1:1] = b'"note":' + b"[" * depth + b"]" * depth + b","
        elif op == "oversize":
            data[at:at] = b"x" * draw(st.integers(LIMIT // 2, LIMIT * 2))
        else:
            data[at:at] = data[: draw(st.integers(0, len(data)))]
    return bytes(data).replace(b"\n", b" ")


@st.composite
def hostile_file(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(hostile_line() | st.sampled_from([b"", b" ", b"\x0c", b"\x0b"]),
                          min_size=1, max_size=6))
    newline = draw(st.sampled_from([b"\n", b"\r\n"]))
    return newline.join(lines) + draw(st.sampled_from([b"", newline]))


def verify(path: Path, overrides: Overrides) -> tuple[bytes, dict[str, Any], str]:
    out = []
    summary = RunSummary()
    for result in run([str(path)], Settings(overrides=overrides, output="jsonl")):
        summary.add(result)
        out.append(result.data if isinstance(result, Block) else result.text.encode() + b"\n")
    return b"".join(out), summary.to_dict(), summary.text()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.fuzz
@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow,
                                                             HealthCheck.data_too_large])
@given(data=hostile_file(), block_size=st.integers(1, 80) | st.just(1 << 20),
       overrides=st.sampled_from([Overrides(), Overrides(rules=frozenset({2, 3}),
                                                         advanced=True)]))
def test_c_and_python_paths_agree_on_hostile_bytes(folder: Path, data: bytes, block_size: int,
                                                   overrides: Overrides) -> None:
    path = folder / "input.jsonl"
    path.write_bytes(data)
    with mock.patch.object(bounded, "MAX_RECORD_BYTES", LIMIT), \
            mock.patch.object(bounded, "BLOCK_SIZE", block_size):
        fast = verify(path, overrides)
        with python_only():
            slow = verify(path, overrides)
    assert fast == slow
    lines = []
    for line in data.split(b"\n"):
        if line.strip():
            lines.append(line)
        if len(line) > LIMIT and b"\0" in line:
            break  # binary data past the limit (/dev/zero): the input ends there
    assert fast[1]["records"] == max(1, len(lines))  # a file of no record is one error


GAME_LOGS = sorted(p for p in FIXTURES.glob("*/*.json")
                   if p.parent.name in ("dungeon", "memo-dice", "memoarrr", "robot-memory"))
# file:line: /pointer, or (a file cut to nothing) the whole file's one error
_ERROR_LINE = re.compile(r"^pathcheck: (invalid|error): (.+:\d+: /|.+: no log in it$)")


@pytest.mark.fuzz
@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(log=st.sampled_from(GAME_LOGS), data=st.data())
def test_no_mutated_game_log_breaks_an_adjudicator(folder: Path, log: Path,
                                                   data: st.DataObject) -> None:
    raw = bytearray(log.read_bytes())
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(raw)))
        op = data.draw(st.sampled_from(["flip", "insert", "cut", "nest", "twice"]))
        if op == "nest":
            depth = data.draw(st.sampled_from([3, 64, 66, 1200]))
            raw[1:1] = b'"note":' + b"[" * depth + b"]" * depth + b","
        elif op == "twice":
            raw[1:1] = b'"format":"x",'
        elif op == "flip" and at < len(raw):
            raw[at:at + 1] = data.draw(st.sampled_from(SPICE))
        elif op == "insert":
            raw[at:at] = data.draw(st.sampled_from(SPICE) | st.binary(max_size=4))
        elif op == "cut":
            del raw[at:]
    path = folder / log.name
    path.write_bytes(bytes(raw))
    result = CliRunner().invoke(cli, ["adjudicate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1, 3), result.output
    if result.exit_code == 3:
        errors = result.stderr.splitlines()
        assert errors and all(_ERROR_LINE.match(e) for e in errors), result.stderr
