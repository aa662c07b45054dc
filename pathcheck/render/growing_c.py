"""The pictures of a growing dungeon for a lean page, made in C where the extension is built.

:meth:`~pathcheck.render.growing.Growing.lines` draws each picture of a dungeon as it grows,
and :class:`~pathcheck.render.lean.LeanMoments` numbers each picture's lines in the page's
table; a ``game/1`` page does this about 50 times, a few hundred bytecodes a line. Here the
whole dungeon's pictures are made in one call of the extension (``dungeon_pictures``,
``speedups/c/dungeon_pictures.c``): each tile's lines, the path taken over each tile, each
picture's lines and their numbers in the page's tables. What is worded (a tile's id, who
placed it, the ``<desc>``, the LOST cards, the shapes made with shapely) is made here, in
Python, as before; the C side writes only numbers, each float with Python's own formatter. The
pictures and the tables are the same, line for line and number for number, as
:class:`~pathcheck.render.growing.Growing` and :class:`~pathcheck.render.lean.LeanMoments`
make them (tests/test_growing_c.py compares the two), which stay the reference and what
runs without the extension or where a line would hold a line boundary.

>>> from pathcheck.render.growing import Growing, extent
>>> from pathcheck.tracer.dungeon import parse_notation, trace
>>> from pathcheck.tracer.tileset import load_tileset
>>> full = trace(parse_notation("START@N R1@N R2@E"), with_passes=True)
>>> growing = Growing(full, load_tileset(), (), extent(full), {2: "A"})
>>> moments = LeanMoments(["Ann"])
>>> made = lean_pictures(growing, moments, [(1, {}), (2, {}), (3, {2: "A"})])
>>> [picture == growing.lines(h, c)[0] for (picture, _), (h, c) in
...  zip(made, [(1, {}), (2, {}), (3, {2: "A"})])]
[True, True, True]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from pathcheck.render.growing import Growing
from pathcheck.render.html import one_line
from pathcheck.render.lean import LeanMoments, Lines, Picture
from pathcheck.render.model import PAIRS, tile_paths
from pathcheck.render.svg import (
    _ARROWS,
    LABEL,
    _fit,
    _taken_shape,
    _tile_shape,
    desc_line,
    lost_line,
)
from pathcheck.tracer.dungeon import TraceResult
from pathcheck.tracer.geometry import Direction

_C: Callable[..., list[Any]] | None
try:
    from pathcheck._speedups import dungeon_pictures as _C
except ImportError:  # no extension built: Growing.lines, as before
    _C = None

_BITS = [(a, b) for a in range(4) for b in range(a, 4)]
"""The unordered pairs of edges a pass may take over a tile, by bit (the C side's order)."""
_TAKEN: list[str | None] = [None] * (1 << len(_BITS))
"""The ``d`` of the path taken over a tile, by its set of pairs (a mask of :data:`_BITS`)."""


def _taken_make(mask: int) -> str:
    return _taken_shape(frozenset(PAIRS[a][b] for bit, (a, b) in enumerate(_BITS)
                                  if mask >> bit & 1))


_PARTS: dict[tuple[Any, str, Direction], tuple[str, str, str, str]] = {}
"""A tile's parts that do not depend on where it lies: the ``d`` of its cell and paths, its
arrow, its id as its label shows it (with a hover title when shortened), by kind, id and
direction (bounded: cleared when it grows past :data:`_MOST_PARTS`)."""
_MOST_PARTS = 4096


def _parts(kind: Any, tile: str, direction: Direction) -> tuple[str, str, str, str]:
    key = (kind, tile, direction)
    parts = _PARTS.get(key)
    if parts is None:
        if len(_PARTS) >= _MOST_PARTS:
            _PARTS.clear()
        cell, drawn = _tile_shape(tile_paths(kind, direction))
        ident, hover = _fit(tile, LABEL)
        parts = _PARTS[key] = (cell, drawn, _ARROWS[direction], hover + escape(ident))
    return parts


def lean_pictures(growing: Growing, moments: LeanMoments,
                  plan: Sequence[tuple[int, Mapping[int, str]]], *, results: bool = True
                  ) -> list[tuple[Picture, TraceResult]]:
    """``[growing.lines(height, cards) for height, cards in plan]``, each picture numbered in
    ``moments``' tables in this order (as its first :meth:`LeanMoments.add` would). Without
    ``results`` a picture's trace is the full trace where it is Lost, else a trace that says
    only that it is not (its layout and passes left empty)."""
    full = growing.full
    if _C is None or not _plain(growing, plan):
        return [growing.lines(height, cards) for height, cards in plan]
    layout, lost_at = full.layout, full.lost_at
    tileset, placers, before = growing.tileset, growing.placers, growing.prefixes.passes_before
    tiles = []
    kinds = tileset._by_id
    for index, placed in enumerate(layout, start=1):
        who = placers.get(index, "")
        key = (kinds[placed.tile].kind, placed.tile, placed.dir)
        said = _WHO.get(who)
        tiles.append((placed.x, placed.y, *(_PARTS.get(key) or _parts(*key)),
                      said if said is not None else _who(who)))
    steps = []
    traces = []
    on_made: dict[tuple[int, int], tuple[str, ...]] = {}
    """The LOST cards' lines of a picture, by the cards (the plan gives the same dict while
    they do not change) and the tiles drawn."""
    whole, every = len(layout), len(full.passes)
    descs = growing.descs
    for height, cards in plan:
        # Prefixes.at(height), without making each prefix's trace unless asked
        lost = lost_at is not None and height >= lost_at
        if lost or (height >= whole and lost_at is None):
            result, count, passes = full, whole, every
        else:
            count = min(height, whole)
            passes = before[height] if height < len(before) else every
            result = growing.prefixes.at(height) if results else _NOT_LOST
        lost = lost and lost_at is not None and count >= lost_at
        desc = descs.get((count, lost))
        if desc is None:
            desc = descs[(count, lost)] = desc_line(
                count, lost_at if lost else None, full.reason.value
                if lost and full.reason is not None else None)
        mark = None
        if lost and lost_at is not None:
            if not growing.lost:
                at = layout[lost_at - 1]
                growing.lost = lost_line(at.x, at.y, growing.shift_y)
            mark = growing.lost
        on: tuple[str, ...] = ()
        if cards:
            known = on_made.get((id(cards), count))
            if known is None:
                known = on_made[(id(cards), count)] = tuple(
                    growing._card(index, initials) for index, initials in sorted(cards.items())
                    if 1 <= index <= count)
            on = known
        steps.append((count, passes, desc, mark, on))
        traces.append(result)
    made = _C(moments._lines, moments._pictures, moments._drawn, Lines, growing.head,
              growing.fixed, tuple(tiles), full.passes, _TAKEN, _taken_make, growing.shift_y,
              growing.start, tuple(steps))
    return list(zip(made, traces, strict=True))


_WHO: dict[str, str] = {}
"""Who placed a tile as a label writes it (escaped), by initial (bounded)."""


def _who(initial: str) -> str:
    if len(_WHO) >= 1024:
        _WHO.clear()
    said = _WHO[initial] = escape(initial)
    return said


def _plain(growing: Growing, plan: Sequence[tuple[int, Mapping[int, str]]]) -> bool:
    """Whether no line of the dungeon's pictures holds a line boundary (a tile's id, who
    placed it and the LOST cards' initials are the only texts in them)."""
    return one_line("".join([p.tile for p in growing.full.layout])
                    + "".join(growing.placers.values())
                    + "".join(["".join(cards.values()) for _, cards in plan if cards]))


_NOT_LOST = TraceResult(None, None, ())
"""A trace that says only that it is not Lost (``lean_pictures(..., results=False)``)."""
