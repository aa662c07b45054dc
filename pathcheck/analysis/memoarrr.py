"""Memoarrr!: what each player knows of the island, and each reveal against it.

Seen by everyone: every card revealed (it stays where it is, face down again after the
round, until an octopus swaps it, which everyone sees too). Seen by one player: the 3 middle
cards of the side they looked at before round 1, and a card a penguin let them peek at.

A reveal is a move when it has a card to connect to (the first reveal of a round always
succeeds, so memory cannot bear on it): it is sound if it reveals a card the player knows
connects (or, knowing none, a card not seen, or anything when nothing can connect), a
slip if it passes over a known connecting card or reveals a card seen not to connect while a
chance was left, a guess (with the chance that a card not seen connects) otherwise.

>>> import random
>>> from pathcheck.games.memoarrr.gen import random_game
>>> analysis = analyse(random_game(random.Random(3), players=2), source="demo")
>>> analysis.game, len(analysis.summaries), {m.mark.value for m in analysis.moves} <= {
...     "slip", "guess", "sound"}
('memoarrr', 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pathcheck.analysis.core import AnalysedMove, GameAnalysis, Mark, make_analysis
from pathcheck.games.memoarrr.log import FORMAT, Setup, read_log
from pathcheck.games.memoarrr.plain import read_plain
from pathcheck.games.memoarrr.rules import (
    ALL_CARDS,
    CONNECT,
    ROUNDS,
    SIDES,
    Card,
    Pos,
    decide_winners,
    rule_for,
)
from pathcheck.games.memoarrr.state import State

Knowledge = dict[Pos, Card | None]
"""What one player knows: position -> the card there (None: they saw it, the log does not
say what it is, so the analysis cannot use it)."""


def read(log: Mapping[str, Any], *, source: str) -> Setup:
    """The log read as the adjudicator reads it (the fast reader, else the one that words
    errors)."""
    return read_plain(log) or read_log(log, source=source)


def initial_knowledge(setup: Setup) -> dict[str, Knowledge]:
    """Each player's knowledge before round 1: the side they peeked at."""
    return {p: {pos: setup.island.get(pos) for pos in SIDES[setup.peeks[p]]}
            for p in setup.players}


def judge_reveal(known: Mapping[Pos, Card | None], allowed: list[Pos], last: Card, chosen: Pos,
                 card: Card) -> tuple[Mark, str, str, float | None, str]:
    """The mark of revealing ``chosen`` (holding ``card``) to connect to ``last``, for a
    player who knows ``known``; with what they knew, what a perfect memory does, the chance
    of a guess and why."""
    seen = {c for c in known.values() if c is not None}
    matches = [p for p in allowed if (c := known.get(p)) is not None and c.connects(last)]
    unknown = [p for p in allowed if p not in known]
    pool = [c for c in ALL_CARDS if c not in seen]
    hits = sum(1 for c in pool if c.connects(last))
    chance = Fraction(hits, len(pool)) if unknown and pool else Fraction(0)
    knew = (f"to connect to {last}; {len(allowed) - len(unknown)} of the {len(allowed)} "
            f"cards they could reveal seen, {len(matches)} of them connecting")
    outcome = "it connects" if card.connects(last) else "it does not connect"
    if matches:
        best = "reveal a card seen that connects: " + ", ".join(
            f"{p} ({known[p]})" for p in matches)
        if chosen in matches:
            return Mark.SOUND, knew, best, None, "a card seen that connects"
        return (Mark.SLIP, knew, best, None,
                f"passed over a card seen that connects ({outcome})")
    if chance == 0:
        return (Mark.SOUND, knew, "any reveal: no card they could reveal can connect", None,
                "nothing could connect")
    best = (f"reveal a card not seen: {hits} of the {len(pool)} cards not seen connect "
            f"({float(chance):.0%})")
    if chosen in unknown:
        return Mark.GUESS, knew, best, float(chance), outcome
    return Mark.SLIP, knew, best, None, "a card seen not to connect, while a chance was left"


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every reveal of ``log`` marked (see the module doc); RecordError if malformed."""
    setup = read(log, source=source)
    state = State(setup)
    knowledge = initial_knowledge(setup)
    connect = rule_for(CONNECT, setup.edition)
    moves: list[AnalysedMove] = []
    notes: list[str] = []
    starter = setup.start_player
    for rnd in setup.rounds:
        if rnd.number > ROUNDS or (rnd.number > 1 and not state.round_over):
            notes.append(f"analysis stopped at round {rnd.number}: the replay cannot go on")
            break
        state.start_round(rnd, starter)
        stopped = False
        for action in rnd.actions:
            pos = action.reveal
            allowed = state.allowed_reveals()
            last = state.last
            if pos is not None and last is not None and pos in allowed:
                card = state.grid[pos]
                mark, knew, best, chance, why = judge_reveal(knowledge[action.player],
                                                             allowed, last, pos, card)
                did = f"reveals {pos} ({card})"
                moves.append(AnalysedMove(rnd.number, action.number, action.player, did, knew,
                                          best, mark, why, chance, connect, action.pointer))
            result = state.apply(action)
            if result.fatal:
                notes.append(f"analysis stopped at round {rnd.number}, move {action.number}: "
                             f"{result.fatal}")
                stopped = True
                break
            _learn(knowledge, state, action.player, result.pos, result.card, result.swapped,
                   action.peek)
        if stopped:
            break
        if state.round_over:
            starter = state.next_start_player()
    finished = state.round == ROUNDS and state.round_over
    winners = decide_winners(state.treasures)[0] if finished else []
    scores = {p: state.rubies(p) for p in setup.players}
    return make_analysis("memoarrr", FORMAT, source, setup.players, moves, scores, winners,
                         notes=tuple(notes))


def _learn(knowledge: dict[str, Knowledge], state: State, player: str, pos: Pos | None,
           card: Card | None, swapped: tuple[Pos, Pos] | None, peek: Pos | None) -> None:
    """What everyone (a reveal, a swap) and the mover alone (a penguin's peek) learn."""
    if pos is not None and card is not None:
        for known in knowledge.values():
            known[pos] = card
    if swapped is not None:
        a, b = swapped
        for known in knowledge.values():
            had_a, had_b = a in known, b in known
            card_a, card_b = known.pop(a, None), known.pop(b, None)
            if had_b:
                known[a] = card_b
            if had_a:
                known[b] = card_a
    if peek is not None:
        knowledge[player][peek] = state.grid.get(peek)
