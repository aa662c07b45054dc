"""``pathcheck trace "START@N R1@N ..."``: trace one dungeon given inline."""

from __future__ import annotations

import click

from pathcheck.batch import render_verdict
from pathcheck.errors import InputError, RecordError
from pathcheck.inputs.records import Overrides, parse_dgn_line, parse_rules_option
from pathcheck.output import write_atomic
from pathcheck.verify import verify_record

from .options import (
    GRAPH_SUFFIXES,
    SVG_SUFFIXES,
    advanced_option,
    emit,
    file_or_folder,
    output_file,
    output_format,
    rules_option,
    tileset_option,
)

PICTURE_STEM = (("<argument>", "trace"),)
"""The dungeon's pictures in a folder are named ``trace-1.svg`` (``trace-1-d2.svg`` for the
second dungeon of a solo line), as ``verify`` names them after the input file."""


@click.command(name="trace")
@click.argument("dungeon", nargs=-1, required=True, metavar="\"ID@DIR ...\"")
@output_format
@output_file
@rules_option
@advanced_option
@tileset_option
@click.option("--map/--no-map", "show_map", default=True, show_default=True,
              help="Draw the dungeon in the text report.")
@click.option("--svg", "svg_target", type=click.Path(), default=None, metavar="FILE.svg|DIR",
              help="Also draw the dungeon to FILE.svg, or into the folder DIR (trace-1.svg).")
@click.option("--graph", "graph_target", type=click.Path(), default=None,
              metavar="FILE.graphml|FILE.json|DIR",
              help="Also export the dungeon's port graph (GraphML or node-link JSON) to a file, "
                   "or its GraphML into the folder DIR (trace-1.graphml).")
def command(
    dungeon: tuple[str, ...],
    output_format: str,
    output: str | None,
    rules: str | None,
    advanced: bool | None,
    tileset: str | None,
    show_map: bool,
    svg_target: str | None,
    graph_target: str | None,
) -> None:
    """Trace one dungeon written in compact notation, bottom tile first.

    Tokens: ID@DIR a tile with its arrow direction, !NAME a LOST card on the tile before it,
    | a new dungeon (solo play). Example:

        pathcheck trace "START@N R1@N R2@E !Ann R3@S I4@W" --rules 2

    Exit codes: 0 traced (a Lost dungeon is not an error); 3 the dungeon cannot be read;
    4 a file cannot be read or written; 2 usage error.
    """
    overrides = Overrides(rules=parse_rules_option(rules), advanced=advanced, tileset=tileset)
    try:
        record = parse_dgn_line(" ".join(dungeon), source="<argument>", line=1,
                                overrides=overrides)
    except RecordError as exc:  # there is no file or line to name
        raise InputError(exc.detail) from None
    if record is None:
        raise InputError("no tiles to trace (the argument is blank or a comment)")
    svg_file, svg_dir = file_or_folder(svg_target, SVG_SUFFIXES)
    graph_file, graph_dir = file_or_folder(graph_target, GRAPH_SUFFIXES, "--graph")
    drawing = (output_format == "text" and show_map) or svg_target is not None
    verdict = verify_record(record, with_passes=drawing or graph_target is not None)
    emit(render_verdict(verdict, output_format, show_map=show_map), output)
    if svg_target is None and graph_target is None:
        return
    from pathcheck.render import pictures

    if svg_file is not None:
        write_atomic(svg_file, pictures.verdict_svg(verdict))
    graph = None if graph_file is None else pictures.verdict_graph(verdict, graph_file)
    if graph_file is not None and graph is not None:
        write_atomic(graph_file, graph)
    if svg_dir is not None or graph_dir is not None:
        pictures.write_pictures(verdict, svg_dir, graph_dir, PICTURE_STEM)
