"""``pathcheck convert LOG``: game notation to JSON log and back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pathcheck.errors import ExitCode, InputError, RecordError

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
    (or holds none); 4: LOG cannot be read.
    """
    from pathcheck import notation
    from pathcheck.log_input import open_logs
    from pathcheck.render.safe import one_line

    refuse_input_as_output(output, [log])
    named = target_of(output)
    if target is not None and named is not None and target != named:
        raise click.UsageError(f"--to {target} but -o {output} names a {named} file; "
                               f"name it *{SUFFIXES[target][0]} or leave --to out")
    target = target or named
    values: list[Any] = []
    with open_logs(log) as logs:
        was_notation = logs.is_notation
        for item in logs.items:
            if isinstance(item, RecordError):
                click.echo(one_line(f"pathcheck: invalid: {item}"), err=True)
                ctx.exit(int(ExitCode.INVALID_INPUT))
            values.append(item.value)
    if not values:
        raise InputError(f"{log}: no log in it")
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
    for index, value in enumerate(values):
        where = f"/{index}" if len(values) > 1 else ""
        if not isinstance(value, dict):
            raise RecordError(log, None, where or "/", "expected a JSON object (a log)")
        texts.append(notation.write(value))  # any log, a malformed one too (exactly)
    emit("\n".join(texts).rstrip("\n"), output)

