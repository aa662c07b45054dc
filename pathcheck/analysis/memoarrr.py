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
    Pos,
    decide_winners,
    rule_for,
)
from pathcheck.ruling import Rule

CONNECTS = tuple(sum(1 << j for j, other in enumerate(ALL_CARDS) if card.connects(other))
                 for card in ALL_CARDS)
"""Per card number (its index in ALL_CARDS): the bit set of the cards that connect with it."""
EVERY_CARD = (1 << len(ALL_CARDS)) - 1
_CONNECTING = tuple(tuple(j for j, other in enumerate(ALL_CARDS) if card.connects(other))
                    for card in ALL_CARDS)
"""Per card number: the numbers of the cards that connect with it (itself and 8 others)."""
_POS_NUMBER = {text: i for i, text in enumerate(_POS_TEXT)}
_CENTRE = 2 * SIZE + 2
ISLAND = sum(1 << p for p in range(SIZE * SIZE) if p != _CENTRE)
"""The bit set of the 24 places (row * 5 + column) of the island."""
_SIDES = {side: tuple(p.row * SIZE + p.col for p in places) for side, places in SIDES.items()}
_AT = tuple(tuple(f"{place} ({card})" for card in _CARD_TEXT) for place in _POS_TEXT)
"""``_AT[place][card]``: ``"B1 (turtle/water)"``, made once."""


def _places(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Island:
    """The true island as card numbers by place (a card the log leaves out has none), and
    each player's knowledge: the bit set of the places they know (what lies there is the
    island's card: cards move only by swaps everyone sees) and of the cards they have seen. A
    place seen whose card the log does not name cannot be used: it never connects."""

    def __init__(self, cards: dict[int, int], players: Sequence[str],
                 peeks: Mapping[str, str]) -> None:
        self.cards = cards
        self.place_bit = [0] * len(ALL_CARDS)
        """Per card number: the bit of its place (0: not on the island, or not named)."""
        for place, card in cards.items():
            self.place_bit[card] = 1 << place
        self.known = dict.fromkeys(players, 0)
        self.seen = dict.fromkeys(players, 0)
        for p in players:
            for place in _SIDES[peeks[p]]:
                self.learn(p, place)

    def learn(self, player: str, place: int) -> None:
        self.known[player] |= 1 << place
        card = self.cards.get(place)
        if card is not None:
            self.seen[player] |= 1 << card

    def everyone(self, place: int) -> None:
        bit, card = 1 << place, self.cards[place]
        for player, places in self.known.items():
            self.known[player] = places | bit
            self.seen[player] |= 1 << card

    def swap(self, a: int, b: int) -> None:
        cards = self.cards
        card_a, card_b = cards.pop(a, None), cards.pop(b, None)
        if card_b is not None:
            cards[a] = card_b
            self.place_bit[card_b] = 1 << a
        if card_a is not None:
            cards[b] = card_a
            self.place_bit[card_a] = 1 << b
        both = 1 << a | 1 << b
        for player, places in self.known.items():
            if (places >> a & 1) != (places >> b & 1):
                self.known[player] = places ^ both

    def judge(self, player: str, allowed: int, last: int,
              chosen: int) -> tuple[Mark, str, str, float | None, str]:
        """The mark of ``player`` revealing place ``chosen`` to connect to card ``last``,
        among the places of bit set ``allowed``; with what they knew, what a perfect memory
        does, the chance of a guess and why."""
        known = self.known[player]
        place_bit = self.place_bit
        connecting = 0  # the places whose card connects with ``last``
        for other in _CONNECTING[last]:
            connecting |= place_bit[other]
        matches = allowed & known & connecting
        unknown = (allowed & ~known).bit_count()
        pool = EVERY_CARD & ~self.seen[player]
        connects = CONNECTS[last]
        hits, size = (pool & connects).bit_count(), pool.bit_count()
        chance = hits / size if unknown and size else 0.0
        choices = allowed.bit_count()
        knew = (f"to connect to {_CARD_TEXT[last]}; {choices - unknown} of the {choices} cards "
                f"they could reveal seen, {matches.bit_count()} of them connecting")
        outcome = ("it connects" if connects >> self.cards[chosen] & 1
                   else "it does not connect")
        if matches:
            cards = self.cards
            best = "reveal a card seen that connects: " + ", ".join(
                [_AT[p][cards[p]] for p in _places(matches)])
            if matches >> chosen & 1:
                return Mark.SOUND, knew, best, None, "a card seen that connects"
            return (Mark.SLIP, knew, best, None,
                    f"passed over a card seen that connects ({outcome})")
        if chance == 0:
            return (Mark.SOUND, knew, "any reveal: no card they could reveal can connect",
                    None, "nothing could connect")
        best = (f"reveal a card not seen: {hits} of the {size} cards not seen connect "
                f"({chance:.0%})")
        if not known >> chosen & 1:
            if hits == size:  # every card not seen connects: what was seen decides it
                return Mark.SOUND, knew, best, None, "every card not seen connects"
            return Mark.GUESS, knew, best, chance, outcome
        return (Mark.SLIP, knew, best, None,
                "a card seen not to connect, while a chance was left")

    def move(self, number: int, index: int, player: str, allowed: int, last: int,
             place: int, rule: Rule, pointer: str) -> AnalysedMove:
        mark, knew, best, chance, why = self.judge(player, allowed, last, place)
        return AnalysedMove(number, index, player, "reveals " + _AT[place][self.cards[place]],
                            knew, best, mark, why, chance, rule, pointer)


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
    for number, rnd in enumerate(log["rounds"], 1):
        face_down = ISLAND
        last: int | None = None
        mark = 0  # the bit of the place a walrus marked for the next turn
        at = f"/rounds/{number - 1}/actions/"
        for index, action in enumerate(rnd["actions"], 1):
            blocked, mark = mark, 0
            if "reveal" not in action:
                continue
            player, place = action["player"], _POS_NUMBER[action["reveal"]]
            card = island.cards[place]
            if last is not None:
                moves.append(island.move(number, index, player, face_down & ~blocked, last,
                                         place, rule, f"{at}{index - 1}"))
            face_down &= ~(1 << place)
            island.everyone(place)
            success = last is None or CONNECTS[last] >> card & 1
            last = card
            if "swap" in action:  # the C replay took the log: every ability is as earned
                other = _POS_NUMBER[action["swap"]]
                if (face_down >> place & 1) != (face_down >> other & 1):
                    face_down ^= 1 << place | 1 << other
                island.swap(place, other)
            if "mark" in action and success:
                mark = 1 << _POS_NUMBER[action["mark"]]
            if "peek" in action:
                island.learn(player, _POS_NUMBER[action["peek"]])
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
            pos = action.reveal
            allowed = state.allowed_reveals()
            last = state.last
            if pos is not None and last is not None and pos in allowed:
                moves.append(island.move(rnd.number, action.number, action.player,
                                         sum(1 << _place(p) for p in allowed),
                                         number_of[last.text], _place(pos), rule,
                                         action.pointer))
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
