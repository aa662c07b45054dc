"""Solo challenges from seed codes as values: a deal to play, its answer key, a checked record.

``pathcheck solo new|key|check`` only turns these into text (:mod:`pathcheck.render.solo`) or
JSON (their ``to_dict()``).

>>> key = AnswerKey.of(SeedCode.parse("10000-0000T"))
>>> key.max_score, len(key.dungeons)
(38, 3)
>>> key.to_dict()["dungeons"][0]["reason"]
'dead-end'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pathcheck.inputs.records import SoloRecord
from pathcheck.solo.play import KeyDungeon, SoloResult, answer_key, check_solo, max_score
from pathcheck.solo.seed_codes import SeedCode, SeedCodeError
from pathcheck.solo.stats import DealStats, Divergence, first_divergence
from pathcheck.tracer.tileset import load_tileset


def rules_text(rules: frozenset[int]) -> str:
    """``#2 #3``, or ``none``."""
    return " ".join(f"#{r}" for r in sorted(rules)) or "none"


@dataclass(frozen=True)
class Challenge:
    """A deal offered by ``solo new``: its code and what its answer key is like."""

    stats: DealStats

    @property
    def code(self) -> SeedCode:
        return SeedCode(self.stats.seed, self.stats.rules)

    @property
    def max_score(self) -> int:
        return max_score(len(self.code.deck), self.stats.rules)

    def to_dict(self) -> dict[str, Any]:
        code, stats = self.code, self.stats
        return {"code": str(code), "seed": stats.seed, "rules": sorted(stats.rules),
                "deck": code.deck, "max_score": self.max_score,
                "difficulty": stats.difficulty, "grade": stats.grade,
                "dungeons": stats.dungeons}


@dataclass(frozen=True)
class AnswerKey:
    """Perfect play of a seed code's deck (spec section 5)."""

    seed: SeedCode
    dungeons: tuple[KeyDungeon, ...]

    @classmethod
    def of(cls, seed: SeedCode) -> AnswerKey:
        return cls(seed, tuple(answer_key(seed.deck, rules=seed.rules)))

    @property
    def max_score(self) -> int:
        return max_score(len(self.seed.deck), self.seed.rules)

    def to_dict(self) -> dict[str, Any]:
        seed = self.seed
        return {
            "code": str(seed), "seed": seed.seed, "rules": sorted(seed.rules),
            "deck": seed.deck, "max_score": self.max_score,
            "dungeons": [
                {"tiles": [{"tile": p.tile, "dir": p.dir.name} for p in d.placements],
                 **d.trace.to_dict()}
                for d in self.dungeons
            ],
        }


def mismatch(seed: SeedCode, record: SoloRecord) -> str | None:
    """Why ``record`` is not a play of ``seed`` (None: it is): its tile set, its own seed
    code, its rules, its deck order and length, in that order."""
    if record.tileset is not None and record.tileset.tiles != load_tileset().tiles:
        return (f"it uses the tile set {record.tileset.name!r}; seed codes deal the "
                "standard set")
    if record.seed is not None:
        try:
            other = SeedCode.parse(record.seed)
        except SeedCodeError as exc:
            return f"its \"seed\" is not a usable code ({exc})"
        if other != seed:
            return f"the record names seed code {other}"
    if record.rules_stated and record.rules != seed.rules:
        return (f"the record was played with rules {rules_text(record.rules)}, the code sets "
                f"{rules_text(seed.rules)}")
    difference = first_deck_difference(seed.deck, record)
    if difference is None:
        return None
    if difference.want is not None and difference.got is not None:
        return (f"the deck differs at stack tile {difference.position}: the code deals "
                f"{difference.want}, the record has {difference.got}")
    return (f"the record has {len(record.tile_ids)} tiles, the code's deck {len(seed.deck)} "
            "(a solo game plays the whole deck)")


@dataclass(frozen=True)
class DeckDifference:
    """The first stack tile where a record leaves a deal: ``want`` or ``got`` is None where
    one of them has already ended. ``dungeon`` and ``index`` (1-based) place the record's
    tile, or the place after its last tile."""

    position: int
    dungeon: int
    index: int
    want: str | None
    got: str | None


def first_deck_difference(deck: list[str], record: SoloRecord) -> DeckDifference | None:
    """Where the record's stack first differs from ``deck`` (START first), in stack order.

    >>> from pathcheck.inputs.records import parse_dgn_line
    >>> record = parse_dgn_line("START@N R1@N | I1@N", source="doc", line=1)
    >>> first_deck_difference(["START", "R1", "I2"], record)
    DeckDifference(position=3, dungeon=2, index=1, want='I2', got='I1')
    >>> first_deck_difference(["START", "R1", "I1", "I2"], record).got is None
    True
    """
    position = 0
    dungeon, index = 1, 0
    for dungeon, stack in enumerate(record.dungeons, start=1):
        for index, placement in enumerate(stack, start=1):
            position += 1
            want = deck[position - 1] if position <= len(deck) else None
            if want != placement.tile:
                return DeckDifference(position, dungeon, index, want, placement.tile)
    if position < len(deck):
        return DeckDifference(position + 1, dungeon, index + 1, deck[position], None)
    return None


@dataclass(frozen=True)
class SeedCheck:
    """A solo record checked against a seed code: a mismatch, or its score and the first
    divergence from the answer key."""

    source: str
    line: int | None
    seed: SeedCode
    mismatch: str | None
    result: SoloResult | None = None
    divergence: Divergence | None = None

    @property
    def match(self) -> bool:
        return self.mismatch is None

    @property
    def where(self) -> str:
        """``FILE:LINE``, as a message names the record."""
        return self.source if self.line is None else f"{self.source}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        head = {"source": self.source, "line": self.line, "code": str(self.seed),
                "match": self.match}
        if self.result is None:
            return {**head, "mismatch": self.mismatch}
        return {**head, "divergence": None if self.divergence is None
                else self.divergence.to_dict(), **self.result.to_dict()}


def check_record(key: AnswerKey, record: SoloRecord) -> SeedCheck:
    """Check ``record`` against the answer key of its seed code."""
    why = mismatch(key.seed, record)
    if why is not None:
        return SeedCheck(record.source, record.line, key.seed, why)
    result = check_solo(record.dungeons, rules=key.seed.rules)
    divergence = first_divergence([d.placements for d in key.dungeons], record.dungeons)
    return SeedCheck(record.source, record.line, key.seed, None, result, divergence)
