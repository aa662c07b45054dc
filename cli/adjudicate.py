"""``pathcheck adjudicate [GAME] LOG...``: rule on recorded games through the plug-ins.

Rulings are streamed: each is written, in input order, as soon as it is made (the ``json``
array too), so memory stays constant however many logs come in; ``-o`` still writes the file
atomically. The work itself is :func:`pathcheck.batch.logs.rule_logs`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from contextlib import ExitStack
from typing import IO

import click

from pathcheck import games
from pathcheck.errors import ExitCode
from pathcheck.output import AtomicWriter

from .options import (
    check_moment,
    complete_game_or_log,
    counted_outcomes,
    jobs_option,
    keep_if_nothing_read,
    nothing_ruled,
    output_file,
    output_format,
    progress_bar,
    refuse_input_as_output,
    resolve_jobs,
)


@click.command(name="adjudicate")
@click.argument("args", nargs=-1, required=False, metavar="[GAME] LOG...",
                shell_complete=complete_game_or_log)
@output_format
@output_file
@click.option("--at", default=None, metavar="ROUND.TURN", callback=check_moment,
              help="Also show the game state at ROUND.TURN (games that can draw it).")
@click.option("--html", "html_target", type=click.Path(), default=None,
              metavar="FILE.html|DIR",
              help="Write a replay page (step through the game in a browser) to FILE.html, or "
                   "a page per log and an index.html into the folder DIR.")
@jobs_option
@click.option("--list-games", is_flag=True,
              help="List the installed games and the log formats each reads, and exit.")
@click.pass_context
def command(
    ctx: click.Context,
    args: tuple[str, ...],
    output_format: str,
    output: str | None,
    at: str | None,
    html_target: str | None,
    jobs: int | None,
    list_games: bool,
) -> None:
    """Replay each LOG and rule on it: rounds, scores, winners, and the first broken rule.

    GAME (e.g. dungeon, memoarrr, memo-dice, robot-memory) may be left out: the log's
    "format" field then picks the adjudicator. LOG is a JSON file, a JSON Lines file with one
    log a line, a game notation file (*.pcn, docs/formats.md), or - for stdin.
    Exit code 0: every log legal; 1: a log breaks a rule; 2: usage error (an unknown GAME,
    --at that is no ROUND.TURN); 3: a log could not be read (or has no moment --at);
    4: a file could not be read.
    """
    if list_games:
        list_installed(games.available())
        return
    game, paths = split_game(args)
    if not paths:
        raise click.UsageError("give at least one LOG file")
    refuse_input_as_output(output, paths)
    refuse_input_as_output(html_target, paths)
    if game is not None:
        games.load(game)  # a broken plug-in named on the command line fails here, once
    from pathcheck.batch.logs import StreamSettings, rule_logs
    from pathcheck.batch.sink import Results

    settings = StreamSettings(game=game, at=at, output=output_format,
                              keep=html_target is not None)
    pages = None  # --html: each log's page is written as it is ruled
    if html_target is not None:
        from .pages import AdjudicatePages

        pages = AdjudicatePages(html_target, games.load(game) if game is not None else None)
    counts = {"legal": 0, "illegal": 0, "invalid": 0, "unreadable": 0}
    with ExitStack() as stack:
        out: IO[bytes] | AtomicWriter = sys.stdout.buffer
        if output is not None:
            out = stack.enter_context(AtomicWriter(output))
        bar = progress_bar(stack, paths, "adjudicating")
        # Logs arriving on a pipe (a game being recorded), or rulings read on a terminal, are
        # written one by one, at once; rulings on files go out in the usual buffered blocks.
        live = output is None and (sys.stdout.isatty()
                                   or any(not os.path.isfile(path) for path in paths))
        results = Results(out, output_format)
        # Rulings not kept for pages: with -j N each process writes its own, unbuffered.
        direct = None if settings.keep else results
        ruled_logs = rule_logs(paths, settings, resolve_jobs(jobs, paths), direct)
        for ruled in counted_outcomes(ruled_logs, counts, bar):
            if ruled.kept is not None and pages is not None:
                pages.add(*ruled.kept)
            if not ruled.written:
                results.add(ruled.text)
            if live:
                sys.stdout.flush()
        # A batch in text ends with a summary line, as verify's does (JSON output is left
        # as it was: one entry a log, and stderr only errors).
        summary = log_summary(counts) if sum(counts.values()) > 1 else None
        if summary is not None and output_format == "text":
            results.add(summary.encode())
        results.close()
        sys.stdout.flush()
        kept = keep_if_nothing_read(out, nothing_ruled(counts, "log could be ruled on"))
    if summary is not None and output_format == "text" and kept:
        click.echo(summary, err=True)
    if pages is not None:
        pages.finish()
    if counts["unreadable"]:
        ctx.exit(int(ExitCode.IO_ERROR))
    if counts["invalid"]:
        ctx.exit(int(ExitCode.INVALID_INPUT))
    if counts["illegal"]:
        ctx.exit(int(ExitCode.VIOLATION))


def list_installed(installed: Iterable[str]) -> None:
    """Each installed game: its GAME name, the log formats it reads and its title (a plug-in
    that cannot be loaded says why, on its line)."""
    from pathcheck.errors import PathcheckError

    rows: list[tuple[str, str, str]] = []
    for name in installed:
        try:
            adjudicator = games.load(name)
        except PathcheckError as exc:
            rows.append((name, "-", f"cannot be loaded: {exc}"))
            continue
        rows.append((name, ", ".join(adjudicator.formats), adjudicator.title))
    rows.insert(0, ("game", "log formats", "title"))
    width = [max(len(row[i]) for row in rows) for i in range(2)]
    for name, formats, title in rows:
        click.echo(f"{name:<{width[0]}}  {formats:<{width[1]}}  {title}")


def log_summary(counts: dict[str, int]) -> str:
    """The last line of a batch, as ``verify`` ends one.

    >>> log_summary({"legal": 5, "illegal": 1, "invalid": 0, "unreadable": 0})
    'Summary: 6 logs, 5 legal, 1 illegal, 0 invalid'
    """
    logs = counts["legal"] + counts["illegal"] + counts["invalid"]
    parts = [f"{logs} log{'' if logs == 1 else 's'}", f"{counts['legal']} legal",
             f"{counts['illegal']} illegal", f"{counts['invalid']} invalid"]
    if counts["unreadable"]:
        parts.append(f"{counts['unreadable']} unreadable file"
                     + ("" if counts["unreadable"] == 1 else "s"))
    return "Summary: " + ", ".join(parts)


def split_game(args: Iterable[str]) -> tuple[str | None, list[str]]:
    """``[GAME] LOG...`` read: the GAME named first (None if the first is a log) and the logs.
    A first argument that is a file or ``-`` (the usual case) is a log: the installed
    plug-ins are not scanned for it (a scan imports importlib.metadata at start-up)."""
    paths = list(args)
    if not paths or paths[0] == "-" or os.path.exists(paths[0]):
        return None, paths
    installed = games.available()
    if paths[0] in installed:
        return paths[0], paths[1:]
    refuse_unknown_game(paths, installed)
    return None, paths


def refuse_unknown_game(paths: list[str], installed: Iterable[str]) -> None:
    """A first argument that is no file and reads as a game's name (no folder, no suffix),
    followed by logs or close to an installed game's name, is a mistyped GAME: a usage error
    (exit 2) before any log is ruled on, not a file that cannot be read."""
    from . import closest

    first = paths[0]
    if first == "-" or "/" in first or "." in first or os.path.exists(first):
        return
    meant = closest(first, installed)
    if meant is None and len(paths) == 1:
        return  # a log file that is not there: reported as one (exit 4)
    hint = f"did you mean {meant}?" if meant else "installed: " + ", ".join(installed)
    raise click.UsageError(f"unknown game {first!r} ({hint})")
