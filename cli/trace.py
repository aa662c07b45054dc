"""``pathcheck trace "START@N R1@N ..."``: trace one dungeon given inline."""

from __future__ import annotations

import click

from pathcheck.batch import render_verdict
from pathcheck.errors import InputError, RecordError
from pathcheck.output import write_atomic
from pathcheck.records import Overrides, parse_dgn_line, parse_rules_option
from pathcheck.verify import verify_record

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
    overrides = Overrides(rules=parse_rules_option(rules), advanced=advanced, tileset=tileset)
    try:
        record = parse_dgn_line(" ".join(dungeon), source="<argument>", line=1,
                                overrides=overrides)
    except RecordError as exc:  # there is no file or line to name
        raise InputError(exc.detail) from None
    if record is None:
        raise InputError("no tiles to trace (the argument is blank or a comment)")
    drawing = ((output_format == "text" and show_map) or svg_file is not None
               or graph_file is not None)
    verdict = verify_record(record, with_passes=drawing)
    click.echo(render_verdict(verdict, output_format, show_map=show_map))
    if svg_file is not None or graph_file is not None:
        from pathcheck.render import pictures

        if svg_file is not None:
            write_atomic(svg_file, pictures.verdict_svg(verdict))
        graph = None if graph_file is None else pictures.verdict_graph(verdict, graph_file)
        if graph_file is not None and graph is not None:
            write_atomic(graph_file, graph)
