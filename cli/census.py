"""``pathcheck solo census``: every seed of a range analysed, on Dask or local processes."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pathcheck.render.words import counted
from pathcheck.solo.seed_codes import SEED_LIMIT, parse_rules

from .options import (
    JOBS_HELP,
    cap_jobs,
    chart_file,
    emit,
    output_file,
    output_format,
    resolve_jobs,
    seed_rules_option,
    write_chart,
)

CENSUS_RULES = ("The additional rules of the challenges, e.g. '2,3' (default: those of the "
                "census already in --out, else none).")


def _census_rules_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return seed_rules_option(func, CENSUS_RULES)

if TYPE_CHECKING:
    from pathcheck.solo.census import Census, CensusDir, ChunkResult, Plan
    from pathcheck.solo.deal import Constraints, DealStats

DEFAULT_CHUNK = 1 << 20


@click.command(name="census")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              metavar="CENSUS_DIR", help="Run (or resume) the census stored in CENSUS_DIR.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              metavar="CENSUS_DIR", help="Only report what CENSUS_DIR holds (no analysis).")
@_census_rules_option
@click.option("--start", type=click.IntRange(0, SEED_LIMIT - 1), default=None,
              help="First seed (default 0).")
@click.option("-n", "--count", type=click.IntRange(min=1), default=None,
              help="Seeds to analyse (default: all up to 2^35 - 1).")
@click.option("--chunk", type=click.IntRange(min=1), default=None,
              help=f"Seeds per chunk, the unit of work and of resuming (default "
                   f"{DEFAULT_CHUNK:,}).")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="How many of each extreme to keep: hardest, easiest, most and fewest "
                   "dungeons (default 20).")
@click.option("--rare-dungeons", type=click.IntRange(min=1), default=None,
              help="Keep every seed with at least this many dungeons (default 9).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on this Dask cluster (default: a LocalCluster on this machine); "
                   "tls://HOST:PORT with certificates in Dask's configuration. Nothing is "
                   "written until the cluster has a worker.")
@click.option("--local", "local", is_flag=True,
              help="Run on local processes without Dask.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, callback=cap_jobs,
              help="Local workers or processes " + JOBS_HELP + ".")
@click.option("--chart", type=click.Path(dir_okay=False), default=None, callback=chart_file,
              help="Also draw the statistics as a chart: FILE.svg, or FILE.png (needs "
                   "rsvg-convert).")
@output_format
@output_file
def command(out_dir: str | None, report_dir: str | None, rules: str | None, start: int | None,
            count: int | None, chunk: int | None, top: int | None, rare_dungeons: int | None,
            scheduler: str | None, local: bool, jobs: int | None, chart: str | None,
            output_format: str, output: str | None) -> None:
    """Analyse every seed of a range (by default all 2^35) in chunks on a Dask cluster, store
    each finished chunk in CENSUS_DIR, and report the distribution and the extreme seeds.

    An interrupted census resumes: run the same command again (or just --out CENSUS_DIR).
    --report CENSUS_DIR prints what a census holds so far. Its JSON has the fields of
    `solo stats --format json` plus "extremes" and "census" (docs/seeds.md).

    Exit code 2: a usage error (nothing is written); 3: a damaged census file (named);
    4: the scheduler cannot be reached; 70: a chunk kept killing its workers; 130/143:
    interrupted (Ctrl-C/SIGTERM). Each time one line says how to resume.
    """
    from pathcheck.solo.census import Census, dask_available, run_census
    from pathcheck.solo.census.cluster import AddressError, ChunkFailed, check_address
    from pathcheck.solo.census.run import stopped_message

    if (out_dir is None) == (report_dir is None):
        raise click.UsageError("give either --out CENSUS_DIR (run) or --report CENSUS_DIR")
    if report_dir is not None:
        given = [name for name, value in (("--rules", rules), ("--start", start),
                                          ("--count", count), ("--chunk", chunk),
                                          ("--top", top), ("--rare-dungeons", rare_dungeons),
                                          ("--scheduler", scheduler)) if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)}: only for a run (--out), not --report")
        _report(Census.load(open_census_dir(report_dir, "--report")), chart, output_format, output)
        return
    assert out_dir is not None
    if local and scheduler is not None:
        raise click.UsageError("--local and --scheduler exclude each other")
    if scheduler is not None:
        try:
            check_address(scheduler)  # a usage error before anything else
        except AddressError as exc:
            raise click.BadParameter(str(exc), param_hint="--scheduler") from None
    workers = resolve_jobs(jobs)
    use_dask = not local
    if use_dask and not dask_available():
        if scheduler is not None:
            raise click.UsageError("--scheduler needs Dask: pip install '.[cluster]' in a "
                                   "clone of pathcheck")
        click.echo(f"pathcheck: Dask is not installed: running on "
                   f"{counted(workers, 'local process')} (for a cluster: pip install "
                   "'.[cluster]' in a clone of pathcheck)", err=True)
        use_dask = False
    folder = open_census_dir(out_dir, "--out")
    folder.open(_plan(folder, rules, start, count, chunk, top, rare_dungeons))
    plan = folder.plan
    left = plan.count - sum(b - a for a, b in folder.done())
    said: list[str] = []

    def notice(text: str) -> None:
        said.append(text)
        _notice(text)

    try:
        with _progress(left, "census") as progress:
            info = run_census(folder, jobs=workers, use_dask=use_dask, scheduler=scheduler,
                              on_done=progress, notice=notice)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (pathcheck.cli.Interrupted: 143)
        if not any(text.startswith("census interrupted") for text in said):  # not started
            _notice(stopped_message(folder, "census interrupted"))
        raise click.exceptions.Exit(getattr(exc, "code", 130)) from None
    except ChunkFailed as exc:  # run_census has said which chunk, and how to resume
        raise click.exceptions.Exit(int(exc.exit_code)) from None
    if info.chunks:
        per_cpu = info.seeds / (info.cpu or info.busy or 1.0)
        per_worker = info.seeds / (info.busy or 1.0)
        from pathcheck.render.census import WORKERS

        done_on = counted(info.workers, WORKERS.get(info.backend, "worker"))
        click.echo(f"pathcheck: {info.chunks:,} chunks ({info.seeds:,} seeds) in "
                   f"{info.seconds:.1f} s on {done_on}: "
                   f"{per_cpu:,.0f} seeds per CPU second (of the analysing threads), "
                   f"{per_worker:,.0f} per second of a worker's wall time", err=True)
    _report(Census.load(folder), chart, output_format, output)


def open_census_dir(path: str, option: str) -> CensusDir:
    """The census directory an option names; a usage error for a file that is not one
    (``--out /dev/null``)."""
    from pathcheck.solo.census import CensusDir

    if os.path.exists(path) and not os.path.isdir(path):
        raise click.BadParameter(f"{path!r} is not a directory (a census is a directory)",
                                 param_hint=option)
    return CensusDir(path)


def _notice(text: str) -> None:
    click.echo(f"pathcheck: {text}", err=True)


def _plan(folder: CensusDir, rules: str | None, start: int | None, count: int | None,
          chunk: int | None, top: int | None, rare: int | None) -> Plan:
    """The plan asked for; options not given come from an existing census, else defaults."""
    from pathcheck.solo.census import CensusError, Limits, Plan

    old = folder.read_plan() if folder.exists() else None
    first = start if start is not None else old.start if old else 0
    limits = old.limits if old else Limits()
    try:
        return Plan(
            parse_rules(rules) if rules is not None else old.rules if old else frozenset(),
            first,
            count if count is not None else old.count if old else SEED_LIMIT - first,
            chunk if chunk is not None else old.chunk if old else DEFAULT_CHUNK,
            Limits(top if top is not None else limits.top,
                   rare if rare is not None else limits.rare))
    except CensusError as exc:  # options that make no census (a damaged manifest is read above)
        raise click.UsageError(str(exc)) from None


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[ChunkResult], None]]:
    """A progress bar with the rate and the time left on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        yield lambda result: None
        return
    began = time.perf_counter()
    done = 0
    with click.progressbar(length=total, label=label, file=sys.stderr, show_eta=True,
                           item_show_func=lambda text: text) as bar:
        def update(result: ChunkResult) -> None:
            nonlocal done
            done += result.stop - result.start
            rate = done / max(time.perf_counter() - began, 1e-9)
            bar.update(result.stop - result.start, f"{rate / 1e6:.2f}M seeds/s")

        yield update


def _report(census: Census, chart: str | None, output_format: str, output: str | None) -> None:
    if chart is not None:
        write_chart(census.summary(), Path(chart), census.plan.start)
    if output_format == "text":
        from pathcheck.render.census import format_census

        emit(format_census(census), output)
        return
    doc = census.to_dict()
    emit(json.dumps(doc, indent=2) if output_format == "json" else json.dumps(doc), output)


def pick(census_dir: str, rules: frozenset[int], wanted: Constraints, count: int,
         first: int) -> tuple[list[DealStats], int]:
    """``solo new --census``: seeds from a census instead of a search; says on stderr why
    when it has fewer than ``count``. Returns them and the number of seeds the census covers."""
    from pathcheck.solo.census import Census

    census = Census.load(open_census_dir(census_dir, "--census"))
    found, exhaustive = census.pick(rules, wanted, count, first)
    if len(found) < count:
        where = f"the census in {census_dir} ({census.deals:,} seeds counted"
        where += ")" if census.complete else ", not complete)"
        if exhaustive:
            have = f"only {counted(len(found), 'seed')}" if found else "no seed"
            click.echo(f"pathcheck: {where} has {have} with these constraints", err=True)
        else:
            click.echo(f"pathcheck: {where} keeps only the extremes and every seed with "
                       f"{census.plan.limits.rare}+ dungeons, not every seed with these "
                       "constraints: search without --census", err=True)
    return found, census.deals
