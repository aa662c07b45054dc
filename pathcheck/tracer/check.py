"""The check of a multiplayer exploration: who scores from the LOST cards (spec section 4).

>>> cards = [LostCard("Bob", 3), LostCard("Cy", 6), LostCard("Dee", 6), LostCard("Eve", 7)]
>>> result = score_lost_cards(5, cards, players=None)
>>> dict(result.points)
{'Bob': 0, 'Cy': 1, 'Dee': 1, 'Eve': 0}
>>> [(o.player, o.kind.value) for o in result.outcomes]
[('Bob', 'early'), ('Cy', 'scored'), ('Dee', 'scored'), ('Eve', 'too-late')]
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from pathcheck.ruling import Rule

RULE_I = Rule(
    "dungeon/check-I", "3. Checking the Memorized Path, I",
    "If you announced Lost before getting Lost Your Lost Announcement fails.")
RULE_II = Rule(
    "dungeon/check-II", "3. Checking the Memorized Path, II",
    "Keep connecting the tiles, and the first player(s) whose LOST card(s) appear acquire 1 pt "
    "each. ... even if these LOST cards did not appear immediately after getting Lost.")
RULE_III = Rule(
    "dungeon/check-III", "3. Checking the Memorized Path, III",
    "If you do not get Lost until the end All players who did not announce Lost acquire 1 pt "
    "each.")


class LostCard(msgspec.Struct, frozen=True, gc=False):
    """A LOST card lying on the stack after tile ``after`` (1-based). (A msgspec Struct: a
    game log's replay makes thousands, and a Struct is made several times faster than a
    frozen dataclass.)"""

    player: str
    after: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "after": self.after}


class CardOutcome(enum.Enum):
    EARLY = "early"
    """Announced before the dungeon got Lost: the announcement fails (rule I)."""
    SCORED = "scored"
    """In the first group of LOST cards at or after the Lost point (rule II)."""
    TOO_LATE = "too-late"
    """Announced after the Lost point, but not in the first group: no point."""
    HELD_ON = "held-on"
    """Never announced, and the dungeon was never Lost: 1 point (rule III)."""
    STAYED = "stayed"
    """Never announced, and the dungeon got Lost: no point."""

    # Members are singletons compared by identity: hashing them so is right, and spares the
    # Python call of Enum's hash (a game log's replay looks up thousands of outcomes).
    __hash__ = object.__hash__

    @property
    def rule(self) -> Rule | None:
        return OUTCOME_RULES.get(self)


# Built once: enum members hash slowly, and a game log scores thousands of cards.
OUTCOME_RULES = {CardOutcome.EARLY: RULE_I, CardOutcome.SCORED: RULE_II,
                  CardOutcome.TOO_LATE: RULE_II, CardOutcome.HELD_ON: RULE_III}
_OUTCOME_TEXTS = {
    CardOutcome.EARLY: "announced Lost before getting Lost: the announcement fails",
    CardOutcome.SCORED: "among the first LOST cards after getting Lost: 1 point",
    CardOutcome.TOO_LATE: "announced after the first group of LOST cards: no point",
    CardOutcome.HELD_ON: "did not announce, and the path held: 1 point",
    CardOutcome.STAYED: "did not announce, and the dungeon got Lost: no point",
}


@dataclass(frozen=True)
class PlayerOutcome:
    player: str
    kind: CardOutcome
    after: int | None
    points: int

    def explain(self, lost_at: int | None) -> str:
        return explain_outcome(self.player, self.kind, self.after, lost_at)

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "outcome": self.kind.value, "after": self.after,
                "points": self.points}


@dataclass(frozen=True)
class CheckResult:
    """Points of one check, and each player's outcome with the rule that decided it."""

    points: Mapping[str, int]
    outcomes: Sequence[PlayerOutcome]
    scoring_tile: int | None
    """The tile index of the first LOST group at or after the Lost point (rule II)."""


def score_lost_cards(
    lost_at: int | None, cards: Sequence[LostCard], players: Sequence[str] | None
) -> CheckResult:
    """Score the LOST cards of a dungeon Lost at ``lost_at`` (None: never Lost).

    ``players`` is everyone in the exploration (needed for rule III); when None, only the
    announcers are known. Points list every player named, in order of first mention.
    """
    outcomes = [PlayerOutcome(*o) for o in card_outcomes(lost_at, cards, players)]
    scoring_tile: int | None = None
    if lost_at is not None:
        scoring_tile = min((c.after for c in cards if c.after >= lost_at), default=None)
    return CheckResult({o.player: o.points for o in outcomes}, tuple(outcomes), scoring_tile)


Outcome = tuple[str, CardOutcome, int | None, int]
"""A player's outcome as plain values: the fields of a :class:`PlayerOutcome`."""


def card_outcomes(lost_at: int | None, cards: Sequence[LostCard],
                  players: Sequence[str] | None) -> list[Outcome]:
    """What :func:`score_lost_cards` decides, as tuples (a game log's replay scores thousands
    of checks and needs no objects).

    >>> [(p, kind.value, after, n)
    ...  for p, kind, after, n in card_outcomes(None, [LostCard("Bob", 3)], ["Ann", "Bob"])]
    [('Ann', 'held-on', None, 1), ('Bob', 'early', 3, 0)]
    """
    names: list[str] = list(players or ())
    by_player: dict[str, LostCard] = {}
    for lost_card in cards:
        if lost_card.player not in names:
            names.append(lost_card.player)
        by_player[lost_card.player] = lost_card  # a player's last card counts
    scoring_tile: int | None = None
    if lost_at is not None:
        scoring_tile = min((c.after for c in cards if c.after >= lost_at), default=None)
    outcomes: list[Outcome] = []
    for name in names:
        card = by_player.get(name)
        if card is None:
            outcomes.append((name, _HELD_ON, None, 1) if lost_at is None
                            else (name, _STAYED, None, 0))
        elif lost_at is None or card.after < lost_at:
            outcomes.append((name, _EARLY, card.after, 0))
        elif card.after == scoring_tile:
            outcomes.append((name, _SCORED, card.after, 1))
        else:
            outcomes.append((name, _TOO_LATE, card.after, 0))
    return outcomes


def explain_outcome(player: str, kind: CardOutcome, after: int | None,
                    lost_at: int | None) -> str:
    """The sentence on one player's outcome (:meth:`PlayerOutcome.explain`).

    >>> explain_outcome("Bob", CardOutcome.EARLY, 3, 5)
    'Bob (LOST card after tile 3): announced Lost before getting Lost: the announcement fails \
(Lost at tile 5)'
    """
    where = "" if after is None else f" (LOST card after tile {after})"
    lost = "never Lost" if lost_at is None else f"Lost at tile {lost_at}"
    return f"{player}{where}: {_OUTCOME_TEXTS[kind]} ({lost})"


# Looked up once: an enum member is an attribute look-up on its class each time it is named.
_EARLY, _SCORED, _TOO_LATE, _HELD_ON, _STAYED = (
    CardOutcome.EARLY, CardOutcome.SCORED, CardOutcome.TOO_LATE, CardOutcome.HELD_ON,
    CardOutcome.STAYED)
