"""Memoarrr!: what each player knows of the island, and each reveal against it.

Seen by everyone: every card revealed (it stays where it is, face down again after the
round, until an octopus swaps it, which everyone sees too). Seen by one player: the 3 middle
cards of the side they looked at before round 1, and a card a penguin let them peek at.

A reveal is a move when it has a card to connect to (the first reveal of a round always
succeeds, so memory cannot bear on it): it is sound if it reveals a card the player knows
connects (or, knowing none, anything when nothing can connect), a slip if it passes over a
known connecting card or reveals a card seen not to connect while a chance was left, a guess
(with the chance that a card not seen connects) when it reveals a card not seen.

Two walks give the same moves (tests/analysis/test_memoarrr.py): a clean log that the C
replay (:mod:`pathcheck.games.memoarrr.fast`) takes is walked straight from its JSON, cards
and places as small integers; any other log (what the C side declines: illegal moves, odd
values) through the game's own replay state (:class:`~pathcheck.games.memoarrr.island.State`).

>>> import random
>>> from pathcheck.games.memoarrr.gen import random_game
>>> log = random_game(random.Random(3), players=2)
>>> analysis = analyse(log, source="demo")
>>> analysis.game, len(analysis.summaries), analysis.moves == analyse_replayed(
...     log, source="demo").moves
('memoarrr', 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pathcheck.analysis.core import AnalysedMove, GameAnalysis, Mark, make_analysis
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.fast import _CARD_NUMBERS, _CARD_TEXT, _POS_TEXT
from pathcheck.games.memoarrr.island import State
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
from pathcheck.ruling import Rule

CONNECTS = tuple(sum(1 << j for j, other in enumerate(ALL_CARDS) if card.connects(other))
                 for card in ALL_CARDS)
"""Per card number (its index in ALL_CARDS): the bit set of the cards that connect with it."""
EVERY_CARD = (1 << len(ALL_CARDS)) - 1
_KINDS = tuple((list(Animal).index(card.animal), len(Animal) + list(Landscape).index(
    card.landscape)) for card in ALL_CARDS)
"""Per card number: its animal and its landscape, as indexes of Island.kind_places (a card
connects with the cards that share one of them)."""
_POS_NUMBER = {text: i for i, text in enumerate(_POS_TEXT)}
_CENTRE = 2 * SIZE + 2
ISLAND = sum(1 << p for p in range(SIZE * SIZE) if p != _CENTRE)
"""The bit set of the 24 places (row * 5 + column) of the island."""
_SIDES = {side: tuple(p.row * SIZE + p.col for p in places) for side, places in SIDES.items()}
_AT = tuple(tuple(f"{place} ({card})" for card in _CARD_TEXT) for place in _POS_TEXT)
"""``_AT[place][card]``: ``"B1 (turtle/water)"``, made once."""
_REVEALS = tuple(tuple(f"reveals {at}" for at in row) for row in _AT)
_SEEN_CONNECTS = "reveal a card seen that connects: "
_BEST_ONE = tuple(tuple(_SEEN_CONNECTS + at for at in row) for row in _AT)
"""``_BEST_ONE[place][card]``: the best move when one card seen connects, made once."""
_CONNECT_TO = tuple(f"to connect to {card}; " for card in _CARD_TEXT)
_KNEW: dict[int, str] = {}
"""What a mover knew, after the card to connect to, by ``choices | unknown << 5 | matches <<
10``: a few thousand texts at most, each made once."""
_NOT_SEEN: dict[int, tuple[str, float]] = {}
"""The best move and its chance when no card seen connects, by ``hits << 5 | size``."""
_OUTCOME = ("it does not connect", "it connects")
_PASSED_OVER = tuple(f"passed over a card seen that connects ({outcome})"
                     for outcome in _OUTCOME)


_LOW_PLACES = tuple(tuple(p for p in range(13) if mask >> p & 1) for mask in range(1 << 13))
_HIGH_PLACES = tuple(tuple(p + 12 for p in low) for low in _LOW_PLACES)
"""The places of a set of the 25 places, in order: ``_LOW_PLACES[mask & 4095] +
_HIGH_PLACES[mask >> 12]``."""


class Island:
    """The true island as card numbers by place (a card the log leaves out has none), and
    what each player knows of it: the places they know (what lies there is the island's
    card: cards move only by swaps everyone sees) and the cards they have seen, as bit sets,
    split into what everyone saw (every reveal) and what only they saw (their side before
    round 1, their peeks). A place seen whose card the log does not name cannot be used: it
    never connects."""

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
        for p in players:
            for place in _SIDES[peeks[p]]:
                self.learn(p, place)

    def learn(self, player: str, place: int) -> None:
        self.own_places[player] |= 1 << place
        card = self.cards.get(place)
        if card is not None:
            self.own_cards[player] |= 1 << card

    def everyone(self, place: int) -> None:
        """The card at ``place`` revealed: seen by everyone (:func:`analyse` does this
        inline)."""
        self.public_places |= 1 << place
        self.public_cards |= 1 << self.cards[place]

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

    def move(self, number: int, index: int, player: str, allowed: int, last: int,
             chosen: int, rule: Rule, pointer: str) -> AnalysedMove:
        """``player`` revealing place ``chosen`` to connect to card ``last``, among the
        places of bit set ``allowed``, marked: what they knew, what a perfect memory does,
        the chance of a guess and why."""
        cards = self.cards
        card = cards[chosen]
        known = self.public_places | self.own_places[player]
        animal, landscape = _KINDS[last]
        matches = allowed & known & (self.kind_places[animal] | self.kind_places[landscape])
        choices = allowed.bit_count()
        unknown = (allowed & ~known).bit_count()
        key = choices | unknown << 5 | matches.bit_count() << 10
        knew = _CONNECT_TO[last] + (_KNEW.get(key) or _knew(key))
        did = _REVEALS[chosen][card]
        connects = CONNECTS[last]
        if matches:
            if matches & (matches - 1) == 0:
                place = matches.bit_length() - 1
                best = _BEST_ONE[place][cards[place]]
            else:
                best = _SEEN_CONNECTS + ", ".join([
                    _AT[p][cards[p]]
                    for p in _LOW_PLACES[matches & 4095] + _HIGH_PLACES[matches >> 12]])
            if matches >> chosen & 1:
                return AnalysedMove(number, index, player, did, knew, best, Mark.SOUND,
                                    "a card seen that connects", None, rule, pointer)
            return AnalysedMove(number, index, player, did, knew, best, Mark.SLIP,
                                _PASSED_OVER[connects >> card & 1], None, rule, pointer)
        pool = EVERY_CARD & ~(self.public_cards | self.own_cards[player])
        hits, size = (pool & connects).bit_count(), pool.bit_count()
        if not unknown or not size or not hits:
            return AnalysedMove(number, index, player, did, knew,
                                "any reveal: no card they could reveal can connect",
                                Mark.SOUND, "nothing could connect", None, rule, pointer)
        best, chance = _NOT_SEEN.get(hits << 5 | size) or _not_seen(hits, size)
        if not known >> chosen & 1:
            if hits == size:  # every card not seen connects: what was seen decides it
                return AnalysedMove(number, index, player, did, knew, best, Mark.SOUND,
                                    "every card not seen connects", None, rule, pointer)
            return AnalysedMove(number, index, player, did, knew, best, Mark.GUESS,
                                _OUTCOME[connects >> card & 1], chance, rule, pointer)
        return AnalysedMove(number, index, player, did, knew, best, Mark.SLIP,
                            "a card seen not to connect, while a chance was left", None,
                            rule, pointer)


def _swapped(places: int, a: int, b: int, both: int) -> int:
    """The bit set ``places`` with the bits of places ``a`` and ``b`` exchanged."""
    return places ^ both if (places >> a ^ places >> b) & 1 else places


def _knew(key: int) -> str:
    """What a mover knew, after the card to connect to, from :meth:`Island.move`'s key
    (kept in _KNEW)."""
    choices, unknown, matches = key & 31, key >> 5 & 31, key >> 10
    text = _KNEW[key] = (f"{choices - unknown} of the {choices} cards they could reveal "
                         f"seen, {matches} of them connecting")
    return text


def _not_seen(hits: int, size: int) -> tuple[str, float]:
    """The best move when no card seen connects, and its chance (kept in _NOT_SEEN)."""
    chance = hits / size
    found = _NOT_SEEN[hits << 5 | size] = (
        f"reveal a card not seen: {hits} of the {size} cards not seen connect "
        f"({chance:.0%})", chance)
    return found


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every reveal of ``log`` marked (see the module doc); RecordError if malformed."""
    replay = fast._replay  # looked up here: None without the C extension
    trace = None if replay is None else replay(log, _CARD_NUMBERS)
    if trace is None:
        return analyse_replayed(log, source=source)
    players: tuple[str, ...] = tuple(log["players"])
    island = Island({r * SIZE + c: _CARD_NUMBERS[name] for r, row in enumerate(log["island"])
                     for c, name in enumerate(row) if name is not None}, players, log["peeks"])
    rule = rule_for(CONNECT, log["edition"])
    moves: list[AnalysedMove] = []
    add, judge, cards, place_of = moves.append, island.move, island.cards, _POS_NUMBER
    for number, rnd in enumerate(log["rounds"], 1):
        face_down = ISLAND
        last = -1  # the card revealed last this round (-1: none yet)
        mark = 0  # the bit of the place a walrus marked for the next turn
        at = f"/rounds/{number - 1}/actions/"
        for index, action in enumerate(rnd["actions"], 1):
            blocked, mark = mark, 0
            if "reveal" not in action:
                continue
            player, place = action["player"], place_of[action["reveal"]]
            card = cards[place]
            if last >= 0:
                add(judge(number, index, player, face_down & ~blocked, last, place, rule,
                          f"{at}{index - 1}"))
            face_down &= ~(1 << place)
            island.public_places |= 1 << place  # revealed: seen by everyone
            island.public_cards |= 1 << card
            success = last < 0 or CONNECTS[last] >> card & 1
            last = card
            if len(action) == 2:  # player and reveal: no ability used
                continue
            if "swap" in action:  # the C replay took the log: every ability is as earned
                other = place_of[action["swap"]]
                if (face_down >> place ^ face_down >> other) & 1:
                    face_down ^= 1 << place | 1 << other
                island.swap(place, other)
            if "mark" in action and success:
                mark = 1 << place_of[action["mark"]]
            if "peek" in action:
                island.learn(player, place_of[action["peek"]])
    _unseen, complete, trace_rounds = trace
    treasures: dict[str, list[int]] = {p: [] for p in players}
    for *_, winner, treasure, _events in trace_rounds:
        if winner >= 0:
            treasures[players[winner]].append(treasure)
    winners = decide_winners(treasures)[0] if complete else []
    return make_analysis("memoarrr", FORMAT, source, players, moves,
                         {p: sum(t) for p, t in treasures.items()}, winners)


def analyse_replayed(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """:func:`analyse` through the game's replay state: any log its reader takes, illegal
    moves included (the analysis stops where the replay must)."""
    setup: Setup = read_plain(log) or read_log(log, source=source)
    state = State(setup)
    number_of = _CARD_NUMBERS
    island = Island({_place(p): number_of[c.text] for p, c in setup.island.items()},
                    setup.players, setup.peeks)
    rule = rule_for(CONNECT, setup.edition)
    moves: list[AnalysedMove] = []
    notes: list[str] = []
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
    finished = state.round == ROUNDS and state.round_over
    winners = decide_winners(state.treasures)[0] if finished else []
    scores = {p: state.rubies(p) for p in setup.players}
    return make_analysis("memoarrr", FORMAT, source, setup.players, moves, scores, winners,
                         notes=tuple(notes))


def _place(pos: Pos) -> int:
    return pos.row * SIZE + pos.col


_PLACE_BIT = {Pos(p // SIZE, p % SIZE): 1 << p for p in range(SIZE * SIZE)}
"""A position's bit in a set of places (looked up in C: a move has up to 24 allowed)."""
