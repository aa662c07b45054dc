"""Running a census: the chunks not done yet, on a Dask cluster or on local processes.

Every finished chunk is stored at once (:meth:`CensusDir.write`), in the client process: the
workers need pathcheck installed but no shared file system. On Dask, a chunk whose worker dies
is run again on another worker (the scheduler's own retry; ``retries`` covers exceptions too);
a chunk that keeps killing workers ends the run with :class:`ChunkFailed`, naming its seeds.

Nothing is written before the run really starts (the cluster reached and with a worker): then
the manifest, if new, and a line in ``runs.jsonl`` saying the run is running; when the run
ends, however it ends (done, Ctrl-C, SIGTERM, a failure), a second line with what it did.
A run killed outright (``kill -9``) keeps its first line: the report counts its workers, and
its seconds up to the last chunk it stored.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import msgspec

from pathcheck.errors import IOFailure, PathcheckError
from pathcheck.reading.bounded import UnfitFile, read_regular
from pathcheck.solo.census.chunk import ChunkResult, Limits, analyse_chunk
from pathcheck.solo.census.cluster import Analyse, ChunkFailed, Notice, Store
from pathcheck.solo.census.files import RUNS_BYTES, Damage, Outcome, RunEntry, decode
from pathcheck.solo.census.store import CensusDir, CensusError

RUNS = "runs.jsonl"
"""Two lines per run of a census (its start, its end): workers, backend, chunks, seconds."""

Done = Callable[[ChunkResult], None]
"""Called in the client with each finished chunk, after it is stored."""


def dask_available() -> bool:
    """True when ``dask.distributed`` is installed (``pip install 'pathcheck[cluster]'``)."""
    return importlib.util.find_spec("distributed") is not None


@dataclass(frozen=True)
class RunInfo:
    """What one run did: chunks and seeds analysed now, out of the planned ones."""

    backend: str
    workers: int
    chunks: int
    seeds: int
    skipped: int
    """Chunks already done by an earlier run."""
    seconds: float
    busy: float
    """Sum of the chunks' analysis times (worker seconds)."""
    cpu: float
    """Sum of the chunks' CPU times (of the analysing threads)."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)




def run_census(
    folder: CensusDir,
    *,
    jobs: int,
    use_dask: bool = True,
    scheduler: str | None = None,
    client: Any = None,
    on_done: Done | None = None,
    notice: Notice | None = None,
    analyse: Analyse | None = None,
) -> RunInfo:
    """Analyse the chunks of ``folder``'s plan that are not stored yet.

    ``client``: an existing ``dask.distributed.Client`` (used, not closed); else
    ``scheduler`` (an address like ``tcp://host:8786``) is connected to, or a LocalCluster of
    ``jobs`` single-threaded worker processes is started on 127.0.0.1. Without Dask
    (``use_dask=False``) the chunks run on ``jobs`` local processes. ``notice`` hears what
    the user should know while waiting (a cluster without workers); ``analyse`` is the work
    of one chunk (default :func:`analyse_chunk`; tests give another).
    """
    analyse = analyse or analyse_chunk
    plan = folder.plan
    done = folder.done()
    todo = [c for c in plan.chunks() if c not in done]
    if not todo:
        return RunInfo("none", 0, 0, 0, len(done), 0.0, 0.0, 0.0)
    began = time.perf_counter()
    totals = {"busy": 0.0, "cpu": 0.0, "chunks": 0, "seeds": 0}

    def store(result: ChunkResult) -> None:
        folder.write(result)
        totals["busy"] += result.seconds
        totals["cpu"] += result.cpu
        totals["chunks"] += 1
        totals["seeds"] += result.stop - result.start
        if on_done is not None:
            on_done(result)

    def info(backend: str, workers: int) -> RunInfo:
        return RunInfo(backend, workers, int(totals["chunks"]), int(totals["seeds"]),
                       len(done), time.perf_counter() - began, totals["busy"], totals["cpu"])

    say = notice or (lambda text: None)
    with _backend(jobs, use_dask, scheduler, client, say, analyse) as (backend, workers,
                                                                      execute):
        run = secrets.token_hex(6)
        folder.commit()  # the run starts: from here on the census exists
        _log_run(folder, info(backend, workers), "running", run)
        outcome: Outcome = "failed"
        stopped = ""
        try:
            execute(todo, plan.rules, plan.limits, store)
            outcome = "complete"
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (pathcheck.cli.Interrupted)
            outcome, stopped = "interrupted", "census interrupted"
            raise
        except ChunkFailed as exc:
            stopped = f"census stopped: {exc}"
            raise
        finally:
            ended = info(backend, workers)
            try:
                _log_run(folder, ended, outcome, run)
            except PathcheckError:
                if outcome == "complete":
                    raise  # else the stop in flight is what to report
            if stopped:  # said now, before the cluster is closed (that may take seconds)
                say(stopped_message(folder, stopped))
    return ended


def stopped_message(folder: CensusDir, what: str) -> str:
    """``what`` happened; how far the census got and how to go on."""
    if not folder.exists():
        return f"{what}; nothing was stored"
    return (f"{what}; {len(folder.done()):,} of {len(folder.plan.chunks()):,} chunks are "
            f"stored in {folder.path}: run the same command again to resume")


Execute = Callable[[list[tuple[int, int]], frozenset[int], Limits, Store], None]


@contextmanager
def _backend(jobs: int, use_dask: bool, scheduler: str | None, client: Any, notice: Notice,
             analyse: Analyse) -> Iterator[tuple[str, int, Execute]]:
    """What runs the chunks, ready: its name, its workers and the function that runs them."""
    if client is None and scheduler is None and not use_dask:
        yield "processes", jobs, lambda todo, rules, limits, store: _run_local(
            todo, rules, limits, store, jobs=jobs, analyse=analyse)
        return
    from pathcheck.solo.census.cluster import dask_client, run_on_dask, workers_of

    def on(ready: Any) -> tuple[str, int, Execute]:
        return "dask", workers_of(ready), lambda todo, rules, limits, store: run_on_dask(
            ready, todo, rules, limits, store, analyse)

    if client is not None:
        yield on(client)
        return
    with dask_client(jobs, scheduler, notice) as own:
        yield on(own)


def _log_run(folder: CensusDir, info: RunInfo, outcome: Outcome, run: str) -> None:
    """Append a line to ``runs.jsonl`` (a regular file, or a new one: never a FIFO)."""
    entry = RunEntry(**info.to_dict(), outcome=outcome, run=run, started=time.time()
                     - info.seconds)
    line = msgspec.json.encode(entry) + b"\n"
    path = folder.path / RUNS
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK
                     | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise IOFailure(f"{path}: cannot write: {exc.strerror or exc}") from exc
    with os.fdopen(fd, "ab") as log:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CensusError(f"{path}: not a regular file: the census's run log must be one")
        log.write(line)


def read_runs(folder: CensusDir) -> list[RunEntry]:
    """The runs of the census, each as its last line says (none: no log yet); CensusError
    naming the line of a damaged log. A run whose last line says "running" (killed, or
    still running) counts its seconds up to the last chunk stored since it began."""
    path = folder.path / RUNS
    try:
        data = read_regular(path, RUNS_BYTES)
    except FileNotFoundError:
        return []
    except UnfitFile as exc:
        raise CensusError(f"{path}: damaged run log: {exc.reason}") from None
    except OSError as exc:
        raise IOFailure(f"{path}: cannot read: {exc.strerror or exc}") from exc
    runs: dict[str, RunEntry] = {}
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            entry = decode(line, RunEntry)
        except Damage as exc:
            raise CensusError(f"{path}:{number}: damaged run log: {exc}; delete the line (the "
                              "report only counts its seconds and workers)") from None
        runs[entry.run or f"line {number}"] = entry
    latest = None
    for key, entry in runs.items():
        if entry.outcome == "running":
            latest = folder.last_write() if latest is None else latest
            seconds = max(0.0, (latest or 0.0) - entry.started)
            runs[key] = msgspec.structs.replace(entry, seconds=seconds)
    return list(runs.values())


def _bind(parent: int) -> None:
    """A local worker process ignores Ctrl-C (the census stops it) and dies with the census,
    even after ``kill -9`` of it."""
    from pathcheck.lifeline import bind_to_parent

    bind_to_parent(parent)


def _run_local(todo: list[tuple[int, int]], rules: frozenset[int], limits: Limits,
               store: Store, *, jobs: int, analyse: Analyse) -> None:
    if jobs <= 1 or len(todo) == 1:
        for a, b in todo:
            store(analyse(a, b, rules, limits))
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_bind, initargs=(os.getpid(),))
    try:
        futures = {pool.submit(analyse, a, b, rules, limits): (a, b) for a, b in todo}
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool:
                raise ChunkFailed(*futures[future], "could not be analysed: a local worker "
                                  "process died (killed, or not enough memory)") from None
            store(result)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
