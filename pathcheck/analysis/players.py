"""Player models: logs of every game played by players of a known memory, to calibrate the
memory score and the span (``python3 -m tests.bench.calibrate``, docs/analysis.md).

A style is one of:

- ``perfect``: remembers everything they saw;
- ``forgetful:P``: remembers a thing seen ``age`` moves ago with chance ``(1 - P) ** age``
  (forgets a share P of what they know at each move), and when they do not, plays as
  ``random`` does for that decision;
- ``random``: every decision at random among the legal ones;
- ``passive``: never acts on memory: never announces Lost, names nothing it could miss
  (Memo Dice: no answer; robot game: "short circuit"), reveals the first card it may.

Every player of a log plays the same style; the games' own generators (``gen.py``) make the
logs, the model only takes the decisions memory bears on.

>>> import random
>>> log = generate("memo-dice", "perfect", random.Random(1))
>>> from pathcheck.analysis import analyse
>>> sum(m.cost for m in analyse(log, source="demo").moves)
0.0
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pathcheck.games.memoarrr.island import State
from pathcheck.games.memoarrr.rules import SIDES, Pos
from pathcheck.games.robot_memory.rules import (
    COLOURS,
    NUMBERS,
    TYPES,
    Card,
    Guess,
    MemoryCard,
    ShortCircuit,
)

GAMES = ("dungeon", "memoarrr", "memo-dice", "robot-memory")
STYLES = ("perfect", "forgetful:0.05", "forgetful:0.2", "random", "passive")
"""The styles the calibration table compares."""


@dataclass(frozen=True)
class Style:
    """A parsed style: its kind and, for ``forgetful``, the share forgotten each move."""

    kind: str
    forget: float = 0.0

    def recalls(self, rng: random.Random, age: int) -> bool:
        """Whether the player still knows a thing seen ``age`` moves ago."""
        if self.kind == "perfect":
            return True
        if self.kind == "forgetful":
            return rng.random() < (1.0 - self.forget) ** max(age, 1)
        return False


def style(text: str) -> Style:
    """``perfect``, ``forgetful:P`` (0 < P < 1), ``random`` or ``passive``; ValueError else.

    >>> style("forgetful:0.2")
    Style(kind='forgetful', forget=0.2)
    """
    kind, _, rest = text.partition(":")
    if kind in ("perfect", "random", "passive") and not rest:
        return Style(kind)
    if kind == "forgetful":
        share = float(rest)
        if 0 < share < 1:
            return Style(kind, share)
    raise ValueError(f"no player style {text!r} (perfect, forgetful:P, random, passive)")


def generate(game: str, text: str, rng: random.Random, *, players: int = 3) -> dict[str, Any]:
    """A legal log of ``game`` (one of :data:`GAMES`) played by ``players`` players of style
    ``text``."""
    played = style(text)
    if game == "dungeon":
        return _dungeon(played, rng, players)
    if game == "memo-dice":
        return _memo_dice(played, rng, players)
    if game == "robot-memory":
        return _robot(played, rng, players)
    if game == "memoarrr":
        return _memoarrr(played, rng, players)
    raise ValueError(f"no player models for {game!r} ({', '.join(GAMES)})")


def _dungeon(played: Style, rng: random.Random, players: int) -> dict[str, Any]:
    from pathcheck.games.dungeon.gen import random_game

    def announces(rng: random.Random, age: int | None) -> bool:
        if played.kind == "random":
            return rng.random() < 0.3
        return age is not None and played.recalls(rng, age)

    # Laying in line needs only the tile on top: every style but random lays it right; a
    # forgetful player misplaces as often as it forgets a thing just seen.
    accuracy = {"random": 0.25, "forgetful": 1 - played.forget}.get(played.kind, 1.0)
    return random_game(rng, players=players, accuracy=accuracy, announces=announces)


def _memo_dice(played: Style, rng: random.Random, players: int) -> dict[str, Any]:
    from pathcheck.games.memo_dice.gen import random_game

    def answer(rng: random.Random, symbol: str, age: int, symbols: list[str]) -> str | None:
        if played.kind == "passive":
            return None
        if played.recalls(rng, age):
            return symbol
        return rng.choice(symbols)

    return random_game(rng, players=players, answer=answer)


def _random_guess(rng: random.Random) -> Guess:
    if rng.random() < 0.2:
        return Guess(short_circuit=True)
    names = rng.sample(("type", "colour", "number"), rng.randint(1, 3))
    options: dict[str, tuple[Any, ...]] = {"type": TYPES, "colour": COLOURS, "number": NUMBERS}
    return Guess(**{name: rng.choice(options[name]) for name in names})


def _robot(played: Style, rng: random.Random, players: int) -> dict[str, Any]:
    from pathcheck.games.robot_memory.gen import random_game

    def guess(rng: random.Random, card: Card, age: int) -> Guess:
        if played.kind == "passive":
            return Guess(short_circuit=True)
        if played.recalls(rng, age):
            if isinstance(card, ShortCircuit):
                return Guess(short_circuit=True)
            assert isinstance(card, MemoryCard)
            return Guess(type=card.type, colour=card.colour, number=card.number)
        return _random_guess(rng)

    return random_game(rng, players=players, variant="standard", guess=guess)


@dataclass
class _Memoarrr:
    """What each player saw of the island, and when: the reveals so far when they last saw
    each place's card (0: their side, before round 1), as the analysis counts a move's age
    (docs/analysis.md, "Memory span": the reveal just before is age 1)."""

    played: Style
    seen: dict[str, dict[Pos, int]] = field(default_factory=dict)
    moves: int = 0
    """The reveals so far."""

    def start(self, state: State, peeks: dict[str, str]) -> None:
        self.seen = {p: dict.fromkeys(SIDES[side], 0) for p, side in peeks.items()}

    def choose(self, rng: random.Random, state: State, allowed: list[Pos]) -> Pos:
        kind, last = self.played.kind, state.last
        if kind == "passive":
            return allowed[0]
        if kind == "random" or last is None:
            return rng.choice(allowed)
        seen = self.seen[state.to_move]
        now = self.moves + 1  # this reveal
        known = {p for p in allowed if p in seen and self.played.recalls(rng, now - seen[p])}
        matches = [p for p in known if state.grid[p].connects(last)]
        if matches:
            return rng.choice(matches)
        unknown = [p for p in allowed if p not in known]
        return rng.choice(unknown or allowed)

    def saw(self, state: State, action: dict[str, Any]) -> None:
        if "reveal" not in action:  # a volcano taken with every card face up shows nothing
            return
        self.moves += 1
        place = Pos.parse(action["reveal"])
        for seen in self.seen.values():
            seen[place] = self.moves
            if "swap" in action:  # when each card was seen moves with it
                other = Pos.parse(action["swap"])
                at_place, at_other = seen.pop(place, None), seen.pop(other, None)
                if at_place is not None:
                    seen[other] = at_place
                if at_other is not None:
                    seen[place] = at_other
        if "peek" in action:
            self.seen[action["player"]][Pos.parse(action["peek"])] = self.moves


def _memoarrr(played: Style, rng: random.Random, players: int) -> dict[str, Any]:
    from pathcheck.games.memoarrr.gen import random_game

    return random_game(rng, players=players, chooser=_Memoarrr(played))
