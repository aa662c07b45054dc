"""The C fast path of the Memoarrr! adjudicator, for clean logs.

``pathcheck._speedups.memoarrr_replay`` (pathcheck/speedups/c/memoarrr.c) reads a decoded
log and replays it as :mod:`~pathcheck.games.memoarrr.plain` and
:meth:`~pathcheck.games.memoarrr.island.State.apply` would, and hands back a compact trace
(per round: the start player, the counts of the title, the winner and treasure, and the turns
the ruling tells: failed reveals, volcanoes, octopus swaps). :func:`fast_ruling` builds the
Ruling from it with the replay's own words (:mod:`~pathcheck.games.memoarrr.texts`).

The C side takes only logs the Python path rules legal without a word of doubt: at the first
fault of a move, at anything :func:`~pathcheck.games.memoarrr.plain.read_plain` would refuse
(and for a log it reads as Python would not: a str subclass, a tuple for a list), it answers
None, and :func:`fast_ruling` too; the Python path then rules on the whole log and words
every error. Without the extension (no C compiler at install time) it is always None.
:func:`trace` is the one way to the C side: the analysis (:mod:`pathcheck.analysis.memoarrr`)
asks it for the same trace with each reveal marked.
tests/games/test_memoarrr_fast.py checks that both paths give the same Ruling.

>>> import random
>>> from pathcheck.games import AdjudicateOptions
>>> from pathcheck.games.memoarrr.adjudicator import ADJUDICATOR
>>> from pathcheck.games.memoarrr.gen import random_game
>>> log = random_game(random.Random(5), players=3)
>>> ruling = fast_ruling(log, source="demo")
>>> ruling is None or ruling == ADJUDICATOR.rule_python(log, source="demo")
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from pathcheck.games.memoarrr.at import treasure_table
from pathcheck.games.memoarrr.lenient import stop_note, violations
from pathcheck.games.memoarrr.log import FORMAT
from pathcheck.games.memoarrr.plain import _CARD_NAMES
from pathcheck.games.memoarrr.rules import (
    ALL_CARDS,
    ALL_REVEALED,
    CONNECT,
    GAME,
    OCTOPUS_ADJACENT,
    SIZE,
    START_PLAYER,
    TREASURE,
    Pos,
    decide_winners,
)
from pathcheck.games.memoarrr.texts import (
    LOG_ENDS_EARLY,
    NEVER_SEEN,
    edition_note,
    round_title,
    start_fact,
    start_text,
    swap_text,
    treasure_text,
    unfinished_fact,
    unfinished_text,
    unseen_note,
    volcano_text,
)
from pathcheck.ruling import (
    Event,
    Fact,
    MoveRef,
    Round,
    Rule,
    Ruling,
    SwapFact,
    TreasureFact,
    VolcanoFact,
)

try:
    from pathcheck import _speedups

    _replay: Callable[..., Any] | None = _speedups.memoarrr_replay
    _lenient: Callable[..., Any] | None = _speedups.memoarrr_lenient
    _word_rounds: Callable[..., Any] | None = _speedups.memoarrr_word
    _word_json: Callable[..., bytes | None] | None = _speedups.memoarrr_word_json
    _lenient_json: Callable[..., Any] | None = _speedups.memoarrr_lenient_json
except (ImportError, AttributeError):  # no C compiler at install time (or an older build)
    _replay = None
    _lenient = None
    _word_rounds = None
    _word_json = None
    _lenient_json = None

CARD_NUMBERS = {name: number for name, (_, number) in _CARD_NAMES.items()}
"""Each card name (aliases too) -> its number in ALL_CARDS: animal * 5 + landscape, which is
how the C side tells animals and landscapes apart (test_memoarrr_fast checks the order)."""
CARD_TEXT = tuple(str(card) for card in ALL_CARDS)
"""Each card's text by its number."""
POS_TEXT = tuple(str(Pos(r, c)) for r in range(SIZE) for c in range(SIZE))
"""Each position's name (``"B1"``) by its number in the C trace, row * 5 + column."""
_SWAP, _FAIL, _TAKE = 0, 1, 2
"""The kinds of event in a trace (M_SWAP, M_FAIL, M_TAKE in memoarrr.c)."""
_VOLCANO_TEXT = {2023: {1: "dark", 0: "light"}, 2018: {n: f"{n}-bird" for n in (1, 3, 7)}}
"""A volcano's name (``str(Volcano)``) by edition and rank."""

_moves: dict[tuple[int, int, str], MoveRef] = {}
"""MoveRefs made so far: the same few rounds, move numbers and names recur from log to log,
and a MoveRef is a frozen value."""


def _move(number: int, index: int, player: str) -> MoveRef:
    """A new MoveRef, kept in ``_moves``."""
    if len(_moves) > 4096:  # many distinct names: keep the cache small
        _moves.clear()
    move = _moves[number, index, player] = MoveRef(
        index=index, player=player, round=number,
        pointer=f"/rounds/{number - 1}/actions/{index - 1}")
    return move


def trace(log: Mapping[str, Any], texts: tuple[tuple[str, ...], tuple[str, ...]] | None = None
          ) -> tuple[Any, ...] | None:
    """The C replay's trace of ``log`` (pathcheck/speedups/c/memoarrr.c), with, when
    ``texts`` are given, each reveal marked for the analysis
    (:mod:`pathcheck.analysis.memoarrr`); None if the C side declines the log or the
    extension is not built."""
    if _replay is None:  # looked up at each call: the tests switch the C side off
        return None
    found: tuple[Any, ...] | None = (_replay(log, CARD_NUMBERS) if texts is None
                                     else _replay(log, CARD_NUMBERS, texts))
    return found


def lenient_trace(log: Mapping[str, Any],
                  texts: tuple[tuple[str, ...], tuple[str, ...]] | None = None
                  ) -> tuple[Any, ...] | None:
    """The C replay's trace of ``log`` through the faults of its moves
    (``_speedups.memoarrr_lenient``): ``(unseen, complete, rounds, faults, stop)``, and with
    ``texts`` each reveal marked for the analysis (``marks, barred`` after them); None if the
    C side declines the log (anything :func:`~pathcheck.games.memoarrr.plain.read_plain`
    refuses) or the extension is not built."""
    if _replay is None or _lenient is None:  # looked up at each call: the tests switch it off
        return None
    found: tuple[Any, ...] | None = (_lenient(log, CARD_NUMBERS) if texts is None
                                     else _lenient(log, CARD_NUMBERS, texts))
    return found


def lenient_json_trace(log: Mapping[str, Any], kit: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """:func:`lenient_trace` with texts, each reveal marked and the analysed moves written as
    JSON (``_speedups.memoarrr_lenient_json``, with the analysis's ``kit``): the marks item
    is ``(moves, counts)``, or None where the names cannot be written so; None if the C side
    declines the log or the extension is not built."""
    if _replay is None or _lenient is None or _lenient_json is None:  # the tests switch them
        return None
    found: tuple[Any, ...] | None = _lenient_json(log, CARD_NUMBERS, kit)
    return found


def fast_ruling(log: Mapping[str, Any], *, source: str, for_json: bool = False
                ) -> Ruling | None:
    """The ruling on ``log`` as the Python path gives it, or None if the C side declines.
    The C side replays through the faults of the moves too
    (``_speedups.memoarrr_lenient``); :mod:`~pathcheck.games.memoarrr.lenient` words
    them.

    ``for_json``: the ruling is only to be encoded (``to_json``), so its rounds may come as
    the JSON array msgspec would write of them (a :class:`msgspec.Raw` in ``rounds``, written
    by ``_speedups.memoarrr_word_json``); the bytes encoded are the same."""
    replayed = lenient_trace(log)
    if replayed is None:
        return None
    unseen, complete, trace_rounds, faults, stop = replayed
    players: tuple[str, ...] = tuple(log["players"])
    edition: int = log["edition"]
    variants = log.get("variants", {})
    rounds: Any = None  # Round values, or their JSON as a msgspec.Raw (see the docstring)
    if for_json and _word_json is not None:  # looked up at each call: the tests switch it off
        written = _word_json(trace_rounds, players, _json_kit(edition))
        rounds = None if written is None else msgspec.Raw(written)
    if rounds is None:  # _word_rounds is looked up at each call: the tests switch it off
        rounds = (word_rounds(trace_rounds, players, edition) if _word_rounds is None
                  else _word_rounds(trace_rounds, players, _kit(edition)))
    treasures, final_scores = treasures_of(trace_rounds, players)
    notes = [_edition_note(edition, variants.get("expert", False),
                           variants.get("ordered_stack", False))]
    if stop is not None:
        notes.append(stop_note(stop, players))
    elif not complete:
        notes.append(LOG_ENDS_EARLY)
    if unseen:
        notes.append(unseen_note(unseen))
    winners, tie_break = winners_of(treasures, final_scores) if complete else ([], "")
    return Ruling(
        game=GAME,
        format=FORMAT,
        source=source,
        players=players,
        rounds=rounds,
        final_scores=final_scores,
        winners=winners,
        violations=violations(faults, players, edition, log["treasures"], treasures)
        if faults else [],
        tie_break=tie_break,
        notes=notes,
        display=treasure_table(players, treasures),
    )


def treasures_of(trace_rounds: Sequence[Sequence[Any]], players: Sequence[str]
                 ) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Each player's treasures in the C replay's trace (a round's winner seat and treasure
    are its items 4 and 5), and their rubies."""
    treasures: dict[str, list[int]] = {p: [] for p in players}
    for traced in trace_rounds:
        if traced[4] >= 0:
            treasures[players[traced[4]]].append(traced[5])
    return treasures, {p: sum(t) for p, t in treasures.items()}


def winners_of(treasures: Mapping[str, list[int]], rubies: Mapping[str, int]
               ) -> tuple[list[str], str]:
    """:func:`~pathcheck.games.memoarrr.rules.decide_winners` given the rubies already
    counted: its usual case, one player with the most, without it.

    >>> winners_of({"Ann": [2, 2], "Ben": [5]}, {"Ann": 4, "Ben": 5})
    (['Ben'], '')
    """
    best = max(rubies.values())
    winners = [p for p, n in rubies.items() if n == best]
    return (winners, "") if len(winners) == 1 else decide_winners(treasures)


@functools.cache
def _edition_note(edition: int, expert: bool, ordered_stack: bool) -> str:
    """:func:`~pathcheck.games.memoarrr.texts.edition_note`, made once a case (the C side
    takes only bools for the variants)."""
    return edition_note(edition, expert=expert, ordered_stack=ordered_stack)


def word_rounds(trace_rounds: tuple[tuple[Any, ...], ...], players: tuple[str, ...],
                edition: int) -> list[Round]:
    """The rounds of the ruling worded from the C replay's trace, in Python: the plain
    reference of ``_speedups.memoarrr_word`` (pathcheck/speedups/c/memoarrr_word.c), which
    words them in C (tests/games/test_memoarrr_word.py compares both)."""
    r2018 = edition == 2018
    connect = CONNECT.r2018 if r2018 else CONNECT.r2023
    swap_rule = OCTOPUS_ADJACENT.r2018 if r2018 else OCTOPUS_ADJACENT.r2023
    treasure_rule = TREASURE.r2018 if r2018 else TREASURE.r2023
    start_rule = START_PLAYER.r2018 if r2018 else START_PLAYER.r2023
    volcano_names = _VOLCANO_TEXT[edition]
    cards, names, moves = CARD_TEXT, POS_TEXT, _moves
    totals = dict.fromkeys(players, 0)  # the running score, copied into each Round
    rounds: list[Round] = []
    for number, (starter_seat, held, turns, face_up, winner_seat, treasure,
                 trace_events) in enumerate(trace_rounds, 1):
        starter = players[starter_seat]
        events = [Event(start_text(number, starter, edition, held),
                        rule=None if number == 1 else start_rule,
                        fact=start_fact(number, starter, edition, held))]
        for kind, index, seat, a, b, c, d in trace_events:
            move = moves.get((number, index, players[seat])) or _move(number, index,
                                                                       players[seat])
            player = players[seat]
            # names, cards and volcano_names hold str: the facts take them as they are
            if kind == _FAIL:
                at, card, previous, volcano = names[a], cards[b], cards[c], volcano_names[d]
                events.append(Event(volcano_text(at, card, previous, volcano), move, connect, {},
                                    VolcanoFact(player, at, card, previous, volcano)))
            elif kind == _SWAP:
                at_b = NEVER_SEEN if c < 0 else cards[c]
                at_a = NEVER_SEEN if d < 0 else cards[d]
                text = swap_text(names[a], names[b], at_b, at_a)
                events.append(Event(text, move, swap_rule, {},
                                    SwapFact(player, names[a], names[b], at_b, at_a)))
            else:
                rule = ALL_REVEALED.r2018 if r2018 else ALL_REVEALED.r2023
                events.append(Event(volcano_text(None, None, None, volcano_names[d]), move, rule,
                                    {}, VolcanoFact(player, None, None, None,
                                                    volcano_names[d])))
        if winner_seat >= 0:
            winner = players[winner_seat]
            totals[winner] += treasure
            events.append(Event(treasure_text(winner, treasure), rule=treasure_rule,
                                points={winner: treasure}, fact=TreasureFact(winner, treasure)))
        else:  # the log's last round, unfinished: who has no volcano yet
            still = [p for i, p in enumerate(players) if i not in _seats_out(trace_events)]
            events.append(Event(unfinished_text(still), fact=unfinished_fact(still)))
        rounds.append(Round(number, round_title(number, starter, turns, face_up), events,
                            totals.copy()))
    return rounds


_TITLE, _TREASURE = 1_000_000, 3_000_000
"""The codes of the cases memoarrr_word.c asks :func:`_word` for (by the player's name):
a round's title (+ (number * 4096 + turns) * 32 + face_up), a treasure event (+ the
treasure); below :data:`_TITLE`, a round's start event (number * 16 + held rank + 1)."""
_said: dict[int, dict[str, dict[int, tuple[str, Rule | None, Fact | None]]]] = {}
"""What memoarrr_word.c's cases say, per edition (the code holds none), by the player's name
and the case's code: the same few players and cases recur from log to log."""
_moves_by_name: dict[str, dict[int, MoveRef]] = {}
"""The MoveRefs memoarrr_word.c asks for, by the player's name and number * 4096 + index."""
_kits: dict[int, tuple[Any, ...]] = {}


def _kit(edition: int) -> tuple[Any, ...]:
    """What memoarrr_word.c needs for an edition (made once): see its MW_* names."""
    kit = _kits.get(edition)
    if kit is None:
        rule = _rules(edition)
        volcanoes = tuple(_VOLCANO_TEXT[edition].get(rank, "") for rank in range(8))
        takes = tuple(volcano_text(None, None, None, name) for name in volcanoes)
        said = _said[edition] = {}
        kit = _kits[edition] = (
            Event, Round, said, functools.partial(_word, edition), _moves_by_name, _move_of,
            VolcanoFact, SwapFact, CARD_TEXT, POS_TEXT, volcanoes, rule[0], rule[1], rule[2],
            takes, NEVER_SEEN, _unfinished)
    if len(_said[edition]) > 4096 or len(_moves_by_name) > 4096:  # many names: keep small
        _said[edition].clear()
        _moves_by_name.clear()
    return kit


def _rules(edition: int) -> tuple[Rule, Rule, Rule, Rule, Rule]:
    """The edition's rules: connect, octopus swap, all revealed, treasure, start player."""
    r2018 = edition == 2018
    return tuple(rule.r2018 if r2018 else rule.r2023  # type: ignore[return-value]
                 for rule in (CONNECT, OCTOPUS_ADJACENT, ALL_REVEALED, TREASURE, START_PLAYER))


def _word(edition: int, player: str, code: int) -> tuple[str, Rule | None, Fact | None]:
    """What memoarrr_word.c's case ``code`` (see :data:`_TITLE`) says of ``player``."""
    if code >= _TREASURE:
        treasure = code - _TREASURE
        return (treasure_text(player, treasure), _rules(edition)[3],
                TreasureFact(player, treasure))
    if code >= _TITLE:
        rest, face_up = divmod(code - _TITLE, 32)
        number, turns = divmod(rest, 4096)
        return round_title(number, player, turns, face_up), None, None
    number, held = divmod(code, 16)
    return (start_text(number, player, edition, held - 1),
            None if number == 1 else _rules(edition)[4],
            start_fact(number, player, edition, held - 1))


def _move_of(player: str, code: int) -> MoveRef:
    """The MoveRef of move ``code`` (number * 4096 + index) of ``player``."""
    number, index = divmod(code, 4096)
    return MoveRef(index=index, player=player, round=number,
                   pointer=f"/rounds/{number - 1}/actions/{index - 1}")


def _unfinished(still: list[str]) -> tuple[str, None, Fact]:
    """The event of an unfinished round's end (``still``: who has no volcano yet)."""
    return unfinished_text(still), None, unfinished_fact(still)


def _seats_out(trace_events: tuple[tuple[int, ...], ...]) -> set[int]:
    """The players who took a volcano this round (each out is a failed reveal or a take)."""
    return {seat for kind, _, seat, *_ in trace_events if kind != _SWAP}


_said_json: dict[int, dict[str, dict[int, bytes]]] = {}
"""What memoarrr_json.c's cases write, per edition, by the player's name and the case's
code (:data:`_TITLE`): msgspec's encoding of the event :func:`_word` says."""
_json_kits: dict[int, tuple[Any, ...]] = {}


def _bare(text: str) -> bytes:
    """``text`` as msgspec writes it in JSON, without the quotes."""
    return msgspec.json.encode(text)[1:-1]


def _json_kit(edition: int) -> tuple[Any, ...]:
    """What memoarrr_json.c needs for an edition (made once): see its MJ_* names."""
    kit = _json_kits.get(edition)
    if kit is None:
        rule = _rules(edition)
        volcanoes = tuple(_VOLCANO_TEXT[edition].get(rank, "") for rank in range(8))
        said = _said_json[edition] = {}
        kit = _json_kits[edition] = (
            said, functools.partial(_word_json_of, edition), tuple(map(_bare, CARD_TEXT)),
            tuple(map(_bare, POS_TEXT)), tuple(map(_bare, volcanoes)),
            msgspec.json.encode(rule[0]), msgspec.json.encode(rule[1]),
            msgspec.json.encode(rule[2]),
            tuple(_bare(volcano_text(None, None, None, name)) for name in volcanoes),
            _bare(NEVER_SEEN), _unfinished_json)
    if len(_said_json[edition]) > 4096:  # many names: keep it small
        _said_json[edition].clear()
    return kit


def _word_json_of(edition: int, player: str, code: int) -> bytes:
    """memoarrr_json.c's case ``code`` of ``player`` as msgspec encodes it: a start or
    treasure event (with its points) as :func:`_word` says it (C writes the titles)."""
    text, rule, fact = _word(edition, player, code)
    points = {player: code - _TREASURE} if code >= _TREASURE else {}
    return msgspec.json.encode(Event(text, None, rule, points,
                                     msgspec.UNSET if fact is None else fact))


def _unfinished_json(still: list[str]) -> bytes:
    """The event of an unfinished round's end as msgspec encodes it."""
    text, rule, fact = _unfinished(still)
    return msgspec.json.encode(Event(text, None, rule, {}, fact))
