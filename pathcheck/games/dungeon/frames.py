"""Replay pages of dungeon in memory: the dungeon laid out tile by tile.

Each moment is the dungeon after one more tile, drawn by :func:`pathcheck.render.svg.view_svg`
from the same layout model as the text map, in the final dungeon's extent so the pictures line
up: the path followed so far, START and the tile that made it Lost marked, who placed each
tile and the LOST cards on the tiles they follow; the Lost point with its rule quoted and, in
last moments, each player's outcome of the check and the points. Every event is a moment,
keyed ``D.T`` (dungeon or exploration D after its tile or turn T), ``D.Tb`` for a second
event of the same turn.

>>> from pathcheck.inputs.records import parse_dgn_line
>>> from pathcheck.verify import verify_record
>>> rec = parse_dgn_line("START@N R1@N R2@E !Ann L4@N !Bob", source="x.dgn", line=1)
>>> page = record_page(verify_record(rec))
>>> [f.key for f in page.frames]
['1.1', '1.2', '1.3', '1.3b', '1.4', '1.4b', 'check', 'checkb']
>>> page.frames[-1].scores
{'Ann': 0, 'Bob': 1}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pathcheck.games.dungeon.log import Exploration, GameLog
from pathcheck.games.dungeon.page_c import lean_exploration
from pathcheck.render.growing import Growing, Prefixes, extent
from pathcheck.render.growing_c import lean_pictures
from pathcheck.render.html import Moments, Note, NoteKind, Page, PageEvent, new_event, new_note
from pathcheck.render.lean import LeanMoments, Picture
from pathcheck.render.model import build_view
from pathcheck.render.report import lost_sentence
from pathcheck.render.ruling_page import DUNGEON_WORDS, Words, verdict_lines
from pathcheck.render.svg import Extent, forget, view_svg
from pathcheck.render.words import counted
from pathcheck.ruling import Ruling, Violation
from pathcheck.tracer.check import CheckResult, LostCard
from pathcheck.tracer.dungeon import Placement, TraceResult, trace
from pathcheck.tracer.geometry import Move
from pathcheck.tracer.tileset import TileSet, load_tileset
from pathcheck.verify import DungeonVerdict, SoloVerdict, Verdict

LEGEND = ("Thick blue: the path followed so far; thin: paths not taken; S in a green circle: "
          "START; a cross in a vermilion (red-orange) circle: the tile that made the dungeon "
          "Lost; each tile shows its number (top left), the initial of who placed it (top "
          "right), its arrow (bottom left) and its id (bottom right); an orange card on a "
          "tile: the LOST cards played after it, with the players' initials.")
BOUND_LEGEND = (" Dashed vermilion: the 9x9 bound of additional rule #2 (the picture frames "
                "the tiles laid: the bound shows as an edge where they reach it).")


def legend(rules: Iterable[int]) -> str:
    """The legend of a dungeon page, naming only the marks of the rules in play."""
    return LEGEND + (BOUND_LEGEND if 2 in set(rules) else "")


DRAWN_TURNS = 100
"""The turns (or tiles) of one exploration or dungeon a page draws at most, or as many as its
tile set has tiles if that is more (so a dungeon that lays each tile once is always drawn whole:
the standard set has 38). Past them one moment says how many more there are (the ruling and
the text report list every move): each moment's picture grows with the dungeon, so a log of
20,000 turns would take minutes and make a page no browser opens."""


def _initial(name: str) -> str:
    """A player's initial as drawn on a tile (the full name is in the move list)."""
    return name[:1].upper() if name else "?"


@dataclass
class Builder:
    """Collects a page's moments as a dungeon is laid tile by tile: one per event."""

    tileset: TileSet
    rules: frozenset[int]
    words: Words = DUNGEON_WORDS
    moments: Moments | LeanMoments = field(default_factory=Moments)

    def dungeon(self, placements: Sequence[Placement], *, number: int, label: str,
                movement: Move = Move.STRAIGHT, cards: Sequence[LostCard] = (),
                heights: Sequence[int] | None = None,
                extra: dict[int, list[Note]] | None = None,
                turn_events: dict[int, list[PageEvent]] | None = None,
                first: int = 1, placers: Mapping[int, str] | None = None,
                scores: Mapping[str, int] | None = None) -> TraceResult:
        """Add the moments of one dungeon and return its full trace.

        ``heights``: the stack height after each turn (a game log: ``D.0`` is the START tile
        alone, ``D.T`` after turn T); by default one moment per tile, ``D.1`` to ``D.n``.
        ``extra``: notes (the hands, a failure...) by turn; ``turn_events``: the ruling's own
        events by turn, listed instead of the plain "tile laid" ones, each a moment (a
        violation's moment carries its note). ``placers``: who placed each tile (by stack
        height), drawn as an initial on it.
        """
        start_turn = 0 if heights is not None else 1
        every = len(heights) + 1 if heights is not None else len(placements)
        most = max(DRAWN_TURNS, len(self.tileset))
        full, steps, drawn_steps = self.pictures(
            placements, movement, cards, heights, placers, results=turn_events is None or any(
                t not in turn_events for t in range(start_turn, start_turn + min(every, most + 1
                                                                                 - start_turn))))
        shown = 0
        lost_before = False
        said: dict[tuple[int, bool, int], list[Note]] = {}
        for (turn, height), (picture, result) in zip(enumerate(steps, start=start_turn),
                                                     drawn_steps, strict=True):
            if turn_events is not None and turn in turn_events:
                events = list(turn_events[turn])
            else:
                events = [ev for index in range(shown + 1, height + 1)
                          for ev in self._tile_events(placements, index, result, number,
                                                      first, cards)]
            lost_now = result.lost_at is not None and result.reason is not None
            if lost_now and not lost_before and events:
                events[0] = replace(events[0], lost=True)
            lost_before = lost_now
            notes = self._notes(result, height, cards, full, said) + (extra or {}).get(turn, [])
            tile = placements[height - 1] if height else None
            caption = (f"{label} {number}, " + (f"turn {turn}" if heights is not None
                                                 else f"tile {turn}")
                       + (f": {tile}" if tile is not None else "")
                       + f" ({height} tile{'' if height == 1 else 's'})")
            base = f"{number}.{turn}"
            for event in events or [PageEvent(caption)]:
                self.moments.add(base, caption, event, picture=picture, notes=[
                    *notes, new_note(f"{event.where}: {event.text}", NoteKind.VIOLATION,
                                     event.rule)] if event.violation else notes, scores=scores)
            shown = height
        if len(steps) < every:
            self._not_drawn(number, label, start_turn, most, every, len(placements), scores)
        return full

    def pictures(self, placements: Sequence[Placement], movement: Move,
                 cards: Sequence[LostCard], heights: Sequence[int] | None,
                 placers: Mapping[int, str] | None, *, results: bool = True
                 ) -> tuple[TraceResult, list[int], list[tuple[Picture, TraceResult]]]:
        """The full trace of a dungeon, the stack heights drawn (see :meth:`dungeon`) and the
        picture and trace at each (on a lean page without ``results`` a trace that is not
        Lost says only so: :func:`~pathcheck.render.growing_c.lean_pictures`)."""
        forget()
        full = trace(placements, tileset=self.tileset, rules=self.rules,
                     initial_movement=movement, with_passes=True)
        steps = [1, *heights] if heights is not None else list(range(1, len(placements) + 1))
        start_turn = 0 if heights is not None else 1
        every = len(steps)
        most = max(DRAWN_TURNS, len(self.tileset))
        steps = steps[:most + 1 - start_turn]  # turns 0 (START alone) to most
        drawn = full if len(steps) == every else Prefixes(full, movement).at(steps[-1])
        initials = {k: _initial(name) for k, name in (placers or {}).items() if name}
        growing = Growing(full, self.tileset, self.rules, extent(drawn), initials, movement)
        card_initials = [(card.after, _initial(card.player)) for card in cards]
        plan: list[tuple[int, dict[int, str]]] = []
        traced = 0
        lost = False
        lost_at = full.lost_at
        on_tiles: dict[int, str] = {}
        shown, before = 0, 0  # the cards on the tiles so far, at the height before
        for height in steps:
            if not lost:  # a Lost path stays as it is
                traced = height
            if card_initials:  # the same dict while the same cards are on the tiles
                now = sum(after <= height for after, _ in card_initials)
                if now != shown or height < before:
                    on_tiles = {}  # a new dict: the one before stays as its pictures have it
                    for after, initial in card_initials:
                        if after <= height:
                            on_tiles[after] = on_tiles.get(after, "") + initial
                    shown, before = now, height
            plan.append((traced, on_tiles))
            lost = lost_at is not None and traced >= lost_at  # growing.prefixes.lost(traced)
        drawn_steps: list[tuple[Picture, TraceResult]]
        if isinstance(self.moments, LeanMoments):
            drawn_steps = lean_pictures(growing, self.moments, plan, results=results)
        else:
            drawn_steps = [growing.picture(height, on) for height, on in plan]
        return full, steps, drawn_steps

    def _not_drawn(self, number: int, label: str, start_turn: int, most: int, every: int,
                   tiles: int, scores: Mapping[str, int] | None) -> None:
        """The one moment that stands for the turns past ``most`` (:data:`DRAWN_TURNS`)."""
        last = start_turn + every - 1
        unit = "turn" if start_turn == 0 else "tile"
        text = (f"{unit}s {most + 1}-{last} ({counted(tiles, 'tile')} in all) are not "
                f"drawn: a page draws the first {most} {unit}s of {label.lower()} "
                f"(the ruling lists every move)")
        self.moments.add(f"{number}.{last}", f"{label} {number}, {unit} {last}",
                         PageEvent(text, f"{label.lower()} {number}"),
                         picture=self.moments.picture, scores=scores)

    def _tile_events(self, placements: Sequence[Placement], index: int, result: TraceResult,
                     number: int, first: int, cards: Sequence[LostCard]) -> list[PageEvent]:
        placed = placements[index - 1]
        where = f"dungeon {number}, tile {index}"
        if first != 1:
            where += f" (stack tile {first + index - 1})"
        if index <= len(result.layout):
            cell = result.layout[index - 1]
            text = f"{placed} laid at cell {cell.x},{cell.y}"
        else:
            text = f"{placed} lies on the stack; the path never reaches it (already Lost)"
        return [PageEvent(text, where)] + [
            PageEvent(f"{card.player} plays a LOST card", where)
            for card in cards if card.after == index]

    def _notes(self, result: TraceResult, height: int, cards: Sequence[LostCard],
               full: TraceResult, said: dict[tuple[int, bool, int], list[Note]]
               ) -> list[Note]:
        """The notes of a moment of one dungeon (``said``: the notes said so far in it, by
        what they depend on: the heights come in order, so the cards announced only grow,
        and a Lost trace is the whole one; a note said again is the same object, which the
        page's data says once)."""
        announced = [c for c in cards if c.after <= height]
        lost = result.lost_at is not None and result.reason is not None
        holds = full.lost_at is None and height >= len(full.layout)
        key = (len(announced), lost, height if holds else -1)
        known = said.get(key)
        if known is None:
            known = said[key] = self._new_notes(result, height, announced, full)
        return known  # never changed: the caller adds to a copy

    @staticmethod
    def _new_notes(result: TraceResult, height: int, announced: Sequence[LostCard],
                   full: TraceResult) -> list[Note]:
        notes: list[Note] = []
        if announced:
            notes.append(new_note("LOST cards so far: " + ", ".join(
                [f"{c.player} (on tile {c.after})" for c in announced])))
        if result.lost_at is not None and result.reason is not None:
            placed = result.layout[result.lost_at - 1]
            notes.append(new_note(f"Lost at tile {result.lost_at} ({placed.tile}@"
                                  f"{placed.dir.name}, cell {placed.x},{placed.y}) by "
                                  f"{result.reason.value}", NoteKind.LOST, result.reason.rule))
        elif full.lost_at is None and height >= len(full.layout):
            notes.append(new_note(f"The path holds to the last tile "
                                  f"({counted(height, 'tile')}): never Lost."))
        return notes

    def check_moments(self, key: str, caption: str, check: CheckResult, lost_at: int | None,
                      where: str = "check") -> None:
        """The check: each player's outcome a moment, with its rule, and the points."""
        picture = self.moments.picture
        points = Note("Points: " + ", ".join(f"{p} {n}" for p, n in check.points.items()))
        for outcome in check.outcomes:
            rule = outcome.kind.rule
            text = outcome.explain(lost_at)
            self.moments.add(key, caption, PageEvent(text, where, rule), picture=picture,
                             notes=[Note(text, NoteKind.SCORE, rule), points],
                             scores=check.points)


def _where(source: str, line: int, pointer: str) -> str:
    return f"{source}:{line}" + (f" {pointer}" if pointer else "")


def record_page(verdict: DungeonVerdict) -> Page:
    """The page of one ``dungeon/1`` record (``pathcheck verify --html``)."""
    record = verdict.record
    tileset = record.tileset or load_tileset()
    builder = Builder(tileset, record.rules)
    full = builder.dungeon(record.tiles, number=1, label="Dungeon", cards=record.lost)
    summary = [lost_sentence(full).replace("\n  ", " ")]
    if verdict.check is not None:
        builder.check_moments("check", "Check (3. Checking the Memorized Path)",
                              verdict.check, full.lost_at)
        summary.append("Points: " + ", ".join(f"{p} {n}"
                                              for p, n in verdict.check.points.items()))
    title = (f"{_where(record.source, record.line, record.pointer)}: dungeon of "
             f"{counted(len(record.tiles), 'tile')}")
    return builder.moments.page(title, summary, legend(builder.rules),
                                names=[card.player for card in record.lost],
                                round_word="dungeon")


def solo_dungeons(builder: Builder, dungeons: Sequence[Sequence[Placement]],
                  failing: tuple[int, int, Note] | None = None) -> list[TraceResult]:
    """Moments of solo dungeons one after another (a Repeat tile starting a dungeon repeats
    the last turn of the one before); ``failing`` (dungeon, tile, note) marks a failure."""
    movement = Move.STRAIGHT
    first = 1
    traces = []
    for number, dungeon in enumerate(dungeons, start=1):
        extra = None
        if failing is not None and failing[0] == number:
            extra = {failing[1]: [failing[2]]}
        full = builder.dungeon(dungeon, number=number, label="Dungeon", movement=movement,
                               extra=extra, first=first)
        traces.append(full)
        movement = full.last_movement
        first += len(dungeon)
    return traces


def solo_verdict_page(verdict: SoloVerdict) -> Page:
    """The page of one ``solo/1`` record checked by ``pathcheck verify``."""
    record, result = verdict.record, verdict.result
    builder = Builder(record.tileset or load_tileset(), record.rules)
    failing = None
    summary = []
    if result.failure is not None and result.failing_dungeon and result.failing_index:
        text = (f"Failure: {result.failure.value} at stack tile {result.failing_tile} "
                f"(dungeon {result.failing_dungeon}, tile {result.failing_index} of it)")
        failing = (result.failing_dungeon, result.failing_index,
                   Note(text, NoteKind.VIOLATION, result.failure.rule))
        summary.append(text)
    solo_dungeons(builder, record.dungeons, failing)
    summary.append(f"Score: {result.score} of {result.max_score}")
    builder.moments.add("score", "Score", PageEvent(f"Score: {result.score} of "
                                                    f"{result.max_score}"),
                        picture=builder.moments.picture,
                        notes=[Note(line) for line in summary], scores={"solo": result.score})
    title = (f"{_where(record.source, record.line, record.pointer)}: solo, "
             f"{counted(len(record.dungeons), 'dungeon')}")
    return builder.moments.page(title, summary, legend(builder.rules), round_word="dungeon")


def verdict_page(verdict: Verdict) -> Page:
    """The page of any verified record."""
    if isinstance(verdict, SoloVerdict):
        return solo_verdict_page(verdict)
    return record_page(verdict)


def key_page(code: str, rules: Iterable[int], dungeons: Sequence[Sequence[Placement]],
             best: int) -> Page:
    """The answer key of a seed code, dungeon by dungeon (``pathcheck solo key --html``)."""
    rule_set = frozenset(rules)
    builder = Builder(load_tileset(), rule_set)
    solo_dungeons(builder, dungeons)
    tiles = sum(len(d) for d in dungeons)
    summary = [f"Perfect play: {len(dungeons)} dungeons, {tiles} tiles, maximum score {best}"]
    builder.moments.add("score", "Maximum score", PageEvent(summary[0]),
                        picture=builder.moments.picture, notes=[Note(summary[0])],
                        scores={"solo": best})
    rules_text = " ".join(f"#{r}" for r in sorted(rule_set)) or "none"
    return builder.moments.page(f"Answer key of {code} (additional rules {rules_text})",
                                summary, legend(rule_set), round_word="dungeon")


def _hand_lines(exp: Exploration) -> list[str]:
    """The hands before the first turn and after each turn, as each moment's note says them:
    the tile played leaves the hand, the top of the deck joins it (as the replay deals; a
    log's wrong draw is its violation). A turn changes one hand: only its line is said again.

    >>> from pathcheck.games.dungeon.log import Turn
    >>> exp = Exploration("Ann", {"Ann": ("R1", "I4"), "Bob": ()}, ("L2",),
    ...                   (Turn("Ann", Placement.parse("R1@N"), (), None, False, "", 0),), "")
    >>> _hand_lines(exp)
    ['Hands: Ann: R1 I4; Bob: -', 'Hands: Ann: I4 L2; Bob: -']
    """
    hands = {p: list(h) for p, h in exp.hands.items()}
    said = {p: f"{p}: {' '.join(h) or '-'}" for p, h in hands.items()}  # each player's part
    deck, top = exp.deck, 0
    out = ["Hands: " + "; ".join(said.values())]
    for turn in exp.turns:
        player = turn.player
        hand = hands.setdefault(player, [])
        if turn.placement.tile in hand:
            hand.remove(turn.placement.tile)
        if top < len(deck):
            hand.append(deck[top])
            top += 1
        said[player] = f"{player}: {' '.join(hand) or '-'}"
        out.append("Hands: " + "; ".join(said.values()))
    return out


def _violation_event(violation: Violation, words: Words = DUNGEON_WORDS) -> PageEvent:
    return new_event(violation.message, words.where(violation.move), violation.rule,
                     violation=True)


def _violation_note(violation: Violation, words: Words = DUNGEON_WORDS) -> Note:
    return Note(f"{words.where(violation.move)}: {violation.message}", NoteKind.VIOLATION,
                violation.rule)


def game_stacks(game: GameLog) -> list[tuple[list[Placement], list[int]]]:
    """Each exploration's stack and its height after each turn, as the replay
    (:class:`~pathcheck.games.dungeon.state.Replay`) lays it, without replaying: whatever a
    turn breaks, the replay lays its tile (the log as played), so the stack is START and each
    turn's tile, t + 1 tiles after turn t (tests/test_page_moments.py compares the two).

    >>> from pathcheck.games.dungeon.log import read_game_log
    >>> game = read_game_log({"format": "game/1", "players": ["Ann", "Bob"], "explorations": [
    ...     {"start_player": "Ann", "hands": {"Ann": ["R1"], "Bob": ["L4"]}, "deck": [],
    ...      "turns": [{"player": "Ann", "tile": "R1", "dir": "N"}]}]}, source="x")
    >>> [([str(p) for p in stack], heights) for stack, heights in game_stacks(game)]
    [(['START@N', 'R1@N'], [2])]
    """
    from pathcheck.games.dungeon.state import START_DIR

    start = Placement(game.tileset.start, START_DIR)
    return [([start, *(turn.placement for turn in exp.turns)],
             list(range(2, len(exp.turns) + 2))) for exp in game.explorations]


def game_page(log: Mapping[str, Any], ruling: Ruling, *, lean: bool = False) -> Page:
    """The page of a ``game/1`` log: each exploration turn by turn, then its check; every
    event a moment, every violation at its turn. ``lean``: its moments made into the page's
    data as they come (:mod:`pathcheck.render.lean`; the same bytes)."""
    from pathcheck.games.dungeon.log import read_game_log

    game = read_game_log(log, source=ruling.source)
    stacks = game_stacks(game)
    builder = Builder(game.tileset, game.rules,
                      moments=LeanMoments(game.players) if lean else Moments())
    moments = builder.moments
    placed: dict[tuple[int | None, int | None], list[Violation]] = {}
    for violation in ruling.violations:
        placed.setdefault((violation.move.round, violation.move.index), []).append(violation)
    log_wide = placed.pop((None, None), [])  # the log as a whole: its setup or its end
    for violation in [v for v in log_wide if not v.unfinished]:
        moments.add("setup", "Setup of the game", _violation_event(violation), text=" ",
                    notes=[_violation_note(violation)])
    scores: dict[str, int] = dict.fromkeys(game.players, 0)
    rounds = {rnd.number: rnd for rnd in ruling.rounds}
    most = max(DRAWN_TURNS, len(game.tileset))  # the turns of an exploration a page draws
    for number, (exp, (stack, heights)) in enumerate(
            zip(game.explorations, stacks, strict=True), start=1):
        cards = [LostCard(name, heights[t - 1]) for t, turn in enumerate(exp.turns, start=1)
                 for name in turn.lost]
        placers = {1: ""}
        for t, turn in enumerate(exp.turns, start=1):
            placers[heights[t - 1]] = turn.player
        start = f"{exp.start_player} starts; hands: " + "; ".join(
            f"{p}: {' '.join(h) or '-'}" for p, h in exp.hands.items())
        hands = _hand_lines(exp)
        at_deal = placed.pop((number, None), [])
        late = [v for v in at_deal if v.move.pointer.endswith("/turns")]
        placed[(number, 0)] = [v for v in at_deal if not v.move.pointer.endswith("/turns")] \
            + placed.get((number, 0), [])
        at_turns = [placed.pop((number, t), []) for t in range(len(exp.turns) + 1)]
        late += [v for key, vs in list(placed.items()) if key[0] == number for v in vs]
        for key in [k for k in placed if k[0] == number]:
            del placed[key]
        if any(at_turns) or not lean_exploration(builder, stack, heights, number, start, exp,
                                                 cards, placers, hands, scores, most):
            turn_events: dict[int, list[PageEvent]] = {0: [PageEvent(start,
                                                                     f"exploration {number}")]}
            for t, turn in enumerate(exp.turns, start=1):
                where = f"exploration {number}, turn {t} ({turn.player})"
                evs = [new_event(f"{turn.player} places {turn.placement} (stack tile "
                                 f"{heights[t - 1]})", where)]
                for name in turn.lost:
                    evs.append(new_event(f"{name} announces Lost (LOST card on tile "
                                         f"{heights[t - 1]})", where))
                turn_events[t] = evs
            for t, violations in enumerate(at_turns):
                for violation in violations:
                    turn_events.setdefault(t, []).append(_violation_event(violation))
            builder.dungeon(stack, number=number, label="Exploration", cards=cards,
                            heights=heights, turn_events=turn_events,
                            extra={t: [new_note(line)] for t, line in enumerate(hands)},
                            placers=placers, scores=scores)
        rnd = rounds.get(number)
        if rnd is not None:
            scores = dict(rnd.scores)
        after = new_note("Points after the check: " + ", ".join(
            [f"{p} {n}" for p, n in scores.items()]), NoteKind.SCORE)
        caption = f"Exploration {number}: the check"
        base, where = f"{number}.check", f"exploration {number}, check"
        for e in rnd.events if rnd is not None else ():
            moments.add(base, caption, new_event(e.text, where, e.rule),
                        picture=moments.picture,
                        notes=[new_note(e.text, NoteKind.SCORE, e.rule), after], scores=scores)
        for violation in late:
            moments.add(f"{number}.check", caption, _violation_event(violation),
                        picture=moments.picture, notes=[_violation_note(violation), after],
                        scores=scores)
    for (unplayed, _), violations in sorted(placed.items(), key=lambda kv: (kv[0][0] or 0,
                                                                            kv[0][1] or 0)):
        for violation in violations:  # an exploration the replay has no record of
            moments.add(f"{unplayed}.0", f"Exploration {unplayed} (not played: see the "
                        "violation)", _violation_event(violation), picture=moments.picture,
                        notes=[_violation_note(violation)], scores=scores)
    for violation in [v for v in log_wide if v.unfinished]:
        moments.add("log-end", "End of the log", _violation_event(violation),
                    picture=moments.picture, notes=[_violation_note(violation)],
                    scores=scores)
    lines = verdict_lines(ruling, DUNGEON_WORDS)
    end_notes = [Note(line, NoteKind.VIOLATION if ruling.violations and i == 0
                      else NoteKind.SCORE) for i, line in enumerate(lines)]
    end_notes += [Note(n) for n in ruling.notes]
    said = ("final scores as played: " if ruling.violations else "final scores: ") + \
        ", ".join(f"{p} {n}" for p, n in ruling.final_scores.items())
    moments.add("end", f"End of the game: {said}", PageEvent(f"End of the game: {said}"),
                picture=moments.picture, notes=end_notes, scores=ruling.final_scores)
    return moments.page(f"{ruling.source}: dungeon in memory, {len(game.players)} players",
                        lines, legend(game.rules), illegal=bool(ruling.violations),
                        names=game.players, round_word="exploration")


def page(log: Mapping[str, Any], ruling: Ruling) -> Page:
    """The replay page of a dungeon ruling: a game log, or a solo record beside its key."""
    if ruling.format == "solo/1":
        return solo_page(log, ruling)
    return game_page(log, ruling)


def lean_page(log: Mapping[str, Any], ruling: Ruling) -> Page:
    """:func:`page`, its moments made into the page's data as they come (the same bytes:
    :mod:`pathcheck.render.lean`)."""
    if ruling.format == "solo/1":
        return solo_page(log, ruling)
    return game_page(log, ruling, lean=True)


class _Drawn:
    """Pictures of the prefixes of a list of dungeons, each in its own final extent."""

    def __init__(self, dungeons: Sequence[Sequence[Placement]], tileset: TileSet,
                 rules: frozenset[int]) -> None:
        self.dungeons, self.tileset, self.rules = dungeons, tileset, rules
        forget()
        self.prefixes: list[Prefixes] = []
        self.extents = []
        movement = Move.STRAIGHT
        for dungeon in dungeons:
            full = trace(dungeon, tileset=tileset, rules=rules, initial_movement=movement,
                         with_passes=True)
            self.prefixes.append(Prefixes(full, movement))
            self.extents.append(extent(full))
            movement = full.last_movement

    def at(self, number: int, tiles: int, extent: Extent | None = None
           ) -> tuple[str, TraceResult]:
        result = self.prefixes[number - 1].at(tiles)
        view = build_view(result, self.tileset, self.rules)
        return view_svg(view, extent=extent or self.extents[number - 1]), result


def _union(a: Extent, b: Extent) -> Extent:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _positions(dungeons: Sequence[Sequence[Placement]]) -> list[tuple[int, int]]:
    return [(d, t) for d, dungeon in enumerate(dungeons, start=1)
            for t in range(1, len(dungeon) + 1)]


def solo_page(log: Mapping[str, Any], ruling: Ruling) -> Page:
    """A solo record tile by tile, the answer key of the same stack beside it, the first
    divergence and the failure marked."""
    from pathcheck.games.dungeon.log import read_solo
    from pathcheck.solo.play import answer_key
    from pathcheck.solo.stats import first_divergence

    record = read_solo(log, source=ruling.source)
    tileset = record.tileset or load_tileset()
    key = [d.placements for d in answer_key(record.tile_ids, rules=record.rules,
                                            tileset=tileset)]
    divergence = first_divergence(key, record.dungeons)
    mine, best = _Drawn(record.dungeons, tileset, record.rules), _Drawn(key, tileset,
                                                                        record.rules)
    placed: dict[tuple[int | None, int | None], list[Violation]] = {}
    for violation in ruling.violations:
        placed.setdefault((violation.move.round, violation.move.index), []).append(violation)
    moments = Moments()
    for position, ((d, t), (kd, kt)) in enumerate(
            zip(_positions(record.dungeons), _positions(key), strict=False), start=1):
        played = record.dungeons[d - 1][t - 1]
        extent = _union(mine.extents[d - 1], best.extents[kd - 1])  # both at one scale
        svg, result = mine.at(d, t, extent)
        key_svg, _ = best.at(kd, kt, extent)
        where = f"stack tile {position}"
        notes: list[Note] = []
        events = [PageEvent(f"the record lays {played} as tile {t} of dungeon {d}; the "
                            f"key lays {key[kd - 1][kt - 1]} as tile {kt} of dungeon {kd}",
                            where, lost=result.lost_at == t and result.reason is not None)]
        if result.lost_at == t and result.reason is not None:
            notes.append(Note(f"Dungeon {d} is Lost at its tile {t} by {result.reason.value}",
                              NoteKind.LOST, result.reason.rule))
        if divergence is not None and divergence.position == position:
            # not a violation of the ruling: perfect play is the measure, not a rule
            diverged = f"first divergence from the answer key: {divergence.describe()}"
            events.append(PageEvent(diverged, where))
            notes.append(Note(f"{where}: {diverged}"))
        events += [_violation_event(v, SOLO_WORDS) for v in placed.pop((d, t), [])]
        picture = pair_picture(svg, key_svg)
        for event in events:
            own = [Note(f"{event.where}: {event.text}", NoteKind.VIOLATION, event.rule)
                   ] if event.violation else []
            moments.add(f"{d}.{t}", f"Stack tile {position}: dungeon {d}, tile {t}: {played}",
                        event, picture=picture, notes=notes + own)
    lines = verdict_lines(ruling, SOLO_WORDS)
    for violations in placed.values():
        for violation in violations:  # of no tile the record laid: the record ends too early
            moments.add("log-end", "End of the record", _violation_event(violation, SOLO_WORDS),
                        picture=moments.picture, notes=[_violation_note(violation, SOLO_WORDS)])
    end_notes = [Note(line, NoteKind.VIOLATION if ruling.violations and i == 0
                      else NoteKind.SCORE) for i, line in enumerate(lines[:1])]
    end_notes += [Note(n) for n in ruling.notes]
    score = "Score: " + ", ".join(f"{n}" for n in ruling.final_scores.values())
    moments.add("end", "Score", PageEvent(score), picture=moments.picture, notes=end_notes,
                scores=ruling.final_scores)
    summary = [*lines[:1], score]
    if divergence is None:
        summary.append("The record follows the answer key")
    elif not ruling.violations:  # else the violation says where it went wrong
        summary.append(f"First divergence from the answer key: {divergence.describe()}")
    return moments.page(f"{ruling.source}: solo record, "
                        f"{counted(len(record.dungeons), 'dungeon')}",
                        summary, legend(record.rules) + " Left: the record; right: the answer "
                        "key (perfect play of the same stack).", illegal=bool(ruling.violations),
                        names=ruling.players, round_word="dungeon")


SOLO_WORDS = Words("dungeon", "tile")
"""A solo record's words: its dungeons and their tiles."""


_MIN = re.compile(r"--min:(\d+)px")


def pair_picture(svg: str, key_svg: str) -> str:
    """The record's dungeon and the answer key's side by side, drawn in one extent: at one
    scale; where the two at their readable width (``--min``) do not fit side by side (a
    phone, a wide dungeon), one above the other."""
    found = _MIN.search(svg)
    basis = f' style="--pmin:{found.group(1)}px"' if found else ""
    return (f'<div class="pair"{basis}>\n<figure><figcaption>the record</figcaption>\n{svg}'
            f'</figure>\n<figure><figcaption>the answer key</figcaption>\n{key_svg}</figure>\n'
            '</div>')
