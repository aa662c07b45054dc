"""Memo Dice: random legal games, for tests and examples.

:func:`random_game` plays a whole game by the rules (independently of the adjudicator) and
returns its ``memo-dice/1`` log. :data:`SAMPLE_DICE` is a made-up set of 9 dice (the real
symbols are not in the rulebook text): two red, two blue and two black symbols a die.

>>> import random
>>> log = random_game(random.Random(1), players=3)
>>> log["format"], len(log["dice"]), log["players"]
('memo-dice/1', 9, ['Linda', 'Nora', 'Ronya'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pathcheck.games.memo_dice.log import FORMAT
from pathcheck.games.memo_dice.rules import (
    CUPS_PER_COLOUR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TARGET,
    Colour,
    Cup,
    same_symbol,
)

_SYMBOLS = (
    "umbrella", "elephant", "fan", "turtle", "anchor", "balloon", "bell", "bicycle", "book",
    "boot", "cactus", "candle", "carrot", "castle", "cat", "cherry", "clock", "cloud", "crown",
    "diamond", "dolphin", "drum", "feather", "fish", "flag", "flower", "ghost", "guitar",
    "hammer", "hat", "heart", "house", "key", "kite", "ladder", "lamp", "leaf", "lemon", "lion",
    "moon", "mushroom", "owl", "pear", "pencil", "rocket", "scissors", "shell", "snail", "star",
    "sun", "tooth", "tree", "trumpet", "whale",
)
_COLOURS = (Colour.RED, Colour.RED, Colour.BLUE, Colour.BLUE, Colour.BLACK, Colour.BLACK)

SAMPLE_DICE: tuple[tuple[tuple[str, Colour], ...], ...] = tuple(
    tuple(zip(_SYMBOLS[6 * d: 6 * d + 6], _COLOURS, strict=True)) for d in range(9)
)
"""Nine dice of six (symbol, colour) faces, 54 different symbols."""

PLAYER_NAMES = ("Linda", "Nora", "Ronya", "Otto")


Dice = Sequence[Sequence[tuple[str, Colour]]]
"""Dice as (symbol, colour) faces."""


def dice_json(dice: Dice = SAMPLE_DICE) -> list[list[dict[str, str]]]:
    """The ``dice`` field of a log for ``dice``."""
    return [[{"symbol": s, "colour": c.value} for s, c in die] for die in dice]


Answerer = Callable[[random.Random, str, int, list[str]], str | None]
"""A player model's answer: the symbol it names (or None) for the symbol under the cup, rolled
so many moves ago, among the dice's symbols."""


def random_round(
    rng: random.Random,
    players: Sequence[str],
    first: str,
    accuracy: float,
    dice: Dice = SAMPLE_DICE,
    answer: Answerer | None = None,
) -> tuple[dict[str, Any], dict[str, int], str]:
    """One legal round begun by ``first``: its log, the points won, and the golden-cup holder.

    ``accuracy`` is the chance that a guess is right; ``answer`` (a player model,
    :mod:`pathcheck.analysis.players`), given the symbol under the cup, how many moves ago it
    was rolled and every symbol of the dice, names one (or None) instead.
    """
    left = dict.fromkeys(Colour, CUPS_PER_COLOUR)
    unrolled = list(range(1, len(dice) + 1))
    covering: list[dict[str, Any]] = []
    player = first
    golden_by: str | None = None
    while golden_by is None:
        die = rng.choice(unrolled)
        unrolled.remove(die)
        symbol, colour = rng.choice(dice[die - 1])
        if not unrolled or left[colour] == 0:
            cup, golden_by = Cup.GOLDEN, player
        else:
            cup = Cup.of(colour)
            left[colour] -= 1
        covering.append({"player": player, "die": die, "symbol": symbol,
                         "colour": colour.value, "cup": cup.value})
        player = players[(players.index(player) + 1) % len(players)]
    points = dict.fromkeys(players, 0)
    uncovering: list[dict[str, Any]] = []
    guesser = golden_by
    holder_of_golden = golden_by
    all_symbols = [s for die in dice for s, _ in die]
    for number, roll in enumerate(covering, 1):
        guess: str | None
        if answer is not None:
            guess = answer(rng, roll["symbol"], len(covering), all_symbols)
            right = guess == roll["symbol"]
            holder = guesser if right else players[(players.index(guesser) + 1) % len(players)]
        elif rng.random() < accuracy:
            guess = roll["symbol"]
            holder = guesser
        else:
            guess = None if rng.random() < 0.3 else rng.choice(
                [s for s in all_symbols if s != roll["symbol"]])
            holder = players[(players.index(guesser) + 1) % len(players)]
        uncovering.append({"player": guesser, "cup": number, "guess": guess})
        cup = Cup(roll["cup"])
        points[holder] += cup.points
        if cup is Cup.GOLDEN:
            holder_of_golden = holder
        guesser = holder
    return {"covering": covering, "uncovering": uncovering}, points, holder_of_golden


def random_game(
    rng: random.Random,
    *,
    players: int | None = None,
    with_dice: bool = True,
    accuracy: float | None = None,
    answer: Answerer | None = None,
) -> dict[str, Any]:
    """A whole legal game, played until someone reaches 20 points, as a ``memo-dice/1`` log.

    ``players`` (named from :data:`PLAYER_NAMES`) defaults to 2-4; ``accuracy`` (the chance a
    guess is right) defaults to a random value per game.
    """
    names = PLAYER_NAMES[: rng.randint(MIN_PLAYERS, MAX_PLAYERS) if players is None else players]
    acc = rng.uniform(0.2, 0.95) if accuracy is None else accuracy
    scores = dict.fromkeys(names, 0)
    first = rng.choice(list(names))
    rounds = []
    while max(scores.values()) < TARGET:
        rnd, points, first = random_round(rng, names, first, acc, answer=answer)
        rounds.append(rnd)
        for p, n in points.items():
            scores[p] += n
    log: dict[str, Any] = {"format": FORMAT, "players": list(names)}
    if with_dice:
        log["dice"] = dice_json()
    log["rounds"] = rounds
    return log


def game_scores(log: dict[str, Any]) -> dict[str, int]:
    """The final scores of a legal generated log, counted by the generator's own rules."""
    players = log["players"]
    scores = dict.fromkeys(players, 0)
    for rnd in log["rounds"]:
        guesser = rnd["uncovering"][0]["player"]
        for guess in rnd["uncovering"]:
            roll = rnd["covering"][guess["cup"] - 1]
            right = guess["guess"] is not None and same_symbol(guess["guess"], roll["symbol"])
            holder = guesser if right else players[(players.index(guesser) + 1) % len(players)]
            scores[holder] += Cup(roll["cup"]).points
            guesser = holder
    return scores
