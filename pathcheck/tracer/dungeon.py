"""Dungeons, their trace, and why they got Lost: the public tracing API.

>>> r = trace_notation("START@N RE1@N R1@N R2@E R3@S")
>>> r.lost_at, r.reason.value
(5, 'loop')
>>> [(p.tile, p.x, p.y) for p in r.layout][:3]
[('START', 0, 0), ('RE1', 0, 1), ('R1', 0, 2)]
>>> r.rule.section
'Lost (B)'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pathcheck.errors import InputError
from pathcheck.ruling import Rule
from pathcheck.tracer.constants import REASONS, tracing_mask
from pathcheck.tracer.fast import compile_tileset, trace_indices, unpack
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.tileset import TileSet, load_tileset

RULEBOOK = "dungeon in memory rule sheet"


class LostReason(enum.Enum):
    """Why a dungeon got Lost, in the precedence of spec section 3."""

    MISPLACED = "misplaced"
    OUT_OF_BOUNDS = "out-of-bounds"
    GHOST_FIVE = "ghost-five"
    GHOST_TWICE = "ghost-twice"
    DEAD_END = "dead-end"
    LOOP = "loop"
    REVERSE = "reverse"

    @property
    def rule(self) -> Rule:
        """The rulebook rule that decides this reason, with its quote."""
        return LOST_RULES[self]


LOST_RULES: dict[LostReason, Rule] = {
    LostReason.MISPLACED: Rule(
        "dungeon/lost-misplaced", "Lost (D)",
        "You are Lost also if you: ... (D) 'place a tile in an incorrect orientation "
        "(misplace a tile)'."),
    LostReason.OUT_OF_BOUNDS: Rule(
        "dungeon/rule-2-bound", "Additional rule #2",
        "If any tile crosses over the imaginary square of 9x9 grid centered on the Start "
        "tile, it counts as getting Lost."),
    LostReason.GHOST_FIVE: Rule(
        "dungeon/rule-3-ghost-five", "Additional rule #3",
        "If a Ghost is placed in the dungeon 5 times in total, it counts as getting Lost."),
    LostReason.GHOST_TWICE: Rule(
        "dungeon/rule-4-ghost-twice", "Additional rule #4",
        "Placing the same Ghost twice counts as getting Lost. (Advanced rules only)"),
    LostReason.DEAD_END: Rule(
        "dungeon/lost-dead-end", "Lost (A)",
        "If there is no more path to proceed, as shown in (A), it counts as getting Lost."),
    LostReason.LOOP: Rule(
        "dungeon/lost-loop", "Lost (B)", "You are Lost also if you: (B) 'circle in a loop'"),
    LostReason.REVERSE: Rule(
        "dungeon/lost-reverse", "Lost (C)", "You are Lost also if you: ... (C) 'move in reverse'"),
}

_REASON_BY_CODE: tuple[LostReason | None, ...] = tuple(
    None if name is None else LostReason(name) for name in REASONS
)


@dataclass(frozen=True)
class Placement:
    """One tile as recorded: its id and the absolute direction of its arrow.

    >>> Placement.parse("R1@E")
    Placement(tile='R1', dir=<Direction.E: 1>)
    """

    tile: str
    dir: Direction

    @classmethod
    def parse(cls, token: str) -> Placement:
        tile, sep, direction = token.rpartition("@")
        if not sep or not tile:
            raise InputError(f"{token!r} is not a placement (expected ID@DIR, e.g. R1@N)")
        try:
            return cls(tile, Direction.parse(direction))
        except ValueError as exc:
            raise InputError(f"{token!r}: {exc}") from None

    def __str__(self) -> str:
        return f"{self.tile}@{_DIR_NAMES[self.dir]}"  # an enum's .name is slow to look up


_DIR_NAMES = tuple(d.name for d in Direction)


@dataclass(frozen=True)
class Placed:
    """A tile of the laid-out dungeon, at the cell where it was put."""

    tile: str
    dir: Direction
    x: int
    y: int

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "dir": self.dir.name, "x": self.x, "y": self.y}


@dataclass(frozen=True)
class Pass:
    """The path going over the tile at ``(x, y)``: heading in and heading out."""

    x: int
    y: int
    entry: Direction
    exit: Direction


@dataclass(frozen=True)
class TraceResult:
    """Where (1-based tile index) and why a dungeon got Lost, and its layout.

    ``lost_at`` and ``reason`` are None when the path holds to the last tile. ``layout``
    has one entry per tile up to and including the one that made the dungeon Lost.
    ``last_movement`` is the last turn the trace made (a Repeat tile starting the next solo
    dungeon repeats it).
    """

    lost_at: int | None
    reason: LostReason | None
    layout: tuple[Placed, ...]
    last_movement: Move = Move.STRAIGHT
    passes: tuple[Pass, ...] = ()
    """Every pass over a tile, in order (only with ``trace(..., with_passes=True)``)."""

    @property
    def held(self) -> bool:
        return self.lost_at is None

    @property
    def rule(self) -> Rule | None:
        return None if self.reason is None else self.reason.rule

    def to_dict(self) -> dict[str, Any]:
        return {
            "lost_at": self.lost_at,
            "reason": None if self.reason is None else self.reason.value,
            "layout": [p.to_dict() for p in self.layout],
        }


rules_mask = tracing_mask
"""The fast tracer's bit mask for a set of additional rules (see
:mod:`pathcheck.tracer.constants`)."""


_DIRECTIONS = tuple(Direction)
"""The directions by number (a table is faster than ``Direction(n)`` for every pass)."""


def trace(
    placements: Sequence[Placement],
    *,
    tileset: TileSet | None = None,
    rules: Iterable[int] = (),
    initial_movement: Move = Move.STRAIGHT,
    with_passes: bool = False,
) -> TraceResult:
    """Trace a dungeon with the fast tracer (spec section 3).

    ``with_passes`` also records every pass over a tile (for drawing the path taken).

    Unknown tile ids raise InputError; validating a whole record (repeats, mode) is the job
    of :mod:`pathcheck.inputs.records`.
    """
    ts = tileset or load_tileset()
    compiled = compile_tileset(ts)
    try:
        indices = [compiled.index[p.tile] for p in placements]
    except KeyError as exc:
        raise InputError(f"unknown tile {exc.args[0]!r} in tile set {ts.name!r}") from None
    dirs = [int(p.dir) for p in placements]
    raw_passes: list[tuple[int, int, int]] | None = [] if with_passes else None
    lost_at, code, cells, last_move = trace_indices(
        compiled, indices, dirs, tracing_mask(rules), int(initial_movement), None, raw_passes
    )
    passes = []
    for cell, entry, exit_ in raw_passes or ():
        # Pass(x, y, entry, exit) without the frozen dataclass's field-by-field __setattr__
        one = _new(Pass)
        fields = one.__dict__
        fields["x"], fields["y"] = unpack(cell)
        fields["entry"], fields["exit"] = _DIRECTIONS[entry], _DIRECTIONS[exit_]
        passes.append(one)
    layout = []
    for placement, cell in zip(placements, cells, strict=False):
        placed = _new(Placed)  # Placed(tile, dir, x, y), likewise
        fields = placed.__dict__
        fields["tile"], fields["dir"] = placement.tile, placement.dir
        fields["x"], fields["y"] = unpack(cell)
        layout.append(placed)
    return TraceResult(lost_at or None, _REASON_BY_CODE[code], tuple(layout), Move(last_move),
                       tuple(passes))


_new = object.__new__


def parse_notation(text: str) -> list[Placement]:
    """The placements of a one-dungeon compact notation string (no LOST cards)."""
    return [Placement.parse(token) for token in text.split()]


def trace_notation(text: str, *, rules: Iterable[int] = (),
                   tileset: TileSet | None = None) -> TraceResult:
    """Trace ``"START@N R1@N ..."`` (the tracer does not check the mode: records do)."""
    return trace(parse_notation(text), tileset=tileset, rules=rules)
