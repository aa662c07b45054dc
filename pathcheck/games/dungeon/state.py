"""Replaying a ``game/1`` log of dungeon in memory, exploration by exploration (spec section 4).

Every step is checked: the deal, the active player, the tile from the hand, the draw, the
announcements (rule #1 priority), the end of the exploration, the check and its points, the
next start player and the end of the game. A broken rule becomes a
:class:`~pathcheck.ruling.Violation` and the replay goes on with the log "as played", so the
ruling also says what the outcome would be.

>>> from pathcheck.games.dungeon.log import read_game_log
>>> log = read_game_log({"format": "game/1", "players": ["Ann", "Bob"], "explorations": [
...     {"start_player": "Ann", "hands": {"Ann": ["L4"], "Bob": []}, "deck": [],
...      "turns": [{"player": "Ann", "tile": "L4", "dir": "E", "lost": ["Bob"]}]}]},
...     source="doc")
>>> replay = Replay(log)
>>> rnd = replay.play(0)
>>> rnd.scores, replay.violations[0].rule.id
({'Ann': 0, 'Bob': 1}, 'dungeon/deal')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from typing import Literal

from msgspec import UNSET, UnsetType

from pathcheck.check import OUTCOME_RULES, LostCard, card_outcomes, explain_outcome
from pathcheck.constants import REASONS, tracing_mask
from pathcheck.dungeon import LOST_RULES, LostReason, Placement, TraceResult
from pathcheck.errors import pointer_join
from pathcheck.facts import UnfinishedExplorationFact, UnfinishedGameFact
from pathcheck.fasttrace import CompiledTileSet, compile_tileset, trace_indices
from pathcheck.games.dungeon.deal import DealReplay, Table, unchecked_fact
from pathcheck.games.dungeon.log import Exploration, GameLog, Turn
from pathcheck.games.dungeon.rules import (
    ANNOUNCE_ACTIVE,
    ANNOUNCE_TEAM,
    DEAL,
    EXPLORATION_END,
    GAME_END,
    NEXT_START,
    PRIORITY,
    TURN_ORDER,
    WIN_POINTS,
)
from pathcheck.geometry import Direction
from pathcheck.render.words import counted
from pathcheck.ruling import (
    AnnounceFact,
    DungeonFact,
    Event,
    ExplorationEndFact,
    Fact,
    GameEndFact,
    LostCardFact,
    MoveRef,
    Round,
    Rule,
    StartFact,
    TurnFact,
    Violation,
    VoidAnnouncementFact,
)
from pathcheck.tileset import TileSet, load_tileset

START_DIR = Direction.N
"""**Decision**: the Start tile lies with its arrow north; turns' ``dir`` are read from there."""
TILES_PER_LINE = 10
"""Placements a line in a round's display of the stack."""
_DIR_NAMES = tuple(d.name for d in Direction)


def clockwise_after(players: Sequence[str], player: str) -> list[str]:
    """The other players in turn order after ``player``.

    >>> clockwise_after(["Ann", "Bob", "Cy"], "Bob")
    ['Cy', 'Ann']
    """
    seat = players.index(player)
    return [players[(seat + i) % len(players)] for i in range(1, len(players))]


def stack_notation(placements: Sequence[Placement], cards: Sequence[LostCard]) -> str:
    """The stack in compact notation, LOST cards after their tile, a few tiles a line.

    >>> stack_notation([Placement("START", Direction.N), Placement("L4", Direction.E)],
    ...                [LostCard("Bob", 2)])
    'START@N L4@E !Bob'
    """
    tokens = [f"{p.tile}@{_DIR_NAMES[p.dir]}" for p in placements]  # str(p), without a call
    for card in cards:  # a card's tokens follow its tile's, in the order the cards were laid
        if 1 <= card.after <= len(tokens):
            tokens[card.after - 1] += f" !{card.player}"
    if len(tokens) <= TILES_PER_LINE:
        return " ".join(tokens)
    return "\n".join(" ".join(tokens[k:k + TILES_PER_LINE])
                     for k in range(0, len(tokens), TILES_PER_LINE))


_LOST_AT: tuple[tuple[str, Rule] | None, ...] = tuple(
    None if name is None else (name, LOST_RULES[LostReason(name)]) for name in REASONS)
"""Per reason code of the tracer: the reason's name and the rule behind it."""


@lru_cache(maxsize=256)
def _clockwise(players: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    """Each player's :func:`clockwise_after` (worked out once for a table)."""
    return {player: tuple(clockwise_after(players, player)) for player in players}


@dataclass(frozen=True)
class _Setup:
    """What a replay needs of its tile set in a mode (worked out once)."""

    in_play: tuple[str, ...]
    in_play_set: frozenset[str]
    start: Placement
    compiled: CompiledTileSet
    c_tracer: CTracer | None


_setups: dict[tuple[int, bool], tuple[TileSet, _Setup]] = {}


def _setup(tileset: TileSet, advanced: bool) -> _Setup:
    """The setup of ``tileset`` in a mode, found by identity (holding the set keeps its id
    unique) as :func:`pathcheck.fasttrace.compile_tileset` finds its tables."""
    hit = _setups.get((id(tileset), advanced))
    if hit is not None and hit[0] is tileset:
        return hit[1]
    in_play = tuple(tileset.deck_ids(advanced))
    compiled = compile_tileset(tileset)
    # Equal tile sets share their compiled tables: the C tables are those of the standard set.
    tracer = c_tracer() if compiled is compile_tileset(load_tileset()) else None
    setup = _Setup(in_play, frozenset(in_play), Placement(tileset.start, START_DIR), compiled,
                   tracer)
    _setups[(id(tileset), advanced)] = (tileset, setup)
    return setup


class Replay(DealReplay):
    """The replay of a whole log: running scores, rounds, violations."""

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self._clockwise = _clockwise(log.players)
        setup = _setup(log.tileset, log.advanced)
        self._in_play, self._in_play_set = setup.in_play, setup.in_play_set
        self._start, self._compiled, self._c_tracer = setup.start, setup.compiled, setup.c_tracer
        self._mask = tracing_mask(log.rules)
        self.scores: dict[str, int] = dict.fromkeys(log.players, 0)
        self.violations: list[Violation] = []
        self.winners: list[str] = []
        self.game_end: GameEndFact | None = None
        """The game's end, once a check ended it."""
        self.ended_after: int | None = None
        """The exploration (1-based) whose check ended the game."""
        self.last_player: str | None = None
        self._events: list[Event] = []
        self.unchecked: list[tuple[int, str]] = []
        """Explorations (0-based) whose deal was not (wholly) recorded, and what was not
        checked."""
        self.stacks: list[tuple[list[Placement], list[int]]] = []
        """Per exploration: the stack as played, and its height after each turn (--at)."""
        self.checks: list[tuple[int, int, list[LostCard]]] = []
        """Per exploration: its Lost point (0: never) and reason code, and the LOST cards
        that stood (what the analysis of announcements reads)."""
        self.team: list[str] = []
        self.hands: dict[str, list[str]] = {}
        """The hands in the last exploration replayed, as they are after its last turn."""
        """The players still in the last exploration replayed."""
        self.up_next: str | None = None
        """Who plays next in the last exploration replayed (None: it has ended)."""

    # --- helpers ------------------------------------------------------------------------

    def _event(self, text: str, move: MoveRef | None = None, rule: Rule | None = None,
               points: Mapping[str, int] | None = None, fact: Fact | UnsetType = UNSET) -> None:
        self._events.append(Event(text, move, rule, dict(points or {}), fact))

    def _next_active(self, table: Table, after: str) -> str | None:
        """The next player clockwise after ``after`` still in the team (None: nobody)."""
        team = table.team
        for player in self._clockwise[after]:
            if player in team:
                return player
        return None

    @staticmethod
    def _card_of(table: Table, player: str) -> int | None:
        return next((c.after for c in table.cards if c.player == player), None)

    # --- the game -----------------------------------------------------------------------

    def run(self) -> list[Round]:
        rounds = [self.play(i) for i in range(len(self.log.explorations))]
        if self.ended_after is None:
            best = max(self.scores.values())
            leaders = [p for p, s in self.scores.items() if s == best]
            self._violate(GAME_END, MoveRef(pointer="/explorations"),
                          f"the log ends before anyone reached {WIN_POINTS} points "
                          f"(best: {' and '.join(leaders)} with {best})", unfinished=True,
                          fact=UnfinishedGameFact(WIN_POINTS, best, tuple(leaders)))
        return rounds

    def play(self, index: int) -> Round:
        """Replay exploration ``index`` (0-based), its check, and return it as a Round."""
        exp = self.log.explorations[index]
        number = index + 1
        self._events = []
        if self.game_end is not None and self.ended_after == number - 1:
            self._violate(GAME_END, MoveRef(round=number, pointer=exp.pointer),
                          f"the game ended after exploration {self.ended_after} "
                          f"({' and '.join(self.winners)} reached {WIN_POINTS} points); no "
                          "further exploration is played", fact=self.game_end)
        if self.last_player is not None and exp.start_player != self.last_player:
            self._violate(NEXT_START, MoveRef(round=number, player=exp.start_player,
                                              pointer=exp.pointer + "/start_player"),
                          f"the start player is {self.last_player}, who took the last turn "
                          f"of exploration {number - 1}, not {exp.start_player}",
                          fact=StartFact(self.last_player, number, "last-turn"))
        self.check_deal(number, exp)
        table = Table(list(self.log.players), {}, [], [self._start], [])
        table.placed[self._start.tile] = 1
        self.deal(number, exp, table)
        if self.unchecked and self.unchecked[-1][0] == index:
            self._event(f"not checked: {self.unchecked[-1][1]}",
                        MoveRef(round=number, pointer=exp.pointer), DEAL, None,
                        unchecked_fact(exp))
        self._explore(number, exp, table)
        self.settle(number, table)
        # Every turn lays one tile on the START tile: the stack is t + 1 tiles after turn t.
        # (The stack is complete: it is kept as it is.)
        self.stacks.append((table.placements, list(range(2, len(exp.turns) + 2))))
        if table.ended is None:
            going = (f"still in the team: {', '.join(table.team)}"
                     if exp.turns else "no turn is recorded")
            self._violate(EXPLORATION_END, MoveRef(round=number, pointer=exp.pointer + "/turns"),
                          f"the log stops while the exploration goes on ({going})",
                          unfinished=True,
                          fact=UnfinishedExplorationFact(tuple(table.team), len(exp.turns)))
        else:
            self._events.append(Event(f"the exploration ends: {table.ended}", None,
                                      EXPLORATION_END, {}, table.ended_fact or UNSET))
        self.last_player = table.active or exp.start_player
        self.team, self.hands = table.team, table.hands
        self.up_next = None if table.ended is not None else (
            exp.start_player if table.active is None else self._next_active(table, table.active))
        self._check(number, table)
        return Round(
            number=number,
            title=f"Exploration {number} (start player {exp.start_player}, "
                  f"{len(exp.turns)} turn{'' if len(exp.turns) == 1 else 's'})",
            events=tuple(self._events),
            scores=dict(self.scores),
            display=stack_notation(table.placements, table.cards),
        )

    # --- a turn -------------------------------------------------------------------------

    def _explore(self, number: int, exp: Exploration, table: Table) -> None:
        """Replay the turns of an exploration on ``table`` (the common case inline: a turn
        costs little; what breaks a rule is worded by the methods below)."""
        team, hands, deck, placements = table.team, table.hands, table.deck, table.placements
        placed = table.placed
        clockwise = self._clockwise
        ended: str | None = None
        active: str | None = None
        following: str | None = None  # the next active player, found at the end of a turn
        for t, turn in enumerate(exp.turns, start=1):
            player, placement = turn.player, turn.placement
            if ended is not None and table.ended_fact is not None:
                self._violate(EXPLORATION_END, _move(number, t, turn),
                              f"the exploration had already ended ({ended}): no turn "
                              f"{t} is played", fact=table.ended_fact)
            expected: str | None
            if active is None:
                expected = exp.start_player
            elif following is not None:
                expected = following
            else:
                expected = self._next_active(table, active)
            if player != expected and ended is None and expected is not None:
                if player not in team:
                    why = (f"{player} left the team (LOST card after tile "
                           f"{self._card_of(table, player)})")
                else:
                    why = f"the turn passes clockwise to {expected}"
                self._violate(TURN_ORDER, _move(number, t, turn),
                              f"{player} plays, but it is {expected}'s turn: {why}",
                              fact=TurnFact(player, expected))
                table.adrift += 1
            active, following = player, None
            hand = hands[player]
            if placement.tile in hand:
                hand.remove(placement.tile)
                placements.append(placement)
                placed.setdefault(placement.tile, len(placements))
            else:
                self.place_unheld(number, t, turn, table, exp, in_turn=player == expected)
            top = deck.pop(0) if deck else None
            if not turn.draw_recorded or turn.draw == top:
                if top is not None:
                    hand.append(top)
            else:
                self.draw_other(number, t, turn, table, top, in_turn=player == expected)
            if turn.lost:
                self._announce(number, t, turn, table)
            if ended is None:
                if len(team) <= 1:
                    ended = f"only {player} is left in the team"
                    table.ended_fact = ExplorationEndFact("one-left", player)
                    continue
                for following in clockwise[player]:
                    if following in team:
                        if not hands[following]:
                            ended = f"{following}, the next active player, has no tile in hand"
                            table.ended_fact = ExplorationEndFact("no-tile", following)
                        break
                else:
                    following = None
        table.ended, table.active = ended, active

    def _announce(self, number: int, t: int, turn: Turn, table: Table) -> None:
        after = len(table.placements)
        lost, team = turn.lost, table.team
        if len(lost) == 1 and lost[0] != turn.player and lost[0] in team:
            table.cards.append(LostCard(lost[0], after))  # the usual announcement: one player
            team.remove(lost[0])
            return
        valid: list[str] = []
        for i, name in enumerate(turn.lost):
            if name != turn.player and name not in valid and name in table.team:
                valid.append(name)
                continue
            move = MoveRef(round=number, index=t, player=name,
                           pointer=pointer_join(turn.pointer, "lost", i))
            if name == turn.player:
                self._violate(ANNOUNCE_ACTIVE, move,
                              f"{name} is the active player and cannot announce Lost",
                              fact=AnnounceFact(name, "active", None))
            elif name in valid:
                self._violate(ANNOUNCE_TEAM, move, f"{name} announces Lost twice in one turn",
                              fact=AnnounceFact(name, "twice", None))
            elif name not in table.team:
                card_after = self._card_of(table, name)
                self._violate(ANNOUNCE_TEAM, move,
                              f"{name} already left the team (LOST card after tile "
                              f"{card_after}) and cannot announce again",
                              fact=AnnounceFact(name, "left", card_after))
        if 1 in self.log.rules and len(valid) > 1:
            stay = "stays" if len(valid) == 2 else "stay"
            by: Literal["turn-order", "first"] = "turn-order"
            if turn.simultaneous is False:  # one after the other: the first announcement stands
                by = "first"
                standing = valid[0]
                void = valid[1:]
                who = " and ".join(void)
                text = (f"{who} announced Lost after {standing} in the same turn: void, only "
                        f"one player may announce Lost in a turn; {who} {stay} in the team")
            else:  # simultaneous, or the log does not say
                order = clockwise_after(self.log.players, turn.player)
                standing = min(valid, key=order.index)
                void = [n for n in valid if n != standing]
                who = " and ".join(void)
                text = (f"{who} also announced Lost: void, {standing} is the earliest in turn "
                        f"order after {turn.player}; {who} {stay} in the team")
            self._event(text,
                        MoveRef(round=number, index=t, player=turn.player,
                                pointer=turn.pointer + "/lost"), PRIORITY, None,
                        VoidAnnouncementFact(standing, tuple(void), by))
            valid = [standing]
        for name in valid:
            table.cards.append(LostCard(name, after))
            table.team.remove(name)

    # --- the check ----------------------------------------------------------------------

    def _check(self, number: int, table: Table) -> None:
        log = self.log
        placements = table.placements
        lost_at, code = lost_point(placements, self._compiled, self._mask, self._c_tracer)
        self.checks.append((lost_at, code, table.cards))
        lost = _LOST_AT[code]
        if lost is None:
            self._events.append(Event(_describe(placements, None, ""), None, None, {},
                                      dungeon_fact(placements, None, None)))
        else:
            self._events.append(Event(_describe(placements, lost_at, lost[0]), None, lost[1], {},
                                      dungeon_fact(placements, lost_at, lost[0])))
        at = lost_at or None
        scores = self.scores
        for player, kind, after, points in card_outcomes(at, table.cards, log.players):
            self._events.append(Event(explain_outcome(player, kind, after, at), None,
                                      OUTCOME_RULES.get(kind), {player: points},
                                      LostCardFact(player, kind.value, after, at)))
            scores[player] += points
        if self.ended_after is None:
            reached = [p for p, s in scores.items() if s >= WIN_POINTS]
            if reached:
                self.ended_after = number
                self.winners = reached
                end = self.game_end = GameEndFact(number, tuple(reached), WIN_POINTS,
                                                  dict(scores), tuple(reached))
                verb = "share the victory" if len(reached) > 1 else "wins"
                who = " and ".join(reached)
                reach = "reaches" if len(reached) == 1 else "reach"
                self._events.append(Event(f"{who} {reach} {WIN_POINTS} points: the game ends; "
                                          f"{who} {verb}", None, GAME_END, {}, end))
                return
            self._events.append(Event(f"next start player: {self.last_player} (took the last "
                                      "turn)", None, NEXT_START, {},
                                      StartFact(str(self.last_player), number + 1, "last-turn")))


CTracer = Callable[[list[Placement], int], "tuple[int, int] | None"]
"""The C tracer of a stack of the standard tile set: (placements, rules) -> (lost_at, reason
code), or None for a stack it does not take (longer than it traces)."""


def lost_point(placements: list[Placement], compiled: CompiledTileSet, rules: int,
               c_tracer: CTracer | None = None) -> tuple[int, int]:
    """Where the stack got Lost (its 1-based tile, 0: never) and the reason code, as
    :func:`~pathcheck.fasttrace.trace_indices` gives them (``rules``: its mask).

    ``c_tracer`` (:func:`c_tracer`, for a stack of the standard tile set) traces it in C
    when it takes the stack; the result is the same (the tests compare both).

    >>> from pathcheck.dungeon import parse_notation
    >>> tiles = parse_notation("START@N L4@E I4@N")
    >>> lost_point(tiles, compile_tileset(load_tileset()), 0)
    (2, 1)
    """
    if c_tracer is not None:
        got = c_tracer(placements, rules)
        if got is not None:
            return got
    index = compiled.index
    lost_at, code, _, _ = trace_indices(compiled, [index[p.tile] for p in placements],
                                        [p.dir for p in placements], rules)
    return lost_at, code


@cache
def c_tracer() -> CTracer | None:
    """The C tracer of the standard tile set's stacks; None without the C extension (a
    clone built without a C compiler traces in Python)."""
    from pathcheck import speedups  # not imported before a replay needs it

    if not speedups.available():
        return None
    return partial(speedups._speedups.trace_stack, speedups.make_tables(load_tileset()))


def _move(number: int, t: int, turn: Turn) -> MoveRef:
    """The reference to turn ``t`` of exploration ``number`` (made only for a violation)."""
    return MoveRef(index=t, player=turn.player, round=number, pointer=turn.pointer)


def describe_trace(result: TraceResult, placements: Sequence[Placement]) -> str:
    """One line on the laid-out dungeon: its size and its Lost point and reason.

    >>> from pathcheck.dungeon import parse_notation, trace
    >>> tiles = parse_notation("START@N L4@E I4@N")
    >>> describe_trace(trace(tiles), tiles)
    'the dungeon of 3 tiles is Lost at tile 2 (L4@E, placed in turn 1): misplaced'
    """
    return _describe(placements, result.lost_at,
                     "" if result.reason is None else result.reason.value)


def dungeon_fact(placements: Sequence[Placement], lost_at: int | None,
                 reason: str | None) -> DungeonFact:
    """What :func:`_describe` words, as fields."""
    if lost_at is None:
        return DungeonFact(len(placements), None, None, None, None)
    return DungeonFact(len(placements), lost_at, str(placements[lost_at - 1]), lost_at - 1,
                       reason)


def _describe(placements: Sequence[Placement], lost_at: int | None, reason: str) -> str:
    size = f"the dungeon of {counted(len(placements), 'tile')}"
    if lost_at is None:
        return f"{size} is never Lost: the path holds to the last tile"
    return (f"{size} is Lost at tile {lost_at} ({placements[lost_at - 1]}, placed in turn "
            f"{lost_at - 1}): {reason}")
