"""Memoarrr! drawn for the replay page: the island at a moment, as SVG.

The island is the 5x5 grid of :class:`~pathcheck.games.memoarrr.island.State`: face-up cards
white, face-down ones hatched (the page is the referee's view, which knows them), the card
revealed last with an orange border and ``▶``, the walrus mark dashed with ``!``; under it who
is to move, who is out with which volcano, and the treasures taken. The centre square holds
the volcano cards (``▲``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pathcheck.games.common import Moment
from pathcheck.games.memoarrr.rules import COLUMNS, SIZE, Pos
from pathcheck.render.bidi import isolate
from pathcheck.render.board import Card, Look, board_svg

if TYPE_CHECKING:
    from pathcheck.games.memoarrr.island import State, TurnResult
    from pathcheck.games.memoarrr.log import Action


def legend(log: Mapping[str, Any]) -> str:
    """The marks of an island picture (the walrus's only in the expert game)."""
    variants = log.get("variants")
    expert = isinstance(variants, Mapping) and bool(variants.get("expert"))
    return ("White cards: face up; grey hatched, the text in parentheses: face down (the page "
            "is the referee's view); an orange border and ▶: the card revealed last; ▲ in the "
            "centre: the volcano cards left." + (" A dashed blue border and !: the card the "
                                                 "walrus marked for the next player."
                                                 if expert else ""))


def move_text(action: Action, result: TurnResult) -> str:
    """Who did what in a move, from the replay's own values: "Cy reveals C4 (walrus, water),
    marks D2"; a reveal that connects with neither animal nor landscape says whose volcano it
    cost, the last volcano whose round it won."""
    player = action.player
    if action.reveal is None:
        text = f"{player} takes a volcano without revealing"
    else:
        card = result.card
        text = f"{player} reveals {action.reveal}" + (
            f" ({card.animal.value}, {card.landscape.value})" if card is not None else "")
        if action.swap is not None:
            text += f", swaps it with {action.swap}"
        if action.mark is not None:
            text += f", marks {action.mark}"
        if action.peek is not None:
            text += f", peeks at {action.peek}"
        if result.volcano is not None:
            text += f": no connection, {player} takes a volcano and is out"
    if result.winner is not None:
        text += f"; {result.winner} wins the round"
    return text


def island_svg(state: State, at: Moment) -> str:
    """The island at moment ``at`` (round, turns played in it)."""
    rows: list[list[Card | None]] = []
    for r in range(SIZE):
        row: list[Card | None] = []
        for c in range(SIZE):
            pos = Pos(r, c)
            card = state.grid.get(pos)
            if card is None and pos == Pos(SIZE // 2, SIZE // 2):
                row.append(Card(("volcano", f"{len(state.stack)} left"), Look.EMPTY,
                                glyph="▲"))
                continue
            if card is None:
                row.append(Card(("(no card)",), Look.EMPTY))
                continue
            up = pos in state.face_up
            row.append(Card((card.animal.value, card.landscape.value),
                            Look.UP if up else Look.DOWN,
                            current=up and state.last is not None and card == state.last,
                            marked=pos == state.mark))
        rows.append(row)
    when = "at the start" if at.turn == 0 else f"after move {at.turn}"
    notes = [f"Round {at.round}, {when}; face up: {len(state.face_up)}, volcano cards left "
             f"in the centre: {len(state.stack)}"]
    if not state.round_over and state.to_move:
        notes.append(f"to move: {isolate(state.to_move)}" + (" (crab's extra turn)" if state.crab
                                                    else ""))
    if state.out:
        notes.append("out: " + ", ".join(f"{isolate(p)} ({v} volcano)"
                                         for p, v in state.out.items()))
    notes.append("treasures: " + ", ".join(
        f"{isolate(p)} {sum(t)} ({' + '.join(map(str, t)) or '-'})"
        for p, t in state.treasures.items()))
    return board_svg(rows, columns=list(COLUMNS), row_names=[str(r + 1) for r in range(SIZE)],
                     notes=notes, title=f"island, round {at.round} {when}")
