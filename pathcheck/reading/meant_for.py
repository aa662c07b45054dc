"""Which command reads an input that another command was given, in the same words everywhere.

Dungeon records (``dungeon/1`` JSON, ``.dgn`` compact notation) are for ``verify``; game logs
(``game/1``, ``memoarrr/1`` ..., JSON or ``.pcn`` game notation) for ``adjudicate``,
``analyse`` and ``convert``. A command given the other kind says so in one line and names the
command that reads it (docs/cli.md, Batch work).

>>> misdirected("game.pcn", "verify")[-31:]
"'pathcheck adjudicate game.pcn'"
>>> misdirected("game.pcn", "convert") is None, misdirected("d.dgn", "convert")[:26]
(True, 'dungeon records in compact')
>>> format_advice("dungeon/1", "d.json")
"a dungeon record, not a game log: verify it with 'pathcheck verify d.json'"
"""

from __future__ import annotations

import re
from pathlib import Path

DUNGEON_FORMAT = "dungeon/1"
"""The ``format`` of a dungeon record (``verify``'s input; defined here, the lowest reader
that names it, and re-exported by :mod:`pathcheck.inputs.record_values`)."""
SOLO_FORMAT = "solo/1"

GAME_LOG_COMMANDS = frozenset({"adjudicate", "analyse", "convert"})
RECORD_COMMANDS = frozenset({"verify"})

MEANT_FOR = {
    ".pcn": (GAME_LOG_COMMANDS, "a game log in game notation, not dungeon records: rule on it "
                                "with 'pathcheck adjudicate {path}'"),
    ".dgn": (RECORD_COMMANDS, "dungeon records in compact notation, not a game log: verify "
                              "them with 'pathcheck verify {path}'"),
}
"""File suffixes whose files only some commands read, and what another command says of them."""


def misdirected(path: str, command: str) -> str | None:
    """What ``command`` says of a file made for other commands (by its suffix), or of a file
    that is no input of pathcheck at all (:func:`not_an_input`), or None."""
    owners, message = MEANT_FOR.get(Path(path).suffix.lower(), (frozenset({command}), ""))
    if command not in owners:
        return message.format(path=path)
    return not_an_input(path, command)


WANTED = {"verify": "a dungeon file", "solo check": "a solo record",
          "adjudicate": "a game log", "analyse": "a game log", "convert": "a game log"}
"""What each command reads, as its one-line refusal of anything else names it."""

OTHER_SUFFIXES = {
    ".md": "a Markdown document", ".markdown": "a Markdown document", ".rst": "a text document",
    ".html": "an HTML page", ".htm": "an HTML page", ".svg": "an SVG picture",
    ".png": "a PNG picture", ".jpg": "a JPEG picture", ".jpeg": "a JPEG picture",
    ".gif": "a GIF picture", ".pdf": "a PDF document", ".csv": "a CSV table",
    ".graphml": "a GraphML graph", ".py": "a Python file", ".toml": "a TOML file",
    ".zip": "a ZIP archive", ".gz": "a gzip archive",
}
"""Suffixes of files that are no input of pathcheck (``.txt`` is: compact notation)."""

SIGNATURES = {b"\x89PNG": "a PNG picture", b"\xff\xd8\xff": "a JPEG picture",
              b"GIF8": "a GIF picture", b"%PDF": "a PDF document", b"PK\x03\x04": "a ZIP archive",
              b"\x1f\x8b": "a gzip archive"}
"""The first bytes of binary files, whatever their name."""

OWN_OUTPUT = {(True, True): "rulings written by 'pathcheck adjudicate --format json'",
              (True, False): "an analysis written by 'pathcheck analyse --format json'",
              (False, True): "results written by 'pathcheck solo check --format json'",
              (False, False): "results written by 'pathcheck verify --format json'"}
"""What wrote pathcheck's own JSON output, by (whether its entries start with ``"game"``,
whether they hold ``"outcome"`` / ``"match"``). Every entry pathcheck writes starts with
``"source"`` (after ``"game"`` and ``"format"`` in rulings and analyses), which no record
or game log has."""

_OWN_START = re.compile(rb'\A\s*\[?\s*\{\s*("game"\s*:\s*"[^"]*"\s*,\s*"format"\s*:\s*"[^"]*"\s*,'
                        rb'\s*)?"source"\s*:')
HEAD_BYTES = 4096


def not_an_input(path: str, command: str) -> str | None:
    """What ``command`` says of a regular file that is no input of pathcheck at all, by its
    suffix or its first bytes (a picture, a document, pathcheck's own output), in one line
    instead of an error for each of its lines; None for anything else (stdin, a FIFO, a file
    that cannot be read: the reader words those; other binary data: the reader stops at its
    first NUL byte, after the records before it).

    >>> not_an_input("README.md", "verify")
    'this is not a dungeon file: it is a Markdown document'
    """
    what = OTHER_SUFFIXES.get(Path(path).suffix.lower())
    head = b"" if what is not None else _head(path)
    if what is None:
        what = next((kind for sig, kind in SIGNATURES.items() if head.startswith(sig)), None)
    if what is None and _OWN_START.match(head):
        game = re.match(rb'\s*\[?\s*\{\s*"game"', head) is not None
        written = OWN_OUTPUT[game, (b'"outcome"' if game else b'"match"') in head]
        return (f"this is pathcheck's own output ({written}), not {WANTED[command]}: give "
                "the file it was made from")
    if what is None:
        return None
    return f"this is not {WANTED[command]}: it is {what}"


def _head(path: str) -> bytes:
    """The first bytes of a regular file (nothing of stdin, a FIFO, a device, a folder)."""
    import os
    import stat

    if path == "-":
        return b""
    try:  # not even opened unless regular: opening a FIFO would wake a writer waiting on it
        if not stat.S_ISREG(os.stat(path).st_mode):
            return b""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        return os.read(fd, HEAD_BYTES) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def records_advice(source: str) -> str:
    """What a game-log command says of dungeon records in compact notation (a ``#! dungeon/1``
    line where game notation was read) in ``source`` (a file, or ``<stdin>``): ``verify``
    reads them from any file but a ``.pcn`` one (a game log by its name), renamed first.

    >>> records_advice("d.pcn")[-64:]
    "rename it to d.dgn and verify them with 'pathcheck verify d.dgn'"
    >>> records_advice("<stdin>")[-37:]
    "verify them with 'pathcheck verify -'"
    """
    path = Path(source)
    message = MEANT_FOR[".dgn"][1]
    if source == "<stdin>":
        return message.format(path="-")
    if path.suffix.lower() != ".pcn":
        return message.format(path=source)
    renamed = path.with_suffix(".dgn")
    return message.replace("verify them", f"rename it to {renamed} and verify them").format(
        path=renamed)


def format_advice(fmt: object, path: str | None = None) -> str | None:
    """What a game-log command says of a log whose ``format`` is that of dungeon records
    (``path``: the file, to name in the command to run; ``<stdin>`` is ``-``), or None for
    any other format."""
    if fmt != DUNGEON_FORMAT:
        return None
    path = "-" if path == "<stdin>" else path
    command = "pathcheck verify" if path is None else f"pathcheck verify {path}"
    return f"a dungeon record, not a game log: verify it with '{command}'"
