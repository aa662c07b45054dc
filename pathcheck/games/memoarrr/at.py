"""Memoarrr! drawn as text: the island at a moment (the ``--at`` picture) and the final table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from pathcheck.games.common import Moment
from pathcheck.games.memoarrr.log import Setup
from pathcheck.games.memoarrr.rules import CENTRE, SIZE, Pos

if TYPE_CHECKING:
    from pathcheck.games.memoarrr.island import State

_ABBREV = 3


def _cell(state: State, pos: Pos, width: int, public: bool = False) -> str:
    card = state.grid.get(pos)
    if public and pos not in state.face_up and pos != CENTRE:
        return ("!" if pos == state.mark else "(") + " " * (width - 2) + \
            ("!" if pos == state.mark else ")")
    if card is None:  # the centre, or a card never revealed (left out of the log)
        return " " * width if pos == CENTRE else "?".center(width)
    text = f"{card.animal.value[:_ABBREV]} {card.landscape.value[:_ABBREV]}"
    if pos in state.face_up:
        return f"[{text.upper()}]"
    if pos == state.mark:
        return f"!{text}!"
    return f"({text})"


def render_island(state: State, at: Moment, public: bool = False) -> str:
    """The island as it stands, a 5x5 grid: [FACE UP], (face down), !walrus mark!.

    Face-down cards are shown too: the ruling is the referee's view, who knows the layout;
    ``public``: what the players see (face-down cards blank).
    """
    width = 2 * _ABBREV + 3
    round_no, turn = at.round, at.turn
    when = "at the start" if turn == 0 else f"after turn {turn}"
    lines = [f"Island in round {round_no}, {when}:"]
    lines.append("    " + " ".join(c.center(width) for c in "ABCDE"))
    for r in range(SIZE):
        row = " ".join(_cell(state, Pos(r, c), width, public) for c in range(SIZE))
        lines.append(f" {r + 1}  {row}")
    lines.append("    [X] face up, (x) face down, !x! marked by the walrus for the next turn")
    if state.last is not None:
        lines.append(f"    most recent reveal: {state.last}")
    if state.out:
        lines.append("    out: " + ", ".join(f"{p} ({v} volcano)" for p, v in state.out.items()))
    if not state.round_over:
        extra = " (crab's extra turn)" if state.crab else ""
        lines.append(f"    to move: {state.to_move}{extra}")
    return "\n".join(lines)


def final_table(setup: Setup, state: State) -> str:
    """The treasures each player took, with the tie-break keys."""
    return treasure_table(setup.players, state.treasures)


def treasure_table(players: Sequence[str], treasures: Mapping[str, Sequence[int]]) -> str:
    """The final table of ``players`` who took ``treasures``.

    >>> print(treasure_table(("Ann", "Ben"), {"Ann": [2, 4], "Ben": []}))
    Final table:
      player  rubies  cards  largest  treasures
      Ann          6      2        4  2 + 4
      Ben          0      0        0  -
    """
    widths = [_name_width(p) for p in players]
    width = max(len("player"), *widths)  # CJK: two columns
    lines = ["Final table:", f"  {'player'.ljust(width)}  rubies  cards  largest  treasures"]
    for p, own in zip(players, widths, strict=True):
        lines.append(_row(p, width - own, tuple(treasures[p])))
    return "\n".join(lines)


@lru_cache(maxsize=4096)
def _row(player: str, pad: int, cards: tuple[int, ...]) -> str:
    """A player's row of the final table (kept: the same names and treasures recur)."""
    return (f"  {player}{' ' * pad}  {sum(cards):>6}  {len(cards):>5}"
            f"  {max(cards, default=0):>7}  {' + '.join(map(str, cards)) or '-'}")


@lru_cache(maxsize=1024)
def _name_width(name: str) -> int:
    """The terminal columns of a player's name (kept: every ruling draws this table, and the
    same names recur)."""
    from pathcheck.render.align import text_width

    return text_width(name)
