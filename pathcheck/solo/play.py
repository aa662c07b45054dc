"""Solo play: checking a solo record and perfect play (spec section 5).

A solo game stacks all 38 tiles: START first, then the deck in order. Each dungeon after the
first starts with the tile after the previous dungeon's Lost point. The check stops at the
first failure (``misplaced``, ``late`` or ``premature``) and scores the tiles placed before it.

>>> from pathcheck.tracer.dungeon import parse_notation
>>> dungeons = [parse_notation("START@N L4@E"), parse_notation("I1@N")]
>>> result = check_solo(dungeons, rules=())
>>> result.failure.value, result.failing_tile, result.score
('misplaced', 2, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pathcheck.ruling import Rule
from pathcheck.tracer.constants import tracing_mask
from pathcheck.tracer.dungeon import LostReason, Placement, TraceResult, trace
from pathcheck.tracer.fast import compile_tileset, trace_indices
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.tileset import TileSet, load_tileset

SOLO_RULES = frozenset({2, 3, 4})
"""Additional rules allowed in solo play (not #1)."""
RULE_BONUS = 4
"""Points added per additional rule, with no failure."""

RULE_SOLO_FAIL = Rule(
    "solo/fail", "Solo Variant",
    "You fail if you \"placed a tile in an incorrect orientation (misplaced a tile)\" or "
    "\"did not create a new dungeon immediately after getting Lost\".")
RULE_SOLO_PREMATURE = Rule(
    "solo/premature", "Solo Variant (Decision: premature new dungeon)",
    "If you think you are \"Lost\", take a tile from the top of the deck and place it face up "
    "next to the Dungeon. Then continue the exploration using this tile as the start of another "
    "Dungeon.")
RULE_SOLO_SCORE = Rule(
    "solo/score", "Solo Variant",
    "Count the number of tiles used up to that point (including the Start tile) as your score. "
    "... For each additional ruleset, add 4 pt, adding up to the maximum score of 50 pt.")


class SoloFailure(enum.Enum):
    MISPLACED = "misplaced"
    """A tile placed against the heading."""
    LATE = "late"
    """A tile placed on a dungeon that was already Lost."""
    PREMATURE = "premature"
    """A new dungeon started while the current one was not Lost."""

    @property
    def rule(self) -> Rule:
        return RULE_SOLO_PREMATURE if self is SoloFailure.PREMATURE else RULE_SOLO_FAIL


@dataclass(frozen=True)
class SoloResult:
    """The check of a solo record.

    ``traces`` has one trace per dungeon checked (up to the failing one). ``failing_tile`` is
    the 1-based index of the failing tile in the whole stack, ``failing_dungeon`` and
    ``failing_index`` its dungeon (1-based) and index within it.
    """

    traces: tuple[TraceResult, ...]
    failure: SoloFailure | None
    failing_tile: int | None
    failing_dungeon: int | None
    failing_index: int | None
    score: int
    max_score: int
    tiles_played: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "failure": None if self.failure is None else self.failure.value,
            "failing_tile": self.failing_tile,
            "failing_dungeon": self.failing_dungeon,
            "failing_index": self.failing_index,
            "score": self.score,
            "max_score": self.max_score,
            "tiles_played": self.tiles_played,
            "dungeons": [t.to_dict() for t in self.traces],
        }


def max_score(tile_count: int, rules: Iterable[int]) -> int:
    return tile_count + RULE_BONUS * len(set(rules) & SOLO_RULES)


def dungeon_failure(
    number: int, count: int, length: int, lost_at: int | None, misplaced: bool
) -> tuple[SoloFailure, int] | None:
    """The failure of dungeon ``number`` of ``count`` (``length`` tiles, Lost at its tile
    ``lost_at``, ``misplaced`` if that is why) and the 1-based index of the failing tile
    counted from the dungeon's first tile; None if it is played right.

    >>> dungeon_failure(1, 2, 5, None, False)  # held, yet a new dungeon was started
    (<SoloFailure.PREMATURE: 'premature'>, 6)
    >>> dungeon_failure(2, 2, 5, 3, False)  # Lost at its tile 3, tiles 4 and 5 placed on it
    (<SoloFailure.LATE: 'late'>, 4)
    """
    if misplaced:
        return SoloFailure.MISPLACED, lost_at or 0
    if lost_at is not None and lost_at < length:
        return SoloFailure.LATE, lost_at + 1
    if lost_at is None and number < count:
        # The next dungeon's first tile started a dungeon while this one still held.
        return SoloFailure.PREMATURE, length + 1
    return None


def check_solo(
    dungeons: Sequence[Sequence[Placement]],
    *,
    rules: Iterable[int],
    tileset: TileSet | None = None,
    with_passes: bool = False,
) -> SoloResult:
    """Check a solo record's dungeons in order and score them (spec section 5)."""
    rule_set = frozenset(rules)
    total = sum(len(d) for d in dungeons)
    best = max_score(total, rule_set)
    traces: list[TraceResult] = []
    before = 0  # tiles placed before the current dungeon
    movement = Move.STRAIGHT
    for number, dungeon in enumerate(dungeons, start=1):
        result = trace(dungeon, tileset=tileset, rules=rule_set, initial_movement=movement,
                       with_passes=with_passes)
        traces.append(result)
        failure = dungeon_failure(number, len(dungeons), len(dungeon), result.lost_at,
                                  result.reason is LostReason.MISPLACED)
        if failure is not None:
            kind, index = failure
            if kind is SoloFailure.PREMATURE:
                dungeon_no, in_dungeon = number + 1, 1
            else:
                dungeon_no, in_dungeon = number, index
            failing = before + index
            return SoloResult(tuple(traces), kind, failing, dungeon_no, in_dungeon,
                              failing - 1, best, total)
        before += len(dungeon)
        movement = result.last_movement
    return SoloResult(tuple(traces), None, None, None, None, best, best, total)


@dataclass(frozen=True)
class KeyDungeon:
    """One dungeon of an answer key: its placements and where and why it got Lost."""

    placements: tuple[Placement, ...]
    trace: TraceResult


def answer_key(
    deck: Sequence[str], *, rules: Iterable[int], tileset: TileSet | None = None
) -> list[KeyDungeon]:
    """Perfect play of the stack ``deck`` (START first): every tile along the heading, a new
    dungeon on the tile right after each Lost point. A new dungeon's first tile points north
    (**Decision**: its direction is free; the answer key fixes it so keys compare equal).
    """
    ts = tileset or load_tileset()
    compiled = compile_tileset(ts)
    indices = [compiled.index[t] for t in deck]
    mask = tracing_mask(rules)
    dungeons: list[KeyDungeon] = []
    start = 0
    movement = 0
    while start < len(indices):
        arrows: list[int] = []
        lost_at, _, _, last = trace_indices(compiled, indices[start:], None, mask, movement,
                                            arrows)
        length = lost_at or len(indices) - start
        placements = tuple(
            Placement(deck[start + i], Direction(arrows[i])) for i in range(length)
        )
        result = trace(placements, tileset=ts, rules=rules, initial_movement=Move(movement))
        dungeons.append(KeyDungeon(placements, result))
        start += length
        movement = last
    return dungeons
