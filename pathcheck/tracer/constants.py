"""The dungeon's rule constants, written once: every tracer and the C extension use these.

- :class:`AdditionalRule`: the additional rules #1-#4 as one bit flag, bit ``r - 1`` for rule
  ``r``. It is the only bit encoding of a rule set: the Python and C tracers, the C record
  scanner, the solo kernel and its statistics all use it. (Seed codes publish their own
  layout, a shifted copy: :mod:`pathcheck.solo.seed_codes` converts at its codec boundary.)
- :data:`BOUND` (rule #2's 9x9 square) and :data:`GHOST_LIMIT` (rule #3).
- :data:`REASONS`: the Lost reason codes, in spec section 3's precedence order.

The C extension gets the bound, the ghost limit, the rule bits and the reason order with its
tables (:func:`pathcheck.speedups.make_tables`), never from ``#define`` s of its own.

>>> AdditionalRule.of([2, 4])
<AdditionalRule.BOUND|GHOST_TWICE: 10>
>>> sorted(AdditionalRule(10).numbers())
[2, 4]
>>> REASONS[OUT_OF_BOUNDS]
'out-of-bounds'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class AdditionalRule(enum.IntFlag):
    """The additional rules of the dungeon game (docs/rules.md): bit ``r - 1`` for rule #r."""

    LOST_CARDS = 1
    """#1: a Lost card goes beside the last tile."""
    BOUND = 2
    """#2: a tile outside the 9x9 square centred on the start is Lost."""
    GHOST_FIVE = 4
    """#3: the fifth Ghost of a dungeon is Lost."""
    GHOST_TWICE = 8
    """#4: the same Ghost twice is Lost (advanced rules only)."""

    @classmethod
    def of(cls, numbers: Iterable[int]) -> AdditionalRule:
        """The flag of rule numbers (each 1-4; ValueError for any other)."""
        flag = cls(0)
        for number in numbers:
            if number not in RULE_NUMBERS:
                raise ValueError(f"#{number} is not an additional rule (1-4)")
            flag |= cls(1 << (number - 1))  # the one place a rule number becomes a bit
        return flag

    @property
    def number(self) -> int:
        """The rule number of a single rule.

        >>> AdditionalRule.GHOST_FIVE.number
        3
        """
        return int(self).bit_length()

    def numbers(self) -> frozenset[int]:
        """The rule numbers of this flag."""
        return frozenset(number for number in RULE_NUMBERS
                         if self & AdditionalRule.of([number]))


RULE_NUMBERS = (1, 2, 3, 4)
TRACING = AdditionalRule.BOUND | AdditionalRule.GHOST_FIVE | AdditionalRule.GHOST_TWICE
"""The rules that change tracing (#1 only adds Lost cards)."""
ADVANCED_ONLY = AdditionalRule.GHOST_TWICE
"""The rules a record may use only with the advanced rules."""


def tracing_mask(numbers: Iterable[int]) -> int:
    """The tracers' mask of a set of rule numbers (rules that do not change tracing drop).

    >>> tracing_mask([1, 2, 3])
    6
    """
    flag = AdditionalRule.of(number for number in numbers if number in RULE_NUMBERS)
    return int(flag & TRACING)


BOUND = 4
"""Rule #2: the 9x9 square centred on the start is ``max(|x|, |y|) <= BOUND``."""
GHOST_LIMIT = 5
"""Rule #3: the 5th Ghost tile of a dungeon makes it Lost."""

# Reason codes, in the order of spec section 3's precedence for the placement checks.
HELD, MISPLACED, OUT_OF_BOUNDS, GHOST_FIVE, GHOST_TWICE, DEAD_END, LOOP, REVERSE = range(8)
REASONS: tuple[str | None, ...] = (None, "misplaced", "out-of-bounds", "ghost-five",
                                   "ghost-twice", "dead-end", "loop", "reverse")
"""The name of each reason code (None: the dungeon held)."""

RULE_OF_REASON = {OUT_OF_BOUNDS: AdditionalRule.BOUND, GHOST_FIVE: AdditionalRule.GHOST_FIVE,
                  GHOST_TWICE: AdditionalRule.GHOST_TWICE}
"""The additional rule behind each rule-Lost reason code."""
