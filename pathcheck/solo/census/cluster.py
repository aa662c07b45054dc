"""The Dask side of a census: the scheduler's address checked, the cluster reached (or a
LocalCluster started), workers waited for, the chunks run.

Dask's own client waits forever on a port that accepts connections but is not a scheduler,
and retries a refused connection until its timeout; so a ``tcp://`` scheduler is first
probed here: a refused connection is said at once, a listener that does not greet as a Dask
scheduler within :data:`CONNECT_SECONDS` is named as not being one.

>>> check_address(" 10.0.0.5:8786 "), check_address("tcp://[::1]:8786")
('tcp://10.0.0.5:8786', 'tcp://[::1]:8786')
>>> check_address("http://10.0.0.5:8787")  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
pathcheck.solo.census.cluster.AddressError: 'http://10.0.0.5:8787': ... tcp://HOST:PORT ...
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import re
import socket
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pathcheck.errors import ExitCode, InputError, IOFailure, PathcheckError
from pathcheck.solo.census.chunk import ChunkResult, Limits

CONNECT_SECONDS = 20.0
"""How long reaching a scheduler may take (its greeting, then the client's handshake)."""
NOTICE_AFTER = 5.0
"""Seconds without a worker before the run says it is waiting for one."""
NOTICE_EVERY = 30.0
"""And then how often it says so again."""
GREETING = b"pickle-protocol"
"""In the first message a Dask server sends on a new connection (its handshake)."""

Analyse = Callable[[int, int, frozenset[int], Limits], ChunkResult]
Notice = Callable[[str], None]
Store = Callable[[ChunkResult], None]

_HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})")


class AddressError(InputError):
    """A ``--scheduler`` value that is no Dask scheduler's address: a usage error."""

    exit_code = ExitCode.USAGE


class ChunkFailed(PathcheckError):
    """A chunk whose analysis keeps killing its worker process (a crash, or no memory)."""

    exit_code = ExitCode.INTERNAL

    def __init__(self, start: int, stop: int, how: str,
                 others: Sequence[tuple[int, int]] = ()) -> None:
        self.start, self.stop = start, stop
        chunks = sorted({(start, stop), *others})
        seeds = " and ".join(f"{a:,}-{b - 1:,}" for a, b in chunks)
        if len(chunks) == 1:
            super().__init__(f"the chunk of seeds {seeds} {how}")
        else:  # every chunk on a worker that dies is blamed: Dask cannot tell which one did it
            super().__init__(f"one of the chunks of seeds {seeds} {how}; they were on the same "
                             "worker, and Dask cannot tell which one killed it")


def check_address(text: str) -> str:
    """``text`` as a scheduler address Dask can use (``HOST:PORT`` is ``tcp://HOST:PORT``);
    :class:`AddressError` otherwise (see the module's examples)."""
    address = text.strip()
    scheme, _, place = address.rpartition("://") if "://" in address else ("tcp", "", address)
    wanted = ("a Dask scheduler is tcp://HOST:PORT (or tls://HOST:PORT with certificates in "
              "Dask's configuration)")
    if not address:
        raise AddressError(f"empty: {wanted}")
    match = _HOST_PORT.fullmatch(place)
    if scheme not in ("tcp", "tls") or match is None or not 0 < int(match[2]) < 65536:
        raise AddressError(f"{address!r}: {wanted}")
    if scheme == "tls":
        security = importlib.import_module("distributed.security").Security()
        if not (security.tls_ca_file and security.tls_client_cert):
            raise AddressError(
                f"{address!r}: tls:// needs certificates: set "
                "distributed.comm.tls.ca-file and distributed.comm.tls.client.cert (and .key) "
                "in Dask's configuration, or use tcp://")
    return f"{scheme}://{place}"


def probe(address: str, timeout: float | None = None) -> None:
    """IOFailure unless a Dask server greets at the ``tcp://`` ``address`` within ``timeout``
    seconds (default :data:`CONNECT_SECONDS`; other schemes are left to Dask's client)."""
    if not address.startswith("tcp://"):
        return
    timeout = CONNECT_SECONDS if timeout is None else timeout
    match = _HOST_PORT.fullmatch(address.removeprefix("tcp://"))
    assert match is not None  # check_address made it
    host, port = match[1].strip("[]"), int(match[2])
    where = f"the Dask scheduler at {address}"
    deadline = time.monotonic() + timeout
    greeting = b""
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            while GREETING not in greeting and len(greeting) < 4096:
                conn.settimeout(max(deadline - time.monotonic(), 0.001))
                data = conn.recv(4096)
                if not data:
                    break
                greeting += data
                deadline = min(deadline, time.monotonic() + 1.0)  # the rest comes at once
    except TimeoutError:
        if not greeting:
            raise IOFailure(f"{where}: no Dask scheduler answers there (nothing within "
                            f"{timeout:g} s); check the address and port") from None
    except OSError as exc:
        raise IOFailure(f"cannot reach {where}: {exc.strerror or exc}") from None
    if GREETING not in greeting:
        raise IOFailure(f"{where}: what answers there is not a Dask scheduler; check the "
                        "address and port (8786 by default, not the dashboard's 8787)")


@contextlib.contextmanager
def dask_client(jobs: int, scheduler: str | None, notice: Notice) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler`` (checked, probed, with at least one worker)
    or of a LocalCluster of ``jobs`` single-threaded worker processes on 127.0.0.1; both
    closed at the end."""
    dask: Any = importlib.import_module("distributed")  # untyped: used through Any
    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            address = check_address(scheduler)
            probe(address)
            try:
                client = dask.Client(address, timeout=f"{CONNECT_SECONDS}s")
            except (OSError, TimeoutError) as exc:
                raise IOFailure(f"cannot reach the Dask scheduler at {address} ({exc})") from exc
            stack.callback(client.close)
            _wait_for_workers(client, address, notice)
        else:
            with warnings.catch_warnings():  # "port 8787 in use, using another": noise
                warnings.simplefilter("ignore", UserWarning)
                cluster = dask.LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, silence_logs=logging.CRITICAL,
                    preload=["pathcheck.solo.census.worker"])
            stack.callback(cluster.close)
            client = dask.Client(cluster)
            stack.callback(client.close)
        yield client


def _wait_for_workers(client: Any, address: str, notice: Notice) -> None:
    """Return once the cluster has a worker, saying after :data:`NOTICE_AFTER` seconds, then
    every :data:`NOTICE_EVERY`, that it waits (a scheduler of no workers runs nothing)."""
    began = time.monotonic()
    wait = NOTICE_AFTER
    while True:
        try:
            client.wait_for_workers(1, timeout=wait)
            return
        except TimeoutError:
            notice(f"the Dask scheduler at {address} has no workers after "
                   f"{time.monotonic() - began:.0f} s: waiting for one (start one with "
                   f"`dask worker {address}`; Ctrl-C stops)")
            wait = NOTICE_EVERY


def workers_of(client: Any) -> int:
    return len(client.scheduler_info().get("workers", {}))


def run_on_dask(client: Any, todo: list[tuple[int, int]], rules: frozenset[int],
                limits: Limits, store: Store, analyse: Analyse) -> None:
    """Run the chunks ``todo`` on the cluster, storing each as it finishes; ChunkFailed for a
    chunk that killed its workers as many times as the scheduler allows."""
    dask: Any = importlib.import_module("distributed")
    futures = client.map(analyse, [a for a, _ in todo], [b for _, b in todo],
                         rules=rules, limits=limits, pure=False, retries=2)
    chunk_of = {future.key: chunk for future, chunk in zip(futures, todo, strict=True)}
    try:
        for future in dask.as_completed(futures):
            try:
                result = future.result()
            except dask.KilledWorker as exc:
                start, stop = chunk_of[future.key]
                deaths = exc.allowed_failures + 1
                times = "once" if deaths == 1 else f"{deaths} times"
                raise ChunkFailed(start, stop, f"killed its Dask worker {times} (a crash, or "
                                  "not enough memory)",
                                  [chunk_of[f.key] for f in _killed(dask, futures)]) from None
            future.release()
            store(result)
    except BaseException:
        client.cancel(futures)
        raise


def _killed(dask: Any, futures: list[Any]) -> list[Any]:
    """The futures Dask has given up on because their worker died: every chunk that was on
    that worker, queued or running, is blamed at once (a second to let the news arrive)."""
    with contextlib.suppress(Exception):  # the others still running: a timeout
        dask.wait(futures, timeout=1)
    return [future for future in futures if future.status == "error"
            and isinstance(future.exception(), dask.KilledWorker)]
