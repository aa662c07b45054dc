"""The C fast path of the Memo Dice adjudicator, for clean ``memo-dice/1`` logs.

``pathcheck._speedups.memo_dice_replay`` (pathcheck/speedups/c/memo_dice_replay.c and
memo_dice_word.c) replays the log as msgspec decoded it
(:class:`~pathcheck.games.memo_dice.log.MemoDiceEntry`) as
:class:`~pathcheck.games.memo_dice.state.Replay` would, and builds the ruling's rounds
(events, facts, titles, rows of cups) as the Python replay words them; :func:`fast_ruling`
adds what the adjudicator adds (winners, the tie-break, the final table).

The C side takes only logs the Python replay rules on without a violation: every roll in
turn, each die once, the symbol on its die's face as written (when the dice are given), each
cup as the rules want it, the golden cup last; every cup uncovered in order by the player
whose turn it is; and no round after the game's end. At anything else (and at what
:func:`~pathcheck.games.memo_dice.log.read_entry` would refuse) it answers None, and so do
:func:`fast_ruling` and :func:`fast_scores`; the Python replay then rules on the whole log
and words every fault. Without the extension it is always None.
tests/games/test_memo_dice_fast.py checks that both paths give the same Ruling.

>>> import random
>>> from pathcheck.games.memo_dice.gen import random_game
>>> from pathcheck.games.memo_dice.adjudicator import rule_python
>>> log = random_game(random.Random(5), players=3)
>>> ruling = fast_ruling(LOG_FORMAT.read(log, source="demo"), source="demo")
>>> ruling is None or ruling == rule_python(log, source="demo")
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec import UNSET

from pathcheck.facts import CoverFact, CupFact, RoundPointsFact
from pathcheck.games.memo_dice.at import final_table
from pathcheck.games.memo_dice.lenient import game_end_violation, stop_notes, word_fault
from pathcheck.games.memo_dice.log import (
    FORMAT,
    LOG_FORMAT,
    FaceEntry,
    GuessEntry,
    MemoDiceEntry,
    RollEntry,
    RoundEntry,
    _read_dice,
)
from pathcheck.games.memo_dice.rules import (
    FIRST_PLAYER,
    GAME,
    GAME_END,
    GOLDEN_LAST_DIE,
    GOLDEN_NO_CUP,
    MOST_POINTS,
    POINTS,
    RIGHT_GUESS,
    TARGET,
    WRONG_GUESS,
    same_symbol,
    winners_of,
)
from pathcheck.ruling import Event, GameEndFact, MoveRef, Round, Ruling, StartFact, Violation

try:
    from pathcheck import _speedups

    _replay: Callable[..., Any] | None = _speedups.memo_dice_replay
    _json: Callable[..., Any] | None = _speedups.memo_dice_json
    _marks: Callable[..., Any] | None = _speedups.memo_dice_marks
    _lenient: Callable[..., Any] | None = _speedups.memo_dice_lenient
except (ImportError, AttributeError):  # no C compiler at install time (or an older build)
    _replay = None
    _json = None
    _marks = None
    _lenient = None

__all__ = ["LOG_FORMAT", "fast_json_ruling", "fast_marks", "fast_ruling", "fast_scores",
           "lenient_outcome"]

_KIT: tuple[Any, ...] = (
    Event, MoveRef, Round, CoverFact, CupFact, RoundPointsFact, GameEndFact, StartFact,
    GOLDEN_LAST_DIE, GOLDEN_NO_CUP, RIGHT_GUESS, WRONG_GUESS, POINTS, GAME_END, FIRST_PLAYER,
    same_symbol, {}, {}, {}, RoundEntry, RollEntry, GuessEntry, FaceEntry)
"""What memo_dice_word.c is handed (its MK_* order): the ruling's types, the rules it cites,
the symbol comparison, its caches (a cover's words by symbol, a move's JSON pointer, a
symbol's repr: the same few recur from log to log) and the log format's types."""


_JSON_KIT: tuple[Any, ...] = (
    *map(msgspec.json.encode, (GOLDEN_LAST_DIE, GOLDEN_NO_CUP, RIGHT_GUESS, WRONG_GUESS,
                               POINTS, GAME_END, FIRST_PLAYER)),
    same_symbol, {}, RoundEntry, RollEntry, GuessEntry, FaceEntry)
"""What memo_dice_json.c is handed (its MDJ_* order): the rules it cites as msgspec encodes
them, the symbol comparison, its cache of a symbol's repr and the log format's types."""


def _run(entry: MemoDiceEntry, word: bool) -> Any:
    """The C replay of ``entry`` (rounds worded, or the final scores), None where it
    declines or read_entry would refuse the log."""
    if _replay is None:  # looked up at each call: the tests switch the C side off
        return None
    dice = _dice(entry)
    if dice is False:
        return None
    return _replay(entry.rounds, entry.players, dice, _KIT, TARGET, word)


def _dice(entry: MemoDiceEntry) -> Any:
    """The log's dice for the C side (None: not given), or False where read_entry would
    refuse the log (a player named twice, a symbol on two dice)."""
    players = entry.players
    if len(set(players)) != len(players):
        return False
    if entry.dice is UNSET:
        return None
    if _read_dice(entry.dice)[1] is not None:  # a symbol on two dice: read_entry says so
        return False
    return entry.dice


def fast_marks(entry: MemoDiceEntry) -> tuple[bytes, dict[str, int],
                                              tuple[tuple[int, int, float, float], ...]] | None:
    """A clean log's analysed moves as the JSON array msgspec would write of the
    AnalysedMoves :mod:`pathcheck.analysis.memo_dice` makes (``_speedups.memo_dice_marks``),
    the final scores, and each player's (slips, sound answers, points lost, points at
    stake) in seat order; None where :func:`fast_scores` would be None."""
    if _marks is None:  # looked up at each call: the tests switch the C side off
        return None
    dice = _dice(entry)
    if dice is False:
        return None
    found = _marks(entry.rounds, entry.players, dice, _JSON_KIT, TARGET)
    if found is None:
        return None
    moves, scores, counts = found
    return moves, dict(zip(entry.players, scores, strict=True)), counts


def fast_json_ruling(entry: MemoDiceEntry, *, source: str) -> Ruling | None:
    """:func:`fast_ruling` for a ruling that is only to be encoded (``to_json``): its rounds
    come as the JSON array msgspec would write of them (a :class:`msgspec.Raw` in
    ``rounds``, written by ``_speedups.memo_dice_json``), so the bytes encoded are the same
    and no Round, Event or fact is made.

    A log with faults is replayed through them in C too (``_speedups.memo_dice_lenient``,
    the violations worded by :mod:`~pathcheck.games.memo_dice.lenient`); None where the C
    side declines (what the reader refuses, or values no decoder makes: the Python replay
    then rules or words the error) or the extension is not built."""
    if _json is None or _lenient is None:  # looked up at each call: the tests switch it off
        return None
    dice = _dice(entry)
    if dice is False:
        return None
    players = entry.players
    found = _json(entry.rounds, players, dice, _JSON_KIT, TARGET)
    if found is not None:
        rounds, totals, table = found
        scores = dict(zip(players, totals, strict=True))
        return ruling_of(players, msgspec.Raw(rounds), scores, table, source)
    violations: list[Violation] = []
    replayed = _lenient(entry.rounds, players, dice, _JSON_KIT, TARGET,
                        functools.partial(word_fault, violations, players))
    if replayed is None:
        return None
    rounds, totals, table, golden, stop_at, ended = replayed
    scores = dict(zip(players, totals, strict=True))
    winners = winners_of(players, scores)
    if stop_at and ended:
        violations.append(game_end_violation(
            stop_at, ended, entry.rounds[stop_at - 1].covering[0].player, scores, winners))
    return ruling_of(players, msgspec.Raw(rounds), scores, table, source, violations,
                   stop_notes(golden, stop_at, len(entry.rounds)))


def lenient_outcome(entry: MemoDiceEntry) -> tuple[dict[str, int], list[str], int] | None:
    """What the Python replay of a log leaves, from the C replay through its faults
    (``_speedups.memo_dice_lenient``, its words thrown away): the final scores, the replay's
    notes and how many rounds it played (:mod:`pathcheck.analysis.memo_dice` marks their
    answers); None where :func:`fast_json_ruling` would be None.

    >>> import random
    >>> from pathcheck.games.memo_dice.gen import random_game
    >>> log = random_game(random.Random(3), players=2)
    >>> log["rounds"].append(log["rounds"][-1])  # a round after the game's end
    >>> found = lenient_outcome(LOG_FORMAT.read(log, source="demo"))
    >>> found is None or found[1][-1].endswith("(replay stopped at the violation above)")
    True
    """
    if _lenient is None:  # looked up at each call: the tests switch it off
        return None
    dice = _dice(entry)
    if dice is False:
        return None
    replayed = _lenient(entry.rounds, entry.players, dice, _JSON_KIT, TARGET, _unsaid)
    if replayed is None:
        return None
    _rounds, totals, _table, golden, stop_at, _ended = replayed
    count = len(entry.rounds)
    return (dict(zip(entry.players, totals, strict=True)), stop_notes(golden, stop_at, count),
            stop_at - 1 if stop_at else count)


def _unsaid(*fault: Any) -> bytes:
    """memo_dice_lenient's ``word`` where the words are not wanted (an empty event)."""
    return b"{}"


def ruling_of(players: tuple[str, ...], rounds: Any, scores: dict[str, int], table: str,
              source: str, violations: Sequence[Violation] = (),
              notes: Sequence[str] = ()) -> Ruling:
    """The ruling on a replay, whichever made it (the C replay, its JSON or the Python
    replay, :meth:`~pathcheck.games.memo_dice.adjudicator.MemoDiceAdjudicator.rule_read`):
    the winners, the tie-break or the note that nobody won."""
    winners = winners_of(players, scores)
    tie_break = ""
    if not winners:
        notes = (*notes, f"nobody has reached {TARGET} points: the game is not over, no winner")
    elif len(winners) > 1:
        tie_break = f"tied on {scores[winners[0]]} points: \"{MOST_POINTS.quote}\""
    return Ruling(
        game=GAME,
        format=FORMAT,
        source=source,
        players=players,
        rounds=rounds,
        final_scores=scores,
        winners=tuple(winners),
        violations=tuple(violations),
        tie_break=tie_break,
        notes=tuple(notes),
        display=table,
    )


def fast_scores(entry: MemoDiceEntry) -> dict[str, int] | None:
    """The final scores of a clean log (what :class:`~pathcheck.games.memo_dice.state.Replay`
    leaves in ``scores``, every round replayed, no note), or None where :func:`fast_ruling`
    would be None.

    >>> import random
    >>> from pathcheck.games.memo_dice.gen import random_game
    >>> entry = LOG_FORMAT.read(random_game(random.Random(3), players=2), source="demo")
    >>> scores = fast_scores(entry)
    >>> scores is None or max(scores.values()) >= TARGET
    True
    """
    found = _run(entry, False)
    return None if found is None else dict(zip(entry.players, found, strict=True))


def fast_ruling(entry: MemoDiceEntry, *, source: str) -> Ruling | None:
    """The ruling on the log ``entry`` as the Python replay gives it (no picture asked for),
    or None if the C side declines (or the extension is not built)."""
    rounds: list[Round] | None = _run(entry, True)
    if rounds is None:
        return None
    players = entry.players
    scores = dict(rounds[-1].scores)
    per_round: dict[str, list[int]] = {p: [] for p in players}
    before = dict.fromkeys(players, 0)
    for rnd in rounds:
        for p, total in rnd.scores.items():
            per_round[p].append(total - before[p])
        before = rnd.scores  # type: ignore[assignment]
    return ruling_of(players, tuple(rounds), scores, final_table(players, per_round, scores),
                   source)
