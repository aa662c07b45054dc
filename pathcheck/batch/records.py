"""Batch verification: stream records from many files, spread the work, keep input order.

The main process only splits input into tasks: chunks of :class:`Item` values (raw JSON
Lines or ``.dgn`` lines, or decoded values of a JSON document), or whole-line blocks of
JSON Lines for the C fast path (:mod:`pathcheck.speedups`). Tasks are verified here, on
threads (the fast path, which releases the GIL) or in worker processes (the Python path),
and results come back in input order. At most a few tasks are in flight, so memory stays
constant however large the input.
"""

from __future__ import annotations

import functools
import gc
import os
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pathcheck.batch.fast import WRONG_PRAGMA, Block, block_results, block_tasks, fast_path_for
from pathcheck.batch.items import (
    CHUNK,
    DGN_LINE,
    ERROR,
    JSON_LINE,
    VALUE,
    Item,
    Rendered,
    Settings,
    Task,
    iter_items,
    process_item,
    render_verdict,
)
from pathcheck.batch.parallel import parallel_map
from pathcheck.errors import RecordError
from pathcheck.lifeline import usable_cores
from pathcheck.reading.meant_for import MEANT_FOR, misdirected
from pathcheck.reading.reader import source_name
from pathcheck.render.words import counted
from pathcheck.tracer.constants import REASONS

__all__ = [
    "CHUNK", "DGN_LINE", "ERROR", "JSON_LINE", "MEANT_FOR", "NO_RECORD", "VALUE",
    "WRONG_PRAGMA", "Block", "FileEnd", "Item", "Rendered", "Result", "RunSummary", "Settings",
    "Task", "input_size", "iter_items", "misdirected", "parallel_map", "process_item",
    "process_task", "render_verdict", "run", "usable_cores",
]
"""What other modules import from here (the items, the fast path and the worker pool live in
batch_items, batch_fast and parallel)."""


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


class FileEnd(NamedTuple):
    """The end of one input's results (only inside :func:`run`, which checks that the input
    held a record)."""

    source: str


Result = Rendered | Block

NO_RECORD = "no record in it (an empty file or array, or only blank lines and comments)"
"""An input without a record is invalid, whatever its format: verifying nothing proves
nothing (``adjudicate`` says "no log in it")."""


def process_task(task: Task, settings: Settings) -> list[Result | FileEnd]:
    results = _task_results(task, settings)
    if task.end is not None:
        results.append(FileEnd(task.end))
    return results


def _task_results(task: Task, settings: Settings) -> list[Result | FileEnd]:
    if not task.block:
        return [process_item(item, settings) for item in task.items]
    return list(block_results(task, settings))

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
    if fast_path_for(path, settings):
        yield from block_tasks(path)
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
        elif all(fast_path_for(path, settings) for path in paths):
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
