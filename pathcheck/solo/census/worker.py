"""Preloaded into each LocalCluster worker process of a census (Dask's ``preload``).

A worker leaves Ctrl-C to the census it works for: the terminal sends SIGINT to every process
of the foreground group, and a worker's KeyboardInterrupt would print its traceback; the
census, interrupted, stops its workers itself (docs/cli.md, "Signals and pipes"). Workers a
Nanny starts again after a crash load this too.
"""

from __future__ import annotations

import signal
from typing import Any


def dask_setup(worker: Any) -> None:
    """Dask calls this in the worker process as it starts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
