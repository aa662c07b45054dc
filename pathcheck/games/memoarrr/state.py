"""The Memoarrr! replay: the walk through a log's rounds that plays each action on the
island (:class:`~pathcheck.games.memoarrr.island.State`) and collects what the ruling reports
(:class:`Replay`), with the pictures of the moments asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pathcheck.errors import pointer_join
from pathcheck.facts import RoundEndFact, TreasureStackFact
from pathcheck.games.common import Moment, Pictures
from pathcheck.games.memoarrr.at import render_island
from pathcheck.games.memoarrr.island import State, TurnResult
from pathcheck.games.memoarrr.log import Action, Setup
from pathcheck.games.memoarrr.rules import (
    ALL_REVEALED,
    CONNECT,
    GAME_END,
    OCTOPUS_ADJACENT,
    ORDERED_STACK,
    PEEK_SIDES,
    ROUND_END,
    ROUNDS,
    START_PLAYER,
    TREASURE,
    TREASURES,
    EditionRule,
    decide_winners,
)
from pathcheck.games.memoarrr.texts import (
    LOG_ENDS_EARLY,
    NEVER_SEEN,
    round_title,
    start_fact,
    start_text,
    swap_text,
    treasure_text,
    unfinished_fact,
    unfinished_text,
    volcano_text,
)
from pathcheck.ruling import (
    Event,
    Fact,
    GameEndFact,
    MoveRef,
    PeekSideFact,
    Round,
    Rule,
    SwapFact,
    TreasureFact,
    Violation,
    VolcanoFact,
)


def _island_svg(state: State, at: Moment) -> str:
    from pathcheck.games.memoarrr.frames import island_svg  # drawn only for replay pages

    return island_svg(state, at)


def _move_text(action: Action, result: TurnResult) -> str:
    from pathcheck.games.memoarrr.frames import move_text  # said only for replay pages

    return move_text(action, result)


@dataclass
class Replay:
    """Walks a Setup round by round and collects what the ruling reports.

    Moment ``R.T`` is round R after its turn T (``R.0``: the start of the round).
    """

    setup: Setup
    pictures: Pictures = field(default_factory=lambda: Pictures(None))
    state: State = field(init=False)
    rounds: list[Round] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = State(self.setup)

    def rule(self, rule: EditionRule) -> Rule:
        return rule.r2018 if self.setup.edition == 2018 else rule.r2023  # rule_for, inlined

    def violate(self, rule: EditionRule, move: MoveRef, message: str, fact: Fact) -> None:
        self.violations.append(Violation(self.rule(rule), move, message, fact))

    def run(self) -> None:
        self.check_setup()
        starter = self.setup.start_player
        apply = self.state.apply
        snapshots = self.pictures.want is not None
        for rnd in self.setup.rounds:
            if rnd.number > ROUNDS:
                winners, _ = decide_winners(self.state.treasures)
                self.violate(GAME_END, MoveRef(round=rnd.number, pointer=rnd.pointer),
                             f"round {rnd.number} was played after the game ended with round "
                             f"{ROUNDS}",
                             GameEndFact(ROUNDS, (), None,
                                         dict(self.rounds[-1].scores if self.rounds else {}),
                                         tuple(winners)))
                self.stop(f"round {rnd.number}")
                return
            if rnd.number > 1 and not self.state.round_over:
                still = tuple(p for p in self.setup.players if p not in self.state.out)
                self.violate(ROUND_END, MoveRef(round=rnd.number, pointer=rnd.pointer),
                             f"round {rnd.number} began before round {rnd.number - 1}'s last "
                             f"volcano was taken (still in: {', '.join(still)})",
                             RoundEndFact(rnd.number - 1, still))
                self.stop(f"round {rnd.number}")
                return
            events = [self.start_event(rnd.number, starter)]
            self.state.start_round(rnd, starter)
            self.maybe_snapshot()
            for action in rnd.actions:
                result = apply(action)
                if (not result.faults and result.swapped is None and result.volcano is None
                        and not result.fatal):  # a quiet turn: nothing to report
                    if snapshots:
                        self.maybe_snapshot(action, result)
                    continue
                move = MoveRef(round=rnd.number, index=action.number, player=action.player,
                               pointer=action.pointer)
                for fault in result.faults:
                    self.violate(fault.rule, move, fault.message, fault.fact)
                if result.fatal:
                    self.close_round(rnd.number, starter, events)
                    self.stop(f"round {rnd.number}, move {action.number} ({result.fatal})")
                    return
                self.maybe_snapshot(action, result)
                self.turn_events(result, move, events)
            self.close_round(rnd.number, starter, events)
            if self.state.round_over:
                starter = self.state.next_start_player()
        if self.state.round < ROUNDS or not self.state.round_over:
            self.notes.append(LOG_ENDS_EARLY)

    def check_setup(self) -> None:
        taken: dict[str, str] = {}
        for player in self.setup.players:
            side = self.setup.peeks[player]
            if side in taken:
                self.violate(
                    PEEK_SIDES, MoveRef(player=player, pointer=pointer_join("/peeks", player)),
                    f"{player} peeked at the {side} side, already chosen by {taken[side]}",
                    PeekSideFact(player, str(side), taken[side]))
            taken.setdefault(side, player)
        if (self.setup.ordered_stack and self.setup.treasures is not None
                and self.setup.treasures != TREASURES):
            order = ",".join(map(str, self.setup.treasures))
            self.violate(ORDERED_STACK, MoveRef(pointer="/treasures"),
                         f"the ordered stack must be {','.join(map(str, TREASURES))} from the "
                         f"top, not {order}",
                         TreasureStackFact(tuple(self.setup.treasures), tuple(TREASURES)))

    def stop(self, where: str) -> None:
        self.notes.append(f"replay stopped at {where}: the rest of the log was not ruled on")

    def maybe_snapshot(self, action: Action | None = None,
                       result: TurnResult | None = None) -> None:
        """Take the picture of the moment (after ``action``, which ``result`` says)."""
        if self.pictures.want is None:
            return
        moment = Moment(self.state.round, self.state.turns)
        self.pictures.take(moment, lambda: render_island(self.state, moment),
                           svg=lambda: _island_svg(self.state, moment),
                           says=None if action is None or result is None
                           else lambda: _move_text(action, result))

    def start_event(self, number: int, starter: str) -> Event:
        if number == 1:
            return Event(start_text(1, starter, self.setup.edition, 0),
                         fact=start_fact(1, starter, self.setup.edition, 0))
        held = self.state.out[starter]
        edition = self.setup.edition
        return Event(start_text(number, starter, edition, held.rank),
                     rule=self.rule(START_PLAYER),
                     fact=start_fact(number, starter, edition, held.rank))

    def turn_events(self, result: TurnResult, move: MoveRef, events: list[Event]) -> None:
        """Add to ``events`` what a turn did that the ruling tells (a swap, a player out)."""
        if result.swapped is not None:
            a, b = result.swapped
            grid = self.state.grid
            at_b, at_a = grid.get(b, NEVER_SEEN), grid.get(a, NEVER_SEEN)
            events.append(Event(swap_text(str(a), str(b), at_b, at_a),
                                move, self.rule(OCTOPUS_ADJACENT), {},
                                SwapFact(str(move.player), str(a), str(b), str(at_b),
                                         str(at_a))))
        if result.volcano is not None:
            pos = None if result.pos is None else str(result.pos)
            text = volcano_text(pos, result.card, result.previous, result.volcano)
            fact = VolcanoFact(str(move.player), pos,
                               None if pos is None else str(result.card),
                               None if pos is None else str(result.previous),
                               str(result.volcano))
            events.append(Event(text, move, self.rule(ALL_REVEALED if pos is None else CONNECT),
                                {}, fact))

    def close_round(self, number: int, starter: str, events: list[Event]) -> None:
        state = self.state
        turns = state.turns
        reveals = len(state.face_up)
        title = round_title(number, starter, turns, reveals)
        if state.round_over:
            winner = next(p for p in self.setup.players if p not in state.out)
            if self.setup.treasures is None:  # face down until the end, not recorded yet
                events.append(Event(treasure_text(winner, None), rule=self.rule(TREASURE),
                                    fact=TreasureFact(winner, None)))
            else:
                treasure = state.treasures[winner][-1] if len(state.treasures[winner]) else 0
                events.append(Event(treasure_text(winner, treasure), rule=self.rule(TREASURE),
                                    points={winner: treasure},
                                    fact=TreasureFact(winner, treasure)))
        else:
            still = [p for p in self.setup.players if p not in state.out]
            events.append(Event(unfinished_text(still), fact=unfinished_fact(still)))
        treasures = state.treasures
        scores = {p: sum(treasures[p]) for p in self.setup.players}
        self.rounds.append(Round(number, title, events, scores))
