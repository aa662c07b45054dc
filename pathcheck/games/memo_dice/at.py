"""Memo Dice drawn as text: the row of cups, the ``--at`` picture and the final table.

>>> print(final_table(("Ann", "Bob"), {"Ann": [3, 4], "Bob": [5, 0]}, {"Ann": 7, "Bob": 5}))
Final table
player  r1  r2  total
Ann      3   4      7
Bob      5   0      5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathcheck.games.memo_dice.row import CupInRow


def draw_row(row: Sequence[CupInRow], public: bool = False) -> str:
    """The row of cups as a small table: cup, symbol under it, who rolled it, who got it
    (``public``: what the players see, ``?`` under a covered cup).

    >>> from pathcheck.games.memo_dice.row import CupInRow
    >>> cup = CupInRow(1, "golden", "turtle", "red", "Ann", "Bob", "Ann was wrong")
    >>> print(draw_row([cup]))
    cup  colour  symbol        rolled by  goes to
      1  golden  turtle (red)  Ann        Bob (Ann was wrong)
    """
    if not row:
        return "(no cups in the row)"
    # str.ljust rather than format specs: this is drawn for every round ruled on.
    symbols = ["?" if public and c.holder is None else f"{c.symbol} ({c.colour})"
               for c in row]
    sym_w = max(len("symbol"), max(map(len, symbols)))
    by_w = max(len("rolled by"), max([len(c.coverer) for c in row]))
    lines = [f"cup  colour  {'symbol'.ljust(sym_w)}  {'rolled by'.ljust(by_w)}  goes to"]
    numbers, cups = _NUMBERS, _CUPS
    for c, sym in zip(row, symbols, strict=True):
        to = "(covered)" if c.holder is None else f"{c.holder} ({c.how})"
        number = numbers[c.number] if c.number < len(numbers) else str(c.number).rjust(3)
        lines.append(f"{number}  {cups.get(c.cup) or c.cup.ljust(6)}  {sym.ljust(sym_w)}  "
                     f"{c.coverer.ljust(by_w)}  {to}")
    return "\n".join(lines)


_NUMBERS = tuple(str(n).rjust(3) for n in range(101))
"""A cup's number as its column shows it (a round has at most 100 cups: the schema)."""
_CUPS = {cup: cup.ljust(6) for cup in ("red", "blue", "black", "golden")}
"""A cup's name as its column shows it."""


def picture(number: int, move: int, row: Sequence[CupInRow], scores: Mapping[str, int]) -> str:
    """The ``--at`` picture: round ``number`` after ``move`` (0: its start)."""
    where = "the start" if move == 0 else f"move {move}"
    shown = ", ".join(f"{p} {s}" for p, s in scores.items())
    return (f"State at round {number}, {where}:\n{draw_row(row)}\n"
            f"score before this round's cups: {shown}")


def final_table(players: Sequence[str], per_round: Mapping[str, Sequence[int]],
                scores: Mapping[str, int]) -> str:
    """Points per round and in total, best first."""
    n = max((len(v) for v in per_round.values()), default=0)
    name_w = max(len("player"), *(len(p) for p in players))
    head = "player".ljust(name_w) + "".join(f" {'r' + str(i + 1):>3}" for i in range(n))
    lines = ["Final table", head + "  total"]
    for p in sorted(players, key=lambda p: -scores[p]):
        cells = "".join([" " + str(v).rjust(3) for v in per_round[p]])
        lines.append(f"{p.ljust(name_w)}{cells}  {str(scores[p]).rjust(5)}")
    return "\n".join(lines)
