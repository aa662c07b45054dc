"""``pathcheck schema NAME``: print a published JSON Schema."""

from __future__ import annotations

import json

import click

from pathcheck import schemas


@click.command(name="schema")
@click.argument("name", required=False)
@click.option("--list", "list_names", is_flag=True, help="List the schema names.")
def command(name: str | None, list_names: bool) -> None:
    """Print the JSON Schema called NAME (dungeon, game, solo, memoarrr, memo-dice, ...;
    ruling: the JSON rulings of adjudicate)."""
    if list_names or name is None:
        click.echo("\n".join(schemas.names()))
        return
    click.echo(json.dumps(schemas.load(name), indent=2))
