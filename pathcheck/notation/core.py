"""The game notation: every game log as a line-based text a person can write by hand.

A notation file (``*.pcn``) starts with a ``#!`` line naming its format, then a header of
``key: value`` settings, then the moves in the order played. Each game defines its own keys
and move tokens (``pathcheck/games/<game>/notation.py``); this module holds what they share:

- ``#`` starts a comment (to the end of the line); ``{...}`` is a note kept in the log;
  ``"..."`` quotes a name with spaces (JSON string syntax); ``$`` and a JSON value is exactly
  that value (how values are written: :mod:`pathcheck.notation.values`).
- Turns on one line are separated by ``·``, ``;`` or a lone ``.``; a line break ends a turn.

>>> text = '''#! memo-dice/1
... players: Ann Bob
... round
... Ann 3 cat/blue red · Bob 5 sun/red blue
... Ann 1 cat; Bob 2 -
... '''
>>> log = parse(text, source="demo.pcn")
>>> log["rounds"][0]["uncovering"][1]
{'player': 'Bob', 'cup': 2, 'guess': None}
>>> print(write(log), end="")
#! memo-dice/1
players: Ann Bob
round
Ann 3 cat/blue red · Bob 5 sun/red blue
Ann 1 cat · Bob 2 -
>>> parse("#! memo-dice/1\\nplayers: Ann\\nround\\nAnn x cat/red red", source="bad.pcn")
Traceback (most recent call last):
...
pathcheck.notation.core.NotationError: bad.pcn:4:5: 'x': expected a die number
"""

from __future__ import annotations

import collections
import functools
import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from pathcheck.notation.places import Places as Places
from pathcheck.notation.places import line_of as line_of
from pathcheck.notation.places import places_of
from pathcheck.notation.values import LITERAL as LITERAL
from pathcheck.notation.values import Refused
from pathcheck.notation.values import checked as checked
from pathcheck.notation.values import literal as literal
from pathcheck.notation.values import note as note
from pathcheck.notation.values import pretty_json as pretty_json
from pathcheck.notation.values import quote as quote
from pathcheck.notation.values import read_literal as read_literal
from pathcheck.notation.values import read_quoted as read_quoted
from pathcheck.notation.values import same as same
from pathcheck.notation.values import scalar as scalar
from pathcheck.notation.values import word as word
from pathcheck.reading.bounded import cut
from pathcheck.reading.meant_for import DUNGEON_FORMAT, records_advice
from pathcheck.reading.text import TextError, ascii_number, split_lines

EXTENSION = ".pcn"
SAME_TEXTS = 4096
"""How many distinct token texts a reader shares one string for (:meth:`Reader.shared`)."""
SEPARATORS = ("·", ";", ".")

# format name -> the module that reads and writes it; game names are accepted too
_MODULES = {
    "game/1": "pathcheck.games.dungeon.notation",
    "solo/1": "pathcheck.games.dungeon.notation",
    "memoarrr/1": "pathcheck.games.memoarrr.notation",
    "memo-dice/1": "pathcheck.games.memo_dice.notation",
    "robot-memory/1": "pathcheck.games.robot_memory.notation",
}
ALIASES = {"dungeon": "game/1", "game": "game/1", "solo": "solo/1", "memoarrr": "memoarrr/1",
           "memo-dice": "memo-dice/1", "robot-memory": "robot-memory/1"}


class NotationError(TextError):
    """A notation text that cannot be read: file, line, column, the token and what was expected.

    >>> str(NotationError("g.pcn", 3, 7, "R9@Q: expected a direction N, E, S or W"))
    'g.pcn:3:7: R9@Q: expected a direction N, E, S or W'
    """


class Token(NamedTuple):
    """One token: its text (unquoted), where it stands, and its kind."""

    text: str
    line: int
    column: int
    kind: str = "word"  # word, string (was quoted), note ({...}), sep, json ($ value)

    @property
    def value(self) -> Any:
        """What the token stands for: the JSON value of a ``$`` token, else its text."""
        return read_literal(self.text)[0] if self.kind == "json" else self.text


@dataclass(slots=True)
class Line:
    """One non-blank line of the body: its number, the raw text and its tokens."""

    number: int
    raw: str
    tokens: list[Token] = field(default_factory=list)


_HEADER = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):(?:\s|$)")
_PLAIN_TOKEN = re.compile(r'\s*([^\s·;"{#$][^\s·;"{#]*|[·;])')
"""A word or a separator, after any whitespace (\\s: what :meth:`str.isspace` says)."""
_SEPARATOR_TOKENS = frozenset(("·", ";", "."))
_SPECIAL = re.compile(r'["{#$]')
"""What a line of words and separators alone never holds."""
_SPACE = re.compile(r"\s*")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*+"', re.DOTALL)
"""A quoted string: one character or one escape at a time, never given back (a nested
``(...+)*`` took exponential time to fail on an unclosed quote)."""


class Reader:
    """One notation log read as it is parsed: its format and header, then its body lines.

    ``text`` is the whole text, or its lines already split (:mod:`pathcheck.reading.text`) with
    their numbers, as an iterable read only as far as asked: the format line and the header
    are read at once, the body a line at a time as :attr:`lines` is iterated (lexed lines
    are not kept, so reading a long log holds one line's tokens, not the whole log's).
    Errors come from :meth:`fail`, which names the file, line and column.
    """

    def __init__(self, text: str | Iterable[tuple[int, str]], source: str,
                 first_line: int = 1) -> None:
        self.source = source
        self.first_line = first_line
        self.format = ""
        self.header: dict[str, tuple[str, Line]] = {}
        """key -> its value as written, and its line (tokens read only when asked: a free-text
        value such as a ``note:`` is taken as written, a lone ``"`` or ``{`` included)."""
        self._value_at: dict[str, int] = {}
        self._texts: dict[str, str] = {}
        self.spots: dict[int, int] = {}
        """id() of a dict or list of the log -> the line it was written on (see :func:`lines`)."""
        numbered = enumerate(split_lines(text), first_line) if isinstance(text, str) else text
        self._rest = iter(numbered)
        self._ahead: collections.deque[Line] = collections.deque()
        self._lex_failed = False
        self._read_head()

    def at(self, value: Any, token: Token | Line) -> Any:
        """Note that ``value`` (a dict or list of the log) comes from ``token``'s line."""
        self.spots[id(value)] = token.line if isinstance(token, Token) else token.number
        return value

    def fail(self, where: Token | Line | None, message: str) -> NotationError:
        if isinstance(where, Token):
            return NotationError(self.source, where.line, where.column,
                                 f"{cut(where.text)}: {message}")
        line = where.number if where is not None else 1
        return NotationError(self.source, line, 1, message)

    def shared(self, text: str) -> str:
        """One string object for each text a log repeats (a tile, a name): a long log's
        values then share them. At most SAME_TEXTS are kept (a log of all different words
        does not grow the table without bound)."""
        kept = self._texts.get(text)
        if kept is not None:
            return kept
        if len(self._texts) < SAME_TEXTS:
            self._texts[text] = text
        return text

    @property
    def lines(self) -> Iterator[Line]:
        """The body's lines that hold a token, lexed one at a time as they are asked for:
        one pass (a line handed out is not kept)."""
        while True:
            line = self._ahead.popleft() if self._ahead else self._next_line()
            if line is None:
                return
            yield line

    def peek(self, count: int) -> list[Line]:
        """The next ``count`` body lines (fewer at the end), still to come from :attr:`lines`."""
        while len(self._ahead) < count:
            line = self._next_line()
            if line is None:
                break
            self._ahead.append(line)
        return list(self._ahead)[:count]

    def finish(self) -> None:
        """Lex the body lines not read yet, for their first error: a text is checked as if
        it were lexed whole before it is parsed, so a line that does not lex is the error
        even where the parser stopped at an earlier line (see :func:`parse_lines`)."""
        self._ahead.clear()
        while not self._lex_failed and self._next_line() is not None:
            pass

    def _next_line(self) -> Line | None:
        for number, raw in self._rest:
            try:
                tokens = self._tokens(raw, number, 0)
            except NotationError:
                self._lex_failed = True
                raise
            if tokens:
                return Line(number, raw, tokens)
        return None

    def _read_head(self) -> None:
        """The format line and the header, up to the first body line (kept for :attr:`lines`)."""
        for number, raw in self._rest:
            stripped = raw.strip()
            if not self.format:
                if not stripped or (stripped.startswith("#") and not stripped.startswith("#!")):
                    continue
                if not stripped.startswith("#!"):
                    raise NotationError(self.source, number, 1,
                                        "expected the format line first, e.g. '#! game/1'")
                name = stripped[2:].strip().split()[0] if stripped[2:].strip() else ""
                self.format = ALIASES.get(name, name)
                if self.format == DUNGEON_FORMAT:  # compact notation's optional first line
                    raise NotationError(self.source, number, 4,
                                        f"{cut(name)}: {records_advice(self.source)}")
                if self.format not in _MODULES:
                    raise NotationError(self.source, number, 4, f"{cut(name)}: expected a "
                                        f"format, one of {', '.join(_MODULES)}")
                continue
            match = _HEADER.match(stripped)
            if match:
                key = match.group(1)
                if key in self.header:
                    raise NotationError(self.source, number, 1, f"{key}: given twice")
                self.header[key] = (stripped[match.end():].strip(), Line(number, raw))
                self._value_at[key] = match.end() + raw.index(stripped)
                continue
            tokens = self._tokens(raw, number, 0)
            if tokens:
                self._ahead.append(Line(number, raw, tokens))
                return
        if not self.format:
            raise NotationError(self.source, self.first_line, 1,
                                "empty: expected the format line, e.g. '#! game/1'")

    def _tokens(self, raw: str, number: int, start: int) -> list[Token]:
        same = self.shared  # one string for each token text (a long log repeats them)
        if _SPECIAL.search(raw, start) is None:  # the usual line: words and separators only
            known = self._texts.get
            return [Token(known(found[1]) or same(found[1]), number, found.start(1) + 1,
                          "sep" if found[1] in _SEPARATOR_TOKENS else "word")
                    for found in _PLAIN_TOKEN.finditer(raw, start)]
        out: list[Token] = []
        i = start
        n = len(raw)
        while True:
            plain = _PLAIN_TOKEN.match(raw, i)
            if plain is not None:  # the usual token: a word or a separator
                text = plain.group(1)
                kind = "sep" if text in _SEPARATOR_TOKENS else "word"
                out.append(Token(same(text), number, plain.start(1) + 1, kind))
                i = plain.end()
                continue
            i = _SPACE.match(raw, i).end()  # type: ignore[union-attr]  # \s* always matches
            if i >= n or raw[i] == "#":
                return out
            if raw[i] == '"':
                j = self._string_end(raw, i, number)
                out.append(Token(self._decode(raw[i:j + 1], number, i), number, i + 1, "string"))
                i = j + 1
            elif raw[i] == LITERAL:
                j = self._literal_end(raw, i, number)
                out.append(Token(raw[i + 1:j], number, i + 1, "json"))
                i = j
            elif raw.startswith('{"', i):
                j = self._string_end(raw, i + 1, number)
                if not raw.startswith("}", j + 1):
                    raise NotationError(self.source, number, i + 1, "unclosed note '{'")
                out.append(Token(self._decode(raw[i + 1:j + 1], number, i), number, i + 1,
                                 "note"))
                i = j + 2
            else:  # a {note}
                j = raw.find("}", i)
                if j < 0:
                    raise NotationError(self.source, number, i + 1, "unclosed note '{'")
                out.append(Token(raw[i + 1:j], number, i + 1, "note"))
                i = j + 1

    def _string_end(self, raw: str, i: int, number: int) -> int:
        """The index of the quote closing the JSON string that starts at ``raw[i]``."""
        match = _QUOTED.match(raw, i)
        if match is None:
            raise NotationError(self.source, number, i + 1, "unclosed quote")
        return match.end() - 1

    def _literal_end(self, raw: str, i: int, number: int) -> int:
        """The index after the JSON value of the ``$`` token at ``raw[i]``."""
        try:
            _, j = read_literal(raw, i + 1)
        except ValueError as exc:
            raise NotationError(self.source, number, i + 1,
                                f"expected a JSON value right after '$': {exc}") from None
        if j < len(raw) and not raw[j].isspace() and raw[j] not in "·;#":
            raise NotationError(self.source, number, j + 1,
                                "expected a space after the '$' value")
        return j

    def _decode(self, text: str, number: int, i: int) -> str:
        try:
            return read_quoted(text)
        except ValueError as exc:
            raise NotationError(self.source, number, i + 1, f"bad quoted text: {exc}") from None

    # --- header helpers -------------------------------------------------------------
    def text(self, key: str) -> Any:
        """A free-text header value (a JSON string when it was quoted, the JSON value of a
        ``$`` value), or None."""
        if key not in self.header:
            return None
        value, line = self.header[key]
        if value.startswith(LITERAL):  # one '$' value is that value; else text as written
            try:
                decoded, end = read_literal(value, 1)
            except Refused as exc:  # JSON past a limit is no free text: the log is invalid
                raise NotationError(self.source, line.number, self._value_at[key] + 2,
                                    f"{key}: the JSON value after '$': {exc}") from None
            except ValueError:
                end = -1
            if end == len(value):
                return decoded
        if value.startswith('"'):
            try:
                return read_quoted(value)
            except ValueError:
                return value  # not one JSON string (a lone '"'): as written
        return value

    def literal(self, key: str) -> Token | None:
        """The header value of ``key`` when it is one ``$`` value (a wrong-typed one)."""
        tokens = self.words(key)
        return tokens[0] if tokens and len(tokens) == 1 and tokens[0].kind == "json" else None

    def words(self, key: str) -> list[Token] | None:
        """The tokens of a header value, or None when the key is absent."""
        if key not in self.header:
            return None
        line = self.header[key][1]
        if not line.tokens:
            line.tokens = self._tokens(line.raw, line.number, self._value_at[key])
        return [t for t in line.tokens if t.kind != "sep"]

    def check_keys(self, known: Sequence[str]) -> None:
        for key, (_, line) in self.header.items():
            if key not in known:
                raise self.fail(line, f"unknown setting {key!r} (expected one of "
                                      f"{', '.join(known)})")


def turns(tokens: Sequence[Token]) -> Iterator[list[Token]]:
    """Split a line's tokens into turns at the separators (empty turns are skipped)."""
    current: list[Token] = []
    for token in tokens:
        if token.kind == "sep":
            if current:
                yield current
            current = []
        else:
            current.append(token)
    if current:
        yield current


def integer(reader: Reader, token: Token, low: int, high: int, what: str) -> int:
    """The number ``token`` spells (ASCII digits, see :func:`pathcheck.reading.text.number`) between
    ``low`` and ``high``; else the reader's error, expecting ``what``."""
    value = ascii_number(token.text)
    if value is None or not low <= value <= high:
        raise reader.fail(token, f"expected {what}")
    return value


def text_value(text: str) -> str:
    """A free-text header value: as is when it reads back the same, else quoted.

    >>> text_value('say "hi"'), text_value(" x"), text_value('say "hi'), text_value("$3")
    ('say "hi"', '" x"', 'say "hi', '"$3"')
    """
    if text and text == text.strip() and text.isprintable() and not text.startswith(('"', "$")):
        try:
            if Reader(f"#! game/1\nnote: {text}\n", "<written>").text("note") == text:
                return text
        except ValueError:  # it does not lex: an unclosed quote or brace, a bad '$' value
            pass
    return quote(text)


class _Module(Protocol):
    parse: Callable[[Reader], dict[str, Any]]
    write: Callable[[dict[str, Any]], str]


def _module(fmt: str) -> _Module:
    module: _Module = importlib.import_module(_MODULES[fmt])
    return module


def formats() -> tuple[str, ...]:
    """The log formats that have a notation."""
    return tuple(_MODULES)


def is_notation(text: str) -> bool:
    """Whether ``text`` is notation (its first non-blank line is a ``#!`` format line).

    >>> is_notation("#! game/1\\n"), is_notation('{"format": "game/1"}')
    (True, False)
    """
    for raw in split_lines(text):
        stripped = raw.strip()
        if stripped.startswith("#!"):
            return True
        if stripped and not stripped.startswith("#"):
            return False
    return False


def parse(text: str, *, source: str, first_line: int = 1) -> dict[str, Any]:
    """The JSON log value a notation text stands for; NotationError if it cannot be read."""
    return parse_lines(text, source=source, first_line=first_line)[0]


def parse_lines(text: str | Iterable[tuple[int, str]], *, source: str, first_line: int = 1
                ) -> tuple[dict[str, Any], Places]:
    """The JSON log and, for the JSON pointer of each turn, round and exploration, its line.

    ``text`` as :class:`Reader` takes it: lines given as an iterable are read as the log is
    built, each lexed and let go (a log's lines are never all held at once).

    >>> log, where = parse_lines("#! solo/1\\nSTART@N\\n\\nI1@N I2@N\\n", source="s")
    >>> line_of(where, "/dungeons/1", 1), line_of(where, "/dungeons/1/0/dir", 1)
    (4, 4)
    """
    reader = Reader(text, source, first_line)
    try:
        log = _whole(reader)
        if log is None:
            log = _module(reader.format).parse(reader)
    except NotationError:
        reader.finish()  # a later line that does not lex is the error, as it always was
        raise
    reader.finish()
    return log, places_of(log, reader.spots)


def _whole(reader: Reader) -> dict[str, Any] | None:
    """The log of a notation text that is one ``$`` JSON object (see :func:`write`)."""
    if reader.header:
        return None
    lines = reader.peek(2)
    if len(lines) != 1 or [t.kind for t in lines[0].tokens] != ["json"]:
        return None
    token = lines[0].tokens[0]
    value = token.value
    if not isinstance(value, dict):
        raise reader.fail(token, "expected a JSON object (the whole log)")
    fmt = value.get("format")
    if not isinstance(fmt, str) or ALIASES.get(fmt, fmt) != reader.format:
        raise reader.fail(token, f"expected a log of the format {reader.format} "
                                 "named on the '#!' line")
    return value


def fragment(text: str) -> tuple[Reader, list[Token]]:
    """A reader and the tokens of one line of notation (to read back what a writer wrote)."""
    reader = _fragment_reader()
    reader.spots.clear()
    return reader, reader._tokens(text, 1, 0)


def one_turn(text: str, build: Callable[[Reader, list[Token]], Any]) -> Any:
    """What ``build`` reads from ``text``, one turn a writer wrote (the read-back half of
    :func:`checked`); ValueError where the text is not exactly one turn."""
    reader, tokens = fragment(text)
    parts = list(turns(tokens))
    if len(parts) != 1:
        raise ValueError(text)
    return build(reader, parts[0])


@functools.cache
def _fragment_reader() -> Reader:
    return Reader("#! game/1\n", "<written>")


def write(log: dict[str, Any]) -> str:
    """The notation of a JSON log value (a dict with a ``format`` this module knows).

    Raises InputError for a format without notation.
    """
    fmt = log.get("format")
    if fmt not in _MODULES:
        from pathcheck.errors import InputError

        raise InputError(f"no notation for format {fmt!r} (known: {', '.join(_MODULES)})")
    try:
        text = _module(str(fmt)).write(log)
        if same(parse(text, source="<written>"), log):
            return text
    except (KeyError, IndexError, TypeError, AttributeError, ValueError):
        pass
    # A log whose shape the game's notation cannot carry (a missing field, an unknown one, a
    # list where a name goes) is written whole, as one '$' value: still read back exactly.
    return f"#! {fmt}\n{literal(log)}\n"
