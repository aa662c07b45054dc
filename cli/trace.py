"""``pathcheck trace "START@N R1@N ..."``: trace one dungeon given inline."""

from __future__ import annotations

import click

from pathcheck.batch import DGN_LINE, Item, Settings, process_item
from pathcheck.errors import InputError
from pathcheck.output import write_atomic
from pathcheck.records import Overrides, parse_rules_option

from .options import advanced_option, output_format, rules_option, tileset_option


@click.command(name="trace")
@click.argument("dungeon", nargs=-1, required=True, metavar="\"ID@DIR ...\"")
@output_format
@rules_option
@advanced_option
@tileset_option
@click.option("--map/--no-map", "show_map", default=True, show_default=True,
              help="Draw the dungeon in the text report.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False), default=None,
              help="Also write an SVG picture of the dungeon to this file.")
@click.option("--graph", "graph_file", type=click.Path(dir_okay=False), default=None,
              help="Also export the dungeon's port graph (.graphml or node-link .json).")
def command(
    dungeon: tuple[str, ...],
    output_format: str,
    rules: str | None,
    advanced: bool | None,
    tileset: str | None,
    show_map: bool,
    svg_file: str | None,
    graph_file: str | None,
) -> None:
    """Trace one dungeon written in compact notation, bottom tile first.

    Tokens: ID@DIR a tile with its arrow direction, !NAME a LOST card on the tile before it,
    | a new dungeon (solo play). Example:

        pathcheck trace "START@N R1@N R2@E !Ann R3@S I4@W" --rules 2
    """
    text = " ".join(dungeon)
    settings = Settings(
        overrides=Overrides(rules=parse_rules_option(rules), advanced=advanced, tileset=tileset),
        output=output_format, show_map=show_map,
        inline_pictures=svg_file is not None or graph_file is not None,
    )
    item = Item(DGN_LINE, "<argument>", 1, text.encode("utf-8"))
    outcome = process_item(item, settings)
    if outcome.error is not None:
        raise InputError(outcome.error.replace("<argument>:1: ", "", 1))
    click.echo(outcome.text)
    if svg_file is not None and outcome.svg is not None:
        write_atomic(svg_file, outcome.svg)
    if graph_file is not None and outcome.graph is not None:
        from pathcheck.reference import graphml_to_json

        data = outcome.graph
        write_atomic(graph_file, graphml_to_json(data) if graph_file.endswith(".json") else data)
