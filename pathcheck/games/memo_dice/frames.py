"""Memo Dice drawn for the replay page: the row of cups at a moment, as SVG.

Each cup of the round's row shows its colour (a band in the cup's real colour, and its name),
the die it covers (symbol and colour), who rolled it and, once uncovered, who got the cup; a
covered cup is hatched, the golden cup carries a ``★``, the cup of the current move an orange
border and ``▶``. Under the row, the score track: each
player's points before this round's cups, against the 20 that end the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pathcheck.games.memo_dice.rules import TARGET, Cup
from pathcheck.render.bidi import isolate
from pathcheck.render.board import Bar, Card, Look, board_svg
from pathcheck.render.words import counted

if TYPE_CHECKING:
    from pathcheck.games.memo_dice.row import CupInRow

PER_ROW = 4
"""Cups a line of the picture (a round has up to 7 or 8)."""
CUP_COLOURS = {Cup.RED.value: "#C62828", Cup.BLUE.value: "#1565C0", Cup.BLACK.value: "#1a1a1a",
               Cup.GOLDEN.value: "#E6B800"}
"""The cups' real colours, drawn as a band on each cup (the name is written too)."""


def legend(log: Mapping[str, Any]) -> str:
    """The marks of a row of cups."""
    del log  # every Memo Dice game has the same marks
    return ("Each cup: its colour (the band, and its name), the die under it and who rolled "
            "it; grey hatched: still covered; white: uncovered, with who got it; ★: the golden "
            "cup; an orange border and ▶: the cup of the current move. The bars: each "
            "player's points before this round, towards 20.")


def cups_svg(number: int, move: int, row: Sequence[CupInRow],
             scores: Mapping[str, int]) -> str:
    """Round ``number`` after ``move`` (0: its start): the cups and the score track."""
    uncovered = [c.number for c in row if c.holder is not None]
    current = max(uncovered) if uncovered else (row[-1].number if row else None)
    cards: list[Card | None] = []
    for cup in row:
        lines = [f"cup {cup.number}: {cup.cup}", f"{cup.symbol} ({cup.colour})",
                 f"rolled by {isolate(cup.coverer)}"]
        if cup.holder is not None:
            lines.append(f"to {isolate(cup.holder)}")
        cards.append(Card(tuple(lines), Look.DOWN if cup.holder is None else Look.UP,
                          current=cup.number == current and move > 0,
                          glyph="★" if cup.cup == Cup.GOLDEN.value else "",
                          band=CUP_COLOURS.get(cup.cup, "")))
    rows = [cards[i:i + PER_ROW] for i in range(0, len(cards), PER_ROW)] or [[]]
    where = "the start" if move == 0 else f"move {move}"
    notes = [f"Round {number}, {where}: {counted(len(row), 'cup')} in the row, "
             f"{len(uncovered)} uncovered" + (" (covered cups hatched, ★ the golden cup)"
                                              if row else "")]
    bars = [Bar(player, points, TARGET) for player, points in scores.items()]
    notes.append("score track before this round's cups:")
    return board_svg(rows, notes=notes, bars=bars, card_w=128, card_h=92,
                     title=f"cups, round {number}, {where}")
