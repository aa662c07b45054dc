"""The ``--at`` picture of dungeon in memory: the laid-out dungeon at a moment.

For a game log, moment ``R.T`` is exploration R after its turn T (``R.0``: only the Start
tile); for a solo record, dungeon R after its tile T (T from 1). The map is the one
``pathcheck verify`` draws, with the verdict so far under it.

>>> from pathcheck.tracer.dungeon import parse_notation
>>> from pathcheck.games.common import EVERY_MOMENT, Pictures
>>> from pathcheck.tracer.tileset import load_tileset
>>> pictures = Pictures(EVERY_MOMENT)
>>> take_game_pictures(pictures, [(parse_notation("START@N R1@N I1@N"), [2, 3])],
...                    load_tileset(), [])
>>> [str(moment) for moment, _ in pictures]
['1.0', '1.1', '1.2']
"""

from __future__ import annotations

from collections.abc import Sequence

from pathcheck.games.common import Moment, Pictures
from pathcheck.render.model import build_view
from pathcheck.render.report import lost_sentence
from pathcheck.render.text import render_map
from pathcheck.render.words import counted
from pathcheck.tracer.dungeon import Placement, trace
from pathcheck.tracer.geometry import Move
from pathcheck.tracer.tileset import TileSet


def draw_at(title: str, placements: Sequence[Placement], tileset: TileSet, rules: Sequence[int],
            initial_movement: Move = Move.STRAIGHT) -> str:
    """The map of ``placements`` with its verdict so far, under ``title``."""
    result = trace(placements, tileset=tileset, rules=rules, initial_movement=initial_movement,
                   with_passes=True)
    view = build_view(result, tileset, rules)
    return f"{title}\n{render_map(view)}\n{lost_sentence(result)}"


def take_game_pictures(pictures: Pictures,
                       stacks: Sequence[tuple[Sequence[Placement], Sequence[int]]],
                       tileset: TileSet, rules: Sequence[int]) -> None:
    """Every moment of a replayed game log (``stacks``: per exploration, the stack as played
    and its height after each turn)."""
    for number, (placements, heights) in enumerate(stacks, 1):
        for turn in range(len(heights) + 1):
            height = heights[turn - 1] if turn else 1
            title = (f"Exploration {number} after turn {turn}" if turn
                     else f"Exploration {number} before its first turn"
                     ) + f" ({counted(height, 'tile')}):"

            def draw(title: str = title, shown: Sequence[Placement] = placements[:height]) -> str:
                return draw_at(title, shown, tileset, rules)

            pictures.take(Moment(number, turn), draw)


def take_solo_pictures(pictures: Pictures, dungeons: Sequence[Sequence[Placement]],
                       movements: Sequence[Move], tileset: TileSet,
                       rules: Sequence[int]) -> None:
    """Every moment of a solo record (``movements``: what a first Repeat tile of each dungeon
    repeats)."""
    for number, dungeon in enumerate(dungeons, 1):
        for tile in range(1, len(dungeon) + 1):

            def draw(number: int = number, tile: int = tile) -> str:
                return draw_at(f"Dungeon {number} after its tile {tile}:",
                               dungeons[number - 1][:tile], tileset, rules,
                               movements[number - 1])

            pictures.take(Moment(number, tile), draw)
