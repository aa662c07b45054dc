"""``pathcheck schema NAME``: print a published JSON Schema."""

from __future__ import annotations

import json

import click

from pathcheck import schemas

from .options import complete_from


@click.command(name="schema")
@click.argument("name", required=False, shell_complete=complete_from(schemas.names))
@click.option("--list", "list_names", is_flag=True, help="List the schema names.")
def command(name: str | None, list_names: bool) -> None:
    """Print the JSON Schema called NAME (dungeon, game, solo, memoarrr, memo-dice, ...;
    ruling: the JSON rulings of adjudicate). Exit code 0: printed; 2: no schema is called
    NAME (the one meant is suggested)."""
    known = schemas.names()
    if list_names or name is None:
        click.echo("\n".join(known))
        return
    if name not in known:
        from . import closest

        meant = closest(name, known)
        hint = f"did you mean {meant}?" if meant else "known: " + ", ".join(known)
        raise click.UsageError(f"unknown schema {name!r} ({hint})")
    click.echo(json.dumps(schemas.load(name), indent=2))
