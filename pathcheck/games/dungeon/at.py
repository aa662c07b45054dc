"""``pathcheck adjudicate ... --at R.T`` for dungeon in memory: the laid-out dungeon then.

For a game log, ``R.T`` is exploration R after its turn T (``R.0``: only the Start tile); for a
solo record, dungeon R after its tile T. The map is the one ``pathcheck verify`` draws.

>>> parse_at("2.5")
(2, 5)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pathcheck.dungeon import Placement, trace
from pathcheck.errors import InputError
from pathcheck.geometry import Move
from pathcheck.render.model import build_view
from pathcheck.render.report import lost_sentence
from pathcheck.render.text import render_map
from pathcheck.tileset import TileSet

_AT = re.compile(r"(\d+)\.(\d+)")


def parse_at(text: str) -> tuple[int, int]:
    """``"R.T"`` -> ``(R, T)``; InputError for anything else."""
    match = _AT.fullmatch(text.strip())
    if match is None or int(match.group(1)) < 1:
        raise InputError(f"--at {text!r}: expected ROUND.TURN, e.g. 2.5 (round from 1, turn "
                         "from 0)")
    return int(match.group(1)), int(match.group(2))


def draw_at(title: str, placements: Sequence[Placement], tileset: TileSet, rules: Sequence[int],
            initial_movement: Move = Move.STRAIGHT) -> str:
    """The map of ``placements`` with its verdict so far, under ``title``."""
    result = trace(placements, tileset=tileset, rules=rules, initial_movement=initial_movement,
                   with_passes=True)
    view = build_view(result, tileset, rules)
    return f"{title}\n{render_map(view)}\n{lost_sentence(result)}"


def game_display(at: str, stacks: Sequence[tuple[list[Placement], list[int]]],
                 tileset: TileSet, rules: Sequence[int]) -> str:
    """The dungeon of exploration R after turn T of a replayed game log."""
    number, turn = parse_at(at)
    if number > len(stacks):
        raise InputError(f"--at {at}: the log has {len(stacks)} exploration(s)")
    placements, heights = stacks[number - 1]
    if turn > len(heights):
        raise InputError(f"--at {at}: exploration {number} has {len(heights)} turn(s)")
    height = heights[turn - 1] if turn else 1
    title = (f"Exploration {number} after turn {turn}" if turn
             else f"Exploration {number} before its first turn") + f" ({height} tiles):"
    return draw_at(title, placements[:height], tileset, rules)


def solo_display(at: str, dungeons: Sequence[Sequence[Placement]],
                 movements: Sequence[Move], tileset: TileSet, rules: Sequence[int]) -> str:
    """Dungeon R of a solo record after its tile T (``movements``: what a first Repeat tile
    of each dungeon repeats)."""
    number, tile = parse_at(at)
    if number > len(dungeons):
        raise InputError(f"--at {at}: the record has {len(dungeons)} dungeon(s)")
    dungeon = dungeons[number - 1]
    if not 1 <= tile <= len(dungeon):
        raise InputError(f"--at {at}: dungeon {number} has tiles 1 to {len(dungeon)}")
    return draw_at(f"Dungeon {number} after its tile {tile}:", dungeon[:tile], tileset, rules,
                   movements[number - 1])
