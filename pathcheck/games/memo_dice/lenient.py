"""The faults of a Memo Dice log that the C replay met, worded as the Python replay words them.

``pathcheck._speedups.memo_dice_lenient`` (pathcheck/speedups/c/memo_dice_lenient.c) replays
a log as :class:`~pathcheck.games.memo_dice.state.Replay` does, through its faults too (each
move taken as played, the replay stopped where the log cannot go on), and writes the ruling's
rounds as JSON. At each fault it calls :func:`word_fault` with numbers, ``(code, round,
index, seat, part, i, a, b, c, d, obj)`` (the ``MLF_*`` codes of memo_dice_lenient.c, here
``F_*``), which words the :class:`~pathcheck.ruling.Violation` with the replay's own
sentence, rule and fact, keeps it, and hands back the JSON of the round's ``ILLEGAL:``
event. :func:`stop_notes` and :func:`game_end_violation` word what the C side hands back
at the end. tests/games/test_memo_dice_json.py compares every ruling with the Python
replay's, byte for byte, on fixtures, random, mutated and hostile logs.

>>> found: list[Violation] = []
>>> event = word_fault(found, ("Ann", "Bob"), F_TURN_ORDER, 1, 2, 0, 0, 1, 1, 0, 0, 0, None)
>>> found[0].message, found[0].move.pointer
("Ann rolls, but it is Bob's turn", '/rounds/0/covering/1')
>>> event[:40]
b'{"text":"ILLEGAL: Ann rolls, but it is B'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from pathcheck.facts import CoveringStopsFact, NeverUncoveredFact
from pathcheck.games.memo_dice.rules import (
    COVERING_END,
    CUP_COLOUR,
    DIE_ONCE,
    FIRST_PLAYER,
    GAME_END,
    GOLDEN_LAST_DIE,
    GOLDEN_NO_CUP,
    RIGHT_GUESS,
    ROLL_FACE,
    TARGET,
    TURN_ORDER,
    UNCOVER_ALL,
    UNCOVER_ORDER,
    UNCOVER_START,
    WRONG_GUESS,
)
from pathcheck.render.words import counted
from pathcheck.ruling import (
    CoverFact,
    CoveringEndedFact,
    DieFact,
    Event,
    Fact,
    GameEndFact,
    IllegalFact,
    MoveRef,
    Rule,
    TurnFact,
    UncoverFact,
    Violation,
)

(F_ROLL_AFTER_END, F_FIRST_PLAYER, F_TURN_ORDER, F_DIE_ONCE, F_NO_FACE, F_FACE_COLOUR,
 F_GOLDEN_EARLY, F_LAST_NOT_GOLDEN, F_NO_CUP_LEFT, F_CUP_COLOUR, F_COVERING_STOPS,
 F_UNCOVERED_TWICE, F_UNCOVER_TURN, F_UNCOVER_ORDER, F_NEVER_UNCOVERED) = range(15)
"""The fault codes, in the order of memo_dice_lenient.c's MLF_* enum."""

_COLOURS = ("red", "blue", "black", "golden")
"""A colour or cup by its number in the C side."""
_WHY = (UNCOVER_START, RIGHT_GUESS, WRONG_GUESS)
"""Whose turn it was to uncover, by the C side's number: the rule that says so."""
_encode = msgspec.json.Encoder().encode


def _pointer(number: int, part: int, i: int) -> str:
    """A move's JSON pointer: part 0 covering, 1 uncovering (move ``i``), 2 the uncovering."""
    if part == 2:
        return f"/rounds/{number - 1}/uncovering"
    return f"/rounds/{number - 1}/{'uncovering' if part else 'covering'}/{i}"


def _fault(code: int, number: int, player: str | None, players: Sequence[str], a: int, b: int,
           c: int, d: int, obj: Any) -> tuple[Rule, str, Fact]:
    """The rule, message and fact of a fault, as state.Replay words it."""
    if code == F_ROLL_AFTER_END:
        return (COVERING_END, f"{player} rolls die {a} after {players[b]} covered a die with "
                "the golden cup, which ended covering",
                CoveringEndedFact(player or "", a, players[b]))
    if code in (F_FIRST_PLAYER, F_TURN_ORDER):
        expected = players[a]
        if code == F_FIRST_PLAYER:
            return (FIRST_PLAYER, f"{player} begins round {number}, but {expected} had the "
                    "golden cup", TurnFact(player or "", expected))
        return (TURN_ORDER, f"{player} rolls, but it is {expected}'s turn",
                TurnFact(player or "", expected))
    if code == F_DIE_ONCE:
        return (DIE_ONCE, f"die {a} was already rolled and covered this round",
                DieFact(a, None, None))
    if code == F_NO_FACE:
        return ROLL_FACE, f"die {a} has no {obj!r} face", DieFact(a, obj, None)
    if code == F_FACE_COLOUR:
        return (ROLL_FACE, f"{obj} is {_COLOURS[b]} on die {a}, not {_COLOURS[c]}",
                DieFact(a, obj, _COLOURS[b]))
    if code in _COVERS:
        return _cover(code, a, _COLOURS[b], c, d, obj)
    if code == F_COVERING_STOPS:
        return (COVERING_END, f"covering stops after {a} {'die' if a == 1 else 'dice'}, "
                "before any was covered with the golden cup", CoveringStopsFact(a))
    if code == F_UNCOVERED_TWICE:
        return (UNCOVER_ORDER, f"cup {a} was already uncovered (it went to {players[b]})",
                UncoverFact(a, None, players[b]))
    if code == F_UNCOVER_TURN:
        expected = players[b]
        turn = (f"{expected} used the golden cup and starts uncovering",
                f"{expected} was right and goes on",
                f"the cup went to {expected}, whose turn it is")[a]
        return (_WHY[a], f"{player} names a symbol, but {turn}",
                TurnFact(player or "", expected))
    if code == F_UNCOVER_ORDER:
        return (UNCOVER_ORDER, f"cup {a} is uncovered before cup {b}", UncoverFact(a, b, None))
    if code == F_NEVER_UNCOVERED:
        covered: tuple[int, ...] = obj
        message = (f"cup {covered[0]} was never uncovered; it scores for nobody"
                   if len(covered) == 1 else
                   f"cups {', '.join(map(str, covered))} were never uncovered; they score "
                   "for nobody")
        return UNCOVER_ALL, message, NeverUncoveredFact(covered)
    raise ValueError(f"memo_dice_lenient: no fault has code {code}")


_COVERS = (F_GOLDEN_EARLY, F_LAST_NOT_GOLDEN, F_NO_CUP_LEFT, F_CUP_COLOUR)
"""The faults of a cup that covers a die (a: the die, b: the symbol's colour, c: the cup or,
for F_GOLDEN_EARLY, how many cups of the colour were left, d: whether one was)."""


def _cover(code: int, die: int, colour: str, c: int, d: int, symbol: str
           ) -> tuple[Rule, str, Fact]:
    """The rule, message and fact of a cup that covers a die against the rules."""
    if code == F_GOLDEN_EARLY:
        return (CUP_COLOUR, f"{colour} {symbol} covered with the golden cup while "
                f"{counted(c, f'{colour} cup')} {'was' if c == 1 else 'were'} left",
                CoverFact(die, colour, symbol, "golden", None, True))
    cup = _COLOURS[c]
    if code == F_LAST_NOT_GOLDEN:
        return (GOLDEN_LAST_DIE, f"the last die ({symbol}) covered with a {cup} cup instead "
                "of the golden cup", CoverFact(die, colour, symbol, cup, None, bool(d)))
    if code == F_NO_CUP_LEFT:
        return (GOLDEN_NO_CUP, f"{colour} {symbol} covered with a {cup} cup, but no {colour} "
                "cup was left: the golden cup was due",
                CoverFact(die, colour, symbol, cup, None, False))
    return (CUP_COLOUR, f"{colour} {symbol} covered with a {cup} cup",
            CoverFact(die, colour, symbol, cup, None, True))


_UNFINISHED = (F_COVERING_STOPS, F_NEVER_UNCOVERED)
"""The faults of a log that stops before the rule could be met (Violation.unfinished)."""


def word_fault(found: list[Violation], players: Sequence[str], code: int, number: int,
               index: int, seat: int, part: int, i: int, a: int, b: int, c: int, d: int,
               obj: Any) -> bytes:
    """A fault of move ``index`` of round ``number`` (by ``seat``, -1: nobody) worded as
    state.Replay's ``_violate`` words it: the Violation appended to ``found``, the JSON of
    its ``ILLEGAL:`` event returned (see the module doc)."""
    player = None if seat < 0 else players[seat]
    move = MoveRef(round=number, index=index, player=player, pointer=_pointer(number, part, i))
    rule, message, fact = _fault(code, number, player, players, a, b, c, d, obj)
    found.append(Violation(rule, move, message, fact, code in _UNFINISHED))
    return _encode(Event(f"ILLEGAL: {message}", move, rule, {}, IllegalFact(rule.id, player)))


def game_end_violation(number: int, ended: int, player: str, scores: dict[str, int],
                       winners: Sequence[str]) -> Violation:
    """Round ``number`` played after the game ended in round ``ended`` (state.Replay.play's
    violation), the scores as they stood then."""
    reached = tuple(p for p, points in scores.items() if points >= TARGET)
    return Violation(
        GAME_END,
        MoveRef(round=number, index=1, player=player, pointer=f"/rounds/{number - 1}/covering/0"),
        f"round {number} is played after the game ended in round {ended}",
        GameEndFact(ended, reached, TARGET, dict(scores), tuple(winners)))


def stop_notes(golden: Sequence[int], stop_at: int, rounds: int) -> list[str]:
    """The replay's notes: each round after which nobody's start is checked, and the rounds
    not ruled on (from ``stop_at``, 0: none, to ``rounds``)."""
    notes = [f"nobody got the golden cup in round {number}: who begins round {number + 1} is "
             "not checked" for number in golden]
    if stop_at:
        which = (f"round {stop_at} was" if stop_at == rounds
                 else f"rounds {stop_at}-{rounds} were")
        notes.append(f"{which} not ruled on (replay stopped at the violation above)")
    return notes
