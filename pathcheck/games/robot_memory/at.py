"""The robot memory game drawn as text: the grid, the ``--at`` picture and the final table."""

from __future__ import annotations

from collections.abc import Set

from pathcheck.games.robot_memory.rules import Card
from pathcheck.ruling import Round

Grid = tuple[tuple[Card | None, ...], ...]


def render_grid(grid: Grid, face_up: set[tuple[int, int]] | None = None) -> str:
    """The grid as text, row and column numbers around it; with ``face_up`` given, cards
    still face down are shown in parentheses.

    >>> from pathcheck.games.robot_memory.rules import MemoryCard, ShortCircuit
    >>> print(render_grid(((MemoryCard("bulb", "red", 3), ShortCircuit()),), {(1, 2)}))
         c1         c2
    r1   (3R bulb)  SHORT
    """
    if face_up is None:
        cells = [["." if card is None else card.code() for card in row] for row in grid]
    else:
        cells = []
        for r, row in enumerate(grid, 1):
            line = []
            for c, card in enumerate(row, 1):
                text = "." if card is None else card.code()
                if card is not None and (r, c) not in face_up:
                    text = f"({text})"
                line.append(text)
            cells.append(line)
    # a column: the widest text, then two spaces (trailing ones stripped)
    pad = max([len(t) for line in cells for t in line]) + 2
    lines = ["     " + "".join([f"c{c}".ljust(pad) for c in range(1, len(grid[0]) + 1)])]
    lines += [f"r{r:<3} " + "".join([t.ljust(pad) for t in line])
              for r, line in enumerate(cells, 1)]
    return "\n".join([s.rstrip() for s in lines])


def score_table(sides: tuple[str, ...], rounds: list[Round]) -> str:
    """Points per round and in all, one line a player (or team).

    >>> print(score_table(("Ann", "Ben"), [Round(1, "", (), {"Ann": 3, "Ben": 1})]))
    Final table   R1  total
    Ann            3      3
    Ben            1      1
    """
    width = max(len("Final table"), *(len(s) for s in sides))
    heads = [f"R{r.number}" for r in rounds]
    lines = [" ".join(["Final table".ljust(width), *(h.rjust(4) for h in heads), " total"])]
    for side in sides:
        before = 0
        cells = []
        for rnd in rounds:
            cells.append(str(rnd.scores[side] - before).rjust(4))
            before = rnd.scores[side]
        lines.append(" ".join([side.ljust(width), *cells, str(before).rjust(6)]))
    return "\n".join(lines)


def picture(number: int, turns_done: int, grid: Grid, face_up: Set[tuple[int, int]]) -> str:
    """The ``--at`` picture: round ``number`` after ``turns_done`` turns.

    >>> from pathcheck.games.robot_memory.rules import MemoryCard
    >>> print(picture(1, 0, ((MemoryCard("bulb", "red", 3),),), set()))
    Round 1 after 0 turn(s) (face-down cards in parentheses):
         c1
    r1   (3R bulb)
    """
    return (f"Round {number} after {turns_done} turn(s) (face-down cards in parentheses):\n"
            + render_grid(grid, set(face_up)))
