"""What a robot-memory log with cards not recorded (``"unknown"``) leaves unchecked, round by
round: the ruling lists it in its notes, rule by rule, as deal-less dungeon logs do.

>>> from pathcheck.games.robot_memory.rules import UNKNOWN_CARD
>>> gaps = Unchecked(1)
>>> gaps.setup(((UNKNOWN_CARD, None),), basic=False, five_plus=False)
>>> gaps.guessed(2, "r1c1", short_circuit=False)
>>> print(gaps.note())
not checked in round 1: robot-memory/distinct-cards (that no memory card is laid out twice), \
robot-memory/short-circuit-supply (how many short circuits are laid out) and \
robot-memory/scoring (the guess of move 2 on r1c1: the points recorded are taken as \
scored, 0 where none are): 1 card not recorded (r1c1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pathcheck.games.robot_memory.at import Grid
from pathcheck.games.robot_memory.log import position_name
from pathcheck.games.robot_memory.rules import (
    CHAIN,
    DISTINCT_CARDS,
    FIVE_PLUS_SHORT_CIRCUITS,
    SCORING,
    SETUP,
    SHORT_CIRCUIT_SUPPLY,
    UnknownCard,
)
from pathcheck.render.words import counted


@dataclass
class Unchecked:
    """One round's cards not recorded and the guesses made on them."""

    round: int
    places: list[str] = field(default_factory=list)
    """The places whose card is not recorded (``r2c3``)."""
    rules: list[str] = field(default_factory=list)
    """The setup rules left unchecked, each with what it could not check."""
    guesses: list[tuple[int, str, bool]] = field(default_factory=list)
    """(move, place, a short circuit named) of each guess on a card not recorded."""

    def setup(self, grid: Grid, basic: bool, five_plus: bool) -> None:
        """Note the layout's cards not recorded and the setup rules they leave unchecked."""
        self.places = [position_name((r, c)) for r, row in enumerate(grid, 1)
                       for c, card in enumerate(row, 1) if isinstance(card, UnknownCard)]
        self.rules = [f"{DISTINCT_CARDS.id} (that no memory card is laid out twice)",
                      f"{SHORT_CIRCUIT_SUPPLY.id} (how many short circuits are laid out)"]
        if basic:
            self.rules.append(f"{SETUP.id} (13 memory cards and 3 short circuits)")
        if five_plus:
            self.rules.append(f"{FIVE_PLUS_SHORT_CIRCUITS.id} (at least 2 short circuits)")

    def guessed(self, move: int, place: str, short_circuit: bool) -> None:
        """Note a guess (move ``move`` of the round) on the card at ``place``."""
        self.guesses.append((move, place, short_circuit))

    def note(self) -> str | None:
        """The ruling's note for this round (None: everything was checked)."""
        if not self.places:
            return None
        parts = list(self.rules)
        if self.guesses:
            which = ", ".join(f"of move {move} on {place}" for move, place, _ in self.guesses)
            many = "es" if len(self.guesses) > 1 else ""
            parts.append(f"{SCORING.id} (the guess{many} {which}: the points recorded are "
                         "taken as scored, 0 where none are)")
        if any(short for _, _, short in self.guesses):
            parts.append(f"{CHAIN.id} (whether the short circuit named was one)")
        listed = ", ".join(parts[:-1]) + " and " + parts[-1]
        return (f"not checked in round {self.round}: {listed}: "
                f"{counted(len(self.places), 'card')} not recorded ({', '.join(self.places)})")
