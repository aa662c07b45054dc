"""The Memoarrr! adjudicator: replays a ``memoarrr/1`` log and rules on it.

Static facts and quoted rules live in :mod:`~pathcheck.games.memoarrr.rules`, log reading in
:mod:`~pathcheck.games.memoarrr.log`, the replay state in
:mod:`~pathcheck.games.memoarrr.state`, random legal games in
:mod:`~pathcheck.games.memoarrr.gen`. This module walks the rounds, turns what happened into
events and violations, decides the winner and draws the island.

>>> import random
>>> from pathcheck.games import AdjudicateOptions
>>> from pathcheck.games.memoarrr.gen import random_game
>>> log = random_game(random.Random(5), players=3)
>>> ruling = ADJUDICATOR.adjudicate(log, source="demo", options=AdjudicateOptions())
>>> ruling.outcome.value, len(ruling.rounds), sum(ruling.final_scores.values())
('legal', 7, 15)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pathcheck.errors import InputError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.memoarrr.log import FORMAT, SCHEMA, Action, Setup, read_log
from pathcheck.games.memoarrr.rules import (
    ALL_REVEALED,
    CONNECT,
    GAME_END,
    OCTOPUS_ADJACENT,
    ORDERED_STACK,
    PEEK_SIDES,
    ROUND_END,
    ROUNDS,
    SIZE,
    START_PLAYER,
    TREASURE,
    TREASURES,
    EditionRule,
    Pos,
    rule_for,
)
from pathcheck.games.memoarrr.state import State, TurnResult
from pathcheck.ruling import Event, MoveRef, Round, Ruling, Violation

_AT = re.compile(r"^\s*(\d+)\.(\d+)\s*$")


def parse_at(text: str) -> tuple[int, int]:
    """``--at ROUND.TURN`` as numbers; TURN 0 is the start of the round.

    >>> parse_at("2.5")
    (2, 5)
    """
    match = _AT.match(text)
    if not match or int(match.group(1)) < 1:
        raise InputError(
            f"--at {text!r}: expected ROUND.TURN, e.g. 2.5 (round 1-7, turn 0 = start of round)"
        )
    return int(match.group(1)), int(match.group(2))


@dataclass
class _Referee:
    """Walks a Setup round by round and collects what the ruling reports."""

    setup: Setup
    source: str
    at: tuple[int, int] | None
    state: State = field(init=False)
    rounds: list[Round] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    snapshot: str = ""
    reached: dict[int, int] = field(default_factory=dict)
    """Round number -> turns replayed in it (for ``--at`` ranges)."""

    def __post_init__(self) -> None:
        self.state = State(self.setup)

    def rule(self, rule: EditionRule) -> Any:
        return rule_for(rule, self.setup.edition)

    def violate(self, rule: EditionRule, move: MoveRef, message: str) -> None:
        self.violations.append(Violation(self.rule(rule), move, message))

    def run(self) -> None:
        self.check_setup()
        starter = self.setup.start_player
        for rnd in self.setup.rounds:
            ref = MoveRef(round=rnd.number, pointer=rnd.pointer)
            if rnd.number > ROUNDS:
                self.violate(GAME_END, ref, f"round {rnd.number} was played after the game "
                                            f"ended with round {ROUNDS}")
                self.stop(f"round {rnd.number}")
                return
            if rnd.number > 1 and not self.state.round_over:
                self.violate(ROUND_END, ref, f"round {rnd.number} began before round "
                                             f"{rnd.number - 1}'s last volcano was taken")
                self.stop(f"round {rnd.number}")
                return
            events = [self.start_event(rnd.number, starter)]
            self.state.start_round(rnd, starter)
            self.reached[rnd.number] = 0
            self.maybe_snapshot()
            for action in rnd.actions:
                result = self.state.apply(action)
                move = MoveRef(action.index, action.player, rnd.number, action.pointer)
                for fault in result.faults:
                    self.violate(fault.rule, move, fault.message)
                if result.fatal:
                    self.close_round(rnd.number, starter, events)
                    self.stop(f"round {rnd.number}, move {action.index} ({result.fatal})")
                    return
                self.reached[rnd.number] = action.index
                self.maybe_snapshot()
                events.extend(self.turn_events(action, result, move))
            self.close_round(rnd.number, starter, events)
            if self.state.round_over:
                starter = self.state.next_start_player()
        if self.state.round < ROUNDS or not self.state.round_over:
            self.notes.append(
                f"the log ends before the game does ({ROUNDS} rounds, the last treasure "
                "claimed): standings so far, no winner"
            )

    def check_setup(self) -> None:
        taken: dict[str, str] = {}
        for player in self.setup.players:
            side = self.setup.peeks[player]
            if side in taken:
                self.violate(
                    PEEK_SIDES, MoveRef(player=player, pointer=f"/peeks/{_escape(player)}"),
                    f"{player} peeked at the {side} side, already chosen by {taken[side]}",
                )
            taken.setdefault(side, player)
        if self.setup.ordered_stack and self.setup.treasures != TREASURES:
            order = ",".join(map(str, self.setup.treasures))
            self.violate(ORDERED_STACK, MoveRef(pointer="/treasures"),
                         f"the ordered stack must be 1,1,2,2,2,3,4 from the top, not {order}")

    def stop(self, where: str) -> None:
        self.notes.append(f"replay stopped at {where}: the rest of the log was not ruled on")

    def maybe_snapshot(self) -> None:
        if self.at == (self.state.round, self.state.turns):
            self.snapshot = render_island(self.state, self.at)

    def start_event(self, number: int, starter: str) -> Event:
        if number == 1:
            return Event(f"{starter} starts (the log's start player)")
        held = self.state.out[starter]
        why = "took the dark volcano" if self.setup.edition == 2023 else (
            f"took the volcano with the most birds ({held.rank})")
        return Event(f"{starter} starts: {why} in round {number - 1}",
                     rule=self.rule(START_PLAYER))

    def turn_events(self, action: Action, result: TurnResult, move: MoveRef) -> list[Event]:
        events: list[Event] = []
        if result.swapped is not None:
            a, b = result.swapped
            events.append(Event(f"octopus swap: {self.state.grid[b]} {a} -> {b}, "
                                f"{self.state.grid[a]} {b} -> {a}",
                                move, self.rule(OCTOPUS_ADJACENT)))
        if result.volcano is not None:
            if result.pos is None:
                text = (f"takes the {result.volcano} volcano without revealing "
                        "(all 24 cards face up): out")
                rule = ALL_REVEALED
            else:
                text = (f"reveals {result.pos} {result.card}, which connects with neither the "
                        f"animal nor the landscape of {result.previous}: takes the "
                        f"{result.volcano} volcano, out")
                rule = CONNECT
            events.append(Event(text, move, self.rule(rule)))
        return events

    def close_round(self, number: int, starter: str, events: list[Event]) -> None:
        state = self.state
        turns = state.turns
        reveals = len(state.face_up)
        title = f"Round {number} (start: {starter}; {turns} turn(s), {reveals} card(s) face up)"
        if state.round_over:
            winner = next(p for p in self.setup.players if p not in state.out)
            treasure = state.treasures[winner][-1] if len(state.treasures[winner]) else 0
            events.append(Event(
                f"{winner} is the last without a volcano and takes the top treasure "
                f"({_rubies(treasure)})", rule=self.rule(TREASURE), points={winner: treasure},
            ))
        else:
            still = ", ".join(p for p in self.setup.players if p not in state.out)
            events.append(Event(f"the round is unfinished in the log (still in: {still})"))
        scores = {p: state.rubies(p) for p in self.setup.players}
        self.rounds.append(Round(number, title, events, scores))


def _rubies(n: int) -> str:
    return f"{n} ruby" if n == 1 else f"{n} rubies"


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def decide_winners(treasures: Mapping[str, list[int]]) -> tuple[list[str], str]:
    """The winners by rubies, then treasure count, then largest treasure; and the tie-break.

    >>> decide_winners({"Ann": [2, 2], "Ben": [4], "Cy": [1, 1, 2]})
    (['Cy'], 'Ann, Ben and Cy tied on 4 rubies: Cy has the most treasure cards (3)')
    """
    def key(player: str) -> tuple[int, int, int]:
        cards = treasures[player]
        return sum(cards), len(cards), max(cards, default=0)

    best_rubies = max(key(p)[0] for p in treasures)
    tied = [p for p in treasures if key(p)[0] == best_rubies]
    if len(tied) == 1:
        return tied, ""
    head = f"{_names(tied)} tied on {best_rubies} rubies"
    best_count = max(key(p)[1] for p in tied)
    by_count = [p for p in tied if key(p)[1] == best_count]
    if len(by_count) == 1:
        return by_count, f"{head}: {by_count[0]} has the most treasure cards ({best_count})"
    best_single = max(key(p)[2] for p in by_count)
    by_single = [p for p in by_count if key(p)[2] == best_single]
    head += f" and {best_count} treasure cards"
    if len(by_single) == 1:
        return by_single, (f"{head}: {by_single[0]} has the largest treasure "
                           f"({best_single} rubies)")
    return by_single, f"{head} and a largest treasure of {best_single} rubies: they share the win"


def _names(players: list[str]) -> str:
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


_ABBREV = 3


def _cell(state: State, pos: Pos, width: int) -> str:
    card = state.grid.get(pos)
    if card is None:
        return " " * width
    text = f"{card.animal.value[:_ABBREV]} {card.landscape.value[:_ABBREV]}"
    if pos in state.face_up:
        return f"[{text.upper()}]"
    if pos == state.mark:
        return f"!{text}!"
    return f"({text})"


def render_island(state: State, at: tuple[int, int]) -> str:
    """The island as it stands, a 5x5 grid: [FACE UP], (face down), !walrus mark!.

    Face-down cards are shown too: the ruling is the referee's view, who knows the layout.
    """
    width = 2 * _ABBREV + 3
    round_no, turn = at
    when = "at the start" if turn == 0 else f"after turn {turn}"
    lines = [f"Island in round {round_no}, {when}:"]
    lines.append("    " + " ".join(c.center(width) for c in "ABCDE"))
    for r in range(SIZE):
        row = " ".join(_cell(state, Pos(r, c), width) for c in range(SIZE))
        lines.append(f" {r + 1}  {row}")
    lines.append("    [X] face up, (x) face down, !x! marked by the walrus for the next turn")
    if state.last is not None:
        lines.append(f"    most recent reveal: {state.last}")
    if state.out:
        lines.append("    out: " + ", ".join(f"{p} ({v} volcano)" for p, v in state.out.items()))
    if not state.round_over:
        extra = " (crab's extra turn)" if state.crab else ""
        lines.append(f"    to move: {state.to_move}{extra}")
    return "\n".join(lines)


def final_table(setup: Setup, state: State) -> str:
    """The treasures each player took, with the tie-break keys."""
    width = max(len("player"), *(len(p) for p in setup.players))
    lines = ["Final table:", f"  {'player'.ljust(width)}  rubies  cards  largest  treasures"]
    for p in setup.players:
        cards = state.treasures[p]
        lines.append(
            f"  {p.ljust(width)}  {sum(cards):>6}  {len(cards):>5}  {max(cards, default=0):>7}"
            f"  {' + '.join(map(str, cards)) or '-'}"
        )
    return "\n".join(lines)


class MemoarrrAdjudicator:
    """Rules on ``memoarrr/1`` logs (both editions, expert and ordered-stack variants)."""

    name = "memoarrr"
    title = "Memoarrr!"
    formats: tuple[str, ...] = (FORMAT,)
    schemas: tuple[str, ...] = (SCHEMA,)

    def adjudicate(
        self, log: Mapping[str, Any], *, source: str, options: AdjudicateOptions
    ) -> Ruling:
        """Replay ``log`` and rule on it; RecordError if it is malformed."""
        at = parse_at(options.at) if options.at is not None else None
        setup = read_log(log, source=source)
        referee = _Referee(setup, source, at)
        referee.run()
        if at is not None and not referee.snapshot:
            raise InputError(f"--at {options.at}: {_range(referee.reached)}")
        state = referee.state
        complete = state.round == ROUNDS and state.round_over
        winners, tie_break = decide_winners(state.treasures) if complete else ([], "")
        display = "\n\n".join(s for s in (referee.snapshot, final_table(setup, state)) if s)
        edition = f"{setup.edition} edition" + "".join(
            f", {v}" for v, on in (("expert", setup.expert),
                                   ("ordered stack", setup.ordered_stack)) if on)
        notes = [edition, *referee.notes]
        return Ruling(
            game=self.name,
            format=FORMAT,
            source=source,
            players=setup.players,
            rounds=referee.rounds,
            final_scores={p: state.rubies(p) for p in setup.players},
            winners=winners,
            violations=referee.violations,
            tie_break=tie_break,
            notes=notes,
            display=display,
        )


def _range(reached: Mapping[int, int]) -> str:
    if not reached:
        return "the log has no round to show"
    spans = ", ".join(f"{r}.0-{r}.{t}" for r, t in reached.items())
    return f"out of range; this log can show {spans}"


ADJUDICATOR = MemoarrrAdjudicator()
