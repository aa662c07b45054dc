"""Ruling on a ``solo/1`` record of dungeon in memory (spec section 5).

A record in the standard tile set is read here in one pass over its typed form; any other
(and every malformed one) by :func:`pathcheck.inputs.records.parse_solo_record`, which words the
errors. This module checks that the dungeons together are the whole tile set with START first,
runs the solo check (the decisions of :func:`pathcheck.solo.check_solo`, on the fast tracer's
tables, in C when the extension is built, without the layouts a ruling never shows) and turns
it into a :class:`~pathcheck.ruling.Ruling`: one round per dungeon, the first failure
(``misplaced``, ``late``, ``premature``) as a violation pointing at its tile, and the score
with the +4 per additional rule.

>>> from pathcheck.solo.play import answer_key
>>> from pathcheck.tracer.tileset import load_tileset
>>> deck = load_tileset().ids_for(advanced=True)
>>> key = answer_key(deck, rules=())
>>> record = {"format": "solo/1", "dungeons": [
...     [{"tile": p.tile, "dir": p.dir.name} for p in d.placements] for d in key]}
>>> ruling = rule_solo(record, source="doc")
>>> ruling.outcome.value, ruling.final_scores
('legal', {'solo': 38})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, lru_cache
from itertools import accumulate, chain, pairwise
from typing import Any, Literal, NamedTuple

from msgspec import UNSET

from pathcheck.errors import InputError, RecordError, pointer_join
from pathcheck.facts import FirstTileFact, SeedRulesFact
from pathcheck.games.common import Pictures
from pathcheck.games.dungeon.at import take_solo_pictures
from pathcheck.games.dungeon.log import (
    SOLO_FORMAT,
    SOLO_RECORD,
    PlacementEntry,
    SoloEntry,
    read_solo,
)
from pathcheck.games.dungeon.rules import GAME, SOLO_ALL_TILES, SOLO_SEED, rules_text
from pathcheck.inputs.records import SoloRecord
from pathcheck.reading.bounded import MAX_TILESET_TILES
from pathcheck.render import words
from pathcheck.ruling import (
    Event,
    MoveRef,
    Round,
    Rule,
    Ruling,
    SeedTileFact,
    SoloDungeonFact,
    SoloFailureFact,
    SoloTilesFact,
    Violation,
)
from pathcheck.solo.play import RULE_SOLO_SCORE, SoloFailure, dungeon_failure, max_score
from pathcheck.tracer.constants import MISPLACED, REASONS, tracing_mask
from pathcheck.tracer.dungeon import LostReason, Placement, trace
from pathcheck.tracer.fast import compile_tileset, trace_indices
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.tileset import TileSet, load_tileset

SOLO_PLAYER = "solo"
"""The one name in a solo ruling's scores."""


class SoloRead(NamedTuple):
    """A record as read, with what the ruling takes of its placements, all dungeons in one
    run (dungeon ``d`` is ``[starts[d]:starts[d + 1]]``): tile indices in the compiled tile
    set, directions and tokens ``ID@DIR``."""

    record: SoloRecord
    starts: list[int]
    tiles: tuple[int, ...]
    dirs: tuple[int, ...]
    tokens: tuple[str, ...]


_Known = tuple[Placement, int, int, str]


@cache
def _standard_placements() -> dict[PlacementEntry, _Known]:
    """Every placement of the standard tile set as read (frozen structs hash by value): the
    placement (a value too: one instance serves every record), its tile index, its direction
    and its token ``ID@DIR``."""
    tileset = load_tileset()
    index = compile_tileset(tileset).index
    letters: tuple[Literal["N", "E", "S", "W"], ...] = ("N", "E", "S", "W")
    return {PlacementEntry(tile.id, letter):
            (Placement(tile.id, Direction[letter]), index[tile.id], int(Direction[letter]),
             f"{tile.id}@{letter}")
            for tile in tileset for letter in letters}


def _starts(lengths: Iterable[int]) -> list[int]:
    """Where each dungeon starts in the run of all placements, and where the run ends."""
    return [0, *accumulate(lengths)]


def _read_standard(log: Mapping[str, Any], source: str) -> SoloRead | None:
    """The common case in one pass over the typed record: the standard tile set, every tile
    known and placed once, rules given once each and stated (or no seed to take them from).
    None for anything else: :func:`~pathcheck.games.dungeon.log.read_solo` reads it (and
    words every error) as before."""
    return _read_entry(SOLO_RECORD.read(log, source=source), "rules" in log, source)


def _read_entry(entry: SoloEntry, stated: bool, source: str) -> SoloRead | None:
    """:func:`_read_standard` on the record as msgspec read it (``stated``: its ``rules``
    were written)."""
    if entry.tileset is not UNSET or not (stated or entry.seed is UNSET) \
            or len(set(entry.rules)) != len(entry.rules):
        return None
    if max(map(len, entry.dungeons)) > MAX_TILESET_TILES:
        return None
    starts = _starts(map(len, entry.dungeons))
    try:
        placements, tiles, dirs, tokens = zip(
            *map(_standard_placements().__getitem__, chain.from_iterable(entry.dungeons)),
            strict=True)
    except KeyError:  # not a tile of the standard set
        return None
    if len(set(tiles)) != len(tiles):  # a tile placed twice
        return None
    dungeons = tuple([placements[a:b] for a, b in pairwise(starts)])
    record = SoloRecord(dungeons, frozenset(entry.rules),
                        None if entry.seed is UNSET else entry.seed, load_tileset(), source, 0,
                        "", stated)
    return SoloRead(record, starts, tiles, dirs, tokens)


def read_record(log: Mapping[str, Any], source: str) -> SoloRead:
    """Read a ``solo/1`` record; RecordError (line None) if malformed."""
    fast = _read_standard(log, source)
    if fast is not None:
        return fast
    record = read_solo(log, source=source)
    index = compile_tileset(record.tileset or load_tileset()).index
    every = tuple(chain.from_iterable(record.dungeons))
    return SoloRead(record, _starts(map(len, record.dungeons)),
                 tuple(index[p.tile] for p in every), tuple(int(p.dir) for p in every),
                 tuple(str(p) for p in every))


def _tile_pointer(record: SoloRecord, tile: int) -> tuple[int, int, str]:
    """Dungeon (1-based), index in it (1-based) and pointer of the ``tile``-th tile overall."""
    before = 0
    for d, dungeon in enumerate(record.dungeons, start=1):
        if tile <= before + len(dungeon):
            index = tile - before
            return d, index, pointer_join("/dungeons", d - 1, index - 1)
        before += len(dungeon)
    return len(record.dungeons), 0, "/dungeons"


_EVERY_TILE: dict[int, tuple[TileSet, list[str]]] = {}


def _every_tile(tileset: TileSet) -> list[str]:
    """The ids a solo game stacks (the whole set), listed once per tile set; looked up by
    identity (hashing a tile set hashes every tile)."""
    hit = _EVERY_TILE.get(id(tileset))
    if hit is None or hit[0] is not tileset:
        hit = _EVERY_TILE[id(tileset)] = (tileset, tileset.ids_for(advanced=True))
    return hit[1]


def completeness(record: SoloRecord) -> list[Violation]:
    """Violations of "all the tiles, START first": the solo game stacks the whole set."""
    tileset = record.tileset or load_tileset()
    first = record.dungeons[0][0].tile
    out: list[Violation] = []
    if first != tileset.start:
        out.append(Violation(SOLO_ALL_TILES, MoveRef(round=1, index=1,
                                                     pointer="/dungeons/0/0/tile"),
                             f"the first tile is {first}; the solo game starts with "
                             f"{tileset.start}", FirstTileFact(first, tileset.start)))
    every = _every_tile(tileset)
    count = sum(map(len, record.dungeons))
    # A read record places known tiles once each: only fewer tiles than the set miss some.
    if count < len(every):
        placed = set(record.tile_ids)
        missing = [t for t in every if t not in placed]
        out.append(Violation(SOLO_ALL_TILES, MoveRef(pointer="/dungeons"),
                             f"{count} tiles placed; the solo game places all "
                             f"{len(every)}: missing "
                             f"{', '.join(missing)}", SoloTilesFact(count, tuple(missing)),
                             unfinished=True))
    return out


@lru_cache(maxsize=256)
def _seed_deal(seed: str) -> tuple[frozenset[int], tuple[str, ...]]:
    """The rules and the stack (START first) of a seed code, dealt once per code (a batch of
    records often plays the same challenge); InputError if it cannot be read."""
    from pathcheck.solo.seed_codes import SeedCode

    code = SeedCode.parse(seed)
    return code.rules, tuple(code.deck)


def seed_deal(record: SoloRecord) -> tuple[frozenset[int], tuple[str, ...]] | None:
    """The rules and the stack of the record's seed code (None: it names none); a seed code
    that cannot be read is a RecordError at ``/seed``, for every command that reads the
    record (``adjudicate`` and ``analyse`` alike)."""
    if record.seed is None:
        return None
    try:
        return _seed_deal(record.seed)
    except InputError as exc:
        raise RecordError(record.source, None, "/seed", str(exc)) from None


def seed_check(record: SoloRecord) -> list[Violation]:
    """Violations of the record's seed code: its rules and its deck order (START first).

    A seed code that cannot be read is a RecordError at ``/seed``.
    """
    dealt = seed_deal(record)
    if dealt is None or record.seed is None:
        return []
    from pathcheck.solo.challenge import first_deck_difference

    rules, deck = dealt
    out: list[Violation] = []
    if rules != record.rules:
        out.append(Violation(SOLO_SEED, MoveRef(pointer="/rules"),
                             f"seed {record.seed} plays with additional rules "
                             f"{rules_text(rules)}; the record with {rules_text(record.rules)}",
                             SeedRulesFact(record.seed, tuple(sorted(rules)),
                                           tuple(sorted(record.rules)))))
    diff = first_deck_difference(list(deck), record)
    if diff is not None and diff.want is not None and diff.got is not None:
        pointer = pointer_join("/dungeons", diff.dungeon - 1, diff.index - 1, "tile")
        out.append(Violation(SOLO_SEED, MoveRef(round=diff.dungeon, index=diff.index,
                                                pointer=pointer),
                             f"tile {diff.position} of seed {record.seed} is {diff.want}, "
                             f"not {diff.got}",
                             fact=SeedTileFact(diff.position, str(record.seed), diff.want,
                                               diff.got)))
    return out


def _stack_order(violation: Violation) -> tuple[int, int]:
    """Violations in stack order: the rules first, then by tile, missing tiles last."""
    move = violation.move
    if move.round is None:
        return (0, 0) if move.pointer == "/rules" else (1 << 30, 0)
    return move.round, move.index or 0


class _Traced(NamedTuple):
    """What a ruling needs of one traced dungeon: where and why it got Lost (None: it held)
    and the last movement (a first Repeat tile of the next dungeon repeats it)."""

    lost_at: int | None
    reason: LostReason | None
    why: str
    """The reason's value ("" if it held)."""
    rule: Rule | None
    last_movement: int


class _Check(NamedTuple):
    """:func:`pathcheck.solo.check_solo`'s result without the layouts a ruling never shows
    (the tests compare both)."""

    traces: list[_Traced]
    failure: SoloFailure | None
    failing_tile: int | None
    failing_dungeon: int | None
    score: int
    max_score: int


_TRACED = tuple(None if name is None else LostReason(name) for name in REASONS)
_WHY = tuple("" if reason is None else reason.value for reason in _TRACED)
_RULES = tuple(None if reason is None else reason.rule for reason in _TRACED)
_BY_RULES: dict[frozenset[int], tuple[int, int, str]] = {}


def _by_rules(rules: frozenset[int]) -> tuple[int, int, str]:
    """The tracer's mask of ``rules``, their bonus points and the score note's words on them
    (made once per rule set)."""
    found = _BY_RULES.get(rules)
    if found is None:
        bonus = "" if not rules else \
            f", +4 for each additional rule ({', '.join(f'#{r}' for r in sorted(rules))})"
        found = _BY_RULES[rules] = (tracing_mask(rules), max_score(0, rules), bonus)
    return found


CTrace = Callable[[object, tuple[int, ...], tuple[int, ...], int, int, int, int],
                  tuple[int, int, int] | None]


@cache
def _c_tracer() -> tuple[CTrace, object] | None:
    """The C tracer of one dungeon and its tables of the standard tile set, or None without
    the extension (:mod:`pathcheck._speedups` is optional)."""
    from pathcheck import speedups

    if not speedups.available():
        return None
    return speedups._speedups.trace_dungeon, speedups._tables()


def traced_dungeons(read: SoloRead, tileset: TileSet
                    ) -> Iterator[tuple[int, int, int, int, int]]:
    """Each dungeon of a record traced in order: (its first tile's index in the stack, the
    index after its last, its Lost point within it (0: it held), the reason code, the last
    movement), in C for
    the standard tile set when the extension is there (it answers as
    :func:`~pathcheck.tracer.fast.trace_indices`), else with the fast tracer. The check and the
    analysis (:mod:`pathcheck.analysis.dungeon_solo`) read the record through this."""
    c = _c_tracer() if tileset is load_tileset() else None
    trace_c, tables = c if c is not None else (None, None)
    mask = _by_rules(read.record.rules)[0]
    tiles, dirs, starts = read.tiles, read.dirs, read.starts
    movement = 0
    for number in range(1, len(starts)):
        start, stop = starts[number - 1], starts[number]
        traced = None if trace_c is None else \
            trace_c(tables, tiles, dirs, start, stop, mask, movement)
        if traced is None:
            lost_at, code, _, movement = trace_indices(
                compile_tileset(tileset), tiles[start:stop], dirs[start:stop], mask, movement)
        else:
            lost_at, code, movement = traced
        yield start, stop, lost_at, code, movement


def _check(read: SoloRead, tileset: TileSet) -> _Check:
    """The solo check of a record (spec section 5): its dungeons traced in order
    (:func:`traced_dungeons`) up to the first failure."""
    points = _by_rules(read.record.rules)[1]
    tiles, starts = read.tiles, read.starts
    count = len(starts) - 1
    best = len(tiles) + points  # pathcheck.solo.max_score
    traces: list[_Traced] = []
    for number, (start, stop, lost_at, code, movement) in enumerate(
            traced_dungeons(read, tileset), 1):
        traces.append(_Traced(lost_at or None, _TRACED[code], _WHY[code], _RULES[code], movement))
        failure = dungeon_failure(number, count, stop - start, lost_at or None,
                                  code == MISPLACED)
        if failure is not None:
            kind, at = failure
            failing = start + at
            return _Check(traces, kind, failing,
                          number + 1 if kind is SoloFailure.PREMATURE else number,
                          failing - 1, best)
    return _Check(traces, None, None, None, best, best)


def _failure_violation(record: SoloRecord, result: _Check) -> Violation | None:
    if result.failure is None or result.failing_tile is None:
        return None
    d, index, pointer = _tile_pointer(record, result.failing_tile)
    placement = record.dungeons[d - 1][index - 1]
    text = {
        SoloFailure.MISPLACED: f"{placement} is placed against the heading (misplaced)",
        SoloFailure.LATE: (f"{placement} is placed on dungeon {d}, which was already Lost at "
                           f"tile {index - 1} of it: a new dungeon was due (late)"),
        SoloFailure.PREMATURE: (f"{placement} starts dungeon {d} while dungeon {d - 1} was not "
                                "Lost (premature)"),
    }[result.failure]
    return Violation(result.failure.rule, MoveRef(round=d, index=index, pointer=pointer),
                     f"tile {result.failing_tile} of the stack: {text}; the score counts the "
                     f"{result.score} tile{'' if result.score == 1 else 's'} before it",
                     fact=SoloFailureFact(result.failing_tile, d, str(placement),
                                          result.failure.value, result.score))


def rule_solo(log: Mapping[str, Any], *, source: str, pictures: Pictures | None = None) -> Ruling:
    """Check a ``solo/1`` record and rule on it; ``pictures`` collects dungeon R after its
    tile T for the moments it wants."""
    return rule_read(read_record(log, source), source=source, pictures=pictures)


def rule_read(read: SoloRead, *, source: str, pictures: Pictures | None = None) -> Ruling:
    """:func:`rule_solo` on a record :func:`read_record` has read (the plain reference of
    :mod:`~pathcheck.games.dungeon.solo_fast`)."""
    record = read.record
    tileset = record.tileset or load_tileset()
    result = _check(read, tileset)
    if pictures is not None and pictures.want is not None:
        movements = [Move.STRAIGHT, *(Move(t.last_movement) for t in result.traces)]
        # Dungeons after a failing one were not traced by the check: trace them for the map.
        while len(movements) < len(record.dungeons):
            previous = trace(record.dungeons[len(movements) - 1], tileset=tileset,
                             rules=record.rules, initial_movement=movements[-1])
            movements.append(previous.last_movement)
        take_solo_pictures(pictures, record.dungeons, movements, tileset, sorted(record.rules))
    violations = seed_check(record) + completeness(record)
    failure = _failure_violation(record, result)
    if failure is not None:
        violations.append(failure)
    if len(violations) > 1:
        violations.sort(key=_stack_order)
    rounds: list[Round] = []
    tokens, starts = read.tokens, read.starts
    failing_dungeon = min(result.failing_dungeon or 0, len(result.traces))
    for d, traced in enumerate(result.traces, 1):
        start, last = starts[d - 1], starts[d]  # tiles start+1 .. last of the stack
        lost_at = traced.lost_at
        if lost_at is None:
            event = Event(f"dungeon {d} ({words.counted(last - start, 'tile')}) is never Lost",
                          fact=SoloDungeonFact(d, last - start, None, None, None, None))
        else:
            event = Event(f"dungeon {d} is Lost at its tile {lost_at} "
                          f"({tokens[start + lost_at - 1]}, tile {start + lost_at} of the "
                          f"stack): {traced.why}", rule=traced.rule,
                          fact=SoloDungeonFact(d, last - start, lost_at,
                                               str(tokens[start + lost_at - 1]),
                                               start + lost_at, str(traced.why)))
        counted = last if result.failure is None or d < (result.failing_dungeon or 0) \
            else result.score
        events = (event,) if failure is None or d != failing_dungeon else \
            (event, Event(failure.message, failure.move, failure.rule, {}, failure.fact))
        rounds.append(Round(d, f"Dungeon {d} (tiles {start + 1}-{last})", events,
                            {SOLO_PLAYER: counted}, " ".join(tokens[start:last])))
    bonus = _by_rules(record.rules)[2]
    if result.failure is None:
        score_note = (f"score {result.score} of {result.max_score}: every tile counts"
                      f"{bonus} ({RULE_SOLO_SCORE.id})")
    else:
        score_note = (f"score {result.score} of {result.max_score}: the tiles before the "
                      f"failing tile {result.failing_tile}, no bonus for additional rules "
                      f"({RULE_SOLO_SCORE.id})")
    notes = [score_note, "solo play has no winner"]
    if record.seed is not None:
        notes.append(f"seed {record.seed}")
    return Ruling(
        game=GAME,
        format=SOLO_FORMAT,
        source=source,
        players=[SOLO_PLAYER],
        rounds=rounds,
        final_scores={SOLO_PLAYER: result.score},
        winners=[],
        violations=tuple(violations),
        notes=tuple(notes),
        display=pictures.below("") if pictures is not None else "",
    )
