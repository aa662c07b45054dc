"""One ruling model shared by every adjudicator, and its text/JSON renderers.

An adjudicator replays a log and returns a :class:`Ruling`: the rounds (each a list of
:class:`Event` values and the running score), the final scores and winners, and every
:class:`Violation` found, each quoting the rule it breaks and pointing at the move.

>>> rule = Rule("memo-dice/cup-colour", "Covering the dice",
...             "cover the die with a cup that's the same color as the symbol")
>>> move = MoveRef(round=1, index=3, player="Ann", pointer="/rounds/0/covering/3")
>>> fact = CoverFact(2, "blue", "moon", "red", None, True)
>>> v = Violation(rule, move, "blue moon covered with a red cup", fact)
>>> v.describe()
'round 1, move 3 (Ann): blue moon covered with a red cup [memo-dice/cup-colour]'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from pathcheck.facts import (
    AnnounceFact as AnnounceFact,
)
from pathcheck.facts import (
    CaptainFact as CaptainFact,
)
from pathcheck.facts import (
    CoverFact as CoverFact,
)
from pathcheck.facts import (
    CoveringEndedFact as CoveringEndedFact,
)
from pathcheck.facts import (
    CupFact as CupFact,
)
from pathcheck.facts import (
    DieFact as DieFact,
)
from pathcheck.facts import (
    DungeonFact as DungeonFact,
)
from pathcheck.facts import (
    ExplorationEndFact as ExplorationEndFact,
)
from pathcheck.facts import (
    Fact as Fact,
)
from pathcheck.facts import (
    GameEndFact as GameEndFact,
)
from pathcheck.facts import (
    GuessFact as GuessFact,
)
from pathcheck.facts import (
    HandSizeFact as HandSizeFact,
)
from pathcheck.facts import (
    IllegalFact as IllegalFact,
)
from pathcheck.facts import (
    LayoutFact as LayoutFact,
)
from pathcheck.facts import (
    LostCardFact as LostCardFact,
)
from pathcheck.facts import (
    NotCheckedFact as NotCheckedFact,
)
from pathcheck.facts import (
    PeekSideFact as PeekSideFact,
)
from pathcheck.facts import (
    PositionFact as PositionFact,
)
from pathcheck.facts import (
    RoundPointsFact as RoundPointsFact,
)
from pathcheck.facts import (
    ScoreFact as ScoreFact,
)
from pathcheck.facts import (
    SeedTileFact as SeedTileFact,
)
from pathcheck.facts import (
    SoloDungeonFact as SoloDungeonFact,
)
from pathcheck.facts import (
    SoloFailureFact as SoloFailureFact,
)
from pathcheck.facts import (
    SoloTilesFact as SoloTilesFact,
)
from pathcheck.facts import (
    StartFact as StartFact,
)
from pathcheck.facts import (
    SwapFact as SwapFact,
)
from pathcheck.facts import (
    TileFact as TileFact,
)
from pathcheck.facts import (
    TreasureFact as TreasureFact,
)
from pathcheck.facts import (
    TurnFact as TurnFact,
)
from pathcheck.facts import (
    UncoverFact as UncoverFact,
)
from pathcheck.facts import (
    UnfinishedRoundFact as UnfinishedRoundFact,
)
from pathcheck.facts import (
    VoidAnnouncementFact as VoidAnnouncementFact,
)
from pathcheck.facts import (
    VolcanoFact as VolcanoFact,
)


class Outcome(enum.Enum):
    """What the ruling says of the log as a whole."""

    LEGAL = "legal"
    """Every move follows the rules."""
    ILLEGAL = "illegal"
    """At least one move breaks a rule; the first is in ``Ruling.violations[0]``."""


class Rule(msgspec.Struct, frozen=True, gc=False):
    """A rule of a rulebook: a stable id, the rulebook section and a quote of it."""

    id: str
    section: str
    quote: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "section": self.section, "quote": self.quote}


MOVE_WORDS: dict[str, tuple[str, str]] = {"game/1": ("exploration", "turn")}
"""What a log format's rulebook calls a round and a move, where it is not "round" and "move"
(dungeon in memory: explorations and turns); every line of a ruling says them so."""

GAME_TITLES = {"dungeon": "dungeon in memory", "memoarrr": "Memoarrr!", "memo-dice": "Memo Dice",
               "robot-memory": "robot memory game"}
"""The name a game is known by, for the first line of its ruling and analysis (a game not
listed, a third party's, is named as installed)."""


def words_of(fmt: str) -> tuple[str, str]:
    """The rulebook's words for a round and a move of a log format.

    >>> words_of("game/1"), words_of("memo-dice/1")
    (('exploration', 'turn'), ('round', 'move'))
    """
    return MOVE_WORDS.get(fmt, ("round", "move"))


class MoveRef(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The move a ruling points at.

    ``index`` is the 1-based number of the move within its round (or exploration), ``round``
    the 1-based round, ``pointer`` the JSON pointer of the move in the log. Named arguments
    only: the fields are in the order of the JSON ruling (round first), not of a sentence.
    """

    round: int | None = None
    index: int | None = None
    player: str | None = None
    pointer: str = ""

    def describe(self, round_word: str = "round", move_word: str = "move",
                 whole: str = "log") -> str:
        """Where the move is, in the given words for a round and a move (a game's replay
        page uses the rulebook's), ``whole`` when it is no round or move."""
        parts = []
        if self.round is not None:
            parts.append(f"{round_word} {self.round}")
        if self.index is not None:
            parts.append(f"{move_word} {self.index}")
        text = ", ".join(parts) or whole
        if self.player is not None:
            text += f" ({self.player})"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "index": self.index,
            "player": self.player,
            "pointer": self.pointer,
        }


class Violation(msgspec.Struct, frozen=True, gc=False):
    """A move that breaks a rule."""

    rule: Rule
    move: MoveRef
    message: str
    fact: Fact
    """What ``message`` states, as fields: every violation has one, so that tools never
    parse the message."""
    unfinished: bool = False
    """The log stops before the rule could be met (an unfinished round, exploration or game,
    a hand not yet typed): a log still being recorded is not wrong there. Not in JSON: the
    message says it."""

    def describe(self, round_word: str = "round", move_word: str = "move") -> str:
        return f"{self.move.describe(round_word, move_word)}: {self.message} [{self.rule.id}]"

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule.to_dict(), "move": self.move.to_dict(),
                "message": self.message, "fact": msgspec.json.decode(_encoder.encode(self.fact))}


class Event(msgspec.Struct, frozen=True, gc=False):
    """Something that happened and matters to the ruling (a score, a player going out...).

    ``rule`` names the rule that decided it, where one did. ``points`` is a dict (the JSON
    encoder writes the event as it stands). ``fact``: what ``text`` states, as fields (left
    out of the JSON when the event has none).
    """

    text: str
    move: MoveRef | None = None
    rule: Rule | None = None
    points: Mapping[str, int] = msgspec.field(default_factory=dict)
    fact: Fact | UnsetType = UNSET

    def to_dict(self) -> dict[str, Any]:
        out = {
            "text": self.text,
            "move": None if self.move is None else self.move.to_dict(),
            "rule": None if self.rule is None else self.rule.to_dict(),
            "points": dict(self.points),
        }
        if not isinstance(self.fact, UnsetType):
            out["fact"] = msgspec.json.decode(_encoder.encode(self.fact))
        return out


class Round(msgspec.Struct, frozen=True):
    """One round (or exploration): what happened and the running score after it.

    ``display`` holds preformatted text (a grid, a map, a row of cups) shown with the round.
    ``events`` is a list or tuple of Events, ``scores`` a dict.
    """

    number: int
    title: str
    events: Sequence[Event]
    scores: Mapping[str, int]
    display: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "title": self.title,
            "events": [e.to_dict() for e in self.events],
            "scores": dict(self.scores),
            "display": self.display,
        }


class Ruling(msgspec.Struct, frozen=True):
    """The ruling on one log.

    When the log breaks a rule, ``violations`` lists what was found (the first is the one that
    matters) and the rest of the ruling says what it would be if the log is otherwise taken as
    played.
    """

    game: str
    format: str
    source: str
    players: Sequence[str]
    rounds: Sequence[Round]
    final_scores: Mapping[str, int]
    winners: Sequence[str]
    violations: Sequence[Violation] = ()
    tie_break: str = ""
    notes: Sequence[str] = ()
    display: str = ""
    line: int | None = None
    """The line of the input the log starts on (set by the stream that read it; None when
    the log came as a value), written after ``source`` as ``verify``'s results have it."""

    @property
    def outcome(self) -> Outcome:
        return Outcome.ILLEGAL if self.violations else Outcome.LEGAL

    def to_dict(self) -> dict[str, Any]:
        """The JSON ruling as plain values: exactly what :meth:`to_json` writes, read back."""
        out: dict[str, Any] = msgspec.json.decode(self.to_json())
        return out

    def to_json(self) -> bytes:
        """The JSON ruling, encoded: the rounds, events, moves and rules are written as they
        stand (their fields are in the JSON's order), with no dict made of any of them.

        >>> Ruling("g", "g/1", "log", ["Ann"], [Round(1, "Round 1", [Event("Ann starts")],
        ...        {"Ann": 0})], {"Ann": 0}, ["Ann"]).to_json()[:72]
        b'{"game":"g","format":"g/1","source":"log","line":null,"outcome":"legal",'
        """
        return _encoder.encode(RulingDocument(
            self.game, self.format, self.source, self.line,
            "illegal" if self.violations else "legal",
            self.players, self.rounds, self.final_scores, self.winners, self.tie_break,
            [ViolationDocument(v.rule, v.move, v.message, v.fact) for v in self.violations],
            self.notes, self.display))


class ViolationDocument(msgspec.Struct, frozen=True, gc=False):
    """A violation as the JSON ruling writes it."""

    rule: Rule
    move: MoveRef
    message: str
    fact: Fact


class RulingDocument(msgspec.Struct, frozen=True):
    """The JSON ruling, field for field: :meth:`Ruling.to_json` encodes one, and
    :func:`ruling_schema` is generated from it."""

    game: str
    format: str
    source: str
    line: int | None
    outcome: Literal["legal", "illegal"]
    players: Sequence[str]
    rounds: Sequence[Round]
    final_scores: Mapping[str, int]
    winners: Sequence[str]
    tie_break: str
    violations: Sequence[ViolationDocument]
    notes: Sequence[str]
    display: str


RULING_SCHEMA = "ruling"
"""The name of the rulings' schema (``pathcheck schema ruling``)."""


def ruling_schema() -> dict[str, Any]:
    """The JSON Schema of a JSON ruling (``adjudicate --format json``), generated from
    :class:`RulingDocument` and the structs it holds (events, facts, moves, rules).

    >>> schema = ruling_schema()
    >>> schema["title"], sorted(schema["$defs"]["Event"]["properties"])
    ('pathcheck ruling', ['fact', 'move', 'points', 'rule', 'text'])
    """
    schema: dict[str, Any] = msgspec.json.schema(RulingDocument)
    ref = schema.pop("$ref").rsplit("/", 1)[-1]
    body = schema["$defs"].pop(ref)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **body,
            "title": "pathcheck ruling",
            "description": "The ruling on one game log, as `pathcheck adjudicate` writes it in "
                           "JSON. Each event's optional `fact` states what its text says, and "
                           "each violation's `fact` what its message says, as fields (its "
                           "`kind` tells which).",
            "$defs": schema["$defs"]}


_encoder = msgspec.json.Encoder()


def _opening(quote: str, words: int = 6) -> str:
    """The first words of a quote, to tell it from others of its section (a short quote
    whole).

    >>> _opening("If you choose to name two or three features but make an error")
    'If you choose to name two ...'
    >>> _opening("1 point for guessing one feature of the card")
    '1 point for guessing one feature of the card'
    """
    parts = quote.split()
    return quote if len(parts) <= 12 else " ".join(parts[:words]) + " ..."


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _score_line(scores: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {points}" for name, points in scores.items())


def render_text(ruling: Ruling) -> str:
    """The ruling as a table would read it.

    Names and other text from the log may hold control or bidi characters: each line is
    escaped (see :mod:`pathcheck.safe`), so no name can forge a line or drive the
    terminal; the grids and maps keep their own line breaks.
    """
    from pathcheck.safe import keep_lines, one_line

    lines = [f"{ruling.source}: {GAME_TITLES.get(ruling.game, ruling.game)} ({ruling.format}), "
             "players: " + ", ".join(ruling.players)]
    words = words_of(ruling.format)
    shown: set[int] = set()  # indexes of preformatted displays, escaped line by line

    unsafe = [name for name in ruling.players if one_line(name) != name]

    def show(display: str) -> None:
        for name in unsafe:  # a grid shows names too: there a newline in one is escaped
            display = display.replace(name, one_line(name))
        shown.add(len(lines))
        lines.append(keep_lines(display))

    for rnd in ruling.rounds:
        lines.append("")
        lines.append(f"{rnd.title}")
        if rnd.display:
            show(_indent(rnd.display))
        # Each rule is quoted once a round, then named; where one section holds several rules
        # quoted in the round, the reference says which by the first words of its quote.
        quoted: dict[str, set[str]] = {}  # section -> ids of its rules quoted this round
        for event in rnd.events:
            where = f"{event.move.describe(*words)}: " if event.move is not None else ""
            lines.append(f"  - {where}{event.text}")
            if event.rule is None:
                continue
            section = quoted.setdefault(event.rule.section, set())
            if event.rule.id not in section:
                section.add(event.rule.id)
                lines.append(f"      ({event.rule.section}: \"{event.rule.quote}\")")
            elif len(section) == 1:
                lines.append(f"      ({event.rule.section}, quoted above)")
            else:
                lines.append(f"      ({event.rule.section}: \"{_opening(event.rule.quote)}\", "
                             "quoted above)")
        lines.append(f"  score: {_score_line(rnd.scores)}")
    if ruling.display:
        lines.append("")
        show(ruling.display)
    lines.append("")
    lines.append(f"Final: {_score_line(ruling.final_scores)}")
    if ruling.violations:  # an illegal log has no winner: who is ahead as played
        lines.append("Ahead as played (not a result): "
                     + (" and ".join(ruling.winners) or "none"))
    elif ruling.winners:
        verb = "win (shared)" if len(ruling.winners) > 1 else "wins"
        line = f"Winner: {' and '.join(ruling.winners)} {verb}"
        if ruling.tie_break:
            line += f" ({ruling.tie_break})"
        lines.append(line)
    else:
        lines.append("Winner: none")
    for note in ruling.notes:
        lines.append(f"Note: {note}")
    if ruling.violations:
        first = ruling.violations[0]
        lines.append("")
        lines.append(f"ILLEGAL: {first.describe(*words)}")
        lines.append(f"  rule ({first.rule.section}): \"{first.rule.quote}\"")
        if first.move.pointer:
            lines.append(f"  at {first.move.pointer}")
        for other in ruling.violations[1:]:
            lines.append(f"  also: {other.describe(*words)}")
        lines.append("  The scores above take the log as played.")
    else:
        lines.append("Verdict: legal")
    return "\n".join(line if index in shown else one_line(line)
                     for index, line in enumerate(lines))
