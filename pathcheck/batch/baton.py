"""``-j N`` without a hand-over: every process writes its own results to the output, in input
order, passing a baton round a ring (``adjudicate`` and ``analyse`` over files).

:func:`pathcheck.batch.parallel_map` makes the main process the funnel of a run: it reads
and splits the input, pickles items to the workers, and receives, unpickles and writes
every rendered result (138 MB for 10,000 ``game/1`` rulings in JSON Lines), while doing its
own share of the work; on two cores that hand-over is what keeps ``-j 2`` from halving the
time. Here the main process and ``N - 1`` workers are the members of a ring; the tasks
(:mod:`pathcheck.batch.spans`: spans of regular JSON Lines files the members read
themselves, or chunks of items) go round it in turn: task ``k`` to member ``k mod N``, the
main process being member 0. A member works on its task, then waits for the baton (a byte
on a pipe from the member before it, saying whether anything has been written yet, which
is all the framing of :class:`pathcheck.batch.sink.Results` needs), writes its framed
results straight to the output's file descriptor (handed to each worker once: the same
open file, so the writes follow each other as one process's would, also into the
temporary file of ``-o``), sends the main process the outcomes without their text (status,
error line, size: what the command counts and prints to stderr), and passes the baton on.
So the rendered bytes are copied once, from the member that made them into the output,
and the main process only finds span boundaries, counts and writes its own share.

A worker that fails (an error in a game's code, a write that fails) says so on its pipe;
the main process, which watches those pipes while it waits for the baton, raises it; the
workers are then killed, as on Ctrl-C; they die with the main process
(:mod:`pathcheck.lifeline`). Memory stays constant: a member holds one task's results.
"""

from __future__ import annotations

import gc
import itertools
import os
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

from pathcheck.batch.parallel import stop_workers
from pathcheck.batch.sink import Results, framed
from pathcheck.batch.spans import Span, Task, read_span, span_items
from pathcheck.inputs.items import Item

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Work = Callable[[list[Item]], list[Any]]
"""A chunk's work: one outcome (a NamedTuple with ``status``, ``text``, ``error``, ``size``
and ``written``) per item."""

_FIRST, _LATER = b"1", b"0"

AHEAD = 2
"""Tasks a worker may have made and not yet written: one more than the task whose turn it
waits for, so that a member that was quicker at one task goes on with the next (the
main process sends each worker its tasks a round ahead)."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _written(outcomes: list[Any], output_format: str, first: bool, fd: int
             ) -> tuple[list[Any], bool]:
    """Write the results of ``outcomes`` to ``fd`` framed as :class:`Results` frames them
    (an error without text is only said on stderr): the outcomes without their text, and
    whether nothing has been written yet."""
    pieces = []
    for outcome in outcomes:
        if outcome.error and not outcome.text:
            continue
        pieces.append(framed(output_format, first, outcome.text))
        first = False
    _write_all(fd, b"".join(pieces))
    return [outcome._replace(text=b"", written=True) for outcome in outcomes], first


def _worker(conn: Connection, work: Work, parent: int, output_format: str) -> None:
    """A member of the ring: for each task, work, wait for the baton, write, pass it on."""
    from multiprocessing.connection import wait
    from multiprocessing.reduction import recv_handle

    from pathcheck.lifeline import bind_to_parent

    bind_to_parent(parent)
    gc.disable()
    out, baton_in, baton_out = (recv_handle(conn) for _ in range(3))
    files: dict[int, int] = {}
    made: deque[list[Any]] = deque()  # results made, waiting for the baton
    while True:
        if made:  # write when the baton comes; meanwhile work on the next task, if sent
            ready = wait([baton_in] if len(made) >= AHEAD else [baton_in, conn])
            if baton_in in ready:
                baton = os.read(baton_in, 1)
                if not baton:  # the ring is broken: the main process is stopping
                    return
                try:
                    done, first = _written(made.popleft(), output_format, baton == _FIRST,
                                           out)
                except OSError as exc:
                    conn.send((False, exc))
                    return
                conn.send((True, done))
                os.write(baton_out, _FIRST if first else _LATER)
                continue
        try:
            message = conn.recv()
        except EOFError:  # the main process went away
            return
        if message is None:
            return
        if isinstance(message, int):  # the descriptor of file number ``message`` follows
            for fd in files.values():  # every task of an earlier file is read
                os.close(fd)
            files = {message: recv_handle(conn)}
            continue
        try:
            task: Task | None = message[0]
            items = read_span(task, files[task.file]) if isinstance(task, Span) else task
            made.append([] if items is None else work(items))
        except Exception as exc:  # handed to the main process, which raises it
            conn.send((False, exc))


def baton_map(tasks: Iterator[Task], opened: dict[int, BinaryIO], work: Work, jobs: int,
              results: Results, fd: int) -> Iterator[Any]:
    """The outcomes of ``work`` on every task, in input order, each already written to
    ``fd`` (the descriptor of ``results``' output, flushed) as ``results`` frames it: their
    text is b"" and ``written`` True. ``results.first`` is brought up to date at the end.
    ``jobs`` members: this process and ``jobs - 1`` workers (see the module doc)."""
    import multiprocessing
    from multiprocessing.connection import wait
    from multiprocessing.reduction import send_handle

    ring = [os.pipe() for _ in range(jobs)]  # ring[i]: from member i to member i + 1
    workers: list[tuple[Any, Connection]] = []
    sent_file: list[int] = []
    mine: list[Task | None] = []  # this process's tasks of this round and the next
    pending: list[deque[list[Any]]] = []
    finished = False

    def failed(error: BaseException) -> BaseException:
        return results.failure(error) if isinstance(error, OSError) else error

    def take(index: int, message: Any) -> None:
        ok, payload = message
        if not ok:
            raise failed(payload)
        pending[index].append(payload)

    def baton() -> bool:
        """Wait for the baton, keeping what the workers send meanwhile."""
        conns = [conn for _, conn in workers]
        while True:
            ready = wait([ring[-1][0], *conns])
            for index, conn in enumerate(conns):
                if conn in ready:
                    take(index, conn.recv())
            if ring[-1][0] in ready:
                return os.read(ring[-1][0], 1) == _FIRST

    def theirs() -> Iterator[Any]:
        """The outcomes of the workers' tasks of the last round, in their order."""
        for index, (_, conn) in enumerate(workers):
            while not pending[index]:
                take(index, conn.recv())
            yield from pending[index].popleft()

    def send(index: int, task: Task | None) -> None:
        conn = workers[index][1]
        if isinstance(task, Span) and sent_file[index] != task.file:
            conn.send(task.file)
            send_handle(conn, opened[task.file].fileno(), workers[index][0].pid)
            sent_file[index] = task.file
        conn.send((task,))

    try:
        group = list(itertools.islice(tasks, jobs))
        # The first task is done before the workers start: they are forked with the games
        # loaded and their tables made, which each would otherwise do again.
        own = work(span_items(group[0], opened)) if group else []
        for member in range(1, jobs):
            ours, theirs_end = multiprocessing.Pipe()
            process = multiprocessing.Process(
                target=_worker, args=(theirs_end, work, os.getpid(), results.format),
                daemon=True)
            process.start()
            theirs_end.close()
            for handle in (fd, ring[member - 1][0], ring[member][1]):
                send_handle(ours, handle, process.pid)
            workers.append((process, ours))
            sent_file.append(-1)
            pending.append(deque())
        first = results.first
        rounds = 0
        ahead = group
        for _ in range(AHEAD):  # the workers' tasks of the first rounds
            for index, task in enumerate([*ahead, *[None] * (jobs - len(ahead))][1:]):
                send(index, task)
            mine.append(ahead[0] if ahead else None)
            ahead = list(itertools.islice(tasks, jobs)) if ahead else []
        while mine[0] is not None:
            if rounds:
                own = work(span_items(mine[0], opened))
            current = {task.file for task in mine if isinstance(task, Span)}
            for number in [n for n in opened if current and n < min(current)]:
                opened.pop(number).close()  # every span of it is read or handed over
            if rounds:
                first = baton()
                yield from theirs()
            try:
                done, first = _written(own, results.format, first, fd)
            except OSError as exc:
                error = failed(exc)
                if error is exc:
                    raise
                raise error from exc
            yield from done
            os.write(ring[0][1], _FIRST if first else _LATER)
            rounds += 1
            mine.pop(0)
            for index, task in enumerate([*ahead, *[None] * (jobs - len(ahead))][1:]):
                if ahead:
                    send(index, task)
            mine.append(ahead[0] if ahead else None)
            ahead = list(itertools.islice(tasks, jobs)) if ahead else []
        if rounds:
            first = baton()
            yield from theirs()
        results.first = first
        finished = True
    finally:  # the ring closed before the workers are waited for: one may wait on it
        stop_workers(workers, finished, tuple(fd for pipe in ring for fd in pipe))
