"""Ruling on many logs as a stream: in input order, in constant memory, on one or more cores.

The input is split by the one way in (:func:`pathcheck.inputs.items.log_items`: raw JSON
Lines, the decoded elements of a JSON document, or notation logs), in chunks; each chunk is decoded,
ruled on and rendered in one go (:func:`rule_chunk`), here or in a worker process
(:func:`pathcheck.batch.parallel_map`), and the rendered rulings come back in input order as
:class:`Ruled` values, one per log, ready to write. Nothing is kept once it is written.

>>> import json, random, tempfile
>>> from pathcheck.games.dungeon.gen import random_game
>>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
...     _ = f.write(json.dumps(random_game(random.Random(1), players=2)) + "\\n{}\\n")
>>> [(r.status, r.line) for r in rule_logs([f.name], StreamSettings(output="jsonl"))]
[('legal', 1), ('invalid', 2)]
"""

from __future__ import annotations

import functools
import gc
import inspect
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, NamedTuple, TypeVar

import msgspec

from pathcheck import games
from pathcheck.batch.baton import baton_map
from pathcheck.batch.records import parallel_map, usable_cores
from pathcheck.batch.sink import Results
from pathcheck.batch.spans import log_tasks, span_items
from pathcheck.errors import (
    ExitCode,
    InputError,
    IOFailure,
    PathcheckError,
    PluginError,
    RecordError,
)
from pathcheck.inputs.items import (
    DGN_LINE,
    ERROR,
    JSON_LINE,
    Item,
    is_json,
    is_notation,
    located,
    log_items,
    log_value,
)
from pathcheck.reading.bounded import Guard, guard
from pathcheck.reading.reader import Document
from pathcheck.ruling import Ruling, render_text
from pathcheck.verify import error_dict, unreadable_dict

R = TypeVar("R")

CHUNK = 64
"""Logs per task: big enough to make a worker round trip cheap, small enough to stream."""


@dataclass(frozen=True)
class StreamSettings:
    """How every log is ruled on and rendered: the GAME named on the command line (None: the
    log's ``format`` picks), the ``--at`` moment, the output format."""

    game: str | None = None
    at: str | None = None
    output: str = "text"
    keep: bool = False
    """Hand back each log and its ruling too (``--html`` draws pages from them)."""


class Ruled(NamedTuple):
    """One log ruled on and rendered (or the one-line error that stopped it)."""

    status: str
    """``legal``, ``illegal``, ``invalid`` (exit 3), ``unreadable`` (a whole file, exit 4)."""
    text: bytes
    """The ruling rendered in the output format, UTF-8 (b"" for an error): bytes, as they are
    written (and sent back from a worker process at the cost of a copy)."""
    error: str
    """The line for stderr ("" for a ruling), e.g. ``pathcheck: invalid: log.jsonl:3: ...``."""
    line: int
    size: int
    """Input bytes this log stood for (for the progress bar)."""
    kept: tuple[Document, Ruling] | None = None
    """The log and its ruling, when the settings ask to keep them."""
    written: bool = False
    """The text was written to the output already, by the process that made it (``text``
    is then b""; see :mod:`pathcheck.batch.baton`)."""


def rule_logs(paths: Iterable[str], settings: StreamSettings, jobs: int = 1,
              results: Results | None = None) -> Iterator[Ruled]:
    """Rule on every log of ``paths`` and yield the rendered rulings in input order.

    ``jobs`` is capped at the usable cores and at the work: a second process starts only
    when there is more than one chunk of logs. With one process each log is ruled on as soon
    as it is read (a log arriving on a pipe is answered at once). ``results``: where the
    caller writes the rulings, which the processes may then write themselves (see
    :func:`process_logs`).
    """
    return process_logs(paths, functools.partial(rule_item, settings=settings), jobs,
                        results)


def process_logs(paths: Iterable[str], work: Callable[[Item], R], jobs: int = 1,
                 results: Results | None = None) -> Iterator[R]:
    """``work`` (a picklable function of one :class:`~pathcheck.batch.Item`: a log, or the
    error that stands for one) done on every log of ``paths``, the results in input order:
    :func:`rule_logs` rules on them, ``pathcheck analyse`` analyses them.

    With ``results`` (where the caller writes each result's ``text``, which must then be a
    NamedTuple with ``status``, ``text``, ``error``, ``size`` and ``written``), ``jobs`` > 1
    and an output with a file descriptor, each process writes its results itself, in input
    order, and hands back the results without their text, marked ``written``
    (:mod:`pathcheck.batch.baton`); the caller only counts them."""
    paths = list(paths)
    jobs = max(1, min(jobs, usable_cores()))
    if not all(is_json(path) and path != "-" for path in paths):
        jobs = 1  # notation logs (hand-written, small) carry documents that do not pickle
    gc_was_enabled = gc.isenabled()
    gc.disable()  # rulings are acyclic: collecting while thousands are made only costs time
    try:
        if jobs <= 1:
            for path in paths:
                for item in log_items(path):
                    yield work(item)
            return
        fd = None if results is None else results.direct_fd()
        if results is not None and fd is not None:
            yield from _direct(paths, work, jobs, results, fd)
            return
        tasks = _chunks(paths)
        head = list(itertools.islice(tasks, 2))
        chunk_work = functools.partial(_each, work=work)
        if len(head) < 2:
            for task in head:
                yield from chunk_work(task)
        else:
            yield from parallel_map(itertools.chain(head, tasks), chunk_work, jobs)
    finally:
        if gc_was_enabled:
            gc.enable()


def _direct(paths: list[str], work: Callable[[Item], R], jobs: int, results: Results,
            fd: int) -> Iterator[R]:
    """:func:`process_logs` with the processes writing their own results."""
    opened: dict[int, BinaryIO] = {}
    try:
        tasks = log_tasks(paths, opened)
        head = list(itertools.islice(tasks, 2))
        chunk_work = functools.partial(_each, work=work)
        if len(head) < 2:  # one task: no process to start
            for task in head:
                yield from chunk_work(span_items(task, opened))
            return
        yield from baton_map(itertools.chain(head, tasks), opened, chunk_work, jobs, results,
                             fd)
    finally:
        for stream in opened.values():
            stream.close()


def _chunks(paths: Iterable[str]) -> Iterator[list[Item]]:
    for path in paths:
        chunk: list[Item] = []
        for item in log_items(path):
            chunk.append(item)
            if len(chunk) >= CHUNK:
                yield chunk
                chunk = []
        if chunk:
            yield chunk


def rule_chunk(items: list[Item], settings: StreamSettings) -> list[Ruled]:
    """Decode, rule on and render each item (in a worker process or here)."""
    return [rule_item(item, settings) for item in items]


def _each(items: list[Item], work: Callable[[Item], R]) -> list[R]:
    return [work(item) for item in items]


def rule_item(item: Item, settings: StreamSettings) -> Ruled:
    """One item ruled on and rendered; every error is caught and worded in one line (and, in
    JSON output, written in the log's place as ``verify`` writes an invalid record)."""
    if isinstance(item.payload, IOFailure):
        return Ruled("unreadable", unreadable_entry(item.payload, settings.output),
                     f"pathcheck: error: {item.payload}", 0, 0)
    if item.kind == ERROR and isinstance(item.payload, RecordError | InputError):
        return _invalid(item, item.payload, f"pathcheck: invalid: {item.payload}", settings)
    try:
        doc, ruling = _rule(item, settings)
    except PathcheckError as exc:
        return _invalid(item, exc, failure_line(item, exc), settings)
    ruling = msgspec.structs.replace(ruling, line=item.line or None)
    status = "illegal" if ruling.violations else "legal"
    return Ruled(status, render(ruling, settings.output), "", item.line, item.size,
                 (doc, ruling) if doc is not None and settings.keep else None)


def _invalid(item: Item, exc: PathcheckError, message: str, settings: StreamSettings) -> Ruled:
    """A log that could not be ruled on: its line for stderr, and in JSON output the
    ``"kind": "invalid"`` result in its place (so output line N stays input log N)."""
    return Ruled("invalid", invalid_entry(item, exc, settings.output), message, item.line,
                 item.size)


def failure_line(item: Item, exc: PathcheckError) -> str:
    """The stderr line for a log that could not be ruled on or analysed (``adjudicate`` and
    ``analyse`` alike): a RecordError names its own place; any other error gets the log's."""
    if isinstance(exc, RecordError):
        return f"pathcheck: invalid: {exc}"
    bad_input = isinstance(exc, InputError) and exc.exit_code == ExitCode.INVALID_INPUT
    prefix = "invalid" if bad_input else "error"  # a plug-in that cannot load: error
    return f"pathcheck: {prefix}: {item.source}:{item.line}: {exc}"


def invalid_entry(item: Item, exc: PathcheckError, output: str) -> bytes:
    """The ``"kind": "invalid"`` result that stands in a bad log's place in JSON output
    (``adjudicate`` and ``analyse`` alike); text output has none: stderr says it."""
    if isinstance(exc, RecordError):
        value = error_dict(exc)
    else:
        value = {"source": item.source, "line": item.line or None, "kind": "invalid",
                 "pointer": item.pointer, "error": str(exc)}
    return _encode(value, output)


def unreadable_entry(exc: IOFailure, output: str) -> bytes:
    """The ``"kind": "unreadable"`` result that stands in the place of a file that could not
    be read, in JSON output (``adjudicate`` and ``analyse`` alike; text output has none)."""
    return _encode(unreadable_dict(exc), output)


def render(ruling: Ruling, output: str) -> bytes:
    """A ruling as text, as an indented JSON element of the ``json`` array, or as one line
    (UTF-8)."""
    if output == "text":
        return render_text(ruling).encode("utf-8")
    return _indented(ruling.to_json(), output)


def _encode(value: dict[str, Any], output: str) -> bytes:
    """An error result in the output format (text output has none: stderr says it)."""
    return b"" if output == "text" else _indented(msgspec.json.encode(value), output)


def _indented(encoded: bytes, output: str) -> bytes:
    if output == "json":
        return b"  " + msgspec.json.format(encoded, indent=2).replace(b"\n", b"\n  ")
    return encoded


class _Head(msgspec.Struct):
    """The one field read of a log before its game is known (the others are skipped)."""

    format: Any = None


_head = msgspec.json.Decoder(_Head)


_PLAIN_LEAD = re.compile(rb'\{"format":"([ !#-\[\]-~]+)"[,}]')
"""A line opening with its format in printable ASCII without escapes: read without a scan."""


def format_of(raw: bytes) -> Any:
    """The ``format`` field of a JSON log (the rest skipped); raises msgspec.DecodeError.

    A line that opens with the field, as logs are written (``{"format":"game/1",...``), is
    not scanned further here: its reader reads it whole, and the typed path runs only on a
    line the reader's guard passed (no key given twice).

    >>> format_of(b'{"format":"game/1","players":[]}'), format_of(b'{"a":1,"format":"x"}')
    ('game/1', 'x')
    """
    lead = _PLAIN_LEAD.match(raw)
    if lead is not None:
        return lead.group(1).decode("ascii")
    return _head.decode(raw).format


def _rule_decoded(raw: bytes, item: Item, settings: StreamSettings) -> Ruling | None:
    """The ruling on a JSON line (passed by the reader's guard) read straight into its game's
    typed values, when the game offers it
    (:meth:`pathcheck.games.GameAdjudicator.rule_decoded`) and the line is a clean log of its
    format; None otherwise: the line is then decoded and ruled on as usual, which gives the
    same ruling or words the error (the tests compare both ways)."""
    try:
        fmt = format_of(raw)
        if not isinstance(fmt, str):
            return None
        adjudicator = (games.load(settings.game) if settings.game is not None
                       else games.for_format(fmt))
        rule = getattr(adjudicator, "rule_decoded", None)
        if rule is None:
            return None
        if settings.output != "text" and _takes_for_json(getattr(rule, "__func__", rule)):
            ruled: Ruling | None = rule(raw, fmt, source=_source(item), for_json=True)
        else:
            ruled = rule(raw, fmt, source=_source(item))
    except (msgspec.DecodeError, UnicodeDecodeError, PathcheckError):
        return None  # the usual way words it
    return ruled


@functools.cache
def _takes_for_json(function: Any) -> bool:
    """Whether a game's ``rule_decoded`` takes ``for_json``: the ruling is only to be encoded
    (``--format json|jsonl``, nothing kept), so parts of it may come already encoded as a
    :class:`msgspec.Raw` (Memoarrr!'s rounds, docs/adjudicate.md); asked once a function."""
    return "for_json" in inspect.signature(function).parameters


def _source(item: Item) -> str:
    """The log's name in its ruling: the file, and ``#/N`` for an element of an array."""
    return item.source if not item.pointer else f"{item.source}#{item.pointer}"


def _rule(item: Item, settings: StreamSettings) -> tuple[Document | None, Ruling]:
    if item.kind == ERROR:
        raise item.payload
    pointer = item.pointer
    if item.kind in (JSON_LINE, DGN_LINE):
        raw = item.payload.rstrip(b"\r\n")
        checked = guard(raw)  # once: the typed path needs it, and so does decode_value
        if checked is Guard.CLEAR and settings.at is None and not settings.keep:
            fast = _rule_decoded(raw, item, settings)
            if fast is not None:
                return None, fast
        value = log_value(item, checked)
    else:
        value = log_value(item)
    if settings.game is not None:
        adjudicator = games.load(settings.game)
    else:
        fmt = value.get("format")
        if not isinstance(fmt, str):
            raise RecordError(
                item.source, item.line, pointer + "/format",
                "missing \"format\" (e.g. \"game/1\"); name the GAME on the command line",
            )
        try:
            adjudicator = games.for_format(fmt)
        except PluginError as exc:  # the log's own field is wrong: point at it
            raise RecordError(item.source, item.line, pointer + "/format", str(exc)) from None
    try:
        ruling = adjudicator.adjudicate(value, source=_source(item),
                                        options=games.AdjudicateOptions(at=settings.at))
    except RecordError as exc:
        raise located(exc, item) from exc
    doc = item.extra if is_notation(item) else Document(item.source, item.line, value, pointer)
    return doc, ruling
