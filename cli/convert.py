"""``pathcheck convert LOG``: game notation to JSON log and back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click

from pathcheck.bounded import brief
from pathcheck.errors import ExitCode, InputError, RecordError
from pathcheck.meant_for import misdirected
from pathcheck.reader import Document

from .options import emit, output_file, refuse_input_as_output

TARGETS = ("notation", "json", "jsonl")
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
    holding them all. Any log converts exactly, a malformed one too. LOG is read as
    adjudicate reads it (strict UTF-8, one log at a time, 16 MB a log). Exit code 0:
    converted; 2: --to contradicts the name of -o, or -o names LOG; 3: LOG is not a valid log
    (or holds none, or holds a value that is no game log, such as a dungeon record, which
    'pathcheck verify' reads); 4: LOG cannot be read.
    """
    from pathcheck import notation
    from pathcheck.log_input import open_logs

    refuse_input_as_output(output, [log])
    named = target_of(output)
    if target is not None and named is not None and target != named:
        raise click.UsageError(f"--to {target} but -o {output} names a {named} file; "
                               f"name it *{SUFFIXES[target][0]} or leave --to out")
    target = target or named
    mistake = misdirected(log, "convert")
    if mistake is not None:
        _invalid(ctx, f"{log}: {mistake}")
    documents: list[Document] = []
    with open_logs(log) as logs:
        was_notation = logs.is_notation
        for item in logs.items:
            if isinstance(item, RecordError):
                _invalid(ctx, str(item))
            documents.append(item)
    if not documents:
        raise InputError(f"{log}: no log in it")
    values = [document.value for document in documents]
    if target is None:
        target = "json" if was_notation else "notation"
    if target == "json":
        value = values[0] if len(values) == 1 else values
        emit(notation.pretty_json(value), output)
        return
    if target == "jsonl":
        emit("\n".join(json.dumps(value, ensure_ascii=False) for value in values), output)
        return
    texts = []
    for document in documents:
        try:
            texts.append(notation_of(document, log))
        except RecordError as exc:
            _invalid(ctx, str(exc))
    emit("\n".join(texts).rstrip("\n"), output)


def notation_of(document: Document, log: str) -> str:
    """The game notation of one log read from the file ``log``: any log, a malformed one too
    (exactly); a RecordError naming file, line and ``/format`` when the value is no game log
    (not an object, or a format without notation: a dungeon record, none at all)."""
    from pathcheck import notation
    from pathcheck.meant_for import format_advice

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
    from pathcheck.render.safe import one_line

    click.echo(one_line(f"pathcheck: invalid: {message}"), err=True)
    ctx.exit(int(ExitCode.INVALID_INPUT))

