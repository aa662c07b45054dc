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

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pathcheck import notation
from pathcheck.errors import InputError, RecordError
from pathcheck.reading.text import split_lines
from pathcheck.recorder.checking import (
    Check,
    for_the_table,
    rounds_key,
    stops_here,
    stops_with_log,
)
from pathcheck.recorder.settings import SETTINGS, Setting
from pathcheck.recorder.standing import (
    REFEREE_HEADER,
    counts,
    public_picture,
    referee_picture,
)
from pathcheck.recorder.words import EXAMPLES, at_this_table, tile_ids
from pathcheck.ruling import Ruling, Violation

__all__ = ["EXAMPLES", "GAMES", "SETTINGS", "Check", "Recording", "Setting", "at_this_table",
           "for_the_table"]

WAITING = "# waiting (pasted, not checked yet): "
"""How a line pasted but not checked yet is saved, at the end of the log."""

KEYWORDS = {"game/1": ("exploration", "hand", "hands", "deck"), "solo/1": (),
            "memoarrr/1": ("round", "volcano", "dark", "light"), "memo-dice/1": ("round",),
            "robot-memory/1": ("round", "row", "first", "captains", "is", "short-circuit")}
"""The words of each format's move lines that a typo of is pointed out ("did you mean")."""

GAMES = {"dungeon": "game/1", "solo": "solo/1", "memoarrr": "memoarrr/1",
         "memo-dice": "memo-dice/1", "robot-memory": "robot-memory/1"}


class Recording:
    """A game being recorded: the notation header and move lines, and their rulings."""

    def __init__(self, header: str, lines: Sequence[str], source: str = "<recording>") -> None:
        self.header = header if header.endswith("\n") else header + "\n"
        self.lines = list(lines)
        self.source = source
        self._cache: dict[str, tuple[Mapping[str, Any], Ruling]] = {}
        self.waiting: list[str] = []
        """Lines pasted after the one being checked, not checked yet: saved as comments at
        the log's end (a kill -9 loses none; ``--resume`` checks them then)."""
        self._undo: list[tuple[list[str], str]] = []
        """The move lines before each line typed, and the line (``:undo`` goes back)."""

    # --- making one ----------------------------------------------------------------------

    @staticmethod
    def format_of(game: str) -> str:
        """The log format of ``game`` (a game name or a format)."""
        return GAMES.get(game, notation.ALIASES.get(game, game))

    @classmethod
    def new(cls, game: str, settings: Mapping[str, str], source: str = "<recording>"
            ) -> Recording:
        """A recording of ``game`` (a game name or log format) with these header settings."""
        fmt = cls.format_of(game)
        if fmt not in notation.formats():
            raise InputError(f"no notation for game {game!r} (games: {', '.join(GAMES)})")
        head = [f"#! {fmt}"] + [f"{k}: {v}" for k, v in settings.items() if v.strip()]
        return cls("\n".join(head), [], source)

    @classmethod
    def load(cls, text: str, source: str) -> Recording:
        """A recording read back from its notation text (``--resume``); NotationError if bad.

        Everything up to the first move line is the header; each later non-blank line is a
        move line (comments stay with their line). A file of several logs (as ``adjudicate``
        reads it: each from its ``#!`` line) is refused as such.
        """
        raw_lines = split_lines(text)
        starts = [n for n, x in enumerate(raw_lines, 1) if x.lstrip().startswith("#!")]
        if len(starts) > 1:  # as adjudicate reads the file: each '#!' line starts a log
            raise notation.NotationError(
                source, starts[1], 1, f"the file holds {len(starts)} logs (a second starts "
                "here): --resume goes on with one log; give each its own file")
        waiting: list[str] = []
        while raw_lines and (raw_lines[-1].startswith(WAITING) or not raw_lines[-1].strip()):
            if raw_lines[-1].strip():
                waiting.insert(0, raw_lines[-1].removeprefix(WAITING).strip())
            raw_lines.pop()
        if waiting:
            text = "".join(x + "\n" for x in raw_lines)
        recording = cls._load(text, source)
        recording.waiting = waiting
        return recording

    @classmethod
    def _load(cls, text: str, source: str) -> Recording:
        notation.parse(text, source=source)  # it must read
        first = next((line.number for line in notation.Reader(text, source).lines), None)
        raw = split_lines(text)
        if first is None:
            return cls(text, [], source)
        header = "\n".join(raw[:first - 1])
        lines = [x for x in raw[first - 1:] if x.strip()]
        return cls(header, lines, source)

    # --- reading it ----------------------------------------------------------------------

    @property
    def format(self) -> str:
        """The format the ``#!`` line names (comments may stand above it)."""
        line = next((x for x in self.header.split("\n") if x.lstrip().startswith("#!")), "#!")
        words = line.lstrip()[2:].split()
        return notation.ALIASES.get(words[0], words[0]) if words else ""

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

    def joins(self, line: str) -> bool:
        """Whether ``line`` goes on the current solo dungeon (a solo game is typed one tile
        a line; the tile after a dungeon got Lost starts the next one, as the solo rules
        say, and a line starting with ``|`` starts one at once)."""
        if self.format != "solo/1" or not self.lines or line.lstrip().startswith("|"):
            return False
        from pathcheck.tracer.dungeon import LOST_RULES

        try:
            ruling = self._rule(self.text())[1]
        except (RecordError, InputError):
            return True
        lost = {rule.id for rule in LOST_RULES.values()}
        last = ruling.rounds[-1] if ruling.rounds else None
        return last is None or not any(e.rule is not None and e.rule.id in lost
                                       for e in last.events)

    def unsaid_together(self, line: str) -> list[list[str]]:
        """Dungeon rule #1: per turn of ``line``, the players who announced Lost on it when
        two or more did and the line does not say whether at the same moment (``!=``) or one
        after the other (``!>``); an empty list for the other turns."""
        if self.format != "game/1":
            return []
        try:
            before = self.log()
            after = notation.parse(self.text([*self.lines, line]), source=self.source)
        except RecordError:
            return []
        if 1 not in after.get("rules", ()) or not after.get("explorations"):
            return []
        done = len(before["explorations"][-1]["turns"]) if before.get("explorations") and \
            len(before["explorations"]) == len(after["explorations"]) else 0
        return [list(t.get("lost", ())) if len(t.get("lost", ())) > 1
                and "simultaneous" not in t else []
                for t in after["explorations"][-1]["turns"][done:]]

    @staticmethod
    def say_together(line: str, together: Sequence[bool | None]) -> str:
        """``line`` with ``!=`` (True) or ``!>`` (False) at the end of each of its turns
        (None: nothing), before the turn's trailing note or comment."""
        code, hash_, comment = line.partition("#")
        parts = re.split(r"(\s*(?:·|;|(?<=\s)\.(?=\s))\s*)", code.rstrip())
        turns = parts[0::2]
        for k, mark in enumerate(together):
            if mark is None or k >= len(turns):
                continue
            body, note = re.match(r"(.*?)(\s*(?:\{[^}]*\})?\s*)$", turns[k]).groups()  # type: ignore[union-attr]
            turns[k] = f"{body} {'!=' if mark else '!>'}{note}"
        parts[0::2] = turns
        return "".join(parts) + (f"  #{comment}" if hash_ else "")

    def placed(self, line: str) -> list[str]:
        """The move lines with ``line`` added (joined to the last one: :meth:`joins`)."""
        if self.joins(line):
            # the tiles go before the comments (a rule kept as played), which stay at the end
            code, _, said = self.lines[-1].partition("#")
            more, _, also = line.partition("#")
            notes = "; ".join(n.strip() for n in (said, also) if n.strip())
            joined = f"{code.rstrip()} {more.strip()}" + (f"  # {notes}" if notes else "")
            return [*self.lines[:-1], joined]
        return [*self.lines, line.lstrip().removeprefix("|").strip()
                if self.format == "solo/1" else line]

    def check(self, line: str) -> Check:
        """Try ``line`` as the next move line: a notation error, or the rules it breaks.

        A log that cannot be ruled on only because it stops here (a round with no move yet)
        is fine; one that cannot be ruled on at all (an unknown player) is ``malformed``.
        """
        if "\n" in line or "\r" in line:  # a pasted block is checked a line at a time
            return Check("one move line at a time (a pasted block is split into its lines)")
        before: set[tuple[str, str, str]] = set()
        open_ended: list[Violation] = []
        for back in range(len(self.lines) + 1):
            # the ruling before this line: of the last lines that can be ruled on (a round
            # just opened cannot); what was open-ended then was reported when it was closed
            try:
                old_log, old = self._rule(self.text(self.lines[:len(self.lines) - back]))
            except RecordError:
                continue
            before = {self._key(v) for v in old.violations
                      if back or not stops_with_log(v, old_log)}
            # what only said "the last round stops here" before this line
            open_ended = [] if back else [v for v in old.violations if stops_with_log(v, old_log)]
            break
        text = self.text(self.placed(line))
        try:
            log = notation.parse(text, source=self.source)
        except RecordError as exc:
            message = str(exc)
            if isinstance(exc, notation.NotationError) and exc.line == text.count("\n"):
                message = f"column {exc.column}: {exc.message}"
            return Check(message + self.did_you_mean(line))
        try:
            ruling = self._rule(text, log)[1]  # (a whole log is not parsed twice a move)
        except RecordError as exc:
            if stops_here(exc, log):
                # the line opens a round (an exploration) with nothing in it yet: it closes
                # the round before, which is now ruled on as it stands
                key = rounds_key(log)
                closes = len(log.get(key, ())) > len(self._log_or_empty().get(key, ()))
                new = tuple(v for v in open_ended
                            if closes and v.move.pointer != f"/{key}")
                return Check(None, new, log)
            return Check(None, (), log, malformed=str(exc) + self.did_you_mean(line))
        except InputError as exc:
            return Check(None, (), log, malformed=str(exc) + self.did_you_mean(line))
        new = tuple(v for v in ruling.violations
                    if self._key(v) not in before and not stops_with_log(v, log))
        return Check(None, new, log, culprit=self._culprit(text, new))

    def in_settings(self, check: Check) -> bool:
        """Whether the line of ``check`` cannot be ruled on because of a setting of the
        header (its JSON pointer names no round), not because of the line."""
        match = re.search(r"(?:^|: )/([A-Za-z_]+)(?=[/:]|$)", check.malformed or "")
        return match is not None and match.group(1) not in (
            "explorations", "dungeons", "rounds")

    def did_you_mean(self, line: str) -> str:
        """`` (did you mean 'exploration'?)`` for a word of ``line`` that is close to, but
        not, a keyword of the game or a name at the table ('' when there is none)."""
        import difflib

        known = [*KEYWORDS.get(self.format, ()), *self.players()]
        for raw in line.partition("#")[0].split():
            word = raw.lstrip("!+").strip('"')
            if word in known or not word.isalpha():
                continue
            close = difflib.get_close_matches(word, known, n=1, cutoff=0.75)
            if close:
                return f" (did you mean {notation.word(close[0])!r} for {word!r}?)"
        return ""

    def _culprit(self, text: str, new: Sequence[Violation]) -> int | None:
        """The earliest move line before the new one that ``new`` points at, if any."""
        if not new:
            return None
        _, where = notation.parse_lines(text, source=self.source)
        first_move = self.header.count("\n") + 1
        lines = [notation.line_of(where, v.move.pointer, 0) - first_move for v in new]
        earliest = min(lines)
        last = text.count("\n") - first_move
        return earliest if 0 <= earliest < last and all(x < last for x in lines) else None

    def back_to(self, index: int) -> list[str]:
        """Take back move line ``index`` and every line after it; returns them."""
        taken = self.lines[index:]
        self.lines = self.lines[:index]
        self._undo = [entry for entry in self._undo if len(entry[0]) < index]
        return taken

    def _log_or_empty(self) -> Mapping[str, Any]:
        try:
            return self.log()
        except RecordError:
            return {}

    @staticmethod
    def _key(violation: Violation) -> tuple[str, str, str]:
        return violation.rule.id, violation.move.pointer, violation.message

    # --- changing it ---------------------------------------------------------------------

    def add(self, line: str, kept: Sequence[str] = ()) -> None:
        """Add ``line``; ``kept``: the rules it breaks, kept as played (a comment names them,
        so that whoever reads the log sees it was not a typing slip)."""
        if kept:
            line += f"{'  #' if '#' not in line else ';'} kept as played: {', '.join(kept)}"
        self._undo.append((list(self.lines), line))
        self.lines = self.placed(line)

    def canonical(self, line: str) -> str:
        """``line`` with tile ids as the tile set writes them (``r1@n`` is ``R1@N``, ``hand Ann
        i3`` is ``hand Ann I3``)."""
        if self.format not in ("game/1", "solo/1"):
            return line
        ids = tile_ids(self._log_or_empty(), self.source)

        def fix(match: re.Match[str]) -> str:
            lead, tile, at = match.group(1), match.group(2), match.group(3)
            if not at and lead != "+":  # a name or keyword, not a tile
                return match.group(0)
            return lead + ids.get(tile.lower(), tile) + at.upper()

        deal = _DEAL.match(line)
        if deal is not None:  # hand NAME TILE... / deck TILE...: every word after is a tile
            code, hash_, comment = deal.group(2).partition("#")
            tiles = re.sub(r"[^\s]+", lambda m: ids.get(m.group(0).lower(), m.group(0)), code)
            return deal.group(1) + tiles + hash_ + comment
        return _TILE_TOKEN.sub(fix, line)

    @staticmethod
    def rename(text: str, names: Mapping[str, str]) -> str:
        """``text`` (a move line, a setting) with each name of ``names`` (old -> new) replaced
        where it stands as a word (``!Ann``, ``+Ann`` too), all at once (a swap works).

        >>> Recording.rename("Ann R1@N !Bob · Bob R2@E", {"Ann": "Bob", "Bob": "Ann"})
        'Bob R1@N !Ann · Ann R2@E'
        """
        words = {notation.word(old): notation.word(new) for old, new in names.items()
                 if old != new}
        if not words:
            return text
        code, hash_, comment = text.partition("#")
        pattern = re.compile(r"(?<![^\s!+])(" + "|".join(
            re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?!\S)")
        return pattern.sub(lambda m: words[m.group(1)], code) + hash_ + comment

    def settings(self) -> dict[str, str]:
        """The header's settings, key -> value as written."""
        out: dict[str, str] = {}
        for raw in split_lines(self.header):
            key, colon, value = raw.partition(":")
            if colon and not raw.startswith("#"):
                out[key.strip()] = value.strip()
        return out

    def header_with(self, answers: Mapping[str, str], keys: Sequence[str]) -> str:
        """The header with the settings ``keys`` replaced by ``answers`` in place (new ones at
        its end, others kept)."""
        head: list[str] = []
        for raw in split_lines(self.header):
            key = raw.partition(":")[0].strip()
            if key in keys and not raw.startswith("#"):
                value = answers.get(key, "")
                if value.strip():
                    head.append(f"{key}: {value}")
            else:
                head.append(raw)
        written = {raw.partition(":")[0].strip() for raw in head}
        head += [f"{k}: {v}" for k, v in answers.items()
                 if k in keys and k not in written and v.strip()]
        return "\n".join(head) + "\n"

    def trouble(self) -> str | None:
        """Why the log so far cannot be ruled on (None: it can, or it only stops here)."""
        try:
            self._rule(self.text())
        except RecordError as exc:
            return None if stops_here(exc, self._log_or_empty()) else str(exc)
        except InputError as exc:
            return str(exc)
        return None

    def round_winners(self) -> list[str]:
        """Memoarrr!: the winner of each round played, in order (each took a treasure)."""
        from pathcheck.games.memoarrr.log import read_log
        from pathcheck.games.memoarrr.state import Replay

        replay = Replay(read_log(self.log(), source=self.source))
        replay.run()
        return list(replay.state.round_winners)

    def players(self) -> list[str]:
        """The names at this table (players, teams and their members)."""
        log = self._log_or_empty()
        names = [str(p) for p in log.get("players", ())]
        for team in log.get("teams", ()):
            names += [str(team.get("name")), *map(str, team.get("members", ()))]
        return names

    def next(self) -> Any:
        from pathcheck.recorder.up_next import next_move

        return next_move(self._log_or_empty() or {"format": self.format})

    def prompt(self) -> str:
        """The move prompt: whose turn it is and what to type, or that the game is over."""
        if self.format == "solo/1":
            log = self._log_or_empty()
            tiles = set(tile_ids(log, self.source).values())
            placed = {p.get("tile") for d in log.get("dungeons", ()) for p in d
                      if isinstance(p, dict)}
            if tiles and tiles <= placed:  # the stack is used up
                return f"all {len(tiles)} tiles are placed: the game is over - :done " \
                    "finishes and prints the ruling >"
            return f"{self.where()}: TILE@DIR (one a line; | starts a new dungeon) >"
        return self.next().prompt()  # type: ignore[no-any-return]

    def undo(self) -> str | None:
        """Take back the last line typed; returns it (None when there is none)."""
        if self._undo:
            self.lines, line = self._undo.pop()
            return line
        return self.lines.pop() if self.lines else None

    def save(self, path: str) -> None:
        """Write the notation atomically (a temporary file, then os.replace)."""
        from pathcheck.output import write_atomic

        write_atomic(path, self.text() + "".join(f"{WAITING}{x}\n" for x in self.waiting))

    # --- where the game stands -------------------------------------------------------------

    def counts(self) -> tuple[int, int]:
        """The current round (exploration) and the moves recorded in it."""
        try:
            return counts(self.log())
        except RecordError:
            return 0, 0

    def where(self) -> str:
        """Where the next move goes, for the prompt: ``exploration 2, turn 4``."""
        number, moves = self.counts()
        if self.format == "solo/1":
            if number == 0 or not self.joins("next"):
                return f"dungeon {number + 1}, tile 1"
            return f"dungeon {number}, tile {moves + 1}"
        noun = {"game/1": "exploration"}.get(self.format, "round")
        if number == 0:
            return f"before {noun} 1"
        return f"{noun} {number}, {'turn' if noun == 'exploration' else 'move'} {moves + 1}"

    def picture(self, referee: bool = False) -> str:
        """What everyone at the table can see now: whose turn, the scores, the last move
        line. ``referee``: the adjudicator's ``--at`` picture, face-down cards and covered
        symbols included, said so in its first line."""
        if self.counts()[0] == 0:
            return "nothing recorded yet"
        if not referee:
            return public_picture(self.where(), self.next())
        number, moves = self.counts()
        try:
            ruling = self.ruling(at=f"{number}.{moves}")
        except (InputError, RecordError):
            ruling = self.ruling()
        return REFEREE_HEADER + "\n" + referee_picture(ruling, self.next())

    # --- completion ----------------------------------------------------------------------

    def words(self, player: str | None = None) -> list[str]:
        """The words that may come next in a move line: names, keywords, tiles, positions
        (``player``: the one whose turn the line is)."""
        from pathcheck.recorder.words import words

        try:
            return words(dict(self.log()), self.source, player)
        except RecordError:
            return []


_DEAL = re.compile(r'(\s*(?:hand\s+(?:"(?:[^"\\]|\\.)*"|\S+)|deck)\s+)(.*)$', re.DOTALL)
"""A deal line: its keyword (and the hand's player), then its tiles."""
_TILE_TOKEN = re.compile(r"(^|\s|(?<=\s)\+|^\+)([A-Za-z][A-Za-z0-9]*)(@[NESWnesw]|(?=$|\s))")
