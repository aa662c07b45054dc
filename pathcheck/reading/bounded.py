"""The limits on one record, and the readers and checks that enforce them (docs/cli.md, Limits).

Input may be hostile: a batch must go on past any record, in bounded time and memory. Past a
limit, that record is invalid with a message naming the limit; the other records are verified.

>>> list(line_blocks(io.BytesIO(b"a\\nbb\\nccc"), limit=2, block_size=2))
[b'a\\n', b'bb\\n', Oversized(size=3, head=b'ccc', binary=False)]
>>> too_deep(b'[[["]]]]]]"]]]', limit=3), too_deep(b"[[[[]]]]", limit=3)
(False, True)
>>> cut("abcdefgh", 5)
"'abcde'... (8 characters)"
>>> duplicate_keys(b'[{"a": 1, "b": {"c": 2, "c": 3}}, {"a": 1, "a": 2}]')
['/0/b/c', '/1/a']
"""

from __future__ import annotations

import enum
import io  # noqa: F401  (the doctests use it)
import json
import re
import reprlib
from collections.abc import Iterator
from typing import Any, NamedTuple, Protocol

from pathcheck.errors import pointer_join
from pathcheck.reading.regular_files import (  # re-exported: files read unasked
    UnfitFile as UnfitFile,
)
from pathcheck.reading.regular_files import gunzip as gunzip
from pathcheck.reading.regular_files import read_regular as read_regular

try:  # the one-pass scan of guard(); without a C compiler the Python functions below do it
    from pathcheck._speedups import json_guard as _json_guard
except ImportError:
    _json_guard = None  # type: ignore[assignment]

MAX_RECORD_BYTES = 16 << 20
"""One JSON Lines or ``.dgn`` line, one JSON document element, one record."""
MAX_DEPTH = 64
"""Nested arrays and objects in one record (a dungeon record needs 3, a game log about 6)."""
MAX_DIGITS = 18
"""Digits of a number in a text format (game notation, a ``#!`` line): any count the games
know fits, and so does a 64-bit integer, as in JSON logs."""
MAX_TOKENS = 1024
"""Tokens on one ``.dgn`` line."""
MAX_NAME = 100
"""Characters in a player name, a tile id or a tile-set name."""
MAX_PLAYERS = 64
"""Players of one dungeon record."""
MAX_TILESET_TILES = 256
"""Tiles in one tile set (so tiles in one dungeon): coordinates stay well inside the tracer's
packed cells, and the C tables hold every tile."""
MAX_TILESET_BYTES = 1 << 20
"""A tile-set file a record names (``--tileset`` on the command line is not capped)."""
QUOTE = 80
"""Characters of a token or value quoted in a message."""
BLOCK_SIZE = 1 << 20
JSON_SPACE = b" \t\r\n"
"""What JSON calls whitespace (around array elements and documents)."""


class Readable(Protocol):
    """A binary stream (a file, stdin, :class:`Prefixed`)."""

    def read(self, size: int = -1, /) -> bytes: ...


class Oversized(NamedTuple):
    """A line longer than the record limit (its bytes were read and dropped but the first)."""

    size: int
    head: bytes = b""
    binary: bool = False
    """It held a NUL byte: binary data (``/dev/zero``), and the input ends here."""

    def message(self) -> str:
        if self.binary:  # its size depends on where reading stopped: not told
            return (f"record longer than the limit of {MAX_RECORD_BYTES} bytes (see Limits in "
                    "docs/cli.md), holding a NUL byte: binary data, the rest of the input is "
                    "not read")
        return oversized_message(self.size)


def line_blocks(stream: Readable, limit: int | None = None,
                block_size: int | None = None) -> Iterator[bytes | Oversized]:
    """Whole lines of ``stream`` in blocks of about ``block_size`` bytes (the last line may
    lack its newline), in linear time and bounded memory: a line longer than ``limit``
    (default :data:`MAX_RECORD_BYTES`, newline not counted;
    ``block_size`` default :data:`BLOCK_SIZE`) comes as one :class:`Oversized`. The first
    such line that holds a NUL byte is binary data (``/dev/zero`` never ends): its Oversized
    is the last item, the rest of the input is not read."""
    limit = MAX_RECORD_BYTES if limit is None else limit
    block_size = BLOCK_SIZE if block_size is None else block_size
    read = getattr(stream, "read1", stream.read)
    pending: list[bytes] = []  # the start of a line whose end is not read yet
    size = 0
    head = b""
    dropping = False
    while True:
        data = read(block_size)
        if not data:
            break
        start = 0
        if pending or dropping:
            nl = data.find(b"\n")
            if nl < 0:
                size += len(data)
                binary = dropping and b"\0" in data
                if not dropping:
                    pending.append(data)
                    if size > limit:
                        binary = any(b"\0" in piece for piece in pending)
                        head, pending, dropping = _head(pending), [], True
                if binary:
                    yield Oversized(size, head, binary=True)
                    return
                continue
            size += nl
            if dropping or size > limit:
                binary = b"\0" in data[:nl] or any(b"\0" in piece for piece in pending)
                yield Oversized(size, head if dropping else _head([*pending, data]), binary)
                if binary:
                    return
            else:
                yield b"".join([*pending, data[: nl + 1]])  # one join per line: linear
            pending, size, dropping = [], 0, False
            start = nl + 1
        cut = data.rfind(b"\n", start) + 1
        if cut > start:
            for block in _split_long(data, start, cut, limit):
                yield block
                if isinstance(block, Oversized) and block.binary:
                    return
        else:
            cut = start
        if cut < len(data):
            pending, size = [data[cut:]], len(data) - cut
            if size > limit:
                head, pending, dropping = _head(pending), [], True
                if b"\0" in data[cut:]:
                    yield Oversized(size, head, binary=True)
                    return
    if dropping:
        yield Oversized(size, head)
    elif pending:
        yield b"".join(pending)


def lines(stream: Readable, limit: int | None = None) -> Iterator[bytes | Oversized]:
    """The lines of ``stream`` one by one (with their newline), as :func:`line_blocks` reads
    them: a line longer than the limit comes as one :class:`Oversized`."""
    for block in line_blocks(stream, limit):
        if isinstance(block, Oversized):
            yield block
            continue
        start = 0
        while start < len(block):
            end = block.find(b"\n", start) + 1 or len(block)
            yield block[start:end]
            start = end


def _split_long(data: bytes, start: int, cut: int, limit: int) -> Iterator[bytes | Oversized]:
    """``data[start:cut]`` (whole lines); only when a block may exceed the limit (a block size
    above it, as in tests) is each line measured."""
    if cut - start <= limit + 1:
        yield data[start:cut]
        return
    for line in data[start:cut].split(b"\n")[:-1]:
        yield Oversized(len(line), line[:HEAD], b"\0" in line) if len(line) > limit \
            else line + b"\n"


HEAD = 16


def _head(pieces: list[bytes]) -> bytes:
    return b"".join(pieces[:HEAD])[:HEAD]


def oversized_message(size: int) -> str:
    return (f"record of {size} bytes is longer than the limit of {MAX_RECORD_BYTES} "
            "bytes (see Limits in docs/cli.md)")


# Strings as possessive "unrolled loops": a run of plain bytes is one step of the regex
# engine and nothing is given back, so a string of megabytes takes no memory per byte.
_STRUCTURE = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"?|[\[\]{}]', re.DOTALL)


def too_deep(data: bytes, limit: int | None = None) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` (default :data:`MAX_DEPTH`)
    anywhere in the JSON text ``data`` (strings skipped; text that is not JSON is judged as
    far as it goes, the decoder reports it)."""
    limit = MAX_DEPTH if limit is None else limit
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # cannot nest deeper than it has brackets: the usual, cheap answer
    depth = 0
    for match in _STRUCTURE.finditer(data):
        char = match.group()[:1]
        if char in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif char in (b"]", b"}"):
            depth -= 1
    return False


class Guard(enum.IntEnum):
    """What one scan of a JSON text says before it is decoded (:func:`guard`)."""

    CLEAR = 0
    """No deeper than :data:`MAX_DEPTH`, and no key can repeat in a valid JSON text."""
    TOO_DEEP = 1
    """Nested deeper than :data:`MAX_DEPTH` (:func:`too_deep`)."""
    MAY_REPEAT = 2
    """A key may be given twice: :func:`duplicate_keys` decides once the text is decoded."""


_GUARDS = tuple(Guard)
"""The answers by their number (a tuple index costs less than the enum's lookup)."""


def guard(data: bytes) -> Guard:
    """Depth and repeated keys of the JSON text ``data`` in one scan: with the C extension
    a single pass over the bytes; without it :func:`too_deep`, and MAY_REPEAT whenever the
    text has a key at all (so :func:`duplicate_keys` always decides then).

    >>> guard(b'[1, [2, "x"]]'), guard(b'{"a": 1, "a": 2}')
    (<Guard.CLEAR: 0>, <Guard.MAY_REPEAT: 2>)
    >>> guard(b"[" * (MAX_DEPTH + 1))
    <Guard.TOO_DEEP: 1>
    """
    if _json_guard is not None:
        return _GUARDS[_json_guard(data, MAX_DEPTH)]
    if too_deep(data):
        return Guard.TOO_DEEP
    return Guard.MAY_REPEAT if b":" in data else Guard.CLEAR


def depth_message() -> str:
    return (f"arrays and objects nested deeper than the limit of {MAX_DEPTH} "
            "(see Limits in docs/cli.md)")


def cut(text: str, width: int = QUOTE) -> str:
    """``repr(text)``, shortened to about ``width`` characters for a message."""
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}... ({len(text)} characters)"


class Prefixed:
    """A binary stream with ``head`` put back before it (what a sniffer read already)."""

    def __init__(self, head: bytes, stream: Readable) -> None:
        self.head, self.stream = head, stream

    def read1(self, size: int = -1) -> bytes:
        if self.head:
            head, self.head = self.head, b""
            return head
        read = getattr(self.stream, "read1", self.stream.read)
        data: bytes = read(size)
        return data

    read = read1

    def readline(self, size: int = -1, /) -> bytes:
        """One line (with its ``\\n``), of at most ``size`` bytes when ``size`` >= 0."""
        parts: list[bytes] = []
        left = size
        while left != 0:
            if self.head:
                data, self.head = self.head, b""
            else:
                data = self.read1(BLOCK_SIZE if left < 0 else min(left, BLOCK_SIZE))
                if not data:
                    break
            end = data.find(b"\n") + 1 or len(data)
            if left >= 0:
                end = min(end, left)
                left -= end
            parts.append(data[:end])
            self.head = data[end:]
            if parts[-1].endswith(b"\n"):
                break
        return b"".join(parts)


_brief = reprlib.Repr()
_brief.maxstring = _brief.maxother = QUOTE
_brief.maxlist = _brief.maxdict = 6
_brief.maxlevel = 3


def brief(value: Any) -> str:
    """A short ``repr`` of a decoded value for a message (strings cut to ~80 characters,
    containers to a few items), in time bounded whatever the value's size."""
    return cut(value) if isinstance(value, str) else _brief.repr(value)


class _Object(dict[str, Any]):
    """A decoded JSON object that remembers the keys it was given more than once."""

    twice: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    obj.twice = []
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen and key not in obj.twice:
                obj.twice.append(key)
            seen.add(key)
    return obj


def _members(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_members(v) for v in value.values())
    if isinstance(value, list):
        return sum(_members(v) for v in value)
    return 0


def duplicate_keys(data: bytes, value: Any = None) -> list[str]:
    """JSON pointers to the keys given twice in one object of the JSON text ``data`` (valid
    JSON, no deeper than :data:`MAX_DEPTH`), in document order: each names the first repeated
    key of its object. ``value``, ``data`` already decoded, makes the usual answer cheap:
    when ``data`` has no more colons than ``value`` has members, no key can repeat."""
    if value is not None and data.count(b":") <= _members(value):
        return []
    found: list[str] = []

    def walk(node: Any, at: str) -> None:
        if isinstance(node, _Object):
            if node.twice:
                found.append(pointer_join(at, node.twice[0]))
            for key, item in node.items():
                walk(item, pointer_join(at, key))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, pointer_join(at, index))

    try:
        tree = json.loads(data, object_pairs_hook=_pairs)
    except ValueError:  # not JSON after all: the decoder's own error is the one to report
        return []
    walk(tree, "")
    return found


def duplicate_message(pointer: str) -> str:
    key = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    return (f"key {cut(key)} appears twice in one object: a record must say each thing once, "
            "so that it settles a dispute")


class Element(NamedTuple):
    """One element of a top-level JSON array: its bytes, or why the array stops there."""

    position: int
    """Its index in the array."""
    line: int
    data: bytes
    error: str | None = None


_TOKEN = re.compile(rb'["\[\]{},]')
_OPEN, _CLOSE = frozenset(b"[{"), frozenset(b"]}")


_STRING_REST = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
"""The rest of a JSON string up to its closing quote, possessive: never given back, so a
string of megabytes, escapes and all, takes no memory per byte (a plain ``*`` kept a
backtracking entry per escape: a gigabyte for 16 MB of them)."""


def _string_end(buf: bytes, at: int) -> int:
    """The index after the closing quote of the JSON string that goes on at ``at`` in ``buf``
    (past its opening quote); when ``buf`` ends first, ``-1 - where`` with ``where`` the
    place to go on from once more bytes are read: a long string is searched once, in C.

    >>> _string_end(b'"a\\\\"b\\\\\\\\"c', 1), _string_end(b'"ab\\\\', 1)
    (8, -4)
    """
    quote = buf.find(b'"', at)
    if quote >= 0 and buf.find(b"\\", at, quote) < 0:  # the usual string: no escape
        return quote + 1
    stop = _STRING_REST.match(buf, at).end()  # type: ignore[union-attr]  # matches always
    return stop + 1 if stop < len(buf) and buf[stop] == 34 else -1 - stop


def array_elements(stream: Readable, first_line: int = 1,
                   limit: int | None = None) -> Iterator[Element]:
    """The elements of the JSON array ``stream`` holds (its first non-space byte is ``[``),
    read in blocks: memory stays bounded by the record limit whatever the array's size, and
    one bad element is that element's error only. Elements are split at the array's own
    commas (strings skipped), not decoded; an element past the limit, or an array cut short
    or followed by more text, ends it with an :class:`Element` whose ``error`` says why.

    >>> [(e.position, e.line, e.data) for e in array_elements(io.BytesIO(b'[1,\\n{"a":"]"}]'))]
    [(0, 1, b'1'), (1, 2, b'{"a":"]"}')]
    """
    limit = MAX_RECORD_BYTES if limit is None else limit
    read = getattr(stream, "read1", stream.read)
    line = first_line
    while True:  # spaces before the array: counted, not kept
        buf = read(BLOCK_SIZE)
        if not buf:
            return
        if buf.strip(JSON_SPACE):
            break
        line += buf.count(b"\n")
    begin = len(buf) - len(buf.lstrip(JSON_SPACE))
    line += buf.count(b"\n", 0, begin)
    if buf[begin] != 91:
        yield Element(0, line, b"", "expected a JSON array")
        return
    start = pos = begin + 1  # the current element starts at start; scanning goes on at pos
    depth, index, eof = 1, 0, False
    string = -1  # inside a string: where the search for its end goes on (else -1)
    too_deep = False  # the current element nests past MAX_DEPTH: its error, then the next
    while True:
        match = None
        if string >= 0:
            end = _string_end(buf, string)
            if end >= 0:
                string, pos = -1, end
                continue
            string = -1 - end
        else:
            match = _TOKEN.search(buf, pos)
        if match is None:
            if eof:  # no more tokens, or a string never closed
                yield Element(index, line, b"", "the array is cut short (no closing ])")
                return
            if len(buf) - start > limit:
                yield Element(index, line, b"", oversized_message(len(buf) - start))
                return
            line += buf.count(b"\n", 0, start)
            string -= start if string >= 0 else 0
            buf, pos = buf[start:], len(buf) - start
            start = 0
            more = read(BLOCK_SIZE)
            eof = not more
            buf += more
            continue
        char = buf[match.start()]
        pos = match.end()
        if char == 34:
            string = pos
            continue
        if char in _OPEN:
            depth += 1
            too_deep = too_deep or depth > MAX_DEPTH + 1
        elif char in _CLOSE:
            depth -= 1
        if depth == 0 or (char == 44 and depth == 1):  # the closing ] or an element's comma
            element = buf[start:match.start()]
            if len(element) > limit:
                yield Element(index, line, b"", oversized_message(len(element)))
                return
            skipped = len(element) - len(element.lstrip(JSON_SPACE))
            at = line + buf.count(b"\n", 0, start + skipped)
            if too_deep:
                yield Element(index, at, b"", depth_message())
                too_deep = False
            elif depth or element.strip(JSON_SPACE) or index:
                yield Element(index, at, element.strip(JSON_SPACE))
            index += 1
            line += buf.count(b"\n", 0, pos)
            buf, start, pos = buf[pos:], 0, 0
            if depth == 0:
                break
    while True:  # after the closing ]: only whitespace
        if buf.strip(JSON_SPACE):
            yield Element(index, line, b"", "text after the closing ] of the array")
            return
        buf = read(BLOCK_SIZE)
        if not buf:
            return
