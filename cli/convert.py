"""``pathcheck convert LOG``: game notation to JSON log and back."""

from __future__ import annotations

from typing import Any

import click

from pathcheck.errors import ExitCode, InputError, RecordError

from .options import emit, output_file, refuse_input_as_output


@click.command(name="convert")
@click.argument("log", metavar="LOG")
@click.option("--to", "target", type=click.Choice(("json", "notation")), default=None,
              help="What to write (default: notation for a JSON log, JSON for notation).")
@output_file
@click.pass_context
def command(ctx: click.Context, log: str, target: str | None, output: str | None) -> None:
    """Turn the game notation file LOG (*.pcn) into its JSON log, or a JSON log into notation.

    The direction follows from LOG unless --to says it. A file holding several logs (a JSON
    array, JSON Lines, notation with several '#!' lines) converts into one file holding them
    all. Exit code 0: converted; 3: LOG could not be read.
    """
    from pathcheck import notation

    refuse_input_as_output(output, [log])
    data = notation.read_bytes(log)
    was_notation = notation.holds_notation(log, data)
    values: list[Any] = []
    for item in notation.iter_data(log, data):
        if isinstance(item, RecordError):
            click.echo(f"pathcheck: invalid: {item}", err=True)
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
    texts = []
    for index, value in enumerate(values):
        if not isinstance(value, dict):
            where = f"/{index}" if len(values) > 1 else "/"
            raise RecordError(log, None, where, "expected a JSON object (a log)")
        try:
            texts.append(notation.write(value))
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(log, None, "", f"cannot be written as notation: missing or "
                                             f"malformed field {exc}") from None
    emit("\n".join(texts).rstrip("\n"), output)
