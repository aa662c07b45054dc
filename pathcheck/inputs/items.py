r"""The one way in: every input of a batch command as items, one record or log each.

A file reaches ``verify``, ``solo check``, ``adjudicate`` and ``analyse`` through one call
here: :func:`iter_items` for dungeon and solo records, :func:`log_items` for game logs. Both
split the input as it streams (JSON Lines and ``.dgn`` lines raw, for the fast paths to
decode; the elements of a JSON document decoded; game notation one log at a time) into
:class:`Item` values, and an input that cannot be read, or was meant for another command, is
an error item in its place: every other file is still read. :func:`log_value` decodes a
log item for the game that rules it, and :func:`located` puts a game's error at the line of
the file the reader knows.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "two.jsonl")
>>> with open(path, "wb") as out:
...     _ = out.write(b'{"format": "dungeon/1", "tiles": []}\n\n{"format": "game/1"}\n')
>>> [(item.kind == JSON_LINE, item.line) for item in iter_items(path)]
[(True, 1), (True, 3)]
>>> try:
...     log_value(next(iter_items(path)))
... except RecordError as exc:
...     print(exc.pointer, exc.message[:32])
/format a dungeon record, not a game log
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from pathcheck.errors import InputError, IOFailure, RecordError
from pathcheck.inputs.records import dgn_lines
from pathcheck.reading.bounded import Guard, Oversized, Readable, guard
from pathcheck.reading.meant_for import format_advice, misdirected
from pathcheck.reading.reader import (
    Document,
    Shape,
    decode_value,
    folder_of,
    iter_document,
    open_input,
    source_name,
)

JSON_LINE, DGN_LINE, VALUE, ERROR = range(4)


class Item(NamedTuple):
    """One record to verify, not yet decoded (or decoded by the main process)."""

    kind: int
    source: str
    line: int
    payload: Any
    pointer: str = ""
    extra: Any = None
    """.dgn: the pragma defaults in force; JSON: the folder relative tile-set paths start from."""
    size: int = 0


# --- records --------------------------------------------------------------------------------


def iter_items(name: str) -> Iterator[Item]:
    """The records of one file as items, in order (``-`` is stdin)."""
    source = source_name(name)
    base = None if name == "-" else str(folder_of(name))
    try:
        with open_input(name) as sniffed:
            if sniffed.shape is Shape.DGN:
                yield from _dgn_items(sniffed.lines(), source, sniffed.first_line)
            elif sniffed.shape is Shape.JSON_LINES:
                yield from line_items(sniffed.lines(), source, sniffed.first_line, base)
            else:
                yield from _document_items(sniffed.document(), source, sniffed.first_line, base)
    except IOFailure as exc:
        yield Item(ERROR, source, 0, exc)


def line_items(stream: Iterable[bytes | Oversized], source: str, start: int, base: str | None
                ) -> Iterator[Item]:
    """The items of JSON Lines ``stream`` (lines as :func:`pathcheck.reading.bounded.lines`
    reads them), the first line numbered ``start``: one a non-blank line."""
    for number, raw in enumerate(stream, start):
        if isinstance(raw, Oversized):
            yield oversized_item(source, number, raw)
        elif raw.strip():
            yield Item(JSON_LINE, source, number, raw, "", base, len(raw))


def oversized_item(source: str, line: int, raw: Oversized) -> Item:
    return Item(ERROR, source, line, RecordError(source, line, "", raw.message()),
                size=raw.size)


def _dgn_items(stream: Iterable[bytes | Oversized], source: str, start: int) -> Iterator[Item]:
    for entry in dgn_lines(stream, source, start):
        if isinstance(entry, RecordError):
            yield Item(ERROR, source, entry.line or 0, entry)
        else:
            number, raw, defaults = entry
            yield Item(DGN_LINE, source, number, raw, "", defaults, len(raw))


def _document_items(stream: Readable, source: str, first_line: int, base: str | None
                    ) -> Iterator[Item]:
    for entry in iter_document(stream, source, first_line):
        if isinstance(entry, RecordError):
            yield Item(ERROR, source, entry.line or first_line, entry)
        else:
            yield Item(VALUE, source, entry.line, entry.value, entry.pointer, base, 0)


# --- game logs ------------------------------------------------------------------------------


def log_items(path: str) -> Iterator[Item]:
    """The logs of one file as items, in order: JSON (a document, an array, JSON Lines)
    streamed as ``verify`` splits it; game notation (:mod:`pathcheck.inputs.logs`) one log at a
    time, each log an item carrying its notation Document (which knows the line of every
    move). A file with no log in it is one error item: an empty file is not a legal game; so
    is a file of dungeon records (``.dgn``), which ``verify`` reads."""
    mistake = misdirected(path, "adjudicate")
    if mistake is not None:
        yield Item(ERROR, path, 0, InputError(f"{path}: {mistake}"))
        return
    found = False
    for item in _file_items(path):
        found = True
        yield item
    if not found:
        source = source_name(path)
        yield Item(ERROR, source, 0, InputError(f"{source}: no log in it"))


def _file_items(path: str) -> Iterator[Item]:
    if is_json(path):
        yield from iter_items(path)
        return
    from pathcheck.inputs.logs import iter_source

    source = source_name(path)
    try:
        for entry in iter_source(path):
            if isinstance(entry, RecordError):
                yield Item(ERROR, entry.source, entry.line or 0, entry)
            else:
                yield Item(VALUE, entry.source, entry.line, entry.value, entry.pointer, entry)
    except IOFailure as exc:
        yield Item(ERROR, source, 0, exc)


def is_json(path: str) -> bool:
    """JSON by its name, or (stdin, other names) by its first byte: ``{`` or ``[``."""
    suffix = Path(path).suffix.lower()
    if suffix in (".json", ".jsonl", ".ndjson"):
        return True
    if path != "-" or sys.stdin is None:  # a closed stdin is reported when it is read
        return False
    try:
        peek = getattr(sys.stdin.buffer, "peek", None)
        head = peek(1).lstrip()[:1] if peek is not None else b""  # peeked, not consumed
    except (OSError, ValueError):
        return False
    return head in (b"{", b"[")


def log_value(item: Item, checked: Guard | None = None) -> dict[str, Any]:
    """The log an item holds, decoded as ``verify`` decodes a record (depth, syntax, keys
    given twice; ``checked``: the reader's guard, when already run); RecordError (with file,
    line and pointer) for what is not a JSON object, a dungeon record
    (:func:`pathcheck.reading.meant_for.format_advice`), or the item's own error."""
    if item.kind == ERROR:
        raise item.payload
    value: Any = item.payload
    if item.kind in (JSON_LINE, DGN_LINE):
        raw = item.payload.rstrip(b"\r\n")
        decoded = decode_value(raw, item.source, item.line, item.pointer,
                               guard(raw) if checked is None else checked)
        if isinstance(decoded, RecordError):
            raise decoded
        value = decoded.value
    if not isinstance(value, dict):
        raise RecordError(item.source, item.line, item.pointer,
                          "expected a JSON object (a log)")
    advice = format_advice(value.get("format"), item.source)
    if advice is not None:  # a dungeon record: every game-log command says so in these words
        raise RecordError(item.source, item.line, item.pointer + "/format", advice)
    return value


def located(exc: RecordError, item: Item) -> RecordError:
    """A game's error (which knows the pointer in the log) with the line and the pointer in
    the file the reader knows; a notation Document knows the line of each turn, round and
    exploration."""
    if exc.line is not None:
        return exc
    line = item.extra.line_of(exc.pointer) if is_notation(item) else item.line
    return RecordError(exc.source, line, item.pointer + exc.pointer, exc.message)


def is_notation(item: Item) -> bool:
    return isinstance(item.extra, Document) and hasattr(item.extra, "line_of")
