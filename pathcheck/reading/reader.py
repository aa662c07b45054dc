r"""The one reader of every input: which shape it has, and streaming JSON with exact errors.

:func:`sniff` decides the :class:`Shape` of every input of every command (batch work,
``verify``, ``solo check``, ``adjudicate``):

- ``*.dgn`` / ``*.txt``: compact notation, one dungeon per line (:mod:`pathcheck.inputs.records`);
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
import json
import math
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgspec

from pathcheck.errors import IOFailure, RecordError, cannot_read, pointer_join
from pathcheck.reading import bounded
from pathcheck.reading.bounded import (
    Guard,
    Oversized,
    Prefixed,
    depth_message,
    duplicate_keys,
    duplicate_message,
    guard,
    lines,
)

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
    """Open ``name`` for binary reading (``-`` is stdin); IOFailure if it cannot be read.

    A UTF-8 byte order mark at the start is skipped, so that a first line (``#! rules=2``,
    a JSON document) reads as it is written."""
    if name == "-":
        if sys.stdin is None:  # started with stdin closed (`<&-`)
            raise IOFailure("<stdin>: cannot read: standard input is closed")
        return _skip_bom(sys.stdin.buffer)
    try:
        return _skip_bom(open(name, "rb"))
    except OSError as exc:
        raise cannot_read(name, exc) from exc


BOM = b"\xef\xbb\xbf"


def _skip_bom(stream: IO[bytes]) -> IO[bytes]:
    peek = getattr(stream, "peek", None)
    if peek is not None and peek(3)[:3] == BOM:  # peek may return fewer bytes: then no BOM
        stream.read(3)
    return stream


def decode_error(source: str, data: bytes, exc: Exception, first_line: int = 1) -> RecordError:
    """A RecordError for undecodable JSON, with the line of the byte offset msgspec names."""
    # msgspec names the position in the string only: before 0.23 a UnicodeDecodeError, since
    # then a DecodeError "Invalid UTF-8 encoded string"
    if isinstance(exc, UnicodeDecodeError) or "UTF-8" in str(exc):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = first_line + data.count(b"\n", 0, bad.start)
            return RecordError(source, line, "", f"not UTF-8 text (byte {bad.start})")
    message = str(exc)
    line = first_line
    path = _MSGSPEC_PATH.search(message)
    if path is not None:  # "Number out of range - at `$[1].a`": a JSON pointer instead
        pointer = _out_of_range(data) if "[...]" in path.group(1) else None
        return RecordError(source, line, msgspec_pointer(path.group(1)) if pointer is None
                           else pointer, f"not valid JSON: {message[:path.start()].lower()}")
    marker = "(byte "
    if marker in message:
        try:
            offset = int(message.rsplit(marker, 1)[1].rstrip(")"))
            line = first_line + data.count(b"\n", 0, offset)
        except ValueError:
            pass
    return RecordError(source, line, "", f"not valid JSON: {message}")


def iter_json_lines(stream: Iterable[bytes | Oversized], source: str, start_line: int = 1
                    ) -> Iterator[Document | RecordError]:
    """Yield one Document (or RecordError) per non-blank line, in constant memory."""
    for number, raw in enumerate(stream, start_line):
        if isinstance(raw, Oversized):
            yield RecordError(source, number, "", raw.message())
            continue
        if not raw.strip():
            continue
        yield decode_value(raw.rstrip(b"\r\n"), source, number, "")


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
    """The number of the first line of :meth:`lines` / :meth:`document`."""
    head: list[bytes] = field(default_factory=list)

    def lines(self) -> Iterator[bytes | Oversized]:
        """The input's lines from :attr:`first_line` on; a line past the record limit comes
        as one :class:`~pathcheck.reading.bounded.Oversized`."""
        return lines(Prefixed(b"".join(self.head), self.stream))

    def document(self) -> Prefixed:
        """The input from :attr:`first_line` on, as a stream (for :func:`iter_document`)."""
        return Prefixed(b"".join(self.head), self.stream)


def sniff(stream: IO[bytes], name: str) -> Sniffed:
    """The shape of the input ``name`` open as ``stream`` (see the module doc)."""
    by_name = shape_by_name(name)
    if by_name is not None:
        return Sniffed(by_name, stream)
    skipped: list[bytes] = []
    while True:  # lines read at most up to the record limit: a longer one decides by its start
        raw = stream.readline(bounded.MAX_RECORD_BYTES + 1)
        if not raw:  # nothing but blank lines and comments
            return Sniffed(Shape.JSON_LINES, stream, 1, skipped)
        if raw.strip() and not raw.lstrip().startswith(b"#"):
            break
        skipped.append(raw)
    if raw.lstrip()[:1] not in (b"{", b"["):
        return Sniffed(Shape.DGN, stream, 1, [*skipped, raw])
    if len(raw) > bounded.MAX_RECORD_BYTES:  # too long for a record: JSON Lines reports its line
        return Sniffed(Shape.JSON_LINES, stream, len(skipped) + 1, [raw])
    try:
        _decoder.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return Sniffed(Shape.JSON, stream, len(skipped) + 1, [raw])
    return Sniffed(Shape.JSON_LINES, stream, len(skipped) + 1, [raw])


def folder_of(name: str) -> Path:
    """The folder a file ``name`` lies in, symbolic links followed (a tile set a record names
    is looked for there). A name that cannot be resolved (a symbolic link loop) keeps its own
    folder: opening it fails, and that is the error to report (exit 4), in its turn.

    >>> import os
    >>> folder_of("a/b.json") == Path(os.getcwd()).resolve() / "a"
    True
    """
    try:
        return Path(name).resolve().parent
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop, before Python 3.13
        return Path(name).absolute().parent


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
        raise cannot_read(name, exc) from exc
    finally:
        if name != "-":
            stream.close()


def iter_documents(sniffed: Sniffed, source: str) -> Iterator[Document | RecordError]:
    """The JSON records of a sniffed input (compact notation is no JSON: one error)."""
    if sniffed.shape is Shape.JSON_LINES:
        yield from iter_json_lines(sniffed.lines(), source, sniffed.first_line)
    else:
        yield from iter_document(sniffed.document(), source, sniffed.first_line)


def iter_json_source(name: str) -> Iterator[Document | RecordError]:
    """Yield the JSON records of the file ``name`` (see the module doc for the shapes)."""
    with open_input(name) as sniffed:
        yield from iter_documents(sniffed, source_name(name))


_MSGSPEC_PATH = re.compile(r" - at `\$([^`]*)`$")
_MSGSPEC_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def msgspec_pointer(path: str) -> str:
    """A msgspec error path (after its ``$``) as a JSON pointer, as far as it names keys.

    >>> msgspec_pointer("[1].rules[0]"), msgspec_pointer("[2][...]")
    ('/1/rules/0', '/2')
    """
    parts: list[str | int] = []
    for step in _MSGSPEC_STEP.finditer(path):
        if step.start() != sum(len(str(p)) + (1 if isinstance(p, str) else 2) for p in parts):
            break
        parts.append(step.group(1) if step.group(1) is not None else int(step.group(2)))
    return pointer_join("", *parts)


def _out_of_range(data: bytes) -> str | None:
    """The pointer to the first number msgspec cannot hold (it names no object keys)."""
    try:
        tree = json.loads(data)
    except ValueError:
        return None

    def walk(node: Any, at: str) -> str | None:
        if isinstance(node, float) and math.isinf(node):
            return at
        if isinstance(node, int) and not -(1 << 63) <= node < 1 << 64:
            return at
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, item in items:
            found = walk(item, pointer_join(at, key))
            if found is not None:
                return found
        return None

    return walk(tree, "")


def iter_document(stream: bounded.Readable, source: str, first_line: int = 1) -> Iterator[
    Document | RecordError
]:
    """The records of one JSON document on ``stream``: a top-level array is read element by
    element (streamed: memory bounded by the record limit, one bad element is that element's
    error); any other document is one record, read whole up to the record limit."""
    read = getattr(stream, "read1", stream.read)
    start = first_line
    while True:  # spaces before the document: counted, not kept
        head = read(bounded.BLOCK_SIZE)
        if not head:  # msgspec would say "Input data was truncated"
            yield RecordError(source, start, "", "the file is empty: expected a JSON document "
                                                 "(or one JSON record a line)")
            return
        if head.strip(bounded.JSON_SPACE):
            break
        first_line += head.count(b"\n")
    if head.lstrip(bounded.JSON_SPACE)[:1] == b"[":
        for element in bounded.array_elements(bounded.Prefixed(head, stream), first_line):
            pointer = f"/{element.position}"
            if element.error is not None:
                yield RecordError(source, element.line, pointer, element.error)
            else:
                yield decode_value(element.data, source, element.line, pointer)
        return
    parts = [head]
    size = len(head)
    while size <= bounded.MAX_RECORD_BYTES:
        more = read(bounded.BLOCK_SIZE)
        if not more:
            break
        parts.append(more)
        size += len(more)
    if size > bounded.MAX_RECORD_BYTES:
        yield RecordError(source, first_line, "", bounded.oversized_message(size))
        return
    yield decode_value(b"".join(parts), source, first_line, "")


def decode_value(data: bytes, source: str, line: int, pointer: str,
                 checked: Guard | None = None) -> Document | RecordError:
    """One JSON record: its Document, or the RecordError (depth, syntax, a key given twice).
    ``checked``: what :func:`~pathcheck.reading.bounded.guard` said of ``data``, if the caller asked
    already."""
    if checked is None:
        checked = guard(data)
    if checked is Guard.TOO_DEEP:
        return RecordError(source, line, pointer, depth_message())
    try:
        value = _decoder.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        error = decode_error(source, data, exc, line)
        return RecordError(source, error.line, pointer + error.pointer, error.message)
    twice = duplicate_keys(data, value) if checked is Guard.MAY_REPEAT else []
    if twice:
        return RecordError(source, line, pointer + twice[0], duplicate_message(twice[0]))
    return Document(source, line, value, pointer)
