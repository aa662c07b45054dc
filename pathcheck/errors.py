"""The errors pathcheck reports to a user, and the exit codes the CLI gives them.

Every error a user can cause derives from :class:`PathcheckError`; the CLI turns it into one
line on stderr and its :attr:`~PathcheckError.exit_code`. Errors about input also derive from
:class:`ValueError` and name the offending token and where it stands:

>>> err = RecordError("game.json", 4, "/turns/3/tile", "unknown tile 'Q9'")
>>> str(err)
"game.json:4: /turns/3/tile: unknown tile 'Q9'"
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Exit codes of the ``pathcheck`` command (documented in docs/cli.md)."""

    OK = 0
    """Every record was valid (verify), every log legal (adjudicate)."""
    VIOLATION = 1
    """A game log breaks a rule, or a solo record fails its check."""
    USAGE = 2
    """The command line itself is wrong (click's own code)."""
    INVALID_INPUT = 3
    """At least one record, log, tile set or seed code could not be read."""
    IO_ERROR = 4
    """A file could not be read or written."""
    INTERNAL = 70
    """A bug in pathcheck; reported without a traceback unless PATHCHECK_DEBUG is set."""


class PathcheckError(Exception):
    """Root of every error pathcheck reports to a user."""

    exit_code: ExitCode = ExitCode.INTERNAL


class InputError(PathcheckError, ValueError):
    """Input that pathcheck cannot accept (bad option value, bad seed code, ...)."""

    exit_code = ExitCode.INVALID_INPUT


class RecordError(InputError):
    """A record or log that is malformed, named by file, line and JSON pointer.

    ``line`` is the 1-based line of a JSON Lines or ``.dgn`` file (or the first line of a
    JSON document); ``pointer`` is an RFC 6901 JSON pointer ("" is the whole record).
    """

    def __init__(self, source: str, line: int | None, pointer: str, message: str) -> None:
        self.source = source
        self.line = line
        self.pointer = pointer
        self.message = message
        super().__init__(str(self))

    def __reduce__(self) -> tuple[type[RecordError], tuple[str, int | None, str, str]]:
        # Picklable, so that an error found while reading goes to a worker process (-j N).
        return type(self), (self.source, self.line, self.pointer, self.message)

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.detail}"

    @property
    def detail(self) -> str:
        """The error without its place in the input: ``pointer: message``."""
        return f"{self.pointer or '/'}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "line": self.line,
            "pointer": self.pointer,
            "message": self.message,
        }


class TileSetError(InputError):
    """A tile-set file that cannot be used."""


class IOFailure(PathcheckError):
    """A file that cannot be read or written."""

    exit_code = ExitCode.IO_ERROR


class PluginError(PathcheckError):
    """An adjudicator plug-in that cannot be loaded."""

    exit_code = ExitCode.INVALID_INPUT


def pointer_join(base: str, *parts: str | int) -> str:
    """Extend a JSON pointer, escaping ``~`` and ``/`` as RFC 6901 requires.

    >>> pointer_join("/turns", 3, "a/b")
    '/turns/3/a~1b'
    """
    out = base
    for part in parts:
        if type(part) is int:  # most parts are indices: nothing to escape
            out += f"/{part}"
        else:
            out += "/" + str(part).replace("~", "~0").replace("/", "~1")
    return out


def json_value(value: object) -> str:
    """A JSON value as an error message names it: its JSON type, and the value if short.

    >>> [json_value(v) for v in (True, None, 2.0, 5, "Q9", [1, 2], {"a": 1})]
    ['a boolean (true)', 'null', 'a number 2.0', 'a number 5', "'Q9'", 'an array', 'an object']
    >>> json_value("x" * 100)
    "a string of 100 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...')"
    """
    if isinstance(value, bool):
        return f"a boolean ({'true' if value else 'false'})"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        text = repr(value)
        return f"a number {text if len(text) <= 30 else text[:30] + '...'}"
    if isinstance(value, str):
        if len(value) <= 40:
            return repr(value)
        return f"a string of {len(value)} characters ({value[:30]!r}...)".replace("'...)",
                                                                                 "...')")
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


FOLDER_GIVEN = "it is a folder: name the files in it (e.g. {name}/*)"
"""How every command refuses a folder given where a file is read, saying how to pass its files
(a shell expands ``{name}/*`` to them)."""


def cannot_read(name: str, exc: OSError) -> IOFailure:
    """The one-line failure (exit 4) of reading ``name``, worded alike in every command; a
    folder says how to give the files in it.

    >>> str(cannot_read("logs", IsADirectoryError(21, "Is a directory")))
    'logs: cannot read: it is a folder: name the files in it (e.g. logs/*)'
    >>> str(cannot_read("x.json", FileNotFoundError(2, "No such file or directory")))
    'x.json: cannot read: No such file or directory'
    """
    if isinstance(exc, IsADirectoryError):
        return IOFailure(f"{name}: cannot read: " + FOLDER_GIVEN.format(name=name.rstrip("/")))
    return IOFailure(f"{name}: cannot read: {exc.strerror or exc}")
