"""Memo Dice: the static facts of the game and the rules the adjudicator cites.

Every :class:`~pathcheck.ruling.Rule` here quotes the Amigo rulebook (``memo-dice.txt``)
verbatim, except that the OCR's ``*``/``**`` emphasis markers are left out.

>>> CUP_COLOUR.id
'memo-dice/cup-colour'
>>> Cup.GOLDEN.points, Cup.RED.points
(2, 1)
>>> left_of(("Ann", "Bob", "Cy"), "Cy")
'Ann'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from functools import lru_cache

from pathcheck.ruling import Rule

GAME = "memo-dice"
TITLE = "Memo Dice"
NUM_DICE = 9
"""Symbol dice in the game."""
FACES_PER_DIE = 6
"""Symbols on each die (54 different symbols in all)."""
CUPS_PER_COLOUR = 3
"""Red, blue and black cups: three of each, plus one golden cup."""
TARGET = 20
"""The game ends after the round in which someone reaches this many points."""
MIN_PLAYERS = 2
MAX_PLAYERS = 4


class Colour(enum.Enum):
    """The colour of a symbol."""

    RED = "red"
    BLUE = "blue"
    BLACK = "black"


class Cup(enum.Enum):
    """The colour of a cup: a symbol colour, or the golden cup."""

    RED = "red"
    BLUE = "blue"
    BLACK = "black"
    GOLDEN = "golden"

    @property
    def points(self) -> int:
        """What the cup is worth at scoring."""
        return 2 if self is Cup.GOLDEN else 1

    @classmethod
    def of(cls, colour: Colour) -> Cup:
        """The coloured cup that matches ``colour``."""
        return cls(colour.value)


def winners_of(players: Sequence[str], scores: Mapping[str, int]) -> list[str]:
    """The players with the most points, in seat order, once someone has reached the target
    (:data:`TARGET`); none before.

    >>> winners_of(["Ann", "Bob"], {"Ann": 21, "Bob": 21}), winners_of(["Ann"], {"Ann": 19})
    (['Ann', 'Bob'], [])
    """
    best = max(scores.values())
    return [p for p in players if scores[p] == best] if best >= TARGET else []


def left_of(players: Sequence[str], player: str) -> str:
    """The player on ``player``'s left: the next one in (clockwise) seat order.

    **Decision:** players are listed in clockwise seat order, and play passes clockwise, so
    the player "to their left" is the next one in that list.
    """
    return players[(players.index(player) + 1) % len(players)]


@lru_cache(maxsize=4096)  # a game names the same few dozen symbols again and again
def symbol_key(symbol: str) -> str:
    """What counts of a symbol name: its words, case left out.

    >>> symbol_key(" Cooling  FAN ")
    'cooling fan'
    """
    return " ".join(symbol.casefold().split())


def same_symbol(a: str, b: str) -> bool:
    """Whether two symbol names name the same symbol (case and spacing do not count).

    >>> same_symbol("Cooling  fan", "cooling fan")
    True
    """
    return a == b or symbol_key(a) == symbol_key(b)


# --- Rules of play (violations) -------------------------------------------------------------

TURN_ORDER = Rule(
    "memo-dice/turn-order",
    "Playing the game",
    "The other players will follow in clockwise order.",
)
FIRST_PLAYER = Rule(
    "memo-dice/first-player",
    "Scoring points",
    "The player who had the golden cup begins the next round.",
)
DIE_ONCE = Rule(
    "memo-dice/die-once",
    "Covering the dice",
    "On your turn, take any one of the symbol dice and roll it.",
)
ROLL_FACE = Rule(
    "memo-dice/roll-face",
    "Components",
    "9 symbol dice, showing a total of 54 different symbols",
)
CUP_COLOUR = Rule(
    "memo-dice/cup-colour",
    "Covering the dice",
    "cover the die with a cup that's the same color as the symbol that was rolled.",
)
GOLDEN_NO_CUP = Rule(
    "memo-dice/golden-no-cup",
    "Covering the dice",
    "A player rolls a color for which there is no cup left. "
    "That player takes the golden cup and uses it to cover the die",
)
GOLDEN_LAST_DIE = Rule(
    "memo-dice/golden-last-die",
    "Covering the dice",
    "If the last remaining die is rolled, it is always covered with the golden cup.",
)
COVERING_END = Rule(
    "memo-dice/covering-end",
    "Covering the dice",
    "As soon as the golden cup has been used for either of the reasons above, "
    "the 'covering the dice' phase is over.",
)
UNCOVER_START = Rule(
    "memo-dice/uncover-start",
    "Uncovering the dice",
    "The player who used the golden cup to cover a die now tries to remember as many of the "
    "covered symbols as possible, in the order they were covered",
)
UNCOVER_ORDER = Rule(
    "memo-dice/uncover-order",
    "Uncovering the dice",
    "First, call out the symbol that you think is hidden underneath the first cup.",
)
RIGHT_GUESS = Rule(
    "memo-dice/right-guess",
    "Uncovering the dice",
    "If you are right, take the cup as a reward and continue with the next cup.",
)
WRONG_GUESS = Rule(
    "memo-dice/wrong-guess",
    "Uncovering the dice",
    "if the player misremembered the symbol or cannot remember it at all, the player to their "
    "left gets the cup. Now it's that player's turn",
)
UNCOVER_ALL = Rule(
    "memo-dice/uncover-all",
    "Scoring points",
    "As soon as all of the dice have been uncovered again, and you have divided the cups "
    "among the players, your cups earn you points",
)
GAME_END = Rule(
    "memo-dice/game-end",
    "The end of the game",
    "The game ends as soon as one player reaches 20 or more points",
)

# --- Rules that decide events (scores, winners) ---------------------------------------------

POINTS = Rule(
    "memo-dice/points",
    "Scoring points",
    "Each red, blue, or black cup is worth 1 point. The golden cup is worth 2 points.",
)
MOST_POINTS = Rule(
    "memo-dice/most-points",
    "The end of the game",
    "the player with the most points wins! If scores are tied, there is more than one winner.",
)

ALL_RULES: tuple[Rule, ...] = (
    TURN_ORDER,
    FIRST_PLAYER,
    DIE_ONCE,
    ROLL_FACE,
    CUP_COLOUR,
    GOLDEN_NO_CUP,
    GOLDEN_LAST_DIE,
    COVERING_END,
    UNCOVER_START,
    UNCOVER_ORDER,
    RIGHT_GUESS,
    WRONG_GUESS,
    UNCOVER_ALL,
    GAME_END,
    POINTS,
    MOST_POINTS,
)
"""Every rule the adjudicator cites, in the order of play."""
