"""The wording of a Memoarrr! ruling: round titles, event texts and notes.

Shared by the replay (:mod:`~pathcheck.games.memoarrr.state`, the reference) and the C fast
path (:mod:`~pathcheck.games.memoarrr.fast`), so both say the same thing in the same words.

>>> round_title(2, "Ann", 9, 8)
'Round 2 (start: Ann; 9 turns, 8 cards face up)'
>>> start_text(2, "Ben", 2018, 7)
'Ben starts: took the volcano with the most birds (7) in round 1'
>>> edition_note(2023, expert=True, ordered_stack=False)
'2023 edition, expert'
"""

from __future__ import annotations

from functools import lru_cache

from pathcheck.games.memoarrr.rules import ROUNDS, rubies
from pathcheck.render.words import counted
from pathcheck.ruling import StartFact, UnfinishedRoundFact

LOG_ENDS_EARLY = (f"the log ends before the game does ({ROUNDS} rounds, the last treasure "
                  "claimed): standings so far, no winner")
NEVER_SEEN = "a card never seen"
"""How a swap names a card the log leaves out (null)."""


@lru_cache(maxsize=4096)
def round_title(number: int, starter: str, turns: int, face_up: int) -> str:
    """A round's title (kept: the same few recur from log to log, and the counts' wording
    costs more than the lookup)."""
    return (f"Round {number} (start: {starter}; {counted(turns, 'turn')}, "
            f"{counted(face_up, 'card')} face up)")


def start_text(number: int, starter: str, edition: int, held_rank: int) -> str:
    """Who starts round ``number``, and why (``held_rank``: the volcano they took before)."""
    if number == 1:
        return f"{starter} starts (the log's start player)"
    why = "took the dark volcano" if edition == 2023 else (
        f"took the volcano with the most birds ({held_rank})")
    return f"{starter} starts: {why} in round {number - 1}"


def start_fact(number: int, starter: str, edition: int, held_rank: int) -> StartFact:
    """What :func:`start_text` words, as fields."""
    if number == 1:
        return StartFact(starter, 1, "log")
    if edition == 2023:
        return StartFact(starter, number, "dark-volcano")
    return StartFact(starter, number, "most-birds", birds=held_rank)


def swap_text(a: str, b: str, card_at_b: object, card_at_a: object) -> str:
    """An octopus swap of ``a`` and ``b``, named by the cards now there (after the swap)."""
    return f"octopus swap: {card_at_b} {a} -> {b}, {card_at_a} {b} -> {a}"


def volcano_text(pos: str | None, card: object, previous: object, volcano: object) -> str:
    """A player out: a failed reveal at ``pos``, or (``pos`` None) a volcano taken without
    revealing."""
    if pos is None:
        return f"takes the {volcano} volcano without revealing (all 24 cards face up): out"
    return (f"reveals {pos} {card}, which connects with neither the animal nor the landscape "
            f"of {previous}: takes the {volcano} volcano, out")


def treasure_text(winner: str, treasure: int | None) -> str:
    taken = "not recorded" if treasure is None else rubies(treasure)
    return f"{winner} is the last without a volcano and takes the top treasure ({taken})"


TREASURES_UNKNOWN = ("not checked: the winners: the treasure stack is not recorded (its "
                     "cards are turned over at the end of the game)")


def unfinished_text(still: list[str]) -> str:
    return f"the round is unfinished in the log (still in: {', '.join(still)})"


def unfinished_fact(still: list[str]) -> UnfinishedRoundFact:
    return UnfinishedRoundFact(tuple(still))


def edition_note(edition: int, *, expert: bool, ordered_stack: bool) -> str:
    return f"{edition} edition" + "".join(
        f", {v}" for v, on in (("expert", expert), ("ordered stack", ordered_stack)) if on)


def unseen_note(unseen: int) -> str:
    return (f"not checked: that the island holds each card once, for the "
            f"{counted(unseen, 'card')} never revealed: the log leaves "
            f"{'it' if unseen == 1 else 'them'} out (null)")
