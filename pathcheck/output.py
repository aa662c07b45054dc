"""Writing output files safely: a user's file is either the old one or the new one.

A regular file (or a name not yet taken) is written through a temporary file in the same
folder, renamed over it when complete. A symbolic link is followed: its target is replaced
that way, the link stays. A file that is not a regular one (a device such as ``/dev/null``,
a FIFO) is written straight into: it cannot be replaced, only fed. New files get the mode
``0666`` less the umask (an existing file keeps its mode), as the shell's ``>`` would.

Temporary files still being written are listed in :data:`LIVE_TEMPORARIES`, so that a signal
handler can remove them (see :func:`remove_temporaries`).

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> write_atomic(os.path.join(folder, "report.txt"), "held\\n")
>>> open(os.path.join(folder, "report.txt")).read()
'held\\n'
>>> os.listdir(folder)
['report.txt']
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from pathcheck.errors import IOFailure

LIVE_TEMPORARIES: set[str] = set()
"""Temporary files being written right now (removed by :func:`remove_temporaries`)."""


def remove_temporaries() -> None:
    """Remove every temporary file still being written (for a signal handler: no locks)."""
    for name in list(LIVE_TEMPORARIES):
        with contextlib.suppress(OSError):
            os.unlink(name)
        LIVE_TEMPORARIES.discard(name)


def _create_temporary(real: Path) -> tuple[int, str]:
    """A new hidden file beside ``real``, listed in LIVE_TEMPORARIES *before* it exists: a
    signal handler that runs at any moment either removes it or stops its creation."""
    import secrets

    for _ in range(100):
        name = str(real.parent / f".{real.name}.{secrets.token_hex(4)}.tmp")
        LIVE_TEMPORARIES.add(name)
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600), name
        except FileExistsError:
            LIVE_TEMPORARIES.discard(name)
        # Any other exception (an OSError, a signal's) leaves the name listed: the file may
        # exist by then, and removing a listed name that does not is harmless.
    raise FileExistsError(17, "no free temporary name")


def make_durable(folder: Path, paths: list[str]) -> None:
    """Bring the files ``paths`` of ``folder`` (written, not yet synced) to the disk at once,
    before they are renamed into place: one ``syncfs`` of the folder's file system where the
    C library has it (Linux), else an ``fsync`` of each. A batch of pages so pays one flush,
    not one per page, and a crash never leaves a renamed page short (docs/replay.md).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> make_durable(Path(folder), [])
    """
    if not paths:
        return
    if _syncfs(folder):
        return
    for path in paths:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _syncfs(folder: Path) -> bool:
    """``syncfs`` of ``folder``'s file system; False where there is none (not Linux)."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        call = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        if call(fd) != 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number))
    finally:
        os.close(fd)
    return True


def sync_folder(folder: Path) -> None:
    """``fsync`` a folder, so that the renames made in it last (where folders can be opened:
    not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse a folder's fsync
            os.fsync(fd)
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fail(target: Path, exc: OSError) -> IOFailure:
    return IOFailure(f"{target}: cannot write: {exc.strerror or exc}")


class AtomicWriter:
    """A binary stream for ``path``: on success the whole new file appears at once.

    On an exception the temporary file is removed and ``path`` is left as it was. A
    non-regular ``path`` (device, FIFO) is written straight into instead.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.target = Path(path)
        self.tmp: str | None = None
        self.abandoned = False
        # A symlink (or a chain of them) is followed: the link stays, its target is written.
        real = Path(os.path.realpath(self.target))
        try:
            info: os.stat_result | None = os.stat(real)
        except OSError:
            info = None
        try:
            if info is not None and stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(21, "Is a directory")
            if info is not None and not stat.S_ISREG(info.st_mode):
                self.handle = open(real, "wb")  # noqa: SIM115 - closed in __exit__
                return
            real.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = _create_temporary(real)
            self.tmp, self.real = tmp, real
            mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
            os.fchmod(fd, mode)
        except OSError as exc:
            if self.tmp is not None:
                self._discard()
            raise _fail(self.target, exc) from exc
        self.handle = os.fdopen(fd, "wb")

    def write(self, data: bytes) -> int:
        try:
            return self.handle.write(data)
        except BrokenPipeError:
            raise  # a FIFO whose reader went away: like a closed stdout
        except OSError as exc:  # e.g. the disk is full
            raise _fail(self.target, exc) from exc

    def fileno(self) -> int:
        return self.handle.fileno()

    def flush(self) -> None:
        try:
            self.handle.flush()
        except OSError as exc:
            raise self.failure(exc) from exc

    def failure(self, exc: OSError) -> IOFailure:
        """The error :meth:`write` raises for ``exc`` (also for a write made by a worker
        process straight to :meth:`fileno`)."""
        return _fail(self.target, exc)

    def __enter__(self) -> AtomicWriter:
        return self

    def abandon(self) -> None:
        """Leave ``path`` as it was: what was written is dropped at the end (a run that could
        read none of its inputs must not replace a file of results with an empty report)."""
        self.abandoned = True

    def _discard(self) -> None:
        assert self.tmp is not None
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)
        LIVE_TEMPORARIES.discard(self.tmp)

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is not None or (self.abandoned and self.tmp is not None):
            with contextlib.suppress(OSError):
                self.handle.close()
            if self.tmp is not None:
                self._discard()
            return
        try:
            self.handle.flush()
            if self.tmp is not None:
                os.fsync(self.handle.fileno())
            self.handle.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.real)
                LIVE_TEMPORARIES.discard(self.tmp)
        except OSError as err:
            if self.tmp is not None:
                self._discard()
            raise _fail(self.target, err) from err


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` safely (see the module doc: temp file and rename)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with AtomicWriter(path) as out:
        out.write(payload)
