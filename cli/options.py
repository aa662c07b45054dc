"""Options shared by several commands, defined once."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from pathcheck.solo.deal import Summary

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("text", "json", "jsonl")


def output_format(func: F) -> F:
    """``--format text|json|jsonl``."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(FORMATS),
        default="text",
        show_default=True,
        help="text for people; json (one document) or jsonl (one result a line) for tools.",
    )(func)


def output_file(func: F) -> F:
    """``--output FILE``: write atomically instead of to stdout; in a command with
    ``--format``, FILE's suffix chooses the format (:func:`format_by_name`)."""
    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        if "output_format" in kwargs:
            kwargs["output_format"] = format_by_name(click.get_current_context(),
                                                     kwargs["output_format"], kwargs["output"])
        return func(*args, **kwargs)

    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        callback=not_a_folder,
        help="Write the report to FILE (atomically) instead of stdout; FILE.json, .jsonl "
             "(and .csv where offered) choose the format.",
    )(cast(F, run))


FORMAT_SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
"""What ``-o NAME.SUFFIX`` writes, as ``convert`` reads a name (any other suffix: --format)."""


def format_by_name(ctx: click.Context, output_format: str, output: str | None) -> str:
    """The format ``-o`` writes: the one its name's suffix says (``-o results.jsonl``), unless
    ``--format`` is given, which must then agree (``--format text -o r.json`` is a usage
    error, exit 2); else ``--format`` (default text)."""
    meant = FORMAT_SUFFIXES.get(os.path.splitext(output or "")[1].lower())
    param = next((p for p in ctx.command.params if p.name == "output_format"), None)
    if meant is None or param is None or meant not in getattr(param.type, "choices", ()):
        return output_format
    if ctx.get_parameter_source("output_format") in (click.core.ParameterSource.DEFAULT,
                                                      None):
        return meant
    if output_format != meant:
        raise click.UsageError(f"-o {output} writes {meant}, but --format {output_format} was "
                               f"given: leave --format out, or name the file to match it")
    return output_format


def complete_game_or_log(ctx: click.Context, param: click.Parameter, incomplete: str
                         ) -> list[CompletionItem]:
    """Shell completion of ``[GAME] LOG...``: the installed games first (in first place
    only), then files."""
    from click.shell_completion import CompletionItem

    from pathcheck import games

    names = [] if ctx.params.get(param.name or "") else sorted(games.available())
    return [*(CompletionItem(name) for name in names if name.startswith(incomplete)),
            CompletionItem(incomplete, type="file")]


def complete_from(names: Callable[[], Iterable[str]]) -> Callable[..., list[CompletionItem]]:
    """Shell completion of an argument by the ``names`` it takes (computed when completing)."""
    def complete(ctx: click.Context, param: click.Parameter, incomplete: str
                 ) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in names() if name.startswith(incomplete)]

    return complete


def not_a_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A FILE option's value that ends in ``/`` names a folder: a usage error (exit 2), not
    a file written under the name without its slash; so is a file in a folder that does not
    exist (it is not made)."""
    if value is not None and value.endswith(("/", os.sep)):
        raise click.BadParameter(f"{value!r} names a folder; give a file name", ctx, param)
    folder = os.path.dirname(value) if value is not None and value != "-" else ""
    if folder and not os.path.isdir(folder):  # a typo'd folder is not made silently
        raise click.BadParameter(f"{value!r}: there is no folder {folder!r} to write it in "
                                 "(make it first)", ctx, param)
    return value


def chart_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--chart FILE``: a ``.svg`` file, or a ``.png`` one drawn through rsvg-convert; any
    other name, or a PNG without rsvg-convert, is a usage error (exit 2) before any work."""
    import shutil

    value = not_a_folder(ctx, param, value)
    if value is None:
        return None
    suffix = os.path.splitext(value)[1].lower()
    if suffix not in (".svg", ".png"):
        raise click.BadParameter(f"{value!r}: name a .svg or .png file", ctx, param)
    if suffix == ".png" and shutil.which("rsvg-convert") is None:
        raise click.BadParameter("a PNG chart needs rsvg-convert (librsvg) on the PATH; "
                                 "write a .svg instead", ctx, param)
    return value


def _check_tileset(ctx: click.Context, param: click.Parameter, value: str | None
                   ) -> str | None:
    return check_tileset_file(value)


def check_tileset_file(value: str | None) -> str | None:
    """``--tileset FILE`` that is not there or is a folder: a file that cannot be read (exit
    4) before any record is read, in every command alike; a malformed one is invalid input
    (exit 3) when it is loaded. Not read here: a FIFO can be read only once."""
    import os
    import stat

    from pathcheck.errors import IOFailure
    from pathcheck.tracer.tileset import BUILTIN

    if value is None or value in BUILTIN:
        return value
    try:
        mode = os.stat(value).st_mode
    except FileNotFoundError:
        raise IOFailure(f"{value}: no such tile-set file (built-in sets: "
                        f"{', '.join(BUILTIN)})") from None
    except OSError as exc:
        raise IOFailure(f"{value}: cannot read tile set: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise IOFailure(f"{value}: cannot read tile set: it is a folder")
    return value


def tileset_option(func: F) -> F:
    return click.option(
        "--tileset",
        default=None,
        metavar="FILE",
        callback=_check_tileset,
        help="A tile-set TOML file (default: the built-in 'standard' set).",
    )(func)


def unchecked_tileset_option(func: F) -> F:
    """``--tileset`` of a command that calls :func:`check_tileset_file` itself, after its own
    usage checks (analyse: ``--tileset`` with a LOG is a usage error whatever the file)."""
    return click.option(
        "--tileset",
        default=None,
        metavar="FILE",
        help="A tile-set TOML file (default: the built-in 'standard' set).",
    )(func)


RECORD_RULES = "Additional rules to apply, e.g. '2,3' (overrides what records say; '' for none)."
SEED_RULES = "The additional rules of the solo challenges, e.g. '2,3' (default: none)."


def bad_value(exc: Exception, option: str) -> click.BadParameter:
    """An option value the engine refused, as a usage error (exit code 2); what it quotes
    (a tile id of a tile set, a name) escaped as every message escapes it."""
    from pathcheck.safe import one_line

    message = one_line(str(exc).removeprefix(f"{option}: "))
    return click.BadParameter(message, param_hint=f"'{option}'")


def check_moment(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--at`` (adjudicate, analyse) that is no ROUND.TURN at all is a usage error (exit 2),
    before any log is read; a moment a log does not have is that log's error (exit 3), found
    when it is read."""
    from pathcheck.errors import InputError
    from pathcheck.games.common import Moment

    if value is not None:
        try:
            Moment.parse(value)
        except InputError as exc:
            raise click.BadParameter(str(exc).removeprefix("--at "),
                                     param_hint="'--at'") from None
    return value


def _check_rules(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from pathcheck.errors import InputError
    from pathcheck.inputs.records import parse_rules_option

    try:
        parse_rules_option(value)
    except InputError as exc:
        raise bad_value(exc, "--rules") from None
    return value


def _check_solo_rules(ctx: click.Context, param: click.Parameter,
                      value: str | None) -> str | None:
    from pathcheck.solo.seed_codes import SeedCodeError, parse_rules

    try:
        parse_rules(value)
    except SeedCodeError as exc:
        raise bad_value(exc, "--rules") from None
    return value


def rules_option(func: F, help: str = RECORD_RULES) -> F:
    """``--rules LIST``; a value that is no list of rules is a usage error (exit code 2)."""
    return click.option("--rules", default=None, metavar="LIST", callback=_check_rules,
                        help=help)(func)


def seed_rules_option(func: F, help: str = SEED_RULES) -> F:
    """``--rules`` of the solo commands, which have no records whose rules it could override:
    only solo rules (#2, #3, #4); anything else is a usage error (exit code 2)."""
    return click.option("--rules", default=None, metavar="LIST", callback=_check_solo_rules,
                        help=help)(func)


def advanced_option(func: F) -> F:
    return click.option(
        "--advanced/--basic",
        default=None,
        help="Force advanced (Repeat tiles, rule #4) or basic rules for every record.",
    )(func)


JOBS_HELP = "(default and most: all cores)"
"""How every ``-j/--jobs`` help ends: the one default, said in the same words everywhere."""


def cap_jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--jobs N``: never more workers than cores (more would only cost memory); None (not
    given) stays None, for :func:`resolve_jobs`."""
    if value is None:
        return None
    from pathcheck.lifeline import cap_jobs as cap

    return cap(value)


def resolve_jobs(jobs: int | None, paths: Iterable[str] = ()) -> int:
    """The workers a command uses: ``-j N`` as given (capped), else all usable cores, except
    that work read from standard input (``-`` among ``paths``) streams through one process,
    each result written as soon as it is made.

    >>> resolve_jobs(1, ["-"])
    1
    >>> resolve_jobs(None, ["-"])
    1
    """
    if jobs is not None:
        return jobs
    if "-" in paths:
        return 1
    from pathcheck.lifeline import usable_cores

    return usable_cores()


def jobs_option(func: F) -> F:
    """``-j/--jobs N``: the batch commands' workers (``verify``, ``adjudicate``, ``analyse``).
    Resolve the value with :func:`resolve_jobs`."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        default=None,
        callback=cap_jobs,
        help="Worker processes for batch work " + JOBS_HELP + "; one when reading standard "
             "input. Results keep input order.",
    )(func)


def emit(text: str, output: str | None) -> None:
    """Print ``text`` or write it atomically to ``output``."""
    if output is None:
        click.echo(text)
    else:
        from pathcheck.output import write_atomic

        write_atomic(output, text if text.endswith("\n") else text + "\n")


def write_chart(summary: Summary, path: Path, start: int) -> None:
    """``--chart`` of ``solo stats`` and ``solo census``: the statistics as SVG or PNG."""
    from pathcheck.render.chart import stats_chart_svg

    write_svg_chart(stats_chart_svg(summary, start=start), path)


def write_svg_chart(svg: str, path: Path) -> None:
    """A chart (checked by :func:`chart_file`) written atomically: as SVG, or as PNG through
    rsvg-convert."""
    from pathcheck.output import write_atomic

    if path.suffix.lower() != ".png":
        write_atomic(path, svg)
        return
    import shutil
    import subprocess

    converter = shutil.which("rsvg-convert")
    if converter is None:
        raise click.BadParameter("a PNG chart needs rsvg-convert (librsvg) on the PATH; "
                                 "write a .svg instead", param_hint="--chart")
    from pathcheck.errors import IOFailure
    from pathcheck.render.chart import PNG_SIDE, fit_for_png
    from pathcheck.safe import one_line

    svg, scale = fit_for_png(svg)
    if scale < 1.0:
        click.echo(f"pathcheck: note: {path}: the chart is drawn at {scale:.0%} of its size, "
                   f"to fit a PNG's {PNG_SIDE:,} pixels; a .svg chart has no such limit",
                   err=True)
    done = subprocess.run([converter, "--format", "png"], input=svg.encode("utf-8"),
                          capture_output=True, check=False)
    if done.returncode != 0:  # one line (rsvg-convert writes several), exit 4: not written
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise IOFailure(one_line(f"{path}: cannot write: rsvg-convert failed"
                                 + (f": {said[-1]}" if said else "")))
    write_atomic(path, done.stdout)


def progress_bar(stack: ExitStack, files: Sequence[str], label: str) -> Any:
    """A progress bar on stderr (entered on ``stack``) when stderr is a terminal and the
    input is more than 2 MB of files; None otherwise. Update it with bytes done."""
    import sys

    from pathcheck.batch import input_size

    total = input_size(files)
    if total is None or total <= 2_000_000 or not sys.stderr.isatty():
        return None
    return stack.enter_context(click.progressbar(length=total, label=label, file=sys.stderr))


def refuse_input_as_output(output: str | None, inputs: tuple[str, ...] | list[str],
                           option: str = "--output") -> None:
    """``-o`` (``--svg``, ``--graph``) may not name one of the input files, nor the file on
    standard input (``-``): the report would replace the user's data. Files are compared as
    the system sees them (device and inode), so links and other spellings are caught."""
    if output is None:
        return
    import os
    import stat

    try:
        target = os.stat(output)
    except (OSError, ValueError):  # not there yet (or not a name at all): nothing to replace
        return
    for name in inputs:
        try:  # standard input as what it is (a file redirected with <, a pipe)
            info = os.fstat(0) if name == "-" else os.stat(name)
        except (OSError, ValueError):  # unreadable: reported when it is read
            continue
        if name == "-" and not stat.S_ISREG(info.st_mode):  # a pipe, a terminal, /dev/null
            continue
        if (info.st_dev, info.st_ino) == (target.st_dev, target.st_ino):
            what = "the file on standard input" if name == "-" else "one of the input files"
            raise click.UsageError(f"{option} {output} is {what}; name another file")


SVG_SUFFIXES = (".svg",)
GRAPH_SUFFIXES = (".graphml", ".json")


def file_or_folder(value: str | None, suffixes: tuple[str, ...],
                   option: str = "--svg") -> tuple[str | None, str | None]:
    """``--svg``/``--graph`` VALUE as (file, folder): a name with one of ``suffixes`` is a
    file, a name without a suffix (``pictures``), ending in ``/`` or naming a folder that
    exists a folder, made if need be. A file name with another suffix (``pic.png``) is a
    usage error saying what can be written, not a folder made by that name.

    >>> file_or_folder("a.SVG", SVG_SUFFIXES), file_or_folder("newdir/", SVG_SUFFIXES)
    (('a.SVG', None), (None, 'newdir/'))
    >>> try:
    ...     file_or_folder("pic.png", SVG_SUFFIXES)
    ... except click.BadParameter as exc:
    ...     print(exc.message)
    pic.png: pictures are drawn as SVG only: give FILE.svg, or a folder (pic.png/, made if \
need be) for a picture of each dungeon
    """
    if value is None:
        return None, None
    if value.lower().endswith(suffixes):
        return value, None
    name = os.path.basename(value)
    if "." in name.strip(".") and not value.endswith(("/", os.sep)) and not os.path.isdir(value):
        what, each = ("pictures are drawn as SVG only", "a picture") if option == "--svg" else \
            ("the graph is written as " + " or ".join(s.lstrip(".") for s in suffixes), "a graph")
        raise click.BadParameter(f"{value}: {what}: give FILE{suffixes[0]}, or a folder "
                                 f"({value}/, made if need be) for {each} of each dungeon",
                                 param_hint=option)
    return None, value


class Outcome(Protocol):
    """What a batch command gets back for each log: its status (a key of the command's
    counts), its rendered text, the one-line error (empty: none) and the bytes it took."""

    @property
    def status(self) -> str: ...
    @property
    def text(self) -> bytes: ...
    @property
    def error(self) -> str: ...
    @property
    def size(self) -> int: ...


OutcomeT = TypeVar("OutcomeT", bound=Outcome)


def counted_outcomes(outcomes: Iterable[OutcomeT], counts: dict[str, int],
                     bar: Any) -> Iterator[OutcomeT]:
    """Each outcome counted by status and shown on the progress ``bar`` (None: none); an
    error goes to stderr at once, and an error with no text to write (text output) is not
    handed on."""
    from pathcheck.safe import one_line

    for outcome in outcomes:
        counts[outcome.status] += 1
        if bar is not None:
            bar.update(outcome.size)
        if outcome.error:
            click.echo(one_line(outcome.error), err=True)
            if not outcome.text:
                continue
        yield outcome


def nothing_ruled(counts: dict[str, int], what: str) -> str | None:
    """Why no input gave a result, when none did (every one ``unreadable`` or ``invalid``):
    "nothing could be read", or "no WHAT" when something was read; None when one did."""
    failed = counts["unreadable"] + counts["invalid"]
    if not failed or failed != sum(counts.values()):
        return None
    return "nothing could be read" if failed == counts["unreadable"] else f"no {what}"


def keep_if_nothing_read(out: Any, why: str | None) -> bool:
    """When no input could be read or ruled on at all (``why``, see :func:`nothing_ruled`:
    a typo'd name, an unreadable file, only invalid logs or records), the ``-o`` FILE ``out``
    writes is left as it was, not replaced by a report of nothing (the errors are on
    stderr); True when it was."""
    from pathcheck.output import AtomicWriter

    if why is not None and isinstance(out, AtomicWriter):
        out.abandon()
        click.echo(f"pathcheck: note: {why}: {out.target} is left as it was", err=True)
        return True
    return False
