"""Dungeon in memory, solo (``solo/1``): the player lays every tile and sees each one, so
memory decides every move.

A move is each tile laid after START: laid on the current dungeon, it is sound if the
dungeon held until then and the arrow is in line with the last-taken path, a slip if it is
misplaced, or if the dungeon was already Lost ("did not create a new dungeon immediately after
getting Lost"); laid as a new dungeon, it is sound if the previous dungeon was Lost, a slip
(premature) if it still held. The answer key (perfect play) is all sound.

>>> from pathcheck.solo import answer_key
>>> from pathcheck.tileset import load_tileset
>>> deck = load_tileset().deck_ids(False)
>>> key = answer_key(["START", *deck], rules=())
>>> log = {"format": "solo/1", "dungeons": [[{"tile": p.tile, "dir": p.dir.name}
...        for p in d.placements] for d in key]}
>>> analysis = analyse(log, source="key")
>>> {m.mark.value for m in analysis.moves}, analysis.summaries[0].accuracy
({'sound'}, 100.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pathcheck.analysis.core import AnalysedMove, GameAnalysis, Mark, make_analysis
from pathcheck.dungeon import LostReason, trace
from pathcheck.errors import pointer_join
from pathcheck.games.dungeon.log import SOLO_FORMAT, read_solo
from pathcheck.games.dungeon.solo import SOLO_PLAYER
from pathcheck.geometry import Move
from pathcheck.solo import RULE_SOLO_FAIL, RULE_SOLO_PREMATURE, check_solo


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every tile of a ``solo/1`` record marked; RecordError if the record is malformed."""
    record = read_solo(log, source=source)
    moves: list[AnalysedMove] = []
    movement = Move.STRAIGHT
    previous_held = False  # whether the dungeon before the current one held to its end
    for d, dungeon in enumerate(record.dungeons, 1):
        result = trace(dungeon, tileset=record.tileset, rules=record.rules,
                       initial_movement=movement)
        lost_at = result.lost_at
        for i, placement in enumerate(dungeon, 1):
            if d == 1 and i == 1:
                continue  # START lies in the middle: not a move
            pointer = pointer_join("/dungeons", d - 1, i - 1)
            did = f"lays {placement}" + (" as a new dungeon" if i == 1 else "")
            if i == 1:
                if previous_held:
                    moves.append(AnalysedMove(d, i, SOLO_PLAYER, did,
                                              f"dungeon {d - 1} holds", "go on with it",
                                              Mark.SLIP, "premature: the dungeon held", None,
                                              RULE_SOLO_PREMATURE, pointer))
                else:
                    moves.append(AnalysedMove(d, i, SOLO_PLAYER, did,
                                              f"dungeon {d - 1} is Lost", "a new dungeon",
                                              Mark.SOUND, "the dungeon was Lost", None,
                                              RULE_SOLO_FAIL, pointer))
                continue
            if lost_at is not None and lost_at < i:
                moves.append(AnalysedMove(d, i, SOLO_PLAYER, did,
                                          f"dungeon {d} is Lost since its tile {lost_at} "
                                          f"({_reason(result.reason)})", "a new dungeon",
                                          Mark.SLIP, "late: the dungeon was already Lost",
                                          None, RULE_SOLO_FAIL, pointer))
            elif lost_at == i and result.reason is LostReason.MISPLACED:
                moves.append(AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d} holds",
                                          "lay it in line with the last-taken path",
                                          Mark.SLIP, "misplaced", None, RULE_SOLO_FAIL,
                                          pointer))
            else:
                moves.append(AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d} holds",
                                          "as played", Mark.SOUND,
                                          "in line with the last-taken path", None, None,
                                          pointer))
        previous_held = lost_at is None
        movement = result.last_movement
    score = check_solo(record.dungeons, rules=record.rules, tileset=record.tileset).score
    return make_analysis("dungeon", SOLO_FORMAT, source, (SOLO_PLAYER,), moves,
                         {SOLO_PLAYER: score}, ())


def _reason(reason: LostReason | None) -> str:
    return "" if reason is None else reason.value
