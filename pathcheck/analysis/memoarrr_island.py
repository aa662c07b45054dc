"""Memoarrr!'s island as the analysis models what each player knows of it (:class:`Island`),
the plain reference of pathcheck/speedups/c/memoarrr_know.c: each reveal judged against it
(:meth:`Island.judge`) is a :data:`Judged` value, which
:func:`pathcheck.analysis.memoarrr.marked` words.

>>> from pathcheck.games.memoarrr.fast import CARD_NUMBERS as number
>>> island = Island({0: number["turtle/water"], 1: number["crab/water"]}, ["Ann"],
...                 {"Ann": "south"})
>>> did, knew, best, verdict = island.judge("Ann", 0b11, number["crab/lava"], 1)
>>> verdict & 7 == GUESS + 1, divmod(best, 32)  # a guess that connects: 9 of 25 not seen
(True, (9, 25))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pathcheck.games.memoarrr.fast import CARD_TEXT, POS_TEXT
from pathcheck.games.memoarrr.rules import ALL_CARDS, SIDES, SIZE, Animal, Landscape

CONNECTS = tuple(sum(1 << j for j, other in enumerate(ALL_CARDS) if card.connects(other))
                 for card in ALL_CARDS)
"""Per card number (its index in ALL_CARDS): the bit set of the cards that connect with it."""
EVERY_CARD = (1 << len(ALL_CARDS)) - 1
KINDS = tuple((list(Animal).index(card.animal), len(Animal) + list(Landscape).index(
    card.landscape)) for card in ALL_CARDS)
"""Per card number: its animal and its landscape, as indexes of Island.kind_places (a card
connects with the cards that share one of them)."""
SIDE_PLACES = {side: tuple(p.row * SIZE + p.col for p in places) for side, places in SIDES.items()}
CARDS = len(ALL_CARDS)

# The verdicts on a reveal, in the order of memoarrr_know.c's (a verdict + 1 is the same
# verdict on a card that connects): pathcheck.analysis.memoarrr gives each its mark and why.
SEEN_CONNECTS, PASSED_OVER, NOTHING, EVERY_UNSEEN, SEEN_MISS, GUESS = 0, 1, 3, 4, 5, 6
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

AT = tuple(f"{place} ({card})" for place in POS_TEXT for card in CARD_TEXT)
"""``AT[place * 25 + card]``: ``"B1 (turtle/water)"``, made once."""
BEST_ONE = tuple(f"reveal a card seen that connects: {at}" for at in AT)
"""The best move when one card seen connects (and the start of it when more do)."""


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
            animal, landscape = KINDS[card]
            self.kind_places[animal] |= 1 << place
            self.kind_places[landscape] |= 1 << place
        self.public_places = 0
        self.public_cards = 0
        self.own_places = dict.fromkeys(players, 0)
        self.own_cards = dict.fromkeys(players, 0)
        self.reveals = 0
        """The reveals so far: the moves of the memory span."""
        self.seen_at = {p: [0] * CARDS for p in players}
        """Per player, per place: the reveal at which they last saw its card (0: before
        round 1)."""
        for p in players:
            for place in SIDE_PLACES[peeks[p]]:
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
                animal, landscape = KINDS[card]
                kinds[animal] ^= both
                kinds[landscape] ^= both
        if card_b is not None:
            cards[a] = card_b
        if card_a is not None:
            cards[b] = card_a
        self.public_places = swapped(self.public_places, a, b, both)
        for player, places in self.own_places.items():
            self.own_places[player] = swapped(places, a, b, both)
        for at in self.seen_at.values():  # when each card was seen moves with it
            at[a], at[b] = at[b], at[a]

    def judge(self, player: str, allowed: int, last: int, chosen: int) -> Judged:
        """``player`` revealing place ``chosen`` to connect to card ``last``, among the
        places of bit set ``allowed``, judged against what they knew."""
        cards = self.cards
        card = cards[chosen]
        known = self.public_places | self.own_places[player]
        animal, landscape = KINDS[last]
        matches = allowed & known & (self.kind_places[animal] | self.kind_places[landscape])
        unknown = (allowed & ~known).bit_count()
        did = chosen * CARDS + card
        pool = EVERY_CARD & ~(self.public_cards | self.own_cards[player])
        hits, size = (pool & CONNECTS[last]).bit_count(), pool.bit_count()
        knew = (last << 15 | allowed.bit_count() | unknown << 5 | matches.bit_count() << 10
                | (known >> chosen & 1) << 20 | hits << 21 | size << 26)
        hit = CONNECTS[last] >> card & 1
        if matches:
            at = self.seen_at[player]
            first = (matches & -matches).bit_length() - 1
            texts = [BEST_ONE[first * CARDS + cards[first]]]
            youngest = at[first]  # the age is the youngest's, whichever card was revealed
            rest = matches & (matches - 1)
            while rest:
                place = (rest & -rest).bit_length() - 1
                texts.append(AT[place * CARDS + cards[place]])
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
            oldest = min((self.seen_at[player][p] for p in places_of(seen)), default=None)
            verdict = EVERY_UNSEEN | (0 if oldest is None else self.reveals + 1 - oldest) << 3
        else:
            verdict = GUESS + hit
        return did, knew, hits << 5 | size, verdict


def places_of(places: int) -> list[int]:
    """The places of the bit set ``places``.

    >>> places_of(0b1010)
    [1, 3]
    """
    return [p for p in range(SIZE * SIZE) if places >> p & 1]


def swapped(places: int, a: int, b: int, both: int) -> int:
    """The bit set ``places`` with the bits of places ``a`` and ``b`` exchanged."""
    return places ^ both if (places >> a ^ places >> b) & 1 else places
