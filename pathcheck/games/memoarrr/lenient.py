"""The faults of a Memoarrr! log that the C replay met, worded as the Python replay words
them: the violations and the note of where the replay stopped.

``pathcheck._speedups.memoarrr_lenient`` (pathcheck/speedups/c/memoarrr_replay.c) replays a
log as :meth:`~pathcheck.games.memoarrr.island.State.apply` and
:class:`~pathcheck.games.memoarrr.state.Replay` do through its faults too (the move played as
logged), and hands back each fault as numbers, ``(code, round, index, player, a, b, c)``
(the ``MF_*`` codes of pathcheck/speedups/c/memoarrr.c, here ``F_*``), in the order the
Python replay finds them, and why it stopped, if it did. :func:`violations` words them with
the Python replay's own sentences and facts; :func:`stop_note` says where it stopped.
tests/games/test_memoarrr_fast.py compares every ruling with the Python replay's, byte for
byte, on fixtures, random, mutated and hostile logs.

>>> from pathcheck.games.memoarrr.rules import TURN_ORDER
>>> found = violations(((F_TURN_ORDER, 1, 2, 1, 0, 0, 0),), ("Ann", "Ben"), 2023, [], {})
>>> found[0].rule == TURN_ORDER.r2023, found[0].message, found[0].move.pointer
(True, 'Ann was to move, not Ben', '/rounds/0/actions/1')
>>> stop_note((STOP_OUT, 2, 5, 0), ("Ann", "Ben"))[:71]
'replay stopped at round 2, move 5 (Ann already has a volcano and is out'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pathcheck.errors import pointer_join
from pathcheck.facts import (
    FaceDownFact,
    Fact,
    PositionFact,
    RoundEndFact,
    TreasureStackFact,
    TurnFact,
    UnusedAbilityFact,
)
from pathcheck.games.memoarrr.rules import (
    ABILITY_COMPULSORY,
    ABILITY_NOT_EARNED,
    ALL_CARDS,
    ALL_REVEALED,
    CENTRE,
    CRAB_EXTRA_TURN,
    FACE_DOWN,
    FIXED_POSITIONS,
    GAME_END,
    MUST_REVEAL,
    OCTOPUS_ADJACENT,
    ORDERED_STACK,
    PEEK_EXCEPTION,
    PEEK_SIDES,
    PENGUIN_FACE_DOWN,
    ROUND_END,
    ROUNDS,
    SIDES,
    SIZE,
    START_PLAYER,
    TREASURES,
    TURN_ORDER,
    WALRUS_BLOCK,
    WALRUS_FACE_DOWN,
    WALRUS_LAST_CARD,
    EditionRule,
    Pos,
    decide_winners,
)
from pathcheck.render.words import counted
from pathcheck.ruling import GameEndFact, MoveRef, PeekSideFact, Violation

(F_PEEK_SIDE, F_ORDERED_STACK, F_ROUND_OVER, F_START_PLAYER, F_CRAB, F_TURN_ORDER,
 F_MUST_REVEAL, F_FACE_UP, F_WALRUS_BLOCK, F_PEEK_EXCEPTION, F_FIXED_POSITIONS,
 F_OCTOPUS_ADJACENT, F_OCTOPUS_UNUSED, F_MARK_NOT_EARNED, F_WALRUS_LAST_CARD,
 F_WALRUS_FACE_DOWN, F_WALRUS_UNUSED, F_PEEK_NOT_EARNED, F_PENGUIN_FACE_DOWN,
 F_PENGUIN_UNUSED, F_GAME_END, F_ROUND_END) = range(22)
"""The fault codes, in the order of memoarrr.c's MF_* enum."""
STOP_ROUND, STOP_OVER, STOP_OUT = 1, 2, 3
"""Why the replay stopped (memoarrr.c's M_STOP_*): at a round, at an action after the
round's end, at an action of a player already out."""
_WHY_BASIC, _WHY_FAILED = -2, -1
"""Why an ability was not earned, when no card says it (memoarrr.c's M_WHY_*)."""

_POS = tuple(str(Pos(r, c)) for r in range(SIZE) for c in range(SIZE))
_CARD = tuple(str(card) for card in ALL_CARDS)
_SIDE_NAMES = tuple(SIDES)
_TURN = {F_START_PLAYER: (START_PLAYER, "to start the round"),
         F_CRAB: (CRAB_EXTRA_TURN, "to take the crab's extra turn"),
         F_TURN_ORDER: (TURN_ORDER, "to move")}
_UNUSED = {F_OCTOPUS_UNUSED: ("octopus", "swap"), F_WALRUS_UNUSED: ("walrus", "mark"),
           F_PENGUIN_UNUSED: ("penguin", "peek")}


def _why_not(why: int) -> str:
    """Why an ability was not earned (island.State._abilities's ``why_not``)."""
    if why == _WHY_BASIC:
        return "the basic game has no animal abilities"
    if why == _WHY_FAILED:
        return "the reveal failed"
    return f"the revealed card is a {ALL_CARDS[why].animal.value}"


def _fault(code: int, player: str, players: Sequence[str], a: int, b: int, c: int
           ) -> tuple[EditionRule, str, Fact]:
    """The rule, message and fact of a move's fault, as island.State.apply words it."""
    if code in _TURN:
        rule, why = _TURN[code]
        return rule, f"{players[a]} was {why}, not {player}", TurnFact(player, players[a])
    if code == F_MUST_REVEAL:
        return (MUST_REVEAL, f"took a volcano with {counted(a, 'face-down card')} left",
                FaceDownFact(a, None))
    if code == F_FACE_UP:
        extra = "" if c else "; all 24 are face up, so a volcano was due"
        return (FACE_DOWN if c else ALL_REVEALED,
                f"{_POS[a]} ({_CARD[b]}) is already face up{extra}",
                PositionFact(_POS[a], _CARD[b]))
    if code in _UNUSED:
        animal, ability = _UNUSED[code]
        return (ABILITY_COMPULSORY, f"the {animal} {ability} was not recorded",
                UnusedAbilityFact(animal, ability))  # type: ignore[arg-type]
    target = _POS[a]
    if code == F_WALRUS_BLOCK:
        message, rule = f"{target} was marked by the walrus for this turn", WALRUS_BLOCK
    elif code == F_PEEK_EXCEPTION:
        message, rule = f"{target} is one of the cards peeked at before round 1", PEEK_EXCEPTION
    elif code == F_FIXED_POSITIONS:  # a: the octopus's place, b: the target
        message, rule = f"swapped {target} with {_POS[b]}, but {_why_not(c)}", FIXED_POSITIONS
        target = _POS[b]
    elif code == F_OCTOPUS_ADJACENT:
        what = "the empty centre" if a == CENTRE.row * SIZE + CENTRE.col \
            else "not orthogonally adjacent"
        message, rule = f"{target} is {what} to the octopus at {_POS[b]}", OCTOPUS_ADJACENT
    elif code == F_MARK_NOT_EARNED:
        message, rule = f"marked {target}, but {_why_not(c)}", ABILITY_NOT_EARNED
    elif code == F_WALRUS_LAST_CARD:
        message = f"marked {target} with {counted(b, 'face-down card')} left"
        rule = WALRUS_LAST_CARD
    elif code == F_WALRUS_FACE_DOWN:
        message, rule = f"{target} is not a face-down card", WALRUS_FACE_DOWN
    elif code == F_PEEK_NOT_EARNED:
        message, rule = f"peeked at {target}, but {_why_not(c)}", ABILITY_NOT_EARNED
    elif code == F_PENGUIN_FACE_DOWN:
        message, rule = f"{target} is not a face-down card", PENGUIN_FACE_DOWN
    else:
        raise ValueError(f"memoarrr_lenient: no fault has code {code}")
    return rule, message, PositionFact(target)


def violations(faults: Sequence[tuple[int, ...]], players: Sequence[str], edition: int,
               treasures: Sequence[int] | None, won: Mapping[str, list[int]]
               ) -> list[Violation]:
    """The violations of ``faults`` (memoarrr_lenient's), as state.Replay words them:
    ``treasures`` is the log's stack, ``won`` what each player took, round by round."""
    r2018 = edition == 2018
    out: list[Violation] = []
    for code, number, index, seat, a, b, c in faults:
        player = players[seat]
        if code == F_PEEK_SIDE:
            side, first = _SIDE_NAMES[a], players[b]
            out.append(Violation(
                PEEK_SIDES.r2018 if r2018 else PEEK_SIDES.r2023,
                MoveRef(player=player, pointer=pointer_join("/peeks", player)),
                f"{player} peeked at the {side} side, already chosen by {first}",
                PeekSideFact(player, side, first)))
            continue
        if code == F_ORDERED_STACK:
            recorded = tuple(treasures or ())
            order = ",".join(map(str, recorded))
            out.append(Violation(
                ORDERED_STACK.r2018 if r2018 else ORDERED_STACK.r2023,
                MoveRef(pointer="/treasures"),
                f"the ordered stack must be {','.join(map(str, TREASURES))} from the "
                f"top, not {order}", TreasureStackFact(recorded, tuple(TREASURES))))
            continue
        if code == F_GAME_END:
            winners, _ = decide_winners(won)
            scores = {p: sum(won[p]) for p in players}
            out.append(Violation(
                GAME_END.r2018 if r2018 else GAME_END.r2023,
                MoveRef(round=number, pointer=f"/rounds/{number - 1}"),
                f"round {number} was played after the game ended with round {ROUNDS}",
                GameEndFact(ROUNDS, (), None, scores, tuple(winners))))
            continue
        if code == F_ROUND_END:
            still = tuple(p for i, p in enumerate(players) if a >> i & 1)
            out.append(Violation(
                ROUND_END.r2018 if r2018 else ROUND_END.r2023,
                MoveRef(round=number, pointer=f"/rounds/{number - 1}"),
                f"round {number} began before round {number - 1}'s last volcano was taken "
                f"(still in: {', '.join(still)})", RoundEndFact(number - 1, still)))
            continue
        move = MoveRef(round=number, index=index, player=player,
                       pointer=f"/rounds/{number - 1}/actions/{index - 1}")
        if code == F_ROUND_OVER:
            rule: EditionRule = ROUND_END
            message = "the round was already over: the last volcano was taken"
            fact: Fact = RoundEndFact(number, ())
        else:
            rule, message, fact = _fault(code, player, players, a, b, c)
        out.append(Violation(rule.r2018 if r2018 else rule.r2023, move, message, fact))
    return out


def stop_note(stop: tuple[int, int, int, int], players: Sequence[str]) -> str:
    """The note of where the replay stopped (state.Replay.stop's)."""
    why, number, index, seat = stop
    if why == STOP_ROUND:
        where = f"round {number}"
    else:
        fatal = ("an action after the round ended" if why == STOP_OVER
                 else f"{players[seat]} already has a volcano and is out of this round")
        where = f"round {number}, move {index} ({fatal})"
    return f"replay stopped at {where}: the rest of the log was not ruled on"
