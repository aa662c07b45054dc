"""The batch fast path: C reads, checks, traces and writes whole blocks of records.

:func:`fast_block` verifies a block of complete JSON Lines and :func:`fast_dgn_block` one of
``.dgn`` lines, and return the JSON Lines results. The optional extension
:mod:`pathcheck._speedups` reads the lines with strict scanners, checks what the Python
path checks (players and LOST cards too), traces with the same compiled tables as
:mod:`pathcheck.tracer.fast` and writes each result exactly as the Python path would. A JSON
line the scanner leaves is decoded by msgspec into typed structs and traced in C if it is a
plain valid record after all; every record the fast path is not sure about (invalid ones,
custom tile sets, solo lines) is verified by the Python path instead, in its place. Without
the extension, :func:`available` is False and batch work uses the Python path throughout.

The wing holds the extension's sources beside this Python side: ``_speedups.c`` is one
translation unit that includes its parts from ``c/`` (one job a file). It is built as
``pathcheck._speedups`` (typed by ``pathcheck/_speedups.pyi``), not inside this package: the
bounded reader imports its guard while ``pathcheck.reading`` loads, before this package can.

May import: the shared top modules, ``pathcheck.reading`` and ``pathcheck.tracer``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Literal

import msgspec

from pathcheck.reading.bounded import Guard, duplicate_keys, guard
from pathcheck.tracer.constants import ADVANCED_ONLY, BOUND, GHOST_LIMIT, REASONS, AdditionalRule
from pathcheck.tracer.dungeon import LOST_RULES, LostReason
from pathcheck.tracer.fast import compile_tileset
from pathcheck.tracer.tileset import TileSet, load_tileset

try:
    from pathcheck import _speedups as _speedups  # re-exported for pathcheck.solo.kernel
except ImportError:  # no C compiler at install time: the Python path does everything
    _speedups = None  # type: ignore[assignment]


# Tile ids and directions are decoded as Literals: msgspec then checks them while decoding
# and hands back the one interned string of each, whose hash is already known. A record with
# another id (another tile set, a typo) fails to decode and goes to the Python path.
TileId: Any = Literal[tuple(t.id for t in load_tileset())]


class PlacementStruct(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    tile: TileId
    dir: Literal["N", "E", "S", "W"]


class RecordStruct(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """The shape of a dungeon/1 record (semantics are checked by the C side or Python)."""

    tiles: list[PlacementStruct]
    format: str = "dungeon/1"
    tileset: str | None = None
    advanced: bool = False
    rules: list[int] | None = None
    players: list[Any] | None = None
    lost: list[Any] | None = None
    id: Any = None
    note: Any = None


_decoder = msgspec.json.Decoder(RecordStruct)
_encoder = msgspec.json.Encoder()


def available() -> bool:
    return _speedups is not None


def make_tables(tileset: TileSet, *, bound: int = BOUND, ghost_limit: int = GHOST_LIMIT,
                reasons: tuple[str | None, ...] = REASONS) -> object:
    """The C side's tables: the compiled tile set plus the rule constants of
    :mod:`pathcheck.tracer.constants` (the C file defines none of its own; the arguments exist so
    the tests can show that the C tracer follows them)."""
    _speedups.set_layout(RecordStruct, PlacementStruct)
    compiled = compile_tileset(tileset)
    reason_json = [_encoder.encode(name) for name in reasons]
    rule_json = [b"null" if name is None else
                 _encoder.encode({"section": LOST_RULES[LostReason(name)].section,
                                  "quote": LOST_RULES[LostReason(name)].quote})
                 for name in reasons]
    return _speedups.make_tables(
        dict(compiled.index),
        bytes(compiled.kind_of),
        bytes((g & 0xFF) for g in compiled.ghost_of),
        bytes(int(t.advanced_only) for t in tileset.tiles),
        [_encoder.encode(i) for i in compiled.ids],
        bytes(v & 0xFF for v in compiled.exit_table),
        bytes(compiled.primary_move),
        bytes(int(r) for r in compiled.is_repeat),
        reason_json,
        rule_json,
        tuple(reasons),
        bound,
        ghost_limit,
        int(AdditionalRule.BOUND),
        int(AdditionalRule.GHOST_FIVE),
        int(AdditionalRule.GHOST_TWICE),
        int(ADVANCED_ONLY),
    )


@cache
def _tables() -> object:
    return make_tables(load_tileset())


def prefix_for(source: str) -> bytes:
    """The start of every result line of a file: ``{"source":"...","line":``."""
    return b'{"source":' + _encoder.encode(source) + b',"line":'


def overrides_codes(rules: frozenset[int] | None, advanced: bool | None) -> tuple[int, int]:
    """The C side's rule mask (an :class:`~pathcheck.tracer.constants.AdditionalRule` value, -1
    none) and advanced (-1 none, 0, 1)."""
    mask = -1 if rules is None else int(AdditionalRule.of(rules))
    return mask, -1 if advanced is None else int(advanced)


Fallback = Callable[[bytes, int], Any]
"""Verifies one raw line (bytes, line number) with the Python path."""


def fast_block(
    block: bytes,
    first_line: int,
    prefix: bytes,
    codes: tuple[int, int],
    fallback: Fallback,
) -> tuple[list[bytes | Any], list[int]]:
    """Verify the JSON Lines of ``block`` (whole lines, the first at ``first_line``).

    Returns the pieces in input order (bytes of results from C, or whatever ``fallback``
    returned for a record left to Python) and the count of C-verified records per reason code.
    The C scanner takes every plain line; a line it leaves is decoded by msgspec and traced
    in C if it is a valid record after all (other key order, escapes, ...), else verified by
    ``fallback``.
    """
    tables = _tables()

    def scan(offset: int, line: int) -> tuple[bytes, int, int, tuple[int, ...]]:
        return _speedups.scan_block(tables, block, offset, line, prefix, *codes)

    def leftover(text: bytes, line: int, counts: list[int]) -> bytes | Any:
        raw = text[:-1] if text.endswith(b"\n") else text
        if not raw.strip():  # the C scanner's blanks are fewer (no \v, \f): skip as Python does
            return None
        return _one_line(tables, raw, line, prefix, codes, fallback, counts)

    return _blocks(block, first_line, scan, leftover)


Scan = Callable[[int, int], tuple[bytes, int, int, tuple[int, ...]]]
"""A C reader from (offset, line): (results, the offset and line it stopped at, counts)."""
Leftover = Callable[[bytes, int, list[int]], Any]
"""The Python path for one line a C reader left (with its newline), its line number and the
counts to add to; its result, None for none."""


def _blocks(block: bytes, first_line: int, scan: Scan,
            leftover: Leftover) -> tuple[list[bytes | Any], list[int]]:
    """The loop of both fast paths: C reads lines until one it leaves, which ``leftover``
    takes; then C goes on after it."""
    counts = [0] * len(REASONS)
    pieces: list[bytes | Any] = []
    offset, line = 0, first_line
    while offset < len(block):
        out, offset, line, got = scan(offset, line)
        if out:
            pieces.append(out)
        for i, c in enumerate(got):
            counts[i] += c
        if offset >= len(block):
            break
        end = block.find(b"\n", offset)
        stop = len(block) if end < 0 else end + 1
        result = leftover(block[offset:stop], line, counts)
        if result is not None:
            pieces.append(result)
        offset = stop
        line += 1
    return pieces, counts


def _one_line(tables: object, raw: bytes, line: int, prefix: bytes, codes: tuple[int, int],
              fallback: Fallback, counts: list[int]) -> bytes | Any:
    """A line the scanner left: msgspec + the C tracer if it can, else the Python path."""
    checked = guard(raw)
    if checked is Guard.TOO_DEEP:
        return fallback(raw, line)
    try:
        record = _decoder.decode(raw)
        # A key given twice is that record's error (msgspec keeps the last one).
        if checked is Guard.MAY_REPEAT and duplicate_keys(raw, msgspec.json.decode(raw)):
            return fallback(raw, line)
    except (msgspec.DecodeError, UnicodeDecodeError):  # not UTF-8 inside a string
        return fallback(raw, line)
    out, stop, got = _speedups.trace_records(tables, [record], 0, line, prefix, *codes)
    if stop != 1:
        return fallback(raw, line)
    for i, c in enumerate(got):
        counts[i] += c
    return out


DgnState = tuple[bytes, bytes]
"""Where a ``.dgn`` file stands: the last raw ``#!`` line read and the last valid one (b"":
none). After a wrong ``#!`` line the C reader leaves every record to the Python path."""
DgnFallback = Callable[[bytes, int, DgnState], tuple[Any, DgnState]]
"""Verifies one raw ``.dgn`` line (bytes, line number, the state before it) with the Python
path: returns its result (None for none) and the state after it."""


def fast_dgn_block(
    block: bytes,
    first_line: int,
    prefix: bytes,
    codes: tuple[int, int],
    state: DgnState,
    fallback: DgnFallback,
) -> tuple[list[bytes | Any], list[int]]:
    """:func:`fast_block` for the whole lines of a ``.dgn`` file, in ``state`` at its start.
    The C reader takes every dungeon line under the ``#!`` lines it reads exactly as Python
    does; any other line goes to ``fallback``."""
    tables = _tables()

    def scan(offset: int, line: int) -> tuple[bytes, int, int, tuple[int, ...]]:
        nonlocal state
        out, offset, line, got, start, end = _speedups.scan_dgn(tables, block, offset, line,
                                                                prefix, *codes, state[0])
        if start >= 0:
            state = (block[start:end],) * 2
        return out, offset, line, got

    def leftover(text: bytes, line: int, counts: list[int]) -> Any:
        nonlocal state
        result, state = fallback(text, line, state)
        return result

    return _blocks(block, first_line, scan, leftover)
