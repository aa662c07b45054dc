"""Memoarrr! static facts: cards, island positions, sides, treasures, and the quoted rules.

Positions are spreadsheet style: a column letter ``A``-``E`` (west to east) and a row digit
``1``-``5`` (north to south), so ``A1`` is the north-west corner and ``C3`` the empty centre.

>>> Pos.parse("B4").neighbours()
(Pos(row=2, col=1), Pos(row=4, col=1), Pos(row=3, col=0), Pos(row=3, col=2))
>>> Card.parse("crab/ocean").connects(Card.parse("turtle/water"))
True
>>> rule_for(PEEK_EXCEPTION, 2018).section
'Exceptions'

Every rule exists in both rulebooks; :func:`rule_for` picks the quote of the log's edition,
and both share one id, so tests and docs can name a rule without naming an edition.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from pathcheck.ruling import Rule

GAME = "memoarrr"
TITLE = "Memoarrr!"


class Animal(enum.Enum):
    PENGUIN = "penguin"
    OCTOPUS = "octopus"
    CRAB = "crab"
    WALRUS = "walrus"
    TURTLE = "turtle"


class Landscape(enum.Enum):
    WATER = "water"
    FLOWERS = "flowers"
    LAVA = "lava"
    JUNGLE = "jungle"
    DESERT = "desert"


# The 2018 rulebook calls water "ocean"; logs may use either name.
LANDSCAPE_ALIASES = {"ocean": Landscape.WATER}


@dataclass(frozen=True)
class Card:
    """An island card: one animal on one landscape.

    >>> str(Card.parse("walrus/lava"))
    'walrus/lava'
    """

    animal: Animal
    landscape: Landscape
    text: str = field(init=False, repr=False, compare=False)
    """``str(card)``, made once: a replay names cards often, and enum values are slow."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.animal.value}/{self.landscape.value}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"animal/landscape"``; raises ValueError for anything else."""
        animal, _, landscape = text.partition("/")
        land = LANDSCAPE_ALIASES.get(landscape) or Landscape(landscape)
        return cls(Animal(animal), land)

    def connects(self, other: Card) -> bool:
        """Same animal or same landscape."""
        return self.animal == other.animal or self.landscape == other.landscape

    def __str__(self) -> str:
        return self.text


ALL_CARDS = tuple(Card(a, s) for a in Animal for s in Landscape)

SIZE = 5
COLUMNS = "ABCDE"


class Pos(NamedTuple):
    """A square of the 5x5 island; ``row`` 0 is the north edge, ``col`` 0 the west edge.

    A named tuple, not a dataclass: a replay hashes positions hundreds of times a log, and a
    tuple hashes in C.
    """

    row: int
    col: int

    @classmethod
    def parse(cls, text: str) -> Pos:
        """``"B4"``; raises ValueError for anything else."""
        if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "12345":
            raise ValueError(f"not a position: {text!r} (A1..E5)")
        return cls(int(text[1]) - 1, COLUMNS.index(text[0]))

    def __str__(self) -> str:
        name = _POS_NAMES.get(self)
        return f"{COLUMNS[self.col]}{self.row + 1}" if name is None else name

    def neighbours(self) -> tuple[Pos, ...]:
        """Orthogonal neighbours on the grid (the empty centre included)."""
        steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
        return tuple(
            Pos(self.row + dr, self.col + dc)
            for dr, dc in steps
            if 0 <= self.row + dr < SIZE and 0 <= self.col + dc < SIZE
        )


_POS_NAMES = {Pos(r, c): f"{COLUMNS[c]}{r + 1}" for r in range(SIZE) for c in range(SIZE)}
CENTRE = Pos(2, 2)
POSITIONS = tuple(Pos(r, c) for r in range(SIZE) for c in range(SIZE) if Pos(r, c) != CENTRE)

# The 3 middle cards of each outer side, looked at before round 1.
SIDES: dict[str, tuple[Pos, ...]] = {
    "north": (Pos(0, 1), Pos(0, 2), Pos(0, 3)),
    "east": (Pos(1, 4), Pos(2, 4), Pos(3, 4)),
    "south": (Pos(4, 1), Pos(4, 2), Pos(4, 3)),
    "west": (Pos(1, 0), Pos(2, 0), Pos(3, 0)),
}

TREASURES = (1, 1, 2, 2, 2, 3, 4)
"""The 7 treasures; also the ordered stack, top first."""
ROUNDS = len(TREASURES)
EDITIONS = (2018, 2023)
BIRDS = (1, 3, 7)
"""2018 volcanoes: the number of birds on each."""
DARK, LIGHT = "dark", "light"
"""2023 volcanoes."""


# --- rules: one id, a quote per edition ----------------------------------------------------


@dataclass(frozen=True)
class EditionRule:
    """A rule as each rulebook words it."""

    id: str
    r2018: Rule
    r2023: Rule

    def __post_init__(self) -> None:
        assert self.r2018.id == self.r2023.id == self.id


def _rule(rule_id: str, s2018: str, q2018: str, s2023: str, q2023: str) -> EditionRule:
    rid = "memoarrr/" + rule_id
    return EditionRule(rid, Rule(rid, s2018, q2018), Rule(rid, s2023, q2023))


def rule_for(rule: EditionRule, edition: int) -> Rule:
    """The quote of ``rule`` in the rulebook of ``edition``."""
    return rule.r2018 if edition == 2018 else rule.r2023


PEEK_SIDES = _rule(
    "peek-different-side",
    "Preparation", "Each player must choose a different side of the island.",
    "Before the 1st round", "Everyone must choose a different side.",
)
PEEK_EXCEPTION = _rule(
    "round1-peeked-card",
    "Exceptions",
    "In the first round, the start player is not allowed to reveal any of the 3 middle "
    "Locations on the sides of the island secretly seen by him and his opponents.",
    "Now the 1st round begins", "any of the cards that players have just looked at.",
)
ORDERED_STACK = _rule(
    "ordered-stack",
    "The Ordered Stack",
    "Put the Treasure Card with 4 rubies on the bottom, then the one with 3 rubies, followed "
    "by the three cards with 2 rubies, and then the two cards with 1 ruby on the top.",
    "The ordered stack",
    "order the treasure card deck with the single 4-ruby card at the bottom, followed by the "
    "3-ruby card on top of it.",
)
START_PLAYER = _rule(
    "start-player",
    "Birds and Volcanoes",
    "The player who had the Volcano with the most birds becomes the new start player and "
    "begins the new round by revealing 1 Location.",
    "Clear volcano cards", "The player with the dark volcano card will start the next round.",
)
TURN_ORDER = _rule(
    "turn-order",
    "Next Turn",
    "Players with a Volcano in front of them are skipped for the rest of the round.",
    "Failure",
    "Then, the next player in clockwise order without a volcano card takes their turn.",
)
FACE_DOWN = _rule(
    "reveal-face-down",
    "A Turn", "Whenever it is your turn, you must reveal 1 unrevealed Location.",
    "Now the 1st round begins",
    "Reveal an island card and return it to its place on the island face up.",
)
MUST_REVEAL = _rule(
    "must-reveal",
    "A Turn", "Nevertheless, you must still reveal 1 Location.",
    "Note", "Nevertheless, an island card must be revealed during a turn.",
)
ALL_REVEALED = _rule(
    "all-revealed-volcano",
    "Exceptions",
    "When it is your turn and all 24 Locations have already been revealed, you must take a "
    "Volcano instead of revealing a Location.",
    "Note",
    "If all 24 island cards are already revealed when a player takes their turn, they must "
    "take 1 Volcano card from the deck.",
)
CONNECT = _rule(
    "connect",
    "A Turn",
    "If the Locations are not connected, that is neither the animal nor the landscape "
    "matches, you have failed. You take the top Volcano from the stack and will no longer "
    "participate in this round of play.",
    "Failure",
    "The failed player takes the topmost volcano card from the centre of the island and "
    "places it in front of themselves.",
)
FIRST_REVEAL = _rule(
    "first-reveal",
    "Exceptions",
    "The first turn of the start player each round is automatically successful as there is "
    "no Location to connect to.",
    "Now the 1st round begins",
    "The first card revealed is always a success",
)
ROUND_END = _rule(
    "round-end",
    "End of the Round",
    "If there are no more Volcanoes available at the beginning of a player's turn, the round "
    "ends immediately.",
    "End of the round",
    "Once a player draws the last volcano card at the end of a failed turn, the round will end.",
)
TREASURE = _rule(
    "treasure",
    "End of the Round",
    "The player without a Volcano now takes the topmost Treasure from the stack",
    "End of the round",
    "This player now takes the topmost available treasure card from the pile",
)
GAME_END = _rule(
    "game-end",
    "Game End", "After 7 rounds the last Treasure is claimed and the game ends immediately.",
    "End of game",
    "After the last treasure card has been claimed, i.e. after the 7th round, the game will "
    "end.",
)
WINNER = _rule(
    "winner",
    "Game End",
    "Whoever has the most rubies wins. In case of a tie, the tied player with the most "
    "Treasure Cards wins. If there still is a tie remaining, the player who has the Treasure "
    "with the most rubies wins.",
    "End of game",
    "If there is a tie, the player with the most treasure cards wins. If there is still a tie, "
    "the player with the most rubies on a single treasure card among those tied will be "
    "declared the winner.",
)
FIXED_POSITIONS = _rule(
    "fixed-positions",
    "Summary of Play", "Important: Never change the position of any Locations on the island during "
    "the game.",
    "Octopus", "This is the only way to change the position of an island card.",
)
# One passage of each rulebook decides both: an ability must be used after a success, and
# only then.
_ABILITY_TEXT = (
    "Abilities",
    "If you successfully make a connection on your turn (and only then!) you must activate "
    "the ability of the animal depicted on the Location you just revealed.",
    "Animal abilities",
    "Whenever a player successfully reveals a card, the ability of the revealed animal will "
    "activate automatically.",
)
ABILITY_COMPULSORY = _rule("ability-compulsory", *_ABILITY_TEXT)
ABILITY_NOT_EARNED = _rule("ability-not-earned", *_ABILITY_TEXT)
OCTOPUS_ADJACENT = _rule(
    "octopus-adjacent",
    "Abilities",
    "Octopus - Exchange the octopus with a horizontally or vertically adjacent (not "
    "diagonally) Location.",
    "Octopus",
    "Swap the octopus with a horizontally or vertically (not diagonally) adjacent island card.",
)
WALRUS_BLOCK = _rule(
    "walrus-blocked",
    "Abilities", "The next player may not reveal this Location.",
    "Walrus", "That island card is not allowed to be revealed on the next player's turn.",
)
WALRUS_FACE_DOWN = _rule(
    "walrus-face-down",
    "Abilities", "Walrus - Touch any Location you want to keep hidden.",
    "Walrus", "Select and tap any face-down island card.",
)
WALRUS_LAST_CARD = _rule(
    "walrus-last-card",
    "Abilities", "Don't activate this ability, if there is only one unrevealed card left.",
    "Walrus",
    "You cannot use this ability if there is only one unrevealed island card remaining.",
)
PENGUIN_FACE_DOWN = _rule(
    "penguin-face-down",
    "Abilities",
    "Penguin - Secretly look at any unrevealed Location without showing anyone and put it "
    "back in place.",
    "Penguin", "Secretly look at any face-down island card.",
)
CRAB_EXTRA_TURN = _rule(
    "crab-extra-turn",
    "Abilities", "Crab – The player must immediately take an additional turn.",
    "Crab", "You must immediately take another turn.",
)

ALL_RULES: tuple[EditionRule, ...] = (
    PEEK_SIDES, PEEK_EXCEPTION, ORDERED_STACK, START_PLAYER, TURN_ORDER, FACE_DOWN,
    MUST_REVEAL, ALL_REVEALED, CONNECT, FIRST_REVEAL, ROUND_END, TREASURE, GAME_END, WINNER,
    FIXED_POSITIONS, ABILITY_COMPULSORY, ABILITY_NOT_EARNED, OCTOPUS_ADJACENT, WALRUS_BLOCK,
    WALRUS_FACE_DOWN, WALRUS_LAST_CARD, PENGUIN_FACE_DOWN, CRAB_EXTRA_TURN,
)


def rubies(n: int) -> str:
    """``n`` rubies in words.

    >>> rubies(1), rubies(4)
    ('1 ruby', '4 rubies')
    """
    return f"{n} ruby" if n == 1 else f"{n} rubies"


def decide_winners(treasures: Mapping[str, list[int]]) -> tuple[list[str], str]:
    """The winners by rubies, then treasure count, then largest treasure; and the tie-break.

    >>> decide_winners({"Ann": [2, 2], "Ben": [4], "Cy": [1, 1, 2]})
    (['Cy'], 'Ann, Ben and Cy tied on 4 rubies: Cy has the most treasure cards (3)')
    """
    rubies_of = {p: sum(cards) for p, cards in treasures.items()}
    best_rubies = max(rubies_of.values())
    tied = [p for p, n in rubies_of.items() if n == best_rubies]
    if len(tied) == 1:
        return tied, ""
    head = f"{_names(tied)} tied on {best_rubies} rubies"
    best_count = max(len(treasures[p]) for p in tied)
    by_count = [p for p in tied if len(treasures[p]) == best_count]
    if len(by_count) == 1:
        return by_count, f"{head}: {by_count[0]} has the most treasure cards ({best_count})"
    best_single = max(max(treasures[p], default=0) for p in by_count)
    by_single = [p for p in by_count if max(treasures[p], default=0) == best_single]
    head += f" and {best_count} treasure cards"
    if len(by_single) == 1:
        return by_single, (f"{head}: {by_single[0]} has the largest treasure "
                           f"({best_single} rubies)")
    return by_single, f"{head} and a largest treasure of {best_single} rubies: they share the win"


def _names(players: list[str]) -> str:
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]
