"""A replay page of any ruling: every move and every event a moment, the game state beside it.

Every adjudicator returns the same :class:`~pathcheck.ruling.Ruling`, so one builder serves
every game. Round by round it merges, in order, the moves the game's replay went through (each
said by the game: "Cy reveals C4 (walrus, water)"), the ruling's events and its violations,
each at its move, and makes each a moment (:class:`~pathcheck.render.html.Moments`): ``R.T``
is round R after its move T, ``R.0`` its start, a second moment of one move ``R.Tb``. A
violation of a round the ruling has no record of (a round played after the game ended) gets
that round's moments all the same. A last moment (``end``) gives the final scores and the
verdict. The picture of a moment comes from the game (``picture(R, T)``: SVG markup and/or
preformatted text).

>>> from pathcheck.ruling import Event, MoveRef, Round, Ruling
>>> r = Ruling("demo", "demo/1", "x.json", ["Ann"], [Round(1, "Round 1", [
...     Event("Ann starts"),
...     Event("Ann scores", MoveRef(round=1, index=1, player="Ann"), points={"Ann": 1})],
...     {"Ann": 1})], {"Ann": 1}, ["Ann"])
>>> [f.key for f in ruling_page(r).frames]
['1.0', '1.1', 'end']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from pathcheck.render.html import Moments, Note, NoteKind, Page, PageEvent
from pathcheck.render.words import counted
from pathcheck.ruling import Event, GameEndFact, MoveRef, Round, Ruling, Violation, words_of


@dataclass(frozen=True)
class Picture:
    """What a game draws of a moment: SVG markup, preformatted text, or both."""

    svg: str = ""
    text: str = ""


PictureFn = Callable[[int, int], Picture]
"""``picture(round, move)``: the state of the game in round ``round`` after move ``move``."""


@dataclass(frozen=True)
class Words:
    """What a game calls its rounds and moves (the rulebook's words), for every line of a page.

    >>> DUNGEON_WORDS.where(MoveRef(round=2, index=5, player="Ann"))
    'exploration 2, turn 5 (Ann)'
    >>> GAME_WORDS.where(MoveRef(player="Ann"))
    'the log (Ann)'
    """

    round: str = "round"
    move: str = "move"

    def where(self, move: MoveRef) -> str:
        return move.describe(self.round, self.move, "the log")

    def describe(self, violation: Violation) -> str:
        return f"{self.where(violation.move)}: {violation.message} [{violation.rule.id}]"


GAME_WORDS = Words()
DUNGEON_WORDS = Words(*words_of("game/1"))


def _scores(scores: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {n}" for p, n in scores.items())


def should_have_ended(ruling: Ruling, words: Words = GAME_WORDS) -> str:
    """Where the game should have ended, with the scores then, when a violation says a round
    was played after the end (its fact is a :class:`~pathcheck.ruling.GameEndFact`); else
    ""."""
    for violation in ruling.violations:
        fact = violation.fact
        if isinstance(fact, GameEndFact):
            return (f"The game should have ended after {words.round} {fact.round}: "
                    + _scores(fact.scores))
    return ""


def verdict_lines(ruling: Ruling, words: Words = GAME_WORDS) -> list[str]:
    """The verdict, the winners and the final scores, as the page header says them. An
    illegal log never gets a bare "Winner": its scores are the scores as played."""
    scores = _scores(ruling.final_scores)
    if not ruling.violations:
        lines = ["Verdict: legal"]
        if ruling.winners:
            verb = "win (shared)" if len(ruling.winners) > 1 else "wins"
            lines.append(f"Winner: {' and '.join(ruling.winners)} {verb}"
                         + (f" ({ruling.tie_break})" if ruling.tie_break else ""))
        else:
            lines.append("Winner: none")
        return [*lines, f"Final: {scores}"]
    lines = [f"Verdict: ILLEGAL: {words.describe(ruling.violations[0])}"]
    if len(ruling.violations) > 1:
        lines[0] += f" (and {counted(len(ruling.violations) - 1, 'more violation')})"
    ahead = " and ".join(ruling.winners) or "none"
    lines.append(f"Scores as played (not a result): {scores}; ahead as played: {ahead}")
    ended = should_have_ended(ruling, words)
    return [*lines, ended] if ended else lines


END = 1 << 30
"""The position of what a round says after its last move."""


def _is_repeat(event: Event, violations: Iterable[Violation]) -> bool:
    """An event that only repeats a violation listed at the same move (``ILLEGAL: ...``)."""
    return any(event.move is not None and v.move.round == event.move.round
               and v.move.index == event.move.index and v.message in event.text
               for v in violations)


class _Builder:
    """Moments of a ruling page, built round by round."""

    def __init__(self, ruling: Ruling, picture: PictureFn | None,
                 moves: Iterable[tuple[int, int]], says: Mapping[tuple[int, int], str],
                 words: Words) -> None:
        self.ruling, self.picture, self.words, self.says = ruling, picture, words, says
        self.moments = Moments()
        self.moves: dict[int, list[int]] = {}
        for number, turn in sorted(set(moves)):
            if turn > 0:
                self.moves.setdefault(number, []).append(turn)
        self.shown = Picture()
        # The running score: the last round's, plus what each event since gained (its points).
        self.scores: dict[str, int] = dict.fromkeys(ruling.final_scores or ruling.players, 0)

    def draw(self, number: int, move: int, display: str) -> Picture:
        """The picture of a moment; a moment the game cannot draw (a move after the end of
        the round...) keeps the picture before it."""
        if self.picture is None:
            return Picture(text=display or " ")
        drawn = self.picture(number, move)
        if drawn.svg or drawn.text:
            self.shown = drawn
        elif not (self.shown.svg or self.shown.text):
            self.shown = Picture(text=display or " ")
        return self.shown

    def items(self, rnd: Round, violations: list[Violation]
              ) -> list[tuple[int, int, int | Event | Violation]]:
        """What happened in a round, in order: (position, kind, item); a move of the replay
        (kind 0) comes before the ruling's events at it (1) and its violations (2)."""
        items: list[tuple[int, int, int | Event | Violation]] = []
        moved = False
        for event in rnd.events:
            if _is_repeat(event, violations):
                continue
            index = event.move.index if event.move is not None else None
            moved = moved or index is not None
            items.append((index if index is not None else END if moved else 0, 1, event))
        for violation in violations:
            index = violation.move.index
            late = violation.unfinished or violation.move.pointer.endswith("/turns")
            items.append((index if index is not None else END if late else 0, 2, violation))
        # A move the game says gets a moment of its own; one it does not say, only where
        # nothing of the ruling falls on it (the ruling's events then say who did what).
        ruled = {position for position, _, _ in items}
        items += [(turn, 0, turn) for turn in self.moves.get(rnd.number, [])
                  if (rnd.number, turn) in self.says or turn not in ruled]
        items.sort(key=lambda item: (item[0], item[1]))
        if not items or items[0][0] != 0:
            items.insert(0, (0, 1, Event(f"{rnd.title}: start")))
        return items

    def round(self, rnd: Round, violations: list[Violation]) -> None:
        items = self.items(rnd, violations)
        last_move = max((position for position, _, _ in items if position != END), default=0)
        words = self.words
        for k, (position, _, item) in enumerate(items):
            move = last_move if position == END else position
            say = self.says.get((rnd.number, move), "")
            caption = (f"{words.round.capitalize()} {rnd.number}, {words.move} {move}"
                       if move else f"{rnd.title}: start") + (f": {say}" if say else "")
            notes: list[Note] = []
            if isinstance(item, int):
                event = PageEvent(say or f"{words.move} {move}",
                                  f"{words.round} {rnd.number}, {words.move} {move}")
            elif isinstance(item, Violation):
                where = words.where(item.move)
                event = PageEvent(item.message, where, item.rule, violation=True)
                notes.append(Note(f"{where}: {item.message}", NoteKind.VIOLATION, item.rule))
            else:
                self.scores = {p: n + item.points.get(p, 0) for p, n in self.scores.items()}
                where = words.where(item.move) if item.move is not None else ""
                event = PageEvent(item.text, where, item.rule)
                if item.rule is not None:
                    notes.append(Note(item.text, NoteKind.INFO, item.rule))
            if k == len(items) - 1 and rnd.scores:
                self.scores = dict(rnd.scores)
                notes.append(Note(f"Score after the {words.round}: " + _scores(rnd.scores),
                                  NoteKind.SCORE))
            drawn = self.draw(rnd.number, move, rnd.display)
            self.moments.add(f"{rnd.number}.{move}", caption, event, picture=drawn.svg,
                             text=drawn.text, notes=notes, scores=self.scores)

    def log_wide(self, violations: list[Violation], base: str, caption: str) -> None:
        """Violations of the log as a whole, not of a move: its setup (before the first
        round, ``setup``) or its end (the log stops too early, ``log-end``)."""
        for violation in violations:
            where = self.words.where(violation.move)
            drawn = self.shown if base != "setup" else self.draw(1, 0, "")
            self.moments.add(base, caption, PageEvent(
                violation.message, where, violation.rule, violation=True), picture=drawn.svg,
                text=drawn.text or ("" if drawn.svg else " "), notes=[Note(
                    f"{where}: {violation.message}", NoteKind.VIOLATION, violation.rule)],
                scores=self.scores)

    def end(self) -> None:
        ruling, words = self.ruling, self.words
        lines = verdict_lines(ruling, words)
        notes = [Note(line, NoteKind.VIOLATION if ruling.violations and i == 0
                      else NoteKind.SCORE) for i, line in enumerate(lines)]
        notes += [Note(note) for note in ruling.notes]
        final = Picture(self.shown.svg, ruling.display or self.shown.text)
        said = ("final scores as played: " if ruling.violations else "final scores: ") + \
            _scores(ruling.final_scores)
        self.moments.add("end", "End of the game: " + said, PageEvent(
            f"End of the game: {said}"), picture=final.svg,
            text=final.text or ("" if final.svg else " "), notes=notes,
            scores=ruling.final_scores)


def ruling_page(ruling: Ruling, picture: PictureFn | None = None, *, title: str = "",
                legend: str = "", moments: Iterable[tuple[int, int]] = (),
                says: Mapping[tuple[int, int], str] | None = None,
                words: Words = GAME_WORDS) -> Page:
    """The page of ``ruling``; ``picture`` draws the state at each moment (by default the
    round's own display text). ``moments`` (round, move) the game's replay went through get a
    moment each, said by ``says`` (who did what), whether or not the ruling has an event at
    them."""
    builder = _Builder(ruling, picture, moments, says or {}, words)
    by_round: dict[int, list[Violation]] = {}
    for violation in ruling.violations:
        if violation.move.round is not None:
            by_round.setdefault(violation.move.round, []).append(violation)
    known = {rnd.number for rnd in ruling.rounds}
    rounds = list(ruling.rounds) + [
        Round(number, f"{words.round.capitalize()} {number} (after the log's last ruled "
                      f"{words.round})", (), {})
        for number in sorted(set(by_round) - known)]
    log_wide = [v for v in ruling.violations if v.move.round is None]
    builder.log_wide([v for v in log_wide if not v.unfinished], "setup", "Setup of the game")
    for rnd in rounds:
        builder.round(rnd, by_round.get(rnd.number, []))
    builder.log_wide([v for v in log_wide if v.unfinished], "log-end", "End of the log")
    builder.end()
    heading = title or f"{ruling.source}: {ruling.game} ({ruling.format})"
    return builder.moments.page(heading, verdict_lines(ruling, words), legend,
                                illegal=bool(ruling.violations), names=ruling.players,
                                round_word=words.round)
