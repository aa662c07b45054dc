"""A replay page of any ruling: one frame per event, the game state beside it.

Every adjudicator returns the same :class:`~pathcheck.ruling.Ruling`, so one builder serves
every game: each event of each round becomes a moment, keyed ``R.T`` (round R after its move
T; ``R.0`` before the first move; a second moment of the same move gets ``R.Tb``, ``R.Tc`` ...),
each violation is shown at its move with the rule it breaks, and a last moment (``end``) gives
the final scores, the winners and the verdict. The picture of a moment comes from the game
(``picture(R, T)``: SVG markup and/or preformatted text, e.g. the state ``--at R.T`` draws).

>>> from pathcheck.ruling import Event, MoveRef, Round, Ruling
>>> r = Ruling("demo", "demo/1", "x.json", ["Ann"], [Round(1, "Round 1", [
...     Event("Ann starts"),
...     Event("Ann scores", MoveRef(round=1, index=1, player="Ann"), points={"Ann": 1})],
...     {"Ann": 1})], {"Ann": 1}, ["Ann"])
>>> [f.key for f in ruling_page(r).frames]
['1.0', '1.1', 'end']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pathcheck.render.html import Frame, Note, NoteKind, Page, PageEvent
from pathcheck.ruling import Event, Round, Ruling, Violation


@dataclass(frozen=True)
class Picture:
    """What a game draws of a moment: SVG markup, preformatted text, or both."""

    svg: str = ""
    text: str = ""


PictureFn = Callable[[int, int], Picture]
"""``picture(round, move)``: the state of the game in round ``round`` after move ``move``."""


def _suffix(n: int) -> str:
    return "" if n == 0 else chr(ord("a") + n) if n < 26 else f"~{n}"


def verdict_lines(ruling: Ruling) -> list[str]:
    """The verdict, the winners and the final scores, as the page header says them."""
    lines = []
    if ruling.violations:
        lines.append(f"Verdict: ILLEGAL: {ruling.violations[0].describe()}")
    else:
        lines.append("Verdict: legal")
    if ruling.winners:
        verb = "win (shared)" if len(ruling.winners) > 1 else "wins"
        lines.append(f"Winner: {' and '.join(ruling.winners)} {verb}"
                     + (f" ({ruling.tie_break})" if ruling.tie_break else ""))
    else:
        lines.append("Winner: none")
    lines.append("Final: " + ", ".join(f"{p} {n}" for p, n in ruling.final_scores.items()))
    return lines


def _placed(ruling: Ruling) -> dict[int, list[tuple[int, Violation]]]:
    """Violations by round, each after the event of its move (index into the round's events,
    -1: at the end of the round); violations without a round go to round 0 (the end)."""
    out: dict[int, list[tuple[int, Violation]]] = {}
    numbers = {rnd.number for rnd in ruling.rounds}
    for violation in ruling.violations:
        move = violation.move
        if move.round is None or move.round not in numbers:
            out.setdefault(0, []).append((-1, violation))
            continue
        rnd = next(r for r in ruling.rounds if r.number == move.round)
        after = -1
        for i, event in enumerate(rnd.events):
            if event.move is not None and event.move.index is not None \
                    and move.index is not None and event.move.index <= move.index:
                after = i
        out.setdefault(move.round, []).append((after, violation))
    return out


class _Builder:
    """Frames and events of a ruling page, built round by round."""

    def __init__(self, ruling: Ruling, picture: PictureFn | None,
                 moments: Iterable[tuple[int, int]]) -> None:
        self.ruling, self.picture = ruling, picture
        self.events: list[PageEvent] = []
        self.frames: list[Frame] = []
        self.extra: dict[int, list[int]] = {}
        for number, turn in sorted(set(moments)):
            self.extra.setdefault(number, []).append(turn)
        self.cache: dict[tuple[int, int], Picture] = {}
        self.shown = Picture()
        # The running score: the last round's, plus what each event since gained (its points).
        self.scores: dict[str, int] = dict.fromkeys(ruling.final_scores or ruling.players, 0)

    def draw(self, number: int, move: int, display: str) -> Picture:
        """The picture of a moment; a moment the game cannot draw (a move after the end of
        the round...) keeps the picture before it."""
        if self.picture is None:
            return Picture(text=display)
        if (number, move) not in self.cache:
            self.cache[(number, move)] = self.picture(number, move)
        drawn = self.cache[(number, move)]
        if drawn.svg or drawn.text:
            self.shown = drawn
        elif not (self.shown.svg or self.shown.text):
            self.shown = Picture(text=display or " ")
        return self.shown

    def round(self, rnd: Round, placed: list[tuple[int, Violation]]) -> None:
        used: dict[int, int] = {}
        pending = list(self.extra.get(rnd.number, []))

        def flush(upto: float) -> None:
            """Frames of the moments before ``upto`` that no event falls on."""
            while pending and pending[0] < upto:
                turn = pending.pop(0)
                if turn in used:
                    continue
                used[turn] = 1
                drawn = self.draw(rnd.number, turn, "")
                caption = f"{rnd.title}, after move {turn}" if turn else f"{rnd.title}: start"
                self.frames.append(Frame(f"{rnd.number}.{turn}", caption, drawn.svg,
                                         drawn.text, len(self.events) - 1 if self.events
                                         else None, (), dict(self.scores)))

        items: list[Event | Violation] = []
        items += [v for after, v in placed if after == -1 and not rnd.events]
        for i, event in enumerate(rnd.events):
            items.append(event)
            items += [v for after, v in placed if after == i]
        items += [v for after, v in placed if after == -1 and rnd.events]
        if not items:
            items.append(Event(rnd.title))
        move, seen_move = 0, False
        for k, item in enumerate(items):
            last = k == len(items) - 1
            index = item.move.index if item.move is not None else None
            if index is not None:
                flush(index)
                seen_move = True
            elif seen_move or last:
                flush(float("inf"))
            if isinstance(item, Violation):
                move = max(move, index or 0)
                self.events.append(PageEvent(item.message, item.move.describe(), item.rule,
                                             True))
                notes = [Note(f"{item.move.describe()}: {item.message}", NoteKind.VIOLATION,
                              item.rule)]
            else:
                move = move if index is None else index
                self.scores = {p: n + item.points.get(p, 0) for p, n in self.scores.items()}
                where = item.move.describe() if item.move is not None else ""
                self.events.append(PageEvent(item.text, where, item.rule))
                notes = [Note(item.text, NoteKind.INFO, item.rule)] if item.rule else []
            count = used.get(move, 0)
            used[move] = count + 1
            if last:
                self.scores = dict(rnd.scores)
                notes.append(Note("Score after the round: " + ", ".join(
                    f"{p} {n}" for p, n in rnd.scores.items()), NoteKind.SCORE))
            drawn = self.draw(rnd.number, move, rnd.display)
            self.frames.append(Frame(f"{rnd.number}.{move}{_suffix(count)}",
                                     f"{rnd.title}" + (f", move {move}" if move else ""),
                                     drawn.svg, drawn.text, len(self.events) - 1, notes,
                                     dict(self.scores)))

    def end(self, unplaced: list[tuple[int, Violation]]) -> None:
        ruling = self.ruling
        notes = [Note(line, NoteKind.VIOLATION if line.startswith("Verdict: ILLEGAL")
                      else NoteKind.SCORE) for line in verdict_lines(ruling)]
        for _, violation in unplaced:
            self.events.append(PageEvent(violation.message, violation.move.describe(),
                                         violation.rule, True))
            notes.append(Note(violation.describe(), NoteKind.VIOLATION, violation.rule))
        notes += [Note(note) for note in ruling.notes]
        final = Picture(text=ruling.display) if ruling.display else self.shown
        self.frames.append(Frame("end", "End of the game: final scores", final.svg,
                                 final.text or ("" if final.svg else " "),
                                 len(self.events) - 1 if unplaced else None, notes,
                                 dict(ruling.final_scores)))


def ruling_page(ruling: Ruling, picture: PictureFn | None = None, *, title: str = "",
                legend: str = "", moments: Iterable[tuple[int, int]] = ()) -> Page:
    """The page of ``ruling``; ``picture`` draws the state at each moment (by default the
    round's own display text). ``moments`` (round, move) the game can draw get a frame each
    too, where no event of the ruling falls on them (a turn nothing notable happened in)."""
    violations = _placed(ruling)
    builder = _Builder(ruling, picture, moments)
    for rnd in ruling.rounds:
        builder.round(rnd, violations.get(rnd.number, []))
    builder.end(violations.get(0, []))
    heading = title or f"{ruling.source}: {ruling.game} ({ruling.format})"
    return Page(heading, builder.frames, builder.events, verdict_lines(ruling), legend)
