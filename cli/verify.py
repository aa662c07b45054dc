"""``pathcheck verify FILE...``: trace recorded dungeons and score their LOST cards."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from typing import IO

import click

from pathcheck.batch import Block, Rendered, RunSummary, Settings, run
from pathcheck.errors import ExitCode
from pathcheck.inputs.records import Overrides, parse_rules_option
from pathcheck.output import AtomicWriter, write_atomic
from pathcheck.render.pictures import picture_stems
from pathcheck.render.words import counted
from pathcheck.safe import one_line

from .options import (
    GRAPH_SUFFIXES,
    SVG_SUFFIXES,
    advanced_option,
    file_or_folder,
    jobs_option,
    keep_if_nothing_read,
    nothing_ruled,
    output_file,
    output_format,
    progress_bar,
    refuse_input_as_output,
    resolve_jobs,
    rules_option,
    tileset_option,
)


@click.command(name="verify")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@output_format
@output_file
@rules_option
@advanced_option
@tileset_option
@jobs_option
@click.option("--map/--no-map", "show_map", default=True, show_default=True,
              help="Draw each dungeon in the text report.")
@click.option("--svg", "svg_dir", type=click.Path(), default=None, metavar="FILE.svg|DIR",
              help="Draw the dungeon to FILE.svg, or each dungeon into the folder DIR.")
@click.option("--graph", "graph_dir", type=click.Path(), default=None,
              metavar="FILE.graphml|FILE.json|DIR",
              help="Export the dungeon's port graph (GraphML or node-link JSON) to a file, "
                   "or each dungeon's GraphML into the folder DIR.")
@click.option("--html", "html_target", type=click.Path(), default=None,
              metavar="FILE.html|DIR",
              help="Write a replay page (tile by tile, in a browser) of the record to "
                   "FILE.html, or a page per record and an index.html into the folder DIR.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary (and invalid records).")
@click.pass_context
def command(
    ctx: click.Context,
    files: tuple[str, ...],
    output_format: str,
    output: str | None,
    rules: str | None,
    advanced: bool | None,
    tileset: str | None,
    jobs: int | None,
    show_map: bool,
    svg_dir: str | None,
    graph_dir: str | None,
    html_target: str | None,
    quiet: bool,
) -> None:
    """Trace the dungeons in each FILE and report where and why each got Lost.

    FILE is a dungeon/1 JSON document (or an array of them), JSON Lines with one record a
    line, .dgn compact notation, or - for stdin. Rule options override what records say.

    Exit codes: 0 every record valid; 3 at least one record invalid (each is reported, the
    others are still verified); 4 a file could not be read (the others are still verified);
    2 usage error.
    """
    refuse_input_as_output(output, files)
    if html_target is not None and "-" in files:
        raise click.UsageError("--html reads the records twice: give files, not - (stdin)")
    refuse_input_as_output(html_target, files)
    refuse_input_as_output(svg_dir, files, "--svg")
    refuse_input_as_output(graph_dir, files, "--graph")
    svg_file, svg_folder = file_or_folder(svg_dir, SVG_SUFFIXES)
    graph_file, graph_folder = file_or_folder(graph_dir, GRAPH_SUFFIXES, "--graph")
    single = svg_file is not None or graph_file is not None
    settings = Settings(
        overrides=Overrides(rules=parse_rules_option(rules), advanced=advanced, tileset=tileset),
        output=output_format, show_map=show_map,
        svg_dir=None if single else svg_folder, graph_dir=None if single else graph_folder,
        inline_pictures=single, inline_graph=graph_file or ".graphml",
        picture_stems=picture_stems(list(files)) if svg_dir or graph_dir else (),
    )
    pictures = PictureFiles(svg_file, graph_file)
    summary = RunSummary()
    with ExitStack() as stack:
        out: IO[bytes] | AtomicWriter = sys.stdout.buffer
        if output is not None:
            out = stack.enter_context(AtomicWriter(output))
        bar = progress_bar(stack, files, "verifying")
        first = True
        if output_format == "json":
            out.write(b"[")
        for outcome in run(files, settings, 1 if single else resolve_jobs(jobs, files)):
            summary.add(outcome)
            if bar is not None:
                bar.update(outcome.size)
            if isinstance(outcome, Block):
                if not quiet:
                    out.write(outcome.data)
                continue
            pictures.take(outcome)
            if outcome.error is not None:
                kind = "error" if outcome.status == "unreadable" else "invalid"
                click.echo(one_line(f"pathcheck: {kind}: {outcome.error}"), err=True)
            if quiet:
                continue
            if output_format == "json":
                out.write((("\n" if first else ",\n") + outcome.text).encode())
            elif output_format == "jsonl":
                out.write((outcome.text + "\n").encode())
            else:
                out.write((("" if first else "\n") + outcome.text + "\n").encode())
            first = False
        if output_format == "json":
            out.write(b"\n]\n")
        if output_format == "text":
            out.write((("\n" if not first else "") + summary.text() + "\n").encode())
        sys.stdout.flush()
        kept = keep_if_nothing_read(out, nothing_ruled(
            {"unreadable": summary.unreadable, "invalid": summary.invalid,
             "verified": summary.records - summary.invalid}, "record could be verified"))
    if output_format != "text" or kept:
        click.echo(summary.text(), err=True)
    if pictures.extra:
        click.echo(f"pathcheck: note: {counted(pictures.extra, 'more record')} not drawn: "
                   "give a folder to --svg/--graph to draw every dungeon", err=True)
    if html_target is not None:
        from .pages import write_verify_pages

        write_verify_pages(files, settings.overrides, html_target)
    if summary.unreadable:
        ctx.exit(int(ExitCode.IO_ERROR))
    if summary.invalid:
        ctx.exit(int(ExitCode.INVALID_INPUT))


class PictureFiles:
    """``--svg FILE.svg`` / ``--graph FILE``: the first valid record's pictures."""

    def __init__(self, svg_file: str | None, graph_file: str | None) -> None:
        self.svg_file, self.graph_file = svg_file, graph_file
        self.done = False
        self.extra = 0

    def take(self, outcome: Rendered) -> None:
        if outcome.svg is None and outcome.graph is None:
            return
        if self.done:
            self.extra += 1
            return
        self.done = True
        if self.svg_file is not None and outcome.svg is not None:
            write_atomic(self.svg_file, outcome.svg)
        if self.graph_file is not None and outcome.graph is not None:
            write_atomic(self.graph_file, outcome.graph)
