"""Dungeon in memory positions: a stack and a hand, and what each tile of the hand would do.

Each hand tile is laid as the rules let it be laid ("making sure that the direction of the
arrow on that tile is in line with that on the last-taken path") and traced: the path goes on,
or is Lost (the reason, at which tile). Over the tiles the player has not seen (the mode's
tiles minus the stack and their hand), the chance that the next tile laid, laid right, makes
the path Lost.

>>> from pathcheck.tracer.dungeon import parse_notation
>>> result = analyse_position(parse_notation("START@N R1@N R2@E"), ["R3", "I4"])
>>> [(h.tile, h.placement, h.goes_on) for h in result.hand]
[('R3', 'R3@S', True), ('I4', 'I4@S', True)]
>>> result.unseen, result.lost_next + result.goes_on_next == result.unseen
(29, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from pathcheck.errors import InputError
from pathcheck.games.common import Moment
from pathcheck.games.dungeon.log import GameLog
from pathcheck.games.dungeon.state import START_DIR
from pathcheck.render.words import counted
from pathcheck.ruling import Rule
from pathcheck.tracer.dungeon import Placement, trace
from pathcheck.tracer.tileset import TileSet, load_tileset


class HandTile(msgspec.Struct, frozen=True, gc=False):
    """One hand tile laid on the position: where its arrow points and what the path does."""

    tile: str
    placement: str
    goes_on: bool
    reason: str | None = None
    lost_tile: int | None = None
    """The tile (1-based, START is 1) at which the path is Lost."""
    rule: Rule | None = None


class PositionAnalysis(msgspec.Struct, frozen=True):
    """A position: the stack, whether it is Lost already, each hand tile, and the chance
    that the next tile laid makes the path Lost."""

    stack: str
    lost_tile: int | None
    reason: str | None
    heading: str | None
    """The direction the next tile's arrow must point (None: the path is Lost already)."""
    player: str | None
    hand: tuple[HandTile, ...]
    unseen: int
    lost_next: int
    goes_on_next: int
    chance_lost: float | None
    """``lost_next / unseen`` (None with no tile unseen)."""
    lost_by_reason: dict[str, int]

    def to_json(self) -> bytes:
        return msgspec.json.encode(self)


def analyse_position(stack: Sequence[Placement], hand: Sequence[str], *,
                     rules: frozenset[int] = frozenset(), advanced: bool = False,
                     tileset: TileSet | None = None, player: str | None = None
                     ) -> PositionAnalysis:
    """The position ``stack`` (START first) with ``hand`` (tile ids); InputError naming a
    tile that is unknown, out of the mode or given twice."""
    ts = tileset or load_tileset()
    in_play = set(ts.deck_ids(advanced)) | {ts.start}
    seen: set[str] = set()
    for tile in [p.tile for p in stack] + list(hand):
        if tile not in ts:
            raise InputError(f"unknown tile {tile!r} (not in tile set {ts.name!r})")
        if tile not in in_play:
            raise InputError(f"{tile} is not in play with the "
                             f"{'advanced' if advanced else 'basic'} rules")
        if tile in seen:
            raise InputError(f"{tile} is given twice (each tile is in the game once)")
        seen.add(tile)
    if not stack or stack[0].tile != ts.start:
        raise InputError(f"a position starts with the start tile, {ts.start}@N")
    base = trace(stack, tileset=ts, rules=rules, with_passes=True)
    text = " ".join(map(str, stack))
    unseen = [t for t in ts.deck_ids(advanced) if t not in seen]
    if base.lost_at is not None:
        reason = None if base.reason is None else base.reason.value
        lost = tuple(HandTile(t, t, False, reason, base.lost_at, base.rule) for t in hand)
        return PositionAnalysis(text, base.lost_at, reason, None, player, lost, len(unseen),
                                len(unseen), 0, 1.0 if unseen else None,
                                {reason or "": len(unseen)} if unseen else {})
    heading = base.passes[-1].exit

    def lay(tile: str) -> HandTile:
        placement = Placement(tile, heading)
        result = trace([*stack, placement], tileset=ts, rules=rules)
        if result.lost_at is None:
            return HandTile(tile, str(placement), True)
        return HandTile(tile, str(placement), False,
                        None if result.reason is None else result.reason.value,
                        result.lost_at, result.rule)

    laid = tuple(lay(t) for t in hand)
    by_reason: dict[str, int] = {}
    for tile in unseen:
        outcome = lay(tile)
        if not outcome.goes_on:
            by_reason[outcome.reason or ""] = by_reason.get(outcome.reason or "", 0) + 1
    lost_next = sum(by_reason.values())
    chance = None if not unseen else round(lost_next / len(unseen), 4)
    return PositionAnalysis(text, None, None, heading.name, player, laid, len(unseen),
                            lost_next, len(unseen) - lost_next, chance, by_reason)


def position_at(game: GameLog, at: str) -> tuple[list[Placement], list[str] | None, str | None]:
    """The stack of a ``game/1`` log at moment ``R.T`` (exploration R after turn T), and the
    hand of the player who lays the next tile (None when the log does not say: the hands were
    not recorded, or no turn follows) with their name; InputError for a moment the log does
    not have."""
    moment = Moment.parse(at)
    if not 1 <= moment.round <= len(game.explorations):
        raise InputError(f"--at {at}: the log has {counted(len(game.explorations), 'exploration')}")
    exp = game.explorations[moment.round - 1]
    if not 0 <= moment.turn <= len(exp.turns):
        raise InputError(f"--at {at}: exploration {moment.round} has "
                         f"{counted(len(exp.turns), 'turn')}")
    stack = [Placement(game.tileset.start, START_DIR)]
    stack += [turn.placement for turn in exp.turns[:moment.turn]]
    if moment.turn == len(exp.turns):
        return stack, None, None
    player = exp.turns[moment.turn].player
    if not exp.hands_recorded or (not exp.deck_recorded
                                  and not all(t.draw_recorded for t in exp.turns)):
        return stack, None, player
    hands = {p: list(h) for p, h in exp.hands.items()}
    deck = list(exp.deck)
    for turn in exp.turns[:moment.turn]:
        hand = hands.setdefault(turn.player, [])
        if turn.placement.tile in hand:
            hand.remove(turn.placement.tile)
        top = deck.pop(0) if deck else None
        drawn = turn.draw if turn.draw_recorded else top
        if drawn is not None:
            hand.append(drawn)
    return stack, hands.get(player, []), player
