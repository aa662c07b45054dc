"""Memoarrr!: what each player knows of the island, and each reveal against it.

Seen by everyone: every card revealed (it stays where it is, face down again after the
round, until an octopus swaps it, which everyone sees too). Seen by one player: the 3 middle
cards of the side they looked at before round 1, and a card a penguin let them peek at.

A reveal is a move when it has a card to connect to (the first reveal of a round always
succeeds, so memory cannot bear on it): it is sound if it reveals a card the player knows
connects (or, knowing none, anything when nothing can connect), a slip if it passes over a
known connecting card or reveals a card seen not to connect while a chance was left, a guess
(with the chance that a card not seen connects) when it reveals a card not seen.

A clean log that the C replay (:mod:`pathcheck.games.memoarrr.fast`) takes is marked there,
while it is replayed (pathcheck/speedups/c/memoarrr_know.c), and only worded here; any other
log (what the C side declines: illegal moves, odd values), and every log without the C
extension, is walked through the game's own replay state
(:class:`~pathcheck.games.memoarrr.island.State`) with
:class:`~pathcheck.analysis.memoarrr_island.Island`, the plain reference the tests compare
the C marks with (tests/analysis/test_memoarrr.py). Both give each reveal as a
:data:`~pathcheck.analysis.memoarrr_island.Judged` value and word it with :func:`marked`,
from the same texts.

>>> import random
>>> from pathcheck.games.memoarrr.gen import random_game
>>> log = random_game(random.Random(3), players=2)
>>> analysis = analyse(log, source="demo")
>>> analysis.game, len(analysis.summaries), analysis.moves == analyse_replayed(
...     log, source="demo").moves
('memoarrr', 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import msgspec

from pathcheck.analysis.core import (
    AnalysedMove,
    GameAnalysis,
    Mark,
    make_analysis,
    player_summary,
    slip_mark,
)
from pathcheck.analysis.memoarrr_island import (
    AT,
    BEST_ONE,
    NOTHING,
    PASSED_OVER,
    SEEN_CONNECTS,
    Island,
)
from pathcheck.errors import RecordError
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.fast import CARD_NUMBERS, CARD_TEXT, POS_TEXT
from pathcheck.games.memoarrr.island import State
from pathcheck.games.memoarrr.lenient import STOP_OVER, STOP_ROUND
from pathcheck.games.memoarrr.log import FORMAT, Setup, read_log
from pathcheck.games.memoarrr.plain import read_plain
from pathcheck.games.memoarrr.rules import (
    CONNECT,
    ROUNDS,
    SIZE,
    Pos,
    decide_winners,
    rule_for,
)
from pathcheck.games.memoarrr.texts import TREASURES_UNKNOWN
from pathcheck.ruling import Rule

# The verdicts on a reveal, in the order of memoarrr_know.c's (a verdict + 1 is the same
# verdict on a card that connects), with the mark and the why each gives.
_VERDICTS = (
    (Mark.SOUND, "a card seen that connects"),
    (Mark.SLIP, "passed over a card seen that connects (it does not connect)"),
    (Mark.SLIP, "passed over a card seen that connects (it connects)"),
    (Mark.SOUND, "nothing could connect"),
    (Mark.SOUND, "every card not seen connects"),
    (Mark.SLIP, "a card seen not to connect, while a chance was left"),
    (Mark.GUESS, "it does not connect"),
    (Mark.GUESS, "it connects"),
)
_REVEALS = tuple(f"reveals {at}" for at in AT)
TEXTS = (BEST_ONE, AT)
"""The texts the C replay makes the best move from (see :data:`Judged`)."""
_NOTHING_CONNECTS = "any reveal: no card they could reveal can connect"
_CONNECT_TO = tuple(f"to connect to {card}; " for card in CARD_TEXT)
_KNEW: dict[int, str] = {}
"""What a mover knew, after the card to connect to, by :data:`Judged`'s ``knew`` without the
card (its low 15 bits): a few thousand texts at most, each made once."""
_NOT_SEEN: dict[int, tuple[str, float]] = {}
"""The best move and its chance when no card seen connects, by ``hits << 5 | size``."""
_POINTERS: dict[tuple[int, int], str] = {}
"""A move's JSON pointer by (round, index), each made once."""


def marked(number: int, index: int, player: str, did: int, knew: int, best: str | int | None,
           verdict: int, rule: Rule, pointer: str) -> AnalysedMove:
    """A reveal judged (:data:`Judged`), worded: what they did and knew, what a perfect
    memory does, the mark, why, the chance of a guess and the age; each text made once."""
    age = verdict >> 3 or None
    verdict &= 7
    why = _VERDICTS[verdict][1]
    key = (knew >> 20) << 3 | verdict
    mark, graded, cost, value = _MARKED.get(key) or _marked(key, knew, verdict)
    chance = None
    if isinstance(best, int):
        best, chance = _NOT_SEEN.get(best) or _not_seen(best)
        if mark is not Mark.GUESS:
            chance = None
    elif best is None:
        best = _NOTHING_CONNECTS
    seen = knew & 32767
    return AnalysedMove(number, index, player, _REVEALS[did],
                        _CONNECT_TO[knew >> 15 & 31] + (_KNEW.get(seen) or _knew(seen)), best,
                        mark, why, chance, rule, pointer, cost, value, graded, age)


_MARKED: dict[int, tuple[Mark, str | None, float, float]] = {}
"""A reveal's mark, grade, cost and value by what decides them (the verdict, and
:data:`Judged`'s ``knew`` from bit 20: the card chosen seen, the cards not seen and those
that connect), each worked out once."""


def _marked(key: int, knew: int, verdict: int) -> tuple[Mark, str | None, float, float]:
    """The mark (a slip that cost nothing is harmless), grade, cost and value of a reveal
    (kept in _MARKED)."""
    mark = _VERDICTS[verdict][0]
    cost, value = _cost(knew, verdict)
    graded = None
    if mark is Mark.SLIP:
        mark, graded = slip_mark(cost, value)
    found = _MARKED[key] = (mark, graded, cost, value)
    return found


def _cost(knew: int, verdict: int) -> tuple[float, float]:
    """A reveal's cost and value (docs/analysis.md): the chance of going on that the perfect
    reveal had (1 with a card seen that connects, else the share of the cards not seen that
    connect; 0 when nothing could connect), and that minus the chance the reveal made had
    from what the mover knew (a card seen: whether it connects, which only a card seen that
    connects does, the verdict says; one not seen: that share).

    >>> from pathcheck.analysis.memoarrr_island import SEEN_MISS
    >>> _cost(1 << 20, NOTHING), _cost(1 << 20 | 2 << 21 | 4 << 26, SEEN_MISS)
    ((0.0, 0.0), (0.5, 0.5))
    """
    hits, size = knew >> 21 & 31, knew >> 26 & 31
    unseen = hits / size if size else 0.0
    if verdict <= PASSED_OVER + 1:
        value = 1.0
    elif verdict == NOTHING:
        value = 0.0
    else:
        value = unseen
    made = float(verdict == SEEN_CONNECTS) if knew >> 20 & 1 else unseen
    return max(0.0, round(value - made, 4)), round(value, 4)


def _knew(key: int) -> str:
    """What a mover knew, after the card to connect to, from the low 15 bits of
    :data:`Judged`'s ``knew`` (kept in _KNEW)."""
    choices, unknown, matches = key & 31, key >> 5 & 31, key >> 10
    text = _KNEW[key] = (f"{choices - unknown} of the {choices} cards they could reveal "
                         f"seen, {matches} of them connecting")
    return text


def _not_seen(key: int) -> tuple[str, float]:
    """The best move when no card seen connects, and its chance, from ``hits << 5 | size``
    (kept in _NOT_SEEN)."""
    hits, size = key >> 5, key & 31
    chance = hits / size
    found = _NOT_SEEN[key] = (
        f"reveal a card not seen: {hits} of the {size} cards not seen connect "
        f"({chance:.0%})", chance)
    return found


def _pointer(number: int, index: int) -> str:
    """A move's JSON pointer (kept in _POINTERS)."""
    pointer = _POINTERS[number, index] = f"/rounds/{number - 1}/actions/{index - 1}"
    return pointer


def analyse_raw(raw: bytes, *, source: str, for_json: bool = False) -> GameAnalysis | None:
    """:func:`analyse` of a log given as its JSON text (passed by the reader's guard: no key
    twice, not too deep), decoded as the reader decodes it; None for a text that is no JSON
    object or a log the reader refuses (the usual way then words the error where it lies).
    :func:`pathcheck.analysis.analyse_decoded` calls it, as ``adjudicate`` calls the
    adjudicator's ``rule_decoded``. ``for_json``: as :func:`analyse`'s."""
    log = _decode(raw)
    if type(log) is not dict:
        return None
    try:
        return analyse(log, source=source, for_json=for_json)
    except RecordError:
        return None


_decode = msgspec.json.Decoder().decode
"""The reader's decoding (pathcheck.reading.reader.decode_value's, a plain Decoder)."""


def analyse(log: Mapping[str, Any], *, source: str, for_json: bool = False) -> GameAnalysis:
    """Every reveal of ``log`` marked (see the module doc); RecordError if malformed.

    ``for_json``: the analysis is only to be encoded (``to_json``), so the moves the C side
    words may come as the JSON array msgspec would write of them (a :class:`msgspec.Raw` in
    ``moves``, written by ``memoarrr_marks`` with the marks, the rule and each cost as msgspec
    encodes them); the bytes encoded are the same."""
    trace = fast.lenient_json_trace(log, _json_kit()) if for_json else None
    if trace is None or trace[5] is None:  # not written as JSON: made as values
        trace = fast.lenient_trace(log, TEXTS)
    if trace is None:
        return analyse_replayed(log, source=source)
    _unseen, complete, trace_rounds, _faults, stop, judged, barred = trace
    players: tuple[str, ...] = tuple(log["players"])
    rule = rule_for(CONNECT, log["edition"])
    treasures, scores = fast.treasures_of(trace_rounds, players)
    known = log.get("treasures") is not None  # else no winner (as adjudicate decides)
    winners = fast.winners_of(treasures, scores)[0] if complete and known else []
    notes: tuple[str, ...] = () if known else (TREASURES_UNKNOWN,)
    if stop is not None or barred:
        notes = _stop_notes(stop, barred, players) + notes
    if isinstance(judged, tuple):  # the moves written as JSON, and the counts
        return _analysis(source, players, msgspec.Raw(judged[0]), judged[1], scores, winners,
                         notes)
    if _marks is not None and len(treasures) == len(players):  # (no name twice)
        # looked up at each call: the tests switch the C side off
        found = None
        if for_json:
            encoded = _encoded()
            if rule not in encoded:
                encoded[rule] = msgspec.json.encode(rule)
            found = _marks(judged, players, rule, _kit(), encoded, msgspec.json.encode)
        moves, counts = found if found is not None else _marks(judged, players, rule, _kit())
        written: Any = msgspec.Raw(moves) if isinstance(moves, bytes) else tuple(moves)
        return _analysis(source, players, written, counts, scores, winners, notes)
    pointers, flat = _POINTERS, iter(judged)  # 7 items a move, in one list
    moves = [marked(number, index, players[seat], did, knew, best, verdict, rule,
                    pointers.get((number, index)) or _pointer(number, index))
             for number, index, seat, did, knew, best, verdict in zip(*[flat] * 7, strict=True)]
    return make_analysis("memoarrr", FORMAT, source, players, moves, scores, winners,
                         notes=notes)


def _analysis(source: str, players: tuple[str, ...], moves: Any,
              counts: Sequence[tuple[int, int, int, int, float, float]],
              scores: dict[str, int], winners: list[str], notes: tuple[str, ...]
              ) -> GameAnalysis:
    """The analysis of moves marked in C (``moves``: AnalysedMove values, or their JSON as a
    :class:`msgspec.Raw`), summed up from the counts the C side made per seat."""
    summaries = tuple(player_summary(p, slips, guesses, sound, harmless, lost, stake,
                                     scores[p], p in winners)
                      for p, (slips, guesses, sound, harmless, lost, stake)
                      in zip(players, counts, strict=True))
    return GameAnalysis(game="memoarrr", format=FORMAT, source=source, players=players,
                        moves=moves, summaries=summaries, winners=tuple(winners),
                        final_scores=scores, notes=notes)


def _stop_notes(stop: tuple[int, int, int, int] | None,
                barred: Sequence[tuple[int, int, int, int, int]], players: Sequence[str]
                ) -> tuple[str, ...]:
    """The notes :func:`analyse_replayed` writes of a log with faults, from the C replay's
    (``stop``: where it stopped, as :func:`~pathcheck.games.memoarrr.lenient.stop_note`
    reads it; ``barred``: the reveals the rules bar, not judged)."""
    notes: list[str] = []
    if barred:
        said = ", ".join(f"{number}.{index} {players[seat]} {POS_TEXT[place]} "
                         f"({'walrus-marked' if why == 0 else 'face up'})"
                         for number, index, seat, place, why in barred)
        notes.append(_BARRED.format(said))
    if stop is not None:
        why, number, index, seat = stop
        if why == STOP_ROUND:
            notes.append(f"analysis stopped at round {number}: the replay cannot go on")
        else:
            fatal = ("an action after the round ended" if why == STOP_OVER
                     else f"{players[seat]} already has a volcano and is out of this round")
            notes.append(f"analysis stopped at round {number}, move {index}: {fatal}")
    return tuple(notes)


_BARRED = ("not judged: the reveals of cards the rules do not let them reveal ({}): memory "
           "bears on the choice among the cards one may reveal (adjudicate rules on them)")
"""The note of the reveals not judged (:func:`analyse_replayed` words it too)."""


try:
    from pathcheck import _speedups

    _marks: Callable[..., tuple[list[AnalysedMove], tuple[Any, ...]]] | None = (
        _speedups.memoarrr_marks)
except (ImportError, AttributeError):  # no C compiler at install time (or an older build)
    _marks = None

_KNEW_TEXT: dict[int, str] = {}
"""The whole text of what a mover knew by :data:`Judged`'s ``knew``'s low 20 bits (the card
to connect to and :data:`_KNEW`'s key), kept by the C side (memoarrr_marks.c)."""


@cache
def _encoded() -> dict[Any, bytes]:
    """The marks as msgspec encodes them, the rules and costs added as they come: what
    memoarrr_marks.c writes them as (a few editions' rules; the costs are a few hundred
    fractions, and the C side stops adding past 65,536)."""
    return {mark: msgspec.json.encode(mark) for mark in Mark}


@cache
def _kit() -> tuple[Any, ...]:
    """What memoarrr_marks.c words the moves with, in the order of its enum."""
    return (AnalysedMove, Mark.GUESS, Mark.SLIP, Mark.SOUND, Mark.HARMLESS, _VERDICTS,
            _REVEALS, _CONNECT_TO, _NOTHING_CONNECTS, _MARKED, _marked, _NOT_SEEN, _not_seen,
            _KNEW_TEXT, _KNEW, _knew)


@cache
def _json_kit() -> tuple[Any, ...]:
    """What memoarrr_marks_json.c writes the moves with, in the order of its MK_* names: the
    entries by key (made by :func:`_mark_entry` as they are met), both editions' rules as
    JSON, the cards' texts and :data:`AT`'s as JSON without their quotes."""
    rules = tuple(msgspec.json.encode(rule_for(CONNECT, edition)) for edition in (2018, 2023))
    return ([None] * (1 << 14), _mark_entry, rules,
            tuple(msgspec.json.encode(text)[1:-1] for text in CARD_TEXT),
            tuple(msgspec.json.encode(text)[1:-1] for text in AT))


_COUNTER = {Mark.SLIP: 0, Mark.GUESS: 1, Mark.SOUND: 2, Mark.HARMLESS: 3}
"""A mark's place in the counts per seat (memoarrr_marks.c's and memoarrr_marks_json.c's)."""


def _mark_entry(key: int) -> tuple[bytes | None, bytes, bytes, int, float, float]:
    """What :func:`marked` makes of a reveal by ``key`` (its verdict, and :data:`Judged`'s
    ``knew`` from bit 20), as memoarrr_marks_json.c writes it: the best move's JSON when it
    is no card seen (else None: C writes it from the places), the JSON from the mark to the
    rule's key and from the cost to the age's key, the mark's counter, the cost and value."""
    verdict, knew = key & 7, key >> 3 << 20
    mark, graded, cost, value = _MARKED.get(key) or _marked(key, knew, verdict)
    encode = msgspec.json.encode
    best: bytes | None = None
    chance = None
    if verdict == NOTHING:
        best = encode(_NOTHING_CONNECTS)
    elif verdict > NOTHING:  # the cards not seen: hits << 5 | size
        hits_size = (knew >> 21 & 31) << 5 | knew >> 26 & 31
        text, chance = _NOT_SEEN.get(hits_size) or _not_seen(hits_size)
        best = encode(text)
        if mark is not Mark.GUESS:
            chance = None
    return (best, b',"mark":' + encode(mark) + b',"why":' + encode(_VERDICTS[verdict][1])
            + b',"chance":' + encode(chance) + b',"rule":',
            b',"cost":' + encode(cost) + b',"value":' + encode(value) + b',"grade":'
            + encode(graded) + b',"age":', _COUNTER[mark], cost, value)


def analyse_replayed(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """:func:`analyse` through the game's replay state: any log its reader takes, illegal
    moves included (the analysis stops where the replay must)."""
    setup: Setup = read_plain(log) or read_log(log, source=source)
    state = State(setup)
    number_of = CARD_NUMBERS
    island = Island({_place(p): number_of[c.text] for p, c in setup.island.items()},
                    setup.players, setup.peeks)
    rule = rule_for(CONNECT, setup.edition)
    moves: list[AnalysedMove] = []
    notes: list[str] = []
    barred: list[str] = []
    starter = setup.start_player
    for rnd in setup.rounds:
        if rnd.number > ROUNDS or (rnd.number > 1 and not state.round_over):
            notes.append(f"analysis stopped at round {rnd.number}: the replay cannot go on")
            break
        state.start_round(rnd, starter)
        for action in rnd.actions:
            pos, last = action.reveal, state.last
            if pos is not None and last is not None:
                allowed = state.allowed_reveals()
                if pos in allowed:
                    judged = island.judge(action.player,
                                          sum(map(_PLACE_BIT.__getitem__, allowed)),
                                          number_of[last.text], _place(pos))
                    moves.append(marked(rnd.number, action.number, action.player, *judged,
                                        rule, action.pointer))
                else:  # no choice among the cards one may reveal: the ruling says so
                    why = ("walrus-marked" if pos == state.mark
                           else "face up" if pos in state.face_up else "not allowed")
                    barred.append(f"{rnd.number}.{action.number} {action.player} {pos} ({why})")
            result = state.apply(action)
            if result.fatal:
                notes.append(f"analysis stopped at round {rnd.number}, move {action.number}: "
                             f"{result.fatal}")
                break
            if result.pos is not None and result.card is not None:
                island.everyone(_place(result.pos))
            if result.swapped is not None:
                island.swap(*map(_place, result.swapped))
            if action.peek is not None:
                island.learn(action.player, _place(action.peek))
        else:
            if state.round_over:
                starter = state.next_start_player()
            continue
        break
    if barred:
        notes.insert(0, _BARRED.format(", ".join(barred)))
    finished = state.round == ROUNDS and state.round_over
    known = setup.treasures is not None  # else no winner (as adjudicate decides)
    winners = decide_winners(state.treasures)[0] if finished and known else []
    if not known:
        notes.append(TREASURES_UNKNOWN)
    scores = {p: state.rubies(p) for p in setup.players}
    return make_analysis("memoarrr", FORMAT, source, setup.players, moves, scores, winners,
                         notes=tuple(notes))


def _place(pos: Pos) -> int:
    return pos.row * SIZE + pos.col


_PLACE_BIT = {Pos(p // SIZE, p % SIZE): 1 << p for p in range(SIZE * SIZE)}
"""A position's bit in a set of places (looked up in C: a move has up to 24 allowed)."""
