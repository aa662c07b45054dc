"""``pathcheck solo new|key|check|stats``: solo challenges from seed codes (docs/seeds.md)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from pathcheck.errors import ExitCode, RecordError
from pathcheck.render.solo import render_check, render_deal, render_key
from pathcheck.safe import one_line
from pathcheck.solo.challenge import AnswerKey, Challenge, SeedCheck, check_record
from pathcheck.solo.seed_codes import SEED_LIMIT, SeedCode, SeedCodeError, parse_rules
from pathcheck.solo.stats import (
    GRADES,
    LOST_REASONS,
    Constraints,
    analyse_deal,
    search,
    summarise,
)

from .census import command as census_command
from .options import (
    JOBS_HELP,
    bad_value,
    cap_jobs,
    chart_file,
    emit,
    output_file,
    output_format,
    refuse_input_as_output,
    resolve_jobs,
    seed_rules_option,
    write_chart,
)

MAX_DEALS = 100_000_000
"""``solo stats --count`` at most: about a minute on two cores with the C kernel (hours
without it); the whole space of seeds is the census's work."""


def _cap_deals(deals: int | None, option: str = "--count") -> int | None:
    if deals is not None and deals > MAX_DEALS:
        raise click.BadParameter(
            f"{deals:,} is more than {MAX_DEALS:,} seeds; for all {SEED_LIMIT:,} seeds use "
            "`pathcheck solo census`", param_hint=option)
    return deals


def _deprecated_deals(ctx: click.Context, param: click.Parameter, value: int | None
                      ) -> int | None:
    """``--deals N``, the old name of ``--count N`` (hidden; it still works, with a note)."""
    if value is not None:
        click.echo("pathcheck: note: --deals is now --count (-n), the name every solo command "
                   "uses for how many seeds", err=True)
    return _cap_deals(value, "--deals")


def _solo_rules(rules: str | None) -> frozenset[int]:
    """``--rules`` of a solo command: only #2, #3, #4 (a usage error otherwise)."""
    try:
        return parse_rules(rules)
    except SeedCodeError as exc:
        raise bad_value(exc, "--rules") from None


@click.group(name="solo")
def command() -> None:
    """Solo challenges: a seed code fixes the deck order and the additional rules.

    Share a code ("play 1303N-QK8NC", rules #2 and #3 built in), print its answer key (perfect
    play), check a played solo/1 record against it, or study many deals.
    """


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A click progress bar on stderr when it is a terminal; silent otherwise."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update


command.add_command(census_command)


# --- new ---------------------------------------------------------------------------------


@command.command(name="new")
@seed_rules_option
@click.option("-n", "--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many codes to print.")
@click.option("--start", type=click.IntRange(0, SEED_LIMIT - 1), default=None,
              help="First seed to try (default: a random one).")
@click.option("--min-dungeons", type=click.IntRange(min=1), default=None,
              help="Only seeds whose answer key has at least this many dungeons.")
@click.option("--max-dungeons", type=click.IntRange(min=1), default=None,
              help="Only seeds whose answer key has at most this many dungeons.")
@click.option("--lost-by", type=click.Choice(LOST_REASONS), multiple=True,
              help="Only seeds where some dungeon gets Lost this way (repeatable: all).")
@click.option("--difficulty", type=click.Choice(GRADES), default=None,
              help="Only seeds of this difficulty grade (docs/seeds.md).")
@click.option("--limit", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Give up after trying this many seeds.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, callback=cap_jobs,
              help="Worker processes for the search " + JOBS_HELP + ".")
@click.option("--census", "census_dir", type=click.Path(file_okay=False), default=None,
              metavar="CENSUS_DIR", help="Pick from a census (solo census) instead of searching.")
@output_format
@output_file
@click.pass_context
def new(ctx: click.Context, rules: str | None, count: int, start: int | None,
        min_dungeons: int | None, max_dungeons: int | None, lost_by: tuple[str, ...],
        difficulty: str | None, limit: int, jobs: int | None, census_dir: str | None,
        output_format: str, output: str | None) -> None:
    """Print COUNT new seed codes and the deck order to stack, optionally chosen by their
    answer key (number of dungeons, Lost reasons, difficulty).

    Seeds are tried in order from --start (or a random seed); exit code 1 when fewer than
    COUNT match within --limit seeds.
    """
    rule_set = _solo_rules(rules)
    wanted = Constraints(min_dungeons, max_dungeons, frozenset(lost_by), difficulty)
    first = SeedCode.random().seed if start is None else start
    if census_dir is not None:
        from .census import pick

        found, tried = pick(census_dir, rule_set, wanted, count, first)
    elif not wanted.any:
        found = [analyse_deal((first + k) % SEED_LIMIT, rule_set) for k in range(count)]
        tried = count
    else:
        workers = resolve_jobs(jobs)
        with _progress(limit, "searching seeds") as progress:
            found, tried = search(first, rule_set, wanted, count=count, limit=limit,
                                  modulo=SEED_LIMIT, jobs=workers, progress=progress)
    deals = [Challenge(s) for s in found]
    if output_format == "text":
        emit("\n\n".join(render_deal(d) for d in deals), output) if deals else None
    else:
        items = [d.to_dict() for d in deals]
        emit(json.dumps(items, indent=2) if output_format == "json"
             else "\n".join(json.dumps(i) for i in items), output)
    if len(found) < count:
        if census_dir is None:  # pick() has said why
            click.echo(f"pathcheck: found {len(found)} of {count} seeds in {tried:,} tried "
                       "(loosen the constraints or raise --limit)", err=True)
        ctx.exit(int(ExitCode.VIOLATION))


# --- key ---------------------------------------------------------------------------------


@command.command(name="key")
@click.argument("code")
@click.option("--reveal", is_flag=True, help="Really print the answer key (a spoiler).")
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False), default=None,
              help="Also draw each dungeon of the key as DIR/<code>-<n>.svg.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.html", help="Also write a replay page of the key (needs --reveal).")
@output_format
@output_file
def key(code: str, reveal: bool, svg_dir: str | None, html_file: str | None,
        output_format: str, output: str | None) -> None:
    """Print the answer key of CODE: perfect play, each dungeon's tiles and directions, where
    and why it gets Lost, and the maximum score. Spoiler-guarded: add --reveal.
    """
    if html_file is not None and not reveal:
        raise click.UsageError("--html draws the answer key, a spoiler: add --reveal")
    answer = AnswerKey.of(SeedCode.parse(code))
    seed = answer.seed
    if html_file is not None:
        from .pages import write_key_page

        write_key_page(answer, html_file)
    if svg_dir is not None:
        written = _write_svgs(answer, Path(svg_dir))
        click.echo(f"wrote {len(written)} SVG files to {svg_dir}", err=True)
    if not reveal:
        _key_facts(seed, output_format, output)
        return
    if output_format == "text":
        emit(render_key(answer), output)
        return
    doc = answer.to_dict()
    emit(json.dumps(doc, indent=2) if output_format == "json" else json.dumps(doc), output)


REVEAL_HINT = ("The answer key (each dungeon's tiles, directions and where it gets Lost) is a "
               "spoiler: add --reveal to print it.")


def _key_facts(seed: SeedCode, output_format: str, output: str | None) -> None:
    """What may be said of a code without giving its answer away: what `solo new` says."""
    deal = Challenge(analyse_deal(seed.seed, seed.rules))
    if output_format == "text":
        emit(f"{render_deal(deal)}\nAnswer key: {deal.stats.dungeons} dungeons.\n"
             f"{REVEAL_HINT}", output)
        return
    doc = {**deal.to_dict(), "revealed": False, "hint": REVEAL_HINT}
    emit(json.dumps(doc, indent=2) if output_format == "json" else json.dumps(doc), output)


def _write_svgs(answer: AnswerKey, folder: Path) -> list[Path]:
    from pathcheck.output import write_atomic
    from pathcheck.render.svg import dungeon_svg
    from pathcheck.tracer.dungeon import trace
    from pathcheck.tracer.geometry import Move

    seed, dungeons = answer.seed, answer.dungeons
    written = []
    movement = Move.STRAIGHT
    name = str(seed)
    for number, dungeon in enumerate(dungeons, start=1):
        result = trace(dungeon.placements, rules=seed.rules, initial_movement=movement,
                       with_passes=True)
        movement = result.last_movement
        title = f"{name} dungeon {number} of {len(dungeons)}"
        path = folder / f"{name}-{number}.svg"
        write_atomic(path, dungeon_svg(result, title=title, rules=seed.rules))
        written.append(path)
    return written


# --- check -------------------------------------------------------------------------------


@command.command(name="check")
@click.argument("code")
@click.argument("record", type=click.Path(allow_dash=True))
@output_format
@output_file
@click.pass_context
def check(ctx: click.Context, code: str, record: str, output_format: str,
          output: str | None) -> None:
    """Score each solo/1 record in the file RECORD (JSON, JSON Lines or .dgn) against CODE
    and show the first divergence from the answer key.

    Exit code 0: scored (whatever the score); 1: the record's deck (or rules) does not match
    the code; 3: the record or the code is malformed.
    """
    from pathcheck.inputs.records import iter_solo_records

    refuse_input_as_output(output, [record])
    answer = AnswerKey.of(SeedCode.parse(code))
    checks: list[SeedCheck] = []
    exit_code = ExitCode.OK
    held = False
    for item in iter_solo_records(record):
        held = True
        if isinstance(item, RecordError):
            click.echo(one_line(f"pathcheck: invalid: {item}"), err=True)
            exit_code = ExitCode.INVALID_INPUT
            continue
        checked = check_record(answer, item)
        checks.append(checked)
        if not checked.match:
            click.echo(one_line(f"pathcheck: {checked.where}: does not match {answer.seed}: "
                                f"{checked.mismatch}"), err=True)
            if exit_code is ExitCode.OK:
                exit_code = ExitCode.VIOLATION
    if not held:  # nothing to score is no score: exit 3, as every command says of it
        from pathcheck.batch import NO_RECORD
        from pathcheck.reading.reader import source_name

        click.echo(one_line(f"pathcheck: invalid: "
                            f"{RecordError(source_name(record), None, '', NO_RECORD)}"),
                   err=True)
        exit_code = ExitCode.INVALID_INPUT
    if output_format == "text":
        texts = [render_check(c) for c in checks if c.match]
        emit("\n\n".join(texts), output) if texts else None
    elif output_format == "json":
        emit(json.dumps([c.to_dict() for c in checks], indent=2), output)
    else:
        emit("\n".join(json.dumps(c.to_dict()) for c in checks), output)
    if exit_code is not ExitCode.OK:
        ctx.exit(int(exit_code))


# --- stats -------------------------------------------------------------------------------


@command.command(name="stats")
@click.option("-n", "--count", "deals", type=click.IntRange(min=1), default=10_000,
              show_default=True, callback=lambda ctx, param, value: _cap_deals(value),
              help=f"How many seeds to analyse (at most {MAX_DEALS:,}).")
@click.option("--deals", "old_deals", type=click.IntRange(min=1), default=None, hidden=True,
              callback=_deprecated_deals, help="Deprecated: --count.")
@seed_rules_option
@click.option("--start", type=click.IntRange(0, SEED_LIMIT - 1), default=0, show_default=True,
              help="First seed.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, callback=cap_jobs,
              help="Worker processes " + JOBS_HELP + ".")
@click.option("--chart", type=click.Path(dir_okay=False), default=None, callback=chart_file,
              help="Also draw the statistics as a chart: FILE.svg, or FILE.png (needs "
                   "rsvg-convert).")
@output_format
@output_file
def stats(deals: int, old_deals: int | None, rules: str | None, start: int, jobs: int | None,
          chart: str | None, output_format: str, output: str | None) -> None:
    """Analyse COUNT seeds' answer keys: dungeon counts and lengths, Lost reasons, how often
    each rule bites, and the difficulty score with its factors (docs/seeds.md).
    """
    deals = old_deals if old_deals is not None else deals
    rule_set = _solo_rules(rules)
    workers = resolve_jobs(jobs)
    began = time.perf_counter()
    with _progress(deals, "analysing deals") as progress:
        summary = summarise(start, min(deals, SEED_LIMIT - start), rule_set, jobs=workers,
                            chunk=_chunk(deals, workers), progress=progress)
    elapsed = time.perf_counter() - began
    if chart is not None:
        write_chart(summary, Path(chart), start)
    if output_format == "text":
        from pathcheck.render.chart import format_table

        emit(format_table(summary, start=start, jobs=workers, seconds=elapsed), output)
    else:
        doc = {"start": start, "jobs": workers, "seconds": round(elapsed, 3),
               **summary.to_dict()}
        emit(json.dumps(doc, indent=2) if output_format == "json" else json.dumps(doc), output)


def _chunk(deals: int, workers: int) -> int:
    """Chunks small enough for a lively progress bar, large enough to keep workers busy."""
    from pathcheck.solo import kernel

    largest = 50_000 if kernel.available() else 5000  # the C kernel does ~1M deals/s
    return max(200, min(largest, deals // (workers * 8) or 1))
