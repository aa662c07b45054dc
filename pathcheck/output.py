"""Writing output files atomically: a user's file is either the old one or the new one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pathcheck.errors import IOFailure


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    import tempfile

    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise IOFailure(f"{target}: cannot write: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise IOFailure(f"{target}: cannot write: {exc.strerror or exc}") from exc


class AtomicWriter:
    """A binary stream written to a temporary file and renamed over ``path`` on success.

    On an exception the temporary file is removed and ``path`` is left as it was.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import tempfile

        self.target = Path(path)
        try:
            self.target.parent.mkdir(parents=True, exist_ok=True)
            fd, self.tmp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp",
                                            dir=self.target.parent)
        except OSError as exc:
            raise IOFailure(f"{self.target}: cannot write: {exc.strerror or exc}") from exc
        self.handle = os.fdopen(fd, "wb")

    def write(self, data: bytes) -> int:
        return self.handle.write(data)

    def __enter__(self) -> AtomicWriter:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self.handle.flush()
                os.fsync(self.handle.fileno())
                self.handle.close()
                os.replace(self.tmp, self.target)
            except OSError as err:
                with contextlib.suppress(OSError):
                    os.unlink(self.tmp)
                raise IOFailure(f"{self.target}: cannot write: {err.strerror or err}") from err
        else:
            self.handle.close()
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
