r"""The logs of one input file, game notation or JSON, streamed in bounded memory.

``adjudicate`` and ``convert`` read their LOG files here. ``*.json``, ``*.jsonl`` and
``*.ndjson`` are JSON (:mod:`pathcheck.reading.reader`); ``*.pcn`` is game notation
(:mod:`pathcheck.notation`); any other name (``.txt``, ``-``, ``/dev/fd/N``, a pipe) is
notation when its first line that is neither blank nor a ``#`` comment is a ``#!`` line, else
JSON. Notation is read line by line through :func:`pathcheck.reading.text.raw_lines` (strict UTF-8,
lines ended by ``\n``, ``\r\n`` or ``\r`` only), one log at a time: a file may hold several,
each from its ``#!`` line on, each at most :data:`~pathcheck.reading.bounded.MAX_RECORD_BYTES`.

>>> import io
>>> text = b"#! solo/1\nSTART@N\n\n#! chess/1\ne4\n"
>>> [(x.line, type(x).__name__) for x in iter_notation(io.BytesIO(text), "s.pcn")]
[(1, 'NotationDocument'), (4, 'NotationError')]
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, NamedTuple

from pathcheck import notation
from pathcheck.errors import IOFailure, RecordError, cannot_read
from pathcheck.reading.bounded import BLOCK_SIZE, MAX_RECORD_BYTES, Prefixed, Readable
from pathcheck.reading.reader import (
    Document,
    Shape,
    iter_document,
    iter_documents,
    open_source,
    sniff,
    source_name,
)
from pathcheck.reading.text import Line, TextError, decode, raw_lines, split_lines

JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
SNIFF_BYTES = 1 << 16
"""What is read of a file of another name to tell notation from JSON."""


@dataclass(frozen=True)
class NotationDocument(Document):
    """A reader Document that also knows the line of each part of its log."""

    lines: notation.Places = field(default_factory=notation.Places)

    def line_of(self, pointer: str) -> int:
        return self.lines.line_of(pointer, self.line)


class Logs(NamedTuple):
    """The logs of an open file: whether it is notation, and its Documents or RecordErrors
    in input order."""

    is_notation: bool
    items: Iterator[Document | RecordError]


@contextlib.contextmanager
def open_logs(name: str) -> Iterator[Logs]:
    """Open the file ``name`` (``-``: stdin) and read its logs as they are asked for; an
    error reading the file is an IOFailure (an OSError of the caller's own, such as a closed
    output pipe, stays what it is)."""
    stream = open_source(name)
    try:
        try:
            logs = _logs(name, stream)
        except OSError as exc:
            raise _unreadable(name, exc) from exc
        yield Logs(logs.is_notation, _read(logs.items, name))
    finally:
        if name != "-":
            stream.close()


def _logs(name: str, stream: IO[bytes]) -> Logs:
    """The logs of ``stream`` as its name or first line says (what is read to decide is
    read here; the logs as they are asked for)."""
    source = source_name(name)
    if Path(name).suffix.lower() in JSON_SUFFIXES:
        return Logs(False, iter_documents(sniff(stream, name), source))
    head, is_notation = b"", Path(name).suffix.lower() == notation.EXTENSION
    if not is_notation:
        head, is_notation = _sniff(stream)
    body = Prefixed(head, stream)
    return Logs(is_notation, iter_notation(body, source) if is_notation
                else _json_items(body, source))


def _read(items: Iterator[Document | RecordError], name: str
          ) -> Iterator[Document | RecordError]:
    """``items``, with an OSError of reading the next one turned into an IOFailure naming
    the file: only reading is caught, not what the caller does with an item."""
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except OSError as exc:
            raise _unreadable(name, exc) from exc
        yield item
        del item  # not held while the next log is read


def _unreadable(name: str, exc: OSError) -> IOFailure:
    return cannot_read(name, exc)


def _sniff(stream: Readable) -> tuple[bytes, bool]:
    """What was read of ``stream`` to decide, and whether it is notation: read only until
    its first line that is neither blank nor a comment is whole (a log coming down a pipe is
    not waited for), at most SNIFF_BYTES."""
    read = getattr(stream, "read1", stream.read)
    head = b""
    while len(head) < SNIFF_BYTES:
        more = read(BLOCK_SIZE)
        if not more:
            break
        head += more
        lines = split_lines(head.decode("utf-8", errors="replace"))
        whole = lines if head.endswith((b"\n", b"\r")) else lines[:-1]
        if any(_holds_something(line) for line in whole):
            break  # the deciding line is whole: not the last, perhaps cut, one
    return head, notation.is_notation(head[:SNIFF_BYTES].decode("utf-8", errors="replace"))


def _json_items(body: Prefixed, source: str) -> Iterator[Document | RecordError]:
    """JSON of a file whose name does not say: JSON Lines when its first line is a complete
    JSON value, else one document (as :func:`pathcheck.reading.reader.sniff` decides)."""
    sniffed = sniff(body, "-")  # type: ignore[arg-type]  # Prefixed reads lines as a file
    if sniffed.shape is Shape.DGN:  # no JSON at all: the decoder says where
        yield from iter_document(sniffed.document(), source, sniffed.first_line)
        return
    yield from iter_documents(sniffed, source)


def iter_source(name: str) -> Iterator[Document | RecordError]:
    """The logs of a file, notation or JSON, as reader Documents or RecordErrors in order."""
    with open_logs(name) as logs:
        yield from logs.items


def iter_notation(stream: Readable, source: str) -> Iterator[Document | RecordError]:
    """The logs of a notation text, each from its ``#!`` line on (a part with nothing but
    blank lines and comments is no log), each parsed as its lines are read (a log's lines
    are never all held). A line that is not UTF-8 is its log's error; a log past the size
    limit, a NUL byte, ends the file with that error (and its log is not ruled)."""
    lines = _LogLines(raw_lines(stream, source), source)
    while lines.next_log():
        try:
            try:
                item = _log(lines, source)
            except _Stop as stop:
                item = stop.error
            lines.drain()
        except _Abort as abort:
            yield abort.error
            return
        if lines.bad is not None:  # before any error of the notation, as in a text read whole
            item = lines.bad
        if item is not None:
            yield item
            item = None  # not held while the next log is read


class _Stop(Exception):
    """A line of the log is not UTF-8: the log's error, once its other lines are read."""

    def __init__(self, error: TextError) -> None:
        self.error = error


class _Abort(Exception):
    """The input ends here with this error (a log past the limit, binary data)."""

    def __init__(self, error: TextError) -> None:
        self.error = error


class _LogLines:
    """The lines of a notation input, one log at a time: :meth:`next_log` starts the next
    log; iterating gives its lines, decoded, until the next ``#!`` line. A line not UTF-8
    raises _Stop (the first one only); the size limit passed, or a line raw_lines refuses,
    raises _Abort. The checks come in the order of a log read whole before it is parsed: an
    _Abort anywhere in the log before a _Stop, a _Stop before any error of the notation
    (:func:`iter_notation` reads the rest of a log with :meth:`drain`)."""

    def __init__(self, raw: Iterator[Line | TextError], source: str) -> None:
        self.raw, self.source = raw, source
        self.held: Line | TextError | None = None  # the '#!' line that starts the next log
        self.first = 0  # the first line of the log being read
        self.size = 0
        self.bad: TextError | None = None
        self.ended = False

    def next_log(self) -> bool:
        """Start reading the next log; False at the end of the input."""
        if self.held is None:
            self.held = next(self.raw, None)
        if self.held is None:
            return False
        self.first = (self.held.line or 0) if isinstance(self.held, TextError) \
            else self.held.number
        self.size, self.bad, self.ended = 0, None, False
        return True

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return self

    def __next__(self) -> tuple[int, str]:
        while True:
            line = self._next_raw()
            text = self._decode(line)
            if text is not None:
                return line.number, text

    def _next_raw(self) -> Line:
        if self.ended:
            raise StopIteration
        item, self.held = (self.held, None) if self.held is not None else (next(self.raw, None),
                                                                            None)
        if item is None:
            self.ended = True
            raise StopIteration
        if isinstance(item, TextError):
            raise _Abort(item)
        if self.size and item.raw.lstrip().startswith(b"#!"):
            self.held, self.ended = item, True
            raise StopIteration
        self.size += len(item.raw) + 1
        if self.size > MAX_RECORD_BYTES:
            raise _Abort(TextError(self.source, self.first, 1, f"a log longer than the "
                                   f"limit of {MAX_RECORD_BYTES} bytes (see Limits in "
                                   "docs/cli.md; the rest of the input is not read)"))
        return item

    def _decode(self, line: Line) -> str | None:
        """The text of a line; None after the log's first line that is not UTF-8 (which
        raises _Stop)."""
        if self.bad is not None:
            return None
        try:
            return decode(line, self.source)
        except TextError as exc:
            self.bad = exc
            raise _Stop(exc) from None

    def drain(self) -> None:
        """Read the rest of the log: its lines are checked (the first not UTF-8 is kept in
        ``bad``; _Abort passes through), not kept."""
        while True:
            try:
                self._decode(self._next_raw())
            except StopIteration:
                return
            except _Stop:
                pass


def _log(lines: _LogLines, source: str) -> Document | RecordError | None:
    """The next log of ``lines``, its error, or None for a part of the input that holds no
    log (blank lines and comments); _Stop or _Abort from ``lines`` pass through."""
    first = lines.first
    for number, text in lines:
        if _holds_something(text):
            numbered = itertools.chain(((number, text),), lines)
            break
    else:
        return None
    try:
        log, where = notation.parse_lines(numbered, source=source, first_line=first)
    except RecordError as exc:
        return exc
    return NotationDocument(source, first, log, "", where)


def _holds_something(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and (not stripped.startswith("#") or stripped.startswith("#!"))
