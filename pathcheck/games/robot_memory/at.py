"""The robot memory game drawn as text: the grid, the ``--at`` picture and the final table."""

from __future__ import annotations

from collections.abc import Set
from functools import lru_cache
from itertools import chain

from pathcheck.games.robot_memory.rules import Place
from pathcheck.render.words import counted
from pathcheck.ruling import Round

Grid = tuple[tuple[Place, ...], ...]


_coded: dict[int, tuple[Place, str]] = {}
"""id(card) -> the card (kept, so that the id stays its own) and its code. The log reader shares
its cards (65 of them), so each is coded once; the cap only guards against hand-built grids."""
_ROW_NAMES = tuple(f"r{r:<3} " for r in range(1, 21))
"""Row names, padded, of the largest grid a log may have."""


def _coded_card(card: Place) -> tuple[Place, str]:
    assert card is not None
    found = (card, card.code())
    if len(_coded) < 4096:
        _coded[id(card)] = found
    return found


@lru_cache(maxsize=1024)
def _head(columns: int, pad: int) -> str:
    return ("     " + "".join([f"c{c}".ljust(pad) for c in range(1, columns + 1)])).rstrip()


def render_grid(grid: Grid, face_up: set[tuple[int, int]] | None = None,
                public: bool = False) -> str:
    """The grid as text, row and column numbers around it; with ``face_up`` given, cards
    still face down are shown in parentheses (``public``: as ``(?)``, what players see).

    >>> from pathcheck.games.robot_memory.rules import MemoryCard, ShortCircuit
    >>> print(render_grid(((MemoryCard("bulb", "red", 3), ShortCircuit()),), {(1, 2)}))
         c1         c2
    r1   (3R bulb)  SHORT
    """
    if face_up is None:
        coded = _coded
        cells = [["." if card is None else (coded.get(id(card)) or _coded_card(card))[1]
                  for card in row] for row in grid]
    else:
        cells = []
        for r, row in enumerate(grid, 1):
            line = []
            for c, card in enumerate(row, 1):
                text = "." if card is None else card.code()
                if card is not None and (r, c) not in face_up:
                    text = "(?)" if public else f"({text})"
                line.append(text)
            cells.append(line)
    # a column: the widest text, then two spaces (trailing ones stripped)
    pad = max(map(len, chain.from_iterable(cells))) + 2
    lines = [_head(len(grid[0]), pad)]
    for r, line in enumerate(cells):
        name = _ROW_NAMES[r] if r < len(_ROW_NAMES) else f"r{r + 1:<3} "
        lines.append((name + "".join([t.ljust(pad) for t in line])).rstrip())
    return "\n".join(lines)


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
    Round 1 after 0 turns (face-down cards in parentheses):
         c1
    r1   (3R bulb)
    """
    return (f"Round {number} after {counted(turns_done, 'turn')} "
            "(face-down cards in parentheses):\n"
            + render_grid(grid, set(face_up)))
