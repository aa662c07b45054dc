"""A dungeon drawn as it grows: every prefix traced from one trace, each picture from the last.

A replay page draws a dungeon after each turn. Tracing each prefix of the stack and drawing
each from scratch costs a page the square of its length; here the dungeon is traced once
(:class:`Prefixes` reads the trace of every prefix off the full one) and :class:`Growing`
keeps the lines of the picture so far, adding the new tile's and redrawing only the tiles the
path went over since. Every trace and every picture is the same, byte for byte, as
``trace(placements[:h])`` and ``view_svg(build_view(...))`` give (tests/test_page_bytes.py).

>>> from pathcheck.tracer.dungeon import parse_notation, trace
>>> stack = parse_notation("START@N R1@N R2@E L4@N")
>>> full = trace(stack, with_passes=True)
>>> all(Prefixes(full).at(h) == trace(stack[:h], with_passes=True) for h in range(5))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pathcheck.render.html import Drawing, one_line
from pathcheck.render.lean import Lines
from pathcheck.render.model import PAIRS, PortPair, tile_paths
from pathcheck.render.svg import (
    BACKDROP,
    CLOSE,
    Extent,
    bound_line,
    cards_line,
    desc_line,
    label_line,
    lost_line,
    start_line,
    svg_open,
    taken_line,
    tile_line,
)
from pathcheck.tracer.constants import BOUND, AdditionalRule
from pathcheck.tracer.dungeon import TraceResult
from pathcheck.tracer.geometry import Move
from pathcheck.tracer.tileset import TileSet

_tile_line = tile_line.__wrapped__
_label_line = label_line.__wrapped__


class Prefixes:
    """The trace of every prefix of a stack, read off the trace of the whole stack.

    The tracer lays tile k and then follows the path over the tiles laid until it reaches an
    empty cell, where tile k + 1 goes; nothing it does for tile k depends on the tiles after
    it. So the trace of the first h tiles is the whole trace when the dungeon got Lost at a
    tile up to h; else it holds, with the first h tiles of the layout and the passes made
    before the path first entered the cell of tile h + 1 (no pass went there before: it was
    empty), and its last movement is that of its last pass (every pass turns by the movement
    it leaves behind).
    """

    def __init__(self, full: TraceResult, initial_movement: Move = Move.STRAIGHT) -> None:
        self.full, self.initial = full, initial_movement
        first: dict[tuple[int, int], int] = {}
        for i, p in enumerate(full.passes):
            first.setdefault((p.x, p.y), i)
        count = len(full.passes)
        self.passes_before = [first.get((placed.x, placed.y), count) for placed in full.layout]
        """The passes made before the path first entered each tile's cell."""

    def passes(self, height: int) -> int:
        """How many passes the trace of the first ``height`` tiles has."""
        if self.lost(height) or height >= len(self.passes_before):
            return len(self.full.passes)
        return self.passes_before[height]

    def lost(self, height: int) -> bool:
        """Whether the first ``height`` tiles are already Lost."""
        return self.full.lost_at is not None and height >= self.full.lost_at

    def at(self, height: int) -> TraceResult:
        """``trace(placements[:height], with_passes=True)`` (with the same tile set, rules
        and initial movement as the full trace)."""
        full = self.full
        if self.lost(height) or (height >= len(full.layout) and full.lost_at is None):
            return full
        passes = full.passes[:self.passes(height)]
        last = passes[-1] if passes else None
        movement = Move((last.exit - last.entry) % 4) if last is not None else self.initial
        # TraceResult(None, None, layout, movement, passes) without the frozen dataclass's
        # field-by-field __setattr__ (a page reads a prefix a turn)
        result = _new(TraceResult)
        fields = result.__dict__
        fields["lost_at"] = fields["reason"] = None
        fields["layout"], fields["last_movement"] = full.layout[:height], movement
        fields["passes"] = passes
        return result


_new = object.__new__


def extent(result: TraceResult) -> Extent:
    """What :meth:`~pathcheck.render.model.DungeonView.extent` gives without the bound: the
    cells of the tiles laid (the Lost mark is on one of them).

    >>> from pathcheck.tracer.dungeon import trace_notation
    >>> extent(trace_notation("START@N R1@N R2@E"))
    (0, 0, 1, 1)
    """
    xs = [p.x for p in result.layout] or [0]
    ys = [p.y for p in result.layout] or [0]
    return min(xs), min(ys), max(xs), max(ys)


class Growing:
    """The pictures of one dungeon as it grows, in one extent, as ``view_svg`` draws them.

    :meth:`picture` draws the first ``height`` tiles; heights should come in order (a lower
    one starts the drawing over). ``placers``: who placed each tile, by tile number (fixed for
    the dungeon); ``cards``: the LOST cards' initials on each tile, per picture.
    """

    def __init__(self, full: TraceResult, tileset: TileSet, rules: Iterable[int],
                 extent: Extent, placers: Mapping[int, str],
                 initial_movement: Move = Move.STRAIGHT) -> None:
        self.prefixes = Prefixes(full, initial_movement)
        self.full, self.tileset = full, tileset
        opening, self.shift_y = svg_open(extent)
        bound = BOUND if AdditionalRule.BOUND in AdditionalRule.of(rules) else None
        self.head = (opening, "<title>dungeon</title>")
        self.fixed = (*BACKDROP, *((bound_line(bound, self.shift_y),) if bound is not None
                                   else ()))
        self.placers = placers
        self.index_of = {(p.x, p.y): i for i, p in enumerate(full.layout)}
        self.start = start_line(full.layout[0].x, full.layout[0].y, self.shift_y) \
            if full.layout else ""
        self.cards: dict[tuple[int, str], str] = {}
        self.descs: dict[tuple[int, bool], str] = {}
        self.lost = ""
        """The Lost mark (only the full trace has one)."""
        self.one_line = True
        """No line holds a line boundary (a player's initial, a tile id may be anything): the
        pictures are :class:`~pathcheck.render.html.Drawing` objects, which a page need not
        split into lines again."""
        self._reset()

    def _reset(self) -> None:
        self.tiles: list[str] = []
        self.labels: list[str] = []
        self.taken: list[set[PortPair]] = []
        self.taken_lines: list[str] = []
        self.drawn_passes = 0

    def _lay(self, count: int) -> None:
        """Draw the tiles of the layout up to ``count`` (each once: the line makers' caches,
        which serve pictures drawn whole, are passed by)."""
        shift_y, tileset = self.shift_y, self.tileset
        for index in range(len(self.tiles) + 1, count + 1):
            placed = self.full.layout[index - 1]
            paths = tile_paths(tileset[placed.tile].kind, placed.dir)
            self.tiles.append(_tile_line(placed.x, placed.y, index, paths, shift_y))
            label = _label_line(placed.x, placed.y, index, placed.tile, placed.dir, shift_y,
                                self.placers.get(index, ""))
            self.one_line = self.one_line and one_line(label)
            self.labels.append(label)
            self.taken.append(set())
            self.taken_lines.append("")

    def _go(self, passes: int) -> None:
        """Draw the path taken up to pass ``passes``."""
        changed: set[int] = set()
        index_of = self.index_of
        for p in self.full.passes[self.drawn_passes:passes]:
            i = index_of[(p.x, p.y)]
            self.taken[i].add(PAIRS[(p.entry + 2) % 4][p.exit])
            changed.add(i)
        for i in changed:
            placed = self.full.layout[i]
            self.taken_lines[i] = taken_line(placed.x, placed.y, i + 1, frozenset(self.taken[i]),
                                             self.shift_y)
        self.drawn_passes = passes

    def _card(self, index: int, initials: str) -> str:
        line = self.cards.get((index, initials))
        if line is None:
            at = self.full.layout[index - 1]
            line = self.cards[(index, initials)] = cards_line(at.x, at.y, self.shift_y, index,
                                                              initials)
            self.one_line = self.one_line and one_line(line)
        return line

    def picture(self, height: int, cards: Mapping[int, str] | None = None
                ) -> tuple[str, TraceResult]:
        """The picture of the first ``height`` tiles, and their trace."""
        out, result = self._picture(height, cards)
        return (Drawing(out) if self.one_line else "\n".join(out) + "\n"), result

    def lines(self, height: int, cards: Mapping[int, str] | None = None
              ) -> tuple[Lines | str, TraceResult]:
        """:meth:`picture` as its lines, not joined (the picture's text where a line holds a
        line boundary)."""
        out, result = self._picture(height, cards)
        return (Lines(out) if self.one_line else "\n".join(out) + "\n"), result

    def _picture(self, height: int, cards: Mapping[int, str] | None
                 ) -> tuple[list[str], TraceResult]:
        result = self.prefixes.at(height)
        passes = len(result.passes)
        if passes < self.drawn_passes or len(result.layout) < len(self.tiles):
            self._reset()
        self._lay(len(result.layout))
        if passes > self.drawn_passes:
            self._go(passes)
        count = len(result.layout)
        lost = result.lost_at is not None and count >= result.lost_at
        desc = self.descs.get((count, lost))
        if desc is None:
            desc = self.descs[(count, lost)] = desc_line(
                count, result.lost_at, result.reason.value
                if lost and result.reason is not None else None)
        out = [*self.head, desc, *self.fixed, *self.tiles]
        out += [line for line in self.taken_lines if line]
        out += self.labels
        if count:
            out.append(self.start)
        if lost and result.lost_at is not None:
            if not self.lost:
                at = result.layout[result.lost_at - 1]
                self.lost = lost_line(at.x, at.y, self.shift_y)
            out.append(self.lost)
        if cards:
            out += [self._card(index, initials) for index, initials in sorted(cards.items())
                    if 1 <= index <= count]
        out += CLOSE
        return out, result
