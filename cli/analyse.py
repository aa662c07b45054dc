"""``pathcheck analyse [GAME] LOG...``: each move against a perfect memory of what the mover
had seen; per player, per log or (``--by-player``) over many; dungeon positions.

Logs are read and streamed as ``adjudicate`` reads them (:mod:`pathcheck.analysis.stream`),
each analysis written in input order as soon as it is made. The analysis itself is
:mod:`pathcheck.analysis`; docs/analysis.md defines the marks.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

import click

from pathcheck import games
from pathcheck.errors import ExitCode, InputError
from pathcheck.output import AtomicWriter

from .options import (
    bad_value,
    chart_file,
    check_moment,
    check_tileset_file,
    complete_game_or_log,
    counted_outcomes,
    emit,
    jobs_option,
    keep_if_nothing_read,
    not_a_folder,
    nothing_ruled,
    output_file,
    progress_bar,
    refuse_input_as_output,
    resolve_jobs,
    unchecked_tileset_option,
    write_svg_chart,
)


@click.command(name="analyse")
@click.argument("args", nargs=-1, required=False, metavar="[GAME] LOG...",
                shell_complete=complete_game_or_log)
@click.option("--format", "output_format", type=click.Choice(("text", "json", "jsonl", "csv")),
              default="text", show_default=True,
              help="text for people; json (one document) or jsonl (one analysis a line) for "
                   "tools; csv (the --by-player table only) for spreadsheets.")
@output_file
@jobs_option
@click.option("--by-player", is_flag=True,
              help="Instead of each log, one row per player over all logs: games, wins, "
                   "points, moves, slips, guesses, accuracy, slips per game, memory score "
                   "(points lost against points at stake; the rows are sorted by it) and "
                   "memory span.")
@click.option("--chart", type=click.Path(dir_okay=False), default=None, callback=chart_file,
              metavar="FILE.svg|FILE.png",
              help="Also draw each player's accuracy over all logs, and their memory span, "
                   "as a chart: FILE.svg, or FILE.png (needs rsvg-convert).")
@click.option("--html", "html_target", type=click.Path(dir_okay=False), default=None,
              callback=not_a_folder,
              metavar="FILE.html",
              help="Write the replay page of one LOG with its moves marked (slips, guesses), "
                   "each player's accuracy and a strip of the moves coloured by mark.")
@click.option("--position", default=None, metavar='"START@N R1@N ..."',
              help="Dungeon in memory: analyse this stack (START first) instead of logs; "
                   "with --hand, each tile laid as the rules allow.")
@click.option("--hand", default=None, metavar="R2,I4,L1",
              help="The hand to try on the position (comma-separated tile ids).")
@click.option("--at", default=None, metavar="ROUND.TURN", callback=check_moment,
              help="Dungeon in memory: the position of each log of LOG (game/1) at "
                   "exploration ROUND after TURN, with the hand of the player who lays the "
                   "next tile; several logs: each headed by its FILE:LINE.")
@click.option("--rules", default=None, metavar="N,N",
              help="The additional rules of a --position, e.g. '2,3' (default: none).")
@click.option("--advanced/--basic", default=None,
              help="The mode of a --position: advanced (Repeat tiles, rule #4) or basic "
                   "(default). A log says its own, also with --at.")
@unchecked_tileset_option
@click.pass_context
def command(ctx: click.Context, args: tuple[str, ...], output_format: str, output: str | None,
            jobs: int | None, by_player: bool, chart: str | None, html_target: str | None,
            position: str | None, hand: str | None, at: str | None, rules: str | None,
            advanced: bool | None, tileset: str | None) -> None:
    """Analyse each LOG: for every move, what the mover knew, what a perfect memory of exactly
    that would have done, its cost in points, and a mark: slip (memory could decide it, and
    the player did otherwise; graded inaccuracy, mistake or blunder by its cost), harmless
    (the same at no cost), guess (nothing seen could decide it; with the chance of success)
    or sound. Per player: moves, slips, guesses, sound moves, accuracy (sound among the moves
    memory could decide) and memory score (points lost against points at stake). Dungeon in
    memory also gets, per exploration, the tile that made the path Lost and each player's
    announcement against a perfect one.

    GAME (dungeon, memoarrr, memo-dice, robot-memory) may be left out: the log's "format"
    picks the analysis. LOG is a JSON file, a JSON Lines file with one log a line, a game
    notation file (*.pcn) or - for stdin. --rules, --advanced/--basic and --tileset are a
    --position's: a log says its own (given with a LOG, a usage error); --position takes no
    LOG. Exit code 0: every log analysed; 2: usage (options
    that do not go together, --at that is no ROUND.TURN); 3: a log could not be read (with
    --at: no game/1 log, or without that moment); 4: a file could not be read (an illegal
    log is analysed as played: see `pathcheck adjudicate` for the ruling).

    \b
    Examples:
      pathcheck analyse fixtures/memoarrr/legal-3p-2023.json
      pathcheck analyse logs.jsonl --by-player --format csv -o table.csv --chart acc.svg
      pathcheck analyse --position "START@N R1@N R2@E R3@S" --hand I4,L1
      pathcheck analyse fixtures/dungeon/legal-3p-basic.json --at 1.5
    """
    from .adjudicate import split_game

    game, paths = split_game(args)
    for name, value in (("--rules", rules), ("--advanced" if advanced else "--basic", advanced),
                        ("--tileset", tileset)):
        if value is not None and position is None:
            raise click.UsageError(f"{name} applies to --position only: a log (also with --at) "
                                   "says its own rules, mode and tile set")
    if position is not None and paths:
        raise click.UsageError("--position analyses the stack given, not a LOG: give no LOG "
                               "(or --at ROUND.TURN for a position of a LOG)")
    check_tileset_file(tileset)
    if position is not None or at is not None:
        if by_player or chart is not None or html_target is not None:
            raise click.UsageError("--position and --at analyse one position: no --by-player, "
                                   "--chart or --html")
        _position(paths, output_format, output, position, hand, at, rules, advanced, tileset)
        return
    if hand is not None:
        raise click.UsageError("--hand goes with --position or --at")
    if not paths:
        raise click.UsageError("give at least one LOG file (or --position)")
    if output_format == "csv" and not by_player:
        raise click.UsageError("--format csv is the --by-player table's")
    if html_target is not None and (len(paths) != 1 or by_player):
        raise click.UsageError("--html draws one LOG's page: give one LOG, without --by-player")
    for target in (output, chart, html_target):
        refuse_input_as_output(target, paths)
    if game is not None:
        games.load(game)
    status = _analyse_logs(paths, game, output_format, output, resolve_jobs(jobs, paths),
                           by_player, chart, html_target)
    if status["unreadable"]:
        ctx.exit(int(ExitCode.IO_ERROR))
    if status["invalid"]:
        ctx.exit(int(ExitCode.INVALID_INPUT))


def _analyse_logs(paths: list[str], game: str | None, output_format: str, output: str | None,
                  jobs: int, by_player: bool, chart: str | None,
                  html_target: str | None) -> dict[str, int]:
    from pathcheck.analysis.stream import AnalyseSettings, analyse_item
    from pathcheck.analysis.table import Tally, render_table
    from pathcheck.batch.logs import process_logs
    from pathcheck.batch.sink import Results
    from pathcheck.render.words import counted

    tallied = by_player or chart is not None
    per_log = "none" if by_player else output_format
    settings = AnalyseSettings(game=game, output=per_log,
                               keep=tallied or html_target is not None,
                               keep_logs=html_target is not None)
    work = _partial(analyse_item, settings)
    counts = {"analysed": 0, "invalid": 0, "unreadable": 0}
    tally = Tally()
    kept: list[Any] = []
    with ExitStack() as stack:
        out: IO[bytes] | AtomicWriter | None = None
        if not by_player:
            out = sys.stdout.buffer if output is None else stack.enter_context(
                AtomicWriter(output))
        bar = progress_bar(stack, paths, "analysing")
        results = None if out is None else Results(out, output_format)
        direct = None if settings.keep else results  # each process writes its own (-j N)
        for done in counted_outcomes(process_logs(paths, work, jobs, direct), counts, bar):
            if done.analysis is not None and tallied:
                tally.add(done.analysis)
            if html_target is not None and done.analysis is not None:
                kept.append(done if not kept else None)  # the first log's page only
            if results is not None and not done.written:
                results.add(done.text)
        why = nothing_ruled(counts, "log could be analysed")
        if results is not None:
            results.close()
            keep_if_nothing_read(out, why)
        sys.stdout.flush()
    if why is not None:  # no table, chart or page of nothing: the files named are left as they were
        named = [chart, html_target, output if by_player else None]
        for target in filter(None, named):
            click.echo(f"pathcheck: note: {why}: {target} is left as it was", err=True)
        return counts
    rows = tally.rows()
    if by_player:
        emit(render_table(rows, output_format), output)
    if chart is not None:
        from pathcheck.analysis.chart import accuracy_chart_svg

        write_svg_chart(accuracy_chart_svg(rows), Path(chart))
    if html_target is not None and kept:
        _write_page(kept[0], game, html_target)
        if len(kept) > 1:
            click.echo(f"pathcheck: note: {counted(len(kept) - 1, 'more log')} not drawn: "
                       "--html draws the first log of LOG", err=True)
    return counts


def _write_page(done: Any, game: str | None, target: str) -> None:
    """The replay page of the analysed log, with its marks (``--html``)."""
    from pathcheck.analysis.page import marked_page
    from pathcheck.games.pages import page_for
    from pathcheck.output import write_atomic
    from pathcheck.render.html import render_page

    log, analysis = done.log, done.analysis
    plugin = games.load(game) if game is not None else games.for_format(analysis.format)
    ruling = plugin.adjudicate(log, source=analysis.source,
                               options=games.AdjudicateOptions())
    write_atomic(target, render_page(marked_page(page_for(plugin, log, ruling), analysis)))


def _partial(func: Any, settings: Any) -> Any:
    import functools

    return functools.partial(func, settings=settings)


def _position(paths: list[str], output_format: str, output: str | None, position: str | None,
              hand: str | None, at: str | None, rules: str | None, advanced: bool | None,
              tileset: str | None) -> None:
    """``--position`` / ``--at``: a dungeon position and the hand tried on it."""
    from pathcheck.analysis.positions import analyse_position
    from pathcheck.analysis.report import render_position
    from pathcheck.inputs.records import parse_rules_option
    from pathcheck.tracer.dungeon import parse_notation
    from pathcheck.tracer.tileset import load_tileset

    if output_format == "csv":
        raise click.UsageError("--format csv is the --by-player table's")
    if (position is None) == (at is None):
        raise click.UsageError("give --position or --at LOG, not both")
    tiles = [] if hand is None else [t.strip() for t in hand.split(",") if t.strip()]
    try:
        rule_set = parse_rules_option(rules) or frozenset()
    except InputError as exc:
        raise bad_value(exc, "--rules") from None
    if at is not None:
        if len(paths) != 1:
            raise click.UsageError("--at needs exactly one LOG (a file of game/1 logs)")
        refuse_input_as_output(output, paths)
        _positions_at(paths[0], at, tiles if hand is not None else None, output_format, output)
        return
    assert position is not None
    try:
        stack = parse_notation(position)
    except InputError as exc:
        raise bad_value(exc, "--position") from None
    try:  # --tileset is named by the user: any file, as for verify (not a record's rule)
        result = analyse_position(stack, tiles, rules=frozenset(rule_set), advanced=bool(advanced),
                                  tileset=load_tileset(tileset or "standard"))
    except InputError as exc:
        raise bad_value(exc, "--position") from None
    if output_format == "text":
        emit(render_position(result), output)
    elif output_format == "json":
        import msgspec

        emit(msgspec.json.format(result.to_json(), indent=2).decode(), output)
    else:
        emit(result.to_json().decode(), output)


def _positions_at(path: str, at: str, hand: list[str] | None, output_format: str,
                  output: str | None) -> None:
    """``--at``: the position of every log of ``path`` at that moment, each headed by where
    its log is when the file holds several (json: an array of them; jsonl: one a line; each
    with its ``source``). A log that cannot be read or lacks the moment is one line, exit 3
    at the end, the others still analysed, as ``adjudicate --at`` does."""
    import msgspec

    from pathcheck.analysis.positions import analyse_position, position_at
    from pathcheck.analysis.report import render_position
    from pathcheck.reading.reader import source_name
    from pathcheck.safe import one_line

    found: list[tuple[str, Any]] = []
    failed = False
    logs = 0
    for entry in _game_logs(path):
        logs += 1
        if isinstance(entry, str):
            click.echo(one_line(entry), err=True)
            failed = True
            continue
        game_log, where = entry
        try:
            stack, held, player = position_at(game_log, at)
        except InputError as exc:  # a moment this log does not have: as adjudicate --at says
            click.echo(one_line(f"pathcheck: invalid: {where}: {exc}"), err=True)
            failed = True
            continue
        tiles = held if hand is None else hand
        if tiles is None:  # this log's lack, as a moment it does not have
            click.echo(one_line(f"pathcheck: invalid: {where}: --at {at}: the log does not say "
                                "the next player's hand (not recorded, or no turn follows): "
                                "give --hand"), err=True)
            failed = True
            continue
        try:
            found.append((where, analyse_position(
                stack, tiles, rules=frozenset(game_log.rules),
                advanced=bool(game_log.advanced), tileset=game_log.tileset, player=player)))
        except InputError as exc:
            raise bad_value(exc, "--hand" if hand is not None else "--at") from None
    if not logs:
        raise InputError(f"{source_name(path)}: no log in it")
    if found:
        if output_format == "text":
            emit("\n\n".join(render_position(result) if logs == 1
                              else f"{where}:\n{render_position(result)}"
                              for where, result in found), output)
        else:
            values = [{"source": where, **msgspec.json.decode(result.to_json())}
                      for where, result in found]
            if output_format == "jsonl":
                emit("\n".join(msgspec.json.encode(v).decode() for v in values), output)
            else:
                emit(msgspec.json.format(msgspec.json.encode(
                    values[0] if logs == 1 else values), indent=2).decode(), output)
    if failed:
        raise click.exceptions.Exit(int(ExitCode.INVALID_INPUT))


def _game_logs(path: str) -> Iterator[tuple[Any, str] | str]:
    """Each log of ``path`` read as a ``game/1`` log, with where it is (``FILE:LINE``), or the
    line that says why it could not be (exit 3), as ``adjudicate`` says it; a file that cannot
    be opened raises (exit 4)."""
    from pathcheck.errors import RecordError
    from pathcheck.games.dungeon.log import read_game_log
    from pathcheck.inputs.items import located, log_items, log_value

    for item in log_items(path):
        try:
            value = log_value(item)
            if value.get("format") != "game/1":
                raise RecordError(item.source, None, "/format",
                                  "--at reads a dungeon in memory game log (format game/1)")
            yield read_game_log(value, source=item.source), f"{item.source}:{item.line}"
        except RecordError as exc:
            yield f"pathcheck: invalid: {located(exc, item)}"
        except InputError as exc:  # the file holds no log, or one too long to read
            yield f"pathcheck: invalid: {exc}"

