"""``pathcheck convert LOG``: game notation to JSON log and back."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

import click

from pathcheck.errors import ExitCode, RecordError
from pathcheck.reading.bounded import brief
from pathcheck.reading.meant_for import misdirected
from pathcheck.reading.reader import Document, source_name

from .options import output_file, refuse_input_as_output

if TYPE_CHECKING:
    from pathcheck.output import AtomicWriter

TARGETS = ("notation", "json", "jsonl")
WIDTH = 100
"""The width of :func:`~pathcheck.notation.pretty_json`'s lines."""
SUFFIXES = {"notation": (".pcn",), "json": (".json",), "jsonl": (".jsonl", ".ndjson")}


def target_of(output: str | None) -> str | None:
    """What the name of the output file says to write (None: it says nothing, or stdout).

    >>> target_of("games.jsonl"), target_of("g.JSON"), target_of("g.pcn"), target_of("g.txt")
    ('jsonl', 'json', 'notation', None)
    """
    if output is None or output == "-":
        return None
    suffix = Path(output).suffix.lower()
    return next((target for target, names in SUFFIXES.items() if suffix in names), None)


@click.command(name="convert")
@click.argument("log", metavar="LOG")
@click.option("--to", "target", type=click.Choice(TARGETS), default=None,
              help="What to write: notation, json (one JSON document: the log, or an array "
                   "of several) or jsonl (JSON Lines: one log a line). Default: what the "
                   "name of -o says (.pcn, .json, .jsonl/.ndjson), else notation for JSON "
                   "logs and json for notation.")
@output_file
@click.pass_context
def command(ctx: click.Context, log: str, target: str | None, output: str | None) -> None:
    """Turn the game notation file LOG (*.pcn) into its JSON log, or a JSON log into notation.

    What is written follows --to, else the name of -o (Y.pcn notation, Y.json a JSON
    document, Y.jsonl one log a line), else LOG (its other form). A file holding several
    logs (a JSON array, JSON Lines, notation with several '#!' lines) converts into one file
    holding them all, written log by log as they are read. Any log converts exactly, a
    malformed one too. LOG is read as adjudicate reads it (strict UTF-8, one log at a time,
    16 MB a log); a log that cannot be read or converted is one line on stderr and the others
    still convert (-o is left as it was when none does). Exit code 0: converted; 2: --to
    contradicts the name of -o, or -o names LOG; 3: a log in LOG is not valid, or is a value
    that is no game log, such as a dungeon record, which 'pathcheck verify' reads (or LOG
    holds none); 4: LOG cannot be read.
    """
    from pathcheck.inputs.logs import open_logs

    refuse_input_as_output(output, [log])
    named = target_of(output)
    if target is not None and named is not None and target != named:
        raise click.UsageError(f"--to {target} but -o {output} names a {named} file; "
                               f"name it *{SUFFIXES[target][0]} or leave --to out")
    target = target or named
    mistake = misdirected(log, "convert")
    if mistake is not None:
        _invalid(ctx, f"{log}: {mistake}")
    written = errors = 0
    with open_logs(log) as logs, ExitStack() as stack:
        if target is None:
            target = "json" if logs.is_notation else "notation"
        items = _Ahead(logs.items)
        out = _Framed(target, lambda: _open_output(stack, output))
        index = -1
        while True:
            item = None  # a log converted is let go before the next is read
            item = items.take()
            if item is None:
                break
            index += 1
            try:
                if isinstance(item, RecordError):
                    raise item
                if target == "notation":
                    out.add_text(notation_of(item, log))
                else:
                    out.add_value(item.value, target == "json" and items.several(index))
            except RecordError as exc:  # this log's error: the others still convert
                _report(str(exc))
                errors += 1
                continue
            written += 1
        if written:
            out.close()
    if not written and not errors:  # as adjudicate and analyse say it
        _invalid(ctx, f"{source_name(log)}: no log in it")
    if errors:  # the other logs are converted; -o is left as it was when none is
        ctx.exit(int(ExitCode.INVALID_INPUT))


def notation_of(document: Document, log: str) -> str:
    """The game notation of one log read from the file ``log``: any log, a malformed one too
    (exactly); a RecordError naming file, line and ``/format`` when the value is no game log
    (not an object, or a format without notation: a dungeon record, none at all)."""
    from pathcheck import notation
    from pathcheck.reading.meant_for import format_advice

    value = document.value
    if not isinstance(value, dict):
        raise RecordError(document.source, document.line, document.pointer or "/",
                          "expected a JSON object (a log)")
    fmt = value.get("format")
    known = sorted(set(notation.ALIASES.values()))
    if fmt not in known:
        if "format" not in value:
            why = f'missing "format": which game the log is (one of {", ".join(known)})'
        else:
            why = (format_advice(fmt, log)
                   or f"no game notation for format {brief(fmt)} (known: {', '.join(known)})")
        raise RecordError(document.source, document.line, f"{document.pointer}/format", why)
    return notation.write(value)


def _invalid(ctx: click.Context, message: str) -> NoReturn:
    """One line on stderr for a LOG that cannot be converted, exit 3 (nothing is written)."""
    _report(message)
    ctx.exit(int(ExitCode.INVALID_INPUT))


def _report(message: str) -> None:
    from pathcheck.safe import one_line

    click.echo(one_line(f"pathcheck: invalid: {message}"), err=True)


class _Ahead:
    """The logs of a file, with a look at whether another follows (a JSON document holds
    one log alone, several in an array): two logs are held at once only then."""

    def __init__(self, items: Iterator[Document | RecordError]) -> None:
        self.items = items
        self.next: Document | RecordError | None = None
        self.ended = False

    def take(self) -> Document | RecordError | None:
        """The next log or error; None at the end."""
        item, self.next = self.next, None
        return item if item is not None or self.ended else self._read()

    def several(self, index: int) -> bool:
        """Whether the file holds more than one log (or error), ``index`` that of the one
        taken last: for the first, the next is read ahead (asked only where it matters)."""
        if index == 0 and self.next is None and not self.ended:
            self.next = self._read()
        return index > 0 or self.next is not None

    def _read(self) -> Document | RecordError | None:
        item = next(self.items, None)
        self.ended = item is None
        return item


def _open_output(stack: ExitStack, output: str | None) -> IO[bytes] | AtomicWriter:
    """Where the converted logs go, opened when the first is ready: stdout, or -o written
    atomically (left as it was when nothing converts, or on an error)."""
    from pathcheck.output import AtomicWriter

    if output is None:
        return sys.stdout.buffer
    return stack.enter_context(AtomicWriter(output))


class _Framed:
    """Converted logs written one by one as ``target`` frames them: notation one after the
    other a blank line apart, JSON Lines one a line, JSON one document (the log itself, or
    an array of them, laid out as :func:`~pathcheck.notation.pretty_json` lays out the
    whole array). The output ends with one line end."""

    def __init__(self, target: str, opener: Callable[[], IO[bytes] | AtomicWriter]) -> None:
        self.target, self.opener = target, opener
        self.out: IO[bytes] | AtomicWriter | None = None
        self.held = ""  # line ends held back: the last log's are dropped
        self.count = 0
        self.short: list[Any] = []  # JSON: the array's first items while it fits one line
        self.array = False

    def write(self, text: str) -> None:
        if self.out is None:
            self.out = self.opener()
        self.out.write(text.encode("utf-8"))

    def add_text(self, text: str) -> None:
        """One log's notation (the last one's trailing line ends are dropped)."""
        body = text.rstrip("\n")
        if self.count:
            self.held += "\n"
        if body:
            self.write(self.held + body)
            self.held = ""
        self.held += text[len(body):]
        self.count += 1

    def add_value(self, value: Any, several: bool) -> None:
        """One log as JSON: a line of JSON Lines, the document, or an item of the array
        (``several``: the file holds more than one log)."""
        from pathcheck import notation

        if self.target == "jsonl":
            self.write(json.dumps(value, ensure_ascii=False) + "\n")
        elif not several:
            self.write(notation.pretty_json(value))
        else:
            self.array = True
            self.short.append(value)
            if len(json.dumps(self.short, ensure_ascii=False)) > WIDTH:
                self._spill()

    def _spill(self) -> None:
        """The array is too long for one line: its items one by one from here on."""
        from pathcheck import notation

        for value in self.short:
            self.write(("[\n  " if self.out is None else ",\n  ")
                       + notation.pretty_json(value, "  ", WIDTH).lstrip())
        self.short = []

    def close(self) -> None:
        if self.target == "json" and self.array:
            if self.out is None:  # it fits one line
                self.write(json.dumps(self.short, ensure_ascii=False))
            else:
                self._spill()
                self.write("\n]")
        if self.target != "jsonl":
            self.write("\n")
