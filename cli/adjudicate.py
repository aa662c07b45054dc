"""``pathcheck adjudicate [GAME] LOG...``: rule on recorded games through the plug-ins."""

from __future__ import annotations

import json
import os

import click

from pathcheck import games
from pathcheck.errors import ExitCode, InputError, PathcheckError, RecordError
from pathcheck.notation import iter_source
from pathcheck.reader import Document
from pathcheck.ruling import Ruling, render_text

from .options import emit, output_file, output_format, refuse_input_as_output


@click.command(name="adjudicate")
@click.argument("args", nargs=-1, required=False, metavar="[GAME] LOG...")
@output_format
@output_file
@click.option("--at", default=None, metavar="ROUND.TURN",
              help="Also show the game state at ROUND.TURN (games that can draw it).")
@click.option("--html", "html_target", type=click.Path(), default=None,
              metavar="FILE.html|DIR",
              help="Write a replay page (step through the game in a browser) to FILE.html, or "
                   "a page per log and an index.html into the folder DIR.")
@click.option("--list-games", is_flag=True, help="List the installed adjudicators and exit.")
@click.pass_context
def command(
    ctx: click.Context,
    args: tuple[str, ...],
    output_format: str,
    output: str | None,
    at: str | None,
    html_target: str | None,
    list_games: bool,
) -> None:
    """Replay each LOG and rule on it: rounds, scores, winners, and the first broken rule.

    GAME (e.g. dungeon, memoarrr, memo-dice, robot-memory) may be left out: the log's
    "format" field then picks the adjudicator. LOG is a JSON file, a JSON Lines file with one
    log a line, a game notation file (*.pcn, docs/formats.md), or - for stdin.
    Exit code 0: every log legal; 1: a log breaks a rule; 3: a log could not be read.
    """
    installed = games.available()
    if list_games:
        for name, target in installed.items():
            click.echo(f"{name}\t{target}")
        return
    game: str | None = None
    paths = list(args)
    if paths and paths[0] in installed and not os.path.exists(paths[0]):
        game = paths.pop(0)
    if not paths:
        raise click.UsageError("give at least one LOG file")
    refuse_input_as_output(output, paths)
    refuse_input_as_output(html_target, paths)
    adjudicator = games.load(game) if game is not None else None
    options = games.AdjudicateOptions(at=at)

    rulings: list[Ruling] = []
    drawn: list[tuple[Document, Ruling]] = []
    failures: list[RecordError | PathcheckError] = []
    texts: list[str] = []
    for path in paths:
        found = False
        for item in iter_source(path):
            found = True
            if isinstance(item, RecordError):
                failures.append(item)
                click.echo(f"pathcheck: invalid: {item}", err=True)
                continue
            try:
                ruling = _rule_one(item, adjudicator, options)
            except RecordError as exc:
                failures.append(exc)
                click.echo(f"pathcheck: invalid: {exc}", err=True)
                continue
            except PathcheckError as exc:
                failures.append(exc)
                click.echo(f"pathcheck: error: {item.source}:{item.line}: {exc}", err=True)
                continue
            rulings.append(ruling)
            if html_target is not None:
                drawn.append((item, ruling))
            if output_format == "text":
                texts.append(render_text(ruling))
        if not found:  # an empty file is not a legal game
            failures.append(InputError(f"{path}: no log in it"))
            click.echo(f"pathcheck: invalid: {path}: no log in it", err=True)
    if output_format == "text":
        emit("\n\n".join(texts), output) if texts else None
    elif output_format == "json":
        emit(json.dumps([r.to_dict() for r in rulings], indent=2, ensure_ascii=False), output)
    else:
        emit("\n".join(json.dumps(r.to_dict(), ensure_ascii=False) for r in rulings), output)
    if html_target is not None:
        from .pages import write_adjudicate_pages

        write_adjudicate_pages(drawn, adjudicator, html_target)
    if failures:
        ctx.exit(int(ExitCode.INVALID_INPUT))
    if any(r.violations for r in rulings):
        ctx.exit(int(ExitCode.VIOLATION))


def _rule_one(
    doc: Document, adjudicator: games.Adjudicator | None, options: games.AdjudicateOptions
) -> Ruling:
    source = doc.source if not doc.pointer else f"{doc.source}#{doc.pointer}"
    if not isinstance(doc.value, dict):
        raise RecordError(doc.source, doc.line, doc.pointer, "expected a JSON object (a log)")
    if adjudicator is None:
        fmt = doc.value.get("format")
        if not isinstance(fmt, str):
            raise RecordError(
                doc.source, doc.line, doc.pointer + "/format",
                "missing \"format\" (e.g. \"game/1\"); name the GAME on the command line",
            )
        adjudicator = games.for_format(fmt)
    try:
        return adjudicator.adjudicate(doc.value, source=source, options=options)
    except RecordError as exc:
        if exc.line is None:  # adjudicators know pointers, the reader knows lines
            # notation knows the line of each turn, round and exploration
            line = doc.line_of(exc.pointer) if hasattr(doc, "line_of") else doc.line
            raise RecordError(exc.source, line, doc.pointer + exc.pointer, exc.message) from exc
        raise
