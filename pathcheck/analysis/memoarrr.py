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
(:class:`~pathcheck.games.memoarrr.island.State`) with :class:`Island`, the plain reference
the tests compare the C marks with (tests/analysis/test_memoarrr.py). Both give each reveal
as a :data:`Judged` value and word it with :func:`marked`, from the same texts.

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
from pathcheck.errors import RecordError
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.fast import CARD_NUMBERS, CARD_TEXT, POS_TEXT
from pathcheck.games.memoarrr.island import State
from pathcheck.games.memoarrr.lenient import STOP_OVER, STOP_ROUND
from pathcheck.games.memoarrr.log import FORMAT, Setup, read_log
from pathcheck.games.memoarrr.plain import read_plain
from pathcheck.games.memoarrr.rules import (
    ALL_CARDS,
    CONNECT,
    ROUNDS,
    SIDES,
    SIZE,
    Animal,
    Landscape,
    Pos,
    decide_winners,
    rule_for,
)
from pathcheck.games.memoarrr.texts import TREASURES_UNKNOWN
from pathcheck.ruling import Rule

CONNECTS = tuple(sum(1 << j for j, other in enumerate(ALL_CARDS) if card.connects(other))
                 for card in ALL_CARDS)
"""Per card number (its index in ALL_CARDS): the bit set of the cards that connect with it."""
EVERY_CARD = (1 << len(ALL_CARDS)) - 1
_KINDS = tuple((list(Animal).index(card.animal), len(Animal) + list(Landscape).index(
    card.landscape)) for card in ALL_CARDS)
"""Per card number: its animal and its landscape, as indexes of Island.kind_places (a card
connects with the cards that share one of them)."""
_SIDES = {side: tuple(p.row * SIZE + p.col for p in places) for side, places in SIDES.items()}
_CARDS = len(ALL_CARDS)

# The verdicts on a reveal, in the order of memoarrr_know.c's (a verdict + 1 is the same
# verdict on a card that connects), with the mark and the why each gives.
SEEN_CONNECTS, PASSED_OVER, NOTHING, EVERY_UNSEEN, SEEN_MISS, GUESS = 0, 1, 3, 4, 5, 6
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
Judged = tuple[int, int, str | int | None, int]
"""A reveal judged, as the C replay hands it over (memoarrr_know.c) and :meth:`Island.judge`
gives it: ``did`` (the place revealed * 25 + its card), ``knew`` (the card to connect to
<< 15 | the places it could reveal | those not seen << 5 | those seen that connect << 10),
``best`` (the best move's text when a card seen connects; else ``hits << 5 | size``, the
cards not seen that connect and all those not seen; None when nothing could connect) and
the verdict ``| age << 3``: the reveals since the mover last saw the card that decides the
move, this one counted (docs/analysis.md, "Memory span"; 0: no age): the youngest card seen
that connects, if any, whichever was revealed; a card seen not to connect revealed while a
chance was left, that card; when every card not seen connects and one is revealed, the
oldest card seen it could reveal."""

_AT = tuple(f"{place} ({card})" for place in POS_TEXT for card in CARD_TEXT)
"""``_AT[place * 25 + card]``: ``"B1 (turtle/water)"``, made once."""
_REVEALS = tuple(f"reveals {at}" for at in _AT)
_BEST_ONE = tuple(f"reveal a card seen that connects: {at}" for at in _AT)
"""The best move when one card seen connects (and the start of it when more do)."""
TEXTS = (_BEST_ONE, _AT)
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


class Island:
    """The true island as card numbers by place (a card the log leaves out has none), and
    what each player knows of it: the places they know (what lies there is the island's
    card: cards move only by swaps everyone sees) and the cards they have seen, as bit sets,
    split into what everyone saw (every reveal) and what only they saw (their side before
    round 1, their peeks). A place seen whose card the log does not name (``null``) counts
    as unseen (docs/analysis.md): the player knows it, the analysis does not."""

    def __init__(self, cards: dict[int, int], players: Sequence[str],
                 peeks: Mapping[str, str]) -> None:
        self.cards = cards
        self.kind_places = [0] * (len(Animal) + len(Landscape))
        """Per animal, then per landscape: the bit set of the places of its cards."""
        for place, card in cards.items():
            animal, landscape = _KINDS[card]
            self.kind_places[animal] |= 1 << place
            self.kind_places[landscape] |= 1 << place
        self.public_places = 0
        self.public_cards = 0
        self.own_places = dict.fromkeys(players, 0)
        self.own_cards = dict.fromkeys(players, 0)
        self.reveals = 0
        """The reveals so far: the moves of the memory span."""
        self.seen_at = {p: [0] * _CARDS for p in players}
        """Per player, per place: the reveal at which they last saw its card (0: before
        round 1)."""
        for p in players:
            for place in _SIDES[peeks[p]]:
                self.learn(p, place)

    def learn(self, player: str, place: int) -> None:
        """``player`` saw ``place`` alone; a card the log leaves out counts as unseen."""
        card = self.cards.get(place)
        if card is not None:
            self.own_places[player] |= 1 << place
            self.own_cards[player] |= 1 << card
            self.seen_at[player][place] = self.reveals

    def everyone(self, place: int) -> None:
        """The card at ``place`` revealed: seen by everyone, at this reveal."""
        self.public_places |= 1 << place
        self.public_cards |= 1 << self.cards[place]
        self.reveals += 1
        for at in self.seen_at.values():
            at[place] = self.reveals

    def swap(self, a: int, b: int) -> None:
        cards, kinds = self.cards, self.kind_places
        both = 1 << a | 1 << b
        card_a, card_b = cards.pop(a, None), cards.pop(b, None)
        for card in (card_a, card_b):  # a kind both cards share keeps both places
            if card is not None:
                animal, landscape = _KINDS[card]
                kinds[animal] ^= both
                kinds[landscape] ^= both
        if card_b is not None:
            cards[a] = card_b
        if card_a is not None:
            cards[b] = card_a
        self.public_places = _swapped(self.public_places, a, b, both)
        for player, places in self.own_places.items():
            self.own_places[player] = _swapped(places, a, b, both)
        for at in self.seen_at.values():  # when each card was seen moves with it
            at[a], at[b] = at[b], at[a]

    def judge(self, player: str, allowed: int, last: int, chosen: int) -> Judged:
        """``player`` revealing place ``chosen`` to connect to card ``last``, among the
        places of bit set ``allowed``, judged against what they knew."""
        cards = self.cards
        card = cards[chosen]
        known = self.public_places | self.own_places[player]
        animal, landscape = _KINDS[last]
        matches = allowed & known & (self.kind_places[animal] | self.kind_places[landscape])
        unknown = (allowed & ~known).bit_count()
        did = chosen * _CARDS + card
        pool = EVERY_CARD & ~(self.public_cards | self.own_cards[player])
        hits, size = (pool & CONNECTS[last]).bit_count(), pool.bit_count()
        knew = (last << 15 | allowed.bit_count() | unknown << 5 | matches.bit_count() << 10
                | (known >> chosen & 1) << 20 | hits << 21 | size << 26)
        hit = CONNECTS[last] >> card & 1
        if matches:
            at = self.seen_at[player]
            first = (matches & -matches).bit_length() - 1
            texts = [_BEST_ONE[first * _CARDS + cards[first]]]
            youngest = at[first]  # the age is the youngest's, whichever card was revealed
            rest = matches & (matches - 1)
            while rest:
                place = (rest & -rest).bit_length() - 1
                texts.append(_AT[place * _CARDS + cards[place]])
                youngest = max(youngest, at[place])
                rest &= rest - 1
            best = ", ".join(texts)
            return did, knew, best, (SEEN_CONNECTS if matches >> chosen & 1
                                     else PASSED_OVER + hit) | (self.reveals + 1 - youngest) << 3
        if not unknown or not size or not hits:
            return did, knew, None, NOTHING
        if known >> chosen & 1:
            verdict = SEEN_MISS | (self.reveals + 1 - self.seen_at[player][chosen]) << 3
        elif hits == size:  # every card not seen connects: what was seen decides it
            seen = allowed & known
            oldest = min((self.seen_at[player][p] for p in _places(seen)), default=None)
            verdict = EVERY_UNSEEN | (0 if oldest is None else self.reveals + 1 - oldest) << 3
        else:
            verdict = GUESS + hit
        return did, knew, hits << 5 | size, verdict

    def move(self, number: int, index: int, player: str, allowed: int, last: int,
             chosen: int, rule: Rule, pointer: str) -> AnalysedMove:
        """:meth:`judge`, worded by :func:`marked`."""
        return marked(number, index, player, *self.judge(player, allowed, last, chosen), rule,
                      pointer)


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


def _places(places: int) -> list[int]:
    """The places of the bit set ``places``.

    >>> _places(0b1010)
    [1, 3]
    """
    return [p for p in range(SIZE * SIZE) if places >> p & 1]


def _swapped(places: int, a: int, b: int, both: int) -> int:
    """The bit set ``places`` with the bits of places ``a`` and ``b`` exchanged."""
    return places ^ both if (places >> a ^ places >> b) & 1 else places


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
    treasures: dict[str, list[int]] = {p: [] for p in players}
    for traced in trace_rounds:  # (..., winner, treasure, events)
        if traced[4] >= 0:
            treasures[players[traced[4]]].append(traced[5])
    known = log.get("treasures") is not None  # else no winner (as adjudicate decides)
    scores = {p: sum(t) for p, t in treasures.items()}
    winners: list[str] = []
    if complete and known:  # one player with the most rubies (decide_winners's first case)
        best = max(scores.values())
        winners = [p for p, rubies in scores.items() if rubies == best]
        if len(winners) > 1:
            winners = decide_winners(treasures)[0]
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
    JSON, the cards' texts and :data:`_AT`'s as JSON without their quotes."""
    rules = tuple(msgspec.json.encode(rule_for(CONNECT, edition)) for edition in (2018, 2023))
    return ([None] * (1 << 14), _mark_entry, rules,
            tuple(msgspec.json.encode(text)[1:-1] for text in CARD_TEXT),
            tuple(msgspec.json.encode(text)[1:-1] for text in _AT))


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
                    moves.append(island.move(
                        rnd.number, action.number, action.player,
                        sum(map(_PLACE_BIT.__getitem__, allowed)),
                        number_of[last.text], _place(pos), rule, action.pointer))
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
