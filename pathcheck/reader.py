r"""The one reader of every input: which shape it has, and streaming JSON with exact errors.

:func:`sniff` decides the :class:`Shape` of every input of every command (batch work,
``verify``, ``solo check``, ``adjudicate``):

- ``*.dgn`` / ``*.txt``: compact notation, one dungeon per line (:mod:`pathcheck.records`);
- ``*.jsonl`` / ``*.ndjson``: one JSON value per line (blank lines are skipped);
- ``*.json``: one JSON document; a top-level array holds one record per element;
- ``-`` (stdin) and other names, by their first line that is neither blank nor a ``#``
  comment: compact notation unless it starts with ``{`` or ``[``; else JSON Lines when that
  line is a complete JSON value, otherwise one JSON document.

The JSON readers yield, in input order, either a :class:`Document` or the
:class:`~pathcheck.errors.RecordError` that made one record unreadable, so that batch work
reports the bad record and goes on with the rest (the lenient mode); strict callers raise the
first error they see.

>>> import io
>>> sniff(io.BytesIO(b"# a comment\nSTART@N R1@N\n"), "-").shape
<Shape.DGN: 'dgn'>
>>> s = sniff(io.BytesIO(b"\n{\"tiles\": []}\n"), "-")
>>> s.shape, s.first_line
(<Shape.JSON_LINES: 'jsonl'>, 2)
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgspec

from pathcheck.errors import IOFailure, RecordError

_decoder = msgspec.json.Decoder()


@dataclass(frozen=True)
class Document:
    """One decoded JSON record: where it came from and its value.

    ``pointer`` is "" for a whole document or line, ``/N`` for element N of a top-level array.
    """

    source: str
    line: int
    value: Any
    pointer: str = ""


def open_source(name: str) -> IO[bytes]:
    """Open ``name`` for binary reading (``-`` is stdin); IOFailure if it cannot be read."""
    if name == "-":
        if sys.stdin is None:  # started with stdin closed (`<&-`)
            raise IOFailure("<stdin>: cannot read: standard input is closed")
        return sys.stdin.buffer
    try:
        return open(name, "rb")
    except OSError as exc:
        raise IOFailure(f"{name}: cannot read: {exc.strerror or exc}") from exc


def decode_error(source: str, data: bytes, exc: Exception, first_line: int = 1) -> RecordError:
    """A RecordError for undecodable JSON, with the line of the byte offset msgspec names."""
    message = str(exc)
    line = first_line
    marker = "(byte "
    if marker in message:
        try:
            offset = int(message.rsplit(marker, 1)[1].rstrip(")"))
            line = first_line + data.count(b"\n", 0, offset)
        except ValueError:
            pass
    return RecordError(source, line, "", f"not valid JSON: {message}")


def iter_json_lines(stream: Iterable[bytes], source: str, start_line: int = 1) -> Iterator[
    Document | RecordError
]:
    """Yield one Document (or RecordError) per non-blank line, in constant memory."""
    for number, raw in enumerate(stream, start_line):
        if not raw.strip():
            continue
        try:
            value = _decoder.decode(raw)
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            yield decode_error(source, raw, exc, number)
            continue
        yield Document(source, number, value)


def iter_whole_document(data: bytes, source: str, first_line: int = 1) -> Iterator[
    Document | RecordError
]:
    """Yield the records of one JSON document (each element of a top-level array)."""
    if not data.strip():  # msgspec would say "Input data was truncated"
        yield RecordError(source, first_line, "", "the file is empty: expected a JSON document "
                                                  "(or one JSON record a line)")
        return
    try:
        value = _decoder.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        yield decode_error(source, data, exc, first_line)
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield Document(source, first_line, item, f"/{index}")
    else:
        yield Document(source, first_line, value)


class Shape(enum.Enum):
    """What an input holds."""

    DGN = "dgn"
    """Compact notation (``.dgn``), one dungeon per line."""
    JSON_LINES = "jsonl"
    """One JSON value per line."""
    JSON = "json"
    """One JSON document (a top-level array: one record per element)."""


SUFFIXES = {".dgn": Shape.DGN, ".txt": Shape.DGN, ".jsonl": Shape.JSON_LINES,
            ".ndjson": Shape.JSON_LINES, ".json": Shape.JSON}


def shape_by_name(name: str) -> Shape | None:
    """The shape a file name promises (None: look at the content, see :func:`sniff`).

    >>> shape_by_name("games.NDJSON"), shape_by_name("-")
    (<Shape.JSON_LINES: 'jsonl'>, None)
    """
    return SUFFIXES.get(Path(name).suffix.lower())


@dataclass
class Sniffed:
    """An open input and its shape: ``head`` holds the lines :func:`sniff` read already."""

    shape: Shape
    stream: IO[bytes]
    first_line: int = 1
    """The number of the first line of :meth:`lines` / :meth:`read`."""
    head: list[bytes] = field(default_factory=list)

    def lines(self) -> Iterator[bytes]:
        """The input's lines from :attr:`first_line` on."""
        return itertools.chain(self.head, self.stream)

    def read(self) -> bytes:
        """The input from :attr:`first_line` on, whole."""
        return b"".join(self.head) + self.stream.read()


def sniff(stream: IO[bytes], name: str) -> Sniffed:
    """The shape of the input ``name`` open as ``stream`` (see the module doc)."""
    by_name = shape_by_name(name)
    if by_name is not None:
        return Sniffed(by_name, stream)
    skipped: list[bytes] = []
    for raw in stream:
        if raw.strip() and not raw.lstrip().startswith(b"#"):
            break
        skipped.append(raw)
    else:  # nothing but blank lines and comments
        return Sniffed(Shape.JSON_LINES, stream, 1, skipped)
    if raw.lstrip()[:1] not in (b"{", b"["):
        return Sniffed(Shape.DGN, stream, 1, [*skipped, raw])
    try:
        _decoder.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return Sniffed(Shape.JSON, stream, len(skipped) + 1, [raw])
    return Sniffed(Shape.JSON_LINES, stream, len(skipped) + 1, [raw])


def source_name(name: str) -> str:
    """How results and errors name the input ``name``."""
    return "<stdin>" if name == "-" else name


@contextlib.contextmanager
def open_input(name: str) -> Iterator[Sniffed]:
    """Open and sniff ``name`` (``-``: stdin); a read error becomes IOFailure."""
    stream = open_source(name)
    try:
        yield sniff(stream, name)
    except OSError as exc:
        raise IOFailure(f"{name}: cannot read: {exc.strerror or exc}") from exc
    finally:
        if name != "-":
            stream.close()


def iter_documents(sniffed: Sniffed, source: str) -> Iterator[Document | RecordError]:
    """The JSON records of a sniffed input (compact notation is no JSON: one error)."""
    if sniffed.shape is Shape.JSON_LINES:
        yield from iter_json_lines(sniffed.lines(), source, sniffed.first_line)
    else:
        yield from iter_whole_document(sniffed.read(), source, sniffed.first_line)


def iter_json_source(name: str) -> Iterator[Document | RecordError]:
    """Yield the JSON records of the file ``name`` (see the module doc for the shapes)."""
    with open_input(name) as sniffed:
        yield from iter_documents(sniffed, source_name(name))
