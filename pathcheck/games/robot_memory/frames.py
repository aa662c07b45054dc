"""The robot memory game drawn for the replay page: the grid at a moment, as SVG.

Cards turned face up are white, face-down ones hatched (the referee's view knows them), short
circuits carry a ``⚡``, and the cards of the last turn (one, or several after a short-circuit
chain) an orange border and ``▶``. Under the grid, each side's points so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import Any

from pathcheck.games.robot_memory.at import Grid
from pathcheck.games.robot_memory.rules import ShortCircuit
from pathcheck.render.bidi import isolate
from pathcheck.render.board import Card, Look, board_svg
from pathcheck.render.words import counted


def legend(log: Mapping[str, Any]) -> str:
    """The marks of a grid of robot cards."""
    del log
    return ("White cards: turned face up; grey hatched, the text in parentheses: still face "
            "down (the page is the referee's view); ⚡: a short circuit; an orange border and "
            "▶: the cards of the last move (one, or several after a short-circuit chain).")


def grid_svg(number: int, turns_done: int, grid: Grid, face_up: Set[tuple[int, int]],
             picked: Sequence[tuple[int, int]], scores: Mapping[str, int]) -> str:
    """Round ``number`` after ``turns_done`` turns; ``picked``: the cards of the last turn."""
    rows: list[list[Card | None]] = []
    for r, line in enumerate(grid, 1):
        row: list[Card | None] = []
        for c, card in enumerate(line, 1):
            if card is None:
                row.append(Card(("empty",), Look.EMPTY))
                continue
            short = isinstance(card, ShortCircuit)
            text = "short circuit" if short else card.describe()
            row.append(Card((text,), Look.UP if (r, c) in face_up else Look.DOWN,
                            current=(r, c) in picked, glyph="⚡" if short else ""))
        rows.append(row)
    chain = " (a short-circuit chain)" if len(picked) > 1 else ""
    after = f"after {counted(turns_done, 'move')}"
    notes = [f"Round {number} {after}; face up: {len(face_up)}{chain}",
             "points: " + ", ".join(f"{isolate(side)} {n}" for side, n in scores.items())]
    columns = [f"c{c}" for c in range(1, max((len(r) for r in grid), default=0) + 1)]
    return board_svg(rows, columns=columns, row_names=[f"r{r}" for r in range(1, len(grid) + 1)],
                     notes=notes, card_w=118, card_h=52,
                     title=f"grid, round {number} {after}")
