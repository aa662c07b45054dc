"""The C fast path of the robot memory adjudicator, for clean ``robot-memory/1`` logs.

``pathcheck._speedups.robot_replay`` (pathcheck/speedups/c/robot_replay.c and robot_word.c)
reads the log as msgspec decoded it (:class:`~pathcheck.games.robot_memory.log.
RobotMemoryEntry`) and replays it as :class:`~pathcheck.games.robot_memory.state.Replay`
would: the seats, each round's layout and first active player, who points and who guesses,
each card turned and scored, the chain after a short circuit named, the end of each round. It
builds the ruling's rounds (events, moves, facts, running scores, grids) itself; what a guess
on a card says is worded once here (:func:`_word`, from the replay's own words) and kept.

The C side takes only logs the Python replay rules without a violation or a note: three
rounds, every setup by the rules, every card recorded, every turn in order, pointed at by the
right player, every card turned once and named by at least one feature, recorded points
right, every card turned by each round's end, and in team play no change of Captain. At
anything else (and at what :func:`~pathcheck.games.robot_memory.log.read_entry` would refuse)
it answers None, and :func:`fast_ruling` too; the Python replay then rules on the whole log
and words every error. Without the extension it is always None.
tests/games/test_robot_memory_fast.py checks that both paths give the same Ruling.

>>> import random
>>> from pathcheck.games.robot_memory.gen import random_game
>>> from pathcheck.games.robot_memory.log import LOG_FORMAT, read_entry
>>> from pathcheck.games.robot_memory.adjudicator import rule_python
>>> log = random_game(random.Random(5))
>>> ruling = fast_ruling(LOG_FORMAT.read(log, source="demo"), source="demo")
>>> ruling is None or ruling == rule_python(log, source="demo")
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import UNSET

from pathcheck.facts import GuessFact, LayoutFact, StartFact
from pathcheck.games.robot_memory.at import score_table
from pathcheck.games.robot_memory.log import FORMAT, RobotMemoryEntry
from pathcheck.games.robot_memory.rules import (
    ALL_MEMORY_CARDS,
    COLOURS,
    GAME,
    NEXT_ROUND_FIRST,
    SOLO_GOAL,
    TYPES,
    Card,
    Guess,
    ShortCircuit,
)
from pathcheck.games.robot_memory.state import winners_of, worded
from pathcheck.ruling import Event, MoveRef, Round, Ruling

try:
    from pathcheck import _speedups

    _replay: Callable[..., Any] | None = _speedups.robot_replay
    _replay_json: Callable[..., Any] | None = _speedups.robot_replay_json
    _marks_json: Callable[..., Any] | None = _speedups.robot_marks_json
except (ImportError, AttributeError):  # no C compiler at install time: Python rules every log
    _replay = None
    _replay_json = None
    _marks_json = None

_CARD_CODES = 65
"""A card's code in the C side: 0-63 the memory cards (rules.ALL_MEMORY_CARDS), 64 a short
circuit."""
_GUESS_CODES = 126
"""A guess's code: type * 25 + colour * 5 + number (each 0 where not named, else 1 + its index
in TYPES, COLOURS, 1-4), 125 "short circuit"."""
_SHORT_CIRCUIT = ShortCircuit()
_KIT = (Event, Round, MoveRef, GuessFact, LayoutFact, StartFact, NEXT_ROUND_FIRST,
        ("round", "index", "player", "pointer"))

_said: list[Any] = [None] * (_GUESS_CODES * _CARD_CODES * 2)
"""By (guess * 65 + card) * 2 + solo: what a guess on a card says (see :func:`_word`), filled
by the C side the first time the guess meets the card (at most 16,380 entries)."""


def card_of(code: int) -> Card:
    """The card of a C code.

    >>> card_of(0).describe(), card_of(64).describe()
    ('1 yellow battery', 'a short circuit')
    """
    return _SHORT_CIRCUIT if code == _CARD_CODES - 1 else ALL_MEMORY_CARDS[code]


def guess_of(code: int) -> Guess:
    """The guess of a C code.

    >>> guess_of(125).describe(), guess_of(4 * 25 + 2 * 5 + 3).describe()
    ('"short circuit"', '"3 red bulbs"')
    """
    if code == _GUESS_CODES - 1:
        return Guess(short_circuit=True)
    kind, colour, number = code // 25, code // 5 % 5, code % 5
    return Guess(type=TYPES[kind - 1] if kind else None,
                 colour=COLOURS[colour - 1] if colour else None,
                 number=number or None)


def decode(index: int) -> tuple[Guess, Card, bool]:
    """The guess, card and solo play of an index of :data:`_said`."""
    rest, solo = divmod(index, 2)
    guess, card = divmod(rest, _CARD_CODES)
    return guess_of(guess), card_of(card), bool(solo)


_guesses: list[tuple[Guess, str, tuple[str, ...]] | None] = [None] * _GUESS_CODES
"""By code: the guess, its words and the features it names (made once)."""
_cards: list[tuple[Card, str] | None] = [None] * _CARD_CODES
"""By code: the card and its words (made once)."""


def _guess_words(code: int) -> tuple[Guess, str, tuple[str, ...]]:
    guess = guess_of(code)
    found = _guesses[code] = (guess, guess.describe(), ("short-circuit",) if guess.short_circuit
                              else tuple(guess.named()))
    return found


def _card_words(code: int) -> tuple[Card, str]:
    card = card_of(code)
    found = _cards[code] = (card, card.describe())
    return found


def _word(index: int) -> tuple[str, Any, int, bool, str, str, tuple[str, ...]]:
    """What the guess of :data:`_said`'s ``index`` says of its card, as the Python replay
    words it (state.worded): the end of the event's text, the rule, the points, whether a
    short circuit was named, the card and the guess as the fact words them, the features.
    About half of the 16,380 indices turn up in a batch of thousands of logs, each worded
    once: the guess's and the card's words are kept by their codes."""
    rest, solo = divmod(index, 2)
    guess_code, card_code = divmod(rest, _CARD_CODES)
    guess, guess_text, features = _guesses[guess_code] or _guess_words(guess_code)
    card, card_text = _cards[card_code] or _card_words(card_code)
    _, _, result, words, card_text, guess_text, features = worded(
        guess, card, bool(solo), card_text, guess_text, features)
    return (words, result.rule, result.points, result.short_circuit_named, card_text,
            guess_text, features)


def trace(entry: RobotMemoryEntry, analysis: tuple[Any, list[Any], Callable[[int], Any]]
          ) -> tuple[tuple[int, ...], list[Any]] | None:
    """What the analysis needs of the C replay of ``entry``: the final scores by side, and
    each guess as an ``AnalysedMove`` (``analysis``: that type, a list like :data:`_said` of
    each guess on a card judged, and the judge that fills it; see
    :func:`pathcheck.analysis.robot_memory.analyse_entry`); None if the C side declines."""
    if _replay is None:  # looked up at each call: the tests switch the C side off
        return None
    found: tuple[tuple[int, ...], list[Any]] | None = _replay(entry, UNSET, _said, _word, _KIT,
                                                              analysis)
    return found


def marks_json(entry: RobotMemoryEntry, judged: list[Any], judge: Callable[[int], Any]) -> Any:
    """What the analysis writes of the C replay of ``entry`` for ``--format json|jsonl``: the
    moves' JSON, the final scores by side and each person's counts
    (``_speedups.robot_marks_json``, with the analysis's ``judged`` table and ``judge``);
    None if the C side declines the log, False if it cannot write it (or is not built: then
    :func:`trace` declines too)."""
    if _replay is None or _marks_json is None:  # looked up at each call: the tests switch it
        return False
    return _marks_json(entry, UNSET, _said, _word, judged, judge)


def sides_of(entry: RobotMemoryEntry) -> tuple[str, ...]:
    """The scoring sides of a log the C side took: its players, or its teams' names."""
    if entry.teams is not UNSET:
        return tuple(team.name for team in entry.teams)
    return tuple(entry.players or ())


def fast_ruling(entry: RobotMemoryEntry, *, source: str, for_json: bool = False
                ) -> Ruling | None:
    """The ruling on the log ``entry`` as the Python replay gives it, or None if the C side
    declines (or the extension is not built).

    ``for_json``: the ruling is only to be encoded (``to_json``), so its rounds may come as
    the JSON array msgspec would write of them (a :class:`msgspec.Raw` in ``rounds``, written
    by ``_speedups.robot_replay_json``); the bytes encoded are the same."""
    if _replay is None:  # looked up at each call: the tests switch the C side off
        return None
    rounds: Any = None  # Round values, or their JSON as a msgspec.Raw (see the docstring)
    table: str | None = None
    if for_json and _replay_json is not None:
        written = _replay_json(entry, UNSET, _said, _word, _said_json, _word_json, _JSON_KIT)
        if written is None:  # not a clean log: the Python replay rules on it
            return None
        if written is not False:  # (False: a name it cannot write; made as values below)
            raw, table, totals = written
            rounds = msgspec.Raw(raw)
            sides = sides_of(entry)
            scores = dict(zip(sides, totals, strict=True))
    if rounds is None:
        found: tuple[list[Round], str | None] | None = _replay(entry, UNSET, _said, _word, _KIT,
                                                                 None)
        if found is None:
            return None
        rounds, table = found
        sides = sides_of(entry)
        scores = dict(rounds[-1].scores)
    solo = entry.variant == "solo"
    winners, tie = winners_of(scores, solo)
    notes: list[str] = []
    if entry.teams is not UNSET:
        for team in entry.teams:
            members = ", ".join(m + (" (captain)" if m == team.captain else "")
                                for m in team.members)
            notes.append(f"team {team.name}: {members}")
    if solo:
        notes.append(f"solo play has no winner: {SOLO_GOAL.quote} Score: {scores[sides[0]]}")
    return Ruling(
        game=GAME,
        format=FORMAT,
        source=source,
        players=list(sides),
        rounds=rounds,
        final_scores=scores,
        winners=winners,
        violations=(),
        tie_break=tie,
        notes=tuple(notes),
        display=score_table(sides, rounds) if table is None else table,
    )


_said_json: list[tuple[bytes, bytes, bytes, bytes] | None] = [None] * len(_said)
"""By :data:`_said`'s index: what robot_json.c writes of a guess on a card, filled by the C
side through :func:`_word_json` (made from :data:`_said`'s entry)."""
_JSON_KIT = (msgspec.json.encode(NEXT_ROUND_FIRST),)
"""What robot_json.c needs besides (its RJ_* names): the rule of a round's first player."""


def _word_json(index: int) -> tuple[bytes, bytes, bytes, bytes]:
    """:data:`_said`'s entry ``index`` as msgspec encodes its parts in the ruling: the end of
    the event's text (JSON without its quotes), the rule, the points, and the GuessFact from
    its ``card`` field on (without the closing brace).

    >>> _said[0] = _word(0)
    >>> end, rule, points, fact = _word_json(0)
    >>> points, fact.startswith(b',"card":')
    (b'0', True)
    """
    words, rule, points, _, card, guess, features = _said[index] or _word(index)
    encode = msgspec.json.encode
    fact = encode(GuessFact("", "", "", "", card, guess, features, points))
    found = _said_json[index] = (encode(words)[1:-1], encode(rule), encode(points),
                                 fact[fact.index(b',"card":'):-1])
    return found
