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
from functools import cache
from typing import Any, NamedTuple

import msgspec

from pathcheck.analysis.core import (
    AnalysedMove,
    GameAnalysis,
    Mark,
    make_analysis,
    player_summary,
)
from pathcheck.games.dungeon.log import SOLO_FORMAT
from pathcheck.games.dungeon.solo import SOLO_PLAYER, read_record, seed_deal, traced_dungeons
from pathcheck.solo.play import RULE_SOLO_FAIL, RULE_SOLO_PREMATURE, dungeon_failure, max_score
from pathcheck.tracer.constants import REASONS
from pathcheck.tracer.dungeon import LostReason
from pathcheck.tracer.tileset import load_tileset

MISPLACED = REASONS.index(LostReason.MISPLACED.value)


def analyse(log: Mapping[str, Any], *, source: str, for_json: bool = False) -> GameAnalysis:
    """Every tile of a ``solo/1`` record marked; RecordError if the record is malformed.

    ``for_json``: the analysis is only to be encoded (``to_json``): its moves come as the
    JSON array msgspec would write of them (a :class:`msgspec.Raw` in ``moves``, see
    :func:`_written`), the same bytes without a value made for each tile."""
    read = read_record(log, source)
    record = read.record
    seed_deal(record)  # a seed code that cannot be read makes the record invalid, as ruled
    tokens = read.tokens
    tiles: list[tuple[int, int, str, bool, int | None, int]] = []
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
            tiles.append((d, i, tokens[start + i - 1], previous_held, lost_at, code))
        previous_held = lost_at is None
    points = max_score(len(tokens), record.rules) if score is None else score
    if for_json:
        return _written(tiles, source, points)
    return make_analysis("dungeon", SOLO_FORMAT, source, (SOLO_PLAYER,),
                         [_move(*tile) for tile in tiles], {SOLO_PLAYER: points}, ())


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


def _written(tiles: list[tuple[int, int, str, bool, int | None, int]], source: str,
             points: int) -> GameAnalysis:
    """The analysis of :func:`analyse` with its moves written as JSON: each tile's move as
    msgspec encodes :func:`_move`'s (tests/analysis/test_dungeon_solo_json.py compares the
    bytes), the summary from the counts (every move is at stake, each slip costs its point)."""
    words = _words()
    moves: list[bytes] = []
    slips = 0
    for d, i, token, previous_held, lost_at, code in tiles:
        head = b'{"round":%d,"index":%d,"player":%s,"did":' % (d, i, words.player)
        pointer = b',"pointer":"/dungeons/%d/%d"' % (d - 1, i - 1)
        if i == 1:
            did = _did(token, True)
            if previous_held:
                slips += 1
                moves.append(b'%s%s,"knew":"dungeon %d holds"%s%s%s' % (
                    head, did, d - 1, words.premature, pointer, words.blunder))
            else:
                moves.append(b'%s%s,"knew":"dungeon %d is Lost"%s%s%s' % (
                    head, did, d - 1, words.new_dungeon, pointer, words.sound))
            continue
        did = _did(token, False)
        if lost_at is not None and lost_at < i:
            slips += 1
            moves.append(b'%s%s,"knew":"dungeon %d is Lost since its tile %d (%s)"%s%s%s%d}' % (
                head, did, d, lost_at, words.reasons[code], words.late, pointer,
                words.blunder_age, i - lost_at))
        elif lost_at == i and code == MISPLACED:
            slips += 1
            moves.append(b'%s%s,"knew":"dungeon %d holds"%s%s%s' % (
                head, did, d, words.misplaced, pointer, words.blunder))
        else:
            moves.append(b'%s%s,"knew":"dungeon %d holds"%s%s%s' % (
                head, did, d, words.as_played, pointer, words.sound))
    stake = float(len(tiles))
    summary = player_summary(SOLO_PLAYER, slips, 0, len(tiles) - slips, 0, float(slips), stake,
                             points, False)
    written: Any = msgspec.Raw(b"[" + b",".join(moves) + b"]")  # see analyse's docstring
    return GameAnalysis(game="dungeon", format=SOLO_FORMAT, source=source,
                        players=(SOLO_PLAYER,), moves=written, summaries=(summary,),
                        winners=(), final_scores={SOLO_PLAYER: points})


class _Words(NamedTuple):
    """The constant parts of a solo move's JSON, each as msgspec encodes it."""

    player: bytes
    reasons: tuple[bytes, ...]
    """Each Lost reason's text, escaped for a JSON string (without quotes)."""
    premature: bytes
    new_dungeon: bytes
    late: bytes
    misplaced: bytes
    as_played: bytes
    blunder: bytes
    """A slip's end after its pointer: cost, value, grade, no age."""
    blunder_age: bytes
    """A late slip's end after its pointer, up to its age."""
    sound: bytes
    """A sound move's end after its pointer."""


@cache
def _words() -> _Words:
    def enc(value: object) -> bytes:
        return msgspec.json.encode(value)

    def between(best: str, mark: Mark, why: str, rule: object) -> bytes:
        return b',"best":%s,"mark":%s,"why":%s,"chance":null,"rule":%s' % (
            enc(best), enc(mark), enc(why), enc(rule))

    return _Words(
        player=enc(SOLO_PLAYER),
        reasons=tuple(enc(reason)[1:-1] for reason in REASONS),
        premature=between("go on with it", Mark.SLIP, "premature: the dungeon held",
                          RULE_SOLO_PREMATURE),
        new_dungeon=between("a new dungeon", Mark.SOUND, "the dungeon was Lost", RULE_SOLO_FAIL),
        late=between("a new dungeon", Mark.SLIP, "late: the dungeon was already Lost",
                     RULE_SOLO_FAIL),
        misplaced=between("lay it in line with the last-taken path", Mark.SLIP, "misplaced",
                          RULE_SOLO_FAIL),
        as_played=between("as played", Mark.SOUND, "in line with the last-taken path", None),
        blunder=b',"cost":1.0,"value":1.0,"grade":"blunder","age":null}',
        blunder_age=b',"cost":1.0,"value":1.0,"grade":"blunder","age":',
        sound=b',"cost":0.0,"value":1.0,"grade":null,"age":null}',
    )


_DIDS: dict[tuple[str, bool], bytes] = {}
"""``"lays TOKEN[ as a new dungeon]"`` as msgspec encodes it, by token (a tile set's few
hundred placements; cleared past 4,096 when tile sets vary)."""


def _did(token: str, new: bool) -> bytes:
    found = _DIDS.get((token, new))
    if found is None:
        if len(_DIDS) > 4096:
            _DIDS.clear()
        found = _DIDS[token, new] = msgspec.json.encode(
            f"lays {token} as a new dungeon" if new else f"lays {token}")
    return found
