"""Random LEGAL ``robot-memory/1`` logs, for tests and fixtures.

>>> import random
>>> log = random_game(random.Random(7), variant="solo")
>>> log["variant"], len(log["rounds"]), log["players"]
('solo', 3, ['Ann'])
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pathcheck.games.robot_memory.log import FORMAT
from pathcheck.games.robot_memory.rules import (
    ALL_MEMORY_CARDS,
    BASIC_COLUMNS,
    BASIC_MEMORY_CARDS,
    BASIC_ROWS,
    BASIC_SHORT_CIRCUITS,
    COLOURS,
    FEATURES,
    FIVE_PLUS_MIN_SHORT_CIRCUITS,
    FIVE_PLUS_PLAYERS,
    NUMBERS,
    ROUNDS,
    SHORT_CIRCUITS_IN_BOX,
    TYPES,
    Card,
    Guess,
    MemoryCard,
    ShortCircuit,
    score,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
VARIANTS = ("standard", "solo", "team", "5+", "custom")


def random_grid(
    rng: random.Random, rows: int, columns: int, memory: int, short: int
) -> list[list[Card | None]]:
    """``memory`` distinct memory cards and ``short`` short circuits laid out at random."""
    cards: list[Card | None] = [*rng.sample(ALL_MEMORY_CARDS, memory)]
    cards += [ShortCircuit()] * short
    cards += [None] * (rows * columns - len(cards))
    rng.shuffle(cards)
    return [cards[r * columns:(r + 1) * columns] for r in range(rows)]


def random_guess(rng: random.Random, card: Card) -> Guess:
    """A guess as a player might make it: often right, sometimes wrong."""
    if rng.random() < (0.7 if isinstance(card, ShortCircuit) else 0.1):
        return Guess(short_circuit=True)
    names = rng.sample(FEATURES, rng.randint(1, 3))
    values: dict[str, Any] = {}
    options: dict[str, tuple[Any, ...]] = {"type": TYPES, "colour": COLOURS, "number": NUMBERS}
    for name in names:
        if isinstance(card, MemoryCard) and rng.random() < 0.7:
            values[name] = card.feature(name)
        else:
            values[name] = rng.choice(options[name])
    return Guess(**values)


Guesser = Callable[[random.Random, Card, int], Guess]
"""A player model's guess for a card seen at setup, so many cards turned ago."""


def _any_age(rng: random.Random, card: Card, age: int) -> Guess:
    return random_guess(rng, card)


def _setup(rng: random.Random, variant: str, players: int) -> tuple[int, int, int, int]:
    """rows, columns, memory cards, short circuits for one round."""
    if variant in ("standard", "solo", "team"):
        return BASIC_ROWS, BASIC_COLUMNS, BASIC_MEMORY_CARDS, BASIC_SHORT_CIRCUITS
    rows, columns = rng.randint(2, 5), rng.randint(2, 5)
    places = rows * columns
    least = FIVE_PLUS_MIN_SHORT_CIRCUITS if players >= FIVE_PLUS_PLAYERS else 0
    short = rng.randint(least, min(SHORT_CIRCUITS_IN_BOX, places))
    memory = rng.randint(0 if short else 1, places - short)
    return rows, columns, memory, short


def random_game(
    rng: random.Random,
    *,
    players: int | None = None,
    variant: str | None = None,
    layout: tuple[int, int, int, int] | None = None,
    guess: Guesser | None = None,
) -> dict[str, Any]:
    """A random legal game of ``variant`` (random if None) with ``players`` players (or teams
    of that many players in all); ``layout`` (rows, columns, memory cards, short circuits)
    fixes the setup of a 5+ or custom game; ``guess`` (a player model,
    :mod:`pathcheck.analysis.players`) names each card instead of :func:`random_guess`."""
    variant = variant or rng.choice(VARIANTS)
    if players is None:
        players = {"standard": rng.randint(2, 4), "solo": 1, "team": rng.randint(2, 6),
                   "5+": rng.randint(5, 8), "custom": rng.randint(2, 6)}[variant]
    names = list(NAMES[:players])
    log: dict[str, Any] = {"format": FORMAT, "variant": variant}
    captains: dict[str, str] = {}
    members: dict[str, list[str]] = {}
    if variant == "team":
        if players < 2:
            raise ValueError("team play needs two players at least")
        members = {"Bolts": names[0::2], "Nuts": names[1::2]}
        captains = {team: ms[0] for team, ms in members.items()}
        log["teams"] = [{"name": t, "captain": captains[t], "members": ms}
                        for t, ms in members.items()]
        sides = list(members)
    else:
        log["players"] = names
        sides = names
    scores = dict.fromkeys(sides, 0)
    log["rounds"] = []
    for number in range(1, ROUNDS + 1):
        rows, columns, memory, short = layout or _setup(rng, variant, players)
        grid = random_grid(rng, rows, columns, memory, short)
        fewest = min(scores.values())
        first = rng.choice(sides if number == 1 else [s for s, p in scores.items() if p == fewest])
        rnd: dict[str, Any] = {
            "grid": {"rows": rows, "columns": columns,
                     "cards": [[None if c is None else c.to_json() for c in row] for row in grid]},
            "first": first,
        }
        if variant == "team" and number > 1 and rng.random() < 0.5:
            team = rng.choice(sides)
            captains[team] = rng.choice(members[team])
            rnd["captains"] = {team: captains[team]}
        rnd["turns"] = _turns(rng, variant, sides, captains, grid, first, scores,
                              guess or _any_age)
        log["rounds"].append(rnd)
    return log


def _turns(
    rng: random.Random,
    variant: str,
    sides: list[str],
    captains: dict[str, str],
    grid: list[list[Card | None]],
    first: str,
    scores: dict[str, int],
    guesser_of: Guesser,
) -> list[dict[str, Any]]:
    face_down = [(r, c) for r, row in enumerate(grid, 1) for c, card in enumerate(row, 1)
                 if card is not None]
    rng.shuffle(face_down)
    cards = len(face_down)
    turns: list[dict[str, Any]] = []
    active = first
    while face_down:
        nxt = sides[(sides.index(active) + 1) % len(sides)]
        guesser = captains[active] if variant == "team" else active
        chooser = {"team": captains.get(nxt, ""), "solo": active}.get(variant, nxt)
        turn: dict[str, Any] = {"chooser": chooser, "guesser": guesser}
        chain: list[dict[str, Any]] = []
        pick = turn
        while True:
            r, c = face_down.pop()
            card = grid[r - 1][c - 1]
            assert card is not None
            guess = guesser_of(rng, card, cards - len(face_down))
            result = score(guess, card, solo=variant == "solo")
            pick.update(position={"row": r, "column": c}, guess=guess.to_json())
            if rng.random() < 0.8:
                pick["points"] = result.points
            scores[active] += result.points
            if not (result.short_circuit_named and face_down and rng.random() < 0.8):
                break
            pick = {"chooser": guesser}
            chain.append(pick)
        if chain:
            turn["chain"] = chain
        turns.append(turn)
        active = nxt
    return turns
