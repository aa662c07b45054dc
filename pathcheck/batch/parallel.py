"""Work spread over worker processes, the results in input order (``verify`` and
``adjudicate`` batch work: :func:`parallel_map`)."""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

T = TypeVar("T")
R = TypeVar("R")


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
        stop_workers(workers, finished)


def stop_workers(workers: list[tuple[Any, Connection]], finished: bool,
                 fds: tuple[int, ...] = ()) -> None:
    """End ``workers`` (process, pipe): told to stop when the work is ``finished``, else
    killed (Ctrl-C, an error: their results are not wanted); ``fds`` (pipes the workers may
    wait on) are closed before they are waited for."""
    for process, conn in workers:
        if finished:
            with contextlib.suppress(OSError):
                conn.send(None)
        else:
            process.kill()
        conn.close()
    for fd in fds:
        os.close(fd)
    for process, _ in workers:
        process.join(timeout=5)
        if process.is_alive():
            process.terminate()
