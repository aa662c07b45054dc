"""Properties of the one text reader (:mod:`pathcheck.reading.text`, issue 20): any bytes, cut into
blocks anywhere, read as the whole text would be; arbitrary bytes never make a command fail
with an internal error (exit 70) or hang; a log read from JSON and from its notation agrees.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import games, notation
from pathcheck.cli import cli
from pathcheck.errors import PathcheckError
from pathcheck.inputs.logs import iter_notation
from pathcheck.reading.text import Line, TextError, decode, raw_lines, read_text_file, split_lines
from pathcheck.recorder import Recording

FIXTURE = [HealthCheck.function_scoped_fixture]  # tmp_path: each example writes its own files
FORMATS = ("game/1", "solo/1", "memoarrr/1", "memo-dice/1", "robot-memory/1")
ODD = "\r\n\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e\t \"{}#·;.\\\ufeff\ud7ff²٣９"


class Blocks:
    """A stream that hands its bytes out in the block sizes it is given (then the rest)."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes = data, list(sizes)

    def read1(self, size: int = -1) -> bytes:
        step = self.sizes.pop(0) if self.sizes else len(self.data)
        out, self.data = self.data[:step], self.data[step:]
        return out

    read = read1


texts = st.text(alphabet=st.sampled_from(ODD) | st.characters(codec="utf-8"), max_size=80)
heads = st.sampled_from([f"#! {fmt}\n" for fmt in FORMATS] + ["", "# c\n", "\ufeff#! solo/1\n"])
hostile = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda head, body: (head + body).encode("utf-8", "surrogatepass"), heads, texts),
    st.builds(lambda head, body, junk: head.encode() + body.encode() + junk, heads, texts,
              st.binary(max_size=8)),
)


def read(stream: Any, limit: int | None = None) -> list[Line | str]:
    """What :func:`raw_lines` reads (an error as its message, which compares)."""
    return [str(item) if isinstance(item, TextError) else item
            for item in raw_lines(stream, "x", limit=limit)]


@settings(max_examples=150, deadline=None)
@given(data=hostile, sizes=st.lists(st.integers(1, 7), max_size=40),
       limit=st.none() | st.integers(1, 30))
def test_lines_are_the_same_however_the_input_is_cut(data: bytes, sizes: list[int],
                                                     limit: int | None) -> None:
    whole = read(io.BytesIO(data), limit)
    assert read(Blocks(data, sizes), limit) == whole
    if limit is not None:
        assert all(len(item.raw) <= limit for item in whole if isinstance(item, Line))
        return
    if b"\0" in data:
        assert isinstance(whole[-1], str) and "a NUL byte" in whole[-1]
        return
    lines = [item for item in whole if isinstance(item, Line)]
    assert [line.raw for line in lines] == re.split(rb"\r\n|\r|\n", data)[:len(lines)]
    assert len(lines) == len(split_lines(data.decode("latin-1")))  # one line per line end
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    assert [decode(line, "x") for line in lines] == split_lines(text)


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE)
@given(data=hostile)
def test_any_bytes_through_every_reader_are_read_or_one_error(tmp_path: Path,
                                                              data: bytes) -> None:
    for item in iter_notation(io.BytesIO(data), "x.pcn"):  # Documents or RecordErrors
        assert hasattr(item, "value") or isinstance(item, PathcheckError)
    path = tmp_path / "any.pcn"
    path.write_bytes(data)
    for args in (["adjudicate", str(path)], ["convert", str(path)],
                 ["adjudicate", "--format", "jsonl", str(path.with_suffix(".txt"))]):
        path.with_suffix(".txt").write_bytes(data)
        result = CliRunner().invoke(cli, args)
        assert result.exit_code in (0, 1, 3), (args, result.stderr, result.exception)
        assert "internal error" not in result.stderr
    with contextlib.suppress(PathcheckError):  # read, or one error
        Recording.load(read_text_file(str(path)), str(path))
    dgn = tmp_path / "any.dgn"
    dgn.write_bytes(data)
    result = CliRunner().invoke(cli, ["verify", str(dgn)])
    assert result.exit_code in (0, 3) and "internal error" not in result.stderr


free_text = st.text(alphabet=st.sampled_from(ODD + "\0") | st.characters(codec="utf-8"),
                    min_size=1, max_size=40)
"""Any free text (the writer quotes what the reader would not take as written: a NUL byte,
a line end, spaces around it)."""
FREE_TEXT_KEY = {"game/1": "note", "memoarrr/1": "comment", "memo-dice/1": "comment",
                 "robot-memory/1": "event"}


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE)
@given(fmt=st.sampled_from(FORMATS), seed=st.integers(0, 2**32), text=free_text,
       end=st.sampled_from(["\n", "\r\n", "\r"]))
def test_json_and_notation_of_one_log_agree(tmp_path: Path, fmt: str, seed: int, text: str,
                                            end: str) -> None:
    log: dict[str, Any] = games.for_format(fmt).random_game(random.Random(seed))
    if log["format"] != fmt:
        return
    if fmt in FREE_TEXT_KEY:
        log[FREE_TEXT_KEY[fmt]] = text
    written = notation.write(log)
    assert "\u2028" not in written or notation.parse(written, source="n") == log
    pcn, js = tmp_path / "log.pcn", tmp_path / "log.json"
    pcn.write_bytes(written.replace("\n", end).encode())
    js.write_text(json.dumps(log), encoding="utf-8")
    converted = CliRunner().invoke(cli, ["convert", str(pcn)])
    assert converted.exit_code == 0, converted.stderr
    assert json.loads(converted.stdout) == log
    rulings = []
    for path in (pcn, js):
        result = CliRunner().invoke(cli, ["adjudicate", "--format", "jsonl", str(path)])
        assert result.exit_code in (0, 1), result.stderr
        ruling = json.loads(result.stdout)
        ruling.pop("source", None)
        rulings.append(ruling)
    assert rulings[0] == rulings[1]
