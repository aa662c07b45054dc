"""Streaming readers for JSON documents and JSON Lines, with errors that name file and line.

Every reader yields, in input order, either a :class:`Document` or the
:class:`~pathcheck.errors.RecordError` that made one record unreadable, so that batch work
reports the bad record and goes on with the rest (the lenient mode); strict callers raise the
first error they see.

Which shape a source has:

- ``*.jsonl`` / ``*.ndjson``: one JSON value per line (blank lines are skipped);
- ``*.json``: one JSON document; a top-level array holds one record per element;
- ``-`` (stdin) and other names: JSON Lines when the first non-blank line is a complete JSON
  value, otherwise one JSON document.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
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


def iter_json_lines(stream: IO[bytes], source: str, start_line: int = 1) -> Iterator[
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


def iter_json_source(name: str) -> Iterator[Document | RecordError]:
    """Yield the JSON records of the file ``name`` (see the module doc for the shapes)."""
    stream = open_source(name)
    try:
        try:
            yield from _iter_open(stream, name)
        except OSError as exc:
            raise IOFailure(f"{name}: cannot read: {exc.strerror or exc}") from exc
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _iter_open(stream: IO[bytes], name: str) -> Iterator[Document | RecordError]:
    suffix = Path(name).suffix.lower()
    source = "<stdin>" if name == "-" else name
    if suffix in (".jsonl", ".ndjson"):
        yield from iter_json_lines(stream, source)
        return
    if suffix == ".json":
        yield from iter_whole_document(stream.read(), source)
        return
    # Sniff: skip blank lines, try the first line alone.
    skipped = 0
    first = b""
    for raw in stream:
        if raw.strip():
            first = raw
            break
        skipped += 1
    if not first:
        return
    try:
        value = _decoder.decode(first)
    except (msgspec.DecodeError, UnicodeDecodeError):
        rest = stream.read()
        yield from iter_whole_document(first + rest, source, skipped + 1)
        return
    yield Document(source, skipped + 1, value)
    yield from iter_json_lines(stream, source, skipped + 2)
