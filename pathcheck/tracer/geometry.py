"""Directions, turns and cells of the unbounded square grid (spec section 1).

>>> Direction.N.turned(Move.RIGHT)
<Direction.E: 1>
>>> Direction.W.step
(-1, 0)
>>> Move.between(Direction.W, Direction.S)
<Move.LEFT: 3>
"""

from __future__ import annotations

import enum

Cell = tuple[int, int]


class Direction(enum.IntEnum):
    """An absolute direction, numbered clockwise so that turning is addition mod 4."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Direction:
        return Direction((self + 2) % 4)

    def turned(self, move: Move) -> Direction:
        return Direction((self + move) % 4)

    @property
    def step(self) -> Cell:
        return _STEPS[self]

    @classmethod
    def parse(cls, text: str) -> Direction:
        """``"N"`` -> ``Direction.N``; ValueError for anything else."""
        try:
            return cls[text]
        except KeyError:
            raise ValueError(f"{text!r} is not a direction (expected N, E, S or W)") from None


class Move(enum.IntEnum):
    """A movement on a path: the quarter turns clockwise it makes (left is -1 = 3 mod 4)."""

    STRAIGHT = 0
    RIGHT = 1
    LEFT = 3

    @classmethod
    def between(cls, before: Direction, after: Direction) -> Move:
        """The movement that turns heading ``before`` into ``after`` (never a U-turn)."""
        return cls((after - before) % 4)

    @property
    def label(self) -> str:
        return self.name.lower()


_STEPS: dict[Direction, Cell] = {
    Direction.N: (0, 1),
    Direction.E: (1, 0),
    Direction.S: (0, -1),
    Direction.W: (-1, 0),
}


def neighbour(cell: Cell, direction: Direction) -> Cell:
    dx, dy = direction.step
    return (cell[0] + dx, cell[1] + dy)


def chebyshev(cell: Cell) -> int:
    """Distance from the start cell in the 9x9-bound sense: ``max(|x|, |y|)``."""
    return max(abs(cell[0]), abs(cell[1]))
