"""The tasks of a ``-j N`` run over game logs: spans of regular JSON Lines files, which each
worker process reads itself, and chunks of items for every other input.

The main process only finds where the spans of a regular ``*.jsonl``/``*.ndjson`` file start
and end (whole lines of about :data:`SPAN` bytes, and the number of the first line: a search
for the last newline and a count of newlines, at the speed of ``memchr``), and hands each
over as a :class:`Span` of a few numbers. A worker reads its span with one ``pread`` of the
same open file (its descriptor handed over once) and splits it into items exactly as
:func:`pathcheck.inputs.items.log_items` would (:func:`pathcheck.inputs.items.line_items`).
A line longer than the record limit, and everything after it, goes the usual way (the
reader says how long it is), and so does any input that is not a regular JSON Lines file
(stdin, a FIFO, a JSON document, notation): items read here, pickled to the worker.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "logs.jsonl")
>>> with open(path, "wb") as out:
...     _ = out.write(b'{"format":"game/1"}\\n\\n{}\\n')
>>> opened: dict[int, BinaryIO] = {}
>>> [task[:4] for task in log_tasks([path], opened)]
[(0, 0, 24, 1)]
>>> [(i.line, i.payload) for i in span_items(next(log_tasks([path], opened)), opened)]
[(1, b'{"format":"game/1"}\\n'), (3, b'{}\\n')]
"""

from __future__ import annotations

import io
import itertools
import os
import stat
from collections.abc import Iterable, Iterator
from typing import BinaryIO, NamedTuple

from pathcheck.errors import InputError, IOFailure, cannot_read
from pathcheck.inputs.items import ERROR, Item, line_items, log_items
from pathcheck.reading.bounded import MAX_RECORD_BYTES, lines
from pathcheck.reading.meant_for import misdirected
from pathcheck.reading.reader import Shape, folder_of, open_source, shape_by_name, source_name

CHUNK = 64
"""Logs per chunk of items: big enough to make a worker round trip cheap, small enough to
stream."""

SPAN = 256 << 10
"""Bytes per span (about as many logs as a chunk: 70 logs of 3.5 kB)."""

_SCAN = 1 << 20


class Span(NamedTuple):
    """Whole lines of a regular JSON Lines file: ``length`` bytes from ``offset``, the first
    of them line ``first_line``."""

    file: int
    """The file's number in the run (a key of ``opened``; a worker's own descriptor)."""
    offset: int
    length: int
    first_line: int
    source: str
    base: str


Task = Span | list[Item]


def log_tasks(paths: Iterable[str], opened: dict[int, BinaryIO], chunk: int = CHUNK,
              span: int = SPAN) -> Iterator[Task]:
    """The tasks of ``paths`` in input order; a regular JSON Lines file stays open in
    ``opened`` (by its number) for its spans to be read: the caller closes it."""
    for number, path in enumerate(paths):
        stream = _regular_json_lines(path)
        if stream is None:
            yield from chunks(log_items(path), chunk)
            continue
        opened[number] = stream
        yield from _file_spans(stream, number, path, chunk, span)


def chunks(items: Iterable[Item], size: int = CHUNK) -> Iterator[list[Item]]:
    """``items`` in lists of ``size``."""
    iterator = iter(items)
    while group := list(itertools.islice(iterator, size)):
        yield group


def span_items(task: Task, opened: dict[int, BinaryIO]) -> list[Item]:
    """The items of a task (``opened``: the files by number, in this process)."""
    if not isinstance(task, Span):
        return task
    return read_span(task, opened[task.file].fileno())


def read_span(task: Span, fd: int) -> list[Item]:
    """The items of a span of the file open as ``fd``."""
    try:
        data = os.pread(fd, task.length, task.offset)
    except OSError as exc:
        return [Item(ERROR, task.source, 0, cannot_read(task.source, exc))]
    return list(line_items(lines(io.BytesIO(data)), task.source, task.first_line, task.base))


def _regular_json_lines(path: str) -> BinaryIO | None:
    """``path`` open (past a byte order mark) when it is a regular JSON Lines file that is
    not meant for another command; None otherwise (it is then read the usual way, which
    also words what is wrong with it)."""
    if path == "-" or shape_by_name(path) is not Shape.JSON_LINES:
        return None
    if misdirected(path, "adjudicate") is not None:
        return None
    try:  # a FIFO must not be opened here: the usual reader opens it, once
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        stream = open_source(path)
    except (OSError, IOFailure):
        return None
    return stream  # type: ignore[return-value]


def _file_spans(stream: BinaryIO, number: int, path: str, chunk: int, size: int
                ) -> Iterator[Task]:
    source = source_name(path)
    base = str(folder_of(path))
    fd = stream.fileno()
    found = False
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:  # the name was replaced since it was looked at: read on the usual way
        for group in chunks(line_items_from(stream, source, 1, base), chunk):
            found = True
            yield group
        if not found:
            yield [Item(ERROR, source, 0, InputError(f"{source}: no log in it"))]
        return
    try:
        pos = stream.tell()  # past a byte order mark
        line = 1
        while data := os.pread(fd, size, pos):
            cut = data.rfind(b"\n") + 1
            if cut == 0:  # one line longer than a span (or the last line, without newline)
                end = _line_end(fd, pos + len(data), pos)
                if end is None:  # longer than the record limit: the reader says so
                    stream.seek(pos)
                    items = line_items_from(stream, source, line, base)
                    for group in chunks(items, chunk):
                        found = True
                        yield group
                    break
                cut = end - pos
                data = os.pread(fd, cut, pos) if cut > len(data) else data
            if (data if len(data) == cut else data[:cut]).strip():  # not only blank lines
                found = True
                yield Span(number, pos, cut, line, source, base)
            line += data.count(b"\n", 0, cut)
            pos += cut
    except OSError as exc:
        found = True
        yield [Item(ERROR, source, 0, cannot_read(path, exc))]
    if not found:
        yield [Item(ERROR, source, 0, InputError(f"{source}: no log in it"))]


def line_items_from(stream: BinaryIO, source: str, first_line: int, base: str
                    ) -> Iterator[Item]:
    """The items of ``stream`` from where it stands (line ``first_line``) to its end, read
    by the bounded reader (a line past the record limit comes as its error item)."""
    try:
        yield from line_items(lines(stream), source, first_line, base)
    except OSError as exc:
        yield Item(ERROR, source, 0, cannot_read(source, exc))


def _line_end(fd: int, pos: int, start: int) -> int | None:
    """The offset after the line that starts at ``start`` (no newline up to ``pos``): after
    its newline, or the end of the file; None when the line is longer than the record
    limit."""
    while True:
        data = os.pread(fd, _SCAN, pos)
        if not data:
            return None if pos - start > MAX_RECORD_BYTES else pos
        newline = data.find(b"\n")
        if newline >= 0:
            end = pos + newline
            return None if end - start > MAX_RECORD_BYTES else end + 1
        pos += len(data)
        if pos - start > MAX_RECORD_BYTES:
            return None
