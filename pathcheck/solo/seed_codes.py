"""Solo-challenge seed codes and the documented shuffle (spec section 5, docs/seeds.md).

A seed code carries a format version, the additional rules and a 35-bit seed, and ends with a
check character, in Crockford base32 grouped ``VRSSS-SSSSC``:

>>> code = SeedCode(seed=123456789, rules=frozenset({2, 3}))
>>> str(code)
'1303N-QK8NC'
>>> SeedCode.parse("13 03n-qk8nc") == code
True
>>> deal(0)[:4]
['START', 'R6', 'R7', 'L6']

The shuffle is SplitMix64 from the seed driving a Fisher-Yates shuffle of the 37 non-START
tiles of the standard set in file order; it never uses Python's :mod:`random`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from pathcheck.errors import InputError
from pathcheck.reading.bounded import cut
from pathcheck.reading.text import ascii_number
from pathcheck.tracer.constants import RULE_NUMBERS, TRACING, AdditionalRule
from pathcheck.tracer.tileset import TileSet, load_tileset

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford base32: digit value = index (no I, L, O, U)."""
ALIASES = {"I": "1", "L": "1", "O": "0"}
"""Crockford's decoding of look-alike letters."""
SEPARATORS = frozenset("- \t")
"""Characters ignored anywhere in a code."""

VERSION = 1
"""The seed-code format version this module writes and reads."""
SEED_BITS = 35
"""Bits of seed in a version-1 code: seven base32 characters."""
SEED_LIMIT = 1 << SEED_BITS
SEED_CHARS = 7
CODE_CHARS = 10
"""version, rules, seven seed characters, check."""
GROUP = 5
"""Characters per group in the printed code."""

SOLO_RULES = TRACING
"""The additional rules solo play allows (#2, #3, #4)."""
CODE_SHIFT = 1
"""The rules character is the :class:`~pathcheck.tracer.constants.AdditionalRule` flag of the solo
rules shifted right by one (rule #2 is bit 0, #3 bit 1, #4 bit 2): codes are a published
format, so this one shift (in :func:`rules_bits` / :func:`bits_rules`) is the only place where
a rule set has another bit layout."""

GF_POLY = 0b100101
"""x^5 + x^2 + 1, primitive: the field GF(32) of the check character."""

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


class SeedCodeError(InputError):
    """A seed code that cannot be read (bad character, typo, unknown version ...)."""


# --- the check character -----------------------------------------------------------------


def _times_alpha(value: int) -> int:
    """``value * x`` in GF(32)."""
    value <<= 1
    if value & 0b100000:
        value ^= GF_POLY
    return value


def check_value(digits: Iterable[int]) -> int:
    """The check digit of base32 ``digits``: Horner's rule in GF(32) with x as the point.

    ``c = d0·x^n + d1·x^(n-1) + ... + d(n-1)·x``, + being XOR. It changes under every single
    substitution and every swap of two different neighbours, the check included.

    >>> check_value([1, 0, 0, 0, 0, 0, 0, 0, 0])
    26
    """
    acc = 0
    for digit in digits:
        acc = _times_alpha(acc ^ digit)
    return acc


# --- codes -------------------------------------------------------------------------------


def rules_bits(rules: Iterable[int]) -> int:
    """The rules character's value; InputError for a rule not allowed in solo play.

    >>> rules_bits([2, 4])
    5
    """
    flag = AdditionalRule(0)
    for rule in rules:
        bit = AdditionalRule.of([rule]) if rule in RULE_NUMBERS else AdditionalRule(0)
        if not bit & SOLO_RULES:
            raise SeedCodeError(f"rule #{rule} is not a solo rule (solo allows 2, 3 and 4)")
        flag |= bit
    return int(flag) >> CODE_SHIFT


def bits_rules(bits: int) -> frozenset[int]:
    return (AdditionalRule(bits << CODE_SHIFT) & SOLO_RULES).numbers()


@dataclass(frozen=True)
class SeedCode:
    """A solo challenge: a seed (the deck order) and the additional rules.

    >>> SeedCode.parse("1OOOO-OOOOT").seed
    0
    """

    seed: int
    rules: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if not 0 <= self.seed < SEED_LIMIT:
            raise SeedCodeError(f"seed {self.seed} is out of range (0 to {SEED_LIMIT - 1})")
        rules_bits(self.rules)

    @property
    def digits(self) -> list[int]:
        """The ten base32 digits, check included."""
        body = [VERSION, rules_bits(self.rules)]
        body += [(self.seed >> (5 * (SEED_CHARS - 1 - i))) & 31 for i in range(SEED_CHARS)]
        return [*body, check_value(body)]

    def __str__(self) -> str:
        text = "".join(ALPHABET[d] for d in self.digits)
        return "-".join(text[i:i + GROUP] for i in range(0, len(text), GROUP))

    @property
    def deck(self) -> list[str]:
        """The stack of this challenge, START first."""
        return deal(self.seed)

    @classmethod
    def parse(cls, text: str) -> SeedCode:
        """Read a code: case-insensitive, ``-`` and spaces ignored, I/L read as 1 and O as 0."""
        digits: list[int] = []
        for position, char in enumerate(text, start=1):
            if char in SEPARATORS:
                continue
            upper = ALIASES.get(char.upper(), char.upper())
            value = ALPHABET.find(upper) if len(upper) == 1 else -1
            if value < 0:
                raise SeedCodeError(
                    f"seed code {text!r}: bad character {char!r} at position {position} "
                    f"(codes use 0-9 and A-Z without U)"
                )
            digits.append(value)
        if len(digits) != CODE_CHARS:
            raise SeedCodeError(
                f"seed code {text!r}: {len(digits)} characters, expected {CODE_CHARS} "
                f"(like 1303N-QK8NC)"
            )
        if check_value(digits[:-1]) != digits[-1]:
            raise SeedCodeError(
                f"seed code {text!r}: check character mismatch, probably a typo"
            )
        if digits[0] != VERSION:
            raise SeedCodeError(
                f"seed code {text!r}: unknown version {digits[0]} "
                f"(this pathcheck reads version {VERSION})"
            )
        if digits[1] >= 8:
            raise SeedCodeError(
                f"seed code {text!r}: rules character {ALPHABET[digits[1]]!r} is not 0-7"
            )
        seed = 0
        for digit in digits[2:-1]:
            seed = seed << 5 | digit
        return cls(seed, bits_rules(digits[1]))

    @classmethod
    def random(cls, rules: Iterable[int] = ()) -> SeedCode:
        """A code with a seed from the operating system's randomness."""
        return cls(secrets.randbelow(SEED_LIMIT), frozenset(rules))


def parse_rules(text: str | None) -> frozenset[int]:
    """``"2,3"`` -> {2, 3}; SeedCodeError for anything but solo rules.

    >>> sorted(parse_rules("4, 2"))
    [2, 4]
    """
    if not text or not text.strip():
        return frozenset()
    rules: set[int] = set()
    for part in text.replace(" ", "").split(","):
        part = part.lstrip("#")
        rule = ascii_number(part)
        if rule is None:
            raise SeedCodeError(f"--rules: {cut(part)} is not a rule number (solo allows 2, "
                                "3, 4)")
        rules.add(rule)
    rules_bits(rules)
    return frozenset(rules)


# --- the shuffle -------------------------------------------------------------------------


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new_state, output)``, all arithmetic modulo 2^64.

    >>> splitmix64(0)[1] == 0xE220A8397B1DCDAF
    True
    """
    state = (state + GOLDEN_GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return state, z ^ (z >> 31)


def permutation(seed: int, n: int) -> list[int]:
    """The shuffle of ``range(n)`` for ``seed``: Fisher-Yates from the top, j = r mod (i+1).

    >>> permutation(0, 5)
    [2, 3, 1, 4, 0]
    """
    order = list(range(n))
    state = seed & MASK64
    for i in range(n - 1, 0, -1):
        # splitmix64(state), inlined: this runs for every deal of `solo stats`
        state = (state + GOLDEN_GAMMA) & MASK64
        z = ((state ^ (state >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        j = (z ^ (z >> 31)) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def deal(seed: int, tileset: TileSet | None = None) -> list[str]:
    """The solo stack for ``seed``: START, then the shuffled deck (tile ids, top first)."""
    ts = tileset or load_tileset()
    ids = ts.deck_ids(advanced=True)
    return [ts.start, *(ids[k] for k in permutation(seed, len(ids)))]
