"""Static facts of the robot memory game: cards, guesses, the rules quoted, and scoring.

The rulebook is Igrology's (2017); every :class:`~pathcheck.ruling.Rule` below quotes it
verbatim, and the tests compare each quote with the paragraphs kept in
``fixtures/rules/robot-memory.txt``.

>>> card = MemoryCard("bulb", "red", 3)
>>> score(Guess(type="bulb", number=3), card, solo=False).points
3
>>> score(Guess(type="bulb", number=2), card, solo=False).points
0
>>> card.describe()
'3 red bulbs'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from pathcheck.ruling import Rule

GAME = "robot-memory"
TITLE = "Robot memory game (Igrology)"

TYPES = ("battery", "gear", "tool", "bulb")
COLOURS = ("yellow", "red", "blue", "green")
NUMBERS = (1, 2, 3, 4)
FEATURES = ("type", "colour", "number")
SHORT_CIRCUIT_NAME = "short-circuit"

MEMORY_CARDS_IN_BOX = 64
SHORT_CIRCUITS_IN_BOX = 6
BASIC_MEMORY_CARDS = 13
BASIC_SHORT_CIRCUITS = 3
BASIC_ROWS = BASIC_COLUMNS = 4
FIVE_PLUS_MIN_SHORT_CIRCUITS = 2
FIVE_PLUS_PLAYERS = 5
ROUNDS = 3

POINTS_FOR_FEATURES = {1: 1, 2: 3, 3: 6}
"""Points for a guess naming this many features, every one right."""
SOLO_SHORT_CIRCUIT_POINTS = 1


class Variant(enum.Enum):
    """The ``variant`` of a log."""

    STANDARD = "standard"
    SOLO = "solo"
    TEAM = "team"
    FIVE_PLUS = "5+"
    CUSTOM = "custom"


# --- the rules, quoted -------------------------------------------------------------------

SETUP = Rule(
    "robot-memory/setup", "Setup",
    "choose 13 of them at random without looking at them. Add 3 Short Circuit cards, shuffle "
    "the 16 cards together and place them face up on the table in a 4x4 grid.",
)
DISTINCT_CARDS = Rule("robot-memory/distinct-cards", "Components", "64 Memory cards")
SHORT_CIRCUIT_SUPPLY = Rule(
    "robot-memory/short-circuit-supply", "Components", "6 Short Circuit cards"
)
FIVE_PLUS_SHORT_CIRCUITS = Rule(
    "robot-memory/5-plus-short-circuits", "5+ Players",
    "Add at least two Short Circuit cards to the stack.",
)
POINTING_PLAYER = Rule(
    "robot-memory/pointing-player", "Playing the Game",
    "The player on the left of the active player points at a face-down card on the table.",
)
TEAM_CAPTAINS = Rule(
    "robot-memory/team-captains", "Team Play",
    "The Captain will be choosing cards for the opposing team and guessing the cards chosen "
    "for their team.",
)
CAPTAIN_TURNS = Rule(
    "robot-memory/captain-turns", "Team Play",
    "Players can take turns being the Captain.",
)
FACE_DOWN = Rule(
    "robot-memory/face-down", "Playing the Game", "points at a face-down card on the table"
)
GUESS_FEATURE = Rule(
    "robot-memory/guess-feature", "Playing the Game",
    "The active player must guess at least one feature on the card and then flip it face up.",
)
SCORING = Rule(
    "robot-memory/scoring", "Scoring",
    "Points for correctly guessed cards are scored in the following way",
)
SCORE_ONE = Rule("robot-memory/score-1", "Scoring", "1 point for guessing one feature of the card")
SCORE_TWO = Rule("robot-memory/score-3", "Scoring", "3 points for guessing two features")
SCORE_THREE = Rule("robot-memory/score-6", "Scoring", "6 points for guessing all three features")
WRONG_FEATURE = Rule(
    "robot-memory/wrong-feature", "Scoring",
    "If you choose to name two or three features but make an error in at least one of them, "
    "you do not receive any points.",
)
SHORT_CIRCUIT = Rule(
    "robot-memory/short-circuit", "Short Circuit Cards",
    "If the player on your left points at a Short Circuit card for you and you name it "
    "correctly, you don't score any points.",
)
CHAIN = Rule(
    "robot-memory/short-circuit-chain", "Short Circuit Cards",
    "Instead, you can immediately choose another card on the table and try to guess its "
    "features.",
)
SOLO_SHORT_CIRCUIT = Rule(
    "robot-memory/solo-short-circuit", "Solo Play",
    "Correctly guessed Short Circuits give you 1 point.",
)
NEXT_ACTIVE = Rule(
    "robot-memory/next-active", "Playing the Game",
    "The next player on the left becomes the next active player.",
)
ROUND_END = Rule(
    "robot-memory/round-end", "Playing the Game",
    "Repeat steps 1–4 in this manner until all cards on the table are flipped face up.",
)
NEXT_ROUND_FIRST = Rule(
    "robot-memory/next-round-first", "Playing the Game",
    "The player who currently has the fewest points becomes the first player for the new round.",
)
THREE_ROUNDS = Rule(
    "robot-memory/three-rounds", "Playing the Game", "The game takes place over three rounds."
)
WINNER = Rule(
    "robot-memory/winner", "Playing the Game",
    "Whoever has the most points after three rounds is the winner. In case of a tie, all tied "
    "players win together.",
)
SOLO_GOAL = Rule(
    "robot-memory/solo-goal", "Solo Play", "The goal is to score as many points as you can."
)

ALL_RULES = (
    SETUP, DISTINCT_CARDS, SHORT_CIRCUIT_SUPPLY, FIVE_PLUS_SHORT_CIRCUITS, POINTING_PLAYER,
    TEAM_CAPTAINS, CAPTAIN_TURNS, FACE_DOWN, GUESS_FEATURE, SCORING, SCORE_ONE, SCORE_TWO,
    SCORE_THREE, WRONG_FEATURE, SHORT_CIRCUIT, CHAIN, SOLO_SHORT_CIRCUIT, NEXT_ACTIVE,
    ROUND_END, NEXT_ROUND_FIRST, THREE_ROUNDS, WINNER, SOLO_GOAL,
)


# --- cards and guesses ------------------------------------------------------------------


def plural(type_: str, number: int) -> str:
    """``batteries`` for 3 battery, ``gear`` for 1 gear."""
    if number == 1:
        return type_
    return type_[:-1] + "ies" if type_.endswith("y") else type_ + "s"


@dataclass(frozen=True)
class MemoryCard:
    """One of the 64 memory cards.

    >>> MemoryCard("gear", "blue", 1).describe()
    '1 blue gear'
    """

    type: str
    colour: str
    number: int

    def describe(self) -> str:
        return f"{self.number} {self.colour} {plural(self.type, self.number)}"

    def code(self) -> str:
        """A short code for grids: number, colour initial, type (``3R bulb``)."""
        return f"{self.number}{self.colour[0].upper()} {self.type}"

    def feature(self, name: str) -> str | int:
        value: str | int = getattr(self, name)
        return value

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "colour": self.colour, "number": self.number}


@dataclass(frozen=True)
class ShortCircuit:
    """A short-circuit card (the box has six, all alike)."""

    def describe(self) -> str:
        return "a short circuit"

    def code(self) -> str:
        return "SHORT"

    def to_json(self) -> str:
        return SHORT_CIRCUIT_NAME


Card = MemoryCard | ShortCircuit

UNKNOWN_CARD_NAME = "unknown"


@dataclass(frozen=True)
class UnknownCard:
    """A place whose card the log does not record (``"unknown"``; ``?`` in the notation):
    nobody noted it when it was turned face up, or it never was. A guess on it cannot be
    checked."""

    def describe(self) -> str:
        return "a card not recorded"

    def code(self) -> str:
        return "?"

    def to_json(self) -> str:
        return UNKNOWN_CARD_NAME


UNKNOWN_CARD = UnknownCard()
Place = Card | UnknownCard | None
"""What a place of the grid holds: a card, a card not recorded, or (None) no card."""

ALL_MEMORY_CARDS = tuple(MemoryCard(t, c, n) for t in TYPES for c in COLOURS for n in NUMBERS)


def card_from_json(value: Any) -> Place:
    """A schema-valid card value as a card (None for an empty place)."""
    if value is None:
        return None
    if value == UNKNOWN_CARD_NAME:
        return UNKNOWN_CARD
    if value == SHORT_CIRCUIT_NAME:
        return ShortCircuit()
    return MemoryCard(str(value["type"]), str(value["colour"]), int(value["number"]))


@dataclass(frozen=True)
class Guess:
    """What the active player named: "short circuit", or some features.

    >>> Guess(colour="red", number=3).describe()
    '"3 red"'
    >>> Guess(short_circuit=True).describe()
    '"short circuit"'
    """

    short_circuit: bool = False
    type: str | None = None
    colour: str | None = None
    number: int | None = None

    @classmethod
    def from_json(cls, value: Any) -> Guess:
        if value == SHORT_CIRCUIT_NAME:
            return cls(short_circuit=True)
        number = value.get("number")
        return cls(
            type=value.get("type"),
            colour=value.get("colour"),
            number=None if number is None else int(number),
        )

    def named(self) -> dict[str, str | int]:
        """The features named, by feature name."""
        out: dict[str, str | int] = {}
        if self.type is not None:
            out["type"] = self.type
        if self.colour is not None:
            out["colour"] = self.colour
        if self.number is not None:
            out["number"] = self.number
        return out

    def describe(self) -> str:
        if self.short_circuit:
            return '"short circuit"'
        if not self.named():
            return "nothing"
        words = [str(self.number)] if self.number is not None else []
        words += [w for w in (self.colour, self.type) if w is not None]
        if self.type is not None and self.number is not None:
            words[-1] = plural(self.type, self.number)
        return '"' + " ".join(words) + '"'

    def to_json(self) -> str | dict[str, Any]:
        if self.short_circuit:
            return SHORT_CIRCUIT_NAME
        return dict(self.named())


@dataclass(frozen=True)
class Score:
    """The points a guess earns, why, and the rule that says so."""

    points: int
    reason: str
    rule: Rule
    short_circuit_named: bool = False
    """A short circuit named correctly: the active player may choose another card."""


def score(guess: Guess, card: Card, *, solo: bool) -> Score:
    """Score ``guess`` on ``card`` (1 / 3 / 6 all right, 0 with any error).

    >>> score(Guess(short_circuit=True), ShortCircuit(), solo=True).points
    1
    """
    if isinstance(card, ShortCircuit):
        if guess.short_circuit:
            if solo:
                return Score(SOLO_SHORT_CIRCUIT_POINTS, "short circuit named: 1 point in solo play",
                             SOLO_SHORT_CIRCUIT, short_circuit_named=True)
            return Score(0, "short circuit named: no points, may choose another card",
                         SHORT_CIRCUIT, short_circuit_named=True)
        if not guess.named():
            return Score(0, "nothing named: no points", GUESS_FEATURE)
        return Score(0, "features named on a short circuit: no points", SCORING)
    if guess.short_circuit:
        return Score(0, "\"short circuit\" named on a memory card: no points", SCORING)
    named = guess.named()
    if not named:
        return Score(0, "nothing named: no points", GUESS_FEATURE)
    wrong = [name for name, value in named.items() if getattr(card, name) != value]
    if wrong:
        rule = WRONG_FEATURE if len(named) > 1 else SCORING
        return Score(0, f"wrong {' and '.join(wrong)}: no points", rule)
    return _RIGHT[len(named)]


_RIGHT = {n: Score(POINTS_FOR_FEATURES[n],
                   f"{count} right: {POINTS_FOR_FEATURES[n]} "
                   f"point{'s' if POINTS_FOR_FEATURES[n] > 1 else ''}", rule)
          for n, count, rule in ((1, "one feature", SCORE_ONE), (2, "two features", SCORE_TWO),
                                 (3, "all three features", SCORE_THREE))}
"""The score of a guess whose 1, 2 or 3 features named are all right (a frozen value)."""
