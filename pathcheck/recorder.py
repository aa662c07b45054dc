"""The engine of ``pathcheck record``: a game log kept as notation, one move line at a time.

A :class:`Recording` holds the notation text of a game being played (its header of settings
and the move lines so far). Each new line is tried first (:meth:`Recording.check`): it must
read as notation, and adjudicating the log with it is compared with adjudicating the log
without it, so that the keeper hears at once which rules the move breaks. Lines are added,
undone and saved (atomically) here; the prompts live in ``pathcheck.cli.record``.

>>> rec = Recording.new("memo-dice", {"players": "Ann Bob"})
>>> rec.check("round").error is None
True
>>> rec.add("round")
>>> check = rec.check("Ann 3 cat/blue blue")
>>> check.error, check.new_violations
(None, ())
>>> rec.add("Ann 3 cat/blue blue")
>>> bad = rec.check("Ann 4 sun/red red")  # Bob's turn
>>> [v.rule.id for v in bad.new_violations]
['memo-dice/turn-order']
>>> rec.where()
'round 1, move 2'
>>> rec.undo()
'Ann 3 cat/blue blue'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pathcheck import notation
from pathcheck.errors import InputError, RecordError
from pathcheck.ruling import Ruling, Violation

GAMES = {"dungeon": "game/1", "solo": "solo/1", "memoarrr": "memoarrr/1",
         "memo-dice": "memo-dice/1", "robot-memory": "robot-memory/1"}


@dataclass(frozen=True)
class Setting:
    """One header setting the recorder asks for: its key, the question, the usual answers."""

    key: str
    question: str
    choices: tuple[str, ...] = ()
    default: str = ""


SETTINGS: Mapping[str, tuple[Setting, ...]] = {
    "game/1": (
        Setting("players", "Players, clockwise (names separated by spaces)"),
        Setting("mode", "Mode", ("basic", "advanced"), "basic"),
        Setting("rules", "Additional rules (e.g. 1 2, or none)", ("none", "1", "2", "3", "4"),
                "none"),
    ),
    "solo/1": (
        Setting("rules", "Additional rules (e.g. 2 3, or none)", ("none", "2", "3", "4"),
                "none"),
    ),
    "memoarrr/1": (
        Setting("edition", "Edition", ("2023", "2018"), "2023"),
        Setting("variants", "Variants", ("expert=no ordered_stack=no",
                                         "expert=yes ordered_stack=no",
                                         "expert=no ordered_stack=yes",
                                         "expert=yes ordered_stack=yes"),
                "expert=no ordered_stack=no"),
        Setting("players", "Players in seat order (names separated by spaces)"),
        Setting("start", "Who starts round 1"),
        Setting("peeks", "The side each player peeked at (e.g. Ann north Ben south)",
                ("north", "east", "south", "west")),
        Setting("treasures", "The treasure stack, top first (e.g. 1 3 2 1 2 2 4)"),
    ),
    "memo-dice/1": (
        Setting("players", "Players, clockwise (names separated by spaces)"),
    ),
    "robot-memory/1": (
        Setting("variant", "Variant", ("standard", "solo", "team", "5+", "custom"),
                "standard"),
        Setting("players", "Players, clockwise (names separated by spaces; for team play, "
                           "leave empty and edit team1:/team2: in the file)"),
    ),
}
"""The settings asked for at the start of a recording, per log format."""

EXAMPLES: Mapping[str, tuple[tuple[str, str], ...]] = {
    "game/1": (
        ("exploration Ann", "opens an exploration: its start player"),
        ("Ann R1@N · Bob R2@E !Ann", "turns: PLAYER TILE@DIR; !NAME a LOST card laid on it"),
    ),
    "solo/1": (
        ("START@N R1@N R2@E R3@S I4@W R4@W R5@N R6@E", "a dungeon a line, bottom first: TILE@DIR"),
        ("I1@N I2@N", "the next dungeon (or write | between dungeons on one line)"),
    ),
    "memoarrr/1": (
        ("round dark light", "opens a round: its volcanoes, top first (players - 1)"),
        ("Ann D2 walrus/jungle · Bob D4 walrus/flowers",
         "turns: PLAYER POS ANIMAL/LANDSCAPE (or PLAYER volcano)"),
    ),
    "memo-dice/1": (
        ("round", "opens a round"),
        ("Ann 2 bell/red red · Bob 7 lemon/red red", "covering: PLAYER DIE SYMBOL/COLOUR CUP"),
        ("Ann 1 bell", "uncovering: PLAYER CUP SYMBOL-NAMED"),
    ),
    "robot-memory/1": (
        ("round 2x2 first Ann", "opens a round: its grid and the first active player"),
        ("row bulb/red/3 short-circuit", "the grid, a row a line: type/colour/number or"),
        ("row gear/blue/1 tool/yellow/2", "  short-circuit (- no card)"),
        ("Bob Ann r1c1 bulb/red =3", "a turn: CHOOSER GUESSER rRcC GUESS [=POINTS]"),
    ),
}
"""A complete example of each kind of move line, per log format, for the recorder's help
(written for the players Ann, Bob and Cy; the tests type each one)."""


INCOMPLETE = frozenset({"explorations", "turns", "hands", "deck", "rounds", "actions",
                        "covering", "uncovering", "cards", "dungeons"})
"""**Decision**: while a game is being recorded, a violation saying that the last round (or
exploration) or the game is unfinished, or that a hand of the deal being typed is missing (the
replays mark these ``Violation.unfinished``), is about where the log stops, not about the move
just made: it is not reported then. The same violation about an earlier round is reported
(when the next round starts), and the final ruling reports everything."""


def _stops(violation: Violation, log: Mapping[str, Any]) -> bool:
    if not violation.unfinished:
        return False
    key = next((k for k in ("explorations", "dungeons") if k in log), "rounds")
    last = f"/{key}/{len(log.get(key, ())) - 1}"
    pointer = violation.move.pointer
    return pointer == f"/{key}" or pointer == last or pointer.startswith(last + "/")


@dataclass(frozen=True)
class Check:
    """What trying a line gave: a notation error, or the log and the rules it newly breaks."""

    error: str | None
    new_violations: tuple[Violation, ...] = ()
    log: Mapping[str, Any] | None = None
    malformed: str | None = None
    """The log with the line reads as notation but cannot be ruled on (e.g. unknown player)."""


def _stops_here(exc: RecordError) -> bool:
    """Whether a log is malformed only because it stops here (an empty list the schema
    wants filled: a game with no exploration yet, a round with no covering yet)."""
    last = exc.pointer.rsplit("/", 1)[-1]
    return last in INCOMPLETE and any(words in exc.message for words in (
        "non-empty", "too short", "of length >=", "rows of cards for a grid"))


class Recording:
    """A game being recorded: the notation header and move lines, and their rulings."""

    def __init__(self, header: str, lines: Sequence[str], source: str = "<recording>") -> None:
        self.header = header if header.endswith("\n") else header + "\n"
        self.lines = list(lines)
        self.source = source
        self._cache: dict[str, tuple[Mapping[str, Any], Ruling]] = {}

    # --- making one ----------------------------------------------------------------------

    @classmethod
    def new(cls, game: str, settings: Mapping[str, str], source: str = "<recording>"
            ) -> Recording:
        """A recording of ``game`` (a game name or log format) with these header settings."""
        fmt = GAMES.get(game, notation.ALIASES.get(game, game))
        if fmt not in notation.formats():
            raise InputError(f"no notation for game {game!r} (games: {', '.join(GAMES)})")
        head = [f"#! {fmt}"] + [f"{k}: {v}" for k, v in settings.items() if v.strip()]
        return cls("\n".join(head), [], source)

    @classmethod
    def load(cls, text: str, source: str) -> Recording:
        """A recording read back from its notation text (``--resume``); NotationError if bad.

        Everything up to the first move line is the header; each later non-blank line is a
        move line (comments stay with their line).
        """
        notation.parse(text, source=source)  # it must read
        reader = notation.Reader(text, source)
        first = reader.lines[0].number if reader.lines else None
        raw = text.splitlines()
        if first is None:
            return cls(text, [], source)
        header = "\n".join(raw[:first - 1])
        lines = [x for x in raw[first - 1:] if x.strip()]
        return cls(header, lines, source)

    # --- reading it ----------------------------------------------------------------------

    @property
    def format(self) -> str:
        return self.header.split("\n", 1)[0][2:].strip()

    def text(self, lines: Sequence[str] | None = None) -> str:
        """The notation text (of the lines so far, or of ``lines``)."""
        body = self.lines if lines is None else lines
        return self.header + "".join(x + "\n" for x in body)

    def log(self) -> Mapping[str, Any]:
        """The JSON log of the lines so far (NotationError if they do not read)."""
        return notation.parse(self.text(), source=self.source)

    def ruling(self, at: str | None = None) -> Ruling:
        """The ruling on the log so far (``at``: with the picture of ``ROUND.TURN``)."""
        if at is not None:
            from pathcheck import games

            log = self.log()
            return games.for_format(str(log["format"])).adjudicate(
                log, source=self.source, options=games.AdjudicateOptions(at=at))
        return self._rule(self.text())[1]

    def _rule(self, text: str, log: Mapping[str, Any] | None = None
              ) -> tuple[Mapping[str, Any], Ruling]:
        """The log and the ruling of ``text`` (``log``: ``text`` already parsed)."""
        if text not in self._cache:
            from pathcheck import games

            if log is None:
                log = notation.parse(text, source=self.source)
            ruling = games.for_format(str(log["format"])).adjudicate(
                log, source=self.source, options=games.AdjudicateOptions())
            if len(self._cache) > 4:  # the lines change by one: keep only the latest few
                self._cache.clear()
            self._cache[text] = (log, ruling)
        return self._cache[text]

    def check(self, line: str) -> Check:
        """Try ``line`` as the next move line: a notation error, or the rules it breaks.

        A log that cannot be ruled on only because it stops here (a round with no move yet)
        is fine; one that cannot be ruled on at all (an unknown player) is ``malformed``.
        """
        try:
            before = {self._key(v) for v in self._rule(self.text())[1].violations}
        except RecordError:
            before = set()
        text = self.text([*self.lines, line])
        try:
            log = notation.parse(text, source=self.source)
        except RecordError as exc:
            message = str(exc)
            if isinstance(exc, notation.NotationError) and exc.line == text.count("\n"):
                message = f"column {exc.column}: {exc.message}"
            return Check(message)
        try:
            ruling = self._rule(text, log)[1]  # (a whole log is not parsed twice a move)
        except RecordError as exc:
            if _stops_here(exc):
                return Check(None, (), log)
            return Check(None, (), log, malformed=str(exc))
        except InputError as exc:
            return Check(None, (), log, malformed=str(exc))
        new = tuple(v for v in ruling.violations
                    if self._key(v) not in before and not _stops(v, log))
        return Check(None, new, log)

    @staticmethod
    def _key(violation: Violation) -> tuple[str, str, str]:
        return violation.rule.id, violation.move.pointer, violation.message

    # --- changing it ---------------------------------------------------------------------

    def add(self, line: str) -> None:
        self.lines.append(line)

    def undo(self) -> str | None:
        """Take back the last move line; returns it (None when there is none)."""
        return self.lines.pop() if self.lines else None

    def save(self, path: str) -> None:
        """Write the notation atomically (a temporary file, then os.replace)."""
        from pathcheck.output import write_atomic

        write_atomic(path, self.text())

    # --- where the game stands -------------------------------------------------------------

    def counts(self) -> tuple[int, int]:
        """The current round (exploration) and the moves recorded in it."""
        try:
            log = self.log()
        except RecordError:
            return 0, 0
        fmt = log.get("format")
        if fmt == "solo/1":
            dungeons = log.get("dungeons", [])
            return len(dungeons), len(dungeons[-1]) if dungeons else 0
        if fmt == "game/1":
            rounds = log.get("explorations", [])
            return len(rounds), len(rounds[-1]["turns"]) if rounds else 0
        rounds = log.get("rounds", [])
        if not rounds:
            return 0, 0
        last = rounds[-1]
        if fmt == "memoarrr/1":
            return len(rounds), len(last["actions"])
        if fmt == "memo-dice/1":
            return len(rounds), len(last["covering"]) + len(last["uncovering"])
        return len(rounds), len(last["turns"])

    def where(self) -> str:
        """Where the next move goes, for the prompt: ``exploration 2, turn 4``."""
        number, moves = self.counts()
        noun = {"game/1": "exploration", "solo/1": "dungeon"}.get(self.format, "round")
        if number == 0:
            return f"before {noun} 1"
        return f"{noun} {number}, {'turn' if noun == 'exploration' else 'move'} {moves + 1}"

    def picture(self) -> str:
        """The game as it stands now (the adjudicator's ``--at`` picture when it has one)."""
        number, moves = self.counts()
        if number == 0:
            return "nothing recorded yet"
        try:
            ruling = self.ruling(at=f"{number}.{moves}")
        except (InputError, RecordError):
            ruling = self.ruling()
        if ruling.display:
            return ruling.display
        rnd = ruling.rounds[-1] if ruling.rounds else None
        return (rnd.display or rnd.title) if rnd is not None else "nothing to show"

    # --- completion ----------------------------------------------------------------------

    def words(self) -> list[str]:
        """The words that may come next in a move line: names, keywords, tiles, positions."""
        try:
            log = dict(self.log())
        except RecordError:
            return []
        fmt = log.get("format")
        names = [str(p) for p in log.get("players", ())]
        names += [str(t.get("name")) for t in log.get("teams", ()) if isinstance(t, dict)]
        names += [str(m) for t in log.get("teams", ()) if isinstance(t, dict)
                  for m in t.get("members", ())]
        if fmt in ("game/1", "solo/1"):
            return names + _dungeon_words(log, names, self.source)
        if fmt == "memoarrr/1":
            cards = [f"{a}/{land}" for a in ("penguin", "octopus", "crab", "walrus", "turtle")
                     for land in ("water", "flowers", "lava", "jungle", "desert")]
            positions = [f"{c}{r}" for r in "12345" for c in "ABCDE" if f"{c}{r}" != "C3"]
            abilities = [f"{k}={p}" for k in ("swap", "mark", "peek") for p in positions]
            return [*names, "round", "volcano", "dark", "light", "1", "3", "7", *positions,
                    *cards, *abilities]
        if fmt == "memo-dice/1":
            symbols = {str(f["symbol"]) for die in log.get("dice", ()) for f in die}
            for rnd in log.get("rounds", ()):
                symbols.update(str(r["symbol"]) for r in rnd["covering"])
            faces = [f"{s}/{c}" for s in sorted(symbols) for c in ("red", "blue", "black")]
            return names + ["round", "red", "blue", "black", "golden", "-"] + \
                [str(i) for i in range(1, 10)] + sorted(symbols) + faces
        rounds = log.get("rounds", ())
        grid = rounds[-1]["grid"] if rounds else {"rows": 4, "columns": 4}
        positions = [f"r{r}c{c}" for r in range(1, int(grid["rows"]) + 1)
                     for c in range(1, int(grid["columns"]) + 1)]
        from pathcheck.games.robot_memory.notation import COLOURS, TYPES

        cards = [f"{t}/{c}/{n}" for t in TYPES for c in COLOURS for n in "1234"]
        return names + ["round", "row", "first", "captains", "+", "short-circuit", "-"] + \
            positions + list(TYPES) + list(COLOURS) + cards + [f"={n}" for n in range(7)]


def _dungeon_words(log: dict[str, Any], names: list[str], source: str) -> list[str]:
    from pathcheck.errors import TileSetError
    from pathcheck.games.dungeon.log import log_tileset

    try:  # the ruling's own rule: a built-in set or a file in the log's folder
        tileset = log_tileset(log.get("tileset"), source)
    except TileSetError:  # a bad tile set is reported by the ruling, not by completion
        return []
    if log.get("format") == "solo/1":
        tiles = tileset.ids_for(advanced=True)
        placed = {p["tile"] for dungeon in log.get("dungeons", ()) for p in dungeon}
        return ["|"] + [f"{t}@{d}" for t in tiles if t not in placed for d in "NESW"]
    tiles = tileset.deck_ids(bool(log.get("advanced", False)))
    explorations = log.get("explorations", ())
    placed = {t["tile"] for t in explorations[-1]["turns"]} if explorations else set()
    free = [t for t in tiles if t not in placed]
    return (["exploration", "hand", "deck"] + [f"{t}@{d}" for t in free for d in "NESW"]
            + [f"!{n}" for n in names] + [f"+{t}" for t in free] + ["+-"] + tiles)
