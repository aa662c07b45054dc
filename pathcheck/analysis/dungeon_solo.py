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

from collections.abc import Callable, Iterable, Mapping, Sequence
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
from pathcheck.games.dungeon import solo_fast
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
    traced = ((stop - start, lost, code) for start, stop, lost, code, _ in
              traced_dungeons(read, record.tileset or load_tileset()))
    return _analysed(traced, read.tokens, record.rules, source, for_json)


def analyse_raw(raw: bytes, *, source: str, for_json: bool = False) -> GameAnalysis | None:
    """:func:`analyse` of a record given as its JSON text (passed by the reader's guard), read
    as ``adjudicate`` reads it (:mod:`~pathcheck.games.dungeon.solo_fast`: decoded straight
    into its typed form, every placement read and every dungeon traced in one C call), when
    it is a record of the standard tile set with no seed code; None otherwise (and without
    the extension): the usual way then reads it, which gives the same analysis or words the
    error (tests/analysis/test_dungeon_solo_json.py compares both)."""
    found = solo_fast.trace_decoded(raw)
    if found is None:
        return None
    entry, total, traced = found
    rules = frozenset(entry.rules)
    if for_json and _solo_moves is not None:  # looked up at each call: the tests switch it off
        words = _words()
        written = _solo_moves(entry.dungeons, traced, words.templates, words.reasons,
                              MISPLACED)
        if written is not None:
            _, points = _plan([(n, lost, code) for n, lost, code, _, _ in traced], total,
                              rules)
            moves, count, slips = written
            return _encoded(moves, count, slips, source, points)
    tokens = [f"{p.tile}@{p.dir}" for dungeon in entry.dungeons for p in dungeon]
    return _analysed(((n, lost, code) for n, lost, code, _, _ in traced), tokens, rules,
                     source, for_json)


def _analysed(traced: Iterable[tuple[int, int, int]], tokens: Sequence[str],
              rules: frozenset[int], source: str, for_json: bool) -> GameAnalysis:
    """The analysis of a record from each dungeon's length, Lost point (0: it held) and
    reason code, in order, and every tile's ``ID@DIR``."""
    dungeons, points = _plan(list(traced), len(tokens), rules)
    if for_json:
        return _written(dungeons, tokens, source, points)
    moves = [_move(d, i, tokens[start + i - 1], held, lost_at, code)
             for d, start, stop, lost_at, code, held in dungeons
             for i in range(2 if d == 1 else 1, stop - start + 1)]  # START is no move
    return make_analysis("dungeon", SOLO_FORMAT, source, (SOLO_PLAYER,), moves,
                         {SOLO_PLAYER: points}, ())


def _plan(lengths: list[tuple[int, int, int]], tiles: int, rules: frozenset[int]
          ) -> tuple[list[tuple[int, int, int, int | None, int, bool]], int]:
    """Each dungeon as (number, first tile's index, index after its last, Lost point or None,
    reason code, whether the one before held) from its (length, Lost point, reason code), and
    the record's points (``tiles`` in all)."""
    dungeons: list[tuple[int, int, int, int | None, int, bool]] = []
    previous_held = False  # whether the dungeon before the current one held to its end
    score: int | None = None
    count = len(lengths)
    stop = 0
    for d, (length, lost, code) in enumerate(lengths, 1):
        start, stop = stop, stop + length
        lost_at = lost or None
        if score is None and (failure := dungeon_failure(d, count, length, lost_at,
                                                          code == MISPLACED)) is not None:
            score = start + failure[1] - 1  # the tiles before the failing one
        dungeons.append((d, start, stop, lost_at, code, previous_held))
        previous_held = lost_at is None
    return dungeons, max_score(tiles, rules) if score is None else score


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


def _written(dungeons: list[tuple[int, int, int, int | None, int, bool]],
             tokens: Sequence[str], source: str, points: int) -> GameAnalysis:
    """The analysis of :func:`analyse` with its moves written as JSON: each tile's move as
    msgspec encodes :func:`_move`'s, from templates of msgspec's bytes
    (tests/analysis/test_dungeon_solo_json.py compares them), the summary from the counts
    (every move is at stake, each slip costs its point)."""
    words = _words()
    moves: list[bytes] = []
    add = moves.append
    slips = 0
    for d, start, stop, lost_at, code, previous_held in dungeons:
        first = 2 if d == 1 else 1  # START is no move
        if first == 1:
            token = tokens[start]
            new = _NEW_DIDS.get(token) or _did(token, True)
            if previous_held:
                slips += 1
                add(words.premature % (d, new, d - 1, d - 1))
            else:
                add(words.new_dungeon % (d, new, d - 1, d - 1))
            first = 2
        end = stop - start if lost_at is None else min(lost_at - 1, stop - start)
        for i in range(first, end + 1):  # the tiles laid while the dungeon held
            token = tokens[start + i - 1]
            add(words.sound % (d, i, _DIDS.get(token) or _did(token, False), d, d - 1, i - 1))
        if lost_at is None:
            continue
        for i in range(max(first, lost_at), stop - start + 1):
            token = tokens[start + i - 1]
            did = _DIDS.get(token) or _did(token, False)
            if i > lost_at:
                slips += 1
                add(words.late % (d, i, did, d, lost_at, words.reasons[code], d - 1, i - 1,
                                  i - lost_at))
            elif code == MISPLACED:
                slips += 1
                add(words.misplaced % (d, i, did, d, d - 1, i - 1))
            else:
                add(words.sound % (d, i, did, d, d - 1, i - 1))
    return _encoded(b"[" + b",".join(moves) + b"]", len(moves), slips, source, points)


def _encoded(moves: bytes, count: int, slips: int, source: str, points: int) -> GameAnalysis:
    """The analysis of ``count`` moves written as the JSON array ``moves``, ``slips`` of them
    slips (every move is at stake, each slip costs its point)."""
    summary = player_summary(SOLO_PLAYER, slips, 0, count - slips, 0, float(slips),
                             float(count), points, False)
    written: Any = msgspec.Raw(moves)  # see analyse's docstring
    return GameAnalysis(game="dungeon", format=SOLO_FORMAT, source=source,
                        players=(SOLO_PLAYER,), moves=written, summaries=(summary,),
                        winners=(), final_scores={SOLO_PLAYER: points})


class _Words(NamedTuple):
    """A solo move's JSON by its case, as msgspec encodes it, with ``%`` fields for what
    varies: a new dungeon's (dungeon, did, dungeon before, pointer's dungeon); a tile's
    (dungeon, index, did, dungeon, pointer's dungeon and index), a late one's with its Lost
    point and reason before the pointer and its age last."""

    reasons: tuple[bytes, ...]
    """Each Lost reason's text, escaped for a JSON string (without quotes)."""
    premature: bytes
    new_dungeon: bytes
    late: bytes
    misplaced: bytes
    sound: bytes

    @property
    def templates(self) -> tuple[bytes, bytes, bytes, bytes, bytes]:
        """The five cases in solo_moves.c's order (SM_*)."""
        return (self.premature, self.new_dungeon, self.late, self.misplaced, self.sound)


@cache
def _words() -> _Words:
    def enc(value: object) -> bytes:
        return msgspec.json.encode(value).replace(b"%", b"%%")

    def move(round_: bytes, index: bytes, knew: bytes, best: str, mark: Mark, why: str,
             rule: object, pointer: bytes, tail: bytes) -> bytes:
        return (b'{"round":%s,"index":%s,"player":%s,"did":%%s,"knew":"%s","best":%s,'
                b'"mark":%s,"why":%s,"chance":null,"rule":%s,"pointer":"/dungeons/%s",%s}' % (
                    round_, index, enc(SOLO_PLAYER), knew, enc(best), enc(mark), enc(why),
                    enc(rule), pointer, tail))

    slip = b'"cost":1.0,"value":1.0,"grade":"blunder","age":null'
    sound = b'"cost":0.0,"value":1.0,"grade":null,"age":null'
    return _Words(
        reasons=tuple(enc(reason)[1:-1].replace(b"%%", b"%") for reason in REASONS),
        premature=move(b"%d", b"1", b"dungeon %d holds", "go on with it", Mark.SLIP,
                       "premature: the dungeon held", RULE_SOLO_PREMATURE, b"%d/0", slip),
        new_dungeon=move(b"%d", b"1", b"dungeon %d is Lost", "a new dungeon", Mark.SOUND,
                         "the dungeon was Lost", RULE_SOLO_FAIL, b"%d/0", sound),
        late=move(b"%d", b"%d", b"dungeon %d is Lost since its tile %d (%s)", "a new dungeon",
                  Mark.SLIP, "late: the dungeon was already Lost", RULE_SOLO_FAIL, b"%d/%d",
                  b'"cost":1.0,"value":1.0,"grade":"blunder","age":%d'),
        misplaced=move(b"%d", b"%d", b"dungeon %d holds",
                       "lay it in line with the last-taken path", Mark.SLIP, "misplaced",
                       RULE_SOLO_FAIL, b"%d/%d", slip),
        sound=move(b"%d", b"%d", b"dungeon %d holds", "as played", Mark.SOUND,
                   "in line with the last-taken path", None, b"%d/%d", sound),
    )


try:
    from pathcheck import _speedups

    _solo_moves: Callable[..., Any] | None = _speedups.solo_moves
except (ImportError, AttributeError):  # no C compiler at install time (or an older build)
    _solo_moves = None

_DIDS: dict[str, bytes] = {}
"""``"lays TOKEN"`` as msgspec encodes it, by token (a tile set's few hundred placements;
cleared past 4,096 when tile sets vary); :data:`_NEW_DIDS` the same ``as a new dungeon``."""
_NEW_DIDS: dict[str, bytes] = {}


def _did(token: str, new: bool) -> bytes:
    kept = _NEW_DIDS if new else _DIDS
    if len(kept) > 4096:
        kept.clear()
    found = kept[token] = msgspec.json.encode(
        f"lays {token} as a new dungeon" if new else f"lays {token}")
    return found
