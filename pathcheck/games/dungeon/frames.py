"""Replay pages of dungeon in memory: the dungeon laid out tile by tile.

Each frame is the dungeon after one more tile, drawn by :func:`pathcheck.render.svg.view_svg`
from the same layout model as the text map, in the final dungeon's extent so the frames line
up: the path followed so far, START and the tile that made it Lost marked; the LOST cards
announced so far, the Lost point with its rule quoted and, in a last frame, the check and the
points. Frames are keyed ``D.T``: dungeon (or exploration) D after its tile T.

>>> from pathcheck.records import parse_dgn_line
>>> from pathcheck.verify import verify_record
>>> rec = parse_dgn_line("START@N R1@N R2@E !Ann L4@N !Bob", source="x.dgn", line=1)
>>> page = record_page(verify_record(rec))
>>> [f.key for f in page.frames]
['1.1', '1.2', '1.3', '1.4', 'check']
>>> page.frames[-1].scores
{'Ann': 0, 'Bob': 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pathcheck.check import CheckResult, LostCard
from pathcheck.dungeon import Placement, TraceResult, trace
from pathcheck.games.dungeon.log import Exploration
from pathcheck.geometry import Move
from pathcheck.render.html import Frame, Note, NoteKind, Page, PageEvent
from pathcheck.render.model import build_view
from pathcheck.render.report import lost_sentence
from pathcheck.render.svg import view_svg
from pathcheck.render.words import counted
from pathcheck.ruling import Rule, Ruling, Violation
from pathcheck.tileset import TileSet, load_tileset
from pathcheck.verify import DungeonVerdict, SoloVerdict, Verdict

LEGEND = ("Thick blue: the path followed so far; thin: paths not taken; S in a green circle: "
          "START; a cross in a vermilion (red-orange) circle: the tile that made the dungeon "
          "Lost; each tile shows its number (top left) and its id and arrow (bottom right); "
          "dashed: the 9x9 bound of rule #2.")


@dataclass
class Builder:
    """Collects a page's events and frames as a dungeon is laid tile by tile."""

    tileset: TileSet
    rules: frozenset[int]
    events: list[PageEvent] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)

    def event(self, text: str, where: str = "", *, rule: Rule | None = None,
              violation: bool = False) -> int:
        self.events.append(PageEvent(text, where, rule, violation))
        return len(self.events) - 1

    def dungeon(self, placements: Sequence[Placement], *, number: int, label: str,
                movement: Move = Move.STRAIGHT, cards: Sequence[LostCard] = (),
                heights: Sequence[int] | None = None,
                extra: dict[int, list[Note]] | None = None,
                turn_events: dict[int, list[PageEvent]] | None = None,
                first: int = 1) -> TraceResult:
        """Add the frames of one dungeon and return its full trace.

        ``heights``: the stack height after each turn (a game log: ``D.0`` is the START tile
        alone, ``D.T`` after turn T); by default one frame per tile, ``D.1`` to ``D.n``.
        ``extra``: notes (a violation...) by frame number; ``turn_events``: the ruling's own
        events by frame number, listed instead of the plain "tile placed" ones.
        """
        full = trace(placements, tileset=self.tileset, rules=self.rules,
                     initial_movement=movement, with_passes=True)
        extent = build_view(full, self.tileset, self.rules).extent()
        steps = [1, *heights] if heights is not None else list(range(1, len(placements) + 1))
        start_turn = 0 if heights is not None else 1
        shown = 0
        for turn, height in enumerate(steps, start=start_turn):
            result = trace(placements[:height], tileset=self.tileset, rules=self.rules,
                           initial_movement=movement, with_passes=True)
            picture = view_svg(build_view(result, self.tileset, self.rules), extent=extent)
            current = None
            new_tiles = range(shown + 1, height + 1)
            if turn_events is not None and turn in turn_events:
                for ev in turn_events[turn]:
                    self.events.append(ev)
                    current = len(self.events) - 1
            else:
                for index in new_tiles:
                    current = self._tile_event(placements, index, result, number, first, cards)
            notes = self._notes(result, height, cards, full)
            notes += (extra or {}).get(turn, [])
            tile = placements[height - 1] if height else None
            caption = (f"{label} {number}, " + (f"turn {turn}" if heights is not None
                                                 else f"tile {turn}")
                       + (f": {tile}" if tile is not None else "")
                       + f" ({height} tile{'' if height == 1 else 's'})")
            self.frames.append(Frame(f"{number}.{turn}", caption, picture, event=current,
                                     notes=notes))
            shown = height
        return full

    def _tile_event(self, placements: Sequence[Placement], index: int, result: TraceResult,
                    number: int, first: int, cards: Sequence[LostCard]) -> int:
        placed = placements[index - 1]
        where = f"dungeon {number}, tile {index}"
        if first != 1:
            where += f" (stack tile {first + index - 1})"
        if index <= len(result.layout):
            cell = result.layout[index - 1]
            text = f"{placed} laid at cell {cell.x},{cell.y}"
        else:
            text = f"{placed} lies on the stack; the path never reaches it (already Lost)"
        current = self.event(text, where)
        for card in cards:
            if card.after == index:
                current = self.event(f"{card.player} plays a LOST card", where)
        return current

    def _notes(self, result: TraceResult, height: int, cards: Sequence[LostCard],
               full: TraceResult) -> list[Note]:
        notes: list[Note] = []
        announced = [c for c in cards if c.after <= height]
        if announced:
            notes.append(Note("LOST cards so far: " + ", ".join(
                f"{c.player} (on tile {c.after})" for c in announced)))
        if result.lost_at is not None and result.reason is not None:
            placed = result.layout[result.lost_at - 1]
            notes.append(Note(f"Lost at tile {result.lost_at} ({placed.tile}@{placed.dir.name}, "
                              f"cell {placed.x},{placed.y}) by {result.reason.value}",
                              NoteKind.LOST, result.reason.rule))
        elif full.lost_at is None and height >= len(full.layout):
            notes.append(Note(f"The path holds to the last tile "
                              f"({counted(height, 'tile')}): never Lost."))
        return notes

    def check_frame(self, key: str, caption: str, check: CheckResult, lost_at: int | None,
                    where: str = "check") -> None:
        """A frame of the check: each player's outcome with its rule, and the points."""
        picture = self.frames[-1].picture if self.frames else ""
        notes = []
        current = None
        for outcome in check.outcomes:
            rule = outcome.kind.rule
            text = outcome.explain(lost_at)
            current = self.event(text, where, rule=rule)
            notes.append(Note(text, NoteKind.SCORE, rule))
        notes.append(Note("Points: " + ", ".join(f"{p} {n}" for p, n in check.points.items())))
        self.frames.append(Frame(key, caption, picture, event=current, notes=notes,
                                 scores=dict(check.points)))


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
        builder.check_frame("check", "Check (3. Checking the Memorized Path)", verdict.check,
                            full.lost_at)
        summary.append("Points: " + ", ".join(f"{p} {n}"
                                              for p, n in verdict.check.points.items()))
    title = (f"{_where(record.source, record.line, record.pointer)}: dungeon of "
             f"{counted(len(record.tiles), 'tile')}")
    return Page(title, builder.frames, builder.events, summary, LEGEND)


def solo_dungeons(builder: Builder, dungeons: Sequence[Sequence[Placement]],
                  failing: tuple[int, int, Note] | None = None) -> list[TraceResult]:
    """Frames of solo dungeons one after another (a Repeat tile starting a dungeon repeats the
    last turn of the one before); ``failing`` (dungeon, tile, note) marks a failure."""
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
    last = builder.frames[-1]
    builder.frames.append(Frame("score", "Score", last.picture, event=None,
                                notes=[Note(line) for line in summary],
                                scores={"solo": result.score}))
    title = (f"{_where(record.source, record.line, record.pointer)}: solo, "
             f"{counted(len(record.dungeons), 'dungeon')}")
    return Page(title, builder.frames, builder.events, summary, LEGEND)


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
    last = builder.frames[-1]
    builder.frames.append(Frame("score", "Maximum score", last.picture,
                                notes=[Note(summary[0])], scores={"solo": best}))
    rules_text = " ".join(f"#{r}" for r in sorted(rule_set)) or "none"
    return Page(f"Answer key of {code} (additional rules {rules_text})", builder.frames,
                builder.events, summary, LEGEND)


def _hands(exp: Exploration) -> list[dict[str, list[str]]]:
    """The hands before the first turn and after each turn: the tile played leaves the hand,
    the top of the deck joins it (as the replay deals; a log's wrong draw is its violation).

    >>> from pathcheck.games.dungeon.log import Turn
    >>> exp = Exploration("Ann", {"Ann": ("R1", "I4")}, ("L2",),
    ...                   (Turn("Ann", Placement.parse("R1@N"), (), None, False, "", 0),), "")
    >>> _hands(exp)
    [{'Ann': ['R1', 'I4']}, {'Ann': ['I4', 'L2']}]
    """
    hands = {p: list(h) for p, h in exp.hands.items()}
    deck = list(exp.deck)
    out = [{p: list(h) for p, h in hands.items()}]
    for turn in exp.turns:
        hand = hands.setdefault(turn.player, [])
        if turn.placement.tile in hand:
            hand.remove(turn.placement.tile)
        if deck:
            hand.append(deck.pop(0))
        out.append({p: list(h) for p, h in hands.items()})
    return out


def game_page(log: Mapping[str, Any], ruling: Ruling) -> Page:
    """The page of a ``game/1`` log: each exploration turn by turn, then its check."""
    from pathcheck.games.dungeon.log import read_game_log
    from pathcheck.games.dungeon.state import Replay
    from pathcheck.render.ruling_page import verdict_lines

    game = read_game_log(log, source=ruling.source)
    replay = Replay(game)
    replay.run()
    builder = Builder(game.tileset, game.rules)
    placed: dict[tuple[int | None, int | None], list[Violation]] = {}
    for violation in ruling.violations:
        placed.setdefault((violation.move.round, violation.move.index), []).append(violation)
    scores: dict[str, int] = dict.fromkeys(game.players, 0)
    for number, (exp, (stack, heights), rnd) in enumerate(
            zip(game.explorations, replay.stacks, ruling.rounds, strict=False), start=1):
        cards: list[LostCard] = []
        turn_events: dict[int, list[PageEvent]] = {0: [PageEvent(
            f"{exp.start_player} starts; hands: " + "; ".join(
                f"{p}: {' '.join(h) or '-'}" for p, h in exp.hands.items()),
            f"exploration {number}")]}
        extra: dict[int, list[Note]] = {}
        for t, hands in enumerate(_hands(exp)):
            extra.setdefault(t, []).append(Note("Hands: " + "; ".join(
                f"{p}: {' '.join(h) or '-'}" for p, h in hands.items())))
        for t, turn in enumerate(exp.turns, start=1):
            where = f"exploration {number}, turn {t} ({turn.player})"
            evs = [PageEvent(f"{turn.player} places {turn.placement} (stack tile "
                             f"{heights[t - 1]})", where)]
            for name in turn.lost:
                cards.append(LostCard(name, heights[t - 1]))
                evs.append(PageEvent(f"{name} announces Lost (LOST card on tile "
                                     f"{heights[t - 1]})", where))
            turn_events[t] = evs
        at_deal = placed.pop((number, None), [])
        placed[(number, None)] = [v for v in at_deal if v.move.pointer.endswith("/turns")]
        placed[(number, 0)] = [v for v in at_deal if not v.move.pointer.endswith("/turns")]
        for t in range(len(exp.turns) + 1):
            for violation in placed.pop((number, t), []):
                extra.setdefault(t, []).append(Note(
                    f"{violation.move.describe()}: {violation.message}", NoteKind.VIOLATION,
                    violation.rule))
                turn_events.setdefault(t, []).append(PageEvent(
                    violation.message, violation.move.describe(), violation.rule, True))
        before = len(builder.frames)
        builder.dungeon(stack, number=number, label="Exploration", cards=cards,
                        heights=heights, turn_events=turn_events, extra=extra)
        for k in range(before, len(builder.frames)):
            builder.frames[k] = replace(builder.frames[k], scores=dict(scores))
        scores = dict(rnd.scores)
        notes = [Note(e.text, NoteKind.SCORE, e.rule) for e in rnd.events]
        for e in rnd.events:
            builder.event(e.text, f"exploration {number}, check", rule=e.rule)
        late = [v for key, vs in list(placed.items()) if key[0] == number for v in vs]
        for key in [k for k in placed if k[0] == number]:
            del placed[key]
        for violation in late:
            builder.event(violation.message, violation.move.describe(), rule=violation.rule,
                          violation=True)
            notes.append(Note(f"{violation.move.describe()}: {violation.message}",
                              NoteKind.VIOLATION, violation.rule))
        notes.append(Note("Points after the check: " + ", ".join(
            f"{p} {n}" for p, n in rnd.scores.items()), NoteKind.SCORE))
        builder.frames.append(Frame(f"{number}.check", f"Exploration {number}: the check",
                                    builder.frames[-1].picture, event=len(builder.events) - 1,
                                    notes=notes, scores=dict(rnd.scores)))
    end_notes = [Note(line, NoteKind.VIOLATION if line.startswith("Verdict: ILLEGAL")
                      else NoteKind.SCORE) for line in verdict_lines(ruling)]
    for violations in placed.values():
        for violation in violations:
            builder.event(violation.message, violation.move.describe(), rule=violation.rule,
                          violation=True)
            end_notes.append(Note(violation.describe(), NoteKind.VIOLATION, violation.rule))
    end_notes += [Note(n) for n in ruling.notes]
    last_picture = builder.frames[-1].picture if builder.frames else ""
    builder.frames.append(Frame("end", "End of the game: final scores", last_picture,
                                event=len(builder.events) - 1 if builder.events else None,
                                notes=end_notes, scores=dict(ruling.final_scores)))
    return Page(f"{ruling.source}: dungeon in memory, {len(game.players)} players",
                builder.frames, builder.events, verdict_lines(ruling), LEGEND)


def page(log: Mapping[str, Any], ruling: Ruling) -> Page:
    """The replay page of a dungeon ruling: a game log, or a solo record beside its key."""
    if ruling.format == "solo/1":
        return solo_page(log, ruling)
    return game_page(log, ruling)


class _Drawn:
    """Pictures of the prefixes of a list of dungeons, each in its own final extent."""

    def __init__(self, dungeons: Sequence[Sequence[Placement]], tileset: TileSet,
                 rules: frozenset[int]) -> None:
        self.dungeons, self.tileset, self.rules = dungeons, tileset, rules
        self.movements: list[Move] = []
        self.extents = []
        movement = Move.STRAIGHT
        for dungeon in dungeons:
            full = trace(dungeon, tileset=tileset, rules=rules, initial_movement=movement,
                         with_passes=True)
            self.movements.append(movement)
            self.extents.append(build_view(full, tileset, rules).extent())
            movement = full.last_movement

    def at(self, number: int, tiles: int) -> tuple[str, TraceResult]:
        result = trace(self.dungeons[number - 1][:tiles], tileset=self.tileset,
                       rules=self.rules, initial_movement=self.movements[number - 1],
                       with_passes=True)
        view = build_view(result, self.tileset, self.rules)
        return view_svg(view, extent=self.extents[number - 1]), result


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
    events: list[PageEvent] = []
    frames: list[Frame] = []
    for position, ((d, t), (kd, kt)) in enumerate(
            zip(_positions(record.dungeons), _positions(key), strict=False), start=1):
        played = record.dungeons[d - 1][t - 1]
        svg, result = mine.at(d, t)
        key_svg, _ = best.at(kd, kt)
        where = f"stack tile {position}"
        events.append(PageEvent(f"the record lays {played} as tile {t} of dungeon {d}; the "
                                f"key lays {key[kd - 1][kt - 1]} as tile {kt} of dungeon {kd}",
                                where))
        notes: list[Note] = []
        if result.lost_at == t and result.reason is not None:
            notes.append(Note(f"Dungeon {d} is Lost at its tile {t} by {result.reason.value}",
                              NoteKind.LOST, result.reason.rule))
        if divergence is not None and divergence.position == position:
            events.append(PageEvent(f"first divergence from the answer key: "
                                    f"{divergence.describe()}", where, violation=True))
            notes.append(Note(f"First divergence ({divergence.kind}): {divergence.describe()}",
                              NoteKind.VIOLATION))
        for violation in placed.pop((d, t), []):
            events.append(PageEvent(violation.message, violation.move.describe(),
                                    violation.rule, True))
            notes.append(Note(violation.message, NoteKind.VIOLATION, violation.rule))
        picture = ('<div class="pair">\n<figure><figcaption>the record</figcaption>\n'
                   f'{svg}</figure>\n<figure><figcaption>the answer key</figcaption>\n'
                   f'{key_svg}</figure>\n</div>')
        frames.append(Frame(f"{d}.{t}", f"Stack tile {position}: dungeon {d}, tile {t}: "
                            f"{played}", picture, event=len(events) - 1, notes=notes))
    from pathcheck.render.ruling_page import verdict_lines

    end_notes = [Note(line, NoteKind.SCORE) for line in verdict_lines(ruling)[:1]]
    for violations in placed.values():
        for violation in violations:
            events.append(PageEvent(violation.message, violation.move.describe(),
                                    violation.rule, True))
            end_notes.append(Note(violation.describe(), NoteKind.VIOLATION, violation.rule))
    end_notes += [Note(n) for n in ruling.notes]
    last = frames[-1].picture if frames else ""
    frames.append(Frame("end", "Score", last, event=len(events) - 1 if events else None,
                        notes=end_notes, scores=dict(ruling.final_scores)))
    summary = [
        *verdict_lines(ruling)[:1],
        "Score: " + ", ".join(f"{n}" for n in ruling.final_scores.values()),
        "The record follows the answer key" if divergence is None
        else f"First divergence from the answer key: {divergence.describe()}"]
    return Page(f"{ruling.source}: solo record, {counted(len(record.dungeons), 'dungeon')}",
                frames,
                events, summary, LEGEND + " Left: the record; right: the answer key (perfect "
                "play of the same stack).")
