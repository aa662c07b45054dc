"""Ruling on a ``solo/1`` record of dungeon in memory (spec section 5).

The record is read by :func:`pathcheck.records.parse_solo_record`; this module checks that the
dungeons together are the whole tile set with START first, runs the solo check
(:func:`pathcheck.solo.check_solo`) and turns it into a :class:`~pathcheck.ruling.Ruling`: one
round per dungeon, the first failure (``misplaced``, ``late``, ``premature``) as a violation
pointing at its tile, and the score with the +4 per additional rule.

>>> from pathcheck.solo import answer_key
>>> from pathcheck.tileset import load_tileset
>>> deck = load_tileset().ids_for(advanced=True)
>>> key = answer_key(deck, rules=())
>>> record = {"format": "solo/1", "dungeons": [
...     [{"tile": p.tile, "dir": p.dir.name} for p in d.placements] for d in key]}
>>> ruling = rule_solo(record, source="doc")
>>> ruling.outcome.value, ruling.final_scores
('legal', {'solo': 38})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pathcheck.dungeon import trace
from pathcheck.errors import InputError, RecordError, pointer_join
from pathcheck.games.common import Pictures
from pathcheck.games.dungeon.at import take_solo_pictures
from pathcheck.games.dungeon.log import SOLO_FORMAT, read_solo
from pathcheck.games.dungeon.rules import GAME, SOLO_ALL_TILES, SOLO_SEED
from pathcheck.geometry import Move
from pathcheck.records import SoloRecord
from pathcheck.ruling import Event, MoveRef, Round, Ruling, Violation
from pathcheck.solo import RULE_SOLO_SCORE, SoloFailure, SoloResult, check_solo
from pathcheck.tileset import load_tileset

SOLO_PLAYER = "solo"
"""The one name in a solo ruling's scores."""


def _tile_pointer(record: SoloRecord, tile: int) -> tuple[int, int, str]:
    """Dungeon (1-based), index in it (1-based) and pointer of the ``tile``-th tile overall."""
    before = 0
    for d, dungeon in enumerate(record.dungeons, start=1):
        if tile <= before + len(dungeon):
            index = tile - before
            return d, index, pointer_join("/dungeons", d - 1, index - 1)
        before += len(dungeon)
    return len(record.dungeons), 0, "/dungeons"


def completeness(record: SoloRecord) -> list[Violation]:
    """Violations of "all the tiles, START first": the solo game stacks the whole set."""
    tileset = record.tileset or load_tileset()
    ids = record.tile_ids
    out: list[Violation] = []
    if ids[0] != tileset.start:
        out.append(Violation(SOLO_ALL_TILES, MoveRef(1, None, 1, "/dungeons/0/0/tile"),
                             f"the first tile is {ids[0]}; the solo game starts with "
                             f"{tileset.start}"))
    missing = [t for t in tileset.ids_for(advanced=True) if t not in set(ids)]
    if missing:
        out.append(Violation(SOLO_ALL_TILES, MoveRef(pointer="/dungeons"),
                             f"{len(ids)} tiles placed; the solo game places all "
                             f"{len(tileset.ids_for(advanced=True))}: missing "
                             f"{', '.join(missing)}", unfinished=True))
    return out


def seed_check(record: SoloRecord) -> list[Violation]:
    """Violations of the record's seed code: its rules and its deck order (START first).

    A seed code that cannot be read is a RecordError at ``/seed``.
    """
    if record.seed is None:
        return []
    from pathcheck.seeds import SeedCode
    from pathcheck.solo_check import first_deck_difference

    try:
        code = SeedCode.parse(record.seed)
    except InputError as exc:
        raise RecordError(record.source, None, "/seed", str(exc)) from None
    out: list[Violation] = []
    if code.rules != record.rules:
        wanted = ", ".join(f"#{r}" for r in sorted(code.rules)) or "none"
        out.append(Violation(SOLO_SEED, MoveRef(pointer="/rules"),
                             f"seed {record.seed} plays with additional rules {wanted}"))
    diff = first_deck_difference(code.deck, record)
    if diff is not None and diff.want is not None and diff.got is not None:
        pointer = pointer_join("/dungeons", diff.dungeon - 1, diff.index - 1, "tile")
        out.append(Violation(SOLO_SEED, MoveRef(diff.index, None, diff.dungeon, pointer),
                             f"tile {diff.position} of seed {record.seed} is {diff.want}, "
                             f"not {diff.got}"))
    return out


def _stack_order(violation: Violation) -> tuple[int, int]:
    """Violations in stack order: the rules first, then by tile, missing tiles last."""
    move = violation.move
    if move.round is None:
        return (0, 0) if move.pointer == "/rules" else (1 << 30, 0)
    return move.round, move.index or 0


def _failure_violation(record: SoloRecord, result: SoloResult) -> Violation | None:
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
    return Violation(result.failure.rule, MoveRef(index, None, d, pointer),
                     f"tile {result.failing_tile} of the stack: {text}; the score counts the "
                     f"{result.score} tile{'' if result.score == 1 else 's'} before it")


def rule_solo(log: Mapping[str, Any], *, source: str, pictures: Pictures | None = None) -> Ruling:
    """Check a ``solo/1`` record and rule on it; ``pictures`` collects dungeon R after its
    tile T for the moments it wants."""
    record = read_solo(log, source=source)
    tileset = record.tileset or load_tileset()
    result = check_solo(record.dungeons, rules=record.rules, tileset=tileset)
    if pictures is not None and pictures.want is not None:
        movements = [Move.STRAIGHT, *(t.last_movement for t in result.traces)]
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
    violations.sort(key=_stack_order)
    rounds: list[Round] = []
    first = 1
    for d, (dungeon, traced) in enumerate(zip(record.dungeons, result.traces, strict=False), 1):
        last = first + len(dungeon) - 1
        events: list[Event] = []
        if traced.lost_at is None:
            events.append(Event(f"dungeon {d} ({len(dungeon)} tiles) is never Lost"))
        else:
            reason = "" if traced.reason is None else traced.reason.value
            events.append(Event(
                f"dungeon {d} is Lost at its tile {traced.lost_at} "
                f"({dungeon[traced.lost_at - 1]}, tile {first + traced.lost_at - 1} of the "
                f"stack): {reason}", rule=traced.rule))
        counted = last if result.failure is None or d < (result.failing_dungeon or 0) \
            else result.score
        if failure is not None and d == min(result.failing_dungeon or 0, len(result.traces)):
            events.append(Event(failure.message, failure.move, failure.rule))
        rounds.append(Round(d, f"Dungeon {d} (tiles {first}-{last})", tuple(events),
                            {SOLO_PLAYER: counted},
                            " ".join(str(p) for p in dungeon)))
        first = last + 1
    bonus = "" if not record.rules else \
        f", +4 for each additional rule ({', '.join(f'#{r}' for r in sorted(record.rules))})"
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
