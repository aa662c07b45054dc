"""Dungeon in memory, solo (``solo/1``): the player lays every tile and sees each one, so
memory decides every move.

A move is each tile laid after START: laid on the current dungeon, it is sound if the
dungeon held until then and the arrow is in line with the last-taken path, a slip if it is
misplaced, or if the dungeon was already Lost ("did not create a new dungeon immediately after
getting Lost"); laid as a new dungeon, it is sound if the previous dungeon was Lost, a slip
(premature) if it still held. The answer key (perfect play) is all sound.

>>> from pathcheck.solo.play import answer_key
>>> from pathcheck.tracer.tileset import load_tileset
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
from pathcheck.games.dungeon.log import SOLO_FORMAT
from pathcheck.games.dungeon.solo import SOLO_PLAYER, read_record, seed_deal, traced_dungeons
from pathcheck.solo.play import RULE_SOLO_FAIL, RULE_SOLO_PREMATURE, dungeon_failure, max_score
from pathcheck.tracer.constants import REASONS
from pathcheck.tracer.dungeon import LostReason
from pathcheck.tracer.tileset import load_tileset

MISPLACED = REASONS.index(LostReason.MISPLACED.value)


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every tile of a ``solo/1`` record marked; RecordError if the record is malformed."""
    read = read_record(log, source)
    record = read.record
    seed_deal(record)  # a seed code that cannot be read makes the record invalid, as ruled
    tokens = read.tokens
    moves: list[AnalysedMove] = []
    previous_held = False  # whether the dungeon before the current one held to its end
    score: int | None = None
    count = len(read.starts) - 1
    for d, (start, stop, lost, code, _) in enumerate(
            traced_dungeons(read, record.tileset or load_tileset()), 1):
        lost_at = lost or None
        if score is None and (failure := dungeon_failure(d, count, stop - start, lost_at,
                                                          code == MISPLACED)) is not None:
            score = start + failure[1] - 1  # the tiles before the failing one
        for i in range(1, stop - start + 1):
            if d == 1 and i == 1:
                continue  # START lies in the middle: not a move
            moves.append(_move(d, i, tokens[start + i - 1], previous_held, lost_at, code))
        previous_held = lost_at is None
    points = max_score(len(tokens), record.rules) if score is None else score
    return make_analysis("dungeon", SOLO_FORMAT, source, (SOLO_PLAYER,), moves,
                         {SOLO_PLAYER: points}, ())


def _move(d: int, i: int, token: str, previous_held: bool, lost_at: int | None,
          code: int) -> AnalysedMove:
    """Tile ``i`` of dungeon ``d`` (``token``: ``ID@DIR``) marked."""
    pointer = f"/dungeons/{d - 1}/{i - 1}"  # indices: nothing to escape
    if i == 1:
        did = f"lays {token} as a new dungeon"
        if previous_held:
            return AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d - 1} holds",
                                "go on with it", Mark.SLIP, "premature: the dungeon held",
                                None, RULE_SOLO_PREMATURE, pointer, 1.0, 1.0, "blunder")
        return AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d - 1} is Lost", "a new dungeon",
                            Mark.SOUND, "the dungeon was Lost", None, RULE_SOLO_FAIL, pointer, 0.0,
                            1.0)
    did = f"lays {token}"
    if lost_at is not None and lost_at < i:
        return AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d} is Lost since its tile "
                            f"{lost_at} ({REASONS[code]})", "a new dungeon", Mark.SLIP,
                            "late: the dungeon was already Lost", None, RULE_SOLO_FAIL,
                            pointer, 1.0, 1.0, "blunder", lost_at and i - lost_at)
    if lost_at == i and code == MISPLACED:
        return AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d} holds",
                            "lay it in line with the last-taken path", Mark.SLIP, "misplaced",
                            None, RULE_SOLO_FAIL, pointer, 1.0, 1.0, "blunder")
    return AnalysedMove(d, i, SOLO_PLAYER, did, f"dungeon {d} holds", "as played", Mark.SOUND,
                        "in line with the last-taken path", None, None, pointer, 0.0, 1.0)
