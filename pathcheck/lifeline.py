"""Worker processes that never outlive their parent, and no more of them than cores.

:func:`bind_to_parent` runs first thing in every worker process: the worker leaves signals
from the terminal to its parent (Ctrl-C interrupts the parent, which stops the workers
quietly) and dies with its parent, even when the parent is killed with ``kill -9`` (on Linux
through ``prctl(PR_SET_PDEATHSIG)``, elsewhere by a thread that watches the parent's pid).

>>> usable_cores() >= 1
True
>>> cap_jobs(10**9) == usable_cores()
True
>>> cap_jobs(1)
1
"""

from __future__ import annotations

import os
import signal
import sys
import threading

_PR_SET_PDEATHSIG = 1


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def cap_jobs(jobs: int) -> int:
    """``jobs`` workers, but never more than the usable cores (more only cost memory)."""
    return max(1, min(jobs, usable_cores()))


def bind_to_parent(parent_pid: int, *, ignore_interrupt: bool = True) -> None:
    """Make the calling worker process die with ``parent_pid`` (and ignore Ctrl-C, which the
    parent handles by stopping its workers)."""
    if ignore_interrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # a hang-up reaches the parent too: it stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's clean-up handler
    signal.set_wakeup_fd(-1)  # nor the parent's signal watchdog
    direct = os.getppid() == parent_pid  # False under the spawn/forkserver start methods
    if direct and sys.platform.startswith("linux") and _set_parent_death_signal():
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(parent_pid, direct), daemon=True,
                     name="pathcheck-lifeline").start()


def leave_signals_to_main_thread() -> None:
    """Block SIGINT, SIGTERM and SIGHUP in the calling (helper) thread, so that the kernel delivers
    them to the main thread: only there does a signal interrupt a blocking read and let
    Python run its handler at once."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def _set_parent_death_signal() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent_pid: int, direct: bool) -> None:
    """Poll: a process whose parent died gets another parent (init or a subreaper)."""
    while _alive(parent_pid) and (not direct or os.getppid() == parent_pid):
        threading.Event().wait(0.5)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True
