"""Running a census: the chunks not done yet, on a Dask cluster or on local processes.

Every finished chunk is stored at once (:meth:`CensusDir.write`), in the client process: the
workers need pathcheck installed but no shared file system. On Dask, a chunk whose worker dies
is run again on another worker (the scheduler's own retry; ``retries`` covers exceptions too);
a chunk that keeps killing workers ends the run with Dask's ``KilledWorker``.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pathcheck.census.chunk import ChunkResult, Limits, analyse_chunk
from pathcheck.census.store import CensusDir, CensusError

RUNS = "runs.jsonl"
"""One line per finished run of a census: workers, backend, chunks and wall seconds."""

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
) -> RunInfo:
    """Analyse the chunks of ``folder``'s plan that are not stored yet.

    ``client``: an existing ``dask.distributed.Client`` (used, not closed); else
    ``scheduler`` (an address like ``tcp://host:8786``) is connected to, or a LocalCluster of
    ``jobs`` single-threaded worker processes is started on 127.0.0.1. Without Dask
    (``use_dask=False``) the chunks run on ``jobs`` local processes.
    """
    plan = folder.plan
    done = folder.done()
    todo = [c for c in plan.chunks() if c not in done]
    began = time.perf_counter()
    busy = cpu = 0.0
    finished = 0

    def store(result: ChunkResult) -> None:
        nonlocal busy, cpu, finished
        folder.write(result)
        busy += result.seconds
        cpu += result.cpu
        finished += 1
        if on_done is not None:
            on_done(result)

    if not todo:
        backend, workers = "none", 0
    elif client is not None or scheduler is not None or use_dask:
        backend = "dask"
        workers = _run_dask(todo, plan.rules, plan.limits, store, jobs=jobs,
                            scheduler=scheduler, client=client)
    else:
        backend, workers = "processes", jobs
        _run_local(todo, plan.rules, plan.limits, store, jobs=jobs)
    info = RunInfo(backend, workers, finished, sum(b - a for a, b in todo), len(done),
                   time.perf_counter() - began, busy, cpu)
    if todo:
        with open(folder.path / RUNS, "a", encoding="utf-8") as log:
            log.write(json.dumps(info.to_dict()) + "\n")
    return info


def read_runs(folder: CensusDir) -> list[dict[str, Any]]:
    """The runs logged so far (a damaged or missing log is no run)."""
    try:
        lines = (folder.path / RUNS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    runs = []
    for text in lines:
        try:
            runs.append(json.loads(text))
        except ValueError:
            continue
    return runs


def _run_local(todo: list[tuple[int, int]], rules: frozenset[int], limits: Limits,
               store: Done, *, jobs: int) -> None:
    if jobs <= 1 or len(todo) == 1:
        for a, b in todo:
            store(analyse_chunk(a, b, rules, limits))
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = [pool.submit(analyse_chunk, a, b, rules, limits) for a, b in todo]
        for future in as_completed(futures):
            store(future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_dask(todo: list[tuple[int, int]], rules: frozenset[int], limits: Limits,
              store: Done, *, jobs: int, scheduler: str | None, client: Any) -> int:
    """Returns the number of workers the cluster had when the chunks were submitted."""
    dask: Any = importlib.import_module("distributed")  # untyped: used through Any
    own: list[Any] = []
    try:
        if client is None:
            if scheduler is not None:
                try:
                    client = dask.Client(scheduler, timeout="20s")
                except (OSError, TimeoutError) as exc:
                    raise CensusError(f"cannot reach the Dask scheduler at {scheduler} "
                                      f"({exc})") from exc
            else:
                with warnings.catch_warnings():  # "port 8787 in use, using another": noise
                    warnings.simplefilter("ignore", UserWarning)
                    cluster = dask.LocalCluster(
                        n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=logging.ERROR)
                own.append(cluster)
                client = dask.Client(cluster)
            own.insert(0, client)
        workers = len(client.scheduler_info().get("workers", {}))
        futures = client.map(analyse_chunk, [a for a, _ in todo], [b for _, b in todo],
                             rules=rules, limits=limits, pure=False, retries=2)
        try:
            for future in dask.as_completed(futures):
                result = future.result()
                future.release()
                store(result)
        except BaseException:
            client.cancel(futures)
            raise
        return workers
    finally:
        for thing in own:
            thing.close()
