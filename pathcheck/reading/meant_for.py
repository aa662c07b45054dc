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
    """What ``command`` says of a file made for other commands (by its suffix), or None."""
    owners, message = MEANT_FOR.get(Path(path).suffix.lower(), (frozenset({command}), ""))
    return None if command in owners else message.format(path=path)


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
