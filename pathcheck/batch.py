"""Batch verification: stream records from many files, spread the work, keep input order.

The main process only splits input into tasks: chunks of :class:`Item` values (raw JSON
Lines or ``.dgn`` lines, or decoded values of a JSON document), or whole-line blocks of
JSON Lines for the C fast path (:mod:`pathcheck.speedups`). Tasks are verified here, on
threads (the fast path, which releases the GIL) or in worker processes (the Python path),
and results come back in input order. At most a few tasks are in flight, so memory stays
constant however large the input.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import os
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import msgspec

from pathcheck.bounded import (
    Oversized,
    Readable,
    line_blocks,
)
from pathcheck.constants import REASONS
from pathcheck.errors import IOFailure, RecordError
from pathcheck.reader import (
    Document,
    Shape,
    decode_value,
    iter_document,
    open_input,
    open_source,
    shape_by_name,
    source_name,
)
from pathcheck.records import (
    NOT_RULED,
    Overrides,
    dgn_blank,
    dgn_lines,
    parse_dgn_bytes,
    pragma_line,
    pragma_settings,
    record_from_document,
)
from pathcheck.render.words import counted
from pathcheck.verify import (
    DungeonVerdict,
    Verdict,
    error_dict,
    unreadable_dict,
    verify_record,
)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from pathcheck import speedups


T = TypeVar("T")
R = TypeVar("R")
JSON_LINE, DGN_LINE, VALUE, ERROR = range(4)
CHUNK = 256


class Item(NamedTuple):
    """One record to verify, not yet decoded (or decoded by the main process)."""

    kind: int
    source: str
    line: int
    payload: Any
    pointer: str = ""
    extra: Any = None
    """.dgn: the pragma defaults in force; JSON: the folder relative tile-set paths start from."""
    size: int = 0


@dataclass(frozen=True)
class Settings:
    """How each record is verified and shown."""

    overrides: Overrides = field(default_factory=Overrides)
    output: str = "text"
    show_map: bool = True
    svg_dir: str | None = None
    graph_dir: str | None = None
    inline_pictures: bool = False
    """Return the SVG and graph of each record in its :class:`Rendered` (for ``--svg FILE.svg``)."""
    inline_graph: str = ".graphml"
    """The file the inline graph is for: its suffix picks GraphML or node-link JSON."""
    picture_stems: tuple[tuple[str, str], ...] = ()
    """Input name -> stem of its pictures' names (see ``render.pictures.picture_stems``)."""


class Rendered(NamedTuple):
    """The verdict on one record, rendered."""

    status: str
    """``held``, ``lost``, ``solo``, ``invalid`` or ``unreadable`` (a whole file)."""
    reason: str | None
    text: str
    size: int
    error: str | None = None
    """For an invalid record: the one-line error (file:line: pointer: message)."""
    svg: str | None = None
    graph: bytes | None = None


@dataclass
class RunSummary:
    """What a batch run found, for its closing line."""

    records: int = 0
    held: int = 0
    lost: Counter[str] = field(default_factory=Counter)
    solo: int = 0
    invalid: int = 0
    unreadable: int = 0
    """Files that could not be read (not counted as records)."""

    def add(self, outcome: Result) -> None:
        if isinstance(outcome, Block):
            for code, count in enumerate(outcome.counts):
                self.records += count
                if code == 0:
                    self.held += count
                elif count:
                    self.lost[REASONS[code] or "?"] += count
            return
        if outcome.status == "unreadable":
            self.unreadable += 1
            return
        self.records += 1
        if outcome.status == "held":
            self.held += 1
        elif outcome.status == "lost":
            self.lost[outcome.reason or "?"] += 1
        elif outcome.status == "solo":
            self.solo += 1
        else:
            self.invalid += 1

    def _lost_in_order(self) -> list[tuple[str, int]]:
        """Most frequent first; ties in reason-code order (not in order of appearance, which
        the fast path, counting per block, does not keep), for the text and JSON alike."""
        return sorted(self.lost.items(), key=lambda rn: (-rn[1], _reason_rank(rn[0])))

    def to_dict(self) -> dict[str, Any]:
        return {"records": self.records, "held": self.held, "lost": dict(self._lost_in_order()),
                "solo": self.solo, "invalid": self.invalid, "unreadable": self.unreadable}

    def text(self) -> str:
        lost = sum(self.lost.values())
        detail = ", ".join(f"{r} {n}" for r, n in self._lost_in_order())
        parts = [f"{self.records} record{'' if self.records == 1 else 's'}", f"{self.held} held",
                 f"{lost} Lost" + (f" ({detail})" if detail else "")]
        if self.solo:
            parts.append(f"{self.solo} solo")
        parts.append(f"{self.invalid} invalid")
        if self.unreadable:
            parts.append(counted(self.unreadable, "unreadable file"))
        return "Summary: " + ", ".join(parts)


def _reason_rank(reason: str) -> int:
    return REASONS.index(reason) if reason in REASONS else len(REASONS)


# --- splitting input into items -------------------------------------------------------------


def iter_items(name: str) -> Iterator[Item]:
    """The records of one file as items, in order (``-`` is stdin)."""
    source = source_name(name)
    base = None if name == "-" else str(Path(name).resolve().parent)
    try:
        with open_input(name) as sniffed:
            if sniffed.shape is Shape.DGN:
                yield from _dgn_items(sniffed.lines(), source, sniffed.first_line)
            elif sniffed.shape is Shape.JSON_LINES:
                yield from _line_items(sniffed.lines(), source, sniffed.first_line, base)
            else:
                yield from _document_items(sniffed.document(), source, sniffed.first_line, base)
    except IOFailure as exc:
        yield Item(ERROR, source, 0, exc)


def _line_items(stream: Iterable[bytes | Oversized], source: str, start: int, base: str | None
                ) -> Iterator[Item]:
    for number, raw in enumerate(stream, start):
        if isinstance(raw, Oversized):
            yield _oversized_item(source, number, raw)
        elif raw.strip():
            yield Item(JSON_LINE, source, number, raw, "", base, len(raw))


def _oversized_item(source: str, line: int, raw: Oversized) -> Item:
    return Item(ERROR, source, line, RecordError(source, line, "", raw.message()),
                size=raw.size)


def _dgn_items(stream: Iterable[bytes | Oversized], source: str, start: int) -> Iterator[Item]:
    for entry in dgn_lines(stream, source, start):
        if isinstance(entry, RecordError):
            yield Item(ERROR, source, entry.line or 0, entry)
        else:
            number, raw, defaults = entry
            yield Item(DGN_LINE, source, number, raw, "", defaults, len(raw))


def _document_items(stream: Readable, source: str, first_line: int, base: str | None
                    ) -> Iterator[Item]:
    for entry in iter_document(stream, source, first_line):
        if isinstance(entry, RecordError):
            yield Item(ERROR, source, entry.line or first_line, entry)
        else:
            yield Item(VALUE, source, entry.line, entry.value, entry.pointer, base, 0)


# --- processing ---------------------------------------------------------------------------

_encoder = msgspec.json.Encoder()


def _record(item: Item, settings: Settings) -> Any:
    if item.kind == ERROR:
        raise item.payload
    if item.kind == DGN_LINE:
        return parse_dgn_bytes(item.payload, source=item.source, line=item.line,
                               overrides=settings.overrides, defaults=item.extra)
    if item.kind == JSON_LINE:
        # Without its line end, as the fast path hands a line over: one message either way.
        decoded = decode_value(item.payload.rstrip(b"\r\n"), item.source, item.line, "")
        if isinstance(decoded, RecordError):
            raise decoded
        value = decoded.value
    else:
        value = item.payload
    doc = Document(item.source, item.line, value, item.pointer)
    base = Path(item.extra) if item.extra else None
    return record_from_document(doc, settings.overrides, base)


def process_item(item: Item, settings: Settings) -> Rendered:
    """Verify one item and render it in the requested output format."""
    if isinstance(item.payload, IOFailure):
        return _unreadable(item.payload, settings)
    try:
        record = _record(item, settings)
    except RecordError as exc:
        return Rendered("invalid", None, _render_error(exc, settings), item.size, str(exc))
    drawing = ((settings.output == "text" and settings.show_map) or settings.svg_dir is not None
               or settings.inline_pictures)
    verdict = verify_record(record, with_passes=drawing)
    svg = graph = None
    if settings.inline_pictures or settings.svg_dir is not None or settings.graph_dir is not None:
        from pathcheck.render import pictures

        if settings.inline_pictures:
            svg = pictures.verdict_svg(verdict)
            graph = pictures.verdict_graph(verdict, settings.inline_graph)
        else:
            pictures.write_pictures(verdict, settings.svg_dir, settings.graph_dir,
                                    settings.picture_stems)
    if isinstance(verdict, DungeonVerdict):
        reason = verdict.trace.reason
        status, why = ("held", None) if reason is None else ("lost", reason.value)
    else:
        status, why = "solo", None
    text = render_verdict(verdict, settings.output, show_map=settings.show_map)
    return Rendered(status, why, text, item.size, None, svg, graph)


def render_verdict(verdict: Verdict, output: str, *, show_map: bool = True) -> str:
    """A verdict in an output format: the text report, or its JSON object (one line)."""
    if output == "text":
        from pathcheck.render.report import verdict_text

        return verdict_text(verdict, show_map=show_map)
    return _encoder.encode(verdict.to_dict()).decode("utf-8")


def _render_error(error: RecordError, settings: Settings) -> str:
    if settings.output == "text":
        from pathcheck.render.safe import one_line

        where = error.source if error.line is None else f"{error.source}:{error.line}"
        return one_line(f"== {where}: INVALID: {error.pointer or '/'}: {error.message}")
    return _encoder.encode(error_dict(error)).decode("utf-8")


def _unreadable(error: IOFailure, settings: Settings) -> Rendered:
    """A file that cannot be read: reported in its place; the other files go on."""
    if settings.output == "text":
        text = f"== UNREADABLE: {error}"
    else:
        text = _encoder.encode(unreadable_dict(error)).decode("utf-8")
    return Rendered("unreadable", None, text, 0, str(error))


class Block(NamedTuple):
    """Results of many JSON Lines records verified by the fast path, as JSON Lines bytes."""

    data: bytes
    counts: list[int]
    """Records per reason code of :data:`pathcheck.constants.REASONS` (0: held)."""
    size: int


class FileEnd(NamedTuple):
    """The end of one input's results (only inside :func:`run`, which checks that the input
    held a record)."""

    source: str


Result = Rendered | Block

NO_RECORD = "no record in it (an empty file or array, or only blank lines and comments)"
"""An input without a record is invalid, whatever its format: verifying nothing proves
nothing (``adjudicate`` says "no log in it")."""


class Task(NamedTuple):
    """A unit of work for a worker: a list of items, or a block of JSON Lines or ``.dgn``."""

    items: list[Item]
    block: bytes = b""
    first_line: int = 0
    source: str = ""
    pragma: tuple[bytes, bytes] | None = None
    """.dgn: the last ``#!`` line before the block and the last valid one (b"": none); JSON
    Lines: None."""
    end: str | None = None
    """On the last task of an input: its name, for the :class:`FileEnd` after its results."""


def process_task(task: Task, settings: Settings) -> list[Result | FileEnd]:
    results = _task_results(task, settings)
    if task.end is not None:
        results.append(FileEnd(task.end))
    return results


def _task_results(task: Task, settings: Settings) -> list[Result | FileEnd]:
    if not task.block:
        return [process_item(item, settings) for item in task.items]
    from pathcheck import speedups

    base = str(Path(task.source).resolve().parent)  # relative tile sets start beside the file

    def fallback(raw: bytes, line: int) -> Rendered:
        return process_item(Item(JSON_LINE, task.source, line, raw, "", base, len(raw)),
                            settings)

    codes = speedups.overrides_codes(settings.overrides.rules, settings.overrides.advanced)
    prefix = speedups.prefix_for(task.source)
    if task.pragma is not None:
        pieces, counts = speedups.fast_dgn_block(task.block, task.first_line, prefix, codes,
                                                 task.pragma, _dgn_fallback(task, settings))
    else:
        pieces, counts = speedups.fast_block(task.block, task.first_line, prefix, codes,
                                             fallback)
    # Counts and size go with the first piece only, so that nothing is counted twice.
    results: list[Result | FileEnd] = [Block(b"", counts, len(task.block))]
    for piece in pieces:
        results.append(Block(piece, [0] * len(counts), 0) if isinstance(piece, bytes) else piece)
    return results


def _dgn_fallback(task: Task, settings: Settings) -> speedups.DgnFallback:
    """The Python path for the .dgn lines the C reader leaves, as :func:`_dgn_items` reads
    them."""

    def fallback(raw: bytes, line: int, state: tuple[bytes, bytes]
                 ) -> tuple[Rendered | None, tuple[bytes, bytes]]:
        pragma = pragma_line(raw)
        if pragma is not None:
            pragma = pragma.rstrip(b"\r\n")
            try:
                pragma_settings(pragma, task.source, line)
            except RecordError as exc:  # reported, and the records after it are not ruled
                return process_item(Item(ERROR, task.source, line, exc), settings), (pragma,
                                                                                      state[1])
            return None, (pragma, pragma)
        if dgn_blank(raw):
            return None, state
        if state[0] != state[1]:  # the last #! line was wrong (records.dgn_lines)
            error = RecordError(task.source, line, "", NOT_RULED)
            return process_item(Item(ERROR, task.source, line, error), settings), state
        defaults = _settings_of(state[1], task.source)
        item = Item(DGN_LINE, task.source, line, raw, "", defaults, len(raw))
        return process_item(item, settings), state

    return fallback


@functools.lru_cache(maxsize=64)
def _settings_of(pragma: bytes, source: str) -> dict[str, Any]:
    """The settings of a ``#!`` line known to be valid (b"": none)."""
    return pragma_settings(pragma, source, 0) if pragma else {}


_PRAGMA_LINE = re.compile(rb"^[ \t]*(?:\xef\xbb\xbf)?(#![^\r\n]*)", re.MULTILINE)
WRONG_PRAGMA = b"#!\0"
"""The state's last ``#!`` line after one too long to read: wrong, so nothing is ruled under
the settings before it."""


def _last_pragma(block: bytes, source: str, state: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
    """The state of a .dgn file after ``block`` (see :data:`speedups.DgnState`) if it was
    ``state`` before: the last ``#!`` line and the last valid one (``#!`` lines after spaces
    or a byte order mark too, as :func:`pathcheck.records.pragma_line` finds them)."""
    last = b""
    for match in reversed(list(_PRAGMA_LINE.finditer(block))):
        raw = match.group(1)
        last = last or raw
        try:
            pragma_settings(raw, source, 0)
        except RecordError:
            continue
        return last, raw
    return (last, state[1]) if last else state


def _fast_path_for(path: str, settings: Settings) -> bool:
    """Whether ``path`` can go through the C fast path (JSON Lines or .dgn in, JSON Lines
    out)."""
    if (settings.output != "jsonl" or settings.svg_dir or settings.graph_dir
            or settings.inline_pictures or settings.overrides.tileset not in (None, "standard")):
        return False
    if shape_by_name(path) not in (Shape.JSON_LINES, Shape.DGN):
        return False
    from pathcheck import speedups

    return speedups.available()


def _block_tasks(path: str) -> Iterator[Task]:
    """Whole-line blocks of a JSON Lines or .dgn file with the number of their first line
    (.dgn: and the ``#!`` line in force at its start)."""
    pragma = (b"", b"") if shape_by_name(path) is Shape.DGN else None
    try:
        stream = open_source(path)
    except IOFailure as exc:
        yield Task([Item(ERROR, path, 0, exc)])
        return
    line = 1
    with stream:
        for block in line_blocks(stream):
            if isinstance(block, Oversized):
                yield Task([_oversized_item(path, line, block)])
                line += 1
                if pragma is not None and pragma_line(block.head) is not None:
                    pragma = (WRONG_PRAGMA, pragma[1])
                continue
            yield Task([], block, line, path, pragma)
            line += block.count(b"\n")
            if pragma is not None:
                pragma = _last_pragma(block, path, pragma)


MEANT_FOR = {".pcn": ("adjudicate", "a game log in game notation, not dungeon records: rule "
                                    "on it with 'pathcheck adjudicate {path}'"),
             ".dgn": ("verify", "dungeon records in compact notation, not a game log: verify "
                                "them with 'pathcheck verify {path}'")}
"""File suffixes that belong to one command, and what another command says of them."""


def misdirected(path: str, command: str) -> str | None:
    """What ``command`` says of a file made for another command (by its suffix), or None.

    >>> misdirected("game.pcn", "verify")[-31:]
    "'pathcheck adjudicate game.pcn'"
    >>> misdirected("game.pcn", "adjudicate") is None
    True
    """
    owner, message = MEANT_FOR.get(Path(path).suffix.lower(), (command, ""))
    return None if owner == command else message.format(path=path)


def _tasks(paths: Iterable[str], settings: Settings) -> Iterator[Task]:
    for path in paths:
        last: Task | None = None  # held back one task, to mark the input's last one
        for task in _file_tasks(path, settings):
            if last is not None:
                yield last
            last = task
        yield (last or Task([]))._replace(end=source_name(path))


def _file_tasks(path: str, settings: Settings) -> Iterator[Task]:
    mistake = misdirected(path, "verify")
    if mistake is not None:
        yield Task([Item(ERROR, path, 0, RecordError(path, None, "", mistake))])
        return
    if _fast_path_for(path, settings):
        yield from _block_tasks(path)
        return
    chunk: list[Item] = []
    for item in iter_items(path):
        chunk.append(item)
        if len(chunk) >= CHUNK:
            yield Task(chunk)
            chunk = []
    if chunk:
        yield Task(chunk)


def run(paths: Iterable[str], settings: Settings, jobs: int = 1) -> Iterator[Result]:
    """Verify every record of ``paths`` and yield the results in input order.

    JSON Lines and .dgn files verified to JSON Lines go through the C fast path where it is
    installed (results then come as :class:`Block` values); everything else as one
    :class:`Rendered` per record.
    """
    paths = list(paths)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # records are acyclic: collecting while millions are made only costs time
    try:
        results: Iterator[Result | FileEnd]
        if jobs <= 1:
            results = (result for task in _tasks(paths, settings)
                       for result in process_task(task, settings))
        elif all(_fast_path_for(path, settings) for path in paths):
            results = _run_threads(_tasks(paths, settings), settings, jobs)
        else:
            results = _run_parallel(_tasks(paths, settings), settings, jobs)
        yield from _no_empty_inputs(results, settings)
    finally:
        if gc_was_enabled:
            gc.enable()


def _no_empty_inputs(results: Iterator[Result | FileEnd], settings: Settings
                     ) -> Iterator[Result]:
    """The results, with an invalid one (:data:`NO_RECORD`) for each input that held no
    record: the same outcome for every format and path (an empty JSON document is already
    an error of its own)."""
    found = 0
    for result in results:
        if isinstance(result, FileEnd):
            if not found:
                error = RecordError(result.source, None, "", NO_RECORD)
                yield process_item(Item(ERROR, result.source, 0, error), settings)
            found = 0
            continue
        found += sum(result.counts) if isinstance(result, Block) else 1
        yield result


def _run_threads(tasks: Iterator[Task], settings: Settings, jobs: int
                 ) -> Iterator[Result | FileEnd]:
    """The fast path on ``jobs`` threads: the C scanner lets go of the GIL while it works,
    so threads share the cores without copying blocks between processes."""
    from concurrent.futures import Future, ThreadPoolExecutor

    pending: deque[Future[list[Result | FileEnd]]] = deque()
    from pathcheck.lifeline import leave_signals_to_main_thread

    with ThreadPoolExecutor(max_workers=jobs, initializer=leave_signals_to_main_thread) as pool:
        for task in tasks:
            pending.append(pool.submit(process_task, task, settings))
            if len(pending) >= 2 * jobs:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def _run_parallel(tasks: Iterator[Task], settings: Settings, jobs: int
                  ) -> Iterator[Result | FileEnd]:
    """The Python path on ``jobs`` processes (see :func:`parallel_map`)."""
    return parallel_map(tasks, functools.partial(process_task, settings=settings), jobs)


def _worker(conn: Connection, work: Callable[[Any], list[Any]], parent: int) -> None:
    """A worker process: do each task it is sent, send the results back; None ends it."""
    from pathcheck.lifeline import bind_to_parent

    bind_to_parent(parent)
    gc.disable()
    while True:
        try:
            task = conn.recv()
        except EOFError:  # the parent went away
            return
        if task is None:
            return
        try:
            conn.send((True, work(task)))
        except Exception as exc:  # handed to the main process, which raises it
            conn.send((False, exc))


def parallel_map(tasks: Iterator[T], work: Callable[[T], list[R]], jobs: int) -> Iterator[R]:
    """``work(task)`` for every task on ``jobs`` processes; the results in input order.

    Tasks go in groups of ``jobs``: jobs-1 to worker processes, one is done here; a group's
    worker tasks are sent before the results of the group before it are handed back, so the
    workers compute while this process writes. Plain pipes, no helper threads: the main
    process holds the GIL while it does its own share, so a thread feeding workers would
    leave them idle. At most two groups of tasks are held, so memory stays constant however
    long the input. ``work`` must pickle (a module-level function, or a
    :func:`functools.partial` of one). Used by ``verify`` and ``adjudicate``. Workers start
    only when there is work for them (10 records never start 99 workers), and die with the
    main process.
    """
    import multiprocessing

    workers: list[tuple[Any, Connection]] = []
    finished = False

    def start(group: list[T]) -> int:
        """Send the first tasks of ``group`` to workers (started as needed): how many."""
        while len(workers) < len(group) - 1:
            mine, theirs = multiprocessing.Pipe()
            process = multiprocessing.Process(target=_worker,
                                              args=(theirs, work, os.getpid()),
                                              daemon=True)
            process.start()
            theirs.close()
            workers.append((process, mine))
        sent = group[: len(workers)]
        for (_, conn), task in zip(workers, sent, strict=False):
            conn.send(task)
        return len(sent)

    try:
        group = list(itertools.islice(tasks, jobs))
        sent = start(group)
        while group:
            own = [work(task) for task in group[sent:]]
            theirs: list[list[R]] = []
            for _, conn in workers[:sent]:
                ok, payload = conn.recv()
                if not ok:
                    raise payload
                theirs.append(payload)
            group = list(itertools.islice(tasks, jobs))
            sent = start(group)  # the workers go on while these results are written
            for results in theirs:
                yield from results
            for results in own:
                yield from results
        finished = True
    finally:
        for process, conn in workers:
            if finished:
                with contextlib.suppress(OSError):
                    conn.send(None)
            else:  # interrupted (Ctrl-C, an error): the workers' results are not wanted
                process.kill()
            conn.close()
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def input_size(paths: Iterable[str]) -> int | None:
    """Total bytes of the input files (None if any is a stream)."""
    total = 0
    for path in paths:
        if path == "-":
            return None
        try:
            total += os.path.getsize(path)
        except OSError:
            return None
    return total
