""".dgn compact notation (docs/formats.md): one dungeon or solo record a line, ``#!`` lines
setting defaults for the lines after them. Each line's tokens are turned into the JSON record
they stand for, so both notations share one validation (:mod:`pathcheck.inputs.record_values`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pathcheck.errors import RecordError
from pathcheck.inputs.record_values import (
    DUNGEON_FORMAT,
    NO_OVERRIDES,
    SOLO_FORMAT,
    Overrides,
    Record,
    parse_dungeon_record,
    parse_solo_record,
)
from pathcheck.reading.bounded import MAX_TOKENS, Oversized, brief
from pathcheck.reading.reader import BOM, folder_of, source_name
from pathcheck.reading.text import Line, TextError, ascii_number, decode, lone_carriage_return


def parse_dgn_line(
    text: str,
    *,
    source: str,
    line: int,
    overrides: Overrides = NO_OVERRIDES,
    defaults: Mapping[str, Any] | None = None,
    base: Path | None = None,
) -> Record | None:
    """Parse one line of ``.dgn`` compact notation (None for a blank or comment line).

    Tokens are turned into the JSON record they stand for, so both notations share one
    validation; pointers then name the token's position (``/tiles/3``). A ``#! tileset=``
    path is found beside the file, in ``base`` (as a JSON record's).
    """
    body = text.split("#", 1)[0].split(maxsplit=MAX_TOKENS)
    if not body:
        return None
    if len(body) > MAX_TOKENS:
        raise RecordError(source, line, "", f"more than the limit of {MAX_TOKENS} tokens on a "
                                            "line")
    dungeons: list[list[dict[str, str]]] = [[]]
    lost: list[dict[str, Any]] = []
    count = 0
    for position, token in enumerate(body, start=1):
        if token == "|":
            dungeons.append([])
            continue
        if token.startswith("!"):
            if count == 0 or not token[1:]:
                raise RecordError(source, line, "", f"token {position} {brief(token)}: a LOST card "
                                                    "!NAME must follow a tile")
            lost.append({"player": token[1:], "after": count})
            continue
        tile, sep, direction = token.rpartition("@")
        if not sep or not tile:
            raise RecordError(source, line, "", f"token {position} {brief(token)}: expected "
                                                "ID@DIR, !NAME or |")
        dungeons[-1].append({"tile": tile, "dir": direction})
        count += 1
    settings = dict(defaults or {})
    if len(dungeons) > 1:
        if lost:
            raise RecordError(source, line, "", "a solo line (with |) cannot carry LOST cards")
        value: dict[str, Any] = {"format": SOLO_FORMAT, "dungeons": dungeons}
        if "rules" in settings:
            value["rules"] = sorted(set(settings["rules"]) - {1})
        return parse_solo_record(value, source=source, line=line, overrides=overrides,
                                 base=base)
    record: dict[str, Any] = {"format": DUNGEON_FORMAT, "tiles": dungeons[0], **settings}
    if lost:
        record["lost"] = lost
    return parse_dungeon_record(record, source=source, line=line, overrides=overrides,
                                base=base)


def parse_pragma(text: str, source: str, line: int) -> dict[str, Any]:
    """``#! rules=2,3 advanced players=Ann,Bob``: defaults for the following .dgn lines
    (``dungeon/1``, the format of every .dgn line, may stand among them and sets nothing)."""
    settings: dict[str, Any] = {}
    for word in text[2:].split():
        key, _, val = word.partition("=")
        if key == "advanced":
            settings["advanced"] = val.lower() not in ("false", "0", "no")
        elif key == "basic":
            settings["advanced"] = False
        elif key == "rules":
            rules = [ascii_number(r) for r in val.split(",") if r]
            if None in rules:
                raise RecordError(source, line, "", f"pragma {brief(word)}: expected rules=N,N")
            settings["rules"] = rules
        elif key == "players":
            settings["players"] = [p for p in val.split(",") if p]
        elif key == "tileset":
            settings["tileset"] = val
        elif word == DUNGEON_FORMAT:  # what the lines are: a format line, as notation has
            continue
        elif word in _game_formats():  # `#! game/1`: the first line of a game notation log
            raise RecordError(source, line, "", f"{brief(word)} starts a game log in game "
                                                "notation, not dungeon records: "
                                                + _rule_it(source))
        else:
            raise RecordError(source, line, "", f"unknown pragma {brief(word)} (expected advanced, "
                                                "basic, rules=, players=, tileset=, dungeon/1)")
    return settings


def _game_formats() -> tuple[str, ...]:
    """The formats of game logs in notation (``#! game/1`` ...): only these words on a ``#!``
    line are a game log's first line; any other (``dungeon/2``) is an unknown pragma."""
    from pathcheck.notation import formats

    return formats()


def _rule_it(source: str) -> str:
    """How to rule on a game log in notation found where dungeon records were expected:
    ``adjudicate`` reads any file by its first line but a ``.dgn`` one (dungeon records by its
    name), so that one is renamed first."""
    path = Path(source)
    if path.suffix.lower() != ".dgn":
        return "rule on it with 'pathcheck adjudicate'"
    renamed = path.with_suffix(".pcn")
    return f"rename it to {renamed} and rule on it with 'pathcheck adjudicate {renamed}'"


def dgn_blank(raw: bytes) -> bool:
    """Whether a raw ``.dgn`` line holds no token (blank, a comment, only whitespace).

    >>> dgn_blank(b"  # a comment"), dgn_blank("\u3000\x1c".encode()), dgn_blank(b"START@N")
    (True, True, False)
    """
    if lone_carriage_return(raw) >= 0:
        return False  # dgn_text says why
    body = raw.split(b"#", 1)[0]
    return not body.strip() or not body.decode("utf-8", errors="replace").split()


def dgn_text(raw: bytes, source: str, line: int) -> str:
    r"""The text of a raw ``.dgn`` line (:mod:`pathcheck.reading.text`: strict UTF-8, errors with
    their column). A ``.dgn`` line ends at ``\n`` or ``\r\n``: a lone ``\r`` inside one is an
    error, since what follows it would be read as part of this line (or of its comment)
    where an editor shows a line of its own."""
    cr = lone_carriage_return(raw)
    if cr >= 0:
        raise TextError(source, line, len(raw[:cr].decode("utf-8", errors="replace")) + 1,
                        "a carriage return (\\r) inside the line: a .dgn line ends at \\n or "
                        "\\r\\n")
    return decode(Line(line, raw), source)


def pragma_settings(raw: bytes, source: str, line: int) -> dict[str, Any]:
    """The settings of a raw ``#!`` line (:func:`dgn_text`)."""
    return parse_pragma(dgn_text(raw, source, line).strip(), source, line)


def pragma_line(raw: bytes) -> bytes | None:
    """The ``#!`` line ``raw`` holds, without the spaces or byte order mark before it (None:
    it holds none).

    >>> pragma_line(b"  #! rules=2"), pragma_line(b"START@N # #!")
    (b'#! rules=2', None)
    """
    head = raw.lstrip(b" \t").removeprefix(BOM)
    return head if head.startswith(b"#!") else None


NOT_RULED = "not ruled: the #! line before it could not be read, so its settings are unknown"
"""The error of a record line after a wrong ``#!`` line (until the next good one): a dropped
setting (``rules=2``) could change the ruling, so the line is not ruled without it."""


def dgn_lines(
    lines: Iterable[bytes | Oversized], source: str, start: int = 1
) -> Iterator[tuple[int, bytes, dict[str, Any]] | RecordError]:
    """The record lines of ``.dgn`` text with their numbers and the ``#!`` settings in force;
    blank and comment lines are skipped, a bad ``#!`` line is a RecordError, and so is every
    record line after it up to the next good one (:data:`NOT_RULED`)."""
    defaults: dict[str, Any] = {}
    broken = False  # the last #! line could not be read
    for number, raw in enumerate(lines, start):
        if isinstance(raw, Oversized):
            broken = broken or pragma_line(raw.head) is not None
            yield RecordError(source, number, "", raw.message())
            continue
        pragma = pragma_line(raw)
        if pragma is not None:
            try:
                defaults, broken = pragma_settings(pragma, source, number), False
            except RecordError as exc:
                broken = True
                yield exc
            continue
        if not dgn_blank(raw):
            if broken:
                yield RecordError(source, number, "", NOT_RULED)
            else:
                yield number, raw, defaults


def parse_dgn_bytes(raw: bytes, *, source: str, line: int, overrides: Overrides,
                    defaults: Mapping[str, Any]) -> Record | None:
    """:func:`parse_dgn_line` for a raw line of the file ``source`` names, which must be
    UTF-8 (a tile set it names is found beside that file)."""
    text = dgn_text(raw, source, line)
    base = None if source == source_name("-") else folder_of(source)
    return parse_dgn_line(text, source=source, line=line, overrides=overrides,
                          defaults=defaults, base=base)


def dgn_records(lines: Iterable[bytes | Oversized], source: str, overrides: Overrides
                 ) -> Iterator[Record | RecordError]:
    for entry in dgn_lines(lines, source):
        if isinstance(entry, RecordError):
            yield entry
            continue
        number, raw, defaults = entry
        try:
            record = parse_dgn_bytes(raw, source=source, line=number, overrides=overrides,
                                     defaults=defaults)
        except RecordError as exc:
            yield exc
            continue
        if record is not None:
            yield record
