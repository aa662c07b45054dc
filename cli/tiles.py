"""``pathcheck tiles``: list the tiles of a tile set as a table."""

from __future__ import annotations

import json

import click

from pathcheck.safe import one_line
from pathcheck.tracer.tileset import load_tileset

from .options import tileset_option


@click.command(name="tiles")
@tileset_option
@click.option("--advanced/--basic", default=None,
              help="Only the tiles in play in that mode (default: every tile).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def command(tileset: str | None, advanced: bool | None, output_format: str) -> None:
    """List each tile: id, kind, Ghost icon, mode and its paths (tile frame, arrow north)."""
    ts = load_tileset(tileset or "standard")
    tiles = [t for t in ts if advanced is None or advanced or not t.advanced_only]
    if output_format == "json":
        click.echo(json.dumps([
            {"id": t.id, "kind": t.kind.value, "ghost": t.ghost,
             "advanced_only": t.advanced_only,
             "paths": [[a.name, b.name] for a, b in t.paths]}
            for t in tiles], indent=2))
        return
    rows = [("id", "kind", "ghost", "mode", "paths")]
    for t in tiles:
        paths = ", ".join(f"{a.name}-{b.name}" for a, b in t.paths) or "repeats the last movement"
        if t.paths:
            paths = paths.replace(f"{t.paths[0][0].name}-", f"{t.paths[0][0].name}->", 1)
        rows.append((one_line(t.id) + (" (start)" if t.id == ts.start else ""), t.kind.value,
                     one_line(t.ghost or "-"), "advanced" if t.advanced_only else "all", paths))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    click.echo(one_line(f"tile set {ts.name!r} ({ts.source}): {len(ts)} tiles, "
                        f"{len(ts.ids_for(False))} in basic play, "
                        f"{len(ts.ids_for(True))} in advanced"))
    if ts.description:
        click.echo(one_line(ts.description))
    for i, row in enumerate(rows):
        click.echo("  ".join(c.ljust(w) for c, w in zip(row[:4], widths, strict=True))
                   + "  " + row[4])
        if i == 0:
            click.echo("  ".join("-" * w for w in widths) + "  " + "-" * 5)
